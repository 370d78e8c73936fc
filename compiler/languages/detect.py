"""Which language a text is written in, cheaply: counts of each language's commonest words (its file's
``detection.stop_words``).

Enough to refuse a swapped or wrong pair of files before comparing them (an English "translation",
the two files given in the wrong order), never to identify a language from a sentence.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from rulebook.languages.data import Language, as_language, shipped, shipped_codes

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


def known_languages(*extra: Language) -> tuple[Language, ...]:
    """The shipped languages, with ``extra`` ones (a project's) in place of those of the same code."""
    given = {language.code: language for language in extra}
    found = [given.get(code) or shipped(code) for code in shipped_codes()]
    return (*found, *(language for code, language in given.items() if code not in shipped_codes()))


def without_markup(text: str) -> str:
    """The text with a space for each tag and entity, in linear time: after the last ``>`` no tag can end,
    and the expression is not asked for one there (from each ``<`` of a run it would search to the end)."""
    tags = text.rfind(">") + 1
    return _MARKUP.sub(" ", text[:tags]) + _ENTITIES.sub(" ", text[tags:])


def detect_language(text: str, languages: Sequence[Language] = ()) -> Detection:
    """The language of a text (markup ignored), from counts of each language's commonest words that no
    other language lists ("la" tells French from English, not from Spanish)."""
    candidates = tuple(languages) or known_languages()
    words = Counter(w.lower() for w in _WORD.findall(without_markup(text[:SAMPLE])))
    counts = sorted(
        ((language.code, sum(words[w] for w in _own(language, candidates))) for language in candidates),
        key=lambda item: (-item[1], item[0]),
    )
    best, second = counts[0], counts[1] if len(counts) > 1 else (None, 0)
    decided = best[1] >= ENOUGH and best[1] >= MARGIN * second[1]
    return Detection(best[0] if decided else None, tuple(counts))


def _own(language: Language, candidates: Sequence[Language]) -> frozenset[str]:
    return language.stop_words - frozenset().union(*(o.stop_words for o in candidates if o.code != language.code))


def check_pair(
    original: str, translation: str, *, original_language: Language | str, translation_language: Language | str
) -> str | None:
    """Why an original and its translation cannot be compared as given (swapped, or in another language), or None.

    A text too short to tell passes: only a clear contradiction refuses the pair.
    """
    original_language, translation_language = as_language(original_language), as_language(translation_language)
    candidates = known_languages(original_language, translation_language)
    names = {language.code: language.name for language in candidates}
    left = detect_language(original, candidates).language
    right = detect_language(translation, candidates).language
    wanted = original_language.code, translation_language.code
    if left == wanted[1] and right == wanted[0] and left != right:
        return (
            f"the original reads as {names[left]} and the translation as {names[right]}: "
            "the two files seem swapped (give the original first)"
        )
    if left is not None and left != wanted[0]:
        return f"the original reads as {names[left]}, not {original_language.name}"
    if right is not None and right != wanted[1]:
        return (
            f"the translation reads as {names[right]}, not {translation_language.name} "
            f"(the language `--language {wanted[1]}` names)"
        )
    return None
