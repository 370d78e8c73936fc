"""Exact dice distributions: a distribution maps each result to its probability (a Fraction)."""

from __future__ import annotations

import math
import re
from collections import defaultdict
from collections.abc import Collection
from fractions import Fraction
from typing import Any

Distribution = dict[int, Fraction]

_NOTATION = re.compile(r"(?P<count>[1-9]\d*)?D(?P<sides>[1-9]\d*)", re.IGNORECASE)


def die(sides: int) -> Distribution:
    return {face: Fraction(1, sides) for face in range(1, sides + 1)}


def add(a: Distribution, b: Distribution) -> Distribution:
    total: dict[int, Fraction] = defaultdict(Fraction)
    for x, p in a.items():
        for y, q in b.items():
            total[x + y] += p * q
    return dict(sorted(total.items()))


def derived(base: Distribution, divide: int, rounding: str) -> Distribution:
    """A die made from another by dividing its result (a D3 is a D6 halved, rounding up)."""
    result: dict[int, Fraction] = defaultdict(Fraction)
    for value, p in base.items():
        result[math.ceil(value / divide) if rounding == "up" else value // divide] += p
    return dict(sorted(result.items()))


def roll(notation: str, derived_dice: dict[str, Any]) -> Distribution:
    """The distribution of ``NdS`` (N dice of S sides added); derived dice (D3) come from the rule data."""
    match = _NOTATION.fullmatch(notation.strip())
    if match is None:
        raise ValueError(f"`{notation}` is not dice notation: a count of dice, D and their sides, as in 3D8")
    count, sides = int(match.group("count") or 1), int(match.group("sides"))
    single = _single(f"D{sides}", derived_dice)
    total = single
    for _ in range(count - 1):
        total = add(total, single)
    return total


def _single(name: str, derived_dice: dict[str, Any]) -> Distribution:
    rule = derived_dice.get(name)
    if rule is None:
        return die(int(name[1:]))
    return derived(roll(rule["roll"], {}), rule["divide"], rule["round"])


def passes(result: int, how: str, target: int, always_fails: Collection[int] = ()) -> bool:
    """Whether a roll passes: ``at_least``, ``at_most``, ``above`` or ``below`` the target; never on an
    always-fails result."""
    if result in always_fails:
        return False
    if how == "at_least":
        return result >= target
    if how == "at_most":
        return result <= target
    return result > target if how == "above" else result < target


def fraction_text(value: Fraction) -> str:
    return f"{value.numerator}/{value.denominator}"
