"""The lint: the book checks, and the function that runs them.

Each check module decides *when* to report; what it reports (code, name, severity,
documentation) is its identity in :mod:`rulebook.catalog`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import ModuleType

from rulebook.diagnostics import Diagnostic, Severity, sort_diagnostics
from rulebook.lint.base import LintInput
from rulebook.lint.rules import (
    dangling_link,
    dangling_reference,
    duplicate_definition,
    duplicate_id,
    empty_name,
    invalid_annotation,
    invalid_name,
    invalid_roll_table,
    missing_image,
    mutual_definition,
    reference_to_section,
    refused_image,
    reserved_name,
    shadowed_term,
    too_large,
    unbound_mechanic,
    unused_definition,
)

# Checks run on the whole book once it is read (the readers report the reading rules themselves).
BOOK_RULES: tuple[ModuleType, ...] = (
    dangling_reference,
    dangling_link,
    reference_to_section,
    duplicate_definition,
    duplicate_id,
    shadowed_term,
    empty_name,
    invalid_name,
    reserved_name,
    too_large,
    unused_definition,
    mutual_definition,
    invalid_roll_table,
    invalid_annotation,
    missing_image,
    refused_image,
    unbound_mechanic,
)

Check = Callable[[LintInput], Iterator[Diagnostic]]


def run_book_rules(lint: LintInput) -> list[Diagnostic]:
    """Every book rule's findings, unsorted."""
    found: list[Diagnostic] = []
    for module in BOOK_RULES:
        check: Check = module.check
        found.extend(check(lint))
    return found


def apply_settings(diagnostics: Iterable[Diagnostic], severities: Mapping[str, Severity | None]) -> list[Diagnostic]:
    """Configured severities by code (``None``: the rule is off), in report order.

    Fatal diagnostics cannot be turned off or down: nothing was read.
    """
    kept = []
    for diagnostic in diagnostics:
        if diagnostic.code in severities and diagnostic.severity is not Severity.FATAL:
            severity = severities[diagnostic.code]
            if severity is None:
                continue
            diagnostic = dataclasses.replace(diagnostic, severity=severity)
        kept.append(diagnostic)
    return sort_diagnostics(kept)
