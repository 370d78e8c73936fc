"""``rulebook engine attack``: a chain of rolls (hit, injury, save, courage) as an exact distribution.

The chain is the book's: the rolls of ``mechanics.rolls`` in the rule data, in ``step`` order, each
made for every success of the step before (``each``), each rolled ``against`` values the player
gives (``defense + penetration``). Rolls of the same step are alternatives the defender chooses
between (a cover roll ``instead_of`` a defence roll): the better one is taken. A roll with a
``threshold`` (a courage test) is taken when more than that was lost, and its failure adds
``fail_adds`` to the loss. Where the text reads a roll two ways (the rule says "at or above", its
example "above"), the result is given under each reading, with both places quoted.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import accumulate, repeat
from math import comb
from typing import Any

from rulebook.engine.dice import Distribution, Ways, add_dice, chance, fraction_text, parse_notation, ways
from rulebook.engine.limits import MAX_ATTACKS, MAX_DIGITS, MAX_GIVEN_VALUES, check_count, over, read_number, shown
from rulebook.engine.rules import Rules, RulesError


@dataclass
class Attack:
    question: str
    distribution: Distribution
    """Health lost: value -> probability."""
    per_attack: Fraction
    """The chance one attack costs the defender a point, before any threshold roll."""
    rules: list[dict[str, str | None]] = field(default_factory=list)
    readings: list[dict[str, Any]] = field(default_factory=list)
    """For each roll the text reads two ways: both places, and the result under the other reading."""

    def as_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "per_attack": fraction_text(self.per_attack),
            "distribution": {str(k): fraction_text(v) for k, v in self.distribution.items()},
            "expected": fraction_text(expected(self.distribution)),
            "rules": self.rules,
            "readings": self.readings,
        }


def attack(rules: Rules, count: int, values: dict[str, int]) -> Attack:
    """``count`` attacks through the book's chain of rolls, with the values the player gives."""
    chain = rules.data["mechanics"].get("rolls", {})
    if not chain:
        raise RulesError("the rule data has no chain of rolls (annotate them with `against`; see `rulebook dtd`)")
    check_attacks(count)
    known: _Chances = {}
    result = _run(rules, chain, count, values, known)
    cited = [rules.cite(name) for name in sorted(chain)]
    question = f"{count} attacks with " + ", ".join(f"{k} {v}" for k, v in sorted(values.items()))
    readings = []
    for name, mechanic in sorted(chain.items()):
        if mechanic["instead_of"] is not None and not _given(mechanic, values):
            continue  # an option the player did not take (no cover value): its readings change nothing
        for reading in mechanic["readings"]:
            changed = {
                **chain,
                name: {
                    **mechanic,
                    "pass": reading["pass"] or mechanic["pass"],
                    "against": reading["against"] or mechanic["against"],
                },
            }
            other = _run(rules, changed, count, values, known)
            readings.append(
                {
                    "roll": name,
                    "warning": (
                        f"the rules read `{name}` two ways: {_describe(mechanic)} "
                        f"({_where(mechanic['place'])}), but the {reading['reading']} reads it "
                        f"{_describe(changed[name])} ({_where(reading['place'])})"
                    ),
                    "rule": {"text": mechanic["place"]["text"], "place": _where(mechanic["place"])},
                    "other": {"text": reading["place"]["text"], "place": _where(reading["place"])},
                    "distribution": {str(k): fraction_text(v) for k, v in other.distribution.items()},
                    "expected": fraction_text(expected(other.distribution)),
                    "per_attack": fraction_text(other.per_attack),
                }
            )
    return Attack(question, result.distribution, result.per_attack, cited, readings)


def check_attacks(count: int) -> None:
    """The number of attacks a question may ask about: 0 up to the engine's limit."""
    if count < 0:
        raise RulesError("the number of attacks must be 0 or more")
    if count > MAX_ATTACKS:
        raise over(f"{shown(str(count))} attacks", MAX_ATTACKS, "attacks")


@dataclass
class _Result:
    distribution: Distribution
    per_attack: Fraction


_Chances = dict[tuple[str, str, int], Fraction]
"""Chances already worked out in one question, by (roll, pass, target)."""


def _run(rules: Rules, chain: dict[str, Any], count: int, values: dict[str, int], known: _Chances) -> _Result:
    derived = rules.data["mechanics"]["dice"]
    per_attack = _per_attack(chain, values, derived, known)
    digits = count * len(str(per_attack.denominator))
    if digits > MAX_DIGITS:
        raise over(
            f"{count} attacks, each costing a point with chance {fraction_text(per_attack)}, make an exact answer "
            f"of {digits} digits",
            MAX_DIGITS,
            "digits",
        )
    lost = _binomial(count, per_attack)
    for mechanic in chain.values():
        if mechanic["threshold"] is not None and mechanic["step"] is None:
            lost = _threshold(mechanic, lost, _chance(mechanic, values, derived, known), derived)
    return _Result(lost.distribution(), per_attack)


def _per_attack(chain: dict[str, Any], values: dict[str, int], derived: dict[str, Any], known: _Chances) -> Fraction:
    """The chance one attack costs a point: the rolls of each step in turn."""
    steps: dict[int, list[dict[str, Any]]] = {}
    for mechanic in chain.values():
        if mechanic["step"] is not None:
            steps.setdefault(mechanic["step"], []).append(mechanic)
    per_attack = Fraction(1)
    for step in sorted(steps):
        options = steps[step]
        if not any(m["cancels"] for m in options):
            for mechanic in options:
                per_attack *= _chance(mechanic, values, derived, known)
            continue
        # Saves: the defender takes the best one they have (a cover roll needs a cover value).
        chances = [_chance(m, values, derived, known) for m in options if m["instead_of"] is None or _given(m, values)]
        per_attack *= 1 - max(chances, default=Fraction(0))
    return per_attack


def _binomial(count: int, p: Fraction) -> Ways:
    """Points lost in ``count`` attacks each costing one with chance ``p``, exactly: C(n, k) a^k (b - a)^(n - k)
    out of b^n for p = a/b."""
    a, b = p.numerator, p.denominator
    hits = list(accumulate(repeat(a, count), operator.mul, initial=1))
    misses = list(accumulate(repeat(b - a, count), operator.mul, initial=1))
    counts = [comb(count, k) * hits[k] * misses[count - k] for k in range(count + 1)]
    return Ways(0, tuple(counts), b**count)


def _threshold(mechanic: dict[str, Any], lost: Ways, success: Fraction, derived: dict[str, Any]) -> Ways:
    """When more than the threshold is lost, the roll is taken; a failure adds its dice to the loss."""
    cut = min(max(mechanic["threshold"] - lost.lowest + 1, 0), len(lost.counts))
    tail = Ways(lost.lowest + cut, lost.counts[cut:], lost.total)
    failed = add_dice(tail, parse_notation(mechanic["fail_adds"]), derived) if mechanic["fail_adds"] else tail
    extra = failed.total // lost.total
    held, fell = success.numerator, success.denominator - success.numerator
    size = max(len(lost.counts), failed.lowest - lost.lowest + len(failed.counts))
    counts = [0] * size
    for i, count in enumerate(lost.counts):
        counts[i] = count * extra * (success.denominator if i < cut else held)
    for j, count in enumerate(failed.counts, failed.lowest - lost.lowest):
        counts[j] += count * fell
    return Ways(lost.lowest, tuple(counts), lost.total * success.denominator * extra)


def _chance(mechanic: dict[str, Any], values: dict[str, int], derived: dict[str, Any], known: _Chances) -> Fraction:
    key = (mechanic["roll"], mechanic["pass"], evaluate(mechanic["against"], values))
    if key not in known:
        known[key] = chance(ways(mechanic["roll"], derived), key[1], key[2])
    return known[key]


_TOKEN = re.compile(r"\s*([-+])?\s*([a-z0-9_]+)")
_GIVEN = re.compile(r"(?P<name>[^=]+)=(?P<number>-?\d+)")


def read_values(given: Sequence[str]) -> dict[str, int]:
    """The values a player gives as ``NAME=N`` (``accuracy=3``), each number within the engine's limit."""
    check_count(len(given), MAX_GIVEN_VALUES, "values given to an attack")
    values = {}
    for text in given:
        match = _GIVEN.fullmatch(text.strip())
        if match is None or not match.group("name").strip():
            raise RulesError(f"--value takes NAME=N, such as accuracy=3 (not `{shown(text, 'characters')}`)")
        name = match.group("name").strip()
        values[name] = read_number(match.group("number"), f"the value of `{shown(name, 'characters')}`")
    return values


def _given(mechanic: dict[str, Any], values: dict[str, int]) -> bool:
    """Whether the player gave every value an optional roll is rolled against."""
    return all(name.isdigit() or name in values for _, name in _TOKEN.findall(mechanic["against"]))


def evaluate(expression: str, values: dict[str, int]) -> int:
    """``defense + penetration`` with the player's values; a missing name is asked for in plain words."""
    total = 0
    for sign, name in _TOKEN.findall(expression):
        if name.isdigit():
            value = int(name)
        elif name in values:
            value = values[name]
        else:
            raise RulesError(f"the roll against `{expression}` needs a value for `{name}` (--value {name}=N)")
        total += -value if sign == "-" else value
    return total


def expected(distribution: Distribution) -> Fraction:
    return sum((k * p for k, p in distribution.items()), Fraction(0))


def _describe(mechanic: dict[str, Any]) -> str:
    words = {"at_least": "at or above", "at_most": "at or below", "above": "above", "below": "below"}
    return f"{mechanic['roll']} {words[mechanic['pass']]} {mechanic['against']}"


def _where(place: dict[str, Any]) -> str:
    return f"{place['file']}:{place['line']}"


def render_text(result: Attack) -> str:
    lines = [result.question, f"  each attack costs a point with probability {fraction_text(result.per_attack)}"]
    lines.append(f"  points lost (expected {float(expected(result.distribution)):.3f}):")
    for value, p in result.distribution.items():
        lines.append(f"    {value:>3}  {fraction_text(p):>16}  {float(p):7.2%}")
    for reading in result.readings:
        lines.append(f"warning: {reading['warning']}")
        lines.append(f"    rule:  {reading['rule']['text'][:160]}")
        lines.append(f"    other: {reading['other']['text'][:160]}")
        lines.append(
            f"    under the other reading: each attack {reading['per_attack']}, "
            f"expected {float(Fraction(reading['expected'])):.3f} points lost"
        )
    return "\n".join(lines) + "\n"
