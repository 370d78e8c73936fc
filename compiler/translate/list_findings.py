"""Findings on lists: a list of the translation with another number of entries than the original's.

Each list of the original is paired with the list of the translation that holds the translations of
most of its entries (the aligned sentences say which), and their entries are counted: two steps
merged into one, an entry split, or one left out (then also a missing sentence) all change the count.
"""

from __future__ import annotations

from collections import Counter

from rulebook.catalog import translation as rules
from rulebook.translate.align import Pair
from rulebook.translate.findings import finding
from rulebook.translate.results import AlignedText, Finding, Mark


def list_findings(text: AlignedText, pairs: list[Pair]) -> list[Finding]:
    """Lists paired across the texts whose numbers of entries differ."""
    sides = (text.original, text.translation)
    entries: tuple[dict[int, dict[int, int]], dict[int, dict[int, int]]] = ({}, {})
    votes: Counter[tuple[int, int]] = Counter()
    for side in (0, 1):
        for index, sentence in enumerate(sides[side]):
            if sentence.item is not None:
                entries[side].setdefault(sentence.item[0], {}).setdefault(sentence.item[1], index)
    for bead in text.beads:
        for i in bead.original:
            for j in bead.translation:
                left, right = sides[0][i].item, sides[1][j].item
                if left is not None and right is not None:
                    votes[(left[0], right[0])] += 1
    found = []
    taken: tuple[set[int], set[int]] = (set(), set())
    for (first, second), _ in sorted(votes.items(), key=lambda kv: (-kv[1], kv[0])):
        if first in taken[0] or second in taken[1]:
            continue
        taken[0].add(first)
        taken[1].add(second)
        if len(entries[0][first]) != len(entries[1][second]):
            found.append(_differs(text, pairs[text.pair], entries[0][first], entries[1][second]))
    return found


def _differs(text: AlignedText, pair: Pair, original: dict[int, int], translation: dict[int, int]) -> Finding:
    first = (original[min(original)], translation[min(translation)])
    counts = len(original), len(translation)
    more = "merged or left out" if counts[0] > counts[1] else "split or added"
    message = f"the original's list has {counts[0]} entries, the translation's {counts[1]} (entries {more})"
    help_text = "give each entry of the original an entry of its own, as the original lists them"
    marks: tuple[Mark, ...] = ((1, first[1], -1, -1), (0, first[0], -1, -1))
    evidence = (
        " | ".join(text.original[i].text for i in original.values()),
        " | ".join(text.translation[j].text for j in translation.values()),
    )
    return finding(
        rules.LIST_DIFFERS,
        message,
        text.translation[first[1]].span,
        text.original[first[0]].span,
        help_text,
        text,
        pair,
        evidence,
        {"original": counts[0], "translation": counts[1]},
        marks,
    )
