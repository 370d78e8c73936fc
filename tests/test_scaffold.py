"""``rulebook init``: what a new project starts with, and what it tells the team."""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.cli import main


def test_init_inside_a_project_warns_that_the_new_one_is_separate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--title", "Outer"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["init", "sub/deeper", "--title", "Inner"]) == 0
    assert capsys.readouterr().err == (
        "rulebook: warning: `sub/deeper` is inside the project that `rulebook.toml` configures: the new project is a "
        "separate one, and commands run in it no longer see the outer one (to add a book to that project instead, "
        "remove this folder and run `rulebook new-book NAME` there)\n"
    )
    assert (tmp_path / "sub" / "deeper" / "rulebook.toml").is_file()
