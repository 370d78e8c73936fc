"""``rules.json``: the whole rule data, the site's summary of it, and its one serialisation.

``build_rule_data`` is pure: model, term graph, annotations and translations in, a
:class:`~rulebook.data.shapes.RuleData` out, with every list in a stable order; nothing
is added afterwards. ``serialise`` gives the text (sorted keys, so a rebuild is
byte-identical) and modifies nothing. The schema is ``compiler/schema/rules.schema.json``.
"""

from __future__ import annotations

import hashlib
import json
from typing import Literal

from rulebook.data.outside import Outside
from rulebook.data.shapes import BookInfo, RuleData, RuleParts, SiteSummary
from rulebook.data.structure import (
    figure_data,
    link_targets,
    roll_table_data,
    section_titles,
    section_tree,
    sequence_data,
)
from rulebook.data.terms import Translations, term_data, term_names, term_summary
from rulebook.facts import RuleFacts, collect_rule_facts
from rulebook.graph import TermGraph
from rulebook.mechanics import sequences
from rulebook.model import Book
from rulebook.reading_order import reading_order

FORMAT_VERSION: Literal[1] = 1
CONTENT_HASH_PLACEHOLDER = "sha256:" + "0" * 64
"""``book.content_hash`` until ``serialise`` writes the digest of the text into the text."""


def build_rule_data(
    book: Book,
    terms: TermGraph,
    *,
    title: str,
    edition: str,
    language: str = "en",
    translations: Translations | None = None,
    facts: RuleFacts | None = None,
    outside: Outside | None = None,
) -> RuleData:
    """The whole rule data (``rules.json``).

    ``translations``: per term id, per language, the translated name and text;
    ``facts``: the book's annotations if the recipe read them already (:func:`collect_rule_facts`);
    ``outside``: where the names it takes from the books it uses lead (:func:`~rulebook.data.outside.outside_of`).
    """
    order, read_first = reading_order(terms)
    translated = translations or {}
    outside = outside or Outside()
    names = term_names(terms, outside.terms)
    return {
        "format_version": FORMAT_VERSION,
        "book": {**_book(book, title, edition, language), "content_hash": CONTENT_HASH_PLACEHOLDER},
        "terms": {
            name: term_data(name, terms, read_first.get(name, []), translated, name in outside.used_elsewhere)
            for name in names
        },
        "sections": [section_tree(s, terms) for d in book.documents for s in d.body],
        "figures": [figure_data(f, terms) for f in book.figures],
        "link_targets": link_targets(terms),
        **_rule_parts(book, terms, facts or collect_rule_facts(book, terms)),
        "reading_order": order,
        "books_used": outside.books_used,
        "outside_terms": outside.terms,
        "outside_targets": outside.targets,
    }


def build_site_summary(
    book: Book,
    terms: TermGraph,
    *,
    title: str,
    edition: str,
    language: str = "en",
    facts: RuleFacts | None = None,
    outside: Outside | None = None,
) -> SiteSummary:
    """The part of the rule data the site's pages show, made by the same builders (and much faster)."""
    return {
        "book": _book(book, title, edition, language),
        "terms": {name: term_summary(name, terms) for name in term_names(terms, (outside or Outside()).terms)},
        **_rule_parts(book, terms, facts or collect_rule_facts(book, terms)),
    }


def serialise(data: RuleData) -> str:
    """Deterministic JSON text; its ``book.content_hash`` is the SHA-256 of the text with the hash zeroed."""
    zeroed: RuleData = {**data, "book": {**data["book"], "content_hash": CONTENT_HASH_PLACEHOLDER}}
    text = json.dumps(zeroed, sort_keys=True, ensure_ascii=False, indent=1) + "\n"
    digest = "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()
    return text.replace(f'"content_hash": "{CONTENT_HASH_PLACEHOLDER}"', f'"content_hash": "{digest}"', 1)


def _book(book: Book, title: str, edition: str, language: str) -> BookInfo:
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


def _rule_parts(book: Book, terms: TermGraph, facts: RuleFacts) -> RuleParts:
    titles = section_titles(book)
    return {
        "mechanics": facts.mechanics,
        "roll_tables": [roll_table_data(t) for t in facts.roll_tables],
        "sequences": [sequence_data(s, terms, titles) for s in sequences(book)],
        "values": facts.values,
        "characteristics": facts.characteristics,
        "army_composition": facts.army_composition,
    }
