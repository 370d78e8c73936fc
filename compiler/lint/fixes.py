"""The lint's fixes: the findings whose correction is not in doubt, as text edits of their sources.

A reference to an undefined term or a link to an unknown id is fixable when its "did you mean"
leaves no choice: one candidate, or among several, one that differs only in case. The fix
replaces the attribute's value (``name`` of the ``<reference>``, ``to`` of the ``<link>``) at the
finding's place and nothing else: every other character of the file stays as it is. A value
written with an entity, or a place that is not such a start tag, is left alone. In the Markdown dialect
the fix rewrites a reference's name (``[[marchmove|march]]`` becomes ``[[march_move|march]]``, and
``[[Rally]]`` ``[[rally|Rally]]``) or a link's id (``[text](#marhc)``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from rulebook.catalog.book import DANGLING_LINK, DANGLING_REFERENCE
from rulebook.diagnostics import Diagnostic
from rulebook.names import is_target_name
from rulebook.source import SourceText

FIXED_ATTRIBUTE = {DANGLING_REFERENCE.code: ("reference", "name"), DANGLING_LINK.code: ("link", "to")}
"""The rules whose findings can be fixed, with the element and the attribute the fix rewrites."""

_START_TAG = re.compile(r"<(?P<tag>[A-Za-z_][\w.:-]*)(?P<attributes>(?:\s+[^\s=/>]+\s*=\s*(?:\"[^\"<]*\"|'[^'<]*'))*)")
_WIKILINK = re.compile(r"\[\[(?P<name>(?:[^\]|\\\n]|\\.)*)(?P<bar>\|)?")
"""A reference of the Markdown dialect, up to its name's end: ``[[name|`` or ``[[Text``."""
_ATTRIBUTE = re.compile(r"\s(?P<key>[^\s=/>]+)\s*=\s*(?P<quote>[\"'])(?P<value>.*?)(?P=quote)", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Edit:
    """One fix: the characters ``start:end`` of a source's text become ``text``."""

    path: str
    """The source's display path."""
    start: int
    end: int
    text: str
    code: str
    """The rule whose finding it fixes."""


def replacement(diagnostic: Diagnostic) -> str | None:
    """The name a fixable finding's value becomes, if its suggestions leave no choice."""
    choices = diagnostic.suggestions
    if not choices or diagnostic.code not in FIXED_ATTRIBUTE or not diagnostic.target:  # most findings: no choice
        return None
    if len(choices) != 1:
        folded = diagnostic.target.casefold()
        choices = tuple(choice for choice in choices if choice.casefold() == folded)
    return choices[0] if len(choices) == 1 and is_target_name(choices[0]) else None  # maybe another book's


def edit_for(diagnostic: Diagnostic, source: SourceText) -> Edit | None:
    """The edit that fixes a finding in its source, or None when it is not fixable there."""
    new = replacement(diagnostic)
    span = diagnostic.span
    if new is None or not 1 <= span.line <= len(source.line_starts):
        return None
    if not span.path.lower().endswith(".xml"):
        return _markdown_edit(diagnostic, source, new)
    tag = _START_TAG.match(source.text, source.line_starts[span.line - 1] + span.column - 1)
    element, key = FIXED_ATTRIBUTE[diagnostic.code]
    if tag is None or tag["tag"] != element:
        return None
    for attribute in _ATTRIBUTE.finditer(tag["attributes"]):
        if attribute["key"] == key:
            if attribute["value"] != diagnostic.target:  # written with an entity, or not this finding's
                return None
            start = tag.start("attributes") + attribute.start("value")
            return Edit(span.path, start, start + len(attribute["value"]), new, diagnostic.code)
    return None


def _markdown_edit(diagnostic: Diagnostic, source: SourceText, new: str) -> Edit | None:
    """The Markdown dialect's fix: the name of a ``[[name|text]]`` (a ``[[Text]]`` becomes ``[[new|Text]]``), the
    id of a ``[text](#id)``; left alone where the place holds neither (plain Markdown links its terms itself)."""
    span, target = diagnostic.span, diagnostic.target or ""
    start = source.line_starts[span.line - 1] + span.column - 1
    if diagnostic.code == DANGLING_REFERENCE.code:
        link = _WIKILINK.match(source.text, start)
        if link is None:
            return None
        from rulebook.readers.markdown_inline import term_name  # Markdown's parser only for a Markdown source

        written = link["name"]
        if link["bar"]:
            return (
                Edit(span.path, link.start("name"), link.end("name"), new, diagnostic.code)
                if written == target
                else None
            )
        if term_name(written) != target:
            return None
        return Edit(span.path, link.start("name"), link.start("name"), f"{new}|", diagnostic.code)
    line_end = source.line_starts[span.line] - 1 if span.line < len(source.line_starts) else len(source.text)
    found = source.text.find(f"](#{target})", start, line_end)
    if found == -1:
        return None
    return Edit(span.path, found + 3, found + 3 + len(target), new, diagnostic.code)


def plan_edits(diagnostics: Iterable[Diagnostic], sources: Mapping[str, SourceText]) -> dict[str, list[Edit]]:
    """The edits that fix what can be fixed, by source path, in the order of the text."""
    edits: dict[str, list[Edit]] = {}
    for diagnostic in diagnostics:
        source = sources.get(diagnostic.span.path)
        edit = edit_for(diagnostic, source) if source is not None else None
        if edit is not None:
            edits.setdefault(edit.path, []).append(edit)
    return {path: sorted(found, key=lambda e: e.start) for path, found in edits.items()}


def fixed_text(text: str, edits: Iterable[Edit]) -> str:
    """``text`` with the edits made (in text order, none overlapping); every other character as it was."""
    pieces = []
    position = 0
    for edit in edits:
        pieces += [text[position : edit.start], edit.text]
        position = edit.end
    return "".join(pieces) + text[position:]
