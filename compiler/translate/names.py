"""French (or any language's) names and texts per term, for ``rules.json``."""

from __future__ import annotations

from rulebook.languages.data import Language
from rulebook.model import Book
from rulebook.translate.definitions import translated_definitions
from rulebook.translate.results import Comparison
from rulebook.translate.terminology import Entry


def term_translations(
    original: Book, comparison: Comparison, entries: dict[str, Entry], language: Language | str, translation: Book
) -> dict[str, dict[str, str]]:
    """For each term with a terminology entry: its name, and the translated text of its definition (the translation's
    own definition of it; else the sentences or table cell aligned with it; else the text of the section aligned with
    the one that defines it)."""
    aligned = {p.original.id: p.translation.text for p in comparison.pairs if p.original and p.translation}
    definitions = translated_definitions(original, comparison, entries, language, translation)
    found: dict[str, dict[str, str]] = {}
    for definition in original.definitions:
        entry = entries.get(definition.name)
        if entry is None or definition.name in found:
            continue
        found[definition.name] = {"name": entry.preferred}
        translated = definitions.get(definition.name)
        text = translated.text if translated else aligned.get(definition.section_id)
        if text:
            found[definition.name]["text"] = text
    return found
