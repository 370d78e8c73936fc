"""Hostile input to the reports: control characters, huge tokens, and text that could break a CI log.

A source's names and lines reach the reports. Text reports (and GitHub annotations, which people
read) show control characters as visible stand-ins and stay short whatever the source holds; JSON
and SARIF are data and keep every string exact.
"""

from __future__ import annotations

import json

import pytest

from .scratch import MARKDOWN_FORMATS, configure, markdown_book, run, source
from .scratch import scratch as scratch  # the fixture every case takes

ESC_BEL = "a\x1b[2Jb\x07"
MARKDOWN = f'# 1 Règles\n\nVoir <!-- rulebook: mechanic name="{ESC_BEL}" roll="D6" --> ici \u202e\u200f et fin.\n'


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_control_characters_never_reach_the_terminal(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    markdown_book(scratch, MARKDOWN, markdown)
    outcome = run(capsys, "lint")
    assert outcome.code == 1
    # The mechanic's finding (a book in the dialect also has its heading's term, never referred to).
    first = next(block for block in outcome.out.split("\n\n") if block.startswith("error[RB502]")).splitlines()
    assert first[0].startswith("error[RB502]: mechanic `a␛[2Jb␇`: give `pass` (a test)")
    assert first[1:] == [
        " --> book.md:3:36",  # the name, where the caret stands
        "  |",
        '3 | Voir <!-- rulebook: mechanic name="a␛[2Jb␇" roll="D6" --> ici �� et fin.',
        "  |                                    ^^^^^^^",  # still under the name: one stand-in per character
        "    = help: see `rulebook docs data` for the kinds of mechanic and their attributes (`<!-- rulebook: mechanic "
        'name="..." ...-->` takes those of the XML\'s `<mechanic>`)',
    ]
    assert not any(char in outcome.out for char in "\x1b\x07\u202e\u200f")


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_json_and_sarif_keep_the_names_exact(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    markdown_book(scratch, MARKDOWN, markdown)
    diagnostics = json.loads(run(capsys, "lint", "--format", "json").out)["diagnostics"]
    (diagnostic,) = [d for d in diagnostics if d["rule"] == "invalid-annotation"]
    assert (diagnostic["target"], diagnostic["message"].split(":")[0]) == (ESC_BEL, f"mechanic `{ESC_BEL}`")
    sarif = run(capsys, "lint", "--format", "sarif").out
    assert "\x1b" not in sarif  # JSON escapes it
    (result,) = [r for r in json.loads(sarif)["runs"][0]["results"] if r["ruleId"] == "RB502"]
    assert result["message"]["text"].startswith(f"mechanic `{ESC_BEL}`")


def test_control_characters_in_malformed_xml_are_shown_in_the_snippet(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", '<document><chapter title="a">\x1b]0;pwned\x07</chapter></document>\n')
    outcome = run(capsys, "lint")
    assert (outcome.code, outcome.out) == (
        2,
        """error[RB001]: a control character (U+001B) XML does not allow in text
 --> book.xml:1:30
  |
1 | <document><chapter title="a">␛]0;pwned␇</chapter></document>
  |                              ^
    = help: remove it (XML forbids control characters, and most editors do not show them); nothing after this place could be read

Found 1 error in 1 file.
""",
    )


@pytest.mark.parametrize("size", [2_000_000, 12_000_000], ids=["2MB-name", "12MB-past-libxml2s-limit"])
def test_a_huge_token_gives_a_short_report(capsys, scratch, size) -> None:  # type: ignore[no-untyped-def]
    name = "y" * size
    text = (
        f'<document><chapter title="a" id="a">{"w" * 1000} <reference name="{name}">x</reference></chapter></document>'
    )
    source(scratch, "book.xml", text)
    outcome = run(capsys, "lint")
    lines = outcome.out.splitlines()
    assert max(len(line) for line in lines) <= 400
    snippet = [line for line in lines if line.startswith(("1 |", "  |"))]
    assert all(len(line) <= 200 for line in snippet)
    assert snippet[-1].count("^") <= 100
    if size < 10_000_000:
        assert lines[0] == f"error[RB101]: reference to undefined term `{'y' * 39}…{'y' * 20}`"


def test_github_annotations_cannot_be_broken_by_a_message(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    name = "50%0A::warning::x\r\n##[stop-commands]t\rz"
    source(scratch, "a,b:c.md", f'# 1 R\n\nVoir <!-- rulebook: mechanic name="{name}" roll="D6" --> ??\n')
    configure(scratch, 'format = "plain-markdown"\n')  # a PDF's conversion: its `??` is a lost cross-reference
    outcome = run(capsys, "lint", "--format", "github")
    lines = outcome.out.split("\n")
    assert lines[-1] == "" and len(lines) == 3  # one line per diagnostic, nothing else
    command, properties, data = _parse_as_the_runner_does(lines[0])
    assert command == "error"
    assert properties == {"file": "a,b:c.md", "line": "3", "col": "6", "title": "RB502 invalid-annotation"}
    # Markdown ends every line with "\n" (a source cannot bring "\r" this far); shown, not obeyed.
    assert data.startswith("mechanic `50%0A::warning::x␊##[stop-commands]t␊z`: give `pass`")
    assert data.endswith(
        "\nhelp: see `rulebook docs data` for the kinds of mechanic and their attributes (`<!-- rulebook: "
        'mechanic name="..." ...-->` takes those of the XML\'s `<mechanic>`)'
    )


def _parse_as_the_runner_does(line: str) -> tuple[str, dict[str, str], str]:
    """``ActionCommand.TryParseV2`` of the GitHub Actions runner: properties up to the first ``::``."""
    assert line.startswith("::")
    end = line.index("::", 2)
    command, _, properties = line[2:end].partition(" ")
    pairs = (pair.split("=", 1) for pair in properties.split(",") if pair)
    unescape = [("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")]
    parsed = {key: _unescape(value, unescape) for key, value in pairs}
    return command, parsed, _unescape(line[end + 2 :], [("%0D", "\r"), ("%0A", "\n"), ("%25", "%")])


def _unescape(value: str, mappings: list[tuple[str, str]]) -> str:
    for escaped, token in mappings:
        value = value.replace(escaped, token)
    return value


def test_a_query_shows_the_sources_control_characters_as_pictures(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A heading holding `ESC ]0;...` (the terminal's title) or `ESC [2J` (clear the screen) reached the terminal
    raw through `rulebook query`, and so did the name asked for."""
    source(scratch, "book.md", "# Rules \x1b]0;pwned\x07\n\n## Wound \u202e\n\nA wound \x1b[2J follows a hit.\n")
    configure(scratch, 'format = "plain-markdown"\n')  # its terms are its headings
    outcome = run(capsys, "query", "wound")
    assert outcome.code == 0
    assert outcome.out.splitlines()[:4] == [
        "wound",
        "  defined at book.md:5:1 (Rules ␛]0;pwned␇ › Wound �)",  # where its paragraph starts
        "",
        "  A wound ␛[2J follows a hit.",
    ]
    outcome = run(capsys, "query", "\x1b[2Jwound" + "x" * 100)
    assert outcome.code == 1
    assert outcome.out.splitlines()[0] == f"`␛[2Jwound{'x' * 30}…{'x' * 20}` is not defined in this book."
    data = json.loads(run(capsys, "query", "wound", "--format", "json").out)  # data: the text as it is
    assert data["definition"] == "A wound \x1b[2J follows a hit."
