"""The recipe of the commands that read and report: each runs the stages to the depth it needs.

    lint(project, target)                   read as an outline -> lint, the baseline applied
    fixes(project, target, lint)            the lint's sources read again -> the fixes of its findings (--fix, --diff)
    compare(project, original, translation) read both -> languages checked -> terminology and waivers -> compared
    suggest(project, original, translation) read both -> languages checked -> compared -> the terms it lacks
    diff(project, old, new)                 read both -> diffed
    term_graph(project, book, files)        read -> the term graph (``graph``, ``query``)
    terminology(project, path)              the terminology, and the names of the main book's terms (``terms export``)

The command line parses its options, calls one of these and renders what comes back. A book that
cannot be read comes back as its :class:`~rulebook.stage_values.ReadResult`, for the command line
to show why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.project import BookConfig, Project, Translation
from rulebook.recipe.reading import configured_format, read_book, read_configured
from rulebook.recipe.stages import lint_book, reserved_names, translation_terms, translation_waivers
from rulebook.stage_values import LintResult, ReadResult

if TYPE_CHECKING:
    from rulebook.diagnostics import Diagnostic
    from rulebook.diff import BookDiff
    from rulebook.graph import TermGraph
    from rulebook.model import Book
    from rulebook.source_fixes import FixedSource
    from rulebook.translate.compare import Comparison
    from rulebook.translate.suggestions import Suggestion
    from rulebook.translate.terminology import Entry


# -- lint ------------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class LintTarget:
    """A book to lint, and how."""

    book: BookConfig
    """The book whose settings apply."""
    files: tuple[Path, ...] = ()
    """The files to read; none: the book's sources."""
    baseline: Path | None = None
    partial: bool = False
    """Only some of the book's sources are read (the baseline's entries for the others are not stale)."""


def lint_targets(
    project: Project, files: tuple[Path, ...], *, book: str | None, baseline: Path | None, no_baseline: bool
) -> list[LintTarget]:
    """What ``rulebook lint`` checks: the files or the ``book`` asked for, else every configured book that has
    sources. Each book has its own baseline, unless ``baseline`` names one for all (``no_baseline``: none).

    Files that are sources of one configured book are that book's; any other file is linted with the main
    book's settings and only the baseline named.
    """

    def baseline_of(config: BookConfig | None) -> Path | None:
        return None if no_baseline else baseline or (config.baseline if config else None)

    if not (files or book or len(project.books) == 1):
        return [LintTarget(config, (), baseline_of(config)) for config in project.books if config.sources] or [
            LintTarget(project.main, (), baseline_of(project.main))
        ]
    chosen = project.book(book) if book else None
    if files and chosen is None:
        owners = {found.name if (found := project.book_of(file)) else None for file in files}
        owner = owners.pop() if len(owners) == 1 else None
        if owner is None:
            return [LintTarget(project.main, files, baseline_of(None))]
        chosen = project.book(owner)
    chosen = chosen or project.main
    partial = bool(files) and {file.resolve() for file in files} != {source.resolve() for source in chosen.sources}
    return [LintTarget(chosen, files, baseline_of(chosen), partial)]


def lint(project: Project, target: LintTarget) -> tuple[ReadResult, LintResult]:
    """``rulebook lint`` of one book: its sources read as an outline, then every rule and its baseline."""
    read = read_configured(project, target.book, target.files, outline=True)
    reserved = reserved_names(project, target.book)
    result = lint_book(
        read, target.book, root=project.root, baseline=target.baseline, partial=target.partial, reserved=reserved
    )
    return read, result


def unbaselined(target: LintTarget) -> LintTarget:
    """The same target without its baseline: every finding (what ``--write-baseline`` records)."""
    return replace(target, baseline=None, partial=False)


def fixable(result: LintResult) -> list[Diagnostic]:
    """The findings a lint reports that ``lint --fix`` would fix (:mod:`rulebook.lint.fixes`)."""
    from rulebook.lint.fixes import edit_for

    sources = result.sources
    return [d for d in result.new if (source := sources.get(d.span.path)) and edit_for(d, source) is not None]


def fixes(project: Project, target: LintTarget, result: LintResult) -> tuple[FixedSource, ...]:
    """``lint --fix`` and ``--diff``: what the fixes of a lint's findings make of the target's sources, read again
    and checked unchanged; nothing written."""
    from rulebook.source_fixes import plan_fixes

    return plan_fixes(result, target.files or target.book.sources, project.root)


def make_fixes(project: Project, fixed: Sequence[FixedSource]) -> None:
    """``lint --fix``: the fixed sources written, each in one step, every one checked before any is written."""
    from rulebook.source_fixes import write_fixes

    write_fixes(fixed, project.root)


# -- translations and editions --------------------------------------------------------------------------------


def translation_of(
    project: Project, source: Path, language: str, *, terms: Path | None = None, waivers: Path | None = None
) -> Translation:
    """The translation at ``source`` as a command names it: the terminology and waivers it names, else those the
    configuration names for that file (where it configures it), else those beside it."""
    configured = project.translation_of(source)
    return Translation(language, source, terms or (configured.terms if configured else None), waivers)


def compare(
    project: Project, original: Path, translation: Translation, *, fail_on: tuple[str, ...] | None = None
) -> tuple[Comparison, int] | ReadResult:
    """``rulebook compare``: the comparison of a translation with its original, and the exit status (0 no finding
    of the ``fail_on`` kinds, waived ones aside; 1 some). Raises
    :class:`~rulebook.translate.command.CompareInputError` when the books are not in their languages."""
    from rulebook.translate.command import check_languages, exit_status
    from rulebook.translate.compare import FAIL_ON, compare_books

    books = read_pair(project, original, translation.source, translation.language)
    if isinstance(books, ReadResult):
        return books
    check_languages(*books, translation.language, names=(original, translation.source))
    comparison = compare_books(
        *books,
        translation_language=translation.language,
        terms=translation_terms(translation, project.root),
        waivers=translation_waivers(translation, project.root),
    )
    return comparison, exit_status(comparison, FAIL_ON if fail_on is None else fail_on)


def suggest(project: Project, original: Path, translation: Translation) -> list[Suggestion] | ReadResult:
    """``rulebook terms suggest``: renderings proposed for the terms the translation's terminology lacks."""
    from rulebook.translate.command import check_languages
    from rulebook.translate.compare import compare_books
    from rulebook.translate.suggestions import aligned_uses, suggest_terms

    books = read_pair(project, original, translation.source, translation.language)
    if isinstance(books, ReadResult):
        return books
    check_languages(*books, translation.language, names=(original, translation.source))
    entries = translation_terms(translation, project.root)
    comparison = compare_books(*books, translation_language=translation.language, terms=entries)
    return suggest_terms(aligned_uses(comparison.texts), entries)


def diff(project: Project, old: Path, new: Path) -> BookDiff | ReadResult:
    """``rulebook diff``: what changed between two editions, each read as a book of its own."""
    from rulebook.diff import diff_books

    books = read_pair(project, old, new, "en")
    return books if isinstance(books, ReadResult) else diff_books(*books)


def read_pair(project: Project, first: Path, second: Path, language: str) -> tuple[Book, Book] | ReadResult:
    """Two sources, each a book of its own (the first English, the second in ``language``); or the reading of
    the first that cannot be read."""
    books = []
    for path, lang in ((first, "en"), (second, language)):
        read = read_book([path], project.root, language=lang, source_format=configured_format(project, path))
        if read.fatal:
            return read
        books.append(read.book)
    return books[0], books[1]


# -- the term graph and the terminology ------------------------------------------------------------------------


def term_graph(project: Project, book: str | None, files: tuple[Path, ...]) -> TermGraph | ReadResult:
    """``rulebook graph`` and ``query``: the term graph of a book (default: the main one) or of the files named."""
    from rulebook.graph import TermGraph

    read = read_configured(project, project.book(book) if book else project.main, files)
    return read if read.fatal else TermGraph(read.book)


def terminology(project: Project, path: Path) -> tuple[dict[str, Entry], dict[str, str]]:
    """``rulebook terms export``: a terminology's entries, and the English names of the main book's terms by id
    (none when the project has no sources)."""
    from rulebook.translate.terminology import load_terminology

    entries = load_terminology(path, root=project.root)
    if not project.main.sources:
        return entries, {}
    read = read_configured(project, project.main)
    return entries, {d.name: d.name.replace("_", " ") for d in read.book.definitions}
