#!/usr/bin/env python3
"""Benchmark: ``rulebook serve`` of a family of books when the core is edited, before and after the books of its
family that show nothing the edit changed were left as they are.

The family of ``bench_family.py`` (1 core, the seed, and N-1 army books generated from it, each using the core) is
made in a neutral temporary folder. Each side (a revision exported with ``git archive``, run as ``python -m`` with
its own code first on the path, see ``revision_import``) serves it, and two edits of the core are made in turn:

- ``footprint``: a sentence of the core's Footprint, a term no army book shows (each has its own);
- ``line_of_sight``: the sentence of the core's Line of Sight that its card shows in every army book.

For each edit: the seconds from the edit until serve says the step's pages are written (``Updated N pages``: every
book of the family read, linted and planned again, or left), the books whose pages were planned again (counted by
a stand-in for ``update_live`` that says so), and the pages rewritten. Sides alternate which goes first, round by
round. Wall-clock on a shared machine: read the counts first.

Usage: python benchmarks/bench_serve_family.py --before REV --after REV [--books 20] [--rounds 2] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import bench_family
from bench_growth import export
from revision_import import runnable

EDITS = {
    "footprint": ("is the area occupied by the combined", "is the area covered by the combined"),
    "line_of_sight": bench_family.EDITED,
}
"""Each edit of the core: the text replaced and its replacement."""
COUNTING = """
import sys
import rulebook.recipe.live as live
_update = live.update_live
def _updated(project, options, book, cache):
    print(f"bench: planned {book.config.name}", file=sys.stderr, flush=True)
    return _update(project, options, book, cache)
live.update_live = _updated
from rulebook.cli import main
sys.exit(main(sys.argv[1:]))
"""
PATIENCE = 1800.0


def serve_side(code: Path, family: Path, temp: Path) -> dict[str, tuple[float, int, int]]:
    """Serve the family with the revision in ``code``; for each edit: seconds, books planned, pages rewritten."""
    path, module = runnable(code)
    assert module == "rulebook", "a revision with the import name rulebook"
    temp.mkdir(parents=True, exist_ok=True)
    process = subprocess.Popen(
        [sys.executable, "-c", COUNTING, "serve", "--port", "0"],
        cwd=family,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONPATH": path, "TMPDIR": str(temp), "NO_COLOR": "1"},
    )
    lines: list[str] = []
    assert process.stderr is not None
    stream = process.stderr
    threading.Thread(target=lambda: lines.extend(iter(stream.readline, "")), daemon=True).start()

    def wait_for(pattern: str, after: int = 0) -> re.Match[str]:
        deadline = time.monotonic() + PATIENCE
        while True:
            for line in lines[after:]:
                if found := re.search(pattern, line):
                    return found
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"serve never said {pattern!r}:\n" + "".join(lines[-30:]))
            time.sleep(0.01)

    found: dict[str, tuple[float, int, int]] = {}
    try:
        wait_for("Serving on")
        site = next(temp.glob("rulebook-serve-*/site"))
        source = family / "core" / "book.xml"
        for name, (old, new) in EDITS.items():
            before, mark = _pages(site), len(lines)
            text = source.read_text(encoding="utf-8")
            started = time.perf_counter()
            source.write_text(text.replace(old, new, 1), encoding="utf-8")
            wait_for(r"Updated \d+ pages?", after=mark)
            seconds = time.perf_counter() - started
            wait_for(r" of Core rules up to date", after=mark)
            planned = sum(line.startswith("bench: planned ") for line in lines[mark:])
            after = _pages(site)
            found[name] = (seconds, planned, sum(after[p] != before.get(p) for p in after))
            time.sleep(2)  # the other books' rule data, recomputed aside, out of the next edit's way
    finally:
        process.terminate()
        process.wait(timeout=60)
    return found


def _pages(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("*.html")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the earlier revision")
    parser.add_argument("--after", required=True, help="the later revision")
    parser.add_argument("--books", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as scratch:
        work = Path(scratch)
        sides = {side: export(getattr(args, side), work / side) for side in ("before", "after")}
        bench_family.OUT = work / "family"
        results: dict[str, list[dict[str, tuple[float, int, int]]]] = {"before": [], "after": []}
        for number in range(args.rounds):
            for side in ("before", "after") if number % 2 == 0 else ("after", "before"):
                family, _ = bench_family.prepare(args.books)
                results[side].append(serve_side(sides[side], family, work / f"tmp-{side}-{number}"))
                print(f"  round {number + 1} {side}: {results[side][-1]}", file=sys.stderr, flush=True)
    if args.markdown:
        print(f"| {args.books} books, core edited | before | after |")
        print("|---|---|---|")
    for edit in EDITS:
        cells = []
        for side in ("before", "after"):
            runs = [run[edit] for run in results[side]]
            seconds = statistics.median(r[0] for r in runs)
            planned = "/".join(sorted({str(r[1]) for r in runs}))
            pages = "/".join(sorted({str(r[2]) for r in runs}))
            cells.append(f"{seconds:.2f} s, {planned} books planned, {pages} pages rewritten")
        row = (f"`{edit}`", *cells)
        print(f"| {' | '.join(row)} |" if args.markdown else "  ".join(row))


if __name__ == "__main__":
    main()
