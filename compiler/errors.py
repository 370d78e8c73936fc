"""Errors a user can do something about: reported in plain words with exit status 2, never a traceback.

Kept apart from the modules that raise them, so the command line names them without importing
the site builder or the translation tools at start-up. A message that quotes what it was given (a
key, a name, a value) quotes it through :func:`quoted`: a key of the configuration can be a megabyte
long. The command line then shows every message's control characters as pictures
(:func:`rulebook.report.escaping.terminal_message`).
"""

from __future__ import annotations

import re

NOT_UTF8 = re.compile("[\ud800-\udfff]")
"""A byte that is not UTF-8 in a name or an argument, as Python reads it (a lone surrogate, ``\\udcff``): no file
written as UTF-8 text, nor TOML, can hold it as it is."""

QUOTE_LIMIT = 60
"""Longest value a message quotes whole."""

OUT_OF_MEMORY = "the system, or a limit such as `ulimit -v`, allows less memory than it needs"
"""Why a command ran out of memory (Python's MemoryError), in the words every such message uses."""


def shorten(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters by an ellipsis in the middle, keeping both ends."""
    if len(text) <= limit:
        return text
    head = (limit - 1) * 2 // 3
    return text[:head] + "…" + text[len(text) - (limit - 1 - head) :]


def quoted(value: str) -> str:
    """A value as a message quotes it: in backticks, cut in its middle past :data:`QUOTE_LIMIT` characters."""
    return f"`{shorten(value, QUOTE_LIMIT)}`"


class UserError(Exception):
    """A problem with the input or the setup; the message says what, in plain words."""


class InvalidRuleData(UserError):
    """The compiled data does not validate against its schema (a compiler bug), or is larger than the engine reads:
    nothing is written."""


class SiteBuildError(UserError):
    """MkDocs could not build the site; the message says why. The last good site is kept."""


class TerminologyError(UserError):
    """A terminology or waivers file cannot be used; the message says why."""


class PdfBuildError(UserError):
    """Typst could not make a book's PDF (or is not installed); the message says why. Nothing is published."""
