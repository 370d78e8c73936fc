"""What an edit touches: the one list of the files ``serve`` watches, each with what a change to it makes stale.

The watcher watches the files of this list (:func:`watched`), and an edit's step asks the same list which
books it touches (:func:`touched_by`): a file cannot be watched without the preview knowing what it is for.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulebook.project import OVERRIDES, SITE_SETTINGS, BookConfig, Project


@dataclass(frozen=True, slots=True)
class Watched:
    """A file (or folder) ``serve`` watches, and what a change to it makes stale."""

    path: Path
    """Absolute; a folder stands for everything in it."""
    book: str | None = None
    """The book whose source it is: read, linted and its pages made again at once."""
    later: str | None = None
    """The book whose translations depend on it: recomputed aside."""
    rebuild: bool = False
    """The look or the configuration (``mkdocs.yml``, ``site_templates/``, the project's file): everything is
    built again."""


@dataclass(frozen=True, slots=True)
class LiveAffected:
    """Which books an edit touches, and how."""

    rebuild: bool = False
    """The look or the configuration changed (``mkdocs.yml``, ``site_templates/``): everything is built again."""
    books: tuple[str, ...] = ()
    """The books whose own sources changed, then the other books of their families (their links across books,
    "Used in" and "Clarified in" may change): read, linted and their changed pages made again at once."""
    later: tuple[str, ...] = ()
    """The books whose translations, editions or rule data depend on the change: recomputed aside."""
    own: tuple[str, ...] = ()
    """The books whose own sources changed (the first of ``books``; the others are of their families)."""
    translated: tuple[str, ...] = ()
    """The books whose translations (or their terminology, their waivers) changed."""


def watched(project: Project, books: Sequence[BookConfig]) -> tuple[Watched, ...]:
    """Every file whose change updates the served ``books``: their sources, their translations with their
    terminology and waivers, the look, the configuration."""
    found = [Watched(_absolute(source), book=book.name) for book in books for source in book.sources]
    for book in books:
        found += [Watched(_absolute(path), later=book.name) for t in book.translations for path in t.files]
    looks = [project.root / OVERRIDES, project.root / SITE_SETTINGS]
    looks += [project.config_file] if project.config_file else []
    return (*found, *(Watched(_absolute(path), rebuild=True) for path in looks))


def touched_by(project: Project, books: Sequence[BookConfig], changed: Iterable[Path]) -> LiveAffected:
    """What an edit of the ``changed`` files touches among the served ``books``."""
    paths = [_absolute(path) for path in changed]
    hits = [entry for entry in watched(project, books) if any(path.is_relative_to(entry.path) for path in paths)]
    if any(entry.rebuild for entry in hits):
        return LiveAffected(rebuild=True)
    own = tuple(dict.fromkeys(entry.book for entry in hits if entry.book is not None))
    served = {book.name for book in books}
    kin = [name for book in own for name in project.family_of(book) if name in served] if own else []
    family = tuple(dict.fromkeys([*own, *kin]))
    translated = tuple(dict.fromkeys(entry.later for entry in hits if entry.later is not None))
    following = [book.name for book in books if book.changes_from in family]
    statuses = [book.name for book in books if set(project.status_editions(book)) & set(family)]
    later = tuple(dict.fromkeys([*family, *translated, *following, *statuses]))
    return LiveAffected(books=family, later=later, own=own, translated=translated)


def _absolute(path: Path) -> Path:
    """The path from the root, as the operating system reports an edit (without resolving links)."""
    return Path(os.path.abspath(path))
