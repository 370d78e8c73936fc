"""The steps of a chain the book declares, and how many successes one die brings through them.

Each roll of the chain is counted against the player's numbers into three chances: to fail, to succeed and to
succeed critically, the dice the player or the book names rolled again once. One die's successes are then
combined from the last step back, each step once: a step of saves takes back what it saves (the defender's best
option), a step of several rolls needs them all, a single roll's critical success passes the steps it skips and
brings more successes to the next step. See :mod:`rulebook.engine.chain` for the question.
"""

from __future__ import annotations

import math
import operator
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import reduce
from typing import Any

from rulebook.engine.dice import passes, ways
from rulebook.engine.limits import MAX_RESULTS, over
from rulebook.engine.profile import Profile, evaluate, given
from rulebook.engine.rules import Rules

Chances = dict[int, Fraction]
"""A small exact distribution: each count and its chance."""


@dataclass(frozen=True, slots=True)
class Step:
    """One step of the chain: its rolls, and whether a success cancels (a save) or must happen."""

    number: int
    rolls: tuple[dict[str, Any], ...]

    @property
    def cancels(self) -> bool:
        return any(roll["cancels"] for roll in self.rolls)

    @property
    def names(self) -> set[str]:
        return {roll["term"] for roll in self.rolls}


@dataclass(frozen=True, slots=True)
class Outcome:
    """One roll of a step against the player's numbers: its chances to fail, succeed, succeed critically."""

    roll: str
    target: int
    fail: Fraction
    success: Fraction
    critical: Fraction

    @property
    def passes(self) -> Fraction:
        return self.success + self.critical


def chain_steps(rules: Rules) -> tuple[list[Step], list[dict[str, Any]]]:
    """The book's chain: its steps in order, and the rolls taken on what was lost (a ``threshold``)."""
    rolls = rules.data["mechanics"]["rolls"]
    if not any(roll["step"] is not None for roll in rolls.values()):
        raise rules.undeclared("chain")
    by_step: dict[int, list[dict[str, Any]]] = {}
    for roll in rolls.values():
        if roll["step"] is not None:
            by_step.setdefault(roll["step"], []).append(roll)
    steps = [Step(number, tuple(by_step[number])) for number in sorted(by_step)]
    after = [roll for roll in rolls.values() if roll["step"] is None and roll["threshold"] is not None]
    return steps, after


def step_outcomes(step: Step, profile: Profile, derived: Mapping[str, Any]) -> list[Outcome]:
    """The step's rolls the player takes, against their numbers (an option whose value is not given is left
    out)."""
    return [
        outcome(roll, profile, derived) for roll in step.rolls if roll["instead_of"] is None or given(roll, profile)
    ]


def outcome(roll: dict[str, Any], profile: Profile, derived: Mapping[str, Any]) -> Outcome:
    """One roll's chances to fail, succeed and succeed critically, its dice rerolled as the player or the book
    says (once: a die rolled again is final)."""
    target = evaluate(roll["against"], profile.values)
    counted = ways(roll["roll"], derived)
    how = profile.rerolls.get(roll["term"], roll["reroll"])
    again_on = set(how) if isinstance(how, list) else set()
    critical, fails, passing = set(roll["critical"]), set(roll["always_fails"]), set(roll["always_passes"])

    def kind(result: int) -> int:
        if result in critical and result not in fails:
            return 2
        return int(passes(result, roll["pass"], target, fails, passing))

    counts = [0, 0, 0]
    again = [0, 0, 0]
    for result in counted.faces():
        number = counted.count_of(result)
        found = kind(result)
        counts[found] += number
        if (how == "failures" and found == 0) or (how == "successes" and found > 0) or result in again_on:
            again[found] += number
    total, rerolled = counted.total, sum(again)
    final = [Fraction((counts[k] - again[k]) * total + rerolled * counts[k], total * total) for k in range(3)]
    return Outcome(roll["term"], target, *final)


def through(steps: list[Step], outcomes: list[list[Outcome]], index: int, known: dict[int, Chances]) -> Chances:
    """How many successes one die entering step ``index`` brings through the rest of the chain."""
    if index == len(steps):
        return {1: Fraction(1)}
    if index in known:
        return known[index]
    step, found = steps[index], outcomes[index]
    rest = through(steps, outcomes, index + 1, known)
    if step.cancels:
        saved = max((o.passes for o in found), default=Fraction(0))
        result = _mix([(saved, {0: Fraction(1)}), (1 - saved, rest)])
    elif len(found) != 1:
        both = reduce(operator.mul, (o.passes for o in found), Fraction(1))
        result = _mix([(1 - both, {0: Fraction(1)}), (both, rest)])
    else:
        [outcome] = found
        roll = step.rolls[0]
        skipped = index + 1
        while skipped < len(steps) and steps[skipped].names & set(roll["critical_skips"]):
            skipped += 1
        critical = through(steps, outcomes, skipped, known)
        most = max(critical) + roll["critical_adds"] * max(rest)  # refused before it is worked out
        check_results(f"a critical success of `{roll['term']}`", most)
        critical = _added(critical, rest, roll["critical_adds"])
        result = _mix([(outcome.fail, {0: Fraction(1)}), (outcome.success, rest), (outcome.critical, critical)])
    check_results(f"one die's successes from step {steps[index].number} on", max(result))
    known[index] = result
    return result


def _mix(weighted: list[tuple[Fraction, Chances]]) -> Chances:
    mixed: Chances = {}
    for weight, chances in weighted:
        for value, p in chances.items():
            if weight and p:
                mixed[value] = mixed.get(value, Fraction(0)) + weight * p
    return mixed or {0: Fraction(1)}


def _added(first: Chances, other: Chances, times: int) -> Chances:
    """``first`` with ``other`` added to it ``times`` times (the distribution of their sum), worked out on whole
    numbers over one denominator each: with fractions, each step reduced every term, and two criticals adding 30
    each took 20 s of CPU (464,268 additions); as whole numbers, a fraction of a second."""
    if not times:
        return first
    over_first = math.lcm(*(p.denominator for p in first.values()))
    over_other = math.lcm(*(q.denominator for q in other.values()))
    counts = {x: p.numerator * (over_first // p.denominator) for x, p in first.items()}
    adding = {y: q.numerator * (over_other // q.denominator) for y, q in other.items()}
    for _ in range(times):
        total: dict[int, int] = {}
        for x, p in counts.items():
            for y, q in adding.items():
                total[x + y] = total.get(x + y, 0) + p * q
        counts = total
    denominator = over_first * over_other**times
    return {x: Fraction(count, denominator) for x, count in counts.items()}


def check_results(what: str, results: int) -> None:
    if results > MAX_RESULTS:
        raise over(f"{what} can come to {results}", MAX_RESULTS, "results of a chain")
