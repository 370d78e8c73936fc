"""Hostile input to the Markdown dialect's reader: front matter built to break YAML's loader.

Each case runs ``rulebook lint`` on a one-source dialect project and asserts the exact finding: a located
``invalid-document`` error (exit 1 for the lint), never an internal error.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .scratch import MARKDOWN_FORMATS, Outcome, converted, markdown_book, run, source
from .scratch import scratch as scratch  # the fixture every case takes

BODY = """<!-- rulebook -->

# Moving {#moving}

::: definition march

To [[march]] is to move.

:::

An army may [[march]].
"""

NOT_YAML = """error[RB002]: the front matter is not YAML
 --> book.md:1:1
  |
1 | ---
  | ^^^
    = help: write `title: The Book's Title`

Found 1 error in 1 file.
"""


def _invalid_document_findings(capsys, scratch: Path, text: str) -> tuple[Outcome, list[tuple[str, str, str]]]:  # type: ignore[no-untyped-def]
    """The lint of the book ``BODY`` + ``text``, and its RB002 findings: (line, column, message) each."""
    source(scratch, "book.md", f"{BODY}{text}")
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    return lint, re.findall(r"line=(\d+),col=(\d+),title=RB002 invalid-document::([^%]*)", lint.out)


@pytest.mark.parametrize(
    "front_matter",
    [
        pytest.param("title: " + "[" * 100_000 + "]" * 100_000, id="100,000 nested ["),
        pytest.param("title: x\nk: " + "{a: " * 50_000 + "1" + "}" * 50_000, id="50,000 nested maps"),
        pytest.param("title: x\n" + "".join(" " * i + "a:\n" for i in range(3_000)), id="3,000 indented keys"),
        pytest.param("title: x\nk: 2001-02-30", id="a date no calendar has"),
        pytest.param("title: x\nk: 2001-13-99t21:59:43", id="a timestamp of month 13"),
        pytest.param("title: " + "9" * 100_000, id="an integer of 100,000 digits"),
        pytest.param("title: 1" + ":1" * 100_000, id="a base-60 integer of 100,001 parts"),  # made in quadratic time
        pytest.param("title: x\nk: [0x" + "f" * 5_000 + "]", id="5,000 hexadecimal digits"),
        pytest.param("title: !!python/object/apply:os.system [id]", id="a Python tag"),
        pytest.param('title: x\nk: !!timestamp "x"', id="a timestamp tag on no timestamp"),
        pytest.param('title: x\nk: !!int ""', id="an int tag on nothing"),
    ],
)
def test_front_matter_that_breaks_the_loader_is_not_yaml(capsys, scratch: Path, front_matter: str) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", f"---\n{front_matter}\n---\n{BODY}")
    assert run(capsys, "lint") == (1, NOT_YAML, "")


@pytest.mark.parametrize(
    ("line", "column"),
    [
        ("[A [[march]] is to move ![p](x.png).]{dfn=march}", 25),
        ("[![p](x.png)]{dfn=march}", 2),
        ("**Move ![p](x.png)**", 8),
    ],
)
def test_an_image_inside_a_definition_or_important_text_is_reported_not_an_internal_error(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, line: str, column: int
) -> None:
    """An image inside a definition's span reached the rule data's compiler as it was, and the build stopped with
    "internal error: ... unknown node Image" (exit 2, "a bug in the rulebook compiler"); it is reported where it
    stands, as one in a paragraph's text is, and the build publishes the book without it."""
    source(scratch, "book.md", f"<!-- rulebook -->\n\n# Moving {{#moving}}\n\n{line}\n\nAn army may [[march]].\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(f"error[RB002]: an image within text\n --> book.md:5:{column}\n"), lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n") or "warning" in lint.out
    build = run(capsys, "build", "--no-pdf")
    assert build.code == 0
    assert "x.png" not in (scratch / "site" / "rules.json").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("text", "key", "row", "column"),
    [
        ('[a]{term="colour" colour=red}', "attribute `colour` on a span", 1, 19),
        ("[the colour]{colour=x}", "attribute `colour` on a span", 1, 14),
        ("[[colour]]{colour=x}", "attribute `colour` on a reference", 1, 12),
        ("[[march]]{%colour% colour=x}", "attribute `colour` on a reference", 1, 20),
        ('## Moving {title=".red" .red}', "class `.red` on a heading", 1, 25),
        ('| A |\n|---|\n| x {title="#b" #b} |', "attribute `#b` on a table cell", 3, 17),
        ('{title="kind" colour=x}\n- an item', "attribute `colour` on a list", 1, 15),
    ],
)
def test_an_unknown_attribute_is_reported_at_its_key_never_in_a_value_or_the_text_before(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, text: str, key: str, row: int, column: int
) -> None:
    """The key was searched for from the construct's start to its line's end: the caret stood under the same word in
    a quoted value, a span's text, a reference's name or a comment (and many keys on a line took a search each)."""
    source(scratch, "book.md", f"{BODY}\n{text}\n")
    lint = run(capsys, "lint", "--color", "never")
    line = BODY.count("\n") + 1 + row
    assert f"error[RB002]: unknown {key}\n  --> book.md:{line}:{column}\n" in lint.out, lint.out


def test_convert_names_the_errors_of_reading_what_it_converts(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A source read with errors was converted in silence ("Wrote book.xml", exit 0), without what they stand on:
    a row's cells past its header's, text before the first chapter. Each is named where it stands, with a warning."""
    source(scratch, "book.md", "Stray words.\n\n# Ch {#ch}\n\n| A |\n|---|\n| x | y | z |\n")
    outcome = run(capsys, "convert", "book.md", "-o", "book.xml")
    assert (outcome.code, outcome.out) == (0, "Wrote book.xml (xml).\n")
    assert outcome.err.startswith("error[RB002]: text before the first chapter\n --> book.md:1:1\n"), outcome.err
    assert "error[RB002]: a row with more cells than its table's header: `y | z` is not read\n --> book.md:7:7\n" in (
        outcome.err
    )
    assert outcome.err.endswith(
        "rulebook: warning: `book.md` is converted as it is read, with the errors above: what they stand on may be "
        "left out or read otherwise\n"
    )
    assert "Stray" not in (scratch / "book.xml").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("front_matter", "message", "line", "column"),
    [
        ('title: "Moves\\e[31m"', "a control character (U+001B) in the front matter's title", 2, 8),
        ("title: Moves\nsubtitle: x", "unknown key `subtitle` in the front matter", 3, 1),
        ("# notes\n\ntitle: |\n  Moves\n  \\a\nk: 1", "unknown key `k` in the front matter", 7, 1),
        # a title that is not text was reported on the `---` line, whatever line it stands on
        ("# notes\n\ntitle: [1, 2]", "the front matter's `title` must be text", 4, 1),
        ("a: &a [x, y]\ntitle: *a", "the front matter's `title` must be text", 3, 1),
        ("- title", "the front matter's `title` must be text", 1, 1),
    ],
)
def test_a_front_matter_fault_is_reported_where_it_is_written(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, front_matter: str, message: str, line: int, column: int
) -> None:
    """A control character a YAML escape writes in the title passed the lint (the text's own are reported) and
    reached every page; an unknown key was reported on the `---` line, whatever line it stands on."""
    source(scratch, "book.md", f"---\n{front_matter}\n---\n{BODY}")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(f"error[RB002]: {message}\n --> book.md:{line}:{column}\n"), lint.out


@pytest.mark.parametrize("depth", [48, 1_000])
def test_lists_nested_in_a_table_cell_past_the_depth_are_refused_not_an_internal_error(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, depth: int
) -> None:
    """A cell's `<ul><li>` nested without end passed the lint; `convert` stopped with "internal error:
    RecursionError" at 200, `build` at 1,000. Each `<ul>` and `<li>` is a level, as the XML's elements are."""
    cell = "<ul><li>" * depth + "x" + "</li></ul>" * depth
    source(scratch, "book.md", f"{BODY}\n| A |\n|---|\n| {cell} |\n")
    expected = "error[RB005]: a list in a table's cell is nested more than 100 deep\n  --> book.md:15:1\n"
    for command in (("lint", "--color", "never"), ("convert", "book.md", "-o", "book.xml")):
        outcome = run(capsys, *command)
        assert outcome.code == 2
        assert (outcome.out + outcome.err).startswith(expected), outcome
    assert not (scratch / "book.xml").exists()
    assert run(capsys, "build", "--data-only", "-q", "-o", "out").code == 2


def test_lists_nested_in_a_table_cell_within_the_depth_are_read_and_converted(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    cell = "<ul><li>" * 40 + "x" + "</li></ul>" * 40
    source(scratch, "book.md", f"{BODY}\n| A |\n|---|\n| {cell} |\n")
    assert run(capsys, "lint") == (0, "All checks passed (1 file).\n", "")
    assert run(capsys, "convert", "book.md", "-o", "book.xml").code == 0
    assert (scratch / "book.xml").read_text(encoding="utf-8").count("<list>") == 40


def test_a_closing_fence_that_closes_nothing_is_reported_not_text_in_silence(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A directive closed twice left `:::` on the page as text, with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}\n::: note Scatter\n\nRoll.\n\n:::\n:::\n\nMore words\n  :::\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    found = re.findall(
        r"error\[RB002\]: `:::` closes no directive here: it is read as text\n +--> (book\.md:\d+:\d+)", lint.out
    )
    assert found == ["book.md:18:1", "book.md:21:3"], lint.out


def test_an_attribute_block_its_parser_cannot_read_is_reported_not_text_in_silence(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``[A hit is a wound.]{dfn=hit onclick=alert(1)}``: the span was read as text, its braces shown and the
    definition lost, with no word of it; an escaped bracket's brace, and blocks that read, are no finding."""
    text = (
        f"{BODY}\n[A hit is a wound.]{{dfn=hit onclick=alert(1)}} A [[hit]]{{type=(x)}} hurts.\n\n"
        "Words \\]{not a block} and [a shield]{dfn=shield} that [[march]]{type=example}.\n"
    )
    source(scratch, "book.md", text)
    lint = run(capsys, "lint", "--color", "never")
    found = re.findall(
        r"error\[RB002\]: an attribute block that cannot be read[^\n]*\n +--> (book\.md:\d+:\d+)", lint.out
    )
    assert found == ["book.md:13:20", "book.md:13:56"], lint.out


@pytest.mark.parametrize(
    ("name", "text", "place", "help"),
    [
        (
            "book.md",
            f"{BODY}\nEach [[march|]] and [[march| ]] and [[march]].\n",
            ["book.md:13:8", "book.md:13:23"],
            "write the words it shows: `[[march|words]]`, or `[[march]]` to show its name",
        ),
        (
            "book.xml",
            '<document><chapter title="Moving" id="moving"><definition name="march">To <reference name="march">'
            'march</reference>.</definition>\n<reference name="march"/> <reference name="march"> </reference>'
            "</chapter></document>\n",
            ["book.xml:2:18", "book.xml:2:44"],
            'write the words it shows: `<reference name="march">march</reference>`',
        ),
    ],
    ids=["markdown", "xml"],
)
def test_a_reference_that_shows_no_words_is_reported_not_an_empty_link(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, name: str, text: str, place: list[str], help: str
) -> None:
    """``[[march|]]`` and ``<reference name="march"/>`` were published as an empty link, which a reader can neither
    see nor follow, with "All checks passed"."""
    source(scratch, name, text)
    lint = run(capsys, "lint", name, "--color", "never")
    said = r"error\[RB301\]: the reference to `march` shows no words: an empty link on the page\n +--> (\S+)"
    assert re.findall(said, lint.out) == place, lint.out
    assert lint.out.count(f"help: {help}") == 2


def test_a_translation_in_the_dialect_is_located_at_its_words_not_its_heading(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """The dialect's markup was taken for words when a sentence was found back in its source (`[[charge|` read
    "charge charge"), so the sentence was not found, and a finding stood at its section's heading."""
    source(scratch, "book.md", f"{BODY}\nA [[march]] is 6 inches.\n")
    (scratch / "fr.md").write_text(
        "<!-- rulebook -->\n\n# Bouger {#moving}\n\n::: definition march\n\n[[march|Marcher]], c'est bouger.\n\n"
        ":::\n\nUne armée peut [[march|marcher]].\n\nUne [[march|marche]] fait 7 pouces.\n",
        encoding="utf-8",
    )
    outcome = run(capsys, "compare", "--language", "fr", "book.md", "fr.md")
    assert outcome.code == 1
    assert 'error[RB611]: the original says `6"`, the translation says `7"`\n  --> fr.md:13:27\n' in outcome.out, (
        outcome.out
    )


def test_a_changed_table_of_the_dialect_is_located_at_the_table(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """The dialect's `{.header}` and a table's pipes were taken for words when the diff found its text back, so a
    changed number in a table stood at the first word of its section that matched (a sentence lines before)."""

    def table(*cells: int) -> str:
        return "| A | B |\n|---|---|\n" + "".join(f"| r{i} {{.header}} | {cell} |\n" for i, cell in enumerate(cells))

    (scratch / "old.md").write_text(f"{BODY}\n{table(1, 2, 3)}", encoding="utf-8")
    (scratch / "new.md").write_text(f"{BODY}\n{table(1, 2, 4)}", encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["new.md"]\n', encoding="utf-8")
    outcome = run(capsys, "diff", "old.md", "new.md")
    assert outcome.code == 0
    assert outcome.out.startswith("warning[RB704]: in `Moving`, `3` became `4`\n  --> new.md:13:3\n"), outcome.out


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_headings_unknown_attribute_is_located_whatever_ends_its_lines(capsys, scratch: Path, end: str) -> None:  # type: ignore[no-untyped-def]
    """With `\\r` alone ending lines, a heading's attribute block was looked for up to the file's end (a search for
    `\\n`): the finding stood at the last brace of the file, lines below."""
    text = f"{BODY}\n# Charging {{.red}}\n\nText.\n\n| A |\n|---|\n| x {{#b}} |\n"
    (scratch / "book.md").write_bytes(text.replace("\n", end).encode("utf-8"))
    (scratch / "rulebook.toml").write_text('sources = ["book.md"]\n', encoding="utf-8")
    lint = run(capsys, "lint", "--color", "never")
    assert "error[RB002]: unknown class `.red` on a heading\n  --> book.md:13:13\n" in lint.out, lint.out
    assert "error[RB002]: unknown attribute `#b` on a table cell\n  --> book.md:19:6\n" in lint.out, lint.out


def test_a_book_prefix_written_in_capitals_is_kept_by_the_names_help(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """`[[MAIN:march|x]]` was told to `use main_march`, a name of no book: the help keeps the book's prefix."""
    source(scratch, "book.md", f"{BODY}\nSee [[MAIN:march|x]].\n")
    lint = run(capsys, "lint", "--color", "never")
    assert "error[RB302]: term name `MAIN:march` is not a valid identifier\n" in lint.out
    assert "= help: use `main:march` (letters, digits and underscores only)\n" in lint.out, lint.out


@pytest.mark.parametrize(
    ("line", "message", "column", "help"),
    [
        ("::: note **Bold** [[march]]\n\nA note.\n\n:::", "emphasis inside a note's title", 10, "the note"),
        (
            "::: figure f1 A [[march]] title\n\n![p](p.png)\n\n:::",
            "a reference inside a figure's title",
            17,
            "the caption",
        ),
        ("::: note Rolls `D6`\n\nA note.\n\n:::", "code inside a note's title", 16, "the note"),
        ("See [[march|[b]{dfn=c}]] here.", "a span inside a reference's words", 13, None),
        ("See [[march|**b**]] here.", "emphasis inside a reference's words", 13, None),
    ],
)
def test_markup_where_the_xml_holds_text_is_reported_at_the_markup(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, line: str, message: str, column: int, help: str | None
) -> None:
    """A directive's title and a reference's words are text in the XML (``title=``, ``<reference>``): markup there was
    kept as its characters, shown raw on the page, and the lint said "All checks passed"."""
    source(scratch, "book.md", f"{BODY}\n{line}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    row = BODY.count("\n") + 2
    assert f"error[RB002]: {message}\n  --> book.md:{row}:{column}\n" in lint.out, lint.out
    advice = "a reference's words are text, as the XML's `<reference>` holds: write them without markup"
    if help is not None:
        advice = f"a title is text, as the XML's `title=`: write it without markup, and refer to terms in {help}"
    assert f"= help: {advice}\n" in lint.out


def test_markup_characters_in_titles_and_references_convert_both_ways_as_text(capsys, scratch: Path) -> None:
    """The XML's text in a title or a reference's words is written escaped in the dialect, which reads the escapes
    (a converted source lints clean, and converts back to the same text)."""
    section = (
        '<note title="**Bold** [[x]] a_b `c` &lt;i&gt;">Aside.</note>'
        'See <reference name="march">[b]{dfn=c} *y*</reference> here.'
    )
    xml = f'<document><chapter title="Moving" id="moving">{section}</chapter></document>\n'
    (scratch / "book.xml").write_text(xml, encoding="utf-8")
    assert run(capsys, "convert", "book.xml", "--to", "markdown", "-o", "book.md").code == 0
    written = (scratch / "book.md").read_text(encoding="utf-8")
    assert "::: note \\*\\*Bold\\*\\* \\[\\[x\\]\\] a_b \\`c\\` \\<i\\>\n" in written
    assert "See [[march|\\[b\\]\\{dfn=c\\} \\*y\\*]] here." in written
    (scratch / "rulebook.toml").write_text('sources = ["book.md"]\n', encoding="utf-8")
    lint = run(capsys, "lint", "--color", "never")
    assert "RB002" not in lint.out, lint.out
    back = converted(capsys, scratch, "book.md", "back.xml")
    assert '<note title="**Bold** [[x]] a_b `c` &lt;i&gt;">' in back
    assert '<reference name="march">[b]{dfn=c} *y*</reference>' in back


@pytest.mark.parametrize(
    ("block", "message", "column"),
    [
        ("{roll=D0}\n| A | B |\n|---|---|\n| 1 | x |", "error[RB501]: `D0` is not dice notation", 1),
        ("{roll=D0}\n- a\n- b", "error[RB501]: `D0` is not dice notation", 1),
        ("{kind=nonsense}\n| A | B |\n|---|---|\n| 1 | x |", "error[RB502]: `nonsense` is not a kind of table", 7),
        ('{id="../x" roll=D6}\n| A | B |\n|---|---|\n| 1-6 | x |', "error[RB502]: `../x` is not an identifier", 6),
        ("{kind=bogus}\n1. a\n2. b", "error[RB502]: `bogus` is not a kind of sequence", 7),
    ],
)
def test_a_finding_on_a_blocks_attributes_stands_at_their_line(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, block: str, message: str, column: int
) -> None:
    """A finding on the attribute block on the line before a table or list pointed at its first row, a line off; it
    stands at the attributes now, where a suppression alone on the line before hides it, and the block keeps its
    own place (a finding on its rows stays at them)."""
    source(scratch, "book.md", f"{BODY}\n{block}\n")
    line = BODY.count("\n") + 2
    lint = run(capsys, "lint", "--color", "never")
    assert f"{message}" in lint.out, lint.out
    assert f" --> book.md:{line}:{column}\n" in lint.out, lint.out
    code = message.split("[")[1].split("]")[0]
    source(scratch, "book.md", f"{BODY}\n<!-- rulebook: ignore {code} -->\n{block}\n")
    assert run(capsys, "lint", "--color", "never").code == 0


def test_a_finding_on_a_roll_tables_rows_stays_at_the_table(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", f"{BODY}\n{{roll=D6}}\n| A | B |\n|---|---|\n| 1 | x |\n")
    lint = run(capsys, "lint", "--color", "never")
    line = BODY.count("\n") + 3
    assert (
        "error[RB501]: the bands do not match a roll of D6: no band for 2, 3, 4, 5, 6\n"
        f"  --> book.md:{line}:1\n" in lint.out
    ), lint.out


@pytest.mark.parametrize("end", ["\n", "\r\n", "\r"])
def test_a_caption_line_is_found_whatever_ends_the_lines(end: str) -> None:
    """A translation's caption ("Figure 1 - ...", as a converted PDF prints them) is read from its line's start:
    with `\\r` alone ending lines, that start was searched for as `\\n`, the file's start was taken, and no
    caption past the first line was one (`SourceText.line_around`)."""
    from rulebook.languages.data import as_language
    from rulebook.source import SourceText
    from rulebook.translate.segments import _segmenter

    text = f"Du texte.{end}Figure 1 - La légende.{end}"
    segmenter = _segmenter(as_language("fr"))
    source = SourceText.from_text("fr.md", text)
    assert segmenter.in_caption(source, text.index("Figure"))
    assert not segmenter.in_caption(source, 0)


def test_a_term_named_with_a_capital_is_told_with_the_reference_that_reaches_it(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """`{dfn=Charge}` and `[[Charge]]`, a careless writer's pair: a bare reference reads its text as a name in lower
    case (`charge`), so the help said "did you mean `Charge`?" at the `[[Charge]]` itself, and "refer to it with
    `[[Charge]]`" at the definition; each now writes the reference that reaches it, as `lint --fix` does."""
    source(scratch, "book.md", "<!-- rulebook -->\n\n# Moving {#moving}\n\n[A [[Charge]] is a move.]{dfn=Charge}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert "    = help: refer to it with `[[Charge|Charge]]` where the rules use it, or remove it\n" in lint.out
    assert (
        "error[RB101]: reference to undefined term `charge`\n --> book.md:5:6\n  |\n"
        "5 | [A [[Charge]] is a move.]{dfn=Charge}\n  |      ^^^^^^\n"
        "    = help: did you mean `Charge`, written `[[Charge|Charge]]`?\n"
    ) in lint.out, lint.out
    assert run(capsys, "lint", "--fix").code == 0
    assert "[A [[Charge|Charge]] is a move.]{dfn=Charge}" in (scratch / "book.md").read_text(encoding="utf-8")


def test_a_front_matter_giving_its_title_twice_is_reported_at_the_second(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """YAML forbids a repeated key, and PyYAML keeps the last without a word: a front matter giving `title:` twice
    (a merge keeping both sides) lost the first with "All checks passed". The title read, the last, is the one
    whose control character is reported."""
    source(scratch, "book.md", f'---\ntitle: Moves\ntitle: "Marches\\e"\n---\n\n{BODY}')
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        "error[RB002]: `title` is given again in the front matter: the last one is read\n --> book.md:3:1\n"
    ), lint.out
    assert "error[RB002]: a control character (U+001B) in the front matter's title\n --> book.md:3:8\n" in lint.out


@pytest.mark.parametrize(
    ("blocks", "line"),
    [
        ("{title=Weather roll=D6}\n| D6 | Weather |\n|---|\n| 1-6 | Rain |\n", 13),
        ("{title=Weather}\n\nRain all game.\n", 13),
    ],
    ids=["a table with a short delimiter row", "a paragraph"],
)
def test_attributes_given_to_a_paragraph_are_reported_at_their_line(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, blocks: str, line: int
) -> None:
    """A paragraph takes no attributes, and the attributes plugin gives it the block before it: a table whose
    delimiter row is short is a paragraph, and its `{title=... roll=D6}` was dropped with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}\n{blocks}")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        "error[RB002]: an attribute block before a paragraph, which takes none: it is not read\n"
        f"  --> book.md:{line}:1\n"
    ), lint.out
    table = "|---|" in blocks  # the table's delimiter row is reported too (the test below)
    assert lint.out.endswith(f"Found {2 if table else 1} error{'s' if table else ''} in 1 file.\n")


@pytest.mark.parametrize(
    ("rows", "said"),
    [
        ("| D6 | Weather |\n|---|\n| 1-6 | Rain |\n", "a table's delimiter row of 1 cell under a header of 2"),
        ("D6 | Weather\n:-: | --- | ---\n1-6 | Rain\n", "a table's delimiter row of 3 cells under a header of 2"),
    ],
)
def test_a_table_whose_delimiter_row_is_not_its_headers_width_is_reported(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, rows: str, said: str
) -> None:
    """GitHub's tables read such a table as a paragraph: it was shown as its pipes, with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}\n{rows}")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(f"error[RB002]: {said}: the table is read as text\n  --> book.md:14:1\n"), lint.out
    assert "    = help: write a delimiter row of 2 cells (`|---|---|`)\n" in lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n")


@pytest.mark.parametrize(
    ("blocks", "said"),
    [
        ("{title=Weather}\n", "an attribute block with no block after it: it is not read"),
        ("::: note Weather\n\nRain.\n\n{title=Rain}\n:::\n", "an attribute block with no block after it"),
        ("- Rain.\n\n  {title=Rain}\n- Sun.\n", "an attribute block with no block after it"),
        ("{#weather}\n\n# Weather\n\nRain.\n", "an attribute block before a heading: it is not read"),
    ],
    ids=["at the document's end", "at a directive's end", "at an item's end", "before a heading"],
)
def test_attributes_no_block_takes_are_reported_at_their_line(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, blocks: str, said: str
) -> None:
    """The attributes plugin drops a block with nothing after it, and gives one before a heading to the heading,
    whose attributes are written at its end: each was read as nothing, with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}\n{blocks}")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    line = 13 + blocks.splitlines().index(next(b for b in blocks.splitlines() if b.lstrip().startswith("{")))
    assert lint.out.startswith(f"error[RB002]: {said}"), lint.out
    assert f"  --> book.md:{line}:" in lint.out, lint.out


def test_a_tables_attributes_above_a_blank_line_are_reported_where_they_are_written(  # type: ignore[no-untyped-def]
    capsys, scratch: Path
) -> None:
    """The attributes plugin gives a table the block written before the blank line above it: what is wrong with
    them is reported at the block (at the table's first row, it named a line that says nothing of them)."""
    source(scratch, "book.md", f"{BODY}\n{{roll=D9X bogus=1}}\n\n| D6 | Weather |\n|---|---|\n| 1-6 | Rain |\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert "error[RB002]: unknown attribute `bogus` on a table\n  --> book.md:13:11\n" in lint.out, lint.out
    assert "`D9X` is not dice notation\n  --> book.md:13:1\n" in lint.out, lint.out


def test_an_address_markdown_it_refuses_is_reported_where_it_is_written(  # type: ignore[no-untyped-def]
    capsys, scratch: Path
) -> None:
    """markdown-it leaves a link or an image to a `file:`, `javascript:` or `data:` address as text: the page
    showed its markup and the lint said nothing. Each is now the finding any link out or image not in the
    images folder gets, and none reaches a page."""
    blocks = "See [j](javascript:alert(1)) and [f](file:///etc/passwd).\n\n![](file:///C:/pictures/map.png)\n"
    source(scratch, "book.md", f"{BODY}\n{blocks}")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.count("error[RB002]: a link out of the book is not part of the rulebook format") == 2
    assert "warning[RB303]: image `file:///C:/pictures/map.png` is not in the images folder\n" in lint.out
    assert "  --> book.md:13:5\n" in lint.out and "  --> book.md:15:1\n" in lint.out


def test_a_reference_naming_a_book_and_no_term_is_told_to_name_one(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``[[core:]]`` shows no words, and writing it as it is (the help for ``[[march|]]``) would not mend it."""
    source(scratch, "book.md", f"{BODY}\nSee [[core:]].\n")
    lint = run(capsys, "lint", "--color", "never")
    assert "error[RB301]: the reference to `core:` shows no words" in lint.out, lint.out
    assert "help: name the term after the book's name: `[[core:term]]`" in lint.out


def test_attributes_after_a_picture_are_reported_as_such_and_the_picture_shown(  # type: ignore[no-untyped-def]
    capsys, scratch: Path
) -> None:
    """``![Map](x.png){width=50%}``, as Pandoc and kramdown write a picture's size, was "an image within text" with
    the help to give the picture a paragraph of its own, which it had, and the picture was left out of the page."""
    (scratch / "images").mkdir()
    (scratch / "images" / "x.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    line = "![Map](x.png){width=50% onclick=alert(1)}"
    source(scratch, "book.md", f"<!-- rulebook -->\n\n# Moving {{#moving}}\n\n{line}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        "error[RB002]: attributes after a picture (`{width=50% onclick=alert(1)}`), which takes none: they are not "
        "read\n --> book.md:5:1\n"
    ), lint.out
    assert "an image within text" not in lint.out
    assert run(capsys, "build", "--no-pdf").code == 0
    page = (scratch / "site" / "moving" / "index.html").read_text(encoding="utf-8")
    assert '<img src="../images/x.png"' in page and "onclick" not in page and "width=50%" not in page


@pytest.mark.parametrize(
    ("line", "said", "column"),
    [
        ("Units may ***charge*** twice.", "emphasis (`*text*`) is not part of the rulebook format", 11),
        ("Units may __*charge*__ twice.", "emphasis (`*text*`) is not part of the rulebook format", 13),
        ("Read <https://example.com> first.", "a link out of the book is not part of the rulebook format", 6),
        ("| Write | <mailto:a@b.c> |", "a link out of the book is not part of the rulebook format", 11),
    ],
    ids=["emphasis inside a run of three", "emphasis inside strong", "an autolink", "an autolink in a cell"],
)
def test_emphasis_and_autolinks_are_reported_where_they_are_written(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, line: str, said: str, column: int
) -> None:
    """markdown-it pushes a delimiter run as a token a character, and an autolink through a rule of its own: the
    emphasis of ``***charge***`` and every ``<https://...>`` were reported at the paragraph's first character."""
    table = "| Rule | Where |\n|---|---|\n" if line.startswith("|") else ""
    source(scratch, "book.md", f"{BODY}\n{table}{line}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    row = 13 + table.count("\n")
    assert lint.out.startswith(f"error[RB002]: {said}\n  --> book.md:{row}:{column}\n"), lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n")


def test_a_second_table_written_with_no_blank_line_before_it_is_reported(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """GitHub's tables go on to the first blank line: a table written right under another became its rows, its
    header a row and its delimiter a row of dashes, with "All checks passed". A row of short dashes is a row."""
    rows = "| Phase | Weather |\n|---|---|\n| Dawn | - |\n| Move | Turns |\n| :---: | --- |\n| Walk | 1 |\n"
    source(scratch, "book.md", f"{BODY}\n{rows}")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        "error[RB002]: a table's delimiter row among its rows: a table goes on to the first blank line, so this "
        "one's header and rows are read as rows of the table above\n  --> book.md:16:1\n"
    ), lint.out
    assert "    = help: leave a blank line before the new table's header row\n" in lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n")


@pytest.mark.parametrize(
    ("written", "column", "help"),
    [("See [](#moving).", 9, "`[words](#moving)`"), ("See [ ](#moving).", 10, "`[words](#moving)`")],
    ids=["no words", "a space"],
)
def test_a_link_that_shows_no_words_is_reported_not_an_empty_link(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, written: str, column: int, help: str
) -> None:
    """A link without words is as empty on the page as a reference without words: it passed the lint."""
    source(scratch, "book.md", f"{BODY}\n{written}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        f"error[RB301]: the link to `moving` shows no words: an empty link on the page\n  --> book.md:13:{column}\n"
    ), lint.out
    assert f"    = help: write the words it shows: {help}\n" in lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n")


def test_a_link_that_shows_no_words_is_reported_in_xml(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``<link to="moving"/>``, as ``<reference name="march"/>``: an empty link on the page."""
    text = '<document><chapter title="Moving" id="moving">\nSee <link to="moving"/>.</chapter></document>\n'
    source(scratch, "book.xml", text)
    lint = run(capsys, "lint", "--color", "never")
    assert lint.out.startswith(
        "error[RB301]: the link to `moving` shows no words: an empty link on the page\n --> book.xml:2:15\n"
    ), lint.out
    assert '    = help: write the words it shows: `<link to="moving">words</link>`\n' in lint.out


@pytest.mark.parametrize(
    ("heading", "said", "column"),
    [
        ("# [March]{dfn=march_far} {#far}", "a span inside a heading", 3),
        ("# Move [6]{value=reach kind=distance} inches {#far}", "a span inside a heading", 8),
        ("# Move **far** {#far}", "emphasis inside a heading", 8),
        ("# Move ![map](map.png) {#far}", "an image inside a heading", 8),
        ("# See [moving](#moving) {#far}", "a link inside a heading", 7),
        ("# Move `far` {#far}", "code inside a heading", 8),
    ],
    ids=["a definition", "a value", "emphasis", "an image", "a link", "code"],
)
def test_markup_inside_a_heading_is_reported_not_dropped(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, heading: str, said: str, column: int
) -> None:
    """A heading's title is text alone, as the XML's `title=`: a definition or value span in it was dropped (the
    term never defined, the value never declared), an image dropped whole, emphasis, a link and code kept as their
    words, each with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}\n{heading}\n\nFar.\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(f"error[RB002]: {said}\n  --> book.md:13:{column}\n"), lint.out
    assert "    = help: a heading is a title: write it as plain text" in lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n")


@pytest.mark.parametrize(
    ("line", "said", "column"),
    [
        ("1. [**Forced** march]{.title} Go.", "important text inside an item's title", 5),
        ("Move [**6**]{value=reach kind=distance} inches.", "important text inside a value", 7),
        ("See [**moving**](#moving).", "important text inside a link's text", 6),
        ("1. [A [long march]{dfn=long_march}]{.title} A [[long march]].", "a definition inside an item's title", 24),
        ("See [how to [[march]]](#moving).", "a reference inside a link's text", 15),
        ("See [[[march]]](#moving).", "a reference inside a link's text", 8),
        ("See [the [[march]]{type=example} rules](#moving).", "a reference inside a link's text", 12),
        ("See [a [long march]{dfn=long_march}](#moving), a [[long march]].", "a definition inside a link's text", 25),
    ],
    ids=[
        "emphasis in an item's title",
        "emphasis in a value",
        "emphasis in a link",
        "a definition in a title",
        "a reference in a link",
        "a link of a reference alone",
        "an example in a link",
        "a definition in a link",
    ],
)
def test_markup_inside_what_holds_text_alone_is_reported_not_dropped(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, line: str, said: str, column: int
) -> None:
    """An item's title, a value and a link's words are text alone in the XML: emphasis in them was dropped, and a
    definition there was defined with no place on any page (its references resolved to nothing), with "All checks
    passed". A definition so written is left out, and its references are undefined. A reference or a span in a
    link's words made markdown-it read no link at all: the link shown as its markup, with no finding."""
    source(scratch, "book.md", f"{BODY}\n{line}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(f"error[RB002]: {said}\n  --> book.md:13:{column}\n"), lint.out
    assert lint.out.count("error[") == (2 if "definition" in said else 1), lint.out


def test_a_kind_given_to_a_bulleted_list_is_reported_not_dropped(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """`<list>` has no kind: `{kind=turn}` over a bulleted list was dropped with "All checks passed", and the engine
    then said the book "declares no turn structure"."""
    source(scratch, "book.md", f"{BODY}\n{{kind=turn id=round}}\n- Move.\n- Fight.\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith("error[RB002]: a bulleted list takes no `kind`: it is not read\n  --> book.md:13:2\n"), (
        lint.out
    )
    assert (
        "    = help: a sequence of steps (`kind=turn`, `kind=setup`) is a numbered list: `1.`, `2.`, ...\n" in lint.out
    )
    assert lint.out.endswith("Found 1 error in 1 file.\n")


@pytest.mark.parametrize(
    ("declaration", "said"),
    [
        ('<!-- rulebook: list kind="turn" -->', "a `list` declaration takes no `kind`"),
        ('<!-- rulebook: list bogus="x" -->', "the `list` declaration has no attribute `bogus`"),
    ],
    ids=["kind on a list", "an unknown attribute"],
)
@pytest.mark.parametrize("markdown_format", MARKDOWN_FORMATS)
def test_a_declaration_giving_what_it_cannot_is_reported_not_dropped(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, declaration: str, said: str, markdown_format: str
) -> None:
    """A declaration comment's attributes were never checked: `list kind="turn"` (the XML's `<list>` has no kind)
    and `bogus="x"` were dropped with "All checks passed", and the engine said the book declares no turn."""
    markdown_book(scratch, f"# Rules\n\n## Turn\n\n{declaration}\n- Move.\n- Fight.\n", markdown_format)
    lint = run(capsys, "lint", "--color", "never")
    code = "RB002" if markdown_format == "markdown" else "RB502"  # plain Markdown's declarations are the data's
    assert f"error[{code}]: {said}\n --> book.md:5:1\n" in lint.out, lint.out


@pytest.mark.parametrize(
    ("written", "said", "column"),
    [
        (
            "{title=Weather title=Rain}\n| D6 | Weather |\n|---|---|\n| 1-6 | Rain |",
            "`title` given twice on a table",
            16,
        ),
        ("{#phases id=round}\n- Move.", "`id` given twice on a list", 10),
        ("[To [[march]] far.]{dfn=march dfn=march_far}", "`dfn` given twice on a definition", 31),
        ("# Far {#far #farther}\n\nFar.", "`id` given twice on a heading", 13),
    ],
    ids=["a table's title", "a list's id, as #id and id=", "a span's dfn", "a heading's id"],
)
def test_an_attribute_given_twice_is_reported_at_the_second(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, written: str, said: str, column: int
) -> None:
    """The attributes plugin reads the last of a key given twice: the first was lost with "All checks passed", as
    a front matter's `title` given twice was."""
    source(scratch, "book.md", f"{BODY}\n{written}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert f"error[RB002]: attribute {said}: the last one is read\n  --> book.md:13:{column}\n" in lint.out, lint.out


def test_a_source_named_with_no_formats_ending_is_not_read_as_xml(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """`book.mdown` was read as XML: "start tag expected", with the help to fix the XML. Its text says it is not XML:
    it is refused with the endings the formats read; a file so named holding XML is still read as XML."""
    source(scratch, "book.mdown", BODY)
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 2
    assert lint.out.startswith(
        "error[RB004]: `book.mdown` is not read: no source format reads a name with `.mdown`\n --> book.mdown:1:1\n"
    ), lint.out
    assert 'rename it, or name its format in the configuration (`format = "markdown"`)' in lint.out
    source(scratch, "book.mdown", '<document><chapter title="A" id="a">Text.</chapter></document>\n')
    assert run(capsys, "lint", "--color", "never").code == 0


def test_character_references_in_an_attribute_value_are_read(scratch: Path) -> None:
    """`{title="Roll &amp; Move"}` showed `&amp;` on the page, as a title written in XML never does."""
    from rulebook.readers.markdown_syntax import attributes_of, parse_dialect_text

    tokens = parse_dialect_text('{title="Roll &amp; Move \\"x\\""}\n| a | b |\n|---|---|\n| 1 | 2 |\n')
    assert attributes_of(next(t for t in tokens if t.type == "table_open"))["title"] == 'Roll & Move "x"'


@pytest.mark.parametrize(
    ("name", "text", "said"),
    [
        ("book.md", f"{BODY}\n##\n\nMore.\n", "error[RB301]: a heading has no title\n  --> book.md:13:1\n"),
        (
            "book.xml",
            '<document><chapter title="A" id="a"><section title=" " id="s">Text.</section></chapter></document>\n',
            "error[RB301]: section has an empty `title`\n --> book.xml:1:37\n",
        ),
    ],
    ids=["markdown", "xml"],
)
def test_a_heading_without_a_title_is_reported(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, name: str, text: str, said: str
) -> None:
    """A blank line on the page and in the menu, with "All checks passed"."""
    source(scratch, name, text)
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert said in lint.out, lint.out


def test_a_reference_broken_across_lines_is_read_as_one(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """An editor that wraps a paragraph breaks a reference anywhere: ``[[line of`` at a line's end and ``march]]`` on
    the next were shown on the page as written, brackets and all, with "All checks passed". Spaces around a name
    before its bar are not the name's (``[[ march |...]]`` was the invalid name `` march ``)."""
    source(scratch, "book.md", f"{BODY}An army may [[ march |march\nfar]], or take [[line of\nsight]].\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith("error[RB101]: reference to undefined term `line_of_sight`\n  --> book.md:13:16\n")
    assert lint.out.endswith("Found 1 error in 1 file.\n"), lint.out
    xml = converted(capsys, scratch, "book.md", "book.xml")
    assert 'An army may <reference name="march">march\nfar</reference>, or take' in xml
    assert '<reference name="line_of_sight">line of\nsight</reference>' in xml


STRAY_BRACKETS = "`[[` opens no reference: it is shown as written"
STRAY_BLOCK = "an attribute block that follows nothing that takes one: it is shown as written"
STRUCK = "`~~` strikes nothing through in the rulebook format: the text is shown with its tildes"


@pytest.mark.parametrize(
    ("line", "said", "column"),
    [
        ("A [[march] is a move.", STRAY_BRACKETS, 3),
        ("A [[march is a move.", STRAY_BRACKETS, 3),
        ("A [march]] is a move.", STRAY_BRACKETS.replace("[[` opens", "]]` closes"), 9),
        ("An army may [[march]] {type=example}.", STRAY_BLOCK, 23),
        ("An army may [[march]]{type=example}{type=example}.", STRAY_BLOCK, 36),
        ("[A [[march]] is a move.{dfn=move}", STRAY_BLOCK, 24),
        ("A [march](#moving){.title} is a move.", STRAY_BLOCK, 19),
        ("A ~~forced~~ march, \\~\\~kept\\~\\~, ~~~three~~~.", STRUCK, 3),
        (
            'See [Go](#moving "the [[x") here.',
            "`[[` in a link's title, which the book does not keep: it makes no reference",
            23,
        ),
    ],
)
def test_the_dialects_markup_read_as_text_is_reported_where_it_stands(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, line: str, said: str, column: int
) -> None:
    """A reference's brackets that open or close none, an attribute block after a space, after another or after a
    span missing its bracket were shown on the page as written, the reference, its example or the definition lost,
    with "All checks passed"; escaped, they are text (``\\[[``, ``\\{type=x\\}``), as a cell's ``{.header}`` and a
    heading's ``{#id}`` are their own."""
    source(scratch, "book.md", f"{BODY}\n{line}\n\nText \\[[a\\]] and \\{{type=x\\}} and {{2D6}}.\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(f"error[RB002]: {said}\n  --> book.md:13:{column}\n"), lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n"), lint.out


@pytest.mark.parametrize(
    ("block", "said"),
    [
        ("::: note Scatter {#scatter}\n\nText.\n\n:::", "error[RB002]: an attribute block inside a note's title\n"),
        ("::: note Scatter [[march\n\nText.\n\n:::", "error[RB002]: a reference's brackets inside a note's title\n"),
        ("::: note See [x](#moving now)\n\nText.\n\n:::", "error[RB002]: a link's brackets inside a note's title\n"),
        ("![a](x.png){width=50%}", "error[RB002]: attributes after a picture (`{width=50%}`), which takes none"),
        ('{title="T}\n| a | b |\n|---|---|\n| 1 | 2 |', "error[RB002]: an attribute block that cannot be read\n"),
    ],
)
def test_the_dialects_markup_in_a_title_is_reported_once(capsys, scratch: Path, block: str, said: str) -> None:  # type: ignore[no-untyped-def]
    """``::: note Scatter {#scatter}`` (a Pandoc writer's id) titled the note "Scatter {#scatter}", with "All checks
    passed"; a picture's attributes are reported as such, once."""
    source(scratch, "book.md", f"{BODY}\n{block}\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(said), lint.out
    assert lint.out.count("error[") == 1, lint.out


def test_a_name_written_twice_on_a_line_is_placed_at_each(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A finding is placed at the name it was made at, not at a later one written another way: the ways to write a
    name were tried one after the other, so ``[[zz]] and [[zz|x]]`` was reported twice at the second (``[[zz|``
    tried before ``[[zz]]``), and a reference in a link's words at a reference after the link."""
    text = "A [[zz]] and [[zz|x]] end.\n\nA [x [[march]]](#moving) and [[march|marching\nfar]].\n"
    source(scratch, "book.md", f"{BODY}{text}")
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    found = re.findall(r"line=(\d+),col=(\d+)", lint.out)
    assert found == [("12", "5"), ("12", "16"), ("14", "8")], lint.out


def test_a_comment_no_arrow_closes_is_reported_where_it_opens(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A comment whose ``-->`` is missing (``<!-- rulebook: mechanic name="hit" ...`` and the paragraph ends) is text:
    the declaration was lost and its characters shown on the page, with "All checks passed". A closed comment, one
    in code and an escaped ``\\<!--`` keep theirs."""
    text = (
        'Roll a die. <!-- rulebook: mechanic name="hit" roll="D6" pass="at-least"\n\n'
        "A \\<!-- x, `<!--`, <!-- ok --> and [a <!-- b](#moving).\n"
    )
    lint, found = _invalid_document_findings(capsys, scratch, text)
    opens = "`<!--` opens a comment that no `-->` closes in its paragraph: it is shown as written"
    assert [(line, column, said) for line, column, said in found if "code" not in said] == [
        ("12", "13", opens),
        ("14", "39", opens),
    ], lint.out
    assert lint.code == 1


@pytest.mark.parametrize(
    "text",
    [
        "<!-- to check\n\n## Extra {#extra}\n\nA [[march]] here.\n",
        "::: note Aside\n\n<!-- to check\n\nA [[march]] here.\n\n:::\n",
    ],
)
def test_a_comment_starting_a_line_that_no_arrow_closes_is_reported(capsys, scratch: Path, text: str) -> None:  # type: ignore[no-untyped-def]
    """A comment starting a line whose ``-->`` is missing makes all after it HTML: the sections after it were left
    out of the book, with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}{text}")
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    assert lint.code == 1
    line = 12 + text.split("\n").index("<!-- to check")
    said = "`<!--` opens a comment that no `-->` closes: all that follows it is hidden"
    assert f"line={line},col=1,title=RB002 invalid-document::{said}" in lint.out, lint.out


def test_a_reference_written_another_way_is_placed_at_itself(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A reference whose name is written with capitals or spaces (``[[ZZ]]``, ``[[z z]]``) is placed at its own name:
    its finding stood at a later ``[[zz|`` of the line, or at a word ``z_z`` of the text."""
    text = "A [[ZZ]] and [[zz|x]] end.\n\nA [[ Z z ]] here, the z_z word.\n"
    source(scratch, "book.md", f"{BODY}{text}")
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    found = re.findall(r"line=(\d+),col=(\d+)", lint.out)
    assert found == [("12", "5"), ("12", "16"), ("14", "6")], lint.out
    source(scratch, "book.md", f"{BODY}| a | b |\n|---|---|\n| [[Zz\\|x]] and [[zz]] | 2 |\n")
    lint = run(capsys, "lint", "--color", "never")
    assert "14 | | [[Zz\\|x]] and [[zz]] | 2 |\n   |     ^^\n" in lint.out, lint.out  # the name, not its `\`


def test_a_links_finding_stands_at_its_address_not_at_a_span_after_it(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A finding made at a link's ``[`` was placed as a span's is, at its ``dfn=`` or ``value=``: ``[Go](#nope)``
    was reported at a later ``{dfn=nope}`` of its line."""
    source(scratch, "book.md", f"{BODY}See [Go](#nope) and [A [[nope]] thing]{{dfn=nope}}.\n")
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    assert "line=12,col=11,title=RB102 dangling-link::link to unknown id `nope`" in lint.out, lint.out


def test_a_link_by_label_whose_words_hold_a_reference_is_read(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A link written with a label (``[the [[march]] rules][ref]``, ``[ref]: #moving`` below) whose words hold a
    reference is read as a link and the reference reported, as for a link written with its address: it was shown as
    ``[the march rules]`` and a link ``ref``, brackets and all, with "All checks passed"."""
    source(scratch, "book.md", f"{BODY}See [the [[march]] rules][ref] here.\n\n[ref]: #moving\n")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith("error[RB002]: a reference inside a link's text\n  --> book.md:12:12\n"), lint.out
    assert lint.out.endswith("Found 1 error in 1 file.\n"), lint.out
    run(capsys, "convert", "book.md", "--to", "xml", "-o", "book.xml")
    assert 'See <link to="moving">the march rules</link> here.' in (scratch / "book.xml").read_text(encoding="utf-8")


def test_a_link_markdown_it_does_not_read_is_reported_where_its_address_opens(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A link whose address holds a space or misses its ``)`` is no link: ``[Go](#moving there)`` was shown as
    written, brackets and parentheses, with "All checks passed"; so was a link by a label no definition gives
    (``[this][nope]``). Links, pictures, code and escapes keep theirs."""
    text = (
        "Go [there](#moving here) or [back](#moving now.\n\n"
        '[Go](#moving), [Go](#moving "a ]("), `](`, \\](, [![a](a.png)](#moving).\n\n'
        "See [this][nope], [that][], [Go][ref], \\][.\n\n[ref]: #moving\n"
    )
    lint, found = _invalid_document_findings(capsys, scratch, text)
    opens = "`](` opens no link's address: the link is shown as written"
    labels = "`][` opens no label a link reference definition gives: the link is shown as written"
    assert found == [
        ("12", "10", opens),
        ("12", "34", opens),
        ("14", "38", "code (`` ` ``) is not part of the rulebook format"),
        ("14", "50", "an image inside a link's text"),
        ("16", "10", labels),
        ("16", "24", labels),
    ], lint.out


def test_a_hard_break_inside_a_reference_is_a_line_end_of_its_words(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """A reference's words are text alone: a hard break in them (`\\` at a line's end) kept its backslash, shown
    on the page (`march\\`) and named so when the reference has no words of its own."""
    source(scratch, "book.md", f"{BODY}\nIt may [[march\\\n]] far, or [[march|walk\\\nfar]].\n")
    assert run(capsys, "lint").code == 0
    assert run(capsys, "convert", "book.md", "-o", "book.xml").code == 0
    xml = (scratch / "book.xml").read_text(encoding="utf-8")
    assert '<reference name="march">march\n</reference> far, or <reference name="march">walk\nfar</reference>' in (xml)


def test_a_references_brackets_in_what_the_book_does_not_keep_say_so(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``[[`` in a link's title or a picture's description was said to be "shown as written", but neither makes a
    reference (the XML has no title; a picture's words are plain text): the finding says what happens, where the
    brackets stand."""
    source(scratch, "book.md", f'{BODY}See [Go](#moving "the [[x") here.\n\n![a [[march]] b](a.png "t ]]")\n')
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    found = re.findall(r"line=(\d+),col=(\d+),title=RB002 invalid-document::([^%]*)", lint.out)
    assert found == [
        ("12", "23", "`[[` in a link's title, which the book does not keep: it makes no reference"),
        ("14", "5", "`[[` in a picture's description or title, whose words are plain text: it makes no reference"),
        ("14", "12", "`]]` in a picture's description or title, whose words are plain text: it makes no reference"),
        ("14", "27", "`]]` in a picture's description or title, whose words are plain text: it makes no reference"),
    ], lint.out
    run(capsys, "convert", "book.md", "--to", "xml", "-o", "book.xml")
    xml = (scratch / "book.xml").read_text(encoding="utf-8")
    assert 'See <link to="moving">Go</link> here.' in xml
    assert '<illustration><image source="a.png" alt="a b"/></illustration>' in xml  # its words, as plain text


def test_a_links_finding_stands_at_its_address_however_the_address_is_written(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``[Go](<#bad dest>)`` (an address in angle brackets, as CommonMark allows spaces) and ``[Go](#nope "t")`` were
    reported at the link's ``[``, other addresses' findings at the address: each stands at its address."""
    text = 'See [Go](<#bad dest>) and [Go](#nowhere), [Go](#nowhere "t") and [Go]( <#nope> "t").\n'
    source(scratch, "book.md", f"{BODY}{text}")
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    found = re.findall(r"line=(\d+),col=(\d+),title=(RB\d+)", lint.out)
    assert found == [("12", "12", "RB302"), ("12", "33", "RB102"), ("12", "49", "RB102"), ("12", "74", "RB102")], (
        lint.out
    )


@pytest.mark.parametrize(
    ("after", "hidden"),
    [
        ("", "to the end"),
        ('\nRoll. <!-- rulebook: mechanic name="hit" roll="D6" pass="at-least" -->\n', "to the next `-->`"),
    ],
)
def test_the_marker_written_unclosed_is_named_where_it_stands(capsys, scratch: Path, after: str, hidden: str) -> None:  # type: ignore[no-untyped-def]
    """``<!-- rulebook`` with no ``-->`` hid the book to the next ``-->`` (a mechanic's), and the findings said "text
    before the first chapter" at the lines after it, the marker not named; a mechanic's declaration over lines is no
    marker."""
    source(scratch, "book.md", BODY.replace("<!-- rulebook -->", "<!-- rulebook  ") + after)
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        f"error[RB002]: the marker `<!-- rulebook` is not closed on its line: all that follows it is hidden, {hidden}\n"
        " --> book.md:1:1\n"
    ), lint.out
    assert "= help: write the marker `<!-- rulebook -->` on a line of its own\n" in lint.out
    declared = '\nRoll. A die.\n\n<!-- rulebook: mechanic name="hit"\n     roll="D6" pass="at-least" -->\n'
    source(scratch, "book.md", BODY + declared)
    assert "marker" not in run(capsys, "lint", "--color", "never").out


@pytest.mark.parametrize("markdown_format", MARKDOWN_FORMATS)
def test_a_comment_no_arrow_closes_in_its_paragraph_is_reported_in_either_markdown(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, markdown_format: str
) -> None:
    """Plain Markdown showed a paragraph's unclosed ``<!--`` as text (as CommonMark does), with "All checks passed",
    where the dialect reported it: both report the first of each paragraph where it stands, not a closed one."""
    text = "# Basics\n\nA <!-- a --> b <!-- lost and more.\n\nThen <!-- opened\n\nand --> closed.\n\n- an item <!-- x\n"
    markdown_book(scratch, f"<!-- rulebook -->\n\n{text}", markdown_format)
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    said = "`<!--` opens a comment that no `-->` closes in its paragraph: it is shown as written"
    found = re.findall(rf"line=(\d+),col=(\d+),title=RB002 invalid-document::{re.escape(said)}", lint.out)
    assert found == [("5", "16"), ("7", "6"), ("11", "11")], lint.out
    assert lint.code == 1


def test_a_tables_attributes_written_under_it_are_told_to_go_before_it(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``{title=After}`` on the line under a table is a row of one cell: "unknown attribute `title` on a table cell"
    was true but no help; a table's own attributes in a cell alone say where they go, others in a cell do not."""
    table = "| a | b |\n|---|---|\n| 1 | 2 |\n{title=After #after .x}\n\n| a | b |\n|---|---|\n| 1 | 2 {title=z} |\n"
    source(scratch, "book.md", f"{BODY}\n{table}")
    lint = run(capsys, "lint", "--color", "never", "--format", "json")
    found = [(f["line"], f["column"], f["message"], f["help"]) for f in json.loads(lint.out)["diagnostics"]]
    before = "a table cell takes `{.header}`; a table's own attributes go on the line right before its first row"
    assert found == [
        (16, 2, "unknown attribute `title` on a table cell", before),
        (16, 14, "unknown attribute `#after` on a table cell", before),
        (16, 21, "unknown class `.x` on a table cell", "a table cell takes `{.header}`"),
        (20, 10, "unknown attribute `title` on a table cell", "a table cell takes `{.header}`"),
    ], lint.out


@pytest.mark.parametrize("markdown_format", MARKDOWN_FORMATS)
@pytest.mark.parametrize("end", ["\n", "\r\n"])
def test_convert_says_nothing_of_a_comment_that_commonmark_shows_as_text(  # type: ignore[no-untyped-def]
    capsys, scratch: Path, markdown_format: str, end: str
) -> None:
    """A ``<!--`` opened in a paragraph and closed two paragraphs later is text (CommonMark's, the readers' and the
    converted file's), yet convert said "a comment is not carried over" of it: only a comment it leaves out is
    named."""
    text = "# Basics\n\nThen <!-- opened <!-- here\n\nmiddle.\n\nand closed --> later.\n\nA <!-- real --> one.\n"
    markdown_book(scratch, f"<!-- rulebook -->\n\n{text}".replace("\n", end), markdown_format)
    outcome = run(capsys, "convert", "book.md", "--to", "xml", "-o", "book.xml")
    assert outcome.code == 0
    left = [line for line in outcome.err.splitlines() if "not carried over" in line]
    assert left == [
        "book.md:11:3: a comment is not carried over (it stands within a paragraph's text): <!-- real -->"
    ], outcome.err
    written = (scratch / "book.xml").read_text(encoding="utf-8")
    assert "Then &lt;!-- opened &lt;!-- here" in written and "and closed --&gt; later." in written, written


def test_a_table_with_no_delimiter_row_and_a_heading_of_seven_hashes_are_reported(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """Rows between bars with no ``|---|`` under the header are a paragraph, shown as one line of bars, and seven
    ``#`` make no heading, shown with its ``#``: each passed with "All checks passed" (four to six ``#`` were
    reported). A line of bars alone, rows in prose, an escaped ``\\#`` and a table with its delimiter row keep theirs."""
    text = (
        "\n| Roll | Effect |\n| 1-3 | Miss |\n| 4-6 | Hit |\n\n"
        "####### Deeper\n\nText.\n####### Deeper again\n\n"
        "| one line |\n\nA | b\n| 1 | 2 |\n\n\\####### Kept\n\n| A | B |\n|---|---|\n| 1 | 2 |\n"
    )
    lint, found = _invalid_document_findings(capsys, scratch, text)
    rows = "a table with no delimiter row under its header: its rows are shown as a paragraph of bars"
    deeper = "a heading deeper than a subsection: seven `#` or more make no heading, it is shown as written"
    assert found == [("13", "1", rows), ("17", "1", deeper), ("20", "1", deeper)], lint.out
    assert lint.code == 1


def test_a_picture_named_with_a_nul_is_a_picture_not_in_the_folder(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """`![a](h%00.png)` with a pictures folder beside the book: "internal error: ValueError: embedded null byte"
    from the lint and the build (a name no path can hold, looked up as one)."""
    source(scratch, "book.md", f"{BODY}\n![a](h%00.png)\n")
    (scratch / "images").mkdir()
    (scratch / "images" / "p.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    lint = run(capsys, "lint", "--color", "never")
    assert (
        "internal error" not in lint.out + lint.err
        and "warning[RB303]: image `h␀.png` is not in the images folder" in lint.out
    )
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 0, built.err
