"""A site read from disk (``build --offline``): every page is a file, every link leads to a file.

Opened as ``file:///.../site/index.html``, a folder address would show a directory listing: with
``use_directory_urls: false`` each page is ``name.html`` and our links, the language switcher and
the redirects of old French addresses name files. Search needs a server (docs/site.md says why).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

import lxml.html
import pytest

from compiler.cli import main

from .conftest import CHROMIUM


def _local_links(page: Path) -> Iterator[str]:
    document = lxml.html.fromstring(page.read_bytes())
    for element in document.iter():
        for attribute in ("href", "src"):
            value = element.get(attribute)
            if value and not urlsplit(value).scheme and not value.startswith(("//", "#")):
                yield value


def test_every_link_of_every_page_leads_to_a_file(offline_site: Path) -> None:
    pages = [p for p in offline_site.rglob("*.html") if p.name != "404.html"]  # a 404 page is for servers
    assert (offline_site / "characteristics.html").is_file() and (offline_site / "fr" / "introduction.html").is_file()
    broken = []
    for page in pages:
        for link in _local_links(page):
            target = page.parent / unquote(urlsplit(link).path)
            if not target.is_file():
                broken.append(f"{page.relative_to(offline_site)}: {link}")
    assert broken == []
    switcher = lxml.html.fromstring((offline_site / "fr" / "glossary.html").read_bytes())
    assert {a.get("href") for a in switcher.cssselect("a[hreflang]")} == {"../index.html", "../fr/index.html"}
    redirect = (offline_site / "fr" / "s1.html").read_text(encoding="utf-8")
    assert 'url=introduction.html"' in redirect


def test_offline_is_a_mkdocs_option(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--offline", "--generator", "zensical", "-o", str(tmp_path / "site")]) == 2
    assert "offline pages are a MkDocs option" in capsys.readouterr().err


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)")
def test_the_site_opened_from_disk_previews_and_follows_without_a_request_off_disk(
    chromium: Any, offline_site: Path
) -> None:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    outside: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.on("request", lambda request: outside.append(request.url) if not request.url.startswith("file:") else None)
    page.goto((offline_site / "battlefield-logistics.html").as_uri())
    term = page.locator("a.rb-term[data-term='arc']").first
    term.hover()
    preview = page.locator(".rb-preview")
    preview.wait_for(state="visible")
    assert preview.locator("strong").inner_text() == "Arc"
    page.locator("main h1").hover()
    term.click()
    page.wait_for_url(re.compile(r"models-units-and-formations\.html#term-arc$"))
    assert page.locator("#term-arc").is_visible()
    page.locator("a.md-select__link[hreflang='fr']").first.dispatch_event("click")
    page.wait_for_url(re.compile(r"fr/figurines-unites-et-formations\.html(#.*)?$"))
    context.close()
    # Material's search worker looks for a search index script it cannot load from disk: search needs a server.
    assert [e for e in errors if "search_index" not in e] == [] and outside == []
