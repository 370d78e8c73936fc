"""The `invalid-name` check (RB302); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

import re
from collections.abc import Iterator

from rulebook.catalog.book import INVALID_NAME
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput
from rulebook.names import BOOK_NAME, BOOK_SEPARATOR, is_identifier, is_target_name
from rulebook.source import Span

RULE = INVALID_NAME

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]+")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    # Check each distinct name once, then report every place it is written.
    for name, definitions in terms.all_definitions().items():
        if _is_invalid(name):
            for definition in definitions:
                yield _diagnostic("term name", name, definition.span, definition.section_id, lint)
    for name, references in terms.all_references().items():
        if _is_invalid_target(name):
            for reference in references:
                yield _diagnostic("term name", name, reference.span, reference.section_id, lint)
    for target, links in terms.all_links().items():
        if _is_invalid_target(target):
            for link in links:
                yield _diagnostic("link target", target, link.span, link.section_id, lint)
    for target_id, span in lint.book.ids:
        if _is_invalid(target_id):
            yield _diagnostic("id", target_id, span, None, lint)


def _identifier(name: str) -> str:
    return _NOT_IDENTIFIER.sub("_", name.strip()).strip("_").lower() or "_"


def _is_invalid(name: str) -> bool:
    return not is_identifier(name) and bool(name.strip())  # most names are identifiers: asked first


def _is_invalid_target(name: str) -> bool:
    """A reference's name or a link's target may name another book's (``core:fighter``)."""
    return _is_invalid(name) and not is_target_name(name)


def _diagnostic(what: str, name: str, span: Span, section_id: str | None, lint: LintInput) -> Diagnostic:
    book, separator, local = name.strip().partition(BOOK_SEPARATOR)
    if what != "id" and separator and BOOK_NAME.fullmatch(book.lower()):  # `MAIN:Charge` names a book's term
        fixed = f"{book.lower()}{separator}{_identifier(local)}"  # `main_charge` named no book
    else:
        fixed = _identifier(name)
    known = lint.terms.is_defined(fixed) or bool(lint.terms.id_targets(fixed))
    return RULE.diagnostic(
        f"{what} `{name}` is not a valid identifier",
        span,
        target=name,
        suggestions=(fixed,),
        help=f"use `{fixed}`" + ("" if known else " (letters, digits and underscores only)"),
        section_id=section_id,
    )
