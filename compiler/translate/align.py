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

import itertools
import re
from collections import Counter
from dataclasses import dataclass, field

from rulebook.languages.data import Language
from rulebook.languages.quantities import quantities
from rulebook.model import (
    Book,
    Content,
    Definition,
    Figure,
    Important,
    Item,
    ItemList,
    Node,
    Note,
    Reference,
    Section,
    plain_text,
    walk,
)
from rulebook.names import ascii_lower
from rulebook.source import SourceText

GAP = -0.35
"""Score of leaving a unit unpaired; pairs scoring below it are not worth making."""
DIGITS = frozenset({"digits", "dice"})
"""The kinds of quantity a unit is scored on: values written in digits survive translation."""


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
    content: Content = field(default=(), repr=False, compare=False)
    """The unit's own content (its subsections and titled notes are units of their own)."""
    source: SourceText | None = field(default=None, repr=False, compare=False)
    """The file the unit was read from."""
    offset: int = 0
    """Where its heading (or note, or item) starts in ``source``."""
    parent: str | None = None
    """Id of the unit it stands in (a section's parent section, a note's section)."""


@dataclass(frozen=True, slots=True)
class Pair:
    """A unit of the original and the translation's unit aligned with it (one side None: unpaired)."""

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


def _collect(
    section: Section, number: str | None, depth: int, units: list[Unit], numbering: bool, parent: str | None = None
) -> None:
    own = _without_units(section.children)
    units.append(
        Unit(
            section.id,
            section.title,
            number,
            depth,
            plain_text(own),
            "section",
            _references(own),
            _steps(own),
            own,
            section.source,
            section.offset,
            parent,
        )
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
            _collect(node, child, depth + 1, units, numbering, section.id)
        else:
            for title, content, holder in _titled_blocks(node):
                text = plain_text(content)
                unit = Unit(
                    f"{section.id}/{title}",
                    title,
                    None,
                    depth + 1,
                    text,
                    "note",
                    _references(content),
                    _steps(content),
                    content,
                    holder.source,
                    holder.offset,
                    section.id,
                )
                units.append(unit)


def _titled_blocks(node: object) -> list[tuple[str, Content, Note | Item]]:
    """Titled notes and list items inside a node (a translation may make them headings)."""
    if isinstance(node, Note) and node.title:
        return [(node.title, node.children, node)]
    if isinstance(node, ItemList):
        found: list[tuple[str, Content, Note | Item]] = []
        for item in node.items:
            if item.title:
                found.append((item.title, item.children, item))
            for child in item.children:
                found += _titled_blocks(child)
        return found
    if isinstance(node, Definition | Note):
        return [found for child in node.children for found in _titled_blocks(child)]
    return []


def _references(content: Content) -> tuple[str, ...]:
    """Term ids referred to anywhere in some content (a figure's caption aside), in order."""
    inside = walk(content, into=lambda node: not isinstance(node, Figure))
    return tuple(node.name for node in inside if isinstance(node, Reference))


def _steps(content: Content) -> tuple[int, ...]:
    """The length of each numbered list in some content (tables aside), in order."""
    inside = walk(content, into=lambda node: isinstance(node, ItemList | Definition | Note | Important))
    return tuple(len(node.items) for node in inside if isinstance(node, ItemList) and node.ordered)


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


def align_sections(
    original: Book, translation: Book, languages: tuple[Language | str, Language | str] | None = None
) -> list[Pair]:
    """The best monotonic alignment of the translation's sections with the original's (``languages``: the
    books' languages, their values read in each; by default the shipped languages the books name)."""
    left = outline(original, number_sections=True)
    right = outline(translation, number_sections=False)
    read = languages or (book_language(original), book_language(translation))
    left_features = [features(unit, read[0]) for unit in left]
    right_features = [features(unit, read[1]) for unit in right]
    best: tuple[float, list[Pair]] | None = None
    anchors = {offset: len(_anchors(left_features, right_features, offset)) for offset in range(-2, 3)}
    most = max(anchors.values())
    for offset in range(-2, 3):
        if most >= ENOUGH_ANCHORS and anchors[offset] < most / 2:
            continue  # numbering that agrees this rarely is not the books' offset
        total, pairs = _align(left, right, left_features, right_features, offset)
        if best is None or total > best[0]:
            best = (total, pairs)
    assert best is not None
    return best[1]


@dataclass(frozen=True, slots=True)
class Features:
    """What a unit is scored on, computed once per unit (scoring runs for every candidate pair)."""

    numbers: Counter[str]
    """The values the unit's text writes in digits (:func:`rulebook.languages.quantities.quantities`)."""
    count: int
    """How many numbers that is."""
    length: int
    """Characters of text."""
    title: tuple[str, ...]
    """The first four letters of each title word longer than three letters."""
    number: tuple[int, ...] | None
    """The section number, part by part."""
    kind: str


def book_language(book: Book) -> str:
    """The language a book is written in (its first document's)."""
    return book.documents[0].language if book.documents else "en"


def features(unit: Unit, language: Language | str) -> Features:
    """The features of a unit, for :func:`_score`."""
    found = Counter(_numbers(unit.text, language))
    title = tuple(w[:4] for w in map(_fold, unit.title.split()) if len(w) > 3)
    number = tuple(int(p) for p in unit.number.split(".")) if unit.number is not None else None
    return Features(found, sum(found.values()), len(unit.text), title, number, unit.kind)


def _align(
    left: list[Unit], right: list[Unit], lf: list[Features], rf: list[Features], offset: int
) -> tuple[float, list[Pair]]:
    """A sequence alignment through the cells :func:`_candidates` allows; the rest are never scored."""
    rows, cols = len(left), len(right)
    ranges = _candidates(lf, rf, offset)
    minus = float("-inf")
    score: list[list[float]] = [[0.0] + [GAP * j for j in range(1, ranges[0][1] + 1)]]
    move: list[list[str]] = [[""] + ["left"] * ranges[0][1]]
    cache: dict[tuple[int, int], tuple[float, str]] = {}
    for i in range(1, rows + 1):
        lo, hi = ranges[i]
        plo, phi = ranges[i - 1]
        above, here, moves = score[i - 1], [minus] * (hi - lo + 1), [""] * (hi - lo + 1)
        for j in range(lo, hi + 1):
            up = above[j - plo] + GAP if plo <= j <= phi else minus
            if j == 0:
                here[0], moves[0] = up, "up"
                continue
            diagonal = minus
            if plo <= j - 1 <= phi:
                cache[(i, j)] = _score(lf[i - 1], rf[j - 1], offset)
                diagonal = above[j - 1 - plo] + cache[(i, j)][0]
            side = here[j - 1 - lo] + GAP if j > lo else minus
            here[j - lo], moves[j - lo] = max(
                ((diagonal, "diagonal"), (up, "up"), (side, "left")), key=lambda option: option[0]
            )
        score.append(here)
        move.append(moves)
    pairs: list[Pair] = []
    i, j = rows, cols
    while i > 0 or j > 0:
        step = move[i][j - ranges[i][0]]
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
    return score[rows][cols - ranges[rows][0]], pairs[::-1]


BAND = 12
"""Between two anchors farther apart than this, only cells this close to the line joining them are scored."""


def _candidates(lf: list[Features], rf: list[Features], offset: int) -> list[tuple[int, int]]:
    """For each row of the alignment (0 to len(lf)), the first and last column worth scoring.

    Anchors are the pairs whose numbering agrees under ``offset`` (a number printed once on each
    side): the alignment passes through them, so a row only needs the columns between the anchors
    around it, and within a long stretch without anchors, a band along its diagonal.
    """
    anchors = [(0, 0), *_anchors(lf, rf, offset), (len(lf) + 1, len(rf) + 1)]
    ranges: list[tuple[int, int]] = []
    for (i0, j0), (i1, j1) in itertools.pairwise(anchors):
        for i in range(i0, min(i1, len(lf) + 1)):
            lo, hi = j0, min(j1, len(rf))
            if max(i1 - i0, j1 - j0) > BAND:
                middle = j0 + (i - i0) * (j1 - j0) / max(i1 - i0, 1)
                lo, hi = max(lo, int(middle) - BAND), min(hi, int(middle) + BAND)
            ranges.append((lo, hi))
    return _monotone(ranges, len(rf))


ENOUGH_ANCHORS = 5
"""With this many numbering anchors under the best offset, offsets with fewer than half as many are not tried."""


def _anchors(lf: list[Features], rf: list[Features], offset: int) -> list[tuple[int, int]]:
    """The pairs (1-based) whose numbers agree under ``offset``, each number printed once on each side, in order."""
    shifted: dict[tuple[int, ...], list[int]] = {}
    for i, f in enumerate(lf, 1):
        if f.number is not None:
            shifted.setdefault((f.number[0] + offset, *f.number[1:]), []).append(i)
    printed: dict[tuple[int, ...], list[int]] = {}
    for j, f in enumerate(rf, 1):
        if f.number is not None:
            printed.setdefault(f.number, []).append(j)
    anchors = [(0, 0)]
    for key, (i,) in sorted(((k, v) for k, v in shifted.items() if len(v) == 1), key=lambda kv: kv[1][0]):
        found = printed.get(key, [])
        if len(found) == 1 and found[0] > anchors[-1][1] and i > anchors[-1][0]:
            anchors.append((i, found[0]))
    return anchors[1:]


def _monotone(ranges: list[tuple[int, int]], cols: int) -> list[tuple[int, int]]:
    """Column ranges that overlap from row to row, so every allowed cell stays reachable."""
    fixed: list[tuple[int, int]] = []
    for lo, hi in ranges:
        if fixed:
            lo = min(max(lo, fixed[-1][0]), fixed[-1][1] + 1)
            hi = max(hi, lo)
        fixed.append((lo, min(max(hi, lo), cols)))
    last = fixed[-1]
    fixed[-1] = (min(last[0], cols), cols)
    return fixed


def _score(original: Features, translation: Features, offset: int) -> tuple[float, str]:
    numbering = _numbering(original.number, translation.number, offset)
    shared = _shared_numbers(original, translation)
    length = _length(original.length, translation.length)
    title = _cognates(original.title, translation.title)
    kinds = 0.1 if original.kind == translation.kind or translation.number is None else 0.0
    content = 0.45 * shared + 0.25 * length + 0.3 * title
    if numbering >= 1.0:
        return 0.6 + 0.4 * content + kinds, "numbering"
    if numbering < 0:
        return numbering + 0.3 * content, "content"
    return content + kinds - 0.2, "content"


def _numbering(original: tuple[int, ...] | None, translation: tuple[int, ...] | None, offset: int) -> float:
    if original is None or translation is None:
        return 0.0
    if (original[0] + offset, *original[1:]) == translation:
        return 1.0
    return -0.5 if len(original) == len(translation) else -0.2


def _numbers(text: str, language: Language | str) -> list[str]:
    """The values a text writes in digits (a roll as its count and die: ``2D6``), as the number reader reads them."""
    return [f"{q.value}{q.unit if q.kind == 'dice' else ''}" for q in quantities(text, language) if q.kind in DIGITS]


def _shared_numbers(a: Features, b: Features) -> float:
    if not a.count and not b.count:
        return 0.5
    common = sum(min(count, b.numbers[n]) for n, count in a.numbers.items())
    return 2 * common / (a.count + b.count)


def _length(a: int, b: int) -> float:
    la, lb = a + 40, b + 40
    return min(la, lb) / max(la, lb)


def _fold(word: str) -> str:
    return re.sub(r"[^a-z]", "", ascii_lower(word))


def _cognates(a: tuple[str, ...], b: tuple[str, ...]) -> float:
    """Share of title words with a cognate (same first four letters) on the other side."""
    if not a or not b:
        return 0.0
    return sum(1 for w in a if w in b) / len(a)
