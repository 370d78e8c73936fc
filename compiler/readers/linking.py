"""Terms for Markdown that marks none: a format's policy (:data:`rulebook.readers.formats.FORMATS`), applied once a
source is read.

Plain Markdown always gets its terms from the configuration, its headings or its emphasis (a numbered book only when
configured: a numbered translation is linked through its terminology instead); a book in the dialect that marks
nothing (no definition, reference or link) is plain Markdown, numbered or not, when its book's configuration reads it
(a translation, read without ``linking``, is linked by its terminology).
"""

from __future__ import annotations

from rulebook.model import Document
from rulebook.project import Linking
from rulebook.readers import SourceResult


def plain_terms(result: SourceResult, linking: Linking | None) -> SourceResult:
    """Plain Markdown's terms (``plain-markdown``)."""
    return find_terms(result, linking)


def unmarked_terms(result: SourceResult, linking: Linking | None) -> SourceResult:
    """The dialect's terms: none added to a book that marks some, nor to a translation."""
    if linking is None or not _marks_nothing(result):
        return result
    return find_terms(result, linking, numbers_turn_off=False)


def _marks_nothing(result: SourceResult) -> bool:
    """A book in the dialect that marks nothing (no definition, reference or link): plain Markdown, linked from its
    headings as the configuration says (a translation, read without ``linking``, is linked by its terminology)."""
    document = result.document
    return document is not None and not (document.definitions or document.references or document.links)


def find_terms(result: SourceResult, linking: Linking | None, *, numbers_turn_off: bool = True) -> SourceResult:
    """A Markdown rulebook that marks no terms gets them from its configuration, headings or emphasis.

    ``numbers_turn_off`` (plain Markdown): without configuration, only a book that numbers nothing is
    linked (a numbered translation is linked through its terminology instead). The dialect keeps a
    heading's number apart from its title, so its numbered books are linked as any other.
    """
    document = result.document
    if document is None or document.definitions:
        return result
    configured = linking is not None and linking != Linking()
    if numbers_turn_off and not configured and any(s.number for s in document.sections):
        return result
    from rulebook.autolink import emphasis_terms, heading_terms, link_document  # only for a book that needs it

    linking = linking or Linking()
    terms = heading_terms(document, min_level=1 if _rules_under_a_title(document) else 2)
    extra = heading_terms(document, names=linking.terms) if linking.terms else []
    if linking.emphasis:
        extra += emphasis_terms(document)
    known = {t.id for t in terms}
    for term in extra:
        if term.id not in known:
            known.add(term.id)
            terms.append(term)
    linked = link_document(document, terms, skip=linking.skip)
    return SourceResult(linked, result.diagnostics, result.source)


def _rules_under_a_title(document: Document) -> bool:
    """Whether a book is a title, then a page per rule (``# Tiles``, ``## Tile``, ``## Hit``): its chapters, written
    below the title's level, name its terms as headings below the chapters do in any other book. A book whose
    chapters are written ``#`` gets no term from them (``# 1 Rules`` is a chapter, not a term)."""
    sections = document.sections
    return (
        bool(sections)
        and all(section.level == 1 for section in sections)
        and all(section.source.text.startswith("##", section.offset) for section in sections)
    )
