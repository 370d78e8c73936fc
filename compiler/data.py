"""The compiled rulebook as data: ``rules.json``, for the engine, other tools and the site.

``build_rule_data`` is pure: model, term graph and mechanics in, a JSON-ready
dict out, with every list in a stable order. ``serialise`` gives the bytes
(sorted keys, so a rebuild is byte-identical). The schema is
``compiler/schema/rules.schema.json``.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from typing import Any

from compiler.facts import RuleFacts, collect_rule_facts
from compiler.graph import TermGraph
from compiler.mechanics import RollTable, Sequence, sequences
from compiler.model import (
    Book,
    Cell,
    Content,
    Definition,
    Figure,
    Illustration,
    Important,
    Item,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Note,
    Reference,
    Row,
    Section,
    Table,
    Value,
    plain_text,
)
from compiler.names import is_identifier, plain_words
from compiler.reading_order import reading_order

FORMAT_VERSION = 1
Json = dict[str, Any]


def build_rule_data(book: Book, terms: TermGraph, *, title: str, edition: str, language: str = "en") -> Json:
    """The whole rule data (``rules.json``)."""
    order, read_first = reading_order(terms)
    return {
        "format_version": FORMAT_VERSION,
        "book": _book(book, title, edition, language),
        "terms": _terms(terms, read_first),
        "sections": [_section_tree(s, terms) for d in book.documents for s in d.body],
        "figures": [_figure(f, terms) for f in book.figures],
        "link_targets": _link_targets(terms),
        **_mechanics(book, terms),
        "reading_order": order,
    }


def build_site_summary(book: Book, terms: TermGraph, *, title: str, edition: str, language: str = "en") -> Json:
    """The part of the rule data the site's pages show, made the same way (and much faster)."""
    return {
        "book": _book(book, title, edition, language),
        "terms": {name: _term_summary(name, terms) for name in _term_names(terms)},
        **_mechanics(book, terms),
    }


def _book(book: Book, title: str, edition: str, language: str) -> Json:
    return {
        "title": title,
        "edition": edition,
        "language": language,
        "sources": [
            {"path": d.path, "sha256": hashlib.sha256(d.body[0].source.text.encode("utf-8")).hexdigest()}
            for d in book.documents
            if d.body
        ],
    }


def _mechanics(book: Book, terms: TermGraph) -> Json:
    facts: RuleFacts = collect_rule_facts(book, terms)
    titles = _titles(book)
    return {
        "mechanics": facts.mechanics,
        "roll_tables": [_roll_table(t) for t in facts.roll_tables],
        "sequences": [_sequence(s, terms, titles) for s in sequences(book)],
        "game": facts.game,
        "characteristics": facts.characteristics,
        "army_composition": facts.army_composition,
    }


_HASH_PLACEHOLDER = "sha256:" + "0" * 64


def serialise(data: Json) -> str:
    """Deterministic JSON text; ``book.content_hash`` is the SHA-256 of the text with the hash zeroed."""
    data["book"]["content_hash"] = _HASH_PLACEHOLDER
    text = json.dumps(data, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
    digest = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    data["book"]["content_hash"] = digest
    return text.replace(f'"content_hash": "{_HASH_PLACEHOLDER}"', f'"content_hash": "{digest}"', 1)


# -- terms -------------------------------------------------------------------


def _term_names(terms: TermGraph) -> list[str]:
    # Empty and invalid names are lint errors, and not terms: they stay out of the data.
    return sorted(n for n in set(terms.defined_terms()) | set(terms.referenced_names()) if is_identifier(n))


def _terms(terms: TermGraph, read_first: dict[str, list[str]]) -> Json:
    return {name: _term(name, terms, read_first.get(name, [])) for name in _term_names(terms)}


def _term_summary(name: str, terms: TermGraph) -> Json:
    definition = terms.definition(name)
    entry: Json = {"name": _display_name(name, _forms(terms.references_to(name))), "defined": definition is not None}
    if definition is not None:
        entry["definition"] = {"text": definition.plain_text()}
    return entry


def _forms(references: tuple[Reference, ...]) -> Counter[str]:
    return Counter(" ".join(r.text.split()) for r in references if r.text.strip())


def _term(name: str, terms: TermGraph, read_first: list[str]) -> Json:
    definition = terms.definition(name)
    references = terms.references_to(name)
    forms = _forms(references)
    entry: Json = {
        "id": name,
        "name": _display_name(name, forms),
        "surface_forms": sorted(forms),
        "defined": definition is not None,
        "dangling": definition is None,
        "unused": definition is not None and not any(r.definition != name for r in references),
        "uses": terms.terms_used_by(name),
        "used_by_terms": terms.terms_using(name),
        "used_in_sections": terms.sections_using(name),
        "read_first": read_first,
        "reference_count": len(references),
        "translations": {},
    }
    if definition is not None:
        entry["definition"] = {"text": definition.plain_text(), "content": content_json(definition.children)}
        entry["defined_at"] = _place(definition, terms)
        entry["parent"] = definition.parent
        entry["nested"] = sorted({d.name for d in _nested(definition.children)})
    return entry


def _display_name(name: str, forms: Counter[str]) -> str:
    """The most common capitalised display form (``Line of Sight``), else the name in title case."""
    capitalised = [(count, form) for form, count in forms.items() if form[:1].isupper()]
    if capitalised:
        return max(capitalised, key=lambda pair: (pair[0], -len(pair[1]), pair[1]))[1]
    return name.replace("_", " ").capitalize()


def _nested(content: Content) -> list[Definition]:
    found = []
    for node in content:
        if isinstance(node, Definition):
            found.append(node)
    return found


def _place(definition: Definition, terms: TermGraph) -> Json:
    span = definition.span
    path = section_path(terms, definition.section_id)
    return {
        "file": span.path,
        "line": span.line,
        "column": span.column,
        "section": definition.section_id,
        "section_path": path,
        "anchor": term_anchor(definition.name, path[0] if path else definition.section_id),
    }


def section_path(terms: TermGraph, section_id: str) -> list[str]:
    """Section ids from the chapter down to ``section_id``."""
    return [section.id for section in terms.section_chain(section_id)]


def section_anchor(section_id: str, chapter_id: str) -> str:
    """Where a section is on the site: its chapter's page, at its id."""
    return f"{chapter_id}/#{section_id}"


def term_anchor(name: str, chapter_id: str) -> str:
    return f"{chapter_id}/#term-{name}"


# -- structure -----------------------------------------------------------------


def _section_tree(section: Section, terms: TermGraph) -> Json:
    chapter = section_path(terms, section.id)[0]
    return {
        "id": section.id,
        "title": section.title,
        "level": section.level,
        "linkable": section.explicit_id,
        "anchor": section_anchor(section.id, chapter),
        "defines": terms.terms_defined_in(section.id),
        "children": [_section_tree(child, terms) for child in section.children if isinstance(child, Section)],
    }


def _link_targets(terms: TermGraph) -> Json:
    """Every id a ``<link to>`` may name, resolved to its kind, title and site anchor."""
    targets = {}
    for target_id, found in terms.all_ids().items():
        if not is_identifier(target_id):
            continue
        target = found[0]
        section_id = target_id if target.kind == "section" else _figure_section(terms, target_id)
        chapter = section_path(terms, section_id)[0] if section_id else target_id
        targets[target_id] = {"kind": target.kind, "title": target.title, "anchor": section_anchor(target_id, chapter)}
    return targets


def _figure_section(terms: TermGraph, figure_id: str) -> str | None:
    return next((f.section_id for f in terms.book.figures if f.id == figure_id), None)


def _figure(figure: Figure, terms: TermGraph) -> Json:
    chapter = section_path(terms, figure.section_id)[0]
    return {
        "id": figure.id,
        "title": figure.caption_title,
        "caption": content_json(figure.caption),
        "images": [image.file for image in figure.images],
        "section": figure.section_id,
        "anchor": section_anchor(figure.id, chapter),
    }


def _roll_table(table: RollTable) -> Json:
    return {
        "id": table.id,
        "die": table.dice.notation,
        "dice": {"count": table.dice.count, "sides": table.dice.sides},
        "section": table.section_id,
        "form": table.form,
        "bands": [
            {"min": b.low, "max": b.high, "result": b.result, "term": b.term}
            for b in sorted(table.bands, key=lambda b: b.low)
        ],
    }


def _sequence(sequence: Sequence, terms: TermGraph, titles: dict[str, str]) -> Json:
    return {
        "id": sequence.id,
        "section": sequence.section_id,
        "data": sequence.data,
        "steps": [_step(index, item, terms, titles) for index, item in enumerate(sequence.steps, 1)],
    }


def _titles(book: Book) -> dict[str, str]:
    """Section ids by folded title, for titles of two words or more (a step may name its section)."""
    found: dict[str, str] = {}
    for section in book.sections:
        title = plain_words(section.title)
        if len(title.split()) >= 2:
            found.setdefault(title, section.id)
    return found


def _step(index: int, item: Item, terms: TermGraph, titles: dict[str, str]) -> Json:
    links = [n for n in item.children if isinstance(n, Link)]
    refs = [n for n in item.children if isinstance(n, Reference)]
    target = links[0].to if links else None
    text = plain_text(item.children)
    resolved = bool(target and terms.id_targets(target))
    section = target if resolved else None
    if section is None:
        # A broken link (the lint reports it): the section whose title the step names, if one does.
        folded = f" {plain_words(text)} "
        named = [title for title in titles if f" {title} " in folded]
        section = titles[max(named, key=len)] if named else None
    return {
        "number": index,
        "text": text,
        "section": section,
        "link": target,
        "resolved": resolved,
        "terms": [r.name for r in refs],
    }


# -- content -------------------------------------------------------------------


def content_json(content: Content) -> list[Json]:
    """Inline and block content as typed nodes: references stay links by id, never HTML."""
    nodes: list[Json] = []
    for node in content:
        if isinstance(node, Mechanic):
            continue  # data, not text: published under "mechanics"
        if isinstance(node, str):
            if nodes and nodes[-1]["type"] == "text":
                nodes[-1]["text"] += node
            else:
                nodes.append({"type": "text", "text": node})
        else:
            nodes.append(_node_json(node))
    return nodes


def _node_json(node: object) -> Json:
    if isinstance(node, Reference):
        return {"type": "reference", "term": node.name, "text": node.text, "example": node.kind == "example"}
    if isinstance(node, Link):
        return {"type": "link", "to": node.to, "text": node.text}
    if isinstance(node, Value):
        return {"type": "value", "name": node.name, "text": node.text}
    if isinstance(node, Definition):
        return {"type": "definition", "term": node.name, "children": content_json(node.children)}
    if isinstance(node, Important):
        return {"type": "important", "children": content_json(node.children)}
    if isinstance(node, LineBreak):
        return {"type": "break"}
    if isinstance(node, Note):
        return {"type": "note", "title": node.title, "children": content_json(node.children)}
    if isinstance(node, Table):
        return {
            "type": "table",
            "title": node.title,
            "columns": _row_json(node.columns) if node.columns else None,
            "rows": [_row_json(row) for row in node.rows],
        }
    if isinstance(node, ItemList):
        items = [{"title": i.title, "children": content_json(i.children)} for i in node.items]
        return {"type": "list", "ordered": node.ordered, "items": items}
    if isinstance(node, Figure):
        return {"type": "figure", "id": node.id}
    if isinstance(node, Illustration):
        return {"type": "illustration", "images": [image.file for image in node.images]}
    if isinstance(node, Section):
        return {"type": "section", "id": node.id}
    raise TypeError(f"unknown node {type(node).__name__}")  # pragma: no cover


def _row_json(row: Row) -> list[Json]:
    return [_cell_json(cell) for cell in row.cells]


def _cell_json(cell: Cell) -> Json:
    return {"header": cell.header, "children": content_json(cell.children)}
