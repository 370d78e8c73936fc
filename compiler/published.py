"""What a build published, recorded where no commit can write: a build that rebuilds some books keeps the others
from the current site only where it is, file for file, what rulebook put there.

``rulebook build --book NAME`` keeps the other books' folders of the current site. That site is in the
working tree, so a commit may have put it there (a ``site/`` holding a ``.rulebook-site`` file and a
book folder of its own) or added files to it. After each build, then, every folder and regular file of
the published site is recorded, by path, device, inode, size and modification time, in the output's
kept folder (:func:`rulebook.state.kept_folder`, in the user's cache); a folder or file a commit wrote
is another inode, made at another time. Entries are reached one name at a time from an open folder,
never through a link.
"""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from rulebook import state
from rulebook.fileio import reason_of, write_atomic
from rulebook.inputs import MAX_DATA_BYTES

RECORD = "published.txt"
"""The record of the published site, in the output's kept folder."""
MAX_RECORD_BYTES = MAX_DATA_BYTES
"""The largest record read: a line of about 100 bytes a file, for a site of hundreds of thousands of files."""
_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK


def record(output: Path, kept: Path) -> None:
    """Record the site now at ``output`` as the one this build published."""
    lines = entries(output)
    write_atomic(kept / RECORD, "".join(line + "\n" for line in lines))


def rerecord(output: Path, kept: Path, paths: Iterable[str]) -> None:
    """Record the files at ``paths`` (relative to ``output``) and the folders they are in anew, after this build
    wrote them: where the site was recorded, the rest of the record stands."""
    try:
        lines = _recorded(kept)
    except OSError:
        return
    wanted = {str(folder) for path in paths for folder in Path(path).parents if str(folder) != "."} | set(paths)
    written = [_line(path, os.stat(output / path, follow_symlinks=False)) for path in sorted(wanted)]
    kept_lines = [line for line in lines if _path(line) not in wanted]
    write_atomic(kept / RECORD, "".join(line + "\n" for line in sorted([*kept_lines, *written])))


def copy(output: Path, names: Iterable[str], into: Path) -> list[str]:
    """Copy the entries ``names`` of the site at ``output`` into ``into``, as links to the same files (copies
    where the system cannot link): folders and regular files only, none reached through a link. What was
    found comes back as record lines, for :func:`differs`."""
    folder = os.open(output, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    found = []
    try:
        for path, status, parent, name in _entries(folder, "", set(names)):
            found.append(_line(path, status))
            if stat.S_ISDIR(status.st_mode):
                (into / path).mkdir()
            elif stat.S_ISREG(status.st_mode):
                _link_or_copy(parent, name, into / path, status)
    finally:
        os.close(folder)
    return found


NO_RECORD = "rulebook has no record of publishing it (it was built elsewhere or by an older version)"


def entries(output: Path) -> list[str]:
    """Every entry of the site at ``output`` as record lines, for :func:`differs` (none reached through a link)."""
    folder = os.open(output, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        return [_line(path, status) for path, status, _, _ in _entries(folder, "")]
    finally:
        os.close(folder)


def differs(found: list[str], names: Iterable[str] | None, kept: Path) -> str | None:
    """Why the entries ``names`` (None: all) of the current site (``found`` in it by :func:`copy` or
    :func:`entries`) are not what this tool published there, or None when they are exactly that."""
    try:
        recorded = _recorded(kept)
    except FileNotFoundError:
        return NO_RECORD
    except OSError as error:
        return f"rulebook's record of publishing it, `{kept / RECORD}`, cannot be read: {reason_of(error)}"
    tops = None if names is None else set(names)
    wanted = {line for line in recorded if tops is None or _path(line).split("/")[0] in tops}
    odd = (set(found) - wanted) or (wanted - set(found))  # what is there now, else what is gone
    if not odd:
        return None
    # The deepest: a file added to a folder changes the folder too.
    path = min((_path(line) for line in odd), key=lambda path: (-path.count("/"), path))
    return f"`{path}` in it is not what rulebook published there (added, changed or removed since)"


def _recorded(kept: Path) -> list[str]:
    """The lines of the record in ``kept``, read as the builds' own files in the user's cache are
    (:func:`rulebook.state.read_kept`): a pipe, a link or a huge file there is an :class:`OSError`."""
    return state.read_kept(kept / RECORD, MAX_RECORD_BYTES).decode("utf-8", "replace").splitlines()


def _entries(folder: int, prefix: str, only: set[str] | None = None) -> Iterator[tuple[str, os.stat_result, int, str]]:
    """Each entry under the open ``folder``, depth first, in name order: its path, its own status (a link's,
    not its target's), the open folder it is in and its name there."""
    for name in sorted(os.listdir(folder)):
        if only is not None and name not in only:
            continue
        status = os.stat(name, dir_fd=folder, follow_symlinks=False)
        yield prefix + name, status, folder, name
        if stat.S_ISDIR(status.st_mode):
            inner = os.open(name, _FLAGS | os.O_DIRECTORY, dir_fd=folder)
            try:
                yield from _entries(inner, f"{prefix}{name}/")
            finally:
                os.close(inner)


def _line(path: str, status: os.stat_result) -> str:
    kind = "d" if stat.S_ISDIR(status.st_mode) else "f" if stat.S_ISREG(status.st_mode) else "?"
    return f"{path}\t{kind} {status.st_dev} {status.st_ino} {status.st_size} {status.st_mtime_ns}"


def _path(line: str) -> str:
    return line.partition("\t")[0]


def _link_or_copy(folder: int, name: str, target: Path, status: os.stat_result) -> None:
    try:
        os.link(name, target, src_dir_fd=folder, follow_symlinks=False)
        return
    except OSError:
        pass
    source = os.open(name, _FLAGS, dir_fd=folder)
    with os.fdopen(source, "rb") as reading, open(target, "xb") as writing:
        shutil.copyfileobj(reading, writing)
    os.utime(target, ns=(status.st_atime_ns, status.st_mtime_ns))
