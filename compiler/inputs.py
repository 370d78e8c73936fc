"""Reading the project's files: one guarded reader for every file the compiler reads.

Sources, the configuration, baselines, terminologies, waivers and the site's settings all come
through :func:`read_input`. A pull request can commit a link (Git stores them) or a file of any
size, and a file named on the command line can be a device or a pipe, so before a byte is read:

- inside the project, a link (at any part of the path) is followed only to a file the project shows
  (:func:`link_refusal`): one that leads out of the project (``rules/book.md -> /proc/self/environ``),
  to a hidden file of it (``-> ../.git/config``, ``-> ../.env``) or into a Git folder of any name is
  refused, since what it reads would be published or quoted in a log;
- it must be a regular file: not a folder, a device (``/dev/zero`` would never end) or a pipe
  (opening it would wait for a writer forever; it is opened without waiting, and checked again
  once open, in case it was swapped after the first look);
- it may not be larger than the limit of its kind, checked before reading and again while reading
  (a file whose size says 0, as those of ``/proc`` do, is still read no further than the limit).
"""

from __future__ import annotations

import contextlib
import os
import re
import stat
from functools import cache
from pathlib import Path
from typing import Any

from rulebook.errors import SiteBuildError, UserError
from rulebook.fileio import (
    GIT_FOLDER_SAID,
    git_folder_around,
    git_ignored,
    git_refusal,
    git_tracks,
    ignored_said,
    link_before_parent,
    shown_path,
)

MEGABYTE = 1024 * 1024
MAX_SOURCE_BYTES = 256 * MEGABYTE
"""The largest source the compiler reads (the 100x book is 8 MB)."""
MAX_DATA_BYTES = 64 * MEGABYTE
"""The largest baseline, configuration, terminology, waivers or settings file the compiler reads."""


class UnreadableInput(UserError):
    """A file the compiler was asked to read and may not, or cannot: ``reason`` says why, in plain words."""

    def __init__(self, path: Path, reason: str) -> None:
        super().__init__(f"cannot read `{path}`: {reason}")
        self.path = path
        self.reason = reason


def read_input(
    path: Path,
    *,
    root: Path | None = None,
    limit: int = MAX_SOURCE_BYTES,
    kind: str = "source",
    committed: bool = True,
) -> bytes:
    """The bytes of one file the compiler reads, or :class:`UnreadableInput` saying why not.

    ``root``: the project, when the file is one of its own (see the module's documentation); ``limit``:
    the most bytes a file of this ``kind`` (a word for messages: ``source``, ``baseline``) may hold. A file of the
    project Git ignores is refused (``committed``; but the configuration's own file, found by its name): a file
    a checkout or a CI step left beside the project's is no file of it, however it is reached (a template of
    ``site_templates/`` listed there, a ``custom_dir``'s, named or through a link).
    """
    refused = link_refusal(path, root) or not_readable(path, limit, kind)
    if not refused and committed and root is not None and git_ignored([path], root):
        refused = f"it is {ignored_said()}: the project's files are files a commit can hold (commit it, or remove it)"
    if refused:
        raise UnreadableInput(path, refused)
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC)
    except (OSError, ValueError) as error:
        raise UnreadableInput(path, _reason(error)) from error
    try:
        refused = not_readable(descriptor, limit, kind)
        if refused:
            raise UnreadableInput(path, refused)
        return _read_at_most(descriptor, path, limit, kind, os.fstat(descriptor).st_size)
    finally:
        os.close(descriptor)


def read_input_text(
    path: Path, *, root: Path | None = None, limit: int = MAX_DATA_BYTES, kind: str, committed: bool = True
) -> str:
    """:func:`read_input`, decoded as UTF-8 (a byte order mark is not text); bytes that are not are refused."""
    data = read_input(path, root=root, limit=limit, kind=kind, committed=committed)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        reason = f"it is not UTF-8 text (byte {error.start + 1} is not part of a character)"
        raise UnreadableInput(path, reason) from None


class InvalidToml(UserError):
    """A TOML file (the configuration, a terminology, waivers) that is not TOML; the message places the fault."""


def read_toml(path: Path, *, root: Path | None = None, kind: str) -> dict[str, Any]:
    """A TOML file's table, read through :func:`read_input_text` and parsed by :func:`parse_toml`."""
    return parse_toml(read_input_text(path, root=root, kind=kind), path)


_WHERE = re.compile(r"(?P<what>.*) \(at (?:line (?P<line>\d+), column (?P<column>\d+)|(?P<end>end of document))\)")


def parse_toml(text: str, origin: Path) -> dict[str, Any]:
    """A TOML document's table, or :class:`InvalidToml` placing what is wrong as ``file:line:column`` (where
    tomllib says), or saying that it nests too deeply (Python's parser is recursive) or holds a number
    of more digits than Python reads."""
    import tomllib  # only with a TOML file

    _check_key_parts(text, origin)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        found = _WHERE.fullmatch(str(error))
        if found is None:
            raise InvalidToml(f"{origin}: not valid TOML: {error}") from error
        what = found["what"][:1].lower() + found["what"][1:]
        if found["end"]:
            raise InvalidToml(f"{origin}: not valid TOML: {what} (at the end of the file)") from error
        raise InvalidToml(f"{origin}:{found['line']}:{found['column']}: not valid TOML: {what}") from error
    except ValueError:  # not a TOMLDecodeError: Python's own limit on the digits of a whole number
        raise InvalidToml(f"{origin}: a number in it has more digits than can be read") from None
    except RecursionError:
        raise InvalidToml(f"{origin}: not valid TOML: its arrays or tables nest too deeply") from None


MAX_KEY_PARTS = 256
"""The most parts a key of a TOML file may have (``a.b.c``: three): Python's reader takes time and memory growing
with the square of one key's parts (a line ``x.a.a.… = 1`` of 50,000 parts, 100 KB, took 46 s and 9.8 GB)."""


def _check_key_parts(text: str, origin: Path) -> None:
    """Refuse, in one pass, a line whose key (before its ``=``, or a table's header) has more than
    :data:`MAX_KEY_PARTS` parts (counting its dots: a dot in a quoted part counts too)."""
    if text.count(".") <= MAX_KEY_PARTS:
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if line.partition("=")[0].count(".") > MAX_KEY_PARTS:
            raise InvalidToml(
                f"{origin}:{number}: a key of more than {MAX_KEY_PARTS} parts (`a.b.c` has three), more than any "
                "file the compiler reads needs"
            )


def input_folder(path: Path, *, root: Path, kind: str) -> list[Path]:
    """The entries of a folder of the project whose files the compiler reads (``site_templates/fonts/``), sorted,
    or :class:`UnreadableInput` saying why not: a folder committed as a link leading out of the project is
    refused as such a file is, and so is anything there that is not a folder, never passed over in silence.
    Each entry is then read through :func:`read_input`. ``kind``: what the folder holds, for messages."""
    refused = link_refusal(path, root)
    if refused is None and not path.is_dir():
        refused = f"it is not a folder; {kind} are read from a folder of that name"
    if refused:
        raise UnreadableInput(path, refused)
    try:
        return sorted(path.iterdir())
    except OSError as error:
        raise UnreadableInput(path, _reason(error)) from error


def present(path: Path) -> bool:
    """Whether anything is at ``path``: a file, a folder, a device, or a link (even one leading nowhere).

    A file that is read when present (``terms.toml`` beside a translation) is read through
    :func:`read_input` whenever something is there, so that a pipe or a link in its place is
    refused in plain words rather than passed over in silence.
    """
    try:
        return os.path.lexists(path)
    except ValueError:  # a NUL in the name: nothing can be there
        return False


def link_refusal(path: Path, root: Path | None) -> str | None:
    """Why a file or folder of the project may not be read where ``path`` leads, or None: the one rule for every
    reader of the project's files (sources, configuration, templates, assets, a theme's folder).

    ``root``: the project (None: a file named outside any project, the user's own). A path inside the project
    with no link on the way is the project's own file, read as named. A link, at any part of the path, is followed
    only to a place inside the project none of whose names below its root is hidden (starts with ``.``: Git's
    folder, ``.env``, a build's work folder, a key a CI step wrote), which is inside no Git folder of any name
    (:func:`~rulebook.fileio.is_git_folder`) and, in a Git working tree, to a file Git tracks: a pull request
    commits a link, never what the checkout holds beside the project's files, and what a link reads may be
    published or quoted in a log
    (``site_templates/index.md.j2 -> ../.git/config`` published the CI's token on the home page).
    """
    if root is None:
        return None
    absolute, base = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    inside = absolute.is_relative_to(base)
    try:
        real_base, resolved = base.resolve(), absolute.resolve()
    except (OSError, RuntimeError, ValueError) as error:  # a loop of links, a name too long, a NUL
        return _reason(error) if inside else None
    if not resolved.is_relative_to(real_base):
        return LEFT_OUT if inside else None  # named outside the project, and staying there: the user's own
    below = resolved.relative_to(real_base)
    if inside and below == absolute.relative_to(base):
        return None  # no link on the way: the file as named
    problem = not_followed(below, real_base)  # `/proc/self/cwd/.git/config` too: a link on the way, from outside
    return f"{_link_said(absolute, base)} `{below.as_posix()}`, {problem}" if problem else None


def named_refusal(path: Path, root: Path) -> str | None:
    """Why the configuration may not name ``path`` as a file of the project to read, or None: a committed
    configuration is a pull request's to write, as a committed link is (``sources = [".git/config"]`` with
    ``format = "plain-markdown"`` published the CI's token; ``"../other/book.xml"`` was read and rewritten by
    ``lint --fix``). The path as written must lie inside the project, none of its names below the root hidden, in no
    Git folder (:func:`unpublished`); links on the way are :func:`link_refusal`'s, when it is read."""
    link = link_before_parent(path)
    if link is not None:  # `rules/l/../book.md`, `rules/l` a link out: checked by its text, read through the link
        return (
            f"whose `..` steps back out of `{shown_path(link, root)}`, a symbolic link: the system goes on from where "
            "the link leads, not from beside it; name the file without `..` after a link"
        )
    written, base = Path(os.path.normpath(os.path.abspath(path))), Path(os.path.abspath(root))
    if not written.is_relative_to(base):
        return "which is outside the project: the configuration names only files of the project (the folder it is in)"
    return unpublished(written.relative_to(base), base, by="the configuration names only")


def not_followed(below: Path, base: Path) -> str | None:
    """Why no link is followed to ``below`` (a path inside the project ``base``, as it resolves), or None:
    :func:`unpublished`, or a file Git does not track."""
    return unpublished(below, base) or _untracked(below, base)


def _untracked(below: Path, base: Path) -> str | None:
    """Why no link is followed to ``below``, a file inside the project ``base`` that Git does not track in the
    working tree around it, or None (tracked, a folder, or no Git there): a commit holds its links, never the files
    a checkout or a CI step left beside them (``rules/book.xml -> ../token``, a git-ignored token a CI step wrote,
    quoted the token in the lint's report)."""
    if not (base / below).is_file():
        return None
    tracked = git_tracks(below, base)
    if tracked is None:  # no answer: no Git there, or a Git that refuses (another user's `.git`)
        refusal = git_refusal(base)
        return None if refusal is None else f"which cannot be told tracked: {refusal}"
    if tracked:
        return None
    return (
        "which Git does not track: a link is followed only to a file a commit holds (`git add` it if it is the "
        "project's)"
    )


def unpublished(below: Path, base: Path, *, by: str = "a link is followed only to") -> str | None:
    """Why no link is followed to ``below`` (a path inside the project ``base``, as it resolves), or None: one of its
    names is hidden, or it is inside a Git folder of any name. ``by``: what the rule holds, as a message says it
    (``the configuration names only``, for :func:`named_refusal`)."""
    hidden = next((part for part in below.parts if part.startswith(".")), None)
    if hidden is not None:
        return (
            f"which the project keeps hidden (`{hidden}` starts with `.`): {by} files of the project none of "
            "whose names start with `.` (Git's folder, `.env`)"
        )
    git_folder = git_folder_around(base / below, below=base)
    if git_folder is not None:
        return f"inside `{git_folder.relative_to(base).as_posix()}`, {GIT_FOLDER_SAID}: {by} files outside Git's"
    return None


def _link_said(absolute: Path, base: Path) -> str:
    """How the path leads where it does, as the start of a sentence ending with the place."""
    if not absolute.is_relative_to(base):
        return "it leads through a link to the project's"
    link = _first_link(absolute, base)
    if link is None or link == absolute:
        return "it is a link to"
    return f"`{shown_path(link, base)}` on the way is a link, and it leads to"


LEFT_OUT = "it is a link to a place outside the project; the project's files are read only inside it"
"""Why a link leading out of the project is not followed."""


def _first_link(absolute: Path, base: Path) -> Path | None:
    """The first part of ``absolute`` below ``base`` that is a symbolic link, if any."""
    for part in (*reversed(absolute.relative_to(base).parents), absolute.relative_to(base)):
        if part != Path(".") and os.path.islink(base / part):
            return base / part
    return None


def not_readable(file: Path | int, limit: int, kind: str) -> str | None:
    """Why the file (a path, or an open descriptor) may not be read, or None."""
    try:
        status = os.stat(file) if isinstance(file, Path) else os.fstat(file)
    except FileNotFoundError:
        return None  # opening it says so
    except (OSError, ValueError) as error:
        return _reason(error)
    if stat.S_ISDIR(status.st_mode):
        return "it is a folder, not a file"
    if not stat.S_ISREG(status.st_mode):
        return "it is not a regular file (a device, a pipe or a socket)"
    if status.st_dev in _kernel_devices():  # `sources = ["/proc/self/environ"]` printed the CI's secrets in a finding
        return "it is a file the kernel writes (under /proc or /sys), not one of the project"
    if status.st_size > limit:
        return _too_large(limit, kind)
    return None


@cache
def _kernel_devices() -> frozenset[int]:
    """The devices of the kernel's own file systems: procfs and sysfs wherever mounted, and each file system
    mounted below ``/proc`` or ``/sys`` (cgroups, debugfs, tracefs, securityfs, EFI variables: a source naming
    `/sys/fs/cgroup/memory/memory.stat` was published). Their files look regular, and hold the process's
    environment, its memory, the machine's secrets; no source, configuration or report is one of them, however it
    is named (through a link, ``/dev/fd``, a path a configuration writes)."""
    devices = set()
    for folder in KERNEL_FOLDERS:
        with contextlib.suppress(OSError):
            devices.add(os.stat(folder).st_dev)
    with (
        contextlib.suppress(OSError, ValueError),
        open("/proc/self/mountinfo", encoding="utf-8", errors="surrogateescape") as mounts,
    ):
        devices |= kernel_mounts(mounts.read())
    return frozenset(devices)


KERNEL_FOLDERS = ("/proc", "/sys")
"""Where the kernel shows its own files; every file system mounted there is the kernel's."""


def kernel_mounts(mountinfo: str) -> set[int]:
    """The devices of the kernel's file systems in a ``/proc/self/mountinfo`` text: procfs and sysfs wherever
    they are mounted, and whatever is mounted at or below :data:`KERNEL_FOLDERS`."""
    devices = set()
    for line in mountinfo.splitlines():
        fields, _, after = line.partition(" - ")
        numbers = fields.split(" ")
        if len(numbers) < 5 or not after:
            continue
        place, kind = numbers[4], after.split(" ")[0]
        if kind in ("proc", "sysfs") or any(place == top or place.startswith(f"{top}/") for top in KERNEL_FOLDERS):
            major, minor = numbers[2].split(":")
            devices.add(os.makedev(int(major), int(minor)))
    return devices


def _read_at_most(descriptor: int, path: Path, limit: int, kind: str, expected: int) -> bytes:
    """Every byte, in one read when the file is as large as it says (a source is not copied twice), and never
    more than ``limit``: one byte past it is the proof that the file is too large."""
    os.set_blocking(descriptor, True)
    chunks: list[bytes] = []
    size = 0
    wanted = max(expected + 1, _CHUNK)
    try:
        while chunk := os.read(descriptor, min(wanted, limit + 1 - size)):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:
                raise UnreadableInput(path, _too_large(limit, kind))
            wanted = _CHUNK  # the file was larger than it said (a /proc file says 0), or this is its end
    except OSError as error:
        raise UnreadableInput(path, _reason(error)) from error
    return b"".join(chunks)


_CHUNK = 64 * 1024


def _too_large(limit: int, kind: str) -> str:
    return f"it is larger than {limit // MEGABYTE} MB, the most a {kind} may be"


def _reason(error: OSError | ValueError | RuntimeError) -> str:
    """An error as the end of a sentence: ``no such file or directory``."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    if isinstance(error, ValueError) and "null" in str(error):
        return "its name holds a NUL character"
    if isinstance(error, RuntimeError):
        return "it is a loop of links"
    return str(error).lower()


def source_date() -> int | None:
    """``SOURCE_DATE_EPOCH`` (the reproducible-builds convention) when set, in seconds since 1970. A value that is no
    date (``1e9``, ``-5``, past the year 9999) is refused in plain words: MkDocs and the PDF's date stopped the build
    with an internal error (``ValueError``, ``OverflowError``)."""
    value = os.environ.get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return None
    try:
        seconds = int(value)
    except ValueError:
        seconds = -1
    if not 0 <= seconds <= _LATEST_SECOND:
        raise SiteBuildError(
            f"SOURCE_DATE_EPOCH is `{value}`, not a date: the reproducible-builds convention gives it as a whole "
            f"number of seconds since 1970 (`date +%s`), here at most {_LATEST_SECOND} (the year 9999); set it so, "
            "or unset it"
        )
    return seconds


_LATEST_SECOND = 253402300799
"""9999-12-31T23:59:59Z, the last second a date holds (``datetime``'s years end at 9999)."""
