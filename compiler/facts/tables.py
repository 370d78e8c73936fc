"""The tables and sequences a book declares, read as data: its profile, army tables, turn and setup steps.

A table declares what it holds with ``kind`` (:data:`DATA_TABLES`: ``profile``, ``categories``,
``duplicate-limits``) and its own name with ``id``; a sequence declares what it is with ``kind``
(:data:`SEQUENCE_KINDS`: ``turn``, ``setup``). A data table's reader both checks it and makes its rows.
Anything that cannot be read is a diagnostic (rule ``invalid-annotation``), never a silent gap in the data:
an unknown kind, a table whose cells do not say what its kind promises, an id given twice, an army table
without the id its declaration names it by.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.diagnostics import Diagnostic
from rulebook.errors import quoted
from rulebook.facts.army_kinds import ROUNDINGS, ArmyDeclaration, VariantDeclaration
from rulebook.facts.shapes import (
    ArmyComposition,
    ArmyRules,
    Category,
    Characteristic,
    Characteristics,
    DeclaredValue,
    DuplicateLimit,
    ProfileRow,
    Variant,
)
from rulebook.facts.values import MAX_VALUE, bounded_number, collect_values, unknown_kind
from rulebook.model import Annotated, Book, Cell, Reference, Row, Table, plain_text
from rulebook.names import is_identifier
from rulebook.spelling import spelling_of

R = TypeVar("R")

SEQUENCE_KINDS: dict[str, str] = {
    "turn": "the phases of a turn, in order",
    "setup": "the steps that set up a game, in order",
}
"""What a sequence may be."""

_PERCENT = re.compile(r"^(?P<kind>at least|max)\s+(?P<n>\d+)\s*%$", re.IGNORECASE | re.ASCII)
_MAX = re.compile(r"^max\s+(?P<n>\d+)$", re.IGNORECASE | re.ASCII)
_HALF = re.compile(r"^half(?:,?\s*rounded\s+(?P<round>up|down))?$", re.IGNORECASE)
_NONE = {"-", "–", "—", ""}


class UnreadableTable(Exception):
    """A data table whose cells do not say what its kind promises."""


@dataclass(frozen=True, slots=True)
class DataTable(Generic[R]):
    """A kind of data table: what it holds, and the reader that makes its rows."""

    kind: str
    holds: str
    """What its rows say, for the help of a table that cannot be read."""
    read: Callable[[Table], list[R]]
    """Its rows as data; raises :class:`UnreadableTable`."""
    named: bool = False
    """Whether it needs an ``id`` (a declaration names it)."""


@dataclass(frozen=True, slots=True)
class Facts:
    """A book's values, data tables and sequences, checked and read."""

    values: dict[str, DeclaredValue]
    """Every value given once as a whole number of a known kind, by name."""
    rows: dict[str, list[Any]]
    """The rows of each data table with an id that could be read, by id."""
    profile: list[ProfileRow]
    """The rows of the characteristics profile (the last table of kind ``profile``)."""
    tables: dict[str, str]
    """The kind of each data table with an id, by id (what declarations may name)."""
    diagnostics: tuple[Diagnostic, ...]

    def rows_of(self, table_id: str | None) -> list[Any]:
        return self.rows.get(table_id, []) if table_id is not None else []


def collect_facts(book: Book, defined: frozenset[str]) -> Facts:
    """The declared values, data tables and sequences of a book, checked."""
    values, diagnostics = collect_values(tuple(book.values), defined)
    rows: dict[str, list[Any]] = {}
    tables: dict[str, str] = {}
    named: dict[str, Annotated] = {}
    profile: list[ProfileRow] = []
    for annotated in book.annotated:
        node = annotated.node
        if node.id is not None and (problem := _id_problem(annotated, named)) is not None:
            diagnostics.append(problem)
        elif node.kind is None:
            continue
        elif isinstance(node, Table):
            diagnostics.extend(_read_table(annotated, node, rows, tables))
            if node.kind == PROFILE.kind:
                profile = rows.pop(node.id or PROFILE.kind, profile)
        elif node.kind not in SEQUENCE_KINDS:
            diagnostics.append(_wrong_kind(annotated, node.kind, SEQUENCE_KINDS, DATA_TABLES, "sequence"))
    return Facts(values, rows, profile, tables, tuple(diagnostics))


def _id_problem(annotated: Annotated, named: dict[str, Annotated]) -> Diagnostic | None:
    node = annotated.node
    assert node.id is not None
    if not is_identifier(node.id):
        return _at(annotated, f"`{node.id}` is not an identifier", "an id is letters, digits and underscores")
    if node.id in named:
        return _at(
            annotated,
            f"`{node.id}` names two tables or sequences",
            f"it first names the one at {named[node.id].node.attributes_span}",
        )
    named[node.id] = annotated
    return None


def _read_table(
    annotated: Annotated, node: Table, rows: dict[str, list[Any]], tables: dict[str, str]
) -> list[Diagnostic]:
    kind = cast("str", node.kind)
    if kind not in DATA_TABLES:
        return [_wrong_kind(annotated, kind, DATA_TABLES, SEQUENCE_KINDS, "table")]
    table = DATA_TABLES[kind]
    if node.roll is not None:
        return [_at(annotated, f"a `{kind}` table is read as data, not rolled on", "remove `roll`, or `kind`")]
    if table.named and node.id is None:
        return [_at(annotated, f"a `{kind}` table needs an `id`", "give it the id its army declaration names it by")]
    try:
        rows[node.id or kind] = table.read(node)
    except UnreadableTable as error:
        return [_at(annotated, str(error), f"a `{kind}` table holds {table.holds}", target=node.id or kind, rows=True)]
    if node.id is not None:
        tables[node.id] = kind
    return []


def _wrong_kind(
    annotated: Annotated, kind: str, known: Mapping[str, Any], other: Mapping[str, Any], what: str
) -> Diagnostic:
    if kind in other:
        other_what = "sequence" if what == "table" else "table"
        return _at(
            annotated,
            f"`{kind}` is a kind of {other_what}, not of {what}",
            f"a {what} is one of: " + ", ".join(f"`{k}`" for k in known),
            target=kind,
        )
    descriptions = {name: getattr(entry, "holds", entry) for name, entry in known.items()}
    node = annotated.node
    return unknown_kind(what, node.id or kind, kind, descriptions, node.attributes_span, annotated.section_id)


def _at(annotated: Annotated, message: str, help: str, *, target: str | None = None, rows: bool = False) -> Diagnostic:
    """A finding on a table's or sequence's attributes, where they are written (``rows``: on what it holds, at it)."""
    node = annotated.node
    span = node.span if rows else node.attributes_span
    return INVALID_ANNOTATION.diagnostic(
        message, span, target=target or node.id or node.kind, help=help, section_id=annotated.section_id
    )


# -- readers: each turns one kind of table into data, or says why it cannot -------


def read_profile(table: Table) -> list[ProfileRow]:
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


def read_categories(table: Table) -> list[Category]:
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
    # `at least 150%`, or 25% and 80%: the engine found every army illegal, and the lint said nothing. Only the rows
    # of one category each are added up: a row of two (`Core + Special: at least 80%`) overlaps theirs
    singles = [category for category in categories if len(category["terms"]) == 1]
    least = sum(category["min_percent"] or 0 for category in singles)
    if least > 100 or any((category["min_percent"] or 0) > 100 for category in categories):
        shares = max(least, *((category["min_percent"] or 0) for category in categories))
        raise UnreadableTable(
            f"the categories' least shares of the points come to {shares}%: no army can have them all (write "
            "shares that add up to at most 100%)"
        )
    return categories


def read_duplicate_limits(table: Table) -> list[DuplicateLimit]:
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


PROFILE = DataTable("profile", "rows of abbreviation, characteristic term and its definition", read_profile)
CATEGORIES = DataTable(
    "categories",
    "rows of category, point limit (at least / max N%) and duplicate limit (max N)",
    read_categories,
    named=True,
)
DUPLICATE_LIMITS = DataTable(
    "duplicate-limits",
    "rows of category and its duplicate limit (max N, half, double)",
    read_duplicate_limits,
    named=True,
)
DATA_TABLES: dict[str, DataTable[Any]] = {table.kind: table for table in (PROFILE, CATEGORIES, DUPLICATE_LIMITS)}
"""Every kind of data table the compiler reads, by kind."""


def _three_cells(row: Row) -> tuple[Cell, Cell, Cell]:
    if len(row.cells) != 3:
        raise UnreadableTable("each row needs a category, a point limit and a duplicate limit")
    return row.cells[0], row.cells[1], row.cells[2]


def _terms(cell: Cell) -> list[str]:
    names = [node.name for node in cell.children if isinstance(node, Reference)]
    if not names:
        spelt = spelling_of(cell.source.path).reference.format(name="name")
        raise UnreadableTable(f"`{plain_text(cell.children)}` names no term: refer to it with `{spelt}`")
    return names


def _percent_limit(text: str) -> tuple[int | None, int | None]:
    """(at least, at most) percent of the points."""
    if text.strip() in _NONE:
        return None, None
    match = _PERCENT.match(text.strip())
    if match is None:
        raise UnreadableTable(f"cannot read the point limit `{text}` (write `at least 25%` or `max 35%`)")
    n = _limit_number(match.group("n"), text)
    return (n, None) if match.group("kind").lower() == "at least" else (None, n)


def _count_limit(text: str, *, allow_none: bool = False) -> int | None:
    if allow_none and text.strip() in _NONE:
        return None
    match = _MAX.match(text.strip())
    if match is None:
        raise UnreadableTable(f"cannot read the limit `{text}` (write `max 3`)")
    return _limit_number(match.group("n"), text)


def _limit_number(digits: str, text: str) -> int:
    """A limit's ASCII digits as a number, within :data:`MAX_VALUE` (5,000 digits were an internal error)."""
    number = bounded_number(digits)
    if number is None:
        raise UnreadableTable(f"the limit {quoted(text)} is past {MAX_VALUE:,}")
    return number


# -- the rule data they make ----------------------------------------------------------


def characteristics_data(facts: Facts) -> Characteristics:
    """The profile with the characteristics' range: the first ``minimum`` and ``maximum`` values declared."""
    low, high = _first(facts, "minimum"), _first(facts, "maximum")
    profile: list[Characteristic] = [{**row, "min": low, "max": high} for row in facts.profile]
    return {"min": low, "max": high, "profile": profile}


def _first(facts: Facts, kind: str) -> int | None:
    return next((entry["value"] for entry in facts.values.values() if entry["kind"] == kind), None)


def army_composition_data(
    facts: Facts, army: ArmyDeclaration | None, sizes: Sequence[VariantDeclaration], rules: ArmyRules
) -> ArmyComposition:
    """The army's composition: the standard army's declaration and each army size's, with the numbers and the
    rows they name."""
    return {
        "term": army["term"] if army else None,
        "section": army["section"] if army else None,
        "points_below_limit": _value(facts, army["below_limit"] if army else None),
        "least_entries": _value(facts, army["least_entries"] if army else None),
        "not_counted": army["not_counted"] if army else [],
        "categories": facts.rows_of(army["categories"] if army else None),
        "variants": [_variant(facts, size) for size in sizes],
        "rules": rules,
    }


def _variant(facts: Facts, size: VariantDeclaration) -> Variant:
    return {
        "id": size["term"],
        "term": size["term"],
        "section": size["section"],
        "max_points": _value(facts, size["most_points"]),
        "min_points": _value(facts, size["least_points"]),
        "least_entries": _value(facts, size["least_entries"]),
        "duplicate_limits": facts.rows_of(size["limits"]),
    }


def _value(facts: Facts, name: str | None) -> int | None:
    entry = facts.values.get(name) if name is not None else None
    return entry["value"] if entry is not None else None
