"""Tables of an aligned pair of units, compared row by row, rows matched by their key.

Tables are found wherever they stand: in the unit's text, notes, definitions and list items. A
translation may reorder a table's rows (the French profile starts with *Cd*), drop one, or change a
value. Rows are matched by key rather than position: the terms the original's key cells refer to,
found in the translated key through the terminology (*Core* is *Base*), or the same key text
("M", "0-X"), or the same key numbers ("1-3" and "1 à 3"), the first cell's own key before a term: a
roll table's row "1-2" is the translation's "1-2", whatever result it names; tables whose keys match nothing are
read in order when they have as many rows. Each matched row's other cells must state the same
values (:mod:`rulebook.languages.quantities`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from rulebook.languages.data import Language
from rulebook.languages.quantities import quantities
from rulebook.model import (
    Content,
    Definition,
    Important,
    ItemList,
    Node,
    Note,
    Reference,
    Row,
    Table,
    plain_text,
    walk,
)
from rulebook.translate.terminology import TermMatcher

KEY_CELLS = 2
"""A row's key: its first cells (a profile row is "M | Movement | ...")."""


@dataclass(frozen=True, slots=True)
class RowFinding:
    """A row missing from the translated table, or a matched row whose values differ."""

    original: Row
    translation: Row | None
    """The matched row, or None when the translated table lacks it (then ``table`` holds its place)."""
    table: Table
    """The translated table."""
    key: str
    only_original: tuple[str, ...] = ()
    """Values only the original's row states."""
    only_translation: tuple[str, ...] = ()

    @property
    def message(self) -> str:
        """The finding's message, names in backticks."""
        if self.translation is None:
            return f"row `{self.key}` is missing from the translation's table"
        says = [f"the original says {', '.join(self.only_original)}"] if self.only_original else []
        says += [f"the translation says {', '.join(self.only_translation)}"] if self.only_translation else []
        return f"row `{self.key}` / `{key_text(self.translation)}`: {'; '.join(says)}"


@dataclass(frozen=True, slots=True)
class TableComparison:
    """The tables of a pair compared: the rows that differ, and which tables were matched."""

    findings: tuple[RowFinding, ...]
    matched: tuple[tuple[Table, Table], ...]
    """The tables compared row by row (original, translation): their rows are not read as sentences."""


def tables_in(content: Content) -> list[Table]:
    """The tables in some content, wherever they stand (notes, definitions, list items), in order."""
    return [node for node in walk(content, into=_holds_tables) if isinstance(node, Table)]


def _holds_tables(node: Node) -> bool:
    return isinstance(node, Note | Definition | Important | ItemList)


def compare_tables(
    original: list[Table], translation: list[Table], matcher: TermMatcher, languages: tuple[Language, Language]
) -> TableComparison:
    """Rows missing from the translation's tables, and matched rows whose values differ."""
    findings: list[RowFinding] = []
    matched: list[tuple[Table, Table]] = []
    remaining = list(translation)
    for table in original:
        if not remaining or not table.rows:
            continue
        candidates = [match_rows(table, other, matcher, languages) for other in remaining]
        index = max(range(len(candidates)), key=lambda i: (len(candidates[i]), -i))
        other, matches = remaining.pop(index), candidates[index]
        if not matches and len(table.rows) == len(other.rows):
            matches = dict(enumerate(range(len(other.rows))))
        elif not matches:
            remaining.insert(index, other)
            continue  # no row in common: not the same table
        matched.append((table, other))
        for row_index, row in enumerate(table.rows):
            if row_index not in matches:
                findings.append(RowFinding(row, None, other, key_text(row)))
                continue
            translated = other.rows[matches[row_index]]
            left, right = _values(_value_text(row), languages[0]), _values(_value_text(translated), languages[1])
            if left != right:
                only_original, only_translation = sorted((left - right).elements()), sorted((right - left).elements())
                findings.append(
                    RowFinding(row, translated, other, key_text(row), tuple(only_original), tuple(only_translation))
                )
    return TableComparison(tuple(findings), tuple(matched))


def _values(text: str, language: Language) -> Counter[str]:
    return Counter(q.shown for q in quantities(text, language))


def match_rows(
    original: Table, translation: Table, matcher: TermMatcher, languages: tuple[Language, Language]
) -> dict[int, int]:
    """Original row index -> translated row index, each row used once."""
    matches: dict[int, int] = {}
    used: set[int] = set()
    key_terms = [matcher.terms(" ".join(_cells(row)[:KEY_CELLS])) for row in translation.rows]
    keys = [languages[1].fold(key_text(row)) for row in translation.rows]
    key_numbers = [_values(key_text(row), languages[1]) for row in translation.rows]
    for index, row in enumerate(original.rows):
        terms = set(_key_terms(row))
        text = languages[1].fold(key_text(row))
        first = _values(key_text(row), languages[0])
        by_key = [  # the row's own key (a roll's band "1-2", "M") before a term its other key cell names
            c for c in range(len(translation.rows)) if (text and keys[c] == text) or (first and first == key_numbers[c])
        ]
        by_term = [c for c in range(len(translation.rows)) if terms & key_terms[c]]
        chosen = next((c for c in by_key + by_term if c not in used), None)
        if chosen is not None:
            matches[index] = chosen
            used.add(chosen)
    return matches


def _cells(row: Row) -> list[str]:
    return [plain_text(cell.children) for cell in row.cells]


def key_text(row: Row) -> str:
    """A row's key, as shown: its first cell."""
    return " ".join(_cells(row)[:1])


def _value_text(row: Row) -> str:
    return " ".join(_cells(row)[1:])


def _key_terms(row: Row) -> list[str]:
    return [
        node.name
        for cell in row.cells[:KEY_CELLS]
        for node in walk(cell.children, into=lambda node: isinstance(node, Definition | Important))
        if isinstance(node, Reference | Definition)
    ]
