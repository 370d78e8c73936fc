"""Sentences a translation merged into a neighbour, or split off one: not missing, not added.

A length-based aligner often leaves a sentence without counterpart next to the bead that holds its
translation: the French merges two English sentences on round bases ("... have round bases. In these cases,
only a single measurement is given") into one, or splits one English sentence in two. Such a lone
sentence is recognised by what its neighbour's other side says beyond its own side (a value or a
term of the lone sentence, or two of its cognates: the merged content is there), or by the lengths
(the neighbour's other side fits both sentences together far better than its own sentence alone, and
states the values the lone one writes in digits: a worked example added is no merge); either
way, the other side must have room for it (its length fits both sentences at least as well as one).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rulebook.translate.results import AlignedText
from rulebook.translate.segments import Sentence
from rulebook.translate.sentence_align import Bead, Features, length_delta

LAYOUT = frozenset({"caption", "pointer"})
"""Kinds of sentence a page's layout places, never merged into a neighbour."""
SHORT_WORDS = 3
"""A lone sentence this short is a label, not merged either."""
REACH = 2
"""How many beads away a lone sentence's content is looked for (a translation may also reorder it)."""
COGNATES = 2
"""Cognates of the lone sentence its neighbour's other side must have beyond its own, without a value or term."""
FITS = 1.0
"""The merged bead's lengths must be this close (Gale and Church's delta) ..."""
BETTER = 0.5
"""... and this much closer than the neighbour's own."""

Features_ = Callable[[Sentence, int], Features]


def merge_neighbours(text: AlignedText, features: Features_, ratio: float) -> AlignedText:
    """The text with each sentence without counterpart that the bead next to it holds merged into that bead:
    every check then reads both sentences with their translation (a row of the report shows them together)."""
    into: dict[int, list[int]] = {}
    for number, bead in enumerate(text.beads):
        if bead.original and bead.translation:
            continue
        side = 0 if bead.original else 1
        lone = [(text.original, text.translation)[side][i] for i in bead.original or bead.translation]
        if any(s.kind in LAYOUT or len(s.text.split()) <= SHORT_WORDS for s in lone):
            continue  # captions, pointers and labels are the layout's, not the text's
        targets = {_merged(text, number, side, index, features, ratio) for index in bead.original or bead.translation}
        if len(targets) == 1 and (target := targets.pop()) is not None and abs(target - number) == 1:
            into.setdefault(target, []).append(number)
    if not into:
        return text
    gone = {number for numbers in into.values() for number in numbers}
    beads = []
    for number, bead in enumerate(text.beads):
        if number in gone:
            continue
        group = [bead, *(text.beads[other] for other in into.get(number, []))]
        original = tuple(sorted(i for b in group for i in b.original))
        translation = tuple(sorted(j for b in group for j in b.translation))
        beads.append(Bead(original, translation, sum(b.cost for b in group)))
    return replace(text, beads=tuple(beads))


def merged_sentences(text: AlignedText, features: Features_, ratio: float) -> set[tuple[int, int]]:
    """(side, index) of each sentence without counterpart whose content a bead near it holds (a translation
    may also merge a sentence into another one it moved)."""
    found = set()
    for number, bead in enumerate(text.beads):
        if bead.original and bead.translation:
            continue
        side = 0 if bead.original else 1
        for index in bead.original or bead.translation:
            if _merged(text, number, side, index, features, ratio) is not None:
                found.add((side, index))
    return found


def _merged(text: AlignedText, number: int, side: int, index: int, features: Features_, ratio: float) -> int | None:
    """The bead a sentence without counterpart is merged into, if any."""
    sides = (text.original, text.translation)
    lone = features(sides[side][index], side)
    for distance in range(1, REACH + 1):
        for other in (number - distance, number + distance):
            if not 0 <= other < len(text.beads):
                continue
            bead = text.beads[other]
            groups = (bead.original, bead.translation)
            if not bead.original or not bead.translation:
                continue
            same = [features(sides[side][i], side) for i in groups[side]]
            theirs = [features(sides[1 - side][i], 1 - side) for i in groups[1 - side]]
            alone, together = _deltas(lone, same, theirs, side, ratio)
            if _said_beyond(lone, same, theirs, strong_only=distance > 1) and abs(together) <= abs(alone):
                return other
            stated = set().union(*(f.values for f in theirs))
            if (
                distance == 1
                and lone.digits <= stated
                and abs(together) <= FITS
                and abs(together) + BETTER <= abs(alone)
            ):
                return other
    return None


def _said_beyond(lone: Features, same: list[Features], theirs: list[Features], *, strong_only: bool) -> bool:
    """Whether the other side says what the lone sentence says and its own side does not."""
    own = set().union(*(set(f.values) | f.terms | f.cognates for f in same))
    other = set().union(*(set(f.values) | f.terms | f.cognates for f in theirs))
    strong = (set(lone.values) | lone.terms) & other - own
    if strong:
        return True
    return not strong_only and len(lone.cognates & other - own) >= COGNATES


def _deltas(
    lone: Features, same: list[Features], theirs: list[Features], side: int, ratio: float
) -> tuple[float, float]:
    """How far the other side's length is from its own sentences' (Gale and Church's delta), and from theirs
    with the lone sentence: a merged sentence makes room for itself."""
    own = sum(f.length for f in same)
    other = sum(f.length for f in theirs)
    if side == 0:
        return length_delta(own, other, ratio), length_delta(own + lone.length, other, ratio)
    return length_delta(other, own, ratio), length_delta(other, own + lone.length, ratio)
