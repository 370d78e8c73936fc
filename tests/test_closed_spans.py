"""Comments and instructions found in one pass: the spans ``opener.*?closer`` (``re.DOTALL``) finds, in order."""

from __future__ import annotations

import random
import re

import pytest

from rulebook.closed_spans import COMMENT, ClosedSpans, closed_spans, searched_end

KINDS = (COMMENT, ("<?r", "?>"))
EXPRESSION = re.compile(r"<!--.*?-->|<\?r.*?\?>", re.DOTALL)
PIECES = ("<!--", "-->", "<?r", "?>", "-", ">", "<", "!", "?", "r", "a", " ", "\n")


@pytest.mark.parametrize("seed", range(300))
def test_the_spans_are_those_the_expression_finds(seed: int) -> None:
    rolled = random.Random(seed)
    text = "".join(rolled.choice(PIECES) for _ in range(rolled.randrange(60)))
    found = [(start, end) for start, end, _ in closed_spans(text, KINDS)]
    assert found == [match.span() for match in EXPRESSION.finditer(text)], text


@pytest.mark.parametrize("seed", range(100))
def test_no_match_of_the_expression_ends_past_the_searched_end(seed: int) -> None:
    """The expression asked only up to :func:`searched_end` finds what it finds in the whole text."""
    rolled = random.Random(seed)
    text = "".join(rolled.choice(PIECES) for _ in range(rolled.randrange(60)))
    end = searched_end(text, COMMENT[1])
    comments = re.compile(r"<!--.*?-->", re.DOTALL)
    assert comments.sub("", text[:end]) + text[end:] == comments.sub("", text), text
    assert searched_end("no closer", "-->") == 0 and searched_end("a --> b", "-->") == 5


def test_an_opener_no_closer_follows_ends_its_kind_alone() -> None:
    text = "<!-- a <?r b ?> <!-- c"
    assert list(closed_spans(text, KINDS)) == [(7, 15, 1)]


def test_each_stretch_of_text_is_read_once_however_many_openers_are_left_open() -> None:
    """8,000 openers no closer follows: each was searched to the end of the text (25 s at 200 KB)."""

    class Counted(str):
        read = 0

        def find(self, sub: str, start: int = 0, end: int | None = None) -> int:  # type: ignore[override]
            found = str.find(self, sub, start, len(self) if end is None else end)
            Counted.read += (found + len(sub) if found != -1 else len(self)) - start
            return found

    for openers in (1_000, 8_000):
        Counted.read = 0
        text = Counted("<!-- rulebook: ignore x\n" * openers + "<?r ?>")
        assert list(closed_spans(text, KINDS)) == [(len(text) - 6, len(text), 1)]
        assert Counted.read <= 3 * len(text), (openers, Counted.read)


def test_positions_asked_for_go_on_from_inside_a_span() -> None:
    """A caller may go on from inside a span (a Markdown comment cut by a blank line): the spans from there."""
    text = "a <!-- b\n\nc <!-- d --> e"
    spans = ClosedSpans(text, (COMMENT,))
    assert spans.next(0) == (2, 22, 0)
    assert spans.next(9) == (12, 22, 0)
    assert spans.next(22) is None
