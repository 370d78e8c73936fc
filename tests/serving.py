"""``rulebook serve`` in a process of its own: what it says on stderr, its pages, and its folder."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path
from types import TracebackType

from .conftest import ROOT

PATIENCE = 300.0
"""Seconds to wait for something that should happen (never a timing assertion: the machine may be busy)."""


def _python_path() -> list[str]:
    """The test run's own ``PYTHONPATH``, kept: the package under test may be found there first."""
    return [entry for entry in os.environ.get("PYTHONPATH", "").split(os.pathsep) if entry]


class Served:
    """``rulebook serve ARGS`` run from ``cwd``, its temporary folders made under ``temp``.

    ``prelude``: Python run in the server process before the command (a test's stand-in for a slow stage).
    """

    def __init__(self, args: list[str], *, cwd: Path, temp: Path, prelude: str = "") -> None:
        self.temp = temp
        temp.mkdir(parents=True, exist_ok=True)
        command = f"{prelude}\nimport sys\nfrom rulebook.cli import main\nsys.exit(main(sys.argv[1:]))"
        self.process = subprocess.Popen(
            [sys.executable, "-c", command, "serve", "--port", "0", *args],
            cwd=cwd,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "TMPDIR": str(temp), "PYTHONPATH": os.pathsep.join([*_python_path(), str(ROOT)])},
        )
        self.lines: list[str] = []
        self._said = threading.Condition()
        threading.Thread(target=self._listen, daemon=True).start()
        found = re.search(r"http://127\.0\.0\.1:(\d+)/", self.wait_for("Serving on"))
        assert found is not None
        self.url = found.group()

    def _listen(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            with self._said:
                self.lines.append(line)
                self._said.notify_all()
        with self._said:
            self._said.notify_all()

    def __enter__(self) -> Served:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)

    def mark(self) -> int:
        """Where the server's words are now: :meth:`wait_for` looks only at what it says after."""
        with self._said:
            return len(self.lines)

    def wait_for(self, text: str, after: int = 0) -> str:
        """The first line from ``after`` on that holds ``text``, once the server has said it."""
        deadline = time.monotonic() + PATIENCE
        with self._said:
            while True:
                for line in self.lines[after:]:
                    if text in line:
                        return line
                assert self.process.poll() is None, "rulebook serve stopped:\n" + "".join(self.lines)
                assert time.monotonic() < deadline, f"the server never said {text!r}:\n" + "".join(self.lines)
                self._said.wait(1)

    def page(self, path: str) -> str:
        with urllib.request.urlopen(self.url + path) as response:
            return str(response.read().decode("utf-8"))

    def wait_for_page(self, path: str, text: str) -> str:
        """The page at ``path`` once it shows ``text``."""
        deadline = time.monotonic() + PATIENCE
        while text not in (body := self.page(path)):
            assert self.process.poll() is None, "rulebook serve stopped:\n" + "".join(self.lines)
            assert time.monotonic() < deadline, f"{path} never showed {text!r}:\n" + "".join(self.lines)
            time.sleep(0.05)
        return body

    @property
    def folder(self) -> Path:
        """The served site on disk."""
        (site,) = self.temp.glob("rulebook-serve-*/site")
        return site


def edit(path: Path, old: str, new: str) -> None:
    """Replace the first ``old`` in a file, as an editor saves it."""
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def files_of(folder: Path) -> dict[str, tuple[int, bytes]]:
    """Every file of a site: its modification time and bytes, by path."""
    return {
        path.relative_to(folder).as_posix(): (path.stat().st_mtime_ns, path.read_bytes())
        for path in sorted(folder.rglob("*"))
        if path.is_file()
    }
