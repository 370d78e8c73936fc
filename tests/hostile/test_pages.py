"""A hostile book that builds: script and markup in every place a source or the configuration can put text.

The built pages are opened in Chromium: no dialog may open, no handler attribute may exist,
and every payload shows as the text it is.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import lxml.html
import pytest

from rulebook.cli import main
from tests.conftest import serve

ALERT = "<script>alert(1)</script>"
IMG = '"><img src=x onerror=alert(2)>'
BOOK = f"""<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving {ALERT.replace("<", "&lt;")}">
<section id="marching" title="March {IMG.replace("<", "&lt;").replace('"', "&quot;")}">
<definition name="march">To march is to <reference name="march">move {IMG.replace("<", "&lt;")}</reference>.
A <reference name="x&quot; onclick=&quot;alert(3)">trap</reference> and a <link to="nowhere&quot;>">link</link>.</definition>
<table title="Weather {ALERT.replace("<", "&lt;")}" roll="D6">
<row><header>1-3</header><cell>Rain &lt;b onmouseover=alert(4)&gt;</cell></row>
<row><header>4-6</header><cell>Sun</cell></row>
</table>
<figure id="fig_one"><image source="{IMG.replace("<", "&lt;").replace('"', "&quot;")}.png"/><caption title="Figure {ALERT.replace("<", "&lt;")}">caption</caption></figure>
<note title="Note {ALERT.replace("<", "&lt;")}">Mind the <reference name="march">march</reference>.</note>
</section>
</chapter>
</document>
"""
CONFIG = f"""title = {IMG!r}
description = {ALERT!r}
copyright = {ALERT + IMG!r}
sources = ["book.xml"]
"""


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("hostile")
    (folder / "book.xml").write_text(BOOK, encoding="utf-8")
    (folder / "rulebook.toml").write_text(CONFIG, encoding="utf-8")
    cwd = Path.cwd()
    import os

    os.chdir(folder)
    try:
        assert main(["build", "-q"]) == 0
    finally:
        os.chdir(cwd)
    return folder / "site"


def pages(site: Path) -> list[Path]:
    return sorted(site.rglob("*.html"))


def test_no_page_has_an_event_handler_or_a_foreign_script(hostile_site: Path) -> None:
    for page in pages(hostile_site):
        tree = lxml.html.parse(str(page))
        handlers = [e.tag for e in tree.iter() if isinstance(e.tag, str) and any(a.startswith("on") for a in e.attrib)]
        assert handlers == [], page
        # JSON blocks (previews, the language switcher's map) are data: they may hold the payload as text.
        executable = [s for s in tree.xpath("//script") if s.get("type", "text/javascript") != "application/json"]
        assert not [s for s in executable if "alert(" in (s.text or "")], page
        assert not tree.xpath("//img[@src='x']"), page


def test_payloads_show_as_text(hostile_site: Path) -> None:
    tree = lxml.html.parse(str(hostile_site / "moving" / "index.html"))
    text = tree.getroot().text_content()
    assert "Moving <script>alert(1)</script>" in text
    assert "Rain <b onmouseover=alert(4)>" in text


@pytest.mark.browser
def test_no_dialog_opens_on_any_page(hostile_site: Path, chromium: Any) -> None:
    dialogs: list[str] = []
    with serve(hostile_site) as url:
        context = chromium.new_context()
        tab = context.new_page()
        tab.on("dialog", lambda dialog: (dialogs.append(dialog.message), dialog.dismiss()))
        for page in pages(hostile_site):
            address = url + page.relative_to(hostile_site).as_posix()
            tab.goto(address)
            for link in tab.locator("a.rb-term").all()[:5]:
                link.hover()
            tab.wait_for_timeout(100)
        context.close()
    assert dialogs == []
