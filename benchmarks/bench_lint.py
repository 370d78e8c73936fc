#!/usr/bin/env python3
"""Benchmark: lint time and peak memory against a bare lxml parse, in the same run.

Makes rulebooks 1x, 10x and 100x the seed with ``../shared/tools/scale_rulebook.py``,
then for each measures (medians of ``--repeat`` runs, in this process):

- ``parse``: a bare ``lxml.etree.parse`` of the file (the floor);
- ``baseline``: ``../shared/tools/baseline_lint.py``'s in-process lint (the simplest correct lint);
- ``lint``: our whole lint in-process (read, DTD check, model, graph, every rule, sorted diagnostics);
- peak memory (max RSS) of a fresh process doing only the parse, and only the lint;
- the whole ``rulebook lint`` command against the baseline command.

Usage: python benchmarks/bench_lint.py [--factors 1 10 100] [--repeat 7] [--markdown]
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from lxml import etree

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT.parent / "shared" / "tools"
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"


def make_book(factor: int, folder: Path) -> Path:
    out = folder / f"book_{factor}x.xml"
    if not out.exists():
        subprocess.run(
            [sys.executable, str(TOOLS / "scale_rulebook.py"), str(SEED), str(factor), "-o", str(out)],
            check=True,
            capture_output=True,
        )
    return out


def median_seconds(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        gc.collect()
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def our_lint(path: Path) -> int:
    from compiler.project import BookConfig
    from compiler.recipe import lint_book, read_book

    return len(lint_book(read_book([path], ROOT), BookConfig("main"), root=ROOT).diagnostics)


def baseline_lint(path: Path) -> None:
    sys.path.insert(0, str(TOOLS))
    import baseline_lint as tool  # type: ignore[import-not-found]

    defined, ids, refs, links = tool.collect_iter(tool.parse(str(path)))
    tool.dangling(defined, ids, refs, links)


def peak_mib(mode: str, path: Path) -> float:
    """Peak resident memory of a fresh process that only parses, or only lints, the book."""
    done = subprocess.run(
        [sys.executable, str(Path(__file__)), "--peak", mode, str(path)], capture_output=True, text=True, check=True
    )
    return int(done.stdout.strip().splitlines()[-1]) / 1024


def report_peak(mode: str, path: Path) -> None:
    # VmHWM, not ru_maxrss: getrusage's high-water mark survives fork+exec, so a child
    # of a big benchmark process would report the parent's peak.
    if mode == "parse":
        etree.parse(str(path))
    else:
        our_lint(path)
    status = Path("/proc/self/status").read_text(encoding="ascii")
    print(next(line.split()[1] for line in status.splitlines() if line.startswith("VmHWM:")))


def command_seconds(argv: list[str], repeat: int) -> float:
    def run() -> None:
        subprocess.run(argv, capture_output=True, cwd=ROOT, env=dict(os.environ, NO_COLOR="1"))

    return median_seconds(run, repeat)


def measure(path: Path, repeat: int) -> dict[str, float]:
    parse = median_seconds(lambda: etree.parse(str(path)), repeat)
    baseline = median_seconds(lambda: baseline_lint(path), repeat)
    ours = median_seconds(lambda: our_lint(path), repeat)
    rulebook = str(Path(sys.executable).with_name("rulebook"))
    return {
        "size_mb": path.stat().st_size / 1e6,
        "parse_ms": parse * 1000,
        "baseline_ms": baseline * 1000,
        "lint_ms": ours * 1000,
        "lint_over_parse": ours / parse,
        "parse_peak_mib": peak_mib("parse", path),
        "lint_peak_mib": peak_mib("lint", path),
        "baseline_command_ms": command_seconds(
            [sys.executable, str(TOOLS / "baseline_lint.py"), str(path), "--quiet"], max(3, repeat // 2)
        )
        * 1000,
        "lint_command_ms": command_seconds(
            [rulebook, "lint", "--quiet", "--format", "json", "-o", os.devnull, str(path)], max(3, repeat // 2)
        )
        * 1000,
    }


def markdown(results: dict[int, dict[str, float]]) -> str:
    lines = [
        "| book | size | bare parse | baseline lint | our lint | lint / parse "
        "| peak RSS parse / lint | command: baseline / ours |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for factor, r in results.items():
        lines.append(
            f"| {factor}x | {r['size_mb']:.1f} MB | {r['parse_ms']:.0f} ms | {r['baseline_ms']:.0f} ms | "
            f"{r['lint_ms']:.0f} ms | {r['lint_over_parse']:.2f}x | "
            f"{r['parse_peak_mib']:.0f} / {r['lint_peak_mib']:.0f} MiB | "
            f"{r['baseline_command_ms']:.0f} / {r['lint_command_ms']:.0f} ms |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 10, 100])
    parser.add_argument("--repeat", type=int, default=7)
    parser.add_argument("--markdown", action="store_true", help="print a Markdown table instead of JSON")
    parser.add_argument("--peak", nargs=2, metavar=("MODE", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.peak:
        report_peak(args.peak[0], Path(args.peak[1]))
        return 0
    if not TOOLS.exists():
        print("benchmarks need ../shared/tools beside the repository", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        results = {}
        for factor in args.factors:
            print(f"measuring {factor}x …", file=sys.stderr)
            results[factor] = measure(make_book(factor, Path(folder)), args.repeat)
    print(markdown(results) if args.markdown else json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
