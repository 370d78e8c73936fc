"""The `shadowed-term` check (RB203); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import SHADOWED_TERM
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput, is_checkable
from rulebook.names import split_name

RULE = SHADOWED_TERM


def check(lint: LintInput) -> Iterator[Diagnostic]:
    if not lint.kin.order(lint.name):
        return
    yield from _redefined(lint)
    yield from _ambiguous(lint)


def _redefined(lint: LintInput) -> Iterator[Diagnostic]:
    """The book's own definitions of terms a book it uses defines too."""
    for name, definitions in lint.terms.all_definitions().items():
        if not is_checkable(name):
            continue
        others = lint.kin.definers(lint.name, name)[1:]
        if not others:
            continue
        hidden = lint.kin.book(others[0])
        other = hidden.terms.definitions_of(name)[0]
        yield RULE.diagnostic(
            f"term `{name}` is also defined in the book `{hidden.name}`: this book's definition hides it",
            definitions[0].span,
            target=name,
            help=f"rename this term, or remove it to use `{hidden.name}`'s; `{hidden.name}:{name}` names the other",
            notes=(Note(f"`{name}` is defined in `{hidden.name}` ({hidden.title}) here", other.span),),
            section_id=definitions[0].section_id,
        )


def _ambiguous(lint: LintInput) -> Iterator[Diagnostic]:
    """Names the book refers to without a book's prefix that two books it uses define."""
    for name, references in lint.terms.all_references().items():
        if split_name(name)[0] is not None or lint.terms.is_defined(name) or not is_checkable(name):
            continue
        books = lint.kin.definers(lint.name, name)
        if len(books) < 2:
            continue
        first = references[0]
        notes = tuple(
            Note(f"`{name}` is defined in `{book}` here", lint.kin.book(book).terms.definitions_of(name)[0].span)
            for book in books
        )
        yield RULE.diagnostic(
            f"term `{name}` is defined in the books {_listed(books)}: this reference takes `{books[0]}`'s",
            first.span,
            target=name,
            suggestions=tuple(f"{book}:{name}" for book in books),
            help="name the book: " + " or ".join(f"`{book}:{name}`" for book in books),
            notes=notes,
            section_id=first.section_id,
        )


def _listed(books: list[str]) -> str:
    quoted = [f"`{book}`" for book in books]
    return ", ".join(quoted[:-1]) + " and " + quoted[-1]
