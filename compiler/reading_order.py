"""Reading order: which terms to read before a term, and an order for the whole book.

A term's definition depends on the terms it refers to. Terms defined through
each other form cycles; each cycle (a strongly connected component) is read
as one group. Ties are broken by where the terms are defined in the book, so
the order is stable and follows the text where the text allows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

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
    # One pass in reading order: a group's prerequisites are the groups it depends on and theirs, the latter at most
    # MAX_READ_FIRST (a chain of 8,000 definitions each using the one before listed 32 million names: 3.7 GB).
    carried: dict[int, list[str]] = {}
    needs: dict[int, list[str]] = {}
    for group in nx.topological_sort(condensed):
        direct: set[str] = set()
        before: set[str] = set()
        for earlier in condensed.predecessors(group):
            direct.update(groups[earlier])
            before.update(carried[earlier])
        nearest = sorted(before | direct, key=rank.__getitem__)[-MAX_READ_FIRST:]
        carried[group] = nearest
        needs[group] = sorted(direct.union(nearest), key=rank.__getitem__)
    read_first = {name: list(needs[members[name]]) for name in order}
    return order, read_first


MAX_READ_FIRST = 100
"""Most terms a term's ``read_first`` lists besides those its definition uses: the ones read last before it (a
term of the bundled book lists at most 17)."""


MOST_READ_FIRST_BYTES = 16_000_000
"""The most bytes the terms' ``read_first`` lists may take in ``rules.json``, a quarter of what the engine reads (the
bundled book's take a few kilobytes): each term lists up to :data:`MAX_READ_FIRST` names besides its own uses, so a
chain of 30,000 definitions each using the one before (3.66 MB of source) listed 3 million names, 42 MB of a 72 MB
``rules.json`` the build refused after the lint had passed it."""


def read_first_bytes(read_first: Mapping[str, Sequence[str]]) -> int:
    """The bytes the ``read_first`` lists take in ``rules.json`` as :func:`rulebook.data.serialise` writes them, from
    the key's opening quote to the list's closing bracket: a name a line, quoted, four spaces in, a comma between (a
    defined term's name is an identifier: ASCII, nothing escaped)."""
    size = {name: len(name) + 8 for name in read_first}
    items = sum(size.get(name, len(name) + 8) for names in read_first.values() for name in names)
    return items + sum(19 if names else 16 for names in read_first.values())


def read_first_bytes_at_most(terms: TermGraph) -> int:
    """What :func:`read_first_bytes` can come to at most, without ordering the terms (nor loading the graph library,
    which the lint keeps out of its start): a term lists only defined terms its definition reaches through the
    others' definitions, counted up to :data:`REACHED_COUNTED` (past that, every other term). The count stops once
    past :data:`MOST_READ_FIRST_BYTES`: the lint then orders the terms to count their lists exactly."""
    defined = terms.defined_terms()
    line = max((len(name) for name in defined), default=0) + 8
    total = 0
    for name in defined:
        total += _reached(terms, name, len(defined)) * line + 19
        if total > MOST_READ_FIRST_BYTES:
            break
    return total


REACHED_COUNTED = 200
"""Defined terms a definition is followed to, at most, for :func:`read_first_bytes_at_most` (a term of the bundled
book reaches at most 17; a long chain, past this, counts as reaching every term)."""


def _reached(terms: TermGraph, name: str, defined: int) -> int:
    """How many other defined terms the definition of ``name`` reaches (``defined - 1``: past
    :data:`REACHED_COUNTED`)."""
    seen = {name}
    waiting = [name]
    while waiting:
        for used in terms.terms_used_by(waiting.pop()):
            if used not in seen and terms.is_defined(used):
                seen.add(used)
                waiting.append(used)
        if len(seen) > REACHED_COUNTED + 1:
            return defined - 1
    return len(seen) - 1


def _document_order(terms: TermGraph) -> list[str]:
    placed = sorted(terms.all_definitions().items(), key=lambda item: (item[1][0].span.path, item[1][0].offset))
    return [name for name, _ in placed]
