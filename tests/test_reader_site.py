"""The published site as a player meets it at the table, in Debian's Chromium: on a phone and a laptop,
light and dark, every kind of page of every book.

No page speaks the lint's language; a tap on a phone opens a term's card and a second tap follows it;
cards stay inside the screen; nothing is wider than a 320 px screen; text is large enough to read; and
axe-core finds no serious or critical accessibility problem (contrast included) on any kind of page.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM, ROOT, serve
from .site_pages import LAPTOP, NARROWEST, PAGE_KINDS, PHONE, PageKind
from .test_site import LINT_WORDS

AXE = ROOT / ".ci" / "node" / "node_modules" / "axe-core" / "axe.min.js"
"""axe-core, where .ci/run installs it (``npm install --prefix .ci/node axe-core@4``)."""

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)"),
]
READERS = [kind for kind in PAGE_KINDS if not kind.editors]
SCREENS = {"phone": PHONE, "laptop": LAPTOP}


@pytest.fixture(scope="module")
def urls(site: Path, drafts_site: Path) -> Iterator[dict[bool, str]]:
    """The published site's base URL (``False``) and the editor's view's (``True``)."""
    with serve(site) as published, serve(drafts_site) as drafts:
        yield {False: published, True: drafts}


class Visit:
    """A tab in one screen size and colour scheme; fails on a console error or a request off the host."""

    def __init__(self, chromium: Any, urls: dict[bool, str], screen: dict[str, int], scheme: str = "light") -> None:
        touch = screen["width"] < 600
        self.urls = urls
        self.context = chromium.new_context(viewport=screen, color_scheme=scheme, has_touch=touch, is_mobile=touch)
        self.errors: list[str] = []
        self.tab = self.context.new_page()
        self.tab.on("console", lambda message: self.errors.append(message.text) if message.type == "error" else None)
        self.tab.on("pageerror", lambda error: self.errors.append(str(error)))
        local = tuple(urls.values())
        self.tab.on("request", lambda r: None if r.url.startswith(local) else self.errors.append(f"off host: {r.url}"))

    def open(self, kind: PageKind, path: str | None = None) -> Any:
        self.tab.goto(self.urls[kind.editors] + (kind.path if path is None else path))
        return self.tab

    def close(self) -> None:
        self.context.close()
        assert self.errors == [], self.errors


@pytest.fixture
def visit(chromium: Any, urls: dict[bool, str]) -> Iterator[Any]:
    opened: list[Visit] = []

    def make(screen: dict[str, int], scheme: str = "light") -> Visit:
        opened.append(Visit(chromium, urls, screen, scheme))
        return opened[-1]

    yield make
    for each in opened:
        each.close()


# Cards on a phone ---------------------------------------------------------------------------------


def _card(tab: Any) -> Any:
    card = tab.locator(".rb-preview")
    card.wait_for(state="visible")
    return card


def test_a_tap_shows_the_card_and_a_second_tap_follows_the_term(visit: Any) -> None:
    tab = visit(PHONE).open(READERS[0], "battlefield-logistics/")
    term = tab.locator("a.rb-term[data-term='arc']").first
    term.scroll_into_view_if_needed()
    term.tap()
    card = _card(tab)
    assert card.get_attribute("role") == "dialog"
    assert card.locator(".rb-preview-title").inner_text() == "Arc"
    assert tab.url.endswith("/battlefield-logistics/")  # the first tap did not navigate
    assert card.locator(".rb-preview-go").inner_text() == "Go to the rule"
    term.tap()
    tab.wait_for_url(re.compile(r"/models-units-and-formations/#term-arc$"))
    definition = tab.locator("#term-arc").bounding_box()
    assert definition is not None and 0 <= definition["y"] < PHONE["height"]


def test_on_the_same_page_the_second_tap_lands_on_an_uncovered_definition(visit: Any) -> None:
    tab = visit(PHONE).open(READERS[0], "models-units-and-formations/#units")
    term = tab.locator("#units ~ .rb-body a.rb-term[href^='#term-']").first
    term.tap()
    _card(tab)
    term.tap()
    tab.wait_for_url(re.compile(r"#term-"))
    assert tab.locator(".rb-preview").count() == 0  # the card is gone: it covers nothing


def test_the_card_closes_and_gives_focus_back(visit: Any) -> None:
    tab = visit(PHONE).open(READERS[0], "battlefield-logistics/")
    term = tab.locator("a.rb-term[data-term='arc']").first
    term.tap()
    card = _card(tab)
    card.locator(".rb-preview-close").tap()
    assert tab.locator(".rb-preview").count() == 0
    term.tap()
    _card(tab)
    tab.keyboard.press("Escape")
    assert tab.locator(".rb-preview").count() == 0
    assert tab.evaluate("document.activeElement.getAttribute('data-term')") == "arc"


def test_a_term_not_published_yet_explains_itself_in_a_card(visit: Any) -> None:
    tab = visit(PHONE).open(READERS[0], "models-units-and-formations/")
    tab.locator(".rb-unpublished", has_text="Cannon").first.tap()
    card = _card(tab)
    assert "Defined in a chapter not published yet." in card.inner_text()
    assert card.locator(".rb-preview-go").count() == 0


@pytest.mark.parametrize("screen", SCREENS)
def test_a_card_near_the_bottom_of_the_screen_stays_inside_it(visit: Any, screen: str) -> None:
    size = SCREENS[screen]
    tab = visit(size).open(READERS[0], "models-units-and-formations/")
    for term in tab.locator("a.rb-term[data-term='model']").all()[:12]:
        # The term on the last line of the screen, then near its right edge.
        tab.evaluate(
            "t => window.scrollBy(0, t.getBoundingClientRect().bottom - innerHeight + 4)", term.element_handle()
        )
        if screen == "phone":
            term.tap()
        else:
            term.hover()
        box = _card(tab).bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= size["height"], box
        assert box["x"] >= 0 and box["x"] + box["width"] <= size["width"], box
        tab.keyboard.press("Escape")


def test_focus_describes_the_term_by_its_card_and_escape_closes_it(visit: Any) -> None:
    tab = visit(LAPTOP).open(READERS[0], "battlefield-logistics/")
    term = tab.locator("a.rb-term[data-term='arc']").first
    term.focus()
    card = _card(tab)
    assert card.get_attribute("role") == "dialog" and card.get_attribute("aria-label") == "Arc"
    assert term.get_attribute("aria-describedby") == card.locator(".rb-preview-text").get_attribute("id")
    tab.keyboard.press("Escape")
    assert tab.locator(".rb-preview").count() == 0 and term.get_attribute("aria-describedby") is None
    assert tab.evaluate("document.activeElement.getAttribute('data-term')") == "arc"


def test_the_keyboard_reaches_the_links_in_a_card_and_goes_on_after_its_term(visit: Any) -> None:
    tab = visit(LAPTOP).open(READERS[0], "battlefield-logistics/")
    term = tab.locator("a.rb-term[data-term='arc']").first
    tab.evaluate(
        """t => { const all = [...document.querySelectorAll("a[href], button, [tabindex='0']")]
            .filter(e => e.getClientRects().length); all[all.indexOf(t) + 1].dataset.next = "yes" }""",
        term.element_handle(),
    )
    term.focus()
    _card(tab)
    tab.keyboard.press("ArrowDown")  # into the card: its first link, the term "unit"
    assert tab.evaluate("document.activeElement.closest('.rb-preview') && document.activeElement.textContent") == "unit"
    assert tab.locator(".rb-preview").count() == 2  # the focused term in the card shows its own card
    tab.keyboard.press("Escape")  # closes the nested card; the focus stays in the first
    assert tab.locator(".rb-preview").count() == 1
    for _ in range(6):  # through the card's links, "Go to the rule", "Copy link" and Close, then out
        tab.keyboard.press("Tab")
        if not tab.evaluate("!!document.activeElement.closest('.rb-preview')"):
            break
    assert tab.evaluate("document.activeElement.dataset.next") == "yes"  # what follows the term on the page
    assert tab.locator(".rb-preview .rb-preview-title").all_inner_texts() != ["Arc"]


def test_a_term_not_published_yet_is_reached_by_the_keyboard(visit: Any) -> None:
    tab = visit(LAPTOP).open(READERS[0], "models-units-and-formations/")
    marked = tab.locator(".rb-unpublished")
    # Each term not published yet is marked once per page, where the page first uses it.
    names = [marked.nth(i).inner_text().lower() for i in range(marked.count())]
    assert len(names) == len(set(names)) > 0
    marked.first.focus()
    card = _card(tab)
    assert "Defined in a chapter not published yet." in card.inner_text()
    assert marked.first.get_attribute("aria-describedby") == card.locator(".rb-preview-text").get_attribute("id")


def test_a_table_definition_shows_its_first_row_in_the_card(visit: Any) -> None:
    tab = visit(LAPTOP).open(READERS[0], "glossary/")
    card_of = tab.locator("a.rb-term[data-term='characteristics_profile']").first
    card_of.hover()
    card = _card(tab)
    assert card.locator(".rb-preview-table tr").count() == 1
    assert "and 8 more rows" in card.inner_text()


# Phones: widths and sizes -------------------------------------------------------------------------


def test_every_kind_of_page_on_the_narrowest_phone(visit: Any) -> None:
    """On a 320 px screen: no lint words on a reader's page (once its script has run: every page's HTML is
    checked in test_site.py), nothing wider than the screen, and our tables and sequences need no sideways
    scrolling (roll tables and sequences stay readable)."""
    browser = visit(NARROWEST)
    problems = []
    for kind in PAGE_KINDS:
        tab = browser.open(kind)
        shown = tab.evaluate(
            "document.body.innerText + [...document.querySelectorAll('[title], [aria-label]')]"
            ".map(e => ' ' + (e.title || '') + ' ' + (e.getAttribute('aria-label') || '')).join('')"
        )
        found = LINT_WORDS.search(shown)
        if found and not kind.editors:
            problems.append(f"{kind.name}: says {found.group()!r}")
        wide = tab.evaluate("document.querySelector('.md-container').scrollWidth")
        if wide > NARROWEST["width"]:
            problems.append(f"{kind.name}: {wide} px wide")
        cramped = tab.evaluate(
            "[...document.querySelectorAll('.rb-table table, .rb-sequence')]"
            ".filter(t => t.scrollWidth > t.clientWidth + 1).map(t => t.outerHTML.slice(0, 60))"
        )
        problems += [f"{kind.name}: scrolls sideways: {html}" for html in cramped]
    assert problems == []


@pytest.mark.parametrize("screen", SCREENS)
def test_text_is_large_enough_to_read(visit: Any, screen: str) -> None:
    browser = visit(SCREENS[screen])
    sizes = """(selector) => [...document.querySelectorAll(selector)]
        .filter(e => e.offsetParent && e.innerText.trim()).map(e => parseFloat(getComputedStyle(e).fontSize))"""
    text = "article :is(p, li):not(table *, figcaption *)"
    for path in (
        "models-units-and-formations/",
        "characteristics/",
        "tables/",
        "general-principles/",
        "fr/caracteristiques/",
        "fr/principes-generaux/",  # the banner of a page translated from an earlier edition
    ):
        tab = browser.open(READERS[0], path)
        body = tab.evaluate(sizes, text)
        tables = tab.evaluate(sizes, ".rb-table td, .rb-table th")
        assert body and min(body) >= 16, (path, min(body))
        assert not tables or min(tables) >= 14, (path, min(tables))


def test_the_home_page_tells_phone_users_to_tap(visit: Any) -> None:
    tab = visit(PHONE).open(READERS[0])
    text = tab.locator("article").inner_text()
    assert "tap or hover" in text and "1 chapters" not in text and "unknown" not in text.lower()


# Accessibility --------------------------------------------------------------------------------------


def _axe_missing() -> bool:
    if AXE.is_file():
        return False
    if os.environ.get("CI"):
        pytest.fail(f"axe-core is missing from {AXE.relative_to(ROOT)}: .ci/run installs it")
    return True


@pytest.mark.skipif(_axe_missing(), reason="axe-core is not installed: npm install --prefix .ci/node axe-core@4")
@pytest.mark.parametrize(("screen", "scheme"), [("laptop", "light"), ("phone", "dark")])
def test_axe_finds_no_serious_problem_on_any_kind_of_page(visit: Any, screen: str, scheme: str) -> None:
    # Every kind of page in light on a laptop; in dark on a phone, those whose colours are their own.
    browser = visit(SCREENS[screen], scheme)
    problems = []
    for kind in PAGE_KINDS if scheme == "light" else [k for k in PAGE_KINDS if k.dark]:
        tab = browser.open(kind)
        tab.add_script_tag(path=str(AXE))
        found = tab.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
                .filter(v => v.impact === "serious" || v.impact === "critical")
                .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "))"""
        )
        problems += [f"{kind.name}: {problem}" for problem in found]
    assert problems == []


@pytest.mark.skipif(_axe_missing(), reason="axe-core is not installed: npm install --prefix .ci/node axe-core@4")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_an_open_card_passes_axe_in_both_themes(visit: Any, scheme: str) -> None:
    tab = visit(PHONE, scheme).open(READERS[0], "characteristics/")
    tab.locator("a.rb-term[data-term='model_part']").first.tap()
    _card(tab)
    tab.add_script_tag(path=str(AXE))
    found = tab.evaluate(
        """async () => (await axe.run(".rb-preview", {resultTypes: ["violations"]})).violations
            .filter(v => v.impact === "serious" || v.impact === "critical").map(v => v.id)"""
    )
    assert found == []
