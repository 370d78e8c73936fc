"""What a conversion carries besides the model: the source's comments and the lint's suppressions.

The model keeps neither (a comment shows nothing, a suppression only hides findings), so the writers never
see them. They are carried here, after writing: each mark is tied to the nodes on the line it covers (a
suppression: its own line, and the next one when it stands alone on its line; a comment alone on its lines:
the node after it) and written again at those nodes' lines in the converted text, found by reading the
converted text back and pairing its nodes with the source's in document order (both readers give the same
model). A suppression lands where it covers the same nodes, so it hides the same findings; a comment lands
before the same block. The converted text with its marks is read back once more and kept only when it gives
the same model and findings of reading, and every suppression covers its nodes there; a mark that cannot be
placed so is left out and named (:attr:`Converted.left`), with its place in the source.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from itertools import accumulate, pairwise

from rulebook.closed_spans import COMMENT, ClosedSpans
from rulebook.lint.suppressions import find_suppressions
from rulebook.model import (
    Definition,
    Document,
    Figure,
    Illustration,
    Important,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Note,
    Reference,
    Section,
    Table,
    Value,
    walk,
)
from rulebook.readers import SourceResult
from rulebook.source import SourceText, Span

_XML_MARKS = (COMMENT, ("<?rulebook", "?>"))
"""A mark of an XML source: a comment, or an instruction of ours (``<?rulebook`` and a word's end)."""
_MARKDOWN_MARKS = (COMMENT,)
_WORD_GOES_ON = re.compile(r"\w")
_MODEL_COMMENT = re.compile(
    r"<!--\s*(?:rulebook\s*|rulebook:\s*(?:mechanic|value|sequence|list|table)\b.*)?-->", re.DOTALL
)
"""A Markdown comment the model holds (a mechanic, a list's or table's declaration), or the writer writes
itself (``<!-- rulebook -->``, ``<!-- -->`` between two lists): no mark."""
_INSTRUCTION = re.compile(r"<\?rulebook\s+ignore\b(.*?)\?>", re.DOTALL)
_BLANK_LINE = re.compile(r"\n[ \t]*\r?\n|\r[ \t]*\r")
"""A blank line (under any line end): the end of a paragraph, which a comment opened in its text cannot cross."""
_SPACES = re.compile(r"[ \t]+")
_IS_SUPPRESSION = re.compile(r"<\?rulebook\s+ignore\b|<!--\s*rulebook:\s*ignore\b")
_NO_TEXT_AFTER = ("#", ":::", "|---", "{", "---", "<!--")
"""Markdown lines a comment cannot end: a heading (HTML in it is reported), a directive's fence, a table's delimiter
row, a block's attributes, a section's end, an HTML block (a table's row takes one in its last cell)."""

Reader = Callable[[str, str], SourceResult]
Placed = (
    Reference
    | Link
    | Value
    | Mechanic
    | Definition
    | Important
    | LineBreak
    | Note
    | Table
    | ItemList
    | Figure
    | Illustration
    | Section
)


@dataclass(frozen=True, slots=True)
class Mark:
    """A comment or suppression of the source, with the place it covers."""

    text: str
    """As written."""
    span: Span
    """Where it starts."""
    alone: bool
    """Whether it stands alone on its lines (it then covers the line after it too)."""
    suppression: bool
    """Whether it is a suppression (``<?rulebook ignore ...?>``, ``<!-- rulebook: ignore ... -->``)."""
    lines: range
    """The source lines whose nodes it belongs to."""


@dataclass(frozen=True, slots=True)
class NotCarried:
    """A mark the conversion leaves out, and why."""

    mark: Mark
    reason: str
    """Why, in words for the note that says so (``its line holds nothing the model keeps``)."""


@dataclass(frozen=True, slots=True)
class Converted:
    """A converted text with the marks it carries, and those it could not."""

    text: str
    """The converted file."""
    left: tuple[NotCarried, ...]
    """The marks not carried, in source order."""


def find_marks(source: SourceText, markdown: bool) -> list[Mark]:
    """The comments and suppressions of a source, in order (a Markdown source's comments the model holds left out)."""
    text = source.text
    found = []
    # each opener's closer found once (an expression searched from each `<!--` read to the end for every one no
    # `-->` followed: 32,000 in a code block took 25 s)
    spans, position = ClosedSpans(text, _MARKDOWN_MARKS if markdown else _XML_MARKS), 0
    while (found_span := spans.next(position)) is not None:
        opened, position, kind = found_span
        if kind == 1 and _WORD_GOES_ON.match(text, opened + len("<?rulebook")):  # `<?rulebooks`: no mark of ours
            position = opened + 1
            continue
        first, column = source.position(opened)
        start, _ = source.line_bounds(first)
        blank = _BLANK_LINE.search(text, opened, position) if markdown else None  # read up to the first one only
        if blank is not None and text[start:opened].strip():
            # opened in a paragraph's text and closed past its end: CommonMark shows the `<!--` as text, and the
            # converted file holds it as text (it was said "a comment is not carried over"); so does every
            # `<!--` of that paragraph after it
            position = blank.start()
            continue
        written = text[opened:position]
        if markdown and _MODEL_COMMENT.fullmatch(written):
            continue
        last = source.position(position)[0]
        _, end = source.line_bounds(last)
        alone = not text[start:opened].strip() and not text[position:end].strip()
        lines = range(last + 1, last + 2) if alone else range(first, last + 1)
        span = Span(source.path, first, column, len(written.split("\n", 1)[0]))
        found.append(Mark(written, span, alone, bool(_IS_SUPPRESSION.match(written)), lines))
    return found


def carry_marks(
    source: SourceText,
    document: Document,
    written: str,
    read_back: Reader,
    findings: Sequence[tuple[Span, str]],
    *,
    markdown_source: bool,
    to_markdown: bool,
) -> Converted:
    """``written`` (``document`` converted) with the marks of ``source`` placed where they cover the same nodes;
    ``read_back`` reads the converted format (the dialect when ``to_markdown``); ``findings``: the places and codes
    of the source's findings before suppression, which tie each suppression to the nodes of those it hides."""
    marks = find_marks(source, markdown_source)
    if not marks:
        return Converted(written, ())
    unread = "the converted file could not be read back"
    nodes = _placed(document)
    ties = _Ties(nodes, findings)
    tied = {id(mark): ties.of(mark) for mark in marks}
    plain = read_back(written, "converted")
    converted_nodes = _paired(nodes, plain)
    if converted_nodes is None:
        return Converted(written, tuple(NotCarried(mark, unread) for mark in marks))
    split = _split(written, [tied[id(mark)] for mark in marks if mark.suppression], converted_nodes)
    if split != written:  # kept when it reads as the text did (a line end in a paragraph is white space)
        again = read_back(split, "converted")
        paired = _paired(nodes, again)
        if paired is not None and _reading(again) == _reading(plain):
            written, plain, converted_nodes = split, again, paired
    lines_of: dict[int, tuple[int, ...]] = {}  # by the tuple of nodes, which marks alike share
    for found in tied.values():
        if id(found) not in lines_of:
            lines_of[id(found)] = tuple(sorted({converted_nodes[index][1] for index in found}))
    wanted = {id(mark): lines_of[id(tied[id(mark)])] for mark in marks}
    kept = [mark for mark in marks if wanted[id(mark)] and (to_markdown or not _dashed(mark))]
    baseline = _Baseline(_reading(plain), tuple(line for _, line in converted_nodes))
    text = _placed_text(written, kept, wanted, to_markdown)
    if not _faithful(text, kept, wanted, read_back, baseline):
        kept = _faithful_part(written, kept, wanted, to_markdown, read_back, baseline)
        text = _placed_text(written, kept, wanted, to_markdown)
    carried = {id(mark) for mark in kept}
    last = max((line for _, line in nodes), default=0)
    closing = [m for m in marks if id(m) not in carried and _closes(m, last, to_markdown)]
    if closing:
        ended = _ended_with(text, closing, to_markdown)
        if _reading(read_back(ended, "converted")) == baseline.reading:
            text = ended
            carried |= {id(mark) for mark in closing}
    left = (NotCarried(m, _why(m, wanted[id(m)], to_markdown)) for m in marks if id(m) not in carried)
    return Converted(text, tuple(left))


def _closes(mark: Mark, last: int, to_markdown: bool) -> bool:
    """Whether a mark is a comment alone on its lines after every node of the document (the source's last words:
    written after the converted text's)."""
    return not mark.suppression and mark.alone and mark.span.line > last and (to_markdown or not _dashed(mark))


def _ended_with(text: str, marks: list[Mark], to_markdown: bool) -> str:
    """``text`` with the comments after its end, each on a line of its own (in XML, after the root element)."""
    gap = "\n\n" if to_markdown else "\n"
    return text.rstrip("\n") + gap + "\n".join(_as_target(mark, to_markdown) for mark in marks) + "\n"


def _dashed(mark: Mark) -> bool:
    """Whether a comment holds ``--`` within it, which Markdown allows and XML does not."""
    return mark.text.startswith("<!--") and "--" in mark.text[4:-3]


def _why(mark: Mark, lines: tuple[int, ...], to_markdown: bool) -> str:
    if not to_markdown and _dashed(mark):
        return "XML allows no `--` within a comment"
    if not lines and mark.suppression:
        return "its line holds nothing the model keeps"
    if not lines and not mark.alone:
        return "it stands within a paragraph's text"
    return "the converted file has no place for it there"


def _placed(document: Document) -> list[tuple[Placed, int]]:
    """Every node that has a place, with its line, in document order."""
    return [(node, node.span.line) for node in walk(document.body) if not isinstance(node, str)]


def _paired(nodes: list[tuple[Placed, int]], converted: SourceResult) -> list[tuple[Placed, int]] | None:
    """The converted text's nodes, one for each of the source's (None: not the same nodes)."""
    if converted.document is None:
        return None
    found = _placed(converted.document)
    return found if [type(n) for n, _ in found] == [type(n) for n, _ in nodes] else None


def _split(written: str, tied: list[tuple[int, ...]], converted: list[tuple[Placed, int]]) -> str:
    """``written`` with a line end between the nodes a suppression is tied to (``tied``: their indexes) and others that
    share their converted line (a Markdown paragraph is one line, as the XML's text may be), so that it covers there
    what it covers in the source: the line end takes the place of the spaces before the node, or comes before it."""
    by_line: dict[int, list[int]] = {}
    for index, (node, line) in enumerate(converted):
        if not isinstance(node, LineBreak):  # a paragraph's break has the next paragraph's place, and no finding
            by_line.setdefault(line, []).append(index)
    at: set[int] = set()
    for indexes in {id(indexes): indexes for indexes in tied}.values():  # marks alike share their tuple
        covered = set(indexes)
        for line in {converted[index][1] for index in covered}:
            row = by_line.get(line, [])
            at.update(converted[b][0].offset for a, b in pairwise(row) if (a in covered) != (b in covered))
    for offset in sorted(at, reverse=True):
        start = len(written[:offset].rstrip(" "))  # spaces before a line end would make a break of it in Markdown
        written = written[:start] + "\n" + written[offset:]
    return written


class _Ties:
    """Ties each mark to the nodes it belongs to (:meth:`of`). The nodes and the findings are filed by line once, and
    marks alike (the same lines and codes) share one answer: a thousand suppressions on one line, each hiding the
    thousand findings there, were tied by three nested passes over the line (cubic: minutes for one line)."""

    def __init__(self, nodes: list[tuple[Placed, int]], findings: Sequence[tuple[Span, str]]) -> None:
        self._on_line: dict[int, list[int]] = {}
        for index, (node, line) in enumerate(nodes):
            if not isinstance(node, LineBreak):  # a paragraph's break has the next paragraph's place, and no finding
                self._on_line.setdefault(line, []).append(index)
        self._columns = {line: [nodes[i][0].span.column for i in found] for line, found in self._on_line.items()}
        self._found: dict[tuple[int, str], list[int]] = {}
        for span, code in findings:
            self._found.setdefault((span.line, code), []).append(span.column)
        by_line = sorted((line, index) for index, (_, line) in enumerate(nodes))
        self._lines = [line for line, _ in by_line]
        self._first_from = list(accumulate(reversed([index for _, index in by_line]), min))[::-1]
        """The first node in document order of those from each place of ``_lines`` on."""
        self._known: dict[object, tuple[int, ...]] = {}
        self._at_finding: dict[tuple[int, str], tuple[int, ...] | None] = {}

    def of(self, mark: Mark) -> tuple[int, ...]:
        """The indexes of the nodes a mark belongs to (none: nothing to tie it to). A suppression's: the node at each
        finding it hides (the last on the finding's line that starts at or before it), or when it hides none, the
        first node on the lines it covers; a comment's: the first node on its line, or (alone on its lines) after
        it. The same tuple for marks alike."""
        key = (mark.lines, _codes(mark)) if mark.suppression else (mark.lines, mark.alone, mark.span.line)
        if key not in self._known:
            self._known[key] = self._suppressed(mark) if mark.suppression else self._commented(mark)
        return self._known[key]

    def _first_on(self, lines: range) -> tuple[int, ...]:
        firsts = [self._on_line[line][0] for line in lines if line in self._on_line]
        return (min(firsts),) if firsts else ()

    def _commented(self, mark: Mark) -> tuple[int, ...]:
        on_lines = self._first_on(mark.lines)
        if on_lines or not mark.alone:
            return on_lines
        after = bisect_right(self._lines, mark.span.line)
        return (self._first_from[after],) if after < len(self._lines) else ()

    def _suppressed(self, mark: Mark) -> tuple[int, ...]:
        tied: set[int] = set()
        hides = False
        for line in mark.lines:
            for code in set(_codes(mark)):
                if (line, code) not in self._found:
                    continue
                hides = True
                found = self._nodes_at_findings(line, code)
                if found is None:
                    return ()  # a finding in text alone: no node holds its place
                tied.update(found)
        return tuple(sorted(tied)) if hides else self._first_on(mark.lines)

    def _nodes_at_findings(self, line: int, code: str) -> tuple[int, ...] | None:
        """The node at each finding of ``code`` on ``line``: the last that starts at or before it, else the line's
        first (None: the line has no node)."""
        if (line, code) not in self._at_finding:
            indexes, columns = self._on_line.get(line), self._columns.get(line)
            if indexes is None or columns is None:
                self._at_finding[line, code] = None
            else:
                ordered = all(a <= b for a, b in pairwise(columns))
                found = set()
                for column in self._found[line, code]:
                    if ordered:
                        before = bisect_right(columns, column)
                        found.add(indexes[before - 1] if before else indexes[0])
                    else:  # document order is not the order of columns here: the last that starts before it
                        before_it = [i for i, c in zip(indexes, columns, strict=True) if c <= column]
                        found.add(before_it[-1] if before_it else indexes[0])
                self._at_finding[line, code] = tuple(sorted(found))
        return self._at_finding[line, code]


def _as_target(mark: Mark, to_markdown: bool) -> str:
    """A mark as the converted format writes it: a processing instruction is a comment in Markdown."""
    instruction = _INSTRUCTION.fullmatch(mark.text)
    if to_markdown and instruction is not None:
        return f"<!-- rulebook: ignore {' '.join(instruction.group(1).split())} -->"
    return mark.text


def _placed_text(written: str, marks: Iterable[Mark], wanted: dict[int, tuple[int, ...]], to_markdown: bool) -> str:
    """``written`` with each mark on a line of its own before its nodes' line, or at that line's end."""
    lines = written.split("\n")
    before: dict[int, list[str]] = {}
    after: dict[int, list[str]] = {}
    for mark in marks:
        for number in wanted[id(mark)]:
            index = number - 1
            ends = _can_end(lines[index], to_markdown)
            if not mark.suppression:  # a comment goes before a block's attributes (`{...}`), not between them and it
                while to_markdown and index and lines[index - 1].startswith("{"):
                    index -= 1
            starts = not to_markdown or index == 0 or not lines[index - 1].strip()
            if ends and (not mark.alone or not starts):
                after.setdefault(index, []).append(_as_target(mark, to_markdown))
            else:
                before.setdefault(index, []).append(_as_target(mark, to_markdown))
    out = []
    for index, line in enumerate(lines):
        indent = line[: len(line) - len(line.lstrip())]
        out += [indent + text for text in before.get(index, ())]
        out.append(_ended(line, after[index]) if index in after else line)
    return "\n".join(out)


def _ended(line: str, marks: list[str]) -> str:
    """A line with marks at its end: a table row's within its last cell (the row's last ``|`` stays last)."""
    if line.rstrip().endswith("|") and line.lstrip().startswith("|"):
        end = line.rstrip()[:-1].rstrip()
        return " ".join([end, *marks]) + " |"
    return " ".join([line, *marks])


def _can_end(line: str, to_markdown: bool) -> bool:
    """Whether a comment may end the converted line: in Markdown, not a heading, fence, table row, block's
    attributes or a break (``\\`` at its end)."""
    if not to_markdown:
        return True
    stripped = line.strip()
    return bool(stripped) and not stripped.startswith(_NO_TEXT_AFTER) and not stripped.endswith("\\")


@dataclass(frozen=True, slots=True)
class _Baseline:
    """The converted text without marks, as read back."""

    reading: tuple[object, ...]
    """Its findings' words and its model written again (:func:`_reading`)."""
    lines: tuple[int, ...]
    """The line of each node that has a place, in document order."""


def _reading(result: SourceResult) -> tuple[object, ...]:
    """What a reading gives, but for places: the findings' words and the model written again."""
    from rulebook.convert.markdown_writer import write_markdown

    findings = tuple((d.code, d.message) for d in result.diagnostics)
    if result.document is None:
        return findings, None
    return findings, _SPACES.sub(" ", write_markdown(result.document))  # spaces in text are layout (docs/format.md)


def _faithful(
    text: str, marks: list[Mark], wanted: dict[int, tuple[int, ...]], read_back: Reader, baseline: _Baseline
) -> bool:
    """Whether the text with its marks reads as without them, and each suppression covers its nodes' lines there."""
    result = read_back(text, "converted")
    if result.document is None or _reading(result) != baseline.reading:
        return False
    moved = dict(zip(baseline.lines, (line for _, line in _placed(result.document)), strict=True))
    found = find_suppressions(SourceText.from_text("converted", text))
    covered = {(line, s.codes) for s in found for line in s.lines}
    return all(
        (moved[line], _codes(mark)) in covered for mark in marks if mark.suppression for line in wanted[id(mark)]
    )


def _codes(mark: Mark) -> tuple[str, ...]:
    """The codes a suppression names."""
    (suppression,) = find_suppressions(SourceText.from_text("mark", mark.text))
    return suppression.codes


def _faithful_part(
    written: str,
    marks: list[Mark],
    wanted: dict[int, tuple[int, ...]],
    to_markdown: bool,
    read_back: Reader,
    baseline: _Baseline,
) -> list[Mark]:
    """The marks that keep the text faithful (when all at once do not): halves tried in turn, a half that fails
    halved again, so that a few marks out of place cost a few readings each, not one reading per mark."""
    kept: list[Mark] = []

    def attempt(group: list[Mark]) -> None:
        trial = [*kept, *group]
        if _faithful(_placed_text(written, trial, wanted, to_markdown), trial, wanted, read_back, baseline):
            kept.extend(group)
        elif len(group) > 1:
            attempt(group[: len(group) // 2])
            attempt(group[len(group) // 2 :])

    attempt(marks[: len(marks) // 2])
    attempt(marks[len(marks) // 2 :])
    return kept  # in order: each half is tried before the next
