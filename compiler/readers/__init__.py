"""The readers' shared contract: what reading one source gives, how its bytes are decoded, the limits.

Every reader (XML in :mod:`rulebook.xml_source`, the Markdown dialect in :mod:`rulebook.readers.markdown`,
plain Markdown in :mod:`rulebook.markdown_source`, the plain-text export in :mod:`rulebook.text_source`)
returns a :class:`SourceResult`; which reader reads which file is the table of formats,
:mod:`rulebook.readers.formats`.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from rulebook.catalog.reading import NESTING_TOO_DEEP, UNREADABLE_SOURCE
from rulebook.diagnostics import Diagnostic
from rulebook.inputs import MAX_SOURCE_BYTES, UnreadableInput, read_input
from rulebook.model import MAX_DEPTH, Document
from rulebook.source import BadBytes, SourceText, Span, decode_utf8

_DECLARED_ENCODING = re.compile(r"""<\?xml\s[^>]*?\bencoding\s*=\s*(["'])(?P<name>[^"'>]*)\1""")
_UTF8_NAMES = {"utf-8", "utf8"}


@dataclass(frozen=True, slots=True)
class SourceResult:
    """What reading one source gave: a document (unless fatal) and diagnostics."""

    document: Document | None
    diagnostics: tuple[Diagnostic, ...]
    source: SourceText | None


def unreadable(display: str, reason: str) -> SourceResult:
    """The result for a source file that could not be read at all."""
    message = f"cannot read `{display}`: {reason}"
    diagnostic = UNREADABLE_SOURCE.diagnostic(message, Span(display, 1, 1), target=display)
    return SourceResult(None, (diagnostic,), None)


def read_text_source(
    path: Path,
    display: str,
    parse: Callable[[str, str], SourceResult],
    *,
    root: Path | None = None,
    limit: int = MAX_SOURCE_BYTES,
    kind: str = "source",
    refuse: Callable[[bytes, str], Diagnostic | None] | None = None,
) -> SourceResult:
    """A UTF-8 source file (Markdown, the plain-text export) read and parsed by ``parse(text, display)``
    (``root``: the project, when the file is one of its own; ``limit``, ``kind``: its kind's size limit and name;
    see :func:`~rulebook.inputs.read_input`); ``refuse(data, display)``: a refusal of its bytes before they are
    decoded, or None (a Markdown source's lines: :func:`rulebook.readers.markdown_limits.lines_past`)."""
    try:
        data = read_input(path, root=root, limit=limit, kind=kind)
    except UnreadableInput as error:
        return unreadable(display, error.reason)
    refused = refuse(data, display) if refuse is not None else None
    if refused is not None:
        return SourceResult(None, (refused,), None)
    source, problem = decode_source(data, display)
    if problem is not None:
        return SourceResult(None, (problem,), source)
    return parse(source.text, display)


def decode_source(data: bytes, path: str, *, xml: bool = False) -> tuple[SourceText, Diagnostic | None]:
    """A source's text, and why it cannot be read if it cannot: bytes that are not UTF-8, or
    (``xml``) a declaration naming another encoding, located where they stand."""
    decoded = decode_utf8(data)
    source = SourceText.from_text(path, decoded.text if isinstance(decoded, BadBytes) else decoded)
    declared = _DECLARED_ENCODING.match(source.text) if xml else None
    if declared is not None and declared.group("name").lower() not in _UTF8_NAMES:
        name = declared.group("name")
        message = f"the XML declaration names the encoding `{name}`; sources are read as UTF-8"
        help = 'save the file as UTF-8 and declare `encoding="UTF-8"`, or no encoding'
        span = source.span(declared.start("name"), len(name))
        return source, UNREADABLE_SOURCE.diagnostic(message, span, target=name, help=help)
    if isinstance(decoded, BadBytes):
        message = f"the file is not valid UTF-8 text: byte `0x{decoded.byte:02x}` here is not part of a character"
        span = source.span(decoded.offset, 1)
        return source, UNREADABLE_SOURCE.diagnostic(message, span, target=path, help="save the file as UTF-8")
    return source, None


class TooDeep(Exception):
    """A node would be nested deeper than ``MAX_DEPTH``: the source is refused (:func:`nesting_too_deep`)."""

    def __init__(self, what: str, offset: int) -> None:
        super().__init__(what)
        self.what = what
        self.offset = offset


def nesting_too_deep(span: Span, what: str) -> Diagnostic:
    """The refusal of a source that nests ``what`` (a quoted ``<note>``, or ``a section``) too deep."""
    return NESTING_TOO_DEEP.diagnostic(
        f"{what} is nested more than {MAX_DEPTH} deep",
        span,
        help=f"nest at most {MAX_DEPTH} levels deep, counting the document as the first",
    )
