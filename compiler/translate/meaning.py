"""Whether two aligned sentences state the same quantities: values, comparisons and signs.

Each side's quantities (:mod:`rulebook.translate.facts`) are matched by value (a sign or a
comparison may differ on the same value; dice match dice). A matched pair whose comparisons differ
(more than, at least) is a ``comparison-differs``; whose signs differ (``-1`` and ``1``), a
``sign-differs``. Values left unmatched are a ``numbers-differ`` when both sides keep one (a value
that changed), or when a value written in digits has no counterpart; a number word or an ordinal
alone on one side is a translator's wording ("two measurements", "first") and is not reported.
Dice count only where both sides write dice ("D6" is also "un dé").
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from rulebook.translate.facts import Quantity

WEAK_KINDS = frozenset({"word", "ordinal"})
"""Quantities that are not reported when they are alone on one side."""


@dataclass(frozen=True, slots=True)
class Side:
    """The quantities of one side of a bead, each with the index of the sentence it stands in."""

    quantities: tuple[tuple[int, Quantity], ...]


@dataclass(frozen=True, slots=True)
class Difference:
    """What two aligned sentences disagree on."""

    kind: str
    """``numbers-differ``, ``comparison-differs`` or ``sign-differs``."""
    original: tuple[tuple[int, Quantity], ...]
    """The original's quantities concerned (sentence index, quantity)."""
    translation: tuple[tuple[int, Quantity], ...]


def compare_beads(beads: Sequence[tuple[Side, Side]]) -> list[list[Difference]]:
    """Each bead's differences, in bead order.

    A value left unmatched in one bead and left unmatched on the other side of another bead of the
    pair is no difference: the translation reordered the sentences. A value only one side states
    that the other side states in a neighbouring bead, or elsewhere in the same bead, is a
    repetition ("the limits of 9" and 15" are inverted"), not a difference.
    """
    matched: list[list[Difference]] = []
    lefts: list[list[tuple[int, Quantity]]] = []
    rights: list[list[tuple[int, Quantity]]] = []
    shared: list[set[Fraction]] = []
    for original, translation in beads:
        differences, left, right = _match(original, translation)
        matched.append(differences)
        lefts.append(left)
        rights.append(right)
        shared.append({q.value for _, q in original.quantities} & {q.value for _, q in translation.quantities})
    _cancel_reordered(lefts, rights)
    stated = [tuple({q.value for _, q in side.quantities} for side in bead) for bead in beads]
    for index, (left, right) in enumerate(zip(lefts, rights, strict=True)):
        if left and right:
            continue
        near = [stated[i] for i in (index - 1, index + 1) if 0 <= i < len(beads)]
        left_seen = shared[index].union(*(s[1] for s in near))
        right_seen = shared[index].union(*(s[0] for s in near))
        left[:] = [item for item in left if item[1].value not in left_seen]
        right[:] = [item for item in right if item[1].value not in right_seen]
    return [
        differences + ([Difference("numbers-differ", tuple(left), tuple(right))] if left or right else [])
        for differences, left, right in zip(matched, lefts, rights, strict=True)
    ]


def _match(
    original: Side, translation: Side
) -> tuple[list[Difference], list[tuple[int, Quantity]], list[tuple[int, Quantity]]]:
    """Differences of comparison and sign on shared values, and the values each side states alone."""
    left, right = _comparable(original, translation)
    found: list[Difference] = []
    unmatched_left = []
    candidates = _Candidates(right)
    for item in left:
        match = candidates.take(item[1])
        if match is None:
            unmatched_left.append(item)
            continue
        a, b = item[1], match[1]
        if a.comparison and b.comparison and a.comparison != b.comparison:
            found.append(Difference("comparison-differs", (item,), (match,)))
        if (a.sign == "-") != (b.sign == "-"):
            found.append(Difference("sign-differs", (item,), (match,)))
    return found, unmatched_left, candidates.left()


def _cancel_reordered(lefts: list[list[tuple[int, Quantity]]], rights: list[list[tuple[int, Quantity]]]) -> None:
    """Cancel each value left on one side of a bead against the same value left on the other side of a later
    bead, bead by bead in order: a value takes the first partner of the nearest later bead that has one.

    The partners wait in one queue per side and value, so that this takes time in the values, not in
    every pair of beads (a section of thousands of sentences, each stating a number)."""
    sides = (lefts, rights)
    waiting: tuple[dict[Fraction, deque[tuple[int, int]]], ...] = ({}, {})
    for side, beads in enumerate(sides):
        for bead, items in enumerate(beads):
            for position, (_, quantity) in enumerate(items):
                waiting[side].setdefault(quantity.value, deque()).append((bead, position))
    gone: set[tuple[int, int, int]] = set()
    for index in range(len(lefts)):
        for side in (0, 1):
            for position, (_, quantity) in enumerate(sides[side][index]):
                if (side, index, position) in gone:
                    continue
                partners = waiting[1 - side].get(quantity.value)
                while partners and (partners[0][0] <= index or (1 - side, *partners[0]) in gone):
                    partners.popleft()
                if partners:
                    gone |= {(side, index, position), (1 - side, *partners.popleft())}
    for side, beads in enumerate(sides):
        for bead, items in enumerate(beads):
            items[:] = [item for position, item in enumerate(items) if (side, bead, position) not in gone]


def reportable(difference: Difference) -> bool:
    """Whether a numbers-differ is worth a finding: a value on each side, or one written in digits."""
    if difference.kind != "numbers-differ":
        return True
    sides = [q for _, q in difference.original], [q for _, q in difference.translation]
    if all(sides):
        return any(q.kind != "ordinal" for q in sides[0]) and any(q.kind != "ordinal" for q in sides[1])
    return any(q.kind not in WEAK_KINDS for side in sides for q in side)


def _comparable(original: Side, translation: Side) -> tuple[list[tuple[int, Quantity]], list[tuple[int, Quantity]]]:
    left, right = list(original.quantities), list(translation.quantities)
    if not any(_dice(q) for _, q in left) or not any(_dice(q) for _, q in right):
        left = [item for item in left if not _dice(item[1])]
        right = [item for item in right if not _dice(item[1])]
    return left, right


def _dice(quantity: Quantity) -> bool:
    return quantity.kind == "dice"


class _Candidates:
    """The quantities of one side, each taken at most once by a quantity of the other side.

    A quantity takes the first candidate of the same value (and die) in order, preferring the same
    comparison and sign. Candidates are filed by value, then by comparison and sign, in order, so a
    taking costs a few lookups, not a pass over every candidate (a wall of numbers stays linear).
    """

    def __init__(self, candidates: Sequence[tuple[int, Quantity]]) -> None:
        self._order = {id(candidate): position for position, candidate in enumerate(candidates)}
        self._all = list(candidates)
        self._taken: set[int] = set()
        self._filed: dict[tuple[object, ...], dict[tuple[str | None, str | None], deque[tuple[int, Quantity]]]] = {}
        for candidate in candidates:
            quantity = candidate[1]
            classes = self._filed.setdefault(_value_key(quantity), {})
            classes.setdefault((quantity.comparison, quantity.sign), deque()).append(candidate)

    def take(self, quantity: Quantity) -> tuple[int, Quantity] | None:
        """The best candidate for ``quantity``, if any, no longer a candidate afterwards."""
        best: tuple[bool, bool, int] | None = None
        chosen: deque[tuple[int, Quantity]] | None = None
        for (comparison, sign), queue in self._filed.get(_value_key(quantity), {}).items():
            if queue:
                rank = (comparison != quantity.comparison, sign != quantity.sign, self._order[id(queue[0])])
                if best is None or rank < best:
                    best, chosen = rank, queue
        if chosen is None:
            return None
        taken = chosen.popleft()
        self._taken.add(id(taken))
        return taken

    def left(self) -> list[tuple[int, Quantity]]:
        """The candidates not taken, in order."""
        return [candidate for candidate in self._all if id(candidate) not in self._taken]


def _value_key(quantity: Quantity) -> tuple[object, ...]:
    """What two quantities must share to be partners: the value, and for dice the die too."""
    return (quantity.value, True, quantity.unit) if _dice(quantity) else (quantity.value, False)
