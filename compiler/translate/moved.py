"""Passages moved: sentences without counterpart where they stand, translated elsewhere in their pair (the
translation reordered them) or in a neighbouring pair (the conversion moved them).

A PDF places a figure's caption where the page has room: an English caption may be in a French
section six sections later. Each run of original
sentences left without counterpart is aligned (:func:`align_sentences`) with the runs of
translated sentences left without counterpart in the pairs around it; beads as cheap as a good
translation's are accepted as moved, not missing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from rulebook.translate.results import AlignedText, Moved
from rulebook.translate.segments import Sentence
from rulebook.translate.sentence_align import Features, align_sentences

ACCEPTED_COST = 1.0
"""The moved sentences' beads must cost at most this per sentence on average: lengths that agree, and
values, terms or cognates in common (a good 1-1 bead of the book costs -4 to 1)."""
REORDERED_COST = 3.0
"""The same within one pair: sentences left over on both sides of one section are most often reordered."""


def match_moved(
    texts: list[AlignedText], features: Callable[[Sentence, int], Features], reach: int, ratio: float
) -> list[AlignedText]:
    """The texts with the moved sentences recorded on both sides."""
    originals = [run for text in texts for run in _runs(text, 0)]
    translations = [run for text in texts for run in _runs(text, 1)]
    by_pair = {text.pair: text for text in texts}
    moved: dict[int, list[Moved]] = {}
    taken: set[tuple[int, int]] = set()
    for pair, indices in originals:
        best: tuple[int, int, list[tuple[tuple[int, ...], tuple[int, ...]]]] | None = None
        for other, candidates in translations:
            if abs(other - pair) > reach:
                continue
            free = tuple(j for j in candidates if (other, j) not in taken)
            if not free:
                continue
            left = [_plain(features(by_pair[pair].original[i], 0)) for i in indices]
            right = [_plain(features(by_pair[other].translation[j], 1)) for j in free]
            beads = [b for b in align_sentences(left, right, ratio) if b.original and b.translation]
            costs = [b.cost / max(len(b.original), len(b.translation)) for b in beads]
            kinds_agree = all(
                len({_caption(by_pair[pair].original[indices[i]]) for i in b.original})
                == 1
                == len(
                    {_caption(by_pair[pair].original[indices[i]]) for i in b.original}
                    | {_caption(by_pair[other].translation[free[j]]) for j in b.translation}
                )
                for b in beads
            )
            threshold = REORDERED_COST if other == pair else ACCEPTED_COST
            if not beads or not kinds_agree or sum(costs) / len(costs) > threshold:
                continue
            accepted = [(tuple(indices[i] for i in b.original), tuple(free[j] for j in b.translation)) for b in beads]
            score = sum(len(a) + len(b) for a, b in accepted)
            if accepted and (best is None or score > best[0]):
                best = (score, other, accepted)
        if best is None:
            continue
        _, other, accepted = best
        for mine, theirs in accepted:
            moved.setdefault(pair, []).append(Moved(0, mine, other, theirs))
            moved.setdefault(other, []).append(Moved(1, theirs, pair, mine))
            taken.update((other, j) for j in theirs)
    return [replace(text, moved=tuple(moved.get(text.pair, ()))) for text in texts]


def _plain(features: Features) -> Features:
    """Features without kinds: a caption is looked for like any sentence (its usual low cost of being left
    out would leave it out here too)."""
    return replace(features, captions=0, pointers=0, labels=0)


def _caption(sentence: Sentence) -> bool:
    return sentence.kind in ("caption", "pointer")


def _runs(text: AlignedText, side: int) -> list[tuple[int, tuple[int, ...]]]:
    """The pair's runs of consecutive sentences of one side without counterpart."""
    runs: list[tuple[int, tuple[int, ...]]] = []
    current: list[int] = []
    for bead in text.beads:
        mine, theirs = (bead.original, bead.translation) if side == 0 else (bead.translation, bead.original)
        if mine and not theirs:
            current += mine
        elif current:
            runs.append((text.pair, tuple(current)))
            current = []
    if current:
        runs.append((text.pair, tuple(current)))
    return runs
