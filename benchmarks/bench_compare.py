#!/usr/bin/env python3
"""Benchmark: `rulebook compare` on the seed pair and on a pair N times larger, per unit of text.

The English is scaled by ``../shared/tools/scale_rulebook.py`` (its body repeated N times, names made
unique per copy). The French is scaled the same way by :func:`scale_french`: the chapters that
translate the English body are repeated N times, their numbers shifted by the English chapter count
of each copy, so that copy k's French chapter c translates copy k's English chapter c - 1 as in the
seed (the French front matter and introduction are kept once, as the English has none).

Runs from a neutral temporary folder (no project configuration), measures in this process, and
interleaves the two sizes after a first, cold call of the 1x pair (printed on its own): each round
times the 1x pair, then the Nx pair, and prints that round's ratio per character of both texts; the
summary is the median of the rounds' ratios, and each size's best round (the lower bound that other
processes on a shared machine only add to). Times are this process's CPU time: on the shared machine,
wall-clock time mostly measures the other processes.

Usage: python benchmarks/bench_compare.py [--factor 10] [--rounds 7] [--markdown]
"""

from __future__ import annotations

import argparse
import functools
import gc
import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

TOOLS = next(
    (folder / "shared" / "tools" for folder in ROOT.parents if (folder / "shared" / "tools").is_dir()),
    ROOT.parent / "shared" / "tools",
)
"""``../shared/tools`` beside the repository (or beside a folder holding it, for a worktree)."""
ENGLISH = ROOT / "rulebook_src" / "en" / "rulebook.xml"
FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"
TERMS = ROOT / "rulebook_src" / "fr" / "terms.toml"
_HEADING = re.compile(r"^(#+\s*)(\d+)((?:\.\d+)*\s)", re.MULTILINE)


def scale_english(factor: int, folder: Path) -> Path:
    out = folder / f"rulebook_{factor}x.xml"
    subprocess.run(
        [sys.executable, str(TOOLS / "scale_rulebook.py"), str(ENGLISH), str(factor), "-o", str(out)],
        check=True,
        capture_output=True,
    )
    return out


def scale_french(text: str, factor: int, *, first_chapter: int = 2, english_chapters: int = 7) -> str:
    """The French repeated like the English: its chapters from ``first_chapter`` on, ``factor`` times.

    Copy k's chapter numbers are shifted by ``(k - 1) * english_chapters``, the chapters each English
    copy adds, so the numbering offset between the two books stays the seed's.
    """
    start = re.search(rf"^#+\s*{first_chapter}\s", text, re.MULTILINE)
    assert start is not None, "no such chapter"
    head, body = text[: start.start()], text[start.start() :]
    copies = [body]
    for k in range(1, factor):
        copies.append(_HEADING.sub(functools.partial(_shifted, shift=k * english_chapters), body))
    return head + "\n".join(copy.rstrip("\n") + "\n" for copy in copies)


def _shifted(match: re.Match[str], *, shift: int) -> str:
    return f"{match.group(1)}{int(match.group(2)) + shift}{match.group(3)}"


def compare_once(english: Path, french: Path) -> tuple[float, float]:
    """Seconds to read both books, then to compare them."""
    from rulebook.recipe.reading import read_book
    from rulebook.translate.compare import compare_books
    from rulebook.translate.terminology import load_terminology

    gc.collect()
    started = time.process_time()
    original = read_book([english], english.parent).book
    translation = read_book([french], french.parent, language="fr", source_format="plain-markdown").book
    terms = load_terminology(TERMS)
    read = time.process_time()
    compare_books(original, translation, terms=terms)
    return read - started, time.process_time() - read


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--markdown", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(folder)  # a neutral folder: no project configuration, no baseline
        work = Path(folder)
        pairs = {}
        for factor in (1, args.factor):
            english = scale_english(factor, work)
            french = work / f"rulebook_{factor}x.md"
            french.write_text(scale_french(FRENCH.read_text(encoding="utf-8"), factor), encoding="utf-8")
            pairs[factor] = (english, french, english.stat().st_size + french.stat().st_size)
        # The first call pays what a one-off `rulebook compare` pays after its imports: caches empty, patterns
        # compiled on first use. The rounds after it run warm, as `serve` recomputes a comparison.
        cold = compare_once(*pairs[1][:2])[1]
        print(f"first call (cold caches): compare 1x {cold * 1000:.0f} ms")
        reads: dict[int, list[float]] = {1: [], args.factor: []}
        times: dict[int, list[float]] = {1: [], args.factor: []}
        ratios = []
        for round_number in range(1, args.rounds + 1):
            for factor in (1, args.factor):
                read, compared = compare_once(*pairs[factor][:2])
                reads[factor].append(read)
                times[factor].append(compared)
            per_char = [times[f][-1] / pairs[f][2] for f in (1, args.factor)]
            ratios.append(per_char[1] / per_char[0])
            print(
                f"round {round_number}: compare 1x {times[1][-1] * 1000:.0f} ms, {args.factor}x "
                f"{times[args.factor][-1] * 1000:.0f} ms, per character {ratios[-1]:.2f}x "
                f"(reading 1x {reads[1][-1] * 1000:.0f} ms, {args.factor}x {reads[args.factor][-1] * 1000:.0f} ms)"
            )
        one, many = statistics.median(times[1]), statistics.median(times[args.factor])
        read_one, read_many = statistics.median(reads[1]), statistics.median(reads[args.factor])
        ratio = statistics.median(ratios)
        if args.markdown:
            print("| pair | size (both texts) | reading both (median) | compare in-process (median) | per character |")
            print("|---|---|---|---|---|")
            print(f"| 1x | {pairs[1][2] / 1e3:.0f} KB | {read_one * 1000:.0f} ms | {one * 1000:.0f} ms | 1.00x |")
            size, read_ms, many_ms = pairs[args.factor][2] / 1e3, read_many * 1000, many * 1000
            print(f"| {args.factor}x | {size:.0f} KB | {read_ms:.0f} ms | {many_ms:.0f} ms | {ratio:.2f}x |")
        else:
            print(f"median compare: 1x {one * 1000:.0f} ms, {args.factor}x {many * 1000:.0f} ms, per char {ratio:.2f}x")
        # An absolute time on a shared machine: its best round is the lower bound other processes only add to
        # (the convention of Python's timeit); the median shows how far the machine's slow phases move it.
        best_one, best_many = min(times[1]) * 1000, min(times[args.factor]) * 1000
        print(f"best round: compare 1x {best_one:.0f} ms, {args.factor}x {best_many:.0f} ms")


if __name__ == "__main__":
    main()
