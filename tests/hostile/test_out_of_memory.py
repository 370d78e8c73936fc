"""Out of memory under a limit (``ulimit -v``): an ordinary fault of the machine, told plainly, never as a bug."""

from __future__ import annotations

from pathlib import Path

import pytest

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
