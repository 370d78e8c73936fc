"""The bundled English rulebook (the seed): the exact set of problems it has.

Derived by reading rulebook_src/en/rulebook.xml: the excerpt refers to many chapters not
yet written (dangling references and links) and has real mistakes, each pinned here.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
from collections import Counter, defaultdict

import pytest

from rulebook.diagnostics import Diagnostic
from rulebook.project import BookConfig
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book

from .conftest import BUNDLED_BOOK, ROOT, SHARED

SEED = SHARED / "seeds" / "000_43791f6f0549c9c5.txt"


@pytest.fixture(scope="module")
def diagnostics() -> list[Diagnostic]:
    return list(lint_book(read_book([BUNDLED_BOOK], ROOT), BookConfig("main"), root=ROOT).diagnostics)


def by_rule(diagnostics: list[Diagnostic], rule: str) -> list[tuple[str | None, int]]:
    return [(d.target, d.span.line) for d in diagnostics if d.rule == rule]


def test_counts_by_rule(diagnostics: list[Diagnostic]) -> None:
    assert Counter(d.rule for d in diagnostics) == {
        "dangling-reference": 221,
        "dangling-link": 9,
        "unused-definition": 9,
        "mutual-definition": 9,
        "reference-to-section": 4,
        "invalid-name": 1,
        "missing-image": 6,  # the seed ships no images
    }


def test_dangling_links_are_unwritten_sections_and_two_missing_ids(diagnostics: list[Diagnostic]) -> None:
    assert by_rule(diagnostics, "dangling-link") == [
        ("movement_phase", 91),
        ("magic_phase", 92),
        ("shooting_phase", 93),
        ("close_combat_phase", 94),
        ("magical_item_list", 560),
        # The "Deployment Zones" subsection exists but has no id.
        ("determine_deployment_zone", 598),
        ("scoring_and_victory_conditions", 740),
        ("book_path_of_magic", 751),
        # The deployment chapter has no subsection for this step.
        ("determine_who_takes_the_first_turn", 766),
    ]


def test_references_that_name_sections(diagnostics: list[Diagnostic]) -> None:
    assert by_rule(diagnostics, "reference-to-section") == [
        ("share_army_list", 586),
        ("building_battlefield", 586),
        ("generating_spells", 586),
        ("deployment_phase", 586),
    ]


def test_name_with_a_space(diagnostics: list[Diagnostic]) -> None:
    (diagnostic,) = [d for d in diagnostics if d.rule == "invalid-name"]
    assert (diagnostic.target, diagnostic.span.line, diagnostic.suggestions) == (
        "inspiring presence",
        357,
        ("inspiring_presence",),
    )


def test_misspelt_reference_is_found_from_both_ends(diagnostics: list[Diagnostic]) -> None:
    typo = next(d for d in diagnostics if d.target == "undeployed_units_number")
    assert (typo.rule, typo.span.line, typo.span.column, typo.suggestions) == (
        "dangling-reference",
        796,
        91,
        ("undeployed_unit_number",),
    )
    unused = next(d for d in diagnostics if d.rule == "unused-definition" and d.target == "undeployed_unit_number")
    assert any("undeployed_units_number" in note.message for note in unused.notes)  # after "used inside its own"


def test_two_spellings_of_an_undefined_term_are_pointed_out(diagnostics: list[Diagnostic]) -> None:
    plural = [d for d in diagnostics if d.target == "terrain_features"]
    assert [d.span.line for d in plural] == [617, 620]
    assert "`terrain_feature`" in plural[0].notes[0].message


def test_unused_definitions(diagnostics: list[Diagnostic]) -> None:
    assert [t for t, _ in by_rule(diagnostics, "unused-definition")] == [
        "incomplete_rear_rank",
        "rank_and_file",
        "full_rank",
        "horde_formation",
        "game_turn",
        "scatter",
        "in_range",  # not referenced anywhere, not even in its own definition
        "unmodified_characteristics",
        "undeployed_unit_number",  # its only use is misspelt
    ]


def test_mutual_definitions_are_information(diagnostics: list[Diagnostic]) -> None:
    mutual = [d for d in diagnostics if d.rule == "mutual-definition"]
    assert all(d.severity.public == "info" for d in mutual)
    assert [d.target for d in mutual] == [
        "base<->model",
        "characteristics_profile<->model_part",
        "arc<->line_of_sight",
        "line_template<->template",
        "borrowed_characteristics<->priority_of_modifiers",
        "grand_army<->one_of_a_kind",
        "deployment_type_classic<->deployment_zone",
        "deployment_type_diagonal<->deployment_zone",
        "deployment_type_flank<->deployment_zone",
    ]


def test_no_false_positives_from_the_format(diagnostics: list[Diagnostic]) -> None:
    rules = {d.rule for d in diagnostics}
    assert not rules & {"invalid-document", "malformed-xml", "duplicate-definition", "duplicate-id", "empty-name"}
    assert not rules & {"invalid-roll-table", "invalid-annotation"}


def test_bundled_book_is_the_seed_plus_mechanics_annotations() -> None:
    """The only edits to the seed are declarations: `roll`, `kind` and `id` on tables and sequences, `<value>`
    (with its kind and term) around numbers, and seventeen empty `<mechanic>` elements at the ends of lines (so no
    line or column moves)."""
    if not SEED.exists():
        pytest.skip("../shared is not beside the repository")
    bundled = BUNDLED_BOOK.read_text(encoding="utf-8")
    assert len(re.findall(r'<(table|sequence) roll="D6"', bundled)) == 3
    assert len(re.findall(r'<(?:table|sequence)[^>]* kind="', bundled)) == 6  # 4 data tables, a turn, the setup
    assert bundled.count("<value ") == 9
    assert bundled.count("<mechanic ") == 17
    stripped = re.sub(r"<mechanic [^>]*/>", "", bundled)
    stripped = re.sub(
        r"<(table|sequence)([^>]*)>",
        lambda m: f"<{m.group(1)}" + re.sub(r' (roll|kind|id)="[^"]*"', "", m.group(2)) + ">",
        stripped,
    )
    stripped = re.sub(r'<value name="[a-z_]+" kind="[a-z]+"(?: term="[a-z_]+")?>([^<]*)</value>', r"\1", stripped)
    assert stripped == SEED.read_text(encoding="utf-8")


def test_dangling_references_agree_with_an_independent_answer_key(diagnostics: list[Diagnostic], tmp_path) -> None:  # type: ignore[no-untyped-def]
    """The benchmark tools' answer key (made by regular expressions, no XML parser) finds the same places."""
    tool = SHARED / "tools" / "scale_rulebook.py"
    if not tool.exists():
        pytest.skip("../shared is not beside the repository")
    key_path = tmp_path / "key.json"
    subprocess.run(
        [sys.executable, str(tool), str(BUNDLED_BOOK), "1", "-o", str(tmp_path / "b.xml"), "--key", str(key_path)],
        check=True,
        capture_output=True,
    )
    key = json.loads(key_path.read_text(encoding="utf-8"))
    expected = {(e["name"], line) for e in key["dangling_references"] for line in e["lines"]}
    found: defaultdict[str, set[tuple[str, int]]] = defaultdict(set)
    for d in diagnostics:
        found[d.rule].add((d.target or "", d.span.line))
    assert found["dangling-reference"] | found["reference-to-section"] | found["invalid-name"] == expected
    expected_links = {(e["target"], line) for e in key["dangling_links"] for line in e["lines"]}
    assert found["dangling-link"] == expected_links
