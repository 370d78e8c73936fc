"""Phrases of a language file as regular expressions, and finding which of their categories a text states.

A phrase is words separated by spaces, matched as whole words whatever their case; an apostrophe
matches the typewriter and the typographic one; a phrase ending with an apostrophe (``d'``) joins the next word; ``...``
between two words stands for up to :data:`GAP_WORDS` words of the same clause (``ne peut ... que``).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

CAPITALS = "".join(c for c in map(chr, range(0x41, 0x530)) if c.isupper() and c.isalpha())
"""The capital letters of the Latin, Greek and Cyrillic scripts, as a character class's body: a sentence starts
with one (Polish « Łucznicy », « Ściana » as well as French « Élu »)."""
SMALL_LETTERS = "".join(c for c in map(chr, range(0x61, 0x530)) if c.islower() and c.isalpha())
"""The small letters of the same scripts (« ławka », « œil » as well as « élu »)."""
GAP_WORDS = 6
"""How many words ``...`` in a phrase may stand for."""
_GAP = rf"(?:\s+[^\s,;:.!?()]+){{0,{GAP_WORDS}}}?\s+"
_APOSTROPHES = "'’"


def phrase_source(phrase: str) -> str:
    """A phrase as a regular expression's source (without the boundaries around it)."""
    parts: list[str] = []
    for index, word in enumerate(phrase.split(" ")):
        if word == "...":
            parts.append(_GAP)
            continue
        if index and parts and parts[-1] != _GAP:
            parts.append(r"\s+")
        parts.append("".join(f"[{_APOSTROPHES}]" if c in _APOSTROPHES else re.escape(c) for c in word))
    return "".join(parts)


def bounded(phrase: str) -> str:
    """A phrase's source with word boundaries where it starts or ends with a letter or a digit."""
    start = r"(?<![^\W_])" if phrase[:1].isalnum() else ""
    end = r"(?![^\W_])" if phrase[-1:].isalnum() else ""
    return start + phrase_source(phrase) + end


def alternatives(phrases: Iterable[str], *, boundaries: bool = True) -> str:
    """Phrases as one alternation, longest first (so that "no more than" is tried before "more than")."""
    ordered = sorted(set(phrases), key=lambda p: (-len(p), p))
    if not ordered:
        return r"(?!x)x"
    return "|".join(bounded(p) if boundaries else phrase_source(p) for p in ordered)


@dataclass(frozen=True, slots=True)
class Found:
    """A phrase found in a text: its category and where it is."""

    category: str
    start: int
    end: int


class PhraseFinder:
    """Finds the phrases of several categories in texts: where two overlap, the one that starts first wins, and
    of those starting at the same word the longest.

    Phrases are filed by their first word, so a text is read once, word by word, and only the phrases that
    start with a word are tried where it stands: linear in the text, whatever the number of phrases.
    """

    def __init__(self, categories: Sequence[tuple[str, Sequence[str]]]) -> None:
        self.categories = {phrase: name for name, phrases in categories for phrase in phrases}
        self._by_first: dict[str, list[tuple[re.Pattern[str], str]]] = {}
        for phrase in sorted(self.categories, key=lambda p: (-len(p), p)):
            pattern = re.compile(phrase_source(phrase) + (r"(?![^\W_])" if phrase[-1:].isalnum() else ""), re.I)
            self._by_first.setdefault(_first_word(phrase), []).append((pattern, phrase))

    def find(self, text: str) -> list[Found]:
        """Every phrase in the text, in order, none overlapping another."""
        found: list[Found] = []
        end = 0
        for word in _WORD.finditer(text):
            if word.start() < end:
                continue
            for pattern, phrase in self._by_first.get(word.group().lower(), ()):
                match = pattern.match(text, word.start())
                if match is not None:
                    found.append(Found(self.categories[phrase], match.start(), match.end()))
                    end = match.end()
                    break
        return found

    def categories_in(self, text: str) -> frozenset[str]:
        """The categories the text states."""
        return frozenset(found.category for found in self.find(text))


_WORD = re.compile(r"[^\W_]+")


def _first_word(phrase: str) -> str:
    """The first word of a phrase as a text's words are read (letters and digits: « d' » is ``d``)."""
    found = _WORD.match(phrase)
    return found.group().lower() if found else phrase[:1]


@functools.lru_cache(maxsize=64)
def finder(categories: tuple[tuple[str, tuple[str, ...]], ...]) -> PhraseFinder:
    """A finder for some categories, made once."""
    return PhraseFinder(categories)
