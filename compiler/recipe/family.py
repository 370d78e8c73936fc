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
from rulebook.stage_values import ReadResult


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


def book_family(project: Project, others: dict[str, ReadResult]) -> Family:
    """The family of the books read (a book's own is added by its lint: :meth:`Family.including`)."""
    books = [_member(project.book(name), read) for name, read in others.items()]
    orders = {config.name: project.family_order(config.name) for config in project.books}
    return Family(books, orders, project_books=project.names)


def _member(config: BookConfig, read: ReadResult) -> FamilyBook:
    return FamilyBook(config.name, config.display_title, TermGraph(read.book), faq=config.faq)
