"""The types of a mechanic annotation's attributes: what each accepts, how it is read, what a bad one is told."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Literal

from rulebook.engine.limits import MAX_CHAIN_DICE
from rulebook.mechanics import Dice, beyond_the_engine, parse_dice

_WHOLE = r"[1-9][0-9]{0,5}|1000000"
"""A whole number from 1 to 1,000,000 in the digits 0 to 9: the engine's bound on any number of a question
(``\\d`` would take other scripts' digits, and Python refuses to read a number of more than 4,300 digits)."""


@dataclass(frozen=True, slots=True)
class Context:
    """What some attributes are checked against: what the book defines and declares."""

    defined: frozenset[str]
    """The defined terms."""
    tables: frozenset[str]
    """The roll tables' ids."""
    values: Mapping[str, str] = field(default_factory=dict)
    """The declared values' kinds, by name."""
    data_tables: Mapping[str, str] = field(default_factory=dict)
    """The kinds of the data tables that have an id, by id."""
    known: frozenset[str] = frozenset()
    """The terms the book defines or refers to (a partial book refers to terms of chapters not written yet)."""
    categories: Mapping[str, frozenset[str]] = field(default_factory=dict)
    """The terms of each table of kind ``categories``'s rows, by the table's id (what an army's rules name)."""


@dataclass(frozen=True, slots=True)
class AttributeType:
    """A kind of attribute value (dice notation, a whole number, a defined term...)."""

    description: str
    """What a value looks like, for the documentation."""
    accepts: Callable[[str, Context], bool] | None = None
    """None: any text."""
    problem: Callable[[str, str, Context], str] = lambda name, *_: f"`{name}` is missing"
    """The message for a value it does not accept, or a required one missing: ``(attribute, value, context)``."""
    choices: tuple[str, ...] = ()
    """The words it accepts, for a type that is one of a few (the DTD enumerates them)."""


def dice(example: str, *, in_a_chain: bool = False, most: int | None = None, one_die: bool = False) -> AttributeType:
    """Dice notation (``D6``, ``2D6``) the engine rolls: ``in_a_chain``, at most its dice in a chain's roll; ``most``,
    coming to at most that many (a repeated roll's count); ``one_die``, one die (what a derived die is made from). A
    book past them passed the lint into a ``rules.json`` on which the engine refused every question."""

    def beyond(found: Dice) -> str | None:
        if one_die and found.count != 1:
            made = "the engine makes a derived die from one die (a D6 halved)"
            return f"`{found.notation}` is {found.count} dice: {made}"
        if in_a_chain and found.count > MAX_CHAIN_DICE:
            return f"`{found.notation}` is more dice than the engine rolls in a chain: at most {MAX_CHAIN_DICE}"
        if most is not None and found.highest > most:
            return f"`{found.notation}` can come to {found.highest}, more than the {most} the engine allows here"
        return beyond_the_engine(found)

    def accepted(value: str, _: object) -> bool:
        found = parse_dice(value)
        return found is not None and beyond(found) is None

    def refused(name: str, value: str | None, *_: object) -> str:
        found = parse_dice(value or "")
        problem = beyond(found) if found is not None else None
        return f"`{name}`: {problem}" if problem is not None else f"`{name}` must be dice notation such as {example}"

    return AttributeType(f"dice notation such as {example}", accepted, refused)


def one_of(*choices: str) -> AttributeType:
    """One of a few words."""
    listed = " or ".join(choices) if len(choices) == 2 else "one of " + ", ".join(choices)
    return AttributeType(
        listed, lambda value, _: value in choices, lambda name, *_: f"`{name}` must be {listed}", choices
    )


def each_once(*choices: str) -> AttributeType:
    """Every one of a few words, once each, in an order."""
    return AttributeType(
        f"each of {', '.join(choices)} once, in order",
        lambda value, _: sorted(value.split()) == sorted(choices),
        lambda name, *_: f"`{name}` must name each of {', '.join(choices)} once",
    )


def matching(pattern: str, description: str, problem: str) -> AttributeType:
    """Text the whole of which matches a regular expression."""
    regex = re.compile(pattern)
    return AttributeType(
        description, lambda value, _: regex.fullmatch(value) is not None, lambda name, *_: f"`{name}` {problem}"
    )


WHOLE_NUMBER = matching(_WHOLE, "a whole number (1 to 1,000,000)", "must be a whole number from 1 to 1,000,000")


def whole_number_to(most: int) -> AttributeType:
    """A whole number from 1 to ``most`` (a limit of the engine's)."""
    return AttributeType(
        f"a whole number (1 to {most:,})",
        lambda value, _: re.fullmatch(_WHOLE, value) is not None and int(value) <= most,
        lambda name, *_: f"`{name}` must be a whole number from 1 to {most:,}, the most the engine allows here",
    )


def _whole_numbers(value: str) -> bool:
    return bool(value.split()) and all(re.fullmatch(_WHOLE, v) for v in value.split())


WHOLE_NUMBERS = AttributeType(
    "whole numbers (1 to 1,000,000)",
    lambda value, _: all(re.fullmatch(_WHOLE, v) for v in value.split()),
    lambda name, *_: f"`{name}` must list whole numbers from 1 to 1,000,000",
)
_OPERAND = rf"(?:[a-z_][a-z0-9_]*|0|{_WHOLE})"
"""A name, or a whole number from 0 to 1,000,000."""
EXPRESSION = matching(
    rf"\s*{_OPERAND}(\s*[-+]\s*{_OPERAND})*\s*",
    "names and whole numbers added or subtracted (defense + penetration, 6 - cover)",
    "must add or subtract names and whole numbers (defense + penetration, 6 - cover)",
)
BOARD_SIZE = matching(r"[1-9]\d*x[1-9]\d*", "a board size such as 36x48", "is a board size such as 36x48")
TERM = AttributeType(
    "a defined term",
    lambda value, context: value in context.defined,
    lambda name, value, _: f"`{name}` must name a defined term (`{value}` is not defined)",
)
ROLL_TABLE = AttributeType(
    "a roll table's id",
    lambda value, context: value in context.tables,
    lambda name, _, context: (
        f"`{name}` must name a roll table of the book ({', '.join(sorted(context.tables)) or 'there is none'})"
    ),
)


def value_of(kind: str) -> AttributeType:
    """The name of a value the book declares, of one kind (``<value name="..." kind="points">``)."""
    return _declared("value", "name of a value", kind, lambda context: context.values)


def table_of(kind: str) -> AttributeType:
    """The id of a data table the book declares, of one kind (``<table id="..." kind="categories">``)."""
    return _declared("table", "id of a table", kind, lambda context: context.data_tables)


def _declared(noun: str, what: str, kind: str, declared: Callable[[Context], Mapping[str, str]]) -> AttributeType:
    """The name of something the book declares (a value, a table), which must be of ``kind``."""

    def problem(name: str, value: str, context: Context) -> str:
        found = declared(context).get(value)
        if found is None:
            known = sorted(n for n, k in declared(context).items() if k == kind)
            return f"`{name}` must name a {noun} of kind `{kind}` (`{value}` is not declared; {_listed(known)})"
        return f"`{name}` must name a {noun} of kind `{kind}` (`{value}` is a {noun} of kind `{found}`)"

    return AttributeType(
        f"the {what} of kind {kind}", lambda value, context: declared(context).get(value) == kind, problem
    )


def _listed(names: list[str]) -> str:
    return "declared: " + ", ".join(f"`{n}`" for n in names) if names else "there is none"


REROLL = AttributeType(
    "failures, successes, or the results rerolled (1)",
    lambda value, _: value in ("failures", "successes") or _whole_numbers(value),
    lambda name, *_: f"`{name}` must be failures, successes or the results rerolled (1)",
)


def names(at_least: int = 0) -> AttributeType:
    """Names separated by spaces."""
    if at_least == 0:
        return AttributeType("names")
    return AttributeType(
        f"{at_least} names or more",
        lambda value, _: len(value.split()) >= at_least,
        lambda name, *_: f"`{name}` must give {at_least} names or more",
    )


NAMES = names()
NAME = AttributeType("a name")


def terms(at_least: int = 1) -> AttributeType:
    """Names of terms of the book (defined or referred to: categories, types of entries), separated by spaces: a name
    the book never uses passed the lint, and the engine then ruled with it (a leader "chosen from nobody": no army
    was legal)."""

    def undefined(value: str, context: Context) -> list[str]:
        return [name for name in value.split() if name not in context.known and name not in context.defined]

    def problem(name: str, value: str | None, context: Context) -> str:
        missing = undefined(value or "", context)
        if len((value or "").split()) < at_least:
            return f"`{name}` must name {at_least} terms of the book or more"
        unknown = ", ".join(f"`{n}`" for n in missing[:5])
        return f"`{name}` must name terms of the book ({unknown}: no term of that name is defined or referred to)"

    return AttributeType(
        f"terms of the book ({at_least} or more)" if at_least > 1 else "terms of the book",
        lambda value, context: len(value.split()) >= at_least and not undefined(value, context),
        problem,
    )


TERMS = terms()
TEXT = AttributeType("text")


@dataclass(frozen=True, slots=True)
class Attribute:
    """One attribute a kind of annotation takes (``name`` stands for the annotation's own name)."""

    name: str
    type: AttributeType
    required: bool = False
    """Missing, it is as wrong as a value its type does not accept."""
    default: str | None = None
    """The value when it is not given."""
    problem: str | None = None
    """The message for a bad value, where the type's would not say what is wrong."""

    def check(self, value: str | None, context: Context) -> str | None:
        """What is wrong with ``value`` (None: not given), or None."""
        if value is None and not self.required:
            return None
        text = value or ""
        if value is not None and (self.type.accepts is None or self.type.accepts(text, context)):
            return None
        return self.problem or self.type.problem(self.name, text, context)


@dataclass(frozen=True, slots=True)
class Values:
    """The attributes of an annotation that passed their checks, defaults filled in, read by type."""

    values: dict[str, str]
    """By attribute name; only the attributes the kind declares, and only those given or defaulted."""

    def text(self, name: str) -> str:
        """A required or defaulted attribute, as written."""
        return self.values[name]

    def optional(self, name: str) -> str | None:
        return self.values.get(name)

    def number(self, name: str) -> int | None:
        value = self.values.get(name)
        return None if value is None else int(value)

    def numbers(self, name: str) -> list[int]:
        return [int(v) for v in self.values.get(name, "").split()]

    def names(self, name: str) -> list[str]:
        return self.values.get(name, "").split()

    def reroll(self, name: str) -> Literal["failures", "successes"] | list[int] | None:
        """A reroll attribute: ``failures``, ``successes``, the results rerolled, or None."""
        value = self.values.get(name)
        if value == "failures":
            return "failures"
        if value == "successes":
            return "successes"
        return None if value is None else [int(v) for v in value.split()]

    def dice(self, name: str) -> Dice:
        found = parse_dice(self.values[name])
        assert found is not None, f"`{name}` passed its check as dice notation"
        return found
