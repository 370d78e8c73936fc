"""Where a finding points on its line: the name at fault, found in the source's own syntax after the place the finding
was made at (a reference's ``[[``, a heading's line, a mechanic's ``<!--``, an XML element's ``<``). Every renderer
that shows a column places a finding with it, so a report's header, its caret and GitHub's and SARIF's columns
name the same character.
"""

from __future__ import annotations

import re

from rulebook.diagnostics import Diagnostic
from rulebook.source import SourceText, Span

PLACED_ROOM = 100
"""How much of a line a finding with nothing to find is underlined at most (the text report's window)."""


def underlined(span: Span, target: str | None, line: Line, room: int) -> tuple[int, int]:
    """The 0-based column and the length a finding underlines on its ``line`` (``room``: how much can be shown)."""
    if span.length:
        return span.column - 1, span.length
    comment = line.part(span.column - 1, span.column + 3) == "<!--"  # an annotation: XML's attributes in a comment
    names = () if span.path.lower().endswith(".xml") or comment else _MARKDOWN_NAMES
    return _underline(line, span.column - 1, target, room, names)


def placed(diagnostic: Diagnostic, source: SourceText | None) -> Span:
    """The finding's span at the character its caret stands under (its own span without the source)."""
    span = diagnostic.span
    if source is None or not 1 <= span.line <= len(source.line_starts):
        return span
    start, length = underlined(span, diagnostic.target, Line(source.text, *source.line_bounds(span.line)), PLACED_ROOM)
    return span._replace(column=start + 1, length=length)


TARGET_REACH = 1_000
"""How far after a finding's column its target's quoted value is looked for (the rest of the start tag).

A report shows a short stretch of each line: it reads only that much of a line, however long the line
and however many findings it holds."""


class Line:
    """One line of a source, read in parts: a report shows a window of it and never copies it whole."""

    def __init__(self, text: str, start: int, end: int) -> None:
        self.text, self.start, self.end = text, start, end

    def __len__(self) -> int:
        return self.end - self.start

    def part(self, begin: int, stop: int) -> str:
        """Characters ``begin`` to ``stop`` of the line (clipped to it), tabs shown as spaces."""
        return self.text[self.start + begin : self.start + min(stop, len(self))].replace("\t", " ")


_MARKDOWN_NAMES = (
    ("[[", "|"),
    ("[[", "\\|"),
    ("[[", "]]"),
    ("(#", ")"),
    ("{#", "}"),
    ("=", "}"),
    ("=", " "),
    (" ", ""),
)
"""What stands around a name in the Markdown dialect: ``[[name|`` (``[[name\\|`` in a table's cell), ``(#id)``,
``{#id}``, ``{dfn=name}``, ``::: definition name``; a span (``[text]{dfn=name}``) is named at its end, so its own
attribute comes first."""
_SPAN_NAMES = (
    ("dfn=", "}"),
    ("dfn=", " "),
    ("value=", "}"),
    ("value=", " "),
    ("(#", ")"),
    ("(#", " "),
    ("<#", ">"),
)
"""Where a finding made at a ``[`` names its target: a span's own attribute after its words, or a link's address,
before its title or in angle brackets (``[Go](#nope)`` is no span: its finding stood at a later ``{dfn=nope}`` of
the line; ``[Go](<#bad dest>)`` at its ``[``)."""


def _underline(
    line: Line, column: int, target: str | None, room: int, names: tuple[tuple[str, str], ...] = ()
) -> tuple[int, int]:
    """What to underline: the target where the source's syntax names it (``names``: the Markdown dialect's
    places, tried first), else its quoted value after the column, else the tag name."""
    if target:
        near = line.part(column, column + TARGET_REACH + len(target) + 2)
        if names and near.startswith(target) and not _continues_a_name(near[len(target) : len(target) + 1]):
            return column, len(target)  # made at the name itself (an attribute's key): never a later one of the line
        written = _reference_name(near, target) if names else None
        if written is not None:
            return column + written[0], written[1]
        spanned = bool(names) and near.startswith("[") and not near.startswith("[[")
        for group in (_SPAN_NAMES, names[:-1], names[-1:]) if spanned else (names[:-1], names[-1:]):
            found = _first(near, target, group)
            if found is not None:
                return column + found, max(len(target), 1)
        quoted = near.find(f'"{target}"')
        if quoted == -1:
            quoted = near.find(f"'{target}'")
        if quoted != -1:
            return column + quoted + 1, max(len(target), 1)
        attribute = near.find(f" {target}=")
        if attribute != -1:
            return column + attribute + 1, len(target)
    word = line.part(column, column + room)  # no further than the caret line can show
    end = 1
    while end < len(word) and (word[end].isalnum() or word[end] in "_-:."):
        end += 1
    return column, max(end, 1)


def _reference_name(near: str, target: str) -> tuple[int, int] | None:
    """Where the name of the reference ``near`` opens with stands, and its length, when it is ``target`` written
    another way (``[[Fightr]]``, ``[[nerve tst]]``): a finding made at a reference is about it, yet was placed at a
    later ``[[fightr|`` or a word ``nerve_tst`` of the line."""
    if not near.startswith("[[") or near.startswith("[[["):
        return None
    end = min((at for at in (near.find(mark, 2) for mark in ("\\|", "|", "]]", "\n")) if at != -1), default=-1)
    name = near[2:end] if end != -1 else ""
    folded = _NOT_A_NAME.sub("_", name.strip().lower()).strip("_")
    if not folded or folded != target.lower():
        return None
    return 2 + len(name) - len(name.lstrip()), len(name.strip())


_NOT_A_NAME = re.compile(r"[^a-z0-9_:]+")
"""What a reference's written name loses to become the name it refers to (the reader's ``term_name``)."""


def _first(near: str, target: str, names: tuple[tuple[str, str], ...]) -> int | None:
    """Where the first of the ways ``names`` write ``target`` stands in ``near`` (the name's own column): the ways
    were tried one after the other, so ``[[zz]] and [[zz|x]]`` was reported twice at the second (``[[zz|`` first)."""
    found = [near.find(f"{before}{target}{after}") + len(before) for before, after in names]
    return min((at for at, (before, _) in zip(found, names, strict=True) if at >= len(before)), default=None)


def _continues_a_name(character: str) -> bool:
    """Whether a character after a name would make it another, longer name (``fog`` in ``fog_bank``)."""
    return character.isalnum() or character in "_-"
