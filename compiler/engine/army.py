"""``rulebook engine army FILE``: check an army list against the book's composition rules.

Every limit comes from ``army_composition`` in the rule data; every violation quotes the
rule it breaks and links to it. An army list (YAML or JSON) looks like::

    points_limit: 2000
    units:
      - {name: Spearmen, unit: spearmen, category: core, points: 260}
      - {name: Chariots, unit: chariots, category: special, points: 180, choice: "0-2"}
      - {name: Captain, unit: captain, category: hero, points: 150, general: true,
         upgrades: [{name: Sword, points: "50/40"}]}
      - {name: Bolt Thrower, unit: bolt_thrower, category: special, points: 60.5, troop_type: war_machine}

``unit`` says which entries are the same unit (for duplicate limits); ``category`` is a
category's term id as the book's tables name it; ``choice`` marks a 0-X choice; ``marks``
lists marks such as ``one_of_a_kind``; ``general`` names the general; ``troop_type`` the
unit's troop type; an upgrade's price may be written with a slash ("50/40"), and a cost may
have a half point (60.5): the book's rules in the data say what those mean.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulebook.engine.army_file import read_army as read_army
from rulebook.engine.bindings import BINDINGS
from rulebook.engine.rules import Rules

ARMY_LIST, CATEGORY, CHOICE, POINT_COST = BINDINGS["army"]

_CHOICE = re.compile(r"^0-(?P<x>[1-9]\d*)$")


@dataclass(frozen=True, slots=True)
class Violation:
    message: str
    rule: str
    """The words of the rule broken, as the book's tables or values give them."""
    cites: list[dict[str, str | None]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"message": self.message, "rule": self.rule, "rules": self.cites}


@dataclass(frozen=True, slots=True)
class ArmyReport:
    total: int
    points_limit: int
    variant: str | None
    violations: list[Violation]

    @property
    def legal(self) -> bool:
        return not self.violations

    def as_json(self) -> dict[str, Any]:
        return {
            "legal": self.legal,
            "total_points": self.total,
            "points_limit": self.points_limit,
            "variant": self.variant,
            "violations": [v.as_json() for v in self.violations],
        }


def check_army(rules: Rules, army: dict[str, Any]) -> ArmyReport:
    composition = rules.data["army_composition"]
    limit = int(army["points_limit"])
    priced = [_priced(rules, composition, unit) for unit in army["units"]]
    units = [unit for unit, _ in priced]
    total = sum(int(u["points"]) for u in units)
    variant = _variant(composition, limit)
    violations = [
        *(v for _, found in priced for v in found),
        *_points(rules, composition, limit, total),
        *_percentages(rules, composition, units, limit),
        *_duplicates(rules, composition, variant, units),
        *_army_size(rules, composition, variant, units),
        *_choices(rules, variant, units),
        *_general(rules, composition, units),
        *_marked(rules, composition, variant, units),
    ]
    return ArmyReport(total, limit, variant["id"] if variant else None, violations)


def _priced(rules: Rules, composition: dict[str, Any], unit: dict[str, Any]) -> tuple[dict[str, Any], list[Violation]]:
    """The unit with its cost in whole points: upgrades added (a slash price read by category), rounded."""
    army_rules = composition["rules"]
    order = army_rules["slash_prices"]
    cost = Fraction(str(unit["points"]))
    found = []
    for upgrade in unit.get("upgrades", []):
        price = str(upgrade["points"])
        if "/" not in price:
            cost += Fraction(price)
        elif unit["category"] in order and len(price.split("/")) == len(order):
            cost += Fraction(price.split("/")[order.index(unit["category"])].strip())
        else:
            found.append(
                Violation(
                    f"`{unit['name']}` ({unit['category']}) has the upgrade `{upgrade.get('name', price)}` at {price}",
                    "a price written with a slash gives the cost for " + " / ".join(order or ["(no rule)"]),
                    [_cite_section(rules, composition, "slash_prices")],
                )
            )
    if cost.denominator != 1:
        rounding = army_rules["whole_points"]
        if rounding is None:
            found.append(Violation(f"`{unit['name']}` costs {float(cost)} points", "costs are whole points", []))
        cost = Fraction(math.ceil(cost) if rounding != "down" else math.floor(cost))
    return {**unit, "points": int(cost)}, found


def _cite_section(rules: Rules, composition: dict[str, Any], rule: str) -> dict[str, str | None]:
    """The army-list rule's place (these rules are prose in the book, often under no term of their own)."""
    return {"term": ARMY_LIST, "anchor": rules.anchor(ARMY_LIST), "rule": rule}


def _general(rules: Rules, composition: dict[str, Any], units: list[dict[str, Any]]) -> list[Violation]:
    general = composition["rules"]["general"]
    if general is None:
        return []
    named = [u for u in units if u.get("general")]
    cites = [_cite_section(rules, composition, "general")]
    found = []
    if len(named) != general["count"]:
        names = ", ".join(f"`{u['name']}`" for u in named) or "none"
        found.append(
            Violation(
                f"the army names {len(named)} generals ({names})",
                f"exactly {general['count']} general, chosen from " + " / ".join(general["from"]),
                cites,
            )
        )
    for unit in named:
        if unit["category"] not in general["from"]:
            found.append(
                Violation(
                    f"the general `{unit['name']}` is a {unit['category']}",
                    "the general is chosen from " + " / ".join(general["from"]),
                    cites,
                )
            )
    return found


def _marked(
    rules: Rules, composition: dict[str, Any], variant: dict[str, Any] | None, units: list[dict[str, Any]]
) -> list[Violation]:
    """Units and items marked (One of a Kind, One per Army): how often each may be taken."""
    found = []
    for mark, standard in sorted(composition["rules"]["marked"].items()):
        limit = standard
        for row in (variant or {}).get("duplicate_limits", []):
            if mark in row["terms"] and row["limit"] is not None:
                limit = int(row["limit"])
        counts: dict[str, int] = {}
        for unit in units:
            if mark in unit.get("marks", []):
                key = str(unit.get("unit", unit["name"]))
                counts[key] = counts.get(key, 0) + 1
        for key, count in sorted(counts.items()):
            if count > limit:
                where = f" in a {variant['id'].replace('_', ' ')}" if variant else ""
                found.append(
                    Violation(
                        f"`{key}` ({mark}) is taken {count} times",
                        f"{mark}: at most {limit}{where}",
                        [rules.cite(mark)],
                    )
                )
    return found


def _variant(composition: dict[str, Any], limit: int) -> dict[str, Any] | None:
    for variant in composition["variants"]:
        if variant["max_points"] is not None and limit <= variant["max_points"]:
            return dict(variant)
        if variant["min_points"] is not None and limit >= variant["min_points"]:
            return dict(variant)
    return None


def _points(rules: Rules, composition: dict[str, Any], limit: int, total: int) -> list[Violation]:
    cite = [rules.cite(POINT_COST)]
    if total > limit:
        return [
            Violation(
                f"the army costs {total} points, {total - limit} over its limit of {limit}",
                "must not exceed the point limit",
                cite,
            )
        ]
    below = composition["max_points_below_limit"]
    if below is not None and total < limit - below:
        return [
            Violation(
                f"the army costs {total} points, {limit - total} below its limit of {limit}",
                f"may fall below the limit only by {below} points or less",
                cite,
            )
        ]
    return []


def _category_terms(composition: dict[str, Any]) -> set[str]:
    return {t for c in composition["categories"] for t in c["terms"] if len(c["terms"]) == 1}


def _percentages(rules: Rules, composition: dict[str, Any], units: list[dict[str, Any]], limit: int) -> list[Violation]:
    found = []
    known = _category_terms(composition)
    for unit in units:
        if unit["category"] not in known:
            found.append(
                Violation(
                    f"`{unit['name']}` has the unknown category `{unit['category']}`",
                    "categories: " + ", ".join(sorted(known)),
                    [rules.cite(CATEGORY)],
                )
            )
    for category in composition["categories"]:
        spent = sum(int(u["points"]) for u in units if u["category"] in category["terms"])
        share = Fraction(spent, limit)
        name = category["name"]
        cites = [rules.cite(CATEGORY)]
        if category["min_percent"] is not None and share < Fraction(category["min_percent"], 100):
            found.append(
                Violation(
                    f"{name}: {spent} points is {float(share):.1%} of {limit}",
                    f"{name}: at least {category['min_percent']}%",
                    cites,
                )
            )
        if category["max_percent"] is not None and share > Fraction(category["max_percent"], 100):
            found.append(
                Violation(
                    f"{name}: {spent} points is {float(share):.1%} of {limit}",
                    f"{name}: at most {category['max_percent']}%",
                    cites,
                )
            )
    return found


def _duplicate_limit(composition: dict[str, Any], variant: dict[str, Any] | None, category: str) -> int | None:
    if variant is not None:
        for row in variant["duplicate_limits"]:
            if category in row["terms"] and row["limit"] is not None:
                return int(row["limit"])
    for row in composition["categories"]:
        if row["terms"] == [category] and row["duplicate_limit"] is not None:
            return int(row["duplicate_limit"])
    return None


def _duplicates(
    rules: Rules, composition: dict[str, Any], variant: dict[str, Any] | None, units: list[dict[str, Any]]
) -> list[Violation]:
    counts: dict[tuple[str, str], int] = {}
    for unit in units:
        if unit.get("choice"):
            continue  # 0-X choices ignore the normal duplicate limits
        key = (unit["category"], str(unit.get("unit", unit["name"])))
        counts[key] = counts.get(key, 0) + 1
    found = []
    for (category, unit_id), count in sorted(counts.items()):
        limit = _duplicate_limit(composition, variant, category)
        if limit is not None and count > limit:
            where = f" in a {variant['id'].replace('_', ' ')}" if variant else ""
            cites = [rules.cite(variant["term"])] if variant else [rules.cite(CATEGORY)]
            found.append(Violation(f"`{unit_id}` is taken {count} times", f"{category}: max {limit}{where}", cites))
    return found


def _army_size(
    rules: Rules, composition: dict[str, Any], variant: dict[str, Any] | None, units: list[dict[str, Any]]
) -> list[Violation]:
    minimum = (variant or {}).get("min_army_units") or composition["min_army_units"]
    characters = {t for c in composition["categories"] if len(c["terms"]) > 1 for t in c["terms"]}
    together = set(composition["rules"]["count_together"])
    counted = sum(1 for u in units if u["category"] not in characters and u.get("troop_type") not in together)
    counted += len({u.get("troop_type") for u in units if u["category"] not in characters} & together)
    if minimum is not None and counted < minimum:
        return [
            Violation(
                f"the army has {counted} units besides its characters",
                f"at least {minimum} units, characters excluded",
                [rules.cite(ARMY_LIST)],
            )
        ]
    return []


def _choices(rules: Rules, variant: dict[str, Any] | None, units: list[dict[str, Any]]) -> list[Violation]:
    found = []
    counts: dict[tuple[str, int], int] = {}
    for unit in units:
        choice = unit.get("choice")
        if not choice:
            continue
        match = _CHOICE.match(str(choice))
        if match is None:
            found.append(
                Violation(
                    f"`{unit['name']}` has the choice `{choice}`", "write 0-X choices as 0-2", [rules.cite(CHOICE)]
                )
            )
            continue
        key = (str(unit.get("unit", unit["name"])), int(match.group("x")))
        counts[key] = counts.get(key, 0) + 1
    for (unit_id, x), count in sorted(counts.items()):
        allowed = _scaled(x, variant)
        if count > allowed:
            found.append(
                Violation(
                    f"`{unit_id}` (0-{x}) is taken {count} times",
                    f"0-{x} choice: at most {allowed} here",
                    [rules.cite(CHOICE)],
                )
            )
    return found


def _scaled(x: int, variant: dict[str, Any] | None) -> int:
    if variant is None:
        return x
    for row in variant["duplicate_limits"]:
        if CHOICE in row["terms"] and row["multiplier"]:
            value = Fraction(row["multiplier"]) * x
            return math.ceil(value) if row["rounding"] != "down" else math.floor(value)
    return x


def render_text(report: ArmyReport) -> str:
    kind = f" ({report.variant.replace('_', ' ')})" if report.variant else ""
    lines = [f"{report.total} of {report.points_limit} points{kind}: " + ("legal" if report.legal else "not legal")]
    for violation in report.violations:
        lines.append(f"  - {violation.message}: the rules say \u201c{violation.rule}\u201d")
        for cite in violation.cites:
            if cite.get("anchor"):
                lines.append(f"    see {cite['anchor']}")
    return "\n".join(lines) + "\n"
