"""A book's family for one command: the other books its lint and its pages read, each read once.

A book's references resolve in the books it uses, and its terms are used by the books that use it
(:meth:`rulebook.project.Project.family_of`): before a book is linted, those books are read (the
books a command read already are taken as they are) and their term graphs made, into a
:class:`~rulebook.family.Family` that the lint, the rule data and the site share. A book it uses
that cannot be read stops the book's own stages (its references could not be resolved); a book
that uses it and cannot be read is left out (it is reported when it is itself checked).
"""

from __future__ import annotations

from collections.abc import MutableMapping

from rulebook.family import Family, FamilyBook
from rulebook.graph import TermGraph
from rulebook.project import BookConfig, Project
from rulebook.recipe.cache import NO_CACHE, StageCache
from rulebook.recipe.reading import read_configured
from rulebook.stage_values import LintResult, ReadResult


def read_family(
    project: Project,
    book: BookConfig,
    earlier: MutableMapping[str, ReadResult],
    cache: StageCache = NO_CACHE,
    *,
    outline: bool = False,
) -> dict[str, ReadResult] | ReadResult:
    """The other books of ``book``'s family, read (``earlier``: those read already, where the others read are
    added); or the reading of a book it uses that cannot be read."""
    if book.name not in project.names:
        return {}  # sources named on the command line: a book of their own
    needed = set(project.family_order(book.name))
    found: dict[str, ReadResult] = {}
    for name in project.family_of(book.name):
        if name == book.name:
            continue
        read = earlier.get(name)
        if read is None:
            read = read_configured(project, project.book(name), cache=cache, outline=outline)
            if not read.fatal:
                earlier[name] = read
        if read.fatal and name in needed:
            return read
        if not read.fatal:
            found[name] = read
    return found


class FamilyMemo:
    """The family's books one command made of its readings, and the last family made of them: linting every book
    of a family asks for the same family once per book (the lint of a chain of 1,000 books made a family of 1,000
    term graphs 1,000 times), so a book read once is a member once and the family is made once. It also keeps each
    whole book's lint, which the lint of its translations reads (a book is linted once per command)."""

    def __init__(self) -> None:
        self._members: dict[str, tuple[ReadResult, FamilyBook]] = {}
        self._family: Family | None = None
        self.linted: dict[str, LintResult] = {}
        """Each whole book's lint by the book's name (every source read, whatever its baseline)."""

    def member(self, config: BookConfig, read: ReadResult) -> FamilyBook:
        """The family's book made of ``read`` (made again when the book was read again)."""
        known = self._members.get(config.name)
        if known is None or known[0] is not read:
            known = self._members[config.name] = (read, _member(config, read))
        return known[1]

    def known(self, project: Project, name: str, read: ReadResult) -> Family | None:
        """The family made last when it is book ``name``'s whole family (:meth:`Project.family_of`, every book
        of it read) with ``read`` as the book: what :func:`read_family` and :func:`book_family` would make again."""
        family, member = self._family, self._members.get(name)
        if family is None or member is None or member[0] is not read or family.books.get(name) is not member[1]:
            return None
        return family if tuple(family.books) == project.family_of(name) else None

    def family(self, project: Project, books: list[FamilyBook]) -> Family:
        """The family of ``books``: the last one made when it has the same books."""
        last = self._family
        if last is None or len(last.books) != len(books) or any(last.books.get(b.name) is not b for b in books):
            last = self._family = _family(project, books)
        return last


def book_family(project: Project, others: dict[str, ReadResult], memo: FamilyMemo | None = None) -> Family:
    """The family of the books read (a book's own is added by its lint when it is not among them:
    :meth:`Family.including`); ``memo``: the members and family made already by the command."""
    if memo is None:
        return _family(project, [_member(project.book(name), read) for name, read in others.items()])
    return memo.family(project, [memo.member(project.book(name), read) for name, read in others.items()])


def _family(project: Project, books: list[FamilyBook]) -> Family:
    orders = {config.name: project.family_order(config.name) for config in project.books}
    return Family(books, orders, project_books=project.names)


def _member(config: BookConfig, read: ReadResult) -> FamilyBook:
    return FamilyBook(config.name, config.display_title, TermGraph(read.book), faq=config.faq)
