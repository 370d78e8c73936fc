"""The `unbound-mechanic` check (RB503); its documentation is in :mod:`rulebook.catalog.mechanics`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.mechanics import UNBOUND_MECHANIC
from rulebook.diagnostics import Diagnostic
from rulebook.engine.bindings import BINDINGS
from rulebook.lint.base import LintInput
from rulebook.source import Span

RULE = UNBOUND_MECHANIC


def check(lint: LintInput) -> Iterator[Diagnostic]:
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
