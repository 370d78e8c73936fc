"""French (or any language's) names and texts per term, for ``rules.json``."""

from __future__ import annotations

from pathlib import Path

from compiler.model import Book
from compiler.translate.align import align_sections
from compiler.translate.terminology import load_terminology


def term_translations(original: Book, translation: Book, terms_file: Path | None) -> dict[str, dict[str, str]]:
    """For each term with a terminology entry: its name, and the translated text of the section
    aligned with the one that defines it."""
    entries = load_terminology(terms_file) if terms_file is not None and terms_file.is_file() else {}
    aligned = {
        p.original.id: p.translation.text for p in align_sections(original, translation) if p.original and p.translation
    }
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
