"""What every book rule receives, and small helpers the rules share."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from compiler.graph import TermGraph
from compiler.model import Book
from compiler.names import is_identifier
from compiler.project import RESERVED_FOLDERS
from compiler.suggest import Suggester

if TYPE_CHECKING:
    from compiler.diagnostics import Diagnostic
    from compiler.mechanics import RollTable


def is_checkable(name: str) -> bool:
    """Names that other rules resolve: empty and invalid names have rules of their own."""
    return bool(name) and is_identifier(name)


@dataclass
class LintInput:
    """The book and its term graph, with lazily built lookups shared by the rules."""

    book: Book
    terms: TermGraph
    images: set[str] | None = None
    """The images the sources show that the images folder holds (None: not checked)."""
    reserved: frozenset[str] = RESERVED_FOLDERS
    """Names a chapter may not take: the site's own pages and folders, the project's books, translations."""

    @cached_property
    def term_suggester(self) -> Suggester:
        return Suggester(self.terms.defined_terms())

    @cached_property
    def id_suggester(self) -> Suggester:
        return Suggester(self.terms.all_ids())

    @cached_property
    def roll_tables(self) -> tuple[list[RollTable], list[Diagnostic]]:
        """The book's roll tables and the problems found reading them (two rules need them)."""
        from compiler.mechanics import roll_tables

        return roll_tables(self.book)

    @cached_property
    def dangling_suggester(self) -> Suggester:
        names = (n for n in self.terms.referenced_names() if not self.terms.is_defined(n))
        return Suggester(names)
