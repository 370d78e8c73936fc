"""Recall on the French seed, measured by reading: a seeded random sample of section pairs, each read in both
texts, every difference of meaning listed with whether ``rulebook compare`` reports it
(tests/translation/recall.toml). The test holds the draw and the reported/unreported verdicts to the current
comparison: a check that starts reporting a difference marked unreported fails here, and the file (with the
recall docs/translation.md states) is brought up to date.
"""

from __future__ import annotations

import random
import tomllib

from .conftest import ROOT
from .test_translation_precision import seed_comparison

RECALL = ROOT / "tests" / "translation" / "recall.toml"
MEASURED = (6, 11)
"""Differences reported, of those found by reading (docs/translation.md says so)."""
NEW_KINDS = frozenset(
    {
        "parenthesis-dropped",
        "length-differs",
        "list-differs",
        "obligation-differs",
        "roll-differs",
        "rounding-differs",
        "term-missing",
        "numbers-differ",
        "comparison-differs",
        "sign-differs",
        "missing-sentence",
        "added-sentence",
    }
)
"""The kinds that speak of meaning: none of them may be at a line marked unreported."""


def read() -> dict[str, object]:
    return tomllib.loads(RECALL.read_text(encoding="utf-8"))


def test_the_sample_is_the_seeded_draw() -> None:
    table = read()
    paired = [p for p in seed_comparison().pairs if p.original is not None and p.translation is not None]
    drawn = random.Random(table["seed"]).sample(range(len(paired)), table["size"])
    sample = [paired[i].original.id for i in drawn if paired[i].original is not None]
    assert sample == table["sample"]
    assert {d["pair"] for d in table["difference"]} <= set(sample)


def test_each_difference_is_reported_or_not_as_the_reading_says() -> None:
    comparison = seed_comparison()
    found = {(f.kind, f.place.line) for f in comparison.findings if f.place is not None}
    differences = read()["difference"]
    for difference in differences:
        line = difference["translation"]
        if difference["reported"]:
            assert (difference["reported"], line) in found, difference["what"]
        else:
            assert not {kind for kind, at in found if at == line} & NEW_KINDS, difference["what"]
    reported = sum(1 for d in differences if d["reported"])
    assert (reported, len(differences)) == MEASURED
