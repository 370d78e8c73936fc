"""Hostile input to the Markdown readers' memory: what markdown-it would make many objects of, refused by count.

A reader's memory grows with markdown-it's tokens and lines, not with the file's bytes (30 KB of tables whose
rows markdown-it fills with empty cells took 1.9 GB): each source is held to a number of bytes, lines and
tokens (``rulebook.readers.markdown_limits``). Each case asserts the exact refusal (exit 2), in both Markdown
formats, as a book's source and as a translation's; one runs under a memory limit a tenth of what the input
took before.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from rulebook.convert import convert_document
from rulebook.readers.markdown_limits import (
    CHARACTERS_PER_TOKEN,
    MAX_BYTES,
    MAX_LINES,
    STEPS_PER_CHARACTER,
    step_budget,
    token_budget,
)
from rulebook.readers.markdown_syntax import dialect_parser
from rulebook.recipe.reading import read_book

from . import scratch as guarded
from .scratch import (
    MARKDOWN_FORMATS,
    REFUSED,
    configure,
    markdown_book,
    nothing_written_outside,
    refused,
    run,
    run_guarded,
)
from .scratch import scratch as scratch  # the fixture every case takes

SEEDS = Path(__file__).resolve().parents[2] / "rulebook_src"
CHAPTER = "# 1 Chapter\n\n"


def wide_tables(count: int, columns: int = 128, rows: int = 512) -> str:
    """``count`` tables whose header names ``columns`` columns, each over ``rows`` rows of one letter:
    markdown-it fills every row with empty cells, ``columns`` a row (up to 65,536 a table)."""
    table = "|" + "a|" * columns + "\n|" + "-|" * columns + "\n" + "a\n" * rows + "\n"
    return CHAPTER + table * count


def refusal(characters: int, line: int, shown: str, name: str = "book.md") -> str:
    """The lint's report of a source that makes more tokens than its length allows, by ``line`` (showing ``shown``)."""
    gutter = " " * len(str(line))
    return f"""error[RB003]: a Markdown source of {characters:,} characters may make at most \
{token_budget("x" * characters):,} blocks, table cells, list items and spans; this one makes more by this line
{gutter}--> {name}:{line}:1
{gutter} |
{line} | {shown}
{gutter} | ^
{gutter} = help: a table makes a cell for each of its columns in every row, even a row of one letter; split the \
book into several sources (`sources = [...]` in the configuration)

Found 1 error in 1 file.
"""


TOO_MANY = {
    # 128 columns a row: the budget of a 6 KB source, 103,088 tokens, is spent in the third table's 14th row.
    "tables filled with cells": (wide_tables(4), 271),
    # 2 characters a cell, 4 tokens (the cell, its inline text, the text, the cell's end).
    "a table 20,000 columns wide": (CHAPTER + "|a" * 20_000 + "\n" + "|-" * 20_000 + "\n" + "|a" * 20_000 + "\n", 5),
    "list items": (CHAPTER + "- a\n" * 60_000, 44_003),
    "empty headings": (CHAPTER + "#\n" * 60_000, 53_337),
    "emphasis": (CHAPTER + "*a* " * 70_000 + "\n", 3),
}


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
@pytest.mark.parametrize("case", TOO_MANY, ids=list(TOO_MANY))
def test_a_source_that_makes_too_many_tokens_is_refused_where_it_does(capsys, scratch, markdown, case) -> None:  # type: ignore[no-untyped-def]
    text, line = TOO_MANY[case]
    markdown_book(scratch, text, markdown)
    with nothing_written_outside(scratch):
        outcome = run(capsys, "lint")
        expected = refusal(len(text), line, text.splitlines()[line - 1]).splitlines()
        assert (outcome.code, outcome.out.splitlines()[:2]) == (2, expected[:2])
        assert outcome.out.endswith("Found 1 error in 1 file.\n")
        built = run(capsys, "build", "-q", "-o", "out")
        assert built.code == 2 and built.err.endswith(REFUSED)


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_the_whole_refusal_shows_the_line(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    markdown_book(scratch, wide_tables(4), markdown)
    assert run(capsys, "lint") == (2, refusal(len(wide_tables(4)), 271, "a"), "")


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_translation_is_held_to_the_same_budget(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    (scratch / "book.md").write_text("<!-- rulebook -->\n\n# 1 Chapter\n\nText.\n", encoding="utf-8")
    (scratch / "fr.md").write_text(wide_tables(4), encoding="utf-8")
    configure(scratch, f'sources = ["book.md"]\n[translations.fr]\nsource = "fr.md"\nformat = "{markdown}"\n')
    outcome = run(capsys, "compare", "book.md", "fr.md")
    expected = refusal(len(wide_tables(4)), 271, "a", "fr.md").removesuffix("Found 1 error in 1 file.\n")
    assert (outcome.code, outcome.err) == (2, expected)


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_source_of_more_lines_than_the_limit_is_refused_before_it_is_parsed(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    markdown_book(scratch, CHAPTER + "\r\n" * (MAX_LINES - 2), markdown)  # CR LF ends one line, as LF does
    assert run(capsys, "lint").code == 0
    markdown_book(scratch, CHAPTER + "\n" * (MAX_LINES - 2) + "x", markdown)  # the last line has no end
    outcome = run(capsys, "lint")
    assert (outcome.code, outcome.out) == (
        2,
        f"""error[RB003]: a Markdown source may hold at most 2,000,000 lines; this one holds 2,000,001
       --> book.md:{MAX_LINES + 1}:1
    = help: split the book into several sources (`sources = [...]` in the configuration)

Found 1 error in 1 file.
""",
    )


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_source_larger_than_the_markdown_limit_is_not_read(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    path = markdown_book(scratch, "", markdown)
    os.truncate(path, MAX_BYTES + 1)  # sparse: its size says it all, nothing of it is read
    outcome = run(capsys, "lint")
    assert (outcome.code, outcome.out) == (
        2,
        "error[RB003]: cannot read `book.md`: it is larger than 64 MB, the most a Markdown source may be\n"
        " --> book.md:1:1\n\nFound 1 error in 1 file.\n",
    )


def test_tables_that_took_gigabytes_are_refused_under_a_small_memory_limit(scratch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # 100 KB of these tables made 13 million tokens, over 6 GB: under a limit of 1 GB of address space, the
    # whole command (Python, its imports and the reading) stops with the refusal.
    monkeypatch.setattr(guarded, "GUARD_BYTES", 1024**3)
    text = wide_tables(66)
    markdown_book(scratch, text, "markdown")
    outcome = run_guarded(scratch, "lint")
    assert outcome.code == 2
    assert outcome.out.startswith(refusal(len(text), 271, "a").split("\n", 1)[0] + "\n")


@pytest.mark.parametrize(
    ("path", "parser"),
    [
        ("fr/rulebook.md", MarkdownIt("commonmark", {"html": True}).enable("table")),
        ("other-game/rules.md", MarkdownIt("commonmark", {"html": True}).enable("table")),
        ("fr/rulebook.md", dialect_parser()),
    ],
)
def test_the_bundled_books_make_an_eighth_of_the_tokens_their_length_allows(path: str, parser: MarkdownIt) -> None:
    # The budget's rate (a token per CHARACTERS_PER_TOKEN characters) leaves real books eight times their density.
    text = (SEEDS / path).read_text(encoding="utf-8")
    tokens = parser.parse(text)
    made = len(tokens) + sum(len(token.children or ()) for token in tokens)
    assert made * CHARACTERS_PER_TOKEN * 8 <= len(text)


# -- the steps over the inside of brackets -----------------------------------------------------------


UNCLOSED = {
    "200 KB of [[": CHAPTER + "[[" * 100_000 + "\n",
    "200 KB of [ and a word": CHAPTER + "[a " * 66_000 + "\n",
    "200 KB of ![": CHAPTER + "![" * 100_000 + "\n",
    "nested brackets closed at the end": CHAPTER + "[x" * 50_000 + "]" * 50_000 + "\n",
    "brackets nested 15 deep, closed": CHAPTER + ("[" * 15 + "x" + "]" * 15 + " ") * 6_000 + "\n",
}


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
@pytest.mark.parametrize("case", UNCLOSED, ids=list(UNCLOSED))
def test_brackets_that_cost_steps_from_each_one_are_refused_by_count(capsys, scratch, markdown, case) -> None:  # type: ignore[no-untyped-def]
    """From each ``[`` markdown-it tries the rules again at every place up to its nesting limit (100 in the dialect,
    20 in plain Markdown), looking for the ``]`` that closes it: 200 KB of ``[[`` took 16 s, a paragraph of words
    of the same size 0.1 s. The steps are counted as they are taken, and the source refused past its budget; in the
    dialect, brackets nested as deep as markdown-it reads are refused first (past them it read the rest of the
    paragraph as text: 150 spans nested, each a definition, and the outer 101 were lost in silence)."""
    text = UNCLOSED[case]
    markdown_book(scratch, text, markdown)
    outcome = refused(capsys, scratch, "lint")
    if markdown == "markdown" and case != "brackets nested 15 deep, closed":
        assert outcome.out.splitlines()[:2] == [
            "error[RB005]: a bracket (`[`) is nested more than 100 deep",
            " --> book.md:3:1",
        ]
    else:
        assert outcome.out.splitlines()[:2] == [
            f"error[RB003]: a Markdown source of {len(text):,} characters may take at most {step_budget(text):,} "
            "steps to find where its brackets (`[`) close; this one takes more by this line",
            " --> book.md:3:1",
        ]
        assert "= help: a `[` that nothing closes is text: write it `\\[`, or close it with `]`" in outcome.out


def test_spans_nested_past_what_markdown_it_reads_are_refused_not_read_as_text(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    spans = "[" * 150 + "x" + "".join(f"]{{dfn=s{i}}}" for i in range(150))
    markdown_book(scratch, CHAPTER + spans + "\n", "markdown")
    outcome = run(capsys, "lint", "--color", "never")
    assert outcome.code == 2
    assert outcome.out.startswith("error[RB005]: a bracket (`[`) is nested more than 100 deep\n --> book.md:3:1\n")
    assert outcome.out.endswith(
        "= help: nest at most 100 levels deep; a `[` that nothing closes is text: write it `\\[`\n\n"
        "Found 1 error in 1 file.\n"
    )


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_brackets_that_close_cost_a_step_or_less_each(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    """Spans, references and definitions nested four deep, 200 KB of them: read, within the budget."""
    nested = "[a [b [c [[d]] c]{dfn=c} b]{dfn=b} a]{dfn=a} " if markdown == "markdown" else "[a [b [c] b] a] "
    markdown_book(scratch, CHAPTER + "\n\n".join([nested * 40] * 120) + "\n", markdown)
    assert run(capsys, "lint").code in (0, 1)  # findings of the dialect's (terms defined many times), no refusal


def test_the_bundled_book_takes_a_hundredth_of_the_steps_its_length_allows(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """The English book, converted to the dialect: its every term a reference, its definitions spans or directives
    (the French and the other game's books mark none: they take no step)."""
    book = read_book([SEEDS / "en" / "rulebook.xml"], SEEDS).book.documents[0]
    text = convert_document(book, "markdown")
    parser = dialect_parser()
    steps = [0]
    skip = parser.inline.skipToken

    def counted(state):  # type: ignore[no-untyped-def]
        steps[0] += 1
        skip(state)

    monkeypatch.setattr(parser.inline, "skipToken", counted)
    parser.parse(text)
    assert 0 < steps[0] * 100 <= len(text) * STEPS_PER_CHARACTER
