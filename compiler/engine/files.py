"""Reading the engine's files: regular files only, within a size limit, never waiting on a pipe.

Every file the engine reads goes through :func:`read_file`: ``rules.json`` and the schema beside it, the
engine's own schema, an army list, and the entries of its cache folder. A named pipe, a device, a socket or a
folder is refused before it is opened (opening a pipe for reading waits for a writer, reading a device may
never end), and checked again once open, in case it was swapped in between. A file larger than its limit is
refused unread.
"""

from __future__ import annotations

import contextlib
import os
import stat
from functools import cache
from pathlib import Path

from rulebook.engine.errors import RulesError
from rulebook.engine.limits import over


class UnreadableFile(RulesError):
    """A file the engine cannot open at all (missing, no permission): its cache passes over such a file."""


def read_file(path: Path, limit: int, kind: str, hint: str = "", *, through_links: bool = True) -> bytes:
    """The bytes of the regular file at ``path``, never more than ``limit``: anything else is refused naming
    ``kind`` (``a rules.json``). ``hint`` ends the message when the file cannot be opened; without
    ``through_links``, a link is refused rather than followed."""
    try:
        before = os.stat(path) if through_links else os.lstat(path)
        _check_regular(path, before.st_mode, kind)
        descriptor = os.open(path, _FLAGS | (0 if through_links else os.O_NOFOLLOW))
    except OSError as error:
        raise UnreadableFile(f"cannot read {path}: {error.strerror}{hint}") from error
    with os.fdopen(descriptor, "rb") as file:
        opened = os.fstat(descriptor)
        _check_regular(path, opened.st_mode, kind)  # what was opened, if another file took its place
        if opened.st_dev in _kernel_devices():  # an army list linked to /proc/self/environ: the process's secrets
            raise RulesError(
                f"{path} is a file the kernel writes (under /proc or /sys): the engine reads {kind} only "
                "from a file of yours"
            )
        if opened.st_size > limit:
            raise over(f"{path} is too large", limit, f"bytes for {kind}")
        try:
            raw = file.read(limit + 1)
        except OSError as error:
            raise UnreadableFile(f"cannot read {path}: {error.strerror}{hint}") from error
    if len(raw) > limit:  # it grew while it was read
        raise over(f"{path} is too large", limit, f"bytes for {kind}")
    return raw


_FLAGS = os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0)
"""A pipe swapped in after the check opens at once (then is refused) instead of waiting for a writer."""

_KINDS = (
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISLNK, "a link"),
)


@cache
def _kernel_devices() -> frozenset[int]:
    """The devices of the kernel's own file systems, whose files look regular: procfs and sysfs wherever mounted,
    and each file system mounted below /proc or /sys (an army list linked to a cgroup's file was read). The
    compiler's inputs refuse the same (``rulebook.inputs.kernel_mounts``: the engine imports nothing of the
    compiler)."""
    devices = {os.stat(folder).st_dev for folder in ("/proc", "/sys") if os.path.isdir(folder)}
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as mounts,
    ):
        for mount in mounts.read().splitlines():
            head, _, tail = mount.partition(" - ")
            parts = head.split(" ")
            if len(parts) >= 5 and tail and _of_the_kernel(parts[4], tail.split(" ")[0]):
                devices.add(os.makedev(*(int(n) for n in parts[2].split(":"))))
    return frozenset(devices)


def _of_the_kernel(mounted_at: str, file_system: str) -> bool:
    return file_system in ("proc", "sysfs") or any(
        mounted_at == top or mounted_at.startswith(f"{top}/") for top in ("/proc", "/sys")
    )


def _check_regular(path: Path, mode: int, kind: str) -> None:
    if stat.S_ISREG(mode):
        return
    what = next((name for test, name in _KINDS if test(mode)), "not a file")
    raise RulesError(f"{path} is {what}, not a regular file: the engine reads {kind} only from a regular file")
