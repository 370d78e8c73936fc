"""Lint baselines: record today's problems, then fail only on new ones.

Entries match by rule, target and enclosing section id, never by line, so
edits elsewhere in the book do not invalidate the baseline. Each key keeps a
count: a fourth dangling ``spell`` in a section that had three is new.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from compiler.diagnostics import Diagnostic

FORMAT_VERSION = 1
Key = tuple[str, str, str]


class BaselineError(Exception):
    """The baseline file cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class BaselineResult:
    """Diagnostics not covered by the baseline, and what the baseline covered."""

    new: tuple[Diagnostic, ...]
    known: int
    """How many diagnostics the baseline covered (and so are not shown)."""
    stale: int
    """Baseline entries that no longer occur: the problems were fixed."""


def key(diagnostic: Diagnostic) -> Key:
    return (diagnostic.rule, diagnostic.target or "", diagnostic.section_id or "")


def serialise(diagnostics: Iterable[Diagnostic]) -> str:
    """The baseline file for some diagnostics: sorted, stable, one entry per key."""
    counts = Counter(key(d) for d in diagnostics)
    entries = [
        {"rule": rule, "target": target, "section": section, "count": count}
        for (rule, target, section), count in sorted(counts.items())
    ]
    return json.dumps({"version": FORMAT_VERSION, "entries": entries}, indent=2, ensure_ascii=False) + "\n"


def parse(text: str, origin: str) -> Counter[Key]:
    try:
        data = json.loads(text)
        entries = data["entries"]
        return Counter({(e["rule"], e["target"], e["section"]): int(e["count"]) for e in entries})
    except (ValueError, KeyError, TypeError) as error:
        raise BaselineError(f"{origin} is not a rulebook lint baseline ({error})") from error


def apply(diagnostics: Iterable[Diagnostic], baseline: Counter[Key]) -> BaselineResult:
    """Drop the diagnostics the baseline covers, earliest first within each key."""
    remaining = Counter(baseline)
    new: list[Diagnostic] = []
    for diagnostic in diagnostics:
        k = key(diagnostic)
        if remaining[k] > 0:
            remaining[k] -= 1
        else:
            new.append(diagnostic)
    known = sum(baseline.values()) - sum(remaining.values())
    return BaselineResult(tuple(new), known, sum(remaining.values()))
