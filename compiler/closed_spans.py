"""Comments and processing instructions of a text, found in one pass.

An expression such as ``<!--.*?-->`` (``re.DOTALL``) searched from each ``<!--`` reads to the end of the text for
every opener that no ``-->`` follows: 8,000 openers without their closer (in a code block, in a CDATA section,
where they are text) took the square of their number, 25 s at 200 KB. Here each opener and each closer is found
once: a span runs from an opener to the first closer of its kind after it, and an opener with none ends the search
for its kind (no later one of that kind can close).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

COMMENT = ("<!--", "-->")
"""A comment's opener and closer (XML, HTML and Markdown)."""


class ClosedSpans:
    """The spans of a text from an opener to the first closer of its kind after it, asked for from positions that
    never go back (:meth:`next`); ``kinds``: each kind's opener and closer, the first kind first where two open at
    the same place."""

    def __init__(self, text: str, kinds: Sequence[tuple[str, str]]) -> None:
        self._text = text
        self._kinds = tuple(kinds)
        self._openers = [-2] * len(self._kinds)
        """Each kind's next opener found (from the last position asked), -1 for none left, -2 not looked for."""
        self._closers = [(0, -2)] * len(self._kinds)
        """Each kind's last closer looked for: from where, and where it is (-1: none from there on)."""

    def next(self, position: int) -> tuple[int, int, int] | None:
        """The first span starting at ``position`` or after, as its start, its end (past the closer) and its kind's
        index; None when there is none."""
        while True:
            found = None
            for kind, (opener, _) in enumerate(self._kinds):
                at = self._openers[kind]
                if at == -1:
                    continue
                if at < position:
                    at = self._openers[kind] = self._text.find(opener, position)
                if at != -1 and (found is None or at < found[0]):
                    found = (at, kind)
            if found is None:
                return None
            at, kind = found
            opener, closer = self._kinds[kind]
            end = self._closer(kind, at + len(opener))
            if end != -1:
                return at, end + len(closer), kind
            self._openers[kind] = -1  # no closer after it: none after any later opener of its kind either

    def _closer(self, kind: int, start: int) -> int:
        """Where the first closer of ``kind`` at ``start`` or after is (-1: none), each stretch of text read once."""
        searched, at = self._closers[kind]
        if searched <= start and (at == -1 or start <= at) and at != -2:
            return at
        at = self._text.find(self._kinds[kind][1], start)
        self._closers[kind] = (start, at)
        return at


def closed_spans(text: str, kinds: Sequence[tuple[str, str]]) -> Iterator[tuple[int, int, int]]:
    """Every span of ``text`` as ``opener.*?closer`` alternatives (``re.DOTALL``) find them one after the other, none
    inside another (:class:`ClosedSpans`), in linear time."""
    spans, position = ClosedSpans(text, kinds), 0
    while (span := spans.next(position)) is not None:
        yield span
        position = span[1]


def searched_end(text: str, closer: str) -> int:
    """How far an expression such as ``<!--.*?-->`` need search ``text``: past the last ``closer`` no match ends, and
    from each opener there it would read to the end of the text (the square of their number); 0 for no closer."""
    at = text.rfind(closer)
    return at + len(closer) if at != -1 else 0
