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
    """The sum of two independent counts."""
    counts = [0] * (len(a.counts) + len(b.counts) - 1)
    for i, x in enumerate(a.counts):
        if x:
            for j, y in enumerate(b.counts):
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
    """The sum of a counted number of independent draws of ``each`` (the damage of a number of successes):
    the counts of ``k`` draws for every ``k`` the count can be, brought to one total. ``add_one`` adds one draw
    to a distribution (the dice module's sliding window, for a die), else a convolution."""
    highest = counted.lowest + len(counted.counts) - 1
    draws: list[Ways] = [NONE]
    for _ in range(highest):
        draws.append(add_one(draws[-1]) if add_one else add(draws[-1], each))
    total = counted.total * each.total**highest
    lowest = min(draws[k].lowest for k in range(counted.lowest, highest + 1))
    top = max(draws[k].lowest + len(draws[k].counts) for k in range(counted.lowest, highest + 1))
    counts = [0] * (top - lowest)
    for k, weight in enumerate(counted.counts, counted.lowest):
        if weight:
            scale = weight * each.total ** (highest - k)
            for i, count in enumerate(draws[k].counts, draws[k].lowest - lowest):
                counts[i] += scale * count
    return Ways(lowest, tuple(counts), total)


def to_remove(health: int, damage: Ways) -> Ways:
    """How many successes it takes to remove one target of ``health`` points, each dealing ``damage`` (at least
    1): what one success leaves of a target is carried to the next success, never to the next target."""
    left: dict[int, Fraction] = {health: Fraction(1)}
    taken: dict[int, Fraction] = {}
    dealt = damage.distribution()
    successes = 0
    while left:
        successes += 1
        after: dict[int, Fraction] = {}
        for points, p in left.items():
            for hurt, q in dealt.items():
                if hurt >= points:
                    taken[successes] = taken.get(successes, Fraction(0)) + p * q
                else:
                    after[points - hurt] = after.get(points - hurt, Fraction(0)) + p * q
        left = after
    return from_fractions(taken)


def removed(successes: Ways, each: Ways, most: int | None) -> Ways:
    """Targets removed by a counted number of successes, when one target takes ``each`` successes (at most
    ``most`` targets, if given): ``m`` are removed when the successes reach the sum of ``m`` takes."""
    highest = successes.lowest + len(successes.counts) - 1
    cap = highest if most is None else min(most, highest)
    reach: list[list[int]] = [[1] * (highest + 1)]  # the sum of no takes is 0: always reached
    totals = [1]
    sums = NONE
    for _ in range(cap):
        sums = add(sums, each)
        sums = Ways(sums.lowest, sums.counts[: max(highest + 1 - sums.lowest, 0)], sums.total)  # past reach: unread
        reach.append(_at_most(sums, highest))
        totals.append(sums.total)
    reach.append([0] * (highest + 1))
    totals.append(1)
    chances: dict[int, Fraction] = {}
    for m in range(cap + 1):
        numerator = 0
        for k, weight in enumerate(successes.counts, successes.lowest):
            if weight:
                upper = reach[m + 1][k] * totals[m] if m < cap else 0
                numerator += weight * (reach[m][k] * totals[m + 1] - upper)
        chances[m] = Fraction(numerator, successes.total * totals[m] * totals[m + 1])
    return from_fractions({m: p for m, p in chances.items() if p} or {0: Fraction(1)})


def _at_most(sums: Ways, highest: int) -> list[int]:
    """For each ``k`` from 0 to ``highest``, how many outcomes of ``sums`` are at most ``k``."""
    found = []
    running = 0
    for k in range(highest + 1):
        index = k - sums.lowest
        if 0 <= index < len(sums.counts):
            running += sums.counts[index]
        found.append(running)
    return found
