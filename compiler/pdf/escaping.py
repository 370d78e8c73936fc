"""Text from the sources, the configuration and the site's words, made safe for Typst, and set in its language.

The print edition's Typst source never carries a source's text as markup: every text is a Typst string
literal (``#"..."`` in markup, ``"..."`` as an argument), in which only the backslash and the double quote
are special, and both are escaped. A title holding ``#read("/etc/passwd")``, ``]``, ``<label>``, ``$``,
``//`` or ``= heading`` is shown as those characters, never read as code or markup. Control characters
and bidirectional controls are shown as U+FFFD (``�``), as the reports show the C1 ones
(:mod:`rulebook.report.escaping`): the site's pictures of the C0 controls (``␛``) are in none of the fonts
inside Typst, and PDF/UA forbids a character no font shows. Runs of white space are one space, as a browser
shows them.

Each language's typography (French: a no-break space before ``: ; ! ?`` and inside ``« »``) is data,
in ``typography.toml`` beside this module, applied by :func:`Typography.apply`.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.report.escaping import SHOWN_OTHERWISE, visible_in_text

_SPACES = re.compile(r"[ \t\n\r\f\v\u2028\u2029]+")
"""White space a browser folds into one space (a no-break space is kept: it is typography)."""
_KEY_ESCAPES = {"\\": "\\\\", '"': '\\"'}
TYPOGRAPHY_FILE = Path(__file__).with_name("typography.toml")


_PICTURES = dict.fromkeys(range(0x2400, 0x2422), "\ufffd")
"""The pictures :func:`~rulebook.report.escaping.visible_in_text` shows the C0 controls and DEL by."""


def folded(text: str) -> str:
    """``text`` as a PDF shows it: runs of white space one space, control characters as U+FFFD."""
    if SHOWN_OTHERWISE.search(text):
        text = visible_in_text(text).translate(_PICTURES)
    return _SPACES.sub(" ", text)


def typst_string(text: str, typography: Typography | None = None) -> str:
    """``text`` as a Typst string literal (with its quotes) for readers: white space folded, controls shown,
    and set in the ``typography`` of its language."""
    shown = folded(text)
    if typography is not None:
        shown = typography.apply(shown)
    return '"' + shown.replace("\\", "\\\\").replace('"', '\\"') + '"'


def typst_key(text: str) -> str:
    """``text`` as a Typst string literal, exactly (a label, a term's name, a language code): every character
    kept, the special ones and the controls escaped."""
    return '"' + "".join(_KEY_ESCAPES.get(c) or (c if c.isprintable() else f"\\u{{{ord(c):x}}}") for c in text) + '"'


@dataclass(frozen=True, slots=True)
class Typography:
    """How a language sets its punctuation in print: the space before and after some marks."""

    before: Mapping[str, str] = field(default_factory=dict)
    """A mark and the space it takes before it, in place of an ordinary space or after a word (``?``: U+202F)."""
    after: Mapping[str, str] = field(default_factory=dict)
    """A mark and the space it takes after it (``«``: U+202F)."""

    def apply(self, text: str) -> str:
        """``text`` with each mark's space: one the text has is made the right one; after a word, one is added
        where the mark ends a word (so a URL's ``://`` or ``?q=``, a time's ``10:30`` stay as written)."""
        if self.before:
            marks = re.escape("".join(self.before))
            text = re.sub(
                rf"(?<=[\w)\]”’])[ \u00a0\u202f]*([{marks}])(?=[\s)\].,{marks}]|$)",
                lambda m: self.before[m.group(1)] + m.group(1),
                text,
            )
        if self.after:
            marks = re.escape("".join(self.after))
            text = re.sub(rf"([{marks}])[ \u00a0\u202f]*(?=\S)", lambda m: m.group(1) + self.after[m.group(1)], text)
        return text


def typography(language: str) -> Typography:
    """The typography of a language (none where ``typography.toml`` has no table for it)."""
    table = _typography_tables().get(language, {})
    return Typography(table.get("before", {}), table.get("after", {}))


_TABLES: dict[str, dict[str, dict[str, str]]] = {}


def _typography_tables() -> dict[str, dict[str, dict[str, str]]]:
    if not _TABLES:
        _TABLES.update(tomllib.loads(TYPOGRAPHY_FILE.read_text(encoding="utf-8")))
    return _TABLES
