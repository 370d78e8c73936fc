"""Columns for XML elements.

lxml gives each element a line (the line where its start tag *ends*) but no
column. Start tags appear in the text in document order, so scanning the text
for them and pairing the n-th start tag with the n-th element gives each
element its exact line and column.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from compiler.source import SourceText, Span

# Fast path: every "<" not followed by "/", "!" or "?" opens an element, unless it
# stands inside a comment, CDATA section or processing instruction.
_START_TAG = re.compile(r"<(?![/!?])")
# Careful path: skips those constructs explicitly.
_MARKUP = re.compile(
    r"<(?:!--.*?-->|!\[CDATA\[.*?\]\]>|\?.*?\?>|!DOCTYPE(?:[^\[>]|\[.*?\])*>|(?=[A-Za-z_:]))",
    re.DOTALL,
)


def start_tag_offsets(text: str, expected: int) -> list[int]:
    """Offsets of the ``<`` of every start tag, in document order.

    ``expected`` is the number of elements the parser found; the fast scan is
    exact whenever it finds that many, since it can only over-count.
    """
    offsets = [m.start() for m in _START_TAG.finditer(text)]
    if len(offsets) == expected:
        return offsets
    return [m.start() for m in _MARKUP.finditer(text) if m.end() == m.start() + 1]


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
