"""What a translation says for each of the original's definitions: the text aligned with the definition itself.

A definition is a few sentences of a section, or a cell of a table. Its translation is the translated
sentences the sentence alignment pairs with the definition's own (not the aligned section's first
sentence: a section defines several terms), or the translated table's cell in the matched row and the
same column (a profile's "The movement speed of the model, in inches." is the French row's third cell,
whatever the rows' order). A definition the alignment gives nothing for has no translated text.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from rulebook.languages.data import Language, as_language
from rulebook.model import Book, Content, Definition, Important, Item, ItemList, Note, Table, plain_text
from rulebook.translate.align import book_language
from rulebook.translate.results import AlignedText, Comparison
from rulebook.translate.tables import match_rows
from rulebook.translate.terminology import Entry, TermMatcher


@dataclass(frozen=True, slots=True)
class TranslatedDefinition:
    """The translation's text of one of the original's definitions, and where it stands."""

    text: str
    path: str
    """The translation's file."""
    offset: int
    """Where its first sentence (or its table row) starts in that file."""


OPENING = 40
"""How much of a definition's text identifies the sentence it starts in (a definition may start mid-sentence)."""


def translated_definitions(
    original: Book,
    comparison: Comparison,
    entries: dict[str, Entry],
    language: Language | str,
    translation: Book | None = None,
) -> dict[str, TranslatedDefinition]:
    """For each term the original defines and the alignment translates: the translation's text of its definition
    (``language``: the translation's, or its code for the shipped one: a table's rows are matched by its numbers).

    A translation that defines the term itself (``translation``, the translation read: the dialect's ``::: definition``
    or ``{dfn=term}``) says where: its own definition is the text, whatever the alignment pairs."""
    matcher = TermMatcher(entries)
    compared = comparison.languages[0] if comparison.languages else as_language(book_language(original))
    languages = (compared, as_language(language))
    defined = {d.name for d in original.definitions}
    found: dict[str, TranslatedDefinition] = {}
    for own in translation.definitions if translation is not None else ():
        if own.name in defined and own.name not in found and (said := " ".join(own.plain_text().split())):
            found[own.name] = TranslatedDefinition(said, own.source.path, own.offset)
    for text in comparison.texts:
        unit = comparison.pairs[text.pair].original
        if unit is None:
            continue
        for definition, cell in _definitions(unit.content):
            if definition.name in found or definition.name not in defined:
                continue
            translated = _in_table(cell, text, matcher, languages) if cell else _in_sentences(definition, text)
            if translated is not None:
                found[definition.name] = translated
    return found


Cell = tuple[Table, int, int]
"""A table, and the row and column of the cell holding a definition."""


def _definitions(content: Content, cell: Cell | None = None) -> Iterator[tuple[Definition, Cell | None]]:
    """Every definition in some content, nested ones too, with the table cell it stands in (if any)."""
    for node in content:
        if isinstance(node, Definition):
            yield node, cell
            yield from _definitions(node.children, cell)
        elif isinstance(node, Note | Important | Item):
            yield from _definitions(node.children, cell)
        elif isinstance(node, ItemList):
            for item in node.items:
                yield from _definitions(item.children, cell)
        elif isinstance(node, Table):
            for row_index, row in enumerate(node.rows):
                for column, each in enumerate(row.cells):
                    yield from _definitions(each.children, (node, row_index, column))


def _in_sentences(definition: Definition, text: AlignedText) -> TranslatedDefinition | None:
    """The translated sentences aligned with those of the definition, in order."""
    words = " ".join(definition.plain_text().split())
    if not words:
        return None
    opening = words[:OPENING]
    own = {
        index
        for index, sentence in enumerate(text.original)
        if (said := " ".join(sentence.text.split())) and (said in words or opening in said)
    }
    translated = [
        text.translation[t] for t in sorted({t for b in text.beads if own & set(b.original) for t in b.translation})
    ]
    if not translated or translated[0].source is None:
        return None
    said = " ".join(" ".join(sentence.text.split()) for sentence in translated)
    return TranslatedDefinition(said, translated[0].source.path, translated[0].offset)


def _in_table(
    cell: Cell, text: AlignedText, matcher: TermMatcher, languages: tuple[Language, Language]
) -> TranslatedDefinition | None:
    """The translated table's cell in the row matched with the definition's and the same column."""
    table, row, column = cell
    for left, right in text.tables:
        if left is not table or right is None:
            continue
        rows = match_rows(left, right, matcher, languages)
        cells = right.rows[rows[row]].cells if row in rows else ()
        if column >= len(cells) or not (said := plain_text(cells[column].children)):
            return None
        return TranslatedDefinition(said, cells[column].source.path, cells[column].offset)
    return None
