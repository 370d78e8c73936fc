"""Places of XML elements and entity references, found in the text itself.

libxml2's line numbers are not used for places: they count only ``\\n`` as a line end,
and past line 65,535 an element's line is borrowed from a neighbour (one off, or
65,535 itself). Start tags appear in the text in document order, so scanning the
text for them and pairing the n-th start tag with the n-th element gives each
element its exact line and column; entity references are paired the same way.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from rulebook.source import SourceText, Span

# Fast path: every "<" not followed by "/", "!" or "?" opens an element, unless it
# stands inside a comment, CDATA section, processing instruction or the DOCTYPE.
_START_TAG = re.compile(r"<(?![/!?])")
# Careful path: skips those constructs explicitly. In a well-formed document a "<"
# stands nowhere else (not in attribute values, not in text), so the scan is exact.
_QUOTED = r""""[^"]*"|'[^']*'"""
_SKIPPED = (
    r"<!--.*?-->|<!\[CDATA\[.*?\]\]>|<\?.*?\?>"
    # The DOCTYPE, with an internal subset whose literals and comments may hold "]" or ">".
    rf"|<!DOCTYPE(?:{_QUOTED}|[^\[>\"']|\[(?:<!--.*?-->|<\?.*?\?>|{_QUOTED}|[^\]\"'<]|<(?!!--|\?))*\])*>"
)
_MARKUP = re.compile(rf"{_SKIPPED}|<(?![/!?])", re.DOTALL)
# For entity references, tags are skipped whole (their attribute values hold no node).
_REFERENCE = re.compile(
    rf"{_SKIPPED}|<(?:{_QUOTED}|[^>\"'])*>|&(?P<name>[^\s#&;<>\"']+);",
    re.DOTALL,
)
# For nesting, every tag whole: an end tag, or a start tag (empty when it ends with "/>").
_TAG = re.compile(rf"{_SKIPPED}|<(?P<end>/)?(?:{_QUOTED}|[^>\"'])*>", re.DOTALL)
PREDEFINED_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
"""Entities the parser always replaces by their character: never a node of the tree."""


# The prolog: comments and processing instructions skipped, up to the DOCTYPE (its internal subset in group 1).
_DOCTYPE = re.compile(
    rf"<!--.*?-->|<\?.*?\?>|<!DOCTYPE(?:{_QUOTED}|[^\[>\"']|"
    rf"\[((?:<!--.*?-->|<\?.*?\?>|{_QUOTED}|[^\]\"'<]|<(?!!--|\?))*)\])*>",
    re.DOTALL,
)
# Inside the internal subset: comments, processing instructions and literals skipped; attribute lists, and
# parameter entities (whose text the subset reads as declarations of its own).
_ATTRIBUTE_LIST = re.compile(
    rf"<!--.*?-->|<\?.*?\?>|{_QUOTED}|<!(?P<kind>ATTLIST\s+|ENTITY\s+%\s+)(?P<name>[^\s>\"']+)", re.DOTALL
)
_NAMED_REFERENCE = re.compile(r"&(?P<name>[^\s#&;<>\"']+);")


def attribute_list_declarations(text: str) -> list[tuple[int, str, str]]:
    """The ``<!ATTLIST>`` and parameter entity (``<!ENTITY %``) declarations of the DOCTYPE's internal subset, as
    (offset of the ``<!``, ``ATTLIST`` or ``ENTITY %``, the element's or entity's name), in order.

    Called for a document libxml2 read an internal subset in: only comments and processing instructions stand
    before its DOCTYPE, so the first ``<!DOCTYPE`` the scan meets outside them is that one.
    """
    for prolog in _DOCTYPE.finditer(text):
        if prolog.group().startswith("<!DOCTYPE"):
            if prolog.group(1) is None:
                return []
            found = _ATTRIBUTE_LIST.finditer(prolog.group(1))
            return [(prolog.start(1) + m.start(), " ".join(m["kind"].split()), m["name"]) for m in found if m["name"]]
    return []


def attribute_entity_references(text: str) -> list[tuple[int, str]]:
    """Every entity reference inside an attribute value, as (offset of its ``&``, its name): libxml2 replaces
    them by the entity's text whatever the parser is told (the five predefined ones left out)."""
    return [
        (tag.start() + m.start(), m["name"])
        for tag in _TAG.finditer(text)
        if tag.group()[1:2] not in ("!", "?") and "&" in tag.group()
        for m in _NAMED_REFERENCE.finditer(tag.group())
        if m["name"] not in PREDEFINED_ENTITIES
    ]


def start_tag_offsets(text: str, expected: int) -> list[int]:
    """Offsets of the ``<`` of every start tag, in document order.

    ``expected`` is the number of elements the parser found; the fast scan is
    exact whenever it finds that many, since it can only over-count.
    """
    offsets = [m.start() for m in _START_TAG.finditer(text)]
    if len(offsets) == expected:
        return offsets
    return [m.start() for m in _MARKUP.finditer(text) if m.end() == m.start() + 1]


def entity_reference_offsets(text: str) -> list[int]:
    """Offsets of the ``&`` of every entity reference in content, in document order.

    Character references and the five predefined entities are left out: the parser
    replaces them, so they are not nodes of the tree.
    """
    return [
        m.start()
        for m in _REFERENCE.finditer(text)
        if (name := m.group("name")) is not None and name not in PREDEFINED_ENTITIES
    ]


def start_tag_deeper_than(text: str, depth: int) -> int | None:
    """Offset of the first start tag nested deeper than ``depth`` (the root element is 1), if any.

    For a document the parser refused as too deep: a scan of the text, without recursion.
    """
    level = 0
    for match in _TAG.finditer(text):
        tag = match.group()
        if match.group("end"):
            level -= 1
        elif tag[1] not in "!?":
            level += 1
            if level > depth:
                return match.start()
            if tag.endswith("/>"):
                level -= 1
    return None


def start_tag_spans(source: SourceText, offsets: list[int]) -> list[Span]:
    """The span of each start tag (1-based line and column) from its offset."""
    starts = source.line_starts
    path = source.path
    spans: list[Span] = []
    append = spans.append
    for offset in offsets:
        line = bisect_right(starts, offset)
        append(Span(path, line, offset - starts[line - 1] + 1))
    return spans
