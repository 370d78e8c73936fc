"""Every output format: structure, escaping, and SARIF validated against its schema."""

from __future__ import annotations

import json

import jsonschema

from compiler.report import Report, exit_code, renderer

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
    from compiler.report import text
    from compiler.xml_source import parse_xml_string

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
