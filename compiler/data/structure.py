"""The book's structure in the rule data: sections, figures, link targets, roll tables and sequences."""

from __future__ import annotations

from rulebook.data.content import content_json
from rulebook.data.shapes import FigureData, LinkTarget, RollTableData, SectionData, SequenceData, StepData
from rulebook.data.terms import section_anchor, section_path
from rulebook.facts.kind import dice_count
from rulebook.graph import TermGraph
from rulebook.mechanics import RollTable, Sequence
from rulebook.model import Book, Figure, Item, Link, Reference, Section, plain_text
from rulebook.names import is_identifier, plain_words


def section_tree(section: Section, terms: TermGraph) -> SectionData:
    chapter = section_path(terms, section.id)[0]
    return {
        "id": section.id,
        "title": section.title,
        "level": section.level,
        "linkable": section.explicit_id,
        "anchor": section_anchor(section.id, chapter),
        "defines": terms.terms_defined_in(section.id),
        "children": [section_tree(child, terms) for child in section.children if isinstance(child, Section)],
    }


def link_targets(terms: TermGraph) -> dict[str, LinkTarget]:
    """Every id a ``<link to>`` may name, resolved to its kind, title and site anchor."""
    targets: dict[str, LinkTarget] = {}
    for target_id, found in terms.all_ids().items():
        if not is_identifier(target_id):
            continue
        target = found[0]
        section_id = target_id if target.kind == "section" else _figure_section(terms, target_id)
        chapter = section_path(terms, section_id)[0] if section_id else target_id
        targets[target_id] = {
            "kind": "section" if target.kind == "section" else "figure",
            "title": target.title,
            "anchor": section_anchor(target_id, chapter),
        }
    return targets


def _figure_section(terms: TermGraph, figure_id: str) -> str | None:
    return next((f.section_id for f in terms.book.figures if f.id == figure_id), None)


def figure_data(figure: Figure, terms: TermGraph) -> FigureData:
    chapter = section_path(terms, figure.section_id)[0]
    return {
        "id": figure.id,
        "title": figure.caption_title,
        "caption": content_json(figure.caption),
        "images": [image.file for image in figure.images],
        "section": figure.section_id,
        "anchor": section_anchor(figure.id, chapter),
    }


def roll_table_data(table: RollTable) -> RollTableData:
    return {
        "id": table.id,
        "title": table.title,
        "die": table.dice.notation,
        "dice": dice_count(table.dice),
        "section": table.section_id,
        "form": table.form,
        "bands": [
            {"min": b.low, "max": b.high, "result": b.result, "term": b.term}
            for b in sorted(table.bands, key=lambda b: b.low)
        ],
    }


def sequence_data(sequence: Sequence, terms: TermGraph, titles: dict[str, str]) -> SequenceData:
    return {
        "id": sequence.id,
        "title": sequence.title,
        "section": sequence.section_id,
        "kind": "turn" if sequence.kind == "turn" else "setup" if sequence.kind == "setup" else None,
        "steps": [_step(index, item, terms, titles) for index, item in enumerate(sequence.steps, 1)],
    }


def section_titles(book: Book) -> dict[str, str]:
    """Section ids by folded title, without its number (a step may name its section: by its own title, or in its
    text, a title of two words or more)."""
    found: dict[str, str] = {}
    for section in book.sections:
        found.setdefault(plain_words(section.title), section.id)
    return found


def _step(index: int, item: Item, terms: TermGraph, titles: dict[str, str]) -> StepData:
    links = [n for n in item.children if isinstance(n, Link)]
    refs = [n for n in item.children if isinstance(n, Reference)]
    target = links[0].to if links else None
    text = plain_text(item.children)
    resolved = bool(target and terms.id_targets(target))
    section = target if resolved else None
    if section is None and item.title:
        # No link, or a broken one (the lint reports it): a step titled as a section is that section's
        section = titles.get(plain_words(item.title))
    if section is None:
        # else the section whose title (two words or more: one word is too often a word of the text) it names
        folded = f" {plain_words(text)} "
        named = [title for title in titles if len(title.split()) >= 2 and f" {title} " in folded]
        section = titles[max(named, key=len)] if named else None
    return {
        "number": index,
        "title": item.title,
        "text": text,
        "section": section,
        "link": target,
        "resolved": resolved,
        "terms": [r.name for r in refs],
    }
