"""What a sentence states besides its quantities, read with its language's words: obligations and
frequencies (must, may, cannot, should, always, never), dice and rolls, rounding, and parentheses.

Each reader returns what it found with its place in the sentence, so a finding can mark it.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass

from rulebook.languages.data import Language
from rulebook.languages.phrases import Found, finder
from rulebook.languages.quantities import quantities

CONFLICTS = frozenset(
    {
        frozenset({"must", "may"}),
        frozenset({"must", "may_not"}),
        frozenset({"may", "may_not"}),
        frozenset({"should", "may_not"}),
        frozenset({"should", "may"}),
        frozenset({"must", "should"}),
        frozenset({"always", "never"}),
    }
)
"""Obligations and frequencies that contradict each other: a translation that says one where the original
says the other changes the rule. ``only`` (a restriction, "can only") contradicts nothing."""
SHOWN = {
    "must": "an obligation",
    "may": "a permission",
    "may_not": "a prohibition",
    "should": "a recommendation",
    "always": "always",
    "never": "never",
    "only": "a restriction",
    "up": "rounds up",
    "down": "rounds down",
}
"""How messages name each category."""


READ = 8192
"""Sentences whose words are remembered: each check asks for the same sentences' words again."""


@functools.lru_cache(maxsize=READ)
def modalities(text: str, language: Language) -> tuple[Found, ...]:
    """The obligation and frequency words of a sentence, in order (the longest phrase wins where two overlap)."""
    return tuple(finder(language.modality).find(text))


@functools.lru_cache(maxsize=READ)
def roundings(text: str, language: Language) -> tuple[Found, ...]:
    """The rounding phrases of a sentence (``up``, ``down``)."""
    return tuple(finder(language.rounding).find(text))


@dataclass(frozen=True, slots=True)
class Dice:
    """The dice a sentence writes: notation (``2D6``), words for a die, words for rolling."""

    notation: tuple[Found, ...]
    dice: tuple[Found, ...]
    rolls: tuple[Found, ...]

    @property
    def die(self) -> tuple[Found, ...]:
        """Where a die is written (notation or word): what a translation must keep."""
        return self.notation + self.dice

    @property
    def any(self) -> bool:
        """Whether the sentence writes a die or a roll at all."""
        return bool(self.notation or self.dice or self.rolls)


@functools.lru_cache(maxsize=READ)
def dice(text: str, language: Language) -> Dice:
    """The dice and rolls a sentence writes."""
    found = finder((("die", language.die_words), ("roll", language.roll_words))).find(text)
    notation = tuple(Found("die", q.start, q.end) for q in quantities(text, language) if q.kind == "dice")
    words = tuple(f for f in found if f.category == "die" and not any(n.start <= f.start < n.end for n in notation))
    return Dice(notation, words, tuple(f for f in found if f.category == "roll"))


PARENTHESIS_WORDS = 3
"""A parenthesis of fewer words ("(R&F)", "(s)") says too little to be checked."""
_PARENTHESIS = re.compile(r"\(([^()]{1,600})\)")


def parentheses(text: str) -> list[tuple[int, int]]:
    """Where a sentence's parenthesised parts of :data:`PARENTHESIS_WORDS` words or more are (brackets included)."""
    return [m.span() for m in _PARENTHESIS.finditer(text) if len(m.group(1).split()) >= PARENTHESIS_WORDS]
