"""The `invalid-annotation` check (RB502); its documentation is in :mod:`compiler.catalog.mechanics`."""

from __future__ import annotations

from collections.abc import Iterator

from compiler.catalog.mechanics import INVALID_ANNOTATION
from compiler.diagnostics import Diagnostic
from compiler.lint.base import LintInput

RULE = INVALID_ANNOTATION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    from compiler.facts import collect_facts, collect_mechanics

    yield from collect_facts(lint.book).diagnostics
    tables = {table.id for table in lint.roll_tables[0]}
    yield from collect_mechanics(lint.book, set(lint.terms.defined_terms()), tables)[1]
