"""Loading ``rules.json``: read within the size limit, checked against the engine's schema and limits."""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from rulebook.engine.bindings import DECLARATIONS, QUESTIONS
from rulebook.engine.dice import derived_die, parse_notation, passes, single_die
from rulebook.engine.errors import RulesError as RulesError
from rulebook.engine.files import read_file
from rulebook.engine.limits import (
    MAX_CHAIN,
    MAX_CHAIN_DICE,
    MAX_CRITICAL_ADDS,
    MAX_REPEATS,
    MAX_RULES_BYTES,
    MAX_VALUE,
    LongNumber,
    load_json,
    over,
    read_bounded,
    read_number,
    shown,
)
from rulebook.engine.schema import SCHEMA_PATH, check_schema, engine_schema


class BookTest(NamedTuple):
    """A test of the book (``mechanics.tests``): how it is rolled and passed, and the target the book may fix."""

    name: str
    term: str
    roll: str
    how: str
    """``at_least``, ``at_most``, ``above`` or ``below`` the target."""
    always_fails: frozenset[int]
    always_passes: frozenset[int]
    target: int | None
    """The target the book fixes ("choose on a 4+"), or None when the tested value is given."""
    section: str | None

    def passes(self, total: int, target: int) -> bool:
        return passes(total, self.how, target, self.always_fails, self.always_passes)

    def need(self, target: int) -> str:
        """What a roll needs, in the players' words: ``4+``, ``7 or less``, ``more than 7``, ``less than 7``."""
        words = {"at_least": f"{target}+", "at_most": f"{target} or less", "above": f"more than {target}"}
        return words.get(self.how, f"less than {target}")


class Rules(NamedTuple):
    """The compiled rule data, read-only."""

    data: dict[str, Any]
    path: Path

    def term(self, term_id: str) -> dict[str, Any]:
        try:
            return dict(self.data["terms"][term_id])
        except KeyError:
            raise RulesError(f"`{term_id}` is not a term of this book{self.elsewhere(term_id)}") from None

    def elsewhere(self, term_id: str) -> str:
        """Where a term this book takes from a book it uses is (``outside_terms``), to say so; else nothing."""
        taken = self.data.get("outside_terms", {})
        books = sorted({o["book"] for written, o in taken.items() if term_id in (written, o["name"])})
        if not books:
            return ""
        return f" (it is a term of the book `{books[0]}`: ask with `--book {books[0]}`)"

    def anchor(self, term_id: str) -> str | None:
        place = self.data["terms"].get(term_id, {}).get("defined_at")
        return place["anchor"] if place else None

    def cite(self, term_id: str) -> dict[str, str | None]:
        """How a result names a rule it used."""
        return {"term": term_id, "anchor": self.anchor(term_id)}

    def section(self, section_id: str | None) -> dict[str, Any] | None:
        """A section of the book's tree (its title and site anchor), or None."""
        return None if section_id is None else sections_by_id(self.data["sections"]).get(section_id)

    def cite_section(self, section_id: str | None, term: str | None = None) -> dict[str, str | None]:
        """How a result names the place of a rule the book states under no term of its own (a table, a
        sequence): the section, its title and its site anchor."""
        section = self.section(section_id) or {}
        return {"term": term, "section": section_id, "title": section.get("title"), "anchor": section.get("anchor")}

    def undeclared(self, question: str, detail: str = "") -> RulesError:
        """The error of a question the book declares nothing for: what to declare, in the book's format."""
        sources = self.data["book"]["sources"]
        suffix = sources[0]["path"].rsplit(".", 1)[-1].lower() if sources else "xml"
        lines = []
        for declaration in QUESTIONS[question]:
            entry = DECLARATIONS[declaration]
            how = entry["markdown"] if suffix == "md" else entry["xml"]
            if suffix not in ("md", "xml"):
                how += " (a plain-text source declares nothing: write the book as XML or Markdown)"
            lines.append(f"this book declares {entry['what']}{detail}: {how}")
        return RulesError("; ".join(lines))

    def tests(self) -> list[BookTest]:
        """The book's tests, by name."""
        return [self.test(name) for name in sorted(self.data["mechanics"]["tests"])]

    def test(self, name: str) -> BookTest:
        """One test of the book, or a roll of its chains taken as one (the roll is passed against the value given,
        as a test is: a book declares "roll 2D6 below Courage" once); an unknown name is a plain error listing both."""
        mechanics = self.data["mechanics"]
        tests, rolls = mechanics["tests"], mechanics.get("rolls") or {}
        test = tests.get(name) or rolls.get(name)
        if test is None:
            elsewhere = self.elsewhere(name)  # another book's term: which book to ask comes first
            if not tests and not rolls and not elsewhere:
                raise self.undeclared("odds test", f" (asked for `{name}`)")
            known = ", ".join(sorted({*tests, *rolls})) or "none"
            raise RulesError(f"`{name}` is not a test of this book (tests and rolls: {known}){elsewhere}")
        return BookTest(
            name,
            test["term"],
            test["roll"],
            test["pass"],
            frozenset(test["always_fails"]),
            frozenset(test["always_passes"]),
            test.get("target"),
            test.get("section"),
        )


def sections_by_id(tree: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Every section of the book's tree, by id."""
    found: dict[str, dict[str, Any]] = {}
    for section in tree:
        found[section["id"]] = section
        found.update(sections_by_id(section["children"]))
    return found


def load_rules(path: Path) -> Rules:
    """Read ``rules.json``, check it against the engine's schema (which must be the ``rules.schema.json``
    beside it) and against the engine's limits."""
    raw = _read(path)
    data = _json(raw, path)
    schema_path = path.with_name("rules.schema.json")
    schema = engine_schema()
    if not os.path.lexists(schema_path):  # a link, a pipe or a folder there is refused by what it is, below
        raise RulesError(
            f"{path} has no rules.schema.json beside it: the engine reads the rules.json a build wrote "
            "(in the site's folder, beside its schema; run `rulebook build`)"
        )
    beside = _read(schema_path)
    if beside != schema and _json(beside, schema_path) != _json(schema, SCHEMA_PATH):
        raise RulesError(
            f"{schema_path} is not the schema of this engine: the data was built by another version of "
            "rulebook (run `rulebook build`)"
        )
    check_schema(raw, data, schema, path)
    _check_limits(data, path)
    return Rules(data, path)


def _read(path: Path) -> bytes:
    return read_file(path, MAX_RULES_BYTES, "a rules.json", " (run `rulebook build` first)")


def _json(raw: bytes, path: Path) -> Any:
    def refuse(constant: str) -> NoReturn:
        raise ValueError(f"`{constant}` is not a number JSON allows")

    try:
        return load_json(raw.decode("utf-8"), parse_constant=refuse)
    except UnicodeDecodeError as error:
        raise RulesError(f"{path} is not UTF-8 text (byte {error.start})") from None
    except LongNumber as error:
        raise RulesError(f"{path} is not rule data: {error}") from None
    except ValueError as error:
        raise RulesError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise RulesError(f"{path} nests too deeply to be rule data") from None


def _check_limits(data: dict[str, Any], path: Path) -> None:
    """Every roll the data names is read once here, so no question on loaded data meets one past a limit."""
    mechanics = data["mechanics"]
    for name, rule in mechanics["dice"].items():
        with _at(path, f"mechanics.dice.{name}"):
            derived_die(name, rule)
    for where, notation in _notations(data):
        with _at(path, where):
            dice = parse_notation(notation)
            if where.startswith("mechanics.rolls.") and dice.number > MAX_CHAIN_DICE:
                raise over(f"`{notation}` rolls {dice.number} dice", MAX_CHAIN_DICE, "dice in a roll of a chain")
    _check_repeats(data, path)
    _check_tables(data, path)
    _check_numbers(data, path)
    for name, roll in mechanics["rolls"].items():
        readings = [(".readings", reading["against"] or "") for reading in roll["readings"]]
        for where, expression in [("", roll["against"]), *readings]:
            with _at(path, f"mechanics.rolls.{name}{where}.against"):
                _check_expression(expression)
        with _at(path, f"mechanics.rolls.{name}.critical_adds"):
            if roll["critical_adds"] > MAX_CRITICAL_ADDS:
                raise over(f"{roll['critical_adds']} more successes", MAX_CRITICAL_ADDS, "more successes of a critical")
    chain = len(mechanics["rolls"]) + sum(len(r["readings"]) for r in mechanics["rolls"].values())
    with _at(path, "mechanics.rolls"):
        if chain > MAX_CHAIN:
            raise over(f"{chain} rolls and readings", MAX_CHAIN, "rolls and readings in a chain")


def _check_expression(expression: str) -> None:
    """Every number of what a roll is against (``6 - cover``) within the bound of a number in a question."""
    for number in _NUMBER.findall(expression):
        if read_bounded(number, MAX_VALUE) is None:
            raise over(f"`{shown(number)}`", MAX_VALUE, "either way for a number in a question")


_NUMBER = re.compile(r"(?<![a-z0-9_])[0-9]+(?![a-z0-9_])")
"""A number of an expression: a run of digits that is not part of a name (``x1``)."""


def _notations(data: dict[str, Any]) -> Iterator[tuple[str, str]]:
    """(where, notation) of every roll in the data but the derived dice and the repeated rolls' counts."""
    mechanics = data["mechanics"]
    for kind in ("tests", "contests", "rolls"):
        for name, mechanic in mechanics[kind].items():
            yield f"mechanics.{kind}.{name}.roll", mechanic["roll"]
    for name, roll in mechanics["rolls"].items():
        if roll["fail_adds"] is not None:
            yield f"mechanics.rolls.{name}.fail_adds", roll["fail_adds"]
    for index, table in enumerate(data["roll_tables"]):
        yield f"roll_tables[{index}].die", table["die"]


def _check_repeats(data: dict[str, Any], path: Path) -> None:
    """A repeated roll rolls on a table of the book, at most :data:`MAX_REPEATS` times."""
    tables = {table["id"] for table in data["roll_tables"]}
    for name, repeat in data["mechanics"]["repeats"].items():
        with _at(path, f"mechanics.repeats.{name}.table"):
            if repeat["table"] not in tables:
                raise RulesError(f"`{repeat['table']}` is not a roll table of this book")
        with _at(path, f"mechanics.repeats.{name}.times"):
            times = parse_notation(repeat["times"])
            most = times.number * single_die(times.sides, data["mechanics"]["dice"]).faces()[-1]
            if most > MAX_REPEATS:
                raise over(f"`{repeat['times']}` can come to {most} repeats", MAX_REPEATS, "repeats")


def _check_tables(data: dict[str, Any], path: Path) -> None:
    """Each roll table's bands cover every result of its dice once, from the lowest up, as the lint holds a book's
    (``mechanics.roll_tables``): a hand-made table of 2-13 on 2D6, or with a gap or an overlap, was answered with
    odds that do not add up and "no result for" in a walk."""
    for index, table in enumerate(data["roll_tables"]):
        dice = parse_notation(table["die"])
        with _at(path, f"roll_tables[{index}].dice"):
            if (table["dice"]["count"], table["dice"]["sides"]) != (dice.number, dice.sides):
                raise RulesError(f"{_notation(table['dice'])} is not the table's die, {table['die']}")
        low, high = dice.number, dice.number * dice.sides
        bands = table["bands"]
        for place, band in enumerate(bands):
            with _at(path, f"roll_tables[{index}].bands[{place}]"):
                _check_band(band, bands[place - 1]["max"] + 1 if place else None, low, high, table["die"])
        with _at(path, f"roll_tables[{index}].bands"):
            end = bands[-1]["max"] if bands else low - 1
            if end < high:
                raise RulesError(f"the bands do not match a roll of {table['die']}: no band for {_span(end + 1, high)}")


def _check_band(band: dict[str, Any], following: int | None, low: int, high: int, die: str) -> None:
    """A band that starts at ``following``, the result after the band before it (None: the first, at ``low``), and
    ends by ``high``."""
    start, end = band["min"], band["max"]
    unmatched = f"the bands do not match a roll of {die}"
    if start > end:
        raise RulesError(f"the band {start}-{end} runs backwards")
    if following is not None and start < following:
        raise RulesError(f"{unmatched}: {start} is in two bands (bands go from the lowest result up)")
    if start < low or end > high:
        raise RulesError(f"{unmatched}: {start if start < low else high + 1} cannot be rolled")
    if start > (low if following is None else following):
        raise RulesError(f"{unmatched}: no band for {_span(low if following is None else following, start - 1)}")


def _span(first: int, last: int) -> str:
    return str(first) if first == last else f"{first} to {last}"


def _notation(dice: dict[str, Any]) -> str:
    return f"{shown(str(dice['count']))}D{shown(str(dice['sides']))}"


def _check_numbers(data: dict[str, Any], path: Path) -> None:
    """The order of modifiers places every kind; a 0-X multiplier ("1/2") is a fraction within the limits."""
    modifiers = data["mechanics"]["modifiers"]
    with _at(path, "mechanics.modifiers.order"):
        if modifiers is not None and sorted(set(modifiers["order"])) != ["add", "multiply", "set"]:
            raise RulesError("the order of modifiers must place each of set, multiply and add")
    for i, variant in enumerate(data["army_composition"]["variants"]):
        for j, row in enumerate(variant["duplicate_limits"]):
            with _at(path, f"army_composition.variants[{i}].duplicate_limits[{j}].multiplier"):
                if row["multiplier"] is not None:
                    *_, denominator = (read_number(part, "a multiplier") for part in row["multiplier"].split("/"))
                    if denominator == 0:
                        raise RulesError(f"`{row['multiplier']}` divides by zero")


@contextmanager
def _at(path: Path, where: str) -> Iterator[None]:
    """Name the file and the entry in an error about one entry of the data."""
    try:
        yield
    except RulesError as error:
        raise type(error)(f"{path}: `{where}`: {error}") from None
