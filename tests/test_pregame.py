"""``rulebook engine pregame``: the pre-game walked from the compiled data, seeded or with the players' rolls.

Expected results are read from the book by hand: the terrain table (1 Hill ... 6 Ruin), the deployment
types (1-3 Classic, 4-5 Diagonal, 6 Flank Attack), the secondary objectives, "choose on a 4+", and the
first-turn roll (the player who finished first adds the undeployed units number; a tie goes to the other).
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.engine.pregame import Dice, Options, pregame
from rulebook.engine.rules import Rules

from .conftest import BUNDLED_BOOK
from .test_engine import compile_rules, private_cache  # noqa: F401  (autouse: a private cache folder)


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return compile_rules(BUNDLED_BOOK, tmp_path_factory.mktemp("rules"))


def scripted(*values: int) -> Dice:
    """Dice the players type in, one value per die, in order."""
    rolls = iter(values)
    return Dice(ask=lambda why, low, high: next(rolls))


def results(events: list) -> list[tuple[str, str | None]]:  # type: ignore[type-arg]
    return [(e.step, e.result) for e in events if e.result]


def test_a_walk_with_the_players_rolls(rules: Rules) -> None:
    # 2D3 terrain count: 1 + 2 = 3 pieces, rolled 6, 1, 3; deployment type 4; objective 6; zones 4;
    # first turn: A (finished first) rolls 2 + 3 undeployed units = 5, B rolls 5: a tie goes to B.
    dice = scripted(1, 2, 6, 1, 3, 4, 6, 4, 2, 5)
    events = pregame(rules, dice, Options(first="A", bonus=3))
    assert results(events) == [
        ("3", "Ruin"),
        ("3", "Hill"),
        ("3", "Field"),
        ("4", "Diagonal"),
        ("5", "Secure Target"),
        ("6", "rolled 4: passed, player A"),
        ("8.8", "player B wins"),
    ]
    assert [e.step for e in events if not e.result][:3] == ["1", "2", "3"]
    assert events[-1].text == "first_turn: player A 2 + undeployed_unit_number 3 = 5, player B 5"
    # Every step of the deployment phase is walked inside step 8, with links to the site.
    assert [e.step for e in events if e.step.startswith("8.")][:3] == ["8.1", "8.2", "8.3"]
    assert events[0].anchor == "the-pre-game-sequence/#decide_on_game_size"


def test_one_over_the_first_turn_bonus_wins_and_3_on_the_zone_roll_fails(rules: Rules) -> None:
    events = pregame(rules, scripted(1, 1, 1, 1, 1, 1, 3, 3, 5), Options(first="B", bonus=3))
    outcome = dict(results(events))
    assert outcome["6"] == "rolled 3: failed, player B"
    assert outcome["8.8"] == "player B wins"  # B finished first: 3 + 3 = 6 beats A's 5


def test_the_same_seed_gives_the_same_transcript(capsys: pytest.CaptureFixture[str], rules: Rules) -> None:
    runs = []
    for seed in (11, 11, 12):
        assert main(["engine", "--rules", str(rules.path), "pregame", "--seed", str(seed), "--json"]) == 0
        runs.append(json.loads(capsys.readouterr().out))
    assert runs[0] == runs[1]
    assert runs[0] != runs[2]
    for event in runs[0]["events"]:
        assert all(1 <= value <= 6 for value in event["rolls"])


def test_interactive_rolls_are_read_and_checked(
    rules: Rules, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("9\n1\n2\n6\n1\n3\n4\n6\n4\n2\n5\n"))
    assert main(["engine", "--rules", str(rules.path), "pregame", "--interactive", "--bonus", "3"]) == 0
    captured = capsys.readouterr()
    assert "a die here shows 1 to 3." in captured.err  # 9 is refused for a D3
    assert "deployment_type: D6 rolled 4 -> Diagonal" in captured.out


def test_a_changed_band_changes_the_walk(tmp_path: Path) -> None:
    text = BUNDLED_BOOK.read_text(encoding="utf-8")
    classic, diagonal = "<header>1-3: <reference", "<header>4-5: <reference"
    assert classic in text and diagonal in text
    copy = tmp_path / "rulebook.xml"
    copy.write_text(
        text.replace(classic, "<header>1-2: <reference").replace(diagonal, "<header>3-5: <reference"),
        encoding="utf-8",
    )
    changed = compile_rules(copy, tmp_path / "out")
    events = pregame(changed, scripted(1, 1, 1, 1, 3, 1, 1, 1, 1))
    assert ("4", "Diagonal") in results(events)  # a 3 was Classic in the book as written


def test_without_an_annotated_sequence_the_engine_says_what_to_do(rules: Rules) -> None:
    from rulebook.engine.rules import RulesError

    data = json.loads(json.dumps(rules.data))
    for sequence in data["sequences"]:
        sequence["kind"] = None
    with pytest.raises(
        RulesError,
        match=r'this book declares no setup sequence: mark the steps that set up a game: <sequence kind="setup">',
    ):
        pregame(Rules(data, rules.path), Dice(seed=1))


def test_a_smaller_board_rolls_the_count_the_book_gives_for_it(rules: Rules) -> None:
    # "add 2D3 (1D3 if the board is 36x48) additional pieces": one die, 3 pieces, rolled 2, 2, 2.
    events = pregame(rules, scripted(3, 2, 2, 2, 1, 1, 1, 1, 1), Options(board="36x48"))
    counts = [e.text for e in events if "rolled" in e.text and "additional_terrain" in e.text]
    assert counts == ["additional_terrain_small_board: D3 rolled 3"]
    assert [r for s, r in results(events) if s == "3"] == ["Forest", "Forest", "Forest"]


def test_a_step_found_by_its_title_is_noted_only_when_its_link_is_broken(rules: Rules) -> None:
    data = json.loads(json.dumps(rules.data))
    [setup] = [s for s in data["sequences"] if s["kind"] == "setup"]
    step = setup["steps"][0]
    assert step["section"] is not None
    step.update(link="nowhere", resolved=False)  # a link to no section: the step's section found by its title
    [first, *_] = pregame(Rules(data, rules.path), Dice(seed=1))
    assert first.text == step["text"] + " (found by its title: the step's link is broken)"
    step.update(link=None)  # no link at all (a Markdown step names its section): nothing is broken
    [first, *_] = pregame(Rules(data, rules.path), Dice(seed=1))
    assert first.text == step["text"]
