"""The `empty-name` check (RB301); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import EMPTY_NAME
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput
from rulebook.source import Span

RULE = EMPTY_NAME


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for definition in terms.definitions_of(""):
        yield _empty("definition", "name", definition.span, definition.section_id)
    for reference in terms.references_to(""):
        yield _empty("reference", "name", reference.span, reference.section_id)
    for link in terms.links_to(""):
        yield _empty("link", "to", link.span, link.section_id)
    book = lint.book
    for target_id, span in book.ids:
        if not target_id.strip():
            yield _empty("element", "id", span, None)


def _empty(element: str, attribute: str, span: Span, section_id: str | None) -> Diagnostic:
    return RULE.diagnostic(
        f"{element} has an empty `{attribute}`",
        span,
        target="",
        help=f"write the {'term name' if attribute == 'name' else 'id'} in `{attribute}`",
        section_id=section_id,
    )
