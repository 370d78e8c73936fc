"""Terms for Markdown that marks none: a format's policy (:data:`rulebook.readers.formats.FORMATS`), applied once a
source is read.

Plain Markdown always gets its terms from the configuration, its headings or its emphasis (a numbered book only when
configured: a numbered translation is linked through its terminology instead); a book in the dialect that marks
nothing (no definition, reference or link) is plain Markdown, numbered or not, when its book's configuration reads it
(a translation, read without ``linking``, is linked by its terminology).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulebook.model import Book, Content, Document, Link, Node, Reference, map_children
from rulebook.names import BOOK_SEPARATOR
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


def own_prefix_dropped(book: Book, name: str, names_from: Book | None = None) -> Book:
    """The book with its references and links that put its own name before a name it has (``[[main:sprint]]`` in the
    book ``main``, which defines ``sprint``; ``[see](#main:battle)``) written without it, as the book's own: linked on
    the site, counted in the rule data, paired in a translation as the plain name is. A name the book has not is left
    prefixed: the lint looks it up in that book alone, and says so (``names_from``: the book whose terms and ids count,
    a translation's original; by default the book itself)."""
    known = names_from or book
    prefix = name + BOOK_SEPARATOR
    own = {definition.name for definition in known.definitions} | {written for written, _ in known.ids}

    def local(target: str) -> str | None:
        rest = target[len(prefix) :] if target.startswith(prefix) else None
        return rest if rest in own else None

    if not any(local(r.name) for r in book.references) and not any(local(link.to) for link in book.links):
        return book  # the usual book: nothing rebuilt
    return Book(tuple(_renamed(document, local) for document in book.documents))


def _renamed(document: Document, local: Callable[[str], str | None]) -> Document:
    """The document with each reference and link ``local`` names anew renamed, in its content and every index (a
    node the content and an index share is rebuilt once)."""
    done: dict[int, Node] = {}

    def node_of(node: Node) -> Node:
        if isinstance(node, Reference):
            return node._replace(name=local(node.name) or node.name)
        if isinstance(node, Link):
            return node._replace(to=local(node.to) or node.to)
        if isinstance(node, str):
            return node
        if id(node) not in done:
            done[id(node)] = map_children(node, content)
        return done[id(node)]

    def content(nodes: Content) -> Content:
        return tuple(node_of(node) for node in nodes)

    def same(nodes: tuple[Any, ...]) -> tuple[Any, ...]:  # an index's nodes, each rebuilt as a node of its own kind
        return tuple(node_of(node) for node in nodes)

    return replace(
        document,
        body=same(document.body),
        sections=same(document.sections),
        definitions=same(document.definitions),
        references=same(document.references),
        links=same(document.links),
        figures=same(document.figures),
        annotated=tuple(found._replace(node=same((found.node,))[0]) for found in document.annotated),
    )
