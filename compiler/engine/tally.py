"""Exact distributions of counts (successes, damage, targets removed), in whole numbers until the end.

A distribution is a :class:`~rulebook.engine.dice.Ways`: ``counts[i]`` of ``total`` equally likely outcomes
give ``lowest + i``. Adding independent counts is a convolution of whole numbers; a count of counts (each
success deals a rolled damage) adds one die's worth at a time with the dice module's sliding windows; the
targets a damage stream removes follow from the number of successes one target takes (a renewal count). The
fractions are made once, at the end, by :meth:`Ways.distribution`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from itertools import accumulate
from math import lcm

from rulebook.engine.dice import Ways

ONE = Ways(1, (1,), 1)
"""Exactly one."""
NONE = Ways(0, (1,), 1)
"""Exactly none."""


def from_fractions(chances: Mapping[int, Fraction]) -> Ways:
    """A distribution given as exact chances (they add up to 1), counted over their common denominator."""
    total = lcm(*(p.denominator for p in chances.values()))
    lowest, highest = min(chances), max(chances)
    counts = [0] * (highest - lowest + 1)
    for value, p in chances.items():
        counts[value - lowest] += p.numerator * (total // p.denominator)
    return Ways(lowest, tuple(counts), total)


def add(a: Ways, b: Ways) -> Ways:
    """The sum of two independent counts (a count's impossible values skipped: one target's takes are sparse)."""
    counts = [0] * (len(a.counts) + len(b.counts) - 1)
    possible = [(j, y) for j, y in enumerate(b.counts) if y]
    for i, x in enumerate(a.counts):
        if x:
            for j, y in possible:
                counts[i + j] += x * y
    return Ways(a.lowest + b.lowest, tuple(counts), a.total * b.total)


def repeat(one: Ways, times: int) -> Ways:
    """The sum of ``times`` independent counts, each distributed as ``one``."""
    result = NONE
    for _ in range(times):
        result = add(result, one)
    return result


def mix(weighted: Sequence[tuple[Fraction, Ways]]) -> Ways:
    """A count that is each of the counts with its chance (the chances add up to 1)."""
    chances: dict[int, Fraction] = {}
    for weight, ways in weighted:
        if weight:
            for value, p in ways.distribution().items():
                chances[value] = chances.get(value, Fraction(0)) + weight * p
    return from_fractions(chances)


def compound(counted: Ways, each: Ways, add_one: Callable[[Ways], Ways] | None = None) -> Ways:
    """The sum of a counted number of independent draws of ``each`` (the damage of a number of successes),
    by Horner's rule from the most draws down: ``k`` or more draws are one draw added to ``k + 1`` or more, plus
    the outcomes of exactly ``k``. ``add_one`` adds one draw to a distribution (the dice module's sliding window,
    for a die), else a convolution."""
    weights = dict(zip(range(counted.lowest, counted.lowest + len(counted.counts)), counted.counts, strict=True))
    highest = counted.lowest + len(counted.counts) - 1
    acc = Ways(0, (weights.get(highest, 0),), 1)
    for k in range(highest - 1, -1, -1):
        acc = add_one(acc) if add_one else add(acc, each)
        exactly = weights.get(k, 0) * acc.total
        if exactly:
            counts = list(acc.counts)
            if acc.lowest > 0:  # room for no damage at all
                counts = [0] * acc.lowest + counts
            counts[0 if acc.lowest > 0 else -acc.lowest] += exactly
            acc = Ways(min(acc.lowest, 0), tuple(counts), acc.total)
    return Ways(acc.lowest, acc.counts, acc.total * counted.total)


def to_remove(health: int, damage: Ways) -> Ways:
    """How many successes it takes to remove one target of ``health`` points, each dealing ``damage`` (at least
    1): what one success leaves of a target is carried to the next success, never to the next target. Counted
    in whole numbers: after ``k`` successes, the outcomes of ``k`` damage rolls that leave each number of
    points, and those that removed the target at the ``k``-th."""
    faces = [(damage.lowest + i, count) for i, count in enumerate(damage.counts) if count]
    left = {health: 1}
    taken: list[tuple[int, int]] = []  # (outcomes that removed the target at this success, their total)
    total = 1
    while left:
        total *= damage.total
        after: dict[int, int] = {}
        now = 0
        for points, count in left.items():
            for dealt, ways in faces:
                if dealt >= points:
                    now += count * ways
                else:
                    after[points - dealt] = after.get(points - dealt, 0) + count * ways
        taken.append((now, total))
        left = after
    return Ways(1, tuple(now * (total // at) for now, at in taken), total)


def removed(successes: Ways, each: Ways, most: int | None) -> Ways:
    """Targets removed by a counted number of successes, when one target takes ``each`` successes (at most
    ``most`` targets, if given): ``m`` or more are removed when the successes reach the sum of ``m`` takes. The
    chance of that is one sum over the successes a time; the chance of ``m`` exactly, the difference of two."""
    highest = successes.lowest + len(successes.counts) - 1
    cap = highest if most is None else min(most, highest)
    # A sum of takes s is reached by every number of successes k >= s: the outcomes of k >= s, for each s.
    tail = list(accumulate(reversed(successes.counts)))[::-1]
    at_least = [Fraction(1)]  # no target or more: certain
    sums = NONE
    for _ in range(cap):
        sums = add(sums, each)
        sums = Ways(sums.lowest, sums.counts[: max(highest + 1 - sums.lowest, 0)], sums.total)  # past reach: unread
        if not any(sums.counts):
            break  # so many targets take more successes than there can be: none more is removed
        outcomes = sum(
            count * tail[s - successes.lowest] if s >= successes.lowest else count * tail[0]
            for s, count in enumerate(sums.counts, sums.lowest)
            if count
        )
        at_least.append(Fraction(outcomes, successes.total * sums.total))
    at_least.append(Fraction(0))
    chances = {m: at_least[m] - at_least[m + 1] for m in range(len(at_least) - 1)}
    return from_fractions({m: p for m, p in chances.items() if p} or {0: Fraction(1)})
