"""The mechanic annotations, described once: each kind, how it is recognised, its attributes, what it makes.

``<mechanic name="..." .../>`` is one element with many shapes. A kind is recognised by
its key attribute (``pass`` makes a test); when an annotation carries the keys of several
kinds, the kind of highest ``precedence`` wins (a reading of a roll carries ``pass`` and
``against`` of its own), else the first in :data:`MECHANIC_KINDS`. The lint checks an
annotation's attributes in the order its kind lists them and reports the first problem;
the rule data is made from the checked values only. ``rulebook dtd`` declares the same
attributes (a test keeps the DTD and this table in step).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, Literal, NamedTuple, TypeVar

from rulebook.facts.attributes import (
    BOARD_SIZE,
    EXPRESSION,
    NAME,
    NAMES,
    ROLL_TABLE,
    TERM,
    TEXT,
    WHOLE_NUMBER,
    WHOLE_NUMBERS,
    Attribute,
    Context,
    Values,
    dice,
    each_once,
    names,
    one_of,
)
from rulebook.facts.shapes import (
    ArmyRulesPart,
    Contest,
    DerivedDie,
    DiceCount,
    Modifiers,
    Pass,
    Place,
    Reading,
    Repeat,
    Rerolls,
    Roll,
    Rounding,
    Test,
)
from rulebook.mechanics import Dice
from rulebook.model import Mechanic

T = TypeVar("T")

PASSES: dict[str, Pass] = {"at-least": "at_least", "at-most": "at_most", "above": "above", "below": "below"}
"""How a roll compares with what it is rolled against: as written, and in the rule data."""
TEST_PASSES: dict[str, Literal["at_most", "at_least"]] = {"at-most": "at_most", "at-least": "at_least"}
"""How a test passes: at most or at least the tested value."""
ROUNDINGS: dict[str, Rounding] = {"up": "up", "down": "down"}
TIES: dict[str, Literal["first", "second"]] = {"first": "first", "second": "second"}
MODIFIER_KINDS: dict[str, Literal["set", "multiply", "add"]] = {"set": "set", "multiply": "multiply", "add": "add"}
"""The kinds of characteristic modifiers an ``order`` annotation puts in order."""


class Problem(NamedTuple):
    """Why an annotation cannot be read: the attribute that fails its check, and what to tell."""

    attribute: str
    message: str


@dataclass(frozen=True, slots=True)
class MechanicKind(Generic[T]):
    """One shape of ``<mechanic>``: a row of the table."""

    name: str
    """The kind, as the documentation names it (``derived die``)."""
    what: str
    """What it states, as the lint names it (``a derived die``)."""
    key: tuple[str, ...]
    """The attributes that make an annotation this kind (any one of them)."""
    attributes: tuple[Attribute, ...]
    """Every attribute it takes, in the order they are checked; ``name`` is the annotation's name."""
    produces: str
    """Where it goes in ``rules.json`` (Markdown)."""
    produce: Callable[[Mechanic, Values], T]
    """Its entry in the rule data, from its checked values."""
    precedence: int = 0
    """Recognised before kinds of lower precedence when an annotation carries their keys too."""
    hinted: bool = True
    """Whether the message for an annotation of no kind suggests it."""

    def read(self, attributes: Mapping[str, str], context: Context) -> Values | Problem:
        """The checked values (defaults filled in), or the first problem."""
        values: dict[str, str] = {}
        for attribute in self.attributes:
            value = attributes.get(attribute.name, attribute.default)
            problem = attribute.check(value, context)
            if problem is not None:
                return Problem(attribute.name, problem)
            if value is not None:
                values[attribute.name] = value
        return Values(values)


def dice_count(roll: Dice) -> DiceCount:
    """A roll as numbers, for the rule data."""
    return {"count": roll.count, "sides": roll.sides}


PLACE_REACH = 5_000
"""How many characters of its line, before and after it, an annotation's place quotes: a line of up to 5,000
characters is quoted whole; of thousands of annotations on one huge line, each quotes its own
stretch (quoting the whole line for each made the rule data grow with their square)."""
_COMMENT = re.compile(r"<!--.*?-->|<mechanic [^<>]*/>")
_ANNOTATION = re.compile(r"<mechanic [^<>]*/>")
"""An XML annotation (an XML tag holds no ``<``: a run of ``<mechanic`` in Markdown text is not searched
from each one to the next ``>``)."""


def place(mechanic: Mechanic) -> Place:
    """Where an annotation stands, and the source line it annotates (a reader can compare readings)."""
    span, source = mechanic.span, mechanic.source
    start, end = source.line_bounds(span.line)
    at = start + span.column - 1
    line = source.text[max(start, at - PLACE_REACH) : min(end, at + PLACE_REACH)]
    return {"file": span.path, "line": span.line, "column": span.column, "text": _without_annotations(line).strip()}


def _without_annotations(line: str) -> str:
    """The line without comments and annotations, each looked for only where it can end (linear time)."""
    comments = line.rfind("-->") + 3 if "-->" in line else 0
    tags = max(line.rfind("/>") + 2, comments)
    return _COMMENT.sub("", line[:comments]) + _ANNOTATION.sub("", line[comments:tags]) + line[tags:]


def _test(mechanic: Mechanic, values: Values) -> Test:
    roll = values.dice("roll")
    return {
        "term": mechanic.name,
        "roll": roll.notation,
        "dice": dice_count(roll),
        "pass": TEST_PASSES[values.text("pass")],
        "always_fails": values.numbers("always-fails"),
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


def _army_rules(mechanic: Mechanic, values: Values) -> ArmyRulesPart:
    part: ArmyRulesPart = {}
    if "count-together" in values.values:
        part["count_together"] = values.names("count-together")
    if "from" in values.values:
        part["general"] = {
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
        Attribute("target", WHOLE_NUMBER),
        Attribute("pass", one_of(*TEST_PASSES), required=True),
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
        Attribute(
            "roll",
            dice("D6"),
            required=True,
            problem='a derived die is named in dice notation (D3) and rolls dice (roll="D6")',
        ),
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
        Attribute("times", dice("2D3"), required=True),
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
        _DICE_ROLL,
        Attribute("pass", one_of(*PASSES), required=True),
        Attribute("against", EXPRESSION, required=True),
        Attribute("step", WHOLE_NUMBER),
        Attribute("threshold", WHOLE_NUMBER),
        Attribute("fail-adds", dice("1D6")),
        Attribute("each", NAME),
        Attribute("instead-of", NAME),
        Attribute("cancels", NAME),
    ),
    "`mechanics.rolls`, by name",
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
    "`readings` of the roll of that name in `mechanics.rolls`",
    _reading,
    precedence=2,
)
ARMY_RULES: MechanicKind[ArmyRulesPart] = MechanicKind(
    "army rule",
    "an army-composition rule",
    ("count-together", "from", "marks", "whole-points", "prices"),
    (
        Attribute("count-together", NAMES),
        Attribute("from", NAMES),
        Attribute("exactly", WHOLE_NUMBER, default="1"),
        Attribute("marks", NAMES),
        Attribute("limit", WHOLE_NUMBER, default="1"),
        Attribute("whole-points", one_of(*ROUNDINGS)),
        Attribute(
            "prices",
            names(at_least=2),
            problem="`prices` names the categories whose prices a slash separates, in order (lord hero)",
        ),
    ),
    "`army_composition.rules`",
    _army_rules,
    precedence=3,
    hinted=False,
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
