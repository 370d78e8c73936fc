"""Golden cases: each folder under tests/cases holds a tiny rulebook and the text report it gives.

Rewrite the golden files with ``pytest --update-golden`` and read the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.project import BookConfig
from compiler.recipe import lint_book, read_book
from compiler.report import Report, exit_code
from compiler.report import text as text_report

from .conftest import CASES, ROOT

CASE_DIRS = sorted(p for p in CASES.iterdir() if (p / "book.xml").is_file())


@pytest.mark.parametrize("case", CASE_DIRS, ids=lambda p: p.name)
def test_case_report_matches_golden(case: Path, update_golden: bool) -> None:
    result = lint_book(read_book([case / "book.xml"], ROOT), BookConfig("main"), root=ROOT)
    report = Report(result.diagnostics, result.sources, result.files)
    output = text_report.render(report) + f"exit status: {exit_code(report)}\n"
    golden = case / "expected.txt"
    if update_golden or not golden.exists():
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")
