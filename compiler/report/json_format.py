"""``--format json``: one object, ``{"diagnostics": [...], "summary": {...}}``, one line per diagnostic
(``--pretty``: indented)."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

from compiler.catalog import rule_url
from compiler.diagnostics import Diagnostic, Note
from compiler.report.summary import Report


def diagnostic_record(diagnostic: Diagnostic, docs_url: str | None = None) -> dict[str, Any]:
    span = diagnostic.span
    return {
        "code": diagnostic.code,
        "rule": diagnostic.rule,
        "severity": diagnostic.severity.public,
        "fatal": diagnostic.severity.value == "fatal",
        "message": diagnostic.message,
        "file": span.path,
        "line": span.line,
        "column": span.column,
        "target": diagnostic.target,
        "suggestions": list(diagnostic.suggestions),
        "help": diagnostic.help,
        "section": diagnostic.section_id,
        "notes": [_note(note) for note in diagnostic.notes],
        "url": rule_url(docs_url, diagnostic.code),
    } | ({"counterpart": _note(diagnostic.counterpart)} if diagnostic.counterpart else {})


def _note(note: Note) -> dict[str, Any]:
    place = {"file": note.span.path, "line": note.span.line, "column": note.span.column} if note.span else {}
    return {"message": note.message} | place


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


_COMPACT = json.JSONEncoder(sort_keys=True, ensure_ascii=False, separators=(",", ":"))


def render(report: Report, *, pretty: bool = False) -> str:
    """The report as JSON: one line per diagnostic (``pretty``: indented, for people)."""
    data = document(report)
    if pretty:
        return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
    encode = _COMPACT.encode
    lines = ",\n".join(map(encode, data["diagnostics"]))
    return f'{{"diagnostics":[\n{lines}\n],"summary":{encode(data["summary"])}}}\n'
