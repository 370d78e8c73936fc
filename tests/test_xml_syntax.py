"""XML syntax errors in plain words: each mistake a rules team makes, said as the rest of the lint says things."""

from __future__ import annotations

import pytest

from rulebook.cli import main
from rulebook.xml_source import parse_xml_string
from rulebook.xml_syntax import _PLAIN

CHAPTER = '<document><chapter id="a" title="A">{}</chapter></document>'

MISTAKES = {
    "Fish & chips": ("a bare `&`: in XML, `&` starts an entity such as `&amp;`", "write `&` as `&amp;`"),
    "R&D": ("an `&` that starts no entity (an entity ends with `;`, as `&amp;`)", "write `&` as `&amp;`"),
    "&nbsp;": ("`&nbsp;` is not an entity of the format: the compiler knows only XML's own five", "`&amp;nbsp;`"),
    "1 < 2": ("a `<` that starts no element (a tag's name follows `<` at once)", "`&lt;`"),
    "<section>": ("`</chapter>` closes `<section>`, which was opened on line 1", "`</section>` first"),
    "]]>": ("`]]>` in text", "`]]&gt;`"),
    "<!-- a -- b -->": ("`--` inside a comment", "may not hold `--`"),
    "&#0;": ("`&#0;` names a character XML does not allow", "remove it"),
    "&#xZZ;": ("a character reference that is not a number (`&#...;`)", "`&#233;`"),
    "\x07": ("a control character (U+0007) XML does not allow in text", "remove it"),
}


@pytest.mark.parametrize("text", list(MISTAKES))
def test_a_mistake_in_text_is_said_in_plain_words(text: str) -> None:
    (diagnostic,) = parse_xml_string(CHAPTER.format(text)).diagnostics
    message, fix = MISTAKES[text]
    assert (diagnostic.rule, diagnostic.message) == ("malformed-xml", message)
    assert diagnostic.help is not None and fix in diagnostic.help
    assert diagnostic.help.endswith("; nothing after this place could be read")


TAGS = {
    '<document><chapter id=a title="A"/></document>': "an attribute's value without quotes",
    '<document><chapter id="a" id="b" title="A"/></document>': "the attribute `id` is written twice on one element",
    '<document><chapter id="a" title="A & B"/></document>': "a bare `&`: in XML, `&` starts an entity such as `&amp;`",
    '<document><chapter id="a" title="A < B"/></document>': "a `<` in an attribute's value",
    "<document><chapter id></chapter></document>": "the attribute `id` has no value",
    '<document><chapter id="a"title="A"></chapter></document>': "this start tag's attributes cannot be read",
    '<document><chapter id="a"></chapter</document>': "a tag that is not closed with `>`",
    '<document><chapter id="a">': "the file ends before `<chapter>` (opened on line 1) is closed",
    "": "the file holds no XML element",
    "<document></document> x": "text after the end of the `<document>` element",
    "<document><!-- a </document>": "a comment `<!--` that is never closed",
    "<document><![CDATA[ x </document>": "a `<![CDATA[` section that is never closed",
    '\n<?xml version="1.0"?><document/>': "the XML declaration `<?xml ...?>` must be the very first thing in the file",
}


@pytest.mark.parametrize("text", list(TAGS))
def test_a_mistake_in_a_tag_or_the_file_is_said_in_plain_words(text: str) -> None:
    (diagnostic,) = parse_xml_string(text).diagnostics
    assert (diagnostic.rule, diagnostic.message) == ("malformed-xml", TAGS[text])


def test_every_plain_message_is_met_by_a_mistake() -> None:
    """The table holds no message libxml2 no longer gives: each of its patterns is met by one of the mistakes above."""
    said = {d.message for text in MISTAKES for d in parse_xml_string(CHAPTER.format(text)).diagnostics}
    said |= {d.message for text in TAGS for d in parse_xml_string(text).diagnostics}
    libxml2 = [row[0].pattern for row in _PLAIN]
    assert len(said) == len(libxml2)


def test_a_bare_ampersand_in_the_terminal(tmp_path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "book.xml").write_text(CHAPTER.format("Fish & chips") + "\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "book.xml"]) == 2
    assert capsys.readouterr().out == (
        "error[RB001]: a bare `&`: in XML, `&` starts an entity such as `&amp;`\n"
        " --> book.xml:1:42\n"
        "  |\n"
        '1 | <document><chapter id="a" title="A">Fish & chips</chapter></document>\n'
        "  |                                          ^\n"
        "    = help: write `&` as `&amp;` (`Fish &amp; Chips`); in XML text, `&` is written `&amp;` and `<` is written "
        "`&lt;`; nothing after this place could be read\n"
        "\n"
        "Found 1 error in 1 file.\n"
    )
