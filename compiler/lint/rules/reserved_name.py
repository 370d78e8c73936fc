"""The `reserved-name` check (RB304); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import RESERVED_NAME
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput
from rulebook.model import Section
from rulebook.site.page_table import LONGEST_PAGE_NAME, is_device_name

RULE = RESERVED_NAME


def check(lint: LintInput) -> Iterator[Diagnostic]:
    by_folded_id: dict[str, Section] = {}
    for document in lint.book.documents:
        for chapter in document.body:
            folded = chapter.id.lower()
            if folded in lint.reserved:
                yield RULE.diagnostic(
                    f"chapter id `{chapter.id}` is the name of one of the site's own pages or folders",
                    chapter.span,
                    target=chapter.id,
                    help=f"give the chapter another id (reserved: {', '.join(sorted(lint.reserved))})",
                    section_id=chapter.id,
                )
            elif is_device_name(chapter.id):
                yield _unwritable(chapter, "is a name Windows keeps for a device: no file or folder there can take it")
            elif len(chapter.id) > LONGEST_PAGE_NAME:
                yield _unwritable(
                    chapter, f"is longer than {LONGEST_PAGE_NAME} characters: too long for the name of its page's file"
                )
            first = by_folded_id.setdefault(folded, chapter)
            if first.id != chapter.id:
                yield RULE.diagnostic(
                    f"chapter id `{chapter.id}` differs from the chapter `{first.id}`'s only by case: on a disk that "
                    "ignores case (macOS, Windows) one page would replace the other",
                    chapter.span,
                    target=chapter.id,
                    help="give the chapter an id of its own, whatever the case",
                    notes=(Note(f"the chapter `{first.id}`", first.span),),
                    section_id=chapter.id,
                )


def _unwritable(chapter: Section, why: str) -> Diagnostic:
    """The finding on a chapter whose id cannot name its page's file everywhere the site is built or read."""
    return RULE.diagnostic(
        f"chapter id `{chapter.id}` {why}",
        chapter.span,
        target=chapter.id,
        help="give the chapter another id (a short one: it is the page's address)",
        section_id=chapter.id,
    )
