"""Any game's mechanics: five books answer every engine question from their own declarations.

Ashfall (``tests/games/ashfall.xml``, a D10 dice-pool skirmish game written for these tests), Tidewatch
(``tests/games/tidewatch.md``, a D8 boarding game written in Markdown, every declaration in a comment), the
book ``rulebook init`` starts a newcomer with, the other game's Markdown seed and the bundled book. Every dice
answer is checked exactly against icepool, written here from each book's words (not from the engine's
code); the chains also against an enumeration of every die a small chain can roll. A book that declares
nothing for a question is told what to declare, in its format's syntax.
"""

from __future__ import annotations

import itertools
import json
import math
import os
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from typing import Any

import icepool
import pytest

from rulebook.cli import main
from rulebook.engine.army import check_army
from rulebook.engine.chain import run_chain
from rulebook.engine.modify import apply_modifiers
from rulebook.engine.odds import odds_of_test, roll_odds, table_odds
from rulebook.engine.pregame import Dice, pregame
from rulebook.engine.profile import Profile
from rulebook.engine.rules import Rules, RulesError, load_rules
from rulebook.engine.turns import turn_structure

from .conftest import BUNDLED_BOOK, ROOT
from .test_chain_other_game import compile_other_game
from .test_engine import compile_rules, private_cache  # noqa: F401  (autouse: a private cache folder)

ASHFALL = ROOT / "tests" / "games" / "ashfall.xml"
TIDEWATCH = ROOT / "tests" / "games" / "tidewatch.md"
BOOKS = ("ashfall", "tidewatch", "starter", "other", "bundled")


def compile_plain_markdown(book: Path, folder: Path) -> Rules:
    """A book written in plain Markdown (its declarations in comments, tab-separated tables), built as its team
    builds it: a project whose configuration says so (a `.md` file is read in the Markdown dialect otherwise)."""
    (folder / book.name).write_bytes(book.read_bytes())
    (folder / "rulebook.toml").write_text(f'sources = ["{book.name}"]\nformat = "plain-markdown"\n', encoding="utf-8")
    cwd = Path.cwd()
    try:
        os.chdir(folder)
        assert main(["build", "-q", "--data-only"]) in (0, 1)
    finally:
        os.chdir(cwd)
    return load_rules(folder / "site" / "rules.json")


@pytest.fixture(scope="module")
def books(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Rules]:
    """Each book's rule data, built as its team would build it."""
    starter = tmp_path_factory.mktemp("starter") / "game"
    assert main(["init", str(starter), "--title", "A Newcomer's Game"]) == 0
    cwd = Path.cwd()
    try:
        os.chdir(starter)
        assert main(["build", "-q", "--data-only"]) == 0
    finally:
        os.chdir(cwd)
    return {
        "ashfall": compile_rules(ASHFALL, tmp_path_factory.mktemp("ashfall")),
        "tidewatch": compile_plain_markdown(TIDEWATCH, tmp_path_factory.mktemp("tidewatch")),
        "starter": load_rules(starter / "site" / "rules.json"),
        "other": compile_other_game(tmp_path_factory.mktemp("other")),
        "bundled": compile_rules(BUNDLED_BOOK, tmp_path_factory.mktemp("bundled")),
    }


# -- icepool, from the books' words ---------------------------------------------------------------


def icepool_die(notation: str, derived: dict[str, Any]) -> icepool.Die:
    """``2D5`` with icepool, a derived die made as its rule says (a D5 is a D10 halved, rounding up)."""
    count_text, sides_text = notation.upper().split("D")
    sides = int(sides_text)
    one = icepool.Die(range(1, sides + 1))
    rule = derived.get(f"D{sides}")
    if rule is not None:
        base, divide = int(rule["roll"].upper().removeprefix("1").removeprefix("D")), rule["divide"]
        one = icepool.Die(range(1, base + 1)).map(
            lambda face: math.ceil(face / divide) if rule["round"] == "up" else face // divide
        )
    return int(count_text or 1) @ one


COMPARE: dict[str, Callable[[int, int], bool]] = {
    "at_least": lambda roll, value: roll >= value,
    "at_most": lambda roll, value: roll <= value,
    "above": lambda roll, value: roll > value,
    "below": lambda roll, value: roll < value,
}


def passing(test: dict[str, Any], value: int) -> Callable[[int], bool]:
    """Whether a roll passes a test of the book, in its words: never on an always-fails result, always on an
    always-passes one."""
    return lambda roll: (
        roll not in test["always_fails"] and (roll in test["always_passes"] or COMPARE[test["pass"]](roll, value))
    )


def safe_reroll(die: icepool.Die, outcomes: list[int]) -> icepool.Die:
    """``die`` with those outcomes rolled again once (icepool divides by zero when every outcome is)."""
    return die if len(outcomes) == len(die.outcomes()) else die.reroll(outcomes, depth=1)


def chances(die: icepool.Die) -> dict[int, Fraction]:
    return {outcome: Fraction(die.probability(outcome)) for outcome in die.outcomes()}


# -- turns -----------------------------------------------------------------------------------------

TURNS = {
    "ashfall": ([("rounds", 5)], "A round", ["Initiative", "Activation", "End"]),
    "tidewatch": (
        [("tides", 6)],
        "A tide",
        [
            "Drift: every ship moves with the current.",
            "Board: crews fight across the rails.",
            "Bail: every ship takes on water.",
        ],
    ),
    "starter": ([("rounds", 4)], "A round", ["Move", "Fight", "Rally"]),
    "other": ([("rounds", 5)], "Round", None),
    "bundled": (
        [("game_turns", 6), ("player_turns_each", 6)],
        "Player Turn",
        ["Movement Phase", "Magic Phase", "Shooting Phase", "Close Combat Phase"],
    ),
}


@pytest.mark.parametrize("book", BOOKS)
def test_each_book_answers_turns_from_its_declarations(books: dict[str, Rules], book: str) -> None:
    counts, name, phases = TURNS[book]
    structure = turn_structure(books[book])
    assert [(t["name"], t["count"]) for t in structure["turns"]] == counts
    [turn] = structure["structures"]
    assert turn["name"] == name
    if phases is not None:
        assert [phase["name"] for phase in turn["phases"]] == phases
    else:  # the other game's list: its steps' own words
        assert turn["phases"][1]["name"].startswith("During the first round Player 1 will control")
    assert all(cite.get("anchor") for cite in structure["rules"])


# -- the setup walk ------------------------------------------------------------------------------


def scripted(values: list[int]) -> Dice:
    rolls = iter(values)
    return Dice(ask=lambda why, low, high: next(rolls))


def test_the_setup_walk_rolls_on_the_books_own_tables(books: dict[str, Rules]) -> None:
    # Ashfall: objective D5 (a D10 halved: the player types the D5's face), twist D5, debris D5 times on a
    # D10 table, the ambush on a 7+.
    events = pregame(books["ashfall"], scripted([3, 1, 2, 9, 10, 7]))
    assert [(e.step, e.result) for e in events if e.result] == [
        ("1", "Break through"),
        ("1", "Ash storm"),
        ("2", "Pylon"),
        ("2", "Ash heap"),
        ("3", "rolled 7: passed, player A"),
    ]
    assert [e.text for e in events if not e.rolls] == [
        "Roll the scenario.",
        "Scatter the debris.",
        "Check for an ambush.",
    ]
    # Tidewatch's steps name their sections by title (a Markdown step has no link): a D4 (a D8 halved: the
    # player types the D4's face) and 2D8 on the sea chart, then the weather gauge on a 6+.
    events = pregame(books["tidewatch"], scripted([4, 1, 8, 5]))
    assert [(e.step, e.text, e.rolls, e.result) for e in events] == [
        ("1", "Read the sea chart.", [], None),
        ("1", "current: D4 rolled 4", [4], "Rip."),
        ("1", "hazard: 2D8 rolled 9", [1, 8], "Open sea"),
        ("2", "Take the weather gauge.", [], None),
        ("2", "weather_gauge: player A rolls D8, needs 6+", [5], "rolled 5: failed, player B"),
    ]
    events = pregame(books["starter"], scripted([6, 2, 5]))
    assert [(e.step, e.result) for e in events if e.result] == [
        ("1", "Fog: fighters farther apart than 12 inches cannot see each other."),
        ("2", "player B wins"),
    ]
    other = pregame(books["other"], Dice(seed=1))
    assert [e.step for e in other] == ["1", "2", "3", "4", "5"] and not any(e.rolls for e in other)
    assert other[0].text.startswith("Each player should have three objective tiles")
    assert [e.step for e in pregame(books["bundled"], Dice(seed=1))][:3] == ["1", "2", "3"]


# -- odds ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("book", BOOKS)
def test_every_test_of_every_book_matches_icepool(books: dict[str, Rules], book: str) -> None:
    rules = books[book]
    derived = rules.data["mechanics"]["dice"]
    # A roll of a chain is a test too (the other game's courage roll, declared once).
    tested = {**rules.data["mechanics"]["rolls"], **rules.data["mechanics"]["tests"]}
    assert tested, book  # every book declares a test
    for name, test in tested.items():
        die = icepool_die(test["roll"], derived)
        target = test.get("target")
        values = [target] if target is not None else range(die.min_outcome() - 1, die.max_outcome() + 2)
        for value in values:
            expected = Fraction(die.map(passing(test, value)).probability(True))
            asked = None if target is not None else value
            assert odds_of_test(rules, name, asked).probability == expected, (name, value)
            if rules.data["mechanics"]["rerolls"] is not None:
                failing = [r for r in die.outcomes() if not passing(test, value)(r)]
                again = Fraction(safe_reroll(die, failing).map(passing(test, value)).probability(True))
                assert odds_of_test(rules, name, asked, reroll_failed=True).probability == again, (name, value)


@pytest.mark.parametrize("book", BOOKS)
def test_rolls_of_every_book_match_icepool(books: dict[str, Rules], book: str) -> None:
    rules = books[book]
    derived = rules.data["mechanics"]["dice"]
    for notation in [
        "D6",
        "2D6",
        "3D10",
        *derived,
        *(f"2{name}" for name in derived),
        *(f"3{name}" for name in derived),
    ]:
        expected = {str(k): v for k, v in chances(icepool_die(notation, derived)).items()}
        assert roll_odds(rules, notation).distribution == expected, notation


@pytest.mark.parametrize("book", BOOKS)
def test_every_roll_table_of_every_book_matches_icepool(books: dict[str, Rules], book: str) -> None:
    rules = books[book]
    derived = rules.data["mechanics"]["dice"]
    if not rules.data["roll_tables"]:
        with pytest.raises(RulesError, match="this book declares no roll table"):
            table_odds(rules, "anything")
        return
    for table in rules.data["roll_tables"]:
        die = icepool_die(table["die"], derived)

        def result(roll: int, table: dict[str, Any] = table) -> str:
            return next(band["result"] for band in table["bands"] if band["min"] <= roll <= band["max"])

        odds = table_odds(rules, table["id"])
        assert odds.distribution == {k: Fraction(v) for k, v in chances(die.map(result)).items()}, table["id"]
        assert sum(band["probability"] for band in odds.bands) == 1
        [cite] = odds.rules
        assert (cite["section"], cite["table"]) == (table["section"], table["id"])  # the table's own place


def test_two_tables_of_one_section_keep_their_own_names(
    books: dict[str, Rules], capsys: pytest.CaptureFixture[str]
) -> None:
    tables = {t["id"]: t for t in books["ashfall"].data["roll_tables"]}
    assert (tables["objective"]["title"], tables["twist"]["title"]) == ("Objective", "Twist")
    assert tables["objective"]["section"] == tables["twist"]["section"] == "scenario"
    rules = books["ashfall"].path
    assert main(["engine", "--rules", str(rules), "odds", "table", "injuries"]) == 0
    assert capsys.readouterr().out == (
        "Injuries: roll D6 on `injuries`\n"
        "  1-2  1/3 (33.3%)  Grazed: no effect.\n"
        "  3-5  1/2 (50.0%)  Scarred: -1 nerve.\n"
        "    6  1/6 (16.7%)  Dead.\n"
        "  rule: Aftermath (playing/#aftermath)\n"
    )


# -- modifiers -------------------------------------------------------------------------------------


@pytest.mark.parametrize("book", ["ashfall", "tidewatch", "starter", "bundled"])
def test_bounded_modifiers_never_move_a_value_the_other_way(books: dict[str, Rules], book: str) -> None:
    rules = books[book]
    low = rules.data["characteristics"]["min"]
    assert apply_modifiers(rules, low, ["-1 min 3"])["result"] == low  # a -1 never raises a value
    assert apply_modifiers(rules, 5, ["+1 max 4"])["result"] == 5  # a +1 never lowers one
    assert apply_modifiers(rules, 5, ["-1 min 4"])["result"] == 4


def test_the_two_modifier_cases_of_the_issue(books: dict[str, Rules], capsys: pytest.CaptureFixture[str]) -> None:
    rules = str(books["bundled"].path)
    assert main(["engine", "--rules", rules, "modify", "--value", "0", "--mod", "-1 min 1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == 0
    assert main(["engine", "--rules", rules, "modify", "--value", "7", "--mod", "+1 max 5", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["result"] == 7


def test_each_book_orders_modifiers_its_own_way(books: dict[str, Rules]) -> None:
    # Ashfall adds before it multiplies, rounding down, within 2 to 9; the bundled book multiplies first.
    assert apply_modifiers(books["ashfall"], 3, ["*2", "+1"])["result"] == 8  # (3 + 1) x 2
    assert apply_modifiers(books["bundled"], 3, ["*2", "+1"])["result"] == 7  # 3 x 2 + 1
    assert apply_modifiers(books["ashfall"], 5, ["/2"])["result"] == 2  # 2.5 rounds down
    assert apply_modifiers(books["bundled"], 5, ["/2"])["result"] == 3  # rounds up
    assert apply_modifiers(books["ashfall"], 8, ["+3"])["result"] == 9  # never above 9
    # Tidewatch multiplies first, rounding halves up, within 1 to 8.
    assert apply_modifiers(books["tidewatch"], 3, ["*2", "+1"])["result"] == 7
    assert apply_modifiers(books["tidewatch"], 5, ["/2"])["result"] == 3
    assert apply_modifiers(books["tidewatch"], 7, ["+3"])["result"] == 8


# -- what a book that declares nothing is told -------------------------------------------------------

MARKDOWN = "<!-- rulebook:"


@pytest.mark.parametrize(
    ("book", "question", "told"),
    [
        (
            "other",
            ["odds", "table", "tiles"],
            'this book declares no roll table (asked for `tiles`): put <!-- rulebook: table roll="D6"',
        ),
        ("other", ["modify", "--value", "3", "--mod", "+1"], "this book declares no order of modifiers: annotate"),
        (
            "bundled",
            ["chain", "--count", "3"],
            'this book declares no chain of rolls: annotate each roll of the chain in its definition, one a step: <mechanic name="TERM" roll="D6"',
        ),
        (
            "starter",
            ["odds", "test", "nerve_test", "--value", "7", "--reroll-failed"],
            'this book declares no reroll rule: annotate the rule: <mechanic name="TERM" max="1"/>',
        ),
    ],
)
def test_a_book_that_declares_nothing_for_a_question_is_told_what_to_declare(
    books: dict[str, Rules], capsys: pytest.CaptureFixture[str], book: str, question: list[str], told: str
) -> None:
    assert main(["engine", "--rules", str(books[book].path), *question]) == 2
    error = capsys.readouterr().err
    assert error.startswith(f"rulebook: error: {told}"), error
    assert (MARKDOWN in error) is (book == "other")  # the syntax of the book's own format


def test_army_lists_are_checked_against_the_crews_the_book_declares(books: dict[str, Rules], tmp_path: Path) -> None:
    rules = books["ashfall"]

    def entry(name: str, category: str, points: float, **extra: Any) -> dict[str, Any]:
        return {"name": name, "category": category, "points": points, **extra}

    crew = {
        "points_limit": 500,
        "entries": [
            entry("Ash", "captain", 130, leader=True, upgrades=[{"name": "Blade", "points": "20/15"}]),
            *(entry(f"W{i}", "warrior", 50, id="w") for i in range(5)),
            entry("Hound", "specialist", 44.5, type="beast"),
            entry("Hound 2", "specialist", 46, type="beast", id="hound2"),
        ],
    }
    report = check_army(rules, crew)
    assert report.total == 130 + 20 + 250 + 44 + 46 and report.violations == []  # 44.5 rounds down: 10 short
    # Beasts count as one: 5 warriors + 1 = 6 >= 5; drop two warriors and it is 4.
    small = {**crew, "entries": crew["entries"][:4] + crew["entries"][6:]}
    assert "at least 5 entries, not counting captain" in [v.rule for v in check_army(rules, small).violations]
    raid = {
        "points_limit": 300,
        "entries": [
            entry("Ash", "captain", 90, leader=True),
            *(entry(f"W{i}", "warrior", 40, id="w") for i in range(5)),
        ],
    }
    report = check_army(rules, raid)
    assert report.variant == "Raid" and [v.rule for v in report.violations] == ["warrior: max 4 (Raid)"]
    choices = {
        "points_limit": 300,
        "entries": [
            entry("Ash", "captain", 90, leader=True),
            *(entry(f"S{i}", "specialist", 40, id="s", choice="0-3") for i in range(2)),
        ],
    }
    assert "0-3 choice: at most 1 (Raid)" in [v.rule for v in check_army(rules, choices).violations]  # half, down
    with pytest.raises(RulesError, match="this book declares no army composition"):
        check_army(books["starter"], crew)


# -- chains ----------------------------------------------------------------------------------------

ASHFALL_PROFILES = [
    Profile(1, {"skill": 5, "grit": 6, "plate": 4, "pierce": 1, "steel": 9}),
    Profile(3, {"skill": 4, "grit": 5, "plate": 6, "pierce": 0, "steel": 11}),
    Profile(4, {"skill": 6, "grit": 4, "plate": 3, "pierce": 2, "steel": 8, "cover": 6}, {"strike": [1]}),
    Profile(
        5, {"skill": 3, "grit": 7, "plate": 5, "pierce": 1, "steel": 9}, {"harm": "failures", "guard": "successes"}
    ),
    Profile(6, {"skill": 5, "grit": 6, "plate": 4, "pierce": 1, "steel": 9}, {}, "D5"),
    Profile(10, {"skill": 4, "grit": 5, "plate": 5, "pierce": 1, "steel": 10}, {"strike": "failures"}, "2"),
]


def rerolled(die: icepool.Die, how: Any, fails: Callable[[int], bool]) -> icepool.Die:
    """A die rolled again once, as the player asks: its failures, its successes, or those results."""
    if how is None:
        return die
    again = [
        r
        for r in die.outcomes()
        if (fails(r) if how == "failures" else not fails(r) if how == "successes" else r in how)
    ]
    return safe_reroll(die, again)


def ashfall_by_icepool(profile: Profile) -> tuple[icepool.Die, icepool.Die | None]:
    """Ashfall's fight as its text says: a strike lands on at least the skill, a 1 always misses, a 10 lands
    twice; each lands a harm roll, at least the grit, a 10 harming through any guard; the target guards (at
    least plate + pierce) or takes cover above 10 - cover, whichever saves more; then steel; a harm not saved
    deals the weapon's damage."""
    v, how = profile.values, profile.rerolls
    d10 = icepool.d10
    strike = rerolled(d10, how.get("strike"), lambda r: r == 1 or (r < v["skill"] and r != 10))
    harm = rerolled(d10, how.get("harm"), lambda r: r < v["grit"] and r != 10)
    guards = [
        rerolled(d10, how.get("guard"), lambda r: r < v["plate"] + v["pierce"]).map(
            lambda r: r >= v["plate"] + v["pierce"]
        )
    ]
    if "cover" in v:
        guards.append(
            rerolled(d10, how.get("take_cover"), lambda r: r <= 10 - v["cover"]).map(lambda r: r > 10 - v["cover"])
        )
    guard = max(guards, key=lambda die: die.probability(True))
    steel = rerolled(d10, how.get("steel"), lambda r: r < v["steel"]).map(lambda r: r >= v["steel"])
    through_steel = steel.map(lambda saved: 0 if saved else 1)
    through_guard = guard.map(lambda saved: 0 if saved else through_steel)
    one_harm = harm.map(lambda r: through_steel if r == 10 else through_guard if r >= v["grit"] else 0)
    per_die = strike.map(lambda r: 0 if r == 1 else 2 @ one_harm if r == 10 else one_harm if r >= v["skill"] else 0)
    successes = profile.count @ per_die
    if profile.damage is None:
        return successes, None
    damage = (
        icepool_die(profile.damage, {"D5": {"roll": "D10", "divide": 2, "round": "up"}})
        if "D" in profile.damage
        else icepool.Die([int(profile.damage)])
    )
    return successes, successes @ damage


@pytest.mark.parametrize("profile", ASHFALL_PROFILES, ids=lambda p: f"{p.count}-{sorted(p.rerolls)}-{p.damage}")
def test_ashfalls_chain_matches_icepool(books: dict[str, Rules], profile: Profile) -> None:
    answer = run_chain(books["ashfall"], profile)
    successes, damage = ashfall_by_icepool(profile)
    assert answer.successes.distribution() == chances(successes)
    if damage is not None:
        assert answer.damage is not None and answer.damage.distribution() == chances(damage)
    assert [[r["roll"] for r in s["rolls"]] for s in answer.steps] == [
        ["strike"],
        ["harm"],
        ["guard", "take_cover"] if "cover" in profile.values else ["guard"],
        ["steel"],
    ]


def test_the_other_games_chain_matches_icepool(books: dict[str, Rules]) -> None:
    values = {"accuracy": 3, "power": 2, "defense": 2, "penetration": 2, "courage": 7, "cover": 4}
    d6 = icepool.d6
    save = max(d6.map(lambda r: r >= 4), d6.map(lambda r: r > 2), key=lambda die: die.probability(True))
    per_attack = d6.map(lambda h: 0 if h < 3 else d6.map(lambda i: 0 if i < 2 else save.map(lambda s: 0 if s else 1)))
    lost = 5 @ per_attack
    holds = Fraction((2 @ d6).probability("<", 7))
    # More than 3 lost calls for the courage test: a failure adds a D6.
    final = lost.map(
        lambda n: (
            n if n <= 3 else icepool.Die([n, n + d6], times=[holds.numerator, holds.denominator - holds.numerator])
        )
    )
    answer = run_chain(books["other"], Profile(5, values))
    assert answer.successes.distribution() == chances(lost)
    assert answer.result.distribution() == chances(final)


def starter_by_icepool(skill: int, guard: int) -> icepool.Die:
    """The starter's fight as its text says: a strike lands on at least the skill, a 6 always lands and a 1
    always misses; the target blocks it on at least its guard."""
    block = icepool.d6.map(lambda r: 1 if r < guard else 0)
    return icepool.d6.map(lambda r: block if r != 1 and (r == 6 or r >= skill) else 0)


def test_the_starters_chain_matches_icepool(books: dict[str, Rules]) -> None:
    for skill, guard, count in itertools.product(range(1, 8), range(2, 8), (1, 4, 12)):
        per_die = starter_by_icepool(skill, guard)
        answer = run_chain(books["starter"], Profile(count, {"skill": skill, "guard": guard}))
        assert answer.successes.distribution() == chances(count @ per_die), (skill, guard, count)


def tidewatch_by_icepool(profile: Profile) -> icepool.Die:
    """Tidewatch's boarding as its text says: a cut on at least the reach, an 8 always cutting and no parry
    stopping it; the defender parries any other cut on at least its guard."""
    v, how = profile.values, profile.rerolls
    cut = rerolled(icepool.d8, how.get("cut"), lambda r: r < v["reach"] and r != 8)
    parry = rerolled(icepool.d8, how.get("parry"), lambda r: r < v["guard"])
    through = parry.map(lambda r: 0 if r >= v["guard"] else 1)
    return profile.count @ cut.map(lambda r: 1 if r == 8 else through if r >= v["reach"] else 0)


@pytest.mark.parametrize(
    "profile",
    [
        Profile(1, {"reach": 5, "guard": 4}),
        Profile(4, {"reach": 3, "guard": 6}, {"cut": "failures"}),
        Profile(7, {"reach": 9, "guard": 2}, {"parry": "successes"}),
        Profile(12, {"reach": 6, "guard": 5}, {"cut": [1, 2], "parry": "failures"}),
    ],
    ids=["plain", "cuts-again", "reach-past-the-die", "both-again"],
)
def test_tidewatchs_chain_declared_in_markdown_matches_icepool(books: dict[str, Rules], profile: Profile) -> None:
    answer = run_chain(books["tidewatch"], profile)
    assert answer.successes.distribution() == chances(tidewatch_by_icepool(profile))
    assert [[r["roll"] for r in s["rolls"]] for s in answer.steps] == [["cut"], ["parry"]]


@pytest.mark.parametrize(
    ("option", "told"),
    [
        (["--value", "gaurd=4"], "`gaurd` is no value the chain's rolls are against (they are against: guard, reach)"),
        (["--reroll", "cutt=failures"], "`cutt` is no roll of the chain (its rolls: cut, parry)"),
    ],
)
def test_a_value_or_a_reroll_the_chain_does_not_read_is_refused(
    books: dict[str, Rules], capsys: pytest.CaptureFixture[str], option: list[str], told: str
) -> None:
    # A misspelt name would be ignored: an optional save left out, a reroll never made, the answer wrong.
    question = ["engine", "--rules", str(books["tidewatch"].path), "chain", "--count", "3", "--value", "reach=5"]
    assert main([*question, "--value", "guard=4", *option]) == 2
    assert capsys.readouterr().err == f"rulebook: error: {told}\n"


def test_a_markdown_book_is_told_it_cannot_declare_an_army_yet(books: dict[str, Rules]) -> None:
    with pytest.raises(RulesError, match="declare the army in an XML source: a Markdown book has no tables"):
        check_army(books["tidewatch"], {"points_limit": 100, "entries": []})


# -- every die a small chain rolls -------------------------------------------------------------------


class _More(Exception):
    def __init__(self, faces: int) -> None:
        self.faces = faces


class _Replay:
    """Dice that show the faces of a path, then ask for more: each call is one die of ``sides`` sides."""

    def __init__(self, path: tuple[int, ...]) -> None:
        self.path = path
        self.position = 0

    def __call__(self, sides: int) -> int:
        if self.position == len(self.path):
            raise _More(sides)
        self.position += 1
        return self.path[self.position - 1]


def enumerate_rolls(play: Callable[[Callable[[int], int]], Any]) -> dict[Any, Fraction]:
    """Every outcome of a game played with dice, each die's every face tried: ``play(roll)`` calls
    ``roll(sides)`` for each die it needs, in turn."""
    found: dict[Any, Fraction] = {}
    pending: list[tuple[int, ...]] = [()]
    sides_at: dict[tuple[int, ...], int] = {}
    while pending:
        path = pending.pop()
        try:
            outcome = play(_Replay(path))
        except _More as more:
            sides_at[path] = more.faces
            pending.extend((*path, face) for face in range(1, more.faces + 1))
            continue
        weight = Fraction(1)
        for length in range(len(path)):
            weight /= sides_at[path[:length]]
        found[outcome] = found.get(outcome, Fraction(0)) + weight
    return found


def remove(damages: list[int], health: int, targets: int | None) -> int:
    """Targets removed by damage dealt one success at a time: what a success deals past its target is lost."""
    removed, left = 0, health
    for dealt in damages:
        if targets is not None and removed == targets:
            break
        if dealt >= left:
            removed, left = removed + 1, health
        else:
            left -= dealt
    return removed


SMALL = 3
"""The sides of the small chain's dice: Ashfall with D3s for D10s (a 3 is the critical)."""


def small_ashfall(rules: Rules) -> Rules:
    """Ashfall with D3s for D10s, so that every die one attack can roll is enumerated."""
    data = json.loads(json.dumps(rules.data))
    for roll in data["mechanics"]["rolls"].values():
        roll.update(roll=f"D{SMALL}", dice={"count": 1, "sides": SMALL}, critical=[SMALL] if roll["critical"] else [])
    return Rules(data, rules.path)


@pytest.mark.parametrize(
    "profile",
    [
        Profile(1, {"skill": 2, "grit": 2, "plate": 2, "pierce": 1, "steel": 3}, {}, "2", 3),
        Profile(
            1, {"skill": 2, "grit": 3, "plate": 3, "pierce": 0, "steel": 3, "cover": 8}, {"strike": "failures"}, "D3", 2
        ),
        Profile(
            1,
            {"skill": 3, "grit": 2, "plate": 2, "pierce": 0, "steel": 3},
            {"harm": [1], "guard": "successes"},
            "D2",
            2,
            1,
        ),
    ],
    ids=["damage-2", "rerolls-cover-d3", "rerolls-one-target"],
)
def test_a_small_chain_against_every_die_it_rolls(books: dict[str, Rules], profile: Profile) -> None:
    rules = small_ashfall(books["ashfall"])
    v, how = profile.values, profile.rerolls

    def die(roll: Callable[[int], int], name: str, fails: Callable[[int], bool]) -> int:
        result = roll(SMALL)
        again = how.get(name)
        wanted = (again == "failures" and fails(result)) or (again == "successes" and not fails(result))
        return roll(SMALL) if wanted or (isinstance(again, list) and result in again) else result

    def saved(roll: Callable[[int], int]) -> bool:
        faces = range(1, SMALL + 1)
        guard_chance = Fraction(sum(1 for r in faces if r >= v["plate"] + v["pierce"]), SMALL)
        cover_chance = Fraction(sum(1 for r in faces if r > 10 - v.get("cover", 99)), SMALL)
        if "cover" in v and cover_chance > guard_chance:  # the defender takes the better save
            return die(roll, "take_cover", lambda r: r <= 10 - v["cover"]) > 10 - v["cover"]
        return die(roll, "guard", lambda r: r < v["plate"] + v["pierce"]) >= v["plate"] + v["pierce"]

    def harm(roll: Callable[[int], int]) -> int:
        result = die(roll, "harm", lambda r: r < v["grit"] and r != SMALL)
        if result != SMALL and (result < v["grit"] or saved(roll)):
            return 0
        return 0 if die(roll, "steel", lambda r: r < v["steel"]) >= v["steel"] else 1

    def play(roll: Callable[[int], int]) -> tuple[int, int, int]:
        successes = 0
        for _ in range(profile.count):
            strike = die(roll, "strike", lambda r: r == 1 or (r < v["skill"] and r != SMALL))
            if strike == SMALL:
                successes += harm(roll) + harm(roll)
            elif strike != 1 and strike >= v["skill"]:
                successes += harm(roll)
        damage = profile.damage or "1"
        dealt = [int(damage) if damage.isdigit() else roll(int(damage[1:])) for _ in range(successes)]
        return successes, sum(dealt), remove(dealt, profile.health or 1, profile.targets)

    outcomes = enumerate_rolls(play)
    answer = run_chain(rules, profile)

    def marginal(index: int) -> dict[int, Fraction]:
        found: dict[int, Fraction] = {}
        for outcome, p in outcomes.items():
            found[outcome[index]] = found.get(outcome[index], Fraction(0)) + p
        return found

    assert answer.successes.distribution() == marginal(0)
    assert answer.damage is not None and answer.damage.distribution() == marginal(1)
    assert answer.removed is not None and answer.removed.distribution() == marginal(2)


@pytest.mark.parametrize(
    ("count", "damage", "health", "targets"), [(2, "D3", 2, None), (3, "2", 3, 2), (2, "D6", 4, 1)]
)
def test_the_starters_chain_against_every_die_it_rolls(
    books: dict[str, Rules], count: int, damage: str, health: int, targets: int | None
) -> None:
    values = {"skill": 3, "guard": 5}

    def play(roll: Callable[[int], int]) -> tuple[int, int]:
        dealt = []
        for _ in range(count):
            strike = roll(6)
            if strike != 1 and (strike == 6 or strike >= values["skill"]) and roll(6) < values["guard"]:
                dealt.append(int(damage) if damage.isdigit() else roll(int(damage[1:])))
        return sum(dealt), remove(dealt, health, targets)

    outcomes = enumerate_rolls(play)
    answer = run_chain(books["starter"], Profile(count, values, {}, damage, health, targets))
    assert answer.damage is not None and answer.removed is not None
    assert answer.damage.distribution() == _marginal(outcomes, 0)
    assert answer.removed.distribution() == _marginal(outcomes, 1)


def _marginal(outcomes: dict[Any, Fraction], index: int) -> dict[int, Fraction]:
    found: dict[int, Fraction] = {}
    for outcome, p in outcomes.items():
        found[outcome[index]] = found.get(outcome[index], Fraction(0)) + p
    return found


def test_a_profile_file_and_the_command_line(
    books: dict[str, Rules], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    profile = tmp_path / "crew.yaml"
    profile.write_text(
        "count: 4\nvalues: {skill: 5, grit: 6, plate: 4, pierce: 1, steel: 9}\nreroll: {strike: [1]}\ndamage: D5\nhealth: 4\n",
        encoding="utf-8",
    )
    rules = str(books["ashfall"].path)
    assert main(["engine", "--rules", rules, "chain", "--profile", str(profile), "--json"]) == 0
    from_file = json.loads(capsys.readouterr().out)
    expected = run_chain(
        books["ashfall"],
        Profile(4, {"skill": 5, "grit": 6, "plate": 4, "pierce": 1, "steel": 9}, {"strike": [1]}, "D5", 4),
    )
    assert from_file["removed"] == json.loads(json.dumps(expected.as_json()))["removed"]
    # The command line's options replace the profile's.
    assert (
        main(
            ["engine", "--rules", rules, "chain", "--profile", str(profile), "--count", "1", "--damage", "1", "--json"]
        )
        == 0
    )
    once = json.loads(capsys.readouterr().out)
    assert once["question"].startswith("1 × die with") and once["damage"]["expected"] == once["successes"]["expected"]
    profile.write_text("count: 4\nspeed: 3\n", encoding="utf-8")
    assert main(["engine", "--rules", rules, "chain", "--profile", str(profile)]) == 2
    assert (
        "`speed` is not a setting of a chain profile (count, values, reroll, damage, health, targets)"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize(
    ("written", "wrong"),
    [
        ('from="captain"', 'from="relic"'),
        ('prices="captain warrior"', 'prices="relic warrior"'),
        ('not-counted="captain"', 'not-counted="crew"'),
    ],
)
def test_an_army_rule_naming_a_term_that_is_no_category_fails_the_lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], written: str, wrong: str
) -> None:
    """`from="relic"` (a term of the book, not a category of the army's table) passed the lint, and the engine then
    found every army with a boss illegal (the twenty-first probe): the lint names the categories there are."""
    book = ASHFALL.read_text(encoding="utf-8")
    assert written in book
    (tmp_path / "ashfall.xml").write_text(book.replace(written, wrong), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    assert main(["lint", "ashfall.xml"]) == 1
    said = capsys.readouterr().out
    assert "no category of the army's table `crew_categories` (`captain`, `specialist`, `warrior`)" in said
