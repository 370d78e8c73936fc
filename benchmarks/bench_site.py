#!/usr/bin/env python3
"""Benchmark: the whole site build against a plain MkDocs-Material project of the same book.

For each factor, makes a book that many times the seed (``../shared/tools/scale_rulebook.py``)
and its plain MkDocs-Material project (``../shared/tools/to_mkdocs.py``: one page per chapter,
references as anchor links), then times, in the same run and as whole commands:

- ``mkdocs build`` of the plain project (the peer);
- ``rulebook build`` of the book (lint, rules.json with its schema check, the site with
  glossary, previews, tables, term-graph pictures and lint report, built by mkdocs-material);
- with ``--generators mkdocs zensical``, ``rulebook build --generator zensical`` too, in the same
  rounds (its cache kept between runs as a user's repeated builds keep it: the first run is cold).

Both write under ``benchmarks/out/`` (on this machine /tmp is much slower to create files in).
Usage: python benchmarks/bench_site.py [--factors 10 100] [--repeat 3] [--generators mkdocs zensical] [--markdown]
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT.parent / "shared" / "tools"
OUT = ROOT / "benchmarks" / "out"
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"
BIN = Path(sys.executable).parent


def prepare(factor: int) -> tuple[Path, Path]:
    book = OUT / f"book_{factor}x.xml"
    plain = OUT / f"plain_{factor}x"
    if not book.exists():
        subprocess.run(
            [sys.executable, str(TOOLS / "scale_rulebook.py"), str(SEED), str(factor), "-o", str(book)],
            check=True,
            capture_output=True,
        )
    if not plain.exists():
        subprocess.run(
            [sys.executable, str(TOOLS / "to_mkdocs.py"), str(book), str(plain)], check=True, capture_output=True
        )
    return book, plain


def once(argv: list[str], cwd: Path) -> float:
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    if done.returncode not in (0, 1):
        raise SystemExit(f"{argv[0]} failed:\n{done.stderr[-2000:]}")
    return time.perf_counter() - started


def measure(factor: int, repeat: int, generators: list[str]) -> dict[str, Any]:
    book, plain = prepare(factor)
    shutil.rmtree(plain / "site", ignore_errors=True)
    outputs = {generator: OUT / f"ours_{factor}x_{generator}" for generator in generators}
    for output in outputs.values():  # the work folder beside it too: a Zensical cache from an earlier run
        shutil.rmtree(output, ignore_errors=True)
        shutil.rmtree(output.parent / f".{output.name}.rulebook", ignore_errors=True)
    # Interleaved, so that the shared machine's slow and fast periods fall on every build alike.
    peers: list[float] = []
    mine: dict[str, list[float]] = {generator: [] for generator in generators}
    for _ in range(repeat):
        peers.append(once([str(BIN / "mkdocs"), "build", "-q"], plain))
        for generator, output in outputs.items():
            # --no-pdf: the peer makes no PDF (bench_pdf.py measures the print edition against this same build)
            argv = [str(BIN / "rulebook"), "build", "-q", "--no-pdf", "--generator", generator, "--output", str(output)]
            mine[generator].append(once([*argv, str(book)], ROOT))
    peer = statistics.median(peers)
    result: dict[str, Any] = {"plain_mkdocs_s": peer}
    for generator, times in mine.items():
        result[generator] = {
            "rulebook_build_s": statistics.median(times),
            "ratio": statistics.median(times) / peer,
            "pair_ratios": sorted(m / p for m, p in zip(times, peers, strict=True)),
            "runs_s": times,
            "our_html_pages": sum(1 for _ in outputs[generator].rglob("*.html")),
        }
    if "mkdocs" in mine and "zensical" in mine:
        pairs = zip(mine["zensical"], mine["mkdocs"], strict=True)
        result["zensical_over_mkdocs"] = sorted(z / m for z, m in pairs)
    return result


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--generators", nargs="+", default=["mkdocs"], choices=["mkdocs", "zensical"])
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if not TOOLS.exists():
        print("benchmarks need ../shared/tools beside the repository", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for factor in args.factors:
        print(f"measuring {factor}x …", file=sys.stderr)
        results[factor] = measure(factor, args.repeat, args.generators)
    if args.markdown:
        print(markdown(results))
    else:
        print(json.dumps(results, indent=2))
    return 0


def markdown(results: dict[int, dict[str, Any]]) -> str:
    lines = [
        "| book | generator | plain MkDocs-Material | rulebook build | ratio of medians | ratios of pairs | "
        "runs, in order | our HTML pages |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for factor, r in results.items():
        for generator in ("mkdocs", "zensical"):
            if generator not in r:
                continue
            g = r[generator]
            pairs = ", ".join(f"{x:.2f}" for x in g["pair_ratios"])
            runs = ", ".join(f"{x:.2f}" for x in g["runs_s"])
            lines.append(
                f"| {factor}x | {generator} | {r['plain_mkdocs_s']:.2f} s | {g['rulebook_build_s']:.2f} s | "
                f"{g['ratio']:.2f}x | {pairs} | {runs} | {g['our_html_pages']} |"
            )
        if "zensical_over_mkdocs" in r:
            pairs = ", ".join(f"{x:.2f}" for x in r["zensical_over_mkdocs"])
            lines.append(f"\n{factor}x: rulebook build with Zensical / with MkDocs, pair by pair: {pairs}\n")
    return "\n".join(lines)


if __name__ == "__main__":
    sys.exit(main())
