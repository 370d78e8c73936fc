"""Screenshots of every kind of page of the bundled project's sites, on a laptop and a phone, light and dark.

    .venv/bin/python docs/screenshots/take.py

Builds the published site and the editor's view (``build --drafts``) into a temporary folder, serves
them on localhost and shoots each kind of page of ``tests/site_pages.py`` with Debian's Chromium:
``NAME-1366x900-light.png``, ``NAME-390x844-light.png``, and the dark theme where its colours matter;
then a term's card, opened by a tap on a phone (light and dark), by the pointer on a laptop, and near
the bottom of a phone's screen; then what a reader does to a page (a card with the card of a term it links, the
phone's drawer, search with results, the note of a page the language switcher reached from one its language
lacks). Look at every one before committing them.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from rulebook.cli import main as rulebook  # noqa: E402
from tests.conftest import CHROMIUM, CHROMIUM_ARGS, serve  # noqa: E402
from tests.site_pages import LAPTOP, PAGE_KINDS, PHONE, PageKind  # noqa: E402
from tests.test_browser import search  # noqa: E402

HERE = Path(__file__).resolve().parent


def build(folder: Path) -> dict[bool, Path]:
    """The published site and the editor's view, built from the project."""
    sites = {False: folder / "site", True: folder / "drafts"}
    os.chdir(ROOT)  # the project's configuration
    for drafts, output in sites.items():
        if rulebook(["build", "-q", "--output", str(output), *(["--drafts"] if drafts else [])]) != 0:
            raise SystemExit(f"rulebook build failed ({output.name})")
    return sites


def shoot(chromium: Any, urls: dict[bool, str], screen: dict[str, int], scheme: str) -> Any:
    """A tab in one screen size and colour scheme (a phone has a touch screen)."""
    touch = screen["width"] < 600
    context = chromium.new_context(viewport=screen, color_scheme=scheme, has_touch=touch, is_mobile=touch)
    return context.new_page()


def show(tab: Any, selector: str | None) -> None:
    """Scroll so the element is just below the header, and let the header settle."""
    if selector:
        top = "s => document.querySelector(s).getBoundingClientRect().top + scrollY"
        tab.evaluate("y => window.scrollTo(0, y)", tab.evaluate(top, selector) - 72)
    tab.wait_for_timeout(500)


def name(kind: str, screen: dict[str, int], scheme: str) -> str:
    return f"{kind}-{screen['width']}x{screen['height']}-{scheme}.png"


def pages(chromium: Any, urls: dict[bool, str]) -> list[str]:
    taken = []
    for screen in (LAPTOP, PHONE):
        for scheme in ("light", "dark"):
            tab = shoot(chromium, urls, screen, scheme)
            kinds: list[PageKind] = [k for k in PAGE_KINDS if scheme == "light" or k.dark]
            for kind in kinds:
                tab.goto(urls[kind.editors] + kind.path)
                show(tab, kind.show)
                tab.screenshot(path=HERE / name(kind.name, screen, scheme))
                taken.append(name(kind.name, screen, scheme))
            tab.context.close()
    return taken


def cards(chromium: Any, urls: dict[bool, str]) -> list[str]:
    taken = []
    for screen, scheme in ((PHONE, "light"), (PHONE, "dark"), (LAPTOP, "light")):
        tab = shoot(chromium, urls, screen, scheme)
        tab.goto(urls[False] + "characteristics/")
        show(tab, ".rb-table")
        term = tab.locator("a.rb-term[data-term='model']").first
        if screen is PHONE:
            term.tap()
        else:
            term.hover()
        tab.locator(".rb-preview").wait_for(state="visible")
        tab.screenshot(path=HERE / name("card", screen, scheme))
        taken.append(name("card", screen, scheme))
        tab.context.close()
    tab = shoot(chromium, urls, PHONE, "light")
    tab.goto(urls[False] + "models-units-and-formations/")
    term = tab.locator("a.rb-term[data-term='arc']").first
    tab.evaluate("t => window.scrollBy(0, t.getBoundingClientRect().bottom - innerHeight + 4)", term.element_handle())
    tab.wait_for_timeout(500)
    term.tap()
    tab.locator(".rb-preview").wait_for(state="visible")
    tab.screenshot(path=HERE / name("card-bottom", PHONE, "light"))
    tab.context.close()
    return [*taken, name("card-bottom", PHONE, "light")]


def states(chromium: Any, urls: dict[bool, str]) -> list[str]:
    """What a reader does to a page: a card kept open with the card of a term it links, Copy link on a phone, the
    phone's drawer, search with results, and a page the language switcher reached from one its language lacks."""
    taken = []
    for screen in (LAPTOP, PHONE):
        tab = shoot(chromium, urls, screen, "light")
        tab.goto(urls[False] + "battlefield-logistics/")
        term = tab.locator("article a.rb-term[data-term='arc']").first
        show(tab, "#line-of-sight")
        term.tap() if screen is PHONE else term.hover()
        inner = tab.locator(".rb-preview .rb-preview-text a.rb-term").first
        inner.tap() if screen is PHONE else inner.hover()
        tab.locator(".rb-preview").nth(1).wait_for(state="visible")
        if screen is PHONE:
            tab.locator(".rb-preview").nth(1).locator(".rb-preview-copy").tap()
        tab.wait_for_timeout(300)
        taken.append(save(tab, "card-nested", screen, "light"))
        tab.context.close()
    tab = shoot(chromium, urls, PHONE, "light")
    tab.goto(urls[False] + "characteristics/")
    tab.locator("label.md-header__button[for='__drawer']").click()
    tab.wait_for_timeout(600)
    taken.append(save(tab, "drawer", PHONE, "light"))
    tab.context.close()
    for scheme in ("light", "dark"):
        tab = shoot(chromium, urls, LAPTOP, scheme)
        tab.goto(urls[False] + "glossary/")
        search(tab, "leadership")
        taken.append(save(tab, "search", LAPTOP, scheme))
        tab.context.close()
    tab = shoot(chromium, urls, PHONE, "light")
    tab.goto(urls[True] + "fr/#rb-nearest")  # as the switcher leads there from the lint report
    tab.wait_for_timeout(400)
    taken.append(save(tab, "fr-nearest", PHONE, "light"))
    tab.context.close()
    return taken


def save(tab: Any, kind: str, screen: dict[str, int], scheme: str) -> str:
    tab.screenshot(path=HERE / name(kind, screen, scheme))
    return name(kind, screen, scheme)


def take() -> list[str]:
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as folder:
        sites = build(Path(folder))
        with serve(sites[False]) as published, serve(sites[True]) as drafts, sync_playwright() as playwright:
            urls = {False: published, True: drafts}
            chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
            try:
                return pages(chromium, urls) + cards(chromium, urls) + states(chromium, urls)
            finally:
                chromium.close()


if __name__ == "__main__":
    for old in HERE.glob("*.png"):
        old.unlink()
    shots = take()
    print(f"{len(shots)} screenshots in {HERE.relative_to(ROOT)}/")
