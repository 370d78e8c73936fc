"""The characters no terminal, log or text file should be sent raw, and how each data format writes them exactly.

A source may hold any character. The C0 controls (ESC, BEL) drive a terminal, and the bidirectional controls reorder
what is read; the C1 controls, DEL and the line and paragraph separators break or drive a line too. Reports for people
show them as pictures (:mod:`rulebook.report.escaping`); data (JSON, TOML, XML, DOT) keeps them exact by writing each
as its format's escape, so the text stays whole and no byte of it acts on the terminal it is printed on.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

BIDI_CONTROLS = (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A))
"""Unicode's ``Bidi_Control`` characters (``PropList.txt``): the marks, embeddings, overrides and isolates."""
SEPARATORS = (0x2028, 0x2029)
"""The line and paragraph separators: a line end to some terminals and log viewers."""
UNPRINTABLE = (*range(0x20), 0x7F, *range(0x80, 0xA0), *BIDI_CONTROLS, *SEPARATORS)
"""Every character shown otherwise: the C0 controls, DEL, the C1 controls, the bidirectional controls, the
separators."""


def character_class(codes: Iterable[int]) -> str:
    """A regular expression's class matching exactly the characters ``codes``."""
    return "[" + "".join(re.escape(chr(code)) for code in sorted(codes)) + "]"


UNPRINTABLE_ABOVE_ASCII = re.compile(character_class(code for code in UNPRINTABLE if code >= 0x7F))
"""DEL, the C1 controls, the bidirectional controls and the line and paragraph separators: what JSON writes as they
are (it escapes the C0 ones)."""
_UNPRINTABLE_ANY = re.compile(character_class(UNPRINTABLE))


def escaped_in_json(text: str) -> str:
    """JSON text with each character of :data:`UNPRINTABLE_ABOVE_ASCII` written as its escape (valid anywhere in JSON
    text: such a character can only stand inside a string)."""
    return UNPRINTABLE_ABOVE_ASCII.sub(lambda found: f"\\u{ord(found.group()):04x}", text)


def json_text(value: Any, **options: Any) -> str:
    """``value`` as JSON (``json.dumps``'s ``options``), UTF-8 text but each character of
    :data:`UNPRINTABLE_ABOVE_ASCII` written as its escape: the data stays exact, and a report printed on a terminal
    (``engine odds --json``, ``lint --format json``) cannot reorder nor drive it (U+202E was written raw)."""
    return escaped_in_json(json.dumps(value, ensure_ascii=False, **options))


def with_character_references(text: str) -> str:
    """XML or DOT text with each unprintable character above ASCII written as a character reference (``&#x202e;``),
    which both read as the character itself (the C0 ones XML cannot hold at all are the writer's to refuse or show)."""
    return UNPRINTABLE_ABOVE_ASCII.sub(lambda found: f"&#x{ord(found.group()):x};", text)


def toml_string(text: str) -> str:
    """A TOML basic string: quotes, backslashes and every unprintable character escaped (``\\u202E``)."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + _UNPRINTABLE_ANY.sub(lambda found: f"\\u{ord(found.group()):04X}", escaped) + '"'
