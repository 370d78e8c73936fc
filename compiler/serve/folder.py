"""``serve``'s temporary folder: made for one session, removed on every exit path, and removed by the next
session when a ``kill -9`` left it behind."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

FOLDER_PREFIX = "rulebook-serve-"
OWNER = ".rulebook-serve-pid"
"""The file in a serve folder naming the process that serves it."""


@contextmanager
def serve_folder() -> Iterator[Path]:
    """A new temporary folder, marked as this process's, removed when the session ends (the folders of
    sessions that died first are removed before)."""
    _remove_abandoned()
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    (folder / OWNER).write_text(f"{os.getpid()}\n", encoding="utf-8")
    try:
        yield folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _remove_abandoned() -> None:
    """Remove the folders of earlier ``serve`` processes that died without cleaning up (``kill -9``)."""
    for folder in Path(tempfile.gettempdir()).glob(FOLDER_PREFIX + "*"):
        try:
            pid = int((folder / OWNER).read_text(encoding="utf-8"))
            if folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
        except (OSError, ValueError):
            continue  # not one of ours, or not finished being made: leave it
        if not _alive(pid):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether a process has this pid (one of another user's counts: signalling it is refused, not failed)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True
