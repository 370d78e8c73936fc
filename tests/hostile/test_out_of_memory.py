"""Out of memory under a limit (``ulimit -v``): an ordinary fault of the machine, told plainly, never as a bug."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.cli import main

from .scratch import run
from .test_output import project


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = project(tmp_path / "game")
    monkeypatch.chdir(folder)
    return folder


def test_a_command_out_of_memory_says_so_and_that_no_output_is_half_written(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A MemoryError in the build's own process was "internal error: MemoryError ... This is a bug in the rulebook
    compiler" (the forty-fourth probe, `ulimit -v 130000`)."""

    def greedy(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr("rulebook.cli.lint.run_lint", greedy)
    outcome = run(capsys, "lint")
    assert outcome.code == 2, outcome
    assert outcome.err == (
        "rulebook: error: out of memory (the system, or a limit such as `ulimit -v`, allows less memory than it "
        "needs); every output is replaced whole or not at all, so none is left half-written\n"
    )


def test_the_engines_cache_out_of_memory_after_publishing_is_a_warning(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The site was published whole, then the engine's cache ran out of memory noting the new data: exit 2 and
    "internal error" for a build that had published (the forty-fourth probe); a warning now, exit 0."""

    def greedy(*args: object, **kwargs: object) -> None:
        raise MemoryError

    monkeypatch.setattr("rulebook.engine.schema.remember_valid", greedy)
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 0, outcome
    assert "rulebook: warning: the engine's cache could not note the new rules.json (out of memory" in outcome.err
    assert (game / "site" / "rules.json").is_file()


@pytest.mark.parametrize(
    ("raised", "said"),
    [
        (
            ImportError(".../lxml/etree.cpython-311-x86_64-linux-gnu.so: failed to map segment from shared object"),
            "rulebook: error: out of memory (the system, or a limit such as `ulimit -v`, allows less memory",
        ),
        (OSError(12, "Cannot allocate memory"), "rulebook: error: out of memory"),
        (
            ModuleNotFoundError("No module named 'lxml'", name="lxml"),
            "rulebook: error: a package rulebook needs cannot be imported (No module named 'lxml'): reinstall "
            "rulebook-compiler\n",
        ),
    ],
    ids=["a module not mapped", "no memory to allocate", "a package missing"],
)
def test_an_import_that_fails_is_not_told_as_a_bug(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, raised: Exception, said: str
) -> None:
    """Under `ulimit -v` 25-30 MB the lint's import of lxml failed ("failed to map segment from shared object"), told
    as "internal error: ImportError ... This is a bug" (the forty-fifth probe): the system's refusal of memory is
    told as out of memory, and a package of the install missing or broken as one to reinstall."""

    def failing(*args: object, **kwargs: object) -> None:
        raise raised

    monkeypatch.setattr("rulebook.cli.lint.run_lint", failing)
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and outcome.err.startswith(said) and "bug" not in outcome.err, outcome


def test_a_name_the_compilers_own_code_lacks_is_its_bug_not_the_installs(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An import of a name a module of the compiler lacks was told "reinstall rulebook-compiler" (seen while adding
    a check): it is the compiler's bug, said as one."""

    def failing(*args: object, **kwargs: object) -> None:
        raise ImportError("cannot import name 'X' from 'rulebook.errors'", name="rulebook.errors")

    monkeypatch.setattr("rulebook.cli.lint.run_lint", failing)
    assert main(["lint"]) == 2
    assert capsys.readouterr().err.startswith("rulebook: internal error: ImportError: cannot import name 'X'")
