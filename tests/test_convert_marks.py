"""`rulebook convert` carries what the model does not hold: the lint's suppressions, where they hide the same
findings in the other format, and the authors' comments between blocks; what it cannot carry it names, with its
place (compiler/convert/marks.py, docs/format.md "Comments and suppressions"). And a break round trips."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.convert import convert_document, convert_source
from rulebook.lint.suppressions import find_suppressions
from rulebook.project import BookConfig
from rulebook.readers.markdown import parse_dialect
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book
from rulebook.source import SourceText
from rulebook.xml_source import parse_xml_string

from .conftest import BUNDLED_BOOK, CASES, ROOT
from .model_dump import dump_document
from .test_dialect import rule_data

SUPPRESSING = sorted(
    case
    for case in CASES.iterdir()
    if (case / "book.xml").is_file() and "rulebook ignore" in (case / "book.xml").read_text(encoding="utf-8")
)
"""The lint cases whose XML holds suppressions."""


def findings(path: Path) -> Counter[tuple[str, str]]:
    """The lint's findings of a one-file book, by code and message (their places differ between formats)."""
    book = BookConfig("main")
    result = lint_book(read_book([path], path.parent, linking=book.linking), book, root=path.parent)
    return Counter((d.code, d.message) for d in result.diagnostics)


def converted(path: Path, into: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """``path`` converted by `rulebook convert` into ``into`` (in the other format), every mark carried."""
    monkeypatch.chdir(path.parent)
    assert main(["convert", str(path), "-o", str(into)]) == 0
    return into


def test_there_is_a_lint_case_with_suppressions() -> None:
    assert [case.name for case in SUPPRESSING] == ["suppressions-carried"]


@pytest.mark.parametrize("case", SUPPRESSING, ids=lambda p: p.name)
def test_a_cases_suppressions_hide_the_same_findings_after_xml_to_markdown_to_xml(
    case: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    original = findings(case / "book.xml")
    assert ("RB101", "reference to undefined term `fighterr`") in original  # hidden on the line before, not here
    assert ("RB102", "link to unknown id `anywhere`") in original  # the line after the one a suppression covers
    markdown = converted(case / "book.xml", tmp_path / "book.md", monkeypatch)
    assert findings(markdown) == original
    xml = converted(markdown, tmp_path / "again.xml", monkeypatch)
    assert findings(xml) == original
    written = len(find_suppressions(SourceText.from_text("book.xml", (case / "book.xml").read_text(encoding="utf-8"))))
    assert len(find_suppressions(SourceText.from_text("book.md", markdown.read_text(encoding="utf-8")))) == written
    assert len(find_suppressions(SourceText.from_text("again.xml", xml.read_text(encoding="utf-8")))) == written


MARKDOWN_BOOK = """---
title: "Marks"
---

<!-- rulebook -->

<!-- TODO: a chapter on scoring -->
# Basics {#basics}

A [[fightr|fighter]] moves. <!-- rulebook: ignore RB101 -->
A [[fighterr|fighter]] rests.\\
Then [[fightr|one]] waits.

<!-- rulebook: ignore dangling-link -->
See [nowhere](#nowhere), and [elsewhere](#elsewhere)
or [anywhere](#anywhere).

::: definition fighter

A [[fighter]] is a model.

:::

<!-- rulebook: ignore RB402 -->
## Tiles {#tiles}

- one [[tyle|tile]] <!-- rulebook: ignore dangling-reference -->
- two [[tyle|tiles]]
"""


def test_a_markdown_books_suppressions_hide_the_same_findings_in_xml_and_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    source = tmp_path / "book.md"
    source.write_text(MARKDOWN_BOOK, encoding="utf-8")
    original = findings(source)
    assert ("RB101", "reference to undefined term `fighterr`") in original
    xml = converted(source, tmp_path / "book.xml", monkeypatch)
    assert "<!-- TODO: a chapter on scoring -->\n  <chapter" in xml.read_text(encoding="utf-8")
    assert findings(xml) == original
    again = converted(xml, tmp_path / "again.md", monkeypatch)
    assert findings(again) == original
    assert "<!-- TODO: a chapter on scoring -->\n# Basics {#basics}" in again.read_text(encoding="utf-8")


def test_the_dialects_book_with_a_suppression_on_every_line_of_references_converts_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Every construct of the dialect's book, a reference misspelt in a definition's paragraph and in a nested span,
    every second line that refers to a term suppressed and every heading commented: the same findings each way."""
    book = (ROOT / "tests" / "dialect" / "book.md").read_text(encoding="utf-8")
    book = book.replace("[[warband]]", "[[warbnd|warband]]").replace("[[profile]]", "[[profle|profile]]")
    lines: list[str] = []
    referring = 0
    for line in book.split("\n"):
        if line.startswith("#"):
            lines.append("<!-- TODO: check this heading -->")
        elif "[[" in line and not line.startswith(("|", "{", ":::")):
            referring += 1
            line += " <!-- rulebook: ignore RB101 -->" if referring % 2 else ""
        lines.append(line)
    source = tmp_path / "book.md"
    source.write_text("\n".join(lines), encoding="utf-8")
    original = findings(source)
    bare = tmp_path / "bare" / "book.md"
    bare.parent.mkdir()
    bare.write_text(source.read_text(encoding="utf-8").replace(" <!-- rulebook: ignore RB101 -->", ""), "utf-8")
    unsuppressed = findings(bare)
    hidden = unsuppressed - original
    assert (
        hidden
        and all(code == "RB101" for code, _ in hidden)
        and ("RB101", "reference to undefined term `profle`") in original
    )
    xml = converted(source, tmp_path / "book.xml", monkeypatch)
    again = converted(xml, tmp_path / "again.md", monkeypatch)
    assert findings(xml) == original and findings(again) == original
    assert again.read_text(encoding="utf-8").count("<!-- TODO: check this heading -->\n#") == 4


def test_a_suppression_in_the_dialect_is_no_unknown_declaration() -> None:
    result = parse_dialect(
        "<!-- rulebook -->\n# C\n\n<!-- rulebook: ignore RB101 -->\nA [[x]]. <!-- rulebook: ignore RB101 -->\n"
    )
    assert result.diagnostics == ()


def test_convert_names_each_comment_it_cannot_carry_and_carries_the_others(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "book.xml").write_text(
        "<document>\n  <!-- TODO: the turn -->\n  <chapter title='C'>\n"
        "    Some text. <!-- TODO: say more -->\n    <br/>\n    <?rulebook ignore RB101?>\n"
        "  </chapter>\n</document>\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "book.xml"]) == 0
    captured = capsys.readouterr()
    assert captured.err.splitlines() == [
        "book.xml:4:16: a comment is not carried over (it stands within a paragraph's text): <!-- TODO: say more -->",
        "book.xml:6:5: a suppression is not carried over (its line holds nothing the model keeps): "
        "<?rulebook ignore RB101?>",
    ]
    assert "<!-- TODO: the turn -->\n# C\n" in (tmp_path / "book.md").read_text(encoding="utf-8")


def test_a_comment_after_the_last_words_is_carried_both_ways(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A comment alone after everything the book says (after the last chapter) has no node to stand before: it is
    written after the converted text's end (in XML after the root element), and carried back the same way."""
    (tmp_path / "book.xml").write_text(
        "<document>\n  <chapter title='C'>\n    Some text.\n  </chapter>\n  <!-- TODO: chapter D -->\n"
        "</document>\n<!-- the last word -->\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "book.xml"]) == 0
    assert capsys.readouterr().err == ""
    markdown = (tmp_path / "book.md").read_text(encoding="utf-8")
    assert markdown.endswith("Some text.\n\n<!-- TODO: chapter D -->\n<!-- the last word -->\n")
    assert main(["convert", "book.md", "-o", "again.xml"]) == 0
    assert capsys.readouterr().err == ""
    again = (tmp_path / "again.xml").read_text(encoding="utf-8")
    assert again.endswith("</document>\n<!-- TODO: chapter D -->\n<!-- the last word -->\n")


def test_a_comment_xml_cannot_hold_is_named_and_the_others_carried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--`` within a comment is Markdown's but not XML's: that comment alone is left out, with its place."""
    comments = [f"<!-- note {n} -->" if n != 3 else "<!-- a -- b -->" for n in range(6)]
    paragraphs = "".join(f"{comment}\nParagraph {n} of [[x]].\n\n" for n, comment in enumerate(comments))
    (tmp_path / "book.md").write_text(f"<!-- rulebook -->\n\n# C\n\n{paragraphs}", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "book.md"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "book.md:14:1: a comment is not carried over (XML allows no `--` within a comment): <!-- a -- b -->"
    ]
    xml = (tmp_path / "book.xml").read_text(encoding="utf-8")
    carried = [line.strip() for line in xml.splitlines() if "<!--" in line]
    assert carried == [comment for comment in comments if comment != "<!-- a -- b -->"]


def test_a_comment_that_would_change_the_reading_is_named_and_the_others_carried(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``<!-->odd -->`` is a comment to XML, and not to markdown-it (which would read it as HTML in the text): the
    conversion with every comment reads otherwise, so the comments are tried by halves and that one left out."""
    lines = [f"    <br/>Line {n} <reference name='x'>x</reference>. <!-- fine {n} -->" for n in range(7)]
    lines[4] = "    <br/>Line 4 <reference name='x'>x</reference>. <!-->odd -->"
    body = "\n".join(lines)
    (tmp_path / "book.xml").write_text(
        f"<document>\n  <chapter title='C'>\n{body}\n  </chapter>\n</document>\n", "utf-8"
    )
    monkeypatch.chdir(tmp_path)
    assert main(["convert", "book.xml"]) == 0
    assert capsys.readouterr().err.splitlines() == [
        "book.xml:7:52: a comment is not carried over (the converted file has no place for it there): <!-->odd -->"
    ]
    text = (tmp_path / "book.md").read_text(encoding="utf-8")
    assert [n for n in range(7) if f"Line {n} [[x]]. <!-- fine {n} -->" in text] == [0, 1, 2, 3, 5, 6]


def test_the_bundled_books_comments_are_carried_both_ways_and_its_rule_data_is_the_same() -> None:
    xml = read_book([BUNDLED_BOOK], ROOT).book.documents[0]
    markdown = convert_source(xml, xml.sections[0].source, "markdown", markdown_source=False)
    assert markdown.left == ()
    assert markdown.text.count("<!-- CHAPTER : ") == 7
    assert "<!-- TODO: Include graphics -->\n::: definition army_list\n" in markdown.text
    read = parse_dialect(markdown.text, "rulebook.md")
    assert read.diagnostics == () and read.document is not None
    assert dump_document(read.document) == dump_document(xml)
    assert rule_data(read.document) == rule_data(xml)
    back = convert_source(read.document, read.document.sections[0].source, "xml", markdown_source=True)
    assert back.left == () and back.text.count("<!-- CHAPTER : ") == 7
    again = parse_xml_string(back.text, "again.xml")
    assert again.document is not None and dump_document(again.document) == dump_document(xml)


BREAKS = [
    "Line one<br/>line two.",
    "Line one<br/><br/>line two.",
    "<br/>Line one",
    "Line one<br/>",
    "a <definition name='x'>b<br/>c</definition> d",
    "a<br/><definition name='x'>b</definition><br/>d",
    "<definition name='x'>b</definition><br/><definition name='y'>c</definition>",
    "<important>a<br/>b</important>",
    "a<br/><mechanic name='m' max='1'/>b",
    "<note title='N'>a<br/>b</note>",
    "<list><item>a<br/>b</item><item><br/>c</item></list>",
    "<list><item title='T'>a<br/>b</item></list>",
    "<table><headers><header>A</header><header>B</header></headers><row><cell>a<br/>b</cell><cell>c</cell></row></table>",
    "a<br/><table><headers><header>A</header></headers><row><cell>x</cell></row></table><br/>b",
    "<definition name='x'>a<br/><list><item>i</item></list></definition>",
]


@pytest.mark.parametrize("content", BREAKS)
def test_a_break_survives_xml_to_markdown_to_xml(content: str) -> None:
    """``<br/>`` is the format's paragraph break, ``\\`` or a blank line in the dialect: the same node either way, so
    the round trip keeps every break, beside definitions (parted from paragraphs by breaks), in cells and items too."""
    xml = parse_xml_string(
        f"<document><chapter title='C'>{content} <reference name='x'>x</reference></chapter></document>"
    )
    assert xml.diagnostics == () and xml.document is not None
    text = convert_document(xml.document, "markdown")
    markdown = parse_dialect(text, "b.md")
    assert markdown.diagnostics == () and markdown.document is not None
    assert dump_document(markdown.document) == dump_document(xml.document)
    again = parse_xml_string(convert_document(markdown.document, "xml"), "again.xml")
    assert again.diagnostics == () and again.document is not None
    assert dump_document(again.document) == dump_document(xml.document)
    assert convert_document(again.document, "markdown") == text


MARKDOWN_BREAKS = [
    "Line one\\\nline two.",
    "Line one\\\n\\\nline two.",
    "[a\\\nb]{dfn=x} c",
    "a\\\n[b]{dfn=x}\\\nc",
    "- a\\\n  b\n- c",
    "1. [T]{.title} a\\\n   b",
    "::: note N\n\na\\\nb\n\n:::",
    "**a\\\nb** c",
    "| A | B |\n|---|---|\n| a<br>b | c |",
    "a\\\n\n::: definition x\n\nb\n\n:::\n\nc",
    "a\n\n\\\n\n::: definition x\n\nb\n\n:::",
    "::: figure f1 Fig\n\n![](a.png)\n\ncap\\\ntion\n\n:::",
]


@pytest.mark.parametrize("content", MARKDOWN_BREAKS)
def test_a_break_written_in_markdown_survives_xml_and_back(content: str) -> None:
    """A ``\\`` at a line's end is the break a blank line is: XML's ``<br/>``, then a blank line, the same node."""
    read = parse_dialect(f"<!-- rulebook -->\n\n# C\n\n{content}\n\nEnd [[x]].\n", "b.md")
    assert read.diagnostics == () and read.document is not None
    xml = parse_xml_string(convert_document(read.document, "xml"), "b.xml")
    assert xml.diagnostics == () and xml.document is not None
    assert dump_document(xml.document) == dump_document(read.document)
    again = parse_dialect(convert_document(xml.document, "markdown"), "again.md")
    assert again.diagnostics == () and again.document is not None
    assert dump_document(again.document) == dump_document(read.document)
