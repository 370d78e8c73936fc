"""Whether two aligned sentences state the same quantities: values, comparisons and signs.

Each side's quantities (:mod:`compiler.translate.facts`) are matched by value (a sign or a
comparison may differ on the same value; dice match dice). A matched pair whose comparisons differ
(more than, at least) is a ``comparison-differs``; whose signs differ (``-1`` and ``1``), a
``sign-differs``. Values left unmatched are a ``numbers-differ`` when both sides keep one (a value
that changed), or when a value written in digits has no counterpart; a number word or an ordinal
alone on one side is a translator's wording ("two measurements", "first") and is not reported.
Dice count only where both sides write dice ("D6" is also "un dé").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from compiler.translate.facts import Quantity

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
    for index in range(len(beads)):
        for other in range(index + 1, len(beads)):
            _cancel(lefts[index], rights[other])
            _cancel(rights[index], lefts[other])
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
    for item in left:
        match = _partner(item[1], right)
        if match is None:
            unmatched_left.append(item)
            continue
        right.remove(match)
        a, b = item[1], match[1]
        if a.comparison and b.comparison and a.comparison != b.comparison:
            found.append(Difference("comparison-differs", (item,), (match,)))
        if (a.sign == "-") != (b.sign == "-"):
            found.append(Difference("sign-differs", (item,), (match,)))
    return found, unmatched_left, right


def _cancel(here: list[tuple[int, Quantity]], there: list[tuple[int, Quantity]]) -> None:
    for item in list(here):
        partner = next((other for other in there if other[1].value == item[1].value), None)
        if partner is not None:
            here.remove(item)
            there.remove(partner)


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


def _partner(quantity: Quantity, candidates: Sequence[tuple[int, Quantity]]) -> tuple[int, Quantity] | None:
    """The best candidate with the same value: same comparison and sign first."""
    same = [c for c in candidates if c[1].value == quantity.value and _dice(c[1]) == _dice(quantity)]
    if _dice(quantity):
        same = [c for c in same if c[1].unit == quantity.unit]
    if not same:
        return None
    return min(same, key=lambda c: (c[1].comparison != quantity.comparison, c[1].sign != quantity.sign))
