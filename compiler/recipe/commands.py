"""The recipe of the commands that read and report: each runs the stages to the depth it needs.

    lint(project, target)                   read as an outline -> lint, the baseline applied
    fixes(project, target, lint)            the lint's sources read again -> the fixes of its findings (--fix, --diff)
    compare(project, original, translation) read both -> languages checked -> terminology and waivers -> compared
    waive(project, translation, comparison) the waivers file with the findings named added (``compare --waive``)
    suggest(project, original, translation) read both -> languages checked -> compared -> the terms it lacks
    diff(project, old, new)                 read both -> diffed
    status(project, book, language)         read the book -> each translation compared with the edition it was made
                                            from, joined with the edition diff to the latest edition
    mark(project, translation, status, ..)  the sections named marked up to date in the translation's status file
    term_graph(project, book, files)        read -> the term graph (``graph``, ``query``)
    terminology(project, path)              the terminology, and the names of the main book's terms (``terms export``)

The command line parses its options, calls one of these and renders what comes back. A book that
cannot be read comes back as its :class:`~rulebook.stage_values.ReadResult`, for the command line
to show why.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.assets import images_beside
from rulebook.diagnostics import Severity
from rulebook.errors import UserError
from rulebook.fileio import shown_path
from rulebook.project import TRANSLATION_LANGUAGES, BookConfig, Input, Project, Translation
from rulebook.recipe.family import FamilyMemo, book_family, read_family
from rulebook.recipe.reading import configured_format, read_book, read_configured
from rulebook.recipe.stages import (
    lint_book,
    reserved_names,
    translation_languages,
    translation_status,
    translation_terms,
    translation_waivers,
)
from rulebook.stage_values import LintResult, ReadResult

if TYPE_CHECKING:
    from rulebook.diagnostics import Diagnostic
    from rulebook.diff import BookDiff
    from rulebook.family import Family
    from rulebook.model import Book
    from rulebook.source import SourceText
    from rulebook.source_fixes import FixedSource
    from rulebook.translate.compare import Comparison
    from rulebook.translate.status import SectionStatus, TranslationStatus
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
    family: bool = True
    """The files are the book's (its family's names resolve in them); False: files of no configured book."""
    translation: Translation | None = None
    """A translation of the book, its source the one file: checked for its own syntax, ids and links, the terms
    its original defines (and the books it uses) resolving in it (:func:`translation_targets`)."""


LINTED_TRANSLATION_FORMATS = ("markdown", "xml")
"""The formats of the translations ``rulebook lint`` checks: those a team writes (the dialect, XML). A translation
converted from a PDF (``plain-markdown``, the French seed) or an export is checked by ``rulebook compare``; the lint
only reads it, failing where a build would (a file that is not text, a pipe)."""


def translation_targets(project: Project, books: Sequence[BookConfig]) -> list[LintTarget]:
    """The configured translations of ``books``, each a target of its own: those of :data:`LINTED_TRANSLATION_FORMATS`
    checked by every rule, every other one read only, so that one a build cannot read fails the lint too."""
    return [
        LintTarget(book, (translation.source,), family=False, translation=translation)
        for book in books
        for translation in book.translations
    ]


def _linted(translation: Translation) -> bool:
    from rulebook.readers.formats import format_of

    found = format_of(translation.source, translation.format)
    return found is not None and found.name in LINTED_TRANSLATION_FORMATS


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
        books = [LintTarget(config, (), baseline_of(config)) for config in project.books if config.sources] or [
            LintTarget(project.main, (), baseline_of(project.main))
        ]
        return [*books, *translation_targets(project, [target.book for target in books])]
    chosen = project.book(book) if book else None
    if files and chosen is None:
        translated = [t for f in files if (t := project.translation_of(f)) is not None]
        if len(files) == 1 and translated:  # a translation named alone: checked as a translation of its book
            translates = next(b for b in project.books if translated[0] in b.translations)
            return [LintTarget(translates, files, family=False, translation=translated[0])]
        owners = {found.name if (found := project.book_of(file)) else None for file in files}
        owner = owners.pop() if len(owners) == 1 else None
        if owner is None:
            return [LintTarget(project.main, files, baseline_of(None), family=False)]
        chosen = project.book(owner)
    chosen = chosen or project.main
    partial = bool(files) and {file.resolve() for file in files} != {source.resolve() for source in chosen.sources}
    own = LintTarget(chosen, files, baseline_of(chosen), partial)
    return [own, *(translation_targets(project, [chosen]) if not files else ())]


def lint(
    project: Project,
    target: LintTarget,
    earlier: dict[str, ReadResult] | None = None,
    memo: FamilyMemo | None = None,
) -> tuple[ReadResult, LintResult]:
    """``rulebook lint`` of one book: its sources and its family's (the books it uses and those that use it) read
    as an outline, then every rule and its baseline. ``earlier``: the books read already by name (outlines),
    where those read here are added: linting several books reads each once, and lints it once; ``memo``: the
    family made of them (one family for every book of a family, the book linted among its members).

    A book it uses that cannot be read makes the book's lint a reading failure, with that book's reasons."""
    earlier = {} if earlier is None else earlier
    if target.translation is not None:
        return _lint_translation(project, target.book, target.translation, earlier, memo)
    if not target.files:  # each translation's language, terminology and waivers, refused here as a build refuses them
        for translation in target.book.translations:
            translation_languages(target.book, translation, project.root)
            translation_terms(translation, project.root, None)
            translation_waivers(translation, project.root)
    read = (None if target.files else earlier.get(target.book.name)) or read_configured(
        project, target.book, target.files, outline=True
    )
    if not target.files and not read.fatal:
        earlier[target.book.name] = read
    others: dict[str, ReadResult] | ReadResult = {}
    known = memo.known(project, target.book.name, read) if memo is not None and not target.files else None
    if target.family and not read.fatal and known is None:
        others = read_family(project, target.book, earlier, outline=True)
    if isinstance(others, ReadResult):  # a book it uses cannot be read: say why, as this book's reading
        read = ReadResult(read.book, (*read.diagnostics, *others.diagnostics), {**read.sources, **others.sources})
        others = {}
    result = lint_book(
        read,
        target.book,
        root=project.root,
        baseline=target.baseline,
        partial=target.partial,
        reserved=reserved_names(project, target.book),
        family=(known or _lint_family(project, target, read, others, memo)) if target.family else None,
    )
    if memo is not None and not target.files and target.family:
        memo.linted[target.book.name] = result
    return read, result


@dataclass(frozen=True, slots=True)
class TranslationLints:
    """What the lints of a book's translations found that a build says or stops at."""

    errors: tuple[tuple[str, int], ...] = ()
    """Each translation whose lint finds errors, named as messages name it, and how many."""
    unsafe: tuple[Diagnostic, ...] = ()
    """Findings that stop a build whatever the configuration says (a chapter too large to publish)."""
    sources: dict[str, SourceText] = field(default_factory=dict)
    """The sources ``unsafe`` points into."""


def translation_lints(project: Project, book: BookConfig, original: LintResult) -> TranslationLints:
    """The lints of ``book``'s translations (its own lint is ``original``): a build says their errors as it says the
    book's own, ``--strict`` publishes nothing for them, as ``rulebook lint`` fails for them, and their unsafe
    findings stop it as the book's do (a translated chapter of 20,000 sections took 69 s and 2.9 GB to publish)."""
    memo = FamilyMemo()
    memo.linted[book.name] = original
    errors: list[tuple[str, int]] = []
    unsafe: list[Diagnostic] = []
    sources: dict[str, SourceText] = {}
    for target in translation_targets(project, [book]):
        assert target.translation is not None
        read, result = _lint_translation(project, book, target.translation, {}, memo)
        if result.new_errors:
            source = shown_path(target.translation.source, project.root)
            errors.append((f"the {target.translation.language} translation ({source})", result.new_errors))
        if result.unsafe:
            unsafe.extend(result.unsafe)
            sources |= read.sources
    return TranslationLints(tuple(errors), tuple(unsafe), sources)


def _lint_translation(
    project: Project,
    book: BookConfig,
    translation: Translation,
    earlier: dict[str, ReadResult],
    memo: FamilyMemo | None,
) -> tuple[ReadResult, LintResult]:
    """A translation's lint: its source read in its format and checked by every rule with its book's settings, as a
    book of its own, less what is its original's: a reference to a term the original (or a book it uses) defines is
    one (a translation names the original's terms, and need not define each again), and a finding the original's
    own lint makes of the same name (a value's kind, two terms defined through each other) is reported there once.
    The original's lint is the one this command made (``memo``), else made here."""
    from rulebook.catalog.book import DANGLING_REFERENCE
    from rulebook.family import Found

    source, language = translation.source, translation.language
    read = read_book([source], project.root, language=language, outline=True, source_format=translation.format)
    if not _linted(translation):  # compare's to check: only what stops a build is the lint's
        from rulebook.lint.rules.too_large import page_findings

        unreadable = tuple(d for d in read.diagnostics if d.severity is Severity.FATAL)
        too_large = () if unreadable else tuple(page_findings(read.book))  # its pages, as any book's
        found = (*unreadable, *too_large)
        return read, LintResult(found, read.sources, 0, new=found, unsafe=too_large)
    pictures = images_beside(book.sources[0]) if book.sources else None
    result = lint_book(read, book, root=project.root, original_images=pictures)
    original = memo.linted.get(book.name) if memo is not None else None
    if original is None:
        _, original = lint(project, LintTarget(book), earlier, memo)
    family = original.family
    if family is None:
        return read, result  # the original cannot be read: its own lint says why
    reported = {(d.code, d.target) for d in original.diagnostics if d.target is not None}

    def kept(diagnostic: Diagnostic) -> bool:
        name = diagnostic.target
        if name is None:
            return True
        defined = diagnostic.code == DANGLING_REFERENCE.code and family.term(book.name, name).found is Found.TERM
        return not defined and (diagnostic.code, name) not in reported

    return read, replace(
        result, diagnostics=tuple(filter(kept, result.diagnostics)), new=tuple(filter(kept, result.new))
    )


def _lint_family(
    project: Project, target: LintTarget, read: ReadResult, others: dict[str, ReadResult], memo: FamilyMemo | None
) -> Family:
    """The family a book is linted in: with the book itself when the whole book was read (the same family then
    serves every book of it), else without (its lint adds what was read)."""
    whole = not target.files and not read.fatal and memo is not None
    return book_family(project, {**others, target.book.name: read} if whole else others, memo)


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


def original_book(project: Project, original: Path, translation: Translation) -> BookConfig:
    """The configured book a command's original is: the one whose source it is, else the one that configures the
    translation, else the main book (its language is the original's)."""
    source = translation.source.resolve()
    owner = next((b for b in project.books if any(t.source.resolve() == source for t in b.translations)), None)
    return project.book_of(original) or owner or project.main


def translation_of(
    project: Project,
    source: Path,
    language: str | None,
    *,
    terms: Path | None = None,
    waivers: Path | None = None,
    language_file: Path | None = None,
) -> Translation:
    """The translation at ``source`` as a command names it: in the language it names (else the configuration's, see
    :func:`translation_language`); the terminology and waivers it names, else those the configuration names for that
    file (where it configures it), else those beside it; and the language file it names, else the one the
    configuration gives that file, or any translation into that language."""
    configured = project.translation_of(source)
    language = language or translation_language(project, configured, source)
    if language_file is None:
        same = [t for book in project.books for t in book.translations if t.language == language]
        chosen = [configured] if configured is not None and configured.language == language else []
        language_file = next((t.language_file for t in [*chosen, *same] if t.language_file is not None), None)
    return Translation(
        language, source, terms or (configured.terms if configured else None), waivers, language_file=language_file
    )


def translation_language(project: Project, configured: Translation | None, source: Path) -> str:
    """The language of a translation a command names without ``--language``: the configuration's for that file, else
    that of the only translation the project configures; in a project that configures none, the one its text reads
    as (:func:`~rulebook.languages.detect.detect_language`). Several, or a text that cannot tell, are a usage error
    saying what to name."""
    if configured is not None:
        return configured.language
    languages = _configured_languages(project)
    if len(languages) == 1:
        return languages[0]
    told = None if languages else _read_as(project, source)
    if told is not None:
        return told
    raise _name_the_language("translation", languages)


def terminology_language(project: Project, path: Path) -> str:
    """The language of a terminology ``terms export`` names without ``--language``: that of the translation the
    configuration gives it to (or whose ``terms.toml`` it is), else that of the only translation the project
    configures; else a usage error saying what to name."""
    resolved = path.resolve()
    translations = [t for book in project.books for t in book.translations]
    owner = next((t for t in translations if t.terms_file.resolve() == resolved), None)
    if owner is not None:
        return owner.language
    languages = _configured_languages(project)
    if len(languages) == 1:
        return languages[0]
    raise _name_the_language("terminology", languages)


def _configured_languages(project: Project) -> list[str]:
    """The languages of the project's translations, each once, sorted."""
    return sorted({t.language for book in project.books for t in book.translations})


def _name_the_language(what: str, languages: list[str]) -> UserError:
    """The usage error of a command that cannot tell the language of a ``what`` it was given: the languages to name."""
    listed = f"the project's translations: {', '.join(languages)}" if languages else f"the shipped: {SHIPPED}"
    return UserError(f"name the {what}'s language with --language ({listed})")


def _read_as(project: Project, source: Path) -> str | None:
    """The language other than the original's (English) a translation's text reads as, if it can tell."""
    from rulebook.inputs import read_input_text
    from rulebook.languages.detect import detect_language

    try:
        text = read_input_text(source, root=project.root, kind="translation")
    except UserError:
        return None  # reading it again says why, in its place
    found = detect_language(text).language
    return found if found != "en" else None


SHIPPED = ", ".join(TRANSLATION_LANGUAGES)
"""The languages a translation may be in without a language file, as a message lists them."""


def compare(
    project: Project, original: Path, translation: Translation, *, fail_on: tuple[str, ...] | None = None
) -> tuple[Comparison, int] | ReadResult:
    """``rulebook compare``: the comparison of a translation with its original, and the exit status (0 no finding
    of the ``fail_on`` kinds, waived ones aside; 1 some). Raises
    :class:`~rulebook.translate.command.CompareInputError` when the books are not in their languages."""
    from rulebook.translate.command import check_languages, exit_status
    from rulebook.translate.compare import FAIL_ON, compare_books
    from rulebook.translate.terminology import unknown_entries, with_marked

    book = original_book(project, original, translation)
    books = read_pair(project, (original, book.language), (translation.source, translation.language))
    if isinstance(books, ReadResult):
        return books
    languages = translation_languages(book, translation, project.root)
    check_languages(*books, languages, names=(original, translation.source))
    filed = translation_terms(translation, project.root, None)
    comparison = compare_books(
        *books,
        original_language=languages[0],
        translation_language=languages[1],
        terms=with_marked(filed, books[1]),
        waivers=translation_waivers(translation, project.root),
    )
    unknown = unknown_entries(filed, books[0], shown=shown_path(translation.terms_file, project.root))
    if unknown is not None:
        comparison = replace(comparison, notes=(*comparison.notes, unknown))
    return comparison, exit_status(comparison, FAIL_ON if fail_on is None else fail_on)


def waive(
    project: Project, translation: Translation, comparison: Comparison, fingerprints: Sequence[str], reason: str | None
) -> tuple[Path, str, int]:
    """``rulebook compare --waive``: the translation's waivers file, its text with the findings the fingerprints
    name added, and how many (for the command line to write; an existing file that is not one is refused)."""
    from rulebook.inputs import present, read_input_text
    from rulebook.translate.command import named_findings
    from rulebook.translate.waivers import load_waivers, waiver_entries

    chosen = named_findings(comparison, fingerprints)
    path = translation.waivers_file
    existing = read_input_text(path, root=project.root, kind="waivers file") if present(path) else ""
    if existing:
        load_waivers(path, root=project.root)  # a file that is not a waivers file is refused, not added to
    joined = existing.rstrip("\n") + "\n\n" if existing.strip() else ""
    return path, joined + waiver_entries(chosen, reason), len(chosen)


def suggest(project: Project, original: Path, translation: Translation) -> list[Suggestion] | ReadResult:
    """``rulebook terms suggest``: renderings proposed for the terms the translation's terminology lacks."""
    from rulebook.translate.command import check_languages
    from rulebook.translate.compare import compare_books
    from rulebook.translate.suggestions import aligned_uses, suggest_terms
    from rulebook.translate.terminology import marked_terms, with_marked

    book = original_book(project, original, translation)
    books = read_pair(project, (original, book.language), (translation.source, translation.language))
    if isinstance(books, ReadResult):
        return books
    languages = translation_languages(book, translation, project.root)
    check_languages(*books, languages, names=(original, translation.source))
    entries = translation_terms(translation, project.root, None)
    terms = with_marked(entries, books[1])
    comparison = compare_books(*books, original_language=languages[0], translation_language=languages[1], terms=terms)
    uses = aligned_uses(comparison.texts)
    return suggest_terms(uses, entries, languages[1], marked=marked_terms(books[1]))


def diff(project: Project, old: Path, new: Path) -> BookDiff | ReadResult:
    """``rulebook diff``: what changed between two editions, each read as a book of its own."""
    from rulebook.diff import diff_books

    language = (project.book_of(old) or project.main).language
    books = read_pair(project, (old, language), (new, language))
    return books if isinstance(books, ReadResult) else diff_books(*books)


def status(
    project: Project, *, book: str | None = None, language: str | None = None
) -> list[tuple[Translation, TranslationStatus]] | ReadResult:
    """``rulebook status``: each configured translation (of the ``book`` and in the ``language`` named) with its
    status against the latest edition of its book; or the reading of a book or translation that cannot be read."""
    found = []
    for config, translation in status_targets(project, book=book, language=language):
        read = read_configured(project, config)
        if read.fatal:
            return read
        result = translation_status(project, config, translation, None, {config.name: read})
        if isinstance(result, ReadResult):
            return result
        found.append((translation, result))
    return found


def status_targets(
    project: Project, *, book: str | None = None, language: str | None = None
) -> list[tuple[BookConfig, Translation]]:
    """The configured translations ``rulebook status`` reports on, each with its book: those of ``book`` and in
    ``language`` when named, else all; none is a usage error saying what is configured."""
    books = [project.book(book)] if book else list(project.books)
    found = [(b, t) for b in books for t in b.translations if language is None or t.language == language]
    if not found:
        configured = sorted({f"`{t.language}` of `{b.name}`" for b in project.books for t in b.translations})
        where = f" of book `{book}`" if book else ""
        wanted = f" into `{language}`" if language is not None else ""  # `--language ""` said none was configured
        listed = f" (the translations: {', '.join(configured)})" if configured else ": configure one in the project"
        raise UserError(f"no translation{wanted}{where} is configured{listed}")
    return found


def mark(
    project: Project,
    translation: Translation,
    current: TranslationStatus,
    sections: Sequence[str],
    *,
    every: bool = False,
) -> tuple[SectionStatus, ...]:
    """``rulebook status --mark``: the sections named (by title or id; ``every``: each outdated or new one) marked up
    to date with the latest edition in the translation's status file, written in one step; the sections marked.
    The marks that still hold are kept; the sources are never touched."""
    from rulebook.fileio import write_report_file
    from rulebook.recipe.kept import kept_files
    from rulebook.translate.status import marked
    from rulebook.translate.status_file import is_status_file, render_marks

    marks, chosen = marked(current, sections, every=every)
    if not chosen:
        return chosen
    path = translation.status_file
    protected, read = kept_files(project, path, writing=Input(path, "status file", language=translation.language))
    text = render_marks(marks, translation.language)
    write_report_file(
        path, text, root=project.root, protected=protected, ours=is_status_file, kind="status file", read=read
    )
    return chosen


def read_pair(project: Project, first: tuple[Path, str], second: tuple[Path, str]) -> tuple[Book, Book] | ReadResult:
    """Two sources, each a book of its own in its language; or the reading of the first that cannot be read."""
    books = []
    for path, lang in (first, second):
        read = read_book([path], project.root, language=lang, source_format=configured_format(project, path))
        if read.fatal:
            return read
        books.append(read.book)
    return books[0], books[1]


# -- the term graph and the terminology ------------------------------------------------------------------------


def term_graph(project: Project, book: str | None, files: tuple[Path, ...]) -> tuple[Family, str] | ReadResult:
    """``rulebook graph`` and ``query``: the term graphs of a book (default: the main one) and of its family (the
    books it uses and those that use it), with the book's name; or of the files named, alone."""
    from rulebook.family import Family, FamilyBook
    from rulebook.graph import TermGraph

    config = project.book(book) if book else project.main
    read = read_configured(project, config, files)
    if read.fatal:
        return read
    others = {} if files else read_family(project, config, {})
    if isinstance(others, ReadResult):
        return others
    own = FamilyBook(config.name, config.display_title, TermGraph(read.book), faq=config.faq)
    family = book_family(project, others).including(own) if others else Family([own])
    return family, config.name


def terminology(project: Project, path: Path) -> tuple[dict[str, Entry], dict[str, str]]:
    """``rulebook terms export``: a terminology's entries, and the English names of the main book's terms by id
    (none when the project has no sources)."""
    from rulebook.translate.terminology import load_terminology

    entries = load_terminology(path, root=project.root)
    if not project.main.sources:
        return entries, {}
    read = read_configured(project, project.main)
    return entries, {d.name: d.name.replace("_", " ") for d in read.book.definitions}
