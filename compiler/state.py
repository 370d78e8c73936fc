"""The build's own files and folders: never trusted from the working tree.

A pull request can commit anything at the paths where a build keeps its state, links included
(``.site.lock -> rules/book.xml``, ``.site.rulebook/previous -> .git``). So, by construction:

- **No link is followed.** Each such file or folder is reached from a folder opened once
  (:class:`Folder`, a file descriptor), by one name at a time, with ``O_NOFOLLOW`` and ``lstat``:
  a link there is an entry like any other, never a way elsewhere.
- **A folder is the build's own only when it holds a mark a commit cannot make**: a keyed digest
  (HMAC-SHA256) of the folder's identity on this machine (its device and inode numbers), under a
  secret kept in the user's cache folder (``$XDG_CACHE_HOME/rulebook/state.key``, made on first use,
  readable by its owner alone). A committed folder is another inode and its author does not know
  the secret.
- **What outlives a build is kept outside the project**, in that cache folder, one folder per output
  (:func:`kept_folder`): the site generator's cache and the record of what was published.

Where the user has no cache folder, or it is inside the project or the Git working tree holding it
(:func:`home_refusal`), the secret lasts as long as the process: the build works, but what a killed build left
is then refused as not its own, and nothing is kept between builds.

- **What the build deletes, it deletes without crossing into another file system** (:func:`remove`): a folder
  mounted inside a site or a work folder (a download folder bound into the site) is never emptied.
"""

from __future__ import annotations

import contextlib
import errno
import functools
import hashlib
import hmac
import os
import re
import stat
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType

KEY_FILE = "state.key"
"""The secret marks are keyed with, in the user's cache folder."""
_KEY_BYTES = 32
_MARK_BYTES = 64
"""A mark's length: the HMAC-SHA256 digest in hexadecimal."""
_NO_FOLLOW = os.O_NOFOLLOW | os.O_CLOEXEC | os.O_NONBLOCK  # O_NONBLOCK: a pipe never holds the build up


def user_cache() -> Path | None:
    """The user's cache folder for rulebook: ``$XDG_CACHE_HOME/rulebook``, else ``~/.cache/rulebook``; None
    when the user has none (the same folder as the engine's, :func:`rulebook.engine.schema.cache_folder`)."""
    base = os.environ.get("XDG_CACHE_HOME", "")
    if not os.path.isabs(base):  # the XDG spec: a relative value is ignored
        try:
            base = str(Path.home() / ".cache")
        except RuntimeError:
            return None
    return Path(base) / "rulebook"


def home(root: Path) -> Path | None:
    """The user's cache folder, where builds keep their secret and what outlives a build; None where the user
    has none, or where a commit to the project may have written its files (:func:`home_refusal`)."""
    return None if home_refusal(root) is not None else user_cache()


def home_refusal(root: Path) -> str | None:
    """Why the user's cache folder is not used for the project ``root`` (what outlives a build is then not kept),
    as the end of a sentence naming a way out; None where it is used.

    Refused: no cache folder at all, or one inside the project or inside a Git working tree that holds the project
    (:func:`work_trees`), as written or as it resolves (through a link): a CI that keeps its caches in the
    workspace, the project in a folder of the repository: a committed ``.cache/rulebook/state.key`` forged the marks
    of a committed work folder, whose ``previous`` then became the site. A Git working tree that does not hold the
    project (a home folder kept in Git, as dotfiles are, the project a repository of its own in it) is no way
    for a commit to the project to reach the cache: it is used (every build was refused a ``--book``)."""
    folder = user_cache()
    if folder is None:
        return "there is no home folder to keep a cache folder in; set `XDG_CACHE_HOME` to a folder of your own"
    try:
        places = {Path(os.path.abspath(folder)), Path(os.path.realpath(folder))}
        project = {Path(os.path.abspath(root)), Path(os.path.realpath(root))}
    except OSError:  # a link on the way that cannot be read (`/proc/1/root`): a folder no build can use
        return f"the cache folder `{folder}` cannot be reached; set `XDG_CACHE_HOME` to a folder of your own"
    from rulebook.engine.ownership import not_own

    foreign = not_own(folder)
    if foreign is not None:
        return f"the cache folder `{folder}` {foreign}; set `XDG_CACHE_HOME` to a folder of your own"
    tops = [(top, "the project") for top in project]
    tops += [(tree, "the Git working tree") for top in project for tree in work_trees(top)]
    for top, what in tops:
        if any(place.is_relative_to(top) for place in places):
            return (
                f"the cache folder `{folder}` is inside {what} `{top}`, where a commit could have written it; set "
                "`XDG_CACHE_HOME` to a folder outside it"
            )
    return None


def work_trees(folder: Path) -> list[Path]:
    """The tops of the Git working trees that hold ``folder``, nearest first: each folder at or above it holding
    ``.git``, up to the first whose ``.git`` is a folder (a repository of its own; a ``.git`` file is a submodule's
    or a worktree's, whose superproject's checkout writes it too)."""
    found = []
    for up in (folder, *folder.parents):
        try:
            status = os.stat(up / ".git", follow_symlinks=False)
        except OSError:
            continue
        found.append(up)
        if stat.S_ISDIR(status.st_mode):
            break
    return found


def kept_folder(output: Path, home: Path | None) -> Path | None:
    """Where the builds into ``output`` keep what they reuse (the generator's cache, the record of the
    published site): a folder per output in the user's cache folder ``home``, named by a digest of the
    output's absolute path; None without one."""
    if home is None:
        return None
    name = hashlib.blake2b(os.fsencode(os.path.abspath(output)), digest_size=16).hexdigest()
    return home / "outputs" / name


@dataclass(frozen=True, slots=True)
class Marks:
    """How the build marks what it makes: a keyed digest of a file's or folder's identity, which no commit
    can hold."""

    key: bytes = field(repr=False)  # never in a message or a traceback

    def of(self, purpose: str, identity: os.stat_result) -> bytes:
        """The mark of the file or folder ``identity`` (its own status) made for ``purpose``."""
        text = f"rulebook {purpose} {identity.st_dev} {identity.st_ino}".encode()
        return hmac.new(self.key, text, hashlib.sha256).hexdigest().encode("ascii")


@functools.cache
def marks(home: Path | None) -> Marks:
    """The marks keyed by the secret in ``home`` (made there on first use); without one, by a secret of this
    process alone."""
    if home is not None:
        with contextlib.suppress(OSError):
            return Marks(_stored_key(home))
    return Marks(os.urandom(_KEY_BYTES))


def _stored_key(folder: Path) -> bytes:
    """The secret in ``folder``, made there first if it is missing or damaged (a build racing this one
    to make it reads the one that was made first)."""
    path = folder / KEY_FILE
    with contextlib.suppress(FileNotFoundError):
        status = os.stat(path, follow_symlinks=False)
        if status.st_uid != os.geteuid() or status.st_mode & 0o077:  # another user's, or one others may read
            raise PermissionError(errno.EPERM, "the secret is not this user's alone", str(path))
        key = read_small(path)
        if len(key) == _KEY_BYTES:
            return key
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    temporary = folder / f".{KEY_FILE}.{os.getpid()}"
    fresh = os.urandom(_KEY_BYTES)
    descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | _NO_FOLLOW, 0o600)
    try:
        os.write(descriptor, fresh)
    finally:
        os.close(descriptor)
    try:
        os.link(temporary, path)
    except FileExistsError:
        key = read_small(path)
        if len(key) == _KEY_BYTES:
            return key
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
    return fresh


def read_small(path: Path, *, dir_fd: int | None = None) -> bytes:
    """The first bytes (a mark's length at most) of a regular file reached without following a link."""
    return _read_regular(path, _MARK_BYTES, dir_fd=dir_fd)


def read_kept(path: Path, limit: int) -> bytes:
    """A file the builds keep in the user's cache folder (the record of the published site), whole: a regular
    file reached without following a link or waiting on a pipe, of at most ``limit`` bytes; else an
    :class:`OSError` saying why (a link to ``/dev/zero`` or a pipe there held the build up for ever)."""
    data = _read_regular(path, limit + 1)
    if len(data) > limit:
        raise OSError(errno.EFBIG, f"it holds more than {limit // (1024 * 1024)} megabytes", str(path))
    return data


def _read_regular(path: Path, most: int, *, dir_fd: int | None = None) -> bytes:
    """At most ``most`` first bytes of a regular file reached without following a link or waiting."""
    descriptor = os.open(path, os.O_RDONLY | _NO_FOLLOW, dir_fd=dir_fd)
    try:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            raise OSError(errno.EINVAL, "it is not a regular file", str(path))
        chunks, size = [], 0
        while size < most and (chunk := os.read(descriptor, min(most - size, 1024 * 1024))):
            chunks.append(chunk)
            size += len(chunk)
        return b"".join(chunks)
    finally:
        os.close(descriptor)


def plain_folder(base: Path, names: Sequence[str]) -> Path:
    """``base/names...``, each level a plain folder of this user's (:meth:`Folder.plain`), reached from ``base``
    one name at a time without following a link: for the folders the builds keep in the user's cache folder,
    where a link (``cache/zensical -> elsewhere``) made the build write into its target. ``base`` is the
    user's own choice (their cache folder, or a folder of this build's own)."""
    folder = Folder.open(base)
    try:
        for name in names:
            inner = folder.plain(name)
            os.close(folder.fd)
            folder = inner
    finally:
        os.close(folder.fd)
    return base.joinpath(*names)


MOUNTED = "a file system is mounted there, and the build never deletes what another file system holds: unmount it"
"""Why a removal stopped at a mount point (the end of a sentence)."""


def remove(path: Path) -> None:
    """Delete ``path``, a folder or file the build made, as :meth:`Folder.remove` does (never following a link,
    never crossing into another file system); nothing where there is nothing."""
    with Folder.open(Path(os.path.dirname(os.path.abspath(path)))) as parent:
        parent.remove(path.name)


def _remove_entry(parent: int, name: str, path: Path) -> None:
    """Delete the entry ``name`` of the open folder ``parent`` (``path``: where it is, for messages and mounts): a
    link or a file itself, a folder with all it holds, depth first from open folders, a link among them deleted and
    never followed. A folder on another device than the first one's, or a mount point (a bind mount shares its
    device: :func:`mounts_inside`), stops the removal with ``EBUSY`` naming it: one the system lists before anything
    is deleted, one found by its device alone before anything in it is."""
    status = os.stat(name, dir_fd=parent, follow_symlinks=False)
    if not stat.S_ISDIR(status.st_mode):
        os.unlink(name, dir_fd=parent)
        return
    listed = _mounts(path, itself=True)
    if listed:  # stopped before anything is deleted
        raise OSError(errno.EBUSY, MOUNTED, str(listed[0]))
    stack = [(parent, name, path, False)]  # a folder, entered once, removed when what it holds is gone
    opened: list[int] = []
    try:
        while stack:
            holder, entry, where, emptied = stack.pop()
            if emptied:
                os.close(opened.pop())
                os.rmdir(entry, dir_fd=holder)
                continue
            folder = os.open(entry, os.O_RDONLY | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=holder)
            opened.append(folder)
            own = os.fstat(folder)
            if own.st_dev != status.st_dev:
                raise OSError(errno.EBUSY, MOUNTED, str(where))
            stack.append((holder, entry, where, True))
            for inner in sorted(os.listdir(folder)):
                if stat.S_ISDIR(os.stat(inner, dir_fd=folder, follow_symlinks=False).st_mode):
                    stack.append((folder, inner, where / inner, False))
                else:
                    os.unlink(inner, dir_fd=folder)
    finally:
        for folder in opened:
            os.close(folder)


MOUNT_TABLE = "/proc/self/mountinfo"
"""Where Linux lists every mount point this process sees, bind mounts included."""


def mounts_inside(folder: Path, *, itself: bool = False) -> list[Path]:
    """The mount points inside ``folder`` (and ``folder`` itself if it is one, with ``itself``), sorted: every one
    the system lists (a bind mount of a folder of the same file system included, which no device number shows),
    else, where it lists none (not Linux), each folder on another device than ``folder``'s. A removal stops at
    them, and a build refuses an output holding one."""
    return _mounts(folder, itself=itself)


def _mounts(folder: Path, *, itself: bool) -> list[Path]:
    try:
        top = Path(os.path.realpath(folder))
        with open(MOUNT_TABLE, "rb") as table:
            listed = table.read()
    except OSError:
        return _other_devices(folder)
    found = set()
    for line in listed.splitlines():
        fields = line.split(b" ")
        if len(fields) > 4:
            place = Path(os.fsdecode(_OCTAL.sub(lambda m: bytes([int(m[1], 8)]), fields[4])))
            if place.is_relative_to(top) and (itself or place != top):
                found.add(folder / place.relative_to(top))
    return sorted(found)


_OCTAL = re.compile(rb"\\([0-7]{3})")
"""How the mount table writes a space, a tab, a newline or a backslash in a path (``\\040``)."""


def _other_devices(folder: Path) -> list[Path]:
    try:
        device = os.stat(folder, follow_symlinks=False).st_dev
    except OSError:
        return []
    found = []
    for place, folders, _files in os.walk(folder):
        for name in list(folders):
            inner = Path(place) / name
            status = _status_nofollow(inner)
            if status is not None and status.st_dev != device:
                found.append(inner)
                folders.remove(name)
    return sorted(found)


def _status_nofollow(path: Path) -> os.stat_result | None:
    try:
        return os.stat(path, follow_symlinks=False)
    except OSError:
        return None


def kind(status: os.stat_result) -> str:
    """What an entry is, as a message says it: ``a symbolic link``, ``a folder``, ``a file``, ..."""
    mode = status.st_mode
    if stat.S_ISLNK(mode):
        return "a symbolic link"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISREG(mode):
        return "a file" if status.st_nlink == 1 else "a file with another name too (a hard link)"
    return "neither a file nor a folder"


class Folder:
    """A folder opened once: the entries in it are reached from it, one name at a time, and a link among
    them is an entry like any other, never followed."""

    def __init__(self, path: Path, descriptor: int) -> None:
        self.path = path
        self.fd = descriptor

    @classmethod
    def open(cls, path: Path) -> Folder:
        """The folder at ``path``: one the configuration chose (the output's), checked by the caller."""
        return cls(path, os.open(path, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC))

    def __enter__(self) -> Folder:
        return self

    def __exit__(
        self, error_type: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        os.close(self.fd)

    def status(self, name: str) -> os.stat_result | None:
        """The entry ``name`` itself (a link's, not its target's), or None where there is none."""
        try:
            return os.stat(name, dir_fd=self.fd, follow_symlinks=False)
        except FileNotFoundError:
            return None

    def identity(self) -> os.stat_result:
        return os.fstat(self.fd)

    def names(self) -> list[str]:
        return sorted(os.listdir(self.fd))

    def folder(self, name: str) -> Folder:
        """The folder ``name`` in this one; refused (``ELOOP``, ``ENOTDIR``) where it is a link or a file."""
        return Folder(self.path / name, os.open(name, os.O_RDONLY | os.O_DIRECTORY | _NO_FOLLOW, dir_fd=self.fd))

    def folder_made(self, name: str, mode: int = 0o755) -> Folder:
        """The folder ``name`` in this one, made if there is none (with ``mode``); refused (``ELOOP``, ``ENOTDIR``)
        where it is a link or a file."""
        with contextlib.suppress(FileExistsError):
            os.mkdir(name, mode, dir_fd=self.fd)
        return self.folder(name)

    def write_file(self, name: str, data: bytes) -> None:
        """Put a file holding ``data`` at ``name`` here: written whole under a new name, then renamed over the
        entry (a link there is replaced, never followed)."""
        temporary = f".{name}.{os.getpid()}.tmp"
        with contextlib.suppress(FileNotFoundError):
            os.unlink(temporary, dir_fd=self.fd)
        descriptor = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW, 0o666, dir_fd=self.fd)
        try:
            with os.fdopen(descriptor, "wb") as stream:
                stream.write(data)
            os.replace(temporary, name, src_dir_fd=self.fd, dst_dir_fd=self.fd)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=self.fd)
            raise

    def plain(self, name: str) -> Folder:
        """The folder ``name`` in this one, a plain folder of this user's: made where there is none, and where
        there is anything else (a link, a file, a pipe, a folder of another user), that is deleted, never
        followed, and a folder made in its place, readable by the user alone."""
        status = self.status(name)
        if status is not None and not (stat.S_ISDIR(status.st_mode) and status.st_uid == os.geteuid()):
            self.remove(name)
        return self.folder_made(name, 0o700)

    def make(self, name: str) -> Folder:
        """A new, empty folder ``name`` (made here, never an existing one)."""
        os.mkdir(name, 0o755, dir_fd=self.fd)
        return self.folder(name)

    def holds(self, name: str, mark: bytes) -> bool:
        """Whether the file ``name`` here holds ``mark`` (:meth:`Marks.of`)."""
        try:
            found = read_small(Path(name), dir_fd=self.fd)
        except OSError:
            return False
        return hmac.compare_digest(found, mark)

    def holds_a_mark_begun(self, name: str) -> bool:
        """Whether the file ``name`` here is a regular file holding what a mark's write may have left, whatever its
        key: nothing, or up to :data:`_MARK_BYTES` hexadecimal digits (a build killed as it wrote one)."""
        status = self.status(name)
        if status is None or not stat.S_ISREG(status.st_mode) or status.st_size > _MARK_BYTES:
            return False
        try:
            found = read_small(Path(name), dir_fd=self.fd)
        except OSError:
            return False
        return len(found) == status.st_size and all(digit in b"0123456789abcdef" for digit in found)

    def write_mark(self, name: str, mark: bytes) -> None:
        """Write ``mark`` into a new file ``name`` here, in one write."""
        descriptor = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NO_FOLLOW, 0o644, dir_fd=self.fd)
        try:
            os.write(descriptor, mark)
        finally:
            os.close(descriptor)

    def remove(self, name: str) -> None:
        """Delete the entry ``name``: a link or a file itself, a folder with all it holds (links in it are
        deleted, not followed), never crossing into another file system (a folder mounted inside stops the
        removal, :data:`MOUNTED`); nothing where there is nothing."""
        if self.status(name) is not None:
            _remove_entry(self.fd, name, self.path / name)
