"""A picture's own words: what a reader who cannot see it hears (`alt`), from either source format, both ways.

``![Two fighters](board.svg)`` was published with ``alt=""``: an illustration was modelled as decoration, and a
reader with a screen reader lost what the author wrote.
"""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from rulebook.cli import main

from .hostile.pictures import PNG

MARKDOWN = """---
title: Tiles
---

# Moving {#moving}

[A march is a move.]{dfn=march}

![Two *fighters* face to face](board.png)

::: figure board_figure The board

![](board.png)

A [[march]] across it.
:::
"""
XML = """<?xml version="1.0" encoding="UTF-8"?>
<document title="Tiles">
  <chapter id="moving" title="Moving">
    <p><definition name="march">A march is a move.</definition></p>
    <illustration><image source="board.png" alt="Two fighters
      face to face"/></illustration>
    <figure id="board_figure"><image source="board.png"/><caption title="The board">A <reference name="march">march</reference> across it.</caption></figure>
  </chapter>
</document>
"""


def _built(folder: Path, name: str, text: str, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    folder.mkdir()
    (folder / name).write_text(text, encoding="utf-8")
    (folder / "images").mkdir()
    (folder / "images" / "board.png").write_bytes(PNG)
    (folder / "rulebook.toml").write_text(f'sources = ["{name}"]\n', encoding="utf-8")
    monkeypatch.chdir(folder)
    assert main(["build", "-q", "--no-pdf"]) == 0
    page = lxml.html.parse(str(folder / "site" / "moving" / "index.html"))
    return [str(alt) for alt in page.xpath("//article//img/@alt")]


@pytest.mark.parametrize(("name", "text"), [("book.md", MARKDOWN), ("book.xml", XML)])
def test_a_pictures_words_are_its_alt_and_a_figures_caption_describes_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str
) -> None:
    assert _built(tmp_path / "game", name, text, monkeypatch) == [
        "Two fighters face to face",
        "The board A march across it.",
    ]


@pytest.mark.parametrize(("name", "text", "into"), [("book.md", MARKDOWN, "xml"), ("book.xml", XML, "markdown")])
def test_convert_carries_a_pictures_words(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str, text: str, into: str
) -> None:
    folder = tmp_path / "game"
    _built(folder, name, text, monkeypatch)
    converted = f"converted.{'xml' if into == 'xml' else 'md'}"
    assert main(["convert", name, "--to", into, "-o", converted]) == 0
    (folder / "rulebook.toml").write_text(f'sources = ["{converted}"]\n', encoding="utf-8")
    assert main(["build", "-q", "--no-pdf"]) == 0
    page = lxml.html.parse(str(folder / "site" / "moving" / "index.html"))
    assert str(page.xpath("//article//img/@alt")[0]) == "Two fighters face to face"


def test_a_control_in_a_pictures_words_is_shown_as_a_picture(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    alts = _built(tmp_path / "game", "book.md", MARKDOWN.replace("Two", "Two\u202e"), monkeypatch)
    assert "\u202e" not in alts[0] and alts[0].startswith("Two")
