"""French (or any language's) names and texts per term, for ``rules.json``."""

from __future__ import annotations

from rulebook.model import Book
from rulebook.translate.align import Pair
from rulebook.translate.terminology import Entry


def term_translations(original: Book, pairs: list[Pair], entries: dict[str, Entry]) -> dict[str, dict[str, str]]:
    """For each term with a terminology entry: its name, and the translated text of the section
    aligned with the one that defines it."""
    aligned = {p.original.id: p.translation.text for p in pairs if p.original and p.translation}
    found: dict[str, dict[str, str]] = {}
    for definition in original.definitions:
        entry = entries.get(definition.name)
        if entry is None or definition.name in found:
            continue
        found[definition.name] = {"name": entry.preferred}
        text = aligned.get(definition.section_id)
        if text:
            found[definition.name]["text"] = text
    return found
