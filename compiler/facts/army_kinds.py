"""The ``<mechanic>`` kinds that declare an army's composition: the standard army, its sizes, its rules.

A standard army names its own categories table and values (``categories="..."``, ``below-limit``,
``least-entries``); an army size (``most-points`` or ``least-points``) names its thresholds and its
duplicate-limits table; army rules state what the prose says (a leader, marks, half points,
slash prices, entries counted together). The names are the book's: the annotations make them data,
and :mod:`rulebook.facts.tables` puts the values and the tables' rows they name in place.
"""

from __future__ import annotations

from typing import TypedDict

from rulebook.facts.attributes import (
    NAMES,
    TERM,
    TERMS,
    WHOLE_NUMBER,
    Attribute,
    Values,
    one_of,
    table_of,
    terms,
    value_of,
)
from rulebook.facts.kind import MechanicKind
from rulebook.facts.shapes import ArmyRulesPart, Rounding
from rulebook.model import Mechanic

ROUNDINGS: dict[str, Rounding] = {"up": "up", "down": "down"}


class ArmyDeclaration(TypedDict):
    """A standard army, as its annotation names it (not yet with the numbers and rows it names)."""

    term: str
    section: str
    categories: str
    """The id of its categories table."""
    below_limit: str | None
    """The name of the value: how far below the point limit an army may fall."""
    least_entries: str | None
    """The name of the value: the fewest entries an army has."""
    not_counted: list[str]


class VariantDeclaration(TypedDict):
    """An army size, as its annotation names it."""

    term: str
    section: str
    most_points: str | None
    least_points: str | None
    least_entries: str | None
    limits: str | None
    """The id of its duplicate-limits table."""


def _army(mechanic: Mechanic, values: Values) -> ArmyDeclaration:
    return {
        "term": mechanic.name,
        "section": mechanic.section_id,
        "categories": values.text("categories"),
        "below_limit": values.optional("below-limit"),
        "least_entries": values.optional("least-entries"),
        "not_counted": values.names("not-counted"),
    }


def _variant(mechanic: Mechanic, values: Values) -> VariantDeclaration:
    return {
        "term": mechanic.name,
        "section": mechanic.section_id,
        "most_points": values.optional("most-points"),
        "least_points": values.optional("least-points"),
        "least_entries": values.optional("least-entries"),
        "limits": values.optional("limits"),
    }


def _army_rules(mechanic: Mechanic, values: Values) -> ArmyRulesPart:
    part: ArmyRulesPart = {}
    if "count-together" in values.values:
        part["count_together"] = values.names("count-together")
    if "from" in values.values:
        part["leader"] = {
            "name": mechanic.name,
            "count": int(values.text("exactly")),
            "from": values.names("from"),
            "term": mechanic.definition,
            "section": mechanic.section_id,
        }
    if "marks" in values.values:
        part["marked"] = dict.fromkeys(values.names("marks"), int(values.text("limit")))
    if "whole-points" in values.values:
        part["whole_points"] = ROUNDINGS[values.text("whole-points")]
    if "prices" in values.values:
        part["slash_prices"] = values.names("prices")
    return part


_NAMED = Attribute("name", TERM, problem="an army declaration is named after its term (define the term)")
_LEAST_ENTRIES = Attribute("least-entries", value_of("count"))

ARMY: MechanicKind[ArmyDeclaration] = MechanicKind(
    "army",
    "a standard army",
    ("categories",),
    (
        _NAMED,
        Attribute("categories", table_of("categories"), required=True),
        Attribute("below-limit", value_of("points")),
        _LEAST_ENTRIES,
        Attribute("not-counted", TERMS),
    ),
    "`army_composition` (the last one given), with the values and the table it names",
    _army,
    precedence=4,
)
ARMY_SIZE: MechanicKind[VariantDeclaration] = MechanicKind(
    "army size",
    "an army size",
    ("most-points", "least-points"),
    (
        _NAMED,
        Attribute("most-points", value_of("points")),
        Attribute("least-points", value_of("points")),
        _LEAST_ENTRIES,
        Attribute("limits", table_of("duplicate-limits")),
    ),
    "`army_composition.variants`, in book order",
    _variant,
    precedence=4,
)
ARMY_RULES: MechanicKind[ArmyRulesPart] = MechanicKind(
    "army rule",
    "an army-composition rule",
    ("count-together", "from", "marks", "whole-points", "prices"),
    (
        Attribute("count-together", NAMES),
        Attribute("from", TERMS),
        Attribute("exactly", WHOLE_NUMBER, default="1"),
        Attribute("marks", NAMES),
        Attribute("limit", WHOLE_NUMBER, default="1"),
        Attribute("whole-points", one_of(*ROUNDINGS)),
        Attribute(
            "prices",
            terms(at_least=2),
            problem="`prices` names the categories (terms of the book) of a slash's prices, in order (first second)",
        ),
    ),
    "`army_composition.rules`",
    _army_rules,
    precedence=3,
    hinted=False,
)
