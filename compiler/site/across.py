"""A book's pages among the other books of its family: what they link to there, and what points here from there.

Pure: the family's term graphs (:class:`~rulebook.family.Family`, read whole) and each book's folder in, a
:class:`BookLinks` out, which :mod:`rulebook.site.pages` reads:

- the terms and sections of the books it uses that its pages link to, each with its page from this book's
  site root (``../core-concepts.md#term-fighter``), its name and its preview card, so that a core
  term in an army book links to the core's page and shows the same card;
- for each of its own terms, the sections of the other books that use it ("Used in": "Army Book: Sea
  Raiders, Ship Captain");
- for each of its sections, the entries of FAQ books that link to it ("Clarified in").

Every place is a page path from the book's site root, written into links by :func:`rulebook.site.pages.link`.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from rulebook.data.terms import term_summary
from rulebook.family import Family, Found
from rulebook.graph import TermGraph
from rulebook.model import Definition, Section


@dataclass(frozen=True, slots=True)
class OutsideTerm:
    """A term of another book that this book's pages link to."""

    book: str
    """The book's title."""
    name: str
    """The term's name as readers see it (its most common capitalised form in its book)."""
    page: str
    """Its definition's place, from this book's site root (``../core-concepts.md#term-fighter``)."""
    text: str
    """Its definition's text (the glossary's line)."""
    definition: Definition
    """Its definition (its preview card is made from it, as its own book makes it)."""
    section: Section | None
    """The section the definition stands in."""


@dataclass(frozen=True, slots=True)
class Elsewhere:
    """A section of another book: where it is and how a list names it."""

    book: str
    """The book's title."""
    label: str
    """The section as a list names it: its number, if the book numbers it, and its title (``3.2 Ship Captain``)."""
    chapter: str
    """Its chapter's title."""
    page: str
    """Its place, from this book's site root (``../elves/army_units.md#forest_spirit``)."""
    count: int = 1
    """How many times it uses the term ("Used in")."""


@dataclass(frozen=True, slots=True)
class BookLinks:
    """What a book's pages link to in the other books of its family, and what links here from them."""

    terms: Mapping[str, OutsideTerm] = field(default_factory=dict)
    """By name as the book writes it (``fighter``, ``main:fighter``)."""
    targets: Mapping[str, str] = field(default_factory=dict)
    """By link target as the book writes it (``main:measuring_distances``): its place from this book's root."""
    used_in: Mapping[str, tuple[Elsewhere, ...]] = field(default_factory=dict)
    """By term of this book: the other books' sections that use it, in the books' order."""
    clarified: Mapping[str, tuple[Elsewhere, ...]] = field(default_factory=dict)
    """By section id of this book: the FAQ entries that link to it."""
    folders: tuple[str, ...] = ()
    """The other books' sites, from this book's site root (``../``, ``elves/``): their pages are not this site's."""


def book_links(family: Family, book: str, folders: Mapping[str, str]) -> BookLinks:
    """Where ``book``'s pages link in the other books of ``family`` and what links to it from them; ``folders``:
    each book's folder in the site (``""`` for the main book, ``elves/``)."""
    if not family.uses_others(book):
        return BookLinks()
    places = _Places(family, book, folders)
    terms = {name: places.term(str(lookup.book), lookup.name) for name, lookup in family.outside_terms(book).items()}
    targets = {}
    for target in family.book(book).terms.all_links():
        lookup = family.target(book, target)
        if lookup.found is Found.ID and lookup.book not in (None, book):
            targets[target] = places.id_page(str(lookup.book), lookup.name)
    others = tuple(dict.fromkeys(places.root(name) for name in folders if name != book))
    used_in, clarified = _used_in(family, book, places), _clarified(family, book, places)
    return BookLinks(terms, dict(sorted(targets.items())), used_in, clarified, others)


def _used_in(family: Family, book: str, places: _Places) -> dict[str, tuple[Elsewhere, ...]]:
    """Each term of ``book`` the other books use, with their sections that use it (how often), in order."""
    found = {}
    for term, references in family.references_into(book).items():
        counts: dict[tuple[str, str], int] = defaultdict(int)
        for user, reference in references:
            counts[(user, reference.section_id)] += 1
        found[term] = tuple(places.section(user, section, count) for (user, section), count in counts.items())
    return found


def _clarified(family: Family, book: str, places: _Places) -> dict[str, tuple[Elsewhere, ...]]:
    """Each section of ``book`` that entries of FAQ books link to, with those entries (in the books' order)."""
    found: dict[str, dict[tuple[str, str], None]] = defaultdict(dict)
    for name, member in family.books.items():
        if not member.faq or name == book:
            continue
        for target, links in member.terms.all_links().items():
            lookup = family.target(name, target)
            if lookup.found is not Found.ID or lookup.book != book:
                continue
            section = _section_of(family.book(book).terms, lookup.name)
            for link in links:
                found[section][(name, link.section_id)] = None
    return {
        section: tuple(places.section(faq, entry) for faq, entry in entries)
        for section, entries in sorted(found.items())
    }


def _section_of(terms: TermGraph, target: str) -> str:
    """The section an id names: itself, or the section a figure stands in."""
    figure = next((f for f in terms.book.figures if f.id == target), None)
    return figure.section_id if figure is not None else target


class _Places:
    """Where the other books' terms and sections are, from one book's site root."""

    def __init__(self, family: Family, book: str, folders: Mapping[str, str]) -> None:
        self.family = family
        self.up = "../" if folders.get(book) else ""
        self.folders = folders

    def root(self, book: str) -> str:
        """The site of ``book`` from this book's site root (``../``, ``elves/``, ``../elves/``)."""
        return self.up + self.folders.get(book, "")

    def term(self, book: str, name: str) -> OutsideTerm:
        member = self.family.book(book)
        terms = member.terms
        definition = terms.definition(name)
        assert definition is not None, "an outside term is one its book defines"
        title = term_summary(name, terms)["name"]
        page = self._page(book, definition.section_id) + f"#term-{name}"
        section = terms.section(definition.section_id)
        return OutsideTerm(member.title, title, page, definition.plain_text(), definition, section)

    def id_page(self, book: str, target: str) -> str:
        """The place of a section or figure of ``book``."""
        terms = self.family.book(book).terms
        section = _section_of(terms, target)
        page = self._page(book, section)
        return page if _chapter(terms, section) == target else f"{page}#{target}"

    def section(self, book: str, section_id: str, count: int = 1) -> Elsewhere:
        member = self.family.book(book)
        chain = member.terms.section_chain(section_id)
        section: Section | None = chain[-1] if chain else None
        label = section.numbered_title if section is not None else section_id
        chapter = chain[0].title if chain else ""
        place = self._page(book, section_id) + ("" if len(chain) <= 1 else f"#{section_id}")
        return Elsewhere(member.title, label, chapter, place, count)

    def _page(self, book: str, section_id: str) -> str:
        return f"{self.root(book)}{_chapter(self.family.book(book).terms, section_id)}.md"


def _chapter(terms: TermGraph, section_id: str) -> str:
    chain = terms.section_chain(section_id)
    return chain[0].id if chain else section_id
