#!/usr/bin/env python3
"""Benchmark: the lint against a bare lxml parse and against ``../shared/tools/baseline_lint.py``.

Makes rulebooks 1x, 10x and 100x the seed with ``../shared/tools/scale_rulebook.py`` in a temporary
folder, and runs everything from there (no project configuration, no baseline). Each comparison is
a series of interleaved pairs, the side that goes first alternating; every pair's ratio is printed,
and the tables give medians. The machine is shared: compare ratios, not times across runs.

- *in-process*: in a fresh process per book, pairs of (bare ``lxml.etree.parse`` of the file, then
  the tree freed) and (our lint as ``rulebook lint`` runs it: the outline read, every rule, sorted
  diagnostics, then all of it freed). Each side is timed with its own clean-up, since freeing a big
  tree costs about as much as parsing it and would otherwise be billed to whatever runs next.
- *command*: ``baseline_lint.py FILE --quiet`` against ``rulebook lint --quiet --format json FILE``
  (its report written to ``/dev/null``), Python start-up and imports included; ``python -c pass`` for
  reference.
- *peak memory*: the maximum resident set of each command, from ``/usr/bin/time -f %M``.

Commands run as an installed package runs: with its modules' bytecode kept (``PYTHONDONTWRITEBYTECODE`` is
dropped from their environment, and each command is run once before it is timed).

Usage: python benchmarks/bench_lint.py [--factors 1 10 100] [--pairs 7] [--markdown]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ``../shared/tools`` beside the repository (or beside the folder of worktrees it is checked out in).
TOOLS = next(
    (p for p in (ROOT.parent / "shared" / "tools", ROOT.parent.parent / "shared" / "tools") if p.exists()), ROOT
)
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"
PYTHON = sys.executable
RULEBOOK = str(Path(sys.executable).with_name("rulebook"))


def make_book(factor: int, folder: Path) -> Path:
    out = folder / f"book_{factor}x.xml"
    if not out.exists():
        command = [PYTHON, str(TOOLS / "scale_rulebook.py"), str(SEED), str(factor), "-o", str(out)]
        subprocess.run(command, check=True, capture_output=True)
    return out


Sample = tuple[float, float]
"""Wall-clock and CPU seconds (for peak memory: MiB twice)."""


def pairs(first: Callable[[], Sample], second: Callable[[], Sample], count: int) -> list[tuple[Sample, Sample]]:
    """``count`` pairs of timings, the side that goes first alternating."""
    found = []
    for n in range(count):
        if n % 2:
            b = second()
            a = first()
        else:
            a = first()
            b = second()
        found.append((a, b))
    return found


# -- in-process (run in a child: ``--in-process FILE PAIRS``) ----------------------------------------


def timed(run: Callable[[], object]) -> Sample:
    """Seconds to run and then free what ran made (the collector as the lint leaves it)."""
    gc.collect()
    started, cpu = time.perf_counter(), time.process_time()
    result = run()
    del result
    return time.perf_counter() - started, time.process_time() - cpu


def in_process(path: Path, count: int) -> None:
    from lxml import etree

    from rulebook.project import BookConfig
    from rulebook.recipe.reading import read_book
    from rulebook.recipe.stages import lint_book

    folder = path.parent

    def parse() -> Sample:
        return timed(lambda: etree.parse(str(path)))

    def lint() -> Sample:
        return timed(lambda: lint_book(read_book([path], folder, outline=True), BookConfig("main"), root=folder))

    lint()  # imports and caches warmed, as in a run of the command
    print(json.dumps(pairs(parse, lint, count)))


# -- whole commands ------------------------------------------------------------------------------------


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


AS_INSTALLED = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"} | {"NO_COLOR": "1"}
"""The commands' environment: Python keeps the modules' bytecode, as an installed package has it (pip compiles
it at install; an environment that forbids writing it makes every run compile every module again)."""


def command(argv: list[str], folder: Path) -> Callable[[], Sample]:
    subprocess.run(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=AS_INSTALLED)  # warm

    def run() -> Sample:
        started, cpu = time.perf_counter(), _children_cpu()
        subprocess.run(argv, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=AS_INSTALLED)
        return time.perf_counter() - started, _children_cpu() - cpu

    return run


def peak(argv: list[str], folder: Path) -> Callable[[], Sample]:
    """The command's maximum resident set, in MiB (returned where the others return seconds)."""

    def run() -> Sample:
        timed = ["/usr/bin/time", "-f", "%M", *argv]
        done = subprocess.run(
            timed, cwd=folder, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=AS_INSTALLED
        )
        mib = int(done.stderr.strip().splitlines()[-1]) / 1024
        return mib, mib

    return run


def commands(path: Path) -> tuple[list[str], list[str]]:
    baseline = [PYTHON, str(TOOLS / "baseline_lint.py"), str(path), "--quiet"]
    ours = [RULEBOOK, "lint", "--quiet", "--format", "json", str(path)]
    return baseline, ours


# -- report --------------------------------------------------------------------------------------------


def summary(found: list[tuple[Sample, Sample]], scale: float = 1000.0) -> dict[str, object]:
    """Medians of both sides and of the pairs' ratios, in wall-clock time and in CPU time."""
    result: dict[str, object] = {}
    for kind, i in (("", 0), ("cpu_", 1)):
        ratios = [b[i] / a[i] for a, b in found]
        result |= {
            f"{kind}first": statistics.median(a[i] for a, _ in found) * scale,
            f"{kind}second": statistics.median(b[i] for _, b in found) * scale,
            f"{kind}median_ratio": statistics.median(ratios),
            f"{kind}ratios": [round(r, 2) for r in ratios],
        }
    return result


def measure(factor: int, folder: Path, count: int) -> dict[str, object]:
    path = make_book(factor, folder)
    print(f"{factor}x: in-process …", file=sys.stderr)
    child = [PYTHON, str(Path(__file__).resolve()), "--in-process", str(path), str(count)]
    done = subprocess.run(child, cwd=folder, capture_output=True, text=True, check=True)
    inside = summary([(tuple(a), tuple(b)) for a, b in json.loads(done.stdout)])  # type: ignore[misc]
    baseline, ours = commands(path)
    print(f"{factor}x: commands …", file=sys.stderr)
    whole = summary(pairs(command(baseline, folder), command(ours, folder), count))
    print(f"{factor}x: peak memory …", file=sys.stderr)
    memory = summary(pairs(peak(baseline, folder), peak(ours, folder), max(3, count // 2)), scale=1.0)
    return {"size_mb": path.stat().st_size / 1e6, "in_process": inside, "command": whole, "peak_mib": memory}


def startup(folder: Path, count: int) -> dict[str, object]:
    """Python's own start-up against ``rulebook --version``."""
    return summary(pairs(command([PYTHON, "-c", "pass"], folder), command([RULEBOOK, "--version"], folder), count))


def markdown(results: dict[int, dict[str, object]], start: dict[str, object]) -> str:
    lines = [
        "| book | size | bare parse (freed) | our lint in-process (freed) | ratio | baseline command | "
        "`rulebook lint` | ratio | peak RSS baseline / ours | ratio |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for factor, r in results.items():
        i, c, m = r["in_process"], r["command"], r["peak_mib"]
        assert isinstance(i, dict) and isinstance(c, dict) and isinstance(m, dict)
        lines.append(
            f"| {factor}x | {r['size_mb']:.1f} MB | {i['first']:.0f} ms | {i['second']:.0f} ms | "
            f"{i['median_ratio']:.2f}x | {c['first']:.0f} ms | {c['second']:.0f} ms | {c['median_ratio']:.2f}x | "
            f"{m['first']:.0f} / {m['second']:.0f} MiB | {m['median_ratio']:.2f}x |"
        )
    lines += [
        "",
        "CPU time (user + system), medians:",
        "",
        "| book | bare parse | our lint in-process | ratio | baseline command | `rulebook lint` | ratio |",
        "|---|---|---|---|---|---|---|",
    ]
    for factor, r in results.items():
        i, c = r["in_process"], r["command"]
        assert isinstance(i, dict) and isinstance(c, dict)
        lines.append(
            f"| {factor}x | {i['cpu_first']:.0f} ms | {i['cpu_second']:.0f} ms | {i['cpu_median_ratio']:.2f}x | "
            f"{c['cpu_first']:.0f} ms | {c['cpu_second']:.0f} ms | {c['cpu_median_ratio']:.2f}x |"
        )
    lines.append("")
    lines.append(
        f"Start-up: `python -c pass` {start['first']:.0f} ms, `rulebook --version` {start['second']:.0f} ms "
        f"({start['median_ratio']:.2f}x)."
    )
    lines.append("")
    for factor, r in results.items():
        for key in ("in_process", "command", "peak_mib"):
            part = r[key]
            assert isinstance(part, dict)
            lines.append(f"- {factor}x {key} ratios (wall): {', '.join(f'{x:.2f}' for x in part['ratios'])}")
            if key != "peak_mib":
                lines.append(f"- {factor}x {key} ratios (CPU): {', '.join(f'{x:.2f}' for x in part['cpu_ratios'])}")
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--pairs", type=int, default=7)
    parser.add_argument("--markdown", action="store_true", help="print Markdown tables instead of JSON")
    parser.add_argument("--in-process", nargs=2, metavar=("FILE", "PAIRS"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.in_process:
        sys.path.insert(0, str(ROOT))
        in_process(Path(args.in_process[0]), int(args.in_process[1]))
        return 0
    if not (TOOLS / "baseline_lint.py").exists():
        print("benchmarks need ../shared/tools beside the repository", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        results = {factor: measure(factor, folder, args.pairs) for factor in args.factors}
        start = startup(folder, args.pairs)
    print(markdown(results, start) if args.markdown else json.dumps({"books": results, "startup": start}, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
