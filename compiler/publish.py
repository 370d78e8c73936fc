"""Publishing: the output folder belongs to the build, and a new site replaces the old one in one step.

- **Ownership.** Every site the build makes holds a marker file, ``.rulebook-site``. A build
  replaces an output folder only when it holds the marker (a file, not a link) or is empty; it never
  takes the project's root, a folder holding a source or the configuration, or a symbolic link, nor builds
  inside a folder of the sources or inside a site it built (whose next build would delete it).
- **One build at a time.** A lock file beside the output (``.NAME.lock``) is held for the
  whole build, and removed at its end; a second build waits for it and says whose it is.
- **A release at a time.** The new site is made in a work folder beside the output, on the output's
  filesystem (``.NAME.rulebook/``, made new by each build and removed on every exit path). It then
  takes the output's place in a single atomic exchange of names (Linux ``renameat2(RENAME_EXCHANGE)``):
  a reader, or a build killed at any instant, sees the old complete site or the new one.
  Where the exchange is not supported, two renames are used and an interrupted swap is
  put right by the next build. An output that is a mount point (a container volume) cannot change its
  name, so no new site could take its place in one step: it is refused (see docs/site.md); so is an output
  holding a mount point, and no delete of the build's ever crosses into another file system
  (:func:`rulebook.state.remove`).
- **Ours, entry for entry.** A mode that keeps or writes into the current site (``--book``, ``--data-only``,
  ``--pdf-only``) does so only where it is what the record of the published site says this tool put there
  (:func:`check_published`); no output may be, hold or lie inside a folder the build reads.
- **Nothing the build keeps for itself is trusted from the working tree**, where a commit may have put
  anything (:mod:`rulebook.state`): the lock and the work folder are reached without following a
  link; a work folder left by a killed build is put right only when it holds the mark this machine's
  builds make, and the site it moved aside comes back only when it is the one marked then; what
  outlives a build (the generator's cache, the record of the published site) is kept in the user's
  cache folder; the other books a build of some books keeps are taken from the current site only
  where it is what was published (:mod:`rulebook.published`).
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import re
import stat
import sys
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from rulebook import published, state
from rulebook.engine.ownership import open_to_all, open_to_others
from rulebook.errors import shorten
from rulebook.fileio import (
    GIT_FOLDER,
    GIT_FOLDER_SAID,
    SITE_MARKER,
    OutputError,
    build_state_entry,
    built_site_around,
    git,
    git_folder_around,
    git_tracks,
    holds_site_marker,
    inside_git,
    lock_name,
    parent_after_link,
    path_problem,
    reason_of,
    shown_path,
    work_name,
    write_atomic,
)
from rulebook.masked import masked

MARKER = SITE_MARKER
"""The file that marks a folder as a site this tool built (and so may replace)."""
MARKER_TEXT = "This folder is a site built by rulebook: `rulebook build` replaces it whole.\n"
WORK_MARK = ".rulebook-work"
"""The work folder's mark (:func:`rulebook.state.mark`): made by a build on this machine."""
PREVIOUS = "previous"
"""Where, in the work folder, the old site waits while two renames swap it for the new one."""
PREVIOUS_MARK = ".rulebook-previous"
"""The mark of the site moved aside into :data:`PREVIOUS`."""
CACHE = "cache"
"""The entry of a kept folder the site generator keeps its cache in (:attr:`Release.cache`)."""


def check_output(output: Path, *, root: Path, protected: Iterable[Path], read: Iterable[tuple[Path, str]] = ()) -> Path:
    """The output folder, made absolute, after checking that a build may replace it.

    ``protected``: the project's sources and configuration file: no output may hold one. ``read``: the folders the
    build reads files from, with what each is (:func:`rulebook.recipe.kept.read_folders`), existing or not: no
    output may be one, hold one or lie inside one.
    """
    stepped_back = parent_after_link(output)  # `-o mine/l/../site` built where its text leads, not the system
    if stepped_back is not None:
        raise OutputError(f"the output `{output}`: {stepped_back}")
    output = Path(os.path.abspath(output))
    shown = shown_path(output, root)
    problem = path_problem(os.fsdecode(output))  # as the configuration's is checked: `-o` of 300 characters
    if problem is not None:
        raise OutputError(f"the output `{shown}` {problem}")
    for kept in (lock_name(output.name), work_name(output.name)):  # `.NAME.rulebook`: 10 bytes longer than NAME
        problem = path_problem(kept)
        if problem is not None:
            raise OutputError(
                f"the output `{shown}` has a name too long for the files a build keeps beside it: "
                f"`{shorten(kept, 40)}` {problem}; choose a shorter name"
            )
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
    if inside_git(output, resolved):
        raise OutputError(
            f"the output `{shown}` is inside `{GIT_FOLDER}`, Git's own folder: choose a folder such as `site`"
        )
    git_folder = git_folder_around(output) or git_folder_around(resolved)
    if git_folder is not None:
        raise OutputError(
            f"the output `{shown}` is inside `{shown_path(git_folder, root)}`, {GIT_FOLDER_SAID}: choose a folder "
            "such as `site`"
        )
    state_entry = build_state_entry(output)
    if state_entry is not None:  # as a report's (`-o .site.lock`): the next build of that output refused it
        raise OutputError(
            f"the output `{shown}` is named as a build keeps its own lock, work folder or site marker "
            f"(`{state_entry}`), and the next build would take what it found there for its own: choose a folder "
            "such as `site`"
        )
    root = root.resolve()
    if resolved == root or root.is_relative_to(resolved):
        raise OutputError(f"the output `{shown}` holds the whole project: choose a folder inside it, such as `site`")
    _check_apart_from_cache(resolved, shown, root)
    for path in protected:
        if path.resolve().is_relative_to(resolved):
            raise OutputError(
                f"the output `{shown}` holds `{shown_path(path, root)}`, which the build reads: choose another"
            )
    _check_surroundings(resolved, shown, root, protected)
    _check_apart_from_read(output, resolved, shown, root, read)
    _check_not_others(output, resolved, shown)
    if output.exists() and not output.is_dir():  # a file, or a named pipe or a device: "a file" misled its owner
        raise OutputError(f"the output `{shown}` exists and is not a folder")
    if output.is_dir() and not is_owned(output, state.kept_folder(output, state.home(root))):
        why = (
            f"its `{MARKER}` is one a commit holds, beside work no commit holds"
            if holds_site_marker(output)
            else f"it has no `{MARKER}` file"
        )
        raise OutputError(
            f"the output `{shown}` is not empty and is not a site this tool built ({why}): choose another folder, "
            "or empty this one"
        )
    if os.path.lexists(output / GIT_FOLDER):
        raise OutputError(
            f"the output `{shown}` holds `{GIT_FOLDER}`, a Git repository (or a worktree's link to one) this tool did "
            "not make: a build replaces the whole folder and would delete it; build into another folder (`rulebook "
            "deploy` commits a site to a branch without a checkout)"
        )
    return output


def _check_apart_from_cache(resolved: Path, shown: str, root: Path) -> None:
    """Refuse an output inside the tool's own cache folder (:func:`state.user_cache`: the key builds mark their
    folders with, the generator's caches, the engine's verdicts) or holding it: a build replaces its output whole,
    so the one would be deleted by the next clean of the other."""
    cache = state.user_cache()
    if cache is None:
        return
    try:
        real = Path(os.path.realpath(cache))
    except OSError:  # a link on the way that cannot be read: no cache either side can reach
        return
    said = f"`{shown_path(cache, root)}`, the folder where this tool keeps its own state and caches"
    if resolved.is_relative_to(real):
        raise OutputError(f"the output `{shown}` is inside {said}: choose a folder outside it")
    if real.is_relative_to(resolved):
        raise OutputError(
            f"the output `{shown}` holds {said}, which a build replacing the whole output would delete: choose "
            "another folder, such as `site`"
        )


def _check_surroundings(resolved: Path, shown: str, root: Path, protected: Iterable[Path]) -> None:
    """Refuse an output inside a site this tool built (the next build of that site would delete it, and its lock
    and work folder would be published there) or inside a folder of the project holding a file the build reads
    (``rules/site``: the site would be committed with the sources, and reach what reads their folder)."""
    site = built_site_around(resolved)
    if site is not None:
        raise OutputError(
            f"the output `{shown}` is inside `{shown_path(site, root)}`, a site this tool built: building that "
            "site again would delete it; choose a folder outside it"
        )
    for path in protected:
        folder = path.resolve().parent
        if folder != root and folder.is_relative_to(root) and resolved.is_relative_to(folder):
            raise OutputError(
                f"the output `{shown}` is inside `{shown_path(folder, root)}`, beside `{shown_path(path, root)}`, "
                "which the build reads: choose a folder of its own, such as `site`"
            )


def _check_not_others(output: Path, resolved: Path, shown: str) -> None:
    """Refuse an output other users may write into, or one inside a folder they may write into without the sticky
    bit (any on the way, from the root down): another user could put a link or a folder of theirs where the build
    swaps the site in and deletes the old one, or add pages to the published site."""
    if open_to_all(resolved, sticky_helps=False):
        raise OutputError(
            f"the output `{shown}` may be written by any user: another could add pages to the site or a link where "
            "the build swaps it in; `chmod o-w` it, or choose a folder of your own"
        )
    # every folder on the way, as written and as it resolves, not the nearest alone: in `shared/a/site`, another user
    # renamed `a` away and put an `a/site/index.html` of theirs in its place (the thirty-third probe); through
    # `shared/l`, a link of theirs, a build replaced another project's site (the thirty-fourth)
    open_above = open_to_others(output)
    if open_above is not None:
        raise OutputError(
            f"the output `{shown}` is in `{open_above}`, a folder any user may write into (without the sticky bit "
            "/tmp has): another could put a link or a folder of theirs on the way to the site, or where the build "
            "swaps it in; choose a folder of your own"
        )


def _check_apart_from_read(
    output: Path, resolved: Path, shown: str, root: Path, read: Iterable[tuple[Path, str]]
) -> None:
    """Refuse an output that is, holds or lies inside a folder the build reads, as written or as it resolves,
    whether it exists yet or not: a build replaces its output whole, so what the author put there was deleted."""
    places = {output, resolved}
    for folder, what in read:
        folders = {Path(os.path.abspath(folder)), Path(os.path.realpath(folder))}
        said = f"`{shown_path(folder, root)}`, {what}, which the build reads"
        if places & folders:
            raise OutputError(
                f"the output `{shown}` is {what}, which the build reads: choose a folder of its own, such as `site`"
            )
        if any(place.is_relative_to(inner) for place in places for inner in folders):
            raise OutputError(f"the output `{shown}` is inside {said}: choose a folder of its own, such as `site`")
        if any(inner.is_relative_to(place) for place in places for inner in folders):
            raise OutputError(
                f"the output `{shown}` holds {said}, and a build replaces its output whole: choose a folder of its "
                "own, such as `site`"
            )


def is_owned(folder: Path, kept: Path | None = None) -> bool:
    """Whether a folder is a site this tool built (its marker a file, not a link), or empty (so a build may
    replace it). A marker a commit holds is believed only of a folder that is, file for file, what this tool last
    published there (``kept``: its record, :mod:`rulebook.published`), or whose every file a commit holds unchanged
    (a site committed for GitHub Pages' `/docs`, freshly checked out): a committed ``venv/.rulebook-site`` with
    ``output = "venv"`` made the build delete the maintainer's own files there."""
    if holds_site_marker(folder):
        if not _committed_marker_beside_own_files(folder):
            return True
        return kept is not None and published.differs(published.entries(folder), None, kept) is None
    try:
        return not any(folder.iterdir())
    except OSError:
        return False


_STATUS = ("status", "--porcelain", "-z", "--ignored", "--untracked-files=all")


def _committed_marker_beside_own_files(folder: Path) -> bool:
    """Whether Git tracks the folder's marker while the folder holds anything a commit does not: a file untracked
    (ignored or not), changed or only staged (`git status --porcelain --ignored`: a build deleted an uncommitted edit
    and a file only staged); without an answer from Git, the marker is not believed."""
    if git_tracks(Path(MARKER), folder) is not True:
        return False
    # every submodule's state too, whatever `.gitmodules` says (`ignore = all` hid a submodule's edits)
    done = git(folder, *_STATUS, "--ignore-submodules=none", "--", ".")
    if done is None:
        return True
    if done.returncode != 0 or done.stdout.strip(b"\0"):
        return True
    # a file Git is told not to look at (`update-index --skip-worktree` or `--assume-unchanged`, the usual way to
    # keep a local edit out of commits) is absent from the status however it was edited
    flags = git(folder, "ls-files", "-v", "-z", "--", ".")
    if flags is None or flags.returncode != 0 or any(_not_looked_at(entry) for entry in flags.stdout.split(b"\0")):
        return True
    # nor at a gitlink's folder where no submodule is checked out (a committed `venv/lib` gitlink hid the
    # maintainer's `venv/lib/...` from `git status`, and the build deleted it)
    staged = git(folder, "ls-files", "-z", "--stage", "--", ".")
    if staged is None or staged.returncode != 0:
        return True
    entries = [entry.split(b"\t", 1) for entry in staged.stdout.split(b"\0") if b"\t" in entry]
    if any(info.startswith(b"160000 ") for info, _ in entries):
        return True  # a submodule's folder: its ignored files and its own `.git` are in no status of the site's
    return _unlisted_by_git(folder)


def _unlisted_by_git(folder: Path) -> bool:
    """Whether ``folder`` holds what no `git status` lists: a `.git` (a repository of the maintainer's own, its
    branches and stashes), a socket, pipe or device, or an empty folder (a build deleted each with exit 0); or
    cannot be read whole."""
    try:
        for place, folders, files in os.walk(folder, onerror=_raised):
            if not folders and not files and place != os.fspath(folder):
                return True
            for name in (*folders, *files):
                mode = os.lstat(os.path.join(place, name)).st_mode
                if name.casefold() == GIT_FOLDER or not (
                    stat.S_ISREG(mode) or stat.S_ISDIR(mode) or stat.S_ISLNK(mode)
                ):
                    return True
    except OSError:
        return True
    return False


def _raised(error: OSError) -> None:
    raise error


def _not_looked_at(entry: bytes) -> bool:
    """Whether a line of ``git ls-files -v`` is a file whose edits Git does not see: skip-worktree (``S``) or
    assume-unchanged (a lower-case tag)."""
    tag = entry[:1]
    return tag == b"S" or tag.islower()


@dataclass(frozen=True, slots=True)
class Release:
    """The new site being made: ``folder`` holds it until :func:`publish` swaps it in."""

    output: Path
    work: Path
    """The build's work folder beside the output: scratch space and the new site."""
    kept: Path
    """What the builds into this output keep from one to the next: the generator's cache and the record of the
    published site (:func:`rulebook.state.kept_folder`; where the user has no cache folder, a folder of this
    build's own, gone with it)."""
    root: Path
    """The project's folder, which messages name paths from."""
    marks: state.Marks
    """How this build marks what it makes."""

    @property
    def folder(self) -> Path:
        return self.work / "site"

    @property
    def scratch(self) -> Path:
        """Room for intermediate files (the MkDocs projects); never published."""
        return self.work / "scratch"

    @property
    def cache(self) -> Path:
        """What the site generator keeps from one build to the next (Zensical's projects and cache); never
        published, and never in the project."""
        return self.kept / CACHE

    def cache_folder(self, *names: str) -> Path:
        """The folder ``names`` in :attr:`cache`, each level a plain folder reached without following a link (a
        link, file or pipe in the way is deleted and a folder made in its place), made if need be."""
        return state.plain_folder(self.kept, (CACHE, *names))


@contextmanager
def release(
    output: Path,
    *,
    root: Path,
    kept: Path | None = None,
    wait: Callable[[str], None] = lambda message: None,
) -> Iterator[Release]:
    """Hold the output's lock and a new work folder for a new site; both are let go on every exit path.

    ``kept``: where this output's builds keep what they reuse (default: :func:`rulebook.state.kept_folder`, in
    the user's cache folder).
    ``wait`` is told, once, when another build holds the lock (the build then waits for it). A file
    that cannot be written (no room, no permission, a file where a folder should be) is an
    :class:`OutputError` naming it; so is a state file or folder beside the output that is not the build's own.
    """
    _check_mounts(output, root)
    home = state.home(root)
    with _plainly(output), _release(output, root, home, kept or state.kept_folder(output, home), wait) as made:
        yield made


@contextmanager
def lock(output: Path, *, root: Path, wait: Callable[[str], None] = lambda message: None) -> Iterator[None]:
    """Hold the output's lock only: for a build that writes its files straight into the output (``--data-only``)."""
    _check_mounts(output, root)
    with _plainly(output), _beside(output) as beside, _locked(beside, lock_name(_name(output)), root, wait):
        yield


def _check_mounts(output: Path, root: Path) -> None:
    """Refuse, before anything is changed, an output that is a mount point or holds one: the build replaces or
    writes into its output, and never deletes what another file system holds (a download folder bound into the
    site was emptied, and the build stopped half-way with it in its work folder)."""
    listed = state.mounts_inside(output, itself=True) if os.path.isdir(output) else []
    if os.path.ismount(output) or output in listed:  # a bind mount of a folder of the same disk: listed only
        raise _mount_point(output, root)
    inside = [place for place in listed if place != output]
    if inside:
        shown, mounted = shown_path(output, root), shown_path(inside[0], root)
        raise OutputError(
            f"the output `{shown}` holds `{mounted}`, a mount point (another file system, or a folder mounted there): "
            "a build replaces its output and never deletes what another file system holds; unmount it "
            f"(`umount {mounted}`), or build into another folder and mount it elsewhere"
        )


def _template_missing(error: LookupError) -> bool:
    """Whether ``error`` is Jinja's missing template (an OSError too: no failed write); jinja2 is not imported for it,
    as no template was looked for unless it was."""
    jinja = sys.modules.get("jinja2")
    return jinja is not None and isinstance(error, jinja.TemplateNotFound)


@contextmanager
def _plainly(output: Path) -> Iterator[None]:
    try:
        yield
    except LookupError as error:
        if not _template_missing(error):  # a KeyError of the build's own: an internal error, never "a template"
            raise
        raise OutputError(masked(f"the site generator misses a template: {error}")) from error
    except OSError as error:
        where = error.filename2 or error.filename or output  # a copy names the file read first, the one written second
        if error.strerror == state.MOUNTED:
            raise OutputError(
                f"cannot write the site into `{output}`: `{where}` is a mount point (another file system, or a "
                f"folder mounted there), and the build never deletes what another file system holds; unmount it "
                f"(`umount {where}`), then build again"
            ) from error
        reason = (error.strerror or str(error)).lower()
        raise OutputError(f"cannot write the site into `{output}`: {reason} (`{where}`)") from error


def _name(output: Path) -> str:
    return output.name or "site"


@contextmanager
def _beside(output: Path) -> Iterator[state.Folder]:
    """The folder that holds the output (made if need be), opened once: the build's state is reached from it."""
    output.parent.mkdir(parents=True, exist_ok=True)
    with state.Folder.open(output.parent) as beside:
        yield beside


@contextmanager
def _release(
    output: Path, root: Path, home: Path | None, kept: Path | None, wait: Callable[[str], None]
) -> Iterator[Release]:
    name, marks = _name(output), state.marks(home)
    with _beside(output) as beside, _locked(beside, lock_name(name), root, wait):
        folder_name = work_name(name)
        with _left_over(beside.path / folder_name):
            _recover(beside, output.name, folder_name, marks, root)
        work = beside.path / folder_name
        with beside.make(folder_name) as made:  # new, so nothing in it comes from the working tree
            made.write_mark(WORK_MARK, marks.of("work", made.identity()))
        try:
            (work / "site").mkdir()
            (work / "site" / MARKER).write_text(MARKER_TEXT, encoding="utf-8")
            # without a cache folder of the user's, a folder of this build's own, gone with it (it was named and
            # never made, so every Zensical build stopped: "no such file or directory")
            yield Release(output, work, _usable(kept) or state.plain_folder(work, ("kept",)), root, marks)
        except BaseException:
            with contextlib.suppress(OSError):  # the error told first says what happened and what to do
                _recover(beside, output.name, folder_name, marks, root)
            raise
        with _left_over(work):
            _recover(beside, output.name, folder_name, marks, root)


@contextmanager
def _left_over(work: Path) -> Iterator[None]:
    """A work folder a build cannot delete (a file in it made immutable, another user's), said as such: every later
    build stopped, told "cannot write the site into `site`: operation not permitted (`index.html`)"."""
    try:
        yield
    except OSError as error:
        if error.strerror == state.MOUNTED:
            raise
        reason = (error.strerror or str(error)).lower()
        raise OutputError(
            f"the work folder `{work}` could not be deleted: {reason} (`{error.filename or work}`, in it); delete "
            "it, then build again"
        ) from error


def _usable(kept: Path | None) -> Path | None:
    """The kept folder, made if need be (readable by the user alone), a plain folder reached from its parent
    without following a link (:func:`rulebook.state.plain_folder`); None where it cannot be."""
    if kept is not None:
        try:
            kept.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            return state.plain_folder(kept.parent, (kept.name,))
        except OSError:
            return None
    return kept


@contextmanager
def _locked(beside: state.Folder, name: str, root: Path, wait: Callable[[str], None]) -> Iterator[None]:
    """Hold the lock file ``name`` beside the output (made for the purpose, and removed when let go)."""
    descriptor = _acquire(beside, name, root, wait)
    with os.fdopen(descriptor, "r+", encoding="utf-8") as lock:
        try:
            lock.write(f"rulebook build (process {os.getpid()})\n")
            lock.flush()
            yield
        finally:
            # Removed while still held: a build that waited on this file sees it is gone and takes a new one.
            if beside.status(name) is not None:
                os.unlink(name, dir_fd=beside.fd)
            fcntl.flock(lock, fcntl.LOCK_UN)


def _acquire(beside: state.Folder, name: str, root: Path, wait: Callable[[str], None]) -> int:
    told = False
    while True:
        descriptor = _open_lock(beside, name, root)
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if not told:
                holder = os.pread(descriptor, 200, 0).decode("utf-8", "replace").strip()
                wait(f"waiting for {holder or 'another build'} to finish building into the same folder…")
                told = True
            fcntl.flock(descriptor, fcntl.LOCK_EX)
        now = beside.status(name)
        if now is not None and now.st_ino == os.fstat(descriptor).st_ino:
            if not _a_locks_content(os.pread(descriptor, _LOCK_BYTES + 1, 0)):
                os.close(descriptor)
                raise _not_ours(beside.path / name, root, "a file this tool did not make", "lock file")
            os.ftruncate(descriptor, 0)
            return descriptor
        os.close(descriptor)


_LOCK_LINE = re.compile(rb"rulebook build \(process [0-9]{1,10}\)\n")
"""What a build writes into its lock (:func:`_locked`): a lock holding anything else is not a build's."""
_LOCK_BYTES = 64


def _a_locks_content(content: bytes) -> bool:
    """Whether a lock file, held now, holds what a build's lock may: nothing (made now), or the line of a build that
    was killed holding it. A file a commit put there holding anything else would be emptied, then deleted."""
    return content == b"" or _LOCK_LINE.fullmatch(content) is not None


def _open_lock(beside: state.Folder, name: str, root: Path) -> int:
    """The lock file, opened (or made) without following a link; refused where it is not a file of its own."""
    flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
    try:
        descriptor = os.open(name, flags, 0o666, dir_fd=beside.fd)
    except OSError as error:
        if error.errno == errno.ELOOP:
            raise _not_ours(beside.path / name, root, "a symbolic link", "lock file") from None
        found = beside.status(name)  # a folder (EISDIR) or a socket (ENXIO) in its place
        if found is not None and not stat.S_ISREG(found.st_mode):
            raise _not_ours(beside.path / name, root, state.kind(found), "lock file") from None
        raise
    status = os.fstat(descriptor)
    if not stat.S_ISREG(status.st_mode) or status.st_nlink != 1:
        os.close(descriptor)
        raise _not_ours(beside.path / name, root, state.kind(status), "lock file")
    return descriptor


def _recover(beside: state.Folder, output_name: str, work_name: str, marks: state.Marks, root: Path) -> None:
    status = beside.status(work_name)
    if status is None:
        return
    if not stat.S_ISDIR(status.st_mode):
        raise _not_ours(beside.path / work_name, root, state.kind(status), "work folder")
    with beside.folder(work_name) as work:
        names = work.names()
        if work.holds(WORK_MARK, marks.of("work", work.identity())):
            _put_back(beside, work, output_name, marks)
        elif not _holds_nothing(work, names):
            what = "a folder this tool did not make (it has no mark of a build on this machine)"
            raise _not_ours(beside.path / work_name, root, what, "work folder")
        # The mark goes last, so a removal cut short still leaves a folder known to be ours.
        for name in names:
            if name != WORK_MARK:
                work.remove(name)
        work.remove(WORK_MARK)
    os.rmdir(work_name, dir_fd=beside.fd)


def _holds_nothing(work: state.Folder, names: list[str]) -> bool:
    """Whether a work folder holds nothing that could be followed, moved or published, so that it may simply go:
    nothing at all, or the mark begun (a build killed while making it left it so): a file of that name holding
    anything else is a commit's (a maintainer's notes there were deleted without a word, the thirty-ninth probe)."""
    if names == [WORK_MARK]:
        return work.holds_a_mark_begun(WORK_MARK)
    return names == []


def _put_back(beside: state.Folder, work: state.Folder, output_name: str, marks: state.Marks) -> None:
    """The site a killed build moved aside takes the output's place again: when there is no output, and the site
    is the folder the build marked as it moved it."""
    status = work.status(PREVIOUS)
    if status is None or not stat.S_ISDIR(status.st_mode) or beside.status(output_name) is not None:
        return
    if work.holds(PREVIOUS_MARK, marks.of("previous", status)):
        os.rename(PREVIOUS, output_name, src_dir_fd=work.fd, dst_dir_fd=beside.fd)


def _not_ours(path: Path, root: Path, what: str, role: str) -> OutputError:
    return OutputError(
        f"`{shown_path(path, root)}` is {what}, not the build's own {role}: the build does not follow it, use it or "
        "publish it; remove it, then build again"
    )


def _mount_point(output: Path, root: Path) -> OutputError:
    shown = shown_path(output, root)
    return OutputError(
        f"the output `{shown}` is a mount point: a new site cannot take its place in one step there (readers, "
        "or a build stopped half-way, would see old and new pages mixed), and the build's own files would be "
        f"published in it; build into a folder inside it, such as `{shown}/www`, and serve that folder"
    )


def keep_from_current(release: Release, keep: Callable[[str], bool]) -> None:
    """Carry the entries of the current site that ``keep`` names (what this build does not remake: the
    books not rebuilt) into the new site, as links to the same files: only where they are what this tool
    published there, file for file (:func:`check_published`), and never through a link."""
    try:
        names = [n for n in sorted(os.listdir(release.output)) if n != MARKER and keep(n)]
    except FileNotFoundError:
        return
    names = [n for n in names if not os.path.lexists(release.folder / n)]
    if not names:
        return
    found = published.copy(release.output, names, release.folder)
    check_published(
        found,
        names,
        None if release.kept.is_relative_to(release.work) else release.kept,  # this build's own: nothing kept
        root=release.root,
        refused=f"the books this build does not remake cannot be kept from the current site "
        f"`{shown_path(release.output, release.root)}`",
        advice="build every book once (`rulebook build` without `--book`)",
    )


def check_published(
    found: list[str], names: Iterable[str] | None, kept: Path | None, *, root: Path, refused: str, advice: str
) -> None:
    """Refuse (:class:`OutputError`: ``refused``, why, then ``advice``) to use entries of the current site (``found``
    in it, :mod:`rulebook.published`) unless they are what this tool published there, entry for entry: the one
    test of "this output is ours" of every mode that keeps or writes into an existing site (``--book``,
    ``--data-only``, ``--pdf-only``). ``names``: the top entries concerned (None: all). Where nothing is kept
    between builds (``kept`` None), the message says why and how to have it kept instead."""
    if kept is None:
        raise OutputError(f"{refused}: {_why_unkept(root)}")
    problem = published.differs(found, names, kept)
    if problem:
        raise OutputError(f"{refused}: {problem}; {advice}")


def _why_unkept(root: Path) -> str:
    """Why no build keeps anything for the next (the record of what it published), and what to do: the user's cache
    folder refused (:func:`rulebook.state.home_refusal`), or one that cannot be used."""
    refusal = state.home_refusal(root) or (
        f"the cache folder `{state.user_cache()}` cannot be used; set `XDG_CACHE_HOME` to a folder of your own"
    )
    return f"rulebook keeps nothing between builds here, no record of what it published either: {refusal}"


def publish(release: Release) -> None:
    """The new site takes the output's place; the old one is deleted afterwards, and the new one recorded."""
    new, output = release.folder, release.output
    _check_mounts(output, release.root)  # again: one mounted while the build ran
    try:
        if not os.path.lexists(output):
            os.rename(new, output)
        elif not _exchange(new, output):
            # No atomic exchange here: the old site steps aside, then the new one takes its place. If that
            # is interrupted, the release (or the next build, after a kill) puts the old one back.
            with state.Folder.open(release.work) as work:
                work.write_mark(PREVIOUS_MARK, release.marks.of("previous", os.stat(output, follow_symlinks=False)))
            os.rename(output, release.work / PREVIOUS)
            os.rename(new, output)
            new = release.work / PREVIOUS
    except OSError as error:
        if error.errno == errno.EBUSY:  # a mount point os.path.ismount did not see (a bind mount)
            raise _mount_point(output, release.root) from error
        raise
    with contextlib.suppress(OSError):  # unrecorded, the site is not kept by a later build of some books
        published.record(output, release.kept)
    if os.path.lexists(new):
        try:
            _remove(new)
        except OSError as error:  # `chattr +i`, a web server's file: said as it is, never as a failed write
            if error.strerror == state.MOUNTED:
                raise  # what to unmount, said by the release
            reason = (error.strerror or str(error)).lower()
            raise OutputError(
                f"the new site is published in `{output}`, but the site it replaced could not be deleted: {reason} "
                f"(`{error.filename or new}`); delete `{new}` (the old site's files), and the next build works again"
            ) from error


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
    """Delete a folder the build made (:func:`rulebook.state.remove`: never across into another file system); one
    still being written elsewhere is retried briefly."""
    for attempt in range(3):
        try:
            state.remove(path)
        except OSError as error:
            if attempt == 2 or error.strerror == state.MOUNTED:
                raise
        if not os.path.lexists(path):
            return
        time.sleep(0.05)


def write_into_site(output: Path, files: Iterable[tuple[Path, bytes]], *, root: Path, kept: Path | None) -> None:
    """Write ``files`` (paths inside ``output``) straight into the published site (``--data-only``,
    ``--pdf-only``; the build holds the output's lock), keeping the rest: only where the site is what this tool
    published there, entry for entry, or there is none yet (no folder, or an empty one) (:func:`check_published`:
    a committed ``site/`` holding a committed marker, a link to ``.git`` or a contributor's pages was written into
    and kept, exit 0). Each file is reached from the output one folder at a time, never through a link (a
    ``site/other -> elsewhere`` is refused before any file is written), written whole and renamed into place; then
    the files are recorded as published (the whole site, where there was none)."""
    files = list(files)
    kept = _usable(kept or state.kept_folder(output, state.home(root)))  # reached without following a link
    fresh = not os.path.isdir(output) or not os.listdir(output)
    if not fresh:
        check_published(
            published.entries(output),
            None,
            kept,
            root=root,
            refused=f"the current site `{shown_path(output, root)}` cannot be written into",
            advice="build the whole site once (`rulebook build`), which replaces it",
        )
    write_marker(output)
    with state.Folder.open(output) as top, contextlib.ExitStack() as opened:
        places = [(_folder_of(top, path, output, root, opened), path, data) for path, data in files]
        for folder, path, data in places:
            try:
                folder.write_file(path.name, data)
            except OSError as error:
                raise OutputError(f"cannot write `{shown_path(path, root)}`: {reason_of(error)}") from None
    if kept is not None:
        with contextlib.suppress(OSError):  # unrecorded, the next build writing into it asks for a whole build
            if fresh:
                published.record(output, kept)
            else:
                published.rerecord(output, kept, [path.relative_to(output).as_posix() for path, _ in files])


def _folder_of(top: state.Folder, path: Path, output: Path, root: Path, opened: contextlib.ExitStack) -> state.Folder:
    """The folder ``path`` goes into, opened from ``top`` one name at a time (made where missing)."""
    here = top
    for part in path.relative_to(output).parent.parts:
        try:
            here = opened.enter_context(here.folder_made(part))
        except OSError as error:
            if error.errno not in (errno.ELOOP, errno.ENOTDIR):
                raise OutputError(f"cannot write `{shown_path(path, root)}`: {reason_of(error)}") from None
            found = state.kind(os.stat(part, dir_fd=here.fd, follow_symlinks=False))
            raise _not_ours(here.path / part, root, found, "folder of the site") from None
    return here


def write_marker(folder: Path) -> None:
    """Mark a folder the build writes straight into (``--data-only``) as its own."""
    folder.mkdir(parents=True, exist_ok=True)
    if not holds_site_marker(folder):
        write_atomic(folder / MARKER, MARKER_TEXT)
