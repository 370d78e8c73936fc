"""Precision on the seeds: every finding of `rulebook compare` is in a golden file, and every one was read in both
texts and judged (tests/translation/judgements.toml) before it was committed.

Rewrite the golden file with ``pytest --update-golden`` and read the diff: a new finding fails the judgement
test until someone has read it in both texts and judged it. ``docs/translation.md`` states the precision
measured here.
"""

from __future__ import annotations

import tomllib
from functools import cache

from rulebook.recipe.reading import read_book
from rulebook.translate.compare import Comparison, compare_books
from rulebook.translate.results import Finding
from rulebook.translate.terminology import load_terminology

from .conftest import BUNDLED_BOOK, ROOT, check_golden

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"
GOLDEN = ROOT / "tests" / "translation" / "seed-findings.txt"
JUDGEMENTS = ROOT / "tests" / "translation" / "judgements.toml"
PRECISION = 0.9
"""The issue's goal: at least nine findings in ten are real."""


@cache
def seed_comparison() -> Comparison:
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = read_book([FRENCH], ROOT, language="fr", source_format="plain-markdown").book
    return compare_books(english, french, terms=load_terminology(ROOT / "rulebook_src" / "fr" / "terms.toml"))


def key(finding: Finding) -> str:
    """A finding's key in the judgements: its kind and both places (the original's by line)."""
    here = f"fr:{finding.place.line}:{finding.place.column}" if finding.place else "fr:-"
    there = f"en:{finding.counterpart.line}" if finding.counterpart else "en:-"
    return f"{finding.kind} {here} {there}"


def golden_text(comparison: Comparison) -> str:
    def order(finding: Finding) -> tuple[int, int, str]:
        place = finding.place
        return (place.line, place.column, finding.kind) if place else (0, 0, finding.kind)

    findings = sorted(comparison.findings, key=order)
    return "".join(f"{f.rule.code} {key(f)} [{f.fingerprint}] {f.message}\n" for f in findings)


def test_the_seeds_findings_match_the_golden_file(update_golden: bool) -> None:
    check_golden(GOLDEN, golden_text(seed_comparison()), update_golden)


def test_every_finding_was_judged_and_nine_in_ten_are_real() -> None:
    judged = {entry["key"]: entry for entry in tomllib.loads(JUDGEMENTS.read_text(encoding="utf-8"))["finding"]}
    keys = [key(f) for f in seed_comparison().findings]
    assert len(keys) == len(set(keys))
    assert sorted(set(keys) - set(judged)) == []  # a finding nobody has judged yet
    assert sorted(set(judged) - set(keys)) == []  # a judgement of a finding that is gone
    assert {entry["verdict"] for entry in judged.values()} <= {"real", "false"}
    real = sum(1 for k in keys if judged[k]["verdict"] == "real")
    assert real / len(keys) >= PRECISION, f"{real} of {len(keys)} real"
