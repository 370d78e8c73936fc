"""Publishing: the output folder belongs to the build, and a new site replaces the old one in one step.

- **Ownership.** Every site the build makes holds a marker file, ``.rulebook-site``. A build
  replaces an output folder only when it holds the marker or is empty; it never takes the
  project's root, a folder holding a source or the configuration, or a symbolic link.
- **One build at a time.** A lock file beside the output (``.NAME.lock``) is held for the
  whole build, and removed at its end; a second build waits for it and says whose it is.
- **A release at a time.** The new site is made in a work folder beside the output
  (``.NAME.rulebook/``, the build's own, removed on every exit path). It then takes the
  output's place in a single atomic exchange of names (Linux ``renameat2(RENAME_EXCHANGE)``):
  a reader, or a build killed at any instant, sees the old complete site or the new one.
  Where the exchange is not supported, two renames are used and an interrupted swap is
  put right by the next build. An output that is a mount point (a container volume) cannot
  change its name: its entries are exchanged one by one, each atomically (see docs/site.md).
"""

from __future__ import annotations

import errno
import fcntl
import os
import shutil
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from compiler.fileio import OutputError, shown_path

MARKER = ".rulebook-site"
"""The file that marks a folder as a site this tool built (and so may replace)."""
MARKER_TEXT = "This folder is a site built by rulebook: `rulebook build` replaces it whole.\n"
_WORK_MARKER = ".rulebook-work"
CACHE = "cache"
"""The work folder's entry that is kept between builds (:attr:`Release.cache`)."""


def check_output(output: Path, *, root: Path, protected: Iterable[Path]) -> Path:
    """The output folder, made absolute, after checking that a build may replace it.

    ``protected``: the project's sources and configuration file: no output may hold one.
    """
    output = Path(os.path.abspath(output))
    shown = shown_path(output, root)
    if output.is_symlink():
        raise OutputError(f"the output `{shown}` is a symbolic link: name the folder itself")
    base = Path(os.path.abspath(root))
    if output.is_relative_to(base):  # inside the project, no folder on the way may lead elsewhere
        for folder in output.relative_to(base).parents:
            if folder != Path(".") and (base / folder).is_symlink():
                raise OutputError(
                    f"the output `{shown}` is inside `{shown_path(base / folder, root)}`, a symbolic link: "
                    "name a folder of the project itself"
                )
    resolved = output.resolve()
    root = root.resolve()
    if resolved == root or root.is_relative_to(resolved):
        raise OutputError(f"the output `{shown}` holds the whole project: choose a folder inside it, such as `site`")
    for path in protected:
        if path.resolve().is_relative_to(resolved):
            raise OutputError(
                f"the output `{shown}` holds `{shown_path(path, root)}`, which the build reads: choose another"
            )
    if output.exists() and not output.is_dir():
        raise OutputError(f"the output `{shown}` is a file, not a folder")
    if output.is_dir() and not is_owned(output):
        raise OutputError(
            f"the output `{shown}` is not empty and is not a site this tool built (it has no `{MARKER}` file): "
            "choose another folder, or empty this one"
        )
    return output


def is_owned(folder: Path) -> bool:
    """Whether a folder is a site this tool built, or empty (so a build may replace it)."""
    try:
        return (folder / MARKER).is_file() or not any(folder.iterdir())
    except OSError:
        return False


@dataclass(frozen=True, slots=True)
class Release:
    """The new site being made: ``folder`` holds it until :func:`publish` swaps it in."""

    output: Path
    work: Path
    """The build's work folder beside the output: scratch space and the new site."""

    @property
    def folder(self) -> Path:
        return self.work / "site"

    @property
    def scratch(self) -> Path:
        """Room for intermediate files (the MkDocs projects); never published."""
        return self.work / "scratch"

    @property
    def cache(self) -> Path:
        """What the site generator keeps from one build to the next (Zensical's projects and cache): the one
        entry of the work folder that outlives a build; never published."""
        return self.work / CACHE


@contextmanager
def release(output: Path, *, wait: Callable[[str], None] = lambda message: None) -> Iterator[Release]:
    """Hold the output's lock and a fresh work folder for a new site; both are let go on every exit path.

    ``wait`` is told, once, when another build holds the lock (the build then waits for it). A file
    that cannot be written (no room, no permission, a file where a folder should be) is an
    :class:`OutputError` naming it.
    """
    with _plainly(output), _release(output, wait) as made:
        yield made


@contextmanager
def _plainly(output: Path) -> Iterator[None]:
    try:
        yield
    except OSError as error:
        where = error.filename or output
        reason = (error.strerror or str(error)).lower()
        raise OutputError(f"cannot write the site into `{output}`: {reason} (`{where}`)") from error


@contextmanager
def _release(output: Path, wait: Callable[[str], None]) -> Iterator[Release]:
    output.parent.mkdir(parents=True, exist_ok=True)
    mounted = os.path.ismount(output)
    base = output if mounted else output.parent
    name = output.name or "site"
    with _locked(base / f".{name}.lock", wait):
        work = base / f".{name}.rulebook"
        recover(output, work)
        work.mkdir(exist_ok=(work / _WORK_MARKER).is_file())  # ours, kept for its cache
        (work / _WORK_MARKER).write_text("", encoding="utf-8")
        (work / "site").mkdir()
        (work / "site" / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
        try:
            yield Release(output, work)
        finally:
            recover(output, work)


@contextmanager
def _locked(path: Path, wait: Callable[[str], None]) -> Iterator[None]:
    """Hold the lock file at ``path`` (made for the purpose, and removed when let go)."""
    lock = _acquire(path, wait)
    try:
        lock.write(f"rulebook build (process {os.getpid()})\n")
        lock.flush()
        yield
    finally:
        # Removed while still held: a build that waited on this file sees it is gone and takes a new one.
        path.unlink(missing_ok=True)
        fcntl.flock(lock, fcntl.LOCK_UN)
        lock.close()


def _acquire(path: Path, wait: Callable[[str], None]) -> TextIO:
    told = False
    while True:
        lock = open(path, "a+", encoding="utf-8")  # noqa: SIM115 - held open for the whole build
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not told:
                lock.seek(0)
                wait(f"waiting for {lock.read().strip() or 'another build'} to finish building into the same folder…")
                told = True
            fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            same = os.fstat(lock.fileno()).st_ino == os.stat(path).st_ino
        except FileNotFoundError:
            same = False
        if same:
            lock.seek(0)
            lock.truncate()
            return lock
        lock.close()


def recover(output: Path, work: Path) -> None:
    """Put right what a killed build left: a site it moved aside comes back; its work folder goes, but for the
    generator's cache (:attr:`Release.cache`)."""
    if not work.is_dir() or not ((work / _WORK_MARKER).is_file() or not any(work.iterdir())):
        return  # not ours: the work folder is made empty, then marked, before anything else goes in
    aside = work / "previous"
    if aside.is_dir() and not output.exists():
        os.rename(aside, output)
    # The marker goes last, so a removal cut short still leaves a folder known to be ours.
    for entry in work.iterdir():
        if entry.name not in (_WORK_MARKER, CACHE):
            _remove(entry)
    if not (work / CACHE).is_dir():
        _remove(work)


def keep_from_current(release: Release, keep: Callable[[str], bool]) -> None:
    """Carry the entries of the current site that ``keep`` names (what this build does not remake: the
    books not rebuilt) into the new site, as links to the same files."""
    if not release.output.is_dir():
        return
    for source in sorted(release.output.iterdir()):
        target = release.folder / source.name
        if source.name == MARKER or not keep(source.name) or target.exists() or source.is_symlink():
            continue
        if source.is_dir():
            shutil.copytree(source, target, copy_function=_link_or_copy, symlinks=True)
        else:
            _link_or_copy(str(source), str(target))


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def publish(release: Release) -> None:
    """The new site takes the output's place; the old one is deleted afterwards."""
    new, output = release.folder, release.output
    if not output.exists():
        os.rename(new, output)
        return
    if os.path.ismount(output):
        _exchange_entries(new, output)
    elif not _exchange(new, output):
        # No atomic exchange here: the old site steps aside, then the new one takes its place. If that
        # is interrupted, the release (or the next build, after a kill) puts the old one back.
        os.rename(output, release.work / "previous")
        os.rename(new, output)
        new = release.work / "previous"
    _remove(new)


def _exchange_entries(new: Path, output: Path) -> None:
    """A mount point keeps its name: each of its entries is exchanged with the new site's (marker last)."""
    names = sorted(p.name for p in new.iterdir() if p.name != MARKER)
    for name in names:
        if (output / name).exists() or (output / name).is_symlink():
            if not _exchange(new / name, output / name):
                os.rename(output / name, new / f".old-{name}")
                os.rename(new / name, output / name)
        else:
            os.rename(new / name, output / name)
    for stale in sorted(output.iterdir()):
        if stale.name not in names and stale.name != MARKER and not stale.name.startswith("."):
            os.rename(stale, new / f".stale-{stale.name}")
    os.replace(new / MARKER, output / MARKER)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Exchange two paths' names in one atomic step; False where the system cannot (nothing is changed then)."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # a build's publishing step only: a command's start-up does without it

    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except AttributeError:
        return False
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    if result == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.EINVAL, errno.ENOSYS, errno.EOPNOTSUPP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def _remove(path: Path) -> None:
    """Delete a file or folder the build made; a folder still being written elsewhere is retried briefly."""
    if not path.is_dir() or path.is_symlink():
        path.unlink(missing_ok=True)
        return
    for attempt in range(3):
        shutil.rmtree(path, ignore_errors=attempt < 2)
        if not path.exists():
            return
        time.sleep(0.05)


def write_marker(folder: Path) -> None:
    """Mark a folder the build writes straight into (``--data-only``) as its own."""
    folder.mkdir(parents=True, exist_ok=True)
    marker = folder / MARKER
    if not marker.is_file():
        marker.write_text(MARKER_TEXT, encoding="utf-8")
