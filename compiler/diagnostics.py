"""Diagnostics: immutable findings with a stable code, a place and help."""

from __future__ import annotations

import enum
from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar, cast

from rulebook.source import Span


class Severity(enum.Enum):
    """How bad a finding is. ``FATAL`` means the input could not be read at all."""

    FATAL = "fatal"
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    @property
    def rank(self) -> int:
        """Sort rank: the worst first."""
        return _RANKS[self]

    @property
    def public(self) -> str:
        """The name shown in reports: fatal problems are reported as errors."""
        return "error" if self is Severity.FATAL else self.value


_RANKS = {Severity.FATAL: 0, Severity.ERROR: 1, Severity.WARNING: 2, Severity.INFO: 3}


@dataclass(frozen=True, slots=True)
class Note:
    """A secondary message, optionally pointing at another place ("defined here")."""

    message: str
    span: Span | None = None


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem at one place."""

    code: str
    """Stable code, such as ``RB101``."""
    rule: str
    """Rule name stating the bad thing, such as ``dangling-reference``."""
    severity: Severity
    message: str
    """Lowercase, no final period, names in backticks."""
    span: Span
    """The primary place."""
    target: str | None = None
    """The name or id concerned, where there is one."""
    suggestions: tuple[str, ...] = ()
    """Replacement names, best first ("did you mean")."""
    help: str | None = None
    """How to fix it."""
    notes: tuple[Note, ...] = ()
    section_id: str | None = None
    """Id of the enclosing section (baseline entries match on it, not on lines)."""
    counterpart: Note | None = None
    """The same place on the other side of a comparison, shown with its source line."""

    @property
    def sort_key(self) -> tuple[str, int, int, int, str, str]:
        span = self.span
        return (span.path, span.line, span.column, self.severity.rank, self.code, self.target or "")


Said = TypeVar("Said")
"""What a report lists and bounds: a diagnostic, or a comparison's finding."""

SAME_SHOWN = 1_000
"""The most findings of one message in one file a report lists; the last says more follow (2 MB of ``](`` in a
Markdown source made a million findings: 2.2 GB and 32 s for the text report, 3.8 GB for SARIF at 1 MB)."""
RULE_SHOWN = 50_000
"""The most findings of one rule a book's report lists, whatever their messages and files (200,000 references to
as many undefined terms, 2.3 MB of Markdown: 14 s and 2.5 GB of SARIF; split over five files, as much). Above what
a real book holds: the seed made a hundred times larger has 22,100 dangling references."""


ALL_SHOWN = 100_000
"""The most findings a book's report lists, of every rule (:data:`RULE_SHOWN` is a rule's)."""


def at_most_same(diagnostics: Iterable[Said], said: Callable[[Said], tuple[str, str, str]] | None = None) -> list[Said]:
    """``diagnostics`` in their order, but past :data:`SAME_SHOWN` of one message in one file (of one rule), then
    past :data:`RULE_SHOWN` of one rule in the book: the last listed of each says how many more there are. For a
    report, once the baseline has taken what it knows (bounded before, a baseline written past the bound hid every
    later one). ``said``: an item's file, rule code and message, for items other than diagnostics (a comparison's
    findings, as its side-by-side report lists them)."""
    message = said or _message
    kept = _bounded(list(diagnostics), message, SAME_SHOWN, "more like it after it in this file")
    kept = _bounded(kept, lambda d: message(d)[1], RULE_SHOWN, "more findings of this rule after it")
    return _bounded(kept, lambda d: "", ALL_SHOWN, "more findings after it")  # six rules of 50,000: 2.7 GB of SARIF


def _message(diagnostic: Any) -> tuple[str, str, str]:
    return (diagnostic.span.path, diagnostic.code, diagnostic.message)


def _bounded(found: list[Said], key: Callable[[Said], Hashable], limit: int, more: str) -> list[Said]:
    """``found`` in order, at most ``limit`` of each ``key``: the last listed says how many ``more`` there are."""
    total = Counter(key(d) for d in found)
    seen: Counter[Hashable] = Counter()
    listed: list[Said] = []
    for diagnostic in found:
        group = key(diagnostic)
        seen[group] += 1
        if seen[group] < limit or total[group] == limit:
            listed.append(diagnostic)
        elif seen[group] == limit:
            listed.append(_more(diagnostic, f"and {total[group] - limit:,} {more}, not listed"))
    return listed


def _more(diagnostic: Said, said: str) -> Said:
    item: Any = diagnostic  # a dataclass with a message: a diagnostic or a comparison's finding
    return cast("Said", replace(item, message=f"{item.message} ({said})"))


@dataclass(frozen=True, slots=True)
class Rule:
    """A lint rule's identity and documentation."""

    code: str
    name: str
    severity: Severity
    """Default severity; configuration may change it."""
    summary: str
    """One line: what the rule reports."""
    doc: str = field(default="", repr=False)
    """Markdown: What it does / Why is this bad? / Example."""

    def diagnostic(
        self,
        message: str,
        span: Span,
        *,
        target: str | None = None,
        suggestions: tuple[str, ...] = (),
        help: str | None = None,
        notes: tuple[Note, ...] = (),
        section_id: str | None = None,
        counterpart: Note | None = None,
    ) -> Diagnostic:
        return _build(
            self.code,
            self.name,
            self.severity,
            message,
            span,
            target,
            suggestions,
            help,
            notes,
            section_id,
            counterpart,
        )

    def diagnostics(
        self,
        message: str,
        places: Iterable[tuple[Span, str | None]],
        *,
        target: str | None = None,
        suggestions: tuple[str, ...] = (),
        help: str | None = None,
        notes: tuple[Note, ...] = (),
    ) -> list[Diagnostic]:
        """One diagnostic per (span, section id), the same in all else (a name written at many places)."""
        code, name, severity = self.code, self.name, self.severity
        return [
            _build(code, name, severity, message, span, target, suggestions, help, notes, section_id, None)
            for span, section_id in places
        ]

    @property
    def documentation(self) -> str:
        """The rule's documentation as Markdown, headed by its code and name."""
        import textwrap  # for `explain` and the rules' pages, not for every command's start-up

        body = textwrap.dedent(self.doc).strip()
        return f"# {self.name} ({self.code})\n\n{self.summary}\n\n{body}\n"


_SLOTS: Mapping[str, Any] = vars(Diagnostic)
_new = object.__new__
_set_code = _SLOTS["code"].__set__
_set_rule = _SLOTS["rule"].__set__
_set_severity = _SLOTS["severity"].__set__
_set_message = _SLOTS["message"].__set__
_set_span = _SLOTS["span"].__set__
_set_target = _SLOTS["target"].__set__
_set_suggestions = _SLOTS["suggestions"].__set__
_set_help = _SLOTS["help"].__set__
_set_notes = _SLOTS["notes"].__set__
_set_section_id = _SLOTS["section_id"].__set__
_set_counterpart = _SLOTS["counterpart"].__set__


def _build(
    code: str,
    rule: str,
    severity: Severity,
    message: str,
    span: Span,
    target: str | None,
    suggestions: tuple[str, ...],
    help: str | None,
    notes: tuple[Note, ...],
    section_id: str | None,
    counterpart: Note | None,
) -> Diagnostic:
    """The diagnostic ``Diagnostic(...)`` makes, each slot set directly (twice as fast as the frozen ``__init__``)."""
    diagnostic: Diagnostic = _new(Diagnostic)
    _set_code(diagnostic, code)
    _set_rule(diagnostic, rule)
    _set_severity(diagnostic, severity)
    _set_message(diagnostic, message)
    _set_span(diagnostic, span)
    _set_target(diagnostic, target)
    _set_suggestions(diagnostic, suggestions)
    _set_help(diagnostic, help)
    _set_notes(diagnostic, notes)
    _set_section_id(diagnostic, section_id)
    _set_counterpart(diagnostic, counterpart)
    return diagnostic


def sort_diagnostics(diagnostics: list[Diagnostic] | tuple[Diagnostic, ...]) -> list[Diagnostic]:
    """Diagnostics in report order: path, line, column, severity, code."""
    return sorted(diagnostics, key=lambda d: d.sort_key)
