"""Reading the print edition's PDFs as a reader's tools do (pypdf): text, links, destinations, bookmarks, index.

Text is compared *squeezed*: without white space or hyphens, since Typst breaks lines and hyphenates words
where it likes (``measure-`` / ``ment``) and sets no-break spaces in French; what is compared is every other
character, in order.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterator
from pathlib import Path

import pypdf

from rulebook.model import (
    Content,
    Definition,
    Figure,
    Important,
    ItemList,
    Link,
    Note,
    Reference,
    Section,
    Table,
    Value,
)

_SQUEEZED = re.compile(r"[\s\-\u00ad\u2010\u2011]+")
_PAGE_NUMBER = re.compile(r"\n?\s*\d+\s*$")


def squeezed(text: str) -> str:
    """Text without white space (no-break ones too) or hyphens: what survives any line breaking."""
    return _SQUEEZED.sub("", text)


@functools.cache
def reader(path: Path) -> pypdf.PdfReader:
    """A PDF, read once per test session (the files tests read are never written again)."""
    return pypdf.PdfReader(str(path))


def page_texts(pdf: pypdf.PdfReader) -> list[str]:
    """Each page's text, in the order the page draws it (Typst draws in reading order)."""
    return list(_texts(pdf))


@functools.cache
def _texts(pdf: pypdf.PdfReader) -> tuple[str, ...]:
    return tuple(page.extract_text() for page in pdf.pages)


def body_text(pdf: pypdf.PdfReader, title: str) -> str:
    """The whole PDF's text in reading order, each page without its running head (the first line, which ends
    in the book's title) and its page number (the last line), squeezed."""
    parts = []
    for text in page_texts(pdf):
        lines = text.split("\n")
        if lines and lines[0].rstrip().endswith(title):
            lines = lines[1:]
        parts.append(_PAGE_NUMBER.sub("", "\n".join(lines)))
    return squeezed("\n".join(parts))


def model_runs(content: Content) -> Iterator[str]:
    """The texts a reader sees of some content, in order, as runs: a run ends after a link's text, where the
    PDF adds "(see 2.4, p. 12)"; headings, cells, items, notes and captions are runs of their own."""
    run: list[str] = []

    def flush() -> Iterator[str]:
        text = "".join(run)
        run.clear()
        if text.strip():
            yield text

    def walk(nodes: Content) -> Iterator[str]:
        for node in nodes:
            if isinstance(node, str):
                run.append(node)
            elif isinstance(node, Reference | Value):
                run.append(node.text)
            elif isinstance(node, Link):
                run.append(node.text)
                yield from flush()
            elif isinstance(node, Important | Definition):
                yield from walk(node.children)
            elif isinstance(node, Section):
                yield from flush()
                yield node.title
                yield from walk(node.children)
            elif isinstance(node, Note | Table | ItemList | Figure):
                yield from flush()
                yield from _block_runs(node)

    yield from walk(content)
    yield from flush()


def _block_runs(node: object) -> Iterator[str]:
    if isinstance(node, Note):
        if node.title:
            yield node.title
        yield from model_runs(node.children)
    elif isinstance(node, Table):
        if node.title:
            yield node.title
        for row in ((node.columns,) if node.columns else ()) + node.rows:
            for cell in row.cells:
                yield from model_runs(cell.children)
    elif isinstance(node, ItemList):
        for item in node.items:
            if item.title:
                yield item.title
            yield from model_runs(item.children)
    elif isinstance(node, Figure):
        if node.caption_title:
            yield node.caption_title
        yield from model_runs(node.caption)


def missing_runs(runs: list[str], text: str) -> list[str]:
    """The runs not found in ``text`` (squeezed) one after the other, in order: empty when nothing is lost."""
    missing, position = [], 0
    for run in runs:
        wanted = squeezed(run)
        if not wanted:
            continue
        found = text.find(wanted, position)
        if found < 0:
            missing.append(run)
        else:
            position = found + len(wanted)
    return missing


def destinations(pdf: pypdf.PdfReader) -> dict[str, int]:
    """Every named destination and the index of its page."""
    return {name: pdf.get_destination_page_number(dest) for name, dest in pdf.named_destinations.items()}


def links(pdf: pypdf.PdfReader) -> list[tuple[int, object]]:
    """Every link annotation: its page's index and its destination (a name, or an explicit destination)."""
    found = []
    for index, page in enumerate(pdf.pages):
        for annotation in page.get("/Annots") or []:
            annotation = annotation.get_object()
            if annotation.get("/Subtype") != "/Link":
                continue
            action = annotation.get("/A")
            dest = annotation.get("/Dest")
            if dest is None and action is not None:
                dest = action.get("/D") if action.get("/S") == "/GoTo" else action.get("/URI")
            found.append((index, dest))
    return found


def outline_tree(pdf: pypdf.PdfReader) -> list[tuple[str, list[object]]]:
    """The bookmarks, as (title, children) nested lists."""

    def tree(items: list[object]) -> list[tuple[str, list[object]]]:
        found: list[tuple[str, list[object]]] = []
        for item in items:
            if isinstance(item, list):
                found[-1] = (found[-1][0], tree(item))  # type: ignore[arg-type]
            else:
                found.append((str(item.title), []))  # type: ignore[attr-defined]
        return found

    return tree(pdf.outline)


_INDEX_LINE = re.compile(r"^(?P<name>.+?)\s*(?:\.\s*){2,}(?P<pages>\d+(?:,\s*\d+)*)\s*$")


def index_entries(pdf: pypdf.PdfReader, first_page: int) -> dict[str, list[int]]:
    """The index (from its first page to the end): each term's name and the page numbers it gives."""
    entries = {}
    for text in page_texts(pdf)[first_page:]:
        for line in text.split("\n"):
            match = _INDEX_LINE.match(line.strip())
            if match:
                entries[match.group("name")] = [int(p) for p in match.group("pages").split(",")]
    return entries
