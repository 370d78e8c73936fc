#!/usr/bin/env python3
"""Benchmark: `rulebook status` on the seeds, and where its time goes.

The status of a translation joins two comparisons the build makes anyway: the comparison of the translation with
the edition it was made from, and the edition diff from that edition to the latest. This measures, in this process
and in CPU time, each part on the seeds (the French of the XML edition against the later English edition's Turns
chapter): reading the three books, the comparison, the edition diff, the join (what `rulebook status` adds), and
rendering the text and the HTML page; then the whole command as a user runs it (wall and CPU of a child process).
Each part is timed ``--rounds`` times after a first, cold call; the medians and best rounds are printed.

Usage: python benchmarks/bench_status.py [--rounds 7] [--markdown]
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def timed(action: Callable[[], Any]) -> tuple[float, Any]:
    gc.collect()
    started = time.process_time()
    value = action()
    return time.process_time() - started, value


def parts() -> dict[str, float]:
    """Each part of the status on the seeds, in seconds of CPU."""
    from rulebook.diff import diff_books
    from rulebook.project import load_project
    from rulebook.recipe.reading import read_book, read_configured
    from rulebook.report.status import render_status
    from rulebook.translate.compare import compare_books
    from rulebook.translate.status import translation_status
    from rulebook.translate.status_file import load_marks
    from rulebook.translate.terminology import load_terminology

    project = load_project(ROOT)
    book = project.book("main")
    [translation] = book.translations
    latest = project.latest_edition(book)
    found: dict[str, float] = {}
    found["reading the books"], (made_from, now, french) = timed(
        lambda: (
            read_configured(project, book).book,
            read_configured(project, latest).book,
            read_book([translation.source], project.root, language=translation.language),
        )
    )
    terms = load_terminology(translation.terms_file)
    found["the comparison"], comparison = timed(lambda: compare_books(made_from, french.book, terms=terms))
    found["the edition diff"], diff = timed(lambda: diff_books(made_from, now))
    found["the join (status)"], status = timed(
        lambda: translation_status(
            comparison,
            made_from,
            now,
            diff,
            language=translation.language,
            editions=(book.name, latest.name),
            marks=load_marks(translation.status_file, root=project.root),
        )
    )
    found["rendering the text"], _ = timed(lambda: render_status([status], "text"))
    found["rendering the HTML page"], _ = timed(lambda: render_status([status], "html"))
    return found


def command() -> tuple[float, float]:
    """`rulebook status` in a child process: wall-clock and CPU seconds."""
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [sys.executable, "-m", "rulebook", "status"], cwd=ROOT, env=environment, check=True, capture_output=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    cold = parts()
    print("first call (cold): " + ", ".join(f"{name} {seconds * 1000:.0f} ms" for name, seconds in cold.items()))
    rounds = [parts() for _ in range(args.rounds)]
    command()  # bytecode written, files in the page cache
    runs = [command() for _ in range(args.rounds)]
    medians = {name: statistics.median(r[name] for r in rounds) for name in cold}
    best = {name: min(r[name] for r in rounds) for name in cold}
    share = medians["the join (status)"] / (medians["the comparison"] + medians["the edition diff"])
    if args.markdown:
        print("| part | CPU, median | best round |")
        print("|---|---|---|")
        for name in cold:
            print(f"| {name} | {medians[name] * 1000:.1f} ms | {best[name] * 1000:.1f} ms |")
    else:
        for name in cold:
            print(f"{name}: median {medians[name] * 1000:.1f} ms, best {best[name] * 1000:.1f} ms")
    print(f"the join is {share:.1%} of the comparison and the diff it joins")
    walls, cpus = [w for w, _ in runs], [c for _, c in runs]
    print(
        f"`rulebook status` as a command: wall median {statistics.median(walls):.2f} s (best {min(walls):.2f} s), "
        f"CPU median {statistics.median(cpus):.2f} s"
    )


if __name__ == "__main__":
    main()
