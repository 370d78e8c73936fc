"""What the reader and report cases share: a one-source project in a scratch folder, the command
line run as a user runs it, and proof that nothing outside the output was touched."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from compiler.cli import main

from .test_output import snapshot

REFUSED = "rulebook: nothing was built into out; the last good site is kept.\n"
"""What a build that could not read its source says last (its output being ``out``)."""


class Outcome(NamedTuple):
    """What a command did: its exit status and what it printed."""

    code: int
    out: str
    err: str


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project folder, the working folder for the test."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def source(folder: Path, name: str, content: str | bytes) -> Path:
    """``name`` in ``folder`` holding ``content``, and a ``rulebook.toml`` naming it as the book's source."""
    path = folder / name
    path.write_bytes(content.encode("utf-8") if isinstance(content, str) else content)
    (folder / "rulebook.toml").write_text(f'sources = ["{name}"]\n', encoding="utf-8")
    return path


def configure(folder: Path, lines: str) -> None:
    """Add ``lines`` (TOML) at the end of the project's ``rulebook.toml``."""
    with (folder / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write(lines)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> Outcome:
    """``rulebook ARGV``; never an internal error."""
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "internal error" not in captured.err, captured.err
    return Outcome(code, captured.out, captured.err)


@contextlib.contextmanager
def nothing_written_outside(folder: Path, output: str | None = None) -> Iterator[None]:
    """Assert that ``folder`` holds what it held before, but for the ``output`` folder in it."""
    before = _without(snapshot(folder), output)
    yield
    assert _without(snapshot(folder), output) == before


def _without(found: dict[str, str], output: str | None) -> dict[str, str]:
    return {key: value for key, value in found.items() if output is None or key.split("/")[0] != output}
