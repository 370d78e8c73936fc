"""Renderings proposed for the original's terms the terminology lacks, for a person to accept into terms.toml.

Read from aligned sentences: for each term of the original used without an entry, the translation's
noun phrases that occur in the sentences aligned with those using the term, ranked by how strongly they
go together (Dice's coefficient over aligned beads: found with the term, rarely without it), then by
likeness to the original's words the term is written with (cognates: *Sorcerer* is not *Mage*, but
*Mortar* is *Mortier*). A phrase that already renders another term of the list ranks last: *figurine*
is *model*, so it is no rendering of *character*. What a noun phrase never starts or ends with, and the
words that may link its words, are the translation's language's (``phrase_stops`` and ``phrase_links``
of its language file).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rulebook.characters import toml_string
from rulebook.languages.data import Language, as_language
from rulebook.names import ascii_lower
from rulebook.translate.terminology import Entry, fold

LONGEST = 4
"""Words in the longest candidate phrase."""
LIKENESS, CAPITALS, LENGTH = 0.3, 0.15, 0.1
"""Weights of the tie-breakers: likeness to the original's words, capitals as the original writes them,
as many words as the original (a word more or less costs this much)."""
_WORD = re.compile(r"[^\W\d_]+(?:['’][^\W\d_]+)?")


@dataclass(frozen=True, slots=True)
class Suggestion:
    """Candidate renderings of one term of the original, best first."""

    term: str
    english: tuple[str, ...]
    """How the original writes the term, commonest first."""
    uses: int
    """Aligned sentence groups that use the term."""
    candidates: tuple[tuple[str, float, int], ...]
    """(the translation's phrase as written, score from 0 to 1, groups holding it with the term)."""
    marked: Entry | None = None
    """The renderings the translation itself marks for the term (``[[term|Wort]]``): no guess, what it says."""


@dataclass(frozen=True, slots=True)
class AlignedUse:
    """One aligned bead: the terms its original sentences use (with how they are written) and its translated text."""

    terms: tuple[tuple[str, str], ...]
    """(term id, text as written)."""
    translation: str


def suggest_terms(
    uses: Sequence[AlignedUse],
    entries: dict[str, Entry],
    language: Language | str,
    *,
    limit: int = 3,
    marked: dict[str, Entry] | None = None,
) -> list[Suggestion]:
    """Suggestions for each term the aligned original uses and the terminology lacks, most used first
    (``language``: the translation's). A term the translation marks itself (``marked``, a dialect translation's
    ``[[term|Wort]]``) is proposed as marked, not guessed; each marked term the terminology lacks is proposed."""
    marked = {term: entry for term, entry in (marked or {}).items() if term not in entries}
    language = as_language(language)
    words = _PhraseWords(language)
    phrases = [words.phrases(use.translation) for use in uses]
    everywhere: Counter[str] = Counter(key for found in phrases for key in found)
    written: dict[str, Counter[str]] = {}
    for found in phrases:
        for key, shown in found.items():
            written.setdefault(key, Counter())[shown] += 1
    taken = _renderings({**marked, **entries}, language)
    wanted: dict[str, list[int]] = {}
    english: dict[str, Counter[str]] = {}
    for index, use in enumerate(uses):
        for term, text in use.terms:
            if term not in entries:
                wanted.setdefault(term, []).append(index)
                english.setdefault(term, Counter())[text] += 1
    suggestions = [
        Suggestion(term, tuple(text for text, _ in english.get(term, Counter()).most_common()), uses, (), entry)
        for term, entry in marked.items()
        for uses in [len(set(wanted.get(term, ())))]
    ]
    for term, indices in wanted.items():
        if term in marked:
            continue
        beads = sorted(set(indices))
        together: Counter[str] = Counter(key for i in beads for key in phrases[i])
        stems = _stems(english[term])
        size = _content_words(english[term].most_common(1)[0][0])
        capital = english[term].most_common(1)[0][0][:1].isupper()
        ranked = sorted(
            (
                (
                    key not in taken,
                    round(
                        2 * count / (len(beads) + everywhere[key])
                        + LIKENESS * _likeness(key, stems)
                        + CAPITALS * (_capitalised(written[key]) == capital)
                        - LENGTH * abs(len(key.split()) - size),
                        3,
                    ),
                    count,
                    key,
                )
                for key, count in together.items()
                if count >= max(1, len(beads) // 3)
            ),
            reverse=True,
        )
        candidates = tuple(
            (_shown(written[key], language), max(0.0, min(1.0, score)), count)
            for _, score, count, key in ranked[:limit]
        )
        names = tuple(text for text, _ in english[term].most_common())
        suggestions.append(Suggestion(term, names, len(beads), candidates))
    return sorted(suggestions, key=lambda s: (-s.uses, s.term))


class _PhraseWords:
    """A language's words that bound a noun phrase, folded as the phrases' words are."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.links = frozenset(" ".join(language.fold(w)) for w in language.phrase_links)
        self.stops = frozenset(" ".join(language.fold(w)) for w in language.phrase_stops) | self.links

    def phrases(self, text: str) -> dict[str, str]:
        """The candidate noun phrases of a text (folded key -> as first written)."""
        words = _WORD.findall(text)
        keys = [" ".join(self.language.fold(w)) for w in words]
        found: dict[str, str] = {}
        for start in range(len(words)):
            if keys[start] in self.stops or len(words[start]) < 2:
                continue
            for end in range(start + 1, min(len(words), start + LONGEST) + 1):
                if keys[end - 1] in self.stops:
                    continue
                if any(k in self.stops and k not in self.links for k in keys[start:end]):
                    break
                found.setdefault(" ".join(keys[start:end]), " ".join(words[start:end]))
        return found


def _content_words(text: str) -> int:
    return max(1, sum(1 for w in _WORD.findall(text) if len(w) > 3))


def _capitalised(written: Counter[str]) -> bool:
    return written.most_common(1)[0][0][:1].isupper()


def _shown(written: Counter[str], language: Language) -> str:
    """How to write a phrase: its commonest form, singular when the book also writes it so (its last word
    has no plural ending of the language)."""
    forms = [form for form, _ in written.most_common()]
    singular = [f for f in forms if _is_singular(f, language)]
    return singular[0] if singular else forms[0]


def _is_singular(phrase: str, language: Language) -> bool:
    last = ascii_lower(phrase.split()[-1]) if phrase.split() else ""
    return language.singular(last) == last


def _renderings(entries: dict[str, Entry], language: Language) -> set[str]:
    """The folded phrases that already render a term of the list."""
    return {" ".join(fold(form, language)) for entry in entries.values() for form in (entry.preferred, *entry.accepted)}


def _stems(names: Iterable[str]) -> set[str]:
    return {ascii_lower(word)[:4] for name in names for word in _WORD.findall(name) if len(word) > 3}


def _likeness(key: str, stems: set[str]) -> float:
    """The share of a phrase's longer words that look like a word of the original's name."""
    words = [w for w in key.split() if len(w) > 3]
    return sum(1 for w in words if w[:4] in stems) / len(words) if words else 0.0


def render_suggestions(suggestions: Sequence[Suggestion]) -> str:
    """The suggestions as terms.toml entries to review: the best candidate as ``preferred``, the others noted."""
    lines = [
        "# Proposed by `rulebook terms suggest` from the aligned sentences: review each entry, keep the right",
        "# rendering as `preferred` (others as `accepted`), and copy the entries you accept into terms.toml.",
    ]
    for suggestion in suggestions:
        written = ", ".join(f"“{name}”" for name in suggestion.english[:3]) or f"`{suggestion.term}`"
        lines += [
            "",
            f"# {written}: used in {suggestion.uses} aligned sentence group{'s' if suggestion.uses != 1 else ''}",
        ]
        if suggestion.marked is not None:
            lines += _marked_entry(suggestion.marked)
            continue
        if not suggestion.candidates:
            lines += [f"# [{suggestion.term}]  (no candidate)"]
            continue
        best, score, count = suggestion.candidates[0]
        lines += [f"[{suggestion.term}]", f'preferred = "{best}"  # score {score:.2f}, in {count} of {suggestion.uses}']
        for other, score, count in suggestion.candidates[1:]:
            lines.append(f'# or "{other}"  (score {score:.2f}, in {count} of {suggestion.uses})')
    return "\n".join(lines) + "\n"


def _marked_entry(entry: Entry) -> list[str]:
    """A term's entry as the translation marks it (its words, as TOML strings)."""
    lines = [f"[{entry.term}]", f"preferred = {toml_string(entry.preferred)}  # as the translation marks it"]
    if entry.accepted:
        lines.append(f"accepted = [{', '.join(toml_string(text) for text in entry.accepted)}]")
    return lines


def aligned_uses(texts: Iterable[object]) -> list[AlignedUse]:
    """The aligned beads of a comparison (:attr:`Comparison.texts`) as uses of terms."""
    from rulebook.translate.results import AlignedText

    found = []
    for text in texts:
        assert isinstance(text, AlignedText)
        for bead in text.beads:
            if not bead.original or not bead.translation:
                continue
            terms = tuple(pair for i in bead.original for pair in text.original[i].written_terms)
            french = " ".join(text.translation[j].text for j in bead.translation)
            found.append(AlignedUse(terms, french))
    return found
