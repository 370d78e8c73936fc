"""
## What it does
Checks that every term the bundled engine implements (its declared bindings:
the tests, the reroll rule, the turn structure) is defined in the book. A
book that defines none of them (another game, a fragment) is not checked.

## Why is this bad?
The engine computes only from `rules.json`. If a term it implements is
renamed or removed, the engine would run without its rule: the book and the
engine would drift apart silently.

## Example
Renaming `<definition name="leadership_test">` to `leadership_check` breaks
`rulebook engine odds test leadership_test`.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Rule, Severity
from compiler.lint.base import LintInput
from compiler.source import Span

RULE = Rule("RB503", "unbound-mechanic", Severity.WARNING, "a term the engine implements is not defined", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    from engine.rules import BINDINGS

    documents = lint.book.documents
    bound = {term for terms in BINDINGS.values() for term in terms}
    if not documents or not any(lint.terms.is_defined(term) for term in bound):
        return  # not a book the engine plays (another game, a fragment): nothing to bind
    place = Span(documents[0].path, 1, 1)
    for mechanic, needed in sorted(BINDINGS.items()):
        for term in needed:
            if not lint.terms.is_defined(term):
                yield RULE.diagnostic(
                    f"the engine's `{mechanic}` implements `{term}`, which this book does not define",
                    place,
                    target=term,
                    help=f"define `{term}`, or this book has no `{mechanic}` for the engine",
                )
