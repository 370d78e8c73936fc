"""Source locations: where in which file a thing was written."""

from __future__ import annotations

import os
import re
from bisect import bisect_right
from collections.abc import Iterable
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import NamedTuple

from rulebook.inputs import not_followed

LINE_END = re.compile(r"\r\n?|\n")
"""What ends a line: ``\\r\\n``, ``\\r`` or ``\\n`` (the XML rule; editors agree)."""
_BLANKS = re.compile(r"\s*")
"""A line's leading blanks: ``str.isspace`` characters, the ones ``str.lstrip`` takes off."""


class Span(NamedTuple):
    """A place in a source file."""

    path: str
    """Repo-relative (or as given) posix path of the file."""
    line: int
    """1-based line number."""
    column: int
    """1-based column, counted in characters (not bytes)."""
    length: int = 0
    """How many characters the span covers on its line (0: a point)."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True, eq=False)
class SourceText:
    """The text of one source file, with fast line lookups.

    ``\\r\\n``, ``\\r`` and ``\\n`` all end a line; columns count characters.
    """

    path: str
    """Display path (posix)."""
    text: str
    """The whole decoded text (without a byte order mark), line ends as written."""
    line_starts: tuple[int, ...] = field(repr=False, default=())
    """Offset of the first character of each line."""

    @classmethod
    def from_text(cls, path: str, text: str) -> SourceText:
        if "\r" not in text:  # the common case, about ten times faster than the expression
            lengths = map(len, text.split("\n"))
            starts = accumulate(lengths, lambda total, length: total + length + 1, initial=0)
            return cls(path, text, tuple(starts)[:-1])
        return cls(path, text, (0, *(match.end() for match in LINE_END.finditer(text))))

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line end."""
        start, end = self.line_bounds(line)
        return self.text[start:end]

    def line_bounds(self, line: int) -> tuple[int, int]:
        """Where a 1-based line starts and ends in :attr:`text` (its line end left out): its text is
        ``text[start:end]``, as :meth:`line_text` gives it, without copying a long line."""
        starts = self.line_starts
        if not 1 <= line <= len(starts):
            return 0, 0
        start, end = starts[line - 1], starts[line] if line < len(starts) else len(self.text)
        while end > start and self.text[end - 1] in "\r\n":
            end -= 1
        return start, end

    def first_nonblank(self, line: int) -> int:
        """Where a 1-based line's first non-blank character stands in :attr:`text` (its end if it is blank):
        found in place, not in a copy of the line (asked once per cell of a row of many)."""
        start, end = self.line_bounds(line)
        found = _BLANKS.match(self.text, start, end)
        return found.end() if found else start

    def line_around(self, offset: int) -> tuple[int, int]:
        """Where the line holding ``offset`` starts and ends, whatever ends it (``\r`` alone too: a search for
        ``\n`` finds none in such a source, and took the file's start or end for the line's)."""
        return self.line_bounds(self.position(offset)[0])

    def lines(self) -> list[str]:
        """Every line's text, without its line end."""
        return LINE_END.split(self.text)

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, column) of a character offset."""
        index = bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1

    def span(self, offset: int, length: int = 0) -> Span:
        line, column = self.position(offset)
        return Span(self.path, line, column, length)

    def spans(self, offsets: Iterable[int]) -> list[Span]:
        """The point span of each offset, as :meth:`span` makes it, in one pass (for many places)."""
        starts, path, new = self.line_starts, self.path, tuple.__new__
        found: list[Span] = []
        for offset in offsets:
            line = bisect_right(starts, offset)
            found.append(new(Span, (path, line, offset - starts[line - 1] + 1, 0)))
        return found


def display_path(path: Path, root: Path | None = None) -> str:
    """A stable posix path for messages: relative to ``root`` (default: cwd) when inside it."""
    base = (root or Path.cwd()).resolve()
    resolved = path.resolve()
    absolute, lexical_base = Path(os.path.abspath(path)), Path(os.path.abspath(root or Path.cwd()))
    inside = absolute.is_relative_to(lexical_base)
    try:
        shown = resolved.relative_to(base)
        if (inside and shown == absolute.relative_to(lexical_base)) or not_followed(shown, base) is None:
            return shown.as_posix()
    except ValueError:
        pass
    if inside:  # a link inside the project that leads out of it, or where no link is followed: the link is named
        return absolute.relative_to(lexical_base).as_posix()
    return path.as_posix()


class BadBytes(NamedTuple):
    """Where bytes stop being UTF-8: the text so far is exact, the rest shows U+FFFD for bad bytes."""

    text: str
    """The whole file decoded with each invalid byte sequence replaced by U+FFFD."""
    offset: int
    """Character offset (in ``text``) of the first invalid byte."""
    byte: int
    """The first invalid byte."""


def decode_utf8(data: bytes) -> str | BadBytes:
    """UTF-8 bytes as text (a leading byte order mark dropped), or where they stop being UTF-8."""
    body = data[len(BOM) :] if data.startswith(BOM) else data
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError as error:
        # The bytes before the first bad one are valid: their character count is the offset.
        offset = len(body[: error.start].decode("utf-8"))
        return BadBytes(body.decode("utf-8", errors="replace"), offset, body[error.start])


BOM = b"\xef\xbb\xbf"
"""The UTF-8 byte order mark, accepted at the start of a source and not part of its text."""


_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def not_xml(text: str) -> int | None:
    """Where ``text`` first holds a character XML 1.0 forbids (most C0 controls, the non-characters), or None."""
    found = _NOT_XML.search(text)
    return found.start() if found else None


def xml_text(text: str) -> str:
    """``text`` as XML 1.0 may hold it: each character it forbids (most C0 controls) shown by its control picture
    (U+0001 as ``␁``), the non-characters by U+FFFD. A terminology refuses them; a title or a heading of a
    Markdown source may still hold one."""
    return _NOT_XML.sub(lambda found: chr(0x2400 + ord(c)) if (c := found.group()) < " " else "\ufffd", text)
