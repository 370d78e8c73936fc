"""The side-by-side report for people: what ``compare --format html`` and the site's translation report show.

An index of every finding first, each linking (plain links, no script needed) to its row of the
side-by-side texts and to its lines in both sources; then both full texts, pair by pair, one row per
aligned group of sentences (a sentence without counterpart has a row of its own), the values, terms
and debris a finding is about highlighted, each sentence's line number linking to that line in the
sources (listed at the end of the report), tables as tables, and every finding under the row it
concerns, with its kind and severity for the report's filter. Pure: a dictionary for the templates
(``compare_body.html.j2``), markup escaped here.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Any

from markupsafe import Markup, escape

from rulebook.diagnostics import at_most_same
from rulebook.model import Table, plain_text
from rulebook.source import SourceText, Span
from rulebook.translate.align import Pair, Unit
from rulebook.translate.results import AlignedText, Comparison, Finding
from rulebook.translate.segments import Sentence


def report_context(
    comparison: Comparison, *, original_language: str = "en", translation_language: str = "fr"
) -> dict[str, Any]:
    """What the side-by-side report templates show."""
    keys = _source_keys(comparison, original_language, translation_language)
    findings = at_most_same(comparison.findings, _said)  # as the other reports: 150,000 doubled words, 94 MB
    texts = {text.pair: text for text in comparison.texts}
    by_pair: dict[int, list[Finding]] = {}
    loose: list[Finding] = []
    unpaired = {
        _unit_key(p): index for index, p in enumerate(comparison.pairs) if p.original is None or p.translation is None
    }
    for finding in findings:
        index = finding.pair
        if index is None:
            index = unpaired.get((finding.original, finding.translation), unpaired.get((None, finding.translation)))
        (by_pair.setdefault(index, []) if index is not None else loose).append(finding)
    pairs = [
        _pair(index, pair, texts.get(index), by_pair.get(index, []), keys)
        for index, pair in enumerate(comparison.pairs)
    ]
    listed = [
        _finding(f, keys) for f in sorted(findings, key=lambda f: tuple(f.place or f.counterpart or _NOWHERE)[:3])
    ]
    kinds = Counter(f.kind for f in findings)
    severities = Counter(f.rule.severity.public for f in findings)
    return {
        "pairs": pairs,
        "index": listed,
        "loose": [_finding(f, keys) for f in loose],
        "coverage": comparison.coverage,
        "counts": sorted(kinds.items()),
        "severities": [(name, severities[name]) for name in ("error", "warning", "info") if severities[name]],
        "waived": comparison.waived,
        "stale_waivers": list(comparison.stale_waivers),
        "sources": [_source(comparison.sources[path], key) for path, key in sorted(keys.items(), key=lambda kv: kv[1])],
        "original_language": original_language,
        "translation_language": translation_language,
    }


_NOWHERE = Span("", 0, 0)


def _said(finding: Finding) -> tuple[str, str, str]:
    """A finding's file, rule and message: what the reports bound (the diagnostic's, :meth:`Finding.diagnostic`)."""
    return ((finding.place or finding.counterpart or _NOWHERE).path, finding.rule.code, finding.message)


def _unit_key(pair: Pair) -> tuple[str | None, str | None]:
    return (pair.original.id if pair.original else None, pair.translation.id if pair.translation else None)


def _source_keys(comparison: Comparison, original: str, translation: str) -> dict[str, str]:
    """A short key per source file, for anchors (``src-en-33``)."""
    keys: dict[str, str] = {}
    for pair in comparison.pairs:
        for unit, language in ((pair.original, original), (pair.translation, translation)):
            if unit is not None and unit.source is not None and unit.source.path not in keys:
                taken = sum(1 for key in keys.values() if key.startswith(language))
                keys[unit.source.path] = language if not taken else f"{language}{taken + 1}"
    return {path: key for path, key in keys.items() if path in comparison.sources}


def _source(source: SourceText, key: str) -> dict[str, Any]:
    return {"key": key, "path": source.path, "lines": source.text.split("\n")}


def _pair(
    index: int, pair: Pair, text: AlignedText | None, findings: list[Finding], keys: dict[str, str]
) -> dict[str, Any]:
    rows, placed = _rows(text, findings, keys) if text is not None else ([], set())
    if text is None:
        rows = [_unpaired_row(pair, keys)]
    general = [_finding(f, keys) for f in findings if id(f) not in placed and f.kind != "table-row"]
    return {
        "index": index,
        "method": pair.method,
        "original": _heading(pair.original, keys),
        "translation": _heading(pair.translation, keys),
        "rows": rows,
        "findings": general,
        "tables": [_tables(pair_of_tables, findings, keys) for pair_of_tables in (text.tables if text else ())],
        "kinds": " ".join(sorted({f.kind for f in findings})),
        "severities": " ".join(sorted({f.rule.severity.public for f in findings})),
    }


def _heading(unit: Unit | None, keys: dict[str, str]) -> dict[str, Any] | None:
    if unit is None:
        return None
    line = unit.source.span(unit.offset).line if unit.source is not None else 0
    key = keys.get(unit.source.path, "") if unit.source is not None else ""
    return {
        "number": unit.number or "",
        "title": unit.title,
        "line": line,
        "anchor": f"src-{key}-{line}",
        "id": unit.id,
    }


def _unpaired_row(pair: Pair, keys: dict[str, str]) -> dict[str, Any]:
    """The text of a unit without counterpart, as one cell (no sentence alignment to show)."""
    cells = []
    for unit in (pair.original, pair.translation):
        cells.append([] if unit is None else [{"html": escape(unit.text), "line": None, "anchor": None, "alone": True}])
    return {"original": cells[0], "translation": cells[1], "findings": [], "kinds": "", "severities": "", "alone": True}


def _rows(text: AlignedText, findings: list[Finding], keys: dict[str, str]) -> tuple[list[dict[str, Any]], set[int]]:
    """One row per bead, each with the findings whose first mark falls in it."""
    bead_of = {
        (side, i): number
        for number, bead in enumerate(text.beads)
        for side, group in enumerate((bead.original, bead.translation))
        for i in group
    }
    marks: dict[tuple[int, int], list[tuple[int, int, str]]] = {}
    row_findings: dict[int, list[Finding]] = {}
    placed: set[int] = set()
    for finding in findings:
        for side, sentence, start, end in finding.marks:
            marks.setdefault((side, sentence), []).append((start, end, finding.kind))
        if finding.marks and finding.pair == text.pair:
            side, sentence = finding.marks[0][:2]
            if (side, sentence) in bead_of:
                row_findings.setdefault(bead_of[(side, sentence)], []).append(finding)
                placed.add(id(finding))
    moved = {(m.side, i): m.other_pair for m in text.moved for i in m.sentences}
    rows = []
    for number, bead in enumerate(text.beads):
        found = row_findings.get(number, [])
        cells = [
            [_sentence(sentences[i], marks.get((side, i), []), keys, moved.get((side, i))) for i in group]
            for side, (sentences, group) in enumerate(
                ((text.original, bead.original), (text.translation, bead.translation))
            )
        ]
        rows.append(
            {
                "original": cells[0],
                "translation": cells[1],
                "findings": [_finding(f, keys) for f in found],
                "kinds": " ".join(sorted({f.kind for f in found})),
                "severities": " ".join(sorted({f.rule.severity.public for f in found})),
                "alone": not bead.original or not bead.translation,
            }
        )
    return rows, placed


def _sentence(
    sentence: Sentence, marks: list[tuple[int, int, str]], keys: dict[str, str], moved: int | None
) -> dict[str, Any]:
    line = sentence.span.line
    key = keys.get(sentence.source.path, "") if sentence.source is not None else ""
    return {
        "html": highlight(sentence.text, [(s, e, k) for s, e, k in marks if s >= 0]),
        "line": line,
        "anchor": f"src-{key}-{line}",
        "alone": any(s < 0 for s, _, _ in marks),
        "moved": moved,
    }


def highlight(text: str, marks: Sequence[tuple[int, int, str]]) -> Markup:
    """The text, escaped, with each marked stretch in ``<mark class="rb-KIND">`` (overlaps merged)."""
    spans = sorted((max(0, s), min(len(text), e), kind) for s, e, kind in marks if e > s)
    merged: list[list[Any]] = []
    for start, end, kind in spans:
        if merged and start <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], end)
        else:
            merged.append([start, end, kind])
    parts: list[str] = []
    cursor = 0
    for start, end, kind in merged:
        parts.append(str(escape(text[cursor:start])))
        parts.append(f'<mark class="rb-{escape(kind)}">{escape(text[start:end])}</mark>')
        cursor = end
    parts.append(str(escape(text[cursor:])))
    return Markup("".join(parts))


def _finding(finding: Finding, keys: dict[str, str]) -> dict[str, Any]:
    def place(span: Any) -> dict[str, Any] | None:
        if span is None or span.path not in keys:
            return None
        return {
            "line": span.line,
            "column": span.column,
            "anchor": f"src-{keys[span.path]}-{span.line}",
            "path": span.path,
        }

    return {
        "kind": finding.kind,
        "code": finding.rule.code,
        "severity": finding.rule.severity.public,
        "message": finding.message,
        "help": finding.help,
        "fingerprint": finding.fingerprint,
        "quotes": finding.quotes,
        "place": place(finding.place),
        "counterpart": place(finding.counterpart),
    }


def _tables(tables: tuple[Table | None, Table | None], findings: list[Finding], keys: dict[str, str]) -> dict[str, Any]:
    """Both sides of a table, row by row; rows a table-row finding concerns are marked."""
    flagged = {(f.place.path, f.place.line) for f in findings if f.kind == "table-row" and f.place}
    flagged |= {(f.counterpart.path, f.counterpart.line) for f in findings if f.kind == "table-row" and f.counterpart}
    row_findings = [_finding(f, keys) for f in findings if f.kind == "table-row" and _in_tables(f, tables)]
    return {
        "original": _table(tables[0], flagged, keys),
        "translation": _table(tables[1], flagged, keys),
        "findings": row_findings,
    }


def _in_tables(finding: Finding, tables: tuple[Table | None, Table | None]) -> bool:
    lines = {(t.source.path, row.span.line) for t in tables if t is not None for row in t.rows}
    return any(span is not None and (span.path, span.line) in lines for span in (finding.place, finding.counterpart))


def _table(table: Table | None, flagged: set[tuple[str, int]], keys: dict[str, str]) -> dict[str, Any] | None:
    if table is None:
        return None
    key = keys.get(table.source.path, "")
    rows = [] if table.columns is None else [_row(table.columns, flagged, key, header=True)]
    rows += [_row(row, flagged, key) for row in table.rows]
    return {"title": table.title or "", "rows": rows}


def _row(row: Any, flagged: set[tuple[str, int]], key: str, *, header: bool = False) -> dict[str, Any]:
    line = row.span.line
    return {
        "cells": [plain_text(cell.children) for cell in row.cells],
        "header": header,
        "line": line,
        "anchor": f"src-{key}-{line}",
        "flagged": (row.source.path, line) in flagged,
    }
