"""Files: atomic writes (a reader never sees half a file, a failed write leaves the old one), and which
inputs may be read at all."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_umask())  # mkstemp makes files private; outputs are not
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


MAX_SOURCE_BYTES = 256 * 1024 * 1024
"""The largest file the compiler reads as a source or a project's own file (the 100x book is 8 MB)."""


def input_problem(path: Path, root: Path | None) -> str | None:
    """Why ``path`` may not be read as one of the project's inputs, or None if it may.

    Inside the project (``root``), a file is read only where it really is inside it: a link that leads
    out of the project (``rules/book.md -> /proc/self/environ``, committed by a contributor) is refused,
    since what it reads would be published. Only regular files are read (not a device or a pipe), and
    none larger than :data:`MAX_SOURCE_BYTES`.
    """
    absolute = Path(os.path.abspath(path))
    if root is not None:
        base = Path(os.path.abspath(root))
        if absolute.is_relative_to(base) and not absolute.resolve().is_relative_to(base.resolve()):
            return "it is a link to a file outside the project; inputs are read only inside it"
    try:
        status = absolute.stat()
    except OSError:
        return None  # the reader says why it cannot be read
    if not stat.S_ISREG(status.st_mode):
        return "it is not a regular file"
    if status.st_size > MAX_SOURCE_BYTES:
        return f"it is larger than {MAX_SOURCE_BYTES // (1024 * 1024)} MB, the most a source may be"
    return None
