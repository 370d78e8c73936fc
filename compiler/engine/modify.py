"""``rulebook engine modify``: characteristic modifiers applied in the book's order, step by step.

The order of kinds (set or borrowed values, multiplications, additions), how multiplications
round, and the range a characteristic stays in all come from the rule data. Within a kind,
modifiers without a bound come before bounded ones ("to a minimum of 1"), then in the order
they were gained. A bound limits how far its modifier takes the value, and never moves it the
other way: a -1 never raises a value, a +1 never lowers it (``-1 min 1`` leaves a 0 at 0). Where the
characteristic's range keeps a value (the start, or a step's result), the trace says so.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from rulebook.engine.dice import fraction_text
from rulebook.engine.limits import MAX_MODIFIERS, check_count, read_number, shown
from rulebook.engine.rules import Rules, RulesError

_SPEC = re.compile(
    r"^\s*(?:(?P<set>set)\s+(?P<value>\d+)|(?P<op>[*x/+-])\s*(?P<number>\d+))"
    r"(?:\s+(?P<bound>min|max)\s+(?P<limit>\d+))?\s*$",
    re.IGNORECASE,
)


@dataclass(frozen=True, slots=True)
class Modifier:
    text: str
    kind: str
    """``set``, ``multiply`` or ``add`` (the kinds the rule data orders)."""
    amount: Fraction
    bound: tuple[str, int] | None
    index: int
    """The order it was gained in."""


def parse_modifier(text: str, index: int) -> Modifier:
    """``set 3``, ``*2``, ``/2`` (halve), ``+1``, ``-1``, optionally ``min N`` or ``max N``."""
    match = _SPEC.match(text)
    if match is None:
        raise RulesError(f"cannot read the modifier `{text}` (write set 3, *2, /2, +1 or -1, then maybe min 1)")
    where = f"the number in `{shown(text, 'characters')}`"
    bound = (match.group("bound").lower(), read_number(match.group("limit"), where)) if match.group("bound") else None
    if match.group("set"):
        return Modifier(text, "set", Fraction(read_number(match.group("value"), where)), bound, index)
    op, number = match.group("op"), read_number(match.group("number"), where)
    if op in "*x":
        return Modifier(text, "multiply", Fraction(number), bound, index)
    if op == "/":
        if number == 0:
            raise RulesError(f"`{text}` divides by zero")
        return Modifier(text, "multiply", Fraction(1, number), bound, index)
    return Modifier(text, "add", Fraction(number if op == "+" else -number), bound, index)


def apply_modifiers(rules: Rules, value: int, specs: list[str]) -> dict[str, Any]:
    """The trace of applying modifiers to a characteristic value, in the book's priority order."""
    priority = rules.data["mechanics"]["modifiers"]
    if priority is None:
        raise rules.undeclared("modify")
    low, high = rules.data["characteristics"]["min"], rules.data["characteristics"]["max"]
    check_count(len(specs), MAX_MODIFIERS, "modifiers")
    modifiers = [parse_modifier(spec, index) for index, spec in enumerate(specs)]
    rank = {kind: position for position, kind in enumerate(priority["order"])}
    ordered = sorted(modifiers, key=lambda m: (rank[m.kind], m.bound is not None, m.index))
    current = _clamp(Fraction(value), low, high)
    start = current
    steps = []
    for modifier in ordered:
        before, moved = current, _apply(modifier, current, priority["round"])
        current = _clamp(moved, low, high)
        step = {"modifier": modifier.text, "kind": modifier.kind, "before": _number(before), "after": _number(current)}
        if current != moved:  # the characteristic's range kept it: said, never done in silence
            step["beyond_range"] = _number(moved)
        steps.append(step)
    return {
        "value": value,
        "start": _number(start),
        "result": int(current),
        "steps": steps,
        "rules": [rules.cite(priority["term"])],
        "range": [low, high],
    }


def _apply(modifier: Modifier, value: Fraction, rounding: str) -> Fraction:
    """The value after one modifier. A bound ("to a minimum of 1") limits how far the modifier takes the value:
    the result lies between the value and where the modifier alone would take it, so a bounded -1 never raises
    a value already under its minimum, and a bounded +1 never lowers one already over its maximum."""
    if modifier.kind == "set":
        moved = modifier.amount
    elif modifier.kind == "multiply":
        product = value * modifier.amount
        moved = Fraction(math.ceil(product) if rounding == "up" else math.floor(product))
    else:
        moved = value + modifier.amount
    if modifier.bound is None:
        return moved
    kind, limit = modifier.bound
    bounded = max(moved, Fraction(limit)) if kind == "min" else min(moved, Fraction(limit))
    return min(max(bounded, min(value, moved)), max(value, moved))


def _clamp(value: Fraction, low: int | None, high: int | None) -> Fraction:
    if low is not None:
        value = max(value, Fraction(low))
    if high is not None:
        value = min(value, Fraction(high))
    return value


def render_text(trace: dict[str, Any]) -> str:
    low, high = trace["range"]
    bounds = "no range declared" if low is None and high is None else f"range {_bound(low)}-{_bound(high)}"
    start = trace["start"]
    kept = "" if start == str(trace["value"]) else f", kept within the range: {start}"
    lines = [f"Starting value {trace['value']} ({bounds}){kept}:"]
    for number, step in enumerate(trace["steps"], 1):
        beyond = f" ({step['beyond_range']}, kept within the range)" if "beyond_range" in step else ""
        lines.append(
            f"  {number}. {step['modifier']:<10} ({step['kind']}): {step['before']} -> {step['after']}{beyond}"
        )
    lines.append(f"Result: {trace['result']}")
    return "\n".join(lines) + "\n"


def _bound(bound: int | None) -> str:
    return "" if bound is None else str(bound)


def _number(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else fraction_text(value)
