"""The bundled engine: exact odds from the compiled rule data, checked by brute-force enumeration here."""

from __future__ import annotations

import itertools
import json
import math
import os
import re
import shutil
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

from rulebook.cli import main
from rulebook.engine.odds import odds_of_test, roll_odds, table_odds
from rulebook.engine.rules import Rules, RulesError, load_rules
from rulebook.engine.turns import turn_structure

from .conftest import BUNDLED_BOOK, ROOT, build


@pytest.fixture(scope="module", autouse=True)
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The engine remembers valid rule data in the user's cache folder: the tests use their own."""
    with pytest.MonkeyPatch.context() as patch:
        folder = tmp_path_factory.mktemp("cache")
        patch.setenv("XDG_CACHE_HOME", str(folder))
        yield folder


def compile_rules(book: Path, out: Path) -> Rules:
    cwd = Path.cwd()
    try:
        os.chdir(ROOT)
        assert main(["build", "-q", "--data-only", "--output", str(out), str(book)]) in (0, 1)
    finally:
        os.chdir(cwd)
    return load_rules(out / "rules.json")


@pytest.fixture(scope="module")
def rules(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    return compile_rules(BUNDLED_BOOK, tmp_path_factory.mktemp("rules"))


def enumerate_2d6() -> list[int]:
    return [a + b for a, b in itertools.product(range(1, 7), repeat=2)]


@pytest.mark.parametrize("value", range(13))
def test_leadership_test_matches_enumeration(rules: Rules, value: int) -> None:
    sums = enumerate_2d6()
    expected = Fraction(sum(1 for s in sums if s <= value), len(sums))
    assert odds_of_test(rules, "leadership_test", value).probability == expected


def test_leadership_7_passes_with_7_in_12(rules: Rules) -> None:
    result = odds_of_test(rules, "leadership_test", 7)
    assert result.as_json()["probability"] == "7/12"
    assert result.rules == [{"term": "leadership_test", "anchor": "characteristics/#term-leadership_test"}]


@pytest.mark.parametrize("value", range(11))
def test_characteristic_test_fails_on_a_six(rules: Rules, value: int) -> None:
    expected = Fraction(sum(1 for face in range(1, 7) if face <= value and face != 6), 6)
    assert odds_of_test(rules, "characteristic_test", value).probability == expected


@pytest.mark.parametrize(
    ("test", "value"), [("characteristic_test", 4), ("leadership_test", 7), ("leadership_test", 3)]
)
def test_reroll_failed_rolls_again_once(rules: Rules, test: str, value: int) -> None:
    single = odds_of_test(rules, test, value).probability
    assert single is not None
    # Enumerate first roll x second roll: pass if the first passes, or the first fails and the second passes.
    outcomes = [(a, b) for a in (True, False) for b in (True, False)]
    weight = {True: single, False: 1 - single}
    expected = sum((weight[a] * weight[b] for a, b in outcomes if a or b), Fraction(0))
    result = odds_of_test(rules, test, value, reroll_failed=True)
    assert result.probability == expected
    assert {"term": "reroll_dice", "anchor": "general-principles/#term-reroll_dice"} in result.rules


def test_d3_is_a_d6_halved_rounding_up(rules: Rules) -> None:
    counts = {v: sum(1 for face in range(1, 7) if math.ceil(face / 2) == v) for v in (1, 2, 3)}
    assert roll_odds(rules, "D3").distribution == {str(v): Fraction(c, 6) for v, c in counts.items()}
    two = {}
    for a, b in itertools.product(range(1, 7), repeat=2):
        total = math.ceil(a / 2) + math.ceil(b / 2)
        two[total] = two.get(total, 0) + 1
    assert roll_odds(rules, "2D3").distribution == {str(k): Fraction(v, 36) for k, v in sorted(two.items())}


def test_2d6_distribution(rules: Rules) -> None:
    sums = enumerate_2d6()
    expected = {str(t): Fraction(sums.count(t), 36) for t in range(2, 13)}
    assert roll_odds(rules, "2D6").distribution == expected


def test_roll_table_odds_follow_the_compiled_bands(rules: Rules, tmp_path: Path) -> None:
    table = table_odds(rules, "secondary_objective")
    assert table.distribution == {
        "Hold the Ground": Fraction(2, 6),
        "Breakthrough": Fraction(2, 6),
        "Capture the Flags": Fraction(1, 6),
        "Secure Target": Fraction(1, 6),
    }
    # Change one band in a copy of the XML: the odds follow, and nothing in the engine changed.
    text = BUNDLED_BOOK.read_text(encoding="utf-8")
    copy = tmp_path / "rulebook.xml"
    copy.write_text(
        text.replace("<header>1-2</header>", "<header>1</header>").replace(
            "<header>3-4</header>", "<header>2-4</header>"
        ),
        encoding="utf-8",
    )
    changed = table_odds(compile_rules(copy, tmp_path / "out"), "secondary_objective")
    assert changed.distribution["Hold the Ground"] == Fraction(1, 6)
    assert changed.distribution["Breakthrough"] == Fraction(3, 6)


def test_turn_structure_comes_from_the_data(rules: Rules) -> None:
    structure = turn_structure(rules)
    assert [(t["name"], t["count"], t["term"]) for t in structure["turns"]] == [
        ("game_turns", 6, "game_turn"),
        ("player_turns_each", 6, "player_turn"),
    ]
    [turn] = structure["structures"]
    assert turn["name"] == "Player Turn"
    assert [p["name"] for p in turn["phases"]] == [
        "Movement Phase",
        "Magic Phase",
        "Shooting Phase",
        "Close Combat Phase",
    ]


def test_engine_refuses_data_that_fails_its_schema(rules: Rules, tmp_path: Path) -> None:
    data: dict[str, Any] = json.loads(json.dumps(rules.data))
    data["mechanics"]["tests"]["leadership_test"]["roll"] = "a handful"
    (tmp_path / "rules.json").write_text(json.dumps(data), encoding="utf-8")
    shutil.copyfile(rules.path.with_name("rules.schema.json"), tmp_path / "rules.schema.json")
    with pytest.raises(RulesError, match="does not follow its schema"):
        load_rules(tmp_path / "rules.json")


def test_unknown_test_is_a_plain_error(rules: Rules) -> None:
    with pytest.raises(RulesError, match="`morale_test` is not a test of this book"):
        odds_of_test(rules, "morale_test", 7)


def test_cli_odds_json(rules: Rules, capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["engine", "--rules", str(rules.path), "odds", "test", "leadership_test", "--value", "7", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["probability"] == "7/12"
    assert main(["engine", "--rules", str(rules.path / "nope.json"), "turns"]) == 2


def test_no_rule_of_the_book_is_written_into_the_engine() -> None:
    """Phase names, table results, limits and dice of the book must come from the data (the book's names: see
    tests/test_vocabulary.py). ``bindings.py`` is left out: it holds the syntax a book is told to declare with."""
    engine = ROOT / "compiler" / "engine"
    source = "\n".join(p.read_text(encoding="utf-8") for p in engine.glob("*.py") if p.name != "bindings.py")
    code = re.sub(r'""".*?"""|#[^\n]*', "", source, flags=re.DOTALL)  # docstrings and comments may explain
    for phrase in [
        "Movement Phase",
        "Magic Phase",
        "Hold the Ground",
        "Classic",
        "Flank",
        "Warband",
        "1500",
        "4000",
        "25%",
        '"D6"',
        "'D6'",
        "2D6",
        "halv",
    ]:
        assert phrase not in code, phrase


def test_site_and_engine_agree_on_anchors(rules: Rules, tmp_path: Path) -> None:
    site = tmp_path / "site"
    assert build(site) == 0
    anchor = rules.anchor("leadership_test")
    assert anchor is not None
    page, fragment = anchor.split("/#")
    assert f'id="{fragment}"' in (site / page / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("value", "mods", "result"),
    [
        (4, ["+1", "*2"], 9),  # multiplications before additions: 4*2+1, not (4+1)*2
        (5, ["-3", "/2"], 0),  # 5/2 = 2.5 rounds up to 3, then -3
        (4, ["*3", "set 2"], 6),  # a set value first, then the multiplication
        (5, ["-1 min 3", "-2"], 3),  # the bounded modifier after the unbounded one: 5-2=3, then -1 min 3
        (8, ["-3", "*2"], 7),  # never above 10 at any step: 8*2 -> 10, then -3
        (1, ["-3", "+2"], 2),  # never below 0 at any step: 1-3 -> 0, then +2
        (0, ["-1 min 1"], 0),  # a -1 never raises a value: "to a minimum of 1" limits how far it lowers one
        (7, ["+1 max 5"], 7),  # a +1 never lowers a value
        (3, ["-1 min 1"], 2),
        (1, ["-1 min 1"], 1),
        (4, ["+3 max 5"], 5),
        (4, ["*2 max 6"], 6),
        (0, ["/2 min 1"], 0),
        (8, ["-1 max 5"], 7),  # a bound on the far side of the value does not move it further
    ],
)
def test_modifiers_follow_the_priority_rules(rules: Rules, value: int, mods: list[str], result: int) -> None:
    from rulebook.engine.modify import apply_modifiers

    trace = apply_modifiers(rules, value, mods)
    assert trace["result"] == result
    assert trace["rules"] == [
        {"term": "priority_of_modifiers", "anchor": "characteristics/#term-priority_of_modifiers"}
    ]


def test_modifier_trace_and_errors(rules: Rules) -> None:
    from rulebook.engine.modify import apply_modifiers, render_text

    trace = apply_modifiers(rules, 8, ["-3", "*2"])
    assert [(s["modifier"], s["before"], s["after"]) for s in trace["steps"]] == [("*2", "8", "10"), ("-3", "10", "7")]
    assert [s.get("beyond_range") for s in trace["steps"]] == ["16", None]  # the range kept it: said, not silent
    assert "  1. *2         (multiply): 8 -> 10 (16, kept within the range)\n" in render_text(trace)
    assert render_text(apply_modifiers(rules, 99, [])).startswith("Starting value 99 (range 0-10), kept within the")
    with pytest.raises(RulesError, match="cannot read the modifier `twice`"):
        apply_modifiers(rules, 3, ["twice"])


# Dice counted in whole numbers, the verdict cache, the start-up path ------------------------------

DERIVED = {
    "D3": {"roll": "D6", "divide": 2, "round": "up", "section": "s"},
    "D4": {"roll": "D10", "divide": 3, "round": "down", "section": "s"},
}


@pytest.mark.parametrize(
    ("notation", "faces"),
    [("3D6", range(1, 7)), ("2D3", [1, 1, 2, 2, 3, 3]), ("3D4", [v // 3 for v in range(1, 11)]), ("4D5", range(1, 6))],
)
def test_distributions_match_enumeration(notation: str, faces: Any) -> None:
    from rulebook.engine.dice import roll

    count = int(notation.split("D")[0])
    totals = [sum(dice) for dice in itertools.product(faces, repeat=count)]
    expected = {t: Fraction(totals.count(t), len(totals)) for t in sorted(set(totals))}
    assert roll(notation, DERIVED) == expected


@pytest.mark.parametrize("how", ["at_least", "at_most", "above", "below"])
def test_a_chance_counts_the_results_that_pass(how: str) -> None:
    from rulebook.engine.dice import chance, passes, roll, ways

    for target in range(14):
        expected = sum((p for r, p in roll("2D6", {}).items() if passes(r, how, target, {6})), Fraction(0))
        assert chance(ways("2D6", {}), how, target, {6}) == expected


def test_valid_rule_data_is_checked_once_by_the_shipped_validator(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import fastjsonschema

    from rulebook.engine import schema

    def no_compiling(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the schema was compiled at run time")

    monkeypatch.setattr(fastjsonschema, "compile_to_code", no_compiling)
    monkeypatch.setattr(fastjsonschema, "compile", no_compiling)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    checked: list[Path] = []
    validate = schema._validate
    monkeypatch.setattr(schema, "_validate", lambda data, path: (checked.append(path), validate(data, path)))
    load_rules(rules.path)
    assert [p.name for p in (tmp_path / "cache" / "rulebook").iterdir()] == ["valid-rules.txt"]  # data, no code
    assert load_rules(rules.path).data == rules.data  # remembered: not checked again
    assert checked == [rules.path]
    data: dict[str, Any] = json.loads(json.dumps(rules.data))
    data["mechanics"]["tests"]["leadership_test"]["roll"] = "a handful"
    (tmp_path / "rules.json").write_text(json.dumps(data), encoding="utf-8")
    shutil.copyfile(rules.path.with_name("rules.schema.json"), tmp_path / "rules.schema.json")
    for _ in range(2):  # an invalid file is never remembered: refused each time
        with pytest.raises(RulesError, match=r"at \$\.mechanics\.tests\.leadership_test\.roll"):
            load_rules(tmp_path / "rules.json")
    assert checked == [rules.path, tmp_path / "rules.json", tmp_path / "rules.json"]


def test_no_code_is_read_from_the_cache_folder(rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A compiled validator an earlier version kept in the cache, however damaged, is never loaded: it is removed
    when the cache is next written (it once ran as bytecode: 3 flipped bytes crashed 2 questions in 40)."""
    folder = tmp_path / "rulebook"
    folder.mkdir()
    kept = folder / "validator-0123456789abcdef01234567.marshal"
    kept.write_bytes(b"\xe3" + bytes(range(256)) * 64)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert load_rules(rules.path).data == rules.data
    assert sorted(p.name for p in folder.iterdir()) == ["valid-rules.txt"]


def test_the_shipped_validator_is_generated_from_the_schema_as_it_is() -> None:
    """A schema changed without `python -m rulebook.engine.make_validator` fails here, whatever fastjsonschema is installed."""
    from rulebook.engine import rules_validator
    from rulebook.engine.schema import engine_schema, schema_digest

    assert schema_digest(engine_schema()) == rules_validator.SCHEMA_DIGEST, (
        "run python -m rulebook.engine.make_validator"
    )


def test_the_shipped_validator_is_what_fastjsonschema_generates() -> None:
    """The module generated again, byte for byte: nobody edited it by hand (with the fastjsonschema that wrote it;
    another version may write other code from the same schema)."""
    import fastjsonschema

    from rulebook.engine import make_validator, rules_validator
    from rulebook.engine.schema import engine_schema

    if f"fastjsonschema {fastjsonschema.VERSION}" != rules_validator.GENERATOR:
        pytest.skip(
            f"{rules_validator.GENERATOR} wrote the module; fastjsonschema {fastjsonschema.VERSION} is installed"
        )
    shipped = make_validator.GENERATED.read_text(encoding="utf-8")
    assert shipped == make_validator.validator_source(engine_schema()), "run python -m rulebook.engine.make_validator"


def test_without_a_writable_cache_the_data_is_checked_each_time(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "file").write_text("not a folder", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "file"))
    assert load_rules(rules.path).data == rules.data
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/is/ignored")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    load_rules(rules.path)
    assert (tmp_path / "home" / ".cache" / "rulebook" / "valid-rules.txt").exists()


def test_an_engine_question_imports_none_of_the_site_builders(rules: Rules, tmp_path: Path) -> None:
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from rulebook.cli import main\n"
        f"main(['engine', '--rules', {str(rules.path)!r}, 'odds', 'test', 'leadership_test', '--value', '7'])\n"
        "heavy = {'lxml', 'networkx', 'jinja2', 'mkdocs', 'markdown_it', 'yaml'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
    )
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path)}
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


def test_the_first_question_after_a_build_does_not_check_the_data_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulebook.engine import schema

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    built = compile_rules(BUNDLED_BOOK, tmp_path / "site")  # the build checked this text: the engine is told
    monkeypatch.setattr(schema, "_validate", lambda *args: pytest.fail("checked again"))
    assert load_rules(built.path).data == built.data
    edited = tmp_path / "edited"
    shutil.copytree(built.path.parent, edited)
    (edited / "rules.json").write_text(built.path.read_text(encoding="utf-8") + " ", encoding="utf-8")
    with pytest.raises(pytest.fail.Exception, match="checked again"):  # other bytes: checked, as ever
        load_rules(edited / "rules.json")


def test_an_engine_question_on_known_data_loads_only_what_it_needs(rules: Rules, tmp_path: Path) -> None:
    """A question on data known valid starts about as fast as `rulebook --version` (docs/performance.md):
    no schema validator, no OpenSSL, no dataclasses machinery, no package-resource lookup."""
    import subprocess
    import sys

    script = (
        "import sys\n"
        "from rulebook.cli import main\n"
        f"main(['engine', '--rules', {str(rules.path)!r}, 'odds', 'test', 'leadership_test', '--value', '7'])\n"
        "slow = {'fastjsonschema', 'hashlib', '_hashlib', 'dataclasses', 'inspect', 'importlib.resources'}\n"
        "print(sorted(slow & set(sys.modules)))\n"
    )
    # The cache is not `tmp_path/rulebook`: `python -c` puts its working folder first on the path, where a
    # folder named like the package would shadow an editable install; nor is it inside the working folder, where
    # the engine does not believe it (a commit may have written it).
    env = {**os.environ, "XDG_CACHE_HOME": str(tmp_path / "cache")}
    (tmp_path / "work").mkdir()
    for _ in ("first question", "second question"):
        done = subprocess.run(
            [sys.executable, "-c", script], cwd=tmp_path / "work", env=env, capture_output=True, text=True
        )
        assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"


@pytest.mark.parametrize(
    ("name", "text"),
    [
        (None, None),
        ("rulebook.toml", 'sources = ["book.xml"]\n'),
        ("rulebook.toml", 'sources = ["book.xml"]\noutput = "public/rules"\n'),
        ("pyproject.toml", '[project]\nname = "x"\n\n[tool.rulebook]\nsources = ["book.xml"]\noutput = "out/www"\n'),
        ("pyproject.toml", '[tool.rulebook]\nsources = ["book.xml"]\noutput = ""\n'),
    ],
)
def test_a_question_finds_the_site_the_project_configures(tmp_path: Path, name: str | None, text: str | None) -> None:
    """An engine question reads only `output` (config_file.site_folder), from the root or a folder below it,
    and finds the folder the whole project's configuration gives."""
    from rulebook.config_file import site_folder
    from rulebook.project import load_project

    root = tmp_path / "game"
    (root / "rules" / "deep").mkdir(parents=True)
    if name is not None and text is not None:
        (root / name).write_text(text, encoding="utf-8")
    for start in (root, root / "rules" / "deep"):
        assert site_folder(start) == load_project(start).site_folder
    if name is not None:
        assert site_folder(tmp_path, root / name) == load_project(config_file=root / name).site_folder


def test_a_question_finds_no_site_where_the_project_may_not_configure_one(tmp_path: Path) -> None:
    """``output = "../out"``: the project refuses it (a configured output is a folder of the project), and a question
    finds no site there either."""
    from rulebook.config_file import ConfigError, site_folder
    from rulebook.project import load_project

    (tmp_path / "rulebook.toml").write_text('sources = ["book.xml"]\noutput = "../out"\n', encoding="utf-8")
    assert site_folder(tmp_path) is None
    with pytest.raises(ConfigError, match="which is outside the project"):
        load_project(tmp_path)


def test_a_question_in_a_project_reads_its_site_and_nothing_else_of_it(
    rules: Rules, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    shutil.copytree(rules.path.parent, tmp_path / "public")
    config = tmp_path / "rulebook.toml"
    config.write_text('sources = ["book.xml"]\noutput = "public"\nunknown-key = 1\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    question = ["engine", "odds", "test", "leadership_test", "--value", "7"]
    assert main(question) == 0  # a key the lint or the build would refuse does not stop a question
    assert "7/12" in capsys.readouterr().out
    script = (
        "import sys\n"
        "from rulebook.cli import main\n"
        f"main({question!r})\n"
        "print(sorted(m for m in ('rulebook.project', 'dataclasses', 'rulebook.catalog') if m in sys.modules))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], cwd=tmp_path, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "[]"
    config.write_text('sources = ["book.xml"]\noutput = 3\n', encoding="utf-8")
    assert main(question) == 2  # an output that is not a folder's name: the project's own message
    assert "`output` in [top level] must be a string, not the number 3" in capsys.readouterr().err


def test_engine_help_lists_every_action_though_a_question_builds_only_its_own(
    rules: Rules, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit):
        main(["engine", "--help"])
    shown = capsys.readouterr().out
    for action in ("odds", "modify", "army", "turns", "pregame", r"chain \(attack\)"):
        assert re.search(rf"^ +{action}(\s|$)", shown, re.MULTILINE), action
    with pytest.raises(SystemExit):
        main(["engine", "--rules", str(rules.path), "odds", "--help"])
    assert re.search(r"^ +test +the chance to pass a test", capsys.readouterr().out, re.MULTILINE)
    # a question naming one action (and a file named like another) is parsed as before
    assert main(["engine", "--rules", str(rules.path), "odds", "test", "leadership_test", "--value", "7"]) == 0
    assert "7/12" in capsys.readouterr().out
    assert main(["engine", "--rules", str(rules.path), "army", "turns"]) == 2  # `turns`: the army file's name
    assert "turns" in capsys.readouterr().err


def test_data_a_build_remembers_as_valid_is_not_checked_again(
    rules: Rules, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from rulebook.engine import schema

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    schema.remember_valid(rules.path.read_bytes(), schema.SCHEMA_PATH.read_bytes())
    monkeypatch.setattr(schema, "_validate", lambda *args: pytest.fail("checked again"))
    assert load_rules(rules.path).data == rules.data


def test_the_rule_data_worker_says_nothing_when_the_build_is_gone() -> None:
    """A build killed (SIGKILL) as its worker sent the rule data left the worker printing a BrokenPipeError's
    traceback after the build had ended (the forty-second probe)."""
    import multiprocessing

    from rulebook.data_worker import BackgroundData

    reader, writer = multiprocessing.Pipe(duplex=False)
    reader.close()
    worker = BackgroundData.__new__(BackgroundData)
    worker._writer = writer  # type: ignore[attr-defined]
    worker._send(("ok", {"rules": 1}))  # no error: the build that would read it is gone
