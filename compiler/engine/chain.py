"""``rulebook engine chain``: a chain of rolls the book declares, as players compute it before a game.

The chain is the book's (``mechanics.rolls`` in the rule data): its rolls in ``step`` order, the first rolled
once for each die the player starts with (``--count``, the attacks), each later one for every success of the
step before, each ``against`` values the player gives (``skill``, ``plate + pierce``). The player's numbers
come from the command line or a profile (:mod:`rulebook.engine.profile`).

A step is a roll that must succeed (to hit, to injure: natural results, criticals that skip steps or add
successes, rerolls), rolls that cancel what the step before won (saves: the defender's better option), or
several rolls that must all succeed; :mod:`rulebook.engine.steps` counts one die's way through them.

What gets through is counted exactly: one starting die's successes as a distribution, then the sum for every
die; with ``damage`` (a number or dice notation), the points each success deals; with ``health``, the targets
removed (the damage a success deals beyond its target is lost); a roll with a ``threshold`` (a courage test) is
taken when more than that was lost, and its failure adds ``fail_adds``. Where the text reads a roll two ways,
the answer is given under each reading, with both places quoted.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from rulebook.engine.dice import Ways, add_dice, fraction_text, parse_notation, ways
from rulebook.engine.limits import MAX_DIGITS, over
from rulebook.engine.profile import Profile, check_names, given
from rulebook.engine.rules import Rules, RulesError
from rulebook.engine.steps import Outcome, Step, chain_steps, check_results, outcome, step_outcomes, through
from rulebook.engine.tally import compound, from_fractions, removed, repeat, to_remove


@dataclass
class Answer:
    """What a chain question answers: each step's chances, and each count's distribution."""

    question: str
    steps: list[dict[str, Any]]
    per_die: Ways
    successes: Ways
    damage: Ways | None
    removed: Ways | None
    result: Ways
    """What is lost in the end: the damage (or the successes), with what threshold rolls add."""
    rules: list[dict[str, str | None]] = field(default_factory=list)
    readings: list[dict[str, Any]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        summaries: dict[int, dict[str, Any]] = {}

        def summarised(counted: Ways | None) -> dict[str, Any] | None:
            """Each distribution summed up once (the result is often the damage or the successes)."""
            if counted is None:
                return None
            return summaries.setdefault(id(counted), summary(counted))

        return {
            "question": self.question,
            "steps": self.steps,
            "per_die": summarised(self.per_die),
            "successes": summarised(self.successes),
            "damage": summarised(self.damage),
            "removed": summarised(self.removed),
            **(summarised(self.result) or {}),
            "rules": self.rules,
            "readings": self.readings,
        }


def summary(counted: Ways) -> dict[str, Any]:
    """A distribution as the answer gives it: each value's exact chance, and the mean."""
    distribution = counted.distribution()
    mean = Fraction(sum(value * count for value, count in enumerate(counted.counts, counted.lowest)), counted.total)
    return {
        "distribution": {str(k): fraction_text(v) for k, v in distribution.items()},
        "expected": fraction_text(mean),
    }


def run_chain(rules: Rules, profile: Profile) -> Answer:
    """The answer for the player's numbers, and under every other reading the text gives of a roll."""
    steps, after = chain_steps(rules)
    check_names(profile, [roll for step in steps for roll in step.rolls] + after)
    answer = _answer(rules, steps, after, profile)
    answer.rules = [rules.cite(name) for name in sorted(rules.data["mechanics"]["rolls"])]
    answer.readings = list(_readings(rules, steps, after, profile))
    return answer


def _answer(rules: Rules, steps: list[Step], after: list[dict[str, Any]], profile: Profile) -> Answer:
    derived = rules.data["mechanics"]["dice"]
    outcomes = [step_outcomes(step, profile, derived) for step in steps]
    per_die = from_fractions(through(steps, outcomes, 0, {}))
    successes = _summed(per_die, profile.count)
    each, add_one = _damage(profile, derived)
    damage = _dealt(successes, each, add_one) if profile.damage is not None else None
    result = damage or successes
    for roll in after:
        result = _threshold(roll, result, outcome(roll, profile, derived).passes, derived)
    gone = _removed(successes, each, profile.health, profile.targets) if profile.health else None
    for what, counted in (("its damage", damage), ("what it loses", result), ("the targets it removes", gone)):
        if counted is not None:
            _check_digits(f"{what} ({_digits(counted)} digits of outcomes)", _digits(counted))
    question = f"{profile.count} × {steps[0].rolls[0]['each'] or 'die'}" + _with(profile)
    report = [_step_report(step, found) for step, found in zip(steps, outcomes, strict=True)]
    return Answer(question, report, per_die, successes, damage, gone, result)


def _with(profile: Profile) -> str:
    given_values = ", ".join(f"{name} {value}" for name, value in sorted(profile.values.items()))
    extras = [f"damage {profile.damage}"] if profile.damage is not None else []
    extras += [f"health {profile.health}"] if profile.health else []
    extras += [f"{name} rerolls {_reroll_text(how)}" for name, how in sorted(profile.rerolls.items())]
    text = ", ".join(part for part in [given_values, *extras] if part)
    return f" with {text}" if text else ""


def _reroll_text(how: str | list[int]) -> str:
    return how if isinstance(how, str) else " ".join(map(str, how))


def _summed(per_die: Ways, count: int) -> Ways:
    """The successes of ``count`` dice, within the limits of an exact answer."""
    check_results(f"{count} dice of up to {_highest(per_die)} successes each", count * _highest(per_die))
    _check_digits(f"{count} dice (each counted over {_digits(per_die)} digits of outcomes)", count * _digits(per_die))
    return repeat(per_die, count)


def _dealt(successes: Ways, each: Ways, add_one: Callable[[Ways], Ways] | None) -> Ways:
    """The damage the successes deal, within the limits of an exact answer."""
    most, highest = _highest(successes), _highest(each)
    check_results(f"{most} successes of up to {highest} damage each", most * highest)
    return compound(successes, each, add_one)


def _removed(successes: Ways, each: Ways, health: int, targets: int | None) -> Ways:
    """The targets of ``health`` points the successes remove (their number is within the limits already)."""
    if each.lowest < 1:
        raise RulesError(
            f"a success may deal {each.lowest} damage: targets removed need every success to deal 1 or more"
        )
    return removed(successes, to_remove(health, each), targets)


def _highest(counted: Ways) -> int:
    return counted.lowest + len(counted.counts) - 1


def _digits(counted: Ways) -> int:
    """The digits of the number of outcomes a distribution is counted over (never written out: Python refuses to
    write a number of over 4,300 digits)."""
    return counted.total.bit_length() * 30103 // 100000 + 1


def _check_digits(what: str, digits: int) -> None:
    if digits > MAX_DIGITS:
        raise over(f"{what} make an exact answer of up to {digits} digits", MAX_DIGITS, "digits")


def _damage(profile: Profile, derived: Mapping[str, Any]) -> tuple[Ways, Callable[[Ways], Ways] | None]:
    """What one success deals (a number, or dice notation), and how to add one more success's worth."""
    if profile.damage is None or profile.damage.isdigit():
        points = int(profile.damage or 1)
        return Ways(points, (1,), 1), None
    notation = parse_notation(profile.damage)
    return ways(profile.damage, derived), lambda counted: add_dice(counted, notation, derived)


def _threshold(roll: dict[str, Any], lost: Ways, success: Fraction, derived: Mapping[str, Any]) -> Ways:
    """When more than the threshold is lost, the roll is taken; a failure adds its dice to the loss."""
    cut = min(max(roll["threshold"] - lost.lowest + 1, 0), len(lost.counts))
    tail = Ways(lost.lowest + cut, lost.counts[cut:], lost.total)
    failed = add_dice(tail, parse_notation(roll["fail_adds"]), derived) if roll["fail_adds"] else tail
    extra = failed.total // lost.total
    held, fell = success.numerator, success.denominator - success.numerator
    size = max(len(lost.counts), failed.lowest - lost.lowest + len(failed.counts))
    counts = [0] * size
    for i, count in enumerate(lost.counts):
        counts[i] = count * extra * (success.denominator if i < cut else held)
    for j, count in enumerate(failed.counts, failed.lowest - lost.lowest):
        counts[j] += count * fell
    return Ways(lost.lowest, tuple(counts), lost.total * success.denominator * extra)


def _step_report(step: Step, found: list[Outcome]) -> dict[str, Any]:
    chosen = max(found, key=lambda o: o.passes) if step.cancels and found else None
    return {
        "step": step.number,
        "rolls": [
            {
                "roll": o.roll,
                "target": o.target,
                "pass": fraction_text(o.passes),
                "critical": fraction_text(o.critical),
            }
            for o in found
        ],
        "cancels": step.cancels,
        "chosen": chosen.roll if chosen else None,
    }


def _readings(rules: Rules, steps: list[Step], after: list[dict[str, Any]], profile: Profile) -> list[dict[str, Any]]:
    """For each roll the text reads another way: both places, and the answer under the other reading."""
    found = []
    for roll in sorted((r for s in steps for r in s.rolls), key=lambda r: str(r["term"])) + after:
        if roll["instead_of"] is not None and not given(roll, profile):
            continue  # an option the player did not take: its readings change nothing
        for reading in roll["readings"]:
            other = {**roll, "pass": reading["pass"] or roll["pass"], "against": reading["against"] or roll["against"]}
            changed = [replace(step, rolls=tuple(other if r is roll else r for r in step.rolls)) for step in steps]
            answer = _answer(rules, changed, [other if r is roll else r for r in after], profile)
            found.append(
                {
                    "roll": roll["term"],
                    "warning": (
                        f"the rules read `{roll['term']}` two ways: {_describe(roll)} ({_where(roll['place'])}), but "
                        f"the {reading['reading']} reads it {_describe(other)} ({_where(reading['place'])})"
                    ),
                    "rule": {"text": roll["place"]["text"], "place": _where(roll["place"])},
                    "other": {"text": reading["place"]["text"], "place": _where(reading["place"])},
                    "distribution": summary(answer.result)["distribution"],
                    "expected": summary(answer.result)["expected"],
                }
            )
    return found


def _describe(roll: dict[str, Any]) -> str:
    words = {"at_least": "at or above", "at_most": "at or below", "above": "above", "below": "below"}
    return f"{roll['roll']} {words[roll['pass']]} {roll['against']}"


def _where(place: dict[str, Any]) -> str:
    return f"{place['file']}:{place['line']}"


def render_text(answer: Answer) -> str:
    lines = [answer.question]
    for step in answer.steps:
        for roll in step["rolls"]:
            role = " (saves)" if step["cancels"] else ""
            chosen = " (the defender's choice)" if step["chosen"] == roll["roll"] and len(step["rolls"]) > 1 else ""
            critical = f", critical {roll['critical']}" if roll["critical"] != "0/1" else ""
            lines.append(f"  step {step['step']}: {roll['roll']}{role} {roll['pass']}{critical}{chosen}")
    lines += _render("successes", answer.successes)
    if answer.damage is not None:
        lines += _render("damage", answer.damage)
    if answer.removed is not None:
        lines += _render("targets removed", answer.removed)
    if answer.result is not (answer.damage or answer.successes):
        lines += _render("lost in the end", answer.result)
    for reading in answer.readings:
        lines.append(f"warning: {reading['warning']}")
        lines.append(f"    rule:  {reading['rule']['text'][:160]}")
        lines.append(f"    other: {reading['other']['text'][:160]}")
        lines.append(f"    under the other reading: expected {float(Fraction(reading['expected'])):.3f}")
    return "\n".join(lines) + "\n"


def _render(what: str, counted: Ways) -> list[str]:
    found = summary(counted)
    lines = [f"  {what} (expected {float(Fraction(found['expected'])):.3f}):"]
    for value, p in counted.distribution().items():
        lines.append(f"    {value:>3}  {fraction_text(p):>16}  {float(p):7.2%}")
    return lines
