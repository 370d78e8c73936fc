"""``rulebook engine odds``: exact probabilities of the book's tests, rolls and roll tables."""

from __future__ import annotations

from fractions import Fraction
from typing import Any, NamedTuple

from rulebook.engine.dice import Distribution, chance, fraction_text, roll, ways
from rulebook.engine.rules import Rules, RulesError


class Odds(NamedTuple):
    """An answer: the chance asked for, or each result's chance, and the rules it used."""

    question: str
    probability: Fraction | None
    distribution: dict[str, Fraction]
    rules: list[dict[str, str | None]]
    notes: tuple[str, ...] = ()
    """What the answer did not take from the question (a value the book overrides)."""
    bands: tuple[dict[str, Any], ...] = ()
    """For a roll table: each band (results, what it gives, its term) with its chance, lowest first."""

    def as_json(self) -> dict[str, Any]:
        found: dict[str, Any] = {
            "question": self.question,
            "probability": fraction_text(self.probability) if self.probability is not None else None,
            "distribution": {k: fraction_text(v) for k, v in self.distribution.items()},
            "rules": self.rules,
            "notes": list(self.notes),
        }
        if self.bands:
            found["bands"] = [{**band, "probability": fraction_text(band["probability"])} for band in self.bands]
        return found


def odds_of_test(rules: Rules, test_id: str, value: int | None, *, reroll_failed: bool = False) -> Odds:
    """The chance to pass a test for a tested value, optionally rerolling a failed test.

    A test whose target the book fixes ("choose on a 4+") is taken against that target: a value
    given is not used, and a note says so.
    """
    test = rules.test(test_id)
    notes = []
    if test.target is not None:
        if value is not None and value != test.target:
            notes.append(
                f"the book fixes the target of `{test_id}` at {test.need(test.target)}, so the value given ({value}) "
                "is ignored"
            )
        value = test.target
    elif value is None:
        raise RulesError(f"`{test_id}` is taken against a value: give it with --value N")
    counted = ways(test.roll, rules.data["mechanics"]["dice"])
    p = chance(counted, test.how, value, test.always_fails, test.always_passes)
    cited = [rules.cite(test.term)]
    if reroll_failed:
        rerolls = rules.data["mechanics"]["rerolls"]
        if rerolls is None:
            raise rules.undeclared("odds reroll")
        if rerolls["max"] < 1:
            raise RulesError("this book's rules allow no rerolls (its reroll rule gives 0)")
        # Dice are rerolled at most once (rerolls.max): a failed test gets one more try.
        p = p + (1 - p) * p
        if rerolls["term"]:
            cited.append(rules.cite(rerolls["term"]))
    fixed = f" (the book's target: {test.need(value)})" if test.target is not None else f" with value {value}"
    question = test_id + fixed + (", rerolling a failure" if reroll_failed else "")
    return Odds(question, p, {"pass": p, "fail": 1 - p}, cited, tuple(notes))


def roll_odds(rules: Rules, notation: str) -> Odds:
    """The full distribution of a roll (2D6, D3, 2D3...); a die the book makes from another cites its place."""
    derived = rules.data["mechanics"]["dice"]
    distribution: Distribution = roll(notation, derived)
    cited = [rules.cite_section(derived[name]["section"]) for name in derived if name in notation.upper()]
    return Odds(notation, None, {str(k): v for k, v in distribution.items()}, cited)


def table_odds(rules: Rules, table_id: str) -> Odds:
    """The chance of each band of a compiled roll table, citing the table's own place."""
    tables = {t["id"]: t for t in rules.data["roll_tables"]}
    if not tables:
        raise rules.undeclared("odds table", f" (asked for `{table_id}`)")
    if table_id not in tables:
        raise RulesError(f"`{table_id}` is not a roll table of this book (tables: {', '.join(sorted(tables))})")
    table = tables[table_id]
    counted = ways(table["die"], rules.data["mechanics"]["dice"])
    inside = counted.count_within((band["min"], band["max"]) for band in table["bands"])
    chances: dict[str, Fraction] = {}
    bands = []
    for band, count in zip(table["bands"], inside, strict=True):
        p = Fraction(count, counted.total)
        chances[band["result"]] = chances.get(band["result"], Fraction(0)) + p
        bands.append(
            {"min": band["min"], "max": band["max"], "result": band["result"], "term": band["term"], "probability": p}
        )
    title = table["title"] or (rules.section(table["section"]) or {}).get("title") or table_id
    cited = [{**rules.cite_section(table["section"]), "table": table_id}]
    return Odds(f"{title}: roll {table['die']} on `{table_id}`", None, chances, cited, bands=tuple(bands))


def render_text(odds: Odds) -> str:
    lines = [odds.question]
    if odds.probability is not None:
        lines.append(f"  probability: {fraction_text(odds.probability)} ({float(odds.probability):.1%})")
    if odds.bands:
        width = max(len(_results(band)) for band in odds.bands)
        for band in odds.bands:
            p = band["probability"]
            lines.append(f"  {_results(band):>{width}}  {fraction_text(p)} ({float(p):.1%})  {band['result']}")
    else:
        for key, value in odds.distribution.items():
            lines.append(f"  {key}: {fraction_text(value)} ({float(value):.1%})")
    for note in odds.notes:
        lines.append(f"  note: {note}")
    for rule in odds.rules:
        name = rule.get("term") or rule.get("title") or rule.get("section")
        if name:
            lines.append(f"  rule: {name} ({rule.get('anchor') or 'not in the site'})")
    return "\n".join(lines) + "\n"


def _results(band: dict[str, Any]) -> str:
    return str(band["min"]) if band["min"] == band["max"] else f"{band['min']}-{band['max']}"
