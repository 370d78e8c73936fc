"""What ``rulebook build`` and ``serve`` pass between their stages: the options, each book's build, the result,
and ``serve``'s state of a book (:mod:`rulebook.recipe` runs the stages; only a build or ``serve`` imports this).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rulebook.diagnostics import Diagnostic
    from rulebook.languages.data import Language
    from rulebook.model import Book
    from rulebook.project import BookConfig
    from rulebook.site.incremental import BookSite, SiteChange, SiteLook
    from rulebook.site.pages import SitePlan
    from rulebook.source import SourceText
    from rulebook.stage_values import LintResult, ReadResult
    from rulebook.translate.compare import Comparison
    from rulebook.translate.status import TranslationStatus
    from rulebook.translate.terminology import Entry


@dataclass(frozen=True, slots=True)
class TranslationResult:
    """A configured translation, read, aligned and compared once for the whole build."""

    language: str
    comparison: Comparison
    terms: dict[str, Entry]
    book: Book
    status: TranslationStatus | None = None
    """Which translated sections are out of date against the latest edition of the original (None: an edition
    could not be read)."""
    words: Language | None = None
    """The translation's language as compared (the shipped one, with the project's language file over it)."""


@dataclass(frozen=True, slots=True)
class BookStages:
    """A book through every stage its outputs are made from (:func:`rulebook.recipe.book_stages`)."""

    config: BookConfig
    read: ReadResult
    lint: LintResult
    translations: tuple[TranslationResult, ...]
    changes: dict[str, Any] | None
    """What changed since the edition the book follows (its "What changed" page), if it follows one."""


@dataclass(frozen=True, slots=True)
class BuildOptions:
    """What ``rulebook build`` (and ``serve``) is asked to do."""

    output: Path
    books: tuple[str, ...] | None = None
    """The names of the books to build (None: every book)."""
    files: tuple[Path, ...] = ()
    """Sources named on the command line: built as one book, instead of the configuration's."""
    data_only: bool = False
    drafts: bool = False
    """The editor's view: lint marks, the lint and translation reports and the term graph on the site."""
    live_reload: str | None = None
    """A script added to every page that reloads it when the site changes (``serve``)."""
    generator: str = "mkdocs"
    """What builds the site from the pages: ``mkdocs`` or ``zensical`` (the project's ``generator``)."""
    offline: bool = False
    """A site to read from disk (``site/index.html`` opened in a browser): pages as files, search included."""
    pdf: bool = False
    """Whether each book's PDF is made too (the print edition: ``rulebook build`` unless ``--no-pdf``)."""
    pdf_only: bool = False
    """Make only the PDFs, written into the published site (``--pdf-only``)."""
    kept: Path | None = None
    """Where the builds into ``output`` keep what they reuse (the generator's cache, the record of the published
    site); None: a folder for ``output`` in the user's cache folder (:func:`rulebook.state.kept_folder`)."""
    strict: bool = False
    """Publish nothing when the lint finds errors the baseline does not list (``--strict``): the last good site
    stays, as after a failed build."""


@dataclass(frozen=True, slots=True)
class BookBuild:
    """What building one book gave."""

    name: str
    lint: LintResult
    pages: int = 0
    warnings: tuple[str, ...] = ()
    """What the site generator warned about (broken links and anchors would show here)."""
    label: str = ""
    """The book as messages name it (:attr:`BookConfig.label`)."""
    generator: str = "mkdocs"
    """What built the site (``mkdocs`` or ``zensical``): the warnings are its own."""
    rule_data: str = ""
    """The ``rules.json`` written, as checked against its schema."""
    pdfs: tuple[str, ...] = ()
    """The PDFs written, from the book's folder (``name.pdf``, ``fr/name-fr.pdf``)."""
    pdf_warnings: tuple[str, ...] = ()
    """What Typst warned about."""


@dataclass(frozen=True, slots=True)
class BuildResult:
    """What a build gave: each book's result, or the reason nothing was published."""

    output: Path
    books: tuple[BookBuild, ...] = ()
    refused: tuple[Diagnostic, ...] = ()
    """Why the build stopped before publishing (sources that cannot be read, unsafe names)."""
    sources: dict[str, SourceText] = field(default_factory=dict)
    """The sources ``refused`` points into."""
    seconds: float = 0.0
    withheld: tuple[tuple[str, int], ...] = ()
    """Under ``strict``: the book whose lint found new errors, and how many; nothing was published."""

    @property
    def published(self) -> bool:
        return not self.refused and not self.withheld

    @property
    def pages(self) -> int:
        return sum(book.pages for book in self.books)

    @property
    def pdfs(self) -> int:
        return sum(len(book.pdfs) for book in self.books)


@dataclass(frozen=True, slots=True)
class LiveBook(BookStages):
    """A book as ``serve`` last built it (its stages, and the site planned from them): where the next edit's
    step starts from."""

    site: BookSite
    """The pages and files being served, with each translation's site (``site.translated``)."""
    look: SiteLook
    """The theme, its loaded templates and the MkDocs settings the pages are made with."""


@dataclass(frozen=True, slots=True)
class LiveLater:
    """What recomputing a book's translations, editions and rule data gave."""

    translations: tuple[TranslationResult, ...]
    changes: dict[str, Any] | None
    site: BookSite
    """The whole book planned with them, ``rules.json`` included."""
    problems: tuple[Diagnostic, ...] = ()
    """Why the previous edition could not be compared (the "What changed" page is kept as it was)."""
    invalid_data: str | None = None
    """Why the rule data failed its schema (``rules.json`` is kept as it was)."""


@dataclass(frozen=True, slots=True)
class LiveEdit:
    """A book read and linted again after an edit of its sources, its pages planned in two steps: the
    pages of the chapters whose text changed at once (``first``), the whole book by :func:`finish_live`."""

    live: LiveBook
    """The book before the edit."""
    read: ReadResult
    lint: LintResult
    plan: SitePlan | None
    """Where everything is on the new site (``None``: the sources are as they were)."""
    first: SiteChange
    """The edited chapters' pages, planned alone."""
    shown: BookSite
    """The site once ``first`` is written."""
