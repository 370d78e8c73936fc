"""Text from a source made safe to show on a terminal or in a CI log.

A source may hold any character, and its names and lines reach the reports: an ESC
or BEL would drive the reader's terminal, a bidirectional override would reorder
what they read. As rustc does, each such character is shown by a visible stand-in of
the same width, so a caret under a line still points where it should: the C0
controls and DEL by their Unicode control pictures (ESC is ``␛``, BEL ``␇``), the C1
controls, the bidirectional controls and the line and paragraph separators (U+2028, U+2029) by
U+FFFD (``�``). The bidirectional controls are
every character of Unicode's ``Bidi_Control`` property: the embeddings, overrides and
isolates (U+202A-202E, U+2066-2069), and the marks (U+200E, U+200F, U+061C), which reorder
too (a right-to-left mark before ``1, 2`` shows ``2 ,1``). Invisible characters with a
typographic task and no reordering (the soft hyphen, zero-width joiners and spaces, the word
joiner, U+FEFF) are text, left as they are. A name from a source can also be
huge (a one-line token of 50 MB): in a message it is cut in its middle. JSON and SARIF
reports are data and keep every string exact (JSON escapes the C0 controls itself).
"""

from __future__ import annotations

import re
import sys
from typing import Any, TextIO, cast

from rulebook.characters import UNPRINTABLE, character_class
from rulebook.errors import shorten
from rulebook.masked import masked

NAME_LIMIT = 60
"""Longest name (a backticked part of a message) shown whole."""
MESSAGE_LIMIT = 400
"""Longest message shown whole."""
_NAME = re.compile(r"`([^`]*)`")

_VISIBLE: dict[int, str] = (
    {code: chr(0x2400 + code) for code in range(0x20)}
    | {0x7F: "\u2421"}
    | dict.fromkeys((code for code in UNPRINTABLE if code >= 0x80), "\ufffd")
)
"""Each character of :data:`rulebook.characters.UNPRINTABLE` and its picture: a text kept whole keeps the line and
paragraph separators, as it keeps its line ends (a snippet's line broke in two, its caret under the wrong one)."""


_VISIBLE_IN_TEXT = {code: shown for code, shown in _VISIBLE.items() if chr(code) not in "\t\n\r\u2028\u2029"}


SHOWN_OTHERWISE = re.compile(character_class(_VISIBLE_IN_TEXT))
"""Any character :func:`visible_in_text` replaces (most texts hold none: a search is cheaper than a translation)."""


def visible_in_text(text: str) -> str:
    """As :func:`visible`, keeping tabs and line ends: for text shown as a whole (a page, a report)."""
    return text.translate(_VISIBLE_IN_TEXT)


def visible(text: str) -> str:
    """``text`` with each control character replaced by one visible character."""
    return text.translate(_VISIBLE)


LINE_LIMIT = 4 * MESSAGE_LIMIT
"""Longest line of an error or a warning shown whole (a path or a value quoted from bad input can be huge)."""
LINES_LIMIT = 40
"""Most lines of an error or a warning shown."""


def terminal_message(message: str) -> str:
    """An error or a warning of the command line as shown: each line's control characters made visible and the
    line cut in its middle past :data:`LINE_LIMIT`, at most :data:`LINES_LIMIT` lines. The safety net under every
    message that quotes a file name, a configuration value or a file's content; a value a configuration took from
    the environment is masked (:func:`rulebook.masked.masked`: ``INHERIT: !ENV SECRET`` was quoted whole)."""
    lines = masked(message).split("\n")
    if len(lines) > LINES_LIMIT:
        lines = [*lines[: LINES_LIMIT - 1], f"… ({len(lines) - LINES_LIMIT + 1} more lines)"]
    return "\n".join(visible(shorten(line, LINE_LIMIT)) for line in lines)


def readable(message: str) -> str:
    """A message for people: long names and the message itself cut in their middle, controls made visible."""
    message = shorten(message, 4 * MESSAGE_LIMIT)  # keeps both ends: a cut name keeps its backticks
    message = _NAME.sub(lambda name: f"`{shorten(name.group(1), NAME_LIMIT)}`", message)
    return visible(shorten(message, MESSAGE_LIMIT))


class VisibleStream:
    """Standard error as every command writes it: each control character shown as its picture
    (:func:`visible_in_text`), whatever printed the text. A line may quote a file name from the command line,
    a title or a path (``Wrote 3 problems to o\\x1b[2Jut.json``): no print of it sends ESC or a bidirectional
    control to the terminal. Text this tool colours itself, made visible part by part first, goes to
    :attr:`painted` (:func:`painted_stderr`)."""

    def __init__(self, stream: TextIO) -> None:
        self.painted = stream
        """The stream itself."""

    @classmethod
    def over(cls, stream: TextIO) -> TextIO:
        """``stream`` behind a :class:`VisibleStream` (once)."""
        return cast(TextIO, stream if isinstance(stream, cls) else cls(stream))

    def write(self, text: str) -> int:
        self.painted.write(visible_in_text(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.painted, name)


def painted_stderr() -> TextIO:
    """Standard error for text this tool coloured with ANSI codes, each part of it already made visible."""
    stream: Any = sys.stderr
    return stream.painted if isinstance(stream, VisibleStream) else sys.stderr
