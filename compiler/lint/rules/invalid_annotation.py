"""The `invalid-annotation` check (RB502); its documentation is in :mod:`rulebook.catalog.mechanics`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput

RULE = INVALID_ANNOTATION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    yield from lint.rule_facts.problems
