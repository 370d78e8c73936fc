"""A Markdown book's declarations: HTML comments that start ``rulebook:`` and show nothing.

At the end of a line, ``mechanic`` (the XML's ``<mechanic>``, the same attributes) and ``value`` (the XML's
``<value>``, its number in ``number``); on a line of its own, right before a list or a table, ``sequence``,
``list`` or ``table`` with the XML's attributes (``kind``, ``id``, ``title``, ``roll``): a bullet list declared
a ``sequence`` is ordered steps. Pure functions, shared by both Markdown formats: their readers
(:mod:`rulebook.markdown_source`, :mod:`rulebook.readers.markdown`) keep the place and the state.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import NamedTuple

from rulebook.model import ItemList, Table

MECHANIC = re.compile(r"<!--\s*rulebook:\s*mechanic\s+(?P<attributes>.*?)-->", re.DOTALL)
"""A mechanics annotation, as the XML's ``<mechanic .../>`` (the same attributes) in an HTML comment."""
VALUE = re.compile(r"<!--\s*rulebook:\s*value\s+(?P<attributes>.*?)-->", re.DOTALL)
"""A declared number, as the XML's ``<value>``: its attributes, and the number in ``number``."""
UNCLOSED_IN_PARAGRAPH = (
    "`<!--` opens a comment that no `-->` closes in its paragraph: it is shown as written",
    "close the comment with `-->` before the paragraph ends (a declaration is lost without it); "
    "`\\<!--` shows the characters",
)
"""The finding and help of a comment opened in a paragraph's text that nothing there closes: CommonMark shows it as
text (both Markdown readers report it, the first of a paragraph)."""
SHOWN_AS_NOTHING = re.compile(
    r"<!--\s*rulebook:\s*mechanic\s.*?-->|(?<![ \t])[ \t]*<!--\s*rulebook:\s*value\s.*?-->", re.DOTALL
)
"""The annotations the text shows nothing of (a value's with the space before it: it ends a sentence; a run of
spaces is tried from its start only, in linear time)."""
_BLOCK = re.compile(r"^\s*<!--\s*rulebook:\s*(?P<element>sequence|list|table)\s*(?P<attributes>.*?)-->\s*$", re.DOTALL)
ATTRIBUTE = re.compile(r'(?<![a-z-])-*(?P<key>[a-z][a-z-]*)="(?P<value>[^"]*)"')
"""An annotation's ``key="value"`` (a mechanic's, a value's, a declaration's, in either Markdown format): a key
is the letters of a run of letters and hyphens, tried once per run (from each letter of a long run, the
expression would take quadratic time)."""
DECLARED = ("roll", "kind", "id", "title")
"""The attributes a declaration gives its list or table."""


class Block(NamedTuple):
    """A declaration of the list or table after it, waiting for it."""

    element: str
    """``sequence``, ``list`` or ``table``."""
    attributes: dict[str, str]
    offset: int


def attributes(text: str) -> dict[str, str]:
    """The ``key="value"`` pairs of an annotation."""
    return {m.group("key"): m.group("value") for m in ATTRIBUTE.finditer(text)}


def closed_end(text: str, closing: str = "-->") -> int:
    """Where the text's last ``closing`` ends (0 without one)."""
    found = text.rfind(closing)
    return 0 if found == -1 else found + len(closing)


def mechanics(text: str) -> Iterator[re.Match[str]]:
    """The mechanics annotations of a text, in linear time: looked for up to its last ``-->`` only (past it none
    closes, yet the expression would scan from each opening there, and from each space after ``mechanic``, to the
    end of the text)."""
    return MECHANIC.finditer(text, 0, closed_end(text))


def block(text: str, offset: int) -> Block | None:
    """The declaration a comment on lines of its own makes, if it makes one (one that does ends with ``-->``: any
    other is not tried, which the expression would from each space after its word to the end of the text)."""
    match = _BLOCK.match(text) if text.rstrip().endswith("-->") else None
    return None if match is None else Block(match.group("element"), attributes(match.group("attributes")), offset)


def mismatch(declared: Block, node: Table | ItemList) -> tuple[str, str] | None:
    """(message, help) when a declaration is followed by the other kind of block (a table after ``sequence``)."""
    if (declared.element == "table") == isinstance(node, Table):
        return _unread_attribute(declared)
    what, fix = ("a table", "table") if isinstance(node, Table) else ("a list", "sequence")
    return f"the `{declared.element}` declaration is followed by {what}", f"write `rulebook: {fix}`"


def _unread_attribute(declared: Block) -> tuple[str, str] | None:
    """(message, help) for an attribute the declaration cannot give: one it does not know (``bogus="x"``), or a
    ``kind`` given to a ``list`` (the XML's ``<list>`` has none). Each was dropped with "All checks passed": a
    bulleted list declared ``list kind="turn"`` was no turn, and the engine said the book declares none."""
    unknown = sorted(set(declared.attributes) - set(DECLARED))
    if unknown:
        keys = ", ".join(f"`{key}`" for key in DECLARED)
        return f"the `{declared.element}` declaration has no attribute `{unknown[0]}`", f"a declaration takes {keys}"
    if declared.element == "list" and "kind" in declared.attributes:
        return "a `list` declaration takes no `kind`", 'a sequence of steps is `rulebook: sequence kind="turn"`'
    return None


def apply(declared: Block, node: Table | ItemList) -> Table | ItemList:
    """The list or table as its declaration declares it (a bullet list declared a sequence is ordered), its
    attributes written where the declaration is."""
    given = {key: declared.attributes.get(key) for key in DECLARED}
    at = declared.offset
    if isinstance(node, Table):
        return node._replace(
            kind=given["kind"], roll=given["roll"], id=given["id"], title=given["title"], attributes_offset=at
        )
    ordered = node.ordered or declared.element == "sequence"
    return node._replace(
        ordered=ordered,
        roll=given["roll"],
        kind=given["kind"],
        id=given["id"],
        title=given["title"],
        attributes_offset=at,
    )


def orphan(declared: Block) -> tuple[str, str]:
    """(message, help) for a declaration with no list or table right after it: a turn structure with no
    phases, say."""
    noun = "table" if declared.element == "table" else "list"
    named = f" `{declared.attributes['id']}`" if "id" in declared.attributes else ""
    if declared.attributes.get("kind") == "turn":
        message = f"the turn structure{named} has no phases: no list follows its declaration"
    else:
        message = f"the `{declared.element}` declaration{named} is followed by no {noun}"
    return message, f"put the declaration on the line right before its {noun}"
