#!/usr/bin/env python3
"""Benchmark: the print edition (the book's PDF, typeset by Typst) against the site build of the same book.

For each factor, makes a book that many times the seed (``../shared/tools/scale_rulebook.py``, as
``bench_site.py`` does) and times, as whole commands from this repository (its configuration: the main
book's title and look; the book named on the command line, so no translation), in rounds whose order turns:

- ``site``: ``rulebook build --no-pdf`` (lint, rules.json, the site by MkDocs);
- ``pdf``: ``rulebook build --pdf-only`` (lint, the PDF by Typst): the bar is ``pdf`` within ``site``;
- ``both``: ``rulebook build`` (the default: the site and the PDF, Typst working in a thread while MkDocs builds);
- ``sequential``: the same build with the PDF compiled after the site instead (this benchmark's own patch of
  ``rulebook.recipe.book_pdf.Printing``), to see whether the thread helps.

Then, in a process of its own, where the PDF's time goes: the edition decided and written as Typst source
(the pure stage), and Typst's compile, with the PDF's pages and size.

Outputs go under ``benchmarks/out/``. Usage: python benchmarks/bench_pdf.py [--factors 1 10] [--rounds 5]
[--markdown]
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
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
TOOLS = next((f / "shared" / "tools" for f in ROOT.parents if (f / "shared" / "tools").is_dir()), ROOT / "tools")
OUT = ROOT / "benchmarks" / "out"
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"
RULEBOOK = [sys.executable, "-m", "rulebook"]

SEQUENTIAL = """
import sys
from rulebook.recipe import book_pdf
from rulebook.cli import run

class AfterTheSite(book_pdf.Printing):
    # Compiles when the build asks for the PDFs (after MkDocs), not in a thread beside it.
    def __init__(self, jobs, warnings=()):
        self._jobs, self._results, self._error, self.warnings = jobs, {}, None, warnings

    def wait(self):
        for path, job in self._jobs:
            self._results[path] = job()
        return self._results

book_pdf.Printing = AfterTheSite
sys.argv[0] = "rulebook"
run()
"""

BREAKDOWN = """
import json, sys, time
from pathlib import Path
from rulebook.project import load_project
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book, reserved_names
from rulebook.recipe.book_pdf import book_print, template_text
from rulebook.pdf.typeset import typeset
from rulebook.pdf.typst_run import compile_pdf
from rulebook.site.theme import Theme

book_file, scratch = Path(sys.argv[1]), Path(sys.argv[2])
project = load_project(Path.cwd())
config = project.main
read = read_book([book_file], project.root)
lint = lint_book(read, config, root=project.root, reserved=reserved_names(project, config))
started = time.perf_counter()
prints = book_print(project, config, read, lint, (), Theme.for_project(project.root), lambda: None, scratch)
source = typeset(prints.editions[0][1])
staged = time.perf_counter()
result = compile_pdf(source, scratch, template=template_text(project))
done = time.perf_counter()
import pypdf, io
pages = len(pypdf.PdfReader(io.BytesIO(result.data)).pages)
print(json.dumps({"stage_s": staged - started, "typst_s": done - staged, "source_kb": len(source) / 1024,
                  "pdf_kb": len(result.data) / 1024, "pages": pages, "warnings": list(result.warnings)}))
"""


def prepare(factor: int) -> Path:
    book = OUT / f"book_{factor}x.xml"
    if not book.exists():
        subprocess.run(
            [sys.executable, str(TOOLS / "scale_rulebook.py"), str(SEED), str(factor), "-o", str(book)],
            check=True,
            capture_output=True,
        )
    return book


def once(argv: list[str]) -> tuple[float, float]:
    """A command's wall-clock and CPU seconds (its threads' and children's included)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv[:4])} failed:\n{done.stderr[-2000:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def commands(factor: int, book: Path) -> dict[str, list[str]]:
    def output(kind: str) -> list[str]:
        folder = OUT / f"pdf_{kind}_{factor}x"
        shutil.rmtree(folder, ignore_errors=True)
        shutil.rmtree(folder.parent / f".{folder.name}.rulebook", ignore_errors=True)
        return ["--output", str(folder), str(book)]

    return {
        "site": [*RULEBOOK, "build", "-q", "--no-pdf", *output("site")],
        "pdf": [*RULEBOOK, "build", "-q", "--pdf-only", *output("pdf")],
        "both": [*RULEBOOK, "build", "-q", *output("both")],
        "sequential": [sys.executable, "-c", SEQUENTIAL, "build", "-q", *output("sequential")],
    }


def measure(factor: int, rounds: int) -> dict[str, Any]:
    book = prepare(factor)
    argv = commands(factor, book)
    times: dict[str, list[float]] = {kind: [] for kind in argv}
    cpu: dict[str, list[float]] = {kind: [] for kind in argv}
    kinds = list(argv)
    for round_ in range(rounds):
        for kind in kinds[round_ % len(kinds) :] + kinds[: round_ % len(kinds)]:  # who goes first turns
            wall, used = once(argv[kind])
            times[kind].append(wall)
            cpu[kind].append(used)
    medians = {kind: statistics.median(values) for kind, values in times.items()}
    scratch = OUT / f"pdf_breakdown_{factor}x"
    shutil.rmtree(scratch, ignore_errors=True)
    breakdown = subprocess.run(
        [sys.executable, "-c", BREAKDOWN, str(book), str(scratch)], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return {
        "medians_s": medians,
        "cpu_medians_s": {kind: statistics.median(values) for kind, values in cpu.items()},
        "runs_s": times,
        "pdf_over_site": sorted(p / s for p, s in zip(times["pdf"], times["site"], strict=True)),
        "both_over_site": sorted(b / s for b, s in zip(times["both"], times["site"], strict=True)),
        "sequential_over_both": sorted(q / b for q, b in zip(times["sequential"], times["both"], strict=True)),
        "breakdown": json.loads(breakdown.stdout),
    }


def markdown(results: dict[int, dict[str, Any]]) -> str:
    lines = [
        "| book | site (`--no-pdf`) | PDF (`--pdf-only`) | PDF / site, pairs | site and PDF (default) | "
        "default / site, pairs | PDF after the site / default, pairs |",
        "|---|---|---|---|---|---|---|",
    ]
    for factor, r in results.items():
        m, c = r["medians_s"], r["cpu_medians_s"]

        def pairs(key: str, r: dict[str, Any] = r) -> str:
            return ", ".join(f"{x:.2f}" for x in r[key])

        def cell(kind: str, m: dict[str, float] = m, c: dict[str, float] = c) -> str:
            return f"{m[kind]:.2f} s (CPU {c[kind]:.2f} s)"

        lines.append(
            f"| {factor}x | {cell('site')} | {cell('pdf')} | {pairs('pdf_over_site')} | {cell('both')} | "
            f"{pairs('both_over_site')} | {pairs('sequential_over_both')} |"
        )
    lines += ["", "| book | stage (edition, Typst source) | Typst compile | source | PDF | pages |"]
    lines += ["|---|---|---|---|---|---|"]
    for factor, r in results.items():
        b = r["breakdown"]
        lines.append(
            f"| {factor}x | {b['stage_s']:.2f} s | {b['typst_s']:.2f} s | {b['source_kb']:.0f} KB | "
            f"{b['pdf_kb']:.0f} KB | {b['pages']} |"
        )
    return "\n".join(lines)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    if not TOOLS.exists():
        print("benchmarks need ../shared/tools beside the repository", file=sys.stderr)
        return 2
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for factor in args.factors:
        print(f"measuring {factor}x …", file=sys.stderr)
        results[factor] = measure(factor, args.rounds)
    print(markdown(results) if args.markdown else json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
