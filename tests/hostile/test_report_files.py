"""Careless report, baseline and export paths: `-o`, `--write-baseline` never replace a file of the project.

A report may go to a new file, or replace an earlier report; it may not replace a source, the
configuration, a baseline it is not, or a file of a kind a project keeps (Markdown, XML, TOML...).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .scratch import configure, refused, run, scratch, source  # noqa: F401 (fixtures)

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document><chapter id="moving" title="Moving"><section id="marching" title="Marching">
<definition name="march">To march is to <reference name="march">move</reference>.</definition>
<reference name="charge">Charge</reference></section></chapter></document>
"""


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("lint", "-o", "book.xml"), "`book.xml` is a file of the project (the configuration names it)"),
        (("lint", "--format", "sarif", "-o", "rulebook.toml"), "`rulebook.toml` is a file of the project"),
        (("lint", "-o", "README.md"), "`README.md` exists and is not a report this tool wrote: choose another name"),
        (("graph", "--format", "dot", "-o", "README.md"), "`README.md` exists and is not a report"),
        (("lint", "--write-baseline", "book.xml"), "`book.xml` is a file of the project (the configuration names it)"),
        (("lint", "--write-baseline", "rulebook.toml"), "`rulebook.toml` is a file of the project"),
        (("lint", "--write-baseline", "notes.txt"), "`notes.txt` exists and is not a baseline"),
        (("lint", "-o", "sub"), "cannot write `sub`: it is a folder"),
    ],
)
def test_a_report_never_replaces_a_file_of_the_project(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
    said: str,
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "README.md").write_text("# Our notes\n", encoding="utf-8")
    (scratch / "notes.txt").write_text("not a baseline\n", encoding="utf-8")
    (scratch / "sub").mkdir()
    outcome = refused(capsys, scratch, *argv)
    assert said in outcome.err


def test_a_report_replaces_an_earlier_report_and_a_baseline_a_baseline(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    assert run(capsys, "lint", "-o", "report.txt").code == 1
    assert run(capsys, "lint", "--format", "json", "-o", "report.txt").code == 1
    assert (scratch / "report.txt").read_text(encoding="utf-8").lstrip().startswith("{")
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert '"charge"' in (scratch / "baseline.json").read_text(encoding="utf-8")


def test_files_that_are_not_rulebooks_are_refused_as_such(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "rulebook.dtd").write_text("<!ELEMENT document ANY>\n", encoding="utf-8")
    outcome = run(capsys, "lint", "--color", "never", "rulebook.toml", "rulebook.dtd")
    assert outcome.code == 2
    assert outcome.out.count("[RB004]") == 2 and "RB001" not in outcome.out
    assert "rulebook sources are XML (.xml), Markdown (.md, .markdown) or the plain-text export (.txt)" in outcome.out


@pytest.mark.parametrize(
    ("port", "said"),
    [
        ("99999", "99999 is not a port number (0 to 65535)"),
        ("9" * 5000, "9" * 20 + " is not a port number (0 to 65535)"),  # cut; int() refuses over 4,300 digits
        ("5_0", "`5_0` is not a port number"),
        ("١٠", "`١٠` is not a port number"),  # int() reads other scripts' digits
    ],
)
def test_a_port_out_of_range_is_a_usage_error(capsys: pytest.CaptureFixture[str], port: str, said: str) -> None:
    with pytest.raises(SystemExit) as exit_status:
        run(capsys, "serve", "--port", port)
    assert exit_status.value.code == 2
    assert said in capsys.readouterr().err


def test_no_project_says_where_it_looked(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert "no rulebook project here: no rulebook.toml, nor a pyproject.toml with [tool.rulebook]" in outcome.err
    assert "`rulebook init`" in outcome.err


def test_a_misspelt_configuration_key_gets_its_likely_name(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    configure(scratch, 'titel = "Marching"\n')
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert "unknown key `titel` in [top level] (did you mean `title`?)" in outcome.err


def test_init_in_a_repository_keeps_its_own_files(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    (scratch / ".gitignore").write_text("*.pyc\n", encoding="utf-8")
    outcome = run(capsys, "init", ".", "--title", "Marching")
    assert outcome.code == 0
    assert (scratch / ".gitignore").read_text(encoding="utf-8") == "*.pyc\n"
    assert ".gitignore (yours, kept as it is" in outcome.out
    assert (scratch / "rules" / "book.xml").is_file() and (scratch / ".pre-commit-config.yaml").is_file()
    workflow = (scratch / ".github" / "workflows" / "rulebook.yml").read_text(encoding="utf-8")
    assert (
        "run: pip install ./tools/rulebook_compiler-*-py3-none-any.whl" in workflow
    )  # never a bare name an index serves
    (wheel,) = (scratch / "tools").iterdir()  # what the workflow installs, made by init
    assert wheel.name.startswith("rulebook_compiler-") and wheel.name.endswith("-py3-none-any.whl")
    again = run(capsys, "init", ".")
    assert again.code == 2 and "`rulebook new-book NAME`" in again.err


def test_lint_checks_every_book_and_a_baseline_belongs_to_one(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    (scratch / "campaign.xml").write_text(BOOK, encoding="utf-8")  # a reference to an undefined `charge`
    configure(scratch, '[books.campaign]\nsources = ["campaign.xml"]\n')
    outcome = run(capsys, "lint", "--color", "never")
    assert outcome.code == 1
    assert "error[RB101]" in outcome.out and "--> campaign.xml:" in outcome.out
    assert run(capsys, "lint", "--book", "main").code == 0
    outcome = run(capsys, "lint", "--write-baseline", "baseline.json")
    assert outcome.code == 2
    assert "each book has its own baseline: name one with --book (main, campaign)" in outcome.err


def test_a_source_named_with_bytes_that_are_not_utf8_is_reported_written_and_baselined(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``rulebook lint`` given a file whose name is not UTF-8 (a commit can hold one): printed, written into a
    report and a baseline as its bytes, under a UTF-8 locale too (Python's strict stream stopped with an internal
    error), and the baseline read back matches it."""
    import os
    import subprocess
    import sys

    source(scratch, "book.xml", BOOK)
    odd = os.fsdecode(b"b\xff.xml")
    (scratch / odd).write_text(BOOK, encoding="utf-8")
    assert run(capsys, "lint", odd, "--format", "json", "-o", "report.json").code == 1
    assert os.fsencode(odd) in (scratch / "report.json").read_bytes()
    assert run(capsys, "lint", odd, "--write-baseline", "baseline.json").code == 0
    assert "\\udcff" in (scratch / "baseline.json").read_text(encoding="utf-8")  # UTF-8 text, the byte escaped
    assert run(capsys, "lint", odd, "--baseline", "baseline.json").code == 0
    strict = {**os.environ, "PYTHONIOENCODING": "utf-8"}
    printed = subprocess.run(
        [sys.executable, "-m", "rulebook", "lint", "--color", "never", odd],
        cwd=scratch,
        env=strict,
        capture_output=True,
    )
    assert printed.returncode == 1, printed.stderr
    assert b"--> b\xff.xml:4:" in printed.stdout and b"internal error" not in printed.stderr


@pytest.mark.parametrize("encoding", ["ascii", "latin-1", "cp1252"])
def test_a_report_is_printed_on_an_output_that_cannot_write_every_character(
    scratch: Path,  # noqa: F811
    encoding: str,
) -> None:
    """A standard output in an encoding that cannot write every character (``PYTHONIOENCODING=ascii``, Windows'
    cp1252 when the report is redirected to a file): a finding quoting ``Café`` or a U+202E shown as ``�`` stopped
    ``lint``, ``query`` and every command printing one with "internal error: UnicodeEncodeError". Such a character
    is written as its escape, and a file's name that is not UTF-8 as its bytes."""
    import os
    import subprocess
    import sys

    source(scratch, "book.xml", BOOK.replace("move</reference>", "move</reference> Café \u202e \U0001f3b2"))
    odd = os.fsdecode(b"b\xff.xml")
    (scratch / odd).write_bytes((scratch / "book.xml").read_bytes())
    narrow = {**os.environ, "PYTHONIOENCODING": encoding}
    lint, query = (
        subprocess.run([sys.executable, "-m", "rulebook", *argv], cwd=scratch, env=narrow, capture_output=True)
        for argv in (["lint", "--color", "never", odd], ["query", "march"])
    )
    assert (lint.returncode, query.returncode) == (1, 0), lint.stderr + query.stderr
    assert b"internal error" not in lint.stderr + query.stderr
    assert b"--> b\xff.xml:4:" in lint.stdout
    cafe = b"Caf\\xe9" if encoding == "ascii" else "Café".encode(encoding)
    assert cafe in lint.stdout and cafe in query.stdout
    assert b"\\ufffd" in lint.stdout  # the picture of U+202E, which none of them can write
