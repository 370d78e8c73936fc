"""The reading: which reader reads which file, and the book a command's sources make.

XML goes to :mod:`rulebook.xml_source` (whole, or as an *outline* for the lint), Markdown to
:mod:`rulebook.markdown_source` (its terms found from the configuration, headings or emphasis when it
marks none), the plain-text export to :mod:`rulebook.text_source`. A file named on the command line
is read only when the configuration names it or it declares itself a rulebook.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rulebook import memory
from rulebook.diagnostics import Diagnostic
from rulebook.errors import UserError
from rulebook.inputs import UnreadableInput, read_input
from rulebook.memory import gc_frozen
from rulebook.model import Book
from rulebook.project import BookConfig, Linking, Project
from rulebook.recipe.cache import NO_CACHE, StageCache, digest
from rulebook.source import SourceText, display_path
from rulebook.stage_values import ReadResult
from rulebook.xml_source import SourceResult, read_xml_file


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
    cache: StageCache = NO_CACHE,
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

    if cache is NO_CACHE:
        return read()  # no key to make: that would read and hash every source once more
    key = digest(*paths, *map(str, paths), repr(book.linking), book.language, str(outline))
    return cache.get("read", key, read)


READABLE_SUFFIXES = (".xml", ".md", ".markdown", ".txt")
"""The kinds of source the readers read: XML, Markdown, the plain-text export."""
_DECLARATION = re.compile(r"^<!--\s*rulebook\b", re.MULTILINE)
_TEXT_EXPORT = re.compile(r"^\(Rule\)\s*\n+Description:", re.MULTILINE)


def _configured(project: Project, path: Path) -> bool:
    return project.book_of(path) is not None or project.translation_of(path) is not None


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
