#!/usr/bin/env python3
"""Benchmark: ``rulebook lint`` of a family of books chained by ``uses`` (each book uses the one before), before
and after the lint of a family was made near-linear in its books.

A chain of N small books is made in a neutral temporary folder: book ``k`` defines one term, refers to it, to
the term of the book before it and to the first book's term (found at the chain's far end), and ``uses`` the
book before it; every book of a chain is in every other's family. The earlier revision is exported with ``git
archive`` (the repository is only read) and both sides run as ``python -m`` with their own code first on the
path (``revision_import``), this environment's dependencies for both. For each size the two sides run one after
the other, the side that goes first alternating; times are the command's CPU time (user and system), the median
of ``--rounds``, and its wall-clock time beside it; a side past ``--limit`` seconds is stopped.

Usage: python benchmarks/bench_chain.py [--before b9fa2d3] [--after REV] [--sizes 250 500 1000] [--rounds 3]
[--markdown]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench_growth import Run, export, print_rows, run, shown

BEFORE = "b9fa2d3"
"""The revision before the family's lint was made near-linear."""


def chain(books: int, folder: Path) -> Path:
    """A project of ``books`` books, each using the one before it."""
    folder.mkdir(parents=True)
    config: list[str] = []
    for number in range(books):
        name = "main" if number == 0 else f"book{number:04d}"
        (folder / name).mkdir()
        refers = f' It extends <reference name="t{number - 1:04d}">the rule before</reference> and' if number else ""
        refers += ' <reference name="t0000">the first rule</reference>.' if number else ""
        (folder / name / "book.xml").write_text(
            f'<document><chapter title="Rules {number}"><definition name="t{number:04d}">Rule {number}</definition>'
            f' is a rule.{refers} Also <reference name="t{number:04d}">rule {number}</reference>.</chapter>'
            "</document>\n",
            encoding="utf-8",
        )
        if number == 0:
            config[:0] = ['title = "Main"', 'sources = ["main/book.xml"]', ""]
            continue
        before = "main" if number == 1 else f"book{number - 1:04d}"
        config += [f"[books.{name}]", f'sources = ["{name}/book.xml"]', f'uses = ["{before}"]', ""]
    (folder / "rulebook.toml").write_text("\n".join(config), encoding="utf-8")
    return folder


def timed(code: Path, folder: Path, limit: float) -> tuple[Run, float]:
    """The lint's CPU time (:func:`bench_growth.run`) and its wall-clock seconds."""
    started = time.perf_counter()
    found = run(code, ["lint", "--quiet"], folder, limit)
    return found, time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help=f"the earlier revision (default: {BEFORE})")
    parser.add_argument("--after", help="a later revision to export (default: this checkout as it is)")
    parser.add_argument("--sizes", type=int, nargs="+", default=[250, 500, 1000])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--limit", type=float, default=300.0, help="seconds after which a run is stopped")
    parser.add_argument("--markdown", action="store_true", help="a table for docs/performance.md")
    args = parser.parse_args()
    root = Path(__file__).resolve().parent.parent
    rows = []
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        after = export(args.after, work / "after") if args.after else root
        sides = {"before": export(args.before, work / "before"), "after": after}
        turn = 0
        for size in args.sizes:
            folder = chain(size, work / f"chain-{size}")
            cpu: dict[str, list[float]] = {"before": [], "after": []}
            wall: dict[str, list[float]] = {"before": [], "after": []}
            for _ in range(args.rounds):
                order = ("before", "after") if turn % 2 == 0 else ("after", "before")
                turn += 1
                for side in order:
                    found, seconds = timed(sides[side], folder, args.limit)
                    cpu[side].append(float("inf") if found.seconds is None else found.seconds)
                    wall[side].append(seconds)
            cells = [
                shown(Run(None if median == float("inf") else median), args.limit)
                + f" (wall {statistics.median(wall[side]):.2f} s)"
                for side in ("before", "after")
                for median in [statistics.median(cpu[side])]
            ]
            rows.append((f"{size:,} books", *cells))
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print_rows(("chain", "before: CPU (wall)", "after: CPU (wall)"), rows, markdown=args.markdown)


if __name__ == "__main__":
    main()
