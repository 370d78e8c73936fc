"""Numbers and tables the rules state, as data: game length, characteristics, army composition.

Prose numbers come from ``<value name="...">`` annotations and tables from
``data="..."`` annotations (both declared in ``rulebook.dtd``). :data:`VALUES`,
:data:`DATA_TABLES` and :data:`DATA_SEQUENCES` are the names the compiler knows;
a data table's reader both checks it and makes its rows. Anything that cannot be
read is a diagnostic (rule ``invalid-annotation``), never a silent gap in the data.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.diagnostics import Diagnostic
from rulebook.facts.kinds import ROUNDINGS
from rulebook.facts.shapes import (
    ArmyComposition,
    ArmyRules,
    Category,
    Characteristic,
    Characteristics,
    DuplicateLimit,
    Game,
    ProfileRow,
)
from rulebook.model import Book, Cell, Reference, Row, Table, plain_text
from rulebook.source import Span
from rulebook.spelling import spelling_of
from rulebook.suggest import Suggester

R = TypeVar("R")

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
class DataTable(Generic[R]):
    """A ``data`` table the compiler knows: what it holds, and the reader that makes its rows."""

    name: str
    holds: str
    """What its rows say, for the help of a table that cannot be read."""
    read: Callable[[Table], list[R]]
    """Its rows as data; raises :class:`UnreadableTable`."""


@dataclass(frozen=True, slots=True)
class Facts:
    """A book's ``<value>`` and ``data`` annotations, checked and read."""

    values: dict[str, int]
    """Every value given once as a whole number, by name."""
    rows: dict[str, list[Any]]
    """The rows of each data table that could be read, by name (the last table of a name wins)."""
    diagnostics: tuple[Diagnostic, ...]

    def rows_of(self, table: DataTable[R]) -> list[R]:
        return cast("list[R]", self.rows.get(table.name, []))


def collect_facts(book: Book) -> Facts:
    """The annotated values and tables of a book, checked."""
    values, diagnostics = _values(book)
    rows: dict[str, list[Any]] = {}
    for annotated in book.annotated:
        node = annotated.node
        if node.data is None:
            continue
        known: Mapping[str, object] = DATA_TABLES if isinstance(node, Table) else DATA_SEQUENCES
        if node.data not in known:
            what = "data table" if isinstance(node, Table) else "data sequence"
            diagnostics.append(_unknown(what, node.data, known, node.span, annotated.section_id))
        elif isinstance(node, Table):
            table = DATA_TABLES[node.data]
            try:
                rows[table.name] = table.read(node)
            except UnreadableTable as error:
                diagnostics.append(
                    INVALID_ANNOTATION.diagnostic(
                        str(error),
                        node.span,
                        target=table.name,
                        help=f"a `{table.name}` table holds {table.holds}",
                        section_id=annotated.section_id,
                    )
                )
    return Facts(values, rows, tuple(diagnostics))


def _values(book: Book) -> tuple[dict[str, int], list[Diagnostic]]:
    values: dict[str, int] = {}
    first: dict[str, Span] = {}
    diagnostics: list[Diagnostic] = []
    for value in book.values:
        if value.name not in VALUES:
            diagnostics.append(_unknown("value", value.name, VALUES, value.span, value.section_id))
        elif not value.text.strip().isdigit():
            diagnostics.append(
                INVALID_ANNOTATION.diagnostic(
                    f"value `{value.name}` must be a whole number, not `{value.text}`",
                    value.span,
                    target=value.name,
                    help=f"wrap only the number in `{spelling_of(value.source.path).value}`",
                    section_id=value.section_id,
                )
            )
        elif value.name in first:
            diagnostics.append(
                INVALID_ANNOTATION.diagnostic(
                    f"value `{value.name}` is given twice",
                    value.span,
                    target=value.name,
                    help=f"it is first given at {first[value.name]}",
                    section_id=value.section_id,
                )
            )
        else:
            first[value.name] = value.span
            values[value.name] = int(value.text.strip())
    return values, diagnostics


def _unknown(what: str, name: str, known: Mapping[str, object], span: Span, section_id: str) -> Diagnostic:
    suggestions = Suggester(known).suggest(name)
    return INVALID_ANNOTATION.diagnostic(
        f"`{name}` is not a {what} the compiler knows",
        span,
        target=name,
        suggestions=suggestions,
        help=f"did you mean `{suggestions[0]}`?" if suggestions else "known names: " + ", ".join(sorted(known)),
        section_id=section_id,
    )


# -- readers: each turns one kind of table into data, or says why it cannot -------


def characteristics_profile(table: Table) -> list[ProfileRow]:
    profile: list[ProfileRow] = []
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


def army_categories(table: Table) -> list[Category]:
    categories: list[Category] = []
    for row in table.rows:
        key, points, duplicates = _three_cells(row)
        low, high = _percent_limit(plain_text(points.children))
        categories.append(
            {
                "terms": _terms(key),
                "name": plain_text(key.children),
                "min_percent": low,
                "max_percent": high,
                "duplicate_limit": _count_limit(plain_text(duplicates.children), allow_none=True),
            }
        )
    return categories


def duplicate_limits(table: Table) -> list[DuplicateLimit]:
    limits: list[DuplicateLimit] = []
    for row in table.rows:
        if len(row.cells) != 2:
            raise UnreadableTable("each row needs a category and its limit")
        key, limit = row.cells
        terms, name, text = _terms(key), plain_text(key.children), plain_text(limit.children)
        if (half := _HALF.match(text)) is not None:
            rounding = ROUNDINGS[(half.group("round") or "up").lower()]
            limits.append({"terms": terms, "name": name, "limit": None, "multiplier": "1/2", "rounding": rounding})
        elif text.lower() == "double":
            limits.append({"terms": terms, "name": name, "limit": None, "multiplier": "2", "rounding": None})
        else:
            limits.append(
                {"terms": terms, "name": name, "limit": _count_limit(text), "multiplier": None, "rounding": None}
            )
    return limits


CHARACTERISTICS_PROFILE = DataTable(
    "characteristics_profile",
    "rows of abbreviation, characteristic term and its definition",
    characteristics_profile,
)
ARMY_CATEGORIES = DataTable(
    "army_categories",
    "rows of category, point limit (at least / max N%) and duplicate limit (max N)",
    army_categories,
)
WARBAND_DUPLICATE_LIMITS = DataTable(
    "warband_duplicate_limits", "rows of category and its duplicate limit in a warband", duplicate_limits
)
GRAND_ARMY_DUPLICATE_LIMITS = DataTable(
    "grand_army_duplicate_limits", "rows of category and its duplicate limit in a grand army", duplicate_limits
)
DATA_TABLES: dict[str, DataTable[Any]] = {
    table.name: table
    for table in (CHARACTERISTICS_PROFILE, ARMY_CATEGORIES, WARBAND_DUPLICATE_LIMITS, GRAND_ARMY_DUPLICATE_LIMITS)
}
"""Every ``data`` table the compiler knows, by name."""


def _three_cells(row: Row) -> tuple[Cell, Cell, Cell]:
    if len(row.cells) != 3:
        raise UnreadableTable("each row needs a category, a point limit and a duplicate limit")
    return row.cells[0], row.cells[1], row.cells[2]


def _terms(cell: Cell) -> list[str]:
    names = [node.name for node in cell.children if isinstance(node, Reference)]
    if not names:
        written = spelling_of(cell.source.path).reference.format(name="...")
        raise UnreadableTable(f"`{plain_text(cell.children)}` names no term: refer to the category with `{written}`")
    return names


def _percent_limit(text: str) -> tuple[int | None, int | None]:
    """(at least, at most) percent of the points."""
    if text.strip() in _NONE:
        return None, None
    match = _PERCENT.match(text.strip())
    if match is None:
        raise UnreadableTable(f"cannot read the point limit `{text}` (write `at least 25%` or `max 35%`)")
    n = int(match.group("n"))
    return (n, None) if match.group("kind").lower() == "at least" else (None, n)


def _count_limit(text: str, *, allow_none: bool = False) -> int | None:
    if allow_none and text.strip() in _NONE:
        return None
    match = _MAX.match(text.strip())
    if match is None:
        raise UnreadableTable(f"cannot read the limit `{text}` (write `max 3`)")
    return int(match.group("n"))


# -- the rule data they make ----------------------------------------------------------


def game_data(facts: Facts) -> Game:
    return {"game_turns": facts.values.get("game_turns"), "player_turns_each": facts.values.get("player_turns_each")}


def characteristics_data(facts: Facts) -> Characteristics:
    low, high = facts.values.get("characteristic_min"), facts.values.get("characteristic_max")
    profile: list[Characteristic] = [{**row, "min": low, "max": high} for row in facts.rows_of(CHARACTERISTICS_PROFILE)]
    return {"min": low, "max": high, "profile": profile}


def army_composition_data(facts: Facts, rules: ArmyRules) -> ArmyComposition:
    values = facts.values
    return {
        "max_points_below_limit": values.get("max_points_below_limit"),
        "min_army_units": values.get("min_army_units"),
        "categories": facts.rows_of(ARMY_CATEGORIES),
        "variants": [
            {
                "id": "warband",
                "term": "warband",
                "max_points": values.get("warband_max_points"),
                "min_points": None,
                "min_army_units": values.get("warband_min_army_units"),
                "duplicate_limits": facts.rows_of(WARBAND_DUPLICATE_LIMITS),
            },
            {
                "id": "grand_army",
                "term": "grand_army",
                "max_points": None,
                "min_points": values.get("grand_army_min_points"),
                "min_army_units": None,
                "duplicate_limits": facts.rows_of(GRAND_ARMY_DUPLICATE_LIMITS),
            },
        ],
        "rules": rules,
    }
