"""The `invalid-annotation` check (RB502); its documentation is in :mod:`compiler.catalog.mechanics`."""

from __future__ import annotations

from collections.abc import Iterator

from compiler.catalog.mechanics import INVALID_ANNOTATION
from compiler.diagnostics import Diagnostic
from compiler.lint.base import LintInput

RULE = INVALID_ANNOTATION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    yield from lint.rule_facts.problems
