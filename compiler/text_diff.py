"""Two texts compared word by word and sentence by sentence, in time that grows linearly with them.

difflib gives the answer the edition diff is specified by, but takes quadratic time on what repeats (a
sentence of numbers) and on what is compared each with each (the sentences of a rewritten section).
Each comparison here gives exactly difflib's answer up to a stated size, and past it takes a linear
way and says so (:class:`Budget`): an edition's diff cannot be made to run for minutes.
"""

from __future__ import annotations

import difflib
from bisect import bisect_left
from collections import Counter, deque
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field

Opcode = tuple[str, int, int, int, int]
"""difflib's ``(tag, i1, i2, j1, j2)``: ``a[i1:i2]`` is equal to, replaced by, deleted from or inserted as
``b[j1:j2]``."""

WORDS_COMPARED = 2_000
"""How many words two texts may have to be compared word by word as difflib does.

difflib's matching is quadratic in words that repeat (a sentence of numbers): longer texts are compared
from where they differ to where they agree again, and a middle still longer than this is one replacement,
so that an edition's comparison stays linear in its text."""
SENTENCES_ALIGNED = 2_000
"""How many sentences two texts may have to be aligned sentence by sentence as difflib does.

Past it, the middle (from where they differ to where they agree again) is aligned on the sentences found
exactly once in each text, in the longest run that keeps their order (a patience diff); difflib aligns
the stretches between two of those when neither is longer than :data:`GAP`."""
GAP = 200
"""The longest stretch between two sentences found once in each text that difflib aligns (past
:data:`SENTENCES_ALIGNED`); a longer one is one replacement, its sentences paired as any others."""
SENTENCE_WORK = 3_000_000
"""How many word comparisons the pairing of a section's changed sentences may take, as difflib counts
them: comparing two sentences of m and n words costs m·n (m + n when a cheaper bound rules the pair out).
About a second on a slow machine; ordinary editions take a small part of it."""
EDITION_WORK = 10_000_000
"""How many word comparisons the pairing of the changed sentences of all the sections of an edition may take, and
the sentence comparisons of their alignment (``m·n`` for sections of m and n sentences, as difflib may count them on
repeats): each section had its :data:`SENTENCE_WORK`, and twenty sections of 1,000 repeated sentences (241 KB) took
14 s. A few seconds; ordinary editions take a small part of it."""
PAIRED_AHEAD = 20
"""Past :data:`SENTENCE_WORK`, how many of the next new sentences an old one is paired with."""
SIMILAR = 0.4
"""How alike two sentences must be (difflib's ratio of their words) to be one sentence changed."""
MOVED = 0.8
"""How alike a sentence removed and one added elsewhere must be to be one sentence moved."""


@dataclass
class EditionBudget:
    """What the comparison of all the sections of an edition may still spend (:data:`EDITION_WORK`)."""

    left: int = field(default_factory=lambda: EDITION_WORK)


@dataclass
class Budget:
    """What the comparison of one section may still spend (:data:`SENTENCE_WORK`, and what is left of its edition's
    :class:`EditionBudget`), and what it did past it."""

    edition: EditionBudget = field(default_factory=EditionBudget)
    """What the section's edition has left, shared by its sections."""
    left: int = SENTENCE_WORK
    """Word comparisons left."""
    simplified: list[str] = field(default_factory=list)
    """Each way the comparison was made simpler than difflib's, once: ``words`` (a long middle shown as one
    replacement), ``aligned`` (on the sentences found once in each text), ``paired`` (sentences paired with
    the next ones only, moves found only unchanged)."""

    @property
    def exhausted(self) -> bool:
        """Whether the comparison ran out (the section's or the edition's): the rest of the section is paired the
        simpler way."""
        return "paired" in self.simplified or self.edition_spent

    @property
    def edition_spent(self) -> bool:
        """Whether the edition's budget ran out in this section: the rest of it was compared the simpler ways."""
        return "edition" in self.simplified

    def spend_on_pairing(self, work: int) -> bool:
        """Whether ``work`` more word comparisons of the pairing of changed sentences fit the section's budget and the
        edition's (then they are spent); once they do not, none do."""
        if self.exhausted:
            return False
        if work > self.edition.left or work > self.left:
            self.note("edition" if work > self.edition.left else "paired")
            return False
        self.left -= work
        self.edition.left -= work
        return True

    def spend_on_matching(self, work: int) -> bool:
        """Whether the edition has ``work`` more comparisons of difflib's matching left (then they are spent): past
        it, words are shown as one replacement and sentences aligned on those found once."""
        if work > self.edition.left:
            self.note("edition")
            return False
        self.edition.left -= work
        return True

    def note(self, simplification: str) -> None:
        if simplification not in self.simplified:
            self.simplified.append(simplification)

    def notes(self, title: str) -> list[str]:
        """What the comparison of the section ``title`` did otherwise than difflib, in words."""
        said = {
            "words": f"more than {WORDS_COMPARED:,} words lie between its first and last change: they are shown "
            "as one replacement",
            "aligned": f"it has more than {SENTENCES_ALIGNED:,} sentences: they were aligned on those found once in "
            "each edition",
            "paired": f"its changed sentences are too many to compare each with each (past {SENTENCE_WORK:,} word "
            f"comparisons): the rest were paired with the next {PAIRED_AHEAD} by the words they share, and found "
            "moved only when unchanged",
            "edition": f"the edition's changes were too many to compare as difflib does (past {EDITION_WORK:,} "
            "comparisons in all its sections): from here its words are shown as replacements, its sentences "
            f"aligned on those found once in each edition and paired with the next {PAIRED_AHEAD}",
        }
        return [f"`{title}`: {said[simplification]}" for simplification in self.simplified]


class _Spent(Exception):
    """The budget ran out in the middle of difflib's matching."""


class _BudgetedMatcher(difflib.SequenceMatcher):  # type: ignore[type-arg]
    """difflib's matcher, each search for the longest match (:meth:`find_longest_match`) charged as it is made, before
    it is made: the matching searches again in each stretch between two matches, so a text whose matches are single
    words (a word inserted after each) took the square of its length, which a count made once did not see (the
    thirty-third probe). A search of a stretch of ``a`` costs its length times how many places an item of ``a`` has
    in ``b`` on average, plus the stretch of ``b``."""

    def __init__(self, a: Sequence[Hashable], b: Sequence[Hashable], take: Callable[[int], bool]) -> None:
        super().__init__(a=a, b=b, autojunk=False)
        places = Counter(b)
        self._places = max(1, -(-sum(places[item] for item in a) // max(1, len(a))))
        self._take = take
        self._lengths = (len(a), len(b))

    def find_longest_match(
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> difflib.Match:
        ahi = self._lengths[0] if ahi is None else ahi
        bhi = self._lengths[1] if bhi is None else bhi
        if not self._take((ahi - alo) * self._places + (bhi - blo) + 1):
            raise _Spent
        return super().find_longest_match(alo, ahi, blo, bhi)


def word_opcodes(a: Sequence[Hashable], b: Sequence[Hashable], budget: Budget | None = None) -> list[Opcode]:
    """difflib's opcodes turning ``a`` into ``b``, in bounded time (see :data:`WORDS_COMPARED`).

    Texts up to that length are compared whole, as difflib does; longer ones from where they differ
    to where they agree again (which may pair repeated words otherwise than difflib would). A middle
    made one replacement is noted in ``budget``."""
    opcodes, replaced = _opcodes(
        a, b, WORDS_COMPARED, _replaced, budget.spend_on_matching if budget is not None else None
    )
    if replaced and budget is not None and not budget.edition_spent:
        budget.note("words")
    return opcodes


def word_likeness(a: Sequence[Hashable], b: Sequence[Hashable]) -> float:
    """difflib's ratio of two word lists (the share of words in common), from :func:`word_opcodes`."""
    if not a and not b:
        return 1.0
    common = sum(i2 - i1 for tag, i1, i2, _, _ in word_opcodes(a, b) if tag == "equal")
    return 2.0 * common / (len(a) + len(b))


def sentence_opcodes(a: Sequence[str], b: Sequence[str], budget: Budget) -> list[Opcode]:
    """difflib's opcodes turning the sentences ``a`` into ``b``, in bounded time (see :data:`SENTENCES_ALIGNED`)."""
    opcodes, anchored = _opcodes(a, b, SENTENCES_ALIGNED, _anchored, budget.spend_on_matching)
    if anchored and not budget.edition_spent:
        budget.note("aligned")
    return opcodes


def _opcodes(
    a: Sequence[Hashable],
    b: Sequence[Hashable],
    limit: int,
    past_limit: Callable[[Sequence[Hashable], Sequence[Hashable]], list[Opcode]],
    take: Callable[[int], bool] | None = None,
) -> tuple[list[Opcode], bool]:
    """difflib's opcodes when both are at most ``limit`` long; else ``past_limit``'s for the middle from where they
    differ to where they agree again, when that is longer (or when difflib's matching runs past the budget ``take``
    spends: :class:`_BudgetedMatcher`); and whether it was asked."""
    if max(len(a), len(b)) <= limit:
        matched = _matched(a, b, take)
        if matched is not None:
            return matched, False
    shorter = min(len(a), len(b))
    start = 0
    while start < shorter and a[start] == b[start]:
        start += 1
    end = 0
    while end < shorter - start and a[-1 - end] == b[-1 - end]:
        end += 1
    a_end, b_end = len(a) - end, len(b) - end
    middle = None if max(a_end, b_end) - start > limit else _matched(a[start:a_end], b[start:b_end], take)
    past = middle is None
    if middle is None:
        middle = past_limit(a[start:a_end], b[start:b_end])
    # The middle starts and ends where the texts differ, so the equal start and end stand apart from it.
    spans = [("equal", 0, start, 0, start), *_shifted(middle, start, start), ("equal", a_end, len(a), b_end, len(b))]
    return [span for span in spans if span[1] < span[2] or span[3] < span[4]], past


def _matched(a: Sequence[Hashable], b: Sequence[Hashable], take: Callable[[int], bool] | None) -> list[Opcode] | None:
    """difflib's opcodes, or None when its matching ran past the budget ``take`` spends."""
    if take is None:
        return list(difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes())
    try:
        return list(_BudgetedMatcher(a, b, take).get_opcodes())
    except _Spent:
        return None


def _replaced(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Opcode]:
    """``a`` as one replacement by ``b`` (or deletion, or insertion when a side is empty)."""
    tag = "replace" if a and b else "delete" if a else "insert"
    return [(tag, 0, len(a), 0, len(b))] if a or b else []


def _anchored(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Opcode]:
    """Opcodes aligning ``a`` and ``b`` on the items found once in each, in their longest common order;
    the stretches between them aligned by difflib up to :data:`GAP` items, else replaced."""
    anchors = _longest_ordered(_found_once(a, b))
    opcodes: list[Opcode] = []
    i0 = j0 = 0
    for i, j in [*anchors, (len(a), len(b))]:
        if max(i - i0, j - j0) <= GAP:
            gap: list[Opcode] = list(difflib.SequenceMatcher(a=a[i0:i], b=b[j0:j], autojunk=False).get_opcodes())
        else:
            gap = _replaced(a[i0:i], b[j0:j])
        opcodes += _shifted([op for op in gap if op[1] < op[2] or op[3] < op[4]], i0, j0)
        if i < len(a):
            opcodes.append(("equal", i, i + 1, j, j + 1))
        i0, j0 = i + 1, j + 1
    return _joined(opcodes)


def _found_once(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int]]:
    """``(i, j)`` for each item found exactly once in ``a`` (at ``i``) and once in ``b`` (at ``j``), by ``i``."""
    in_a, in_b = Counter(a), Counter(b)
    where_b = {item: j for j, item in enumerate(b) if in_b[item] == 1}
    return [(i, where_b[item]) for i, item in enumerate(a) if in_a[item] == 1 and item in where_b]


def _longest_ordered(pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The longest run of ``pairs`` (ordered by their first number) whose second numbers increase too."""
    tails: list[int] = []  # the smallest last j of an increasing run of each length
    ends: list[int] = []  # the index in pairs of that last element
    before = [-1] * len(pairs)
    for index, (_, j) in enumerate(pairs):
        length = bisect_left(tails, j)
        if length == len(tails):
            tails.append(j)
            ends.append(index)
        else:
            tails[length], ends[length] = j, index
        before[index] = ends[length - 1] if length else -1
    run: list[tuple[int, int]] = []
    index = ends[-1] if ends else -1
    while index != -1:
        run.append(pairs[index])
        index = before[index]
    return run[::-1]


def _shifted(opcodes: list[Opcode], i: int, j: int) -> list[Opcode]:
    return [(tag, i1 + i, i2 + i, j1 + j, j2 + j) for tag, i1, i2, j1, j2 in opcodes]


def _joined(opcodes: list[Opcode]) -> list[Opcode]:
    """Neighbouring equal spans made one, as difflib gives them."""
    joined: list[Opcode] = []
    for opcode in opcodes:
        if joined and opcode[0] == "equal" == joined[-1][0]:
            joined[-1] = ("equal", joined[-1][1], opcode[2], joined[-1][3], opcode[4])
        else:
            joined.append(opcode)
    return joined


# -- pairing changed sentences ------------------------------------------------------------------------


class _Sentence:
    """A sentence's words, and how many times each: what comparing it with another needs."""

    __slots__ = ("counts", "words")

    def __init__(self, text: str) -> None:
        self.words = text.split()
        self.counts = Counter(self.words)


class SentencePairing:
    """The changed sentences of one section paired: each removed one with what it became, or alone.

    Exactly as difflib's ratios pair them while the section's :class:`Budget` lasts; past it, each
    old sentence is compared with the next :data:`PAIRED_AHEAD` new ones by the words they share, and a
    sentence is found moved only when unchanged."""

    def __init__(self, budget: Budget) -> None:
        self.budget = budget
        self.sentences: dict[str, _Sentence] = {}

    def pair(self, olds: Sequence[str], news: Sequence[str]) -> list[tuple[str, str]]:
        """Old and new sentences paired in order where alike enough; the others stand alone ("" on one side)."""
        pairs: list[tuple[str, str]] = []
        start = 0
        for old in olds:
            best = self._exact_best(old, news, start)
            if best is None:
                best = self._nearby_best(old, news, start)
            index, ratio = best
            if index is None or ratio < SIMILAR:
                pairs.append((old, ""))
                continue
            pairs += [("", new) for new in news[start:index]]
            pairs.append((old, news[index]))
            start = index + 1
        pairs += [("", new) for new in news[start:]]
        return pairs

    def moves(self, pairs: list[tuple[str, str]]) -> list[tuple[str, str, bool]]:
        """A sentence removed in one place and added, alike, in another was moved: one change, where it is now."""
        removed = {i: o for i, (o, n) in enumerate(pairs) if not n}
        unchanged: dict[str, deque[int]] = {}
        for i, old in removed.items():
            unchanged.setdefault(old, deque()).append(i)
        found: list[tuple[str, str, bool]] = []
        for old, new in pairs:
            if not old:
                match = self._first_alike(new, removed)
                if match is None and self.budget.exhausted:
                    match = _first_left(unchanged.get(new), removed)
                if match is not None:
                    found.append((removed.pop(match), new, True))
                    continue
            found.append((old, new, False))
        kept = set(removed.values())
        return [(o, n, m) for o, n, m in found if n or o in kept]

    def _exact_best(self, old: str, news: Sequence[str], start: int) -> tuple[int | None, float] | None:
        """The first of ``news[start:]`` most alike ``old`` and its ratio (None, -1 for none); None when the
        comparison ran out on the way. The cheap bound rules out what cannot be the answer."""
        if self.budget.exhausted:
            return None
        a = self._words(old)
        best: int | None = None
        best_ratio = -1.0
        for index in range(start, len(news)):
            b = self._words(news[index])
            if not self.budget.spend_on_pairing(len(a.words) + len(b.words)):
                return None
            bound = _bound(a, b)
            if bound < SIMILAR or bound <= best_ratio:
                continue
            if not self.budget.spend_on_pairing(len(a.words) * len(b.words)):
                return None
            ratio = word_likeness(a.words, b.words)
            if ratio > best_ratio:
                best, best_ratio = index, ratio
        return best, best_ratio

    def _nearby_best(self, old: str, news: Sequence[str], start: int) -> tuple[int | None, float]:
        """The first of the next :data:`PAIRED_AHEAD` new sentences sharing most words with ``old``."""
        a = self._words(old)
        best: int | None = None
        best_share = -1.0
        for index in range(start, min(len(news), start + PAIRED_AHEAD)):
            share = _bound(a, self._words(news[index]))
            if share > best_share:
                best, best_share = index, share
        return best, best_share

    def _first_alike(self, new: str, removed: dict[int, str]) -> int | None:
        """The first removed sentence as alike ``new`` as a move needs; None if none or if the comparison
        ran out on the way."""
        if self.budget.exhausted:
            return None
        b = self._words(new)
        for i, old in removed.items():
            a = self._words(old)
            if not self.budget.spend_on_pairing(len(a.words) + len(b.words)):
                return None
            if _bound(a, b) < MOVED:
                continue
            if not self.budget.spend_on_pairing(len(a.words) * len(b.words)):
                return None
            if word_likeness(a.words, b.words) >= MOVED:
                return i
        return None

    def _words(self, text: str) -> _Sentence:
        found = self.sentences.get(text)
        if found is None:
            found = self.sentences[text] = _Sentence(text)
        return found


def _bound(a: _Sentence, b: _Sentence) -> float:
    """The share of words two sentences have in common in any order: never below difflib's ratio."""
    total = len(a.words) + len(b.words)
    if not total:
        return 1.0
    small, large = (a.counts, b.counts) if len(a.counts) <= len(b.counts) else (b.counts, a.counts)
    common = sum(min(count, large[word]) for word, count in small.items())
    return 2.0 * common / total


def _first_left(places: deque[int] | None, removed: dict[int, str]) -> int | None:
    """The first of ``places`` still in ``removed`` (those taken before are dropped on the way)."""
    while places and places[0] not in removed:
        places.popleft()
    return places[0] if places else None
