"""The table of source formats: which reader reads a file, how a file says it is a rulebook, the help.

A file's format is the one its configuration names (``format`` of a book or a translation), else the
one its suffix reads by default. Adding a format is one :class:`SourceFormat` in :data:`FORMATS` (and its
name in :data:`rulebook.project.SOURCE_FORMATS`, which the configuration checks without loading readers): its
reader, its suffixes, how a file declares itself a rulebook, and how it gets terms when it marks none.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulebook.project import Linking
from rulebook.readers import SourceResult
from rulebook.readers.linking import plain_terms, unmarked_terms

_DECLARATION = re.compile(r"^<!--\s*rulebook\b", re.MULTILINE)
"""How a Markdown or text file says it is a rulebook: ``<!-- rulebook -->`` on a line of its own."""
_TEXT_EXPORT = re.compile(r"^\(Rule\)\s*\nDescription:", re.MULTILINE)
"""How the plain-text export starts a rule. ``\\s*\\n`` is the white space up to a line's end, tried once from each end
of a line in it: ``\\s*\\n+`` split a run of line ends between its two parts every way (`rulebook lint notes.txt`
of ``(Rule)`` and 100,000 blank lines took 3.4 s, a megabyte minutes)."""


@dataclass(frozen=True, slots=True)
class ReadRequest:
    """One file to read, and how."""

    path: Path
    shown: str
    """The path shown in messages."""
    language: str
    root: Path | None
    outline: bool = False
    """For the lint only (the XML reader reads an outline; the others read the whole either way)."""


@dataclass(frozen=True, slots=True)
class SourceFormat:
    """One kind of source the compiler reads."""

    name: str
    """The name a configuration gives it (``format = "markdown"``)."""
    suffixes: tuple[str, ...]
    """The file names' endings it reads by default (lower case; empty: only when configured)."""
    read: Callable[[ReadRequest], SourceResult]
    declares: Callable[[str], bool]
    """Whether a file's text says it is a rulebook (for files named on the command line only)."""
    declaration: str
    """How a file of this format says it is a rulebook, for the help of a file that does not."""
    description: str
    """What the format is, for messages and ``docs/format.md``."""
    noun: str
    """The kind of file, as a list of the kinds names it ("XML", "Markdown")."""
    terms: Callable[[SourceResult, Linking | None], SourceResult] | None = None
    """How a source of this format that marks no terms gets them (its book's ``linking``; None for a translation):
    :mod:`rulebook.readers.linking`. None: the source marks its terms."""


def _read_xml(request: ReadRequest) -> SourceResult:
    from rulebook.xml_source import read_xml_file

    return read_xml_file(
        request.path, request.shown, language=request.language, outline=request.outline, root=request.root
    )


def _read_dialect(request: ReadRequest) -> SourceResult:
    from rulebook.readers.markdown import read_dialect_file

    return read_dialect_file(request.path, request.shown, language=request.language, root=request.root)


def _read_plain_markdown(request: ReadRequest) -> SourceResult:
    from rulebook.markdown_source import read_markdown_file

    return read_markdown_file(request.path, request.shown, language=request.language, root=request.root)


def _read_text_export(request: ReadRequest) -> SourceResult:
    from rulebook.text_source import read_text_file

    return read_text_file(request.path, request.shown, language=request.language, root=request.root)


def _declared(text: str) -> bool:
    return bool(_DECLARATION.search(text))


FORMATS: tuple[SourceFormat, ...] = (
    SourceFormat(
        "xml",
        (".xml",),
        _read_xml,
        lambda text: True,  # XML says what it is by its root, which the reader checks
        "a `<document>` root",
        "the XML format (`rulebook dtd`)",
        "XML",
    ),
    SourceFormat(
        "markdown",
        (".md", ".markdown"),
        _read_dialect,
        _declared,  # not front matter: many a README and docs page has some
        "`<!-- rulebook -->` on a line of its own",
        "the Markdown dialect (`rulebook docs format`)",
        "Markdown",
        unmarked_terms,
    ),
    SourceFormat(
        "plain-markdown",
        (),
        _read_plain_markdown,
        _declared,
        "`<!-- rulebook -->` on a line of its own",
        "Markdown without markup, as a PDF's conversion leaves it (levels from printed numbers, tab-separated "
        "tables) or as another game writes it (terms from its headings)",
        "plain Markdown",
        plain_terms,
    ),
    SourceFormat(
        "text-export",
        (".txt",),
        _read_text_export,
        lambda text: _declared(text) or bool(_TEXT_EXPORT.search(text)),
        "`(Rule)` then `Description:`, or `<!-- rulebook -->` on a line of its own",
        "the plain-text rules export",
        "the plain-text export",
    ),
)
"""Every source format, the default for each suffix first among those that read it."""

READABLE_SUFFIXES = tuple(suffix for source_format in FORMATS for suffix in source_format.suffixes)
"""The file names' endings some reader reads by default."""


def format_named(name: str) -> SourceFormat:
    """The format of that name (a configuration's ``format``, checked by the configuration)."""
    return next(f for f in FORMATS if f.name == name)


def format_of(path: Path, configured: str | None = None) -> SourceFormat | None:
    """The format a file is read in: the configured one, else its suffix's; None for a suffix no reader reads."""
    if configured is not None:
        return format_named(configured)
    suffix = path.suffix.lower()
    return next((f for f in FORMATS if suffix in f.suffixes), None)
