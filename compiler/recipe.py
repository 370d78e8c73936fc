"""The recipe: every command's stages, and their order, in one place.

    read_book(book)                  -> ReadResult     sources into the document model, and reading problems
    TermGraph(read.book)             -> TermGraph      which terms use which, where they are defined
    lint_book(read, terms, ...)      -> LintResult     every finding, configured severities, the baseline applied
    unsafe_names(lint)               -> diagnostics    names that must not reach a page, a path or an attribute
    compare_translations(read, book) -> translations   each translation read, aligned and compared once
    compile_rule_data(...)           -> files          rules.json and its schema, checked in memory
    write_book_site(...)             -> SiteResult     the pages, built by the site generator into the new release
    publish(release)                 -> the new site replaces the old one in one step

``rulebook lint`` runs the reading and the lint; ``graph`` and ``query`` the reading and
the graph; ``build`` all of them for every book, and ``serve`` what ``build`` does, into its
own folder, then at each edit the same stages again for what the edit touched (the
incremental step, at the end of this module). Each stage takes values and returns a frozen
value; stages that read files are cached by the content of what they read (:class:`StageCache`),
which is what lets ``serve`` skip what an edit did not touch.
"""

from __future__ import annotations

import gc
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from rulebook import memory
from rulebook.assets import book_images, image_folder
from rulebook.catalog.book import DUPLICATE_ID, INVALID_NAME, RESERVED_NAME
from rulebook.diagnostics import Diagnostic, Severity
from rulebook.errors import UserError
from rulebook.graph import TermGraph
from rulebook.inputs import UnreadableInput, present, read_input
from rulebook.lint import apply_settings, run_book_rules
from rulebook.lint.base import LintInput
from rulebook.model import Book
from rulebook.project import MAIN_BOOK, RESERVED_FOLDERS, BookConfig, Linking, Project
from rulebook.source import SourceText, display_path
from rulebook.stage_values import LintResult, ReadResult
from rulebook.xml_source import SourceResult, read_xml_file

if TYPE_CHECKING:
    from jinja2 import Environment

    from rulebook import publish
    from rulebook.build_values import (
        BookBuild,
        BuildOptions,
        BuildResult,
        LiveAffected,
        LiveBook,
        LiveEdit,
        LiveLater,
        TranslationResult,
    )
    from rulebook.diff import BookDiff
    from rulebook.site.incremental import SiteChange, SiteLook
    from rulebook.site.pages import SiteInput
    from rulebook.site.theme import Theme
    from rulebook.site.writer import SiteResult

T = TypeVar("T")


# -- the stages' cache (their values: rulebook.stage_values, and a build's rulebook.build_values) ----------


class StageCache:
    """Stage results by the content of their inputs: a stage whose inputs did not change is not run again.

    ``limit``: how many results of each stage to keep, the least recently used dropped first (``serve``
    keeps a few, not one per edit); ``None``: all of them.
    """

    def __init__(self, limit: int | None = None) -> None:
        self._results: dict[tuple[str, str], Any] = {}
        self._limit = limit

    def get(self, stage: str, key: str, compute: Callable[[], T]) -> T:
        if (stage, key) in self._results:
            if self._limit is not None:
                self._results[(stage, key)] = self._results.pop((stage, key))  # the most recently used, last
        else:
            self._results[(stage, key)] = compute()
            self._drop_oldest(stage)
        return self._results[(stage, key)]  # type: ignore[no-any-return]

    def _drop_oldest(self, stage: str) -> None:
        if self._limit is None:
            return
        kept = [k for k in self._results if k[0] == stage]
        for old in kept[: max(0, len(kept) - self._limit)]:
            del self._results[old]

    def forget(self, keep: Callable[[str, str], bool]) -> None:
        """Drop the results ``keep(stage, key)`` rejects (those of files that changed)."""
        self._results = {k: v for k, v in self._results.items() if keep(*k)}


_NO_CACHE = StageCache()


def digest(*parts: str | bytes | Path) -> str:
    """A content key: the files' bytes (a missing file counts as absent) and the other parts as given."""
    import hashlib  # imported when a cache is used: the lint has none

    hasher = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            try:
                hasher.update(read_input(part))
            except UnreadableInput as error:
                hasher.update(f"\0{error.reason}\0".encode())
        else:
            hasher.update(part.encode("utf-8") if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()


Progress = Callable[[str], None]


def _quiet(message: str) -> None:
    pass


# -- reading ------------------------------------------------------------------------------------------


@contextmanager
def gc_frozen() -> Iterator[None]:
    """Keep the cyclic garbage collector off while large acyclic structures are built.

    The model is made of tuples that never form cycles; with the collector on, building a
    big book triggers full collections over an ever larger heap (measured: about 2x the
    time on the 100x book).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()  # what was built stays: later collections need not walk it again
            gc.enable()


def read_book(
    paths: Sequence[Path],
    root: Path | None = None,
    *,
    language: str = "en",
    linking: Linking | None = None,
    outline: bool = False,
) -> ReadResult:
    """Read every source; unreadable or malformed files give fatal diagnostics and are left out.

    ``linking``: how a Markdown source that marks no terms gets them (its book's configuration).
    ``outline``: XML sources are read for the lint only (every name, id and place, no content;
    see :mod:`rulebook.xml_source`); Markdown and text sources are read whole either way.
    """
    documents = []
    diagnostics: list[Diagnostic] = []
    sources: dict[str, SourceText] = {}
    with gc_frozen():
        for path in paths:
            result = _read_source(path, display_path(path, root), root, language, linking, outline)
            diagnostics.extend(result.diagnostics)
            if result.source is not None:
                sources[result.source.path] = result.source
            if result.document is not None:
                documents.append(result.document)
    if sum(len(source.text) for source in sources.values()) > memory.BIG:
        memory.release_freed_memory()  # the parsed trees are gone: what follows need not pile up on their pages
    return ReadResult(Book(tuple(documents)), tuple(diagnostics), sources)


def _read_source(
    path: Path, shown: str, root: Path | None, language: str, linking: Linking | None, outline: bool
) -> SourceResult:
    """One source, read through :func:`~rulebook.inputs.read_input` (nothing through a link out of ``root``)."""
    suffix = path.suffix.lower()
    if suffix in (".md", ".markdown"):
        from rulebook.markdown_source import read_markdown_file  # imported only for Markdown sources

        return find_terms(read_markdown_file(path, shown, language=language, root=root), linking)
    if suffix == ".txt":
        from rulebook.text_source import read_text_file

        return read_text_file(path, shown, language=language, root=root)
    return read_xml_file(path, shown, language=language, outline=outline, root=root)


def find_terms(result: SourceResult, linking: Linking | None) -> SourceResult:
    """A Markdown rulebook that marks no terms gets them from its configuration, headings or emphasis.

    Without configuration, only a book that numbers nothing is linked (a numbered translation
    is linked through its terminology instead).
    """
    document = result.document
    if document is None or document.definitions:
        return result
    configured = linking is not None and linking != Linking()
    if not configured and any(s.number for s in document.sections):
        return result
    from rulebook.autolink import emphasis_terms, heading_terms, link_document

    linking = linking or Linking()
    terms = heading_terms(document)
    extra = heading_terms(document, names=linking.terms) if linking.terms else []
    if linking.emphasis:
        extra += emphasis_terms(document)
    known = {t.id for t in terms}
    for term in extra:
        if term.id not in known:
            known.add(term.id)
            terms.append(term)
    linked = link_document(document, terms, skip=linking.skip)
    return SourceResult(linked, result.diagnostics, result.source)


def read_configured(
    project: Project,
    book: BookConfig,
    files: Sequence[Path] = (),
    cache: StageCache = _NO_CACHE,
    *,
    outline: bool = False,
) -> ReadResult:
    """A book's sources (or the files named instead), read once per content (``outline``: for the lint only).

    A Markdown or text file named on the command line is read only when the configuration names it
    or it declares itself a rulebook (``<!-- rulebook -->``): a README is not a book.
    """
    paths = tuple(files) or book.sources
    if not paths:
        if project.config_file is None:
            raise UserError(
                f"no rulebook project here: no rulebook.toml, nor a pyproject.toml with [tool.rulebook], in "
                f"{project.root} or a folder above it. Start one with `rulebook init`, or name the source files"
            )
        table = "" if book.name == "main" else f" [books.{book.name}]"
        raise UserError(
            f"{display_path(project.config_file, project.root)}{table} names no sources: "
            'add `sources = ["rules/book.xml"]` (the book\'s files, relative to the configuration)'
        )
    strangers = [p for p in files if not _configured(project, p) and not _declares_a_rulebook(p, project.root)]
    if strangers:
        return _not_rulebooks(strangers, project.root)

    def read() -> ReadResult:
        return read_book(paths, project.root, language=book.language, linking=book.linking, outline=outline)

    if cache is _NO_CACHE:
        return read()  # no key to make: that would read and hash every source once more
    key = digest(*paths, *map(str, paths), repr(book.linking), book.language, str(outline))
    return cache.get("read", key, read)


READABLE_SUFFIXES = (".xml", ".md", ".markdown", ".txt")
"""The kinds of source the readers read: XML, Markdown, the plain-text export."""
_DECLARATION = re.compile(r"^<!--\s*rulebook\b", re.MULTILINE)
_TEXT_EXPORT = re.compile(r"^\(Rule\)\s*\n+Description:", re.MULTILINE)


def _configured(project: Project, path: Path) -> bool:
    if project.book_of(path) is not None:
        return True
    resolved = path.resolve()
    return any(t.source.resolve() == resolved for b in project.books for t in b.translations)


def _declares_a_rulebook(path: Path, root: Path) -> bool:
    """XML says what it is by its root (the reader checks it); Markdown and text must say it themselves;
    any other kind of file (a configuration, a DTD) is not a rulebook."""
    suffix = path.suffix.lower()
    if suffix not in READABLE_SUFFIXES:
        return False
    if suffix == ".xml":
        return True
    try:
        text = read_input(path, root=root).decode("utf-8-sig", errors="replace")  # a byte order mark is not text
    except UnreadableInput:
        return True  # the reader says why it cannot be read
    return bool(_DECLARATION.search(text) or (path.suffix.lower() == ".txt" and _TEXT_EXPORT.search(text)))


def _not_rulebooks(paths: Sequence[Path], root: Path) -> ReadResult:
    from rulebook.catalog.reading import NOT_A_RULEBOOK
    from rulebook.source import Span

    diagnostics = []
    sources = {}
    for path in paths:
        shown = display_path(path, root)
        diagnostics.append(
            NOT_A_RULEBOOK.diagnostic(
                f"`{shown}` is not a rulebook source",
                Span(shown, 1, 1),
                target=shown,
                help=(
                    "name it in the configuration's `sources`, or put `<!-- rulebook -->` on a line of its own in it"
                    if path.suffix.lower() in READABLE_SUFFIXES
                    else "rulebook sources are XML (.xml), Markdown (.md) or the plain-text export (.txt)"
                ),
            )
        )
        try:
            text = read_input(path, root=root).decode("utf-8", errors="replace")
        except UnreadableInput:
            text = ""  # nothing of a file that may not be read is shown
        sources[shown] = SourceText.from_text(shown, text)
    return ReadResult(Book(()), tuple(diagnostics), sources)


# -- checking -----------------------------------------------------------------------------------------


def lint_book(
    read: ReadResult,
    book: BookConfig,
    *,
    root: Path,
    baseline: Path | None = None,
    partial: bool = False,
    reserved: frozenset[str] = frozenset(),
) -> LintResult:
    """Every diagnostic for a book: reading problems, then the book rules (unless reading failed).

    ``baseline``: known problems to leave out of ``new``; ``partial``: only some of the book's
    sources were read (entries of the others are not stale). ``reserved``: names a chapter may
    not take (the site's own pages, the project's books and translations).
    """
    found = list(read.diagnostics)
    terms = facts = None
    with gc_frozen():
        if not read.fatal:
            images = book_images(read.book, image_folder(read.book, root))
            terms = TermGraph(read.book)
            checked = LintInput(read.book, terms, set(images.published), reserved, refused_images=images.refused)
            found.extend(run_book_rules(checked))
            facts = checked.rule_facts
        diagnostics = tuple(apply_settings(found, book.severities))
    files = len(set(read.sources) | {d.span.path for d in read.diagnostics}) or len(read.book.documents)
    unsafe = unsafe_names(read, found)
    result = LintResult(diagnostics, read.sources, files, terms, diagnostics, unsafe=unsafe, facts=facts)
    return apply_baseline(result, baseline, root=root, partial=partial)


def apply_baseline(result: LintResult, path: Path | None, *, root: Path, partial: bool = False) -> LintResult:
    """The findings the baseline at ``path`` does not list; a configured baseline that is missing is a notice
    (one in the project, ``root``, is read only inside it)."""
    if path is None:
        return result
    if not present(path):
        notice = f"the baseline `{path}` does not exist: every problem is shown (write it with --write-baseline)"
        return _replace(result, notices=(notice,))
    from rulebook.lint import baseline as baselines

    known = baselines.load(path, root=root)
    applied = baselines.apply(result.diagnostics, known)
    return _replace(result, new=applied.new, baselined=applied.known, stale_baseline=0 if partial else applied.stale)


def _replace(result: LintResult, **changes: Any) -> LintResult:
    from dataclasses import replace

    return replace(result, **changes)


def unsafe_names(read: ReadResult, findings: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """The findings that stop a build before any output, whatever the lint's configuration says:
    an id or a defined name that is not an identifier (it would become a page, an anchor or an
    attribute), an id given twice, or a chapter that would take the place of another page.

    A reference or link that names something invalid is only a lint error: it resolves to
    nothing and shows as plain text.
    """
    invalid = {d.target for d in findings if d.code == INVALID_NAME.code}  # its target: the name as written
    places = {d.span for d in read.book.definitions if d.name in invalid}
    places |= {span for name, span in read.book.ids if name in invalid}
    return tuple(
        d
        for d in findings
        if d.code in (DUPLICATE_ID.code, RESERVED_NAME.code) or (d.code == INVALID_NAME.code and d.span in places)
    )


def reserved_names(project: Project, book: BookConfig) -> frozenset[str]:
    """Names a chapter of ``book`` may not take: the site's own pages and folders, books and translations."""
    taken = set(RESERVED_FOLDERS)
    if book.name == MAIN_BOOK:
        taken |= {other.name for other in project.books[1:]}
    taken |= {t.language for t in book.translations}
    taken |= {f"translation-{t.language}" for t in book.translations}
    return frozenset(taken)


# -- translations and editions ----------------------------------------------------------------------------


def compare_translations(
    read: ReadResult, book: BookConfig, root: Path, cache: StageCache = _NO_CACHE
) -> tuple[TranslationResult, ...]:
    """Every configured translation compared with the book. One that cannot be read is left out
    (``rulebook compare`` says why, and the original's outputs are still good)."""
    from rulebook.build_values import TranslationResult
    from rulebook.languages.data import load_language
    from rulebook.translate.compare import compare_books, load_waivers
    from rulebook.translate.terminology import load_terminology

    results = []
    for translation in book.translations:
        waivers_file = translation.source.with_name("waivers.toml")
        key = digest(
            *[s.text for s in read.sources.values()],
            translation.source,
            translation.terms or "",
            waivers_file,
            translation.language_file or "",
        )

        def compare(translation: Any = translation, waivers_file: Path = waivers_file) -> TranslationResult | None:
            translated = read_book([translation.source], root, language=translation.language)
            if translated.fatal:
                return None
            terms_file = translation.terms
            terms = load_terminology(terms_file, root=root) if terms_file and present(terms_file) else {}
            waivers = load_waivers(waivers_file, root=root) if present(waivers_file) else {}
            language = load_language(translation.language, translation.language_file, root=root)
            comparison = compare_books(
                read.book, translated.book, translation_language=language, terms=terms, waivers=waivers
            )
            return TranslationResult(translation.language, comparison, terms, translated.book)

        result = cache.get("translation", key, compare)
        if result is not None:
            results.append(result)
    return tuple(results)


def changes_since(
    project: Project, book: BookConfig, read: ReadResult, earlier: dict[str, ReadResult], cache: StageCache = _NO_CACHE
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]]:
    """What changed since the edition this book follows (``changes_from``), for its site; or why it cannot be said."""
    from rulebook.diff import diff_books

    if book.changes_from is None:
        return None, ()
    previous = project.book(book.changes_from)
    old = earlier.get(previous.name) or read_configured(project, previous, cache=cache)
    if old.fatal:
        return None, tuple(d for d in old.diagnostics if d.severity is Severity.FATAL)
    diff: BookDiff = diff_books(old.book, read.book)
    return {"since": previous.display_title, "since_edition": previous.edition, **diff.as_json()}, ()


# -- rule data -----------------------------------------------------------------------------------------------


def rule_files(
    read: ReadResult, lint: LintResult, book: BookConfig, translations: Sequence[TranslationResult]
) -> dict[str, str]:
    """``rules.json`` and its schema, made and checked in memory (raises InvalidRuleData when the data fails).

    The text is checked as the engine will read it (so the command line may tell the engine's cache so).
    """
    import json

    from rulebook.data import build_rule_data, serialise
    from rulebook.rules_schema import check_rule_data, rules_schema_text

    assert lint.terms is not None and not read.book.outline, "rule data is made from the whole model"
    data = build_rule_data(
        read.book,
        lint.terms,
        title=book.display_title,
        edition=book.edition or "unknown",
        translations=translated_terms(read, translations),
        facts=lint.facts,
    )
    text = serialise(data)
    check_rule_data(json.loads(text))
    return {"rules.json": text, "rules.schema.json": rules_schema_text()}


def translated_terms(
    read: ReadResult, translations: Sequence[TranslationResult]
) -> dict[str, dict[str, dict[str, str]]]:
    """Each translation's names and texts, per term id and language (``terms[id].translations``)."""
    from rulebook.translate.names import term_translations

    found: dict[str, dict[str, dict[str, str]]] = {}
    for translation in translations:
        for term, names in term_translations(read.book, translation.comparison.pairs, translation.terms).items():
            found.setdefault(term, {})[translation.language] = names
    return found


# -- building ---------------------------------------------------------------------------------------------------


def build(
    project: Project, options: BuildOptions, *, progress: Progress = _quiet, cache: StageCache = _NO_CACHE
) -> BuildResult:
    """Build the chosen books into a new release and publish it; nothing is published if one book fails."""
    from rulebook import publish
    from rulebook.build_values import BuildResult

    started = time.perf_counter()
    books = _chosen_books(project, options)
    protected = [*project.inputs(), *options.files]
    output = publish.check_output(options.output, root=project.root, protected=protected)
    if options.data_only:
        return _build_data_only(project, books, options, output, progress, cache, started)
    from rulebook.site.writer import site_generator

    site_generator(options.generator).require()
    built: list[BookBuild] = []
    earlier: dict[str, ReadResult] = {}
    with publish.release(output, root=project.root, kept=options.kept, wait=progress) as release:
        for book in books:
            if len(books) > 1:
                progress(f"Book: {book.label}")
            result = _build_book(project, book, options, release, earlier, progress, cache)
            if isinstance(result, BuildResult):
                return result
            built.append(result)
        publish.keep_from_current(release, _not_rebuilt(project, options, {book.name for book in books}))
        publish.publish(release)
    return BuildResult(output, tuple(built), seconds=time.perf_counter() - started)


def _not_rebuilt(project: Project, options: BuildOptions, rebuilt: set[str]) -> Callable[[str], bool]:
    """Which entries of the current site the new one keeps: the other books' folders when the main
    book is rebuilt, else everything but the rebuilt books' folders (sources named on the command
    line make a site of their own: nothing is kept)."""
    if options.files:
        return lambda name: False
    if MAIN_BOOK in rebuilt:
        others = {book.name for book in project.books[1:]} - rebuilt
        return lambda name: name in others
    return lambda name: name not in rebuilt


def _chosen_books(project: Project, options: BuildOptions) -> list[BookConfig]:
    if options.files:
        from dataclasses import replace

        # Sources named on the command line are one book: the main book's settings, not its sources.
        return [replace(project.main, sources=options.files, translations=(), changes_from=None)]
    if options.books is not None:
        return [project.book(name) for name in options.books]
    return list(project.books)


def _checked(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    earlier: dict[str, ReadResult],
    progress: Progress,
    cache: StageCache,
) -> tuple[ReadResult, LintResult] | BuildResult:
    """A book read and linted, or the result of a build that stops here."""
    from rulebook.build_values import BuildResult

    progress("Reading the sources…")
    read = read_configured(project, book, options.files, cache)
    if read.fatal:
        return BuildResult(options.output, refused=_fatal(read.diagnostics), sources=read.sources)
    earlier[book.name] = read
    baseline = None if options.files else book.baseline
    key = digest(*[s.text for s in read.sources.values()], repr(book), str(baseline and digest(baseline)))
    lint = cache.get(
        "lint",
        key,
        lambda: lint_book(read, book, root=project.root, baseline=baseline, reserved=reserved_names(project, book)),
    )
    if lint.unsafe:
        return BuildResult(options.output, refused=lint.unsafe, sources=read.sources)
    return read, lint


def _fatal(diagnostics: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    return tuple(d for d in diagnostics if d.severity is Severity.FATAL)


def _build_book(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    release: publish.Release,
    earlier: dict[str, ReadResult],
    progress: Progress,
    cache: StageCache,
) -> BookBuild | BuildResult:
    from rulebook.build_values import BookBuild, BuildResult
    from rulebook.data_worker import BackgroundData
    from rulebook.site.writer import site_generator

    checked = _checked(project, book, options, earlier, progress, cache)
    if isinstance(checked, BuildResult):
        return checked
    read, lint = checked
    assert lint.terms is not None
    translations = compare_translations(read, book, project.root, cache)
    changes, problems = changes_since(project, book, read, earlier, cache) if not options.files else (None, ())
    if problems:
        return BuildResult(options.output, refused=problems, sources=read.sources)
    progress("Compiling the rule data…")
    with BackgroundData(lambda: rule_files(read, lint, book, translations)) as data:
        progress(f"Building the site with {site_generator(options.generator).title}…")
        site = write_book_site(project, book, options, release, read, lint, translations, changes, data.files)
        rule_data = data.files()["rules.json"]
    return BookBuild(book.name, lint, site.pages, site.warnings, book.label, options.generator, rule_data)


def write_book_site(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    release: publish.Release,
    read: ReadResult,
    lint: LintResult,
    translations: Sequence[TranslationResult],
    changes: dict[str, Any] | None,
    rule_files_ready: Callable[[], dict[str, str]],
) -> SiteResult:
    """One book's pages, built by the site generator into its folder of the new release, with its rule data."""
    from rulebook.site.theme import Theme
    from rulebook.site.writer import build_site

    site = site_input(
        project,
        book,
        read,
        lint,
        translations,
        changes,
        drafts=options.drafts,
        generator=options.generator,
        offline=options.offline,
    )
    extra, scripts = _live_reload(options)
    folder = release.folder / book.folder if book.folder else release.folder
    return build_site(
        site,
        theme=Theme.for_project(project.root),
        mkdocs_file=project.root / "mkdocs.yml",
        folder=folder,
        scratch=release.scratch / (book.name if book.folder else MAIN_BOOK),
        extra_files=extra,
        image_folder=image_folder(read.book, project.root),
        extra_javascript=scripts,
        late_files=rule_files_ready,
        book_folder=book.folder,
        site_name=_site_name(book),
        settings=site_settings(project, book),
        cache=release.cache / options.generator / book.name,
    )


def site_input(
    project: Project,
    book: BookConfig,
    read: ReadResult,
    lint: LintResult,
    translations: Sequence[TranslationResult],
    changes: dict[str, Any] | None,
    *,
    drafts: bool,
    generator: str = "mkdocs",
    offline: bool = False,
) -> SiteInput:
    """Everything a book's pages are made from (``drafts``: the editor's view; ``generator``: what builds them;
    ``offline``: pages as files, to be read from disk)."""
    from rulebook.data import build_site_summary
    from rulebook.site.pages import SiteInput, SiteTranslation
    from rulebook.translate.compare import report_context

    terms = lint.terms
    assert terms is not None and not read.book.outline, "pages are made from the whole model"
    images = book_images(read.book, image_folder(read.book, project.root))
    summary = build_site_summary(
        read.book, terms, title=book.display_title, edition=book.edition or "unknown", facts=lint.facts
    )
    return SiteInput(
        read.book,
        terms,
        summary,
        lint.diagnostics,
        set(images.published),
        [
            SiteTranslation(
                t.language,
                t.book,
                t.comparison.pairs,
                t.terms,
                report_context(t.comparison, translation_language=t.language),
            )
            for t in translations
        ],
        refused_images=set(images.refused),
        books=_other_books(project, book),
        changes=changes,
        drafts=drafts,
        generator=generator,
        offline=offline,
    )


def _live_reload(options: BuildOptions) -> tuple[dict[str, str], tuple[str, ...]]:
    """The live-reload script as a file of the site, and the scripts every page loads (``serve``)."""
    if options.live_reload is None:
        return {}, ()
    return {LIVE_RELOAD_FILE: options.live_reload}, (LIVE_RELOAD_FILE,)


LIVE_RELOAD_FILE = "assets/live-reload.js"


def _site_name(book: BookConfig) -> str | None:
    return None if book.name == MAIN_BOOK else book.display_title


def site_settings(project: Project, book: BookConfig) -> dict[str, Any]:
    """What readers see of a book, from the project's configuration, as MkDocs settings.

    Material writes the site's name, description and copyright line into its pages without escaping them:
    they are escaped here, control characters shown as pictures. A value the configuration leaves out is
    left out.
    """
    settings: dict[str, Any] = {"site_name": _escaped(book.display_title), "theme": {"language": book.language}}
    if book.copyright:
        settings["copyright"] = _escaped(book.copyright)
    if book.description:
        settings["site_description"] = _escaped(book.description)
    site_url = book.site_url or (project.main.site_url + book.folder if project.main.site_url else None)
    if site_url:
        settings["site_url"] = site_url
    return settings


def _escaped(text: str) -> str:
    from rulebook.site.escaping import html_text

    return str(html_text(text))


def _other_books(project: Project, book: BookConfig) -> list[dict[str, str]]:
    """The project's other books, with their URLs from this book's site root."""
    up = "../" if book.folder else ""
    return [
        {"title": other.display_title, "href": up + other.folder or "./"}
        for other in project.books
        if other.name != book.name
    ]


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
    from rulebook.fileio import write_atomic

    built = []
    pending: list[tuple[Path, dict[str, str]]] = []
    for book in books:
        checked = _checked(project, book, options, {}, progress, cache)
        if isinstance(checked, BuildResult):
            return checked
        read, lint = checked
        assert lint.terms is not None
        progress("Compiling the rule data…")
        translations = compare_translations(read, book, project.root, cache)
        files = rule_files(read, lint, book, translations)
        pending.append((output / book.folder, files))
        built.append(BookBuild(book.name, lint, label=book.label, rule_data=files["rules.json"]))
    written = []
    with publish.lock(output, root=project.root, wait=progress):
        publish.write_marker(output)
        for folder, files in pending:
            for name, text in sorted(files.items()):
                write_atomic(folder / name, text)
                written.append((folder / name).relative_to(output).as_posix())
        publish.rewritten(output, written, kept=options.kept, root=project.root)
    return BuildResult(output, tuple(built), seconds=time.perf_counter() - started)


# -- serving: an edit recomputes what depends on it ---------------------------------------------------------
#
#     live_books(project, options, cache)     -> LiveBook per book  the stages again, from the cache a build filled
#     live_affected(project, books, changed)  -> LiveAffected       which books an edit touches, and how
#     update_live(project, options, book, ..) -> LiveEdit           read and lint again; the edited chapters' pages,
#                                                                   with the translations and editions the book had
#     finish_live(edit)                       -> LiveBook, change   the book's other pages: all this is what the author
#                                                                   waits for
#     recompute_live(project, options, ..)    -> LiveLater          translations, editions and rule data again, and the
#                                                                   book planned with them (``serve`` runs it aside)
#     apply_live(book, later)                 -> LiveBook, change


def live_books(project: Project, options: BuildOptions, cache: StageCache) -> tuple[LiveBook, ...] | BuildResult:
    """Every book as :func:`build` made it with the same ``cache`` (its stages' results are found there)."""
    from rulebook.build_values import BuildResult, LiveBook
    from rulebook.site.incremental import plan_book_site
    from rulebook.site.theme import Theme

    theme = Theme.for_project(project.root)
    env = theme.environment()
    books: list[LiveBook] = []
    earlier: dict[str, ReadResult] = {}
    for book in _chosen_books(project, options):
        checked = _checked(project, book, options, earlier, _quiet, cache)
        if isinstance(checked, BuildResult):
            return checked
        read, lint = checked
        look = _look(project, book, options, theme, env)
        translations = compare_translations(read, book, project.root, cache)
        changes, problems = changes_since(project, book, read, earlier, cache) if not options.files else (None, ())
        if problems:
            return BuildResult(options.output, refused=problems, sources=read.sources)
        site = plan_book_site(site_input(project, book, read, lint, translations, changes, drafts=look.drafts), look)
        books.append(LiveBook(book, read, lint, translations, changes, site, look))
    return tuple(books)


def _look(project: Project, book: BookConfig, options: BuildOptions, theme: Theme, env: Environment) -> SiteLook:
    from rulebook.site.incremental import SiteLook
    from rulebook.site.writer import mkdocs_settings

    mkdocs_file = project.root / "mkdocs.yml"
    own = site_settings(project, book)
    settings = mkdocs_settings(mkdocs_file, own)
    scripts = _live_reload(options)[1]
    return SiteLook(
        theme, env, mkdocs_file, settings, book.folder, _site_name(book), scripts, options.drafts, own.get("copyright")
    )


def live_affected(project: Project, books: Sequence[LiveBook], changed: Iterable[Path]) -> LiveAffected:
    """What an edit of the ``changed`` files touches (a book's sources, its translations, the look)."""
    from rulebook.build_values import LiveAffected

    paths = {Path(os.path.abspath(path)) for path in changed}
    looks = {project.root / "mkdocs.yml", *([project.config_file] if project.config_file else [])}
    templates = project.root / "site_templates"
    if any(path in {Path(os.path.abspath(p)) for p in looks} or path.is_relative_to(templates) for path in paths):
        return LiveAffected(rebuild=True)

    def touched(files: Iterable[Path | None]) -> bool:
        return any(file is not None and Path(os.path.abspath(file)) in paths for file in files)

    own = tuple(book.config.name for book in books if touched(book.config.sources))
    translated = [
        book.config.name
        for book in books
        for t in book.config.translations
        if touched((t.source, t.terms, t.source.with_name("waivers.toml")))
    ]
    following = [book.config.name for book in books if book.config.changes_from in own]
    return LiveAffected(books=own, later=tuple(dict.fromkeys([*own, *translated, *following])))


def update_live(project: Project, options: BuildOptions, live: LiveBook, cache: StageCache) -> LiveEdit | BuildResult:
    """A book after an edit of its own sources: read and linted again, and the pages of the chapters whose
    text changed made again (with the translations and editions the book had: :func:`recompute_live` brings
    those up to date). A book that cannot be built gives the reason, and the last good one stays."""
    from rulebook.build_values import BuildResult, LiveEdit
    from rulebook.site.incremental import SiteChange, chapter_pages, with_pages
    from rulebook.site.writer import site_plan

    checked = _checked(project, live.config, options, {}, _quiet, cache)
    if isinstance(checked, BuildResult):
        return checked
    read, lint = checked
    if read is live.read and lint is live.lint:
        return LiveEdit(live, read, lint, None, SiteChange(live.site.folder), live.site)
    site = site_input(project, live.config, read, lint, live.translations, live.changes, drafts=live.look.drafts)
    plan = site_plan(site, live.look.theme)
    before = _chapter_texts(live.read.book)
    edited = {i for i, text in _chapter_texts(read.book).items() if before.get(i) != text}
    shown, first = with_pages(live.site, chapter_pages(plan, live.look, live.site.translated, edited))
    return LiveEdit(live, read, lint, plan, first, shown)


def finish_live(edit: LiveEdit) -> tuple[LiveBook, SiteChange]:
    """The whole book after an edit (:func:`update_live`), and what changed besides the edit's first pages."""
    from rulebook.site.incremental import SiteChange, changes_between, plan_book_site

    live = edit.live
    if edit.plan is None:
        return live, SiteChange(live.site.folder)
    site = plan_book_site(edit.plan.site, live.look, translated=live.site.translated, plan=edit.plan)
    return _replace_live(live, read=edit.read, lint=edit.lint, site=site), changes_between(edit.shown, site)


def _chapter_texts(book: Book) -> dict[str, str]:
    """Each chapter's source text (up to the next chapter), by id: an edit's chapters are those it changed."""
    texts = {}
    for document in book.documents:
        for chapter, following in zip(document.body, (*document.body[1:], None), strict=True):
            end = following.offset if following is not None else len(chapter.source.text)
            texts[chapter.id] = chapter.source.text[chapter.offset : end]
    return texts


def recompute_live(
    project: Project, options: BuildOptions, live: LiveBook, books: Sequence[LiveBook], cache: StageCache
) -> LiveLater:
    """A book's translations compared again, its edition diffed again, its rule data made again, and the whole
    book planned with them: what an edit makes stale but the author does not wait for."""
    from rulebook.build_values import LiveLater
    from rulebook.errors import InvalidRuleData
    from rulebook.site.incremental import plan_book_site

    book = live.config
    translations = compare_translations(live.read, book, project.root, cache)
    changes: dict[str, Any] | None = live.changes
    problems: tuple[Diagnostic, ...] = ()
    if not options.files:
        earlier = {other.config.name: other.read for other in books}
        found, problems = changes_since(project, book, live.read, earlier, cache)
        changes = live.changes if problems else found
    files: dict[str, str] = {}
    invalid = None
    try:
        files = rule_files(live.read, live.lint, book, translations)
    except InvalidRuleData as error:
        invalid = str(error)
    site = plan_book_site(
        site_input(project, book, live.read, live.lint, translations, changes, drafts=live.look.drafts),
        live.look,
        files=files,
    )
    return LiveLater(translations, changes, site, problems, invalid)


def apply_live(live: LiveBook, later: LiveLater) -> tuple[LiveBook, SiteChange]:
    """The book with what :func:`recompute_live` gave, and the pages and files that changed."""
    from rulebook.site.incremental import changes_between

    updated = _replace_live(live, translations=later.translations, changes=later.changes, site=later.site)
    return updated, changes_between(live.site, later.site)


def _replace_live(live: LiveBook, **changes: Any) -> LiveBook:
    from dataclasses import replace

    return replace(live, **changes)
