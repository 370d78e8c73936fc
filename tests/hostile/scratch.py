"""What the reader and report cases share: a one-source project in a scratch folder, the command
line run as a user runs it, and proof that nothing outside the output was touched."""

from __future__ import annotations

import contextlib
import resource
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import pytest

from rulebook.cli import main

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


MARKDOWN_FORMATS = ("markdown", "plain-markdown")
"""The formats a ``.md`` book is read in: the dialect (the default) and plain Markdown (when configured)."""


def markdown_book(folder: Path, content: str | bytes, markdown_format: str, name: str = "book.md") -> Path:
    """:func:`source` for a Markdown book the configuration says is written in ``markdown_format``."""
    path = source(folder, name, content)
    configure(folder, f'format = "{markdown_format}"\n')
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


GUARD_SECONDS = 60
GUARD_BYTES = 4 * 1024**3


def run_guarded(folder: Path, *argv: str) -> Outcome:
    """``rulebook ARGV`` in a process of its own, in ``folder``, stopped after :data:`GUARD_SECONDS` and held to
    :data:`GUARD_BYTES` of memory: a reader that waits on a pipe or reads ``/dev/zero`` fails the test instead
    of hanging it (or the machine); never an internal error."""

    def held() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (GUARD_BYTES, GUARD_BYTES))

    try:
        done = subprocess.run(
            [sys.executable, "-m", "rulebook", *argv],
            cwd=folder,
            capture_output=True,
            text=True,
            timeout=GUARD_SECONDS,
            preexec_fn=held,
        )
    except subprocess.TimeoutExpired:
        pytest.fail(f"`rulebook {' '.join(argv)}` was still running after {GUARD_SECONDS} s")
    assert "internal error" not in done.stderr, done.stderr
    return Outcome(done.returncode, done.stdout, done.stderr)


@contextlib.contextmanager
def nothing_written_outside(folder: Path, output: str | None = None) -> Iterator[None]:
    """Assert that ``folder`` holds what it held before, but for the ``output`` folder in it."""
    before = _without(snapshot(folder), output)
    yield
    assert _without(snapshot(folder), output) == before


def _without(found: dict[str, str], output: str | None) -> dict[str, str]:
    return {key: value for key, value in found.items() if output is None or key.split("/")[0] != output}


def refused(capsys: pytest.CaptureFixture[str], folder: Path, *argv: str) -> Outcome:
    """``rulebook ARGV``, refused: exit status 2, and ``folder`` holding what it held before (no output begun);
    what it printed."""
    with nothing_written_outside(folder):
        outcome = run(capsys, *argv)
    assert outcome.code == 2, (argv, outcome.err)
    return outcome


def converted(capsys: pytest.CaptureFixture[str], folder: Path, name: str, output: str) -> str:
    """``rulebook convert NAME --to xml -o OUTPUT`` in ``folder``, done (exit status 0): the XML it wrote."""
    assert run(capsys, "convert", name, "--to", "xml", "-o", output).code == 0
    return (folder / output).read_text(encoding="utf-8")


def configured(folder: Path, book: str | bytes, configuration: str) -> None:
    """A project of ``book.xml`` holding ``book``, its ``rulebook.toml`` holding ``configuration`` alone (which
    names that source, or not)."""
    source(folder, "book.xml", book)
    (folder / "rulebook.toml").write_text(configuration, encoding="utf-8")
