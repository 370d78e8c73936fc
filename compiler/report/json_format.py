"""``--format json``: one object, ``{"diagnostics": [...], "summary": {...}}``, one line per diagnostic
(``--pretty``: indented)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from compiler.catalog import rule_url
from compiler.diagnostics import Diagnostic, Note, Severity
from compiler.report.summary import Report

_FATAL = Severity.FATAL
_PUBLIC = {severity: severity.public for severity in Severity}
"""Each severity's public name, looked up once (an enum property costs a microsecond per diagnostic)."""


def diagnostic_record(diagnostic: Diagnostic, docs_url: str | None = None) -> dict[str, Any]:
    """A diagnostic as JSON data, its keys in sorted order (so a compact report need not sort them)."""
    span = diagnostic.span
    severity = diagnostic.severity
    record: dict[str, Any] = {"code": diagnostic.code, "column": span.column}
    if diagnostic.counterpart:
        record["counterpart"] = _note(diagnostic.counterpart)
    record |= {
        "fatal": severity is _FATAL,
        "file": span.path,
        "help": diagnostic.help,
        "line": span.line,
        "message": diagnostic.message,
        "notes": [_note(note) for note in diagnostic.notes],
        "rule": diagnostic.rule,
        "section": diagnostic.section_id,
        "severity": _PUBLIC[severity],
        "suggestions": list(diagnostic.suggestions),
        "target": diagnostic.target,
        "url": rule_url(docs_url, diagnostic.code),
    }
    return record


def _note(note: Note) -> dict[str, Any]:
    span = note.span
    return (
        {"column": span.column, "file": span.path, "line": span.line, "message": note.message}
        if span
        else {"message": note.message}
    )


def summary(report: Report) -> dict[str, Any]:
    counts = report.counts()
    return {
        "files": report.files,
        "errors": counts["error"],
        "warnings": counts["warning"],
        "info": counts["info"],
        "fatal": report.fatal,
        "baselined": report.baselined,
        "stale_baseline_entries": report.stale_baseline,
        "by_rule": dict(sorted(Counter(d.rule for d in report.diagnostics).items())),
    }


def document(report: Report) -> dict[str, Any]:
    """The JSON document of a report: its diagnostics and its summary."""
    records = [diagnostic_record(d, report.docs_url) for d in report.diagnostics]
    return {"diagnostics": records, "summary": summary(report)}


# Records are made with their keys in order: sorting them again was most of what encoding cost.
_COMPACT = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def render(report: Report, *, pretty: bool = False) -> str:
    """The report as JSON: one line per diagnostic (``pretty``: indented, for people)."""
    if pretty:
        return json.dumps(document(report), indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    lines = ",\n".join(_CompactLines(report.docs_url).encode(report.diagnostics))
    totals = json.dumps(summary(report), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f'{{"diagnostics":[\n{lines}\n],"summary":{totals}}}\n'


class _CompactLines:
    """Each diagnostic as its compact record's line, byte for byte what the encoder makes of
    :func:`diagnostic_record`, without making the record.

    A book's findings repeat themselves (22,100 references to 7,900 undefined names in a big
    book: one message, help and suggestions per name), so what a line shares with others is
    encoded once and only its place is encoded per line: a third of the encoder's time.
    """

    def __init__(self, docs_url: str | None) -> None:
        self._docs_url = docs_url
        self._shared: dict[tuple[object, ...], tuple[str, str, str, str]] = {}
        self._sections: dict[str | None, str] = {}

    def encode(self, diagnostics: Sequence[Diagnostic]) -> Iterator[str]:
        encode = _COMPACT.encode
        shared, sections = self._shared, self._sections
        for diagnostic in diagnostics:
            if diagnostic.counterpart is not None:  # rare (comparisons): the record itself
                yield encode(diagnostic_record(diagnostic, self._docs_url))
                continue
            span = diagnostic.span
            # Identity keys for the tuples: equal by identity is equal by value (a miss is only slower).
            key = (
                diagnostic.code,
                id(diagnostic.severity),  # an enum member hashes in Python; members are singletons
                diagnostic.message,
                diagnostic.help,
                diagnostic.target,
                diagnostic.rule,
                span.path,
                id(diagnostic.notes),
                id(diagnostic.suggestions),
            )
            parts = shared.get(key)
            if parts is None:
                parts = shared[key] = self._parts(diagnostic)
            section = sections.get(diagnostic.section_id)
            if section is None:
                section = sections[diagnostic.section_id] = encode(diagnostic.section_id)
            yield f"{parts[0]}{span.column}{parts[1]}{span.line}{parts[2]}{section}{parts[3]}"

    def _parts(self, diagnostic: Diagnostic) -> tuple[str, str, str, str]:
        """The record's text around its column, line and section.

        Cut from the record encoded with zeros and no section: the cuts are found at the first
        ``"column":``, ``,"line":`` and ``,"section":``, which stand nowhere else before them (a
        quote inside a string is escaped, and the notes, whose keys include ``line``, come later).
        """
        record = diagnostic_record(diagnostic, self._docs_url) | {"column": 0, "line": 0, "section": None}
        head, rest = _COMPACT.encode(record).split('"column":0,', 1)
        before_line, rest = rest.split(',"line":0,', 1)
        before_section, tail = rest.split(',"section":null,', 1)
        return (
            f'{head}"column":',
            f',{before_line},"line":',
            f',{before_section},"section":',
            f",{tail}",
        )
