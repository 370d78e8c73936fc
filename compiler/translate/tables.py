"""Tables of an aligned pair of sections, compared row by row, rows matched by their key.

A translation may reorder a table's rows (the French profile starts with *Cd*), drop one, or
change a value. Rows are matched by key rather than position: the terms the original's key cells
refer to, found in the translated key through the terminology (*Core* is *Base*), else the same
key text ("M", "0-X"), else the same key numbers ("1-3" and "1 à 3"); tables whose keys match
nothing are read in order when they have as many rows. Each matched row's other cells must state
the same numbers.
"""

from __future__ import annotations

from dataclasses import dataclass

from compiler.model import Content, Definition, Important, Note, Reference, Row, Section, Table, plain_text
from compiler.translate.numbers import numbers
from compiler.translate.terminology import Entry, contains, fold

KEY_CELLS = 2
"""A row's key: its first cells (a profile row is "M | Movement | ...")."""


@dataclass(frozen=True, slots=True)
class RowFinding:
    message: str
    details: dict[str, object]


def own_tables(section: Section) -> list[Table]:
    """The tables in a section's own text (not its subsections'), in order."""
    found: list[Table] = []

    def walk(content: Content) -> None:
        for node in content:
            if isinstance(node, Table):
                found.append(node)
            elif isinstance(node, Note | Definition | Important):
                walk(node.children)

    walk(section.children)
    return found


def compare_tables(
    original: list[Table], translation: list[Table], entries: dict[str, Entry], language: str
) -> list[RowFinding]:
    """Rows missing from the translation's tables, and matched rows whose numbers differ."""
    findings: list[RowFinding] = []
    remaining = list(translation)
    for table in original:
        if not remaining or not table.rows:
            continue
        candidates = [_match_rows(table, other, entries) for other in remaining]
        index = max(range(len(candidates)), key=lambda i: (len(candidates[i]), -i))
        other, matches = remaining.pop(index), candidates[index]
        best = len(matches)
        if not best and len(table.rows) == len(other.rows):
            matches = dict(enumerate(range(len(other.rows))))
        elif not best:
            continue  # no row in common: not the same table
        for row_index, row in enumerate(table.rows):
            key = _key_text(row)
            if row_index not in matches:
                findings.append(RowFinding(f"row `{key}` is missing from the translation's table", {"row": key}))
                continue
            translated = other.rows[matches[row_index]]
            left = numbers(_value_text(row), "en")
            right = numbers(_value_text(translated), language)
            if left != right:
                only_original, only_translation = sorted((left - right).elements()), sorted((right - left).elements())
                says = [f"the original says {', '.join(only_original)}"] if only_original else []
                says += [f"the translation says {', '.join(only_translation)}"] if only_translation else []
                details: dict[str, object] = {
                    "row": key,
                    "translated_row": _key_text(translated),
                    "original_values": only_original,
                    "translation_values": only_translation,
                }
                findings.append(RowFinding(f"row `{key}` / `{_key_text(translated)}`: {'; '.join(says)}", details))
    return findings


def _match_rows(original: Table, translation: Table, entries: dict[str, Entry]) -> dict[int, int]:
    """Original row index -> translated row index, each row used once."""
    matches: dict[int, int] = {}
    used: set[int] = set()
    key_words = [fold(" ".join(_cells(row)[:KEY_CELLS])) for row in translation.rows]
    keys = [fold(_key_text(row)) for row in translation.rows]
    key_numbers = [numbers(_key_text(row), "fr") for row in translation.rows]
    for index, row in enumerate(original.rows):
        terms = _key_terms(row)
        text = fold(_key_text(row))
        first = numbers(_key_text(row), "en")
        for candidate, words in enumerate(key_words):
            if candidate in used:
                continue
            by_term = any(_rendered(entries.get(term), words) for term in terms)
            by_text = bool(text) and keys[candidate] == text
            by_number = bool(first) and first == key_numbers[candidate]
            if by_term or by_text or by_number:
                matches[index] = candidate
                used.add(candidate)
                break
    return matches


def _rendered(entry: Entry | None, words: list[str]) -> bool:
    return entry is not None and any(contains(words, form) for form in (entry.preferred, *entry.accepted))


def _cells(row: Row) -> list[str]:
    return [plain_text(cell.children) for cell in row.cells]


def _key_text(row: Row) -> str:
    return " ".join(_cells(row)[:1])


def _value_text(row: Row) -> str:
    return " ".join(_cells(row)[1:])


def _key_terms(row: Row) -> list[str]:
    found: list[str] = []

    def walk(content: Content) -> None:
        for node in content:
            if isinstance(node, Reference | Definition):
                found.append(node.name)
            if isinstance(node, Definition | Important):
                walk(node.children)

    for cell in row.cells[:KEY_CELLS]:
        walk(cell.children)
    return found
