"""``rulebook build --strict``: a book with lint errors publishes nothing, and the last good site stays byte for byte."""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest

from rulebook.cli import main


def snapshot(site: Path) -> dict[str, tuple[str, int]]:
    """Every file and folder of the site: its content's hash (or a folder's mark) and its inode."""
    found = {}
    for folder, folders, files in os.walk(site):
        for name in folders + files:
            path = Path(folder, name)
            kind = "folder" if path.is_dir() else hashlib.sha256(path.read_bytes()).hexdigest()
            found[path.relative_to(site).as_posix()] = (kind, path.stat().st_ino)
    return found


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    assert main(["init", str(tmp_path), "--title", "Strict"]) == 0
    monkeypatch.chdir(tmp_path)
    capsys.readouterr()
    return tmp_path


def break_a_reference(project: Path) -> None:
    book = project / "rules" / "book.xml"
    book.write_text(
        book.read_text(encoding="utf-8").replace(
            '<reference name="roll">roll</reference> on', '<reference name="rol">roll</reference> on'
        ),
        encoding="utf-8",
    )


def test_strict_publishes_nothing_when_the_lint_finds_errors(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "--strict"]) == 0  # clean: published
    site = project / "site"
    before = snapshot(site)
    assert "index.html" in before
    break_a_reference(project)
    capsys.readouterr()
    assert main(["build", "--strict"]) == 1
    assert capsys.readouterr().err.splitlines()[-2:] == [
        "The lint found 1 new error in Strict (run `rulebook lint`).",
        f"rulebook: --strict: nothing was built into {site}; the last good site is kept.",
    ]
    assert snapshot(site) == before  # the old site, byte for byte, the same files
    assert main(["build", "--strict", "--data-only"]) == 1
    assert snapshot(site) == before
    assert main(["build", "--quiet"]) == 0  # without --strict the book is published, errors and all
    assert snapshot(site) != before


def test_strict_counts_only_what_the_baseline_does_not_list(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    break_a_reference(project)
    assert main(["lint", "--write-baseline", "rules/lint-baseline.json"]) == 0
    config = project / "rulebook.toml"
    config.write_text('baseline = "rules/lint-baseline.json"\n' + config.read_text(encoding="utf-8"), encoding="utf-8")
    assert main(["build", "--strict", "--quiet"]) == 0
    assert (project / "site" / "index.html").is_file()
