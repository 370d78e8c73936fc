"""What the reading and the lint stages return (:func:`rulebook.recipe.read_book`, :func:`~rulebook.recipe.lint_book`).

Every command that reads a book passes these on; the values only a build or ``serve`` makes
are in :mod:`rulebook.build_values`, which the lint never imports.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rulebook.diagnostics import Diagnostic, Severity
from rulebook.model import Book
from rulebook.source import SourceText

if TYPE_CHECKING:
    from rulebook.facts import RuleFacts
    from rulebook.family import Family
    from rulebook.graph import TermGraph


@dataclass(frozen=True, slots=True)
class ReadResult:
    """The documents that could be read, and what reading them found."""

    book: Book
    diagnostics: tuple[Diagnostic, ...]
    sources: dict[str, SourceText]
    """Source text by display path (for showing source lines in reports)."""

    @property
    def fatal(self) -> bool:
        return any(d.severity is Severity.FATAL for d in self.diagnostics)


@dataclass(frozen=True, slots=True)
class LintResult:
    """A book's findings, with the configured severities; ``new`` is what the baseline does not list."""

    diagnostics: tuple[Diagnostic, ...]
    """Every finding, in report order."""
    sources: dict[str, SourceText]
    files: int
    terms: TermGraph | None = None
    """The term graph the rules ran on (None when reading failed), for the stages after the lint."""
    new: tuple[Diagnostic, ...] = ()
    """The findings the baseline does not cover (all of them without a baseline)."""
    baselined: int = 0
    stale_baseline: int = 0
    notices: tuple[str, ...] = ()
    """Things to tell the user about the run itself (a configured baseline that is missing)."""
    unsafe: tuple[Diagnostic, ...] = ()
    """Findings that stop a build whatever the configuration says (see :func:`rulebook.recipe.unsafe_names`)."""
    facts: RuleFacts | None = None
    """The book's annotations as the lint read them, for the rule data and the site (read once per build)."""
    family: Family | None = None
    """The book with the books it uses and those that use it, as the lint resolved its names (None when
    reading failed): the rule data's outside terms and the site's links across books come from it."""

    translation_errors: tuple[tuple[str, int], ...] = ()
    """Each translation of the book whose own lint finds errors, as messages name it, and how many (a build's lint;
    ``rulebook lint`` reports each translation's findings as a target of its own)."""

    @property
    def new_errors(self) -> int:
        return sum(d.severity.public == "error" for d in self.new)
