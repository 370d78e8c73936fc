"""The recipe: every command's stages, and their order, in one place.

A book's stages, in the one order every output of it is made from (:func:`book_stages`)::

    read_configured(project, book)   -> ReadResult     sources into the document model, and reading problems
    lint_book(read, book, ...)       -> LintResult     the term graph, every finding, the baseline applied
    unsafe_names(read, findings)     -> diagnostics    the gate: names that may not reach a page, a path, an attribute
    compare_translations(read, book) -> translations   each translation read, aligned and compared once (one that
                                                       cannot be read stops the build)
    translation_statuses(..)         -> translations   ... with its status against the latest edition
    changes_since(project, book, ..) -> changes        what changed since the edition the book follows

then its outputs, and the release::

    rule_files(read, lint, ...)      -> files          rules.json and its schema, checked in memory
    book_print(...), print_book(..)  -> Printing       the book's and its translations' PDFs, Typst compiling aside
    write_book_site(...)             -> SiteResult     the pages, built by the site generator into the new release
    publish(release)                 -> the new site replaces the old one in one step

:func:`build` runs them for every chosen book (``--data-only``: no edition, no site; ``--pdf-only``: the PDFs
alone); ``serve`` runs the build into its own folder, then at each edit the same stages again for what the edit
touched (the incremental step,
:mod:`rulebook.recipe.live`). The commands that read and report (``lint``, ``compare``, ``terms``, ``diff``,
``graph``, ``query``) run the stages to the depth they need: :mod:`rulebook.recipe.commands`. Each stage takes
values and returns a frozen value; stages that read files are cached by the content of what they read
(:class:`~rulebook.recipe.cache.StageCache`), which is what lets ``serve`` skip what an edit did not touch.

The stages themselves: the reading in :mod:`rulebook.recipe.reading`, the lint, translations, editions
and rule data in :mod:`rulebook.recipe.stages`, the site in :mod:`rulebook.recipe.book_site`, the print
edition in :mod:`rulebook.recipe.book_pdf`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.diagnostics import Diagnostic, Severity
from rulebook.project import MAIN_BOOK, BookConfig, Project
from rulebook.recipe.book_site import write_book_site
from rulebook.recipe.cache import NO_CACHE, StageCache, digest
from rulebook.recipe.family import book_family, read_family
from rulebook.recipe.reading import read_configured, titled
from rulebook.recipe.stages import (
    book_pages,
    changes_since,
    compare_translations,
    lint_book,
    reserved_names,
    rule_files,
    site_pages_refusal,
    translation_statuses,
    unreadable_translations,
)
from rulebook.stage_values import LintResult, ReadResult

if TYPE_CHECKING:
    from rulebook import publish
    from rulebook.build_values import BookBuild, BookStages, BuildOptions, BuildResult, TranslationResult
    from rulebook.recipe.book_pdf import Printing
    from rulebook.recipe.commands import TranslationLints
    from rulebook.site.pages import SiteInput

Progress = Callable[[str], None]


def quiet(message: str) -> None:
    """Progress that says nothing."""


# -- building ---------------------------------------------------------------------------------------------------


def build(
    project: Project, options: BuildOptions, *, progress: Progress = quiet, cache: StageCache = NO_CACHE
) -> BuildResult:
    """Build the chosen books into a new release and publish it; nothing is published if one book fails."""
    from rulebook import publish
    from rulebook.build_values import BuildResult

    started = time.perf_counter()
    options = whole_books(project, options)
    books = chosen_books(project, options)
    output = checked_output(project, options.output, options.files)
    if options.data_only:
        return _build_data_only(project, books, options, output, progress, cache, started)
    if options.pdf_only:
        return _build_pdf_only(project, books, options, output, progress, cache, started)
    from rulebook.site.writer import site_generator

    site_generator(options.generator).require()
    built: list[BookBuild] = []
    earlier: dict[str, ReadResult] = {}
    pages: dict[str, int] = {}  # the site's pages of chapters so far, by book
    with publish.release(output, root=project.root, kept=options.kept, wait=progress) as release:
        for book in books:
            if len(books) > 1:
                progress(f"Book: {book.label}")
            result = _build_book(project, book, options, release, earlier, pages, progress, cache)
            if isinstance(result, BuildResult):
                return result
            built.append(result)
        publish.keep_from_current(release, not_rebuilt(project, options, {book.name for book in books}))
        publish.publish(release)
    return BuildResult(output, tuple(built), seconds=time.perf_counter() - started)


def checked_output(project: Project, output: Path, files: Sequence[Path] = ()) -> Path:
    """The output folder, made absolute, once :func:`rulebook.publish.check_output` has found that a build may
    replace it: not a file the project reads (its inputs and ``files``, the sources named), nor a folder it reads
    files from (:func:`~rulebook.recipe.kept.read_folders`). The build's check, and the lint's of the configured
    output."""
    from rulebook import publish
    from rulebook.recipe.kept import kept_files

    protected, read = kept_files(project, output, output=True)
    return publish.check_output(output, root=project.root, protected=[*protected, *files], read=read)


def check_site_settings(project: Project) -> None:
    """The project's ``mkdocs.yml`` as the build loads it, for the lint of the whole project: read as YAML with the
    paths it names, then checked by the site generator as it checks them to build (a theme, a plugin or a Markdown
    extension not installed; a YAML error). The lint passed each, and the build stopped on it. A
    :class:`~rulebook.errors.UserError` in the build's words."""
    from rulebook.inputs import present
    from rulebook.project import SITE_SETTINGS
    from rulebook.recipe.book_site import site_settings
    from rulebook.site.theme import chrome_options
    from rulebook.site.writer import mkdocs_settings, site_generator

    file = project.root / SITE_SETTINGS
    if not present(file):
        return
    settings = mkdocs_settings(file, site_settings(project, project.main))
    site_generator(project.generator).check_settings(settings | chrome_options(settings, {}), config_file=file)


def check_look(project: Project) -> None:
    """Read what the build reads of the project beside its books, with the build's readers and limits, for the
    lint: the site generator's settings as text (``mkdocs.yml``: read as YAML by the build alone), the site's words
    (``site_templates/strings.toml``), each translation's marks (``status.toml``), the PDF template's text
    (``site_templates/print.typ``; Typst reads it at build), the fonts (``site_templates/fonts/``), the site's own
    templates, parsed (``*.j2``), and its assets. A file the build would refuse is a
    :class:`~rulebook.errors.UserError` here (it passed the lint and stopped the build)."""
    from rulebook.inputs import present, read_input_text
    from rulebook.project import OVERRIDES, SITE_SETTINGS
    from rulebook.recipe.book_pdf import check_font, project_fonts, template_text
    from rulebook.site.words_file import STRINGS_FILE, read_strings
    from rulebook.translate.status_file import load_marks

    settings = project.root / SITE_SETTINGS
    if present(settings):  # its text as the build reads it (a pipe, a link to /dev/zero, bytes not UTF-8)
        read_input_text(settings, root=project.root, kind="configuration")
    read_strings(project.root / OVERRIDES / STRINGS_FILE, root=project.root)
    for book in project.books:  # each translation's marks, as `build` and `status` read them (a pipe there hung)
        for translation in book.translations:
            load_marks(translation.status_file, root=project.root)
    template_text(project)
    check_font(project, project_fonts(project))
    overrides = project.root / OVERRIDES
    templates = sorted(overrides.rglob("*.j2")) if overrides.is_dir() else []
    if templates or (overrides / "assets").is_dir():  # the template engine, only for a project that has its own
        from rulebook.site.theme import Theme, check_template

        theme = Theme.for_project(project.root)
        environment = theme.environment()
        for template in templates:  # read and parsed as the build does: a syntax error at its file and line
            check_template(environment, template.relative_to(overrides).as_posix())
        theme.assets()


def not_rebuilt(project: Project, options: BuildOptions, rebuilt: set[str]) -> Callable[[str], bool]:
    """Which entries of the current site the new one keeps: everything this build does not make again, whichever
    way the books were chosen (``--book``, sources named, every book). A book's folder is made again with it;
    the main book's pages are the site's root entries, so when it is rebuilt only the other books' folders are
    kept, and its translations' folders when sources named instead of its own leave them out."""
    if MAIN_BOOK not in rebuilt:
        return lambda name: name not in rebuilt
    kept = {book.name for book in project.books[1:]} - rebuilt
    if options.files:
        kept |= {translation.language for translation in project.main.translations}
    return lambda name: name in kept


def whole_books(project: Project, options: BuildOptions) -> BuildOptions:
    """The options with sources named on the command line that are a configured book's sources, all of them,
    as that book (``rulebook build rules/book.xml`` is ``--book NAME``: its translations and edition too)."""
    if not options.files:
        return options
    owner = project.book_of(options.files[0])
    named = {path.resolve() for path in options.files}
    if owner is None or named != {source.resolve() for source in owner.sources}:
        return options
    from dataclasses import replace

    return replace(options, files=(), books=(owner.name,))


def chosen_books(project: Project, options: BuildOptions) -> list[BookConfig]:
    """The books a build makes: those ``--book`` names, every book, or one of the sources named instead (with
    the settings and the folder of the book they are sources of, else the main book's)."""
    if options.files:
        from dataclasses import replace

        owners = {project.book_of(path) for path in options.files}
        owner = owners.pop() if len(owners) == 1 else None
        # Sources named on the command line are one book: its settings, not its sources.
        return [replace(owner or project.main, sources=options.files, translations=(), changes_from=None)]
    if options.books is not None:
        return [project.book(name) for name in options.books]
    return list(project.books)


def checked_book(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    earlier: dict[str, ReadResult],
    progress: Progress,
    cache: StageCache,
) -> tuple[ReadResult, LintResult] | BuildResult:
    """A book read and linted with its family (the books it uses, those that use it), or the result of a
    build that stops here. ``earlier``: the books read before it, by name (taken as they are)."""
    from rulebook.build_values import BuildResult

    progress("Reading the sources…")
    read = earlier.get(book.name) if not options.files else None
    read = read or read_configured(project, book, options.files, cache)
    if read.fatal:
        return BuildResult(options.output, refused=_fatal(read.diagnostics), sources=read.sources)
    earlier[book.name] = read
    others = read_family(project, book, earlier, cache)
    if isinstance(others, ReadResult):
        return BuildResult(options.output, refused=_fatal(others.diagnostics), sources=others.sources)
    baseline = None if options.files else book.baseline
    texts = [s.text for r in (read, *others.values()) for s in r.sources.values()]
    key = digest(*texts, *others, repr(book), str(baseline and digest(baseline)))
    lint = cache.get(
        "lint",
        key,
        lambda: lint_book(
            read,
            book,
            root=project.root,
            baseline=baseline,
            reserved=reserved_names(project, book),
            family=book_family(project, others),
        ),
    )
    if lint.unsafe:
        return BuildResult(options.output, refused=lint.unsafe, sources=read.sources)
    if book.translations and not options.files:
        translated = _translation_lints(project, book, lint, key, cache)
        if translated.unsafe:
            return BuildResult(options.output, refused=translated.unsafe, sources=translated.sources)
        lint = replace(lint, translation_errors=translated.errors)
    own = ((book.label or book.name, lint.new_errors),) if lint.new_errors else ()
    withheld = (*own, *lint.translation_errors)
    if options.strict and withheld:  # nothing of this build is published: no need to make the rest
        return BuildResult(options.output, withheld=withheld)
    return read, lint


def _translation_lints(
    project: Project, book: BookConfig, lint: LintResult, linted: str, cache: StageCache
) -> TranslationLints:
    """The lints of ``book``'s translations, remembered by what they read (``linted``: the key of the book's lint)."""
    from rulebook.recipe.commands import translation_lints

    key = digest(linted, *(file for translation in book.translations for file in translation.files))
    return cache.get("translation lint", key, lambda: translation_lints(project, book, lint))


def book_stages(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    earlier: dict[str, ReadResult],
    progress: Progress,
    cache: StageCache,
) -> BookStages | BuildResult:
    """A book through every stage its outputs are made from, in their order: read, linted (and gated), its
    translations compared, its edition diffed; or the result of a build that stops here.

    ``earlier``: the books read before it, by name (an edition is diffed against one of them).
    """
    from rulebook.build_values import BookStages, BuildResult

    checked = checked_book(project, book, options, earlier, progress, cache)
    if isinstance(checked, BuildResult):
        return checked
    read, lint = checked
    editions = not options.files and not options.data_only and not options.pdf_only
    translations, changes, problems = compared_book(project, book, read, earlier, cache, editions=editions)
    if problems:
        return BuildResult(options.output, refused=problems, sources=read.sources)
    return BookStages(titled(book, read), read, lint, translations, changes)


def compared_book(
    project: Project,
    book: BookConfig,
    read: ReadResult,
    earlier: dict[str, ReadResult],
    cache: StageCache,
    *,
    editions: bool,
) -> tuple[tuple[TranslationResult, ...], dict[str, Any] | None, tuple[Diagnostic, ...]]:
    """The stages after the lint: the book's translations compared, then (when ``editions``) their status against
    the latest edition and the book's edition diffed, with the reasons that edition cannot be diffed (the previous
    one does not read)."""
    translations = compare_translations(read, book, project.root, cache)
    refused = unreadable_translations(book, project.root, translations)
    if refused:
        return translations, None, refused
    if not editions:
        return translations, None, ()
    translations = translation_statuses(project, book, read, translations, earlier, cache)
    changes, problems = changes_since(project, book, read, earlier, cache)
    return translations, changes, problems


def _fatal(diagnostics: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    return tuple(d for d in diagnostics if d.severity is Severity.FATAL)


def _build_book(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    release: publish.Release,
    earlier: dict[str, ReadResult],
    pages: dict[str, int],
    progress: Progress,
    cache: StageCache,
) -> BookBuild | BuildResult:
    """A book through its stages into ``release``; ``pages``: the site's pages of chapters so far, by book (this
    book's added)."""
    from rulebook.build_values import BookBuild, BuildResult
    from rulebook.data_worker import BackgroundData
    from rulebook.errors import SiteBuildError
    from rulebook.site.writer import site_generator

    stages = book_stages(project, book, options, earlier, progress, cache)
    if isinstance(stages, BuildResult):
        return stages
    translated = [len(list(translation.book.chapters)) for translation in stages.translations]
    pages[book.name] = book_pages(len(list(stages.read.book.chapters)), translated)
    too_many = site_pages_refusal(pages)  # before this book's pages are made
    if too_many is not None:
        raise SiteBuildError(too_many)
    book, read, lint, translations = stages.config, stages.read, stages.lint, stages.translations
    progress("Compiling the rule data…")
    with BackgroundData(lambda: rule_files(read, lint, book, translations)) as data:
        printing = _print(project, stages, options, release.scratch, progress)
        try:
            if printing is not None:  # after the fork (Typst's threads), and where a stop reaches it
                printing.start()
            progress(f"Building the site with {site_generator(options.generator).title}…")
            site = write_book_site(
                project, book, options, release, read, lint, translations, stages.changes, data.files
            )
            rule_data = data.files()["rules.json"]
        except BaseException:  # Typst's process never outlives the build (Ctrl+C, SIGTERM, a failed site)
            if printing is not None:
                printing.stop()
            raise
    printed = printing.finish(release.folder / book.folder) if printing is not None else None
    return BookBuild(
        book.name,
        lint,
        site.pages,
        site.warnings,
        book.label,
        options.generator,
        rule_data,
        pdfs=printed.files if printed else (),
        pdf_warnings=(*site.picture_warnings, *(printed.warnings if printed else ())),
    )


def _print(
    project: Project, stages: BookStages, options: BuildOptions, scratch: Path, progress: Progress
) -> Printing | None:
    """A book's PDFs, typeset, when the build makes them: :meth:`Printing.start` has Typst compile them in a thread
    (while the site is built)."""
    if not (options.pdf or options.pdf_only):
        return None
    from rulebook.recipe.book_pdf import book_print, print_book
    from rulebook.recipe.book_site import site_input
    from rulebook.site.theme import Theme

    progress("Typesetting the PDF with Typst…")
    book, read, lint, translations = stages.config, stages.read, stages.lint, stages.translations

    def site() -> SiteInput:
        return site_input(project, book, read, lint, translations, stages.changes, drafts=False, draw=False)

    room = scratch / f"pdf-{book.name}"
    prints = book_print(project, book, read, lint, translations, Theme.for_project(project.root), site, room)
    return print_book(project, prints, room)


def _build_data_only(
    project: Project,
    books: list[BookConfig],
    options: BuildOptions,
    output: Path,
    progress: Progress,
    cache: StageCache,
    started: float,
) -> BuildResult:
    from rulebook import publish
    from rulebook.build_values import BookBuild, BuildResult

    built = []
    pending: list[tuple[Path, dict[str, str]]] = []
    for book in books:
        stages = book_stages(project, book, options, {}, progress, cache)
        if isinstance(stages, BuildResult):
            return stages
        book = stages.config
        progress("Compiling the rule data…")
        files = rule_files(stages.read, stages.lint, book, stages.translations)
        pending.append((output / book.folder, files))
        built.append(BookBuild(book.name, stages.lint, label=book.label, rule_data=files["rules.json"]))
    with publish.lock(output, root=project.root, wait=progress):
        _write_straight(
            project, options, output, [(f / n, text) for f, files in pending for n, text in sorted(files.items())]
        )
    return BuildResult(output, tuple(built), seconds=time.perf_counter() - started)


def _write_straight(
    project: Project, options: BuildOptions, output: Path, files: Sequence[tuple[Path, str | bytes]]
) -> None:
    """Files written straight into the published site (``--data-only``, ``--pdf-only``), each atomically, where it
    is what this tool published (the build holds the output's lock)."""
    from rulebook import publish

    written = [(path, _bytes(data)) for path, data in files]
    publish.write_into_site(output, written, root=project.root, kept=options.kept)


def _bytes(data: str | bytes) -> bytes:
    return data.encode("utf-8") if isinstance(data, str) else data


def _build_pdf_only(
    project: Project,
    books: list[BookConfig],
    options: BuildOptions,
    output: Path,
    progress: Progress,
    cache: StageCache,
    started: float,
) -> BuildResult:
    """Only the PDFs, written into the published site (``--pdf-only``), each atomically; the rest stays."""
    from rulebook import publish
    from rulebook.build_values import BookBuild, BuildResult
    from rulebook.recipe.book_pdf import printed

    built, pending = [], []
    with publish.release(output, root=project.root, kept=options.kept, wait=progress) as room:  # for its scratch
        for book in books:
            stages = book_stages(project, book, options, {}, progress, cache)
            if isinstance(stages, BuildResult):
                return stages
            printing = _print(project, stages, options, room.scratch, progress)
            results = printing.run() if printing is not None else {}
            pending += [(output / book.folder / path, result.data) for path, result in results.items()]
            made = printed(results, printing.warnings if printing is not None else ())
            built.append(
                BookBuild(book.name, stages.lint, label=book.label, pdfs=made.files, pdf_warnings=made.warnings)
            )
        _write_straight(project, options, output, pending)
    return BuildResult(output, tuple(built), seconds=time.perf_counter() - started)
