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
from collections.abc import Callable, Iterator

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


# -- edition diffs -----------------------------------------------------------------------------------


def _sentences(count: int) -> list[str]:
    """Sentences that share no more words than an ordinary text's (``Rule 7 asks alpha7 bravo7 charlie7.``)."""
    return [f"Rule {i} asks alpha{i} bravo{i} charlie{i}." for i in range(count)]


def _markdown(sentences: list[str]) -> str:
    return "# 1 Rules\n\n" + " ".join(sentences) + "\n"


class _Counted:
    """The comparisons of two sentences: by difflib (``word_likeness``) and by the words they share (``_bound``)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        from compiler import text_diff

        self.calls = 0
        for name in ("word_likeness", "_bound"):
            monkeypatch.setattr(text_diff, name, self._counting(getattr(text_diff, name)))

    def _counting(self, compare: Callable[..., float]) -> Callable[..., float]:
        def counted(*sentences: object) -> float:
            self.calls += 1
            return compare(*sentences)

        return counted


def test_a_diff_of_5000_shuffled_sentences_reports_each_move_in_bounded_work(capsys, scratch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    import json
    import random

    sentences = _sentences(5_000)
    shuffled = sentences[:]
    random.Random(3).shuffle(shuffled)
    (scratch / "old.md").write_text(_markdown(sentences), encoding="utf-8")
    (scratch / "new.md").write_text(_markdown(shuffled), encoding="utf-8")
    counted = _Counted(monkeypatch)
    with cpu_time_under(15):  # 1.4 s; 55 s when every sentence was compared with every other
        outcome = run(capsys, "diff", "old.md", "new.md", "--format", "json")
    report = json.loads(outcome.out)
    moved = {d["message"].removeprefix('sentence moved: "')[:-1]: d for d in report["diagnostics"]}
    assert outcome.code == 0 and len(moved) == len(report["diagnostics"]) > 4_000
    assert all(d["message"].startswith("sentence moved: ") for d in moved.values())
    last = moved["Rule 4999 asks alpha4999 bravo4999 charlie4999."]
    assert (last["file"], last["line"], last["column"]) == ("new.md", 3, _markdown(shuffled).index("Rule 4999 ") - 10)
    assert (last["counterpart"]["file"], last["counterpart"]["column"]) == (
        "old.md",
        _markdown(sentences).index("Rule 4999 ") - 10,
    )
    # Those not reported stand in the same order in both: the longest such run, aligned as equal.
    unmoved = [s for s in shuffled if s not in moved]
    assert unmoved == sorted(unmoved, key=sentences.index) and len(unmoved) + len(moved) == 5_000
    assert report["summary"]["notes"] == [
        "`Rules`: more than 2,000 words lie between its first and last change: they are shown as one replacement",
        "`Rules`: it has more than 2,000 sentences: they were aligned on those found once in each edition",
        "`Rules`: its changed sentences are too many to compare each with each (past 3,000,000 word comparisons): "
        "the rest were paired with the next 20 by the words they share, and found moved only when unchanged",
    ]
    assert counted.calls <= 3_000_000 // 12  # the work allowed, in pairs of 6 words; each with each: 12 million


def test_a_diff_of_2000_renamed_terms_finds_each_in_bounded_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    import json
    import random

    randomly = random.Random(5)
    letters = "abcdefghijklmnopqrstuvwxyz"
    definitions = [" ".join("".join(randomly.choices(letters, k=6)) for _ in range(12)) for _ in range(2_000)]

    def book(prefix: str) -> str:
        terms = "".join(f'<definition name="{prefix}{i}">{text}</definition>\n' for i, text in enumerate(definitions))
        return f'<document><chapter title="Terms" id="terms">\n{terms}</chapter></document>\n'

    (scratch / "old.xml").write_text(book("old_"), encoding="utf-8")
    (scratch / "new.xml").write_text(book("new_"), encoding="utf-8")
    with cpu_time_under(10):  # 0.7 s; each removed definition compared with each added one: 160 s
        outcome = run(capsys, "diff", "old.xml", "new.xml", "--format", "json")
    report = json.loads(outcome.out)
    assert outcome.code == 0
    assert report["summary"]["by_rule"] == {"term-renamed": 2_000}
    assert {d["message"] for d in report["diagnostics"]} == {f"term `old_{i}` is now `new_{i}`" for i in range(2_000)}
    assert report["summary"]["notes"] == [
        "2000 terms removed and 2000 added are too many to compare each definition with each (past 20,000,000 "
        "character comparisons): the rest were found renamed only with the same text"
    ]


def test_a_word_beside_a_run_of_emphasis_marks_is_ruled_out_in_linear_time() -> None:
    from compiler.source_words import SourceWords

    marks = "*" * 100_000
    with cpu_time_under(5):  # 0.1 s; a run of marks matched as runs of runs, (?:\*+)+, took exponential time
        assert SourceWords(f"Roll a*{marks}x die.").find(["Roll", "a*", "die."], 0) is None
        assert SourceWords(f"Roll a*{marks} die.").find(["Roll", "a*", "die."], 0) == (0, len(marks) + 12)
