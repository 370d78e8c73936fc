"""Sentence alignment inside a pair of aligned sections, in the manner of Gale and Church (1993).

A dynamic programme pairs the two sequences of sentences without crossing, in beads of 1-1, 1-0,
0-1, 2-1, 1-2, 2-2, 3-1 and 1-3 sentences. A bead's cost is Gale and Church's: how unlikely the
translation's length is given the original's (lengths in characters grow by a ratio measured on the
whole book, with a variance growing with the length), plus the bead type's prior. Anchors lower or
raise it: the values both sides state (numbers survive translation), the terms both refer to (the
original's markup, the translation's through the terminology), and punctuation (questions, colons,
parentheses, quotes). No model, no dictionary: it runs on what the book itself gives.

A 1-0 bead is a sentence the translation lacks; 0-1, one it adds.
"""

from __future__ import annotations

import dataclasses
import math
import re
from bisect import bisect_left, bisect_right
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulebook.names import ascii_lower

PRIORS = {
    (1, 1): 0.89,
    (1, 0): 0.005,
    (0, 1): 0.005,
    (2, 1): 0.0445,
    (1, 2): 0.0445,
    (2, 2): 0.011,
    (3, 1): 0.004,
    (1, 3): 0.004,
}
"""How often each bead type occurs (Gale and Church's figures, with 3-1 and 1-3 for free translations)."""
VARIANCE = 12.0
"""Variance of a translation's length per character of the original (Gale and Church measured 6.8
on parliamentary proceedings; a rulebook's translation is freer)."""
VALUES_WEIGHT = 2.5
TERMS_WEIGHT = 2.5
MARKS_WEIGHT = 0.6
COGNATES_WEIGHT = 2.0
CAPTION_MISMATCH = 5.0
"""Cost added to a bead for each side whose captions stand with running text (a caption translates a caption)."""
CAPTION_LEFT_OUT = 2.0
"""Cost of a caption without counterpart in the pair (instead of the prior's 5.3)."""
UNSUPPORTED = 2.0
"""Cost added to a merged bead for each sentence sharing no value, term or cognate with the other side."""
VALUES_UNSUPPORTED = 4.0
"""Cost added to a merged bead for each sentence whose values the other side does not state."""
UNSUPPORTED_ONE = 1.0
"""The same, for a 1-1 bead (a paraphrase often shares nothing visible: weaker evidence)."""
ITEM_MISMATCH = 2.0
"""Cost added to a bead joining list entries of one side to running text only on the other."""
POINTER_MIXED = 20.0
"""Cost added to a bead that joins a sentence introducing a table ("the following table") to another."""
POINTER_LEFT_OUT = 1.0


@dataclass(frozen=True, slots=True)
class Features:
    """What a sentence is aligned on."""

    length: int
    values: tuple[str, ...] = ()
    """The values it states, sorted (sign left out: a sign that differs is a finding, not a misalignment)."""
    digits: frozenset[str] = frozenset()
    """Those of its values written in digits (number words are a translator's wording)."""
    terms: frozenset[str] = frozenset()
    """The term ids it refers to."""
    marks: tuple[str, ...] = ()
    """Its punctuation that survives translation, sorted: ``?``, ``!``, ``:``, ``(``, quotes."""
    cognates: frozenset[str] = frozenset()
    """The first letters of its longer words (``ident`` for identical and identiques)."""
    captions: int = 0
    """How many of its sentences are captions of figures or tables (a caption translates a caption)."""
    pointers: int = 0
    """How many of its sentences only introduce a figure or table ("the following table")."""
    labels: int = 0
    """How many of its sentences are labels of three words or fewer ("one Pond.", "Ridge")."""
    items: int = 0
    """How many of its sentences are list entries (a list entry translates a list entry)."""
    sentences: int = 1
    """How many sentences (more than one for a merged group)."""


@dataclass(frozen=True, slots=True)
class Bead:
    """Sentences of both sides that translate each other (one side empty: a sentence without counterpart)."""

    original: tuple[int, ...]
    """Indices of the original's sentences."""
    translation: tuple[int, ...]
    """Indices of the translation's sentences."""
    cost: float
    """How unlikely the bead is (lower is better)."""


_PRIOR_COSTS = {shape: -math.log(probability) for shape, probability in PRIORS.items()}
BAND = 5
"""Beyond the difference in sentence counts, how far from the diagonal the alignment may stray."""


ALIGNED_PLACES = 40_000
"""How many places (an original's sentence against a translation's) the alignment of one pair of sections may
weigh: past it, the band around the diagonal narrows to fit (never below :data:`BAND`), so that aligning takes
time in the sentences, not in their number times the difference in their counts (a second or two)."""


def band(rows: int, cols: int) -> int:
    """How far from the diagonal the alignment of ``rows`` and ``cols`` sentences may stray: never so narrow that one
    row's reach misses the next's (one original sentence against 21,000 translated: the diagonal leapt past the band,
    no alignment joined the corners, and `status` failed with an internal error), which costs places in ``cols``."""
    joining = cols if rows == 0 else cols // rows // 2 + 2  # no original sentence: its one row reaches every column
    return min(BAND + abs(rows - cols), max(BAND, ALIGNED_PLACES // (2 * (rows + 1)), joining))


def narrowed(rows: int, cols: int) -> bool:
    """Whether the band was narrowed to :data:`ALIGNED_PLACES` for ``rows`` and ``cols`` sentences."""
    return band(rows, cols) < BAND + abs(rows - cols)


def align_sentences(original: Sequence[Features], translation: Sequence[Features], ratio: float) -> list[Bead]:
    """The cheapest monotonic alignment of two sequences of sentences, as beads in order."""
    original, translation = [_weighed(f) for f in original], [_weighed(f) for f in translation]
    rows, cols = len(original), len(translation)
    groups = _Groups(original, translation, common_anchors(original, translation))
    # The groups a bead may take, made once: ending at each sentence, one to three sentences long.
    lefts = [[groups.of(0, i - a, i) if a <= i else None for a in range(4)] for i in range(rows + 1)]
    rights = [[groups.of(1, j - b, j) if b <= j else None for b in range(4)] for j in range(cols + 1)]
    shapes = [(a, b, _PRIOR_COSTS[(a, b)], UNSUPPORTED if a > 1 or b > 1 else UNSUPPORTED_ONE) for a, b in PRIORS]
    reach = band(rows, cols)
    best: dict[tuple[int, int], tuple[float, tuple[int, int]]] = {(0, 0): (0.0, (0, 0))}
    for i in range(rows + 1):
        middle = i * cols / rows if rows else 0
        for j in range(max(0, int(middle) - reach), min(cols, int(middle) + reach) + 1):
            if i == 0 and j == 0:
                continue
            chosen: tuple[float, tuple[int, int]] | None = None
            for a, b, prior, weight in shapes:
                before = best.get((i - a, j - b))
                if before is None:
                    continue
                left, right = lefts[i][a], rights[j][b]
                if a and b and chosen is not None and before[0] + prior - _bound(left, right) >= chosen[0]:
                    continue  # cannot win, whatever its length and anchors
                total = before[0] + bead_cost(left, right, ratio, (a, b))
                if chosen is not None and total >= chosen[0]:
                    continue  # the support check only adds: no need to make it
                if a and b:
                    total += weight * groups.unsupported((i - a, i), (j - b, j))
                if chosen is None or total < chosen[0]:
                    chosen = (total, (a, b))
            if chosen is not None:
                best[(i, j)] = chosen
    beads: list[Bead] = []
    i, j = rows, cols
    while i > 0 or j > 0:
        total, (a, b) = best[(i, j)]
        beads.append(Bead(tuple(range(i - a, i)), tuple(range(j - b, j)), total - best[(i - a, j - b)][0]))
        i, j = i - a, j - b
    return beads[::-1]


MOST_WEIGHED = 16
"""How many of a sentence's values, and of its cognates, a place of the alignment weighs (its smallest, on both
sides the same numbers): a place's work was in the values of the sentences it joins, and sentences of 100 values
each, 200 against 400, took 14 s in the places :data:`ALIGNED_PLACES` bounds (the thirty-second probe)."""


def _weighed(features: Features) -> Features:
    """``features`` with at most :data:`MOST_WEIGHED` values and cognates, as the alignment weighs them."""
    if len(features.values) <= MOST_WEIGHED and len(features.cognates) <= MOST_WEIGHED:
        return features
    values = features.values[:MOST_WEIGHED]
    kept = frozenset(values)
    return dataclasses.replace(
        features,
        values=values,
        digits=features.digits & kept,
        cognates=frozenset(sorted(features.cognates)[:MOST_WEIGHED]),
    )


class _Groups:
    """The features of consecutive sentences taken together, each group made once."""

    def __init__(self, original: Sequence[Features], translation: Sequence[Features], common: frozenset[str]) -> None:
        self.sides = (original, translation)
        self.made: dict[tuple[int, int, int], Features | None] = {}
        self.common = common
        self._keys: dict[int, frozenset[str]] = {}

    def of(self, side: int, start: int, end: int) -> Features | None:
        """The features of a side's sentences ``start:end`` taken together (None for none)."""
        key = (side, start, end)
        if key not in self.made:
            self.made[key] = merge(self.sides[side][start:end])
        return self.made[key]

    def unsupported(self, original: tuple[int, int], translation: tuple[int, int]) -> float:
        """Sentences of a bead that share no anchor with the other side, or whose values the other side does
        not state: each is likely untranslated (a sentence left out shifts its neighbours into beads like that)."""
        found = 0.0
        for side, (start, end), (other_start, other_end) in ((0, original, translation), (1, translation, original)):
            other = self.of(1 - side, other_start, other_end)
            keys = self.keys(other) if other is not None else frozenset()
            values = frozenset(other.values) if other is not None else frozenset()
            for mine in self.sides[side][start:end]:
                own = self.keys(mine)
                if mine.digits and not values & mine.digits:
                    found += VALUES_UNSUPPORTED / UNSUPPORTED
                elif len(mine.values) + len(mine.cognates) + len(mine.terms) >= SUPPORT_WORDS:
                    # Words common to the pair count towards a sentence's size, never towards its support.
                    found += max(0.0, 1 - 2 * len(own & keys) / len(own)) if own else 1.0
        return found

    def keys(self, features: Features) -> frozenset[str]:
        """What can vouch for a sentence's translation: its values, and the cognates and terms that are not
        in most sentences of the pair (those say nothing about which sentence is which)."""
        found = self._keys.get(id(features))
        if found is None:
            found = frozenset(features.values) | ((features.cognates | features.terms) - self.common)
            self._keys[id(features)] = found
        return found


COMMON = 0.3
"""A term or cognate in more than this share of a side's sentences is common to the pair."""
SUPPORT_WORDS = 2
"""A sentence with this many values, cognates and terms (common ones included) is big enough to be judged
unsupported when the other side of its bead shares none of those that are not common."""


def common_terms(original: Sequence[Features], translation: Sequence[Features]) -> frozenset[str]:
    """The terms in more than :data:`COMMON` of either side's sentences: they say nothing of which is which."""
    return _in_most((original, translation), lambda f: f.terms)


def common_anchors(original: Sequence[Features], translation: Sequence[Features]) -> frozenset[str]:
    """The terms and cognates in more than :data:`COMMON` of either side's sentences (a term's own words are
    written in every sentence of a section about it): they vouch for no sentence more than another."""
    return _in_most((original, translation), lambda f: f.terms | f.cognates)


def _in_most(sides: tuple[Sequence[Features], ...], keys: Callable[[Features], frozenset[str]]) -> frozenset[str]:
    found: set[str] = set()
    for side in sides:
        counts = Counter(key for f in side for key in keys(f))
        found |= {key for key, count in counts.items() if count > COMMON * len(side)}
    return frozenset(found)


def merge(features: Sequence[Features]) -> Features | None:
    """The features of sentences taken together (None for no sentence)."""
    if not features:
        return None
    if len(features) == 1:
        return features[0]
    return Features(
        sum(f.length for f in features),
        tuple(sorted(v for f in features for v in f.values)),
        frozenset().union(*(f.digits for f in features)),
        frozenset().union(*(f.terms for f in features)),
        tuple(sorted(m for f in features for m in f.marks)),
        frozenset().union(*(f.cognates for f in features)),
        sum(f.captions for f in features),
        sum(f.pointers for f in features),
        sum(f.labels for f in features),
        sum(f.items for f in features),
        sum(f.sentences for f in features),
    )


def bead_cost(
    original: Features | None, translation: Features | None, ratio: float, shape: tuple[int, int] = (1, 1)
) -> float:
    """Gale and Church's cost of a bead, lowered by the anchors both sides share."""
    prior = _PRIOR_COSTS[shape]
    if original is None or translation is None:
        # Gale and Church charge a sentence left out by its length: long omissions then hide in merges.
        # A PDF moves captions to where the page has room: one left out here is often just elsewhere.
        alone = original or translation
        if alone is not None and alone.pointers:
            return POINTER_LEFT_OUT
        return CAPTION_LEFT_OUT if alone is not None and (alone.captions or alone.labels) else prior
    cost = prior + _length_cost(original.length, translation.length, ratio) - _anchors(original, translation)
    pointers = original.pointers + translation.pointers
    if pointers and pointers < original.sentences + translation.sentences:
        cost += POINTER_MIXED
    if (original.items == 0) != (translation.items == 0):
        cost += ITEM_MISMATCH
    captions = original.captions + translation.captions
    if captions and captions < original.sentences + translation.sentences:
        cost += CAPTION_MISMATCH * max(1, abs(original.captions - translation.captions))
    return cost


def _bound(original: Features | None, translation: Features | None) -> float:
    """The most the anchors can take off the cost of a bead with both sides (what both sides have to share)."""
    assert original is not None and translation is not None
    bound = 0.0
    if original.values or translation.values:
        bound += VALUES_WEIGHT
    if original.marks or translation.marks:
        bound += MARKS_WEIGHT
    if original.terms and translation.terms:
        bound += TERMS_WEIGHT
    if original.cognates and translation.cognates:
        bound += COGNATES_WEIGHT
    return bound


def length_delta(left: int, right: int, ratio: float) -> float:
    """How many standard deviations a translation's length is from what the original's predicts (Gale and
    Church's delta): positive when the translation is shorter than expected, negative when it is longer."""
    mean = (left + right / ratio) / 2
    if mean <= 0:
        return 0.0
    return (ratio * left - right) / math.sqrt(VARIANCE * mean)


def _length_cost(left: int, right: int, ratio: float) -> float:
    """Gale and Church's length cost, growing linearly rather than quadratically far out (free translations)."""
    delta = abs(length_delta(left, right, ratio))
    if delta > TAIL:
        return _TAIL_COST + (delta - TAIL) * TAIL_SLOPE
    return -math.log(max(math.erfc(delta / math.sqrt(2)), 1e-12))


TAIL = 2.0
TAIL_SLOPE = 1.5
_TAIL_COST = -math.log(math.erfc(TAIL / math.sqrt(2)))


def _anchors(original: Features, translation: Features) -> float:
    """How much the shared values, terms, cognates and punctuation vouch for a bead (negative when they disagree)."""
    score = 0.0
    left, right = original.values, translation.values
    if left or right:
        score += VALUES_WEIGHT * (4 * _common(left, right) / (len(left) + len(right)) - 1)
    left, right = original.marks, translation.marks
    if left or right:
        score += MARKS_WEIGHT * (4 * _common(left, right) / (len(left) + len(right)) - 1)
    if original.terms and translation.terms:
        agreement = 2 * len(original.terms & translation.terms) / (len(original.terms) + len(translation.terms))
        score += TERMS_WEIGHT * (2 * agreement - 1)
    if original.cognates or translation.cognates:
        shared = len(original.cognates & translation.cognates)
        score += COGNATES_WEIGHT * 2 * shared / (len(original.cognates) + len(translation.cognates))
    return score


COGNATE_LETTERS = 5
"""Words share a cognate when they share this many first letters (without accents): identical, identiques."""
_WORD = re.compile(f"[a-z]{{{COGNATE_LETTERS},}}")
_VOWELS = str.maketrans("", "", "aeiouy")


def cognates(text: str) -> frozenset[str]:
    """The cognate keys of a sentence: the first letters of each of its longer words, and their first
    consonants (order and ordre, simultaneous and simultanés share ``+ordr``, ``+smlt``)."""
    words = _WORD.findall(ascii_lower(text))
    keys = {word[:COGNATE_LETTERS] for word in words}
    keys |= {"+" + skeleton for word in words if len(skeleton := word.translate(_VOWELS)[:4]) == 4}
    return frozenset(keys)


def _common(left: tuple[str, ...], right: tuple[str, ...]) -> int:
    """How many items two sorted tuples share, repeats counted: each of the shorter's looked up in the longer (a
    sentence of 8,000 values, walked whole against each sentence of the other side it was weighed with, made
    aligning quadratic: 20 s for 320 KB)."""
    short, long = (left, right) if len(left) <= len(right) else (right, left)
    found, i = 0, 0
    while i < len(short):
        item = short[i]
        here = bisect_right(short, item, i)
        found += min(here - i, bisect_right(long, item) - bisect_left(long, item))
        i = here
    return found
