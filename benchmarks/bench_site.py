#!/usr/bin/env python3
"""Benchmark: the whole site build against a plain MkDocs-Material project of the same book.

For each factor, makes a book that many times the seed (``../shared/tools/scale_rulebook.py``)
and its plain MkDocs-Material project (``../shared/tools/to_mkdocs.py``: one page per chapter,
references as anchor links), then times, in the same run and as whole commands:

- ``mkdocs build`` of the plain project (the peer);
- ``rulebook build`` of the book (lint, rules.json with its schema check, the site with
  glossary, previews, tables, term-graph pictures and lint report, built by mkdocs-material).

Both write under ``benchmarks/out/`` (on this machine /tmp is much slower to create files in).
Usage: python benchmarks/bench_site.py [--factors 10 100] [--repeat 3] [--markdown]
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


def measure(factor: int, repeat: int) -> dict[str, float]:
    book, plain = prepare(factor)
    ours = OUT / f"ours_{factor}x"
    shutil.rmtree(plain / "site", ignore_errors=True)
    # Interleaved, so that the shared machine's slow and fast periods fall on both builds alike.
    peers, mine = [], []
    for _ in range(repeat):
        peers.append(once([str(BIN / "mkdocs"), "build", "-q"], plain))
        mine.append(once([str(BIN / "rulebook"), "build", "-q", "--output", str(ours), str(book)], ROOT))
    peer, ours_s = statistics.median(peers), statistics.median(mine)
    ratios = sorted(m / p for m, p in zip(mine, peers, strict=True))
    pages = sum(1 for _ in ours.rglob("*.html"))
    return {
        "plain_mkdocs_s": peer,
        "rulebook_build_s": ours_s,
        "ratio": ours_s / peer,
        "pair_ratios": ratios,
        "our_html_pages": pages,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[10, 100])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if not TOOLS.exists():
        print("benchmarks need ../shared/tools beside the repository", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for factor in args.factors:
        print(f"measuring {factor}x …", file=sys.stderr)
        results[factor] = measure(factor, args.repeat)
    if args.markdown:
        print("| book | plain MkDocs-Material | rulebook build | ratio of medians | ratios of pairs | our HTML pages |")
        print("|---|---|---|---|---|---|")
        for factor, r in results.items():
            pairs = ", ".join(f"{x:.2f}" for x in r["pair_ratios"])
            print(
                f"| {factor}x | {r['plain_mkdocs_s']:.2f} s | {r['rulebook_build_s']:.2f} s | {r['ratio']:.2f}x | "
                f"{pairs} | {r['our_html_pages']} |"
            )
        factors = sorted(results)
        if len(factors) >= 2:
            a, b = factors[0], factors[-1]
            growth = results[b]["rulebook_build_s"] / results[a]["rulebook_build_s"]
            print(f"\nrulebook build {b}x / {a}x: {growth:.1f}x")
    else:
        print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
