"""Findings inside aligned sentences beyond their numbers: an obligation or frequency changed, a roll or a
die dropped or added, a rounding dropped or changed, a parenthesis left out, and a length that is an
outlier for the two languages (content added or dropped inside a sentence).

Each reads what the languages' files list (:mod:`rulebook.languages.wording`) in both sides of a
bead, and reports with the translation's words as the place and the original's as the counterpart.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from rulebook.catalog import translation as rules
from rulebook.languages.data import Language
from rulebook.languages.phrases import Found
from rulebook.languages.wording import CONFLICTS, SHOWN, Dice, dice, modalities, parentheses, roundings
from rulebook.source import Span
from rulebook.translate.align import Pair
from rulebook.translate.findings import finding
from rulebook.translate.results import AlignedText, Finding, Mark
from rulebook.translate.segments import Sentence
from rulebook.translate.sentence_align import Bead, Features, length_delta
from rulebook.translate.terminology import TermMatcher

LENGTH_OUTLIER = 3.0
"""Standard deviations (Gale and Church's delta) past which a pair of sentences' lengths is an outlier."""
LENGTH_SHORTEST = 60
"""Characters the longer sentence of a pair must have for its length to tell anything."""
PARENTHESIS_OUTLIER = 2.0
"""A translation shorter than this many standard deviations (Gale and Church's delta) ..."""
PARENTHESIS_EXPLAINED = 1.5
"""... that is no further than this from the original without its parentheses left them out."""


@dataclass(frozen=True, slots=True)
class Languages:
    """What the checks read both sides with."""

    original: Language
    translation: Language
    matcher: TermMatcher
    """The terminology's renderings in the translation."""
    entries: frozenset[str]
    """The term ids the terminology lists."""
    features: Callable[[Sentence, int], Features]
    ratio: float
    """How much longer the translation's sentences are than the original's, over the whole book."""


Located = tuple[int, Found]
"""Something found in one sentence of a side: (sentence index, what and where)."""


def wording_findings(text: AlignedText, pairs: list[Pair], languages: Languages) -> list[Finding]:
    """Obligations, rolls, rounding, parentheses and lengths that differ between aligned sentences."""
    pair = pairs[text.pair]
    found: list[Finding] = []
    for number, bead in enumerate(text.beads):
        if not bead.original or not bead.translation:
            continue
        sides = ([text.original[i] for i in bead.original], [text.translation[j] for j in bead.translation])
        near = _neighbours(text, number)
        obligation = _obligation(text, pair, bead, sides, languages, near)
        found += [f for f in (obligation, _roll(text, pair, bead, sides, languages)) if f is not None]
        rounding = _rounding(text, pair, bead, sides, languages)
        found += [rounding] if rounding is not None else []
        dropped = _parenthesis(text, pair, bead, sides, languages)
        found += dropped
        if not dropped:
            found += _length(text, pair, number, sides, languages)
    return found


Sides = tuple[list[Sentence], list[Sentence]]


def _neighbours(text: AlignedText, number: int, reach: int = 1) -> Sides:
    """The sentences of the beads around a bead (``reach`` before and after), side by side: where what a bead
    seems to lack or add often is when the alignment or the translation moved it."""
    around = [*range(number - reach, number), *range(number + 1, number + reach + 1)]
    beads = [text.beads[i] for i in around if 0 <= i < len(text.beads)]
    return (
        [text.original[i] for bead in beads for i in bead.original],
        [text.translation[j] for bead in beads for j in bead.translation],
    )


def _keys(sentences: Sequence[Sentence], side: int, languages: Languages) -> frozenset[str]:
    """What vouches for a translation across languages: values, terms and cognates (:class:`Features`)."""
    found: set[str] = set()
    for sentence in sentences:
        features = languages.features(sentence, side)
        found |= set(features.values) | features.terms | features.cognates
    return frozenset(found)


def _strong(sentences: Sequence[Sentence], side: int, languages: Languages) -> frozenset[str]:
    """The values and terms of sentences: what a rule states (cognates are only likely)."""
    found: set[str] = set()
    for sentence in sentences:
        features = languages.features(sentence, side)
        found |= set(features.values) | features.terms
    return frozenset(found)


def _located(bead: Bead, sides: Sides, reader: Callable[[str], Sequence[Found]]) -> tuple[list[Located], ...]:
    """What a reader finds in each sentence of each side of a bead, with the sentence's index in its side."""
    indices = (bead.original, bead.translation)
    return tuple(
        [
            (index, item)
            for index, sentence in zip(indices[side], sides[side], strict=True)
            for item in reader(sentence.text)
        ]
        for side in (0, 1)
    )


def _words(text: AlignedText, side: int, located: Located) -> str:
    index, item = located
    return (text.original, text.translation)[side][index].text[item.start : item.end]


def _place(text: AlignedText, side: int, located: Located) -> Span:
    index, item = located
    return (text.original, text.translation)[side][index].place(item.start, item.end)


def _mark(side: int, located: Located) -> Mark:
    index, item = located
    return (side, index, item.start, item.end)


MODAL_SENTENCES = 2
"""The most sentences a side of a bead may have for its obligations to be compared (more mix clauses up)."""


def _obligation(
    text: AlignedText, pair: Pair, bead: Bead, sides: Sides, languages: Languages, near: Sides
) -> Finding | None:
    """An obligation or frequency the translation contradicts: must and may, may and cannot, always and never.

    Compared only where each side says it in one sentence of at most :data:`MODAL_SENTENCES`, and not when
    a neighbouring sentence of the other side says it (the alignment or the translation moved it).
    """
    if len(sides[0]) > MODAL_SENTENCES or len(sides[1]) > MODAL_SENTENCES:
        return None
    left = _located(bead, sides, lambda t: modalities(t, languages.original))[0]
    right = _located(bead, sides, lambda t: modalities(t, languages.translation))[1]
    if len({i for i, _ in left}) > 1 or len({j for j, _ in right}) > 1:
        return None
    said = ({f.category for _, f in left} - {"only"}, {f.category for _, f in right} - {"only"})
    nearby = (
        {f.category for s in near[0] for f in modalities(s.text, languages.original)},
        {f.category for s in near[1] for f in modalities(s.text, languages.translation)},
    )
    for a in _first_of_each(left):
        for b in _first_of_each(right):
            x, y = a[1].category, b[1].category
            if x in said[1] or y in said[0] or frozenset({x, y}) not in CONFLICTS:
                continue
            if y in nearby[0] or x in nearby[1]:
                continue
            original, translated = _words(text, 0, a), _words(text, 1, b)
            message = (
                f"the original states {SHOWN[x]} ({languages.original.quote(original)}), "
                f"the translation {SHOWN[y]} ({languages.translation.quote(translated)})"
            )
            help_text = f"check which the rule means: the original's {languages.original.quote(original)} rendered"
            return finding(
                rules.OBLIGATION_DIFFERS,
                message,
                _place(text, 1, b),
                _place(text, 0, a),
                help_text + f" as {SHOWN[y]} changes it",
                text,
                pair,
                (original, translated, sides[0][0].text, sides[1][0].text),
                {"original": x, "translation": y},
                (_mark(1, b), _mark(0, a)),
            )
    return None


def _first_of_each(located: list[Located]) -> list[Located]:
    """The first words of each category, in order: a sentence saying "must" a thousand times is compared once."""
    firsts: dict[str, Located] = {}
    for item in located:
        firsts.setdefault(item[1].category, item)
    return list(firsts.values())


def _roll(text: AlignedText, pair: Pair, bead: Bead, sides: Sides, languages: Languages) -> Finding | None:
    """A die one side writes and the other leaves out: dice notation (``D6``) with no die on the other side, or
    a word for a die with no die and no roll at all."""
    read = [
        [dice(s.text, language) for s in side]
        for side, language in zip(sides, (languages.original, languages.translation), strict=True)
    ]
    side = next((side for side in (0, 1) if _unmatched_die(read[side], read[1 - side])), None)
    if side is None:
        return None
    index = next(i for i, d in enumerate(read[side]) if d.die)
    located = ((bead.original, bead.translation)[side][index], read[side][index].die[0])
    words = _words(text, side, located)
    language = (languages.original, languages.translation)[side]
    lacks = "no die" if any(d.notation for d in read[side]) else "no die and no roll"
    if side == 0:
        message = f"the original rolls {language.quote(words)}; the translation writes {lacks}"
        place, counterpart = text.translation[bead.translation[0]].span, _place(text, 0, located)
        help_text = "check the roll the original makes, and write it"
    else:
        message = f"the translation rolls {language.quote(words)}; the original writes {lacks}"
        place, counterpart = _place(text, 1, located), text.original[bead.original[0]].span
        help_text = "check that the original rolls here; remove the roll otherwise"
    marks: tuple[Mark, ...] = (_mark(side, located), (1 - side, (bead.original, bead.translation)[1 - side][0], -1, -1))
    if side == 0:
        marks = (marks[1], marks[0])
    evidence = (words, " ".join(s.text for s in sides[0]), " ".join(s.text for s in sides[1]))
    return finding(
        rules.ROLL_DIFFERS, message, place, counterpart, help_text, text, pair, evidence, {"side": side}, marks
    )


def _unmatched_die(mine: list[Dice], theirs: list[Dice]) -> bool:
    """Whether a side's die has no counterpart on the other side."""
    if any(d.notation for d in mine):
        return not any(d.die for d in theirs)
    return any(d.dice for d in mine) and not any(d.any for d in theirs)


def _rounding(text: AlignedText, pair: Pair, bead: Bead, sides: Sides, languages: Languages) -> Finding | None:
    """A rounding the translation drops, changes or adds."""
    left = _located(bead, sides, lambda t: roundings(t, languages.original))[0]
    right = _located(bead, sides, lambda t: roundings(t, languages.translation))[1]
    ways = ({f.category for _, f in left}, {f.category for _, f in right})
    if ways[0] == ways[1]:
        return None
    quoted = (
        ", ".join(languages.original.quote(_words(text, 0, a)) for a in left),
        ", ".join(languages.translation.quote(_words(text, 1, b)) for b in right),
    )
    if left and right:
        ways_shown = SHOWN[left[0][1].category], SHOWN[right[0][1].category]
        message = f"the original {ways_shown[0]} ({quoted[0]}), the translation {ways_shown[1]} ({quoted[1]})"
        place, counterpart = _place(text, 1, right[0]), _place(text, 0, left[0])
        help_text = "round as the original does"
    elif left:
        message = f"the original {SHOWN[left[0][1].category]} ({quoted[0]}); the translation does not say how to round"
        place, counterpart = text.translation[bead.translation[0]].span, _place(text, 0, left[0])
        help_text = "write the rounding the original states"
    else:
        message = f"the translation {SHOWN[right[0][1].category]} ({quoted[1]}); the original does not say how to round"
        place, counterpart = _place(text, 1, right[0]), text.original[bead.original[0]].span
        help_text = "check that the original rounds here"
    marks = tuple(_mark(0, a) for a in left) + tuple(_mark(1, b) for b in right)
    if not right:
        marks = ((1, bead.translation[0], -1, -1), *marks)
    if not left:
        marks = (*marks, (0, bead.original[0], -1, -1))
    evidence = (" ".join(s.text for s in sides[0]), " ".join(s.text for s in sides[1]))
    details = {"original": sorted(ways[0]), "translation": sorted(ways[1])}
    return finding(rules.ROUNDING_DIFFERS, message, place, counterpart, help_text, text, pair, evidence, details, marks)


def _parenthesis(text: AlignedText, pair: Pair, bead: Bead, sides: Sides, languages: Languages) -> list[Finding]:
    """Parentheses of the original the translation renders nothing of."""
    translated = " ".join(s.text for s in sides[1])
    rendered = languages.matcher.terms(translated)
    rolls = any(dice(s.text, languages.translation).any for s in sides[1])
    found = []
    for index, sentence in zip(bead.original, sides[0], strict=True):
        groups = parentheses(sentence.text)
        if not groups:
            continue
        dropped = [
            g
            for g in groups
            if _keyed(sentence, g, languages) and not _rendered(sentence, g, languages, rendered, rolls)
        ]
        plain = [g for g in groups if not _keyed(sentence, g, languages)]
        single = len(bead.original) == len(bead.translation) == 1
        if dropped and single and not _fits_without(sentence, dropped, sides[1][0], languages):
            dropped = []  # the translation is as long as the sentence with its parentheses: said otherwise
        fewer = translated.count("(") < len(groups)
        if not dropped and plain and single and fewer and _explained_by(sentence, plain, sides[1][0], languages):
            dropped = plain
        if dropped:
            found.append(_dropped(text, pair, bead, index, sentence, dropped, languages))
    return found


def _terms_in(sentence: Sentence, span: tuple[int, int], languages: Languages) -> tuple[set[str], set[str]]:
    """The terms (of the terminology) a sentence writes inside a stretch, and those it writes outside it."""
    inside: set[str] = set()
    outside: set[str] = set()
    start = 0
    for term, shown in sentence.written_terms:
        at = sentence.text.find(shown.strip(), start) if shown.strip() else -1
        if at == -1 or term not in languages.entries:
            continue
        (inside if span[0] <= at < span[1] else outside).add(term)
        start = at + 1
    return inside, outside


def _keyed(sentence: Sentence, span: tuple[int, int], languages: Languages) -> bool:
    """Whether a parenthesis carries something the rest of its sentence does not: a term, or a die."""
    inside, outside = _terms_in(sentence, span, languages)
    if inside - outside:
        return True
    group = sentence.text[span[0] : span[1]]
    rest = sentence.text[: span[0]] + sentence.text[span[1] :]
    return bool(dice(group, languages.original).die) and not dice(rest, languages.original).die


def _rendered(
    sentence: Sentence, span: tuple[int, int], languages: Languages, rendered: frozenset[str], rolls: bool
) -> bool:
    inside, outside = _terms_in(sentence, span, languages)
    group = sentence.text[span[0] : span[1]]
    if (inside - outside) & rendered:
        return True
    return bool(dice(group, languages.original).die) and rolls


def _explained_by(
    sentence: Sentence, groups: list[tuple[int, int]], translation: Sentence, languages: Languages
) -> bool:
    """Whether the translation's length fits the sentence without its parentheses far better than with them."""
    left = languages.features(sentence, 0).length
    right = languages.features(translation, 1).length
    without = left - sum(end - start for start, end in groups)
    before, after = length_delta(left, right, languages.ratio), length_delta(without, right, languages.ratio)
    return before >= PARENTHESIS_OUTLIER and abs(after) <= PARENTHESIS_EXPLAINED


def _fits_without(
    sentence: Sentence, groups: list[tuple[int, int]], translation: Sentence, languages: Languages
) -> bool:
    """Whether the translation's length fits the sentence without the parentheses better than with them."""
    left = languages.features(sentence, 0).length
    right = languages.features(translation, 1).length
    without = left - sum(end - start for start, end in groups)
    return abs(length_delta(without, right, languages.ratio)) < abs(length_delta(left, right, languages.ratio))


def _dropped(
    text: AlignedText,
    pair: Pair,
    bead: Bead,
    index: int,
    sentence: Sentence,
    groups: list[tuple[int, int]],
    languages: Languages,
) -> Finding:
    shown = ", ".join(languages.original.quote(sentence.text[start:end]) for start, end in groups)
    several = len(groups) > 1
    message = f"the translation leaves out the parenthes{'es' if several else 'is'} {shown}"
    says = "es say" if several else "is says"
    help_text = f"translate what the parenthes{says}, or check that the translation says it otherwise"
    marks: tuple[Mark, ...] = ((1, bead.translation[0], -1, -1), *((0, index, start, end) for start, end in groups))
    evidence = (sentence.text, " ".join(text.translation[j].text for j in bead.translation), shown)
    place = text.translation[bead.translation[0]].span
    return finding(
        rules.PARENTHESIS_DROPPED,
        message,
        place,
        sentence.place(*groups[0]),
        help_text,
        text,
        pair,
        evidence,
        {},
        marks,
    )


CORRESPOND = 0.5
"""The share of the shorter sentence's terms and values the longer one must have: they translate each other
(else the alignment, not the translation, made the outlier) ..."""
CORRESPOND_WORDS = 0.3
"""... and, with fewer than :data:`CORRESPOND_STRONG` terms and values in common, the share of all its anchors
(cognates too: languages that share few, such as Polish and English, need terms)."""
CORRESPOND_STRONG = 3
MOVED_SHARE = 0.5
"""What the longer sentence says beyond the shorter (its terms and values; its cognates when it states no
more) found in this share near the shorter one was moved or merged by the translation, not left out."""
MOVED_REACH = 2
"""How many beads around are near."""


def _correspond(
    shorter: Sequence[Sentence], side: int, longer: Sequence[Sentence], other: int, languages: Languages
) -> bool:
    """Whether the longer sentence has most of the shorter one's terms and values, and (with few of those)
    enough of its cognates."""
    strong, keys = _strong(shorter, side, languages), _keys(shorter, side, languages)
    if not keys:
        return False
    shared = strong & _strong(longer, other, languages)
    if strong and len(shared) < CORRESPOND * len(strong):
        return False
    if len(shared) >= CORRESPOND_STRONG:
        return True
    return len(keys & _keys(longer, other, languages)) >= CORRESPOND_WORDS * len(keys)


def _length(text: AlignedText, pair: Pair, number: int, sides: Sides, languages: Languages) -> list[Finding]:
    """A pair of single sentences whose lengths are an outlier for the two languages, when they translate each
    other and what the longer one says beyond the shorter is not said near the shorter either."""
    bead = text.beads[number]
    if len(sides[0]) != 1 or len(sides[1]) != 1:
        return []
    left, right = languages.features(sides[0][0], 0).length, languages.features(sides[1][0], 1).length
    if max(left, right) < LENGTH_SHORTEST:
        return []
    delta = length_delta(left, right, languages.ratio)
    if abs(delta) < LENGTH_OUTLIER:
        return []
    longer = 0 if delta > 0 else 1
    if not _correspond(sides[1 - longer], 1 - longer, sides[longer], longer, languages):
        return []
    near = _neighbours(text, number, MOVED_REACH)[1 - longer]
    anchors = _strong
    beyond = anchors(sides[longer], longer, languages) - anchors(sides[1 - longer], 1 - longer, languages)
    if not beyond:  # nothing a rule states beyond the shorter one: its cognates tell where the rest went
        anchors = _keys
        beyond = anchors(sides[longer], longer, languages) - anchors(sides[1 - longer], 1 - longer, languages)
    if len(beyond & anchors(near, 1 - longer, languages)) >= MOVED_SHARE * len(beyond):
        return []
    expected = round(left * languages.ratio)
    if delta > 0:
        message = (
            f"the translation is much shorter than the original ({right} characters where about {expected} are usual)"
        )
        help_text = "check for a part of the original left out"
    else:
        message = (
            f"the translation is much longer than the original ({right} characters where about {expected} are usual)"
        )
        help_text = "check for a requirement or a clause the original does not have"
    marks: tuple[Mark, ...] = ((1, bead.translation[0], -1, -1), (0, bead.original[0], -1, -1))
    evidence = (sides[0][0].text, sides[1][0].text)
    return [
        finding(
            rules.LENGTH_DIFFERS,
            message,
            sides[1][0].span,
            sides[0][0].span,
            help_text,
            text,
            pair,
            evidence,
            {"delta": round(delta, 1)},
            marks,
        )
    ]
