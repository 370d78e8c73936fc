"""Did-you-mean suggestions."""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest

from rulebook import suggest
from rulebook.names import normalise, singular
from rulebook.suggest import Suggester, one_edit_apart

NAMES = ["line_of_sight", "undeployed_unit_number", "model", "base", "unit", "army_list", "ward_save"]


@pytest.mark.parametrize(
    ("typo", "expected"),
    [
        ("line_of_sihgt", "line_of_sight"),  # swapped neighbours
        ("Line of Sight", "line_of_sight"),  # case and spaces
        ("line-of-sight", "line_of_sight"),  # hyphens
        ("undeployed_units_number", "undeployed_unit_number"),  # plural inside a name
        ("models", "model"),
        ("modl", "model"),  # a missing letter
        ("bsae", "base"),  # a swap across the middle of the name
        ("army_lists", "army_list"),
        ("ward_saves", "ward_save"),
    ],
)
def test_suggests_the_intended_name(typo: str, expected: str) -> None:
    assert Suggester(NAMES).suggest(typo)[0] == expected


def test_suggests_nothing_for_unrelated_names() -> None:
    suggester = Suggester(NAMES)
    assert suggester.suggest("charge") == ()
    assert suggester.suggest("rare") == ()  # two edits from a short name is noise


def test_normalise_folds_case_separators_and_plurals() -> None:
    assert normalise("Terrain Features") == normalise("terrain_feature") == "terrain_feature"
    assert normalise("abilities") == "ability"


def test_normalise_takes_no_shortcut_that_changes_a_name() -> None:
    """Names with nothing to fold skip the word by word pass: the result is the one that pass gives."""
    rng = random.Random(11)
    for _ in range(5000):
        name = "".join(rng.choice("aAsS_ -\tx\u0130\u00df") for _ in range(rng.randint(0, 8)))
        words = name.strip().lower().replace(" ", "_").replace("-", "_").replace("\t", "_").split("_")
        assert normalise(name) == "_".join(singular(word) for word in words if word), name


def edit_distance(a: str, b: str) -> int:
    """Optimal string alignment distance (a swap of neighbours counts as one edit): the slow, plain oracle the
    suggester's shortcuts are checked against."""
    if a == b:
        return 0
    previous2: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        ca = a[i - 1]
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cb = b[j - 1]
            value = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (ca != cb))
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb:
                value = min(value, previous2[j - 2] + 1)
            current[j] = value
        previous2, previous = previous, current
    return previous[-1]


def test_one_edit_apart_agrees_with_edit_distance() -> None:
    rng = random.Random(7)
    for _ in range(5000):
        a = "".join(rng.choice("abc_") for _ in range(rng.randint(0, 6)))
        b = "".join(rng.choice("abc_") for _ in range(rng.randint(0, 6)))
        assert one_edit_apart(a, b) == (edit_distance(a, b) == 1), (a, b)


def test_suggest_agrees_with_a_pass_over_every_candidate() -> None:
    rng = random.Random(3)
    candidates = sorted({"".join(rng.choice("ab_s") for _ in range(rng.randint(1, 6))) for _ in range(300)})
    suggester = Suggester(candidates)
    for _ in range(2000):
        name = "".join(rng.choice("ab_sA") for _ in range(rng.randint(0, 7)))
        same = [c for c in candidates if c != name and normalise(c) == normalise(name)]
        near = sorted(c for c in candidates if c not in same and edit_distance(name, c) == 1)
        expected = same + near
        if not expected:  # nothing that close: a name one edit from a folded form, else of the same stem
            folded = normalise(name)
            expected = sorted(c for c in candidates if c != name and edit_distance(folded, normalise(c)) == 1)
            expected = expected or sorted(c for c in candidates if _same_stem_plainly(name, c))
        assert suggester.suggest(name) == tuple(expected[:3]), name


def _same_stem_plainly(a: str, b: str) -> bool:
    shared = next((i for i, (x, y) in enumerate(zip(a.casefold(), b.casefold(), strict=False)) if x != y), None)
    shared = min(len(a.casefold()), len(b.casefold())) if shared is None else shared
    return a.casefold() != b.casefold() and shared >= 5 and shared >= min(len(a), len(b)) - 1


def test_a_plural_of_a_typo_and_a_word_of_the_same_stem_are_suggested() -> None:
    suggester = Suggester(["scavenger", "measuring", "charge", "chariot"])
    assert suggester.suggest("scavangers") == ("scavenger",)  # the plural of a misspelt term
    assert suggester.suggest("measure") == ("measuring",)  # `(#measure)` where the section is `#measuring`
    assert suggester.suggest("chart") == ()  # a shared start too short to be a stem


@pytest.mark.parametrize("seed", range(2))
def test_suggest_agrees_with_a_pass_over_every_candidate_for_longer_names(seed: int) -> None:
    """Names long enough to share stems, in upper and lower case: the indexes give what a pass over every name does."""
    rng = random.Random(seed)
    alphabet = "ab_sA" if seed % 2 else "abcS_"
    candidates = sorted({"".join(rng.choice(alphabet) for _ in range(rng.randint(3, 9))) for _ in range(300)})
    suggester = Suggester(candidates)
    for _ in range(400):
        name = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        same = [c for c in candidates if c != name and normalise(c) == normalise(name)]
        expected = same + sorted(c for c in candidates if c not in same and edit_distance(name, c) == 1)
        if not expected:
            folded = normalise(name)
            expected = sorted(c for c in candidates if c != name and edit_distance(folded, normalise(c)) == 1)
            expected = expected or sorted(c for c in candidates if _same_stem_plainly(name, c))
        assert suggester.suggest(name) == tuple(expected[:3]), name


@pytest.mark.parametrize("misspelt", ["{}x", "{}zzz"], ids=["one-edit", "same-stem"])
def test_names_sharing_a_prefix_are_compared_a_few_at_a_time(misspelt: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """3,000 names ``term_N`` and a misspelling of each: every name shares the start ``term``, and the indexes still
    hand each lookup a few names to compare (a filing by halves handed each all 3,000: 9.7 s, 42 s for 6,000)."""
    compared = 0
    real_one_edit, real_same_stem = suggest.one_edit_apart, suggest._same_stem

    def counted(real: Callable[[str, str], bool]) -> Callable[[str, str], bool]:
        def call(a: str, b: str) -> bool:
            nonlocal compared
            compared += 1
            return real(a, b)

        return call

    monkeypatch.setattr(suggest, "one_edit_apart", counted(real_one_edit))
    monkeypatch.setattr(suggest, "_same_stem", counted(real_same_stem))
    names = [f"term_{number}" for number in range(3000)]
    suggester = Suggester(names)
    found = [suggester.suggest(misspelt.format(name)) for name in names]
    assert "term_1234" in found[1234] if misspelt == "{}x" else found[1234][:2] == ("term_0", "term_1")
    assert compared < 3000 * 40, compared
