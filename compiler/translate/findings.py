"""Findings from a comparison's aligned texts, each with its place in the translation and its counterpart:
sections and sentences without counterpart, and what every family of findings shares.

One module per family of checks (this one, :mod:`~rulebook.translate.quantity_findings`,
:mod:`~rulebook.translate.term_findings`, :mod:`~rulebook.translate.text_findings`); each function
reads the aligned texts (:class:`AlignedText`) and returns findings, never reports them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from rulebook.catalog import translation as rules
from rulebook.languages.data import Language
from rulebook.languages.quantities import Quantity
from rulebook.source import Span
from rulebook.translate.align import Pair, Unit
from rulebook.translate.merged import merged_sentences
from rulebook.translate.results import AlignedText, Finding, Mark
from rulebook.translate.segments import Sentence
from rulebook.translate.sentence_align import Features, common_terms

QUOTED = 60
"""Characters of a sentence quoted in a message."""
Quantities = Callable[[Sentence, int], tuple[Quantity, ...]]


def heading(unit: Unit) -> Span | None:
    """The place of a unit's heading (its note or item, for a titled note), to the end of its line."""
    if unit.source is None:
        return None
    end = unit.source.line_around(unit.offset)[1]
    return unit.source.span(unit.offset, max(1, end - unit.offset))


def quote(text: str) -> str:
    """A sentence's start, to quote in a message."""
    return "“" + (text if len(text) <= QUOTED else text[: QUOTED - 1].rstrip() + "…") + "”"


# -- sections ----------------------------------------------------------------------------------------


def section_findings(
    pairs: list[Pair],
    merged: dict[int, tuple[tuple[Unit, ...], tuple[Unit, ...]]],
    languages: tuple[Language, Language],
) -> list[Finding]:
    """Sections on one side only (a missing chapter's subsections are counted in its finding); a table of
    contents (titled as either language's file says) is none."""
    contents = contents_titles(languages)
    read_with = {u.id for left, right in merged.values() for u in (*left, *right)}
    found = []
    for side, rule in ((0, rules.MISSING_SECTION), (1, rules.EXTRA_SECTION)):
        alone = [
            (index, unit)
            for index, pair in enumerate(pairs)
            if (unit := (pair.original, pair.translation)[side]) is not None
            and (pair.original, pair.translation)[1 - side] is None
            and unit.id not in read_with
            and unit.title.lower() not in contents
        ]
        inside = _alone_inside([unit for _, unit in alone])
        for index, unit in alone:
            if unit.parent not in inside:
                found.append(_section_finding(rule, index, unit, inside[unit.id], pairs, side))
    return found


def contents_titles(languages: tuple[Language, Language]) -> frozenset[str]:
    """The titles of a table of contents in either language, in lower case (a translation may keep the
    original's "Contents")."""
    return frozenset(languages[0].contents) | frozenset(languages[1].contents)


def _alone_inside(alone: list[Unit]) -> dict[str, int]:
    """For each unit on one side only, how many such units it holds, each through units on one side only: each
    unit's count given to its ancestors in one walk up (a count per pair of units was rebuilt for each unit: an
    800-section book with one section translated took 35 s to compare)."""
    units = {unit.id: unit for unit in alone}
    inside = dict.fromkeys(units, 0)
    for unit in alone:
        parent = unit.parent
        while parent is not None and parent in units:
            inside[parent] += 1
            parent = units[parent].parent
    return inside


def _section_finding(rule: Any, index: int, unit: Unit, inside: int, pairs: list[Pair], side: int) -> Finding:
    """A section without counterpart, placed where the other side would hold it."""
    neighbour = _neighbour(pairs, index, 1 - side)
    here, there = (heading(unit), neighbour) if side == 1 else (neighbour, heading(unit))
    also = f" (nor its {inside} subsection{'s' if inside != 1 else ''})" if inside else ""
    if side == 0:
        message = f"`{unit.title}` is not translated{also}"
        help_text = "translate the section here, or waive the finding while the translation is incomplete"
    else:
        message = f"`{unit.title}`{also} has no counterpart in the original"
        help_text = "check that the original has nothing to say here; waive the finding once read"
    return Finding(
        rule,
        message,
        here,
        there,
        help_text,
        original=unit.id if side == 0 else None,
        translation=unit.id if side == 1 else None,
        details={"title": unit.title},
        evidence=(unit.title,),
        counterpart_note="the original's section" if side == 0 else "the original goes on here",
    )


def _neighbour(pairs: list[Pair], index: int, side: int) -> Span | None:
    """The heading of the next unit of a side (the previous one at the end): where a missing unit belongs."""
    for order in (range(index + 1, len(pairs)), range(index - 1, -1, -1)):
        for other in order:
            unit = (pairs[other].original, pairs[other].translation)[side]
            if unit is not None:
                return heading(unit)
    return None


# -- sentences ---------------------------------------------------------------------------------------


def sentence_findings(
    text: AlignedText, pairs: list[Pair], features: Callable[[Sentence, int], Features], ratio: float
) -> list[Finding]:
    """Sentences of the pair without counterpart (nor a moved one in a neighbouring pair, nor one reordered,
    nor one merged into a neighbour or split off one)."""
    pair = pairs[text.pair]
    assert pair.original is not None and pair.translation is not None
    accounted = {(m.side, n) for m in text.moved for n in m.sentences} | _reordered(text, features)
    accounted |= merged_sentences(text, features, ratio)
    for side, sentences in enumerate((text.original, text.translation)):
        accounted |= {(side, n) for n, s in enumerate(sentences) if is_label(s) or is_short(s)}
    found = []
    neighbours = Neighbours(text)
    for number, bead in enumerate(text.beads):
        if bead.translation and bead.original:
            continue
        side = 0 if bead.original else 1
        for index in bead.original or bead.translation:
            if (side, index) not in accounted:
                found.append(_alone(neighbours, pair, number, side, index))
    for number, side, index in _unrelated(text, features):
        if (side, index) not in accounted:
            found.append(_alone(neighbours, pair, number, side, index))
    return found


def _unrelated(text: AlignedText, features: Callable[[Sentence, int], Features]) -> list[tuple[int, int, int]]:
    """(bead, side, index) of sentences the alignment paired in a group that share nothing with the other side
    (no value, no term distinctive of the pair, no cognate) and state a value in digits: an added rule or one
    left out, which the aligner merged into a neighbour's bead for want of a better place."""
    sides = (text.original, text.translation)
    read = [[features(s, side) for s in sentences] for side, sentences in enumerate(sides)]
    common = common_terms(read[0], read[1])
    found = []
    for number, bead in enumerate(text.beads):
        groups = (bead.original, bead.translation)
        for side in (0, 1):
            if len(groups[side]) < 2 or not groups[1 - side]:
                continue
            other = set().union(*(_anchors(read[1 - side][i], common) for i in groups[1 - side]))
            for index in groups[side]:
                mine = read[side][index]
                if mine.digits and not _anchors(mine, common) & other:
                    found.append((number, side, index))
    return found


def _anchors(features: Features, common: frozenset[str]) -> set[str]:
    """What vouches for a sentence's translation: its values, the terms distinctive of the pair, its cognates."""
    return set(features.values) | (features.terms - common) | features.cognates


def _alone(neighbours: Neighbours, pair: Pair, bead: int, side: int, index: int) -> Finding:
    """A sentence without counterpart: missing from the translation, or added to it."""
    assert pair.original is not None and pair.translation is not None
    text = neighbours.text
    sentence = (text.original, text.translation)[side][index]
    place: Span | None
    counterpart: Span | None
    if side == 0:
        place, counterpart = neighbours.nearby(bead, 1) or heading(pair.translation), sentence.span
        rule, message = rules.MISSING_SENTENCE, f"{quote(sentence.text)} is not translated here"
        help_text = "translate the sentence, or waive the finding if the translation says it elsewhere"
    else:
        place, counterpart = sentence.span, neighbours.nearby(bead, 0) or heading(pair.original)
        rule, message = (
            rules.ADDED_SENTENCE,
            f"this sentence has no counterpart in the original `{pair.original.title}`",
        )
        help_text = "check that the original says it; remove it, or waive the finding once read"
    made = finding(
        rule, message, place, counterpart, help_text, text, pair, (sentence.text,), marks=((side, index, -1, -1),)
    )
    return made if side == 0 else replace(made, counterpart_note="the original's nearest sentence")


SHORT_WORDS = 3
"""A sentence of this many words or fewer is a label ("one Pond.", "Ridge"): never reported missing or added."""


def is_short(sentence: Sentence) -> bool:
    """Whether a sentence is a label of a few words, whose absence says little."""
    return len(sentence.text.split()) <= SHORT_WORDS


def is_label(sentence: Sentence) -> bool:
    """Whether a sentence only titles or introduces a figure or table ("Table 1 - Nombre maximal de ...",
    "La table suivante donne les nouvelles limites :"): an edition's layout, not a rule."""
    return sentence.kind == "pointer" or sentence.label


def _reordered(text: AlignedText, features: Callable[[Sentence, int], Features]) -> set[tuple[int, int]]:
    """Sentences without counterpart whose values a sentence of the other side states beyond its own
    counterpart's, with a word in common: the translation moved them within the section ("A test always
    fails on a 6" said in the sentence before)."""
    surplus: dict[tuple[int, int], Counter[str]] = {}
    sides = (text.original, text.translation)
    for bead in text.beads:
        groups = (bead.original, bead.translation)
        for side in (0, 1):
            stated = Counter(v for i in groups[1 - side] for v in features(sides[1 - side][i], 1 - side).values)
            for index in groups[side]:
                surplus[(side, index)] = Counter(features(sides[side][index], side).values) - stated
    stating: dict[tuple[int, str], list[int]] = {}  # the sentences of a side whose surplus states a value
    for (side, index), values in sorted(surplus.items()):
        for value in values:
            stating.setdefault((side, value), []).append(index)
    found = set()
    for bead in text.beads:
        if bead.original and bead.translation:
            continue
        side = 0 if bead.original else 1
        for index in bead.original or bead.translation:
            mine = features(sides[side][index], side)
            if not mine.values:
                continue
            rarest = min(mine.values, key=lambda value: len(stating.get((1 - side, value), ())))
            for number in stating.get((1 - side, rarest), [])[:REORDERED_CANDIDATES]:
                theirs = features(sides[1 - side][number], 1 - side)
                words = (mine.cognates | mine.terms) & (theirs.cognates | theirs.terms)
                if words and not Counter(mine.values) - surplus[(1 - side, number)]:
                    found.add((side, index))
                    break
    return found


REORDERED_CANDIDATES = 1_000
"""How many sentences of the other side stating its rarest value a sentence without counterpart is compared
with (only those can state it beyond their own counterpart): time in sentences, not in their square."""


class Neighbours:
    """Where a text's sentences stand among its beads, found once for every finding of the text (a search
    through the beads for each finding took time in findings times sentences)."""

    def __init__(self, text: AlignedText) -> None:
        self.text = text
        self.bead_of: dict[int, int] = {}
        """The first bead holding each of the translation's sentences."""
        for index, bead in enumerate(text.beads):
            for number in bead.translation:
                self.bead_of.setdefault(number, index)
        count = len(text.beads)
        self.following: list[list[int | None]] = []
        """For each side, the first bead after each bead with a sentence on that side."""
        self.preceding: list[list[int | None]] = []
        for side in (0, 1):
            has = [bool((bead.original, bead.translation)[side]) for bead in text.beads]
            following: list[int | None] = [None] * count
            preceding: list[int | None] = [None] * count
            for index in range(count - 2, -1, -1):
                following[index] = index + 1 if has[index + 1] else following[index + 1]
            for index in range(1, count):
                preceding[index] = index - 1 if has[index - 1] else preceding[index - 1]
            self.following.append(following)
            self.preceding.append(preceding)

    def nearby(self, bead: int, side: int) -> Span | None:
        """A side's sentence next to a bead (the following one, else the preceding one)."""
        sentences = (self.text.original, self.text.translation)[side]
        after, before = self.following[side][bead], self.preceding[side][bead]
        if after is not None:
            return sentences[(self.text.beads[after].original, self.text.beads[after].translation)[side][0]].span
        if before is not None:
            return sentences[(self.text.beads[before].original, self.text.beads[before].translation)[side][-1]].span
        return None

    def counterpart(self, number: int) -> Span | None:
        """The original's sentence aligned with a translation's sentence (the nearest one, if it has none)."""
        index = self.bead_of.get(number)
        if index is None:
            return None
        bead = self.text.beads[index]
        return self.text.original[bead.original[0]].span if bead.original else self.nearby(index, 0)


def finding(
    rule: Any,
    message: str,
    place: Span | None,
    counterpart: Span | None,
    help_text: str,
    text: AlignedText,
    pair: Pair,
    evidence: tuple[str, ...],
    details: dict[str, Any] | None = None,
    marks: tuple[Mark, ...] = (),
) -> Finding:
    """A finding about sentences of an aligned text; it quotes the sentences its marks are in."""
    ids = (pair.original.id if pair.original else None, pair.translation.id if pair.translation else None)
    quotes = marked_sentences(text, marks)
    return Finding(
        rule,
        message,
        place,
        counterpart,
        help_text,
        *ids,
        text.pair,
        details or {},
        evidence,
        marks=marks,
        quotes=quotes,
    )


def marked_sentences(text: AlignedText, marks: tuple[Mark, ...]) -> tuple[str, str]:
    """The sentences of each side that marks point into, joined in order (what a finding quotes)."""
    sides = (text.original, text.translation)
    chosen: tuple[list[int], list[int]] = ([], [])
    for side, index, _, _ in marks:
        if index not in chosen[side] and 0 <= index < len(sides[side]):
            chosen[side].append(index)
    return (
        " ".join(sides[0][i].text for i in sorted(chosen[0])),
        " ".join(sides[1][i].text for i in sorted(chosen[1])),
    )
