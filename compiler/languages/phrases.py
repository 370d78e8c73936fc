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
    """Finds the phrases of several categories in texts: the longest phrase wins where two overlap."""

    def __init__(self, categories: Sequence[tuple[str, Sequence[str]]]) -> None:
        self.categories = {phrase: name for name, phrases in categories for phrase in phrases}
        self._names = [name for name, _ in categories]
        ordered = sorted(self.categories, key=lambda p: (-len(p), p))
        self._groups = {f"p{index}": phrase for index, phrase in enumerate(ordered)}
        source = "|".join(f"(?P<p{index}>{bounded(phrase)})" for index, phrase in enumerate(ordered))
        self.pattern = re.compile(source or r"(?!x)x", re.IGNORECASE)

    def find(self, text: str) -> list[Found]:
        """Every phrase in the text, in order, none overlapping another."""
        found = []
        for match in self.pattern.finditer(text):
            if match.lastgroup is not None:
                found.append(Found(self.categories[self._groups[match.lastgroup]], *match.span()))
        return found

    def categories_in(self, text: str) -> frozenset[str]:
        """The categories the text states."""
        return frozenset(found.category for found in self.find(text))


@functools.lru_cache(maxsize=64)
def finder(categories: tuple[tuple[str, tuple[str, ...]], ...]) -> PhraseFinder:
    """A finder for some categories, made once."""
    return PhraseFinder(categories)
