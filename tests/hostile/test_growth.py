"""Hostile and large input against time: no source can make a command take quadratic time.

Each case is an input that took minutes (a report copying a long line per finding, an expression
scanning from each ``<`` of a run to the end of the text, sentences compared each with each) and
asserts the exact outcome, within a CPU-time limit about ten times what the input takes now: far
under what it took before, and loose enough for a loaded machine. Where the work can be counted
(sentences compared), the count is asserted instead.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections.abc import Iterator

import pytest

from compiler import markdown_source

from .scratch import run, source
from .scratch import scratch as scratch  # the fixture every case takes


@contextlib.contextmanager
def cpu_time_under(seconds: float) -> Iterator[None]:
    """Assert that the block takes less than ``seconds`` of this process's CPU time.

    CPU time, not wall-clock time: other processes on a shared machine do not count."""
    started = time.process_time()
    yield
    spent = time.process_time() - started
    assert spent < seconds, f"{spent:.1f} s of CPU time (limit {seconds} s)"


# -- reports -----------------------------------------------------------------------------------------


def test_a_report_of_many_findings_on_one_long_line_reads_only_their_windows(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    references = "".join(f'{"w" * 2000} <reference name="t{i}">x</reference>' for i in range(10_000))
    text = f'<document><chapter title="a" id="a">{references}</chapter></document>\n'
    source(scratch, "book.xml", text)
    with cpu_time_under(5):  # 20 MB on one line: 0.5 s; a copy of the line per finding took 25 s of CPU
        outcome = run(capsys, "lint")
    assert outcome.code == 1
    blocks = outcome.out.split("\n\n")
    assert len(blocks) == 10_001 and blocks[-1] == "Found 10000 errors in 1 file.\n"
    column = text.index('<reference name="t9999"') + 1
    assert blocks[9_999].splitlines() == [
        "error[RB101]: reference to undefined term `t9999`",
        f" --> book.xml:1:{column}",
        "  |",
        f'1 | …{"w" * 41} <reference name="t9999">x</reference></chapter></document>',
        f"  | {' ' * 60}^^^^^",
        '    = help: define it with `<definition name="t9999">`, or baseline it if its chapter is not written yet',
    ]


# -- readers -----------------------------------------------------------------------------------------


def test_a_markdown_run_of_200_kb_of_angle_brackets_is_text(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", "# 1 Rules\n\n" + "<" * 200_000 + "\n")
    with cpu_time_under(5):  # 0.4 s; 28 s when each `<` was a tag searched for to the end of the text
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")
        assert run(capsys, "build", "-q", "--data-only", "-o", "out").code == 0
    assert (scratch / "out" / "rules.json").is_file()


def test_a_heading_of_emphasis_marks_between_words_is_read_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", "# 1 Start" + " *" * 50_000 + " end\n\nText.\n")
    with cpu_time_under(5):  # 0.5 s; the marks, tried as the heading's trailing decoration from each one, 98 s
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")


@pytest.mark.parametrize("attributes", ["a" * 100_000, "a-" * 50_000], ids=["letters", "letters-and-hyphens"])
def test_an_annotation_of_one_100_kb_word_is_refused_quickly(capsys, scratch, attributes) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", f"# 1 Rules\n\nRoll <!-- rulebook: mechanic {attributes} --> here.\n")
    with cpu_time_under(5):  # 0.2 s; each letter tried as the start of a key took 31 s
        outcome = run(capsys, "lint")
    assert outcome.code == 1
    assert outcome.out.startswith("error[RB502]: mechanic ``: give `pass` (a test)")


def test_unclosed_annotations_are_text(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", "# 1 Rules\n\n" + "x <!-- rulebook: mechanic " * 8_000 + "\n")
    with cpu_time_under(5):  # 0.3 s; each opening searched for a close to the end of the text: 20 s
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")


def test_the_linear_expressions_give_the_answers_of_the_simple_ones() -> None:
    """The reader's expressions made linear match what the plain expressions matched, on every short text
    of the characters that matter (the plain ones are the specification)."""
    import itertools
    import random

    plain = {
        "decoration": re.compile(r"^[\s·•\-–*]+|[\s*]+$"),
        "attribute": re.compile(r'(?P<key>[a-z][a-z-]*)="(?P<value>[^"]*)"'),
        "tags": re.compile(r"<[^>]+>"),
        "mechanic": re.compile(r"<!--\s*rulebook:\s*mechanic\s+(?P<attributes>.*?)-->", re.DOTALL),
    }
    pieces = ["a", "-", "=", '"', " ", "*", "·", "<", ">", "A", "<!--", "-->", "rulebook:", "mechanic "]
    randomly = random.Random(11)
    every_short = ("".join(parts) for length in range(5) for parts in itertools.product(pieces, repeat=length))
    longer = ("".join(randomly.choices(pieces, k=randomly.randint(5, 16))) for _ in range(20_000))
    for text in itertools.chain(every_short, longer):
        assert plain["decoration"].sub("", text) == markdown_source._DECORATION.sub("", text), text
        assert _attributes(plain["attribute"], text) == _attributes(markdown_source._ATTRIBUTE, text), text
        assert plain["tags"].sub("", text) == markdown_source._removed(markdown_source._TAGS, text, ">")
        assert plain["mechanic"].sub("", text) == markdown_source._removed(markdown_source._MECHANIC, text, "-->")


def _attributes(pattern: re.Pattern[str], text: str) -> list[tuple[str, str]]:
    return [(m.group("key"), m.group("value")) for m in pattern.finditer(text)]
