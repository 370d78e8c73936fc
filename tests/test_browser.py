"""The site in a real browser: Debian's Chromium driven by Playwright.

Hover a term and read its definition, follow it to the definition, search for a
term and land on it, switch dark mode; and through it all, no request leaves
localhost and no console error appears.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import CHROMIUM, GENERATORS, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)"),
]


@pytest.fixture(scope="module")
def base_url(request: pytest.FixtureRequest) -> Iterator[str]:
    """The published site, served; built with MkDocs, or with the generator a test is parametrised with."""
    generator = getattr(request, "param", "mkdocs")
    site = request.getfixturevalue("site" if generator == "mkdocs" else "zensical_site")
    with serve(site) as url:
        yield url


both_generators = pytest.mark.parametrize("base_url", GENERATORS, indirect=True)
"""A focused set of the tests below runs on the site built with either generator (each served once)."""


@pytest.fixture
def page(chromium: Any, base_url: str) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    outside: list[str] = []
    errors: list[str] = []
    tab.on("request", lambda request: outside.append(request.url) if not request.url.startswith(base_url) else None)
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert outside == [], "requests left localhost"
    assert errors == [], "console errors"


def search(page: Any, query: str) -> Any:
    """Type a query into the site's search; the result links. Material's (MkDocs) is in the page; Zensical's is its
    own dialog, opened by a button, in a shadow root (which Playwright's locators enter)."""
    page.locator("label.md-search__icon, .md-search__input, button.md-search__button").first.click()
    box = page.locator("input.md-search__input, input[aria-autocomplete='list']").first
    results = page.locator(".md-search-result__item a, a[role='option']")
    # The search index loads in a worker; a query typed before it is ready is answered on the next keystroke.
    for _ in range(30):
        box.fill(query)
        box.press("End")
        page.wait_for_timeout(500)
        if results.count():
            break
    return results


def hover(page: Any, term: Any) -> Any:
    """Hover a term link; its preview, once shown."""
    term.hover()
    preview = page.locator(".rb-preview")
    preview.wait_for(state="visible")
    return preview


@both_generators
def test_hovering_a_term_shows_its_definition(page: Any, base_url: str) -> None:
    page.goto(base_url + "battlefield-logistics/")
    term = page.locator("a.rb-term[data-term='base']").first
    preview = hover(page, term)
    assert preview.locator("strong").inner_text() == "Base"
    assert "All models are placed on a square, rectangular or round base." in preview.inner_text()
    # The pointer may move onto the card: it stays; moved away, the card closes after a moment.
    box = preview.bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, steps=8)
    page.wait_for_timeout(600)
    assert page.locator(".rb-preview").count() == 1
    page.locator("main h1").hover()
    page.locator(".rb-preview").wait_for(state="detached")


@both_generators
def test_following_a_term_lands_on_its_definition(page: Any, base_url: str) -> None:
    page.goto(base_url + "battlefield-logistics/")
    page.locator("a.rb-term[data-term='arc']").first.click()
    page.wait_for_url(re.compile(r"models-units-and-formations/#term-arc$"))
    definition = page.locator("#term-arc")
    assert definition.is_visible()
    box = definition.bounding_box()
    assert box is not None and 0 <= box["y"] < 900


def test_terms_not_published_yet_are_not_links(page: Any, base_url: str) -> None:
    page.goto(base_url + "models-units-and-formations/")
    cannon = page.locator("span.rb-unpublished", has_text="Cannon").first
    preview = hover(page, cannon)
    assert preview.locator(".rb-preview-title").inner_text() == "Cannon"
    assert preview.locator(".rb-preview-text").inner_text() == "Defined in a chapter not published yet."
    assert page.locator("a", has_text="Cannon").count() == 0


@both_generators
def test_search_finds_a_term_and_lands_on_it(page: Any, base_url: str) -> None:
    page.goto(base_url)
    search(page, "scatter dice").first.click()
    page.wait_for_url(re.compile(r"general-principles/"))
    assert "Scatter Dice" in page.locator("article").inner_text()


@both_generators
def test_dark_mode_switch(page: Any, base_url: str) -> None:
    page.goto(base_url + "glossary/")
    scheme = page.locator("body").get_attribute("data-md-color-scheme")
    page.locator("form[data-md-component='palette'] label:visible").first.click()
    assert page.locator("body").get_attribute("data-md-color-scheme") != scheme
    page.reload()
    assert page.locator("body").get_attribute("data-md-color-scheme") != scheme  # the choice is remembered


def test_glossary_backlinks_lead_to_the_sections(page: Any, base_url: str) -> None:
    page.goto(base_url + "glossary/#active_player")
    page.locator("#active_player .rb-used-in a").first.click()
    page.wait_for_url(re.compile(r"general-principles/#simultaneous-effects$"))
    assert page.locator("#simultaneous-effects").is_visible()


def test_serve_rebuilds_and_reloads_the_page_when_a_source_changes(chromium: Any, tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys
    import time

    from .conftest import BUNDLED_BOOK, ROOT

    book = tmp_path / "book.xml"
    shutil.copyfile(BUNDLED_BOOK, book)
    server = subprocess.Popen(
        [sys.executable, "-m", "rulebook", "serve", "--port", "0", str(book)],
        cwd=ROOT,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        line = ""
        while "Serving on" not in line:
            line = server.stderr.readline() if server.stderr else ""
            assert line or server.poll() is None, "rulebook serve stopped"
        url = line.split("Serving on ", 1)[1].split()[0]
        context = chromium.new_context()
        tab = context.new_page()
        tab.goto(url + "battlefield-logistics/")
        assert "Measuring Distances" in tab.locator("article h2").first.inner_text()
        book.write_text(book.read_text(encoding="utf-8").replace("Measuring Distances", "Measuring Ranges"), "utf-8")
        deadline = time.monotonic() + 60
        while "Measuring Ranges" not in tab.locator("article h2").first.inner_text():
            assert time.monotonic() < deadline, "the page did not reload after the change"
            tab.wait_for_timeout(500)
        context.close()
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_reloads_a_page_where_it_was_scrolled_to(chromium: Any, tmp_path: Path) -> None:
    import shutil

    from .conftest import BUNDLED_BOOK, ROOT
    from .serving import Served, edit

    book = tmp_path / "book.xml"
    shutil.copyfile(BUNDLED_BOOK, book)
    with Served([str(book)], cwd=ROOT, temp=tmp_path / "tmp") as served:
        context = chromium.new_context(viewport={"width": 1280, "height": 600})
        tab = context.new_page()
        tab.goto(served.url + "characteristics/")
        tab.evaluate("window.scrollTo(0, 1200); window.beforeReload = true")
        tab.wait_for_function("window.scrollY === 1200")
        edit(book, 'title="The Characteristics Profile"', 'title="The Characteristics Table"')
        tab.wait_for_function("window.beforeReload === undefined", timeout=300_000)  # a new page
        tab.wait_for_function("document.readyState === 'complete'")
        assert "The Characteristics Table" in tab.locator("article").inner_text()
        assert tab.evaluate("window.scrollY") == 1200
        context.close()


def _switch_language(page: Any, name: str) -> None:
    page.locator(".md-header .md-select").hover()
    page.locator(".md-select__link", has_text=name).click()


@both_generators
def test_language_switcher_lands_on_the_aligned_section(page: Any, base_url: str) -> None:
    page.goto(base_url + "characteristics/#performing-a-leadership-test")
    _switch_language(page, "Français")
    page.wait_for_url(re.compile(r"/fr/caracteristiques/#test-de-commandement$"))
    assert page.locator("html").get_attribute("lang") == "fr"
    assert "Test de Commandement" in page.locator("#test-de-commandement").inner_text()
    _switch_language(page, "English")
    page.wait_for_url(re.compile(r"/characteristics/#performing-a-leadership-test$"))


def test_a_numbered_french_address_leads_to_the_named_page_and_section(page: Any, base_url: str) -> None:
    page.goto(base_url + "fr/s5/#s5-2-3")  # as links made before the pages were named by their titles
    page.wait_for_url(re.compile(r"/fr/caracteristiques/#s5-2-3$"))
    box = page.locator("#test-de-commandement").bounding_box()
    assert box is not None and 0 <= box["y"] < 900


@both_generators
def test_french_term_links_preview_the_french_text_and_lead_to_it(page: Any, base_url: str) -> None:
    page.goto(base_url + "fr/logistique-du-champ-de-bataille/")
    term = page.locator("a.rb-term[data-term='base']").first
    preview = hover(page, term)
    assert preview.locator("strong").inner_text() == "socle (Base)"
    assert "Toutes les figurines sont fixées sur des socles" in preview.inner_text()
    term.click()
    page.wait_for_url(re.compile(r"/fr/figurines-unites-et-formations/#term-base$"))
    definition = page.locator("#term-base")
    assert definition.inner_text().endswith("socles")  # the first use in the section aligned with Base's
    box = definition.bounding_box()
    assert box is not None and 0 <= box["y"] < 900


def test_an_untranslated_chapter_says_so_and_links_to_the_original(page: Any, base_url: str) -> None:
    page.goto(base_url + "fr/")
    page.locator(".rb-toc a", has_text="Deployment Phase").click()
    notice = page.locator(".rb-untranslated")
    assert "Ce chapitre n'est pas encore traduit." in notice.inner_text()
    notice.locator("a").click()
    page.wait_for_url(re.compile(r"/deployment_phase/$"))
    assert page.locator("html").get_attribute("lang") == "en"


@both_generators
def test_a_french_page_whose_original_changed_says_so_and_leads_to_the_english_text(page: Any, base_url: str) -> None:
    page.goto(base_url + "fr/")
    status = page.locator(".rb-translation-status")
    assert "4 à retraduire" in status.inner_text()
    status.locator("a", has_text="Tour de joueur").click()
    page.wait_for_url(re.compile(r"/fr/principes-generaux/#tour-de-joueur$"))
    page.evaluate("window.scrollTo(0, 0)")
    banner = page.locator(".rb-outdated")
    assert banner.locator(".admonition-title").inner_text() == (
        "Des parties de cette page ont été traduites d'une édition antérieure\u00a0; le texte anglais a changé depuis."
    )
    box = banner.bounding_box()
    title = page.locator("article h1").bounding_box()
    assert box is not None and title is not None and title["y"] < box["y"] < 900  # at the top, under the title
    banner.locator("li", has_text="Tour de joueur").locator("a", has_text="voir la page anglaise").click()
    page.wait_for_url(re.compile(r"/turns-later/turns/#player-turn$"))
    assert page.locator("html").get_attribute("lang") == "en"
    heading = page.locator("#player-turn")
    assert heading.inner_text().startswith("Player Turn") and heading.is_visible()
    assert "five phases" in page.locator("article").inner_text()


@both_generators
def test_french_search_finds_french_text(page: Any, base_url: str) -> None:
    page.goto(base_url + "fr/")
    search(page, "dé de déviation").first.click()
    page.wait_for_url(re.compile(r"/fr/principes-generaux/"))
    assert "Le dé de déviation" in page.locator("article").inner_text()


@both_generators
def test_the_other_games_site_links_its_terms(page: Any, base_url: str) -> None:
    page.goto(base_url + "other-game/playing-the-game/")
    assert page.locator("header").inner_text().count("Another game") == 1
    term = page.locator("a.rb-term[data-term='defense_roll']").first
    preview = hover(page, term)
    assert preview.locator("strong").inner_text() == "Defense Roll"
    assert "attempt to use their defense to ignore the injury" in preview.inner_text()
    term.click()
    page.wait_for_url(re.compile(r"/other-game/playing-the-game/#term-defense_roll$"))


@pytest.fixture(scope="module")
def hostile_titles_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A site as published from hostile titles, terms, configuration values, French headings and words
    (:mod:`tests.hostile.hostile_text`): each ends in an attribute list with ``autofocus onfocus=alert(3)``."""
    from rulebook.cli import main

    from .hostile.hostile_text import make_project

    folder = make_project(tmp_path_factory.mktemp("hostile-titles"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        assert main(["build", "-q"]) == 0
    return folder / "site"


HANDLERS = """[...document.querySelectorAll('*')].flatMap(element =>
    [...element.attributes].filter(a => a.name.startsWith('on')).map(a => element.tagName + ' ' + a.name))"""
"""Every event-handler attribute of the page, as ``TAG onname``."""


def test_hostile_titles_run_nothing_on_load_or_focus(chromium: Any, hostile_titles_site: Path) -> None:
    """Made attributes of a heading, such a title ran its handler on load, with no interaction (autofocus)."""
    dialogs: list[str] = []
    handlers: dict[str, list[str]] = {}
    with serve(hostile_titles_site) as url:
        context = chromium.new_context()
        tab = context.new_page()
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        pages = [page.relative_to(hostile_titles_site).as_posix() for page in hostile_titles_site.rglob("*.html")]
        assert len(pages) > 10
        for page in sorted(pages):
            tab.goto(url + page)
            tab.wait_for_timeout(100)
            for _ in range(4):
                tab.keyboard.press("Tab")
            handlers[page] = tab.evaluate(HANDLERS)
            assert "autofocus onfocus=alert(3)" in tab.locator("body").inner_text(), page
        context.close()
    assert dialogs == []
    assert {page: found for page, found in handlers.items() if found} == {}


def test_pictures_run_nothing_and_only_pictures_are_served(chromium: Any, tmp_path: Path) -> None:
    """An SVG opened at its own address is a document of the site: none is published (each is drawn into a PNG,
    served as a picture), and a scripted one, an HTML page or a page named `.png` is not there to open."""
    from rulebook.cli import main
    from rulebook.pictures import published_name

    from .hostile.pictures import FILES, PUBLISHED, make_project

    folder = make_project(tmp_path)
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        assert main(["build", "-q"]) == 0
    dialogs: list[str] = []
    with serve(folder / "site") as url:
        context = chromium.new_context()
        tab = context.new_page()
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        tab.goto(url + "pictures/")
        tab.wait_for_timeout(200)
        statuses = {}
        for name in sorted({*FILES, *map(published_name, PUBLISHED)}):
            response = tab.goto(url + "images/" + name)
            statuses[name] = response.status if response is not None else None
            tab.wait_for_timeout(100)
        context.close()
    assert dialogs == []
    assert {name for name, status in statuses.items() if status == 200} == {published_name(n) for n in PUBLISHED}
    assert statuses["arc.svg"] == 404 and statuses["arc.svg.png"] == 200
