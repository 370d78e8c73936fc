#!/usr/bin/env python3
"""Benchmark: an engine question against ``rulebook --version``, and the worst question inside each limit.

``speed``: builds the book's ``rules.json`` (data only) into a temporary folder and runs from there
(no project configuration, no baseline), alternating, as whole commands,

- ``rulebook engine --rules R odds test leadership_test --value 7``, and
- ``rulebook --version``,

for N pairs (the side that goes first alternating), printing each pair's times and ratio and the
median of the ratios; also the question as typed in a project folder (``rulebook engine odds test
...``, no ``--rules``: the configuration names the site). *Warm*: the cache
(``$XDG_CACHE_HOME/rulebook``, here a temporary folder) already knows this ``rules.json`` is valid,
as for every question after a build on this machine (the build tells it; the first question after
the build is timed once and printed) or after a first question; *cold*: it does not, and the data is
checked with the validator shipped in the package (``engine/rules_validator.py``), as for a
``rules.json`` built elsewhere; *empty*: a new cache folder for every engine run, as for the very
first question on a machine. Commands run as an installed package runs, with their modules'
bytecode kept (Python's own, beside the modules: nothing is read from the user's cache but verdicts).

``limits``: for each of the engine's limits (docs/engine.md, "Limits"), the worst question it
accepts, on rule data made for it where the book's own cannot reach the limit; median wall and CPU
time (user + system) of whole commands, warm and cold; and a check that one step past is refused
(exit 2).

Usage: python benchmarks/bench_engine.py [speed|limits] [--pairs 15] [--repeat 5] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RULEBOOK = str(BIN / "rulebook")
# ../shared/tools beside the repository, or beside the folder of its worktrees
TOOLS = next((p / "shared" / "tools" for p in ROOT.parents if (p / "shared" / "tools").exists()), ROOT / "missing")
FIREBALL = ["accuracy=3", "power=2", "defense=2", "penetration=2", "courage=7", "cover=3"]
ASHFALL = ["skill=4", "grit=5", "plate=4", "pierce=1", "steel=9"]
"""A crew's numbers for the chain of tests/games/ashfall.xml (a D10 pool: strike, harm, guard, steel)."""


AS_INSTALLED = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
"""Commands run as an installed package runs, with its modules' bytecode kept (pip compiles it at install;
with ``PYTHONDONTWRITEBYTECODE`` set, as on the project's machine, every run would compile every module)."""


def run(argv: list[str], cwd: Path, cache: Path, expect: tuple[int, ...] = (0,)) -> tuple[float, float]:
    """Wall and CPU seconds of one whole command."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    env = dict(AS_INSTALLED, XDG_CACHE_HOME=str(cache), NO_COLOR="1")
    done = subprocess.run(argv, cwd=cwd, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in expect:
        raise SystemExit(f"{' '.join(argv)} exited {done.returncode}:\n{done.stderr[-2000:]}")
    return wall, after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime


def build_rules(out: Path, book: str | None = None, source: Path | None = None) -> Path:
    """Build a book's rules.json into ``out``, with the benchmark's own cache folder (``out``'s sibling ``cache``:
    the build tells it the data is valid, as it tells a user's)."""
    argv = [RULEBOOK, "build", "-q", "--data-only", "--output", str(out)]
    argv += ["--book", book] if book else [str(source)] if source else []
    env = dict(AS_INSTALLED, XDG_CACHE_HOME=str(out.parent / "cache"))
    subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, check=False)
    return next(out.rglob("rules.json"))


def cold(cache: Path) -> Path:
    """``cache`` without its verdicts, as for a ``rules.json`` built elsewhere: the data is checked again."""
    (cache / "rulebook" / "valid-rules.txt").unlink(missing_ok=True)
    return cache


def speed(work: Path, pairs: int) -> dict[str, Any]:
    rules = build_rules(work / "main")
    question = [RULEBOOK, "engine", "--rules", str(rules), "odds", "test", "leadership_test", "--value", "7"]
    version = [RULEBOOK, "--version"]
    cache = work / "cache"
    run(version, work, cache)  # its bytecode written before anything is timed (the build wrote the engine's)
    after_build = run(question, work, cache)
    print(f"first question after the build: {after_build[0] * 1000:.0f} ms ({after_build[1] * 1000:.0f} ms CPU)")
    run(question, work, cold(cache))  # the shipped validator's bytecode written, as pip writes it at install
    # The question as a player types it in a project: no --rules, the configuration says where the site is.
    project = work / "project"
    shutil.copytree(rules.parent, project / "public")
    (project / "rulebook.toml").write_text('sources = ["book.xml"]\noutput = "public"\n', encoding="utf-8")
    typed = [RULEBOOK, "engine", "odds", "test", "leadership_test", "--value", "7"]
    kinds: dict[str, tuple[list[str], Path, Callable[[int], Path]]] = {
        "warm": (question, work, lambda n: cache),
        "in a project (warm, no --rules)": (typed, project, lambda n: cache),
        "cold": (question, work, lambda n: cold(cache)),
        "empty": (question, work, lambda n: work / f"empty-{n}"),
    }
    result: dict[str, Any] = {}
    for label, (argv, where, folder) in kinds.items():
        rows = []
        for n in range(pairs):
            if n % 2:  # the side that goes first alternates
                version_s, version_cpu = run(version, work, cache)
                engine_s, engine_cpu = run(argv, where, folder(n))
            else:
                engine_s, engine_cpu = run(argv, where, folder(n))
                version_s, version_cpu = run(version, work, cache)
            rows.append((engine_s, version_s, engine_s / version_s, engine_cpu / version_cpu))
            print(
                f"{label} pair {n + 1}: engine {engine_s * 1000:.0f} ms, --version {version_s * 1000:.0f} ms, "
                f"ratio {engine_s / version_s:.2f} (CPU {engine_cpu / version_cpu:.2f})",
                file=sys.stderr,
            )
        result[label] = rows
    run(question, work, cache)
    return result


# Rule data made to reach each limit ------------------------------------------------------------


def with_data(rules: Path, folder: Path, change: Callable[[dict[str, Any]], None]) -> Path:
    """A copy of ``rules`` (and its schema) changed by ``change``, in ``folder``."""
    data = json.loads(rules.read_text(encoding="utf-8"))
    change(data)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "rules.json").write_text(json.dumps(data), encoding="utf-8")
    shutil.copyfile(rules.with_name("rules.schema.json"), folder / "rules.schema.json")
    return folder / "rules.json"


def big_test(data: dict[str, Any]) -> None:
    data["mechanics"]["tests"]["leadership_test"].update(roll="100D100", dice={"count": 100, "sides": 100})


def half_d100(data: dict[str, Any]) -> None:
    data["mechanics"]["dice"]["D50"] = {"roll": "D100", "divide": 2, "round": "down", "section": "rolling-dice"}


def band_per_result(data: dict[str, Any]) -> None:
    bands = [{"min": n, "max": n, "result": f"r{n}", "term": None} for n in range(100, 10001)]
    table = data["roll_tables"][0]
    table.update(die="100D100", dice={"count": 100, "sides": 100}, bands=bands)


def long_walk(data: dict[str, Any]) -> None:
    """Nine repeated rolls of 100D1 (always 100) on a 100D100 table of a band per result: 900 table rolls."""
    repeats = data["mechanics"]["repeats"]
    first = next(iter(repeats.values()))
    repeats.clear()
    for n in range(9):
        repeats[f"repeat_{n}"] = {**first, "times": "100D1", "board": None}
    table = next(t for t in data["roll_tables"] if t["id"] == first["table"])
    bands = [{"min": n, "max": n, "result": f"r{n}", "term": None} for n in range(10000, 99, -1)]
    table.update(die="100D100", dice={"count": 100, "sides": 100}, bands=bands)


def long_chain(data: dict[str, Any]) -> None:
    """Ten rolls and readings (the book has seven), a failure adding 10D100 after any loss."""
    rolls = data["mechanics"]["rolls"]
    reading = rolls["hit"]["readings"][0]
    rolls["hit"]["readings"] = [{**reading, "pass": p} for p in ("above", "at_least", "above", "at_least")]
    rolls["using_cover"]["readings"] = [{**rolls["using_cover"]["readings"][0]}]
    rolls["courage"].update(fail_adds="10D100", threshold=0)


def many_digits(data: dict[str, Any]) -> None:
    """A hit and an injury rolled with 10D100 against a value + 502: one die is counted over 40-odd digits."""
    rolls = data["mechanics"]["rolls"]
    rolls["hit"].update(roll="10D100", dice={"count": 10, "sides": 100}, against="accuracy + 502")
    rolls["injury"].update(roll="10D100", dice={"count": 10, "sides": 100}, against="power + 502")


def many_results(data: dict[str, Any]) -> None:
    """Ashfall's strike critical on a 5 or more, each critical bringing 9 more successes: up to 10 a die."""
    data["mechanics"]["rolls"]["strike"].update(critical=list(range(5, 11)), always_fails=[], critical_adds=9)


def most_dice(rules: Path, values: list[str], rerolls: dict[str, Any] | None = None) -> int:
    """The most dice the limits accept on a chain with these values (its other readings included): the
    answer's digits grow with the dice, so the first count refused is found by halving."""
    sys.path.insert(0, str(ROOT))
    from rulebook.engine.chain import run_chain
    from rulebook.engine.errors import LimitError
    from rulebook.engine.limits import MAX_COUNT
    from rulebook.engine.profile import Profile
    from rulebook.engine.rules import load_rules

    loaded = load_rules(rules)
    numbers = {name: int(value) for name, value in (v.split("=") for v in values)}

    def accepted(count: int) -> bool:
        try:
            run_chain(loaded, Profile(count, numbers, rerolls or {}))
        except LimitError:
            return False
        return True

    low, high = 0, MAX_COUNT + 1  # accepted(low); not accepted(high), or past the dice limit
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (middle, high) if accepted(middle) else (low, middle)
    return low


def army_text(entries: int, upgrades: int, marks: int = 1, alias: bool = False) -> str:
    """An army list; with ``alias`` every entry's upgrades are the first entry's, through a YAML alias."""
    rows = []
    for n in range(entries):
        extra = "[" + ", ".join(f'{{name: u{k}, points: "50/40"}}' for k in range(upgrades)) + "]"
        if alias:
            extra = f"&u {extra}" if n == 0 else "*u"
        names = ", ".join(f"m{k}" for k in range(marks))
        rows.append(
            f"  - {{name: Entry {n}, id: u{n % 7}, category: core, points: 10, upgrades: {extra}, marks: [{names}]}}\n"
        )
    return "points_limit: 1000000\nentries:\n" + "".join(rows)


def limit_cases(work: Path) -> list[tuple[str, list[str], tuple[int, ...]]]:
    """(limit, command, expected exit) for the worst accepted question of each limit, then one step past."""
    main = build_rules(work / "main")
    other = build_rules(work / "other", book="other-game")
    big = with_data(main, work / "big-test", big_test)
    halves = with_data(main, work / "halves", half_d100)
    bands = with_data(main, work / "bands", band_per_result)
    walk = with_data(main, work / "walk", long_walk)
    chain = with_data(other, work / "chain", long_chain)
    digits = with_data(other, work / "digits", many_digits)
    ashfall = build_rules(work / "ashfall", source=ROOT / "tests" / "games" / "ashfall.xml")
    results = with_data(ashfall, work / "results", many_results)
    army = work / "army.yaml"
    army.write_text(army_text(200, 3, marks=60), encoding="utf-8")
    upgrades = work / "upgrades.yaml"
    upgrades.write_text(army_text(200, 100, alias=True), encoding="utf-8")
    three = work / "three"
    if TOOLS.exists():
        scaled = work / "book_3x.xml"
        subprocess.run(
            [
                sys.executable,
                str(TOOLS / "scale_rulebook.py"),
                str(ROOT / "rulebook_src/en/rulebook.xml"),
                "3",
                "-o",
                str(scaled),
            ],
            check=True,
            capture_output=True,
        )
        three_rules = build_rules(three, source=scaled)
    else:
        three_rules = main
    engine = [RULEBOOK, "engine", "--rules"]
    values = [f"--value={v}" for v in FIREBALL]
    crew = [f"--value={v}" for v in ASHFALL]
    most = most_dice(digits, FIREBALL)
    rerolls = ["--reroll=strike=failures", "--reroll=harm=failures", "--reroll=guard=successes", "--reroll=steel=1"]
    rerolled = {"strike": "failures", "harm": "failures", "guard": "successes", "steel": [1]}
    most_rerolled = most_dice(results, ASHFALL, rerolled)
    ok, refused, legal_or_not = (0,), (2,), (0, 1)
    return [
        ("dice: 100D100, text", [*engine, str(main), "odds", "roll", "100D100"], ok),
        ("dice: 100D100, JSON", [*engine, str(main), "odds", "roll", "100D100", "--json"], ok),
        ("dice: 100D50, a derived die (D100 halved)", [*engine, str(halves), "odds", "roll", "100D50"], ok),
        (
            "dice: a test rolled with 100D100",
            [*engine, str(big), "odds", "test", "leadership_test", "--value=5000"],
            ok,
        ),
        ("dice: a 100D100 table, 9,901 bands", [*engine, str(bands), "odds", "table", "building_battlefield"], ok),
        ("past: 101D6", [*engine, str(main), "odds", "roll", "101D6"], refused),
        ("past: D101", [*engine, str(main), "odds", "roll", "D101"], refused),
        (
            "repeats and walk: 9 x 100 rolls on a 100D100 table of 9,901 bands",
            [*engine, str(walk), "pregame", "--seed=1"],
            ok,
        ),
        (
            "chain: 100 dice, the other game's chain",
            [*engine, str(other), "chain", "--count=100", *values, "--json"],
            ok,
        ),
        (
            "chain: 100 dice, 10 rolls and readings, +10D100",
            [*engine, str(chain), "chain", "--count=100", *values, "--json"],
            ok,
        ),
        (
            f"digits: {most} dice, 10D100 hits and injuries",
            [*engine, str(digits), "chain", f"--count={most}", *values],
            ok,
        ),
        (
            "chain: Ashfall, 100 dice, damage D5, targets of 100 health",
            [*engine, str(ashfall), "chain", "--count=100", *crew, "--damage=D5", "--health=100", "--json"],
            ok,
        ),
        (
            "results: 100 dice of up to 10 successes (1,001 results), targets of 100 health",
            [*engine, str(results), "chain", "--count=100", *crew, "--health=100", "--json"],
            ok,
        ),
        (
            f"results and digits: {most_rerolled} dice of up to 10 successes, 4 rolls rerolled, damage 1D1",
            [*engine, str(results), "chain", f"--count={most_rerolled}", *crew, *rerolls, "--damage=1", "--health=100"],
            ok,
        ),
        ("past: 101 dice", [*engine, str(other), "chain", "--count=101", *values], refused),
        (
            f"past: {most + 1} dice, 10D100 hits and injuries",
            [*engine, str(digits), "chain", f"--count={most + 1}", *values],
            refused,
        ),
        (
            "past: 2,000 results (1,000 successes, damage 2)",
            [*engine, str(results), "chain", "--count=100", *crew, "--damage=2"],
            refused,
        ),
        ("modifiers: 100", [*engine, str(main), "modify", "--value=3", *["--mod=+1"] * 100], ok),
        ("past: 20,000 modifiers", [*engine, str(main), "modify", "--value=3", *["--mod=+1"] * 20_000], refused),
        (f"army: 200 entries, {army.stat().st_size:,} bytes", [*engine, str(main), "army", str(army)], legal_or_not),
        ("army: 200 entries x 100 upgrades (YAML aliases)", [*engine, str(main), "army", str(upgrades)], legal_or_not),
        (f"rules.json: 3x book, {three_rules.stat().st_size:,} bytes", [*engine, str(three_rules), "turns"], ok),
    ]


def limits(work: Path, repeat: int) -> list[dict[str, Any]]:
    rows = []
    cache = work / "cache"
    for name, argv, expect in limit_cases(work):
        run(argv, work, cache, expect)
        warm = [run(argv, work, cache, expect) for _ in range(repeat)]
        fresh = [run(argv, work, cold(cache), expect) for _ in range(repeat)]
        row = {
            "case": name,
            "warm_wall": statistics.median(w for w, _ in warm),
            "warm_cpu": statistics.median(c for _, c in warm),
            "cold_wall": statistics.median(w for w, _ in fresh),
            "cold_cpu": statistics.median(c for _, c in fresh),
        }
        print(
            f"{name}: warm {row['warm_wall']:.2f} s ({row['warm_cpu']:.2f} CPU), "
            f"cold {row['cold_wall']:.2f} s ({row['cold_cpu']:.2f} CPU)",
            file=sys.stderr,
        )
        rows.append(row)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", nargs="?", choices=("speed", "limits", "both"), default="both")
    parser.add_argument("--pairs", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-engine-") as folder:
        work = Path(folder)
        if args.what in ("speed", "both"):
            result = speed(work, args.pairs)
            for label, rows in result.items():
                ratios = [r for _, _, r, _ in rows]
                print(f"\n{label}: ratios of pairs " + ", ".join(f"{r:.2f}" for r in ratios))
                print(
                    f"{label}: median engine {statistics.median(e for e, _, _, _ in rows) * 1000:.0f} ms, "
                    f"median --version {statistics.median(v for _, v, _, _ in rows) * 1000:.0f} ms, "
                    f"median of ratios {statistics.median(ratios):.2f}x, "
                    f"median of CPU ratios {statistics.median(c for _, _, _, c in rows):.2f}x"
                )
        if args.what in ("limits", "both"):
            rows = limits(work, args.repeat)
            print("\n| worst accepted question | warm: wall (CPU) | cold: wall (CPU) |")
            print("|---|---|---|")
            for row in rows:
                print(
                    f"| {row['case']} | {row['warm_wall']:.2f} s ({row['warm_cpu']:.2f}) | "
                    f"{row['cold_wall']:.2f} s ({row['cold_cpu']:.2f}) |"
                )
    return 0


if __name__ == "__main__":
    sys.exit(main())
