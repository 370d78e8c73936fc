"""``rulebook engine odds``: exact probabilities of the book's tests and rolls."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from engine.dice import Distribution, fraction_text, passes, roll
from engine.rules import Rules, RulesError


@dataclass(frozen=True, slots=True)
class Odds:
    question: str
    probability: Fraction | None
    distribution: dict[str, Fraction] = field(default_factory=dict)
    rules: list[dict[str, str | None]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "question": self.question,
            "probability": fraction_text(self.probability) if self.probability is not None else None,
            "distribution": {k: fraction_text(v) for k, v in self.distribution.items()},
            "rules": self.rules,
        }


def odds_of_test(rules: Rules, test_id: str, value: int, *, reroll_failed: bool = False) -> Odds:
    """The chance to pass a test for a tested value, optionally rerolling a failed test."""
    tests = rules.data["mechanics"]["tests"]
    if test_id not in tests:
        known = ", ".join(sorted(tests)) or "none"
        raise RulesError(f"`{test_id}` is not a test of this book (tests: {known})")
    test = tests[test_id]
    distribution = roll(test["roll"], rules.data["mechanics"]["dice"])
    p = sum(
        (q for result, q in distribution.items() if passes(result, test["pass"], value, test["always_fails"])),
        Fraction(0),
    )
    cited = [rules.cite(test["term"])]
    if reroll_failed:
        rerolls = rules.data["mechanics"]["rerolls"]
        if rerolls is None or rerolls["max"] < 1:
            raise RulesError("this book's rules allow no rerolls")
        # Dice are rerolled at most once (rerolls.max): a failed test gets one more try.
        for _ in range(min(1, rerolls["max"])):
            p = p + (1 - p) * p
        cited.append(rules.cite(rerolls["term"]))
    question = f"{test_id} with value {value}" + (", rerolling a failure" if reroll_failed else "")
    return Odds(question, p, {"pass": p, "fail": 1 - p}, cited)


def roll_odds(rules: Rules, notation: str) -> Odds:
    """The full distribution of a roll (2D6, D3, 2D3...)."""
    try:
        distribution: Distribution = roll(notation, rules.data["mechanics"]["dice"])
    except ValueError as error:
        raise RulesError(str(error)) from error
    derived = rules.data["mechanics"]["dice"]
    cited: list[dict[str, str | None]] = [
        {"term": None, "anchor": None, "section": derived[name]["section"]}
        for name in derived
        if name in notation.upper()
    ]
    return Odds(notation, None, {str(k): v for k, v in distribution.items()}, cited)


def table_odds(rules: Rules, table_id: str) -> Odds:
    """The chance of each result of a compiled roll table."""
    tables = {t["id"]: t for t in rules.data["roll_tables"]}
    if table_id not in tables:
        raise RulesError(f"`{table_id}` is not a roll table of this book (tables: {', '.join(sorted(tables))})")
    table = tables[table_id]
    distribution = roll(table["die"], rules.data["mechanics"]["dice"])
    chances = {
        band["result"]: sum((p for r, p in distribution.items() if band["min"] <= r <= band["max"]), Fraction(0))
        for band in table["bands"]
    }
    cited = [rules.cite(b["term"]) for b in table["bands"] if b["term"]]
    return Odds(f"roll on {table_id} ({table['die']})", None, chances, cited)


def render_text(odds: Odds) -> str:
    lines = [odds.question]
    if odds.probability is not None:
        lines.append(f"  probability: {fraction_text(odds.probability)} ({float(odds.probability):.1%})")
    for key, value in odds.distribution.items():
        lines.append(f"  {key}: {fraction_text(value)} ({float(value):.1%})")
    for rule in odds.rules:
        if rule.get("term"):
            lines.append(f"  rule: {rule['term']} ({rule.get('anchor') or 'not in the site'})")
    return "\n".join(lines) + "\n"
