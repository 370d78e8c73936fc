#!/usr/bin/env python3
"""Benchmark: the inputs that took quadratic time (issue 32), at a few sizes, before and after.

Each input is made at each size in a neutral temporary folder (its own project configuration where the
command needs one, nothing else). The earlier revision is exported with ``git archive`` (the repository
is only read) and both sides run as ``python -m`` with their own code first on the path (see revision_import), this
environment's dependencies for both. For each size the two sides run one after the other, the side
that goes first alternating from size to size; a side past ``--limit`` seconds is stopped and shown as
"> limit". Times are the command's CPU time (its user and system time): on a shared machine, wall-clock
time mostly measures the other processes. With ``--rounds N`` each side's time is the median of N.

Usage: python benchmarks/bench_growth.py [--before e10484e] [--limit 60] [--rounds 1] [--markdown] [--only NAME]
"""

from __future__ import annotations

import argparse
import io
import os
import random
import resource
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from revision_import import runnable

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "e10484e"
"""The revision before the inputs were made linear."""

Files = dict[str, str]


@dataclass(frozen=True)
class Case:
    """An input of the issue, made at a few sizes."""

    name: str
    argv: list[str]
    make: Callable[[int], Files]
    sizes: tuple[int, ...]
    unit: str


WORDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet", "kilo", "lima"]


def shuffled_sentences(count: int) -> Files:
    randomly = random.Random(1)
    sentences = [f"Sentence {i} says " + " ".join(randomly.choices(WORDS, k=8)) + "." for i in range(count)]
    shuffled = sentences[:]
    random.Random(2).shuffle(shuffled)
    return {"old.md": _markdown(" ".join(sentences)), "new.md": _markdown(" ".join(shuffled))}


def renamed_terms(count: int) -> Files:
    randomly = random.Random(3)
    texts = [" ".join(randomly.choices(WORDS, k=10)) + f" number {i}." for i in range(count)]

    def book(prefix: str) -> str:
        terms = "\n".join(f'<definition name="{prefix}{i}">{text}</definition>' for i, text in enumerate(texts))
        return f'<document><chapter title="Terms" id="terms">\n{terms}\n</chapter></document>\n'

    return {"old.xml": book("old_term_"), "new.xml": book("new_term_")}


def angle_brackets(size: int) -> Files:
    return _book("book.md", _markdown("<" * size))


def findings_on_one_line(count: int) -> Files:
    references = "".join(f'<reference name="t{i}">x</reference> ' for i in range(count))
    return _book("book.xml", f'<document><chapter title="a" id="a">{references}</chapter></document>\n')


def heading_of_marks(size: int) -> Files:
    return _book("book.md", "# 1 a" + " *" * (size // 2) + " b\n\nText.\n")


def annotation_word(size: int) -> Files:
    return _book("book.md", _markdown(f"Roll <!-- rulebook: mechanic {'a' * size} --> here."))


def digits_before_cm(size: int) -> Files:
    return _pair(ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} {'1' * size} q cm.")


def dimensions_before_cm(size: int) -> Files:
    return _pair(ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} {'1x' * (size // 2)} q cm.")


def translation_of_brackets(size: int) -> Files:
    return _pair(ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} {'<' * size}")


def three_sentences_for_two(size: int) -> Files:
    original = " ".join(f"Rule {i} moves alpha{i} units." for i in range(size // 30))
    return _pair(original, " ".join(f"Règle {i} ?? bouge." for i in range(size // 20)))


def slips_on_one_line(size: int) -> Files:
    return _pair(ENGLISH_SENTENCE, FRENCH_SENTENCE + " " + " ".join("de la \\* une" for _ in range(size // 14)))


def annotations_in_a_paragraph(count: int) -> Files:
    annotations = "".join(f'Roll <!-- rulebook: mechanic name="t{i}" roll="D6" --> ' for i in range(count))
    return _book("book.md", _markdown(annotations))


def annotations_on_a_line(count: int) -> Files:
    definitions = "".join(
        f'<definition name="t{i}">Roll a D6 against power.<mechanic name="t{i}" roll="D6" pass="at-least" '
        'against="power"/></definition>'
        for i in range(count)
    )
    return _book("book.xml", f'<document><chapter title="a" id="a">{definitions}</chapter></document>\n')


def spaces_after_a_stop(size: int) -> Files:
    return _pair(ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} fin.{' ' * size}suite")


def latex_commands(size: int) -> Files:
    return _pair(ENGLISH_SENTENCE, FRENCH_SENTENCE + " " + "\\ab{" * (size // 4))


def unsaid_headings(count: int) -> Files:
    sections = "".join(f"## Section {i}\n\nText of part {i + 1}.\n\n" for i in range(count))
    return _plain_book("# Rules\n\n" + sections)


def said_headings(count: int) -> Files:
    sections = "".join(f"## Word Title {i}\n\nWord title {i + 1} and word.\n\n" for i in range(count))
    return _plain_book("# Rules\n\n" + sections)


def shared_rendering(count: int) -> Files:
    """``count`` terms each forbidding ``mot mot`` and accepting ``mot mot mot``, a translation of ``count`` sentences
    writing both."""
    definitions = "".join(f"::: definition t{i}\n\nThe [[t{i}]] rule {i}.\n\n:::\n\n" for i in range(count))
    sentences = "".join(f"La règle {i} du mot mot {i} et du mot mot mot.\n\n" for i in range(count))
    entries = "".join(
        f'[t{i}]\npreferred = "terme {i}"\naccepted = ["mot mot mot"]\nforbidden = ["mot mot"]\n' for i in range(count)
    )
    return {"book.md": f"# Ch {{#ch}}\n\n{definitions}", "fr.md": f"# Ch\n\n{sentences}", "terms.toml": entries}


def references_beside_a_bar(size: int) -> Files:
    return _book("book.md", _markdown("|" + "[[a" * (size // 3)))


def spaces_in_a_fence(size: int) -> Files:
    return _book("book.md", _markdown(f"::: note Title{' ' * size}end\n\nA note.\n\n:::"))


def spaces_in_a_heading(size: int) -> Files:
    return _book("book.md", _markdown(f"## Rules{' ' * size}end {{#rules}}\n\nText."))


def a_wide_cell_too_many(size: int) -> Files:
    return _book("book.md", _markdown(f"| a | b |\n|---|---|\n| a | b | {'x' * size} |"))


def titles_alike(count: int) -> Files:
    text = "Rules\n\n(Rule)\nDescription: Text.\n\n" + "Same\n\nText.\n\n" * count
    return {"rules.txt": text, "rulebook.toml": 'sources = ["rules.txt"]\n'}


def lazy_lines_under_quotes(count: int) -> Files:
    return _plain_book(_markdown("> " * 95 + "x\n" + "y\n" * count))


def directives_around_lines(count: int) -> Files:
    opened = "".join(f"::: note N{n}\n\n" for n in range(20))
    return _book("book.md", _markdown(opened + "words of the rules\n" * count + "\n:::\n" * 20))


def a_paragraph_of_lines(count: int) -> Files:
    return _book("book.md", _markdown("words of the rules\n" * count))


def sections_of_one_chapter(count: int) -> Files:
    """One chapter of ``count`` sections: one page of ``count`` headings (the search index's work grew with its
    square); past 2,000, refused."""
    sections = "".join(f'<section id="s{i}" title="S{i}">x.</section>\n' for i in range(count - 1))
    return _site_book(f'<document><chapter id="c" title="C">\n{sections}</chapter></document>\n')


def one_line_chapters(count: int) -> Files:
    """``count`` chapters of one section each: ``count`` pages, each carrying the navigation."""
    chapters = "".join(
        f'<chapter id="c{i}" title="C{i}"><section id="s{i}" title="S{i}">x.</section></chapter>\n'
        for i in range(count)
    )
    return _site_book(f"<document>\n{chapters}</document>\n")


def translated_chapters(count: int) -> Files:
    """A book of one chapter and a French translation of ``count`` chapters: each a page of the translated site,
    each carrying its navigation (a flat list of every chapter once: quadratic)."""
    french = "".join(f"# Titre {i}\n\nTexte {i}.\n\n" for i in range(count))
    return {
        "book.xml": '<document><chapter id="c" title="C">x.</chapter></document>\n',
        "fr.md": french,
        "rulebook.toml": (
            'sources = ["book.xml"]\n[translations.fr]\nsource = "fr.md"\nformat = "plain-markdown"\n'
            "[pdf]\nbuild = false\n"
        ),
    }


def chained_definitions(count: int) -> Files:
    """``count`` definitions, each using the one before: each term lists up to 100 to read first in the rule data."""
    definitions = "".join(
        f'<definition name="a{i}">A <reference name="a{i}">t</reference> is <reference name="a{i - 1}">u</reference>.'
        "</definition>\n"
        for i in range(1, count)
    )
    section = f'<section id="s" title="S"><definition name="a0">Base.</definition>\n{definitions}</section>'
    return _site_book(f'<document><chapter id="c" title="C">{section}</chapter></document>\n')


def _site_book(text: str) -> Files:
    return {"book.xml": text, "rulebook.toml": 'sources = ["book.xml"]\n[pdf]\nbuild = false\n'}


def _plain_book(text: str) -> Files:
    return {"book.md": text, "rulebook.toml": 'sources = ["book.md"]\nformat = "plain-markdown"\n'}


ENGLISH_SENTENCE = "A unit may move up to 6 inches in the Movement Phase."
FRENCH_SENTENCE = "Une unité peut se déplacer de 6 pouces pendant la phase de mouvement."


def _markdown(text: str) -> str:
    return f"# 1 Rules\n\n{text}\n"


def _book(name: str, text: str) -> Files:
    return {name: text, "rulebook.toml": f'sources = ["{name}"]\n'}


def _pair(original: str, translation: str) -> Files:
    section = f'<section title="Moving" id="moving">{original}</section>'
    english = f'<document><chapter title="Rules" id="rules">{section}</chapter></document>\n'
    return {"en.xml": english, "fr.md": f"# 1 Règles\n\n## 1.1 Mouvement\n\n{translation}\n"}


DIFF = ["diff", "old.md", "new.md"]
COMPARE = ["compare", "en.xml", "fr.md"]
DATA = ["build", "-q", "--data-only", "-o", "out"]
LINT = ["lint"]
SITE = ["build", "-q", "-o", "out"]
TERMS = ["compare", "--language", "fr", "--terms", "terms.toml", "book.md", "fr.md"]
CASES = [
    Case("diff: shuffled sentences", DIFF, shuffled_sentences, (1_000, 2_000, 5_000, 20_000), "sentences"),
    Case("diff: renamed terms", ["diff", "old.xml", "new.xml"], renamed_terms, (250, 500, 1_000, 2_000), "terms"),
    Case("lint: Markdown of `<`", ["lint"], angle_brackets, (50_000, 100_000, 200_000), "bytes"),
    Case(
        "lint, text report: findings on one line", ["lint"], findings_on_one_line, (10_000, 20_000, 40_000), "findings"
    ),
    Case("lint: a heading of ` *`", ["lint"], heading_of_marks, (25_000, 50_000, 100_000), "bytes"),
    Case("lint: an annotation of one word", ["lint"], annotation_word, (25_000, 50_000, 100_000), "bytes"),
    Case("lint: annotations in a paragraph", LINT, annotations_in_a_paragraph, (10_000, 20_000, 40_000), "annotations"),
    Case("rule data: annotations on one line", DATA, annotations_on_a_line, (1_000, 2_000, 4_000), "annotations"),
    Case("lint: headings the text never says", LINT, unsaid_headings, (1_250, 2_500, 5_000), "sections"),
    Case("lint: headings said, each a term linked", LINT, said_headings, (5_000, 10_000, 20_000), "sections"),
    Case("compare: digits before `cm`", COMPARE, digits_before_cm, (2_000, 5_000, 100_000), "digits"),
    Case("compare: `1x1x…` before `cm`", COMPARE, dimensions_before_cm, (25_000, 50_000, 100_000), "bytes"),
    Case("compare: a translation of `<`", COMPARE, translation_of_brackets, (50_000, 100_000, 200_000), "bytes"),
    Case("compare: 3 sentences for 2", COMPARE, three_sentences_for_two, (25_000, 50_000, 100_000), "bytes"),
    Case("compare: a stop before spaces", COMPARE, spaces_after_a_stop, (25_000, 50_000, 100_000), "spaces"),
    Case("compare: `\\ab{` on one line", COMPARE, latex_commands, (25_000, 50_000, 100_000), "bytes"),
    Case("compare: slips on one line", COMPARE, slips_on_one_line, (50_000, 100_000, 200_000), "bytes"),
    Case("compare: a rendering many terms accept", TERMS, shared_rendering, (500, 1_000, 2_000), "terms"),
    Case("lint: `[[a` beside a `|`", LINT, references_beside_a_bar, (15_000, 30_000, 60_000), "bytes"),
    Case("lint: spaces in a fence's title", LINT, spaces_in_a_fence, (20_000, 40_000, 80_000), "spaces"),
    Case("lint: spaces in a heading", LINT, spaces_in_a_heading, (20_000, 40_000, 80_000), "spaces"),
    Case("lint: a cell past the header's", LINT, a_wide_cell_too_many, (20_000, 40_000, 80_000), "bytes"),
    Case("lint: text export, titles alike", LINT, titles_alike, (5_000, 10_000, 20_000), "sections"),
    Case("lint: lazy lines under 95 quotes", LINT, lazy_lines_under_quotes, (25_000, 50_000, 100_000), "lines"),
    Case("lint: 20 directives around lines", LINT, directives_around_lines, (75_000, 150_000, 300_000), "lines"),
    Case("lint: a paragraph of lines", LINT, a_paragraph_of_lines, (75_000, 150_000, 300_000), "lines"),
    Case("build: one chapter of sections", SITE, sections_of_one_chapter, (2_000, 10_000, 20_000), "sections"),
    Case("build: one-line chapters", SITE, one_line_chapters, (1_000, 2_000, 4_000), "chapters"),
    Case("build: a translation's chapters", SITE, translated_chapters, (500, 1_000, 2_000), "chapters"),
    Case("lint: chained definitions", LINT, chained_definitions, (10_000, 20_000, 30_000), "definitions"),
    Case("rule data: chained definitions", DATA, chained_definitions, (10_000, 20_000, 30_000), "definitions"),
]


def export(revision: str, into: Path) -> Path:
    """The files of ``revision`` in ``into`` (``git archive``: the repository is only read)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


@dataclass(frozen=True)
class Run:
    """One command's CPU time (None: stopped at the limit), and whether it ended in an internal error."""

    seconds: float | None
    failed: bool = False


def run(code: Path, argv: list[str], folder: Path, limit: float) -> Run:
    """The command line of the revision in ``code`` run on ARGV in ``folder``, stopped after ``limit`` seconds."""
    path, module = runnable(code)
    environment = dict(os.environ, PYTHONPATH=path)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    try:
        command = [sys.executable, "-m", module, *argv]
        done = subprocess.run(command, cwd=folder, env=environment, capture_output=True, timeout=limit)
    except subprocess.TimeoutExpired:
        return Run(None)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Run(seconds, b"internal error" in done.stderr)


def shown(found: Run, limit: float) -> str:
    if found.seconds is None:
        return f"> {limit:.0f} s"
    return f"{found.seconds:.2f} s" + (" (internal error)" if found.failed else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help=f"the earlier revision (default: {BEFORE})")
    parser.add_argument("--limit", type=float, default=60.0, help="seconds after which a run is stopped")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--markdown", action="store_true", help="a table for docs/performance.md")
    parser.add_argument("--only", action="append", default=[], help="cases whose name holds this (repeatable)")
    args = parser.parse_args()
    cases = [c for c in CASES if not args.only or any(part in c.name for part in args.only)]
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        sides = {"before": export(args.before, work / "before"), "after": ROOT}
        turn = 0
        for case in cases:
            for size in case.sizes:
                inputs = work / "inputs" / f"{cases.index(case)}-{size}"
                inputs.mkdir(parents=True)
                for name, text in case.make(size).items():
                    (inputs / name).write_text(text, encoding="utf-8")
                times: dict[str, list[Run]] = {"before": [], "after": []}
                for _ in range(args.rounds):
                    order = ("before", "after") if turn % 2 == 0 else ("after", "before")
                    turn += 1
                    for side in order:
                        times[side].append(run(sides[side], case.argv, inputs, args.limit))
                median = {side: _median(found) for side, found in times.items()}
                rows.append(
                    (case.name, f"{size:,} {case.unit}", *(shown(median[s], args.limit) for s in ("before", "after")))
                )
                print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    print_rows(("input", "size", "before", "after"), rows, markdown=args.markdown)


def print_rows(header: tuple[str, ...], rows: list[tuple[str, ...]], *, markdown: bool) -> None:
    """The rows, as a Markdown table with its header (for docs/performance.md) or as plain columns."""
    if markdown:
        print(f"| {' | '.join(header)} |")
        print("|" + "---|" * len(header))
    for row in rows:
        print(f"| {' | '.join(row)} |" if markdown else "  ".join(row))


def _median(runs: list[Run]) -> Run:
    """The median run, a stopped one counting as longer than any other."""
    ordered = sorted(runs, key=lambda found: float("inf") if found.seconds is None else found.seconds)
    return ordered[len(ordered) // 2]


if __name__ == "__main__":
    main()
