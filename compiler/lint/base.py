"""What every book rule receives, and small helpers the rules share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Protocol

from rulebook.facts import RuleFacts, collect_rule_facts
from rulebook.family import Family, Found, Lookup
from rulebook.graph import TermGraph
from rulebook.model import Book
from rulebook.names import is_identifier, is_target_name
from rulebook.pictures import Refusal
from rulebook.site.page_table import RESERVED_NAMES
from rulebook.source import SourceText, Span
from rulebook.suggest import Suggester


def is_checkable(name: str) -> bool:
    """Names that other rules resolve: empty and invalid names have rules of their own."""
    return bool(name) and is_identifier(name)


def is_checkable_target(name: str) -> bool:
    """A reference's name or a link's target that other rules resolve: an identifier, maybe after a book's
    prefix (``core:fighter``); empty and invalid ones have rules of their own."""
    return bool(name) and is_target_name(name)


class Placed(Protocol):
    """A node written at a place in a section: a reference, a link, a definition."""

    @property
    def source(self) -> SourceText: ...
    @property
    def offset(self) -> int: ...
    @property
    def section_id(self) -> str: ...


_source = attrgetter("source")
_offset = attrgetter("offset")
_section_id = attrgetter("section_id")


def places(nodes: Sequence[Placed]) -> list[tuple[Span, str | None]]:
    """Each node's span and section id, the spans made a source at a time (cheaper than ``node.span`` each)."""
    return list(zip(spans(nodes), map(_section_id, nodes), strict=True))


def spans(nodes: Sequence[Placed]) -> list[Span]:
    """Each node's span, as ``node.span`` makes it, made a source at a time."""
    sources: list[SourceText] = list(map(_source, nodes))
    offsets: list[int] = list(map(_offset, nodes))
    if sources and sources.count(sources[0]) == len(sources):  # the common case: one file
        return sources[0].spans(offsets)
    by_source: dict[SourceText, list[int]] = {}
    for index, source in enumerate(sources):
        by_source.setdefault(source, []).append(index)
    found: dict[int, Span] = {}
    for source, indexes in by_source.items():
        found.update(zip(indexes, source.spans([offsets[index] for index in indexes]), strict=True))
    return [found[index] for index in range(len(nodes))]


@dataclass
class LintInput:
    """The book and its term graph, with lazily built lookups shared by the rules."""

    book: Book
    terms: TermGraph
    images: set[str] | None = None
    """The images the sources show that the images folder holds (None: not checked)."""
    reserved: frozenset[str] = RESERVED_NAMES
    """Names a chapter may not take: the site's own pages and folders, the project's books, translations."""
    facts: RuleFacts | None = None
    """The book's annotations, if the recipe read them already (else read here, once, when a rule asks)."""
    refused_images: Mapping[str, Refusal] = field(default_factory=dict)
    """The images the images folder holds that the site does not publish, and why, by name."""
    family: Family | None = None
    """The books this one uses and the books that use it, with their term graphs (None: the book alone)."""
    name: str = "main"
    """The book's name in the configuration (in the family)."""

    @cached_property
    def kin(self) -> Family:
        """The book's family: the one given, else the book alone."""
        return self.family if self.family is not None else Family.alone(self.name, self.name, self.terms)

    @cached_property
    def in_family(self) -> bool:
        """Whether the book uses other books or is used by some (its findings then say which book)."""
        return self.kin.uses_others(self.name)

    @cached_property
    def term_suggester(self) -> Suggester:
        """Close names among the terms a reference of the book can reach (its own, the books' it uses)."""
        if not self.kin.order(self.name):
            return Suggester(self.terms.defined_terms())
        return Suggester(self.kin.candidates(self.name, terms=True))

    @cached_property
    def id_suggester(self) -> Suggester:
        """Close ids among those a link of the book can reach (its own, the books' it uses)."""
        if not self.kin.order(self.name):
            return Suggester(self.terms.all_ids())
        return Suggester(self.kin.candidates(self.name, terms=False))

    def book_suggester(self, book: str, *, terms: bool) -> Suggester:
        """Close names among one book's terms (``terms``) or ids, written with its prefix (``core:x``)."""
        graph = self.kin.book(book).terms
        names = graph.defined_terms() if terms else list(graph.all_ids())
        return Suggester(f"{book}:{name}" for name in names)

    @cached_property
    def rule_facts(self) -> RuleFacts:
        """The book's roll tables, values, data tables and mechanics, read once for every rule."""
        return self.facts if self.facts is not None else collect_rule_facts(self.book, self.terms)

    @cached_property
    def dangling_suggester(self) -> Suggester:
        names = (n for n in self.terms.referenced_names() if not self.terms.is_defined(n))
        return Suggester(names)


Explained = tuple[str, tuple[str, ...], str]
"""A finding's message, suggestions and help, made once per name."""


def book_problem(lint: LintInput, what: str, name: str, lookup: Lookup) -> Explained | None:
    """The finding for a reference or link (``what``) whose book's prefix names no book this one uses, or None."""
    if lookup.found is Found.UNKNOWN_BOOK:
        return f"{what} to `{name}`: the project has no book called `{lookup.book}`", (), _books_help(lint)
    if lookup.found is Found.UNUSED_BOOK:
        help = f'add `"{lookup.book}"` to this book\'s `uses` in the configuration'
        return f"{what} to `{name}`: this book does not use the book `{lookup.book}`", (), help
    return None


def _books_help(lint: LintInput) -> str:
    books = sorted(lint.kin.order(lint.name))
    if not books:
        return "name the books this book builds on in its `uses` in the configuration"
    return "the books this one uses: " + ", ".join(f"`{b}`" for b in books)
