"""Loading ``rules.json``: read within the size limit, checked against the engine's schema and limits."""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NamedTuple, NoReturn

from rulebook.engine.dice import derived_die, parse_notation, passes, single_die
from rulebook.engine.errors import RulesError as RulesError
from rulebook.engine.files import read_file
from rulebook.engine.limits import MAX_CHAIN, MAX_CHAIN_DICE, MAX_REPEATS, MAX_RULES_BYTES, over, read_number
from rulebook.engine.schema import SCHEMA_PATH, check_schema, engine_schema


class BookTest(NamedTuple):
    """A test of the book (``mechanics.tests``): how it is rolled and passed, and the target the book may fix."""

    name: str
    term: str
    roll: str
    how: str
    """``at_least`` or ``at_most`` the target."""
    always_fails: frozenset[int]
    target: int | None
    """The target the book fixes ("choose on a 4+"), or None when the tested value is given."""
    section: str | None

    def passes(self, total: int, target: int) -> bool:
        return passes(total, self.how, target, self.always_fails)

    def need(self, target: int) -> str:
        """What a roll needs, in the players' words: ``4+`` or ``7 or less``."""
        return f"{target}+" if self.how == "at_least" else f"{target} or less"


class Rules(NamedTuple):
    """The compiled rule data, read-only."""

    data: dict[str, Any]
    path: Path

    def term(self, term_id: str) -> dict[str, Any]:
        try:
            return dict(self.data["terms"][term_id])
        except KeyError:
            raise RulesError(f"`{term_id}` is not a term of this book") from None

    def anchor(self, term_id: str) -> str | None:
        place = self.data["terms"].get(term_id, {}).get("defined_at")
        return place["anchor"] if place else None

    def cite(self, term_id: str) -> dict[str, str | None]:
        """How a result names a rule it used."""
        return {"term": term_id, "anchor": self.anchor(term_id)}

    def tests(self) -> list[BookTest]:
        """The book's tests, by name."""
        return [self.test(name) for name in sorted(self.data["mechanics"]["tests"])]

    def test(self, name: str) -> BookTest:
        """One test of the book; an unknown name is a plain error listing the tests."""
        tests = self.data["mechanics"]["tests"]
        if name not in tests:
            raise RulesError(f"`{name}` is not a test of this book (tests: {', '.join(sorted(tests)) or 'none'})")
        test = tests[name]
        return BookTest(
            name,
            test["term"],
            test["roll"],
            test["pass"],
            frozenset(test["always_fails"]),
            test.get("target"),
            test.get("section"),
        )


def load_rules(path: Path) -> Rules:
    """Read ``rules.json``, check it against the engine's schema (which must be the ``rules.schema.json``
    beside it) and against the engine's limits."""
    raw = _read(path)
    data = _json(raw, path)
    schema_path = path.with_name("rules.schema.json")
    schema = engine_schema()
    if not schema_path.is_file():
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
        return json.loads(raw.decode("utf-8"), parse_constant=refuse)
    except UnicodeDecodeError as error:
        raise RulesError(f"{path} is not UTF-8 text (byte {error.start})") from None
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
                raise over(
                    f"`{notation}` rolls {dice.number} dice", MAX_CHAIN_DICE, "dice in a roll of an attack chain"
                )
    _check_repeats(data, path)
    _check_numbers(data, path)
    chain = len(mechanics["rolls"]) + sum(len(r["readings"]) for r in mechanics["rolls"].values())
    with _at(path, "mechanics.rolls"):
        if chain > MAX_CHAIN:
            raise over(f"{chain} rolls and readings", MAX_CHAIN, "rolls and readings in a chain")


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
