"""Hostile input to the engine: every question past a limit, bad rule data and bad army lists.

Each case goes through ``rulebook`` itself (``rulebook.cli.main``) and asserts what a user sees: exit
2 and a plain message naming the limit or the bad entry (never "internal error"); or, for a test
whose target the book fixes, the book's answer with a note.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from rulebook.cli import main
from rulebook.engine.limits import shown
from rulebook.engine.rules import Rules
from tests.conftest import BUNDLED_BOOK, ROOT
from tests.test_chain_other_game import compile_other_game
from tests.test_engine import compile_rules, private_cache  # noqa: F401  (autouse: a private cache folder)

from .scratch import run, source
from .scratch import scratch as scratch  # the fixture a case takes

LIMIT = "the engine's limit is"
FIREBALL = ["accuracy=3", "power=2", "defense=2", "penetration=2", "courage=7"]
FIREBALL_VALUES = [f"--value={v}" for v in FIREBALL]


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return compile_rules(BUNDLED_BOOK, tmp_path_factory.mktemp("rules"))


@pytest.fixture(scope="module")
def other_game(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return compile_other_game(tmp_path_factory.mktemp("other-game")).path


def refused(capsys: pytest.CaptureFixture[str], argv: list[str], *words: str) -> str:
    """Run ``rulebook ARGV``: exit 2, a plain message holding every word, nothing on stdout."""
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("rulebook: error: ")
    assert "internal error" not in captured.err
    for word in words:
        assert word in captured.err
    assert captured.out == ""
    return captured.err


def changed(rules: Path, folder: Path, change: Callable[[dict[str, Any]], object]) -> Path:
    """A copy of ``rules`` (with its schema) changed by ``change``: still valid against the schema."""
    data = json.loads(rules.read_text(encoding="utf-8"))
    change(data)
    folder.mkdir(exist_ok=True)
    (folder / "rules.json").write_text(json.dumps(data), encoding="utf-8")
    shutil.copyfile(rules.with_name("rules.schema.json"), folder / "rules.schema.json")
    return folder / "rules.json"


# Dice notation on the command line -------------------------------------------------------------


@pytest.mark.parametrize(
    ("notation", "words"),
    [
        ("1000D6", ["`1000D6` rolls 1000 dice", f"{LIMIT} 100 dice in one roll"]),
        ("101D6", ["`101D6` rolls 101 dice", f"{LIMIT} 100 dice in one roll"]),
        ("D1000000000", ["rolls dice of 1000000000 sides", f"{LIMIT} 100 sides"]),
        ("D" + "9" * 5000, ["rolls dice of 99999999... (5000 digits) sides", f"{LIMIT} 100 sides"]),
        ("0D6", ["`0D6` is not dice notation"]),
        ("a handful", ["`a handful` is not dice notation"]),
        # digits of other scripts, which `\d` took: `2D6` and ARABIC-INDIC DIGIT THREE was rolled as 2D63, exit 0
        ("2D6\u0663", ["`2D6\u0663` is not dice notation"]),
        ("\uff12D6", ["`\uff12D6` is not dice notation"]),
    ],
)
def test_a_roll_past_the_dice_limits_is_refused(
    rules: Rules, capsys: pytest.CaptureFixture[str], notation: str, words: list[str]
) -> None:
    message = refused(capsys, ["engine", "--rules", str(rules.path), "odds", "roll", notation], *words)
    assert len(message) < 400  # a 5,000-digit number is not echoed


def test_the_largest_roll_inside_the_limits_is_answered(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["engine", "--rules", str(rules.path), "odds", "roll", "100D100", "--json"]) == 0
    distribution = json.loads(capsys.readouterr().out)["distribution"]
    assert len(distribution) == 9901
    assert distribution["100"] == f"1/{100**100}"


# Chains ---------------------------------------------------------------------------------------


def test_too_many_dice_are_refused(other_game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    values = [f"--value={v}" for v in FIREBALL]
    argv = ["engine", "--rules", str(other_game), "chain", "--count", "100000", *values]
    refused(capsys, argv, "100000 dice", f"{LIMIT} 100 dice a chain starts with")


def test_an_exact_answer_too_long_to_write_is_refused(
    other_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def long_denominators(data: dict[str, Any]) -> None:
        data["mechanics"]["rolls"]["hit"].update(roll="10D100", against="accuracy + 502")
        data["mechanics"]["rolls"]["injury"].update(roll="10D100", against="power + 502")

    hostile = changed(other_game, tmp_path / "digits", long_denominators)
    values = [f"--value={v}" for v in FIREBALL]
    argv = ["engine", "--rules", str(hostile), "chain", "--count", "100", *values]
    refused(capsys, argv, "100 dice (each counted over", f"{LIMIT} 2,000 digits")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("- 1\n- 2\n", ["a chain profile is a mapping of count, values, reroll, damage, health, targets"]),
        ("count: 4\nspeed: 2\n", ["`speed` is not a setting of a chain profile"]),
        ("count: four\n", ["`count` must be a whole number"]),
        ("count: 2.5\n", ["`count` must be a whole number"]),
        ("count: .nan\n", ["`count` must be a whole number"]),
        (f"count: {'9' * 5000}\n", ["`count` is 99999999... (5000 digits)", f"{LIMIT} 1,000,000"]),
        ("count: 101\n", ["101 dice", f"{LIMIT} 100 dice a chain starts with"]),
        ("count: 1\nvalues: [3]\n", ["`values` must be a mapping of names"]),
        ("count: 1\nvalues: {accuracy: high}\n", ["`values.accuracy` must be a whole number"]),
        ("count: 1\nreroll: {hit: misses}\n", ["cannot read the reroll `misses`"]),
        ("count: 1\ndamage: 0\n", ["a success deals 1 damage or more"]),
        ("count: 1\ndamage: 11D6\n", ["`11D6` rolls 11 dice", f"{LIMIT} 10 dice in a roll of a chain"]),
        ("count: 1\ndamage: lots\n", ["`lots` is not dice notation"]),
        ("count: 1\nhealth: 101\n", ["`health` is 101: it must be 1 to 100"]),
        ("count: 1\ntargets: 0\n", ["`targets` is 0: it must be 1 to 100"]),
        ("count: 1\n<<: {health: 2}\n", ["merge keys (<<) are not read"]),
        (
            "count: 1\nvalues: {skill: 2001-02-30}\n",
            ["cannot be read as a chain profile: day is out of range for month"],
        ),
        ("count: 1\nhealth: 2001-13-01t00:00:00\n", ["cannot be read as a chain profile: month must be in 1..12"]),
    ],
)
def test_a_bad_chain_profile_is_refused_naming_the_setting(
    other_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: list[str]
) -> None:
    profile = tmp_path / "profile.yaml"
    profile.write_text(text, encoding="utf-8")
    refused(
        capsys, ["engine", "--rules", str(other_game), "chain", "--profile", str(profile), *FIREBALL_VALUES], *words
    )


def test_a_chain_past_its_results_is_refused(
    other_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def criticals(data: dict[str, Any]) -> None:
        data["mechanics"]["rolls"]["hit"].update(critical=[6], critical_adds=20)

    def too_many(data: dict[str, Any]) -> None:
        data["mechanics"]["rolls"]["hit"].update(critical=[6], critical_adds=101)

    hostile = changed(other_game, tmp_path / "results", criticals)
    argv = ["engine", "--rules", str(hostile), "chain", "--count", "100", *FIREBALL_VALUES]
    refused(capsys, argv, "100 dice of up to 21 successes each can come to 2100", f"{LIMIT} 1,000 results of a chain")
    argv = ["engine", "--rules", str(hostile), "chain", "--count", "40", "--damage", "D6", *FIREBALL_VALUES]
    refused(capsys, argv, "840 successes of up to 6 damage each can come to 5040", f"{LIMIT} 1,000 results")
    hostile = changed(other_game, tmp_path / "adds", too_many)
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], "`mechanics.rolls.hit.critical_adds`", "101 more")


def test_a_critical_past_the_results_is_refused_before_it_is_worked_out(
    other_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `critical-adds="1000"` (then within the limits) made the engine add the rest of the chain a thousand times,
    # 18 s of CPU, before it found the answer past its 1,000 results (the eighteenth probe).
    from rulebook.engine import limits, rules, steps

    monkeypatch.setattr(limits, "MAX_CRITICAL_ADDS", 5000)
    monkeypatch.setattr(rules, "MAX_CRITICAL_ADDS", 5000)
    added: list[int] = []

    def adding(first: dict[int, Any], other: dict[int, Any], times: int) -> dict[int, Any]:
        added.extend([times] if times else [])
        return first

    monkeypatch.setattr(steps, "_added", adding)

    def criticals(data: dict[str, Any]) -> None:
        data["mechanics"]["rolls"]["hit"].update(critical=[6], critical_adds=1000)

    hostile = changed(other_game, tmp_path / "results", criticals)
    argv = ["engine", "--rules", str(hostile), "chain", "--count", "1", *FIREBALL_VALUES]
    refused(capsys, argv, "a critical success of `hit` can come to 1001", f"{LIMIT} 1,000 results of a chain")
    assert added == []


def test_numbers_typed_into_a_question_are_bounded(
    rules: Rules, other_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    huge = "9" * 5000
    words = ["is 99999999... (5000 digits)", f"{LIMIT} 1,000,000 either way for a number in a question"]
    argv = ["engine", "--rules", str(rules.path), "modify", "--value", "3", "--mod", f"set {huge}"]
    refused(capsys, argv, "the number in `set 9999... (5004 characters)`", *words)
    argv = ["engine", "--rules", str(other_game), "chain", "--count", "1", "--value", f"accuracy={huge}"]
    refused(capsys, argv, "the value of `accuracy`", *words)


# Rule data -------------------------------------------------------------------------------------


def _repeat(data: dict[str, Any], times: str) -> None:
    data["mechanics"]["repeats"]["additional_terrain"]["times"] = times


def _table_die(data: dict[str, Any]) -> None:
    data["roll_tables"][0]["die"] = "1000D6"


def _derived_from_two(data: dict[str, Any]) -> None:
    data["mechanics"]["dice"]["D3"]["roll"] = "2D6"


def _missing_table(data: dict[str, Any]) -> None:
    data["mechanics"]["repeats"]["additional_terrain"]["table"] = "nowhere"


def _multiplier(data: dict[str, Any], text: str) -> None:
    data["army_composition"]["variants"][0]["duplicate_limits"][-1]["multiplier"] = text


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda d: _repeat(d, "100D100"), ["`mechanics.repeats.additional_terrain.times`", f"{LIMIT} 100 repeats"]),
        (lambda d: _repeat(d, "1000D6"), ["`mechanics.repeats.additional_terrain.times`", "100 dice in one roll"]),
        (_table_die, ["`roll_tables[0].die`: `1000D6` rolls 1000 dice", f"{LIMIT} 100 dice"]),
        (_derived_from_two, ["`mechanics.dice.D3`", "made from `2D6`", "makes one from one die"]),
        (_missing_table, ["`mechanics.repeats.additional_terrain.table`", "`nowhere` is not a roll table"]),
        (lambda d: _multiplier(d, "1/0"), ["duplicate_limits[6].multiplier`: `1/0` divides by zero"]),
        (lambda d: _multiplier(d, "9" * 5000), ["a multiplier is 99999999... (5000 digits)"]),
        (
            lambda d: d["mechanics"]["modifiers"].update(order=["set", "add"]),
            ["`mechanics.modifiers.order`: the order of modifiers must place each of set, multiply and add"],
        ),
    ],
)
def test_rule_data_past_the_limits_is_refused_on_load(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], change: Callable[[Any], None], words: list[str]
) -> None:
    hostile = changed(rules.path, tmp_path / "hostile", change)
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], str(hostile), *words)


def test_a_chain_past_its_limits_is_refused_on_load(
    other_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def big_failure(data: dict[str, Any]) -> None:
        data["mechanics"]["rolls"]["courage"]["fail_adds"] = "100D6"

    def many_readings(data: dict[str, Any]) -> None:
        reading = data["mechanics"]["rolls"]["hit"]["readings"][0]
        data["mechanics"]["rolls"]["hit"]["readings"] = [reading] * 50

    hostile = changed(other_game, tmp_path / "dice", big_failure)
    words = ["`mechanics.rolls.courage.fail_adds`", f"{LIMIT} 10 dice in a roll of a chain"]
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], *words)
    hostile = changed(other_game, tmp_path / "readings", many_readings)
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], "56 rolls and readings", f"{LIMIT} 10 rolls")

    def long_number(data: dict[str, Any]) -> None:  # Python refuses to read more than 4,300 digits
        data["mechanics"]["rolls"]["using_cover"]["against"] = "9" * 5000 + " - cover"

    hostile = changed(other_game, tmp_path / "number", long_number)
    words = ["`mechanics.rolls.using_cover.against`: `99999999... (5000 digits)`", f"{LIMIT} 1,000,000 either way"]
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], *words)


def _bands(*bands: tuple[int, int]) -> list[dict[str, Any]]:
    return [{"min": low, "max": high, "result": f"r{low}", "term": None} for low, high in bands]


@pytest.mark.parametrize(
    ("bands", "where", "said"),
    [
        (_bands((2, 13)), "bands[0]", "the bands do not match a roll of 2D6: 13 cannot be rolled"),
        (_bands((1, 12)), "bands[0]", "the bands do not match a roll of 2D6: 1 cannot be rolled"),
        (_bands((2, 6), (8, 12)), "bands[1]", "the bands do not match a roll of 2D6: no band for 7"),
        (_bands((2, 7), (7, 12)), "bands[1]", "the bands do not match a roll of 2D6: 7 is in two bands"),
        (_bands((2, 7), (12, 8)), "bands[1]", "the band 12-8 runs backwards"),
        (_bands((2, 7)), "bands", "the bands do not match a roll of 2D6: no band for 8 to 12"),
        ([], "bands", "the bands do not match a roll of 2D6: no band for 2 to 12"),
    ],
)
def test_a_tables_bands_that_do_not_match_its_dice_are_refused_on_load(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], bands: list[Any], where: str, said: str
) -> None:
    """A hand-made table's bands are held to its dice as the lint holds a book's: a band of 2-13 on 2D6, a gap or
    an overlap was answered (odds that do not add up, "no result for 13" in a walk)."""

    def hand_made(data: dict[str, Any]) -> None:
        data["roll_tables"][0].update(die="2D6", dice={"count": 2, "sides": 6}, bands=bands)

    hostile = changed(rules.path, tmp_path / "table", hand_made)
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], f"{hostile}: `roll_tables[0].{where}`: {said}")


def test_a_tables_dice_that_are_not_its_die_are_refused_on_load(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    def hand_made(data: dict[str, Any]) -> None:
        data["roll_tables"][0].update(die="2D6", dice={"count": 3, "sides": 6}, bands=_bands((2, 12)))

    hostile = changed(rules.path, tmp_path / "table", hand_made)
    words = f"{hostile}: `roll_tables[0].dice`: 3D6 is not the table's die, 2D6"
    refused(capsys, ["engine", "--rules", str(hostile), "turns"], words)


def test_a_walk_past_its_length_is_refused(rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    def eleven_hundred_rolls(data: dict[str, Any]) -> None:
        repeats = data["mechanics"]["repeats"]
        first = repeats["additional_terrain"]
        repeats.update({f"more_terrain_{n}": {**first, "times": "100D1"} for n in range(11)})

    hostile = changed(rules.path, tmp_path / "walk", eleven_hundred_rolls)
    refused(capsys, ["engine", "--rules", str(hostile), "pregame"], f"{LIMIT} 1,000 lines of a pre-game walk")


def test_rule_data_too_large_is_refused_unread(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with (tmp_path / "rules.json").open("wb") as huge:
        huge.truncate(64_000_001)  # sparse: nothing is written, and the engine reads at most the limit
    shutil.copyfile(rules.path.with_name("rules.schema.json"), tmp_path / "rules.schema.json")
    words = ["is too large", f"{LIMIT} 64,000,000 bytes for a rules.json"]
    refused(capsys, ["engine", "--rules", str(tmp_path / "rules.json"), "turns"], *words)


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ('{"format_version": NaN}', ["is not JSON", "`NaN` is not a number JSON allows"]),
        ("[" * 100_000, ["nests too deeply"]),
        (  # Python's own words, and no place: "Exceeds the limit (4300 digits) for integer string conversion"
            '{"format_version": 1, "terms": {"a b": {"x": [1, ' + "9" * 5001 + "]}}}",
            ['is not rule data: a whole number of 5,001 digits at $.terms["a b"].x[1]; no number there has more'],
        ),
    ],
)
def test_rule_data_that_is_not_json_is_refused(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, words: list[str]
) -> None:
    (tmp_path / "rules.json").write_text(text, encoding="utf-8")
    shutil.copyfile(rules.path.with_name("rules.schema.json"), tmp_path / "rules.schema.json")
    refused(capsys, ["engine", "--rules", str(tmp_path / "rules.json"), "turns"], *words)


def test_rule_data_beside_another_schema_is_refused(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    shutil.copyfile(rules.path, tmp_path / "rules.json")
    (tmp_path / "rules.schema.json").write_text('{"type": "object"}', encoding="utf-8")
    refused(capsys, ["engine", "--rules", str(tmp_path / "rules.json"), "turns"], "is not the schema of this engine")


# Army lists ------------------------------------------------------------------------------------

ENTRY = "  - {name: Squad, id: squad, category: main, points: %s}\n"


@pytest.mark.parametrize(
    ("name", "text", "words"),
    [
        ("nan.yaml", "points_limit: 2000\nentries:\n" + ENTRY % ".nan", ["entry 1 (`Squad`): `points` is nan"]),
        ("inf.yaml", "points_limit: 2000\nentries:\n" + ENTRY % "-.inf", ["entry 1 (`Squad`): `points` is -inf"]),
        (
            "huge.yaml",
            "points_limit: 2000\nentries:\n" + ENTRY % ("9" * 5000),
            ["entry 1 (`Squad`): `points` is 99999999... (5000 digits)", f"{LIMIT} 1,000,000 points"],
        ),
        (
            "big.yaml",
            "points_limit: 2000\nentries:\n" + ENTRY % "10000000000",
            ["`points` is 10000000000", f"{LIMIT} 1,000,000 points"],
        ),
        ("yes.yaml", "points_limit: 2000\nentries:\n" + ENTRY % "yes", ["`points` must be a number, not true"]),
        ("true.yaml", "points_limit: true\nentries: []\n", ["`points_limit` must be a number, not true"]),
        ("float.yaml", "points_limit: 1999.5\nentries: []\n", ["`points_limit` must be a whole number, not 1999.5"]),
        ("zero.yaml", "points_limit: 0\nentries: []\n", ["`points_limit` is 0; it must be at least 1"]),
        (
            "price.yaml",
            "points_limit: 2000\nentries:\n  - {name: A, category: core, points: 5, upgrades: [{points: ten}]}\n",
            ["entry 1 (`A`): upgrade 1: `points` is the text `ten`"],
        ),
        (
            "troop.yaml",
            "points_limit: 2000\nentries:\n  - {name: A, category: core, points: 5, type: [a, b]}\n",
            ["entry 1 (`A`): `type` must be text"],
        ),
        (
            "entries.yaml",
            "points_limit: 2000\nentries:\n" + ENTRY % "1" * 201,
            ["201 entries", f"{LIMIT} 200 entries in an army list"],
        ),
        (
            "upgrades.yaml",
            "points_limit: 2000\nentries:\n  - {name: A, category: core, points: 5, upgrades: ["
            + "{points: 1}," * 101
            + "]}",
            ["entry 1 (`A`): 101 upgrades", f"{LIMIT} 100 upgrades of an entry"],
        ),
        ("deep.yaml", "[" * 50_000, ["nests more than 20 deep"]),
        ("date.yaml", "points_limit: 2001-02-30\n", ["cannot be read as an army list: day is out of range for month"]),
        (  # PyYAML's constructors raised AttributeError: an internal error (the thirty-fifth probe)
            "tag.yaml",
            'points_limit: !!timestamp "x"\n',
            ["cannot be read as an army list: a tagged value (`!!...`) YAML cannot make"],
        ),
        ("large.yaml", "#" * 100_001, ["is too large", f"{LIMIT} 100,000 bytes for an army list"]),
        (
            "merge.yaml",
            "a: &a {x: 1}\n" + "".join(f"a{n}: &a{n} {{<<: [*a, *a]}}\n" for n in range(30)),
            ["cannot be read as an army list: merge keys (<<) are not read (line 2"],
        ),
        ("nan.json", '{"points_limit": 2000, "entries": [{"name": "A", "category": "c", "points": NaN}]}', ["is NaN"]),
        (
            "inf.json",
            '{"points_limit": Infinity, "entries": []}',
            ["`points_limit` is Infinity, not a number of points"],
        ),
        (
            "huge.json",
            '{"points_limit": 2000, "entries": [{"name": "A", "category": "c", "points": %s}]}' % ("9" * 5000),
            ["entry 1 (`A`): `points` is 99999999... (5000 digits)", f"{LIMIT} 1,000,000 points"],
        ),
        ("deep.json", "[" * 100_000, ["nests deeper than an army list can"]),
        (  # the first was lost without a word: the army was judged against 3000 points
            "twice.yaml",
            "points_limit: 2000\nentries: []\npoints_limit: 3000\n",
            ["cannot be read as an army list: `points_limit` is given twice (line 3, column 1)"],
        ),
        (
            "twice.json",
            '{"points_limit": 2000, "entries": [{"name": "A", "name": "B", "category": "c", "points": 5}]}',
            ["cannot be read as an army list: `name` is given twice in an object"],
        ),
    ],
)
def test_a_bad_army_list_is_refused_naming_the_file_and_the_entry(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str, text: str, words: list[str]
) -> None:
    listing = tmp_path / name
    listing.write_text(text, encoding="utf-8")
    refused(capsys, ["engine", "--rules", str(rules.path), "army", str(listing)], str(listing), *words)


def test_an_army_list_that_is_not_text_is_refused(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    listing = tmp_path / "army.yaml"
    listing.write_bytes(b"points_limit: 2000\n\xff\xfe\x00\x01binary")
    refused(capsys, ["engine", "--rules", str(rules.path), "army", str(listing)], "is not UTF-8 text (byte 19)")
    listing.write_bytes(b"points_limit: 2000\x00\x01\x02")
    refused(capsys, ["engine", "--rules", str(rules.path), "army", str(listing)], "is not YAML or JSON")


# A test whose target the book fixes ------------------------------------------------------------


def test_a_value_given_for_a_fixed_target_is_ignored_with_a_note(
    rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    # The book: "the player who rolls a 4+ chooses" (target="4"): a value of 1 must not make it certain.
    assert main(["engine", "--rules", str(rules.path), "odds", "test", "deployment_zone", "--value", "1"]) == 0
    out = capsys.readouterr().out
    assert "probability: 1/2 (50.0%)" in out
    assert "note: the book fixes the target of `deployment_zone` at 4+, so the value given (1) is ignored" in out
    assert main(["engine", "--rules", str(rules.path), "odds", "test", "deployment_zone", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert (result["probability"], result["notes"]) == ("1/2", [])


def test_a_test_without_a_fixed_target_needs_a_value(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    refused(capsys, ["engine", "--rules", str(rules.path), "odds", "test", "leadership_test"], "give it with --value N")


def test_a_file_that_is_not_built_rule_data_says_what_the_engine_reads(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "README.md").write_text("# notes\n", encoding="utf-8")
    refused(capsys, ["engine", "--rules", str(tmp_path / "README.md"), "odds", "roll", "2D6"], "is not JSON")
    (tmp_path / "rules.json").write_text("{}", encoding="utf-8")
    refused(
        capsys,
        ["engine", "--rules", str(tmp_path / "rules.json"), "odds", "roll", "2D6"],
        "has no rules.schema.json beside it",
        "run `rulebook build`",
    )
    os.mkfifo(tmp_path / "rules.schema.json")  # there, but no file: said what it is, not that it is missing
    refused(
        capsys,
        ["engine", "--rules", str(tmp_path / "rules.json"), "odds", "roll", "2D6"],
        "rules.schema.json is a named pipe, not a regular file",
    )


# Files the engine reads: regular files only, never waiting on a pipe ------------------------------

PATIENCE = 120.0
"""Seconds a command in its own process may take before the test fails: one that waits on a pipe would hang."""


def run_bounded(argv: list[str], cache: Path, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """``rulebook ARGV`` in a process of its own with ``cache`` as the user's cache folder; killed (and the test
    failed) past :data:`PATIENCE`."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache), "PYTHONPATH": str(ROOT)}
    command = [sys.executable, "-m", "rulebook", *argv]
    return subprocess.run(command, cwd=cwd, env=env, capture_output=True, text=True, timeout=PATIENCE)


NOT_REGULAR = "is a named pipe, not a regular file: the engine reads"
DISCARDED = "; discarded: the cache only saves time, and is made again"


def test_rule_data_that_is_a_named_pipe_is_refused_without_waiting(rules: Rules, tmp_path: Path) -> None:
    pipe = tmp_path / "rules.json"
    os.mkfifo(pipe)
    shutil.copyfile(rules.path.with_name("rules.schema.json"), tmp_path / "rules.schema.json")
    done = run_bounded(["engine", "--rules", str(pipe), "turns"], tmp_path / "cache")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"rulebook: error: {pipe} {NOT_REGULAR} a rules.json only from a regular file\n"


def test_an_army_list_that_is_a_named_pipe_or_a_device_is_refused_without_waiting(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    pipe = tmp_path / "army.yaml"
    os.mkfifo(pipe)
    done = run_bounded(["engine", "--rules", str(rules.path), "army", str(pipe)], tmp_path / "cache")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr == f"rulebook: error: {pipe} {NOT_REGULAR} an army list only from a regular file\n"
    assert main(["engine", "--rules", str(rules.path), "army", "/dev/zero"]) == 2
    message = (
        "/dev/zero is a character device, not a regular file: the engine reads an army list only from a regular file"
    )
    assert capsys.readouterr().err == f"rulebook: error: {message}\n"


def test_an_army_list_linked_to_a_file_of_the_kernel_is_refused(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A committed `lists/army.yaml -> /proc/self/environ`: the process's environment, a CI's tokens with it,
    was read as the army list (its first fault then quoted)."""
    monkeypatch.setenv("RULEBOOK_PROBE_TOKEN", "ghp_not_a_real_secret")
    (tmp_path / "army.yaml").symlink_to("/proc/self/environ")
    assert main(["engine", "--rules", str(rules.path), "army", str(tmp_path / "army.yaml")]) == 2
    err = capsys.readouterr().err
    assert err == (
        f"rulebook: error: {tmp_path / 'army.yaml'} is a file the kernel writes (under /proc or /sys): the engine "
        "reads an army list only from a file of yours\n"
    )


def test_an_army_list_linked_to_a_file_of_a_file_system_below_sys_is_refused(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A cgroup's file is a file system of its own mounted below /sys: it was read as the army list."""
    from .test_guarded_inputs import _file_below_sys_of_another_file_system

    found = _file_below_sys_of_another_file_system()
    if found is None:
        pytest.skip("no file system is mounted below /sys here")
    (tmp_path / "army.yaml").symlink_to(found)
    assert main(["engine", "--rules", str(rules.path), "army", str(tmp_path / "army.yaml")]) == 2
    assert capsys.readouterr().err == (
        f"rulebook: error: {tmp_path / 'army.yaml'} is a file the kernel writes (under /proc or /sys): the engine "
        "reads an army list only from a file of yours\n"
    )


def test_rule_data_that_is_a_folder_is_refused(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    folder = rules.path.parent
    assert main(["engine", "--rules", str(folder), "turns"]) == 2
    message = f"{folder} is a folder, not a regular file: the engine reads a rules.json only from a regular file"
    assert capsys.readouterr().err == f"rulebook: error: {message}\n"


def test_a_cache_entry_that_is_a_named_pipe_is_discarded_without_waiting(rules: Rules, tmp_path: Path) -> None:
    """A pipe in place of the cache's file stopped every question (exit 2) though the cache only saves time: it
    is discarded with a notice, never waited on, the question answered and the cache made again."""
    entry = tmp_path / "cache" / "rulebook" / "valid-rules.txt"
    entry.parent.mkdir(parents=True)
    os.mkfifo(entry)
    argv = ["engine", "--rules", str(rules.path), "odds", "test", "leadership_test", "--value", "7"]
    done = run_bounded(argv, tmp_path / "cache")
    assert (done.returncode, "7/12" in done.stdout) == (0, True)
    assert done.stderr == f"rulebook: note: {entry} {NOT_REGULAR} its cache only from a regular file{DISCARDED}\n"
    assert [len(line) for line in entry.read_text(encoding="ascii").split()] == [64]
    assert run_bounded(argv, tmp_path / "cache").stderr == ""


def test_a_build_whose_cache_entry_is_a_named_pipe_publishes_and_notes_without_waiting(tmp_path: Path) -> None:
    entry = tmp_path / "cache" / "rulebook" / "valid-rules.txt"
    entry.parent.mkdir(parents=True)
    os.mkfifo(entry)
    argv = ["build", "--data-only", "--book", "other-game", "--output", str(tmp_path / "site")]
    done = run_bounded(argv, tmp_path / "cache")
    assert done.returncode == 0, done.stderr
    lines = done.stderr.splitlines()
    assert lines[-2].startswith("Built 1 book, in ")
    assert lines[-1] == f"rulebook: note: {entry} {NOT_REGULAR} its cache only from a regular file{DISCARDED}"
    assert (tmp_path / "site" / "other-game" / "rules.json").is_file()
    assert entry.is_file() and not entry.is_symlink()


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (
            lambda entry, valid: entry.symlink_to(valid),  # even to a file of verdicts that would be read
            "is a link, not a regular file: the engine reads its cache only from a regular file",
        ),
        (
            lambda entry, valid: entry.mkdir(),
            "is a folder, not a regular file: the engine reads its cache only from a regular file",
        ),
        (
            lambda entry, valid: entry.write_bytes(b"0" * 65_537),
            "is too large; the engine's limit is 65,536 bytes for its cache (see Limits in `rulebook docs engine`)",
        ),
    ],
)
def test_a_cache_entry_that_is_not_a_small_regular_file_is_discarded_and_made_again(
    rules: Rules,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    make: Callable[[Path, Path], object],
    message: str,
) -> None:
    """A link (to a file of verdicts), an empty folder or a file past the limit in the cache's place stopped the
    engine (exit 2): discarded with a one-line notice, never followed (the link's target unchanged), the question
    answered, and the cache made again, so the next question says nothing."""
    from rulebook.engine.schema import remember_valid

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "elsewhere"))
    remember_valid(rules.path.read_bytes(), (rules.path.with_name("rules.schema.json")).read_bytes())
    valid = tmp_path / "elsewhere" / "rulebook" / "valid-rules.txt"
    before = valid.read_bytes()
    entry = tmp_path / "cache" / "rulebook" / "valid-rules.txt"
    entry.parent.mkdir(parents=True)
    make(entry, valid)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    assert main(["engine", "--rules", str(rules.path), "turns"]) == 0
    assert capsys.readouterr().err == f"rulebook: note: {entry} {message}{DISCARDED}\n"
    assert valid.read_bytes() == before
    assert entry.is_file() and not entry.is_symlink()
    assert [len(line) for line in entry.read_text(encoding="ascii").split()] == [64]
    assert main(["engine", "--rules", str(rules.path), "turns"]) == 0
    assert capsys.readouterr().err == ""


def test_a_cache_folder_holding_files_in_the_cache_files_place_is_passed_over(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder holding files where the cache's file goes is not the engine's to delete: passed over, the
    question answered."""
    entry = tmp_path / "rulebook" / "valid-rules.txt"
    entry.mkdir(parents=True)
    (entry / "someone's").write_text("kept\n", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["engine", "--rules", str(rules.path), "turns"]) == 0
    assert capsys.readouterr().err.count("rulebook: note: ") == 1
    assert (entry / "someone's").read_text(encoding="utf-8") == "kept\n"


def test_a_cache_entry_holding_what_the_engine_never_wrote_is_read_as_no_verdicts(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    entry = tmp_path / "rulebook" / "valid-rules.txt"
    entry.parent.mkdir()
    entry.write_bytes(b"\x00\xff import os; os.system('false')\n" + b"z" * 64 + b"\n")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert main(["engine", "--rules", str(rules.path), "odds", "test", "leadership_test", "--value", "7"]) == 0
    assert "7/12" in capsys.readouterr().out  # checked afresh, and remembered in place of the junk
    assert [len(line) for line in entry.read_text(encoding="ascii").split()] == [64]


# Every number on the command line, and the number of items a question gives -------------------

ABSURD = ["99999999999999999999", "-" + "9" * 30, "1" + "0" * 1000, "nan", "inf", "-inf", "1e9", "0x10", "٣", "1_000"]


def _absurd_message(what: str, text: str) -> str:
    if text.removeprefix("-").isascii() and text.removeprefix("-").isdigit():
        return f"{what} is {shown(text)}; {LIMIT} 1,000,000 either way for a number in a question (see Limits in `rulebook docs engine`)"
    return f"{what} is `{text}`, not a whole number"


@pytest.mark.parametrize("text", ABSURD)
@pytest.mark.parametrize(
    ("argv", "what"),
    [
        (["odds", "test", "leadership_test"], "--value"),
        (["modify", "--mod", "+1"], "--value"),
        (["pregame"], "--seed"),
        (["pregame"], "--bonus"),
        (["chain"], "--count"),
    ],
)
def test_every_number_on_the_command_line_is_within_the_limits(
    rules: Rules, other_game: Path, capsys: pytest.CaptureFixture[str], argv: list[str], what: str, text: str
) -> None:
    data = other_game if argv[0] == "chain" else rules.path
    assert main(["engine", "--rules", str(data), *argv, f"{what}={text}"]) == 2
    assert capsys.readouterr() == ("", f"rulebook: error: {_absurd_message(what, text)}\n")


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["pregame", "--seed=-1"], "the seed is -1; a seed is 0 or more"),
        (["pregame", "--board", "36x0"], "--board takes WxD, such as 36x48 (not `36x0`)"),
        (["pregame", "--board", "36by48"], "--board takes WxD, such as 36x48 (not `36by48`)"),
        (
            ["pregame", "--board", f"36x{'9' * 5000}"],
            f"a side of --board is 99999999... (5000 digits); {LIMIT} 1,000,000 either way for a number in a question (see Limits in `rulebook docs engine`)",
        ),
        (["modify", "--value", "3", "--mod", "+٣"], "the number in `+٣` is `٣`, not a whole number"),
        (["chain", "--count=-1"], "the number of dice a chain starts with must be 0 or more"),
        (
            ["attack", "--attacks=101"],
            f"101 dice; {LIMIT} 100 dice a chain starts with (see Limits in `rulebook docs engine`)",
        ),
    ],
)
def test_a_number_outside_what_a_question_means_is_refused(
    rules: Rules, other_game: Path, capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    data = other_game if argv[0] in ("attack", "chain") else rules.path
    assert main(["engine", "--rules", str(data), *argv]) == 2
    assert capsys.readouterr() == ("", f"rulebook: error: {message}\n")


@pytest.mark.parametrize(
    ("argv", "prog", "option", "items"),
    [
        (["modify", "--value", "3", *["--mod=+1"] * 4_000], "modify", "--mod", "modifiers"),
        (["chain", "--count", "1", *["--value=power=2"] * 4_000], "chain", "--value", "settings given to a chain"),
    ],
)
def test_too_many_modifiers_or_values_are_refused_before_they_are_all_parsed(
    rules: Rules,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: list[str],
    prog: str,
    option: str,
    items: str,
) -> None:
    """argparse's parsing grows with the square of the options: 20,000 modifiers took 18 s before the limit."""
    from rulebook.cli import engine as engine_cli

    seen = []
    collect = engine_cli._AtMost.__call__
    monkeypatch.setattr(engine_cli._AtMost, "__call__", lambda *args: (seen.append(1), collect(*args)))
    with pytest.raises(SystemExit) as stop:
        main(["engine", "--rules", str(rules.path), *argv])
    assert stop.value.code == 2
    assert len(seen) == 101  # parsing stopped at the first item past the limit
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        f"rulebook engine {prog}: error: argument {option}: more than 100 {items}; {LIMIT} 100 {items} "
        "(see Limits in `rulebook docs engine`)"
    )


def test_the_engine_refuses_too_many_modifiers_given_to_it_directly(rules: Rules) -> None:
    from rulebook.engine.errors import LimitError
    from rulebook.engine.modify import apply_modifiers

    assert apply_modifiers(rules, 3, ["+1"] * 100)["result"] == 10  # the characteristic's maximum
    with pytest.raises(LimitError, match=rf"^20,000 modifiers; {LIMIT} 100 modifiers "):
        apply_modifiers(rules, 3, ["+1"] * 20_000)


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("²\n٣\n", "no more rolls to read (end of input)"),  # digits int() reads, but no die shows: asked again
        ("9" * 5000 + "\n", "a die here shows 1 to 3, not a line of over 80 characters"),
        ("\x00" * 100_000, "a die here shows 1 to 3, not a line of over 80 characters"),  # as < /dev/zero
    ],
)
def test_typed_rolls_that_no_die_shows_are_asked_again_or_refused(
    rules: Rules, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, typed: str, message: str
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(typed))
    assert main(["engine", "--rules", str(rules.path), "pregame", "--interactive"]) == 2
    assert capsys.readouterr().err.endswith(f"rulebook: error: {message}\n")


@pytest.mark.parametrize("git", [True, False])
def test_a_verdict_committed_beside_crafted_rule_data_is_not_believed(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], git: bool
) -> None:
    """A CI that keeps its caches in the workspace (``XDG_CACHE_HOME=$GITHUB_WORKSPACE/.cache``): a pull request
    commits rule data the schema refuses and, in ``.cache/rulebook/valid-rules.txt``, the digest that says it is
    valid. The engine believed it, skipped the check and stopped with "internal error: KeyError: 'kind'"; a cache
    inside a Git working tree is not used (nor written), so the data is checked and refused in plain words; nor is
    one inside the folder the command runs in, a project that is no Git working tree (the twenty-second probe)."""
    from rulebook.engine import schema

    checkout = tmp_path / "checkout"
    checkout.mkdir()
    if git:
        (checkout / ".git").mkdir()
    else:
        monkeypatch.chdir(checkout)
    crafted = checkout / "crafted"
    crafted.mkdir()
    data = json.loads(rules.path.read_text(encoding="utf-8"))
    data["sequences"] = [{"bogus": 1}]
    raw = json.dumps(data).encode("utf-8")
    (crafted / "rules.json").write_bytes(raw)
    shutil.copy(rules.path.with_name("rules.schema.json"), crafted / "rules.schema.json")
    monkeypatch.setenv("XDG_CACHE_HOME", str(checkout / ".cache"))
    verdicts = checkout / ".cache" / "rulebook" / "valid-rules.txt"
    verdicts.parent.mkdir(parents=True)
    verdicts.write_text(schema._digest(raw, schema.engine_schema()) + "\n", encoding="ascii")
    assert main(["engine", "--rules", str(crafted / "rules.json"), "turns"]) == 2
    assert capsys.readouterr().err == (
        f"rulebook: error: {crafted / 'rules.json'} does not follow its schema at $.sequences[0]: data.sequences[0] "
        "must contain ['id', 'kind', 'section', 'steps', 'title'] properties\n"
    )
    schema.remember_valid(rules.path.read_bytes(), schema.engine_schema())  # a valid file is not remembered there
    assert verdicts.read_text(encoding="ascii") == schema._digest(raw, schema.engine_schema()) + "\n"


# Dice the book annotates: held to the engine's limits by the lint ---------------------------------


@pytest.mark.parametrize(
    ("annotated", "said"),
    [
        (  # 150 bytes: the lint listed the results no band gives, 36 s and 12 GB
            '<table title="Big" roll="99D999999"><headers><header>Roll</header><header>Result</header></headers>'
            "<row><cell>1</cell><cell>a</cell></row></table>",
            "error[RB501]: `99D999999` is more than the engine rolls: at most 100 dice of at most 100 sides",
        ),
        (
            '<list roll="D101"><item>a</item></list>',
            "error[RB501]: `D101` is more than the engine rolls: at most 100 dice of at most 100 sides",
        ),
        (  # passed the lint; the built rules.json was then refused by the engine
            '<definition name="rally">A rally.<mechanic name="rally" roll="999D6" pass="at-most"/></definition>'
            '<reference name="rally">rally</reference>',
            "error[RB502]: mechanic `rally`: `roll`: `999D6` is more than the engine rolls: at most 100 dice of at "
            "most 100 sides",
        ),
        (  # passed the lint; every engine question on the built data was then refused (the seventeenth probe)
            '<definition name="strike">A strike.<mechanic name="strike" roll="100D100" pass="at-least" '
            'against="4"/></definition><reference name="strike">strike</reference>',
            "error[RB502]: mechanic `strike`: `roll`: `100D100` is more dice than the engine rolls in a chain: at most 10",
        ),
        (
            '<definition name="strike">A strike.<mechanic name="strike" roll="D6" pass="at-least" against="4" '
            'critical="6" critical-adds="101"/></definition><reference name="strike">strike</reference>',
            "error[RB502]: mechanic `strike`: `critical-adds` must be a whole number from 1 to 100, the most the "
            "engine allows here",
        ),
        (  # the engine read a table rolled with it by the name's faces: odds not adding up (the nineteenth probe)
            '<definition name="d5">A D5.<mechanic name="D5" roll="D10" divide="1" round="up"/></definition>'
            '<reference name="d5">D5</reference>',
            "error[RB502]: mechanic `D5`: `D5` made so (D10 divided by 1, rounding up) shows 1 to 10, not 1 to 5",
        ),
        (  # each within its limit; every chain question on the built data was then refused (the nineteenth probe)
            '<definition name="strike">A strike.<mechanic name="strike" roll="D6" pass="at-least" against="4" step="1" '
            'critical="6" critical-adds="100"/></definition><reference name="strike">strike</reference>'
            '<definition name="harm">A harm.<mechanic name="harm" roll="D6" pass="at-least" against="4" step="2" '
            'critical="6" critical-adds="100"/></definition><reference name="harm">harm</reference>',
            "error[RB502]: mechanic `harm`: `critical-adds`: with the criticals of the rolls before it, one die can "
            "bring 10,201 successes through the chain, more than the engine's 1,000 results of a chain",
        ),
        (  # passed the lint; every engine question on the built data was then refused (the eighteenth probe)
            '<definition name="d5">A D5 is a D10 halved.<mechanic name="D5" roll="2D10" divide="2" round="up"/>'
            '</definition><reference name="d5">D5</reference>',
            "error[RB502]: mechanic `D5`: `roll`: `2D10` is 2 dice: the engine makes a derived die from one die",
        ),
    ],
)
def test_dice_past_the_engines_limits_are_found_by_the_lint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, annotated: str, said: str
) -> None:
    (tmp_path / "book.xml").write_text(
        f'<document><chapter id="c" title="Dice"><section id="s" title="Rolls">{annotated}</section></chapter>'
        "</document>",
        encoding="utf-8",
    )
    (tmp_path / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["lint"]) == 1
    assert said in capsys.readouterr().out


def _chain_of(rolls: int, markdown: bool) -> str:
    """A book of ``rolls`` rolls of a chain, one a line, each of a term it defines."""
    if markdown:
        lines = [
            f'[Roll {n}.]{{dfn=roll{n}}} [[roll{n}]] <!-- rulebook: mechanic name="roll{n}" roll="D6" '
            f'pass="at-least" against="4" step="{n + 1}" -->\n'
            for n in range(rolls)
        ]
        return "# 1 Rolls {#rolls}\n\n" + "\n".join(lines)
    lines = [
        f'<definition name="roll{n}">Roll {n}.<mechanic name="roll{n}" roll="D6" pass="at-least" against="4" '
        f'step="{n + 1}"/></definition><reference name="roll{n}">roll</reference>\n'
        for n in range(rolls)
    ]
    return '<document><chapter id="c" title="Rolls">\n' + "".join(lines) + "</chapter></document>"


@pytest.mark.parametrize("markdown", [False, True])
def test_a_chain_longer_than_the_engine_answers_is_found_by_the_lint(
    scratch: Path, capsys: pytest.CaptureFixture[str], markdown: bool
) -> None:
    """Eleven rolls of a chain passed the lint into a ``rules.json`` the engine refused on load (its chain answers
    at most ten rolls and readings): RB502 at the eleventh, where it is written, and the data keeps ten."""
    name = "book.md" if markdown else "book.xml"
    source(scratch, name, _chain_of(11, markdown))
    outcome = run(capsys, "lint")
    assert outcome.code == 1
    line = 2 + 2 * 10 + 1 if markdown else 12
    assert (
        "error[RB502]: mechanic `roll10`: more rolls and readings than the engine answers in a chain: at most 10 in "
        f"a book, each roll and each of its readings counted\n  --> {name}:{line}:"
    ) in outcome.out
    assert outcome.out.count("error[") == 1, outcome.out
    source(scratch, name, _chain_of(10, markdown))
    assert run(capsys, "lint").code == 0


# Text of the rule data on the terminal ----------------------------------------------------------------

_DRIVING = "\x1b]0;owned\x07\x1b[31m\u202e"
"""ESC sequences setting a terminal's title and colour, and a right-to-left override."""


def _driving_step(data: dict[str, Any]) -> None:
    data["sequences"][0]["steps"][0]["text"] = f"Movement{_DRIVING} Phase"


@pytest.mark.parametrize("as_json", [False, True])
def test_the_engine_shows_the_rule_datas_control_characters_as_pictures(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], as_json: bool
) -> None:
    # `engine turns` wrote a turn's title with ESC and U+202E raw (the eighteenth probe): the terminal's title was
    # set, its text turned red and the line reversed. JSON keeps the text exact, written as escapes.
    data = changed(rules.path, tmp_path, _driving_step)
    assert main(["engine", "--rules", str(data), "turns", *(["--json"] if as_json else [])]) == 0
    out = capsys.readouterr().out
    assert not any(character in out for character in "\x1b\x07\u202e")
    if as_json:
        assert "\\u001b]0;owned\\u0007\\u001b[31m\\u202e" in out
        assert f"Movement{_DRIVING} Phase" in _strings(json.loads(out))  # exact
    else:
        assert "Movement␛]0;owned␇␛[31m� Phase" in out


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value."""
    if isinstance(value, str):
        return [value]
    items = value.values() if isinstance(value, dict) else value if isinstance(value, list) else []
    return [text for item in items for text in _strings(item)]


def test_repeated_rolls_past_the_walk_are_found_by_the_lint(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Thirty of `times="10D10"`, each within its limit, passed the lint; every `engine pregame` was then refused
    # (the walk past its 1,000 lines, the nineteenth probe). Ten are 1,000 rolls at most: the eleventh is reported.
    book = (ROOT / "tests" / "games" / "ashfall.xml").read_text(encoding="utf-8")
    scatter = '<mechanic name="scatter" times="D5" table="debris_table"/>'
    assert scatter in book
    many = "".join(f'<mechanic name="scatter{n}" times="10D10" table="debris_table"/>' for n in range(11))
    (tmp_path / "book.xml").write_text(book.replace(scatter, many), encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["lint"]) == 1
    out = capsys.readouterr().out
    assert "mechanic `scatter9`" not in out
    assert (
        "error[RB502]: mechanic `scatter10`: `times`: with the repeated rolls before it, the pre-game walk can roll "
        "1,100 times, more than the 1,000 lines of a walk the engine writes" in out
    )


@pytest.mark.parametrize("plain", [996, 997])
def test_a_setup_sequence_past_the_walk_in_plain_steps_is_found_by_the_lint(
    plain: int, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # `rulebook init`'s setup of two steps, each a roll, and plain steps after them (1,001 passed the lint and the
    # build, and every `engine pregame` was refused: the twentieth probe). The lint counts the least walk as the
    # engine does: 996 more make a walk of 1,000 lines, printed; 997, 1,001 lines, reported and refused.
    monkeypatch.chdir(tmp_path)
    assert main(["init", "game"]) == 0
    monkeypatch.chdir(tmp_path / "game")
    book = Path("rules/book.xml")
    last = '<item><link to="first_move">Roll for the first move.</link></item>\n'
    steps = "".join(f"<item>Place marker {n}.</item>\n" for n in range(plain))
    assert last in book.read_text(encoding="utf-8")
    book.write_text(book.read_text(encoding="utf-8").replace(last, last + steps), encoding="utf-8")
    capsys.readouterr()
    linted = main(["lint"])
    out = capsys.readouterr().out
    assert main(["build", "-q", "--data-only"]) in (0, 1)
    capsys.readouterr()
    if plain == 996:
        assert linted == 0, out
        assert main(["engine", "pregame", "--seed", "1"]) == 0
        assert len(capsys.readouterr().out.strip().splitlines()) == 1_000
    else:
        assert linted == 1
        assert (
            "error[RB502]: the setup sequence's pre-game walk is at least 1,001 lines (a line a step, and each roll "
            "in a section a step links to, repeated rolls at their fewest), more than the 1,000 lines" in out
        )
        refused(capsys, ["engine", "pregame", "--seed", "1"], f"{LIMIT} 1,000 lines of a pre-game walk")


def test_criticals_adding_many_are_worked_out_on_whole_numbers(
    other_game: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two criticals adding 30 each (961 results, within the limits) took each chain question 20 s of CPU: the rest of
    # the chain was added to a critical thirty times over, each sum of fractions reduced (464,268 additions; the
    # nineteenth probe). Now the sums are of whole numbers, and the fractions made once at the end.
    from fractions import Fraction

    made: list[int] = []
    real = Fraction.__new__

    def counted(cls: type, *args: Any, **kwargs: Any) -> Fraction:
        made.append(1)
        return real(cls, *args, **kwargs)

    def criticals(data: dict[str, Any]) -> None:
        data["mechanics"]["rolls"]["hit"].update(critical=[6], critical_adds=30)
        data["mechanics"]["rolls"]["injury"].update(critical=[6], critical_adds=30)

    hostile = changed(other_game, tmp_path / "criticals", criticals)
    monkeypatch.setattr(Fraction, "__new__", counted)
    assert main(["engine", "--rules", str(hostile), "chain", "--count", "1", *FIREBALL_VALUES, "--json"]) == 0
    monkeypatch.undo()
    answer = json.loads(capsys.readouterr().out)
    assert "961" in answer["successes"]["distribution"]
    assert len(made) < 100_000  # with fractions at each step: millions


def test_the_default_rule_data_is_the_projects_own_build_never_a_link_or_a_folder_no_build_made(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Without ``--rules`` the engine answered from ``site/rules.json`` through a committed ``site -> elsewhere``
    (which the build refuses), and from a ``site/`` no build made (the forty-first probe)."""
    from rulebook.fileio import SITE_MARKER

    from .test_output import project

    game = project(tmp_path / "game")
    monkeypatch.chdir(game)
    assert main(["build", "-q", "--no-pdf"]) == 0
    assert main(["engine", "odds", "roll", "2D6"]) == 0
    capsys.readouterr()
    (game / "site").rename(tmp_path / "elsewhere")
    (game / "site").symlink_to(tmp_path / "elsewhere")
    assert main(["engine", "odds", "roll", "2D6"]) == 2
    assert f"`{game / 'site'}` is a symbolic link" in capsys.readouterr().err
    (game / "site").unlink()
    shutil.copytree(tmp_path / "elsewhere", game / "site")
    (game / "site" / SITE_MARKER).unlink()
    assert main(["engine", "odds", "roll", "2D6"]) == 2
    assert f"it holds no `{SITE_MARKER}`): the engine answers from the rule data of the project's own build" in (
        capsys.readouterr().err
    )
    shutil.rmtree(game / "site")  # a committed link on the way to a configured output (the forty-second probe)
    (game / "rulebook.toml").write_text('sources = ["book.xml"]\noutput = "out/site"\n', encoding="utf-8")
    (tmp_path / "elsewhere-out").mkdir()
    (tmp_path / "elsewhere").rename(tmp_path / "elsewhere-out" / "site")
    (game / "out").symlink_to(tmp_path / "elsewhere-out")
    assert main(["engine", "odds", "roll", "2D6"]) == 2
    assert f"`{game / 'out'}` is a symbolic link" in capsys.readouterr().err
