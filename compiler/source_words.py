"""Plain text found back in its source, across the markup between its words, in time that does not grow
with the text before it.

A sentence as the diff reads it (plain text) is written in a source with markup between its words:
spaces, emphasis marks, tags. Searching the source for an expression of its words from its section's
start took, for each of a section's thousands of sentences, time in the whole section. Here the
source's words are indexed once, and a sentence is looked for only where its rarest word stands.
"""

from __future__ import annotations

import re
from array import array
from bisect import bisect_left

BETWEEN_WORDS = r"(?:\s|<[^>]*>|\*)+"
"""What may stand between two words of plain text in a source: spaces, markup, emphasis marks (one mark
at a time: runs of marks repeated, ``(?:\\*+)+``, took exponential time to rule out)."""
CANDIDATES = 1_000
"""How many places of its rarest word a text is tried at before it is taken as not found: an ordinary
text is found at one of the first few; only text built to repeat could need more."""
SEARCHED = 20
"""How many times its length a source may be searched for texts whose words hold ``*`` or ``<`` (from
their section's start each): past it, such a text is not found (its finding stands at its heading)."""
_WORD = re.compile(r"<[^<>]*>|(?P<word>(?:[^\s*<]|<(?![^<>]*>))+)")
"""A tag, or a word of a source: what stands between spaces, emphasis marks and tags."""


class SourceWords:
    """A source's words in order (where each starts and ends), and where each word's letters and digits
    stand (``[Turn``, ``Turn,`` and ``Turn`` under ``Turn``)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.starts = array("q")
        self.ends = array("q")
        self.at: dict[str, array[int]] = {}
        """The indices of the words of each core (:func:`core`), in order."""
        for match in _WORD.finditer(text):
            word = match.group("word")
            if word is not None:
                self.at.setdefault(core(word), array("q")).append(len(self.starts))
                self.starts.append(match.start())
                self.ends.append(match.end())
        self.closing = (len(text) + 1, -1)
        """The last ``>`` looked for: from where, and where it was found (-1: none after); none yet."""
        self.searched = 0
        """How many characters the expression has searched (words holding markup characters)."""

    def find(self, words: list[str], offset: int) -> tuple[int, int] | None:
        """Where ``words`` first stand at or after ``offset``, one after the other across markup (as the
        expression of the words joined by :data:`BETWEEN_WORDS` matches them): their start and end."""
        if any("*" in word or "<" in word for word in words):  # markup in a word: the expression's answer
            return self._search(words, offset)
        # The words between the first and the last are whole words of the source; the first may end one,
        # the last begin one: the rarest is looked for among the middle ones when there are any.
        middle = range(1, len(words) - 1) if len(words) > 2 else range(len(words))
        rarest = min(middle, key=lambda k: len(self.at.get(core(words[k]), ())))
        places = self.at.get(core(words[rarest]), array("q"))
        first = bisect_left(self.ends, offset + 1)  # the first word ending after the offset
        start = bisect_left(places, first + rarest)
        for index in places[start : start + CANDIDATES]:
            at = self._start(words, index - rarest, offset)
            if at is not None:
                end = self._match(words, at)
                if end is not None:
                    return at, end
        return None

    def _search(self, words: list[str], offset: int) -> tuple[int, int] | None:
        """The expression's first match from ``offset``, while it has searched less than
        :data:`SEARCHED` times the text (then: not found)."""
        if self.searched > SEARCHED * len(self.text):
            return None
        match = re.compile(BETWEEN_WORDS.join(map(re.escape, words))).search(self.text, offset)
        self.searched += (match.end() if match is not None else len(self.text)) - offset
        return match.span() if match is not None else None

    def _start(self, words: list[str], index: int, offset: int) -> int | None:
        """Where the first of ``words`` stands in the source's word ``index`` (at its end when more follow)."""
        first, start, end = words[0], max(self.starts[index], offset), self.ends[index]
        if len(words) > 1:  # followed by markup: it ends the source's word
            at = end - len(first)
            return at if at >= start and self.text.startswith(first, at) else None
        found = self.text.find(first, start, end)
        return found if found != -1 else None

    def _match(self, words: list[str], at: int) -> int | None:
        """Where ``words`` end if they stand from ``at`` (the first one does), separated as in a source."""
        position = at + len(words[0])
        for word in words[1:]:
            after = self._separators(position)
            if after == position or not self.text.startswith(word, after):
                return None
            position = after + len(word)
        return position

    def _separators(self, position: int) -> int:
        """The end of the spaces, emphasis marks and tags from ``position`` (a tag: up to the next ``>``)."""
        text = self.text
        while position < len(text):
            char = text[position]
            if char.isspace() or char == "*":
                position += 1
            elif char == "<" and (close := self._closing(position + 1)) != -1:
                position = close + 1
            else:
                break
        return position

    def _closing(self, position: int) -> int:
        """The first ``>`` from ``position`` (-1: none), remembered: markup read again is not searched again."""
        start, found = self.closing
        if not (start <= position and (position <= found or found == -1)):
            found = self.text.find(">", position)
            self.closing = (position, found)
        return found


def core(word: str) -> str:
    """A word without the characters other than letters and digits at its ends (``[Turn,`` -> ``Turn``)."""
    start, end = 0, len(word)
    while start < end and not word[start].isalnum():
        start += 1
    while end > start and not word[end - 1].isalnum():
        end -= 1
    return word[start:end]
