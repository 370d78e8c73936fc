"""Exact dice distributions, counted in whole numbers and turned into fractions only at the end.

A roll is read once into a :class:`Notation`, where the dice limits are checked. Its results are
counted as :class:`Ways`: how many of the equally likely outcomes give each total. Adding a die
to a count is a sliding-window sum (prefix sums), so ``NdS`` costs N passes over at most N x S
totals instead of the N x S x S of a plain convolution; a die made from another (a D3 from a D6)
has at most three runs of equally likely faces, each one such pass.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable, Mapping, Sequence
from fractions import Fraction
from itertools import accumulate, chain, repeat
from typing import Any, NamedTuple

from rulebook.engine.errors import LimitError, RulesError
from rulebook.engine.limits import MAX_DICE, MAX_SIDES, over, read_bounded, shown

Distribution = dict[int, Fraction]

# ASCII digits only: `\d` also takes other scripts' digits, and `2D6` followed by U+0663 was rolled as 2D63
_NOTATION = re.compile(r"(?P<count>[1-9]\d*)?D(?P<sides>[1-9]\d*)", re.IGNORECASE | re.ASCII)


class Notation(NamedTuple):
    """A roll read from dice notation (``2D6``), inside the dice limits."""

    number: int
    """Dice rolled and added."""
    sides: int
    """Sides of each die; a derived die (D3) of the rule data is named by them."""

    @property
    def die(self) -> str:
        """The name of one die (``D3``), as the rule data's derived dice are keyed."""
        return f"D{self.sides}"


class Ways(NamedTuple):
    """A roll counted exactly: ``counts[i]`` of ``total`` equally likely outcomes give ``lowest + i``."""

    lowest: int
    counts: tuple[int, ...]
    total: int

    def distribution(self) -> Distribution:
        """Each possible result and its probability."""
        return {self.lowest + i: Fraction(count, self.total) for i, count in enumerate(self.counts) if count}

    def faces(self) -> list[int]:
        """The possible results, lowest first."""
        return [self.lowest + i for i, count in enumerate(self.counts) if count]

    def count_within(self, ranges: Iterable[tuple[int | None, int | None]]) -> list[int]:
        """For each inclusive range (None: unbounded), how many outcomes fall in it; one prefix pass."""
        prefix = list(accumulate(self.counts, initial=0))
        last = len(self.counts) - 1
        found = []
        for low, high in ranges:
            start = 0 if low is None else max(low - self.lowest, 0)
            stop = last if high is None else min(high - self.lowest, last)
            found.append(prefix[stop + 1] - prefix[start] if start <= stop else 0)
        return found

    def count_of(self, result: int) -> int:
        index = result - self.lowest
        return self.counts[index] if 0 <= index < len(self.counts) else 0


NOTHING = Ways(0, (1,), 1)
"""No dice rolled yet: a total of 0, certainly."""


def parse_notation(text: str) -> Notation:
    """Read ``NdS``; past the dice limits, refuse naming the limit."""
    match = _NOTATION.fullmatch(text.strip())
    quoted = shown(text, "characters")
    if match is None:
        raise RulesError(f"`{quoted}` is not dice notation: a count of dice, D and their sides, as in 3D8")
    count_digits, sides_digits = match.group("count") or "1", match.group("sides")
    count = read_bounded(count_digits, MAX_DICE)
    if count is None:
        raise over(f"`{quoted}` rolls {shown(count_digits)} dice", MAX_DICE, "dice in one roll")
    sides = read_bounded(sides_digits, MAX_SIDES)
    if sides is None:
        raise over(f"`{quoted}` rolls dice of {shown(sides_digits)} sides", MAX_SIDES, "sides")
    return Notation(count, sides)


def single_die(sides: int, derived_dice: Mapping[str, Any]) -> Ways:
    """One die: a plain one, or one the rule data makes from another (a D3 is a D6 halved, rounding up)."""
    rule = derived_dice.get(f"D{sides}")
    return Ways(1, (1,) * sides, sides) if rule is None else derived_die(f"D{sides}", rule)


def derived_die(name: str, rule: Mapping[str, Any]) -> Ways:
    """A die the rule data makes by dividing one die's result; made from more dice, it is refused."""
    base = parse_notation(rule["roll"])
    if base.number != 1:
        raise LimitError(f"the derived die `{name}` is made from `{rule['roll']}`; the engine makes one from one die")
    divide, up = rule["divide"], rule["round"] == "up"
    results = [-(-face // divide) if up else face // divide for face in range(1, base.sides + 1)]
    lowest = results[0]
    counts = [0] * (results[-1] - lowest + 1)
    for result in results:
        counts[result - lowest] += 1
    return Ways(lowest, tuple(counts), base.sides)


def add_dice(base: Ways, notation: Notation, derived_dice: Mapping[str, Any]) -> Ways:
    """``base`` plus the dice of ``notation``: each die one sliding-window pass per run of equal faces."""
    die = single_die(notation.sides, derived_dice)
    runs = _runs(die.counts)
    counts = list(base.counts)
    for _ in range(notation.number):
        counts = _add_die(counts, runs, len(die.counts))
    return Ways(base.lowest + die.lowest * notation.number, tuple(counts), base.total * die.total**notation.number)


def ways(notation: str, derived_dice: Mapping[str, Any]) -> Ways:
    """The results of a roll (``2D6``, ``D3``, ``2D3``) counted exactly."""
    return add_dice(NOTHING, parse_notation(notation), derived_dice)


def roll(notation: str, derived_dice: Mapping[str, Any]) -> Distribution:
    """The distribution of ``NdS`` (N dice of S sides added); derived dice (D3) come from the rule data."""
    return ways(notation, derived_dice).distribution()


def _runs(counts: Sequence[int]) -> list[tuple[int, int, int]]:
    """(offset, length, weight) of each run of equally likely faces, zero weights left out."""
    found: list[tuple[int, int, int]] = []
    for offset, count in enumerate(counts):
        if found and found[-1][2] == count and found[-1][0] + found[-1][1] == offset:
            found[-1] = (found[-1][0], found[-1][1] + 1, count)
        elif count:
            found.append((offset, 1, count))
    return found


def _add_die(counts: list[int], runs: list[tuple[int, int, int]], span: int) -> list[int]:
    if len(runs) == 1 and runs[0][0] == 0 and runs[0][1] == span:
        window = _window_sums(counts, span)
        return window if runs[0][2] == 1 else [runs[0][2] * x for x in window]
    result = [0] * (len(counts) + span - 1)
    for offset, length, weight in runs:
        window = _window_sums(counts, length)
        end = offset + len(window)
        result[offset:end] = [x + weight * y for x, y in zip(result[offset:end], window, strict=True)]
    return result


def _window_sums(counts: list[int], width: int) -> list[int]:
    """``out[j]`` = the sum of ``counts[j - width + 1 .. j]``: adding a die of ``width`` equal faces."""
    prefix = list(accumulate(chain(counts, repeat(0, width - 1)), initial=0))
    return [x - y for x, y in zip(prefix[1:], chain(repeat(0, width - 1), prefix[: len(counts)]), strict=True)]


def pass_range(how: str, target: int) -> tuple[int | None, int | None]:
    """The results (inclusive, None: unbounded) that are ``at_least``, ``at_most``, ``above`` or ``below``
    the target."""
    if how == "at_least":
        return target, None
    if how == "at_most":
        return None, target
    return (target + 1, None) if how == "above" else (None, target - 1)


def passes(
    result: int, how: str, target: int, always_fails: Collection[int] = (), always_passes: Collection[int] = ()
) -> bool:
    """Whether a roll passes (:func:`pass_range`); never on an always-fails result, always on an always-passes
    one (that is not also always-fails)."""
    if result in always_fails:
        return False
    low, high = pass_range(how, target)
    return result in always_passes or ((low is None or result >= low) and (high is None or result <= high))


def chance(
    counted: Ways, how: str, target: int, always_fails: Collection[int] = (), always_passes: Collection[int] = ()
) -> Fraction:
    """The chance a roll passes (:func:`passes`), from its counted results."""
    low, high = pass_range(how, target)
    [inside] = counted.count_within([(low, high)])
    failing = sum(counted.count_of(r) for r in set(always_fails) if passes(r, how, target))
    passing = sum(counted.count_of(r) for r in set(always_passes) - set(always_fails) if not passes(r, how, target))
    return Fraction(inside - failing + passing, counted.total)


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"
