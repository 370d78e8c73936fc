"""The order of stages. Each returns what the next one takes; only here are they chained.

read_book(paths)          -> ReadResult   (documents + reading diagnostics)
build_term_graph(book)    -> TermGraph
lint(read, config)        -> LintResult   (every diagnostic, configured severities)
"""

from __future__ import annotations

import gc
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.assets import available_images, image_folder
from compiler.config import Config, Linking
from compiler.diagnostics import Diagnostic, Severity
from compiler.graph import TermGraph
from compiler.lint import apply_settings, run_book_rules
from compiler.lint.base import LintInput
from compiler.model import Book, Document
from compiler.source import SourceText, display_path

if TYPE_CHECKING:  # lxml is imported only to read XML: the engine's commands never load it
    from compiler.xml_source import SourceResult


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
    diagnostics: tuple[Diagnostic, ...]
    """Every finding, in report order, with configured severities."""
    sources: dict[str, SourceText]
    files: int
    terms: TermGraph | None = None
    """The term graph the rules ran on (None when reading failed), for the stages after the lint."""


@contextmanager
def gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building large acyclic structures.

    The model is made of tuples that never form cycles; with the collector on,
    building a big book triggers full collections over an ever larger heap and
    costs more than the building itself (measured: about 2x on the 100x book).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def read_book(
    paths: Sequence[Path], root: Path | None = None, *, language: str = "en", linking: Linking | None = None
) -> ReadResult:
    """Read every source; unreadable or malformed files give fatal diagnostics and are left out.

    ``linking``: how a Markdown source that marks no terms gets them (its book's configuration).
    """
    with gc_paused():
        return _read_book(paths, root, language, linking)


def _read_book(paths: Sequence[Path], root: Path | None, language: str, linking: Linking | None) -> ReadResult:
    documents: list[Document] = []
    diagnostics: list[Diagnostic] = []
    sources: dict[str, SourceText] = {}
    for path in paths:
        shown = display_path(path, root)
        if path.suffix.lower() in (".md", ".markdown"):
            from compiler.markdown_source import read_markdown_file  # imported only for Markdown sources

            result = find_terms(read_markdown_file(path, shown, language=language), linking)
        elif path.suffix.lower() == ".txt":
            from compiler.text_source import read_text_file

            result = read_text_file(path, shown, language=language)
        else:
            from compiler.xml_source import read_xml_file

            result = read_xml_file(path, shown, language=language)
        diagnostics.extend(result.diagnostics)
        if result.source is not None:
            sources[shown] = result.source
        if result.document is not None:
            documents.append(result.document)
    return ReadResult(Book(tuple(documents)), tuple(diagnostics), sources)


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
    from compiler.autolink import emphasis_terms, heading_terms, link_document
    from compiler.xml_source import SourceResult

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


def build_term_graph(book: Book) -> TermGraph:
    return TermGraph(book)


def lint(read: ReadResult, config: Config) -> LintResult:
    """Every diagnostic for a book: reading problems, then the book rules (unless reading failed)."""
    found = list(read.diagnostics)
    terms = None
    with gc_paused():
        if not read.fatal:
            images = available_images(image_folder(read.book, config.root))
            terms = build_term_graph(read.book)
            found.extend(run_book_rules(LintInput(read.book, terms, images)))
        diagnostics = apply_settings(found, config.severities)
    return LintResult(tuple(diagnostics), read.sources, len(read.sources) or len(read.book.documents), terms)
