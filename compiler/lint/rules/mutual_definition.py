"""The `mutual-definition` check (RB402); its documentation is in :mod:`compiler.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from compiler.catalog.book import MUTUAL_DEFINITION
from compiler.diagnostics import Diagnostic, Note
from compiler.lint.base import LintInput

RULE = MUTUAL_DEFINITION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for a, b in terms.mutual_definitions():
        first, second = sorted((terms.definitions_of(a)[0], terms.definitions_of(b)[0]), key=lambda d: d.span)
        yield RULE.diagnostic(
            f"terms `{first.name}` and `{second.name}` are defined through each other",
            first.span,
            target=f"{a}<->{b}",
            notes=(Note(f"`{second.name}` refers back to `{first.name}` here", second.span),),
            section_id=first.section_id,
        )
