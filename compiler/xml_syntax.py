"""libxml2's syntax errors in plain words: what is wrong at the place, and how to write it instead.

libxml2 speaks of its own functions (``xmlParseEntityRef: no name``); a rules team wrote a
``&`` in a sentence. Each known message is matched here and said the way the rest of the lint
says things (lowercase, names in backticks, the fix in the help); a message this table does not
know keeps libxml2's words.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class PlainError(NamedTuple):
    """A syntax error said in plain words."""

    message: str
    help: str
    mark: str = ""
    """The character the error is about (``&``, ``<``), at or before libxml2's column: the caret goes under it."""


_ESCAPES = "in XML text, `&` is written `&amp;` and `<` is written `&lt;`"

_PLAIN: tuple[tuple[re.Pattern[str], str, str, str], ...] = (
    (
        re.compile(r"xmlParseEntityRef: no name", re.IGNORECASE),
        "a bare `&`: in XML, `&` starts an entity such as `&amp;`",
        "write `&` as `&amp;` (`Fish &amp; Chips`); " + _ESCAPES,
        "&",
    ),
    (
        re.compile(r"entityRef: expecting ';'", re.IGNORECASE),
        "an `&` that starts no entity (an entity ends with `;`, as `&amp;`)",
        "write `&` as `&amp;` (`R&amp;D`); " + _ESCAPES,
        "&",
    ),
    (
        re.compile(r"entity '(?P<name>[^']*)' not defined", re.IGNORECASE),
        "`&{name};` is not an entity of the format: the compiler knows only XML's own five",
        "write the character itself (sources are UTF-8), or `&amp;{name};` for the text as it stands",
        "",
    ),
    (
        re.compile(r"startTag: invalid element name", re.IGNORECASE),
        "a `<` that starts no element (a tag's name follows `<` at once)",
        "write `<` in text as `&lt;` (`1 &lt; 2`); " + _ESCAPES,
        "<",
    ),
    (
        re.compile(r"unescaped '<' not allowed in attributes values", re.IGNORECASE),
        "a `<` in an attribute's value",
        'write it `&lt;` (`title="A &lt; B"`)',
        "<",
    ),
    (
        re.compile(
            r"opening and ending tag mismatch: (?P<open>\S+) line (?P<line>\d+) and (?P<close>\S+)", re.IGNORECASE
        ),
        "`</{close}>` closes `<{open}>`, which was opened on line {line}",
        "close `<{open}>` with `</{open}>` first (or remove the `</{close}>` that has no start tag)",
        "",
    ),
    (
        re.compile(r"premature end of data in tag (?P<tag>\S+) line (?P<line>\d+)", re.IGNORECASE),
        "the file ends before `<{tag}>` (opened on line {line}) is closed",
        "close it with `</{tag}>`",
        "",
    ),
    (
        re.compile(r"attValue: \" or ' expected", re.IGNORECASE),
        "an attribute's value without quotes",
        'quote every value: `id="rolling_dice"`',
        "",
    ),
    (
        re.compile(r"specification mandates value for attribute (?P<name>\S+)", re.IGNORECASE),
        "the attribute `{name}` has no value",
        'give it one in quotes: `{name}="..."`',
        "",
    ),
    (
        re.compile(r"attribute (?P<name>\S+) redefined", re.IGNORECASE),
        "the attribute `{name}` is written twice on one element",
        "keep one of them",
        "",
    ),
    (
        re.compile(r"attributes construct error", re.IGNORECASE),
        "this start tag's attributes cannot be read",
        'write each attribute as `name="value"`, separated by spaces, a `"` inside a value as `&quot;`, and end the '
        "tag with `>`",
        "",
    ),
    (
        re.compile(r"expected '>'", re.IGNORECASE),
        "a tag that is not closed with `>`",
        "end the tag with `>` (`</section>`)",
        "",
    ),
    (
        re.compile(r"document is empty", re.IGNORECASE),
        "the file holds no XML element",
        "a rulebook is one `<document>` element, with its chapters inside (`rulebook init` writes one to start from)",
        "",
    ),
    (
        re.compile(r"extra content at the end of the document", re.IGNORECASE),
        "text after the end of the `<document>` element",
        "a rulebook is one `<document>` element: move this inside it, or remove it",
        "",
    ),
    (
        re.compile(r"sequence '\]\]>' not allowed in content", re.IGNORECASE),
        "`]]>` in text",
        "write it `]]&gt;`",
        "",
    ),
    (
        re.compile(r"double hyphen within comment", re.IGNORECASE),
        "`--` inside a comment",
        "XML comments may not hold `--`: write `-` or `—` instead",
        "",
    ),
    (
        re.compile(r"comment not terminated", re.IGNORECASE),
        "a comment `<!--` that is never closed",
        "end it with `-->`",
        "",
    ),
    (
        re.compile(r"xmlParseCharRef: invalid xmlChar value (?P<value>\d+)", re.IGNORECASE),
        "`&#{value};` names a character XML does not allow",
        "remove it (control characters cannot be written in XML)",
        "",
    ),
    (
        re.compile(r"charRef: invalid (?:hexadecimal|decimal) value", re.IGNORECASE),
        "a character reference that is not a number (`&#...;`)",
        "write the character itself, or its number: `&#233;` or `&#xE9;`",
        "",
    ),
    (
        re.compile(r"PCDATA invalid Char value (?P<value>\d+)", re.IGNORECASE),
        "a control character (U+{value:04X}) XML does not allow in text",
        "remove it (XML forbids control characters, and most editors do not show them)",
        "",
    ),
    (
        re.compile(r"XML declaration allowed only at the start of the document", re.IGNORECASE),
        "the XML declaration `<?xml ...?>` must be the very first thing in the file",
        "move it to the start of the first line, or remove it (a source is UTF-8 without one)",
        "",
    ),
    (
        re.compile(r"CData section not finished", re.IGNORECASE),
        "a `<![CDATA[` section that is never closed",
        "end it with `]]>`",
        "",
    ),
)


def plain_error(message: str) -> PlainError | None:
    """The syntax error libxml2 reported as ``message`` in plain words, or None for one this table does not know."""
    for pattern, said, fix, mark in _PLAIN:
        found = pattern.search(message)  # libxml2 capitalises some messages, not all
        if found is not None:
            fields: dict[str, object] = dict(found.groupdict())
            if "value" in fields:
                fields["value"] = int(str(fields["value"]))
            return PlainError(said.format(**fields), fix.format(**fields), mark)
    return None
