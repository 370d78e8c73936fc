"""``rulebook engine army FILE``: check an army list against the composition the book declares.

Every limit comes from ``army_composition`` in the rule data, as the book's declarations name it; every
violation quotes the rule it breaks and links to it. An army list (YAML or JSON) looks like::

    points_limit: 2000
    entries:
      - {name: First Squad, id: squad, category: main, points: 260}
      - {name: Walkers, id: walker, category: support, points: 180, choice: "0-2"}
      - {name: Captain, id: captain, category: command, points: 150, leader: true,
         upgrades: [{name: Blade, points: "50/40"}]}
      - {name: Mortar, id: mortar, category: support, points: 60.5, type: artillery}

``id`` says which entries are the same (for duplicate limits; the name, when it is not given);
``category`` is a category's term id as the book's tables name it; ``choice`` marks a 0-X choice;
``marks`` lists the marks the book's rules limit; ``leader`` names the army's leader; ``type`` is what the
book's count-together rule reads; an upgrade's price may be written with a slash ("50/40"), and a cost may
have a half point (60.5): the book's rules in the data say what those mean.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rulebook.engine.army_file import read_army as read_army
from rulebook.engine.limits import MAX_VALUE, read_bounded, shown
from rulebook.engine.rules import Rules

_CHOICE = re.compile(r"^0-(?P<x>[1-9]\d*)$", re.ASCII)

Entry = dict[str, Any]
Cite = dict[str, str | None]


@dataclass(frozen=True, slots=True)
class Violation:
    message: str
    rule: str
    """The words of the rule broken, as the book's tables or values give them."""
    cites: list[Cite] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {"message": self.message, "rule": self.rule, "rules": self.cites}


@dataclass(frozen=True, slots=True)
class ArmyReport:
    total: int
    points_limit: int
    variant: str | None
    """The army size the list is (its term's name), if it is one the book declares."""
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


@dataclass(frozen=True, slots=True)
class _Army:
    """What every check reads: the data, the book's composition, the army size the list is, its entries."""

    rules: Rules
    composition: dict[str, Any]
    variant: dict[str, Any] | None
    entries: list[Entry]

    def cite(self) -> Cite:
        """The standard army's declaration: the rule the composition comes from."""
        term = self.composition["term"]
        return self.rules.cite(term) if term else self.rules.cite_section(self.composition["section"])

    def cite_size(self) -> Cite:
        return self.rules.cite(self.variant["term"]) if self.variant else self.cite()

    def size_name(self) -> str:
        """`` (NAME)`` for an army of a size the book declares (the name of its term), else nothing."""
        if self.variant is None:
            return ""
        return f" ({self.rules.data['terms'].get(self.variant['term'], {}).get('name', self.variant['term'])})"


def check_army(rules: Rules, army: dict[str, Any]) -> ArmyReport:
    composition = rules.data["army_composition"]
    if composition["term"] is None and not composition["categories"] and not composition["variants"]:
        raise rules.undeclared("army")
    limit = int(army["points_limit"])
    priced = [_priced(rules, composition, entry) for entry in army["entries"]]
    entries = [entry for entry, _ in priced]
    total = sum(int(e["points"]) for e in entries)
    variant = _variant(composition, limit)
    checked = _Army(rules, composition, variant, entries)
    violations = [
        *(v for _, found in priced for v in found),
        *_points(checked, limit, total),
        *_percentages(checked, limit),
        *_duplicates(checked),
        *_army_size(checked),
        *_choices(checked),
        *_leader(checked),
        *_marked(checked),
    ]
    size = rules.data["terms"].get(variant["term"], {}).get("name", variant["term"]) if variant else None
    return ArmyReport(total, limit, size, violations)


def _priced(rules: Rules, composition: dict[str, Any], entry: Entry) -> tuple[Entry, list[Violation]]:
    """The entry with its cost in whole points: upgrades added (a slash price read by category), rounded."""
    army_rules = composition["rules"]
    order = army_rules["slash_prices"]
    cost = Fraction(str(entry["points"]))
    found = []
    for upgrade in entry.get("upgrades", []):
        price = str(upgrade["points"])
        if "/" not in price:
            cost += Fraction(price)
        elif entry["category"] in order and len(price.split("/")) == len(order):
            cost += Fraction(price.split("/")[order.index(entry["category"])].strip())
        else:
            what = f"`{entry['name']}` ({entry['category']}) has the upgrade `{upgrade.get('name', price)}`"
            found.append(
                Violation(
                    f"{what} at {price}",
                    "a price written with a slash gives the cost for " + " / ".join(order or ["(no rule)"]),
                    [_cite_army(rules, composition)],
                )
            )
    if cost.denominator != 1:
        rounding = army_rules["whole_points"]
        if rounding is None:
            found.append(Violation(f"`{entry['name']}` costs {float(cost)} points", "costs are whole points", []))
        cost = Fraction(math.ceil(cost) if rounding != "down" else math.floor(cost))
    return {**entry, "points": int(cost)}, found


def _cite_army(rules: Rules, composition: dict[str, Any]) -> Cite:
    term = composition["term"]
    return rules.cite(term) if term else rules.cite_section(composition["section"])


def _leader(army: _Army) -> list[Violation]:
    leader = army.composition["rules"]["leader"]
    if leader is None:
        return []
    named = [e for e in army.entries if e.get("leader")]
    cites = [army.rules.cite(leader["term"]) if leader["term"] else army.rules.cite_section(leader["section"])]
    found = []
    if len(named) != leader["count"]:
        names = ", ".join(f"`{e['name']}`" for e in named) or "none"
        found.append(
            Violation(
                f"the army names {len(named)} as its `{leader['name']}` ({names})",
                f"exactly {leader['count']} `{leader['name']}`, chosen from " + " / ".join(leader["from"]),
                cites,
            )
        )
    for entry in named:
        if entry["category"] not in leader["from"]:
            found.append(
                Violation(
                    f"the `{leader['name']}` `{entry['name']}` is a {entry['category']}",
                    f"the `{leader['name']}` is chosen from " + " / ".join(leader["from"]),
                    cites,
                )
            )
    return found


def _marked(army: _Army) -> list[Violation]:
    """Entries and items marked as the book's rules say: how often each may be taken."""
    found = []
    for mark, standard in sorted(army.composition["rules"]["marked"].items()):
        limit = standard
        for row in (army.variant or {}).get("duplicate_limits", []):
            if mark in row["terms"] and row["limit"] is not None:
                limit = int(row["limit"])
        counts: dict[str, int] = {}
        for entry in army.entries:
            if mark in entry.get("marks", []):
                key = str(entry.get("id", entry["name"]))
                counts[key] = counts.get(key, 0) + 1
        for key, count in sorted(counts.items()):
            if count > limit:
                found.append(
                    Violation(
                        f"`{key}` ({mark}) is taken {count} times",
                        f"{mark}: at most {limit}{army.size_name()}",
                        [army.rules.cite(mark)],
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


def _points(army: _Army, limit: int, total: int) -> list[Violation]:
    if total > limit:
        return [
            Violation(
                f"the army costs {total} points, {total - limit} over its limit of {limit}",
                "must not exceed the point limit",
                [army.cite()],
            )
        ]
    below = army.composition["points_below_limit"]
    if below is not None and total < limit - below:
        return [
            Violation(
                f"the army costs {total} points, {limit - total} below its limit of {limit}",
                f"may fall below the limit only by {below} points or less",
                [army.cite()],
            )
        ]
    return []


def _category_terms(composition: dict[str, Any]) -> set[str]:
    return {t for c in composition["categories"] for t in c["terms"] if len(c["terms"]) == 1}


def _percentages(army: _Army, limit: int) -> list[Violation]:
    found = []
    known = _category_terms(army.composition)
    for entry in army.entries:
        if known and entry["category"] not in known:
            found.append(
                Violation(
                    f"`{entry['name']}` has the unknown category `{entry['category']}`",
                    "categories: " + ", ".join(sorted(known)),
                    [army.cite()],
                )
            )
    for category in army.composition["categories"]:
        spent = sum(int(e["points"]) for e in army.entries if e["category"] in category["terms"])
        share = Fraction(spent, limit)
        name = category["name"]
        if category["min_percent"] is not None and share < Fraction(category["min_percent"], 100):
            found.append(
                Violation(
                    f"{name}: {spent} points is {float(share):.1%} of {limit}",
                    f"{name}: at least {category['min_percent']}%",
                    [army.cite()],
                )
            )
        if category["max_percent"] is not None and share > Fraction(category["max_percent"], 100):
            found.append(
                Violation(
                    f"{name}: {spent} points is {float(share):.1%} of {limit}",
                    f"{name}: at most {category['max_percent']}%",
                    [army.cite()],
                )
            )
    return found


def _duplicate_limit(army: _Army, category: str) -> int | None:
    if army.variant is not None:
        for row in army.variant["duplicate_limits"]:
            if category in row["terms"] and row["limit"] is not None:
                return int(row["limit"])
    for row in army.composition["categories"]:
        if row["terms"] == [category] and row["duplicate_limit"] is not None:
            return int(row["duplicate_limit"])
    return None


def _duplicates(army: _Army) -> list[Violation]:
    counts: dict[tuple[str, str], int] = {}
    for entry in army.entries:
        if entry.get("choice"):
            continue  # 0-X choices ignore the normal duplicate limits
        key = (entry["category"], str(entry.get("id", entry["name"])))
        counts[key] = counts.get(key, 0) + 1
    found = []
    for (category, entry_id), count in sorted(counts.items()):
        limit = _duplicate_limit(army, category)
        if limit is not None and count > limit:
            found.append(
                Violation(
                    f"`{entry_id}` is taken {count} times",
                    f"{category}: max {limit}{army.size_name()}",
                    [army.cite_size()],
                )
            )
    return found


def _army_size(army: _Army) -> list[Violation]:
    composition = army.composition
    minimum = (army.variant or {}).get("least_entries") or composition["least_entries"]
    skipped = set(composition["not_counted"])
    together = set(composition["rules"]["count_together"])
    counted_entries = [e for e in army.entries if e["category"] not in skipped]
    counted = sum(1 for e in counted_entries if e.get("type") not in together)
    counted += len({e.get("type") for e in counted_entries} & together)
    if minimum is not None and counted < minimum:
        besides = f", not counting {' / '.join(sorted(skipped))}" if skipped else ""
        return [
            Violation(
                f"the army has {counted} entries counted toward its size",
                f"at least {minimum} entries{besides}",
                [army.cite_size() if (army.variant or {}).get("least_entries") else army.cite()],
            )
        ]
    return []


def _choices(army: _Army) -> list[Violation]:
    found = []
    counts: dict[tuple[str, int], int] = {}
    for entry in army.entries:
        choice = entry.get("choice")
        if not choice:
            continue
        match = _CHOICE.match(str(choice))
        most = read_bounded(match.group("x"), MAX_VALUE) if match is not None else None
        if most is None:  # a 0-X of 5,000 digits was an internal error (Python reads at most 4,300)
            found.append(
                Violation(
                    f"`{entry['name']}` has the choice `{shown(str(choice), 'characters')}`",
                    f"write 0-X choices as 0-2, X at most {MAX_VALUE:,}",
                    [],
                )
            )
            continue
        key = (str(entry.get("id", entry["name"])), most)
        counts[key] = counts.get(key, 0) + 1
    for (entry_id, x), count in sorted(counts.items()):
        allowed = _scaled(x, army.variant)
        if count > allowed:
            found.append(
                Violation(
                    f"`{entry_id}` (0-{x}) is taken {count} times",
                    f"0-{x} choice: at most {allowed}{army.size_name()}",
                    [army.cite_size()],
                )
            )
    return found


def _scaled(x: int, variant: dict[str, Any] | None) -> int:
    """A 0-X choice's X, scaled by the army size's row that gives a multiplier (half, double)."""
    if variant is None:
        return x
    for row in variant["duplicate_limits"]:
        if row["multiplier"]:
            value = Fraction(row["multiplier"]) * x
            return math.ceil(value) if row["rounding"] != "down" else math.floor(value)
    return x


def render_text(report: ArmyReport) -> str:
    size = f" ({report.variant})" if report.variant else ""
    lines = [f"{report.total} of {report.points_limit} points{size}: " + ("legal" if report.legal else "not legal")]
    for violation in report.violations:
        lines.append(f"  - {violation.message}: the rules say \u201c{violation.rule}\u201d")
        for cite in violation.cites:
            if cite.get("anchor"):
                lines.append(f"    see {cite['anchor']}")
    return "\n".join(lines) + "\n"
