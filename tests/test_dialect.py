"""The Markdown dialect: a book written in it gives the model its XML gives; `rulebook convert` round trips.

``tests/dialect/book.md`` uses every construct of the dialect; ``tests/dialect/book.xml`` is the same book
in the XML format (``rulebook convert``'s output, read and kept). Two readings are compared without their
places (file, offset) and with white space in text folded: XML keeps its indentation as text, Markdown has
none to keep (see "White space" in docs/format.md).
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rulebook.cli import main
from rulebook.convert import ConversionError, convert_document, convert_source
from rulebook.data import build_rule_data, build_site_summary, serialise
from rulebook.graph import TermGraph
from rulebook.model import Book, Document, ItemList, Table, walk
from rulebook.project import BookConfig
from rulebook.readers.markdown import parse_dialect
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book
from rulebook.site.pages import SiteInput, SitePlan, build_pages
from rulebook.site.theme import Theme
from rulebook.xml_source import parse_xml_string

from .conftest import BUNDLED_BOOK, CASES, ROOT
from .model_dump import dump_document

DIALECT = ROOT / "tests" / "dialect"


def markdown(text: str, path: str = "book.md") -> Document:
    result = parse_dialect(text, path)
    assert result.document is not None
    return result.document


def round_trip(xml_text: str) -> tuple[Document, str, Document]:
    """An XML book, its conversion to the dialect, and that read back: the same model (checked here)."""
    xml = parse_xml_string(xml_text, "book.xml")
    assert xml.diagnostics == () and xml.document is not None
    text = convert_document(xml.document, "markdown")
    back = parse_dialect(text, "book.md")
    assert back.diagnostics == () and back.document is not None
    assert dump_document(back.document) == dump_document(xml.document)
    return xml.document, text, back.document


def rule_data(document: Document) -> dict[str, Any]:
    """``rules.json`` of a one-document book, without the source's place and with text's white space folded."""
    book = Book((document,))
    data = json.loads(serialise(build_rule_data(book, TermGraph(book), title="T", edition="E")))
    data["book"].pop("sources")
    data["book"].pop("content_hash")
    return _folded(data)


def _folded(value: Any) -> Any:
    if isinstance(value, dict):
        return {
            key: " ".join(item.split()) if key == "text" and isinstance(item, str) else _folded(item)
            for key, item in value.items()
            if key not in ("line", "column", "file")
        }
    if isinstance(value, list):
        items = [_folded(item) for item in value]
        return [i for i in items if not (isinstance(i, dict) and i.get("type") == "text" and not i["text"])]
    return value


# -- one book, both formats -------------------------------------------------------------------------------


def test_every_construct_of_the_dialect_is_read() -> None:
    result = parse_dialect((DIALECT / "book.md").read_text(encoding="utf-8"), "book.md")
    assert result.diagnostics == ()
    document = result.document
    assert document is not None and document.title == "Tiles and Dice"
    assert [(s.id, s.number, s.level, s.title) for s in document.sections] == [
        ("core", "1", 1, "Core Concepts"),
        ("tiles", "1.1", 2, "Tiles"),
        ("turn", "2", 1, "The Turn"),
        ("line_of_sight_rules", "2.1", 2, "Line of Sight"),
    ]
    assert [(d.name, d.parent) for d in document.definitions] == [
        ("warband", None),
        ("fighter", "warband"),
        ("tile", None),
        ("nothing", None),
        ("profile", None),
        ("line_of_sight", None),
    ]
    example = next(r for r in document.references if r.kind == "example")
    assert (example.name, example.text, str(example.span)) == ("line_of_sight", "Line of Sight", "book.md:24:42")
    tables = [a.node for a in document.annotated if isinstance(a.node, Table)]
    assert [(t.title, t.roll, len(t.rows)) for t in tables] == [("Scatter", "D6", 2), (None, "D3", 2)]
    assert all(row.cells[0].header for table in tables for row in table.rows)
    sides = next(n for n in walk(document.body) if isinstance(n, Table) and n.columns and len(n.columns.cells) == 4)
    assert [[cell.header for cell in row.cells] for row in sides.rows] == [
        [True, False, True, False],
        [False] * 2 + [True, False],
    ]
    steps = next(a.node for a in document.annotated if a.node.kind == "setup")
    assert isinstance(steps, ItemList) and (steps.id, steps.title) == ("setup", "Setting up")
    assert [item.title for item in steps.items] == ["Deploy", "Roll", None]  # type: ignore[union-attr]
    assert [f.id for f in document.figures] == ["board_figure"] and len(document.images) == 3
    assert [(v.name, v.text) for v in document.values] == [("game_turns", "6"), ("player_turns_each", "6")]
    assert [m.name for m in document.mechanics] == ["reroll"]
    back_in_chapter = document.body[0].children[-1]
    assert isinstance(back_in_chapter, str) and "after its section" in back_in_chapter


def test_the_same_book_in_xml_gives_the_same_model_and_rule_data() -> None:
    written = markdown((DIALECT / "book.md").read_text(encoding="utf-8"))
    xml = parse_xml_string((DIALECT / "book.xml").read_text(encoding="utf-8"), "book.xml")
    assert xml.diagnostics == () and xml.document is not None
    assert dump_document(written) == dump_document(xml.document)
    assert rule_data(written) == rule_data(xml.document)


def test_the_xml_of_the_dialects_book_is_its_conversion() -> None:
    written = markdown((DIALECT / "book.md").read_text(encoding="utf-8"))
    assert convert_document(written, "xml") == (DIALECT / "book.xml").read_text(encoding="utf-8")


# -- convert --------------------------------------------------------------------------------------------


def test_the_bundled_book_converted_to_markdown_gives_the_same_model_and_rule_data() -> None:
    xml = read_book([BUNDLED_BOOK], ROOT).book.documents[0]
    text = convert_document(xml, "markdown")
    converted = parse_dialect(text, "rulebook.md")
    assert converted.diagnostics == () and converted.document is not None
    assert dump_document(converted.document) == dump_document(xml)
    assert rule_data(converted.document) == rule_data(xml)
    again = parse_xml_string(convert_document(converted.document, "xml"), "again.xml")
    assert again.document is not None and convert_document(again.document, "markdown") == text  # a fixed point


CONVERTIBLE = sorted(p for p in CASES.iterdir() if (p / "book.xml").is_file() and not p.name.startswith("malformed"))


@pytest.mark.parametrize("case", CONVERTIBLE, ids=lambda p: p.name)
def test_each_lint_case_round_trips(case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each case's ``book.md`` is what `rulebook convert` writes of its ``book.xml`` (its comments and suppressions
    too), and reads as the XML does."""
    xml = read_book([case / "book.xml"], ROOT).book.documents[0]
    monkeypatch.chdir(case)
    assert main(["convert", "book.xml", "-o", str(tmp_path / "book.md")]) == 0
    written = (tmp_path / "book.md").read_text(encoding="utf-8")
    for converted in (markdown(convert_document(xml, "markdown")), markdown(written)):
        spaced = [re.sub(r" +", " ", json.dumps(dump_document(d))) for d in (converted, xml)]
        assert spaced[0] == spaced[1]  # a comment within XML text parts it: "a. <!-- -->\n b" reads "a.  b"
    assert (case / "book.md").read_text(encoding="utf-8") == written


def test_a_mechanic_that_opens_a_paragraph_keeps_the_paragraphs_text() -> None:
    """``<!--`` at a line's start opens an HTML block that takes the whole line: the conversion writes a comment
    that starts a paragraph on a line of its own, so the text after it is still read."""
    xml = parse_xml_string(
        '<document><chapter title="C"><mechanic name="reroll" max="1"/>Roll again once.</chapter></document>', "b.xml"
    )
    assert xml.document is not None
    text = convert_document(xml.document, "markdown")
    assert '<!-- rulebook: mechanic name="reroll" max="1" -->\nRoll again once.' in text
    back = parse_dialect(text, "b.md")
    assert back.diagnostics == () and back.document is not None
    assert dump_document(back.document) == dump_document(xml.document)


def test_a_reference_to_another_books_term_shows_the_term_not_the_book() -> None:
    """``[[core:Fighter]]`` names book ``core``'s term; a reader sees "Fighter", never the prefix."""
    document = markdown(
        "<!-- rulebook -->\n# C\n\nA [[core:Fighter]], a [[core:fighter|brave one]], [[Nerve Test]], [[CORE:Nerve]].\n"
    )
    shown = [(r.name, r.text) for r in document.references]
    assert shown == [
        ("core:fighter", "Fighter"),
        ("core:fighter", "brave one"),
        ("nerve_test", "Nerve Test"),
        ("core:nerve", "Nerve"),
    ]
    converted = markdown(convert_document(document, "markdown"))
    assert [(r.name, r.text) for r in converted.references] == shown


def test_an_images_file_name_is_the_one_written() -> None:
    """markdown-it encodes a destination's spaces (``%20``): the reader decodes them, as it does a link's, and the
    writer encodes a ``%`` so that a file named with one comes back."""
    text = "<!-- rulebook -->\n# C\n\n![](<my map.png>) ![](a%25b.png)\n"
    files = [image.file for image in markdown(text).images]
    assert files == ["my map.png", "a%b.png"]
    assert [image.file for image in markdown(convert_document(markdown(text), "markdown")).images] == files


def test_a_declaration_comment_declares_the_list_after_it_as_in_plain_markdown() -> None:
    """The engine's help for a Markdown book says `<!-- rulebook: sequence kind="turn" -->` on the line before the
    list: the dialect reads it as its own `{kind=turn}` (a bullet list declared a sequence is steps)."""
    text = '<!-- rulebook -->\n# C\n\n<!-- rulebook: sequence kind="turn" id="round" title="A round" -->\n- Move.\n'
    (declared,) = markdown(text).annotated
    assert isinstance(declared.node, ItemList)
    assert (declared.node.ordered, declared.node.kind, declared.node.id, declared.node.title) == (
        True,
        "turn",
        "round",
        "A round",
    )
    written = markdown('<!-- rulebook -->\n# C\n\n{kind=turn id=round title="A round"}\n1. Move.\n')
    assert dump_document(markdown(text)) == dump_document(written)


def test_a_list_in_a_table_cell_is_written_as_github_shows_one() -> None:
    """The XML's cells may hold lists (and definitions holding them): a pipe table's cell writes one in HTML,
    ``<ul><li>...</li></ul>``, which GitHub shows as a list and the reader reads as one, nested or not."""
    _, text, _ = round_trip(
        '<document><chapter title="C"><table><headers><header>Unit</header><header>Options</header></headers>'
        '<row><cell>Spears</cell><cell>One of:<list><item>a <reference name="shield">shield</reference></item>'
        "<item>two <important>hands</important><list><item>nested</item></list></item></list>then roll.</cell></row>"
        '<row><cell>Bows</cell><cell><definition name="volley">A volley:<list><item>all</item></list></definition>'
        '</cell></row></table><definition name="shield">A <reference name="volley">volley</reference>.</definition>'
        "</chapter></document>"
    )
    assert (
        "| Spears | One of:<ul><li>a [[shield]]</li><li>two **hands**<ul><li>nested</li></ul></li></ul>then roll. |"
        in text.splitlines()
    )
    misplaced = parse_dialect("<!-- rulebook -->\n# C\n\n| a |\n|---|\n| <li>x</li> |\n", "b.md")
    assert [(d.message, d.span.line, d.span.column) for d in misplaced.diagnostics][:1] == [
        ("`<li>` out of place", 6, 3)
    ]


def test_header_cells_anywhere_in_a_row_are_marked_and_round_trip() -> None:
    """The DTD's ``row (header | cell)+``: a header cell past the first column, or in a first column whose other rows
    are data, is written ``{.header}`` at the cell's end (markdown-it-attrs' attributes of a cell); read back, the
    same model, rule data and XML."""
    xml, text, back = round_trip(
        '<document><chapter title="C"><table><headers><header>Side</header><header>Attacker</header><header>Side'
        "</header><header>Defender</header></headers><row><header>Front</header><cell>first</cell><header>Rear"
        "</header><cell>last</cell></row><row><cell>both</cell><cell>a|b</cell><header></header><cell>3</cell></row>"
        '<row><header><important>All</important></header><header>after a <reference name="x">x</reference></header>'
        '<cell>-</cell><header>2</header></row></table><definition name="x">X.</definition></chapter></document>'
    )
    assert [line for line in text.splitlines() if line.startswith("| ") and "{.header}" in line] == [
        "| Front {.header} | first | Rear {.header} | last |",
        "| both | a\\\\|b | {.header} | 3 |",
        "| **All** {.header} | after a [[x]] {.header} | - | 2 {.header} |",
    ]
    assert rule_data(back) == rule_data(xml)
    assert convert_document(back, "xml") == convert_document(xml, "xml")


def test_a_cells_attributes_other_than_header_are_reported_and_braced_text_is_text() -> None:
    text = (
        "<!-- rulebook -->\n# C\n\n| a | b |\n|---|---|\n| x {.haeder} | y {.header #top} |\n"
        "| Roll {2D6} | \\{.header\\} |\n| [z]{dfn=z} | w |\n"
    )
    result = parse_dialect(text, "b.md")
    assert [(d.span.line, d.span.column, d.message, d.help) for d in result.diagnostics] == [
        (6, 6, "unknown class `.haeder` on a table cell", "did you mean `{.header}`?"),
        (6, 28, "unknown attribute `#top` on a table cell", "a table cell takes `{.header}`"),
    ]
    assert result.document is not None
    table = result.document.body[0].children[0]
    assert isinstance(table, Table)
    assert [[(c.header, c.children) for c in row.cells] for row in table.rows][:2] == [
        [(False, ("x",)), (True, ("y",))],
        [(False, ("Roll {2D6}",)), (False, ("{.header}",))],
    ]
    assert not table.rows[2].cells[0].header  # the span's attributes are its own


def test_unknown_attributes_are_reported_at_their_key_with_the_closest_known() -> None:
    """On a heading, a span (a definition's, a value's, a title's), a reference, a list: each unknown key at its own
    line and column, those the attributes plugin drops as unsafe (``onclick``) too."""
    text = (
        "<!-- rulebook -->\n# C {#c foo=bar .unumbered}\n\n"
        "A [x]{dfn=x onclick=alert} lasts [6]{value=r knd=turns}; [[x]]{tpye=example} and [w]{.red}.\n\n"
        "{onload=go}\n1. [T]{.title id=t} text\n"
    )
    found = [(d.span.line, d.span.column, d.message, d.help) for d in parse_dialect(text, "b.md").diagnostics]
    assert found == [
        (2, 9, "unknown attribute `foo` on a heading", "a heading takes `{#id}`, `{.unnumbered}`"),
        (2, 17, "unknown class `.unumbered` on a heading", "did you mean `{.unnumbered}`?"),
        (4, 13, "unknown attribute `onclick` on a definition", "a definition takes `dfn`"),
        (4, 46, "unknown attribute `knd` on a value", "did you mean `kind`?"),
        (4, 64, "unknown attribute `tpye` on a reference", "did you mean `type`?"),
        (4, 86, "unknown class `.red` on a span", "a span takes `dfn`, `value`, `kind`, `term`"),
        (6, 2, "unknown attribute `onload` on a list", "a list takes `roll`, `kind`, `id`, `title`"),
        (7, 15, "unknown attribute `id` on an item's title", "an item's title takes `.title`"),
    ]
    unreadable = parse_dialect("<!-- rulebook -->\n# C\n\n## Title {#id foo}\n\n## Rolls \\{2D6\\}\n", "b.md")
    assert [(d.span.line, d.span.column, d.message) for d in unreadable.diagnostics] == [
        (4, 10, "a heading's attribute block that cannot be read")
    ]
    assert unreadable.document is not None
    assert [s.title for s in unreadable.document.sections] == ["Title", "Rolls {2D6}"]  # an escaped brace is text


def test_plain_markdowns_declaration_comments_get_the_dialects_spelling() -> None:
    """A value comment is plain Markdown's: the dialect says how it writes the value; a block's declaration within a
    line, or a declaration it does not know, is reported too (a mechanic's comment is the dialect's)."""
    text = (
        "<!-- rulebook -->\n# C\n\nGames last 6 rounds. "
        '<!-- rulebook: value name="rounds" kind="turns" number="6" -->\n\n'
        'A <!-- rulebook: sequence kind="turn" --> b <!-- rulebook: mechanc name="a" --> '
        '<!-- rulebook: mechanic name="hit" roll="D6" -->\n'
    )
    result = parse_dialect(text, "b.md")
    assert [(d.span.line, d.span.column, d.message, d.help) for d in result.diagnostics] == [
        (
            4,
            37,
            "a value declared in a comment (plain Markdown's) is not read in the dialect",
            "write the number as a value where the text states it: `[6]{value=rounds kind=turns}`",
        ),
        (
            6,
            18,
            "a `sequence` declaration within a line is not read",
            "write it on a line of its own right before the list, or its attributes there: `{kind=... id=...}`",
        ),
        (6, 60, "unknown declaration `mechanc`", "did you mean `rulebook: mechanic`?"),
    ]
    assert result.document is not None and [m.name for m in result.document.mechanics] == ["hit"]


def test_what_a_pipe_table_cannot_hold_stops_the_conversion_with_its_place() -> None:
    xml = parse_xml_string(
        '<document><chapter title="C"><table><row><cell><sequence><item>a</item></sequence></cell></row></table>'
        "</chapter></document>",
        "book.xml",
    ).document
    assert xml is not None
    with pytest.raises(ConversionError, match=r"^book.xml:1:\d+: a table cell holding a note, a table or a numbered"):
        convert_document(xml, "markdown")
    braced = parse_xml_string(
        '<document><chapter title="C"><sequence title="A {b}"><item>a</item></sequence></chapter></document>', "b.xml"
    )
    assert braced.document is not None
    with pytest.raises(ConversionError, match=r"^b.xml:1:30: `A \{b\}` holds a brace"):
        convert_document(braced.document, "markdown")
    numbered = parse_xml_string('<document><chapter title="C" number="IV">Text.</chapter></document>', "b.xml")
    assert numbered.document is not None
    with pytest.raises(ConversionError, match=r"^b.xml:1:11: the section number `IV` is not digits and dots"):
        convert_document(numbered.document, "markdown")


def test_convert_writes_a_new_file_and_never_replaces_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "book.md").write_text((DIALECT / "book.md").read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["convert", "book.md"]) == 0
    assert (tmp_path / "book.xml").read_text(encoding="utf-8") == (DIALECT / "book.xml").read_text(encoding="utf-8")
    assert capsys.readouterr().out == "Wrote book.xml (xml).\n"
    (tmp_path / "book.xml").write_text("mine", encoding="utf-8")
    assert main(["convert", "book.md"]) == 2
    assert (tmp_path / "book.xml").read_text(encoding="utf-8") == "mine"
    assert "exists" in capsys.readouterr().err


def test_a_converted_book_is_linted_where_its_xml_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Outside a project a Markdown file must say it is a rulebook: the conversion writes ``<!-- rulebook -->``, so
    the Markdown file named on the command line is linted as the XML file was, with the same findings."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "book.xml").write_bytes((CASES / "reference-to-section" / "book.xml").read_bytes())
    assert main(["convert", "book.xml"]) == 0
    assert "<!-- rulebook -->" in (tmp_path / "book.md").read_text(encoding="utf-8").splitlines()
    capsys.readouterr()
    found = []
    for name in ("book.xml", "book.md"):
        status = main(["lint", "--format", "json", name])
        report = json.loads(capsys.readouterr().out)
        found.append((status, sorted((d["rule"], d["target"]) for d in report["diagnostics"])))
    assert found[0] == found[1]
    assert found[0][0] == 1 and ("reference-to-section", "figure_1") in found[0][1]


def test_init_starts_a_markdown_project_that_lints_clean(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    assert main(["init", str(tmp_path / "game"), "--format", "markdown", "--title", "Game"]) == 0
    assert not (tmp_path / "game" / "rules" / "book.xml").exists()
    assert 'sources = ["rules/book.md"]' in (tmp_path / "game" / "rulebook.toml").read_text(encoding="utf-8")
    monkeypatch.chdir(tmp_path / "game")
    assert main(["lint"]) == 0


@pytest.mark.slow  # a build with its PDF
def test_the_starters_definitions_are_paragraphs_of_their_own_on_the_site_and_in_the_pdf(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two ``::: definition`` blocks in a row, as the starter writes its rules: each a paragraph, never one glued
    to the other ("read the number on top.To take a nerve test")."""
    import pypdf

    assert main(["init", str(tmp_path / "game"), "--format", "markdown", "--title", "Game"]) == 0
    monkeypatch.chdir(tmp_path / "game")
    assert main(["build", "-q"]) == 0
    page = (tmp_path / "game" / "site" / "basics" / "index.html").read_text(encoding="utf-8")
    assert re.search(r"number on top\.<a [^>]*></a></span></p>\s*<p><span [^>]*id=\"term-nerve_test\"", page)
    pdf = "\n".join(page.extract_text() for page in pypdf.PdfReader(tmp_path / "game" / "site" / "game.pdf").pages)
    assert "read the number on top.\nTo take a nerve test" in pdf


BESIDE_DEFINITIONS = """# Core {#core}

A band of [[scavenger|scavengers]] is a [[crew]].

::: definition crew

A [[crew]] is every [[scavenger]] one player controls.

:::

::: definition scavenger

A [[scavenger]] is one miniature.

:::

Each [[scavenger]] has a profile.
"""


def test_text_beside_a_definition_block_stays_a_paragraph_of_its_own_both_ways() -> None:
    """A ``::: definition`` of one paragraph between paragraphs is a paragraph: breaks part it from its neighbours in
    the model (the site, the PDF and rules.json show them apart), ``<br/>`` in the XML, blank lines back in Markdown."""
    document = markdown(BESIDE_DEFINITIONS)
    kinds = [type(node).__name__ for node in document.body[0].children if not isinstance(node, str)]
    assert kinds == ["Reference"] * 2 + ["LineBreak", "Definition"] * 2 + ["LineBreak", "Reference"]
    xml = convert_document(document, "xml")
    assert "</reference>.\n    <br/><definition " in xml and "</definition>\n    <br/><definition " in xml
    assert "</definition>\n    <br/>Each " in xml  # each paragraph on a line of its own
    again = parse_xml_string(xml, "book.xml").document
    assert again is not None and dump_document(again) == dump_document(document)
    assert convert_document(again, "markdown") == "<!-- rulebook -->\n\n" + BESIDE_DEFINITIONS


# -- the dialect's checks and the lint's words --------------------------------------------------------------


def test_the_dialects_checks_are_located() -> None:
    text = (
        "# Chapter\n\n"
        "::: defintion unit\nA unit.\n:::\n\n"
        "## About [[unit]]\n\n"
        "Some *emphasis* and [a site](https://example.org).\n\n"
        "::: note Outer\n::: note Inner\nx\n:::\n:::\n\n"
        "{roll=D6 colour=red}\n- one\n\n# Another chapter\n"
    )
    found = [(d.span.line, d.span.column, d.message) for d in parse_dialect(text, "book.md").diagnostics]
    assert found == [
        (3, 1, "unknown directive `defintion`"),
        (7, 10, "a reference inside a heading"),
        (9, 6, "emphasis (`*text*`) is not part of the rulebook format"),
        (9, 21, "a link out of the book is not part of the rulebook format"),
        (12, 1, "a note is not allowed inside a note"),
        (17, 10, "unknown attribute `colour` on a list"),
    ]


def _one_book(folder: Path, monkeypatch: pytest.MonkeyPatch, text: str) -> None:
    """A project of one book, ``book.md`` holding ``text``, made the working folder."""
    (folder / "rulebook.toml").write_text('sources = ["book.md"]\n', encoding="utf-8")
    (folder / "book.md").write_text(text, encoding="utf-8")
    monkeypatch.chdir(folder)


def test_a_directive_naming_nothing_is_one_finding(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A definition or figure naming nothing is the lint's empty name, as its XML is (not a reading finding too);
    a note without its title is the reader's."""
    _one_book(
        tmp_path,
        monkeypatch,
        "# Battle\n\n::: definition\nA warband.\n:::\n\n::: figure\n\n![A die](die.png)\n\n:::\n\n"
        "::: note\n\nA note.\n\n:::\n",
    )
    assert main(["lint", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["line"], d["message"]) for d in found] == [
        ("RB301", 3, "a definition names no term"),
        ("RB301", 7, "an id is empty"),
        ("RB303", 9, "image `die.png` is not in the images folder"),
        ("RB002", 13, "`::: note` needs the note's title"),
    ]


def test_lint_findings_on_markdown_speak_markdown_and_point_at_the_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _one_book(
        tmp_path,
        monkeypatch,
        "# Battle\n\n::: definition warband\nA warband.\n:::\n\nEvery [[fighter|fighters]] stands.\n",
    )
    assert main(["lint", "--color", "never"]) == 1
    report = capsys.readouterr().out
    assert "help: define it with `::: definition fighter`" in report
    assert "refer to it with `[[warband]]`" in report
    assert "7 | Every [[fighter|fighters]] stands.\n  |         ^^^^^^^" in report


def test_a_book_in_markdown_lints_as_its_xml() -> None:
    """The same findings at the same names; the help of each in its own format's syntax (no XML element in the
    Markdown's, and a declaration the Markdown reader reads: a mechanic or a list's declaration comment)."""
    found, helps = [], []
    for path in (DIALECT / "book.md", DIALECT / "book.xml"):
        result = lint_book(read_book([path], ROOT, linking=BookConfig("main").linking), BookConfig("main"), root=ROOT)
        found.append(sorted((d.code, d.target) for d in result.diagnostics))
        helps.append(" ".join(d.help or "" for d in result.diagnostics))
    assert found[0] == found[1]
    assert "<sequence" in helps[1] and not re.search(r"<(sequence|reference|definition|table)\b", helps[0])


def _page_text(path: Path) -> str:
    """A built file as compared across formats: a page's white space folded (and none beside a tag), the search
    index's dropped, rules.json without the source's places, a PDF's pages as their text reads (without white
    space: Typst breaks lines where the words' spaces let it)."""
    if path.suffix == ".pdf":
        import pypdf

        from .pdf_reading import squeezed

        return "\n".join(squeezed(page.extract_text()) for page in pypdf.PdfReader(str(path)).pages)
    text = path.read_text(encoding="utf-8")
    if path.name == "rules.json":
        return json.dumps(_folded({k: v for k, v in json.loads(text).items() if k != "book"}), sort_keys=True)
    if path.name == "search_index.json":
        return re.sub(r"\s+|\\n", "", text)
    return re.sub(r" ?(<[^>]*>) ?", r"\1", re.sub(r"\s+", " ", text))


@pytest.mark.slow  # two builds of the bundled book
def test_the_bundled_books_site_is_the_same_built_from_its_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The bundled book, and its conversion to Markdown, each built as a project's book: the same files, the same
    pages and rule data but for white space in text and the source's places."""
    sites = []
    for name, source in (("xml", "book.xml"), ("markdown", "book.md")):
        project = tmp_path / name
        project.mkdir()
        (project / "rulebook.toml").write_text(f'title = "T"\nsources = ["{source}"]\n', encoding="utf-8")
        xml = BUNDLED_BOOK.read_text(encoding="utf-8")
        if name == "xml":
            (project / source).write_text(xml, encoding="utf-8")
        else:
            document = parse_xml_string(xml, "book.xml").document
            assert document is not None
            converted = convert_source(document, document.sections[0].source, "markdown", markdown_source=False)
            assert converted.left == () and "<!-- TODO: Include graphics -->" in converted.text  # its comments too
            (project / source).write_text(converted.text, encoding="utf-8")
        monkeypatch.chdir(project)
        assert main(["build", "-q"]) == 0
        sites.append(project / "site")
    files = [sorted(p.relative_to(site).as_posix() for p in site.rglob("*") if p.is_file()) for site in sites]
    assert files[0] == files[1]
    differing = [f for f in files[0] if (sites[0] / f).read_bytes() != (sites[1] / f).read_bytes()]
    assert "rules.json" in differing  # its sources, and the places of definitions
    for name in differing:
        assert _page_text(sites[0] / name) == _page_text(sites[1] / name), name


# -- a translation in the dialect ------------------------------------------------------------------------------


def test_a_markdown_translation_pairs_sections_by_number_and_tables_row_by_row() -> None:
    from rulebook.translate.compare import compare_books

    original = read_book([DIALECT / "book.md"], ROOT).book
    french = (DIALECT / "fr.md").read_text(encoding="utf-8")
    translated = parse_dialect(french, "fr.md", language="fr").document
    assert translated is not None
    comparison = compare_books(original, Book((translated,)), translation_language="fr", terms={}, waivers={})
    assert comparison.findings == []
    assert [(p.original.id if p.original else None, p.method) for p in comparison.pairs][:3] == [
        ("core", "numbering"),
        ("tiles", "numbering"),
        ("turn", "numbering"),
    ]
    changed = french.replace("| 1-2 | Touche la tuile |", "| 1-2 | Touche la tuile 2 fois |")
    translated = parse_dialect(changed, "fr.md", language="fr").document
    assert translated is not None
    comparison = compare_books(original, Book((translated,)), translation_language="fr", terms={}, waivers={})
    assert [(f.rule.code, f.message, str(f.place)) for f in comparison.findings] == [
        ("RB614", "row `1-2` / `1-2`: the translation says 2", "fr.md:38:1")
    ]


def test_the_front_matters_title_titles_a_book_the_configuration_leaves_untitled(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _one_book(tmp_path, monkeypatch, (DIALECT / "book.md").read_text(encoding="utf-8"))
    assert main(["build", "-q", "--data-only"]) == 0
    assert (
        json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))["book"]["title"] == "Tiles and Dice"
    )
    (tmp_path / "rulebook.toml").write_text('title = "Configured"\nsources = ["book.md"]\n', encoding="utf-8")
    assert main(["build", "-q", "--data-only"]) == 0
    assert json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))["book"]["title"] == "Configured"


def test_a_book_that_names_itself_before_its_own_term_links_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``[[main:charge]]`` (``[[MAIN:charge]]`` too) written in the book ``main`` is its own ``charge``, as the docs
    promise (a book's name before a colon names "the book itself or one it uses"): linked on the page and counted in
    the rule data like ``[[charge]]``; a name the book does not have stays prefixed, and the lint says so there."""
    _one_book(
        tmp_path,
        monkeypatch,
        "# Battle {#battle}\n\n::: definition charge\nA charge.\n:::\n\n"
        "A [[main:charge]], a [[MAIN:charge]], [[main:charge|charges]], [[charge]], [back](#main:battle).\n",
    )
    assert main(["lint"]) == 0
    assert main(["build", "-q", "--no-pdf"]) == 0
    data = json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))
    assert data["terms"]["charge"]["reference_count"] == 4 and data["outside_terms"] == {}
    page = (tmp_path / "site" / "battle" / "index.html").read_text(encoding="utf-8")
    assert page.count('<a class="rb-term" href="#term-charge" data-term="charge">') == 4
    assert "rb-unpublished" not in page
    assert '<a class="rb-link" href="./">back</a>' in page
    capsys.readouterr()
    (tmp_path / "book.md").write_text(
        "# Battle\n\n::: definition charge\nA charge.\n:::\n\nA [[main:chrage]] [here](#main:fight).\n"
    )
    assert main(["lint", "--format", "json"]) == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["rule"], d["target"], d["line"], d["column"], d["help"]) for d in found] == [
        ("unused-definition", "charge", 3, 1, "refer to it with `[[charge]]` where the rules use it, or remove it"),
        (
            "dangling-reference",
            "main:chrage",
            7,
            3,
            "define it with `::: definition chrage`, or baseline it if its chapter is not written yet",
        ),
        (
            "dangling-link",
            "main:fight",
            7,
            19,
            "give the target section or figure `{#fight}`, or baseline it if it is not written yet",
        ),
    ]


UNMARKED = """# 1 Core Concepts

## 1.1 Fighter

A fighter is one model. Each fighter rolls on the table below.

# 2 The Turn

A game lasts [6]{value=game_turns kind=turns} turns.

| D6 | Result |
|---|---|
| 1-2 | The fighter stumbles |
| 3-6 | The fighter moves |
"""


def test_a_book_that_marks_no_term_keeps_its_annotations_when_its_headings_link_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A dialect book written as most teams write Markdown (numbered headings, a pipe table, no definitions): its
    headings give its terms, and linking them keeps what the book annotates (the roll table its D6 column makes,
    a value, the title of its front matter); the definition's place is its paragraph's start."""
    _one_book(tmp_path, monkeypatch, "---\ntitle: Skirmish\n---\n<!-- rulebook -->\n" + UNMARKED)
    assert main(["build", "-q", "--data-only"]) == 0
    data = json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))
    assert data["book"]["title"] == "Skirmish"
    assert [(t["id"], t["die"], [(b["min"], b["max"]) for b in t["bands"]]) for t in data["roll_tables"]] == [
        ("the-turn", "D6", [(1, 2), (3, 6)])
    ]
    assert data["values"]["game_turns"]["value"] == 6
    fighter = data["terms"]["fighter"]["defined_at"]
    assert (fighter["line"], fighter["column"], fighter["section"]) == (9, 1, "fighter")
    assert [s["id"] for s in data["sections"]] == ["core-concepts", "the-turn"]


def test_a_book_of_chapters_only_gets_its_terms_from_the_chapters_headings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A title, then a page per rule (``## Tile``, ``## Hit``): the rules' headings are the terms; in a book with
    sections below its chapters, a chapter's title ("Playing") names no term."""
    (tmp_path / "rulebook.toml").write_text('sources = ["flat.md"]\n\n[books.deep]\nsources = ["deep.md"]\n')
    (tmp_path / "flat.md").write_text(
        "# Tiles and Hits\n\n## Tile\nA tile is a square.\n\n## Hit\nA hit lands on a Tile.\n\n"
        "## Playing\nPlaying scores a Hit.\n",
        encoding="utf-8",
    )
    (tmp_path / "deep.md").write_text(
        "# Playing\n\n## Tile\nA tile is a square.\n\n## Hit\nA hit lands on a Tile, when Playing.\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["build", "-q", "--data-only"]) == 0
    flat = json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))
    assert sorted(flat["terms"]) == ["hit", "playing", "tile"]
    assert [s["id"] for s in flat["sections"]] == ["tile", "hit", "playing"]
    deep = json.loads((tmp_path / "site" / "deep" / "rules.json").read_text(encoding="utf-8"))
    assert sorted(deep["terms"]) == ["hit", "tile"]
    (tmp_path / "flat.md").write_text("# 1 Rules\n\nRules are read.\n\n# 2 Play\n\nPlay by the Rules.\n")
    assert main(["build", "-q", "--data-only"]) == 0  # chapters written `#`: none is a term
    assert json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))["terms"] == {}


def test_a_roll_tables_rows_pair_by_their_band_before_the_terms_they_name() -> None:
    """The translation's row "1-2" is the original's "1-2", even when another row names the term the original's
    row does (here the translator swapped two results): the values then differ on the rows that differ."""
    from rulebook.translate.compare import compare_books
    from rulebook.translate.terminology import Entry

    english = parse_xml_string(
        '<document><chapter title="Objectives"><section title="Secondary Objectives">Roll a D6 on the table.'
        '<table roll="D6">'
        '<row><header>1-2</header><cell><reference name="hold">Hold</reference>: keep 2 markers.</cell></row>'
        '<row><header>3-4</header><cell><reference name="breach">Breach</reference>: cross 3 lines.</cell></row>'
        "</table></section></chapter></document>",
        "en.xml",
    ).document
    french = markdown(
        "# 1 Objectifs\n\n## 1.1 Objectifs secondaires\n\nLancez un D6 sur la table.\n\n| | |\n|---|---|\n"
        "| 3-4 | Tenir : garder 2 marqueurs. |\n| 1-2 | Percée : franchir 3 lignes. |\n",
        "fr.md",
    )
    assert english is not None
    terms = {"hold": Entry("hold", "Tenir"), "breach": Entry("breach", "Percée")}
    comparison = compare_books(Book((english,)), Book((french,)), translation_language="fr", terms=terms, waivers={})
    rows = [f.message for f in comparison.findings if f.rule.code == "RB614"]
    assert rows == [
        "row `1-2` / `1-2`: the original says 2; the translation says 3",
        "row `3-4` / `3-4`: the original says 3; the translation says 2",
    ]


def test_a_title_that_starts_with_digits_is_kept_whole_with_unnumbered() -> None:
    xml = parse_xml_string(
        '<document><chapter title="Deployment"><section title="1 to 3: Classic">x</section>'
        '<section title="Flank" number="4.1">y</section></chapter></document>',
        "book.xml",
    ).document
    assert xml is not None
    text = convert_document(xml, "markdown")
    assert "## 1 to 3: Classic {.unnumbered}\n" in text and "## 4.1 Flank\n" in text
    assert dump_document(markdown(text)) == dump_document(xml)


def test_the_configurations_formats_are_the_readers_table(tmp_path: Path) -> None:
    from rulebook.config_file import ConfigError
    from rulebook.project import SOURCE_FORMATS, parse_project
    from rulebook.readers.formats import FORMATS

    assert tuple(f.name for f in FORMATS) == SOURCE_FORMATS
    project = parse_project({"sources": ["a.md"], "format": "plain-markdown"}, tmp_path)
    assert project.main.format == "plain-markdown"
    with pytest.raises(
        ConfigError, match=r"`format` in \[tool.rulebook\] must be one of xml, markdown, plain-markdown"
    ):
        parse_project({"sources": ["a.md"], "format": "md"}, tmp_path)


def test_a_numbered_heading_keeps_its_number_on_the_site() -> None:
    """``## 2.1 Setting Up`` reads "2.1 Setting Up" on the site as in the PDF; the number is never the anchor."""
    document = markdown(
        "# 2 The Game {#game}\n\nPlay.\n\n## 2.1 Setting Up {#setup}\n\nSet up.\n\n## Aside\n\nNo number.\n"
    )
    book = Book((document,))
    terms = TermGraph(book)
    site = SiteInput(book, terms, build_site_summary(book, terms, title="Book", edition="1"), (), set(), [])
    pages, _ = build_pages(SitePlan(site), Theme().environment())
    chapter = next(p for p in pages if p.path == "game.md")
    headings = re.findall(r"^#+ .*$", chapter.markdown, flags=re.MULTILINE)
    assert headings == ["# 2 The Game { #game }", "## 2\\.1 Setting Up { #setup }", "## Aside { #aside }"]
    assert chapter.title == "The Game"


# -- roll tables as the book reads them -------------------------------------------------------------------------

ROLL_TABLES = """---
title: Storms
---

# Core {#core}

::: definition line_of_sight

A [[line_of_sight|Line of Sight]] is what a fighter sees.

:::

::: definition charge

A [[charge]] is a run at the enemy.

:::

{kind=setup id=setup title="Setting up"}
1. [Roll for the storm.](#ash_storm)
2. [Roll for the chase.](#chase)

## Ash Storm {#ash_storm}

{title="Ash Storm" id=storm_table}
| D6 | Storm | Effect |
|---|---|---|
| 1-3 | Still air | Nothing changes. |
| 4-6 | Haze | [[line_of_sight\\|Lines of sight]] past 18 inches are blocked. |

## Chase {#chase}

{id=chase_table}
| 2D6 | Result |
|---|---|
| 2-6 | [[charge]] |
| 7-12 | The [[charge]] fails. |
"""


def test_roll_tables_read_as_the_book_reads_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A roll table's result cells read with a dash between them, never glued ("HazeLines of sight"), in rules.json,
    the engine's answers and the quick reference; a result that mentions a term is its words, one that is a term
    alone names it; a first column headed ``2D6`` makes a roll table of 2D6 by itself."""
    (tmp_path / "rulebook.toml").write_text('title = "T"\nsources = ["book.md"]\n', encoding="utf-8")
    (tmp_path / "book.md").write_text(ROLL_TABLES, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["lint"]) == 0
    assert main(["build", "-q", "--no-pdf"]) == 0
    capsys.readouterr()
    data = json.loads((tmp_path / "site" / "rules.json").read_text(encoding="utf-8"))
    tables = {t["id"]: (t["die"], [(b["result"], b["term"]) for b in t["bands"]]) for t in data["roll_tables"]}
    haze = "Haze — Lines of sight past 18 inches are blocked."
    assert tables == {
        "storm_table": ("D6", [("Still air — Nothing changes.", None), (haze, None)]),
        "chase_table": ("2D6", [("charge", "charge"), ("The charge fails.", None)]),
    }
    assert main(["engine", "odds", "table", "storm_table"]) == 0
    assert f"  4-6  1/2 (50.0%)  {haze}\n" in capsys.readouterr().out
    assert main(["engine", "pregame", "--seed", "1"]) == 0
    walk = capsys.readouterr().out
    assert re.search(r"storm_table: D6 rolled \d -> (Still air — Nothing changes\.|Haze — Lines of sight past)", walk)
    tables_page = (tmp_path / "site" / "tables" / "index.html").read_text(encoding="utf-8")
    assert f"<td>{haze}</td>" in tables_page and "<td>The charge fails.</td>" in tables_page


# -- references in pipe tables ---------------------------------------------------------------------------------

PIPES = """# Core {#core}

| Key | [[aim|Aim]] |
|---|---|
| Zi | [[aim|Zielen]] and [Wie gut man zielt.]{dfn=aim} |
| Si | [[Line of Sight\\|Sicht]] |
| Ra | one | two | three |

A [[aim|sentence]] with a | pipe is no table.
"""


def test_a_reference_with_display_text_is_one_cell_of_a_pipe_table() -> None:
    """``[[name|text]]`` in a table's cell is a reference, as anywhere else (GitHub would split the cell at its
    ``|``); ``\\|`` in it reads as outside tables; a row with more cells than the header is reported, not cut."""
    result = parse_dialect(PIPES, "book.md")
    assert result.document is not None
    table = next(node for node in result.document.body[0].children if isinstance(node, Table))
    assert table.columns is not None and [c.children[0].text for c in table.columns.cells[1:]] == ["Aim"]  # type: ignore[union-attr]
    zielen = table.rows[0].cells[1].children
    assert [(type(n).__name__, getattr(n, "name", n)) for n in zielen] == [
        ("Reference", "aim"),
        ("str", " and "),
        ("Definition", "aim"),
    ]
    assert str(zielen[0].span) == "book.md:5:8"  # type: ignore[union-attr]
    sicht = table.rows[1].cells[1].children[0]
    assert (sicht.name, sicht.text, str(sicht.span)) == ("Line of Sight", "Sicht", "book.md:6:8")  # type: ignore[union-attr]
    assert [(d.message, str(d.span)) for d in result.diagnostics] == [
        ("a row with more cells than its table's header: `two | three` is not read", "book.md:7:14")
    ]
    sentence = [n for n in result.document.body[0].children if not isinstance(n, str | Table)]
    assert [(n.name, n.text) for n in sentence] == [("aim", "sentence")]  # type: ignore[union-attr]  # not `\\|`


# -- where a finding points ------------------------------------------------------------------------------------

MISPLACED = """---
title: Places
---

# Core {#core}

## Measuring {#measuring width=wide}

A band of [[scavanger|scavengers]] moves.

A test.<!-- rulebook: mechanic name="test" pas="at-most" roll="2D6" -->

::: notes Rerolls

A note.

:::

| Key | What |
|---|---|
| Li | Lines: [[line_of_sight\\|sight]] |

Two spans: [x]{onclick=y} and [y]{foo=a onclick=z}.
"""


def test_a_findings_header_and_github_annotation_name_the_column_its_caret_stands_at(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The caret stands under the name at fault (an attribute's key, a directive's name, a reference's name, a
    mechanic's name); the header (``file:line:col``), GitHub's and SARIF's annotations name that column too."""
    (tmp_path / "rulebook.toml").write_text('title = "T"\nsources = ["book.md"]\n', encoding="utf-8")
    (tmp_path / "book.md").write_text(MISPLACED, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    main(["lint"])
    text = capsys.readouterr().out
    headers = re.findall(r"--> book\.md:(\d+):(\d+)\n.*\n.*\n *\| ( *)\^", text)
    places = [(int(line), int(column)) for line, column, _ in headers]
    assert [(line, len(spaces) + 1) for (line, _), (_, _, spaces) in zip(places, headers, strict=True)] == places
    # Each span's unknown key where it is, the first span's too (not at the same key later on the line).
    assert sorted(places) == [(7, 26), (9, 13), (11, 38), (11, 44), (13, 5), (21, 17), (23, 16), (23, 35), (23, 41)]
    main(["lint", "--format", "github"])
    annotations = re.findall(r"file=book\.md,line=(\d+),col=(\d+)", capsys.readouterr().out)
    assert sorted((int(line), int(column)) for line, column in annotations) == sorted(places)
    main(["lint", "--format", "sarif"])
    regions = [
        r["locations"][0]["physicalLocation"]["region"]
        for r in json.loads(capsys.readouterr().out)["runs"][0]["results"]
    ]
    assert sorted((r["startLine"], r["startColumn"]) for r in regions) == sorted(places)


@pytest.mark.parametrize("end", ["\r\n", "\r"])
def test_a_table_with_references_reads_the_same_whatever_its_line_ends(end: str) -> None:
    """The rows whose pipes are protected are found by markdown-it's count of lines, which ``\\r`` ends too."""
    as_written, again = parse_dialect(PIPES, "book.md"), parse_dialect(PIPES.replace("\n", end), "book.md")
    assert as_written.document is not None and again.document is not None
    assert dump_document(again.document) == dump_document(as_written.document)
    assert [(d.message, str(d.span)) for d in again.diagnostics] == [
        (d.message, str(d.span)) for d in as_written.diagnostics
    ]


def test_a_control_character_in_the_text_is_reported_where_it_stands() -> None:
    """The XML reader refuses a control character; the dialect reports each where it stands (a hundred at most)."""
    result = parse_dialect("# C\n\n## S\n\nA bell \x07 rings, then \x1b.\n", "book.md")
    assert [(d.message, str(d.span)) for d in result.diagnostics] == [
        ("a control character (U+0007) in the text", "book.md:5:8"),
        ("a control character (U+001B) in the text", "book.md:5:22"),
    ]
    many = parse_dialect("# C\n\n## S\n\n" + "\x07" * 500 + "\n", "book.md")
    assert len(many.diagnostics) == 100
    assert (
        many.diagnostics[-1].message == "a control character (U+0007) in the text (and 400 more after it, not listed)"
    )


def test_html_in_a_heading_is_reported_not_dropped_in_silence() -> None:
    """A heading is a title: its words are kept, and HTML in it is reported where it stands (a comment is not)."""
    result = parse_dialect("# C\n\n## B <b>bold</b> <!-- note --> {#b}\n\nText.\n", "book.md")
    assert result.document is not None and result.document.sections[-1].title == "B bold"
    assert [(d.message, str(d.span)) for d in result.diagnostics] == [
        ("HTML (`<b>`) in a heading is not part of the rulebook format", "book.md:3:6"),
        ("HTML (`</b>`) in a heading is not part of the rulebook format", "book.md:3:13"),
    ]
