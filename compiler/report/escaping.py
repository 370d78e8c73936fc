"""Text from a source made safe to show on a terminal or in a CI log.

A source may hold any character, and its names and lines reach the reports: an ESC
or BEL would drive the reader's terminal, a bidirectional override would reorder
what they read. As rustc does, each such character is shown by a visible stand-in of
the same width, so a caret under a line still points where it should: the C0
controls and DEL by their Unicode control pictures (ESC is ``␛``, BEL ``␇``), the C1
controls and the bidirectional controls by U+FFFD (``�``). A name from a source can also be
huge (a one-line token of 50 MB): in a message it is cut in its middle. JSON and SARIF
reports are data and keep every string exact (JSON escapes the C0 controls itself).
"""

from __future__ import annotations

import re

NAME_LIMIT = 60
"""Longest name (a backticked part of a message) shown whole."""
MESSAGE_LIMIT = 400
"""Longest message shown whole."""
_NAME = re.compile(r"`([^`]*)`")

_BIDI_CONTROLS = (*range(0x202A, 0x202F), *range(0x2066, 0x206A))
_VISIBLE: dict[int, str] = (
    {code: chr(0x2400 + code) for code in range(0x20)}
    | {0x7F: "\u2421"}
    | dict.fromkeys((*range(0x80, 0xA0), *_BIDI_CONTROLS), "\ufffd")
)


_VISIBLE_IN_TEXT = {code: shown for code, shown in _VISIBLE.items() if chr(code) not in "\t\n\r"}


def visible_in_text(text: str) -> str:
    """As :func:`visible`, keeping tabs and line ends: for text shown as a whole (a page, a report)."""
    return text.translate(_VISIBLE_IN_TEXT)


def visible(text: str) -> str:
    """``text`` with each control character replaced by one visible character."""
    return text.translate(_VISIBLE)


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters by an ellipsis in the middle, keeping both ends."""
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def readable(message: str) -> str:
    """A message for people: long names and the message itself cut in their middle, controls made visible."""
    message = shorten(message, 4 * MESSAGE_LIMIT)  # keeps both ends: a cut name keeps its backticks
    message = _NAME.sub(lambda name: f"`{shorten(name.group(1), NAME_LIMIT)}`", message)
    return visible(shorten(message, MESSAGE_LIMIT))
