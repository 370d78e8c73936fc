"""Align the sections of a translation with the original's: a monotonic alignment of two outlines.

Both books are flattened to their sections (and titled notes, which a translation may have turned
into numbered sub-headings, or the reverse) in reading order. A dynamic programme (as in sequence
alignment) pairs them without crossing, leaving sections present on one side only unpaired. A
pair is scored on:

- numbering: the original's sections are numbered by their place (a subsection straight under a
  chapter is ``c.0.k``, as the French edition prints it); the chapter offset between the books
  (the French adds an introduction chapter) is found by trying each and keeping the best;
- the numbers both texts contain (rules are full of them, and numbers survive translation);
- length (a translation is about as long as its original) and title cognates.

Each pair records the method that decided it and a confidence from 0 to 1. Length alone decides
nothing: a length-only aligner hides omissions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from compiler.model import (
    Book,
    Content,
    Definition,
    Important,
    Item,
    ItemList,
    Node,
    Note,
    Reference,
    Section,
    Table,
    plain_text,
)
from compiler.names import ascii_lower

GAP = -0.35
"""Score of leaving a unit unpaired; pairs scoring below it are not worth making."""
_NUMBERS = re.compile(r"\d+(?:[.,]\d+)?")


@dataclass(frozen=True, slots=True)
class Unit:
    """A section (or titled note) of one side, ready to be compared."""

    id: str
    title: str
    number: str | None
    depth: int
    text: str
    kind: str
    """``section`` or ``note``."""
    terms: tuple[str, ...] = ()
    """Term ids the unit's own text refers to (the original's side; a translation has no markup)."""
    steps: tuple[int, ...] = ()
    """The number of steps of each numbered list (sequence) in the unit's own text: the printed book
    numbers them, and a translation from the PDF keeps those numbers as text."""


@dataclass(frozen=True, slots=True)
class Pair:
    original: Unit | None
    translation: Unit | None
    method: str
    """``numbering``, ``content`` or ``unmatched``."""
    confidence: float


def outline(book: Book, *, number_sections: bool) -> list[Unit]:
    """The alignable units of a book, in reading order."""
    units: list[Unit] = []
    for document in book.documents:
        for index, chapter in enumerate(document.body, 1):
            _collect(chapter, str(index) if number_sections else chapter.number, 1, units, number_sections)
    return units


def _collect(section: Section, number: str | None, depth: int, units: list[Unit], numbering: bool) -> None:
    own = _without_units(section.children)
    units.append(
        Unit(section.id, section.title, number, depth, plain_text(own), "section", _references(own), _steps(own))
    )
    counters = {"section": 0}
    for node in section.children:
        if isinstance(node, Section):
            counters["section"] += 1
            child = node.number
            if numbering and number is not None:
                # A subsection straight under a chapter is numbered c.0.k, as the French prints it.
                gap = ".0" if section.level == 1 and node.level == 3 else ""
                child = f"{number}{gap}.{counters['section']}"
            _collect(node, child, depth + 1, units, numbering)
        else:
            for title, content in _titled_blocks(node):
                text = plain_text(content)
                unit = Unit(
                    f"{section.id}/{title}", title, None, depth + 1, text, "note", _references(content), _steps(content)
                )
                units.append(unit)


def _titled_blocks(node: object) -> list[tuple[str, Content]]:
    """Titled notes and list items inside a node (a translation may make them headings)."""
    if isinstance(node, Note) and node.title:
        return [(node.title, node.children)]
    if isinstance(node, ItemList):
        found: list[tuple[str, Content]] = []
        for item in node.items:
            if item.title:
                found.append((item.title, item.children))
            for child in item.children:
                found += _titled_blocks(child)
        return found
    if isinstance(node, Definition | Note):
        return [found for child in node.children for found in _titled_blocks(child)]
    return []


def _references(content: Content) -> tuple[str, ...]:
    """Term ids referred to anywhere in some content, in order."""
    found: list[str] = []
    for node in content:
        if isinstance(node, Reference):
            found.append(node.name)
        elif isinstance(node, Definition | Note | Important | Item):
            found += _references(node.children)
        elif isinstance(node, ItemList):
            for item in node.items:
                found += _references(item.children)
        elif isinstance(node, Table):
            for row in ((node.columns,) if node.columns else ()) + node.rows:
                for cell in row.cells:
                    found += _references(cell.children)
    return tuple(found)


def _steps(content: Content) -> tuple[int, ...]:
    """The length of each numbered list in some content, in order."""
    found: list[int] = []
    for node in content:
        if isinstance(node, ItemList):
            if node.ordered:
                found.append(len(node.items))
            for item in node.items:
                found += _steps(item.children)
        elif isinstance(node, Definition | Note | Important):
            found += _steps(node.children)
    return tuple(found)


def _without_units(content: Content) -> Content:
    kept: list[Node] = []
    for node in content:
        if isinstance(node, Section) or (isinstance(node, Note) and node.title):
            continue
        if isinstance(node, Definition):
            kept.append(node._replace(children=_without_units(node.children)))
        elif isinstance(node, ItemList) and any(item.title for item in node.items):
            continue
        else:
            kept.append(node)
    return tuple(kept)


def align_sections(original: Book, translation: Book) -> list[Pair]:
    """The best monotonic alignment of the translation's sections with the original's."""
    left = outline(original, number_sections=True)
    right = outline(translation, number_sections=False)
    best: tuple[float, list[Pair]] | None = None
    for offset in range(-2, 3):
        total, pairs = _align(left, right, offset)
        if best is None or total > best[0]:
            best = (total, pairs)
    assert best is not None
    return best[1]


def _align(left: list[Unit], right: list[Unit], offset: int) -> tuple[float, list[Pair]]:
    rows, cols = len(left), len(right)
    score = [[0.0] * (cols + 1) for _ in range(rows + 1)]
    move = [[""] * (cols + 1) for _ in range(rows + 1)]
    for i in range(1, rows + 1):
        score[i][0], move[i][0] = score[i - 1][0] + GAP, "up"
    for j in range(1, cols + 1):
        score[0][j], move[0][j] = score[0][j - 1] + GAP, "left"
    cache: dict[tuple[int, int], tuple[float, str]] = {}
    for i in range(1, rows + 1):
        for j in range(1, cols + 1):
            cache[(i, j)] = pair_score(left[i - 1], right[j - 1], offset)
            options = (
                (score[i - 1][j - 1] + cache[(i, j)][0], "diagonal"),
                (score[i - 1][j] + GAP, "up"),
                (score[i][j - 1] + GAP, "left"),
            )
            score[i][j], move[i][j] = max(options, key=lambda option: option[0])
    pairs: list[Pair] = []
    i, j = rows, cols
    while i > 0 or j > 0:
        step = move[i][j]
        if step == "diagonal":
            value, method = cache[(i, j)]
            pairs.append(Pair(left[i - 1], right[j - 1], method, round(min(1.0, max(0.0, value)), 2)))
            i, j = i - 1, j - 1
        elif step == "up":
            pairs.append(Pair(left[i - 1], None, "unmatched", 1.0))
            i -= 1
        else:
            pairs.append(Pair(None, right[j - 1], "unmatched", 1.0))
            j -= 1
    return score[rows][cols], pairs[::-1]


def pair_score(original: Unit, translation: Unit, offset: int) -> tuple[float, str]:
    """How well two units match, and what decided it."""
    numbering = _numbering(original.number, translation.number, offset)
    shared = _shared_numbers(original.text, translation.text)
    length = _length(original.text, translation.text)
    title = _cognates(original.title, translation.title)
    kinds = 0.1 if original.kind == translation.kind or translation.number is None else 0.0
    content = 0.45 * shared + 0.25 * length + 0.3 * title
    if numbering >= 1.0:
        return 0.6 + 0.4 * content + kinds, "numbering"
    if numbering < 0:
        return numbering + 0.3 * content, "content"
    return content + kinds - 0.2, "content"


def _numbering(original: str | None, translation: str | None, offset: int) -> float:
    if original is None or translation is None:
        return 0.0
    left = [int(p) for p in original.split(".")]
    right = [int(p) for p in translation.split(".")]
    left[0] += offset
    if left == right:
        return 1.0
    return -0.5 if len(left) == len(right) else -0.2


def _numbers(text: str) -> list[str]:
    return [n.replace(",", ".") for n in _NUMBERS.findall(text)]


def _shared_numbers(a: str, b: str) -> float:
    left, right = _numbers(a), _numbers(b)
    if not left and not right:
        return 0.5
    common = sum(min(left.count(n), right.count(n)) for n in set(left))
    return 2 * common / (len(left) + len(right))


def _length(a: str, b: str) -> float:
    la, lb = len(a) + 40, len(b) + 40
    return min(la, lb) / max(la, lb)


def _fold(word: str) -> str:
    return re.sub(r"[^a-z]", "", ascii_lower(word))


def _cognates(a: str, b: str) -> float:
    """Share of title words with a cognate (same first four letters) on the other side."""
    left = [w for w in map(_fold, a.split()) if len(w) > 3]
    right = [w for w in map(_fold, b.split()) if len(w) > 3]
    if not left or not right:
        return 0.0
    hits = sum(1 for w in left if any(w[:4] == v[:4] for v in right))
    return hits / len(left)
