"""A family of books: a book's references and links resolved in the book, then in the books it uses.

A core rulebook, army books built on it and a FAQ about both are books of one project; a book names
those it builds on (``uses`` in the configuration). Each book is read and its term graph built on its
own; a :class:`Family` holds the term graphs of the books a stage needs, with each book's order of
lookup (:meth:`rulebook.project.Project.family_order`), and answers where a name written in one book
leads:

- ``fighter``: the book's own term, else the first book of its order that defines it (a name the
  book defines and also gets from a book it uses is the lint's ``shadowed-term``);
- ``core:fighter``: the term of book ``core`` (which the book must use, or be);
- the same for a link's target (``core:measuring_distances``), among section and figure ids.

It also answers the other way round: which references of other books lead to a book's term (a core
term used only in the army books is used), for the lint and for the core's pages ("Used in").
Every answer is sorted or in the books' order, so output never depends on hash order.
"""

from __future__ import annotations

import enum
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulebook.graph import SECTION, TERM, GraphNode, TermGraph
from rulebook.model import Reference
from rulebook.names import split_name

if TYPE_CHECKING:
    import networkx as nx


@dataclass(frozen=True, slots=True)
class FamilyBook:
    """One book of a family: its name in the configuration, its title and its term graph."""

    name: str
    title: str
    terms: TermGraph
    faq: bool = False
    """A FAQ or errata book: its entries show on the pages they link to."""


class Found(enum.Enum):
    """What a name written in a book leads to."""

    TERM = "term"
    """A term's definition (of the book or of a book it uses)."""
    ID = "id"
    """A section's or figure's id (for a reference: it should have been a link)."""
    MISSING = "missing"
    """Nothing of that name where it was looked up."""
    UNUSED_BOOK = "unused-book"
    """The prefix names a book of the project that this book does not use."""
    UNKNOWN_BOOK = "unknown-book"
    """The prefix names no book of the project."""


@dataclass(frozen=True, slots=True)
class Lookup:
    """Where a name leads from a book: the book and the name there (for ``TERM`` and ``ID``)."""

    found: Found
    book: str | None = None
    """The book the name was found in, or the book its prefix names."""
    name: str = ""
    """The name in that book (without a prefix)."""

    @property
    def outside(self) -> bool:
        """Found in another book than the one it is written in."""
        return self.book is not None and self.found in (Found.TERM, Found.ID)


class Family:
    """The term graphs of some books of a project and each one's order of lookup; read-only once made."""

    def __init__(
        self,
        books: Sequence[FamilyBook],
        orders: Mapping[str, Sequence[str]] | None = None,
        *,
        project_books: Sequence[str] = (),
    ) -> None:
        rank = {name: index for index, name in enumerate(project_books)}
        ordered = sorted(books, key=lambda book: (rank.get(book.name, len(rank)), book.name))
        self.books: dict[str, FamilyBook] = {book.name: book for book in ordered}
        """The books, in the configuration's order."""
        self._given = dict(orders or {})
        self._project_books = tuple(project_books)
        # Worked out when first asked, each once: a lint of every book of a chain of 1,000 asks of one family.
        self._orders: dict[str, tuple[str, ...]] = {}
        self._ranks: dict[str, dict[str, int]] = {}
        self._defining: tuple[dict[str, list[str]], dict[str, list[str]]] | None = None
        self._used: frozenset[str] | None = None
        self._looked_up: dict[tuple[str, str, bool], Lookup] = {}
        self._into: dict[str, dict[str, list[tuple[str, Reference]]]] | None = None

    @classmethod
    def alone(cls, name: str, title: str, terms: TermGraph) -> Family:
        """A book by itself: every name resolves in it or nowhere."""
        return cls([FamilyBook(name, title, terms)])

    def including(self, book: FamilyBook) -> Family:
        """The same family with ``book`` in it (in place of a book of the same name)."""
        books = [other for other in self.books.values() if other.name != book.name]
        return Family([book, *books], self._given, project_books=self._project_books)

    def book(self, name: str) -> FamilyBook:
        return self.books[name]

    def order(self, name: str) -> tuple[str, ...]:
        """The books a name written in book ``name`` is looked up in after the book itself."""
        found = self._orders.get(name)
        if found is None:
            given = self._given.get(name, ()) if name in self.books else ()
            found = self._orders[name] = tuple(b for b in given if b in self.books)
        return found

    def uses_others(self, name: str) -> bool:
        """Whether book ``name`` uses other books (or is used by some): its lint and pages speak of books."""
        if self._used is None:
            self._used = frozenset(used for book in self.books for used in self.order(book))
        return bool(self.order(name)) or name in self._used

    def _rank(self, book: str) -> dict[str, int]:
        """Each book of ``book``'s lookup by its place in it (the book itself first)."""
        found = self._ranks.get(book)
        if found is None:
            found = self._ranks[book] = {place: index for index, place in enumerate((book, *self.order(book)))}
        return found

    def _definers(self, name: str, *, terms: bool) -> list[str]:
        """The books that define ``name`` as a term (``terms``) or an id, in the configuration's order."""
        if self._defining is None:
            by_term: dict[str, list[str]] = defaultdict(list)
            by_id: dict[str, list[str]] = defaultdict(list)
            for book, member in self.books.items():
                for term in member.terms.defined_terms():
                    by_term[term].append(book)
                for target in member.terms.all_ids():
                    by_id[target].append(book)
            self._defining = (by_term, by_id)
        return self._defining[0 if terms else 1].get(name, [])

    # -- from a book to the name it writes --------------------------------------------------------------

    def term(self, book: str, name: str) -> Lookup:
        """Where a reference's name written in ``book`` leads: a term, an id, or why nothing."""
        return self._lookup(book, name, terms=True)

    def target(self, book: str, name: str) -> Lookup:
        """Where a link's target written in ``book`` leads: a section or figure id, a term, or why nothing."""
        return self._lookup(book, name, terms=False)

    def _lookup(self, book: str, name: str, *, terms: bool) -> Lookup:
        key = (book, name, terms)
        found = self._looked_up.get(key)
        if found is None:
            found = self._looked_up[key] = self._resolve(book, name, terms)
        return found

    def _resolve(self, book: str, name: str, terms: bool) -> Lookup:
        """The first book of the lookup that has the name, a term before an id there (an id before a term for a
        link); found through the books that have the name, not by asking each book of the lookup in turn."""
        prefix, local = split_name(name)
        rank = self._rank(book)
        if prefix is not None and prefix not in rank:
            known = prefix in self._project_books or prefix in self.books
            return Lookup(Found.UNUSED_BOOK if known else Found.UNKNOWN_BOOK, prefix, local)
        kinds = (Found.TERM, Found.ID) if terms else (Found.ID, Found.TERM)
        best: tuple[tuple[int, int], Found, str] | None = None
        for number, kind in enumerate(kinds):
            for place in self._definers(local, terms=kind is Found.TERM):
                if place in rank and (prefix is None or place == prefix):
                    key = (rank[place], number)
                    if best is None or key < best[0]:
                        best = (key, kind, place)
        if best is None:
            return Lookup(Found.MISSING, prefix, local)
        return Lookup(best[1], best[2], local)

    def definers(self, book: str, name: str) -> list[str]:
        """Every book of ``book``'s lookup (itself first) that defines the term ``name``, in that order."""
        rank = self._rank(book)
        return sorted((place for place in self._definers(name, terms=True) if place in rank), key=rank.__getitem__)

    def outside_terms(self, book: str) -> dict[str, Lookup]:
        """The names ``book`` refers to that are terms of other books, by name as written (sorted)."""
        found = {}
        for name in self.books[book].terms.all_references():
            lookup = self.term(book, name)
            if lookup.found is Found.TERM and lookup.book != book:
                found[name] = lookup
        return found

    def candidates(self, book: str, *, terms: bool) -> list[str]:
        """The names a reference (``terms``) or a link written in ``book`` could mean, for did-you-mean: the
        book's own and those of the books it uses, each written as it resolves (``core:x`` where another
        book of the lookup takes ``x`` first)."""
        found: dict[str, None] = {}
        for place in (book, *self.order(book)):
            graph = self.books[place].terms
            for name in graph.defined_terms() if terms else graph.all_ids():
                plain = self._lookup(book, name, terms=terms)
                own = plain.book == place and plain.found is (Found.TERM if terms else Found.ID)
                found[name if own else f"{place}:{name}"] = None
        return sorted(found)

    # -- from a book's term to the other books' references ------------------------------------------------

    def references_into(self, book: str) -> dict[str, list[tuple[str, Reference]]]:
        """The references of the other books that lead to a term of ``book``, by term name (sorted), each with
        the book it is written in (in the configuration's order, then document order)."""
        if self._into is None:
            self._into = self._all_references_into()
        return self._into.get(book, {})

    def _all_references_into(self) -> dict[str, dict[str, list[tuple[str, Reference]]]]:
        """:meth:`references_into` of every book, in one pass over every book's references."""
        found: dict[str, dict[str, list[tuple[str, Reference]]]] = defaultdict(lambda: defaultdict(list))
        for user, family in self.books.items():
            for name, references in family.terms.all_references().items():
                lookup = self.term(user, name)
                if lookup.found is Found.TERM and lookup.book is not None and lookup.book != user:
                    found[lookup.book][lookup.name].extend((user, reference) for reference in references)
        return {book: dict(sorted(into.items())) for book, into in found.items()}

    # -- the family as one graph ----------------------------------------------------------------------------

    def graph(self, focus: str) -> nx.MultiDiGraph[GraphNode]:
        """Every book's term graph as one, each node with its ``book``: the ``focus`` book's nodes by their names,
        the others' as ``book:name``. A reference to another book's term is an edge to that book's term node."""
        import networkx as nx

        combined: nx.MultiDiGraph[GraphNode] = nx.MultiDiGraph()
        for book, member in self.books.items():
            graph = member.terms.graph
            for node in sorted(graph.nodes):
                where, target = self._node(focus, book, node)
                if where == book:  # a name resolved in another book is that book's node
                    combined.add_node(target, **graph.nodes[node], book=book)
            combined.add_edges_from(
                sorted(
                    (self._node(focus, book, u)[1], self._node(focus, book, v)[1], key)
                    for u, v, key in graph.edges(keys=True)
                )
            )
            combined.add_edges_from(self._links_out(focus, book))  # type: ignore[arg-type]
        return combined

    def _links_out(self, focus: str, book: str) -> list[tuple[GraphNode, GraphNode, str]]:
        """The ``links`` edges from ``book``'s sections to other books' sections and figures, sorted."""
        edges: set[tuple[GraphNode, GraphNode, str]] = set()
        for target, links in self.books[book].terms.all_links().items():
            lookup = self.target(book, target)
            if lookup.found is not Found.ID or lookup.book in (None, book):
                continue
            there = self.books[str(lookup.book)].terms.id_targets(lookup.name)[0]
            node = (there.kind, lookup.name if lookup.book == focus else f"{lookup.book}:{lookup.name}")
            edges.update((self._node(focus, book, (SECTION, link.section_id))[1], node, "links") for link in links)
        return sorted(edges)

    def _node(self, focus: str, book: str, node: GraphNode) -> tuple[str, GraphNode]:
        """The book a node of ``book``'s graph is in (a term it refers to may be another book's), and its name."""
        kind, name = node
        if kind == TERM:
            lookup = self.term(book, name)
            if lookup.found is Found.TERM and lookup.book is not None:
                book, name = lookup.book, lookup.name
        return book, (kind, name if book == focus else f"{book}:{name}")
