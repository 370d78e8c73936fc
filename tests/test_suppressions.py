"""Inline suppressions, as ruff's ``# noqa``: one finding silenced where it stands, in XML and in Markdown, and
a suppression that hides nothing reported."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook.cli import main

BOOK = """<document>
  <chapter id="basics" title="Basics">
    <definition name="model">A <reference name="model">model</reference> is a miniature.</definition>
    A <reference name="modle">m</reference> <?rulebook ignore RB101?> and a <link to="nowhere">link</link>.
    <!-- rulebook: ignore dangling-reference, dangling-link -->
    A <reference name="unitt">unit</reference> and a <link to="elsewhere">link</link>.
    A <reference name="wizard">wizard</reference> moves a <reference name="model">model</reference>.
  </chapter>
</document>
"""


def findings(capsys: pytest.CaptureFixture[str], *files: Path) -> list[tuple[str, int, str]]:
    main(["lint", "--format", "json", "--quiet", *map(str, files)])
    report = json.loads(capsys.readouterr().out)
    return [(d["rule"], d["line"], d["message"]) for d in report["diagnostics"]]


def test_an_xml_suppression_hides_its_codes_on_its_line_and_alone_on_the_next(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.xml"
    book.write_text(BOOK, encoding="utf-8")
    assert findings(capsys, book) == [
        ("dangling-link", 4, "link to unknown id `nowhere`"),  # the instruction names RB101 only
        ("dangling-reference", 7, "reference to undefined term `wizard`"),  # two lines below the comment
    ]


def test_a_suppression_that_hides_nothing_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "book.xml"
    book.write_text(
        BOOK.replace('name="modle"', 'name="model"').replace("RB101", "RB101 RB999").replace("wizard", "model"),
        encoding="utf-8",
    )
    assert findings(capsys, book) == [
        ("unused-suppression", 4, "the suppression of `RB101` hides no finding here"),
        ("unused-suppression", 4, "`RB999` in a suppression names no rule"),
        ("dangling-link", 4, "link to unknown id `nowhere`"),
    ]
    assert main(["lint", "--quiet", "--color", "never", str(book)]) == 1
    shown = capsys.readouterr().out
    assert "warning[RB403]: the suppression of `RB101` hides no finding here" in shown
    assert "<?rulebook ignore RB101 RB999?>" in shown and "^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^" in shown


def test_a_markdown_suppression_is_a_comment(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = tmp_path / "book.md"
    book.write_text(
        "<!-- rulebook -->\n# 1 Rules\n\nSee [this](#) here. <!-- rulebook: ignore RB301 -->\n\n"
        "<!-- rulebook: ignore empty-name -->\n- one [that](#)\n- two [those](#)\n",
        encoding="utf-8",
    )
    assert findings(capsys, book) == [("empty-name", 8, "a link names no id")]


def test_a_suppression_is_a_finding_like_any_other_for_the_settings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "book.xml").write_text(BOOK.replace("RB101", "RB102"), encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[lint]\nseverity = { unused-suppression = "off", dangling-reference = "off" }\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert findings(capsys) == []  # the link hidden where it stands, the references off, the idle RB101 off too


def test_a_suppression_hides_no_unsafe_name_from_the_build(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An id given twice would make two pages one: the build refuses it whatever a suppression says, and the lint
    lists it (a suppression hid it, and the lint passed what the build refused)."""
    twice = '<document><chapter id="a" title="A">x</chapter>\n<chapter id="a" title="B">y</chapter><?rulebook ignore RB202?></document>\n'
    (tmp_path / "book.xml").write_text(twice, encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert [rule for rule, *_ in findings(capsys)] == ["duplicate-id"]
    assert main(["build", "--quiet"]) == 2
    assert "error[RB202]" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


def test_a_file_that_cannot_be_read_reports_no_idle_suppression(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = tmp_path / "book.xml"
    book.write_text("<document><?rulebook ignore RB101?><chapter></document>\n", encoding="utf-8")
    assert [rule for rule, *_ in findings(capsys, book)] == ["malformed-xml"]


def test_suppressions_do_not_reach_the_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "book.xml").write_text(BOOK, encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text('title = "T"\nsources = ["book.xml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["build", "--quiet"]) == 0
    page = (tmp_path / "site" / "basics" / "index.html").read_text(encoding="utf-8")
    assert "is a miniature" in page and "rulebook ignore" not in page and "rulebook:" not in page
