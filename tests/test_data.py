"""rules.json: valid against its schema, deterministic, and true to what the XML says."""

from __future__ import annotations

import copy
import hashlib
import json
import re
from pathlib import Path
from types import UnionType
from typing import Any, Literal, TypedDict, Union, get_args, get_origin, get_type_hints, is_typeddict

import jsonschema
import pytest

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.cli import main
from rulebook.data import CONTENT_HASH_PLACEHOLDER, RuleData, build_rule_data, build_site_summary, serialise
from rulebook.data.shapes import RuleParts
from rulebook.dtd import dtd_text
from rulebook.facts import DATA_TABLES, MECHANIC_KINDS, SEQUENCE_KINDS, VALUE_KINDS, collect_rule_facts
from rulebook.facts.attributes import AttributeType
from rulebook.facts.kinds import describe_kinds
from rulebook.graph import TermGraph
from rulebook.model import Book
from rulebook.project import BookConfig
from rulebook.recipe.reading import read_book

from .conftest import BUNDLED_BOOK, ROOT, check_generated_part, parse

SCHEMA = json.loads((ROOT / "compiler" / "schema" / "rules.schema.json").read_text(encoding="utf-8"))


def compile_book(path: Path) -> dict[str, Any]:
    read = read_book([path], ROOT)
    data = build_rule_data(read.book, TermGraph(read.book), title="T", edition="E")
    return dict(json.loads(serialise(data)))


@pytest.fixture(scope="module")
def data() -> dict[str, Any]:
    return compile_book(BUNDLED_BOOK)


def test_schema_is_a_valid_2020_12_schema_and_the_data_follows_it(data: dict[str, Any]) -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)
    jsonschema.Draft202012Validator(SCHEMA).validate(data)


def test_schema_is_strict(data: dict[str, Any]) -> None:
    data = json.loads(json.dumps(data))
    data["terms"]["model"]["colour"] = "red"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(data)


def test_roll_tables_written_three_ways_come_out_alike(data: dict[str, Any]) -> None:
    tables = {t["id"]: t for t in data["roll_tables"]}
    assert set(tables) == {"deployment_type", "secondary_objective", "building_battlefield"}

    def bands(table_id: str) -> list[tuple[int, int, str, str | None]]:
        return [(b["min"], b["max"], b["result"], b["term"]) for b in tables[table_id]["bands"]]

    # Range text inside header cells: "1-3: Classic", "4-5: Diagonal", "6: Flank Attack".
    assert tables["deployment_type"]["form"] == "header-ranges"
    assert bands("deployment_type") == [
        (1, 3, "Classic", "deployment_type_classic"),
        (4, 5, "Diagonal", "deployment_type_diagonal"),
        (6, 6, "Flank Attack", "deployment_type_flank"),
    ]
    # A range header per row.
    assert tables["secondary_objective"]["form"] == "row-ranges"
    assert bands("secondary_objective") == [
        (1, 2, "Hold the Ground", "hold_the_ground"),
        (3, 4, "Breakthrough", "breakthrough"),
        (5, 5, "Capture the Flags", "capture_the_flags"),
        (6, 6, "Secure Target", "secure_target"),
    ]
    # A sequence whose position is the roll (the terrain table).
    assert tables["building_battlefield"]["form"] == "positions"
    assert [b[2] for b in bands("building_battlefield")] == ["Hill", "Forest", "Field", "Water", "Wall", "Ruin"]
    assert all(t["die"] == "D6" and t["dice"] == {"count": 1, "sides": 6} for t in tables.values())


def test_changing_a_band_in_the_xml_changes_the_data(tmp_path: Path) -> None:
    text = BUNDLED_BOOK.read_text(encoding="utf-8")
    edited = text.replace("<header>1-2</header>", "<header>1</header>").replace(
        "<header>3-4</header>", "<header>2-4</header>"
    )
    assert edited != text
    copy = tmp_path / "rulebook.xml"
    copy.write_text(edited, encoding="utf-8")
    table = next(t for t in compile_book(copy)["roll_tables"] if t["id"] == "secondary_objective")
    assert [(b["min"], b["max"]) for b in table["bands"]] == [(1, 1), (2, 4), (5, 5), (6, 6)]


def test_sequences_resolve_their_links(data: dict[str, Any]) -> None:
    sequences = {s["id"]: s for s in data["sequences"]}
    phases = sequences["player_turn"]["steps"]
    assert [s["text"] for s in phases] == ["Movement Phase", "Magic Phase", "Shooting Phase", "Close Combat Phase"]
    assert [s["link"] for s in phases] == ["movement_phase", "magic_phase", "shooting_phase", "close_combat_phase"]
    assert not any(s["resolved"] for s in phases)  # those chapters are not written yet
    pregame = sequences["the-pre-game-sequence"]["steps"]
    assert len(pregame) == 8
    assert (sequences["player_turn"]["kind"], sequences["the-pre-game-sequence"]["kind"]) == ("turn", "setup")
    assert pregame[0] == {
        "number": 1,
        "title": None,
        "text": "Decide on Game Size.",
        "link": "decide_on_game_size",
        "section": "decide_on_game_size",
        "resolved": True,
        "terms": [],
    }
    assert pregame[5]["link"] == "determine_deployment_zone" and not pregame[5]["resolved"]
    deployment = sequences["deployment-phase-sequence"]["steps"]
    assert deployment[4] == {
        "number": 5,
        "title": None,
        "text": "Deploy Scout units.",
        "link": None,
        "section": None,
        "resolved": False,
        "terms": ["scout", "unit"],
    }


def test_a_markdown_step_names_its_section_by_its_title_or_its_text(tmp_path: Path) -> None:
    book = tmp_path / "book.md"
    book.write_text(
        "<!-- rulebook -->\n\n# 2 The Round {#the_round}\n\n## 2.1 Setting Up {#setting_up}\n\n"
        "{kind=setup id=setup}\n1. [Initiative]{.title} Roll for initiative.\n"
        "2. Roll on the ash storm table.\n3. [Loot]{.title} Take the loot.\n\n"
        "## 2.2 Ash Storm {#ash_storm}\n\nA storm.\n\n## 2.3 Initiative {#initiative_rules}\n\nBoth players roll.\n",
        encoding="utf-8",
    )
    (setup,) = compile_book(book)["sequences"]
    # by its title, one word or more (the section's number is not part of its title); by its text, two or more
    assert [step["section"] for step in setup["steps"]] == ["initiative_rules", "ash_storm", None]


def test_declared_values_and_characteristics(data: dict[str, Any]) -> None:
    values = {name: (v["value"], v["kind"], v["term"]) for name, v in data["values"].items()}
    assert values == {
        "game_turns": (6, "turns", "game_turn"),
        "player_turns_each": (6, "turns", "player_turn"),
        "characteristic_min": (0, "minimum", "characteristics"),
        "characteristic_max": (10, "maximum", "characteristics"),
        "max_points_below_limit": (20, "points", None),
        "min_army_units": (4, "count", "unit"),
        "warband_max_points": (1500, "points", "warband"),
        "warband_min_army_units": (3, "count", "warband"),
        "grand_army_min_points": (4000, "points", "grand_army"),
    }
    characteristics = data["characteristics"]
    assert (characteristics["min"], characteristics["max"]) == (0, 10)
    assert [(p["abbreviation"], p["term"]) for p in characteristics["profile"]] == [
        ("M", "movement"),
        ("WS", "weapon_skill"),
        ("BS", "ballistic_skill"),
        ("S", "strength"),
        ("T", "toughness"),
        ("W", "wounds"),
        ("I", "initiative"),
        ("A", "attacks"),
        ("Ld", "leadership"),
    ]
    assert characteristics["profile"][6]["definition"] == "Models with a higher initiative strike first."


@pytest.mark.parametrize(
    ("number", "told"),
    [
        ("9" * 5000, "value `rounds` is 99999999999999999999… (5,000 characters): a value is at most 1,000,000"),
        ("0" * 5000 + "1000001", "value `rounds` is 00000000000000000000… (5,007 characters): a value is at most"),
        ("²", "value `rounds` must be a whole number, not `²`"),
    ],
)
@pytest.mark.parametrize("source_format", ["xml", "markdown", "plain-markdown"])
def test_a_value_past_what_a_game_states_is_refused_where_it_stands(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    number: str,
    told: str,
    source_format: str,
) -> None:
    # Python refuses to read a number of more than 4,300 digits, and int("²") fails: each was an internal error.
    markdown = source_format != "xml"
    if source_format == "markdown":  # the dialect: a value is a span's attribute
        book = tmp_path / "game.md"
        book.write_text(
            f"<!-- rulebook -->\n# Play\n\n## Rounds\nA game lasts [{number}]{{value=rounds kind=turns}} rounds.\n",
            encoding="utf-8",
        )
    elif source_format == "plain-markdown":  # a comment, in a book the configuration says is plain Markdown
        book = tmp_path / "game.md"
        book.write_text(
            f'<!-- rulebook -->\n# Play\n\n## Rounds\nA game lasts long. <!-- rulebook: value name="rounds" kind="turns" number="{number}" -->\n',
            encoding="utf-8",
        )
        (tmp_path / "rulebook.toml").write_text('sources = ["game.md"]\nformat = "plain-markdown"\n', encoding="utf-8")
        monkeypatch.chdir(tmp_path)
    else:
        book = tmp_path / "game.xml"
        book.write_text(
            f'<document><chapter title="Play">A game lasts <value name="rounds" kind="turns">{number}</value> rounds.'
            "</chapter></document>\n",
            encoding="utf-8",
        )
    [diagnostic] = [d for d in linted_and_built(book, capsys) if d["rule"] == "invalid-annotation"]
    assert str(diagnostic["message"]).startswith(told) and diagnostic["line"] == (5 if markdown else 1)
    assert json.loads((tmp_path / "out" / "rules.json").read_text(encoding="utf-8"))["values"] == {}
    # Leading zeros are no more than the number they pad.
    book.write_text(book.read_text(encoding="utf-8").replace(number, "0" * 5000 + "6"), encoding="utf-8")
    assert main(["build", "-q", "--data-only", "--output", str(tmp_path / "again"), str(book)]) in (0, 1)
    assert json.loads((tmp_path / "again" / "rules.json").read_text(encoding="utf-8"))["values"]["rounds"]["value"] == 6


LONG = "9" * 5000
"""A number Python refuses to read (more than 4,300 digits)."""


def _categories(point_limit: str, duplicate_limit: str) -> str:
    """A `categories` table of one row: its limits are read as numbers (a 5,000-digit one was an internal error)."""
    return (
        '<table kind="categories" id="cats"><headers title=""><header>Point limit</header><header>Duplicate limit</header>'
        f'</headers><row><header><reference name="t">T</reference></header><cell>{point_limit}</cell>'
        f"<cell>{duplicate_limit}</cell></row></table>"
    )


@pytest.mark.parametrize(
    ("declared", "told"),
    [
        (f'<mechanic name="t" roll="D6" pass="at-least" target="{LONG}"/>', "`target` must be a whole number from 1"),
        (f'<mechanic name="t" roll="D6" pass="at-least" always-fails="6 {LONG}"/>', "`always-fails` must list whole"),
        (f'<mechanic name="t" roll="{LONG}D6" pass="at-least"/>', "`roll` must be dice notation"),
        (f'<mechanic name="t" roll="D{LONG}" pass="at-least"/>', "`roll` must be dice notation"),
        (f'<mechanic name="t" times="{LONG}D6" table="q"/>', "`times` must be dice notation"),
        (
            f'<mechanic name="t" roll="D6" pass="at-least" against="x + {LONG}" step="1" each="t"/>',
            "`against` must add or subtract names and whole numbers",
        ),
        (f'<table roll="D6" id="q"><row><header>1-{LONG}</header><cell>x</cell></row></table>', "its results have"),
        ('<mechanic name="t" roll="D6" pass="at-least" target="٣"/>', "`target` must be a whole number from 1"),
        (_categories(f"at least {LONG}%", "max 4"), "the limit `at least 999999999999999999999999999999…"),
        (_categories("at least 25%", f"max {LONG}"), "the limit `max 99999999999999999999999999999999999…"),
        (_categories("at least 25%", "max 1000001"), "the limit `max 1000001` is past 1,000,000"),
        (_categories("at least 25%", "max 1\u0663"), "cannot read the limit `max 1\u0663` (write `max 3`)"),
    ],
    ids=[
        *("target", "always-fails", "dice", "sides", "times", "against", "band", "other-digits"),
        *("point-limit", "duplicate-limit", "past-a-million", "limit-other-digits"),
    ],
)
def test_a_number_past_any_die_in_a_mechanic_or_a_band_is_refused_where_it_stands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], declared: str, told: str
) -> None:
    # Each was an internal error: Python refuses to read a number of more than 4,300 digits.
    book = tmp_path / "game.xml"
    book.write_text(
        f'<document><chapter title="Play"><definition name="t">A <reference name="t">t</reference>.{declared}'
        "</definition></chapter></document>\n",
        encoding="utf-8",
    )
    messages = [str(d["message"]) for d in linted_and_built(book, capsys)]
    assert any(told in message for message in messages), messages


def linted_and_built(book: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """The diagnostics of ``rulebook lint`` on a book with errors, which ``build --data-only`` builds into
    ``out/`` beside it: never an internal error."""
    assert main(["lint", "--format", "json", str(book)]) == 1
    diagnostics: list[dict[str, Any]] = json.loads(capsys.readouterr().out)["diagnostics"]
    assert main(["build", "-q", "--data-only", "--output", str(book.parent / "out"), str(book)]) in (0, 1)
    return diagnostics


def test_army_composition(data: dict[str, Any]) -> None:
    army = data["army_composition"]
    assert (army["term"], army["points_below_limit"], army["least_entries"]) == ("army_list", 20, 4)
    assert army["not_counted"] == ["hero", "lord"]
    rows = [(c["terms"], c["min_percent"], c["max_percent"], c["duplicate_limit"]) for c in army["categories"]]
    assert rows == [
        (["core"], 25, None, 4),
        (["special"], None, None, 3),
        (["rare"], None, 25, 2),
        (["hero"], None, 50, 3),
        (["lord"], None, 35, 3),
        (["hero", "lord"], None, 50, None),
    ]
    warband, grand = army["variants"]
    assert (warband["id"], warband["max_points"], warband["least_entries"]) == ("warband", 1500, 3)
    assert (grand["id"], grand["min_points"]) == ("grand_army", 4000)
    assert [(d["terms"], d["limit"]) for d in warband["duplicate_limits"][:3]] == [
        (["core"], 2),
        (["special"], 2),
        (["rare"], 1),
    ]
    assert warband["duplicate_limits"][-1] == {
        "terms": ["choice_0x"],
        "name": "0-X Choice",
        "limit": None,
        "multiplier": "1/2",
        "rounding": "up",
    }
    assert grand["duplicate_limits"][-1]["multiplier"] == "2"
    assert grand["duplicate_limits"][4] == {
        "terms": ["one_of_a_kind"],
        "name": "One of a Kind",
        "limit": 2,
        "multiplier": None,
        "rounding": None,
    }


def test_terms_carry_forms_places_and_links(data: dict[str, Any]) -> None:
    model = data["terms"]["model"]
    assert model["name"] == "Model"  # the singular the book also writes
    assert {"Models", "model", "models"} <= set(model["surface_forms"])
    assert (
        model["defined_at"]["line"] == 9 and model["defined_at"]["anchor"] == "models-units-and-formations/#term-model"
    )
    assert model["uses"] == ["base", "cannon"]
    content = model["definition"]["content"]
    assert {"type": "reference", "term": "base", "text": "base", "example": False} in content
    assert all("<" not in node.get("text", "") for node in content)
    assert data["terms"]["multipart_model"]["nested"] == ["model_part"]
    assert data["terms"]["model_part"]["parent"] == "multipart_model"
    spell = data["terms"]["spell"]
    assert (spell["defined"], spell["dangling"], spell["unused"]) == (False, True, False)
    assert data["terms"]["in_range"]["unused"] is True
    assert "inspiring presence" not in data["terms"]


def test_a_terms_name_is_the_name_the_book_writes(data: dict[str, Any]) -> None:
    """The form that spells the term's id, in the singular the book (or the id) says; never an abbreviation or
    the id turned around ("R&F", "Choice 0x")."""
    names = {term: data["terms"][term]["name"] for term in ("rank_and_file", "choice_0x", "unit", "grand_army")}
    assert names == {
        "rank_and_file": "Rank-and-File",
        "choice_0x": "0-X Choice",
        "unit": "Unit",
        "grand_army": "Grand Army",
    }
    assert data["terms"]["line_of_sight"]["name"] == "Line of Sight"


def test_a_terms_name_is_never_other_words_a_reference_shows() -> None:
    """Where no capitalised form spells the id, the form the book spells it by, capitalised: one reference showing
    other words (``[[fighter|The Brave]]``, at a sentence's start) does not rename the term."""
    from collections import Counter

    from rulebook.data.terms import display_name

    assert display_name("fighter", Counter({"fighter": 5, "fighters": 2, "The Brave": 1})) == "Fighter"
    assert display_name("line_of_sight", Counter({"line of sight": 3, "LoS": 1})) == "Line of sight"
    assert display_name("rank_and_file", Counter({"R&F": 4, "Rank-and-File": 1, "rank-and-file": 6})) == (
        "Rank-and-File"
    )
    assert display_name("ws", Counter({"Weapon Skill": 2})) == "Weapon Skill"  # nothing spells it: the book's name


def test_reading_order_puts_dependencies_first(data: dict[str, Any]) -> None:
    order = data["reading_order"]
    position = {name: i for i, name in enumerate(order)}
    assert sorted(order) == sorted(n for n, t in data["terms"].items() if t["defined"])
    for name, term in data["terms"].items():
        for earlier in term["read_first"]:
            assert position[earlier] < position[name], (earlier, name)
    assert data["terms"]["line_of_sight"]["read_first"] == ["model", "base", "unit", "height"]


def test_read_first_lists_a_long_chain_of_definitions_in_bounded_room() -> None:
    """Each term of a chain of definitions (each using the one before) lists the terms its definition uses and at
    most MAX_READ_FIRST more, the ones read last before it: the whole chain made rules.json grow with its square
    (8,000 definitions of 800 KB: 418 MB, 3.7 GB to make). A shorter chain is listed whole."""
    from rulebook.reading_order import MAX_READ_FIRST, reading_order

    count = MAX_READ_FIRST + 50
    chain = "".join(
        f'<definition name="t{i}">A <reference name="t{i}">t{i}</reference>'
        + (f' needs a <reference name="t{i - 1}">t{i - 1}</reference>' if i else "")
        + ".</definition>"
        for i in range(count)
    )
    other = '<definition name="hub">A <reference name="hub">hub</reference> uses <reference name="t0">t0</reference>'
    other += f' and <reference name="t{count - 1}">t{count - 1}</reference>.</definition>'
    order, read_first = reading_order(
        TermGraph(Book((parse(f'<document><chapter title="A">{chain}{other}</chapter></document>'),)))
    )
    assert order[:count] == [f"t{i}" for i in range(count)]
    assert read_first["t40"] == [f"t{i}" for i in range(40)]  # whole
    last = read_first[f"t{count - 1}"]
    assert last == [f"t{i}" for i in range(count - 1 - MAX_READ_FIRST, count - 1)]  # the nearest
    assert read_first["hub"] == ["t0", *[f"t{i}" for i in range(count - MAX_READ_FIRST, count)]]  # and its own


def test_build_is_byte_identical_and_atomic(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    out = tmp_path / "site"
    assert main(["build", "-q", "--output", str(out)]) == 0
    first = (out / "rules.json").read_bytes()
    assert main(["build", "-q", "--output", str(out)]) == 0
    assert (out / "rules.json").read_bytes() == first
    assert json.loads((out / "rules.schema.json").read_text(encoding="utf-8")) == SCHEMA
    # A broken source: the build fails and the last good data stays.
    broken = tmp_path / "broken.xml"
    broken.write_text("<document><chapter title='x'></document>", encoding="utf-8")
    assert main(["build", "-q", "--output", str(out), str(broken)]) == 2
    assert (out / "rules.json").read_bytes() == first


def test_build_refuses_data_that_fails_its_schema(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    import rulebook.recipe

    monkeypatch.chdir(ROOT)
    import rulebook.data

    real = rulebook.data.build_rule_data

    def broken(*args: Any, **kwargs: Any) -> dict[str, Any]:
        data = real(*args, **kwargs)
        data["roll_tables"][0]["die"] = "a handful"
        return data

    monkeypatch.setattr(rulebook.data, "build_rule_data", broken)
    assert main(["build", "-q", "--output", str(tmp_path)]) == 2
    assert "fails its schema at $.roll_tables[0].die" in capsys.readouterr().err
    assert not (tmp_path / "rules.json").exists()


@pytest.mark.parametrize("fmt", ["json", "dot", "graphml"])
def test_graph_export(fmt: str, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import networkx as nx

    monkeypatch.chdir(ROOT)
    out = tmp_path / f"graph.{fmt}"
    assert main(["graph", "--format", fmt, "--output", str(out)]) == 0
    text = out.read_text(encoding="utf-8")
    if fmt == "json":
        graph = json.loads(text)
        assert {"source": "term:line_of_sight", "target": "term:arc", "kind": "uses"} in graph["edges"]
    elif fmt == "dot":
        assert text.startswith("digraph rulebook {") and '"term:line_of_sight" -> "term:arc" [label="uses"];' in text
    else:
        graph = nx.read_graphml(out)
        assert graph.has_edge("term:line_of_sight", "term:arc")
        assert graph.nodes["term:spell"]["defined"] is False


def test_config_title_and_edition_reach_the_data(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["build", "-q", "--output", str(tmp_path)]) == 0
    book = json.loads((tmp_path / "rules.json").read_text(encoding="utf-8"))["book"]
    assert book["title"] == "Fantasy Battles: The 9th Age" != BookConfig("main").display_title
    assert book["edition"] == "Beta v0.99.9"
    assert book["content_hash"].startswith("sha256:")


def test_links_resolve_through_link_targets(data: dict[str, Any]) -> None:
    targets = data["link_targets"]
    assert targets["figure_1"] == {
        "kind": "figure",
        "title": "Figure 1",
        "anchor": "models-units-and-formations/#figure_1",
    }
    assert targets["decide_on_game_size"]["anchor"] == "the-pre-game-sequence/#decide_on_game_size"
    assert "movement_phase" not in targets
    assert data["characteristics"]["profile"][0]["min"] == 0 and data["characteristics"]["profile"][0]["max"] == 10


def test_rules_json_carries_french_names_and_texts(tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["build", "-q", "--data-only", "--output", str(tmp_path)]) == 0
    terms = json.loads((tmp_path / "rules.json").read_text(encoding="utf-8"))["terms"]
    french = terms["line_of_sight"]["translations"]["fr"]
    assert french["name"] == "ligne de vue"
    assert french["text"].startswith("Une figurine a une Ligne de Vue sur sa cible")
    assert terms["warband"]["translations"]["fr"]["name"] == "patrouille"
    assert terms["spell"]["translations"] == {}  # not in the terminology yet


# -- the annotation tables, the DTD and the documentation say the same ------------------


def _backticked(text: str) -> set[str]:
    return set(re.findall(r"`([^`]+)`", text))


def test_invalid_annotation_docs_list_what_the_tables_know() -> None:
    doc = INVALID_ANNOTATION.doc

    def listed(label: str) -> set[str]:
        match = re.search(rf"{label}:(.*?)(?:\n\n|\n[A-Z])", doc, re.DOTALL)
        assert match is not None, label
        return _backticked(match.group(1))

    assert listed("Kinds of values") == set(VALUE_KINDS)
    assert listed("Kinds of tables") == set(DATA_TABLES)
    assert listed("Kinds of sequences") == set(SEQUENCE_KINDS)
    assert listed("Mechanic kinds, by the attribute that makes them") == {
        k for kind in MECHANIC_KINDS for k in kind.key
    }


def test_dtd_declares_the_attributes_of_every_mechanic_kind() -> None:
    attlist = re.search(r"<!ATTLIST mechanic(.*?)>", dtd_text(), re.DOTALL)
    assert attlist is not None
    declared = {
        name: set(choices.replace(" ", "").split("|")) if choices else set()
        for name, choices in re.findall(r"^\s*([a-z-]+)\s+(?:CDATA|\(([^)]*)\))", attlist.group(1), re.MULTILINE)
    }
    types: dict[str, list[AttributeType]] = {}
    for kind in MECHANIC_KINDS:
        for attribute in kind.attributes:
            types.setdefault(attribute.name, []).append(attribute.type)
    assert set(declared) == set(types)
    # The DTD enumerates an attribute exactly when every kind takes one of a few words for it.
    enumerated = {
        name: {c for t in found for c in t.choices} for name, found in types.items() if all(t.choices for t in found)
    }
    assert {name: choices for name, choices in declared.items() if choices} == enumerated


def test_docs_describe_the_mechanic_kinds_of_the_table(update_golden: bool) -> None:
    begins, ends = "<!-- generated from compiler/facts/kinds.py", "<!-- end of the generated table -->"
    check_generated_part(ROOT / "docs" / "data.md", begins, ends, describe_kinds(), update_golden)
    row = next(
        line
        for line in (ROOT / "docs" / "format.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| `mechanic`")
    )
    assert _backticked(row.split("|")[2]) == {a.name for kind in MECHANIC_KINDS for a in kind.attributes}


# -- the typed rule data and its schema say the same -----------------------------------------

_KINDS = {str: "string", int: "integer", bool: "boolean", type(None): "null", float: "number"}


def _resolve(schema: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = SCHEMA["$defs"][schema["$ref"].removeprefix("#/$defs/")]
    return schema


def _json_kind(value: object) -> str:
    return _KINDS[type(value)]


def _schema_alternatives(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """A schema as alternatives of one JSON kind each (``type: [string, null]`` is two)."""
    schema = _resolve(schema)
    if "oneOf" in schema or "anyOf" in schema:
        return [alt for option in schema.get("oneOf", schema.get("anyOf")) for alt in _schema_alternatives(option)]
    if "const" in schema:
        return [{"type": _json_kind(schema["const"]), "enum": [schema["const"]]}]
    if "enum" in schema:
        kinds = sorted({_json_kind(v) for v in schema["enum"]})
        return [{"type": k, "enum": [v for v in schema["enum"] if _json_kind(v) == k]} for k in kinds]
    if isinstance(schema.get("type"), list):
        return [{**schema, "type": kind} for kind in schema["type"]]
    return [schema if "type" in schema else {**schema, "type": "object"}]


def _hint_alternatives(hint: Any) -> list[Any]:
    if get_origin(hint) in (Union, UnionType):
        return [alt for arg in get_args(hint) for alt in _hint_alternatives(arg)]
    if get_origin(hint) is Literal:
        kinds = sorted({_json_kind(v) for v in get_args(hint)})
        return [Literal[tuple(v for v in get_args(hint) if _json_kind(v) == k)] for k in kinds]
    return [hint]


def _hint_kind(hint: Any) -> str:
    if is_typeddict(hint) or get_origin(hint) is dict:
        return "object"
    if get_origin(hint) is list:
        return "array"
    if get_origin(hint) is Literal:
        return _json_kind(get_args(hint)[0])
    return _KINDS[hint]


def _mismatches(hint: Any, schema: dict[str, Any], path: str, seen: set[Any] | None = None) -> list[str]:
    """Where a type and its schema disagree: JSON kinds, keys, required keys, enumerations."""
    seen = set() if seen is None else seen
    hints, schemas = _hint_alternatives(hint), _schema_alternatives(schema)
    kinds, schema_kinds = [_hint_kind(h) for h in hints], [s["type"] for s in schemas]
    if sorted(set(kinds)) != sorted(set(schema_kinds)):
        return [f"{path}: the type is {sorted(set(kinds))}, the schema {sorted(set(schema_kinds))}"]
    found: list[str] = []
    for kind in sorted(set(kinds) - {"null"}):
        typed = [h for h in hints if _hint_kind(h) == kind]
        described = [s for s in schemas if s["type"] == kind]
        if len(typed) > 1:  # content: one node type per discriminator, as the schema's if/then says
            found += _discriminated(typed, described[0], path, seen)
        else:
            found += _same(typed[0], described[0], path, seen)
    return found


def _same(hint: Any, schema: dict[str, Any], path: str, seen: set[Any]) -> list[str]:
    if "enum" in schema or get_origin(hint) is Literal:
        values = set(get_args(hint)) if get_origin(hint) is Literal else None
        return [] if values == set(schema.get("enum", values or ())) else [f"{path}: {values} vs {schema.get('enum')}"]
    if get_origin(hint) is list:
        return _mismatches(get_args(hint)[0], schema["items"], f"{path}[]", seen)
    if get_origin(hint) is dict:
        if "properties" in schema:
            return [f"{path}: a dict of any keys, the schema names them"]
        return _mismatches(get_args(hint)[1], schema["additionalProperties"], f"{path}.*", seen)
    if is_typeddict(hint):
        return _same_object(hint, schema, path, seen)
    return []


def _same_object(hint: Any, schema: dict[str, Any], path: str, seen: set[Any]) -> list[str]:
    if (hint, id(schema)) in seen:  # each pair once: sections and content are recursive
        return []
    seen.add((hint, id(schema)))
    fields = get_type_hints(hint)
    properties = schema.get("properties", {})
    found = []
    if set(fields) != set(properties):
        found.append(f"{path}: keys {sorted(set(fields) ^ set(properties))} are in only one of type and schema")
    if set(hint.__required_keys__) != set(schema.get("required", ())):
        found.append(f"{path}: required {sorted(hint.__required_keys__)} vs {sorted(schema.get('required', ()))}")
    if schema.get("additionalProperties") is not False and "allOf" not in schema:
        found.append(f"{path}: the schema allows other keys")
    for key in sorted(set(fields) & set(properties)):
        found += _mismatches(fields[key], properties[key], f"{path}.{key}", seen)
    return found


def _discriminated(hints: list[Any], schema: dict[str, Any], path: str, seen: set[Any]) -> list[str]:
    """Typed dicts told apart by a ``type`` literal, against the schema's ``if type == ... then $ref``."""
    cases = {rule["if"]["properties"]["type"]["const"]: rule["then"] for rule in schema.get("allOf", ())}
    typed = {get_args(get_type_hints(h)["type"])[0]: h for h in hints}
    if set(typed) != set(cases) or set(cases) != set(schema["properties"]["type"]["enum"]):
        return [f"{path}: node types {sorted(typed)} vs {sorted(cases)}"]
    return [
        error
        for name in sorted(typed)
        for error in _same_object(typed[name], _resolve(cases[name]), f"{path}<{name}>", seen)
    ]


def test_rule_data_types_and_schema_agree() -> None:
    assert _mismatches(RuleData, SCHEMA, "$") == []


def test_the_type_check_sees_a_difference() -> None:
    class Narrow(TypedDict):
        id: str
        die: int

    class Loose(TypedDict):
        pass

    assert _mismatches(Narrow, SCHEMA["$defs"]["roll_table"], "$") == [
        "$: keys ['bands', 'dice', 'form', 'section', 'title'] are in only one of type and schema",
        "$: required ['die', 'id'] vs ['bands', 'dice', 'die', 'form', 'id', 'section', 'title']",
        "$.die: the type is ['integer'], the schema ['string']",
    ]
    assert _mismatches(dict[str, Loose], SCHEMA["properties"]["terms"], "$")
    assert _mismatches(Literal["up"] | None, {"enum": ["up", "down", None]}, "$") == ["$: {'up'} vs ['up', 'down']"]


def test_site_summary_comes_from_the_same_builders() -> None:
    read = read_book([BUNDLED_BOOK], ROOT)
    terms = TermGraph(read.book)
    facts = collect_rule_facts(read.book, terms)
    full = build_rule_data(read.book, terms, title="T", edition="E", facts=facts)
    summary = build_site_summary(read.book, terms, title="T", edition="E", facts=facts)
    assert set(summary) <= set(full)
    for key in RuleParts.__required_keys__:
        assert summary[key] == full[key], key  # type: ignore[literal-required]
    assert {**summary["book"], "content_hash": full["book"]["content_hash"]} == full["book"]
    assert summary["terms"].keys() == full["terms"].keys()
    for name, term in summary["terms"].items():
        whole = full["terms"][name]
        assert (term["name"], term["defined"]) == (whole["name"], whole["defined"])
        assert term.get("definition", {}).get("text") == whole.get("definition", {}).get("text")


def test_serialise_modifies_nothing_and_hashes_the_text() -> None:
    read = read_book([BUNDLED_BOOK], ROOT)
    data = build_rule_data(read.book, TermGraph(read.book), title="T", edition="E")
    before = copy.deepcopy(data)
    text = serialise(data)
    assert data == before and serialise(data) == text
    digest = json.loads(text)["book"]["content_hash"]
    zeroed = text.replace(digest, CONTENT_HASH_PLACEHOLDER, 1)
    assert digest == "sha256:" + hashlib.sha256(zeroed.encode("utf-8")).hexdigest()


def test_translations_enter_as_an_argument() -> None:
    read = read_book([BUNDLED_BOOK], ROOT)
    translations = {"model": {"fr": {"name": "figurine", "text": "Une figurine."}}, "nothing": {"fr": {"name": "rien"}}}
    terms = build_rule_data(read.book, TermGraph(read.book), title="T", edition="E", translations=translations)["terms"]
    assert terms["model"]["translations"] == {"fr": {"name": "figurine", "text": "Une figurine."}}
    assert terms["unit"]["translations"] == {} and "nothing" not in terms


def test_a_mechanic_declared_twice_is_refused_at_the_second_and_kept_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "game.xml"
    book.write_text(
        '<document><chapter title="Play"><definition name="nerve">A <reference name="nerve">nerve</reference> roll.'
        '<mechanic name="nerve" roll="2D6" pass="below" against="nerve"/>\n'
        '<mechanic name="nerve" roll="2D6" pass="below"/></definition></chapter></document>\n',
        encoding="utf-8",
    )
    [diagnostic] = [d for d in linted_and_built(book, capsys) if d["rule"] == "invalid-annotation"]
    assert diagnostic["message"] == (
        "mechanic `nerve`: declared again (line 1 declares it): one annotation says how it is rolled and passed "
        "(a roll answers `odds test` too)"
    )
    assert (diagnostic["line"], diagnostic["column"]) == (2, 1)
    mechanics = json.loads((tmp_path / "out" / "rules.json").read_text(encoding="utf-8"))["mechanics"]
    assert list(mechanics["rolls"]) == ["nerve"] and mechanics["tests"] == {}
