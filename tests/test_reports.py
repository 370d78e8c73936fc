"""Every output format: structure, escaping, and SARIF validated against its schema."""

from __future__ import annotations

import json

import jsonschema
import pytest

from rulebook.report import renderer
from rulebook.report.summary import Report, exit_code

from .conftest import ROOT, lint_string

XML = """<document><chapter title="A">
  <definition name="line_of_sight">see <reference name="line_of_sihgt">it</reference>, 50%, a: b</definition>
  <definition name="lonely">alone</definition>
</chapter></document>"""


def report() -> Report:
    return Report(tuple(lint_string(XML)), files=1)


def test_json_has_the_documented_fields() -> None:
    data = json.loads(renderer("json")(report()))
    first = next(d for d in data["diagnostics"] if d["rule"] == "dangling-reference")
    assert {"code", "rule", "severity", "message", "file", "line", "column", "target", "suggestions", "help"} <= set(
        first
    )
    assert (first["rule"], first["line"], first["column"], first["suggestions"]) == (
        "dangling-reference",
        2,
        40,
        ["line_of_sight"],
    )
    assert data["summary"]["errors"] == 1 and data["summary"]["warnings"] == 2
    assert data["summary"]["by_rule"] == {"dangling-reference": 1, "unused-definition": 2}


def test_compact_json_lines_are_the_records_encoded() -> None:
    """The compact report shares encoded parts between diagnostics: each line must still be its record."""
    from rulebook.catalog.book import DANGLING_REFERENCE
    from rulebook.characters import json_text
    from rulebook.diagnostics import Note
    from rulebook.report.json_format import diagnostic_record
    from rulebook.source import Span

    tricky = ',"line":0,"column":0,"section":null, \\" é \u2028 \x00'
    place = Span('a "b".xml', 3, 7)
    shared_notes = (Note(f"note {tricky}", Span("n.xml", 9, 2)), Note("no place"))
    diagnostics = (
        DANGLING_REFERENCE.diagnostic(
            tricky, place, target=tricky, suggestions=(tricky,), help=tricky, notes=shared_notes
        ),
        DANGLING_REFERENCE.diagnostic(tricky, place._replace(line=40, column=1), target=tricky, notes=shared_notes),
        DANGLING_REFERENCE.diagnostic("m", Span("b.xml", 1, 1), section_id=tricky, counterpart=Note("there", place)),
        DANGLING_REFERENCE.diagnostic("m", Span("b.xml", 2, 1), section_id="s-1"),
    )
    for url in (None, "https://example.org/rules/"):
        text = renderer("json")(Report(diagnostics, files=1, docs_url=url))
        assert "\u2028" not in text  # written as its escape: a terminal or a log viewer breaks the line there
        lines = text.split("\n")[1:-2]
        expected = [json_text(diagnostic_record(d, url), sort_keys=True, separators=(",", ":")) for d in diagnostics]
        assert [line.rstrip(",") for line in lines] == expected
        assert json.loads(text)["diagnostics"] == [diagnostic_record(d, url) for d in diagnostics]


def test_github_workflow_commands_are_escaped() -> None:
    lines = renderer("github")(report()).splitlines()
    error = next(line for line in lines if line.startswith("::error"))
    assert error.startswith("::error file=book.xml,line=2,col=40,title=RB101 dangling-reference::")
    assert "%0Ahelp: did you mean `line_of_sight`?" in error
    assert sum(line.startswith("::warning ") for line in lines) == 2
    assert all("\n" not in line for line in lines)


def test_sarif_validates_against_the_sarif_2_1_0_schema() -> None:
    schema = json.loads((ROOT / "tests" / "schemas" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    log = json.loads(renderer("sarif")(report()))
    jsonschema.Draft4Validator(schema).validate(log)
    results = log["runs"][0]["results"]
    rules = log["runs"][0]["tool"]["driver"]["rules"]
    error = next(r for r in results if r["level"] == "error")
    assert rules[error["ruleIndex"]]["id"] == error["ruleId"] == "RB101"
    assert error["locations"][0]["physicalLocation"]["region"] == {"startLine": 2, "startColumn": 40}
    assert {r["level"] for r in results} == {"error", "warning"}


def test_text_shows_source_line_caret_and_help() -> None:
    from rulebook.report import text
    from rulebook.xml_source import parse_xml_string

    source = parse_xml_string(XML).source
    assert source is not None
    output = text.render(Report(report().diagnostics, {"book.xml": source}, 1))
    assert "error[RB101]: reference to undefined term `line_of_sihgt`" in output
    assert '<reference name="line_of_sihgt">' in output
    lines = output.splitlines()
    heading = lines.index("error[RB101]: reference to undefined term `line_of_sihgt`")
    source_line = heading + 3
    caret_line = lines[source_line + 1]
    assert caret_line.index("^") == lines[source_line].index("line_of_sihgt")
    assert caret_line.count("^") == len("line_of_sihgt")
    assert "= help: did you mean `line_of_sight`?" in output
    assert output.rstrip().endswith("Found 1 error, 2 warnings in 1 file.")


def test_exit_codes() -> None:
    assert exit_code(report()) == 1
    warnings_only = Report(tuple(d for d in report().diagnostics if d.severity.public == "warning"))
    assert exit_code(warnings_only) == 0
    assert exit_code(warnings_only, strict=True) == 1
    fatal = Report(tuple(lint_string("<document><chapter>")))
    assert exit_code(fatal) == 2


# -- text that could hurt: control characters, huge lines, workflow commands ---------------------------


def _diagnostic(message: str, line: str, column: int, target: str | None = None, length: int = 0):  # type: ignore[no-untyped-def]
    from rulebook.catalog.reading import INVALID_DOCUMENT
    from rulebook.source import SourceText, Span

    source = SourceText.from_text("book.xml", "first line\n" + line + "\nlast line\n")
    return INVALID_DOCUMENT.diagnostic(message, Span("book.xml", 2, column, length), target=target), source


def test_control_characters_are_shown_one_for_one() -> None:
    from rulebook.report.escaping import visible

    controls = "".join(map(chr, range(0x20))) + "\x7f\x85\x9b\u202e\u2066\u200e\u200f\u061c\u2028\u2029"
    shown = visible(controls)
    assert len(shown) == len(controls)
    assert shown[0x1B] == "␛" and shown[0x07] == "␇" and shown[0x0A] == "␊" and shown[0x20] == "␡"
    # the C1 controls, every bidirectional control, marks included, and the line and paragraph separators
    assert shown[-9:] == "���������"
    # printable text is left alone, and so are invisible characters with a typographic task that reorder nothing
    typographic = "Général — « ok »\u00ad\u200b\u200c\u200d\u2060\ufeff"
    assert visible(typographic) == typographic


def test_text_caret_stays_under_the_name_after_control_characters() -> None:
    from rulebook.report import text

    diagnostic, source = _diagnostic("bad `x\x1by`", '\x07\x1b[31m <reference name="x\x1by">', 10, "x\x1by")
    lines = text.render_diagnostic(diagnostic, source).splitlines()
    assert lines[0] == "error[RB002]: bad `x␛y`"
    assert lines[3] == '2 | ␇␛[31m <reference name="x␛y">'
    assert lines[4].index("^") == lines[3].index("x␛y") and lines[4].endswith(" ^^^")
    assert "\x1b" not in "".join(lines) and "\x07" not in "".join(lines)


@pytest.mark.parametrize("width", [200, 80])
def test_text_cuts_a_huge_line_around_the_caret_to_the_width(width: int) -> None:
    from rulebook.report import text

    target = "t" * 5000
    line = "a" * 100_000 + f' <reference name="{target}">' + "b" * 100_000
    diagnostic, source = _diagnostic("dangling", line, 100_002, target)
    lines = text.render_diagnostic(diagnostic, source, width=width).splitlines()
    shown, caret = lines[3], lines[4]
    assert max(len(shown), len(caret)) <= width
    assert shown.startswith("2 | …") and shown.endswith("…")
    assert caret.index("^") == shown.index("t") and set(caret[caret.index("^") :]) == {"^"}
    assert len(caret) <= len(shown) - 1  # never under the closing ellipsis
    if width == 200:
        assert len(shown) == len("2 | ") + 1 + text.WINDOW + 1  # the window of old, unchanged


def test_a_span_with_a_length_is_underlined_exactly() -> None:
    from rulebook.report import text

    diagnostic, source = _diagnostic("bad byte", "ab\ufffdcd", 3, length=1)
    assert text.render_diagnostic(diagnostic, source).splitlines()[4] == "  |   ^"


def test_long_names_in_messages_are_cut_in_their_middle() -> None:
    from rulebook.report.escaping import MESSAGE_LIMIT, NAME_LIMIT, readable

    name = "n" * 1000
    assert readable(f"term `{name}` and `short`") == f"term `{'n' * 39}…{'n' * 20}` and `short`"
    assert len(readable(f"`{name}` " * 1000)) <= MESSAGE_LIMIT
    assert len(readable("word " * 1000)) == MESSAGE_LIMIT
    assert len(readable(f"`{'m' * NAME_LIMIT}`")) == NAME_LIMIT + 2
    prose = "`a` then more than sixty characters of prose without any backtick at all, then `b`"
    assert readable(prose) == prose


def test_github_escapes_what_would_end_the_line_or_the_properties() -> None:
    from rulebook.catalog.reading import INVALID_DOCUMENT
    from rulebook.report import github
    from rulebook.source import Span

    diagnostic = INVALID_DOCUMENT.diagnostic("50% done\r\n::error::x", Span("a,b:c.xml", 3, 4), help="1\n2")
    line = github.line(diagnostic)
    assert "\n" not in line and "\r" not in line
    assert (
        line
        == "::error file=a%2Cb%3Ac.xml,line=3,col=4,title=RB002 invalid-document::50%25 done␍␊::error::x%0Ahelp: 1␊2"
    )
