"""What every book rule receives, and small helpers the rules share."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from operator import attrgetter
from typing import Protocol

from rulebook.facts import RuleFacts, collect_rule_facts
from rulebook.graph import TermGraph
from rulebook.model import Book
from rulebook.names import is_identifier
from rulebook.pictures import Refusal
from rulebook.project import RESERVED_FOLDERS
from rulebook.source import SourceText, Span
from rulebook.suggest import Suggester


def is_checkable(name: str) -> bool:
    """Names that other rules resolve: empty and invalid names have rules of their own."""
    return bool(name) and is_identifier(name)


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
    reserved: frozenset[str] = RESERVED_FOLDERS
    """Names a chapter may not take: the site's own pages and folders, the project's books, translations."""
    facts: RuleFacts | None = None
    """The book's annotations, if the recipe read them already (else read here, once, when a rule asks)."""
    refused_images: Mapping[str, Refusal] = field(default_factory=dict)
    """The images the images folder holds that the site does not publish, and why, by name."""

    @cached_property
    def term_suggester(self) -> Suggester:
        return Suggester(self.terms.defined_terms())

    @cached_property
    def id_suggester(self) -> Suggester:
        return Suggester(self.terms.all_ids())

    @cached_property
    def rule_facts(self) -> RuleFacts:
        """The book's roll tables, values, data tables and mechanics, read once for every rule."""
        return self.facts if self.facts is not None else collect_rule_facts(self.book, self.terms)

    @cached_property
    def dangling_suggester(self) -> Suggester:
        names = (n for n in self.terms.referenced_names() if not self.terms.is_defined(n))
        return Suggester(names)
