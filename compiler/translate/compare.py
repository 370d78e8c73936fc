"""``rulebook compare``: where a translation and its original disagree, for the translators.

The recipe, one stage after the other:

1. sections are aligned (:mod:`rulebook.translate.align`); a translation's unnumbered sub-heading
   without a pair of its own (a table cell or a titled note turned into a heading) is read with the
   paired section it stands in, and so is an original's titled note;
2. each pair's tables are compared row by row (:mod:`rulebook.translate.tables`);
3. each pair's text is cut into sentences with their places (:mod:`rulebook.translate.segments`) and
   the sentences aligned (:mod:`rulebook.translate.sentence_align`); sentences left without a
   counterpart are looked for in the same pair (reordered) and the neighbouring ones (the PDF moves
   captions; :mod:`rulebook.translate.moved`);
4. aligned sentences are compared for quantities, comparisons and signs
   (:mod:`rulebook.translate.meaning`), sections for terms, the translation's text for debris
   (:mod:`rulebook.translate.debris`).

Every finding has a place in the translation and, where there is one, its counterpart in the
original, and becomes a :class:`~rulebook.diagnostics.Diagnostic` of the translation rules
(:mod:`rulebook.catalog.translation`). A finding's fingerprint hashes its rule and the texts it is
about, so a waiver names one finding and expires when either text changes.
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import replace
from typing import Any

from rulebook.languages.data import Language, as_language
from rulebook.languages.quantities import QuotedTitles, conversions
from rulebook.languages.quantities import quantities as read_quantities
from rulebook.model import Book, Table
from rulebook.source import SourceText
from rulebook.translate.align import Pair, Unit, align_sections, book_language
from rulebook.translate.findings import is_short, section_findings, sentence_findings
from rulebook.translate.list_findings import list_findings
from rulebook.translate.merged import merge_neighbours
from rulebook.translate.quantity_findings import meaning_findings, moved_findings
from rulebook.translate.report import report_context
from rulebook.translate.results import AlignedText, Comparison, Finding
from rulebook.translate.rule_findings import Languages, wording_findings
from rulebook.translate.segments import Locator, Sentence, sentences
from rulebook.translate.sentence_align import ALIGNED_PLACES, Features, align_sentences, band, cognates, narrowed
from rulebook.translate.tables import compare_tables, tables_in
from rulebook.translate.term_findings import Terms, related_terms, term_findings, term_names
from rulebook.translate.terminology import SHARED_RENDERING, Entry, TermMatcher
from rulebook.translate.text_findings import debris_findings, reference_findings, table_findings
from rulebook.translate.waivers import load_waivers

__all__ = ["Comparison", "Finding", "compare_books", "load_waivers", "report_context"]

FAIL_ON = (
    "numbers-differ",
    "comparison-differs",
    "sign-differs",
    "table-row",
    "obligation-differs",
    "roll-differs",
    "rounding-differs",
    "parenthesis-dropped",
    "list-differs",
    "term-missing",
    "term-forbidden",
    "missing-section",
    "missing-sentence",
    "lost-reference",
)
"""The kinds of finding that make ``rulebook compare`` fail by default."""
MOVED_PASSAGE_REACH = 6
"""How many pairs away a sentence without counterpart is looked for (the PDF moves captions)."""


def compare_books(
    original: Book,
    translation: Book,
    *,
    translation_language: Language | str = "fr",
    original_language: Language | str | None = None,
    terms: dict[str, Entry] | None = None,
    waivers: dict[str, str] | None = None,
) -> Comparison:
    """Every disagreement between a translation and its original, with places on both sides.

    The languages' words (:mod:`rulebook.languages`) are given, or shipped ones named by their codes; the
    original's defaults to the language its book is written in.
    """
    entries = terms or {}
    languages = (as_language(original_language or book_language(original)), as_language(translation_language))
    pairs = align_sections(original, translation, languages)
    merged = merge_units(pairs)
    dialect = frozenset(s.path for book in (original, translation) for s in _sources(book, dialect=True))
    context = _Context(languages, entries, _titles(pairs), dialect)
    prepared = [
        context.prepare(index, pair, merged.get(index, ((), ())))
        for index, pair in enumerate(pairs)
        if pair.original is not None and pair.translation is not None
    ]
    context.ratio = _length_ratio(prepared)
    texts = _find_moved([context.align(text, pairs[text.pair]) for text, _ in prepared], context)
    texts = [merge_neighbours(text, context.features, context.ratio) for text in texts]
    findings = [finding for _, found in prepared for finding in found]
    findings += section_findings(pairs, merged, context.languages)
    naming = Terms(entries, context.matcher, related_terms(original), term_names(original.references), *languages)
    reading = Languages(*languages, context.matcher, frozenset(entries), context.features, context.ratio)
    for text in texts:
        findings += sentence_findings(text, pairs, context.features, context.ratio)
        findings += meaning_findings(text, pairs, context.quantities, languages[1])
        findings += term_findings(text, pairs, naming)
        findings += reference_findings(text, pairs)
        findings += wording_findings(text, pairs, reading)
        findings += list_findings(text, pairs)
    findings += moved_findings(texts, pairs, context.quantities, languages[1])
    findings += debris_findings(translation, texts, pairs, languages)
    findings = fingerprinted(findings)
    allowed = waivers or {}
    kept = [f for f in findings if f.fingerprint not in allowed]
    stale = tuple(sorted(set(allowed) - {f.fingerprint for f in findings}))
    sources = {s.path: s for book in (original, translation) for s in _sources(book)}
    coverage = _coverage(pairs, texts, context)
    notes = (*context.notes, *shared_notes(context.matcher))
    return Comparison(pairs, kept, coverage, len(findings) - len(kept), stale, tuple(texts), sources, notes, languages)


def merge_units(pairs: list[Pair]) -> dict[int, tuple[tuple[Unit, ...], tuple[Unit, ...]]]:
    """By pair index: the unpaired units read with it (original's titled notes, translation's sub-headings).

    An unpaired unit is read with the nearest paired unit it stands in when it is a titled note of
    the original or an unnumbered sub-heading of the translation; a numbered section stays apart.
    """
    paired: dict[tuple[int, str], int] = {}
    for index, pair in enumerate(pairs):
        if pair.original is not None and pair.translation is not None:
            paired[(0, pair.original.id)] = index
            paired[(1, pair.translation.id)] = index
    parents = {(side, u.id): u.parent for p in pairs for side, u in enumerate((p.original, p.translation)) if u}
    merged: dict[int, tuple[list[Unit], list[Unit]]] = {}
    for pair in pairs:
        for side, unit in enumerate((pair.original, pair.translation)):
            if unit is None or (pair.original is not None and pair.translation is not None):
                continue
            if (side == 0 and unit.kind != "note") or (side == 1 and unit.number is not None):
                continue
            parent = unit.parent
            while parent is not None and (side, parent) not in paired:
                parent = parents.get((side, parent))
            if parent is not None:
                merged.setdefault(paired[(side, parent)], ([], []))[side].append(unit)
    return {index: (tuple(left), tuple(right)) for index, (left, right) in merged.items()}


def shared_notes(matcher: TermMatcher) -> list[str]:
    """A note for each rendering the terminology gives too many terms to name any of them."""
    return [
        f"{matcher.language.quote(form)} renders {count:,} terms of the terminology (more than {SHARED_RENDERING}): "
        "it names none of them, and is not matched as a term"
        for form, count in sorted(matcher.shared.items())
    ]


class _Context:
    """What aligning each pair needs once per comparison: the language, terminology, locators, caches."""

    def __init__(
        self,
        languages: tuple[Language, Language],
        entries: dict[str, Entry],
        titles: tuple[str, ...],
        dialect: frozenset[str] = frozenset(),
    ) -> None:
        self.languages = languages
        self.dialect = dialect
        """The paths of the sources written in the dialect, whose markup is no words (:class:`Locator`)."""
        self.entries = entries
        self.matcher = TermMatcher(entries, languages[1])
        self.titles = QuotedTitles.of(titles)  # made once: each sentence's look-up is then a few set probes
        self.locators: dict[str, Locator] = {}
        self.ratio = 1.0
        self.notes: list[str] = []
        """What was aligned more simply because it was too large (:func:`narrowed`)."""
        self._quantities: dict[tuple[int, str], tuple[Any, ...]] = {}
        self._features: dict[tuple[int, int], tuple[Sentence, Features]] = {}

    def locator(self, source: SourceText | None) -> Locator | None:
        """The locator of a source, made once."""
        if source is None:
            return None
        if source.path not in self.locators:
            self.locators[source.path] = Locator(source, dialect=source.path in self.dialect)
        return self.locators[source.path]

    def quantities(self, sentence: Sentence, side: int) -> tuple[Any, ...]:
        """The quantities of a sentence (computed once)."""
        language = self.languages[side]
        key = (side, sentence.text)
        if key not in self._quantities:
            self._quantities[key] = read_quantities(sentence.text, language, names=self.titles)
        return self._quantities[key]

    def features(self, sentence: Sentence, side: int) -> Features:
        """What aligning the sentence looks at: its length, values, terms, cognates, punctuation (made once)."""
        key = (side, id(sentence))
        found = self._features.get(key)
        if found is None or found[0] is not sentence:
            found = self._features[key] = (sentence, self._make_features(sentence, side))
        return found[1]

    def _make_features(self, sentence: Sentence, side: int) -> Features:
        quantities = self.quantities(sentence, side)
        values = tuple(sorted(str(q.value) + (q.unit or "")[:1] for q in quantities))
        digits = frozenset(str(q.value) + (q.unit or "")[:1] for q in quantities if q.kind in ("digits", "dice"))
        if side == 0:
            terms = frozenset(t for t in sentence.terms if t in self.entries)
        else:
            terms = self.matcher.terms(sentence.text)
        text = sentence.text
        marks = [mark for mark in "!(:?" for _ in range(text.count(mark))]  # sorted, as the alignment compares them
        marks += ["quote"] * (text.count("«") + text.count("“"))
        kinds = (
            int(sentence.kind == "caption"),
            int(sentence.kind == "pointer"),
            int(is_short(sentence)),
            int(sentence.kind == "item"),
        )
        # A translator's metric conversion (« (soit environ 60 cm par 60 cm) ») is no part of a sentence's length.
        converted = " m" in text or "cm" in text or "mm" in text
        length = len(conversions(self.languages[side]).sub("", text)) if converted else len(text)
        return Features(length, values, digits, terms, tuple(marks), cognates(text), *kinds)

    def prepare(
        self, index: int, pair: Pair, merged: tuple[tuple[Unit, ...], tuple[Unit, ...]]
    ) -> tuple[AlignedText, list[Finding]]:
        """The pair's sentences (not aligned yet), and its table rows compared."""
        assert pair.original is not None and pair.translation is not None
        units = ((pair.original, *merged[0]), (pair.translation, *merged[1]))
        tables = [[t for u in side for t in tables_in(u.content)] for side in units]
        compared = compare_tables(tables[0], tables[1], self.matcher, self.languages)
        skip: tuple[set[int], set[int]] = (set(), set())
        for left, right in compared.matched:
            skip[0].add(left.offset)
            skip[1].add(right.offset)
        sides = [self._sentences(side, skip[number], self.languages[number]) for number, side in enumerate(units)]
        shown: list[tuple[Table | None, Table | None]] = list(compared.matched)
        shown += [(table, None) for table in tables[0] if table.offset not in skip[0]]
        shown += [(None, table) for table in tables[1] if table.offset not in skip[1]]
        text = AlignedText(index, tuple(sides[0]), tuple(sides[1]), (), tables=tuple(shown))
        return text, table_findings(index, pair, compared.findings)

    def align(self, text: AlignedText, pair: Pair) -> AlignedText:
        """The text with its sentences aligned."""
        features = [[self.features(s, number) for s in side] for number, side in enumerate(_sides(text))]
        rows, cols = len(features[0]), len(features[1])
        if narrowed(rows, cols) and pair.original is not None:
            self.notes.append(
                f"`{pair.original.title}`: its {rows:,} sentences and the translation's {cols:,} are too many to "
                f"weigh each against each (past {ALIGNED_PLACES:,} places): they were aligned within "
                f"{band(rows, cols)} sentences of an even spread"
            )
        return replace(text, beads=tuple(align_sentences(features[0], features[1], self.ratio)))

    def _sentences(self, units: tuple[Unit, ...], skip: set[int], language: Language) -> list[Sentence]:
        found: list[Sentence] = []
        for unit in sorted(units, key=lambda u: u.offset):
            locator = self.locator(unit.source)
            found += sentences(unit.content, locator, unit.offset, skip_tables=skip, language=language)
        return found


def _sides(text: AlignedText) -> tuple[tuple[Sentence, ...], tuple[Sentence, ...]]:
    return text.original, text.translation


def _length_ratio(prepared: list[tuple[AlignedText, list[Finding]]]) -> float:
    """How much longer the translation's sentences are than the original's, over the whole book."""
    left = sum(len(s.text) for text, _ in prepared for s in text.original)
    right = sum(len(s.text) for text, _ in prepared for s in text.translation)
    return right / left if left and right else 1.0


def _titles(pairs: list[Pair]) -> tuple[str, ...]:
    return tuple(sorted({u.title for p in pairs for u in (p.original, p.translation) if u and u.title}))


def _find_moved(texts: list[AlignedText], context: _Context) -> list[AlignedText]:
    """Sentences left without counterpart in one pair and translated in a neighbouring one (a moved caption)."""
    from rulebook.translate.moved import match_moved

    return match_moved(texts, context.features, MOVED_PASSAGE_REACH, context.ratio)


def _sources(book: Book, *, dialect: bool = False) -> list[SourceText]:
    """The book's sources (``dialect``: those written in the dialect)."""
    found: dict[str, SourceText] = {}
    for document in book.documents:
        for section in document.sections if document.dialect or not dialect else ():
            found.setdefault(section.source.path, section.source)
    return list(found.values())


def _coverage(pairs: list[Pair], texts: list[AlignedText], context: _Context) -> dict[str, Any]:
    """Sections and sentences of the original that the translation translates."""
    originals = [p for p in pairs if p.original is not None]
    matched = [p for p in originals if p.translation is not None]
    aligned = {t.pair: t for t in texts}
    total = translated = 0
    for index, pair in enumerate(pairs):
        if pair.original is None:
            continue
        text = aligned.get(index)
        if text is None:
            unit = pair.original
            locator = context.locator(unit.source)
            total += len(sentences(unit.content, locator, unit.offset, language=context.languages[0]))
            continue
        total += len(text.original)
        moved = sum(len(m.sentences) for m in text.moved if m.side == 0)
        translated += sum(len(b.original) for b in text.beads if b.translation) + moved
    return {
        "sections": len(originals),
        "translated_sections": len(matched),
        "sentences": total,
        "translated_sentences": translated,
        "share": round(translated / total, 3) if total else 1.0,
    }


def fingerprinted(findings: list[Finding]) -> list[Finding]:
    """Each finding with its fingerprint; two findings never share one (a repeat gets its rank hashed in).

    The fingerprint hashes the rule, the details and the evidence (spaces made single) joined by ``\\x1f``.
    Findings sharing all but their last part (thousands of slips on one long line, whose text is each one's
    evidence) share the hash of those parts, made once; texts are known by identity, so a long one is never
    hashed or compared again (a line equal to another finding's, known by its value, cost its length a finding:
    914 KB, 27 s)."""
    spaced: dict[int, str] = {}
    heads: dict[tuple[str, str, tuple[int, ...]], Any] = {}
    hashed: dict[tuple[str, str, tuple[int, ...]], tuple[Any, bytes]] = {}
    seen: Counter[bytes] = Counter()
    found = []
    for finding in findings:  # they keep their texts alive: an id stands for one text throughout
        details = json.dumps(finding.details, sort_keys=True, ensure_ascii=False, default=str)
        key = (finding.rule.name, details, tuple(map(id, finding.evidence)))
        if key not in hashed:
            hashed[key] = _hashed(finding, details, (*key[:2], key[2][:-1]), heads, spaced)
        digest, same = hashed[key]
        seen[same] += 1
        if seen[same] > 1:
            digest = digest.copy()
            digest.update(f"\x1f{seen[same]}".encode())
        found.append(replace(finding, fingerprint=digest.hexdigest()[:16]))
    return found


def _hashed(
    finding: Finding,
    details: str,
    head: tuple[str, str, tuple[int, ...]],
    heads: dict[Any, Any],
    spaced: dict[int, str],
) -> tuple[Any, bytes]:
    """The hash of a finding's parts and its digest, the hash of all but the last part made once in ``heads``."""
    parts = (finding.rule.name, details, *(_single_spaced(text, spaced) for text in finding.evidence))
    if head not in heads:
        heads[head] = hashlib.sha256("\x1f".join(parts[:-1]).encode("utf-8"))
    digest = heads[head].copy()
    digest.update(("\x1f" + parts[-1]).encode("utf-8"))
    return digest, digest.digest()


def _single_spaced(text: str, made: dict[int, str]) -> str:
    """``text`` with its runs of spaces made one, each text once (a line shared by many findings), known by identity."""
    if id(text) not in made:
        made[id(text)] = " ".join(text.split())
    return made[id(text)]
