"""The game's mechanics as data: roll tables and sequences, extracted from the model.

A table, list or sequence annotated ``roll="D6"`` is a roll table. The book
writes them three ways, all normalised to bands ``(min, max, result, term)``:

- range text inside header cells: ``<header>1-3: <reference>Classic</reference></header>``;
- a range header per row: ``<row><header>1-2</header><cell>Hold the Ground</cell></row>``;
- a list or sequence whose position is the roll: item 1 on a 1, item 2 on a 2, ...

A roll table the compiler cannot normalise (a band without a range, bands that
overlap or leave results of the dice uncovered) is a diagnostic, never a silent skip.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from rulebook.catalog.mechanics import INVALID_ROLL_TABLE
from rulebook.diagnostics import Diagnostic
from rulebook.engine.limits import MAX_DICE, MAX_SIDES
from rulebook.model import (
    Book,
    Cell,
    Content,
    Definition,
    Item,
    ItemList,
    Reference,
    Section,
    Table,
    children,
    plain_text,
    unique_id,
)
from rulebook.spelling import spelling_of

_DICE = re.compile(r"(?P<count>[1-9][0-9]{0,6})?D(?P<sides>[1-9][0-9]{0,6})", re.IGNORECASE)
_RANGE = re.compile(r"^\s*(?P<low>[0-9]+)\s*(?:[-–]\s*(?P<high>[0-9]+))?\s*\+?\s*[:.]?\s*")
"""Dice and a band's results in the digits 0 to 9, at most seven of them (:data:`MOST_DIGITS`): far past any die
the engine rolls (``\\d`` would take other scripts' digits, and Python refuses to read a number of more than 4,300
digits)."""
MOST_DIGITS = 7


@dataclass(frozen=True, slots=True)
class Dice:
    """``count`` dice with ``sides`` sides each, added up; a D3 is a D6 halved, rounding up."""

    count: int
    sides: int

    @property
    def notation(self) -> str:
        return f"{'' if self.count == 1 else self.count}D{self.sides}"

    @property
    def lowest(self) -> int:
        return self.count

    @property
    def highest(self) -> int:
        return self.count * self.sides


def parse_dice(text: str) -> Dice | None:
    """``"D6"`` -> Dice(1, 6); ``"2D6"`` -> Dice(2, 6); anything else -> None."""
    match = _DICE.fullmatch(text.strip())
    if match is None:
        return None
    return Dice(int(match.group("count") or 1), int(match.group("sides")))


def beyond_the_engine(dice: Dice) -> str | None:
    """Why the engine cannot roll ``dice`` (more dice, or dice of more sides, than its limits), or None. Checked as
    the book is read: a roll table of ``99D999999`` (150 bytes) held the lint 36 s and 12 GB, listing the results
    no band gives."""
    if dice.count <= MAX_DICE and dice.sides <= MAX_SIDES:
        return None
    return f"`{dice.notation}` is more than the engine rolls: at most {MAX_DICE} dice of at most {MAX_SIDES} sides"


@dataclass(frozen=True, slots=True)
class Band:
    """The results ``low`` to ``high`` (inclusive) give ``result``."""

    low: int
    high: int
    result: str
    term: str | None
    """The term the result names, where the band holds a reference."""


TableForm = Literal["header-ranges", "row-ranges", "positions"]
"""Range text in header cells, a range header per row, or the position of each item."""


@dataclass(frozen=True, slots=True)
class RollTable:
    id: str
    """Stable id: its own ``id``, else the enclosing definition's name, else the section id (suffixed when
    several)."""
    dice: Dice
    bands: tuple[Band, ...]
    section_id: str
    form: TableForm
    """How the book wrote it."""
    node: Table | ItemList

    @property
    def title(self) -> str | None:
        """Its own title, if the book gives one."""
        return self.node.title


@dataclass(frozen=True, slots=True)
class Sequence:
    """Ordered steps (``<sequence>``), with the section or term each step links to."""

    id: str
    """Stable id: its own ``id``, else the enclosing definition's name, else the section id."""
    section_id: str
    steps: tuple[Item, ...]
    kind: str | None = None
    """What the sequence is (``turn``, ``setup``), if declared."""
    title: str | None = None
    """Its own title, if the book gives one."""


def roll_tables(book: Book) -> tuple[list[RollTable], list[Diagnostic]]:
    """Every roll table of a book, normalised, and a diagnostic for each that cannot be."""
    tables: list[RollTable] = []
    problems: list[Diagnostic] = []
    annotated = list(_annotated(book))
    used_ids, counters = {node.id for node, _, _ in annotated if node.id}, dict[str, int]()
    for node, scope, section_id in annotated:
        table_id = node.id or unique_id(scope, used_ids, "_", counters=counters)
        try:
            tables.append(_normalise(node, table_id, section_id))
        except _NotNormalisable as error:
            problems.append(
                INVALID_ROLL_TABLE.diagnostic(
                    str(error),
                    node.attributes_span if error.attributes else node.span,
                    target=table_id,
                    help=error.help,
                    section_id=section_id,
                )
            )
    return tables, problems


def sequences(book: Book) -> list[Sequence]:
    """Every ``<sequence>`` that is not a roll table, with a stable id, in document order."""
    found: list[tuple[ItemList, str, str]] = []
    for section in book.sections:
        for node, scope in walk_blocks(section.children, section.id):
            if isinstance(node, ItemList) and node.ordered and node.roll is None:
                found.append((node, scope, section.id))
    used, counters = {node.id for node, _, _ in found if node.id}, dict[str, int]()
    return [
        Sequence(
            node.id or unique_id(scope, used, "_", counters=counters), section_id, node.items, node.kind, node.title
        )
        for node, scope, section_id in found
    ]


class _NotNormalisable(Exception):
    def __init__(self, message: str, help: str, *, attributes: bool = False) -> None:
        super().__init__(message)
        self.help = help
        self.attributes = attributes
        """Whether the fault is in the table's attributes (``roll``), reported where they are written."""


def _annotated(book: Book) -> Iterator[tuple[Table | ItemList, str, str]]:
    for annotated in book.annotated:
        if annotated.node.roll is not None:
            yield annotated.node, annotated.scope, annotated.section_id


def walk_blocks(content: Content, scope: str) -> Iterator[tuple[object, str]]:
    """Every node under a section (not its subsections), with the innermost definition name as scope."""
    for node in content:
        if isinstance(node, str | Section | Reference):
            continue
        yield node, scope
        inner = node.name if isinstance(node, Definition) else scope
        for part in children(node):
            yield from walk_blocks(part, inner)


def _normalise(node: Table | ItemList, table_id: str, section_id: str) -> RollTable:
    dice = parse_dice(node.roll or "")
    if dice is None:
        written = spelling_of(node.source.path).roll
        raise _NotNormalisable(
            f"`{node.roll}` is not dice notation",
            f"write the dice rolled, such as {written.format(name='D6')} or {written.format(name='2D6')}",
            attributes=True,
        )
    beyond = beyond_the_engine(dice)
    if beyond is not None:
        raise _NotNormalisable(beyond, "roll fewer dice, or dice of fewer sides", attributes=True)
    form: TableForm
    if isinstance(node, ItemList):
        form, bands = "positions", _position_bands(node, dice)
    elif node.columns is not None and any(_ranged_header(plain_text(c.children)) for c in node.columns.cells):
        form, bands = "header-ranges", [_range_band(cell) for cell in node.columns.cells]
    else:
        form, bands = "row-ranges", [_range_band(row.cells[0], row.cells[1:]) for row in node.rows]
    _check_coverage(bands, dice)
    return RollTable(table_id, dice, tuple(sorted(bands, key=lambda b: b.low)), section_id, form, node)


def _ranged_header(text: str) -> bool:
    """Whether a header cell starts with a band's results (``1-3: Classic``); the dice a column is headed by
    (``2D6``) are none."""
    return _RANGE.match(text) is not None and parse_dice(text) is None


def _position_bands(node: ItemList, dice: Dice) -> list[Band]:
    return [
        Band(dice.lowest + index, dice.lowest + index, text, _term(item.children, text))
        for index, item in enumerate(node.items)
        for text in (plain_text(item.children),)
    ]


def _range_band(key: Cell, rest: tuple[Cell, ...] = ()) -> Band:
    text = plain_text(key.children)
    match = _RANGE.match(text)
    if match is None:
        raise _NotNormalisable(
            f"cannot read a roll range in `{text}`", 'start the band with its results, such as "1-3:" or "6"'
        )
    if max(len(match.group("low")), len(match.group("high") or "")) > MOST_DIGITS:
        raise _NotNormalisable(
            f"cannot read a roll range in `{text[:40]}`: its results have more than {MOST_DIGITS} digits",
            "write the results the dice roll",
        )
    low = int(match.group("low"))
    high = int(match.group("high") or low)
    content = key.children if text[match.end() :].strip() else tuple(n for cell in rest for n in cell.children)
    cells = (" ".join(plain_text(cell.children).split()) for cell in rest)
    result = text[match.end() :].strip() or RESULT_CELLS.join(cell for cell in cells if cell)
    return Band(low, high, result, _term(content, result))


RESULT_CELLS = " — "
"""Between the texts of a row's result cells, where a roll table has more than one (``Haze — Lines of sight...``)."""


def _term(content: Content, result: str) -> str | None:
    """The term a band's result is: its content a reference and nothing else that reads (``| 1-2 | [[sprint]] |``);
    a result that only mentions a term (``[[fog|Fog banks]] drift``) is its words."""
    references = [node for node in content if isinstance(node, Reference)]
    if len(references) == 1 and " ".join(references[0].text.split()) == " ".join(result.split()):
        return references[0].name
    return None


def _check_coverage(bands: list[Band], dice: Dice) -> None:
    covered: dict[int, Band] = {}
    for band in bands:
        if band.low > band.high:
            raise _NotNormalisable(f"the band {band.low}-{band.high} runs backwards", "write the lower result first")
        for value in range(band.low, band.high + 1):
            if value in covered:
                raise _NotNormalisable(
                    f"the result {value} is in two bands (`{covered[value].result}` and `{band.result}`)",
                    "give every result of the dice one band",
                )
            covered[value] = band
    missing = [v for v in range(dice.lowest, dice.highest + 1) if v not in covered]
    extra = [v for v in covered if not dice.lowest <= v <= dice.highest]
    if missing or extra:
        detail = f"no band for {', '.join(map(str, missing))}" if missing else f"{extra[0]} cannot be rolled"
        raise _NotNormalisable(
            f"the bands do not match a roll of {dice.notation}: {detail}",
            f"give every result from {dice.lowest} to {dice.highest} exactly one band",
        )
