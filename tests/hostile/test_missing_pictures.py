"""A picture the site does not show keeps its place: a missing or refused picture of an illustration, or a Markdown
picture in a paragraph of its own, is the "Picture not available" box a figure shows (the eighteenth probe of issue
32: it showed nothing, where the text said "this diagram shows", and RB303's help promised a placeholder), on the
site and in the PDF."""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from rulebook.cli import main
from tests.pdf_reading import page_texts, reader

XML_BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving">
<section id="marching" title="Marching">This diagram shows a march.
<illustration><image source="nothere.png"/></illustration>
<illustration><image source="page.png"/></illustration>
</section>
</chapter>
</document>
"""
MARKDOWN_BOOK = """---
title: "Book"
---

<!-- rulebook -->

# Moving {#moving}

## Marching {#marching}

This diagram shows a march.

![A march](nothere.png)
"""


@pytest.mark.parametrize(("source", "text", "boxes"), [("book.xml", XML_BOOK, 2), ("book.md", MARKDOWN_BOOK, 1)])
def test_a_picture_not_shown_keeps_its_place_as_a_box(
    source: str, text: str, boxes: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / source).write_text(text, encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text(f'sources = ["{source}"]\n', encoding="utf-8")
    (tmp_path / "images").mkdir()
    (tmp_path / "images" / "page.png").write_bytes(b"<html><script>alert(1)</script></html>")  # refused
    assert main(["build", "-q"]) == 0
    page = lxml.html.parse(str(tmp_path / "site" / "moving" / "index.html"))
    found = page.xpath("//div[@class='rb-figure-missing']")
    assert len(found) == boxes
    assert all(box.text_content() == "Picture not available" for box in found)  # a reader's view: no file names
    assert not page.xpath("//img[contains(@src, 'nothere') or contains(@src, 'page.png')]")
    printed = " ".join(page_texts(reader(next((tmp_path / "site").glob("*.pdf")))))
    assert printed.count("Picture not available") == boxes
