"""The `invalid-roll-table` check (RB501); its documentation is in :mod:`rulebook.catalog.mechanics`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.mechanics import INVALID_ROLL_TABLE
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput

RULE = INVALID_ROLL_TABLE


def check(lint: LintInput) -> Iterator[Diagnostic]:
    yield from lint.rule_facts.roll_table_problems
