"""Findings on the translation's own text: lost cross-references, table rows, conversion debris."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterator, Sequence
from typing import Any

from rulebook.catalog import translation as rules
from rulebook.languages.data import Language
from rulebook.model import Book, Row
from rulebook.source import Span
from rulebook.translate.align import Pair
from rulebook.translate.debris import find_debris
from rulebook.translate.findings import Neighbours, contents_titles, finding
from rulebook.translate.results import AlignedText, Finding, Mark
from rulebook.translate.tables import RowFinding


def reference_findings(text: AlignedText, pairs: list[Pair]) -> list[Finding]:
    """Cross-references the PDF conversion lost (``??``), one finding per sentence."""
    pair = pairs[text.pair]
    found = []
    neighbours = Neighbours(text)
    for number, sentence in enumerate(text.translation):
        at = sentence.text.find("??")
        if at == -1:
            continue
        counterpart = neighbours.counterpart(number)
        found.append(
            finding(
                rules.LOST_REFERENCE,
                "a cross-reference was lost in conversion (`??`)",
                sentence.place(at, at + 2),
                counterpart,
                "write the chapter, section or page the original points to",
                text,
                pair,
                (sentence.text,),
                marks=tuple((1, number, m.start(), m.end()) for m in re.finditer(r"\?\?", sentence.text)),
            )
        )
    return found


def table_findings(index: int, pair: Pair, rows: Sequence[RowFinding]) -> list[Finding]:
    """Table rows missing from the translation, or stating other values."""
    found = []
    for row in rows:
        place = _row_place(row.translation) if row.translation is not None else row.table.span
        evidence = (_row_text(row.original), _row_text(row.translation) if row.translation else "")
        details = {"row": row.key, "original": list(row.only_original), "translation": list(row.only_translation)}
        help_text = "add the row" if row.translation is None else "check the row's values against the original"
        ids = (pair.original.id if pair.original else None, pair.translation.id if pair.translation else None)
        found.append(
            Finding(
                rules.TABLE_ROW, row.message, place, _row_place(row.original), help_text, *ids, index, details, evidence
            )
        )
    return found


def _row_place(row: Row) -> Span:
    return row.source.span(row.offset, 1)


def _row_text(row: Row) -> str:
    from rulebook.model import plain_text

    return " | ".join(plain_text(cell.children) for cell in row.cells)


def debris_findings(
    translation: Book, texts: Sequence[AlignedText], pairs: list[Pair], languages: tuple[Language, Language]
) -> list[Finding]:
    """Slips of the conversion, each with the original's sentence aligned with the one it stands in."""
    index = _SentenceIndex(texts)
    neighbours: dict[int, Neighbours] = {}  # by the pair of each text
    found = []
    for document in translation.documents:
        if not document.sections:
            continue
        source = document.sections[0].source
        skip = _range_of(document.sections, contents_titles(languages), len(source.text))
        lines: dict[int, str] = {}
        ordered = sorted(document.sections, key=lambda s: s.offset)
        starts = [section.offset for section in ordered]
        markdown = source.path.lower().endswith((".md", ".markdown"))
        found_debris = find_debris(
            source.text,
            skip=skip,
            language=languages[1],
            original=languages[0],
            markdown=markdown,
            dialect=document.dialect,
        )
        for debris in found_debris:
            if debris.start < starts[0]:
                continue  # before the first heading: front matter, no text of the book
            place = source.span(debris.start, debris.end - debris.start)
            text, number = index.at(source.path, debris.start)
            counterpart = None
            if text is not None:
                if text.pair not in neighbours:
                    neighbours[text.pair] = Neighbours(text)
                counterpart = neighbours[text.pair].counterpart(number)
            marks: tuple[Mark, ...] = ()
            if text is not None:
                start = text.translation[number].position(debris.start)
                if start is not None:
                    marks = ((1, number, start, start + debris.end - debris.start),)
            pair = pairs[text.pair] if text is not None else Pair(None, None, "unmatched", 0.0)
            if place.line not in lines:  # one text per line: a line's findings share it (and its fingerprint's hash)
                lines[place.line] = source.line_text(place.line)
            line = lines[place.line]
            evidence = (line, source.text[debris.start : debris.end])
            finding = Finding(
                debris.rule,
                debris.message,
                place,
                counterpart,
                debris.help,
                pair.original.id if pair.original else None,
                _section_at(ordered, starts, debris.start),
                text.pair if text is not None else None,
                {},
                evidence,
                marks=marks,
            )
            found.append(finding)
    return found


class _SentenceIndex:
    """The translation's sentences by place: which one holds an offset."""

    def __init__(self, texts: Sequence[AlignedText]) -> None:
        self.by_path: dict[str, list[tuple[int, AlignedText, int]]] = {}
        for text in texts:
            for number, sentence in enumerate(text.translation):
                if sentence.source is not None:
                    self.by_path.setdefault(sentence.source.path, []).append((sentence.offset, text, number))
        for entries in self.by_path.values():
            entries.sort(key=lambda entry: entry[0])
        self.offsets = {path: [e[0] for e in entries] for path, entries in self.by_path.items()}

    def at(self, path: str, offset: int) -> tuple[AlignedText | None, int]:
        entries = self.by_path.get(path, [])
        position = bisect_right(self.offsets.get(path, []), offset) - 1
        if position < 0:
            return None, 0
        start, text, number = entries[position]
        sentence = text.translation[number]
        return (text, number) if offset - start <= len(sentence.text) + 200 else (None, 0)


def _range_of(sections: Iterator[Any] | tuple[Any, ...], titles: frozenset[str], end: int) -> tuple[int, int]:
    ordered = sorted(sections, key=lambda s: s.offset)
    for number, section in enumerate(ordered):
        if section.title.lower() in titles:
            return section.offset, ordered[number + 1].offset if number + 1 < len(ordered) else end
    return (0, 0)


def _section_at(ordered: list[Any], starts: list[int], offset: int) -> str | None:
    """The id of the last of the sections (``ordered`` by their ``starts``) starting at or before ``offset``."""
    index = bisect_right(starts, offset)
    return ordered[index - 1].id if index else None
