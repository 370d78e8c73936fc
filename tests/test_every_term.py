"""Every kind of term link on every kind of page of every book and language, with each site generator, tapped on a
phone and hovered on a laptop: each opens its card; on a phone a second tap lands on the definition; a term a card
links opens its own card. And axe-core in every state a reader puts a page in: a card open by the pointer and by a
tap, search with results, the phone's drawer open, in both themes: nothing serious or critical.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

import pytest

from .conftest import CHROMIUM, GENERATORS, serve
from .site_pages import LAPTOP, PAGE_KINDS, PHONE
from .test_browser import search
from .test_reader_site import AXE, _axe_missing

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)"),
]
READERS = list({k.path: k for k in PAGE_KINDS if not k.editors and not k.path.endswith(".html")}.values())
"""Each reader's page of ``tests/site_pages.py`` once (not the 404 pages)."""

KINDS = """() => {
  const kind = (e) => e.classList.contains("rb-unpublished") ? "not published"
    : e.classList.contains("rb-example") ? "example"
    : e.closest("td, th") ? "in a table"
    : e.closest("li") ? "in a list"
    : "in the text";
  const found = {};
  document.querySelectorAll("article a.rb-term[data-term], article .rb-unpublished").forEach((e, i) => {
    if (e.getClientRects().length && !(kind(e) in found)) { found[kind(e)] = i; }
  });
  return found;
}"""
"""By kind of term link on the page, the index of the first one a reader can see."""
TERMS = "article a.rb-term[data-term], article .rb-unpublished"
LINKING = """() => {
  const previews = {};
  document.querySelectorAll("script.rb-previews").forEach(b => Object.assign(previews, JSON.parse(b.textContent)));
  return [...document.querySelectorAll("article a.rb-term[data-term]")].findIndex(a => {
    const card = previews[a.dataset.term];
    return a.getClientRects().length && card && (card.links || []).some(l => previews[l[2]]);
  });
}"""
"""The index of the first term whose card links another term with a card."""


@pytest.fixture(scope="module", params=GENERATORS)
def base(request: pytest.FixtureRequest) -> Iterator[str]:
    """The published site, built with each generator, served."""
    site = request.getfixturevalue("site" if request.param == "mkdocs" else "zensical_site")
    with serve(Path(site)) as url:
        yield url


@pytest.fixture
def tab(chromium: Any, base: str) -> Iterator[Any]:
    """A factory of tabs (a phone's with touch, or a laptop's); fails on a console error or a request off the host."""
    errors: list[str] = []
    contexts = []

    def make(screen: dict[str, int], scheme: str = "light") -> Any:
        touch = screen["width"] < 600
        context = chromium.new_context(viewport=screen, color_scheme=scheme, has_touch=touch, is_mobile=touch)
        contexts.append(context)
        page = context.new_page()
        page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.on("request", lambda r: None if r.url.startswith(base) else errors.append(f"off host: {r.url}"))
        return page

    yield make
    for context in contexts:
        context.close()
    assert errors == []


def _card(page: Any, count: int = 1) -> Any:
    cards = page.locator(".rb-preview")
    cards.nth(count - 1).wait_for(state="visible", timeout=3000)
    return cards.nth(count - 1)


def _landed(page: Any) -> bool:
    """Whether the page shows the element its address names (the definition a term leads to)."""
    fragment = urldefrag(page.url).fragment
    return not fragment or page.evaluate(
        "f => { const e = document.getElementById(decodeURIComponent(f)); if (!e) return false;"
        " const r = e.getBoundingClientRect(); return r.bottom > 0 && r.top < innerHeight }",
        fragment,
    )


def test_every_kind_of_term_on_every_kind_of_page_opens_its_card_on_a_phone(tab: Any, base: str) -> None:
    page = tab(PHONE)
    tried: list[str] = []
    for kind in READERS:
        page.goto(base + kind.path)
        for name, index in page.evaluate(KINDS).items():
            page.goto(base + kind.path)
            term = page.locator(TERMS).nth(index)
            term.scroll_into_view_if_needed()
            term.tap()
            card = _card(page)
            where = f"{kind.name} ({name})"
            assert card.locator(".rb-preview-title").inner_text().strip(), where
            assert page.url == base + kind.path, where  # the first tap did not leave the page
            if name != "not published":
                term.tap()  # the second tap follows the term to its definition
                page.wait_for_function("u => location.href !== u", arg=base + kind.path, timeout=5000)
                page.wait_for_load_state()
                assert _landed(page), (where, page.url)
            tried.append(where)
    assert len(tried) >= 30, tried


def test_every_kind_of_term_on_every_kind_of_page_opens_its_card_on_a_laptop(tab: Any, base: str) -> None:
    page = tab(LAPTOP)
    tried: list[str] = []
    for kind in READERS:
        page.goto(base + kind.path)
        for name, index in page.evaluate(KINDS).items():
            page.mouse.move(0, 0)
            page.locator(".rb-preview").first.wait_for(state="detached", timeout=3000)
            term = page.locator(TERMS).nth(index)
            term.scroll_into_view_if_needed()
            term.hover()
            card = _card(page)
            assert card.locator(".rb-preview-title").inner_text().strip(), f"{kind.name} ({name})"
            tried.append(f"{kind.name} ({name})")
    assert len(tried) >= 30, tried


@pytest.mark.parametrize("screen", ["phone", "laptop"])
def test_a_term_a_card_links_opens_its_own_card(tab: Any, base: str, screen: str) -> None:
    page = tab(PHONE if screen == "phone" else LAPTOP)
    for path in ("battlefield-logistics/", "fr/logistique-du-champ-de-bataille/", "other-game/playing-the-game/"):
        page.goto(base + path)
        index = page.evaluate(LINKING)
        assert index >= 0, f"{path}: no card links a term"
        term = page.locator("article a.rb-term[data-term]").nth(index)
        term.scroll_into_view_if_needed()
        term.tap() if screen == "phone" else term.hover()
        inner = _card(page).locator(".rb-preview-text a.rb-term").first
        inner.tap() if screen == "phone" else inner.hover()
        assert _card(page, 2).locator(".rb-preview-title").inner_text().strip(), path
        page.keyboard.press("Escape")
        page.keyboard.press("Escape")


# Accessibility in every state a reader puts a page in -------------------------------------------------------

SERIOUS = """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
    .filter(v => v.impact === "serious" || v.impact === "critical")
    .map(v => v.id + ": " + v.nodes.slice(0, 3).map(n => n.target.join(" ")).join(" | "))"""


def _axe(page: Any) -> list[str]:
    page.add_script_tag(path=str(AXE))
    found: list[str] = page.evaluate(SERIOUS)
    return found


@pytest.mark.skipif(_axe_missing(), reason="axe-core is not installed: npm install --prefix .ci/node axe-core@4")
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_axe_finds_nothing_serious_in_any_state(tab: Any, base: str, scheme: str) -> None:
    problems: list[str] = []
    for path in ("battlefield-logistics/", "tables/", "fr/caracteristiques/", "other-game/playing-the-game/"):
        laptop = tab(LAPTOP, scheme)
        laptop.goto(base + path)
        laptop.locator("article a.rb-term[data-term]").first.hover()
        _card(laptop)
        problems += [f"{path} card by the pointer: {p}" for p in _axe(laptop)]
        laptop.keyboard.press("Escape")
        assert search(laptop, "unit" if not path.startswith("fr/") else "unité").count(), path
        problems += [f"{path} search: {p}" for p in _axe(laptop)]
        phone = tab(PHONE, scheme)
        phone.goto(base + path)
        term = phone.locator("article a.rb-term[data-term]").first
        term.scroll_into_view_if_needed()
        term.tap()
        _card(phone)
        problems += [f"{path} card by a tap: {p}" for p in _axe(phone)]
        phone.keyboard.press("Escape")
        problems += [f"{path} a tapped term: {p}" for p in _axe(phone)]
        phone.locator("label.md-header__button[for='__drawer']").click()
        phone.wait_for_timeout(400)
        problems += [f"{path} drawer: {p}" for p in _axe(phone)]
    assert problems == []
