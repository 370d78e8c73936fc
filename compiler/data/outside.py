"""What a book's rule data says of the other books of its family: the books it uses, and where each name it takes
from them leads (``books_used``, ``outside_terms``, ``outside_targets``), so that a tool reading one book's
``rules.json`` can resolve every term, from the rule data of the books beside it."""

from __future__ import annotations

from dataclasses import dataclass, field

from rulebook.data.shapes import BookUsed, OutsideName
from rulebook.family import Family, Found
from rulebook.project import MAIN_BOOK


@dataclass(frozen=True, slots=True)
class Outside:
    """A book's names that lead to other books, and its terms that other books use."""

    books_used: list[BookUsed] = field(default_factory=list)
    terms: dict[str, OutsideName] = field(default_factory=dict)
    """By name as the book writes it: the book and the term there."""
    targets: dict[str, OutsideName] = field(default_factory=dict)
    """By link target as the book writes it: the book and the section or figure id there."""
    used_elsewhere: frozenset[str] = frozenset()
    """The book's terms that other books refer to (so they are used, even if the book itself never refers to them)."""


def outside_of(family: Family, book: str) -> Outside:
    """Where ``book``'s names lead in the other books of ``family``."""
    terms = {
        name: OutsideName(book=str(lookup.book), name=lookup.name)
        for name, lookup in family.outside_terms(book).items()
    }
    targets = {}
    for target in family.book(book).terms.all_links():
        lookup = family.target(book, target)
        if lookup.found is Found.ID and lookup.book not in (None, book):
            targets[target] = OutsideName(book=str(lookup.book), name=lookup.name)
    used = [
        BookUsed(id=name, title=family.book(name).title, rules=_rules_from(book, name)) for name in family.order(book)
    ]
    return Outside(used, terms, dict(sorted(targets.items())), frozenset(family.references_into(book)))


def _rules_from(book: str, other: str) -> str:
    """Where ``other``'s ``rules.json`` is from ``book``'s (each book's site is a folder of the main book's)."""
    up = "" if book == MAIN_BOOK else "../"
    return up + ("" if other == MAIN_BOOK else f"{other}/") + "rules.json"
