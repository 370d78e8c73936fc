"""The term graph: which terms use which, which sections define and use them.

:class:`TermGraph` answers queries from indexes built in one pass over the
book, and exposes the same facts as a networkx ``MultiDiGraph`` (edge key =
kind) for graph algorithms and exports, built on first use. Nodes are
``("term", name)``, ``("section", id)`` and ``("figure", id)``; edge kinds:

- ``uses``: term -> term (a reference inside the term's definition, itself
  excluded), section -> term (a reference anywhere in the section's text);
- ``defines``: section -> term;
- ``contains``: section -> subsection;
- ``links``: section -> section or figure (a ``<link>``).

Every query returns sorted results, so output never depends on hash order.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, TypeVar, cast

from rulebook.model import Book, Definition, Link, Reference, Section
from rulebook.source import Span

if TYPE_CHECKING:
    import networkx as nx

GraphNode = tuple[str, str]
V = TypeVar("V")
TERM = "term"
SECTION = "section"
FIGURE = "figure"


@dataclass(frozen=True, slots=True)
class IdTarget:
    """Something an id names: a section or a figure."""

    kind: str
    id: str
    span: Span
    title: str


class TermGraph:
    """Read-only queries over the terms, sections and links of a book."""

    def __init__(self, book: Book) -> None:
        self.book = book
        self._definitions: dict[str, list[Definition]] = defaultdict(list)
        self._references: dict[str, list[Reference]] = defaultdict(list)
        self._links: dict[str, list[Link]] = defaultdict(list)
        self._ids: dict[str, list[IdTarget]] = defaultdict(list)
        self._sections: dict[str, Section] = {}
        self._term_uses: dict[str, set[str]] = defaultdict(set)
        self._defined_in: dict[str, set[str]] | None = None
        self._sorted: dict[str, Any] = {}
        self._index(book)

    def _index(self, book: Book) -> None:
        for definition in book.definitions:
            self._definitions[definition.name].append(definition)
        references = self._references
        term_uses = self._term_uses
        for reference in book.references:
            references[reference.name].append(reference)
            if reference.definition is not None and reference.definition != reference.name:
                term_uses[reference.definition].add(reference.name)
        for link in book.links:
            self._links[link.to].append(link)
        for section in book.sections:
            self._sections.setdefault(section.id, section)
            if section.explicit_id:
                self._ids[section.id].append(IdTarget(SECTION, section.id, section.span, section.title))
        for figure in book.figures:
            title = figure.caption_title or figure.id
            self._ids[figure.id].append(IdTarget(FIGURE, figure.id, figure.span, title))

    # -- terms -----------------------------------------------------------------

    def defined_terms(self) -> list[str]:
        return sorted(self._definitions)

    def referenced_names(self) -> list[str]:
        return sorted(self._references)

    def is_defined(self, name: str) -> bool:
        return name in self._definitions

    def definition(self, name: str) -> Definition | None:
        """The (first) definition of a term."""
        found = self._definitions.get(name)
        return found[0] if found else None

    def definitions_of(self, name: str) -> tuple[Definition, ...]:
        """Every definition of a name, in document order (more than one is a duplicate)."""
        return tuple(self._definitions.get(name, ()))

    def all_definitions(self) -> dict[str, list[Definition]]:
        """Every definition by name, names sorted (sorted once: read it, never change it)."""
        return self._sorted_once("definitions", self._definitions)

    def _sorted_once(self, kind: str, index: dict[str, V]) -> dict[str, V]:
        found = self._sorted.get(kind)
        if found is None:
            found = self._sorted[kind] = dict(sorted(index.items()))
        return cast("dict[str, V]", found)

    def references_to(self, name: str) -> tuple[Reference, ...]:
        """Every reference to a name, in document order."""
        return tuple(self._references.get(name, ()))

    def all_references(self) -> dict[str, list[Reference]]:
        """Every reference by name, names sorted (sorted once: read it, never change it)."""
        return self._sorted_once("references", self._references)

    def used_outside_own_definition(self, name: str) -> bool:
        """Whether a reference to ``name`` stands anywhere but in the definition of ``name`` itself."""
        return any(reference.definition != name for reference in self._references.get(name, ()))

    def terms_used_by(self, name: str) -> list[str]:
        """Terms the definition of ``name`` refers to (defined or not), itself excluded."""
        return sorted(self._term_uses.get(name, ()))

    def terms_using(self, name: str) -> list[str]:
        """Terms whose definitions refer to ``name``."""
        return sorted({r.definition for r in self._references.get(name, ()) if r.definition not in (None, name)})

    def sections_using(self, name: str) -> list[str]:
        return sorted({r.section_id for r in self._references.get(name, ())})

    def terms_defined_in(self, section_id: str) -> list[str]:
        """Terms whose definitions stand in a section's own text (not its subsections)."""
        if self._defined_in is None:
            self._defined_in = defaultdict(set)
            for name, definitions in self._definitions.items():
                for definition in definitions:
                    self._defined_in[definition.section_id].add(name)
        return sorted(self._defined_in.get(section_id, ()))

    def mutual_definitions(self) -> list[tuple[str, str]]:
        """Pairs of distinct defined terms whose definitions refer to each other."""
        pairs = []
        for term, used in self._term_uses.items():
            for other in used:
                if term < other and term in self._term_uses.get(other, ()) and self.is_defined(other):
                    pairs.append((term, other))
        return sorted(pairs)

    # -- sections, figures and links -------------------------------------------

    def section(self, section_id: str) -> Section | None:
        return self._sections.get(section_id)

    def section_chain(self, section_id: str) -> list[Section]:
        """The sections from the chapter down to ``section_id`` (empty if there is no such section)."""
        chain: list[Section] = []
        current = self._sections.get(section_id)
        while current is not None:
            chain.append(current)
            current = self._sections.get(current.parent_id) if current.parent_id else None
        return chain[::-1]

    def id_targets(self, target_id: str) -> tuple[IdTarget, ...]:
        """What an id names (more than one is a duplicate id)."""
        return tuple(self._ids.get(target_id, ()))

    def all_ids(self) -> dict[str, list[IdTarget]]:
        """Every id target by id, ids sorted (sorted once: read it, never change it)."""
        return self._sorted_once("ids", self._ids)

    def links_to(self, target_id: str) -> tuple[Link, ...]:
        return tuple(self._links.get(target_id, ()))

    def all_links(self) -> dict[str, list[Link]]:
        """Every link by target, targets sorted (sorted once: read it, never change it)."""
        return self._sorted_once("links", self._links)

    # -- the networkx view -----------------------------------------------------

    @cached_property
    def graph(self) -> nx.MultiDiGraph[GraphNode]:
        """The whole graph (frozen), for algorithms and exports."""
        import networkx as nx  # deferred: the lint never needs it, and importing it takes 0.1-0.2 s

        graph: nx.MultiDiGraph[GraphNode] = nx.MultiDiGraph()
        for section_id in sorted(self._sections):
            section = self._sections[section_id]
            graph.add_node((SECTION, section_id), title=section.title, level=section.level)
        for section_id, section in sorted(self._sections.items()):
            if section.parent_id is not None:
                graph.add_edge((SECTION, section.parent_id), (SECTION, section_id), key="contains")
        for target_id, targets in sorted(self._ids.items()):
            if targets[0].kind == FIGURE:
                graph.add_node((FIGURE, target_id), title=targets[0].title)
        for name in sorted(set(self._definitions) | set(self._references)):
            graph.add_node((TERM, name), defined=name in self._definitions)
        graph.add_edges_from(sorted(self._edges()))  # type: ignore[arg-type]
        return cast("nx.MultiDiGraph[GraphNode]", nx.freeze(graph))

    def _edges(self) -> set[tuple[tuple[str, str], tuple[str, str], str]]:
        edges: set[tuple[tuple[str, str], tuple[str, str], str]] = set()
        for name, definitions in self._definitions.items():
            edges.update(((SECTION, d.section_id), (TERM, name), "defines") for d in definitions)
        for name, references in self._references.items():
            edges.update(((SECTION, r.section_id), (TERM, name), "uses") for r in references)
        for term, used in self._term_uses.items():
            edges.update(((TERM, term), (TERM, other), "uses") for other in used)
        for target_id, links in self._links.items():
            targets = self._ids.get(target_id)
            if targets:
                target = (targets[0].kind, target_id)
                edges.update(((SECTION, link.section_id), target, "links") for link in links)
        return edges

    def term_dependencies(self) -> nx.DiGraph[str]:
        """Defined terms, with an edge from each term to the defined terms its definition uses."""
        import networkx as nx

        graph: nx.DiGraph[str] = nx.DiGraph()
        graph.add_nodes_from(sorted(self._definitions))
        graph.add_edges_from(
            sorted((t, o) for t, used in self._term_uses.items() for o in used if o in self._definitions)
        )
        return graph
