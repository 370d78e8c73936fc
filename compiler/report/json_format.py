"""``--format json``: one object, ``{"diagnostics": [...], "summary": {...}}``, one line per diagnostic
(``--pretty``: indented)."""

from __future__ import annotations

import json
from collections import Counter
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
    # Each record encoded as soon as it is made: the records are never all held at once.
    encode, url = _COMPACT.encode, report.docs_url
    lines = ",\n".join([encode(diagnostic_record(d, url)) for d in report.diagnostics])
    totals = json.dumps(summary(report), sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return f'{{"diagnostics":[\n{lines}\n],"summary":{totals}}}\n'
