"""What every hostile-input case needs: the command line run as a user runs it, and proof
that nothing outside the output was touched (a snapshot of the trees before and after)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from compiler.cli import main

ROOT = Path(__file__).resolve().parents[2]
_NOT_OURS = {".git", ".venv", "__pycache__", ".pytest_cache", ".mypy_cache", ".ruff_cache", ".hypothesis", "site"}


class Outcome(NamedTuple):
    """What a command did: its exit status and what it printed."""

    code: int
    out: str
    err: str


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Outcome:
    """``rulebook ARGV`` from the project folder (the caller chdirs there); never an internal error."""
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "internal error" not in captured.err, captured.err
    return Outcome(code, captured.out, captured.err)


def tree(folder: Path, skip: Path | None = None) -> dict[str, tuple[int, int]]:
    """Every file and folder under ``folder`` (but ``skip``), with its size and modification time."""
    found: dict[str, tuple[int, int]] = {}
    for top, folders, files in os.walk(folder):
        here = Path(top)
        folders[:] = [f for f in folders if f not in _NOT_OURS and not f.endswith(".egg-info") and here / f != skip]
        for name in folders + files:
            status = (here / name).lstat()
            found[(here / name).relative_to(folder).as_posix()] = (
                status.st_size if name in files else 0,
                status.st_mtime_ns,
            )
    return found


@contextlib.contextmanager
def nothing_written_outside(scratch: Path, output: Path | None = None) -> Iterator[None]:
    """Assert that the scratch folder (but ``output``) and the project folder are as they were."""
    before = tree(scratch, output), tree(ROOT)
    yield
    assert (tree(scratch, output), tree(ROOT)) == before
