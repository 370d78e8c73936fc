"""DTD violations as plain-word diagnostics.

libxml2 reports DTD violations with the element's tag and its own line number only,
in its own words; this module finds the element, reports the place of its start tag
in the text (never libxml2's line) and says what is wrong the way the rest of the lint does.
"""

from __future__ import annotations

import itertools
import re
from bisect import bisect_left
from collections import defaultdict
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache

from lxml import etree

from rulebook.catalog.reading import INVALID_DOCUMENT
from rulebook.diagnostics import Diagnostic
from rulebook.locate import start_tag_offsets, start_tag_spans
from rulebook.source import SourceText, Span
from rulebook.suggest import Suggester

RULE = INVALID_DOCUMENT
# Missing names and link targets are reported by the `empty-name` rule instead.
_LEFT_TO_OTHER_RULES = {("definition", "name"), ("reference", "name"), ("link", "to")}

_PATTERNS: list[tuple[str, re.Pattern[str]]] = [
    ("unknown-element", re.compile(r"No declaration for element (?P<tag>\S+)")),
    ("unknown-attribute", re.compile(r"No declaration for attribute (?P<attr>\S+) of element (?P<tag>\S+)")),
    ("invalid-child", re.compile(r"Element (?P<tag>\S+) is not declared in (?P<parent>\S+) list")),
    (
        "content-model",
        re.compile(r"Element (?P<tag>\S+) content does not follow the DTD, expecting (?P<want>.*), got (?P<got>.*)"),
    ),
    ("not-text", re.compile(r"Element (?P<tag>\S+) was declared #PCDATA but contains non text nodes")),
    (
        "bad-value",
        re.compile(
            r'Value "(?P<value>.*)" for attribute (?P<attr>\S+) of (?P<tag>\S+) is not among the enumerated set'
        ),
    ),
    ("missing-attribute", re.compile(r"Element (?P<tag>\S+) does not carry attribute (?P<attr>\S+)")),
]


def findings(schema: etree.DTD, root: etree._Element, source: SourceText) -> Iterator[Diagnostic]:
    """Diagnostics for the violations ``schema`` found in a parsed document (after its ``validate`` failed)."""
    errors = list(schema.error_log)  # type: ignore[call-overload]
    elements = cache(lambda: Suggester(sorted(str(e.name) for e in schema.iterelements())))  # type: ignore[attr-defined]
    declared = cache(lambda tag: elements().suggest(tag))  # made once, and once a name: 10,000 <zz/> took 10 s
    locator = _Locator(root, source)
    unknown = {m.group("tag") for e in errors if (m := _PATTERNS[0][1].match(e.message))}
    for error in errors:
        found = _classify(error.message)
        if found is None:
            yield RULE.diagnostic(_plain(error.message), locator.near(error.line))
            continue
        kind, fields = found
        tag = fields["tag"]
        if kind in ("invalid-child", "unknown-attribute") and tag in unknown:
            continue  # one diagnostic per unknown element, not three
        if kind == "missing-attribute" and (tag, fields["attr"]) in _LEFT_TO_OTHER_RULES:
            continue
        if kind == "invalid-child":
            span = locator.child(fields["parent"], error.line, tag)
        else:
            span = locator.element(tag, error.line, error.message, _fits(kind, fields))
        yield _diagnostic(kind, fields, span, declared)


UNCHECKED = "the rest of its structure is not checked"
"""How a finding says its file's other checks were not made: no baseline takes or hides one (a baseline of it hid
every structural error after it)."""


def too_many_undeclared(
    undeclared: list[tuple[etree._Element, str | None]], limit: int, root: etree._Element, source: SourceText
) -> Diagnostic:
    """One finding for a document holding more than ``limit`` elements and attributes the format does not declare,
    at the first, naming it: each is reported once there are fewer."""
    element, attribute = undeclared[0]
    line = int(element.sourceline or 0)  # type: ignore[call-overload]
    span = _Locator(root, source).element(_named(element), line, "", lambda shape: True)
    first = f"`<{_named(element)}>`" if attribute is None else f"`{attribute}` on `<{_named(element)}>`"
    return RULE.diagnostic(
        f"more than {limit:,} elements and attributes the format does not know (the first: {first}): {UNCHECKED}",
        span,
        target=_named(element) if attribute is None else attribute,
        help="see `rulebook dtd` for the elements and their attributes; once fewer are left, each is reported",
    )


@dataclass(frozen=True, slots=True)
class _Shape:
    """What an element holds, read once: its attributes, and its children's indexes by name (an element of 40,000
    attributes or children was read again for each error about it: 5,000 misplaced children took 26 s)."""

    attributes: dict[str, str]
    children: dict[str, list[int]]
    size: int
    """Its children of any kind (comments and processing instructions too), as ``len`` counts them."""


def _fits(kind: str, fields: dict[str, str]) -> Callable[[_Shape], bool]:
    """What the element an error of this kind is about must look like (to tell apart two on one line)."""
    if kind == "unknown-attribute":
        return lambda shape: shape.attributes.get(fields["attr"]) is not None
    if kind == "missing-attribute":
        return lambda shape: shape.attributes.get(fields["attr"]) is None
    if kind == "bad-value":
        return lambda shape: shape.attributes.get(fields["attr"]) == fields["value"]
    if kind in ("not-text", "content-model"):
        return lambda shape: shape.size > 0
    return lambda shape: True


def _classify(message: str) -> tuple[str, dict[str, str]] | None:
    for kind, pattern in _PATTERNS:
        match = pattern.match(message)
        if match:
            return kind, match.groupdict()
    return None


def _diagnostic(
    kind: str, fields: dict[str, str], span: Span, declared: Callable[[str], tuple[str, ...]]
) -> Diagnostic:
    """``declared``: the elements the DTD declares that a name may have been meant for (suggestions)."""
    tag = fields["tag"]
    if kind == "unknown-element":
        suggestions = declared(tag)
        help = f"did you mean `<{suggestions[0]}>`?" if suggestions else "see `rulebook dtd` for the elements"
        return RULE.diagnostic(f"unknown element `<{tag}>`", span, target=tag, suggestions=suggestions, help=help)
    if kind == "unknown-attribute":
        attr = fields["attr"]
        return RULE.diagnostic(f"unknown attribute `{attr}` on `<{tag}>`", span, target=attr)
    if kind == "invalid-child":
        return RULE.diagnostic(f"`<{tag}>` is not allowed inside `<{fields['parent']}>`", span, target=tag)
    if kind == "content-model":
        return RULE.diagnostic(
            f"`<{tag}>` holds elements in an order the format does not allow",
            span,
            target=tag,
            help=f"expected {fields['want']}, found {fields['got']}",
        )
    if kind == "not-text":
        return RULE.diagnostic(f"`<{tag}>` may only contain text", span, target=tag)
    if kind == "bad-value":
        return RULE.diagnostic(
            f"`{fields['value']}` is not an allowed value of `{fields['attr']}` on `<{tag}>`",
            span,
            target=fields["value"],
            help="see `rulebook dtd` for the allowed values",
        )
    return RULE.diagnostic(f"`<{tag}>` needs a `{fields['attr']}` attribute", span, target=tag)


def _plain(message: str) -> str:
    return (message[:1].lower() + message[1:]).rstrip(".")


class _Locator:
    """Finds the element a DTD error is about, and gives the place of its start tag.

    libxml2 names the element by tag and by its own line number, the one lxml gives as
    ``sourceline``: good for telling elements apart, not a place (past line 65,535 it is
    borrowed from a neighbour, one off or 65,535 itself). So the line only picks the
    element: the same tag on the same line, else one line off, else the nearest in
    document order. libxml2 checks elements in document order, so among candidates the
    first at or after the previous error's element is the one; the place reported is the
    element's start tag, found in the text (:mod:`rulebook.locate`).
    """

    def __init__(self, root: etree._Element, source: SourceText) -> None:
        self._elements = list(root.iter(tag=etree.Element))
        offsets = start_tag_offsets(source.text, len(self._elements))
        if len(offsets) != len(self._elements):  # pragma: no cover - exact for well-formed XML
            raise RuntimeError(f"{len(offsets)} start tags in the text, {len(self._elements)} elements parsed")
        self._spans = start_tag_spans(source, offsets)
        self._lines = [int(e.sourceline or 0) for e in self._elements]  # type: ignore[call-overload]
        self._by_line: dict[tuple[str, int], list[int]] = defaultdict(list)
        self._by_tag: dict[str, list[int]] = defaultdict(list)
        for index, (element, line) in enumerate(zip(self._elements, self._lines, strict=True)):
            self._by_line[(_named(element), line)].append(index)
            self._by_tag[_named(element)].append(index)
        self._cursor = 0
        self._reported: set[tuple[int, str]] = set()
        self._children_reported: dict[tuple[int, str], int] = defaultdict(int)
        self._index: dict[etree._Element, int] | None = None
        self._shapes: dict[int, _Shape] = {}

    def element(self, tag: str, line: int, message: str, fits: Callable[[_Shape], bool]) -> Span:
        """The start tag of the ``<tag>`` on libxml2's ``line`` that an error (``message``) is about."""
        return self._spans[self._find(tag, line, message, fits)]

    def child(self, parent_tag: str, line: int, tag: str) -> Span:
        """The next ``<tag>`` child not yet reported of the ``<parent_tag>`` on libxml2's ``line``."""
        parent = self._find(parent_tag, line, f"children {tag}", lambda shape: tag in shape.children)
        nth = self._children_reported[(parent, tag)]
        self._children_reported[(parent, tag)] += 1
        children = self._shape(parent).children.get(tag)
        if not children:
            return self._spans[parent]
        return self._spans[children[min(nth, len(children) - 1)]]

    def near(self, line: int) -> Span:
        """The first element on libxml2's ``line`` (or the nearest line): for errors naming no element."""
        index = min(range(len(self._lines)), key=lambda i: abs(self._lines[i] - line))
        return self._spans[index]

    def _find(self, tag: str, line: int, message: str, fits: Callable[[_Shape], bool]) -> int:
        """Among the candidates, the first from the previous error's element on (else the first) that fits and is not
        reported with this message yet; failing that, one that fits; failing that, one not reported; else the first.
        Looked for from the previous element on, so an error is found at once where libxml2 reports in order (each
        error filtered every candidate: 20,000 unknown elements on a line took 104 s)."""
        candidates = self._by_line.get((tag, line)) or sorted(
            self._by_line.get((tag, line - 1), []) + self._by_line.get((tag, line + 1), [])
        )
        low = 0
        if not candidates:  # a line further off: the next element of that tag in document order
            candidates = self._by_tag.get(tag, [0])
            low = bisect_left(candidates, self._cursor)
            low = low if low < len(candidates) else 0  # from the cursor on, else every one
        start = max(low, bisect_left(candidates, self._cursor))
        order = itertools.chain(range(start, len(candidates)), range(low, start))
        best: dict[tuple[bool, bool], int] = {}
        for position in order:
            index = candidates[position]
            found = (fits(self._shape(index)), (index, message) not in self._reported)
            best.setdefault(found, index)
            if found == (True, True):
                break
        chosen = next(best[key] for key in ((True, True), (True, False), (False, True), (False, False)) if key in best)
        self._reported.add((chosen, message))
        self._cursor = chosen
        return chosen

    def _shape(self, index: int) -> _Shape:
        if index not in self._shapes:
            if self._index is None:
                self._index = {element: number for number, element in enumerate(self._elements)}
            element, children = self._elements[index], defaultdict[str, list[int]](list)
            for child in element.iterchildren(tag=etree.Element):
                children[_named(child)].append(self._index[child])
            attributes = {str(key): str(value) for key, value in element.attrib.items()}
            self._shapes[index] = _Shape(attributes, dict(children), len(element))
        return self._shapes[index]


def _named(element: etree._Element) -> str:
    """An element's name as libxml2's messages name it: without its namespace (``<x:foo xmlns:x="urn:x">`` is
    ``foo``, lxml's ``{urn:x}foo``; a finding on one was placed at the document's first line, and one on
    ``<section xmlns="urn:o">`` at the book's first section)."""
    return str(etree.QName(element).localname)
