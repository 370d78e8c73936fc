"""``rulebook engine chain``: the other game's chain of rolls from its annotated Markdown.

Expected values are enumerated here, die by die, from the book's words: hit "at or above" the
Accuracy, injure "at or above" the Power, defend "at or above" Defense + Penetration, or take the
Cover Roll instead ("roll above" 6 - cover), and a courage test ("2d6 below Courage") when more than
3 HP were lost, a failure costing "an extra 1d6 HP".
"""

from __future__ import annotations

import itertools
import json
import os
from fractions import Fraction
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.engine.chain import Answer, run_chain
from rulebook.engine.odds import odds_of_test
from rulebook.engine.profile import Profile
from rulebook.engine.rules import Rules, RulesError, load_rules

from .conftest import ROOT
from .test_engine import private_cache  # noqa: F401  (autouse: a private cache folder)

FIREBALL = {"accuracy": 3, "power": 2, "defense": 2, "penetration": 2, "courage": 7}
D6 = range(1, 7)


def compile_other_game(out: Path) -> Rules:
    """The other game's rule data, built from the project's configuration."""
    cwd = Path.cwd()
    try:
        os.chdir(ROOT)
        assert main(["build", "-q", "--data-only", "--book", "other-game", "--output", str(out)]) == 0
    finally:
        os.chdir(cwd)
    return load_rules(out / "other-game" / "rules.json")


def attack(rules: Rules, count: int, values: dict[str, int]) -> Answer:
    """``count`` attacks through the other game's chain: each die's successes cost a point of health."""
    return run_chain(rules, Profile(count, values))


def per_attack(answer: Answer) -> Fraction:
    """The chance one attack costs a point."""
    return answer.per_die.distribution().get(1, Fraction(0))


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return compile_other_game(tmp_path_factory.mktemp("other-game"))


def loses_a_point(hit: int, injury: int, save: int, cover_save: int | None, values: dict[str, int]) -> bool:
    if hit < values["accuracy"] or injury < values["power"]:
        return False
    defended = save >= values["defense"] + values["penetration"]
    covered = cover_save is not None and cover_save > 6 - values["cover"]
    return not (defended or covered)


def test_one_attack_by_enumeration(rules: Rules) -> None:
    # Without cover: hit 3+ (4/6), injure 2+ (5/6), defend 4+ (3/6): 60 of 216 outcomes cost a point.
    count = sum(loses_a_point(h, i, s, None, FIREBALL) for h, i, s in itertools.product(D6, D6, D6))
    assert per_attack(attack(rules, 1, FIREBALL)) == Fraction(count, 216) == Fraction(5, 18)
    # With cover 5 the defender may roll above 1 instead; they take the better save, so a point
    # is lost only when the save they chose fails: the chance is that of the better of the two.
    with_cover = {**FIREBALL, "cover": 5}
    defend, cover = Fraction(3, 6), Fraction(sum(c > 6 - 5 for c in D6), 6)
    assert per_attack(attack(rules, 1, with_cover)) == Fraction(4, 6) * Fraction(5, 6) * (1 - max(defend, cover))


def test_two_attacks_distribution_by_enumeration(rules: Rules) -> None:
    counts: dict[int, int] = {}
    for dice in itertools.product(D6, repeat=6):
        lost = sum(loses_a_point(*dice[k * 3 : k * 3 + 3], None, FIREBALL) for k in range(2))
        counts[lost] = counts.get(lost, 0) + 1
    expected = {lost: Fraction(n, 6**6) for lost, n in counts.items()}
    assert attack(rules, 2, FIREBALL).result.distribution() == expected


def test_more_than_three_points_lost_calls_for_a_courage_test(rules: Rules) -> None:
    q = Fraction(5, 18)
    holds = Fraction(sum(a + b < 7 for a, b in itertools.product(D6, D6)), 36)  # 2D6 below Courage 7
    result = attack(rules, 4, FIREBALL).result.distribution()
    assert result[3] == 4 * q**3 * (1 - q)  # 3 lost: no test
    assert result[4] == q**4 * holds  # 4 lost and the unit holds
    for extra in D6:  # 4 lost, the test fails: an extra D6
        assert result[4 + extra] == q**4 * (1 - holds) * Fraction(1, 6)
    assert sum(result.values()) == 1


def test_the_text_contradicting_itself_gives_both_readings(rules: Rules) -> None:
    result = attack(rules, 1, {**FIREBALL, "cover": 3})
    by_roll = {r["roll"]: r for r in result.readings}
    assert set(by_roll) == {"hit", "using_cover"}
    hit = by_roll["hit"]
    assert hit["rule"]["place"].endswith("rules.md:37") and hit["other"]["place"].endswith("rules.md:46")
    assert "at or above accuracy" in hit["warning"] and "above accuracy" in hit["warning"]
    assert "landed above a three" in hit["other"]["text"]
    # Read as "above", a hit needs a 4+: 3/6 instead of 4/6.
    assert Fraction(hit["expected"]) == Fraction(3, 6) * Fraction(5, 6) * Fraction(1, 2)
    cover = by_roll["using_cover"]
    assert "6 - 3 = 3+" in cover["other"]["text"] and "roll above that value" in cover["rule"]["text"]
    # Without a cover value the cover roll is not taken, and its two readings change nothing.
    assert {r["roll"] for r in attack(rules, 1, FIREBALL).readings} == {"hit"}


def test_missing_values_and_other_books_are_plain_errors(rules: Rules, tmp_path: Path) -> None:
    with pytest.raises(RulesError, match=r"needs a value for `power` \(--value power=N\)"):
        attack(rules, 1, {"accuracy": 3})
    data = json.loads(json.dumps(rules.data))
    data["mechanics"]["rolls"] = {}
    with pytest.raises(
        RulesError,
        match=r"this book declares no chain of rolls: annotate each roll of the chain where the text states it, one a step: <!-- rulebook: mechanic",
    ):
        attack(Rules(data, rules.path), 1, FIREBALL)


def test_cli_json(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    values = [f"--value={k}={v}" for k, v in FIREBALL.items()]
    assert main(["engine", "--rules", str(rules.path), "attack", "--attacks", "1", *values, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["per_die"]["distribution"] == {"0": "13/18", "1": "5/18"} == out["distribution"]
    assert [(s["step"], [r["roll"] for r in s["rolls"]], s["chosen"]) for s in out["steps"]] == [
        (1, ["hit"], None),
        (2, ["injury"], None),
        (3, ["defense_roll"], "defense_roll"),
    ]
    assert {rule["term"] for rule in out["rules"]} == {"hit", "injury", "defense_roll", "using_cover", "courage"}
    assert main(["engine", "--rules", str(rules.path), "attack", "--attacks", "1", "--value", "accuracy"]) == 2


def test_a_save_that_needs_a_value_not_given_saves_nothing(rules: Rules) -> None:
    data = json.loads(json.dumps(rules.data))
    del data["mechanics"]["rolls"]["defense_roll"]  # only the cover roll is left, and no cover value is given
    read = {name: value for name, value in FIREBALL.items() if name not in ("defense", "penetration")}
    result = attack(Rules(data, rules.path), 1, read)
    assert per_attack(result) == Fraction(4, 6) * Fraction(5, 6)


def test_the_courage_roll_is_declared_once_and_answers_as_a_test(rules: Rules) -> None:
    assert (
        list(rules.data["mechanics"]["rolls"]).count("courage") == 1
        and "courage" not in rules.data["mechanics"]["tests"]
    )
    odds = odds_of_test(rules, "courage", 7)
    assert odds.probability == Fraction(15, 36)  # 2D6 below 7: 2 to 6
