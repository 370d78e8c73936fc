"""Findings on quantities: values, comparisons and signs that differ between aligned sentences."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from rulebook.catalog import translation as rules
from rulebook.languages.data import Language
from rulebook.languages.quantities import AT_LEAST, AT_MOST, GREATER, LESS, Quantity
from rulebook.source import Span
from rulebook.translate.align import Pair
from rulebook.translate.findings import finding
from rulebook.translate.meaning import Difference, Side, compare_beads, reportable
from rulebook.translate.results import AlignedText, Finding
from rulebook.translate.segments import Sentence
from rulebook.translate.sentence_align import Bead

COMPARISON_KEYS = {GREATER: "more_than", AT_LEAST: "at_least", LESS: "less_than", AT_MOST: "at_most"}
"""Each comparison's key in a language file: a ``comparison-differs`` helps in the translation's words."""
Quantities = Callable[[Sentence, int], tuple[Quantity, ...]]


def meaning_findings(text: AlignedText, pairs: list[Pair], quantities: Quantities, language: Language) -> list[Finding]:
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
                first = bead.original[0], bead.translation[0]
                found.append(_difference(difference, text, pair, evidence, first, language))
    return found


def moved_findings(
    texts: Sequence[AlignedText], pairs: list[Pair], quantities: Quantities, language: Language
) -> list[Finding]:
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
            for moved_finding in meaning_findings(replace(joined, beads=tuple(beads)), pairs, quantities, language):
                found.append(replace(moved_finding, marks=()))
    return found


def _difference(
    difference: Difference,
    text: AlignedText,
    pair: Pair,
    evidence: tuple[str, str],
    sentences: tuple[int, int],
    language: Language,
) -> Finding:
    first, second = sentences
    left = [q for _, q in difference.original]
    right = [q for _, q in difference.translation]
    place = _quantity_place(text.translation, difference.translation) or text.translation[second].span
    counterpart = _quantity_place(text.original, difference.original) or text.original[first].span
    details = {"original": [q.shown for q in left], "translation": [q.shown for q in right]}
    if difference.kind == "comparison-differs":
        a, b = left[0], right[0]
        says = f"{b.comparison} `{b.shown}`" if b.comparison else f"`{b.shown}` without a bound"
        message = f"the original says {a.comparison} `{a.shown}`, the translation says {says}"
        wanted = COMPARISON_KEYS.get(a.comparison or "")
        words = language.quote(language.comparison_words(wanted)) if wanted else a.comparison
        help_text = f"write {words} as the original means"
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
    return finding(rule, message, place, counterpart, help_text, text, pair, evidence, details, marks)


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
