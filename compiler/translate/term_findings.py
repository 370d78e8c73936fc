"""Findings on terms: a term rendered by a related term of the terminology, a forbidden variant."""

from __future__ import annotations

from typing import Any

from rulebook.catalog import translation as rules
from rulebook.model import Book
from rulebook.translate.align import Pair
from rulebook.translate.findings import Neighbours, finding
from rulebook.translate.results import AlignedText, Finding, Mark
from rulebook.translate.segments import Sentence
from rulebook.translate.terminology import Entry, TermMatcher


def term_findings(
    text: AlignedText,
    pairs: list[Pair],
    entries: dict[str, Entry],
    matcher: TermMatcher,
    related: dict[str, set[str]],
) -> list[Finding]:
    """Terms rendered by a related term of the list, and forbidden variants.

    A term of the original that the translated section never renders as agreed is reported where
    the sentence aligned with its use renders a related term instead (one its definition refers
    to, or whose definition refers to it): « portée », which is `range`, where the original says
    Reach. A pronoun or a paraphrase is a translator's choice; a neighbouring term standing
    for another one is a terminology slip.
    """
    pair = pairs[text.pair]
    assert pair.translation is not None
    rendered = matcher.terms(" ".join([pair.translation.title, *(s.text for s in text.translation)]))
    found: list[Finding] = []
    reported: set[str] = set()
    for bead in text.beads:
        if not bead.original or not bead.translation:
            continue
        english = {t for i in bead.original for t in text.original[i].terms if t in entries}
        french = {t for j in bead.translation for t, _, _ in matcher.spans(text.translation[j].text, ordinary=False)}
        for term in sorted(english - rendered - reported):
            substitutes = sorted((french - english) & related.get(term, set()))
            if substitutes:
                reported.add(term)
                found.append(_term_missing(term, substitutes, bead, text, pair, entries, matcher))
    used = {t for s in text.original for t in s.terms if t in entries}
    neighbours = Neighbours(text)
    for number, sentence in enumerate(text.translation):
        for wrong, start, end in matcher.forbidden(sentence.text):
            owner = next((t for t, e in entries.items() if wrong in e.forbidden and t in used), None)
            if owner is None:
                continue
            counterpart = neighbours.counterpart(number)
            message = f"`{owner}` is written « {wrong} », which the terminology forbids"
            help_text = f"write « {entries[owner].preferred} »"
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


def _term_missing(
    term: str,
    substitutes: list[str],
    bead: Any,
    text: AlignedText,
    pair: Pair,
    entries: dict[str, Entry],
    matcher: TermMatcher,
) -> Finding:
    entry = entries[term]
    first = next(i for i in bead.original if term in text.original[i].terms)
    marks: list[Mark] = [(0, first, *_written(text.original[first], term))]
    for j in bead.translation:
        marks += [
            (1, j, start, end) for found, start, end in matcher.spans(text.translation[j].text) if found in substitutes
        ]
    where = next(((j, s, e) for side, j, s, e in marks if side == 1), None)
    sentence = text.translation[bead.translation[0]]
    place = text.translation[where[0]].place(where[1], where[2]) if where else sentence.span
    others = ", ".join(f"« {entries[t].preferred} » (`{t}`)" for t in substitutes)
    message = f"`{term}` should be « {entry.preferred} » here; the translation has {others}"
    accepted = f" (or {', '.join(f'« {a} »' for a in entry.accepted)})" if entry.accepted else ""
    help_text = f"write « {entry.preferred} »{accepted}, or list the rendering used here as `accepted` in terms.toml"
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
