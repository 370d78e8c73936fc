"""The mechanic annotations, described once: each kind, how it is recognised, its attributes, what it makes.

``<mechanic name="..." .../>`` is one element with many shapes. A kind is recognised by
its key attribute (``pass`` makes a test); when an annotation carries the keys of several
kinds, the kind of highest ``precedence`` wins (a reading of a roll carries ``pass`` and
``against`` of its own), else the first in :data:`MECHANIC_KINDS`. The lint checks an
annotation's attributes in the order its kind lists them and reports the first problem;
the rule data is made from the checked values only. ``rulebook dtd`` declares the same
attributes (a test keeps the DTD and this table in step). The army's kinds are in
:mod:`rulebook.facts.army_kinds`.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Literal

from rulebook.engine.limits import MAX_CHAIN, MAX_CRITICAL_ADDS, MAX_REPEATS
from rulebook.facts.army_kinds import ARMY, ARMY_RULES, ARMY_SIZE, ROUNDINGS
from rulebook.facts.attributes import (
    BOARD_SIZE,
    EXPRESSION,
    NAME,
    NAMES,
    REROLL,
    ROLL_TABLE,
    TERM,
    TEXT,
    WHOLE_NUMBER,
    WHOLE_NUMBERS,
    Attribute,
    Values,
    dice,
    each_once,
    one_of,
    whole_number_to,
)
from rulebook.facts.kind import PLACE_REACH, MechanicKind, Problem, dice_count, place
from rulebook.facts.shapes import (
    Contest,
    DerivedDie,
    Modifiers,
    Pass,
    Reading,
    Repeat,
    Rerolls,
    Roll,
    Test,
)
from rulebook.model import Mechanic

__all__ = [
    "MECHANIC_KINDS",
    "NO_KIND",
    "PLACE_REACH",
    "ROUNDINGS",
    "MechanicKind",
    "Problem",
    "describe_kinds",
    "recognise",
]

PASSES: dict[str, Pass] = {"at-least": "at_least", "at-most": "at_most", "above": "above", "below": "below"}
"""How a roll compares with what it is rolled against: as written, and in the rule data."""
TIES: dict[str, Literal["first", "second"]] = {"first": "first", "second": "second"}
MODIFIER_KINDS: dict[str, Literal["set", "multiply", "add"]] = {"set": "set", "multiply": "multiply", "add": "add"}
"""The kinds of characteristic modifiers an ``order`` annotation puts in order."""


def _test(mechanic: Mechanic, values: Values) -> Test:
    roll = values.dice("roll")
    return {
        "term": mechanic.name,
        "roll": roll.notation,
        "dice": dice_count(roll),
        "pass": PASSES[values.text("pass")],
        "always_fails": values.numbers("always-fails"),
        "always_passes": values.numbers("always-passes"),
        "target": values.number("target"),
        "section": mechanic.section_id,
    }


def _derived_die(mechanic: Mechanic, values: Values) -> DerivedDie:
    return {
        "roll": values.text("roll").upper(),
        "divide": int(values.text("divide")),
        "round": ROUNDINGS[values.text("round")],
        "section": mechanic.section_id,
    }


def _rerolls(mechanic: Mechanic, values: Values) -> Rerolls:
    return {"max": int(values.text("max")), "term": mechanic.definition}


def _modifiers(mechanic: Mechanic, values: Values) -> Modifiers:
    return {
        "term": mechanic.definition or mechanic.name,
        "order": [MODIFIER_KINDS[kind] for kind in values.names("order")],
        "round": ROUNDINGS[values.text("round")],
    }


def _repeat(mechanic: Mechanic, values: Values) -> Repeat:
    return {
        "times": values.dice("times").notation,
        "table": values.text("table"),
        "board": values.optional("board"),
        "section": mechanic.section_id,
    }


def _contest(mechanic: Mechanic, values: Values) -> Contest:
    roll = values.dice("contest")
    return {
        "roll": roll.notation,
        "dice": dice_count(roll),
        "bonus": values.optional("bonus"),
        "ties": TIES[values.text("ties")],
        "section": mechanic.section_id,
    }


def _roll(mechanic: Mechanic, values: Values) -> Roll:
    roll = values.dice("roll")
    return {
        "term": mechanic.name,
        "roll": roll.notation,
        "dice": dice_count(roll),
        "pass": PASSES[values.text("pass")],
        "against": values.text("against"),
        "each": values.optional("each"),
        "step": values.number("step"),
        "instead_of": values.optional("instead-of"),
        "cancels": values.optional("cancels"),
        "threshold": values.number("threshold"),
        "fail_adds": values.optional("fail-adds"),
        "always_passes": values.numbers("always-passes"),
        "always_fails": values.numbers("always-fails"),
        "critical": values.numbers("critical"),
        "critical_skips": values.names("critical-skips"),
        "critical_adds": values.number("critical-adds") or 0,
        "reroll": values.reroll("reroll"),
        "section": mechanic.section_id,
        "place": place(mechanic),
        "readings": [],
    }


def _reading(mechanic: Mechanic, values: Values) -> Reading:
    passes = values.optional("pass")
    return {
        "reading": values.text("reading"),
        "pass": PASSES[passes] if passes else None,
        "against": values.optional("against"),
        "place": place(mechanic),
    }


_DICE_ROLL = Attribute("roll", dice("D6 or 2D6"), required=True)
_NOT_A_DERIVED_DIE = 'a derived die is named in dice notation (D3) and rolls dice (roll="D6")'
_ROUND = Attribute("round", one_of(*ROUNDINGS), default="up")

TEST: MechanicKind[Test] = MechanicKind(
    "test",
    "a test",
    ("pass",),
    (
        Attribute("name", TERM, problem="a test must be named after the term it defines"),
        _DICE_ROLL,
        Attribute("always-fails", WHOLE_NUMBERS),
        Attribute("always-passes", WHOLE_NUMBERS),
        Attribute("target", WHOLE_NUMBER),
        Attribute("pass", one_of(*PASSES), required=True),
    ),
    "`mechanics.tests`, by name",
    _test,
)
DERIVED_DIE: MechanicKind[DerivedDie] = MechanicKind(
    "derived die",
    "a derived die",
    ("divide",),
    (
        Attribute(
            "name", dice("D3"), problem='a derived die is named in dice notation (D3) and rolls dice (roll="D6")'
        ),
        Attribute("roll", dice("D6", one_die=True), required=True),
        Attribute("divide", WHOLE_NUMBER, required=True),
        _ROUND,
    ),
    "`mechanics.dice`, by its name in capitals",
    _derived_die,
)
REROLLS: MechanicKind[Rerolls] = MechanicKind(
    "rerolls",
    "rerolls",
    ("max",),
    (Attribute("max", WHOLE_NUMBER, required=True),),
    "`mechanics.rerolls` (the last one given)",
    _rerolls,
)
MODIFIERS: MechanicKind[Modifiers] = MechanicKind(
    "modifier order",
    "modifiers",
    ("order",),
    (Attribute("order", each_once(*MODIFIER_KINDS), required=True), _ROUND),
    "`mechanics.modifiers` (the last one given)",
    _modifiers,
)
REPEAT: MechanicKind[Repeat] = MechanicKind(
    "repeated roll",
    "a repeated roll",
    ("times",),
    (
        Attribute("times", dice("2D3", most=MAX_REPEATS), required=True),
        Attribute("board", BOARD_SIZE),
        Attribute("table", ROLL_TABLE, required=True),
    ),
    "`mechanics.repeats`, by name",
    _repeat,
)
CONTEST: MechanicKind[Contest] = MechanicKind(
    "contest",
    "both players roll",
    ("contest",),
    (
        Attribute("contest", dice("D6"), required=True),
        Attribute("bonus", TERM),
        Attribute("ties", one_of(*TIES), default="second"),
    ),
    "`mechanics.contests`, by name",
    _contest,
)
ROLL: MechanicKind[Roll] = MechanicKind(
    "roll",
    "a roll in a chain",
    ("against",),
    (
        Attribute("name", TERM, problem="a roll must be named after the term it is (define the term)"),
        Attribute("roll", dice("D6 or 2D6", in_a_chain=True), required=True),
        Attribute("pass", one_of(*PASSES), required=True),
        Attribute("against", EXPRESSION, required=True),
        Attribute("step", WHOLE_NUMBER),
        Attribute("threshold", WHOLE_NUMBER),
        Attribute("fail-adds", dice("1D6", in_a_chain=True)),
        Attribute("each", NAME),
        Attribute("instead-of", NAME),
        Attribute("cancels", NAME),
        Attribute("always-passes", WHOLE_NUMBERS),
        Attribute("always-fails", WHOLE_NUMBERS),
        Attribute("critical", WHOLE_NUMBERS),
        Attribute("critical-skips", NAMES),
        Attribute("critical-adds", whole_number_to(MAX_CRITICAL_ADDS)),
        Attribute("reroll", REROLL),
    ),
    f"`mechanics.rolls`, by name: at most {MAX_CHAIN} rolls and readings in a book (the engine's chain)",
    _roll,
    precedence=1,
)
READING: MechanicKind[Reading] = MechanicKind(
    "reading",
    "another reading of a roll",
    ("reading",),
    (
        Attribute("reading", TEXT, required=True),
        Attribute("pass", one_of(*PASSES)),
        Attribute("against", EXPRESSION),
    ),
    "`readings` of the roll of that name in `mechanics.rolls` (counted in the chain's rolls)",
    _reading,
    precedence=2,
)

MECHANIC_KINDS: tuple[MechanicKind[Any], ...] = (
    TEST,
    DERIVED_DIE,
    REROLLS,
    MODIFIERS,
    REPEAT,
    CONTEST,
    ROLL,
    READING,
    ARMY_RULES,
    ARMY,
    ARMY_SIZE,
)
"""Every kind of ``<mechanic>`` the compiler understands."""


def _no_kind() -> str:
    hints = [f"`{kind.key[0]}` ({kind.what})" for kind in MECHANIC_KINDS if kind.hinted]
    return "give " + ", ".join(hints[:-1]) + " or " + hints[-1]


NO_KIND = _no_kind()
"""The problem of an annotation that carries no kind's key."""


def recognise(attributes: Mapping[str, str]) -> MechanicKind[Any] | None:
    """The kind an annotation is, from the attributes it carries (None: none of the keys)."""
    candidates = [kind for kind in MECHANIC_KINDS if any(key in attributes for key in kind.key)]
    return max(candidates, key=lambda kind: kind.precedence, default=None)


def describe_kinds() -> str:
    """The table of kinds in Markdown, for ``docs/data.md`` (a test keeps the page in step)."""
    lines = [
        "| kind | recognised by | attributes, in the order they are checked | in `rules.json` |",
        "|---|---|---|---|",
    ]
    for kind in MECHANIC_KINDS:
        keys = " or ".join(f"`{key}`" for key in kind.key)
        attributes = "; ".join(_describe(attribute) for attribute in kind.attributes)
        lines.append(f"| {kind.name} | {keys} | {attributes} | {kind.produces} |")
    first = sorted((kind for kind in MECHANIC_KINDS if kind.precedence), key=lambda kind: -kind.precedence)
    order = ", else ".join(f"an {kind.name}" if kind.name[0] in "aeiou" else f"a {kind.name}" for kind in first)
    lines += ["", f"An annotation with the keys of several kinds is {order}, else the first kind above."]
    return "\n".join(lines) + "\n"


def _describe(attribute: Attribute) -> str:
    found = f"`{attribute.name}`: {attribute.type.description}"
    if attribute.required:
        found += ", required"
    if attribute.default is not None:
        found += f", default `{attribute.default}`"
    return found
