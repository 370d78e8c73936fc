"""The lint: every rule, the registry, and the function that runs the book rules."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable, Iterator, Mapping
from types import ModuleType

from compiler.diagnostics import Diagnostic, Rule, Severity, sort_diagnostics
from compiler.lint.base import LintInput
from compiler.lint.rules import (
    dangling_link,
    dangling_reference,
    duplicate_definition,
    duplicate_id,
    empty_name,
    invalid_annotation,
    invalid_document,
    invalid_name,
    invalid_roll_table,
    malformed_xml,
    missing_image,
    mutual_definition,
    reference_to_section,
    unbound_mechanic,
    unreadable_source,
    unused_definition,
)

# Rules checked while reading a source; they have no ``check`` of their own.
SOURCE_RULES: tuple[ModuleType, ...] = (malformed_xml, invalid_document, unreadable_source)
# Rules checked on the whole book once it is read.
BOOK_RULES: tuple[ModuleType, ...] = (
    dangling_reference,
    dangling_link,
    reference_to_section,
    duplicate_definition,
    duplicate_id,
    empty_name,
    invalid_name,
    unused_definition,
    mutual_definition,
    invalid_roll_table,
    invalid_annotation,
    missing_image,
    unbound_mechanic,
)
RULES: tuple[Rule, ...] = tuple(sorted((m.RULE for m in SOURCE_RULES + BOOK_RULES), key=lambda r: r.code))
RULES_BY_KEY: dict[str, Rule] = {r.code.lower(): r for r in RULES} | {r.name: r for r in RULES}

Check = Callable[[LintInput], Iterator[Diagnostic]]


def find_rule(key: str) -> Rule | None:
    """A rule by code (``RB101``, any case) or name (``dangling-reference``)."""
    return RULES_BY_KEY.get(key.strip().lower())


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
