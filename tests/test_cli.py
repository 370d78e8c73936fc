"""The command line: help, exit codes, configuration, and plain-word errors."""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.catalog import RULES
from rulebook.cli import main

from .conftest import BUNDLED_BOOK, ROOT, check_generated_part

CLEAN = '<document><chapter title="A"><definition name="a">An <reference name="a">a</reference>.</definition></chapter></document>'


@pytest.mark.parametrize(
    "command",
    [
        [],
        ["lint"],
        ["explain"],
        ["query"],
        ["dtd"],
        ["build"],
        ["serve"],
        ["graph"],
        ["engine"],
        ["engine", "odds"],
        ["engine", "turns"],
    ],
)
def test_every_command_has_help(command: list[str], capsys) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(SystemExit) as exit_info:
        main([*command, "--help"])
    assert exit_info.value.code == 0
    assert "usage: rulebook" in capsys.readouterr().out


def test_every_argument_of_every_command_says_what_it_is() -> None:
    """``--help`` explains each argument and option of each command (a bare ``notation`` or ``DIR`` says nothing)."""
    from rulebook.cli import _parser

    silent: list[str] = []

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, command in action.choices.items():
                    walk(command, (*words, name))
            elif not action.help and action.dest != "help":
                silent.append(f"rulebook {' '.join(words)}: {'/'.join(action.option_strings) or action.dest}")

    walk(_parser(), ())
    assert not silent


@pytest.mark.parametrize(
    ("command", "usage", "error"),
    [
        (["biuld"], "usage: rulebook [-h]", "rulebook: error: unknown command `biuld`: did you mean `build`?"),
        (["xyzzy"], "usage: rulebook [-h]", "rulebook: error: unknown command `xyzzy`: see `rulebook --help`"),
        (
            ["lint", "--fromat", "json"],
            "usage: rulebook lint [-h]",
            "rulebook lint: error: unrecognized arguments: --fromat (did you mean `--format`?)",
        ),
        (
            ["build", "--strcit=yes"],
            "usage: rulebook build [-h]",
            "rulebook build: error: unrecognized arguments: --strcit=yes (did you mean `--strict`?)",
        ),
        (["dtd", "extra"], "usage: rulebook dtd [-h]", "rulebook dtd: error: unrecognized arguments: extra"),
        (
            ["lint", "--format", "jsn"],
            "usage: rulebook lint [-h]",
            "rulebook lint: error: argument --format: invalid choice: 'jsn' (choose from 'text', 'json', 'github', "
            "'sarif') (did you mean `json`?)",
        ),
        (
            ["engine", "odds", "tset", "x"],
            "usage: rulebook engine odds [-h]",
            "(did you mean `test`?)",
        ),
    ],
)
def test_a_mistyped_word_gets_the_commands_own_usage_and_a_suggestion(
    command: list[str], usage: str, error: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(command)
    assert exit_info.value.code == 2
    shown = capsys.readouterr().err
    assert shown.startswith(usage) and shown.rstrip("\n").endswith(error), shown


@pytest.mark.parametrize(
    "command",
    [["lint"], ["build"], ["graph"], ["query", "x"], ["status"], ["engine", "--book", "", "odds", "table", "x"]],
    ids=lambda command: command[0],
)
def test_an_empty_book_name_is_refused_not_read_as_every_book(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    """``--book ''`` (a variable left empty in a script) linted or built every book without a word."""
    with pytest.raises(SystemExit) as exit_info:
        main(command if "--book" in command else [*command, "--book", ""])
    assert exit_info.value.code == 2
    assert (
        capsys.readouterr()
        .err.rstrip("\n")
        .endswith("error: argument --book: a book's name cannot be empty: name one of the configuration's books")
    )


def test_lint_of_the_bundled_book_passes_with_its_baseline(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["lint", "--color", "never", "--book", "main"]) == 0
    assert "All checks passed (1 file)." in capsys.readouterr().out
    assert main(["lint", "--color", "never"]) == 0  # every book: the other two have warnings only
    assert "in 3 files." in capsys.readouterr().out


def test_lint_without_the_baseline_fails(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["lint", "--no-baseline", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["summary"]["errors"] == 235


def test_lint_json_is_one_line_per_diagnostic_and_pretty_on_request(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    main(["lint", "-q", "--no-baseline", "--format", "json"])
    compact = capsys.readouterr().out
    main(["lint", "-q", "--no-baseline", "--format", "json", "--pretty"])
    pretty = capsys.readouterr().out
    assert json.loads(compact) == json.loads(pretty)
    lines = compact.splitlines()
    assert len(lines) == len(json.loads(compact)["diagnostics"]) + 2
    records = [json.loads(line.rstrip(",")) for line in lines[1:-1]]
    assert all(list(r) == sorted(r) and all(list(n) == sorted(n) for n in r["notes"]) for r in records)
    assert lines[-1].startswith('],"summary":{')
    assert pretty.startswith('{\n  "diagnostics": [\n')


def test_lint_output_to_a_pipe_writes_into_it_and_leaves_it_a_pipe(tmp_path: Path) -> None:
    """``-o /dev/null`` (or a named pipe) is written to, never replaced by a file (as root, it could be)."""
    import stat
    import threading

    pipe = tmp_path / "pipe"
    os.mkfifo(pipe)
    read: list[str] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_text(encoding="utf-8")))
    reader.start()
    main(["lint", "-q", "--format", "json", "-o", str(pipe), str(BUNDLED_BOOK)])
    reader.join(timeout=30)
    assert stat.S_ISFIFO(pipe.stat().st_mode)
    assert json.loads(read[0])["summary"]["files"] == 1


def test_lint_imports_none_of_the_site_builders(tmp_path: Path) -> None:
    """The lint's start-up: no graph library, templates, MkDocs or Markdown parser for an XML book (named: the
    configured book's translations are Markdown, which the lint reads). It checks the configured output as the build
    does (``rulebook.publish``, 10 ms), reading ``mkdocs.yml`` as YAML only when it may name a folder."""

    script = (
        "import sys\n"
        "from rulebook.cli import main\n"
        f"main(['lint', '-q', '--no-baseline', '--format', 'json', '-o', {str(tmp_path / 'out.json')!r}, "
        f"{str(BUNDLED_BOOK)!r}])\n"
        "heavy = {'networkx', 'jinja2', 'mkdocs', 'markdown_it', 'yaml'}\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in heavy))\n"
        "idle = {'ctypes', 'traceback', 'rulebook.cli.build', 'rulebook.cli.translate', 'rulebook.cli.engine',\n"
        "        'rulebook.report.text', 'rulebook.lint.baseline', 'rulebook.build_values',\n"
        "        'importlib.resources', 'zipfile', 'textwrap',\n"
        "        'rulebook.dtd_findings'}\n"
        "print(sorted(m for m in sys.modules if m in idle))\n"
    )
    done = _fresh_python(script)
    assert done.stdout.splitlines()[-2:] == ["[]", "[]"]
    assert json.loads((tmp_path / "out.json").read_text(encoding="utf-8"))["summary"]["files"] == 1


def test_missing_file_is_exit_2_with_its_name(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["lint", str(tmp_path / "nope.xml")]) == 2
    output = capsys.readouterr().out
    assert "cannot read" in output and "nope.xml" in output


def test_malformed_file_is_exit_2(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    bad = tmp_path / "bad.xml"
    bad.write_text("<document>\n<chapter title='a'>\n</document>\n", encoding="utf-8")
    assert main(["lint", "--color", "never", str(bad)]) == 2
    assert "bad.xml:3:" in capsys.readouterr().out


def test_strict_fails_on_warnings(tmp_path: Path) -> None:
    book = tmp_path / "book.xml"
    book.write_text(CLEAN.replace('An <reference name="a">a</reference>', "Alone"), encoding="utf-8")
    assert main(["lint", "-q", str(book)]) == 0
    assert main(["lint", "-q", "--strict", str(book)]) == 1


def test_configuration_changes_severity_and_ignores(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "book.xml").write_text(CLEAN.replace('An <reference name="a">a</reference>', "Alone"), encoding="utf-8")
    (tmp_path / "pyproject.toml").write_text(
        '[tool.rulebook]\nsources = ["book.xml"]\n[tool.rulebook.lint]\nseverity = { unused-definition = "error" }\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "-q", "--format", "json"]) == 1
    assert json.loads(capsys.readouterr().out)["diagnostics"][0]["severity"] == "error"
    (tmp_path / "pyproject.toml").write_text(
        '[tool.rulebook]\nsources = ["book.xml"]\n[tool.rulebook.lint]\nignore = ["RB401"]\n', encoding="utf-8"
    )
    assert main(["lint", "-q", "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["diagnostics"] == []


def test_bad_configuration_is_exit_2_in_plain_words(tmp_path: Path, monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "pyproject.toml").write_text('[tool.rulebook.lint]\nignore = ["no-such-rule"]\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "x.xml"]) == 2
    assert "no lint rule is called `no-such-rule`" in capsys.readouterr().err


def test_explain_by_code_and_name(capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["explain", "RB101"]) == 0
    by_code = capsys.readouterr().out
    assert main(["explain", "dangling-reference"]) == 0
    assert capsys.readouterr().out == by_code
    assert "## What it does" in by_code and "## Why is this bad?" in by_code and "## Example" in by_code
    assert main(["explain", "--all"]) == 0
    assert capsys.readouterr().out.count("\n") == len(RULES)
    assert main(["explain", "RB999"]) == 2


def test_query_shows_definition_place_and_uses(monkeypatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["query", "line_of_sight", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["defined_at"] == ["rulebook_src/en/rulebook.xml:196:7"]
    assert data["section_path"] == ["Battlefield Logistics", "Line of Sight"]
    assert len(data["references"]) == 6 and data["used_by_terms"] == ["arc"]
    assert main(["query", "line_of_sihgt"]) == 1
    assert "Did you mean `line_of_sight`?" in capsys.readouterr().out


def test_output_file_is_written(tmp_path: Path) -> None:
    book = tmp_path / "book.xml"
    book.write_text(CLEAN, encoding="utf-8")
    out = tmp_path / "out" / "report.sarif"
    assert main(["lint", "-q", "--format", "sarif", "--output", str(out), str(book)]) == 0
    assert json.loads(out.read_text(encoding="utf-8"))["version"] == "2.1.0"


def test_console_script_runs_as_a_process() -> None:
    env = dict(os.environ, NO_COLOR="1")
    done = subprocess.run(
        [sys.executable, "-m", "rulebook", "lint", "--no-baseline"], cwd=ROOT, capture_output=True, text=True, env=env
    )
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert "error[RB101]" in done.stdout


def test_the_console_script_reports_as_the_command_run_in_process(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The lint's report, on standard output or in a file, and its exit status are those of the command run
    in process."""
    monkeypatch.chdir(ROOT)
    assert main(["lint", "--no-baseline", "--format", "json"]) == 1
    expected = capsys.readouterr().out
    command = [sys.executable, "-m", "rulebook", "lint", "--no-baseline", "--format", "json"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout) == (1, expected)
    report = tmp_path / "report.json"
    done = subprocess.run([*command, "-q", "-o", str(report)], cwd=ROOT, capture_output=True, text=True)
    assert (done.returncode, done.stdout, done.stderr) == (1, "", "")
    assert report.read_text(encoding="utf-8") == expected


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
def test_a_full_standard_output_is_a_plain_error() -> None:
    with open("/dev/full", "w", encoding="utf-8") as full:
        done = subprocess.run(
            [sys.executable, "-m", "rulebook", "lint", "--no-baseline", str(BUNDLED_BOOK)],
            cwd=ROOT,
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert done.returncode == 2
    assert done.stderr.endswith(
        "rulebook: error: cannot write to standard output: no space left on device "
        "(write the report with --output FILE)\n"
    )


@pytest.mark.parametrize("command", [["lint", "--no-baseline"], ["explain"]])
def test_a_closed_standard_output_is_a_plain_error(command: list[str]) -> None:
    """``rulebook lint >&-``: Python starts with no standard output; the command says so, exit status 2."""
    shell = 'exec "$@" >&-'
    done = subprocess.run(
        ["sh", "-c", shell, "sh", sys.executable, "-m", "rulebook", *command], cwd=ROOT, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "rulebook: error: cannot write to standard output: it was closed before the command started" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_closed_standard_error_loses_nothing_of_the_report(monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["lint", "--no-baseline"]) == 1
    expected = capsys.readouterr().out
    shell = 'exec "$@" 2>&-'
    command = ["sh", "-c", shell, "sh", sys.executable, "-m", "rulebook", "lint", "--no-baseline"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, env=dict(os.environ, NO_COLOR="1"))
    assert (done.returncode, done.stdout) == (1, expected)


def test_bundled_dtd_is_the_compilers_dtd() -> None:
    shipped = (ROOT / "compiler" / "schema" / "rulebook.dtd").read_text(encoding="utf-8")
    assert (ROOT / "rulebook_src" / "en" / "rulebook.dtd").read_text(encoding="utf-8") == shipped


def test_docs_hold_every_rules_documentation(capsys: pytest.CaptureFixture[str], update_golden: bool) -> None:
    """docs/lint.md holds what `rulebook explain --markdown` prints (rewritten by `pytest --update-golden`)."""
    assert main(["explain", "--markdown"]) == 0
    check_generated_part(
        ROOT / "docs" / "lint.md", "<!-- rules:", "<!-- /rules -->", capsys.readouterr().out, update_golden
    )


def test_docs_list_every_rule_with_the_severity_explain_gives(capsys: pytest.CaptureFixture[str]) -> None:
    """One severity word everywhere: the tables of docs/lint.md say what `explain --all` and the reports say."""
    docs = (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    assert main(["explain", "--all"]) == 0
    listed = capsys.readouterr().out
    for rule in RULES:
        assert f"| {rule.code} | `{rule.name}` | {rule.severity.public} |" in docs
        assert re.search(rf"^{rule.code}  {rule.name} +{rule.severity.public} ", listed, re.MULTILINE), rule.code
    assert "fatal" not in listed and "| fatal |" not in docs


def test_each_command_is_registered_by_the_module_the_start_up_imports() -> None:
    """``rulebook COMMAND`` imports only COMMANDS[COMMAND]'s module: the table must say who registers what."""
    import argparse
    import importlib

    from rulebook.cli import COMMANDS, MODULES

    for name in MODULES:
        parser = argparse.ArgumentParser()
        commands = parser.add_subparsers()
        importlib.import_module(f"rulebook.cli.{name}").add_commands(commands)
        assert sorted(commands.choices) == sorted(c for c, m in COMMANDS.items() if m == name), name
    assert set(COMMANDS.values()) == set(MODULES)


def test_a_command_imports_only_its_own_command_module() -> None:
    script = (
        "import sys\n"
        "from rulebook.cli import main\n"
        "main(['dtd'])\n"
        "print(sorted(m for m in sys.modules if m.startswith('rulebook.cli.')), file=sys.stderr)\n"
    )
    done = _fresh_python(script)
    assert done.stderr.splitlines()[-1] == "['rulebook.cli.common', 'rulebook.cli.lint', 'rulebook.cli.usage']"


def test_a_stop_signal_that_would_be_lost_in_an_import_callback_is_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A SIGTERM arriving while the import system runs its module-lock callback would raise where the
    exception is printed and ignored, and the build would go on: it is sent again a moment later."""
    import signal
    import time

    from rulebook import cli

    sent: list[int] = []
    monkeypatch.setattr(os, "kill", lambda pid, signum: sent.append(signum))
    namespace: dict[str, object] = {}
    exec(
        compile("import sys\ndef cb():\n    return sys._getframe()\n", "<frozen importlib._bootstrap>", "exec"),
        namespace,
    )
    callback_frame = namespace["cb"]()  # type: ignore[operator]
    cli._stop(signal.SIGTERM, callback_frame)  # nothing raised where it would be lost
    deadline = time.monotonic() + 10
    while not sent and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent == [signal.SIGTERM]
    with pytest.raises(cli.Stopped):
        cli._stop(signal.SIGTERM, sys._getframe())
    cli._interrupt(signal.SIGINT, callback_frame)  # Ctrl+C alike
    while len(sent) < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    assert sent == [signal.SIGTERM, signal.SIGINT]
    with pytest.raises(KeyboardInterrupt):
        cli._interrupt(signal.SIGINT, sys._getframe())


def _fresh_python(script: str) -> subprocess.CompletedProcess[str]:
    """``script`` run by a new Python from the repository (what it imports starts from nothing); it must succeed."""
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done
