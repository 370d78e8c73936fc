"""``rulebook lint --fix`` and ``--diff``: the fixes made in place, byte for byte but the fixed values, in one step.

The golden cases (tests/test_cases.py, ``fixed.xml``) pin what is fixed; here, what a user notices around it:
the other bytes of the file, its permissions, the places it refuses, the diff, the counts.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from rulebook.cli import main

BOOK = (
    '<document>\r\n  <chapter id="turns" title="Tours — “Turns”">\r\n'
    '    <definition name="turn">A <reference name="turn">turn</reference>\tis\u00a0long.</definition>\r\n'
    '    Each <reference name="trun">tour</reference> ends; <link to="Turns">see</link>.\r\n'
    "  </chapter>\r\n</document>"
)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_only_the_fixed_values_change_byte_for_byte(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = project / "book.xml"
    original = b"\xef\xbb\xbf" + BOOK.encode("utf-8")  # a byte order mark, CRLF, a tab, no final line end
    book.write_bytes(original)
    book.chmod(0o640)
    assert main(["lint", "--fix", "--color", "never"]) == 0
    assert book.read_bytes() == original.replace(b'"trun"', b'"turn"').replace(b'"Turns"', b'"turns"')
    assert stat.S_IMODE(book.stat().st_mode) == 0o640
    assert sorted(p.name for p in project.iterdir()) == ["book.xml", "rulebook.toml"]  # no temporary file left
    captured = capsys.readouterr()
    assert captured.err == "Fixed 2 problems in 1 file.\n"
    assert captured.out == "All checks passed (1 file).\n"


def test_diff_shows_the_fixes_and_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    book = project / "book.xml"
    book.write_bytes(BOOK.encode("utf-8"))
    assert main(["lint", "--diff"]) == 1
    captured = capsys.readouterr()
    assert captured.out == "--- a/book.xml\n+++ b/book.xml\n@@ -1,6 +1,6 @@\n" + "".join(
        [
            ' <document>\r\n   <chapter id="turns" title="Tours — “Turns”">\r\n',
            '     <definition name="turn">A <reference name="turn">turn</reference>\tis\u00a0long.</definition>\r\n',
            '-    Each <reference name="trun">tour</reference> ends; <link to="Turns">see</link>.\r\n',
            '+    Each <reference name="turn">tour</reference> ends; <link to="turns">see</link>.\r\n',
            "   </chapter>\r\n",
            " </document>\n\\ No newline at end of file\n",
        ]
    )
    assert captured.err == "Would fix 2 problems in 1 file (`rulebook lint --fix` makes the fixes).\n"
    assert book.read_bytes() == BOOK.encode("utf-8")


def test_the_report_counts_what_fix_would_fix(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "book.xml").write_bytes(BOOK.encode("utf-8"))
    assert main(["lint", "--color", "never"]) == 1
    assert capsys.readouterr().out.endswith(
        "Found 2 errors, 1 warning in 1 file.\n2 fixable with `rulebook lint --fix` (`--diff` shows the fixes first).\n"
    )
    assert main(["lint", "--statistics"]) == 1
    assert capsys.readouterr().out == (
        "1  RB101  error    dangling-reference  1 fixable\n"
        "1  RB102  error    dangling-link       1 fixable\n"
        "1  RB401  warning  unused-definition\n\n"
        "Found 2 errors, 1 warning in 1 file.\n2 fixable with `rulebook lint --fix` (`--diff` shows the fixes first).\n"
    )


def test_a_source_that_is_a_link_is_not_replaced(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "real.xml").write_bytes(BOOK.encode("utf-8"))
    (project / "book.xml").symlink_to("real.xml")
    assert main(["lint", "--fix"]) == 2
    assert "cannot write `book.xml`: it is a symbolic link; name the file it leads to" in capsys.readouterr().err
    assert (project / "book.xml").is_symlink() and (project / "real.xml").read_bytes() == BOOK.encode("utf-8")


def test_a_source_changed_while_it_was_linted_is_not_touched(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook import source_fixes

    book = project / "book.xml"
    book.write_bytes(BOOK.encode("utf-8"))
    edited = BOOK.replace("long", "short").encode("utf-8")
    reading = source_fixes.read_input

    def edited_meanwhile(path: Path, **kwargs: object) -> bytes:
        book.write_bytes(edited)
        return reading(path, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(source_fixes, "read_input", edited_meanwhile)
    assert main(["lint", "--fix"]) == 2
    assert "`book.xml` changed while it was linted: nothing was fixed" in capsys.readouterr().err
    assert book.read_bytes() == edited


def test_every_file_is_checked_before_any_is_written(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (project / "rulebook.toml").write_text('sources = ["a.xml", "b.xml"]\n', encoding="utf-8")
    (project / "a.xml").write_bytes(BOOK.encode("utf-8"))
    (project / "real-b.xml").write_bytes(BOOK.replace("turn", "round").encode("utf-8"))
    (project / "b.xml").symlink_to("real-b.xml")
    assert main(["lint", "--fix"]) == 2
    assert (project / "a.xml").read_bytes() == BOOK.encode("utf-8")  # b.xml refused: a.xml not written either


def test_fix_goes_with_neither_a_baseline_being_written_nor_diff_to_a_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "book.xml").write_bytes(BOOK.encode("utf-8"))
    assert main(["lint", "--fix", "--write-baseline", "b.json"]) == 2
    assert main(["lint", "--diff", "-o", "fixes.diff"]) == 2
    assert main(["lint", "--statistics", "--format", "sarif"]) == 2
    assert capsys.readouterr().err.count("rulebook: error: ") == 3
    assert not os.path.exists("b.json") and not os.path.exists("fixes.diff")
