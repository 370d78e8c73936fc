"""Hostile and large input against time: no source can make a command take quadratic time.

Each case is an input that took minutes (a report copying a long line per finding, an expression
scanning from each ``<`` of a run to the end of the text, sentences compared each with each) and
asserts the exact outcome, within a CPU-time limit about ten times what the input takes now: far
under what it took before, and loose enough for a loaded machine. Where the work can be counted
(sentences compared), the count is asserted instead.
"""

from __future__ import annotations

import contextlib
import json
import re
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook import edition_findings, markdown_declarations, markdown_source, text_source
from rulebook.convert.markdown_writer import write_markdown
from rulebook.markdown_declarations import attributes

from .scratch import MARKDOWN_FORMATS, converted, markdown_book, run, source
from .scratch import scratch as scratch  # the fixture every case takes
from .test_report_files import BOOK

pytestmark = pytest.mark.slow  # each case runs a command on an input at its full size, seconds each


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
    column = text.index('"t9999"') + 2  # the header names the column the caret stands at: the name
    assert blocks[9_999].splitlines() == [
        "error[RB101]: reference to undefined term `t9999`",
        f" --> book.xml:1:{column}",
        "  |",
        f'1 | …{"w" * 41} <reference name="t9999">x</reference></chapter></document>',
        f"  | {' ' * 60}^^^^^",
        '    = help: define it with `<definition name="t9999">`, or baseline it if its chapter is not written yet',
    ]


# -- readers -----------------------------------------------------------------------------------------

MARKED = "\n\nSee [[rule]].\n\n::: definition rule\nA rule.\n:::\n"
"""A term the dialect's book marks, defined and referred to: a book in the dialect that marks none gets its headings'
terms, each a warning when never referred to, which would hide the outcome a case is about (plain Markdown, numbered
and not configured, gets none)."""


def growth_book(folder: Path, text: str, markdown: str) -> None:
    """A case's Markdown book in ``markdown``, the format its configuration names (in the dialect, :data:`MARKED`
    after its heading, the first line)."""
    heading, _, rest = text.partition("\n")
    markdown_book(folder, heading + MARKED + "\n" + rest if markdown == "markdown" else text, markdown)


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_markdown_run_of_200_kb_of_angle_brackets_is_text(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, "# 1 Rules\n\n" + "<" * 200_000 + "\n", markdown)
    with cpu_time_under(5):  # 0.4 s; 28 s when each `<` was a tag searched for to the end of the text
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")
        assert run(capsys, "build", "-q", "--data-only", "-o", "out").code == 0
    assert (scratch / "out" / "rules.json").is_file()


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_heading_of_emphasis_marks_between_words_is_read_in_linear_time(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, "# 1 Start" + " *" * 50_000 + " end\n\nText.\n", markdown)
    with cpu_time_under(5):  # 0.5 s; the marks, tried as the heading's trailing decoration from each one, 98 s
        outcome = run(capsys, "lint")
    # read whole, and then too long a title (RB306: past 300 characters, written into the navigation of pages)
    assert _only_too_large(outcome, "the title of chapter `")


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_thousands_of_headings_are_looked_for_in_the_text_in_linear_time(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    """A book that marks no term (plain Markdown, or the dialect without a definition) gets its terms from the
    headings the text says: each title was searched for through the whole text."""
    sections = "".join(f"## Section {i}\n\nText of part {i + 1}.\n\n" for i in range(5_000))
    dialect = "<!-- rulebook -->\n\n" if markdown == "markdown" else ""
    markdown_book(scratch, dialect + "# Rules\n\n" + sections, markdown)
    with cpu_time_under(10):  # 0.4 s; each title searched for through the whole text took 17 s (5,000 sections)
        outcome = run(capsys, "lint")
    # every heading read and looked for; then past a bound of the site's pages (RB306): one chapter of 5,001
    # sections, or (the dialect, whose single `#` heading is the book's title) 5,000 chapters, each a page
    assert (
        outcome == (0, "All checks passed (1 file).\n", "")
        or _only_too_large(outcome, "chapter `rules` holds 5,001")
        or _only_too_large(outcome, "the book holds 5,000 chapters")
    )


def test_thousands_of_terms_are_linked_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A book without markup whose 20,000 headings are each said once: each is a term, linked where it is said, by
    one pattern of every form tried at each place of the text (15 s of CPU)."""
    sections = "".join(f"## Word Title {i}\n\nWord title {i + 1} and word.\n\n" for i in range(20_000))
    markdown_book(scratch, "# Rules\n\n" + sections, "plain-markdown")
    with cpu_time_under(10):  # 2.5 s
        outcome = run(capsys, "lint", "-q")
    # one page past 2,000 sections, and a chain of 20,000 terms each using the next, whose lists of terms to read
    # first would take 47 MB of rule data (both RB306)
    assert _only_too_large(outcome, "chapter `rules` holds 20,001 sections", findings=2)
    assert (
        "error[RB306]: the terms to read before each of the book's 19,999 terms come to 47,161,791 bytes" in outcome.out
    )


@pytest.mark.parametrize("text", ["Text ?**? ", "Text ?<b>? ", "x \\<b>* "])
def test_a_paragraph_whose_read_text_holds_marks_its_source_does_not_is_placed_in_linear_time(  # type: ignore[no-untyped-def]
    capsys, scratch, text
) -> None:
    """Plain Markdown whose text, once its `**` and tags are taken out, holds a `??` or a `\\*` the source does not:
    each was looked for to the file's end (the thirty-ninth probe: 400 KB, 14-18 s)."""
    markdown_book(
        scratch, "<!-- rulebook -->\n\n# 1. Rules\n\n## 1.1 Basics\n\n" + text * 40_000 + "\n", "plain-markdown"
    )
    with cpu_time_under(6):  # about 1 s
        outcome = run(capsys, "lint", "-q")
    assert outcome.code == (0 if "\\" in text else 1) and "book.md:7:1" in outcome.out  # notes; a link to nothing


def test_paragraphs_opening_in_bold_are_linked_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Plain Markdown paragraphs, as a PDF's conversion writes them, each opening in bold and using a term: the
    text read has lost the `**`, and each paragraph was looked for to the file's end (the thirty-ninth probe: 1.1
    MB, 25 s)."""
    paragraphs = "".join(f"**B{i}** a fighter.\n\n" for i in range(40_000))
    markdown_book(
        scratch, "<!-- rulebook -->\n\n# Rules\n\n## Fighter\n\nA fighter fights.\n\n" + paragraphs, "plain-markdown"
    )
    with cpu_time_under(8):  # about 2.5 s; 16 s
        assert run(capsys, "lint", "-q") == (0, "All checks passed (1 file).\n", "")


def _only_too_large(outcome: Any, words: str, findings: int = 1) -> bool:
    """The lint's only findings: ``too-large`` (RB306), the first saying ``words``."""
    summary = "Found 1 error in 1 file.\n" if findings == 1 else f"Found {findings} errors in 1 file.\n"
    return outcome.code == 1 and outcome.out.startswith(f"error[RB306]: {words}") and outcome.out.endswith(summary)


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
@pytest.mark.parametrize("attributes", ["a" * 100_000, "a-" * 50_000], ids=["letters", "letters-and-hyphens"])
def test_an_annotation_of_one_100_kb_word_is_refused_quickly(capsys, scratch, attributes, markdown) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, f"# 1 Rules\n\nRoll <!-- rulebook: mechanic {attributes} --> here.\n", markdown)
    with cpu_time_under(5):  # 0.2 s; each letter tried as the start of a key took 31 s (62 s in the dialect)
        outcome = run(capsys, "lint")
    assert outcome.code == 1
    assert outcome.out.startswith("error[RB502]: mechanic ``: give `pass` (a test)")


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_unclosed_annotations_are_text(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, "# 1 Rules\n\n" + "x <!-- rulebook: mechanic " * 8_000 + "\n", markdown)
    with cpu_time_under(5):  # 0.3 s; each opening searched for a close to the end of the text: 20 s
        outcome = run(capsys, "lint")
    assert outcome.code == 1  # text, as in CommonMark: the first opening no `-->` closes, once, in either Markdown
    assert outcome.out.count("error[") == 1 and "`<!--` opens a comment that no `-->` closes" in outcome.out


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
@pytest.mark.parametrize("line", ["word", "word\\", "a [[rule]]"], ids=["soft-breaks", "hard-breaks", "references"])
def test_a_paragraph_of_many_lines_is_read_in_linear_time(capsys, scratch, line, markdown) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, "# 1 Rules\n\n" + f"{line}\n" * 60_000, markdown)
    with cpu_time_under(10):  # 1-2 s; each span's place sought from the paragraph's first line: 112 s for 80,000
        outcome = run(capsys, "lint")
    assert outcome.code == 0 and outcome.out == "All checks passed (1 file).\n"


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
@pytest.mark.parametrize("word", ["mechanic", "table"])
def test_a_comment_left_open_on_lines_of_its_own_is_read_in_linear_time(capsys, scratch, word, markdown) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, f"# 1 Rules\n\n<!-- rulebook: {word}" + " " * 100_000 + "\n", markdown)
    with cpu_time_under(5):  # 0.1 s; each space after the word tried before the end of the text: 44 s
        outcome = run(capsys, "lint")
    assert outcome.code == 1  # never closed: all after it hidden, said once where it opens
    assert outcome.out.count("error[") == 1 and "opens a comment that no `-->` closes: all that follows" in outcome.out


def test_a_dialect_line_of_unclosed_references_beside_a_bar_is_read_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A line with a ``|`` (it may be a table's row) has the bars of its references protected before markdown-it
    reads it: each ``[[`` was tried to the line's end, 43 s for 20,000; markdown-it's step budget comes after."""
    growth_book(scratch, "# 1 Rules\n\n|" + "[[a" * 100_000 + "\n", "markdown")
    with cpu_time_under(5):  # 0.3 s
        outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert outcome.out.startswith("error[RB005]: a bracket (`[`) is nested more than 100 deep\n  --> book.md:10:1\n")


def test_a_dialect_row_with_a_long_cell_past_its_header_is_reported_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A row's cells are read again where it has more than its header: each character copied the cell's columns
    so far (80 KB: 9 s)."""
    growth_book(scratch, "# 1 Rules\n\n| a | b |\n|---|---|\n| a | b | " + "x" * 400_000 + " |\n", "markdown")
    with cpu_time_under(5):  # 0.4 s
        outcome = run(capsys, "lint")
    assert outcome.code == 1
    assert outcome.out.startswith(
        f"error[RB002]: a row with more cells than its table's header: `{'x' * 60}` is not read\n  --> book.md:12:11\n"
    )


@pytest.mark.parametrize(
    "text",
    ["::: note Title" + " " * 400_000 + "end\n\nA note.\n\n:::\n", "## Rules" + " " * 400_000 + "end {#rules}\n"],
    ids=["a fence's title", "a heading"],
)
def test_a_run_of_spaces_in_a_title_is_read_in_linear_time(capsys, scratch, text) -> None:  # type: ignore[no-untyped-def]
    """A directive's title and a heading's attribute block were found by expressions that tried the spaces after
    each of the title's characters (a fence's) or of the run (a heading's): 80,000 spaces took 18 s and 13 s."""
    growth_book(scratch, "# 1 Rules\n\n" + text, "markdown")
    with cpu_time_under(5):  # 0.3 s
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")


def test_a_text_file_of_blank_lines_named_on_the_command_line_is_judged_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Whether a `.txt` file named on the command line is the text export: `(Rule)` and 100,000 blank lines took
    3.4 s (the line ends split between two parts of the expression every way), a megabyte minutes."""
    source(scratch, "book.md", "<!-- rulebook -->\n\n# Rules {#rules}\n\nText.\n")
    (scratch / "notes.txt").write_text("(Rule)" + "\n" * 1_000_000 + "x\n", encoding="utf-8")
    with cpu_time_under(5):  # 0.3 s
        outcome = run(capsys, "lint", "notes.txt")
    assert outcome.code == 2
    assert outcome.out.startswith("error[RB004]: `notes.txt` is not a rulebook source\n --> notes.txt:1:1\n")


def test_a_line_of_spaces_in_a_dialect_source_is_passed_over_in_linear_time_by_diff(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """`diff` finds each change's place in a dialect source with its tables' markup blanked: a line of spaces was
    split between two runs of the delimiter row's expression every way (40,000 spaces: 24 s)."""
    old = "<!-- rulebook -->\n\n# Rules {#rules}\n\nA fighter moves 6 inches.\n\n" + " " * 400_000 + "x\n"
    (scratch / "old.md").write_text(old, encoding="utf-8")
    (scratch / "new.md").write_text(old.replace("6 inches", "8 inches"), encoding="utf-8")
    with cpu_time_under(5):  # 0.4 s
        outcome = run(capsys, "diff", "old.md", "new.md")
    assert " --> new.md:5:1\n" in outcome.out, outcome.out


def test_the_dialects_linear_expressions_give_the_answers_of_the_simple_ones() -> None:
    """A fence's and a heading's expressions made linear read what the plain ones read; ``[[...]]`` on a line is
    what the wikilink rule reads there (:func:`markdown_syntax._closing_brackets`), from each ``[[`` not inside the
    last one: on every short text of the characters that matter, and longer random ones."""
    import itertools
    import random

    from rulebook.readers import formats, markdown, markdown_syntax

    opening = re.compile(r":{3,}[ \t]*(?P<name>[^\s:{][^\s{]*)[ \t]*(?P<argument>.*?)[ \t]*$")
    heading = re.compile(r"\s*\{(?P<attributes>[^{}]*)\}\s*$")
    text_export = re.compile(r"^\(Rule\)\s*\n+Description:", re.MULTILINE)
    table_markup = re.compile(
        r"^[ \t]*\|?[ \t]*:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*\|?[ \t]*$|(?<!\\)\|", re.MULTILINE
    )
    pieces = [":::", "a", " ", "\t", "{", "}", "[", "]", "\\", "|", "\f", "\n", "(Rule)", "Description:", "-", ":"]
    randomly = random.Random(17)
    every_short = ("".join(parts) for length in range(6) for parts in itertools.product(pieces, repeat=length))
    longer = ("".join(randomly.choices(pieces, k=randomly.randint(6, 20))) for _ in range(20_000))
    for text in itertools.chain(every_short, longer):
        plain, linear = opening.fullmatch(text), markdown_syntax._OPENING.fullmatch(text)
        assert (plain and (plain["name"], plain["argument"], plain.start("argument"))) == (
            linear and (linear["name"], linear["argument"], linear.start("argument"))
        ), text
        plain, linear = heading.search(text), markdown._HEADING_ATTRIBUTES.search(text)
        assert (plain and (plain["attributes"], text[: plain.start()].split())) == (
            linear and (linear["attributes"], text[: linear.start()].split())
        ), text
        plain, linear = text_export.search(text), formats._TEXT_EXPORT.search(text)
        assert (plain and plain.span()) == (linear and linear.span()), text
        assert table_markup.sub("#", text) == edition_findings._TABLE_MARKUP.sub("#", text), text
        line = text.replace("\n", "")
        assert [m.span() for m in markdown_syntax._WIKILINK_ON_LINE.finditer(line)] == _wikilinks(line), line


def _wikilinks(line: str) -> list[tuple[int, int]]:
    found, position = [], line.find("[[")
    while position >= 0:
        closing = _closing(line, position + 2)
        if closing is None:
            position = line.find("[[", position + 1)
        else:
            found.append((position, closing + 2))
            position = line.find("[[", closing + 2)
    return found


def _closing(line: str, position: int) -> int | None:
    from rulebook.readers.markdown_syntax import _closing_brackets

    return _closing_brackets(line, position, len(line))


def test_a_section_of_32000_subsections_is_converted_in_linear_time() -> None:
    """Each subsection looked through the rest of its section for text of the section's own (to write `---`
    back to it): 32,000 subsections of a text export took 40 s of CPU to convert, 0.9 s now."""
    heads = "".join(f"Head {i}\n\nSome text {i}.\n\n" for i in range(32_000))
    document = text_source.parse_text_export("Turns\n\n" + heads + "Head last\n").document
    assert document is not None
    with cpu_time_under(10):
        written = write_markdown(document)
    assert written.count("\n## Head ") == 32_001
    assert "\n---\n" not in written.split("<!-- rulebook -->")[1]  # no section has text after its subsections


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
        "shown as nothing": markdown_declarations.SHOWN_AS_NOTHING,
        "block": markdown_declarations._BLOCK,
    }
    pieces = ["a", "-", "=", '"', " ", "*", "·", "<", ">", "A", "<!--", "-->", "rulebook:", "mechanic ", "table", "\n"]
    randomly = random.Random(11)
    every_short = ("".join(parts) for length in range(5) for parts in itertools.product(pieces, repeat=length))
    longer = ("".join(randomly.choices(pieces, k=randomly.randint(5, 16))) for _ in range(20_000))
    for text in itertools.chain(every_short, longer):
        assert plain["decoration"].sub("", text) == markdown_source._DECORATION.sub("", text), text
        assert _attributes(plain["attribute"], text) == _attributes(markdown_declarations.ATTRIBUTE, text), text
        assert plain["tags"].sub("", text) == markdown_source._removed(markdown_source._TAGS, text, ">")
        assert plain["mechanic"].sub("", text) == markdown_source._removed(markdown_declarations.MECHANIC, text, "-->")
        shown = markdown_source._removed(markdown_declarations.SHOWN_AS_NOTHING, text, "-->")
        assert plain["shown as nothing"].sub("", text) == shown, text
        found = [m.span() for m in markdown_declarations.mechanics(text)]
        assert [m.span() for m in plain["mechanic"].finditer(text)] == found, text
        declared = plain["block"].match(text)
        expected = None if declared is None else (declared["element"], attributes(declared["attributes"]))
        assert expected == _declared(markdown_declarations.block(text, 0)), text


def _declared(block: markdown_declarations.Block | None) -> tuple[str, dict[str, str]] | None:
    return None if block is None else (block.element, block.attributes)


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
        from rulebook import text_diff

        self.calls = 0
        for name in ("word_likeness", "_bound"):
            monkeypatch.setattr(text_diff, name, self._counting(getattr(text_diff, name)))

    def _counting(self, compare: Callable[..., float]) -> Callable[..., float]:
        def counted(*sentences: object) -> float:
            self.calls += 1
            return compare(*sentences)

        return counted


def test_a_diff_of_5000_shuffled_sentences_reports_each_move_in_bounded_work(capsys, scratch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
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
    from rulebook.source_words import SourceWords

    marks = "*" * 100_000
    with cpu_time_under(5):  # 0.1 s; a run of marks matched as runs of runs, (?:\*+)+, took exponential time
        assert SourceWords(f"Roll a*{marks}x die.").find(["Roll", "a*", "die."], 0) is None
        assert SourceWords(f"Roll a*{marks} die.").find(["Roll", "a*", "die."], 0) == (0, len(marks) + 12)


# -- translations ------------------------------------------------------------------------------------

ENGLISH = '<document><chapter title="Rules" id="rules"><section title="Moving" id="moving">{}</section></chapter></document>\n'
ENGLISH_SENTENCE = "A unit may move up to 6 inches in the Movement Phase."
FRENCH_SENTENCE = "Une unité peut se déplacer de 6 pouces pendant la phase de mouvement."


def _compare(capsys: pytest.CaptureFixture[str], folder: Path, original: str, translation: str) -> dict[str, Any]:
    """``rulebook compare --format json`` of a one-section book and its translation, and its exit status."""
    (folder / "en.xml").write_text(ENGLISH.format(original), encoding="utf-8")
    (folder / "fr.md").write_text(f"# 1 Règles\n\n## 1.1 Mouvement\n\n{translation}\n", encoding="utf-8")
    outcome = run(capsys, "compare", "en.xml", "fr.md", "--language", "fr", "--format", "json")
    report: dict[str, Any] = json.loads(outcome.out)
    report["code"] = outcome.code
    return report


@pytest.mark.parametrize(
    ("written", "code", "kinds"),
    [
        ("1" * 100_000 + " q cm.", 0, {}),  # 120 s and more, and past 4,300 digits an internal error
        ("1x" * 50_000 + " q cm.", 1, {"numbers-differ": 1}),  # 65 s for half as many; then 10 s (below)
        ("<" * 200_000, 0, {}),  # 13 s for half as many
        ("fin." + " " * 100_000 + "suite", 0, {}),  # 40 s: the spaces after the stop read again for each one
        # 32 s: each brace searched for to the line's end; 25,000 found, the report lists 1,000 of one message
        ("\\ab{" * 25_000, 0, {"conversion-debris": 1_000}),
        # 10 s: comparisons searched for in the 40 characters before each value, the quotes before it counted
        ("“1” " * 25_000, 1, {"added-sentence": 1, "numbers-differ": 1}),
    ],
    ids=[
        "digits-before-a-unit",
        "dimensions-before-a-unit",
        "angle-brackets",
        "spaces-after-a-stop",
        "latex",
        "quoted-values",
    ],
)
def test_a_translated_sentence_of_100_000_characters_is_compared_in_linear_time(  # type: ignore[no-untyped-def]
    capsys, scratch, written, code, kinds
) -> None:
    with cpu_time_under(10):  # under a second each
        report = _compare(capsys, scratch, ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} {written}")
    assert (report["code"], report["summary"]["by_rule"]) == (code, kinds)


def test_a_section_translated_in_more_sentences_is_aligned_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    original = " ".join(f"Rule {i} moves alpha{i} units." for i in range(3_333))
    translation = " ".join(f"Règle {i} ?? bouge." for i in range(5_000))
    with cpu_time_under(30):  # 2.5 s; weighing each sentence against 1,700 of the other side: 40 s for half
        report = _compare(capsys, scratch, original, translation)
    assert report["code"] == 1
    # Every sentence past the original's 3,333 is one added: 1,667, of which the report lists 1,000 (one message a
    # file, as the lint's reports), the last saying how many more.
    assert report["summary"]["by_rule"] == {"added-sentence": 1000, "lost-reference": 1000, "numbers-differ": 3323}
    added = [d["message"] for d in report["diagnostics"] if d["rule"] == "added-sentence"]
    assert added[-1].endswith("(and 667 more like it after it in this file, not listed)"), added[-1]
    assert report["summary"]["notes"] == [
        "`Moving`: its 3,333 sentences and the translation's 5,000 are too many to weigh each against each (past "
        "40,000 places): they were aligned within 5 sentences of an even spread"
    ]


@pytest.mark.parametrize(("left", "right"), [(1, 21_000), (3, 35_000), (21_000, 1), (0, 20_001), (20_001, 0)])
def test_a_section_of_very_unequal_sentences_is_aligned_whole(left: int, right: int) -> None:
    """One original sentence against 21,000 translated: the narrowed band's diagonal leapt past its reach from one
    row to the next, no alignment joined the corners, and `status`, `compare` and the build failed ("internal error:
    KeyError", "the site generator misses a template"). The band always joins them, its places linear."""
    from rulebook.translate.sentence_align import Features, align_sentences, band

    original = [Features(length=15) for _ in range(left)]
    translation = [Features(length=5) for _ in range(right)]
    assert (left + 1) * 2 * band(left, right) <= 12 * (left + right) + 80_000  # places linear in the sentences
    beads = align_sentences(original, translation, 1.0)
    assert [i for bead in beads for i in bead.original] == list(range(left))
    assert [j for bead in beads for j in bead.translation] == list(range(right))


def test_a_lookup_error_of_the_build_is_never_told_as_a_missing_template(tmp_path: Path) -> None:
    """The aligner's KeyError stopped the build with "the site generator misses a template: (1, 21000)"."""
    from rulebook.publish import _plainly

    with pytest.raises(KeyError), _plainly(tmp_path):
        raise KeyError((1, 21_000))


def test_a_sentence_repeating_its_obligations_is_compared_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    original = "The unit " + "must move and may not " * 20_000 + "shoot."
    translation = "L'unité " + "peut bouger et ne doit pas " * 20_000 + "tirer."
    with cpu_time_under(15):  # 2 s; each "must" weighed against each « peut »: 180 s
        report = _compare(capsys, scratch, original, translation)
    assert report["summary"]["by_rule"] == {"obligation-differs": 1}


def test_titles_quoted_in_sentences_are_found_in_work_that_does_not_grow_with_the_titles() -> None:
    """Each sentence was searched with one pattern of every title with a number, compiled again for each: a
    comparison of 2,000 shuffled sections took 30 s, of 4,000 over 300 s (25 s now)."""
    from rulebook.languages.quantities import QuotedTitles, quantities

    titles = QuotedTitles.of(f"Section t{i}" for i in range(20_000))
    with cpu_time_under(5):  # 0.3 s
        found = [
            [
                q.shown
                for q in quantities(f"Unit {i} moves {i % 7 + 1} inches, as “Section t{i}” says.", "en", names=titles)
            ]
            for i in range(5_000)
        ]
    assert found[:2] == [["0", '1"'], ["1", '2"']]
    assert sum(map(len, found)) == 10_000  # the titles' numbers are never quantities


def test_quoted_titles_are_the_ones_the_pattern_of_every_title_found() -> None:
    import re

    from rulebook.languages.quantities import QuotedTitles

    names = ["Value of 0", "0-X Choice", "Rule 2", "Section 12", "no digit"]
    old = re.compile("|".join(re.escape(n) + r"[sx]?\b(?=\s?[»”\"’])" for n in names if any(map(str.isdigit, n))), re.I)
    texts = [
        "noted “Value of 0” and 3",
        "“value of 0s” twice",
        "a « 0-X choice » b",
        'Rule 2’ and “Rule 21” and Section 12"',
        "Section 12x” or Section 12 ” or Section 123”",
        "“Value of 0",
        "”",
        "no digit”",
    ]
    titles = QuotedTitles.of(names)
    for text in texts:
        assert list(titles.spans(text)) == [m.span() for m in old.finditer(text)], text


def test_slips_on_one_long_line_are_fingerprinted_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    slips = " ".join("de la \\ une" for _ in range(14_285))  # a backslash escaping nothing (``\\*`` escapes)
    with cpu_time_under(15):  # 1.3 s; the line read again and hashed for each slip: 11 s for half as many
        report = _compare(capsys, scratch, ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} {slips}")
    assert (report["code"], report["summary"]["by_rule"]) == (0, {"conversion-debris": 1_000})  # of 14,285
    fingerprints = {d["target"] for d in report["diagnostics"]}
    assert len(fingerprints) == 1_000  # each its own: the line and the slip hashed, then its rank
    assert report["diagnostics"][-1]["message"].endswith("(and 13,285 more like it after it in this file, not listed)")


def test_slips_on_a_line_another_finding_holds_too_are_fingerprinted_without_reading_it_again() -> None:
    """The texts a fingerprint hashes were known by their value: a line equal to another finding's (a doubled word's
    line, the sentence of an added-sentence) was hashed and compared whole for each slip on it (`la la ...`, 914 KB:
    150,000 findings, 27 s). Known by identity, a text is read once whatever the findings on it."""
    from rulebook.catalog.translation import ADDED_SENTENCE, DOUBLED_WORD
    from rulebook.translate.compare import fingerprinted
    from rulebook.translate.results import Finding

    class Counted(str):
        """A text that counts how often it is hashed or compared."""

        reads = 0

        def __hash__(self) -> int:
            Counted.reads += 1
            return super().__hash__()

        def __eq__(self, other: object) -> bool:
            Counted.reads += 1
            return super().__eq__(other)

    line = " ".join(["la"] * 100_000)
    sentence, slips_line = Counted(line), Counted(line)  # equal, two objects: the sentence's and the line's
    findings = [Finding(ADDED_SENTENCE, "added", None, evidence=(sentence,))]
    findings += [Finding(DOUBLED_WORD, "doubled", None, evidence=(slips_line, "la la")) for _ in range(5_000)]
    found = fingerprinted(findings)
    assert Counted.reads <= 2  # 10,000: the line hashed and compared once for each slip
    assert len({f.fingerprint for f in found}) == 5_001
    assert oldstyle_fingerprint(found[2]) == found[2].fingerprint  # the values waivers files hold, unchanged


def oldstyle_fingerprint(finding: Any) -> str:
    """A finding's fingerprint as a waivers file holds it, hashed whole (the second of its kind: rank 2)."""
    import hashlib

    parts = (finding.rule.name, "{}", *(" ".join(text.split()) for text in finding.evidence), "2")
    return hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]


def test_a_compare_report_lists_at_most_1_000_findings_of_one_message_in_a_file(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A paragraph of 300,000 words `la` (914 KB) listed its 150,000 doubled words: a 52 MB report. Bounded as the
    lint's reports are, the last listed says how many more there are."""
    report = _compare(capsys, scratch, ENGLISH_SENTENCE, f"{FRENCH_SENTENCE} " + " ".join(["la"] * 2_400) + ".")
    doubled = [d for d in report["diagnostics"] if d["rule"] == "doubled-word"]
    assert len(doubled) == 1_000
    assert doubled[-1]["message"] == "`la la` repeats a word (and 200 more like it after it in this file, not listed)"
    assert all(d["message"] == "`la la` repeats a word" for d in doubled[:-1])
    page = run(capsys, "compare", "en.xml", "fr.md", "--language", "fr", "--format", "html").out
    assert page.count("repeats a word") == 2 * 1_000  # the side-by-side report too: in its index and under its row
    assert page.count("(and 200 more like it after it in this file, not listed)") == 2


def test_the_translations_linear_expressions_give_the_answers_of_the_simple_ones() -> None:
    """Bounded runs and starts (30 digits, 8 dimensions, 200 characters before ``://``) and markup searched
    for only where it can end: the same answers as the plain expressions on every text within the bounds."""
    import itertools
    import random

    from rulebook.languages import detect, quantities
    from rulebook.languages.data import shipped
    from rulebook.languages.phrases import alternatives
    from rulebook.translate import debris, segments

    french = shipped("fr")
    reader = quantities._reader(french)
    old_metric = r"\d+(?:[.,]\s?\d+)?(?:\s?[x×]\s?\d+(?:[.,]\d+)?)*\s?(?:mm|cm|km|m)\b"
    old_address = r"\S+://\S+|\b[\w.-]+\.(?:com|org|net|fr|de|es|it|pl|nl|eu|html)\S*"
    old_digits = re.compile(
        "|".join(f"(?:{p})" for p in [*reader.not_quantities[:-2], old_address, old_metric]), re.IGNORECASE
    )
    words, by = alternatives(french.conversion_words), alternatives(french.by) + "|x"
    old_conversions = re.compile(
        rf"\(?(?:(?:{words})\s+){{0,3}}\d+(?:[.,]\s?\d+)?(?:\s?[x×]\s?\d+(?:[.,]\d+)?)*\s?(?:mm|cm|m|km)\b"
        rf"(?:\s*(?:{by})\s*\d+(?:[.,]\d+)?\s?(?:mm|cm|m|km)\b)?\)?",
        re.IGNORECASE,
    )
    old_start = re.compile(rf"(?:^|[.!?]\s+)[\s\-*·•]*([{debris._UPPER}]{debris._LETTER}+)")
    old_latex = re.compile(r"\$[^$\n]{1,120}\$|\\[a-zA-Z]{2,}(?:\{[^}\n]*\})?")
    end = segments._segmenter(french).end
    old_end = re.compile(end.pattern.replace(r"(?:\s++|\*++)", r"(?:\s+|\*+)"))
    assert old_end.pattern != end.pattern
    old_markup = re.compile(r"<!--.*?-->|<[^>]*>|&#?\w+;", re.DOTALL)
    old_language_markup = re.compile(r"<[^>]*>|&\w+;")
    digits = reader.digits
    pieces = ["1", "2", ",", ".", " ", "x", "×", "cm", "m", "soit ", "(", ")", "par ", "a", "://", ".com", "<", ">"]
    pieces += ["<!--", "-->", "&amp;", "-", "\\ab", "{", "}", "$", "A", "\n", "·", "«", "*", "!", '"']
    randomly = random.Random(13)
    every_short = ("".join(parts) for length in range(4) for parts in itertools.product(pieces, repeat=length))
    longer = ("".join(randomly.choices(pieces, k=randomly.randint(5, 20))) for _ in range(20_000))
    for text in itertools.chain(every_short, longer):
        assert digits.sub("_", text) == old_digits.sub("_", text), text
        assert quantities.conversions(french).sub("_", text) == old_conversions.sub("_", text), text
        assert segments.blank_markup(text) == old_markup.sub(lambda m: " " * len(m.group()), text), text
        assert detect.without_markup(text) == old_language_markup.sub(" ", text), text
        for new, old in ((debris._START, old_start), (debris._LATEX, old_latex), (end, old_end)):
            assert [(m.span(), m.groups()) for m in new.finditer(text)] == [
                (m.span(), m.groups()) for m in old.finditer(text)
            ], text


def test_values_left_over_cancel_across_beads_as_compared_bead_with_bead() -> None:
    import random
    from fractions import Fraction

    from rulebook.languages.quantities import Quantity
    from rulebook.translate.meaning import _cancel_reordered

    Items = list[list[tuple[int, Quantity]]]

    def cancelled_pair_by_pair(lefts: Items, rights: Items) -> None:
        """The specification: each bead's leftovers cancelled against every later bead's, bead by bead."""
        for index in range(len(lefts)):
            for other in range(index + 1, len(lefts)):
                for here, there in ((lefts[index], rights[other]), (rights[index], lefts[other])):
                    for item in list(here):
                        partner = next((o for o in there if o[1].value == item[1].value), None)
                        if partner is not None:
                            here.remove(item)
                            there.remove(partner)

    def side(count: int) -> list[tuple[int, Quantity]]:
        return [
            (n, Quantity(Fraction(randomly.randint(1, 3)), None, None, None, "digits", n, n + 1)) for n in range(count)
        ]

    randomly = random.Random(17)
    for _ in range(2_000):
        beads = randomly.randint(0, 7)
        lefts, rights = (
            [side(randomly.randint(0, 3)) for _ in range(beads)],
            [side(randomly.randint(0, 3)) for _ in range(beads)],
        )
        expected = ([list(items) for items in lefts], [list(items) for items in rights])
        cancelled_pair_by_pair(*expected)
        _cancel_reordered(lefts, rights)
        assert (lefts, rights) == expected


def test_the_sentence_next_to_a_bead_is_the_one_the_search_through_the_beads_found() -> None:
    import random

    from rulebook.source import SourceText
    from rulebook.translate.findings import Neighbours
    from rulebook.translate.results import AlignedText
    from rulebook.translate.segments import Sentence
    from rulebook.translate.sentence_align import Bead

    def nearby(text: AlignedText, bead: int, side: int) -> object:
        """The specification: the following bead with a sentence on that side, else the preceding one."""
        sentences = (text.original, text.translation)[side]
        for order in (range(bead + 1, len(text.beads)), range(bead - 1, -1, -1)):
            for other in order:
                indices = (text.beads[other].original, text.beads[other].translation)[side]
                if indices:
                    return sentences[indices[0] if order.step > 0 else indices[-1]].span
        return None

    source = SourceText.from_text("t.md", "\n".join(f"line {n}" for n in range(40)))
    randomly = random.Random(19)
    for _ in range(300):
        counts, beads = [0, 0], []
        for _ in range(randomly.randint(1, 9)):
            shape = [randomly.randint(0, 2), randomly.randint(0, 2)]
            beads.append(Bead(*(tuple(range(counts[s], counts[s] + shape[s])) for s in (0, 1)), 0.0))
            counts = [counts[0] + shape[0], counts[1] + shape[1]]
        sentences = [tuple(Sentence(f"s{n}", "prose", source, source.line_starts[n]) for n in range(c)) for c in counts]
        text = AlignedText(0, sentences[0], sentences[1], tuple(beads))
        neighbours = Neighbours(text)
        for bead in range(len(beads)):
            assert [neighbours.nearby(bead, side) for side in (0, 1)] == [nearby(text, bead, side) for side in (0, 1)]
        for number in range(counts[1] + 1):
            holding = next((i for i, b in enumerate(beads) if number in b.translation), None)
            expected = (
                None
                if holding is None
                else (
                    text.original[beads[holding].original[0]].span
                    if beads[holding].original
                    else nearby(text, holding, 0)
                )
            )
            assert neighbours.counterpart(number) == expected


def test_fingerprints_are_the_hash_of_the_rule_details_and_evidence() -> None:
    import hashlib

    from rulebook.recipe.reading import read_book
    from rulebook.translate.compare import compare_books

    root = Path(__file__).resolve().parents[2]
    original = read_book([root / "rulebook_src" / "en" / "rulebook.xml"], root).book
    translation = read_book([root / "rulebook_src" / "fr" / "rulebook.md"], root, language="fr").book
    findings = compare_books(original, translation).findings
    seen: dict[str, int] = {}
    for finding in findings:
        parts = [finding.rule.name, json.dumps(finding.details, sort_keys=True, ensure_ascii=False, default=str)]
        key = "\x1f".join(parts + [" ".join(text.split()) for text in finding.evidence])
        seen[key] = seen.get(key, 0) + 1
        key += f"\x1f{seen[key]}" if seen[key] > 1 else ""
        assert finding.fingerprint == hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]
    assert len(findings) > 40


def test_annotations_on_one_long_line_each_quote_their_own_stretch_of_it(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    from rulebook.engine.limits import MAX_CHAIN
    from rulebook.facts.kinds import PLACE_REACH

    definitions = "".join(
        f'<definition name="t{i}">Roll a D6 against power.<mechanic name="t{i}" roll="D6" pass="at-least" '
        'against="power"/></definition>'
        for i in range(4_000)
    )
    source(scratch, "book.xml", f'<document><chapter title="a" id="a">{definitions}</chapter></document>\n')
    with cpu_time_under(20):  # 2 s; each quoting the whole 500 KB line made 1 GB of rule data
        assert run(capsys, "build", "-q", "--data-only", "-o", "out").code == 0
    rules = scratch / "out" / "rules.json"
    assert rules.stat().st_size < 4_000 * (2 * PLACE_REACH + 1_000)
    rolls = json.loads(rules.read_text(encoding="utf-8"))["mechanics"]["rolls"]
    places = [rolls[f"t{i}"]["place"] for i in range(len(rolls))]
    # The engine's chain takes 10 rolls: those past it are the lint's RB502, and left out of the data.
    assert len(places) == MAX_CHAIN and all(len(place["text"]) <= 2 * PLACE_REACH for place in places)
    assert all(
        f'<definition name="t{i}">Roll a D6 against power.</definition>' in p["text"] for i, p in enumerate(places)
    )


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_annotations_in_one_paragraph_are_each_looked_for_after_the_one_before(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    annotations = [f'<!-- rulebook: mechanic name="t{i % 20_000}" roll="D6" --> ' for i in range(40_000)]
    text = "# 1 Rules\n\n" + "Roll " + "Roll ".join(annotations) + "\n"
    growth_book(scratch, text, markdown)
    with cpu_time_under(15):  # 2 s; each looked for from the paragraph's start: 17 s
        outcome = run(capsys, "lint", "--format", "json")
    diagnostics = json.loads(outcome.out)["diagnostics"]
    assert outcome.code == 1 and len(diagnostics) == 40_000
    # Each where it stands, the second of two identical annotations too (it was placed on the first).
    starts = [i for i in range(len(text)) if text.startswith("<!-- rulebook", i)]
    assert [d["column"] for d in diagnostics] == [start - len("# 1 Rules\n\n") + 1 for start in starts]


def test_a_sentence_of_20_000_values_is_shown_a_window_around_each_number() -> None:
    """The quick reference shows each value in its sentence: one sentence stating 20,000 values (570 KB) was copied
    whole for each, an 800 MB page and an 800 MB search index, 10 GB of memory and 210 s for the build; each
    value now shows at most 200 characters on either side, cut at a space, and only that window is read."""
    from rulebook.model import Book
    from rulebook.readers.markdown import parse_dialect
    from rulebook.site.value_words import SHOWN, value_sentences

    values = " ".join(f"[{i % 9 + 1}]{{value=v{i} kind=count}}" for i in range(20_000))
    text = f"# Numbers {{#numbers}}\n\nA crew has [6]{{value=crew kind=count}} fighters.\n\nThe numbers {values} end.\n"
    book = Book((parse_dialect(text, "book.md").document,))  # type: ignore[arg-type]
    with cpu_time_under(5):  # 0.3 s; each value's sentence copied and searched whole took minutes
        said = value_sentences(book)
    assert said["crew"] == ("A crew has ", "6", " fighters.")  # a short sentence is shown whole, as before
    assert said["v0"] == ("The numbers ", "1", " " + " ".join(str(i % 9 + 1) for i in range(1, 100)) + " …")
    before, number, after = said["v10000"]
    assert (before, number, after) == ("… " + " ".join(str(i % 9 + 1) for i in range(9_901, 10_000)) + " ", "2", after)
    assert after == " " + " ".join(str(i % 9 + 1) for i in range(10_001, 10_100)) + " …"
    assert said["v19999"][2] == " end."
    assert all(len(part) <= SHOWN + 2 for before, _, after in said.values() for part in (before, after))


# -- conversions -------------------------------------------------------------------------------------


def test_a_thousand_suppressions_on_one_line_are_carried_both_ways_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Each suppression on a line covers the line, so it hides every finding there: tying each to the node of each
    finding it hides took three nested passes over the line (200 on one line 4.2 s of CPU, 1,000 over 120 s)."""
    references = " ".join("[[chargf]]<!-- rulebook: ignore RB101 -->" for _ in range(2_000))
    source(scratch, "book.md", f"# Ch {{#ch}}\n\n::: definition charge\n\nA [[charge]] moves.\n\n:::\n\n{references}\n")
    with cpu_time_under(10):  # 0.4 s each way
        assert run(capsys, "convert", "book.md", "-o", "book.xml") == (0, "Wrote book.xml (xml).\n", "")
        assert run(capsys, "convert", "book.xml", "-o", "back.md") == (0, "Wrote back.md (markdown).\n", "")
    xml = (scratch / "book.xml").read_text(encoding="utf-8")
    assert xml.count('<reference name="chargf">') == 2_000
    assert xml.count("<!-- rulebook: ignore RB101 -->") == 2_000
    back = (scratch / "back.md").read_text(encoding="utf-8")
    assert back.count("[[chargf]]") == back.count("<!-- rulebook: ignore RB101 -->") == 2_000
    for name in ("book.xml", "back.md"):  # every finding stays hidden in the converted files
        assert run(capsys, "lint", name).code == 0


def test_an_attribute_block_of_thousands_of_unknown_keys_is_read_once(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Each unknown key was searched for from the block to its line's end: 10,000 keys took 7.9 s of CPU."""
    keys = " ".join(f"k{i}=v" for i in range(10_000))
    source(scratch, "book.md", f"# Ch {{#ch}}\n\n::: definition a\n\nAn [[a]] of [b]{{{keys}}}.\n\n:::\n\nAn [[a]].\n")
    with cpu_time_under(5):  # 0.7 s
        outcome = run(capsys, "lint")
    assert outcome.code == 1
    assert outcome.out.endswith("Found 10000 errors in 1 file.\n")
    columns = [int(found) for found in re.findall(r"--> book\.md:5:(\d+)", outcome.out)]
    line = f"An [[a]] of [b]{{{keys}}}."
    assert columns == [found.start(1) + 1 for found in re.finditer(r"[{ ](k\d+)=", line)]  # each at its key


def test_attribute_blocks_in_one_paragraph_are_each_read_as_far_as_they_go(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """The attributes plugin's spans, and the references, gave its parser the rest of the paragraph for each block,
    which it copied and searched for a `%`: 100,000 `[[a]]{type=example}` in one paragraph took 7.7 s to parse."""
    line = "[[a]]{type=example} [6]{value=v}{kind=count} " * 50_000
    source(scratch, "book.md", f"# Ch {{#ch}}\n\n::: definition a\n\nAn [[a]].\n\n:::\n\n{line}\n")
    with cpu_time_under(12):  # 4.7 s; 16.5 s before
        outcome = run(capsys, "lint")
    assert outcome.code == 1  # `v` named 50,000 times
    assert "unknown" not in outcome.out and "RB002" not in outcome.out


@pytest.mark.parametrize(
    "text",
    [
        "{a=1 b=2} rest",
        '{title="a } b" c=d} }',
        "{%a comment } still% x=1}",
        "{%open comment } ends here",
        "{%open comment } and % later}",
        "{" + "k=v " * 100 + "} and more",
        "{" + "k=v " * 100,
        '{x="' + "y" * 300 + '"}',
        "{.a .b #c %x%} %",
        "{bad!} x",
        "{a=1} " + "%" * 3,
    ],
)
def test_an_attribute_block_read_as_far_as_it_goes_is_the_plugins_reading_of_the_rest(text: str) -> None:
    from mdit_py_plugins.attrs.parse import ParseError
    from mdit_py_plugins.attrs.parse import parse as parse_attributes

    from rulebook.readers.markdown_syntax import read_attributes

    src = "[[x]]" + text + " " * 500 + "tail"
    for end in (len(src), len(src) - 4):
        try:
            expected: object = parse_attributes(src[5:end])
        except ParseError as error:
            expected = ("error", str(error))
        try:
            found: object = read_attributes(src, 5, end)
        except ParseError as error:
            found = ("error", str(error))
        assert found == expected


def _compare_terms(capsys: pytest.CaptureFixture[str], folder: Path, count: int, said: str, entry: str) -> Any:
    """``compare --format json`` of ``count`` definitions, a translation of ``count`` sentences ending in ``said``, and a
    terminology giving each term ``entry`` too, within 20 s of CPU: the report."""
    definitions = "".join(f"::: definition t{i}\n\nThe [[t{i}]] rule {i}.\n\n:::\n\n" for i in range(count))
    source(folder, "book.md", f"# Ch {{#ch}}\n\n{definitions}")
    sentences = "".join(f"La règle {i} du {said.format(i)}.\n\n" for i in range(count))
    (folder / "fr.md").write_text(f"# Ch\n\n{sentences}", encoding="utf-8")
    entries = "".join(f'[t{i}]\npreferred = "terme {i}"\n{entry}\n' for i in range(count))
    (folder / "terms.toml").write_text(entries, encoding="utf-8")
    with cpu_time_under(20):  # 1.3 s, 0.6 s
        outcome = run(
            capsys, "compare", "--language", "fr", "--terms", "terms.toml", "book.md", "fr.md", "--format", "json"
        )
    return json.loads(outcome.out)


def test_a_form_many_terms_forbid_is_reported_once_for_each_use(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A form was looked for once for each term forbidding it, and each use found named the first of them: 250
    terms forbidding one word, used in 250 sentences, made 187,500 findings (12 s, 640 MB; 500 terms 47 s, 2.4 GB)."""
    report = _compare_terms(capsys, scratch, 300, "mot mot {}", 'forbidden = ["mot mot"]')
    findings = [d for d in report["diagnostics"] if d["rule"] == "term-forbidden"]
    assert len(findings) == 300  # once for each use
    assert {d["message"] for d in findings} == {"`T0` is written « mot mot », which the terminology forbids"}


def test_a_rendering_many_terms_accept_names_none_of_them_and_says_so(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Every sentence writing a rendering 1,000 terms accepted rendered all 1,000 (terms times sentences: 4.5 s, 325
    MB; 2,000 15 s, 1.3 GB); a rendering more than eight terms share is now matched for none, with a note."""
    report = _compare_terms(capsys, scratch, 300, "mot mot mot", 'accepted = ["mot mot mot"]')
    assert report["summary"]["notes"] == [
        "« mot mot mot » renders 300 terms of the terminology (more than 8): it names none of them, and is not "
        "matched as a term"
    ]


def test_a_rendering_is_filed_once_with_the_terms_it_renders() -> None:
    """The matcher looks for each rendering once, whoever accepts it; a few terms sharing one all render it."""
    from rulebook.translate.terminology import SHARED_RENDERING, Entry, TermMatcher

    few = {f"t{i}": Entry(f"t{i}", f"terme {i}", ("mot commun",)) for i in range(SHARED_RENDERING)}
    matcher = TermMatcher(few)
    assert matcher.forms["mot"] == [(("mot", "commun"), tuple(sorted(few)))]
    assert matcher.terms("Un mot commun.") == frozenset(few)
    many = {f"t{i}": Entry(f"t{i}", f"terme {i}", ("mot commun",)) for i in range(SHARED_RENDERING + 1)}
    matcher = TermMatcher(many)
    assert "mot" not in matcher.forms
    assert matcher.shared == {"mot commun": SHARED_RENDERING + 1}
    assert matcher.terms("Un mot commun, terme 3.") == frozenset({"t3"})


def test_the_terms_of_a_rolls_target_and_an_svgs_paint_references_are_found_in_linear_time() -> None:
    """Two expressions with two runs of spaces around an optional sign or quote: the terms of what a roll is against
    (`findall` from each space of a run tried it to its end: 20,000 spaces, 13 s) and an SVG's `url( ... #id)`
    (a run of 200,000 spaces in an attribute, 57 s); one run each now, the same answers."""
    import itertools
    import random

    from rulebook.engine import profile
    from rulebook.svg_geometry import PAINT_REFERENCE

    token = re.compile(r"\s*([-+])?\s*([a-z0-9_]+)")
    paint = re.compile(r"url\(\s*['\"]?\s*#([^)'\"\s]+)")
    pieces = ["a", "1", " ", "-", "+", "\t", "!", "url(", "#", "'", '"', ")"]
    randomly = random.Random(3)
    every_short = ("".join(parts) for length in range(6) for parts in itertools.product(pieces, repeat=length))
    longer = ("".join(randomly.choices(pieces, k=randomly.randint(6, 20))) for _ in range(20_000))
    for text in itertools.chain(every_short, longer):
        assert token.findall(text) == profile._TOKEN.findall(text), text
        assert paint.findall(text) == PAINT_REFERENCE.findall(text), text
    with cpu_time_under(2):  # milliseconds
        assert profile._TOKEN.findall(" " * 1_000_000 + "!") == []
        assert PAINT_REFERENCE.findall("url(" + " " * 1_000_000 + "x") == []


@pytest.mark.parametrize(
    ("read", "heading"),
    [
        (
            lambda text: text_source.parse_text_export("Rules\n\n(Rule)\nDescription: x.\n\n" + text),
            "Same\n\nText.\n\n",
        ),
        (lambda text: markdown_source.parse_markdown_string("# Book\n\n## Rules\n\n" + text), "### Same\n\nText.\n\n"),
    ],
    ids=["text export", "plain Markdown"],
)
def test_a_title_repeated_20000_times_is_given_its_ids_in_linear_time(read: Callable[[str], Any], heading: str) -> None:
    """Each repeated title's id was counted up from ``same-2`` past every id given before it: 20,000 sections titled
    alike took 48 s to read in the text export (plain Markdown 11 s for 10,000), 0.7 s now."""
    with cpu_time_under(8):
        document = read(heading * 20_000).document
    ids = [section.id for section in document.sections if section.title == "Same"]
    assert ids == ["same", *(f"same-{n}" for n in range(2, 20_001))]


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_lines_under_quotes_nested_deep_are_refused_before_markdown_it_reads_them_again_and_again(  # type: ignore[no-untyped-def]
    capsys, scratch, markdown
) -> None:
    """markdown-it reads a quote's lines once for each quote it is in, lazy lines too: 95 quotes nested on one line
    and 50,000 lines of one letter under them (100 KB) took 6.4 s, 2 MB about two minutes, with "All checks
    passed" in plain Markdown."""
    growth_book(scratch, "# 1 Rules\n\n" + "> " * 95 + "x\n" + "y\n" * 50_000, markdown)
    with cpu_time_under(3):
        outcome = run(capsys, "lint", "--color", "never")
    assert outcome.code == 2
    said = re.search(
        r"error\[RB003\]: a Markdown source of [\d,]+ lines may be read at most 3 times a line as "
        r"the quotes \(`>`\) around it; by this line, its quotes have made it read more\n +--> book.md:(\d+):1",
        outcome.out,
    )
    assert said is not None and int(said.group(1)) < 3_000, outcome.out[:400]  # at the line past the reads allowed


@pytest.mark.parametrize(
    ("opening", "line"),
    [
        pytest.param(">\t" * 95 + "x\n", "y\n", id="a tab after each >"),
        pytest.param("- > " * 47 + "x\n", "y\n", id="quotes in list items"),
        pytest.param("> " * 95 + "x\n", "> y\n", id="lines under one > going on with the deepest"),
    ],
)
@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_lines_under_quotes_however_written_count_every_quote(
    capsys, scratch, markdown, opening: str, line: str
) -> None:  # type: ignore[no-untyped-def]
    """The refusal above counted a line's ``>`` only when spaces parted them, and took a line of fewer ``>`` as that
    deep: a tab after each, a list item around each, or ``> y`` lines under 95 quotes, 50,000 lines (100 to 200
    KB), took 27, 7 and 33 s, unrefused."""
    growth_book(scratch, "# 1 Rules\n\n" + opening + line * 50_000, markdown)
    with cpu_time_under(3):
        outcome = run(capsys, "lint", "--color", "never")
    assert outcome.code == 2
    assert re.search(r"error\[RB003\]: a Markdown source of [\d,]+ lines may be read at most 3 times", outcome.out)


@pytest.mark.parametrize("written", ["\\{.a\\}", "&#123;.a}"], ids=["escaped", "a character reference"])
def test_attribute_blocks_written_as_text_are_passed_over_in_linear_time(capsys, scratch, written: str) -> None:  # type: ignore[no-untyped-def]
    """An attribute block written so that it is text is not in the source as markdown-it gives it: the search for
    where it stands, to report it if it follows nothing, went to the paragraph's end for each, 40,000 on a line
    (360 and 480 KB) 24 s and 34 s with "All checks passed"; 0.7 s now."""
    growth_book(scratch, "# 1 Rules\n\n" + f"x {written} " * 40_000 + "\n", "markdown")
    with cpu_time_under(6):
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")


def test_directives_nested_around_many_lines_find_their_ends_in_one_scan(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Each directive read its content again to its end: 99 nested around 100,000 lines (300 KB) took 9 s; and the
    paragraph's text, its words and line ends, was joined into one string grown by each part, copied each time
    (300,000 lines: 130 s)."""
    opened = "".join(f"::: note N{n}\n\n" for n in range(20))
    growth_book(scratch, "# 1 Rules\n\n" + opened + "words of the rules\n" * 300_000 + "\n:::\n" * 20, "markdown")
    with cpu_time_under(10):  # 2.5 s; 20 levels each reading the 300,000 lines: 12 s
        outcome = run(capsys, "lint", "--color", "never")
    assert outcome.out.startswith("error[RB002]: a note is not allowed inside a note\n"), outcome.out[:300]


def test_a_dialect_paragraph_of_300_000_lines_is_joined_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, "# 1 Rules\n\n" + "words of the rules\n" * 300_000, "markdown")
    with cpu_time_under(10):  # 2 s; its text grown by each word and line end, copied each time: 130 s
        assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")


@pytest.mark.parametrize(
    ("written", "count", "said"),
    [
        ('<chapter id="c" title="C"/>\n', 10_000, "`<chapter>` is not allowed inside `<section>`"),
        ("<zz/>", 1_000, "unknown element `<zz>`"),
    ],
    ids=["misplaced-children", "unknown-elements-on-a-line"],
)
def test_thousands_of_xml_findings_in_one_element_are_placed_in_linear_time(
    capsys, scratch, written, count, said
) -> None:  # type: ignore[no-untyped-def]
    """10,000 chapters inside a section took 88 s (each finding read every child of the section again), and 10,000
    unknown elements on a line 19 s, 20,000 104 s (each finding filtered every element of that tag on the line, and
    indexed the format's element names anew for its suggestion)."""
    opening = '<section id="marching" title="Marching">'
    source(scratch, "book.xml", BOOK.replace(opening, opening + written * count))
    started = time.perf_counter()  # wall time: the lint reads the book in a worker process, whose CPU is not ours
    outcome = run(capsys, "lint", "--format", "json")
    assert time.perf_counter() - started < 15  # 1 s and 3 s now; 57 s (88 s from the shell) and 104 s before
    from rulebook.diagnostics import SAME_SHOWN

    found = [d for d in json.loads(outcome.out)["diagnostics"] if d["message"].startswith(said)]
    assert outcome.code == 1 and len(found) == min(count, SAME_SHOWN)  # a report lists a message 1,000 times
    places = [(d["line"], d["column"]) for d in found]
    assert places == sorted(set(places))  # each at its own element, in order


@pytest.mark.parametrize("written", ["<zz/>\n", '<zz a="b"/>', '<chapter id="c" title="C" zz="1"/>'])
def test_more_unknown_elements_and_attributes_than_are_reported_one_by_one_are_one_finding(
    capsys, scratch, written
) -> None:  # type: ignore[no-untyped-def]
    """libxml2's validation grows faster than its errors: 40,000 unknown elements, one a line, took 32 s, 40,000
    unknown attributes 19 s (the thirteenth probe). Past 1,000 the document is not validated: one finding names the
    first, where it stands."""
    opening = '<section id="marching" title="Marching">'
    source(scratch, "book.xml", BOOK.replace(opening, opening + written * 40_000))
    started = time.perf_counter()
    outcome = run(capsys, "lint", "--format", "json")
    assert time.perf_counter() - started < 15  # 0.5 s now
    found = json.loads(outcome.out)["diagnostics"]
    first = "`zz` on `<chapter>`" if "chapter" in written else "`<zz>`"
    assert [d["message"] for d in found if "does not know" in d["message"]] == [
        f"more than 1,000 elements and attributes the format does not know (the first: {first}): the rest of its "
        "structure is not checked"
    ]
    assert outcome.code == 1


def test_a_translation_begun_of_a_book_of_thousands_of_sections_is_compared_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Each section on one side only counted the others inside it by rebuilding a table of them all for each pair:
    800 sections and one translated took 35 s to compare (17 s of CPU), the build and ``status`` as long."""
    sections = "".join(
        f'<section id="s{i}" title="Rule {i}">Rule {i} holds.<section id="s{i}x" title="Rule {i} aside">'
        f"The aside of rule {i}.</section></section>"
        for i in range(2_000)
    )
    intro = '<section id="intro" title="Introduction">Fighters roll dice to strike.</section>'
    (scratch / "en.xml").write_text(
        f'<document><chapter id="basics" title="Basics">{intro}{sections}</chapter></document>', encoding="utf-8"
    )
    translation = "---\ntitle: Livre\n---\n\n# Bases\n\n## Introduction\n\nLes combattants lancent les dés.\n"
    (scratch / "fr.md").write_text(translation, encoding="utf-8")
    with cpu_time_under(20):  # 1.5 s
        outcome = run(capsys, "compare", "en.xml", "fr.md", "--language", "fr", "--format", "json")
    report = json.loads(outcome.out)
    missing = [d["message"] for d in report["diagnostics"] if d["rule"] == "missing-section"]
    assert sorted(missing) == sorted(f"`Rule {i}` is not translated (nor its 1 subsection)" for i in range(2_000))


def test_the_values_two_sentences_share_are_counted_from_the_shorter() -> None:
    """A sentence of 8,000 values was walked whole against every sentence it was weighed with (20 s for 320 KB,
    quadratic): each value of the shorter side is looked up in the longer, the same count as the walk."""
    import random

    from rulebook.translate.sentence_align import _common

    def walked(left: tuple[str, ...], right: tuple[str, ...]) -> int:
        i = j = found = 0
        while i < len(left) and j < len(right):
            if left[i] == right[j]:
                found, i, j = found + 1, i + 1, j + 1
            elif left[i] < right[j]:
                i += 1
            else:
                j += 1
        return found

    pick = random.Random(7)
    for _ in range(500):
        left = tuple(sorted(str(pick.randrange(12)) for _ in range(pick.randrange(8))))
        right = tuple(sorted(str(pick.randrange(12)) for _ in range(pick.randrange(30))))
        assert _common(left, right) == _common(right, left) == walked(left, right), (left, right)


# -- comments left open -------------------------------------------------------------------------------------------

OPEN_SUPPRESSIONS = "<!-- rulebook: ignore x\n" * 8_000
"""8,000 suppressions no ``-->`` closes (text in a code block or a CDATA section): each was searched for from its
``<!--`` to the end of the source, 21 s for the lint (25 s in XML, 424 s at 32,000)."""


def test_comments_left_open_in_an_xml_cdata_section_are_looked_for_in_linear_time(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(
        scratch,
        "book.xml",
        BOOK.replace('<reference name="charge">', f'<![CDATA[{OPEN_SUPPRESSIONS}]]><reference name="charge">'),
    )
    with cpu_time_under(5):  # 0.5 s
        outcome = run(capsys, "lint")
        assert run(capsys, "convert", "book.xml", "--to", "markdown", "-o", "book.md").code == 0
    assert outcome.code == 1 and outcome.out.count("error[") == 1 and "`charge`" in outcome.out


@pytest.mark.parametrize("opener", ["<!-- rulebook: ignore x", "<!-- x"])
def test_comments_left_open_in_a_code_block_are_looked_for_in_linear_time(capsys, scratch, opener) -> None:  # type: ignore[no-untyped-def]
    growth_book(scratch, "# 1 Rules\n\n```text\n" + f"{opener}\n" * 32_000 + "```\n", "markdown")
    with cpu_time_under(5):  # 0.5 s; 25 s for `convert` at 32,000 (each comment's end sought to the end)
        linted = run(capsys, "lint")
        written = converted(capsys, scratch, "book.md", "book.xml")
    assert linted.code == 1 and linted.out.count("error[") == 1 and "a code block is not part of" in linted.out
    assert '<definition name="rule">A rule.</definition>' in written and "<!--" not in written


def test_the_aligners_work_at_a_place_is_bounded_whatever_the_values_of_its_sentences(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The places a pair of sections weighs are bounded (`ALIGNED_PLACES`), the work at each was not: sentences of
    100 values each, 200 against 400, took 14 s (200 values, 28 s). Each place weighs at most `MOST_WEIGHED`
    values and cognates of each sentence: the values walked are the same whether sentences hold 40 or 400."""
    from rulebook.translate import sentence_align
    from rulebook.translate.sentence_align import Features, align_sentences

    walked = [0]
    common = sentence_align._common

    def counted(left, right):  # type: ignore[no-untyped-def]
        walked[0] += min(len(left), len(right))
        return common(left, right)

    monkeypatch.setattr(sentence_align, "_common", counted)

    def sentences(count: int, values: int, step: int) -> list[Features]:
        return [
            Features(80, tuple(sorted(str(i // step * values + v) for v in range(values))), cognates=frozenset("ab"))
            for i in range(count)
        ]

    work = {}
    for values in (40, 400):
        walked[0] = 0
        beads = align_sentences(sentences(40, values, 1), sentences(80, values, 2), 1.0)
        assert sum(len(bead.original) for bead in beads) == 40 and sum(len(bead.translation) for bead in beads) == 80
        work[values] = walked[0]
    assert work[400] == work[40], work


def test_an_editions_diff_is_bounded_across_its_sections(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Each section had its own budget, and difflib's matching of its words and sentences was counted in none:
    twenty sections of 1,000 sentences of two repeated words (241 KB) took 14 s, sixty 37 s. The edition has one
    budget, which difflib's matching is counted in (bound here at 200,000 for the test): past it, the rest is
    compared the linear ways, and said so."""
    import random

    from rulebook import text_diff
    from rulebook.diff import diff_books
    from rulebook.markdown_source import parse_markdown_string
    from rulebook.model import Book

    monkeypatch.setattr(text_diff, "EDITION_WORK", 200_000)
    afforded = [0]
    take = text_diff.Budget.spend_on_matching

    def counted(self, work):  # type: ignore[no-untyped-def]
        done = take(self, work)
        afforded[0] += work if done else 0
        return done

    monkeypatch.setattr(text_diff.Budget, "spend_on_matching", counted)

    def edition(sections: int, seed: int) -> Book:
        rolled = random.Random(seed)
        body = "".join(
            f"## Section {s} {{#s{s}}}\n\n" + " ".join(rolled.choice(["Aa bb.", "Bb aa."]) for _ in range(300)) + "\n\n"
            for s in range(sections)
        )
        return Book((parse_markdown_string(f"# Basics\n\n{body}", "book.md").document,))  # type: ignore[arg-type]

    for sections in (5, 40):
        afforded[0] = 0
        diff = diff_books(edition(sections, 1), edition(sections, 2))
        assert any("the edition's changes were too many" in note for note in diff.notes)
        assert len(diff.changed) == sections + 1  # and the chapter
        assert afforded[0] <= 200_000, (sections, afforded[0])


def _counting_equality(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """A count of references compared as equal or not: ``list.remove`` compares each it passes."""
    from rulebook.model import Reference

    compared = [0]

    def equal(self: Reference, other: object) -> bool:
        compared[0] += 1
        return tuple.__eq__(self, other) is True  # type: ignore[operator]

    monkeypatch.setattr(Reference, "__eq__", equal)
    return compared


def test_first_uses_defined_in_place_are_taken_back_from_the_references_in_bounded_work(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """With ``emphasis = true``, a term first used beside another is defined where it is used: its reference was
    taken back by ``list.remove``, the book's references searched from the first, each (20,000 such paragraphs,
    1 MB: 19.5 s to lint; the thirty-ninth probe)."""
    from rulebook.autolink import emphasis_terms, heading_terms, link_document

    uses = " fighter" * 2_000
    paragraphs = "".join(f"A fighter and then a fighter again: *xa{i}* or *xb{i}*.\n\n" for i in range(500))
    document = markdown_source.parse_markdown_string(
        f"# Rules\n\n## Fighter\n\nA fighter fights.\n\nA{uses}.\n\n{paragraphs}", "book.md", language="en"
    ).document
    assert document is not None
    compared = _counting_equality(monkeypatch)
    linked = link_document(document, heading_terms(document) + emphasis_terms(document))
    assert compared[0] < 1_000  # 1,376,250 when each was searched for from the first reference
    # each paragraph defines its first new term, and the second where it stands: no reference to it is left
    assert len(linked.references) == 1 + 2_000 + 500 * 3
    assert {f"xa{i}" for i in range(500)} | {f"xb{i}" for i in range(500)} <= {d.name for d in linked.definitions}
    assert not any(reference.name.startswith("xb") for reference in linked.references)


def test_references_inside_titles_are_taken_back_from_the_books_list_in_bounded_work(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A reference inside an item's title is reported and left out of the book's references: taken back by
    ``list.remove``, searched for from the book's first reference, each (20,000 items, 1.1 MB: 22.6 s to lint; the
    thirty-ninth probe)."""
    from rulebook.readers.markdown import parse_dialect

    uses = " [[fighter]]" * 2_000
    items = "".join(f"1. [Go [[fighter]] and [[fighter]] {i}]{{.title}} a [[fighter]] moves.\n" for i in range(500))
    compared = _counting_equality(monkeypatch)
    result = parse_dialect(f"# Book\n\n::: definition fighter\nA fighter.\n:::\n\nA{uses}.\n\n{items}", "book.md")
    assert compared[0] < 1_000  # 2,249,500 when each was searched for from the first reference
    assert result.document is not None and len(result.document.references) == 2_000 + 500
    assert [d.message for d in result.diagnostics] == ["a reference inside an item's title"] * 1_000


def test_a_node_taken_back_is_the_one_added_whatever_the_nodes_equal_to_it() -> None:
    """``take_back`` removes each node given once, by identity, keeping the order of the rest."""
    from rulebook.model import Reference, take_back

    def use(offset: int) -> Reference:
        return Reference("fighter", "fighter", None, "rules", None, None, offset)  # type: ignore[arg-type]

    first, same, other, last = use(1), use(1), use(2), use(3)
    index = [first, other, same, last]
    take_back(index, [same, last])
    assert len(index) == 2 and index[0] is first and index[1] is other
    with pytest.raises(ValueError, match="a node not in the list"):
        take_back(index, [same])
    assert len(index) == 2


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_table_of_rows_of_many_cells_is_placed_without_copying_a_row_per_cell(  # type: ignore[no-untyped-def]
    capsys, scratch, monkeypatch, markdown
) -> None:
    """Each cell's place was found in a copy of its row's whole line (100,000 columns a row, 2.2 MB: 16 s to lint,
    in both Markdown readers; the fortieth probe): the place is found in the text itself."""
    from rulebook.source import SourceText

    columns = 10_000
    row = "|" + "|".join(f"c{i}" for i in range(columns)) + "|\n"
    growth_book(scratch, "# 1 Rules\n\n" + row + "|" + "|".join("-" * columns) + "|\n" + row + row, markdown)
    copied = [0]
    line_text = SourceText.line_text

    def counted(self: SourceText, line: int) -> str:
        text = line_text(self, line)
        copied[0] += len(text)
        return text

    monkeypatch.setattr(SourceText, "line_text", counted)
    outcome = run(capsys, "lint")
    assert outcome.code == 0, outcome.out
    assert copied[0] < 20 * len(row)  # 4 rows' lines a few times each; 2 copies of a row per cell before


def test_a_paragraph_of_many_lost_links_is_cut_in_one_pass() -> None:
    """Each sentence holding a lost link (``??``) was looked for from the paragraph's start, and the paragraph
    rebuilt, once per lost link (`See ?? now.` 40,000 times, 480 KB: 59 s to build; the fortieth probe)."""
    from rulebook.model import Link
    from rulebook.site.lost import without_lost_sentences

    lost = Link("", "??", "s", None, 0)  # type: ignore[arg-type]
    nodes = ("Kept. ", *[n for _ in range(20_000) for n in ("See ", lost, " now. ")], "End.")
    with cpu_time_under(2):  # 0.04 s; 13 s when the paragraph was rebuilt for each
        assert without_lost_sentences(nodes) == ("Kept. ", "End.")


@pytest.mark.parametrize(
    ("run_", "kept"),
    [
        (["A. See ", "??", " now. B ", "??", " c. D."], ["A. ", "D."]),
        (["See ", "??", " and ", "??", " now. Kept."], ["Kept."]),
        (["A? ", "??", "B"], ["A? "]),
        (["A. ", "??", " x. ", "??"], ["A. "]),
        (["x ", "??", " y. Z. ", "??", " w. V."], ["Z. ", "V."]),
    ],
)
def test_lost_sentences_cut_in_one_pass_are_the_ones_holding_a_lost_link(run_: list[str], kept: list[str]) -> None:
    """The sentences cut are those holding ``??``, whatever text is left between them."""
    from rulebook.model import Link
    from rulebook.site.lost import without_lost_sentences

    nodes = tuple(Link("", "??", "s", None, 0) if n == "??" else n for n in run_)  # type: ignore[arg-type]
    assert list(without_lost_sentences(nodes)) == kept


def test_a_translations_sentences_are_found_in_its_source_without_copying_the_rest_for_each() -> None:
    """Each sentence was looked for from a copy of every later word starting as it does (`Voir la ici.` 40,000 times,
    520 KB: `compare` 14.8 s, 54.5 s at 1 MB; the forty-first probe), and a sentence not found (its first words
    holding `&eacute;`) read every word of its first letter within reach, 12 words joined for each, and the next
    one again from the same place (8,000 sentences, 216 KB: 17.9 s; the forty-second probe)."""
    from rulebook.source import SourceText
    from rulebook.translate.segments import Locator

    locator = Locator(SourceText("fr.md", "Voir la ici. " * 20_000))
    start, found = 0, 0
    with cpu_time_under(2):  # 0.1 s
        for _ in range(20_000):
            offset, index = locator.find("Voir la ici.", start)
            found += index >= 0
            start = offset + 1
    assert found == 20_000
    locator = Locator(SourceText("fr.md", "Le L La Le Les La. " * 4_000))
    with cpu_time_under(2):  # 0.2 s; 9 s when each word of the first letter was joined with the next eleven
        assert all(locator.find(f"Le Lé La Le Les La {n}.", 0) == (0, -1) for n in range(4_000))
    # its letters inside words near the place searched from, at no word's start (the forty-third probe: 14.6 s at
    # 119 KB, each of 9,000 places a Python step for every sentence)
    locator = Locator(SourceText("fr.md", "Xba" + " ba" * 9_000 + "\n\n" + "&#97;b ab ab ab ab ab\n\n" * 1_000))
    with cpu_time_under(2):  # 0.05 s; 4 s when each place the letters stood was looked at
        assert all(locator.find("ab ab ab ab ab ab", 0) == (0, -1) for _ in range(1_000))


def test_a_sentence_of_long_words_is_looked_for_by_its_first_letters() -> None:
    """The expression was made of all the letters of a sentence's first six words: a sentence of six words of 3,000
    letters not found, after a paragraph of `la la la`, read thousands of words from each of its word starts within
    reach (`compare` 12.7 s at 227 KB), and six found sentences of 180,000 letters each were compiled letter by letter
    (10.5 s at 1.08 MB; the forty-fourth probe)."""
    from rulebook.source import SourceText
    from rulebook.translate.segments import Locator

    word = "la" * 1_500
    locator = Locator(SourceText("fr.md", "la " * 15_000 + "\n\n" + f"&#108;{word[1:]} {word} {word}.\n\n" * 10))
    with cpu_time_under(2):  # 0.05 s; 9 s when each of 10,000 word starts read up to 9,000 letters
        assert all(locator.find(f"{word} {word} {word}.", 0) == (0, -1) for _ in range(10))
    words = ["la" * 2_000 + f"{n}x" for n in range(40)]
    locator = Locator(SourceText("fr.md", "".join(f"{word} " * 6 + ".\n\n" for word in words)))
    start, found = 0, []
    with cpu_time_under(2):  # 0.02 s; 6 s when the expression held each sentence's 24,000 letters
        for word in words:
            start, index = locator.find(f"{word} " * 6, start)
            found.append(index)
    assert found == [6 * n for n in range(40)]


def test_a_sentence_whose_first_letters_almost_match_from_every_word_start_is_looked_for_in_bounded_time() -> None:
    """The expression of a sentence's first 64 letters, 63 of `la` and an `x`, ran from each of 15,000 word starts of
    `la la la` before failing, for every sentence not found (6.6 ms each, `compare` 24 s for 276 KB; the forty-fifth
    probe)."""
    from rulebook.source import SourceText
    from rulebook.translate.segments import Locator

    locator = Locator(SourceText("fr.md", "la " * 15_000))
    with cpu_time_under(2):  # 0.05 s; 6.6 s when each sentence ran the expression from every word start
        assert all(locator.find("lalalalalala " * 5 + f"lalx {n}.", 0) == (0, -1) for n in range(1_000))


def test_a_sentence_whose_letters_run_past_twelve_words_from_every_start_is_tried_a_bounded_number_of_times() -> None:
    """A sentence's first letters matched from each of 15,000 word starts of `la la la`, past the letters twelve
    words hold, a Python step each: 10 ms a sentence, `compare` 11.9 s on 86 KB (found on the forty-fourth probe's
    fix). At most :data:`~rulebook.translate.segments._MOST_PLACES_TRIED` places are compared."""
    from rulebook.source import SourceText
    from rulebook.translate.segments import Locator

    locator = Locator(SourceText("fr.md", "la " * 15_000 + "\n\nUne figurine bouge vers la table.\n"))
    with cpu_time_under(2):  # 0.1 s; 10 s when every place was compared
        assert all(locator.find(f"lalala lalalalala la la la lalala {n}.", 0) == (0, -1) for n in range(1_000))
    assert locator.find("Une figurine bouge vers la table.", 44_000) == (45_002, 15_000)


@pytest.mark.parametrize("seed", range(200))
def test_a_sentence_is_found_where_its_words_follow_each_other_from_the_first_such_word(
    seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The joined words searched at C speed find what a walk of every word of the sentence's first letter finds,
    however many of its first letters the expression looks for."""
    import random

    from rulebook.source import SourceText
    from rulebook.translate import segments
    from rulebook.translate.segments import _WORD, CHECKED_WORDS, REACH, Locator

    rolled = random.Random(seed)
    monkeypatch.setattr(segments, "_KEY_LETTERS", rolled.choice([1, 2, 3, 4, 8]))
    monkeypatch.setattr(segments, "_MOST_PLACES_TRIED", 10**9)  # the walk tries every place
    vocabulary = ["a", "ab", "b", "ba", "abc", "c", "9e", "ca"]
    text = " ".join(rolled.choice(vocabulary) + rolled.choice(["", "", ".", ","]) for _ in range(rolled.randrange(80)))
    locator = Locator(SourceText("s.md", text))
    for _ in range(20):
        sentence = " ".join(rolled.choice(vocabulary) for _ in range(rolled.randrange(1, 8)))
        start = rolled.randrange(len(text) + 1)
        wanted = _WORD.findall(sentence)
        letters = "".join(wanted[:CHECKED_WORDS])
        expected = (start, -1)
        for index, word in enumerate(locator.words):
            if locator.offsets[index] < start or word[:1] != wanted[0][:1]:
                continue
            if locator.offsets[index] > start + REACH:
                break
            if "".join(locator.words[index : index + 2 * CHECKED_WORDS]).startswith(letters):
                expected = (locator.offsets[index], index)
                break
        assert locator.find(sentence, start) == expected, (text, sentence, start)


def test_lists_opening_on_one_line_below_many_blank_lines_walk_them_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each of 45 lists opening on one line walked back over the blank lines above it, a copy of each, to find its
    attributes (1,000,000 blank lines: the lint 20 s, the build 33 s; the forty-first probe)."""
    from rulebook.readers.markdown import parse_dialect
    from rulebook.source import SourceText

    copied = [0]
    line_text = SourceText.line_text

    def counted(self: SourceText, line: int) -> str:
        copied[0] += 1
        return line_text(self, line)

    monkeypatch.setattr(SourceText, "line_text", counted)
    parse_dialect("<!-- rulebook -->\n\n# Lists {#lists}\n\nText.\n" + "\n" * 20_000 + "- " * 45 + "x\n", "book.md")
    assert copied[0] < 3 * 20_000  # 45 walks of 20,000 lines each before


def test_a_paragraphs_sentences_take_their_own_terms_without_reading_every_term_for_each() -> None:
    """Each sentence of a paragraph read every term of the paragraph to keep its own (496 KB of one paragraph of
    term references: `compare` 11.1 s, 44 s at 1 MB; the forty-third probe)."""
    from rulebook.languages.data import as_language
    from rulebook.translate.segments import _Block, _segmenter

    block = _Block("prose")
    for n in range(20_000):
        block.add("Une ")
        block.add("figurine", f"model{n}")
        block.add(" bouge. ")
    with cpu_time_under(2):  # 0.2 s; 20 s when every term was read for each sentence
        found = _segmenter(as_language("fr")).split(block)
    assert len(found) == 20_000 and found[7] == ("Une figurine bouge.", (("model7", "figurine"),))


def test_a_rule_data_worker_killed_is_told_plainly_not_as_a_bug() -> None:
    """A worker killed by the system (SIGKILL, as the out-of-memory killer kills) was "internal error: RuntimeError:
    compiling rules.json stopped (exit status -9) ... a bug in the rulebook compiler" (the forty-third probe)."""
    import os
    import signal
    import time

    from rulebook.data_worker import BackgroundData
    from rulebook.errors import UserError

    def slow() -> int:
        time.sleep(60)
        return 1

    with BackgroundData(slow, "compiling rules.json") as worker:
        if worker._process is None:  # no fork here: nothing to kill
            pytest.skip("the worker runs in this process where the system cannot fork")
        os.kill(worker._process.pid, signal.SIGKILL)
        with pytest.raises(UserError, match=r"compiling rules.json was stopped by signal 9 \(SIGKILL: the system"):
            worker.files()


def test_a_rule_data_worker_out_of_memory_is_told_plainly_not_as_a_bug() -> None:
    """Under a memory limit (`ulimit -v`, a CI's or a shared host's) the worker's MemoryError was "internal error:
    RuntimeError: compiling rules.json failed: MemoryError ... a bug in the rulebook compiler" (the forty-fourth
    probe)."""
    from rulebook.data_worker import BackgroundData
    from rulebook.errors import UserError

    def greedy() -> int:
        raise MemoryError

    said = r"compiling rules.json ran out of memory \(the system, or a limit such"
    with BackgroundData(greedy, "compiling rules.json") as worker, pytest.raises(UserError, match=said):
        worker.files()


@pytest.mark.parametrize(
    ("rules", "folded"),
    [((("a", "b"), ("b", "a")), "xb"), ((("a", "aa"),), "xaa")],
    ids=["a cycle", "growing"],
)
def test_plural_rules_repeated_end_when_they_no_longer_shorten_the_word(
    rules: tuple[tuple[str, str], ...], folded: str
) -> None:
    """A language file's rules with `repeat = true` that turn `a` into `b` and back, or `a` into `aa`, held `status`
    and the build for ever (120 bytes; the forty-eighth probe): an ending taken that does not shorten the word is
    the last."""
    from dataclasses import replace

    from rulebook.languages.data import PluralRule, shipped

    language = replace(
        shipped("es"), plural=tuple(PluralRule(end, becomes, 0) for end, becomes in rules), repeat_plural=True
    )
    with cpu_time_under(2):
        assert language.singular("xa") == folded


def test_a_word_of_many_stacked_endings_loses_a_bounded_number_of_them() -> None:
    """Spanish takes its plural endings again and again: `x` and 400,000 `es` lost them one at a time, the word
    copied each time (0.8 MB: `compare` 10 s; the forty-eighth probe). At most eight are taken."""
    from rulebook.languages.data import MOST_ENDINGS, shipped

    spanish = shipped("es")
    word = "x" + "es" * 400_000
    with cpu_time_under(2):  # 0.01 s; 10 s when every ending was taken, the word copied each time
        folded = spanish.singular(word)
    assert len(word) - 2 * MOST_ENDINGS <= len(folded) < len(word)
    assert spanish.singular("figuras") == "figura"
