"""``--format sarif``: SARIF 2.1.0 for code-scanning dashboards."""

from __future__ import annotations

import hashlib
from typing import Any

from rulebook import __version__
from rulebook.characters import json_text
from rulebook.diagnostics import Diagnostic, Rule
from rulebook.report.places import placed
from rulebook.report.summary import Report
from rulebook.source import SourceText

SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVELS = {"error": "error", "warning": "warning", "info": "note"}


def _rules(checked: tuple[Rule, ...], docs_url: str | None) -> list[dict[str, Any]]:
    from rulebook.catalog import LINT_RULES, rule_url

    rules = []
    for rule in checked or LINT_RULES:
        entry: dict[str, Any] = {
            "id": rule.code,
            "name": rule.name,
            "shortDescription": {"text": rule.summary},
            "fullDescription": {"text": rule.summary},
            "help": {"text": rule.documentation, "markdown": rule.documentation},
            "defaultConfiguration": {"level": _LEVELS[rule.severity.public]},
        }
        url = rule_url(docs_url, rule.code)
        if url is not None:
            entry["helpUri"] = url
        rules.append(entry)
    return rules


def _location(path: str, line: int, column: int, message: str | None = None) -> dict[str, Any]:
    location: dict[str, Any] = {
        "physicalLocation": {
            "artifactLocation": {"uri": path, "uriBaseId": "SRCROOT"},
            "region": {"startLine": line, "startColumn": column},
        }
    }
    if message is not None:
        location["message"] = {"text": message}
    return location


def _fingerprint(diagnostic: Diagnostic) -> str:
    """Stable across line moves: rule, target and section, like the baseline."""
    key = "\x1f".join((diagnostic.rule, diagnostic.target or "", diagnostic.section_id or ""))
    return hashlib.sha256(key.encode("utf-8")).hexdigest()[:32]


def _result(diagnostic: Diagnostic, rule_index: dict[str, int], source: SourceText | None) -> dict[str, Any]:
    span = placed(diagnostic, source)  # the column the text report's caret stands at
    text = diagnostic.message + (f"\nhelp: {diagnostic.help}" if diagnostic.help else "")
    result: dict[str, Any] = {
        "ruleId": diagnostic.code,
        "ruleIndex": rule_index[diagnostic.code],
        "level": _LEVELS[diagnostic.severity.public],
        "message": {"text": text},
        "locations": [_location(span.path, span.line, span.column)],
        "partialFingerprints": {"rulebookKey/v1": _fingerprint(diagnostic)},
    }
    notes = (*diagnostic.notes, diagnostic.counterpart) if diagnostic.counterpart else diagnostic.notes
    related = [
        _location(n.span.path, n.span.line, n.span.column, n.message) | {"id": i}
        for i, n in enumerate(notes)
        if n.span is not None
    ]
    if related:
        result["relatedLocations"] = related
    return result


def render(report: Report) -> str:
    rules = _rules(report.rules, report.docs_url)
    rule_index = {rule["id"]: i for i, rule in enumerate(rules)}
    driver: dict[str, Any] = {"name": "rulebook", "version": __version__, "rules": rules}
    if report.docs_url:
        driver["informationUri"] = report.docs_url
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "columnKind": "unicodeCodePoints",
        "originalUriBaseIds": {"SRCROOT": {"description": {"text": "The project folder"}}},
        "results": [_result(d, rule_index, report.sources.get(d.span.path)) for d in report.diagnostics],
    }
    if report.notes:  # what the run did otherwise because its input was too large: notifications
        notifications = [{"level": "note", "message": {"text": note}} for note in report.notes]
        run["invocations"] = [{"executionSuccessful": True, "toolExecutionNotifications": notifications}]
    log = {"$schema": SCHEMA, "version": "2.1.0", "runs": [run]}
    return json_text(log, indent=2, sort_keys=True) + "\n"
