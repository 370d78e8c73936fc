"""Reading order: which terms to read before a term, and an order for the whole book.

A term's definition depends on the terms it refers to. Terms defined through
each other form cycles; each cycle (a strongly connected component) is read
as one group. Ties are broken by where the terms are defined in the book, so
the order is stable and follows the text where the text allows.
"""

from __future__ import annotations

from rulebook.graph import TermGraph


def reading_order(terms: TermGraph) -> tuple[list[str], dict[str, list[str]]]:
    """The whole-book order of defined terms, and for each term the terms to read first (in that order)."""
    import networkx as nx

    dependencies = terms.term_dependencies()
    position = {name: index for index, name in enumerate(_document_order(terms))}
    # Edges run from a term to the terms it uses; reading goes the other way.
    condensed = nx.condensation(dependencies.reverse(copy=False))
    members = condensed.graph["mapping"]
    groups: dict[int, list[str]] = {}
    for name, group in members.items():
        groups.setdefault(group, []).append(name)
    for names in groups.values():
        names.sort(key=lambda n: position[n])
    key = {group: min(position[n] for n in names) for group, names in groups.items()}
    order = [
        name for group in nx.lexicographical_topological_sort(condensed, key=key.__getitem__) for name in groups[group]
    ]
    rank = {name: index for index, name in enumerate(order)}
    # One pass in reading order: a group's prerequisites are the groups it depends on and theirs.
    needs: dict[int, set[str]] = {}
    for group in nx.topological_sort(condensed):
        before: set[str] = set()
        for earlier in condensed.predecessors(group):
            before |= needs[earlier]
            before.update(groups[earlier])
        needs[group] = before
    read_first = {name: sorted(needs[members[name]], key=rank.__getitem__) for name in order}
    return order, read_first


def _document_order(terms: TermGraph) -> list[str]:
    placed = sorted(terms.all_definitions().items(), key=lambda item: (item[1][0].span.path, item[1][0].offset))
    return [name for name, _ in placed]
