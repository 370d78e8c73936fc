"""The army checker around every limit the book sets (exactly at, one over, one under).

Expected limits are worked out by hand from the rulebook's text: a 2000-point army may fall
20 points short; Core at least 25%, Rare at most 25%, Heroes at most 50%, Lords at most 35%;
duplicates Core 4, Special 3, Rare 2 (warband: 2, 2, 1; grand army: 8, 6, 4); at least 4 units
besides characters (3 in a warband); a 0-X choice is halved (rounding up) in a warband and
doubled in a grand army. Warbands are 1500 points or less, grand armies 4000 or more.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rulebook.cli import main
from rulebook.engine.army import check_army, read_army
from rulebook.engine.rules import Rules, RulesError, load_rules

from .conftest import BUNDLED_BOOK, ROOT
from .test_engine import private_cache  # noqa: F401  (autouse: a private cache folder)


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    import os

    out = tmp_path_factory.mktemp("army-rules")
    cwd = Path.cwd()
    os.chdir(ROOT)
    try:
        main(["build", "-q", "--data-only", "--output", str(out), str(BUNDLED_BOOK)])
    finally:
        os.chdir(cwd)
    return load_rules(out / "rules.json")


def unit(name: str, category: str, points: int, **extra: Any) -> dict[str, Any]:
    return {"name": name, "id": name.lower(), "category": category, "points": points, **extra}


def army(limit: int = 2000, *units: dict[str, Any]) -> dict[str, Any]:
    return {"points_limit": limit, "entries": list(units)}


def base(**points: int) -> dict[str, Any]:
    """A legal 1990-point army; keyword arguments change a unit's points."""
    p = {"a": 250, "b": 250, "c": 400, "d": 400, "e": 300, "f": 150, "g": 240} | points
    return army(
        2000,
        unit("A", "core", p["a"]),
        unit("B", "core", p["b"]),
        unit("C", "special", p["c"]),
        unit("D", "special", p["d"]),
        unit("E", "rare", p["e"]),
        unit("F", "hero", p["f"]),
        {**unit("G", "lord", p["g"]), "leader": True},
    )


def rules_broken(rules: Rules, data: dict[str, Any]) -> list[str]:
    return [v.rule for v in check_army(rules, data).violations]


def test_base_army_is_legal(rules: Rules) -> None:
    report = check_army(rules, base())
    assert report.legal and report.total == 1990 and report.variant is None


@pytest.mark.parametrize(("lord", "legal"), [(250, True), (251, False), (230, True), (229, False)])
def test_points_limit_and_how_far_below(rules: Rules, lord: int, legal: bool) -> None:
    # 1750 + lord: 2000 is the limit; 1980 is the least allowed.
    assert check_army(rules, base(g=lord)).legal is legal


@pytest.mark.parametrize(("a", "c", "legal"), [(250, 400, True), (249, 401, False)])
def test_core_at_least_a_quarter(rules: Rules, a: int, c: int, legal: bool) -> None:
    broken = rules_broken(rules, base(a=a, c=c))
    assert ("Core: at least 25%" not in broken) is legal


@pytest.mark.parametrize(("e", "d", "legal"), [(500, 200, True), (501, 199, False)])
def test_rare_at_most_a_quarter(rules: Rules, e: int, d: int, legal: bool) -> None:
    assert ("Rare: at most 25%" not in rules_broken(rules, base(e=e, d=d))) is legal


@pytest.mark.parametrize(("g", "legal"), [(700, True), (701, False)])
def test_lords_at_most_35_percent(rules: Rules, g: int, legal: bool) -> None:
    # Lords 700 of 2000 is 35%; the army stays at 1990 points by taking the difference from C.
    data = base(g=g, c=400 - (g - 240))
    assert ("Lords: at most 35%" not in rules_broken(rules, data)) is legal


def same_core(copies: int, limit: int = 2000, points: int = 100) -> dict[str, Any]:
    units = [unit("Spearmen", "core", points) for _ in range(copies)]
    return army(limit, *units)


@pytest.mark.parametrize(("copies", "legal"), [(4, True), (5, False)])
def test_core_duplicate_limit(rules: Rules, copies: int, legal: bool) -> None:
    assert ("core: max 4" not in rules_broken(rules, same_core(copies))) is legal


@pytest.mark.parametrize(("copies", "legal"), [(2, True), (3, False)])
def test_warband_core_duplicate_limit(rules: Rules, copies: int, legal: bool) -> None:
    report = check_army(rules, same_core(copies, limit=1500))
    assert report.variant == "Warband"
    assert ("core: max 2 (Warband)" not in [v.rule for v in report.violations]) is legal


@pytest.mark.parametrize(("copies", "legal"), [(8, True), (9, False)])
def test_grand_army_core_duplicate_limit(rules: Rules, copies: int, legal: bool) -> None:
    report = check_army(rules, same_core(copies, limit=4000))
    assert report.variant == "Grand Army"
    assert ("core: max 8 (Grand Army)" not in [v.rule for v in report.violations]) is legal


@pytest.mark.parametrize(("limit", "variant"), [(1500, "Warband"), (1501, None), (3999, None), (4000, "Grand Army")])
def test_variant_thresholds(rules: Rules, limit: int, variant: str | None) -> None:
    assert check_army(rules, same_core(1, limit=limit)).variant == variant


@pytest.mark.parametrize(
    ("units", "limit", "legal"), [(4, 2000, True), (3, 2000, False), (3, 1500, True), (2, 1500, False)]
)
def test_minimum_army_size_excludes_characters(rules: Rules, units: int, limit: int, legal: bool) -> None:
    troops = [unit(f"U{i}", "core", 10) for i in range(units)]
    data = army(limit, *troops, unit("Hero", "hero", 10), unit("Lord", "lord", 10))
    broken = [r for r in rules_broken(rules, data) if "entries, not counting hero / lord" in r]
    assert (not broken) is legal


@pytest.mark.parametrize(
    ("x", "limit", "copies", "legal"),
    [
        (2, 2000, 2, True),
        (2, 2000, 3, False),
        (2, 1500, 1, True),
        (2, 1500, 2, False),
        (3, 1500, 2, True),
        (3, 1500, 3, False),
        (2, 4000, 4, True),
        (2, 4000, 5, False),
    ],
)
def test_zero_x_choices_scale_with_the_army(rules: Rules, x: int, limit: int, copies: int, legal: bool) -> None:
    units = [unit("Chariots", "special", 10, choice=f"0-{x}") for _ in range(copies)]
    broken = [r for r in rules_broken(rules, army(limit, *units)) if r.startswith(f"0-{x} choice")]
    assert (not broken) is legal


def test_a_choice_past_any_army_is_a_violation_never_read_whole(rules: Rules) -> None:
    """A 0-X of 5,000 digits (5 KB of army list) stopped the engine with an internal error: Python reads at most
    4,300 digits (the seventeenth probe)."""
    data = base()
    data["entries"][2]["choice"] = "0-" + "9" * 5000
    assert [v.rule for v in check_army(rules, data).violations] == ["write 0-X choices as 0-2, X at most 1,000,000"]


def test_digits_of_other_scripts_are_not_numbers(rules: Rules, tmp_path: Path) -> None:
    """`\\d` takes any script's digits: `0-1\u0663` counted as a 0-13 choice and a price `5\u0660` as 50."""
    data = base()
    data["entries"][2]["choice"] = "0-1\u0663"
    assert [v.rule for v in check_army(rules, data).violations] == ["write 0-X choices as 0-2, X at most 1,000,000"]
    data = base()
    data["entries"][0]["upgrades"] = [{"name": "Banner", "points": "5\u0660/40"}]
    listing = tmp_path / "army.json"
    listing.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(RulesError, match="`points` is the text `5\u0660/40`, not a price such as 50"):
        read_army(listing)


def test_violations_quote_and_link_the_rules(rules: Rules) -> None:
    report = check_army(rules, base(g=300))
    (violation,) = report.violations
    assert violation.rule == "must not exceed the point limit"
    assert violation.cites == [{"term": "army_list", "anchor": "setting-up-a-game/#term-army_list"}]


def test_army_files_and_the_command(rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listing = tmp_path / "army.yaml"
    listing.write_text(
        "points_limit: 2000\nentries:\n"
        + "".join(
            f"  - {{name: {u['name']}, id: {u['id']}, category: {u['category']}, points: {u['points']}"
            + (", leader: true" if u.get("leader") else "")
            + "}\n"
            for u in base()["entries"]
        ),
        encoding="utf-8",
    )
    assert read_army(listing)["points_limit"] == 2000
    assert main(["engine", "--rules", str(rules.path), "army", str(listing)]) == 0
    assert "1990 of 2000 points: legal" in capsys.readouterr().out
    listing.write_text("entries: []\n", encoding="utf-8")
    with pytest.raises(RulesError, match="needs a whole-number `points_limit`"):
        read_army(listing)
    assert main(["engine", "--rules", str(rules.path), "army", str(listing)]) == 2


def test_json_lists_are_read_by_json_and_every_number_is_checked(rules: Rules, tmp_path: Path) -> None:
    data = base()
    data["entries"][0]["upgrades"] = [{"name": "Banner", "points": "50/40"}, {"name": "Drum", "points": 2.5}]
    listing = tmp_path / "army.json"
    listing.write_text(json.dumps(data), encoding="utf-8")
    assert read_army(listing) == data
    listing.write_text(json.dumps(data).replace("2.5", "NaN"), encoding="utf-8")
    with pytest.raises(RulesError, match=r"entry 1 \(`A`\): upgrade 2: `points` \(a number, or \"50/40\"\) is NaN"):
        read_army(listing)
    # YAML 1e3 is text, JSON's is a number: each file is read by its own rules.
    listing.write_text(json.dumps(data).replace('"points": 2.5', '"points": 1e3'), encoding="utf-8")
    assert read_army(listing)["entries"][0]["upgrades"][1]["points"] == 1000.0


# Rules the book states in prose, made data by annotations (see `rulebook dtd`) -------------------


def test_the_leader_exactly_one_from_the_heroes_and_lords(rules: Rules) -> None:
    data = base()
    data["entries"][-1].pop("leader")
    assert rules_broken(rules, data) == ["exactly 1 `general`, chosen from hero / lord"]
    data["entries"][-2]["leader"] = True  # the hero F: legal
    assert rules_broken(rules, data) == []
    data["entries"][-1]["leader"] = True  # two leaders
    assert rules_broken(rules, data) == ["exactly 1 `general`, chosen from hero / lord"]
    data = base()
    data["entries"][-1].pop("leader")
    data["entries"][0]["leader"] = True  # a core entry as the leader
    assert rules_broken(rules, data) == ["the `general` is chosen from hero / lord"]


def test_war_machines_count_together_as_one_toward_the_minimum(rules: Rules) -> None:
    # Five units besides the characters: legal; make three of them war machines and they count as one: 3 < 4.
    data = base()
    for index in (2, 3):
        data["entries"][index]["type"] = "war_machine"
    assert rules_broken(rules, data) == []  # 3 others + 1 for the war machines = 4: exactly at the minimum
    data["entries"][4]["type"] = "war_machine"
    assert rules_broken(rules, data) == ["at least 4 entries, not counting hero / lord"]  # 2 + 1 = 3: one under


def test_one_of_a_kind_and_one_per_army(rules: Rules) -> None:
    data = base(c=200)
    data["entries"].append({**unit("H", "special", 200), "id": "c", "marks": ["one_of_a_kind"]})
    data["entries"][2]["marks"] = ["one_of_a_kind"]
    assert rules_broken(rules, data) == ["one_of_a_kind: at most 1"]  # taken twice in a standard army
    data["entries"][-1]["marks"] = ["one_per_army"]
    data["entries"][2]["marks"] = ["one_per_army"]
    assert rules_broken(rules, data) == ["one_per_army: at most 1"]
    data["entries"].pop()
    data["entries"][2]["points"] = 400
    assert rules_broken(rules, data) == []  # once: exactly at the limit


def test_one_of_a_kind_twice_in_a_grand_army(rules: Rules) -> None:
    data = army(
        4000,
        unit("A", "core", 1000),
        {**unit("B", "special", 400), "marks": ["one_of_a_kind"]},
        {**unit("B2", "special", 400), "id": "b", "marks": ["one_of_a_kind"]},
        unit("C", "special", 400),
        unit("D", "rare", 400),
        unit("E", "core", 640),
        {**unit("G", "lord", 750), "leader": True},
    )
    assert rules_broken(rules, data) == []  # twice is the grand army's limit
    data["entries"].append({**unit("B3", "core", 0), "id": "b", "marks": ["one_of_a_kind"]})
    assert rules_broken(rules, data) == ["one_of_a_kind: at most 2 (Grand Army)"]


def test_half_points_round_up_and_slash_prices_follow_the_category(rules: Rules) -> None:
    data = base()
    data["entries"][2]["points"] = 399.5  # rounded up to 400
    data["entries"][-2]["upgrades"] = [{"name": "Sword", "points": "50/40"}]  # F is a hero: 40
    data["entries"][-1]["upgrades"] = [{"name": "Sword", "points": "50/40"}]  # G is a lord: 50
    report = check_army(rules, data)
    assert report.total == 1990 + 40 + 50
    assert [v.rule for v in report.violations] == ["must not exceed the point limit"]
    data["entries"][1]["upgrades"] = [{"name": "Sword", "points": "50/40"}]  # B is core: the slash says nothing
    assert "a price written with a slash gives the cost for lord / hero" in rules_broken(rules, data)
