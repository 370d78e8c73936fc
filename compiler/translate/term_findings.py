"""Findings on terms: a term rendered by a related term of the terminology, a forbidden variant."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from rulebook.catalog import translation as rules
from rulebook.data.terms import display_name
from rulebook.languages.data import Language
from rulebook.model import Book, Reference
from rulebook.translate.align import Pair
from rulebook.translate.findings import Neighbours, finding
from rulebook.translate.results import AlignedText, Finding, Mark
from rulebook.translate.segments import Sentence
from rulebook.translate.terminology import Entry, TermMatcher


@dataclass(frozen=True, slots=True)
class Terms:
    """What the term checks read: the terminology, where it is rendered, how terms relate, their names."""

    entries: dict[str, Entry]
    matcher: TermMatcher
    related: dict[str, set[str]]
    """For each term, those its definition refers to and those whose definitions refer to it."""
    names: dict[str, str]
    """Each term's name in the original, as readers know it (``Line of Fire``)."""
    original: Language
    translation: Language

    def name(self, term: str) -> str:
        """A term's name in the original, in backticks (its id, spelt out, if the book never writes it)."""
        return f"`{self.names.get(term) or term.replace('_', ' ')}`"

    def rendering(self, term: str) -> str:
        """A term's preferred rendering, quoted as the translation's language quotes."""
        return self.translation.quote(self.entries[term].preferred)


def term_findings(text: AlignedText, pairs: list[Pair], terms: Terms) -> list[Finding]:
    """Terms rendered by another term of the list in the aligned sentence, and forbidden variants.

    A term of an original sentence that its aligned translation does not render as agreed is reported
    where the translation renders a related term instead (one its definition refers to, or whose
    definition refers to it): « portée », which is `Range`, where the original says `Reach`; sentence
    by sentence, so a swap is found in a section that uses both terms elsewhere. A pronoun or a
    paraphrase is the translator's choice: a sentence that writes every word of the term's rendering,
    not as the phrase (« tester la Bravoure » for `Bravery Test`), says it otherwise; a related
    term the original sentence also writes, without marking it, is no substitute.
    """
    pair = pairs[text.pair]
    assert pair.translation is not None
    rendered = terms.matcher.terms(" ".join([pair.translation.title, *(s.text for s in text.translation)]))
    found: list[Finding] = []
    reported: set[str] = set()
    for bead in text.beads:
        if not bead.original or not bead.translation:
            continue
        english = {t for i in bead.original for t in text.original[i].terms if t in terms.entries}
        spans = [terms.matcher.spans(text.translation[j].text, ordinary=False) for j in bead.translation]
        french = {t for found_spans in spans for t, _, _ in found_spans}
        unmarked = _unmarked(text.original[i] for i in bead.original)
        translated = " ".join(text.translation[j].text for j in bead.translation)
        for term in sorted(english - french - reported):
            substitutes = sorted((french - english) & terms.related.get(term, set()))
            if term in rendered:  # a swap in a section that renders the term elsewhere: a stand-in not said
                if _paraphrase(term, translated, terms):
                    continue
                substitutes = [s for s in substitutes if not _mentions(unmarked, terms.names.get(s, ""))]
            elif substitutes:  # the section never renders it: its first stand-in is the slip
                reported.add(term)
            if substitutes:
                found.append(_term_missing(term, substitutes, bead, text, pair, terms))
    found += _forbidden(text, pair, terms)
    return found


def _unmarked(sentences: Iterable[Sentence]) -> str:
    """Sentences' text without the references they mark, in lower case: what they say in plain words."""
    parts = []
    for sentence in sentences:
        text = sentence.text
        for _, shown in sentence.written_terms:
            text = text.replace(shown, " ", 1) if shown.strip() else text
        parts.append(text.lower())
    return " ".join(parts)


def _mentions(text: str, name: str) -> bool:
    """Whether a text writes a name (lower case) as words."""
    return bool(name) and re.search(rf"(?<![^\W_]){re.escape(name.lower())}", text) is not None


def _paraphrase(term: str, translated: str, terms: Terms) -> bool:
    """Whether the translation writes every word of one of the term's renderings, though not as the phrase
    (« la valeur de la Caractéristique est empruntée », « tester le Commandement »): said otherwise."""
    language = terms.translation
    written = language.fold(translated)
    skipped = language.phrase_links | language.function_words
    for form in (terms.entries[term].preferred, *terms.entries[term].accepted):
        words = [w for w in language.fold(form) if w not in skipped]
        if words and all(any(other.startswith(w[:STEM]) for other in written) for w in words):
            return True
    return False


STEM = 4
"""Letters a word shares with another form of it (« test », « tester »)."""


def _forbidden(text: AlignedText, pair: Pair, terms: Terms) -> list[Finding]:
    """Forbidden variants of the terms the original section uses."""
    found = []
    used = {t for s in text.original for t in s.terms if t in terms.entries}
    neighbours = Neighbours(text)
    owners: dict[str, str | None] = {}  # each form's first owner the section uses, found once, not once a use
    for number, sentence in enumerate(text.translation):
        for wrong, start, end in terms.matcher.forbidden(sentence.text):
            if wrong not in owners:
                owners[wrong] = next((t for t in terms.matcher.forbidding[wrong] if t in used), None)
            owner = owners[wrong]
            if owner is None:
                continue
            counterpart = neighbours.counterpart(number)
            message = f"{terms.name(owner)} is written {terms.translation.quote(wrong)}, which the terminology forbids"
            help_text = f"write {terms.rendering(owner)}"
            found.append(
                finding(
                    rules.TERM_FORBIDDEN,
                    message,
                    sentence.place(start, end),
                    counterpart,
                    help_text,
                    text,
                    pair,
                    (sentence.text, wrong),
                    {"term": owner},
                    ((1, number, start, end),),
                )
            )
    return found


def term_names(references: Iterable[Reference]) -> dict[str, str]:
    """Each term's name as a reader knows it: its id as the book writes it, capitalised (``Unit``, not the
    commoner ``Units``), else the book's display name (``Line of Sight``)."""
    forms: dict[str, Counter[str]] = {}
    for reference in references:
        forms.setdefault(reference.name, Counter())[" ".join(reference.text.split())] += 1
    names = {}
    for name, written in forms.items():
        spelt = name.replace("_", " ")
        exact = sorted((not form[:1].isupper(), form) for form in written if form.lower() == spelt)
        names[name] = exact[0][1][:1].upper() + exact[0][1][1:] if exact else display_name(name, written)
    return names


def related_terms(book: Book) -> dict[str, set[str]]:
    """For each defined term, the terms its definition refers to and those whose definitions refer to it."""
    from rulebook.model import Figure, Reference, walk

    related: dict[str, set[str]] = {}
    for definition in book.definitions:
        inside = walk(definition.children, into=lambda node: not isinstance(node, Figure))
        for name in {node.name for node in inside if isinstance(node, Reference)} - {definition.name}:
            related.setdefault(definition.name, set()).add(name)
            related.setdefault(name, set()).add(definition.name)
    return related


def _term_missing(term: str, substitutes: list[str], bead: Any, text: AlignedText, pair: Pair, terms: Terms) -> Finding:
    entry = terms.entries[term]
    first = next(i for i in bead.original if term in text.original[i].terms)
    marks: list[Mark] = [(0, first, *_written(text.original[first], term))]
    for j in bead.translation:
        marks += [
            (1, j, start, end)
            for found, start, end in terms.matcher.spans(text.translation[j].text)
            if found in substitutes
        ]
    where = next(((j, s, e) for side, j, s, e in marks if side == 1), None)
    sentence = text.translation[bead.translation[0]]
    place = text.translation[where[0]].place(where[1], where[2]) if where else sentence.span
    others = ", ".join(f"{terms.rendering(t)} ({terms.name(t)})" for t in substitutes)
    message = f"{terms.name(term)} should be {terms.rendering(term)} here; the translation has {others}"
    accepted = f" (or {', '.join(terms.translation.quote(a) for a in entry.accepted)})" if entry.accepted else ""
    help_text = (
        f"write {terms.rendering(term)}{accepted}, or list the rendering used here as `accepted` for "
        f"`{term}` in terms.toml"
    )
    evidence = (text.original[first].text, *(text.translation[j].text for j in bead.translation))
    return finding(
        rules.TERM_MISSING,
        message,
        place,
        text.original[first].span,
        help_text,
        text,
        pair,
        evidence,
        {"term": term, "instead": substitutes},
        tuple(marks),
    )


def _written(sentence: Sentence, term: str) -> tuple[int, int]:
    """Where a sentence writes its reference to a term (the whole sentence if it cannot tell)."""
    for name, shown in sentence.written_terms:
        at = sentence.text.find(shown.strip()) if name == term and shown.strip() else -1
        if at != -1:
            return at, at + len(shown.strip())
    return -1, -1
