"""What a term's preview card says: the sentence that defines the term, and a glimpse of a table it holds.

Pure. A card shows the sentence holding the term's defining words (the definition's first use of
its own term, or the marked first use in a translation), then the sentences after it while they fit;
never the term's name alone: a definition that is only its words (a first use a reader or a
translation marks) is shown in the sentence around it. A definition holding a table shows the
table's first row and how many more there are, not the table flattened into a line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any, NamedTuple

from rulebook.model import (
    Content,
    Definition,
    Figure,
    Illustration,
    Important,
    ItemList,
    LineBreak,
    Link,
    Note,
    Reference,
    Section,
    Table,
    Value,
    plain_text,
    walk,
)

PREVIEW_LENGTH = 320
_MARK = "\x00"
"""Where the defining words stand in a paragraph's text while it is split into sentences."""
_SENTENCE_END = re.compile(r"(?<=[.!?…])([\"'”»)]*)\s+(?=[\"'“«(]?[A-ZÀ-Ý0-9])")


TermSpan = tuple[int, int, str]
"""A term link in a card's text: its start and end in the text, and the term."""


def definition_preview(
    definition: Definition, section: Section | None, title: str, words: Mapping[str, str]
) -> dict[str, Any]:
    """A term's card: its name, the sentence that defines it (with the other terms it uses as ``links``), and a
    table's first row if it holds one."""
    if _only_words(definition) and section is not None:  # a first use marked as the definition: the sentence around it
        text, links = preview(section.children, definition.name, at_definition=True)
    else:
        text, links = preview(definition.children, definition.name)
    if not text and section is not None:  # a heading over subsections only ("Terrain"): the first one's opening
        text, links = preview(_opening(section), definition.name)
    found: dict[str, Any] = {"title": title, "text": text, "links": [list(link) for link in links]}
    table = _first_table(definition.children)
    if table is not None:
        found["table"] = table_preview(table, words)
    return found


def preview_text(content: Content, name: str, limit: int = PREVIEW_LENGTH) -> str:
    """From the sentence holding the defining words of ``name`` (else the first), as many sentences as fit."""
    return preview(content, name, limit)[0]


def preview(
    content: Content, name: str, limit: int = PREVIEW_LENGTH, *, at_definition: bool = False
) -> tuple[str, list[TermSpan]]:
    """From the sentence holding the defining words of ``name`` (else the first), as many sentences as fit; and
    where the other terms it uses stand in that text. The defining words are the first use of ``name``, or with
    ``at_definition`` the definition itself (a reference to the term before it is not where it is defined)."""
    return _card_text(_walked(content), name, limit, at_definition=at_definition)


def fit(text: str, links: list[TermSpan], limit: int = PREVIEW_LENGTH) -> tuple[str, list[TermSpan]]:
    """A card's text: from the sentence holding the defining words' mark (else the first), as many sentences as
    fit in ``limit``, and the term links inside it."""
    bounds = sentence_bounds(text)
    first = next((i for i, (start, end) in enumerate(bounds) if _MARK in text[start:end]), 0)
    start, end = bounds[first]
    for _, next_end in bounds[first + 1 :]:
        if len(text[start:next_end].replace(_MARK, "")) > limit:
            break
        end = next_end
    shown, kept = _cut(text, links, start, end)
    if len(shown) > limit:
        shown = shown[:limit].rsplit(" ", 1)[0]
        kept = [link for link in kept if link[1] <= len(shown)]
        shown += " …"
    return shown[:1].upper() + shown[1:], kept


def sentence_bounds(text: str) -> list[tuple[int, int]]:
    """Where each sentence of a paragraph starts and ends (closing quotes belong to the sentence)."""
    bounds, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        bounds.append((start, match.end(1)))
        start = match.end()
    bounds.append((start, len(text)))
    return bounds


def _cut(text: str, links: list[TermSpan], start: int, end: int) -> tuple[str, list[TermSpan]]:
    """``text[start:end]`` without the defining words' mark, and the links inside it, placed in it."""
    mark = text.find(_MARK, start, end)

    def place(at: int) -> int:
        return at - start - (1 if mark != -1 and at > mark else 0)

    kept = [(place(a), place(b), term) for a, b, term in links if a >= start and b <= end]
    return text[start:end].replace(_MARK, ""), kept


CARD_COLUMNS = 12
"""The most columns of a table a card shows."""
CARD_CELL = 1_000
"""The most characters of a table's cell a card shows (a rule's cell is a few sentences)."""


def table_preview(table: Table, words: Mapping[str, str]) -> dict[str, Any]:
    """A table's column names (if any), its first row, and how many rows are left out: at most
    :data:`CARD_COLUMNS` columns, each cell at most :data:`CARD_CELL` characters (the card is written into every
    page using the term: a header cell of 250,000 characters, the term used on 1,999 pages, made a site of 1.1 GB)."""
    head = [_cell(c.children) for c in table.columns.cells[:CARD_COLUMNS]] if table.columns else []
    rows = [[_cell(c.children) for c in row.cells[:CARD_COLUMNS]] for row in table.rows[:1]]
    left = len(table.rows) - len(rows)
    more = ""
    if left > 0:
        # Not str.format: the site's words are text, and a brace in them is text too.
        more = words.get("more_row" if left == 1 else "more_rows", "{count} more rows").replace("{count}", str(left))
    return {"head": head, "rows": rows, "more": more}


def _cell(content: Content) -> str:
    """A cell's text as a card shows it: cut, with an ellipsis, past :data:`CARD_CELL` characters."""
    text = plain_text(content)
    return text if len(text) <= CARD_CELL else text[: CARD_CELL - 1].rstrip() + "…"


Piece = tuple[str, str | None]
"""A piece of a paragraph: a text, and the term it names (None: none)."""


class _Walked(NamedTuple):
    """A content's paragraphs (list items are paragraphs too, and each cell of a table and a figure's caption), with
    where each term is first used and first defined by its words alone: walked once for all its terms (each term
    walked and folded a whole section: 1,000 terms in a section of 1.5 MB took 78 s)."""

    paragraphs: list[list[Piece]]
    asides: list[int | None]
    """Each paragraph's table cell or caption (a number), None for the content's own: a card shows a cell only
    where the defining words stand in it (``[How well it blocks.]{dfn=guard}``), never as the first paragraph."""
    defined: dict[str, tuple[int, int]]
    """Where each term's first definition by its words alone stands: its paragraph, and the piece it opens."""
    used: dict[str, tuple[int, int]]
    """Where each term's first reference stands, as :attr:`defined`."""


_LAST_WALKED: list[tuple[Content, _Walked]] = []
"""The content walked last, kept for the next of its terms (a section's terms come in the order they are defined)."""


def _walked(content: Content) -> _Walked:
    if not _LAST_WALKED or _LAST_WALKED[0][0] is not content:
        _LAST_WALKED[:] = [(content, _walk_once(content))]
    return _LAST_WALKED[0][1]


def _card_text(walked: _Walked, name: str, limit: int, *, at_definition: bool) -> tuple[str, list[TermSpan]]:
    """:func:`preview` of ``name`` from the walk of its content: the paragraph of its defining words, marked (the
    first use of ``name``, or with ``at_definition`` its definition), else the content's first own paragraph."""
    places = [walked.defined.get(name), None if at_definition else walked.used.get(name)]
    place = min((found for found in places if found is not None), default=None)
    if place is not None:
        at, piece = place
        pieces = [*walked.paragraphs[at][:piece], (_MARK, None), *walked.paragraphs[at][piece:]]
    else:
        own = [paragraph for paragraph, aside in zip(walked.paragraphs, walked.asides, strict=True) if aside is None]
        if not own:
            return "", []
        pieces = own[0]
    text, links = _fold([(text, None if term == name else term) for text, term in pieces])
    return fit(text, links, limit)


def _walk_once(content: Content) -> _Walked:
    """Every paragraph of ``content`` with the cell or caption it is in, and where each term is first used and
    first defined by its words alone (a paragraph of no text holds neither)."""
    paragraphs: list[list[Piece]] = []
    asides: list[int | None] = []
    defined: dict[str, tuple[int, int]] = {}
    used: dict[str, tuple[int, int]] = {}
    current: list[Piece] = []
    pending: list[tuple[dict[str, tuple[int, int]], str, int]] = []
    seen_defined: set[str] = set()
    seen_used: set[str] = set()
    aside: list[int | None] = [None]
    count = [0]

    def close() -> None:
        if any(text.strip() for text, _ in current):
            for found, name, piece in pending:
                found[name] = (len(paragraphs), piece)
            paragraphs.append(list(current))
            asides.append(aside[0])
        current.clear()
        pending.clear()

    def first(found: dict[str, tuple[int, int]], seen: set[str], name: str) -> None:
        if name not in seen:
            seen.add(name)
            pending.append((found, name, len(current)))

    def walk(nodes: Content) -> None:
        for node in nodes:
            if isinstance(node, str):
                current.append((node, None))
            elif isinstance(node, Reference):
                first(used, seen_used, node.name)
                current.append((node.text, node.name))
            elif isinstance(node, Link | Value):
                current.append((node.text, None))
            elif isinstance(node, Definition):
                if _only_words(node):
                    first(defined, seen_defined, node.name)
                walk(node.children)
            elif isinstance(node, Important):
                walk(node.children)
            elif isinstance(node, Note):
                close()
                walk(node.children)
                close()
            elif isinstance(node, ItemList):
                close()
                for item in node.items:
                    walk(item.children)
                    close()
            elif isinstance(node, Table | Figure):
                close()
                around = aside[0]  # a table in a cell: the cell's text after it is still the cell's
                for cell in (
                    [c.children for r in node.rows for c in r.cells] if isinstance(node, Table) else [node.caption]
                ):
                    count[0] += 1
                    aside[0] = count[0]
                    walk(cell)
                    close()
                aside[0] = around
            elif isinstance(node, LineBreak | Illustration | Section):
                close()

    walk(content)
    close()
    return _Walked(paragraphs, asides, defined, used)


def _opening(section: Section) -> Content:
    """The content of a section's first subsection with text of its own (descending as far as needed)."""
    for node in section.children:
        if isinstance(node, Section):
            own = tuple(n for n in node.children if not isinstance(n, Section))
            return own if plain_text(own).strip() else _opening(node)
    return ()


def _only_words(definition: Definition) -> bool:
    return len(definition.children) == 1 and isinstance(definition.children[0], str)


def _first_table(content: Content) -> Table | None:
    inside = walk(content, into=lambda node: isinstance(node, Definition | Note))
    return next((node for node in inside if isinstance(node, Table)), None)


def _fold(parts: list[tuple[str, str | None]]) -> tuple[str, list[TermSpan]]:
    """Pieces of a paragraph (text, and the term it names or None) as one text with its white space folded to
    single spaces, and where each term's piece stands in it."""
    text: list[str] = []
    links: list[TermSpan] = []
    length, space = 0, False
    for piece, term in parts:
        start = None
        for char in piece:
            if char.isspace():
                space = True
                continue
            if space and length:
                text.append(" ")
                length += 1
            space = False
            start = length if start is None else start
            text.append(char)
            length += 1
        if term is not None and start is not None:
            links.append((start, length, term))
    return "".join(text), links
