"""The `duplicate-definition` check (RB201); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import DUPLICATE_DEFINITION
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput, is_checkable

RULE = DUPLICATE_DEFINITION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    for name, definitions in lint.terms.all_definitions().items():
        if len(definitions) < 2 or not is_checkable(name):
            continue
        first = definitions[0]
        for duplicate in definitions[1:]:
            yield RULE.diagnostic(
                f"term `{name}` is defined again",
                duplicate.span,
                target=name,
                help="keep one definition, or give this term a name of its own",
                notes=(Note("first defined here", first.span),),
                section_id=duplicate.section_id,
            )
