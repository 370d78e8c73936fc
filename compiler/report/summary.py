"""What a lint report holds, and the exit status it gives."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from rulebook.diagnostics import Diagnostic, Rule, Severity, sort_diagnostics
from rulebook.source import SourceText

FixKey = tuple[str, int, int, str]
"""A finding's path, line, column and code: what tells a fixable finding apart from the others."""


def fix_key(diagnostic: Diagnostic) -> FixKey:
    span = diagnostic.span
    return (span.path, span.line, span.column, diagnostic.code)


@dataclass(frozen=True, slots=True)
class Report:
    """What a renderer needs: the diagnostics to show and the facts for the summary."""

    diagnostics: tuple[Diagnostic, ...]
    sources: dict[str, SourceText] = field(default_factory=dict)
    files: int = 0
    baselined: int = 0
    """Diagnostics hidden because the baseline lists them."""
    stale_baseline: int = 0
    """Baseline entries that no longer occur."""
    docs_url: str | None = None
    """The page documenting each rule (a section per rule), for help links; None: no links."""
    rules: tuple[Rule, ...] = ()
    """The rules the run checked, as SARIF lists them (none given: the lint's)."""
    notes: tuple[str, ...] = ()
    """What the run did in a simpler way than it says because its input was too large (a comparison
    bounded in time), in words: shown after the summary, or as the format's notices."""
    fixable: frozenset[FixKey] = frozenset()
    """The findings ``rulebook lint --fix`` would fix, by :func:`fix_key`."""

    def is_fixable(self, diagnostic: Diagnostic) -> bool:
        return bool(self.fixable) and fix_key(diagnostic) in self.fixable

    def counts(self) -> Counter[str]:
        """Diagnostics by public severity name (error, warning, info)."""
        counts: Counter[str] = Counter()
        for severity, count in Counter(d.severity for d in self.diagnostics).items():
            counts[severity.public] += count  # fatal problems count as errors
        return counts

    @property
    def fatal(self) -> bool:
        return any(d.severity is Severity.FATAL for d in self.diagnostics)


def joined_report(reports: Sequence[Report]) -> Report:
    """Several books' reports as one: their findings in report order, their counts added."""
    return Report(
        tuple(sort_diagnostics([d for r in reports for d in r.diagnostics])),
        {path: source for r in reports for path, source in r.sources.items()},
        sum(r.files for r in reports),
        sum(r.baselined for r in reports),
        sum(r.stale_baseline for r in reports),
        reports[0].docs_url,
        fixable=frozenset().union(*(r.fixable for r in reports)),
    )


def exit_code(report: Report, *, strict: bool = False) -> int:
    """The lint's exit status.

    0: no errors (and, with ``strict``, no warnings either);
    1: errors, or warnings under ``strict``;
    2: a source could not be read at all (missing, not UTF-8, malformed XML).
    """
    if report.fatal:
        return 2
    counts = report.counts()
    if counts["error"] or (strict and counts["warning"]):
        return 1
    return 0
