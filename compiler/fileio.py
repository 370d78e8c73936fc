"""Files: atomic writes (a reader never sees half a file, a failed write leaves the old one), which
inputs may be read at all, and which files a report may be written to."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable
from pathlib import Path

from compiler.errors import UserError


def write_atomic(path: Path, text: str | bytes) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename it."""
    import tempfile  # not needed by a report written into a device or a pipe (``-o /dev/null``)

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


class OutputError(UserError):
    """An output (the site's folder, a report's file) cannot be used; the message names it and says why."""


KEPT_SUFFIXES = frozenset(
    {".xml", ".md", ".markdown", ".toml", ".yml", ".yaml", ".py", ".dtd", ".j2", ".html", ".css", ".js", ".cfg", ".ini"}
)
"""Kinds of file a project keeps (sources, configuration, templates, code): a report never replaces one."""


def check_report_file(path: Path, *, root: Path, protected: Iterable[Path]) -> Path:
    """A file a command may write a report, a baseline or an export to, made absolute.

    It may be a new file, or replace one that is not among ``protected`` (the project's inputs)
    and not of a kind a project keeps (:data:`KEPT_SUFFIXES`): ``lint -o rules/book.xml`` must
    not replace the book with its own report.
    """
    path = Path(os.path.abspath(path))
    shown = shown_path(path, root)
    if path.is_dir():
        raise OutputError(f"cannot write `{shown}`: it is a folder")
    resolved = path.resolve()
    for kept in protected:
        if kept.resolve() == resolved:
            raise OutputError(f"`{shown}` is a file of the project (the configuration names it): choose another name")
    if path.exists() and path.suffix.lower() in KEPT_SUFFIXES and path.stat().st_size:
        raise OutputError(
            f"`{shown}` exists and is not a report (a `{path.suffix}` file is a project's own): choose another name"
        )
    return path


def shown_path(path: Path, root: Path) -> str:
    """A path as the user would write it: relative to the project when inside it (links not followed)."""
    absolute, base = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    if absolute == base:
        return "."
    return absolute.relative_to(base).as_posix() if absolute.is_relative_to(base) else str(path)
