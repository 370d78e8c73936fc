"""Findings from a comparison's aligned texts: each with its place in the translation and its counterpart.

One function per family of checks; each reads the aligned texts (:class:`AlignedText`) and returns
findings, never reports them.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import Any

from compiler.catalog import translation as rules
from compiler.model import Book, Row
from compiler.source import Span
from compiler.translate.align import Pair, Unit
from compiler.translate.debris import find_debris
from compiler.translate.facts import AT_LEAST, AT_MOST, GREATER, LESS, Quantity
from compiler.translate.meaning import Difference, Side, compare_beads, reportable
from compiler.translate.results import AlignedText, Finding, Mark
from compiler.translate.segments import Sentence
from compiler.translate.sentence_align import Bead, Features
from compiler.translate.tables import RowFinding
from compiler.translate.terminology import Entry, TermMatcher

QUOTED = 60
"""Characters of a sentence quoted in a message."""
FRENCH_COMPARISONS = {GREATER: "« plus de »", AT_LEAST: "« au moins »", LESS: "« moins de »", AT_MOST: "« au plus »"}
Quantities = Callable[[Sentence, int], tuple[Quantity, ...]]


def heading(unit: Unit) -> Span | None:
    """The place of a unit's heading (its note or item, for a titled note), to the end of its line."""
    if unit.source is None:
        return None
    end = unit.source.text.find("\n", unit.offset)
    return unit.source.span(unit.offset, max(1, (end if end != -1 else len(unit.source.text)) - unit.offset))


def quote(text: str) -> str:
    """A sentence's start, to quote in a message."""
    return "“" + (text if len(text) <= QUOTED else text[: QUOTED - 1].rstrip() + "…") + "”"


# -- sections ----------------------------------------------------------------------------------------


def section_findings(pairs: list[Pair], merged: dict[int, tuple[tuple[Unit, ...], tuple[Unit, ...]]]) -> list[Finding]:
    """Sections on one side only (a missing chapter's subsections are counted in its finding)."""
    read_with = {u.id for left, right in merged.values() for u in (*left, *right)}
    found = []
    for side, rule in ((0, rules.MISSING_SECTION), (1, rules.EXTRA_SECTION)):
        alone = [
            (index, unit)
            for index, pair in enumerate(pairs)
            if (unit := (pair.original, pair.translation)[side]) is not None
            and (pair.original, pair.translation)[1 - side] is None
            and unit.id not in read_with
            and unit.title.lower() not in _CONTENTS
        ]
        ids = {unit.id for _, unit in alone}
        for index, unit in alone:
            if unit.parent in ids:
                continue
            inside = sum(1 for _, other in alone if _within(other, unit.id, {u.id: u for _, u in alone}))
            found.append(_section_finding(rule, index, unit, inside, pairs, side))
    return found


_CONTENTS = {"table des matières", "table of contents", "contents", "sommaire"}


def _within(unit: Unit, ancestor: str, units: dict[str, Unit]) -> bool:
    parent = unit.parent
    while parent is not None:
        if parent == ancestor:
            return True
        parent = units[parent].parent if parent in units else None
    return False


def _section_finding(rule: Any, index: int, unit: Unit, inside: int, pairs: list[Pair], side: int) -> Finding:
    """A section without counterpart, placed where the other side would hold it."""
    neighbour = _neighbour(pairs, index, 1 - side)
    here, there = (heading(unit), neighbour) if side == 1 else (neighbour, heading(unit))
    also = f" (nor its {inside} subsection{'s' if inside != 1 else ''})" if inside else ""
    if side == 0:
        message = f"`{unit.title}` is not translated{also}"
        help_text = "translate the section here, or waive the finding while the translation is incomplete"
    else:
        message = f"`{unit.title}`{also} has no counterpart in the original"
        help_text = "check that the original has nothing to say here; waive the finding once read"
    return Finding(
        rule,
        message,
        here,
        there,
        help_text,
        original=unit.id if side == 0 else None,
        translation=unit.id if side == 1 else None,
        details={"title": unit.title},
        evidence=(unit.title,),
        counterpart_note="the original's section" if side == 0 else "the original goes on here",
    )


def _neighbour(pairs: list[Pair], index: int, side: int) -> Span | None:
    """The heading of the next unit of a side (the previous one at the end): where a missing unit belongs."""
    for order in (range(index + 1, len(pairs)), range(index - 1, -1, -1)):
        for other in order:
            unit = (pairs[other].original, pairs[other].translation)[side]
            if unit is not None:
                return heading(unit)
    return None


# -- sentences ---------------------------------------------------------------------------------------


def sentence_findings(
    text: AlignedText, pairs: list[Pair], features: Callable[[Sentence, int], Features]
) -> list[Finding]:
    """Sentences of the pair without counterpart (nor a moved one in a neighbouring pair, nor one reordered)."""
    pair = pairs[text.pair]
    assert pair.original is not None and pair.translation is not None
    moved = {(m.side, n) for m in text.moved for n in m.sentences}
    moved |= _reordered(text, features)
    moved |= {(1, n) for n, s in enumerate(text.translation) if is_label(s) or is_short(s)}
    moved |= {(0, n) for n, s in enumerate(text.original) if is_label(s) or is_short(s)}
    found = []
    for number, bead in enumerate(text.beads):
        if bead.translation and bead.original:
            continue
        if not bead.translation:
            for i in bead.original:
                if (0, i) in moved:
                    continue
                sentence = text.original[i]
                place = _nearby(text, number, 1) or heading(pair.translation)
                message = f"{quote(sentence.text)} is not translated here"
                help_text = "translate the sentence, or waive the finding if the translation says it elsewhere"
                found.append(
                    _finding(
                        rules.MISSING_SENTENCE,
                        message,
                        place,
                        sentence.span,
                        help_text,
                        text,
                        pair,
                        (sentence.text,),
                        marks=((0, i, -1, -1),),
                    )
                )
        else:
            for j in bead.translation:
                if (1, j) in moved:
                    continue
                sentence = text.translation[j]
                counterpart = _nearby(text, number, 0) or heading(pair.original)
                message = f"this sentence has no counterpart in the original `{pair.original.title}`"
                help_text = "check that the original says it; remove it, or waive the finding once read"
                found.append(
                    replace(
                        _finding(
                            rules.ADDED_SENTENCE,
                            message,
                            sentence.span,
                            counterpart,
                            help_text,
                            text,
                            pair,
                            (sentence.text,),
                            marks=((1, j, -1, -1),),
                        ),
                        counterpart_note="the original's nearest sentence",
                    )
                )
    return found


LABEL_WORDS = 10
"""A caption's first sentence this short, after "Figure 3 –", is the figure's title."""
_LABEL = re.compile(r"\s*(?:Figure|Fig\.|Table|Tableau)\s+\d+\s*[–—:-]", re.IGNORECASE)


SHORT_WORDS = 3
"""A sentence of this many words or fewer is a label ("one Forest.", "Hill"): never reported missing or added."""


def is_short(sentence: Sentence) -> bool:
    """Whether a sentence is a label of a few words, whose absence says little."""
    return len(sentence.text.split()) <= SHORT_WORDS


def is_label(sentence: Sentence) -> bool:
    """Whether a sentence only titles or introduces a figure or table ("Table 1 - Nombre maximal de ...",
    "La table suivante donne les nouvelles limites :"): an edition's layout, not a rule."""
    if sentence.kind == "pointer":
        return True
    return (
        sentence.kind == "caption" and bool(_LABEL.match(sentence.text)) and len(sentence.text.split()) <= LABEL_WORDS
    )


def _reordered(text: AlignedText, features: Callable[[Sentence, int], Features]) -> set[tuple[int, int]]:
    """Sentences without counterpart whose values another sentence of the other side states, with a word in
    common: the translation moved them within the section ("A test always fails on a 6" said first)."""
    found = set()
    sides = (text.original, text.translation)
    for bead in text.beads:
        if bead.original and bead.translation:
            continue
        side = 0 if bead.original else 1
        for index in bead.original or bead.translation:
            mine = features(sides[side][index], side)
            if not mine.values:
                continue
            for other in sides[1 - side]:
                theirs = features(other, 1 - side)
                words = (mine.cognates | mine.terms) & (theirs.cognates | theirs.terms)
                if words and not Counter(mine.values) - Counter(theirs.values):
                    found.add((side, index))
                    break
    return found


def _nearby(text: AlignedText, bead: int, side: int) -> Span | None:
    """A side's sentence next to a bead (the following one, else the preceding one)."""
    sentences = (text.original, text.translation)[side]
    for order in (range(bead + 1, len(text.beads)), range(bead - 1, -1, -1)):
        for other in order:
            indices = (text.beads[other].original, text.beads[other].translation)[side]
            if indices:
                return sentences[indices[0] if order.step > 0 else indices[-1]].span
    return None


def _finding(
    rule: Any,
    message: str,
    place: Span | None,
    counterpart: Span | None,
    help_text: str,
    text: AlignedText,
    pair: Pair,
    evidence: tuple[str, ...],
    details: dict[str, Any] | None = None,
    marks: tuple[Mark, ...] = (),
) -> Finding:
    ids = (pair.original.id if pair.original else None, pair.translation.id if pair.translation else None)
    return Finding(rule, message, place, counterpart, help_text, *ids, text.pair, details or {}, evidence, marks=marks)


# -- quantities --------------------------------------------------------------------------------------


def meaning_findings(text: AlignedText, pairs: list[Pair], quantities: Quantities) -> list[Finding]:
    """Values, comparisons and signs that differ between aligned sentences.

    Sentences without counterpart take part only to cancel values: a value of a sentence the
    translation moved within the section is stated there, not lost.
    """
    pair = pairs[text.pair]
    sides = [
        (
            Side(tuple((i, q) for i in bead.original for q in quantities(text.original[i], 0))),
            Side(tuple((j, q) for j in bead.translation for q in quantities(text.translation[j], 1))),
        )
        for bead in text.beads
    ]
    found = []
    for bead, differences in zip(text.beads, compare_beads(sides), strict=True):
        if not bead.original or not bead.translation:
            continue
        evidence = (
            " ".join(text.original[i].text for i in bead.original),
            " ".join(text.translation[j].text for j in bead.translation),
        )
        for difference in differences:
            if reportable(difference):
                found.append(_difference(difference, text, pair, evidence, bead.original[0], bead.translation[0]))
    return found


def moved_findings(texts: Sequence[AlignedText], pairs: list[Pair], quantities: Quantities) -> list[Finding]:
    """Values, comparisons and signs that differ between moved sentences and their counterparts elsewhere."""
    by_pair = {text.pair: text for text in texts}
    found = []
    for text in texts:
        for moved in text.moved:
            if moved.side != 0:
                continue
            other = by_pair[moved.other_pair]
            joined = AlignedText(
                other.pair,
                tuple(text.original[i] for i in moved.sentences),
                tuple(other.translation[j] for j in moved.counterparts),
                (),
            )
            beads = [Bead(tuple(range(len(joined.original))), tuple(range(len(joined.translation))), 0.0)]
            for finding in meaning_findings(replace(joined, beads=tuple(beads)), pairs, quantities):
                found.append(replace(finding, marks=()))
    return found


def _difference(
    difference: Difference, text: AlignedText, pair: Pair, evidence: tuple[str, str], first: int, second: int
) -> Finding:
    left = [q for _, q in difference.original]
    right = [q for _, q in difference.translation]
    place = _quantity_place(text.translation, difference.translation) or text.translation[second].span
    counterpart = _quantity_place(text.original, difference.original) or text.original[first].span
    details = {"original": [q.shown for q in left], "translation": [q.shown for q in right]}
    if difference.kind == "comparison-differs":
        a, b = left[0], right[0]
        message = f"the original says {a.comparison} `{a.shown}`, the translation says {b.comparison} `{b.shown}`"
        help_text = f"write {FRENCH_COMPARISONS.get(a.comparison or '', a.comparison)} as the original means"
        rule = rules.COMPARISON_DIFFERS
    elif difference.kind == "sign-differs":
        message = f"the original says `{left[0].shown}`, the translation says `{right[0].shown}`"
        help_text = "check which sign the rule means, in both texts"
        rule = rules.SIGN_DIFFERS
    else:
        rule, message = rules.NUMBERS_DIFFER, _says(left, right)
        help_text = "check the value against the original, or waive the finding if both say the same otherwise"
    marks = tuple(
        (side, i, *q.scope) for side, items in ((1, difference.translation), (0, difference.original)) for i, q in items
    )
    return _finding(rule, message, place, counterpart, help_text, text, pair, evidence, details, marks)


def _says(left: list[Quantity], right: list[Quantity]) -> str:
    shown = [", ".join(f"`{q.shown}`" for q in side) for side in (left, right)]
    if left and right:
        return f"the original says {shown[0]}, the translation says {shown[1]}"
    if left:
        return f"the original says {shown[0]}, the translation does not"
    return f"the translation says {shown[1]}, the original does not"


def _quantity_place(sentences: Sequence[Sentence], items: tuple[tuple[int, Quantity], ...]) -> Span | None:
    if not items:
        return None
    index, quantity = items[0]
    return sentences[index].place(*quantity.scope)


# -- terms, references, tables -----------------------------------------------------------------------


def term_findings(
    text: AlignedText,
    pairs: list[Pair],
    entries: dict[str, Entry],
    matcher: TermMatcher,
    related: dict[str, set[str]],
) -> list[Finding]:
    """Terms rendered by a related term of the list, and forbidden variants.

    A term of the original that the translated section never renders as agreed is reported where
    the sentence aligned with its use renders a related term instead (one its definition refers
    to, or whose definition refers to it): « socle », which is `base`, where the original says
    Footprint. A pronoun or a paraphrase is a translator's choice; a neighbouring term standing
    for another one is a terminology slip.
    """
    pair = pairs[text.pair]
    assert pair.translation is not None
    rendered = matcher.terms(" ".join([pair.translation.title, *(s.text for s in text.translation)]))
    found: list[Finding] = []
    reported: set[str] = set()
    for bead in text.beads:
        if not bead.original or not bead.translation:
            continue
        english = {t for i in bead.original for t in text.original[i].terms if t in entries}
        french = matcher.terms(" ".join(text.translation[j].text for j in bead.translation))
        for term in sorted(english - rendered - reported):
            substitutes = sorted((french - english) & related.get(term, set()))
            if substitutes:
                reported.add(term)
                found.append(_term_missing(term, substitutes, bead, text, pair, entries, matcher))
    used = {t for s in text.original for t in s.terms if t in entries}
    for number, sentence in enumerate(text.translation):
        for wrong, start, end in matcher.forbidden(sentence.text):
            owner = next((t for t, e in entries.items() if wrong in e.forbidden and t in used), None)
            if owner is None:
                continue
            counterpart = _counterpart(text, number)
            message = f"`{owner}` is written « {wrong} », which the terminology forbids"
            help_text = f"write « {entries[owner].preferred} »"
            found.append(
                _finding(
                    rules.TERM_FORBIDDEN,
                    message,
                    sentence.place(start, end),
                    counterpart,
                    help_text,
                    text,
                    pair,
                    (sentence.text, wrong),
                    {"term": owner},
                    ((1, number, start, end),),
                )
            )
    return found


def related_terms(book: Book) -> dict[str, set[str]]:
    """For each defined term, the terms its definition refers to and those whose definitions refer to it."""
    from compiler.model import Content, Definition, Important, ItemList, Note, Reference, Table

    def walk(content: Content) -> set[str]:
        found: set[str] = set()
        for node in content:
            if isinstance(node, Reference):
                found.add(node.name)
            elif isinstance(node, Definition | Important | Note):
                found |= walk(node.children)
            elif isinstance(node, ItemList):
                found |= {name for item in node.items for name in walk(item.children)}
            elif isinstance(node, Table):
                found |= {name for row in node.rows for cell in row.cells for name in walk(cell.children)}
        return found

    related: dict[str, set[str]] = {}
    for definition in book.definitions:
        for name in walk(definition.children) - {definition.name}:
            related.setdefault(definition.name, set()).add(name)
            related.setdefault(name, set()).add(definition.name)
    return related


def _term_missing(
    term: str,
    substitutes: list[str],
    bead: Any,
    text: AlignedText,
    pair: Pair,
    entries: dict[str, Entry],
    matcher: TermMatcher,
) -> Finding:
    entry = entries[term]
    first = next(i for i in bead.original if term in text.original[i].terms)
    marks: list[Mark] = [(0, first, *_written(text.original[first], term))]
    for j in bead.translation:
        marks += [
            (1, j, start, end) for found, start, end in matcher.spans(text.translation[j].text) if found in substitutes
        ]
    where = next(((j, s, e) for side, j, s, e in marks if side == 1), None)
    sentence = text.translation[bead.translation[0]]
    place = text.translation[where[0]].place(where[1], where[2]) if where else sentence.span
    others = ", ".join(f"« {entries[t].preferred} » (`{t}`)" for t in substitutes)
    message = f"`{term}` should be « {entry.preferred} » here; the translation has {others}"
    accepted = f" (or {', '.join(f'« {a} »' for a in entry.accepted)})" if entry.accepted else ""
    help_text = f"write « {entry.preferred} »{accepted}, or list the rendering used here as `accepted` in terms.toml"
    evidence = (text.original[first].text, *(text.translation[j].text for j in bead.translation))
    return _finding(
        rules.TERM_MISSING,
        message,
        place,
        text.original[first].span,
        help_text,
        text,
        pair,
        evidence,
        {"term": term, "instead": substitutes},
        tuple(marks),
    )


def _written(sentence: Sentence, term: str) -> tuple[int, int]:
    """Where a sentence writes its reference to a term (the whole sentence if it cannot tell)."""
    for name, shown in sentence.written_terms:
        at = sentence.text.find(shown.strip()) if name == term and shown.strip() else -1
        if at != -1:
            return at, at + len(shown.strip())
    return -1, -1


def _counterpart(text: AlignedText, number: int) -> Span | None:
    """The original's sentence aligned with a translation's sentence (the nearest one, if it has none)."""
    for index, bead in enumerate(text.beads):
        if number in bead.translation:
            return text.original[bead.original[0]].span if bead.original else _nearby(text, index, 0)
    return None


def reference_findings(text: AlignedText, pairs: list[Pair]) -> list[Finding]:
    """Cross-references the PDF conversion lost (``??``), one finding per sentence."""
    pair = pairs[text.pair]
    found = []
    for number, sentence in enumerate(text.translation):
        at = sentence.text.find("??")
        if at == -1:
            continue
        counterpart = _counterpart(text, number)
        found.append(
            _finding(
                rules.LOST_REFERENCE,
                "a cross-reference was lost in conversion (`??`)",
                sentence.place(at, at + 2),
                counterpart,
                "write the chapter, section or page the original points to",
                text,
                pair,
                (sentence.text,),
                marks=tuple((1, number, m.start(), m.end()) for m in re.finditer(r"\?\?", sentence.text)),
            )
        )
    return found


def table_findings(index: int, pair: Pair, rows: Sequence[RowFinding]) -> list[Finding]:
    """Table rows missing from the translation, or stating other values."""
    found = []
    for row in rows:
        place = _row_place(row.translation) if row.translation is not None else row.table.span
        evidence = (_row_text(row.original), _row_text(row.translation) if row.translation else "")
        details = {"row": row.key, "original": list(row.only_original), "translation": list(row.only_translation)}
        help_text = "add the row" if row.translation is None else "check the row's values against the original"
        ids = (pair.original.id if pair.original else None, pair.translation.id if pair.translation else None)
        found.append(
            Finding(
                rules.TABLE_ROW, row.message, place, _row_place(row.original), help_text, *ids, index, details, evidence
            )
        )
    return found


def _row_place(row: Row) -> Span:
    return row.source.span(row.offset, 1)


def _row_text(row: Row) -> str:
    from compiler.model import plain_text

    return " | ".join(plain_text(cell.children) for cell in row.cells)


# -- the translation's own text ------------------------------------------------------------------------


def debris_findings(translation: Book, texts: Sequence[AlignedText], pairs: list[Pair], language: str) -> list[Finding]:
    """Slips of the conversion, each with the original's sentence aligned with the one it stands in."""
    from compiler.markdown_source import TOC_TITLES

    index = _SentenceIndex(texts)
    found = []
    for document in translation.documents:
        if not document.sections:
            continue
        source = document.sections[0].source
        skip = _range_of(document.sections, TOC_TITLES, len(source.text))
        for debris in find_debris(source.text, skip=skip, language=language):
            place = source.span(debris.start, debris.end - debris.start)
            text, number = index.at(source.path, debris.start)
            counterpart = _counterpart(text, number) if text is not None else None
            marks: tuple[Mark, ...] = ()
            if text is not None:
                start = text.translation[number].position(debris.start)
                if start is not None:
                    marks = ((1, number, start, start + debris.end - debris.start),)
            pair = pairs[text.pair] if text is not None else Pair(None, None, "unmatched", 0.0)
            line = source.line_text(place.line)
            evidence = (line, source.text[debris.start : debris.end])
            finding = Finding(
                debris.rule,
                debris.message,
                place,
                counterpart,
                debris.help,
                pair.original.id if pair.original else None,
                _section_at(document.sections, debris.start),
                text.pair if text is not None else None,
                {},
                evidence,
                marks=marks,
            )
            found.append(finding)
    return found


class _SentenceIndex:
    """The translation's sentences by place: which one holds an offset."""

    def __init__(self, texts: Sequence[AlignedText]) -> None:
        self.by_path: dict[str, list[tuple[int, AlignedText, int]]] = {}
        for text in texts:
            for number, sentence in enumerate(text.translation):
                if sentence.source is not None:
                    self.by_path.setdefault(sentence.source.path, []).append((sentence.offset, text, number))
        for entries in self.by_path.values():
            entries.sort(key=lambda entry: entry[0])
        self.offsets = {path: [e[0] for e in entries] for path, entries in self.by_path.items()}

    def at(self, path: str, offset: int) -> tuple[AlignedText | None, int]:
        entries = self.by_path.get(path, [])
        position = bisect_right(self.offsets.get(path, []), offset) - 1
        if position < 0:
            return None, 0
        start, text, number = entries[position]
        sentence = text.translation[number]
        return (text, number) if offset - start <= len(sentence.text) + 200 else (None, 0)


def _range_of(sections: Iterator[Any] | tuple[Any, ...], titles: set[str], end: int) -> tuple[int, int]:
    ordered = sorted(sections, key=lambda s: s.offset)
    for number, section in enumerate(ordered):
        if section.title.lower() in titles:
            return section.offset, ordered[number + 1].offset if number + 1 < len(ordered) else end
    return (0, 0)


def _section_at(sections: tuple[Any, ...], offset: int) -> str | None:
    found = None
    for section in sorted(sections, key=lambda s: s.offset):
        if section.offset > offset:
            break
        found = section.id
    return found
