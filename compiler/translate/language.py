"""Which language a text is written in, cheaply: counts of each language's commonest words.

Enough to refuse a swapped or wrong pair of files before comparing them (an English "translation",
the two files given in the wrong order), never to identify a language from a sentence. Imports
nothing from the project, so any input check (``rulebook lint`` too) may use it.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

STOP_WORDS: dict[str, frozenset[str]] = {
    "en": frozenset(
        [
            "the",
            "of",
            "and",
            "to",
            "a",
            "in",
            "is",
            "that",
            "it",
            "for",
            "on",
            "with",
            "as",
            "are",
            "be",
            "by",
            "this",
            "or",
            "from",
            "at",
            "an",
            "not",
            "which",
            "their",
            "they",
            "if",
            "any",
            "its",
            "has",
            "have",
            "than",
            "all",
            "can",
            "must",
            "may",
        ]
    ),
    "fr": frozenset(
        [
            "le",
            "la",
            "les",
            "de",
            "des",
            "du",
            "et",
            "un",
            "une",
            "est",
            "en",
            "que",
            "qui",
            "dans",
            "pour",
            "sur",
            "par",
            "au",
            "aux",
            "ne",
            "pas",
            "se",
            "son",
            "sa",
            "ses",
            "leur",
            "ou",
            "cette",
            "ce",
            "sont",
            "être",
            "peut",
            "doit",
            "avec",
        ]
    ),
    "de": frozenset(
        [
            "der",
            "die",
            "das",
            "und",
            "ist",
            "nicht",
            "ein",
            "eine",
            "zu",
            "den",
            "von",
            "mit",
            "sich",
            "des",
            "auf",
            "für",
            "im",
            "dem",
            "auch",
            "es",
            "an",
            "werden",
            "wird",
            "oder",
            "einer",
            "kann",
            "muss",
        ]
    ),
    "es": frozenset(
        [
            "el",
            "la",
            "los",
            "las",
            "de",
            "del",
            "y",
            "que",
            "en",
            "un",
            "una",
            "es",
            "por",
            "con",
            "para",
            "se",
            "no",
            "su",
            "al",
            "lo",
            "como",
            "más",
            "pero",
            "sus",
            "puede",
            "debe",
            "esta",
            "este",
        ]
    ),
    "it": frozenset(
        [
            "il",
            "lo",
            "la",
            "gli",
            "le",
            "di",
            "del",
            "della",
            "e",
            "che",
            "in",
            "un",
            "una",
            "è",
            "per",
            "con",
            "non",
            "si",
            "da",
            "al",
            "dei",
            "delle",
            "sono",
            "può",
            "deve",
            "questo",
            "questa",
        ]
    ),
}
"""The commonest words of each language."""
_OWN = {
    language: common - frozenset().union(*(other for key, other in STOP_WORDS.items() if key != language))
    for language, common in STOP_WORDS.items()
}
"""Each language's common words that no other list has ("la" tells French from English, not from Spanish)."""

NAMES = {"en": "English", "fr": "French", "de": "German", "es": "Spanish", "it": "Italian"}
SAMPLE = 60_000
"""Characters read: the start of a book says which language it is in."""
MARGIN = 2.0
"""The best language must count this many times the words of the next one."""
ENOUGH = 20
"""Fewer common words than this: too little text to tell."""

_MARKUP = re.compile(r"<[^>]*>|&\w+;")
_ENTITIES = re.compile(r"&\w+;")
_WORD = re.compile(r"[^\W\d_]+")


@dataclass(frozen=True, slots=True)
class Detection:
    """The language a text reads as, with the counts that decided it."""

    language: str | None
    """A language code (``en``, ``fr``...), or None when the text is too short or too mixed to tell."""
    counts: tuple[tuple[str, int], ...]
    """Common words found, by language, most first."""


def without_markup(text: str) -> str:
    """The text with a space for each tag and entity, in linear time: after the last ``>`` no tag can end,
    and the expression is not asked for one there (from each ``<`` of a run it would search to the end)."""
    tags = text.rfind(">") + 1
    return _MARKUP.sub(" ", text[:tags]) + _ENTITIES.sub(" ", text[tags:])


def detect_language(text: str) -> Detection:
    """The language of a text (markup ignored), from counts of each language's commonest words."""
    words = Counter(w.lower() for w in _WORD.findall(without_markup(text[:SAMPLE])))
    counts = sorted(
        ((language, sum(words[w] for w in common)) for language, common in _OWN.items()),
        key=lambda item: (-item[1], item[0]),
    )
    best, second = counts[0], counts[1]
    decided = best[1] >= ENOUGH and best[1] >= MARGIN * second[1]
    return Detection(best[0] if decided else None, tuple(counts))


def language_name(code: str) -> str:
    """A language's name in English, or its code."""
    return NAMES.get(code, code)


def check_pair(original: str, translation: str, *, original_language: str, translation_language: str) -> str | None:
    """Why an original and its translation cannot be compared as given (swapped, or in another language), or None.

    A text too short to tell passes: only a clear contradiction refuses the pair.
    """
    left, right = detect_language(original).language, detect_language(translation).language
    if left == translation_language and right == original_language and left != right:
        return (
            f"the original reads as {language_name(left)} and the translation as {language_name(right)}: "
            "the two files seem swapped (give the original first)"
        )
    if left is not None and left != original_language:
        return f"the original reads as {language_name(left)}, not {language_name(original_language)}"
    if right is not None and right != translation_language:
        return (
            f"the translation reads as {language_name(right)}, not {language_name(translation_language)} "
            f"(the language `--language {translation_language}` names)"
        )
    return None
