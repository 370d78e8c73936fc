"""The site built to be read from disk (``rulebook build --offline``): every page a file, every link to a file.

Its links are checked on disk, and Chromium opens ``file:///.../site/index.html``: a term's card, following it,
the language switcher, an old French address and Material's search all work without a server.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import lxml.html
import pytest

from rulebook.cli import main
from rulebook.project import parse_project
from rulebook.site.pages import LinkStyle, link, page_url

from .conftest import CHROMIUM

OFFLINE = LinkStyle(directory_urls=False)
browser = pytest.mark.browser
needs_chromium = pytest.mark.skipif(
    not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)"
)


def test_offline_pages_are_files_and_links_name_them() -> None:
    assert [page_url(p, directory_urls=False) for p in ("a.md", "index.md", "fr/index.md")] == [
        "a.html",
        "index.html",
        "fr/index.html",
    ]
    assert link(OFFLINE, "s3.md", "s4.md#term-x") == "s4.html#term-x"
    assert link(OFFLINE, "fr/s3.md", "s4.md") == "../s4.html"
    assert link(OFFLINE, "fr/s3.md", "fr/index.md") == "index.html"
    assert link(OFFLINE, "s3.md", "../other-game/") == "../other-game/index.html"
    assert link(OFFLINE, "index.md", "images/a.png") == "images/a.png"
    assert link(LinkStyle(), "s3.md", "s4.md#term-x") == "../s4/#term-x"  # the default is unchanged


def _targets(site: Path) -> Iterator[tuple[Path, str]]:
    """Every relative ``href`` and ``src`` of every HTML file of the site (but the 404 pages, which no server
    sends from disk, and whose links are from the site's root), with the file holding it."""
    for file in sorted(f for f in site.rglob("*.html") if f.name != "404.html"):  # no 404 page from disk
        tree = lxml.html.fromstring(file.read_bytes())
        for element, attribute, value, _ in tree.iterlinks():
            if attribute in {"href", "src"} and element.tag != "form":
                scheme = urlsplit(value).scheme
                if not scheme and value and not value.startswith("#"):
                    yield file, value


def test_every_relative_link_of_the_offline_site_opens_a_file(any_offline_site: Path) -> None:
    offline_site = any_offline_site
    ids: dict[Path, set[str]] = {}
    broken = []
    for file, value in _targets(offline_site):
        parts = urlsplit(value)
        target = (file.parent / unquote(parts.path)).resolve()
        if not target.is_file():
            broken.append(f"{file.relative_to(offline_site)}: {value}")
        elif parts.fragment and target.suffix == ".html":
            if target not in ids:
                ids[target] = set(lxml.html.fromstring(target.read_bytes()).xpath("//@id"))
            if unquote(parts.fragment) not in ids[target]:
                broken.append(f"{file.relative_to(offline_site)}: {value} (no such anchor)")
    assert broken == []
    assert (offline_site / "fr" / "caracteristiques.html").is_file()
    # The offline plugin: the search index as a script, and the Web Worker shim from the site itself.
    assert {"search/search_index.js", "search.js"} & {
        p.relative_to(offline_site).as_posix() for p in offline_site.rglob("*.js")
    }
    assert (offline_site / "assets" / "iframe-worker-shim.js").is_file()


def test_the_offline_script_blocks_name_files(any_offline_site: Path) -> None:
    offline_site = any_offline_site
    page = (offline_site / "characteristics.html").read_text(encoding="utf-8")
    assert '"page": "fr/caracteristiques.html"' in page
    redirect = (offline_site / "fr" / "s5.html").read_text(encoding="utf-8")
    assert 'location.replace("caracteristiques.html"' in redirect


def test_offline_must_be_true_or_false(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = tmp_path / "rulebook.toml"
    config.write_text('[tool.rulebook]\nsources = ["book.xml"]\noffline = "yes"\n', encoding="utf-8")
    assert main(["build", "--config", str(config), "-o", str(tmp_path / "site")]) == 2
    assert "offline" in capsys.readouterr().err
    assert parse_project({"sources": ["book.xml"], "offline": True}, tmp_path).offline
    assert not parse_project({"sources": ["book.xml"]}, tmp_path).offline


@pytest.fixture
def page(chromium: Any) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    outside: list[str] = []
    errors: list[str] = []
    tab.on("request", lambda request: outside.append(request.url) if not request.url.startswith("file://") else None)
    tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    tab.on("pageerror", lambda error: errors.append(str(error)))
    yield tab
    context.close()
    assert outside == [], "requests left the disk"
    # Material's language switcher asks for the sitemap, which a browser refuses from disk; it then keeps its links.
    assert [e for e in errors if not _sitemap_refused(e)] == [], "console errors"


def _sitemap_refused(error: str) -> bool:
    return "sitemap.xml" in error or error == "Failed to load resource: net::ERR_FAILED"


@browser
@needs_chromium
def test_from_disk_a_term_shows_its_card_and_leads_to_its_definition(page: Any, any_offline_site: Path) -> None:
    offline_site = any_offline_site
    page.goto((offline_site / "index.html").as_uri())
    page.locator("a", has_text="Battlefield Logistics").first.click()
    page.wait_for_url(re.compile(r"/battlefield-logistics\.html$"))
    term = page.locator("a.rb-term[data-term='base']").first
    term.hover()
    preview = page.locator(".rb-preview")
    preview.wait_for(state="visible")
    assert "All models are placed on a square, rectangular or round base." in preview.inner_text()
    page.locator("a.rb-term[data-term='arc']").first.click()
    page.wait_for_url(re.compile(r"/models-units-and-formations\.html#term-arc$"))
    assert page.locator("#term-arc").is_visible()


@browser
@needs_chromium
def test_from_disk_search_and_the_language_switch_work(page: Any, any_offline_site: Path) -> None:
    offline_site = any_offline_site
    from .test_browser import _switch_language, search

    page.goto((offline_site / "index.html").as_uri())
    search(page, "scatter dice").first.click()
    page.wait_for_url(re.compile(r"/general-principles\.html"))
    assert "Scatter Dice" in page.locator("article").inner_text()
    page.goto((offline_site / "characteristics.html").as_uri() + "#performing-a-leadership-test")
    _switch_language(page, "Français")
    page.wait_for_url(re.compile(r"/fr/caracteristiques\.html#test-de-commandement$"))
    page.goto((offline_site / "fr" / "s5.html").as_uri() + "#s5-2-3")
    page.wait_for_url(re.compile(r"/fr/caracteristiques\.html#s5-2-3$"))
