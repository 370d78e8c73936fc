"""Validation against the compiler's own ``rulebook.dtd``, as plain-word diagnostics.

libxml2 reports DTD violations with the element's line only and in its own
words; this module finds the element (so the diagnostic has a column) and
says what is wrong the way the rest of the lint does.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterator
from functools import cache
from importlib import resources

from lxml import etree

from compiler.catalog.reading import INVALID_DOCUMENT
from compiler.diagnostics import Diagnostic
from compiler.locate import start_tag_offsets, start_tag_spans
from compiler.source import SourceText, Span
from compiler.suggest import Suggester

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


def dtd_text() -> str:
    """The DTD shipped with the compiler."""
    return resources.files("compiler").joinpath("schema/rulebook.dtd").read_text(encoding="utf-8")


@cache
def _dtd() -> etree.DTD:
    with resources.as_file(resources.files("compiler").joinpath("schema/rulebook.dtd")) as path:
        return etree.DTD(str(path))


@cache
def declared_elements() -> tuple[str, ...]:
    return tuple(sorted(str(e.name) for e in _dtd().iterelements()))  # type: ignore[attr-defined]


def validate(root: etree._Element, source: SourceText) -> Iterator[Diagnostic]:
    """Diagnostics for every DTD violation in a parsed document."""
    schema = _dtd()
    if schema.validate(root):
        return
    errors = list(schema.error_log)  # type: ignore[call-overload]
    locator = _Locator(root, source)
    unknown = {m.group("tag") for e in errors if (m := _PATTERNS[0][1].match(e.message))}
    for error in errors:
        found = _classify(error.message)
        if found is None:
            yield RULE.diagnostic(_plain(error.message), Span(source.path, max(error.line, 1), 1))
            continue
        kind, fields = found
        tag = fields["tag"]
        if kind in ("invalid-child", "unknown-attribute") and tag in unknown:
            continue  # one diagnostic per unknown element, not three
        if kind == "missing-attribute" and (tag, fields["attr"]) in _LEFT_TO_OTHER_RULES:
            continue
        span = locator.span(error.line, tag)
        yield _diagnostic(kind, fields, span)


def _classify(message: str) -> tuple[str, dict[str, str]] | None:
    for kind, pattern in _PATTERNS:
        match = pattern.match(message)
        if match:
            return kind, match.groupdict()
    return None


def _diagnostic(kind: str, fields: dict[str, str], span: Span) -> Diagnostic:
    tag = fields["tag"]
    if kind == "unknown-element":
        suggestions = Suggester(declared_elements()).suggest(tag)
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
    """Finds the start tag of an element from the line libxml2 reports for it."""

    def __init__(self, root: etree._Element, source: SourceText) -> None:
        elements = list(root.iter(tag=etree.Element))
        offsets = start_tag_offsets(source.text, len(elements))
        spans = start_tag_spans(source, offsets) if len(offsets) == len(elements) else None
        self._path = source.path
        self._by_line: dict[tuple[int, str], list[Span]] = defaultdict(list)
        for index, element in enumerate(elements):
            line = int(element.sourceline or 1)  # type: ignore[call-overload]  # lxml-stubs lack its type
            span = spans[index] if spans else Span(source.path, line, 1)
            self._by_line[(line, str(element.tag))].append(span)
        self._used: dict[tuple[int, str], int] = defaultdict(int)

    def span(self, line: int, tag: str) -> Span:
        candidates = self._by_line.get((line, tag))
        if not candidates:
            return Span(self._path, max(line, 1), 1)
        index = min(self._used[(line, tag)], len(candidates) - 1)
        self._used[(line, tag)] += 1
        return candidates[index]
