"""``serve``'s temporary folder: made for one session, removed on every exit path, and removed by the next
session when a ``kill -9`` left it behind."""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from rulebook.state import read_small, remove

FOLDER_PREFIX = "rulebook-serve-"
OWNER = ".rulebook-serve-pid"
"""The file in a serve folder naming the process that serves it."""
_MADE_MODE = 0o700
"""The mode :func:`tempfile.mkdtemp` makes a folder with (whatever the umask): one with another was not made here."""


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
        with contextlib.suppress(OSError):
            remove(folder)


def _remove_abandoned() -> None:
    """Remove the folders of earlier ``serve`` processes that died without cleaning up (``kill -9``)."""
    for folder in Path(tempfile.gettempdir()).glob(FOLDER_PREFIX + "*"):
        try:
            status = folder.lstat()
            if not stat.S_ISDIR(status.st_mode) or status.st_uid != os.getuid():
                continue  # another user's (a pipe there would hold every preview up) or a link: never read
            if stat.S_IMODE(status.st_mode) != _MADE_MODE:
                continue  # not made by mkdtemp (a folder a checkout made, when the temporary folder is one)
            pid = int(read_small(folder / OWNER))  # not through a link, without waiting, a few bytes
        except (OSError, ValueError):
            continue  # not one of ours, or not finished being made: leave it
        if not _alive(pid):
            with contextlib.suppress(OSError):  # never across into another file system (:func:`remove`)
                remove(folder)


def _alive(pid: int) -> bool:
    """Whether a process has this pid (one of another user's counts: signalling it is refused, not failed)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True
