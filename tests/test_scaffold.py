"""``rulebook init``: what a new project starts with, and what it tells the team."""

from __future__ import annotations

import subprocess
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


def test_init_in_a_repository_says_what_would_keep_the_workflow_from_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("*.whl\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["init", "rules-site", "--title", "Below"]) == 0
    said = capsys.readouterr().err
    assert "rulebook: warning: the repository's .gitignore leaves out tools/rulebook_compiler-" in said
    assert "commit it all the same (`git add -f`)" in said
    assert "GitHub runs only the workflows in the root's .github/workflows" in said
    assert "`defaults: {run: {working-directory: rules-site}}` and upload `rules-site/site/`" in said
    (tmp_path / ".gitignore").unlink()
    assert main(["init", ".", "--title", "At the root"]) == 0
    assert "warning" not in capsys.readouterr().err  # the root of a repository, nothing ignored: nothing to say
