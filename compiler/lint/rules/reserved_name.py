"""The `reserved-name` check (RB304); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import RESERVED_NAME
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput

RULE = RESERVED_NAME


def check(lint: LintInput) -> Iterator[Diagnostic]:
    for document in lint.book.documents:
        for chapter in document.body:
            if chapter.id.lower() in lint.reserved:
                yield RULE.diagnostic(
                    f"chapter id `{chapter.id}` is the name of one of the site's own pages or folders",
                    chapter.span,
                    target=chapter.id,
                    help=f"give the chapter another id (reserved: {', '.join(sorted(lint.reserved))})",
                    section_id=chapter.id,
                )
