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

import re
from dataclasses import dataclass, field
from fractions import Fraction
from math import comb
from typing import Any

from engine.dice import Distribution, add, fraction_text, passes, roll
from engine.rules import Rules, RulesError


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
    result = _run(rules, chain, count, values)
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
            other = _run(rules, changed, count, values)
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


@dataclass
class _Result:
    distribution: Distribution
    per_attack: Fraction


def _run(rules: Rules, chain: dict[str, Any], count: int, values: dict[str, int]) -> _Result:
    derived = rules.data["mechanics"]["dice"]
    steps: dict[int, list[dict[str, Any]]] = {}
    for mechanic in chain.values():
        if mechanic["step"] is not None:
            steps.setdefault(mechanic["step"], []).append(mechanic)
    per_attack = Fraction(1)
    for step in sorted(steps):
        options = steps[step]
        if not any(m["cancels"] for m in options):
            for mechanic in options:
                per_attack *= _chance(mechanic, values, derived)
            continue
        # Saves: the defender takes the best one they have (a cover roll needs a cover value).
        chances = [_chance(m, values, derived) for m in options if m["instead_of"] is None or _given(m, values)]
        per_attack *= 1 - max(chances)
    lost = {k: comb(count, k) * per_attack**k * (1 - per_attack) ** (count - k) for k in range(count + 1)}
    for mechanic in chain.values():
        if mechanic["threshold"] is not None and mechanic["step"] is None:
            lost = _threshold(mechanic, lost, values, derived)
    return _Result({k: p for k, p in sorted(lost.items()) if p}, per_attack)


def _threshold(
    mechanic: dict[str, Any], lost: Distribution, values: dict[str, int], derived: dict[str, Any]
) -> Distribution:
    """When more than the threshold is lost, the roll is taken; a failure adds its dice to the loss."""
    success = _chance(mechanic, values, derived)
    extra = roll(mechanic["fail_adds"], derived) if mechanic["fail_adds"] else {0: Fraction(1)}
    result: dict[int, Fraction] = {}
    for k, p in lost.items():
        if k <= mechanic["threshold"]:
            result[k] = result.get(k, Fraction(0)) + p
            continue
        result[k] = result.get(k, Fraction(0)) + p * success
        for value, q in add({k: Fraction(1)}, extra).items():
            result[value] = result.get(value, Fraction(0)) + p * (1 - success) * q
    return dict(sorted(result.items()))


def _chance(mechanic: dict[str, Any], values: dict[str, int], derived: dict[str, Any]) -> Fraction:
    target = evaluate(mechanic["against"], values)
    return sum(
        (p for r, p in roll(mechanic["roll"], derived).items() if passes(r, mechanic["pass"], target)), Fraction(0)
    )


_TOKEN = re.compile(r"\s*([-+])?\s*([a-z0-9_]+)")


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
