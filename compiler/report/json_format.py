"""``--format json``: one object, ``{"diagnostics": [...], "summary": {...}}``, one line per diagnostic
(``--pretty``: indented)."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

from rulebook.catalog import rule_url
from rulebook.characters import escaped_in_json, json_text
from rulebook.diagnostics import Diagnostic, Note, Severity
from rulebook.report.summary import Report

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
    notes = {"notes": list(report.notes)} if report.notes else {}
    return notes | {
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
        return json_text(document(report), indent=2, sort_keys=True) + "\n"
    lines = ",\n".join(_CompactLines(report.docs_url).encode(report.diagnostics))
    totals = json.dumps(summary(report), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return escaped_in_json(f'{{"diagnostics":[\n{lines}\n],"summary":{totals}}}\n')


class _CompactLines:
    """Each diagnostic as its compact record's line, byte for byte what the encoder makes of
    :func:`diagnostic_record`, without making the record.

    A book's findings repeat themselves (22,100 references to 7,900 undefined names in a big
    book: one message, help and suggestions per name), so each text, list of suggestions and list
    of notes is encoded once, and a line is those encoded pieces put together in the record's key
    order (code, column, fatal, file, help, line, message, notes, rule, section, severity,
    suggestions, target, url).
    """

    def __init__(self, docs_url: str | None) -> None:
        self._docs_url = docs_url
        self._texts: dict[str | None, str] = {None: "null"}
        self._lists: dict[int, str] = {}
        self._urls: dict[str, str] = {}

    def encode(self, diagnostics: Sequence[Diagnostic]) -> Iterator[str]:
        text, lists, urls = self._text, self._lists, self._urls
        for diagnostic in diagnostics:
            if diagnostic.counterpart is not None:  # rare (comparisons): the record itself
                yield _COMPACT.encode(diagnostic_record(diagnostic, self._docs_url))
                continue
            span, severity, code = diagnostic.span, diagnostic.severity, diagnostic.code
            # Identity keys for the tuples: they stay alive while the report is made.
            notes = lists.get(id(diagnostic.notes))
            if notes is None:
                notes = lists[id(diagnostic.notes)] = _COMPACT.encode([_note(n) for n in diagnostic.notes])
            suggestions = lists.get(id(diagnostic.suggestions))
            if suggestions is None:
                suggestions = lists[id(diagnostic.suggestions)] = _COMPACT.encode(list(diagnostic.suggestions))
            url = urls.get(code)
            if url is None:
                url = urls[code] = text(rule_url(self._docs_url, code))
            yield (
                f'{{"code":{text(code)},"column":{span.column},"fatal":{_FATALS[severity]},'
                f'"file":{text(span.path)},"help":{text(diagnostic.help)},"line":{span.line},'
                f'"message":{text(diagnostic.message)},"notes":{notes},"rule":{text(diagnostic.rule)},'
                f'"section":{text(diagnostic.section_id)},"severity":{text(_PUBLIC[severity])},'
                f'"suggestions":{suggestions},"target":{text(diagnostic.target)},"url":{url}}}'
            )

    def _text(self, value: str | None) -> str:
        """A text (or None) as JSON, encoded once."""
        found = self._texts.get(value)
        if found is None:
            found = self._texts[value] = _COMPACT.encode(value)
        return found


_FATALS = {severity: "true" if severity is _FATAL else "false" for severity in Severity}
