"""Numbers and tables the rules state, as data: game length, characteristics, army composition.

Prose numbers come from ``<value name="...">`` annotations and tables from
``data="..."`` annotations (both declared in ``rulebook.dtd``). This module
knows which names exist and what they mean; anything it cannot read is a
diagnostic (rule ``invalid-annotation``), never a silent gap in the data.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from compiler.catalog.mechanics import INVALID_ANNOTATION
from compiler.diagnostics import Diagnostic
from compiler.model import Book, Cell, ItemList, Mechanic, Reference, Row, Table, Value, plain_text
from compiler.suggest import Suggester

VALUES: dict[str, str] = {
    "game_turns": "game turns in a standard game",
    "player_turns_each": "player turns each player has in a standard game",
    "characteristic_min": "lowest value a characteristic can have",
    "characteristic_max": "highest value a characteristic can have",
    "max_points_below_limit": "how far below the point limit an army may fall",
    "min_army_units": "fewest units an army may have, characters excluded",
    "warband_max_points": "largest army that is a warband",
    "warband_min_army_units": "fewest units a warband may have",
    "grand_army_min_points": "smallest army that is a grand army",
}
"""Every ``<value>`` name the compiler understands, with what it means."""

DATA_TABLES: dict[str, str] = {
    "characteristics_profile": "rows of abbreviation, characteristic term and its definition",
    "army_categories": "rows of category, point limit (at least / max N%) and duplicate limit (max N)",
    "warband_duplicate_limits": "rows of category and its duplicate limit in a warband",
    "grand_army_duplicate_limits": "rows of category and its duplicate limit in a grand army",
}
"""Every ``data`` table name the compiler understands."""

DATA_SEQUENCES: dict[str, str] = {
    "pre_game_sequence": "the steps that set up a game, in order",
}
"""Every ``data`` sequence name the compiler understands."""

_PERCENT = re.compile(r"^(?P<kind>at least|max)\s+(?P<n>\d+)\s*%$", re.IGNORECASE)
_MAX = re.compile(r"^max\s+(?P<n>\d+)$", re.IGNORECASE)
_HALF = re.compile(r"^half(?:,?\s*rounded\s+(?P<round>up|down))?$", re.IGNORECASE)
_NONE = {"-", "–", "—", ""}


class UnreadableTable(Exception):
    """A ``data`` table whose cells do not say what its name promises."""


@dataclass(frozen=True, slots=True)
class Facts:
    values: dict[str, int]
    tables: dict[str, Table]
    diagnostics: list[Diagnostic] = field(default_factory=list)


def collect_facts(book: Book) -> Facts:
    """The annotated values and tables of a book, checked."""
    values: dict[str, int] = {}
    first: dict[str, Value] = {}
    diagnostics: list[Diagnostic] = []
    for value in book.values:
        problem = _value_problem(value, first)
        if problem:
            diagnostics.append(problem)
            continue
        first[value.name] = value
        values[value.name] = int(value.text.strip())
    tables = {}
    for table, section_id in _data_tables(book):
        if table.data not in DATA_TABLES:
            diagnostics.append(_unknown(f"`{table.data}` is not a data table the compiler knows", table, section_id))
            continue
        try:
            _READERS[table.data or ""](table)
        except UnreadableTable as error:
            diagnostics.append(
                INVALID_ANNOTATION.diagnostic(
                    str(error),
                    table.span,
                    target=table.data,
                    help=f"a `{table.data}` table holds {DATA_TABLES[table.data]}",
                    section_id=section_id,
                )
            )
            continue
        tables[table.data] = table
    for annotated in book.annotated:
        node = annotated.node
        if isinstance(node, ItemList) and node.data is not None and node.data not in DATA_SEQUENCES:
            diagnostics.append(
                INVALID_ANNOTATION.diagnostic(
                    f"`{node.data}` is not a data sequence the compiler knows",
                    node.span,
                    target=node.data,
                    suggestions=Suggester(DATA_SEQUENCES).suggest(node.data),
                    help=_did_you_mean(node.data, DATA_SEQUENCES),
                    section_id=annotated.section_id,
                )
            )
    return Facts(values, tables, diagnostics)


def _value_problem(value: Value, first: dict[str, Value]) -> Diagnostic | None:
    if value.name not in VALUES:
        return INVALID_ANNOTATION.diagnostic(
            f"`{value.name}` is not a value the compiler knows",
            value.span,
            target=value.name,
            suggestions=Suggester(VALUES).suggest(value.name),
            help=_did_you_mean(value.name, VALUES),
            section_id=value.section_id,
        )
    if not value.text.strip().isdigit():
        return INVALID_ANNOTATION.diagnostic(
            f"value `{value.name}` must be a whole number, not `{value.text}`",
            value.span,
            target=value.name,
            help="wrap only the number in `<value>`",
            section_id=value.section_id,
        )
    if value.name in first:
        return INVALID_ANNOTATION.diagnostic(
            f"value `{value.name}` is given twice",
            value.span,
            target=value.name,
            help=f"it is first given at {first[value.name].span}",
            section_id=value.section_id,
        )
    return None


def _unknown(message: str, table: Table, section_id: str) -> Diagnostic:
    name = table.data or ""
    return INVALID_ANNOTATION.diagnostic(
        message,
        table.span,
        target=name,
        suggestions=Suggester(DATA_TABLES).suggest(name),
        help=_did_you_mean(name, DATA_TABLES),
        section_id=section_id,
    )


def _did_you_mean(name: str, known: dict[str, str]) -> str:
    suggestions = Suggester(known).suggest(name)
    if suggestions:
        return f"did you mean `{suggestions[0]}`?"
    return "known names: " + ", ".join(sorted(known))


def _data_tables(book: Book) -> list[tuple[Table, str]]:
    return [(a.node, a.section_id) for a in book.annotated if isinstance(a.node, Table) and a.node.data is not None]


# -- readers: each turns one kind of table into data, or says why it cannot -------


def characteristics_profile(table: Table) -> list[dict[str, Any]]:
    profile = []
    for row in table.rows:
        cells = row.cells
        if len(cells) < 3 or not cells[0].header:
            raise UnreadableTable("each row needs an abbreviation header, the characteristic and its definition")
        term = _terms(cells[1])
        if len(term) != 1:
            raise UnreadableTable(f"row `{plain_text(cells[0].children)}` does not name one characteristic term")
        profile.append(
            {
                "abbreviation": plain_text(cells[0].children),
                "term": term[0],
                "name": plain_text(cells[1].children),
                "definition": plain_text(cells[2].children),
            }
        )
    return profile


def army_categories(table: Table) -> list[dict[str, Any]]:
    categories = []
    for row in table.rows:
        key, points, duplicates = _three_cells(row)
        entry: dict[str, Any] = {"terms": _terms(key), "name": plain_text(key.children)}
        entry |= _percent_limit(plain_text(points.children))
        entry["duplicate_limit"] = _count_limit(plain_text(duplicates.children), allow_none=True)
        categories.append(entry)
    return categories


def duplicate_limits(table: Table) -> list[dict[str, Any]]:
    limits = []
    for row in table.rows:
        if len(row.cells) != 2:
            raise UnreadableTable("each row needs a category and its limit")
        key, limit = row.cells
        text = plain_text(limit.children)
        entry: dict[str, Any] = {"terms": _terms(key), "name": plain_text(key.children)}
        if (half := _HALF.match(text)) is not None:
            entry |= {"limit": None, "multiplier": "1/2", "rounding": half.group("round") or "up"}
        elif text.lower() == "double":
            entry |= {"limit": None, "multiplier": "2", "rounding": None}
        else:
            entry |= {"limit": _count_limit(text), "multiplier": None, "rounding": None}
        limits.append(entry)
    return limits


_READERS = {
    "characteristics_profile": characteristics_profile,
    "army_categories": army_categories,
    "warband_duplicate_limits": duplicate_limits,
    "grand_army_duplicate_limits": duplicate_limits,
}


def _three_cells(row: Row) -> tuple[Cell, Cell, Cell]:
    if len(row.cells) != 3:
        raise UnreadableTable("each row needs a category, a point limit and a duplicate limit")
    return row.cells[0], row.cells[1], row.cells[2]


def _terms(cell: Cell) -> list[str]:
    names = [node.name for node in cell.children if isinstance(node, Reference)]
    if not names:
        raise UnreadableTable(f"`{plain_text(cell.children)}` names no term: refer to the category with <reference>")
    return names


def _percent_limit(text: str) -> dict[str, int | None]:
    if text.strip() in _NONE:
        return {"min_percent": None, "max_percent": None}
    match = _PERCENT.match(text.strip())
    if match is None:
        raise UnreadableTable(f"cannot read the point limit `{text}` (write `at least 25%` or `max 35%`)")
    n = int(match.group("n"))
    return (
        {"min_percent": n, "max_percent": None}
        if match.group("kind").lower() == "at least"
        else {
            "min_percent": None,
            "max_percent": n,
        }
    )


def _count_limit(text: str, *, allow_none: bool = False) -> int | None:
    if allow_none and text.strip() in _NONE:
        return None
    match = _MAX.match(text.strip())
    if match is None:
        raise UnreadableTable(f"cannot read the limit `{text}` (write `max 3`)")
    return int(match.group("n"))


def game_data(facts: Facts) -> dict[str, Any]:
    return {"game_turns": facts.values.get("game_turns"), "player_turns_each": facts.values.get("player_turns_each")}


def characteristics_data(facts: Facts) -> dict[str, Any]:
    table = facts.tables.get("characteristics_profile")
    low, high = facts.values.get("characteristic_min"), facts.values.get("characteristic_max")
    profile = [entry | {"min": low, "max": high} for entry in characteristics_profile(table)] if table else []
    return {"min": low, "max": high, "profile": profile}


def army_composition_data(facts: Facts) -> dict[str, Any]:
    tables = facts.tables
    values = facts.values
    return {
        "max_points_below_limit": values.get("max_points_below_limit"),
        "min_army_units": values.get("min_army_units"),
        "categories": army_categories(tables["army_categories"]) if "army_categories" in tables else [],
        "variants": [
            {
                "id": "warband",
                "term": "warband",
                "max_points": values.get("warband_max_points"),
                "min_points": None,
                "min_army_units": values.get("warband_min_army_units"),
                "duplicate_limits": duplicate_limits(tables["warband_duplicate_limits"])
                if "warband_duplicate_limits" in tables
                else [],
            },
            {
                "id": "grand_army",
                "term": "grand_army",
                "max_points": None,
                "min_points": values.get("grand_army_min_points"),
                "min_army_units": None,
                "duplicate_limits": duplicate_limits(tables["grand_army_duplicate_limits"])
                if "grand_army_duplicate_limits" in tables
                else [],
            },
        ],
    }


# -- mechanics: tests, derived dice and rerolls, from <mechanic> annotations --------------------

_INT = re.compile(r"^[1-9]\d*$")


def collect_mechanics(book: Book, defined: set[str], tables: set[str]) -> tuple[dict[str, Any], list[Diagnostic]]:
    """The ``mechanics`` of the rule data, and a diagnostic for each annotation that cannot be read.

    ``defined``: the book's defined terms; ``tables``: its roll tables' ids.
    """
    from compiler.mechanics import parse_dice

    tests: dict[str, Any] = {}
    dice: dict[str, Any] = {}
    repeats: dict[str, Any] = {}
    contests: dict[str, Any] = {}
    rolls: dict[str, Any] = {}
    readings: list[Mechanic] = []
    army: dict[str, Any] = {
        "count_together": [],
        "general": None,
        "marked": {},
        "whole_points": None,
        "slash_prices": [],
    }
    rerolls: dict[str, Any] = {}
    modifiers: dict[str, Any] | None = None
    problems: list[Diagnostic] = []
    for mechanic in book.mechanics:
        attributes = dict(mechanic.attributes)
        problem = _mechanic_problem(mechanic.name, attributes, defined, tables)
        if problem is not None:
            problems.append(_mechanic_diagnostic(mechanic, problem))
            continue
        if set(attributes) & ARMY_RULES:
            _army_rule(attributes, mechanic, army)
        elif "reading" in attributes:
            readings.append(mechanic)
        elif "against" in attributes:
            roll = parse_dice(attributes["roll"])
            assert roll is not None
            rolls[mechanic.name] = {
                "term": mechanic.name,
                "roll": roll.notation,
                "dice": {"count": roll.count, "sides": roll.sides},
                "pass": attributes["pass"].replace("-", "_"),
                "against": attributes["against"],
                "each": attributes.get("each"),
                "step": int(attributes["step"]) if "step" in attributes else None,
                "instead_of": attributes.get("instead-of"),
                "cancels": attributes.get("cancels"),
                "threshold": int(attributes["threshold"]) if "threshold" in attributes else None,
                "fail_adds": attributes.get("fail-adds"),
                "section": mechanic.section_id,
                "place": _place(mechanic),
                "readings": [],
            }
        elif "pass" in attributes:
            roll = parse_dice(attributes["roll"])
            assert roll is not None
            fails = [int(v) for v in attributes.get("always-fails", "").split()]
            tests[mechanic.name] = {
                "term": mechanic.name,
                "roll": roll.notation,
                "dice": {"count": roll.count, "sides": roll.sides},
                "pass": attributes["pass"].replace("-", "_"),
                "always_fails": fails,
                "target": int(attributes["target"]) if "target" in attributes else None,
                "section": mechanic.section_id,
            }
        elif "order" in attributes:
            modifiers = {
                "term": mechanic.definition or mechanic.name,
                "order": attributes["order"].split(),
                "round": attributes.get("round", "up"),
            }
        elif "divide" in attributes:
            dice[mechanic.name.upper()] = {
                "roll": attributes["roll"].upper(),
                "divide": int(attributes["divide"]),
                "round": attributes.get("round", "up"),
                "section": mechanic.section_id,
            }
        elif "times" in attributes:
            times = parse_dice(attributes["times"])
            assert times is not None
            repeats[mechanic.name] = {
                "times": times.notation,
                "table": attributes["table"],
                "board": attributes.get("board"),
                "section": mechanic.section_id,
            }
        elif "contest" in attributes:
            roll = parse_dice(attributes["contest"])
            assert roll is not None
            contests[mechanic.name] = {
                "roll": roll.notation,
                "dice": {"count": roll.count, "sides": roll.sides},
                "bonus": attributes.get("bonus"),
                "ties": attributes.get("ties", "second"),
                "section": mechanic.section_id,
            }
        else:
            rerolls = {"max": int(attributes["max"]), "term": mechanic.definition}
    for reading in readings:
        attributes = dict(reading.attributes)
        if reading.name not in rolls:
            problems.append(_mechanic_diagnostic(reading, "a reading must follow a roll of that name (`against`)"))
            continue
        rolls[reading.name]["readings"].append(
            {
                "reading": attributes["reading"],
                "pass": attributes.get("pass", "").replace("-", "_") or None,
                "against": attributes.get("against"),
                "place": _place(reading),
            }
        )
    return {
        "tests": tests,
        "dice": dice,
        "rerolls": rerolls or None,
        "modifiers": modifiers,
        "repeats": repeats,
        "contests": contests,
        "rolls": rolls,
        "army": army,
    }, problems


ARMY_RULES = {"count-together", "from", "marks", "whole-points", "prices"}
"""Attributes of the army-composition rules the prose states (see ``rulebook dtd``)."""


def _army_rule(attributes: dict[str, str], mechanic: Mechanic, army: dict[str, Any]) -> None:
    cite = {"term": mechanic.definition, "section": mechanic.section_id}
    if "count-together" in attributes:
        army["count_together"] = attributes["count-together"].split()
    if "from" in attributes:
        army["general"] = {"count": int(attributes.get("exactly", "1")), "from": attributes["from"].split(), **cite}
    if "marks" in attributes:
        for mark in attributes["marks"].split():
            army["marked"][mark] = int(attributes.get("limit", "1"))
    if "whole-points" in attributes:
        army["whole_points"] = attributes["whole-points"]
    if "prices" in attributes:
        army["slash_prices"] = attributes["prices"].split()


def _mechanic_diagnostic(mechanic: Mechanic, problem: str) -> Diagnostic:
    return INVALID_ANNOTATION.diagnostic(
        f"mechanic `{mechanic.name}`: {problem}",
        mechanic.span,
        target=mechanic.name,
        help="see `rulebook dtd` for the mechanic annotations",
        section_id=mechanic.section_id,
    )


def _place(mechanic: Mechanic) -> dict[str, Any]:
    """Where an annotation stands, and the source line it annotates (a reader can compare readings)."""
    span = mechanic.span
    line = mechanic.source.line_text(span.line)
    text = re.sub(r"<!--.*?-->|<mechanic [^>]*/>", "", line).strip()
    return {"file": span.path, "line": span.line, "column": span.column, "text": text}


def _mechanic_problem(name: str, attributes: dict[str, str], defined: set[str], tables: set[str]) -> str | None:
    from compiler.mechanics import parse_dice

    if set(attributes) & ARMY_RULES:
        for key in ("exactly", "limit"):
            if key in attributes and not _INT.match(attributes[key]):
                return f"`{key}` must be a whole number"
        if attributes.get("whole-points", "up") not in ("up", "down"):
            return "`whole-points` must be up or down"
        if "prices" in attributes and len(attributes["prices"].split()) < 2:
            return "`prices` names the categories whose prices a slash separates, in order (lord hero)"
        return None
    if "reading" in attributes:
        if attributes.get("pass", "at-least") not in ROLL_PASSES:
            return "`pass` must be one of " + ", ".join(ROLL_PASSES)
        return None
    if "against" in attributes:
        if name not in defined:
            return "a roll must be named after the term it is (define the term)"
        if parse_dice(attributes.get("roll", "")) is None:
            return "`roll` must be dice notation such as D6 or 2D6"
        if attributes.get("pass") not in ROLL_PASSES:
            return "`pass` must be one of " + ", ".join(ROLL_PASSES)
        if not _EXPRESSION.fullmatch(attributes["against"]):
            return "`against` must add or subtract names and whole numbers (defense + penetration, 6 - cover)"
        for key in ("step", "threshold"):
            if key in attributes and not _INT.match(attributes[key]):
                return f"`{key}` must be a whole number"
        if "fail-adds" in attributes and parse_dice(attributes["fail-adds"]) is None:
            return "`fail-adds` must be dice notation such as 1D6"
        return None
    if "pass" in attributes:
        if name not in defined:
            return "a test must be named after the term it defines"
        if parse_dice(attributes.get("roll", "")) is None:
            return "`roll` must be dice notation such as D6 or 2D6"
        if not all(_INT.match(v) for v in attributes.get("always-fails", "").split()):
            return "`always-fails` must list whole numbers"
        if "target" in attributes and not _INT.match(attributes["target"]):
            return "`target` must be a whole number"
        return None
    if "divide" in attributes:
        if parse_dice(name) is None or parse_dice(attributes.get("roll", "")) is None:
            return 'a derived die is named in dice notation (D3) and rolls dice (roll="D6")'
        return None if _INT.match(attributes["divide"]) else "`divide` must be a whole number"
    if "times" in attributes:
        if parse_dice(attributes["times"]) is None:
            return "`times` must be dice notation such as 2D3"
        if "board" in attributes and not re.fullmatch(r"[1-9]\d*x[1-9]\d*", attributes["board"]):
            return "`board` is a board size such as 36x48"
        if attributes.get("table") not in tables:
            return f"`table` must name a roll table of the book ({', '.join(sorted(tables)) or 'there is none'})"
        return None
    if "contest" in attributes:
        if parse_dice(attributes["contest"]) is None:
            return "`contest` must be dice notation such as D6"
        if "bonus" in attributes and attributes["bonus"] not in defined:
            return f"`bonus` must name a defined term (`{attributes['bonus']}` is not defined)"
        return None
    if "max" in attributes:
        return None if _INT.match(attributes["max"]) else "`max` must be a whole number"
    if "order" in attributes:
        kinds = attributes["order"].split()
        if sorted(kinds) != sorted(MODIFIER_KINDS):
            return "`order` must name each of " + ", ".join(MODIFIER_KINDS) + " once"
        return None
    return (
        "give `pass` (a test), `divide` (a derived die), `max` (rerolls), `order` (modifiers), "
        "`times` (a repeated roll), `contest` (both players roll), `against` (a roll in a chain) "
        "or `reading` (another reading of a roll)"
    )


ROLL_PASSES = ("at-least", "at-most", "above", "below")
"""How a roll compares with what it is rolled against."""
_EXPRESSION = re.compile(r"\s*[a-z0-9_]+(\s*[-+]\s*[a-z0-9_]+)*\s*")

MODIFIER_KINDS = ("set", "multiply", "add")
"""The kinds of characteristic modifiers an ``order`` annotation puts in order."""
