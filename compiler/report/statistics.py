"""``rulebook lint --statistics``: how many findings each rule has, as ruff's ``--statistics`` counts them.

```
235  RB101  error    dangling-reference   3 fixable
 15  RB401  warning  unused-definition
```

The rules with the most findings first (then by code), each with how many ``--fix`` would fix; the
report's summary below. As JSON: ``{"statistics": [...], "summary": {...}}``.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from rulebook.characters import json_text
from rulebook.report.summary import Report


@dataclass(frozen=True, slots=True)
class RuleCount:
    """One rule's findings in a report."""

    code: str
    rule: str
    severity: str
    """The worst severity among them, as reports name it."""
    count: int
    fixable: int
    """How many of them ``rulebook lint --fix`` would fix."""


def count_rules(report: Report) -> list[RuleCount]:
    """Each rule's count of findings, the most first (then by code)."""
    counts: Counter[tuple[str, str]] = Counter()
    fixable: Counter[str] = Counter()
    worst: dict[str, tuple[int, str]] = {}
    for diagnostic in report.diagnostics:
        counts[(diagnostic.code, diagnostic.rule)] += 1
        fixable[diagnostic.code] += report.is_fixable(diagnostic)
        severity = (diagnostic.severity.rank, diagnostic.severity.public)
        worst[diagnostic.code] = min(worst.get(diagnostic.code, severity), severity)
    rows = [RuleCount(code, rule, worst[code][1], count, fixable[code]) for (code, rule), count in counts.items()]
    return sorted(rows, key=lambda row: (-row.count, row.code))


def render_text(report: Report) -> str:
    """The counts as aligned columns, then the report's summary."""
    from rulebook.report.text import render_summary

    rows = count_rules(report)
    if not rows:
        return render_summary(report)
    number = len(str(rows[0].count))
    name = max(len(row.rule) for row in rows)
    lines = [
        f"{row.count:>{number}}  {row.code}  {row.severity:<7}  {row.rule:<{name}}"
        + (f"  {row.fixable} fixable" if row.fixable else "")
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines) + "\n\n" + render_summary(report)


def render_json(report: Report) -> str:
    """The counts and the summary as one JSON document."""
    from rulebook.report.json_format import summary

    document: dict[str, Any] = {
        "statistics": [
            {"code": r.code, "rule": r.rule, "severity": r.severity, "count": r.count, "fixable": r.fixable}
            for r in count_rules(report)
        ],
        "summary": summary(report),
    }
    return json_text(document, indent=2, sort_keys=True) + "\n"
