"""`rulebook explain` and the lint's help speak both source formats: a book in the Markdown dialect is told its own
syntax, never only the XML's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebook.catalog import LINT_RULES
from rulebook.cli import main
from rulebook.diagnostics import Rule

XML_ONLY = {
    "RB001": "well-formed XML: only an XML source can fail it",
    "RB003": "its example is an XML declaration's encoding; its text says what a Markdown source does",
    "RB007": "the XML reader's check of <headers> against its rows",
}
"""The rules whose findings only an XML source gets, with the reason."""


@pytest.mark.parametrize("rule", LINT_RULES, ids=lambda rule: str(rule.code))
def test_every_xml_example_has_its_markdown_form_beside_it(rule: Rule) -> None:
    if rule.code in XML_ONLY or "```xml" not in rule.doc:
        return
    assert "```markdown" in rule.doc, f"{rule.code} shows its example in XML only"
    assert "XML" not in rule.summary and "DTD" not in rule.summary, rule.summary


def test_explain_invalid_document_speaks_of_the_dialect_too(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["explain", "RB002"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("# invalid-document (RB002)\n\na source does not follow the rulebook format\n")
    assert "```markdown\n::: defintion fighter\n" in out and "Use `::: definition fighter`." in out


def lint_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], text: str
) -> str:
    (tmp_path / "rulebook.toml").write_text('sources = ["book.md"]\n', encoding="utf-8")
    (tmp_path / "book.md").write_text("<!-- rulebook -->\n\n# 1 Core {#core}\n\n" + text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    main(["lint", "--color", "never"])
    return capsys.readouterr().out


def test_empty_names_in_markdown_are_told_in_markdown(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = lint_markdown(tmp_path, monkeypatch, capsys, "See [[|Nerve]] and [the rules](#).\n")
    found = re.findall(r"^error\[RB301\]: (.*)\n(?:.*\n)*?    = help: (.*)$", out, re.MULTILINE)
    assert found == [
        ("a reference names no term", "write the term's name: `[[NAME|text]]`"),
        ("a link names no id", "write the id of the section or figure it points at: `[text](#ID)`"),
    ]
    assert "`name`" not in out and "`to`" not in out  # the XML's attributes


def test_a_mechanic_in_markdown_is_pointed_at_the_data_guide_not_the_dtd(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = lint_markdown(
        tmp_path, monkeypatch, capsys, 'A hit. <!-- rulebook: mechanic name="hit" roll="D6" pass="at-least" -->\n'
    )
    assert "error[RB502]: mechanic `hit`: a test must be named after the term it defines" in out
    assert "rulebook dtd" not in out
    assert "    = help: see `rulebook docs data` for the kinds of mechanic and their attributes" in out


def test_a_term_used_only_in_its_own_definition_is_told_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "::: definition modifier\nA [[modifier]] is added to a roll.\n:::\n"
    out = lint_markdown(tmp_path, monkeypatch, capsys, text)
    assert "warning[RB401]: term `modifier` is referred to only inside its own definition\n" in out
    assert "    = note: `modifier` used inside its own definition (book.md:6:3)\n" in out
    assert (
        "    = help: a use inside its own definition does not count: refer to it with `[[modifier]]` where the rules "
        "use it, outside its definition, or remove it\n"
    ) in out
