"""The reading: which reader reads which file, and the book a command's sources make.

The reader is the file's format (:mod:`rulebook.readers.formats`): the one its book or translation
configures, else its suffix's. XML is read whole, or as an *outline* for the lint; Markdown that marks no
terms gets them from the configuration, headings or emphasis. A file named on the command line is read
only when the configuration names it or it declares itself a rulebook.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulebook import memory
from rulebook.diagnostics import Diagnostic
from rulebook.errors import UserError
from rulebook.inputs import UnreadableInput, read_input
from rulebook.memory import gc_frozen
from rulebook.model import Book
from rulebook.project import BookConfig, Linking, Project, Translation
from rulebook.readers import SourceResult
from rulebook.readers.formats import FORMATS, ReadRequest, format_named, format_of
from rulebook.recipe.cache import NO_CACHE, StageCache, digest
from rulebook.source import SourceText, display_path
from rulebook.stage_values import ReadResult


def read_book(
    paths: Sequence[Path],
    root: Path | None = None,
    *,
    language: str = "en",
    linking: Linking | None = None,
    outline: bool = False,
    source_format: str | None = None,
) -> ReadResult:
    """Read every source; unreadable or malformed files give fatal diagnostics and are left out.

    ``linking``: how a Markdown source that marks no terms gets them (its book's configuration; None
    for a translation, which is linked through its terminology). ``outline``: XML sources are read for
    the lint only (every name, id and place, no content; see :mod:`rulebook.xml_source`); Markdown and
    text sources are read whole either way. ``source_format``: the format configured for every source
    (None: each file's suffix says).
    """
    documents = []
    diagnostics: list[Diagnostic] = []
    sources: dict[str, SourceText] = {}
    with gc_frozen():
        for path in paths:
            request = ReadRequest(path, display_path(path, root), language, root, outline)
            result = _read_source(request, linking, source_format)
            diagnostics.extend(result.diagnostics)
            if result.source is not None:
                sources[result.source.path] = result.source
            if result.document is not None:
                documents.append(result.document)
    if sum(len(source.text) for source in sources.values()) > memory.BIG:
        memory.release_freed_memory()  # the parsed trees are gone: what follows need not pile up on their pages
    return ReadResult(Book(tuple(documents)), tuple(diagnostics), sources)


def _read_source(request: ReadRequest, linking: Linking | None, source_format: str | None) -> SourceResult:
    """One source, read through :func:`~rulebook.inputs.read_input` (nothing through a link out of the root)."""
    found = format_of(request.path, source_format)
    if found is None:  # a name no format's ending: XML if it reads as XML (it says what it is by its root)
        unread = _not_xml(request)
        if unread is not None:
            return unread
        found = format_named("xml")
    result = found.read(request)
    return found.terms(result, linking) if found.terms is not None else result


def _not_xml(request: ReadRequest) -> SourceResult | None:
    """A source whose name's ending no format reads and whose text is not XML, refused as not a rulebook source
    (`book.mdown` was read as XML: "start tag expected", and the help to fix the XML); None to read it as XML."""
    from rulebook.catalog.reading import NOT_A_RULEBOOK
    from rulebook.source import Span

    try:
        text = read_input(request.path, root=request.root).decode("utf-8-sig", errors="replace")
    except UnreadableInput:
        return None  # the reader says why it cannot be read
    if text.lstrip().startswith("<") and not any(f.declares(text) for f in FORMATS if f.name != "xml"):
        return None  # not `<!-- rulebook -->`, which declares Markdown
    ending = f"`{request.path.suffix}`" if request.path.suffix else "no ending"
    diagnostic = NOT_A_RULEBOOK.diagnostic(
        f"`{request.shown}` is not read: no source format reads a name with {ending}",
        Span(request.shown, 1, 1),
        target=request.shown,
        help=f"{_not_a_rulebook_help(request.path)}: rename it, or name its format in the configuration "
        '(`format = "markdown"`)',
    )
    return SourceResult(None, (diagnostic,), SourceText.from_text(request.shown, text))


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
        found = read_book(
            paths,
            project.root,
            language=book.language,
            linking=book.linking,
            outline=outline,
            source_format=book.format,
        )
        return own_names(found, book.name)

    if cache is NO_CACHE:
        return read()  # no key to make: that would read and hash every source once more
    key = digest(*paths, *map(str, paths), repr(book.linking), book.language, str(outline), str(book.format), book.name)
    return cache.get("read", key, read)


def own_names(read: ReadResult, name: str, original: ReadResult | None = None) -> ReadResult:
    """The book as read, its references and links that put the book's own name before a name it has written as its
    own (``[[main:sprint]]`` in the book ``main``: :func:`~rulebook.readers.linking.own_prefix_dropped`; a
    translation's, as its ``original`` has them)."""
    from dataclasses import replace

    from rulebook.readers.linking import own_prefix_dropped

    book = own_prefix_dropped(read.book, name, original.book if original is not None else None)
    return read if book is read.book else replace(read, book=book)


def titled(book: BookConfig, read: ReadResult) -> BookConfig:
    """The book, titled by its sources (a Markdown book's front matter or single ``#`` heading, an XML
    ``<document title>``) when its configuration gives no title."""
    if book.title is not None:
        return book
    title = next((document.title for document in read.book.documents if document.title), None)
    if title is None:
        return book
    from dataclasses import replace

    return replace(book, title=title)


def translation_title(translation: Translation, translated: Book) -> str | None:
    """A translation's title, by the book's rule (:func:`titled`): the configuration's (``[translations.de] title``)
    wins over the one its source gives (a Markdown translation's front matter or single ``#`` heading)."""
    if translation.title is not None:
        return translation.title
    return next((document.title for document in translated.documents if document.title), None)


def configured_format(project: Project, path: Path) -> str | None:
    """The format the configuration gives a file (as a book's source or a translation), if any."""
    book = project.book_of(path)
    translation = project.translation_of(path) if book is None else None
    return book.format if book is not None else translation.format if translation is not None else None


def _configured(project: Project, path: Path) -> bool:
    return project.book_of(path) is not None or project.translation_of(path) is not None


def _declares_a_rulebook(path: Path, root: Path) -> bool:
    """Whether a file its format reads says it is a rulebook (XML by its root, which the reader checks;
    Markdown and text by a declaration); any other kind of file (a configuration, a DTD) is not one."""
    found = format_of(path)
    if found is None:
        return False
    try:
        text = read_input(path, root=root).decode("utf-8-sig", errors="replace")  # a byte order mark is not text
    except UnreadableInput:
        return True  # the reader says why it cannot be read
    return found.declares(text)


def _not_a_rulebook_help(path: Path) -> str:
    found = format_of(path)
    if found is not None:
        return f"name it in the configuration's `sources`, or give it {found.declaration}"
    kinds = [f"{f.noun} ({', '.join(f.suffixes)})" for f in FORMATS if f.suffixes]
    return f"rulebook sources are {', '.join(kinds[:-1])} or {kinds[-1]}"


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
                help=_not_a_rulebook_help(path),
            )
        )
        try:
            text = read_input(path, root=root).decode("utf-8", errors="replace")
        except UnreadableInput:
            text = ""  # nothing of a file that may not be read is shown
        sources[shown] = SourceText.from_text(shown, text)
    return ReadResult(Book(()), tuple(diagnostics), sources)
