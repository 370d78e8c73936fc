"""The outline the lint reads: the whole model's indexes, node for node, without the text."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.model import Document
from rulebook.project import BookConfig
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book
from rulebook.source import SourceText
from rulebook.xml_source import parse_xml_string

from .conftest import ROOT
from .test_reader import BOOK

SOURCES = sorted(p for folder in ("tests", "rulebook_src") for p in (ROOT / folder).rglob("*.xml"))
INDEXES = ("body", "sections", "definitions", "references", "links", "figures", "values", "images", "mechanics")
TRICKY = [
    BOOK,
    # Markup inside text-only elements, unknown elements, entities, sections in definitions, figures
    # with two captions, a roll table inside a definition inside a note, ids written later than slugs.
    '<!DOCTYPE document [<!ENTITY e "x">]><document><chapter title="A">&e; <reference name="a">x<b>y</b>'
    '<reference name="hidden"/></reference><link to="b">see <i>b</i></link><unknown><section title="B">'
    '<reference name="in_unknown"/></section></unknown><definition name="d"><section title="A">&e;'
    '</section></definition><figure id="f"><caption title="1"/><image source="i.png"><x/></image>'
    '<caption title="2"><reference name="c"/></caption></figure><note><definition name="t"><table roll="D6">'
    '<row><header>1-6</header><cell><reference name="r"/></cell></row></table></definition></note>'
    '<illustration><image source="j.png"/></illustration><mechanic name="m" roll="D6"><x/></mechanic>'
    '<value name="v">6<b/></value></chapter><chapter title="A" id="a-2"/><chapter title="A"/></document>',
    '<book><chapter title="Not a document"><reference name="x"/></chapter></book>',
]


def _without_content(node: object) -> object:
    """A node as the outline holds it, its source file left out (sources compare by identity)."""
    if isinstance(node, SourceText):
        return node.path
    if isinstance(node, tuple):
        kind = type(node).__name__
        if kind in ("Section", "Definition"):
            node = node._replace(children=())  # type: ignore[attr-defined]
        elif kind == "Figure":
            node = node._replace(caption=())  # type: ignore[attr-defined]
        return (kind, *(_without_content(part) for part in node))  # type: ignore[union-attr]
    return node


def _assert_same_indexes(whole: Document, outline: Document) -> None:
    assert outline.outline and not whole.outline
    for index in INDEXES:
        assert _without_content(getattr(outline, index)) == _without_content(getattr(whole, index)), index
    assert outline.ids == whole.ids
    assert _without_content(outline.annotated) == _without_content(whole.annotated)


@pytest.mark.parametrize("text", TRICKY, ids=["reader-book", "tricky", "not-a-document"])
def test_outline_holds_the_models_indexes(text: str) -> None:
    whole, outline = (parse_xml_string(text, "book.xml", outline=flag) for flag in (False, True))
    assert whole.document is not None and outline.document is not None
    _assert_same_indexes(whole.document, outline.document)
    assert outline.diagnostics == whole.diagnostics


@pytest.mark.parametrize("path", SOURCES, ids=lambda p: str(p.relative_to(ROOT)))
def test_outline_lints_every_test_book_as_the_model_does(path: Path) -> None:
    whole, outline = (read_book([path], ROOT, outline=flag) for flag in (False, True))
    for one, other in zip(whole.book.documents, outline.book.documents, strict=True):
        _assert_same_indexes(one, other)
    found = [lint_book(read, BookConfig("main"), root=ROOT).diagnostics for read in (whole, outline)]
    assert found[0] == found[1]
