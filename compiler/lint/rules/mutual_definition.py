"""The `mutual-definition` check (RB402); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import MUTUAL_DEFINITION
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput
from rulebook.model import Definition
from rulebook.source import Span

RULE = MUTUAL_DEFINITION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for a, b in terms.mutual_definitions():
        (first_span, first), (second_span, second) = _in_order(terms.definitions_of(a)[0], terms.definitions_of(b)[0])
        yield RULE.diagnostic(
            f"terms `{first.name}` and `{second.name}` are defined through each other",
            first_span,
            target=f"{a}<->{b}",
            notes=(Note(f"`{second.name}` refers back to `{first.name}` here", second_span),),
            section_id=first.section_id,
        )


def _in_order(a: Definition, b: Definition) -> tuple[tuple[Span, Definition], tuple[Span, Definition]]:
    """The two definitions with their spans (each made once), the first written first (``a`` on a tie)."""
    a_span, b_span = a.span, b.span
    return ((b_span, b), (a_span, a)) if b_span < a_span else ((a_span, a), (b_span, b))
