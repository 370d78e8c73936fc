"""Files the compiler writes: atomic writes (a reader never sees half a file, a failed write leaves the old
one), and which files a report, a baseline or an export may be written to (reading is :mod:`rulebook.inputs`)."""

from __future__ import annotations

import os
import shutil
import stat
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from rulebook.engine.ownership import open_to_others
from rulebook.errors import UserError, shorten

if TYPE_CHECKING:
    import subprocess

MAX_PATH = 4096
"""The longest path a configuration may give (Linux's own limit, in bytes)."""
MAX_NAME = 255
"""The longest name of one file or folder in such a path (Linux's own limit, in bytes)."""


def path_problem(value: str) -> str | None:
    """Why a path the configuration gives cannot name a file on any system, or None if it can."""
    if "\0" in value:
        return "holds a NUL character"
    if len(value.encode("utf-8", "surrogatepass")) > MAX_PATH:
        return f"is longer than {MAX_PATH} bytes, the longest path"
    if any(len(part.encode("utf-8", "surrogatepass")) > MAX_NAME for part in value.split("/")):
        return f"has a name longer than {MAX_NAME} bytes, the longest a file's name may be"
    return None


def write_atomic(path: Path, text: str | bytes, *, mode: int | None = None) -> None:
    """Write ``text`` to ``path`` through a temporary file in the same folder, then rename it (``mode``: the
    file's permissions, else those the umask gives a new file)."""
    import tempfile  # not needed by a report written into a device or a pipe (``-o /dev/null``)

    path.parent.mkdir(parents=True, exist_ok=True)
    data = text.encode("utf-8") if isinstance(text, str) else text
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
        os.chmod(temporary, 0o666 & ~_umask() if mode is None else mode)  # mkstemp makes files private
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def write_changed(path: Path, data: bytes) -> None:
    """Write ``data`` over ``path`` in one step (:func:`write_atomic`), unless the file holds it already (its
    time then stays: a page served live is reloaded only when it changed)."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    write_atomic(path, data)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


class OutputError(UserError):
    """An output (the site's folder, a report's file) cannot be used; the message names it and says why."""


GIT_FOLDER = ".git"
"""Git's own folder: nothing is ever written inside it (a report there could replace its configuration or hooks)."""


SITE_MARKER = ".rulebook-site"
"""The file that marks a folder as a site this tool built: its next build replaces the folder whole."""


def holds_site_marker(folder: Path) -> bool:
    """Whether ``folder`` holds this tool's site marker as a regular file (a site it built)."""
    try:
        return stat.S_ISREG(os.stat(folder / SITE_MARKER, follow_symlinks=False).st_mode)
    except (OSError, ValueError):
        return False


def built_site_around(path: Path) -> Path | None:
    """The site this tool built that ``path`` would be inside (as written or as it resolves), if any."""
    return next((folder for folder in path.parents if holds_site_marker(folder)), None)


def lock_name(output_name: str) -> str:
    """The name of the lock a build holds beside an output of that name (``.site.lock``)."""
    return f".{output_name}.lock"


def work_name(output_name: str) -> str:
    """The name of the work folder a build makes beside an output of that name (``.site.rulebook``)."""
    return f".{output_name}.rulebook"


def _own_cache_around(path: Path, resolved: Path) -> Path | None:
    """The tool's own cache folder (:func:`rulebook.state.user_cache`) when ``path`` is inside it, as written or as
    it resolves."""
    from rulebook.state import user_cache

    cache = user_cache()
    if cache is None:
        return None
    try:
        places = {Path(os.path.abspath(cache)), Path(os.path.realpath(cache))}
    except (OSError, ValueError):
        return None
    inside = any(where.is_relative_to(place) for where in (path, resolved) for place in places)
    return cache if inside else None


def build_state_entry(path: Path) -> str | None:
    """The part of ``path`` named as a build's lock or work folder beside an output (:func:`lock_name`,
    :func:`work_name`), or as its site marker (:data:`SITE_MARKER`), if any: a build refuses to find anything of
    someone else's there, and takes a folder holding a marker for a site of its own, replaced whole (``lint -o
    notes/.rulebook-site`` made ``build -o notes`` delete the notes)."""
    for part in path.parts:
        if part == SITE_MARKER:
            return part
        for made in (lock_name, work_name):
            prefix, suffix = made("\0").split("\0")
            if len(part) > len(prefix) + len(suffix) and part.startswith(prefix) and part.endswith(suffix):
                return part
    return None


def inside_git(path: Path, resolved: Path) -> bool:
    """Whether a path, as written or as it resolves, passes through Git's own folder (``.GIT`` is ``.git`` on
    macOS)."""
    return any(part.casefold() == GIT_FOLDER for part in (*path.parts, *resolved.parts))


GIT_CONTENT = ("HEAD", "objects", "refs")
"""What every Git folder holds, whatever its name: the file ``HEAD`` and the folders ``objects`` and ``refs``."""


GIT_FOLDER_SAID = "a Git folder (it holds Git's `HEAD`, `objects` and `refs`)"
"""How a Git folder not named ``.git`` is told in a refusal (after its name)."""


def is_git_folder(folder: Path) -> bool:
    """Whether ``folder`` is a Git folder by what it holds (:data:`GIT_CONTENT`), whatever its name: ``.git``, a bare
    repository ``x.git``, the folder ``git init --separate-git-dir`` made (a ``.git`` file names it), ``$GIT_DIR``."""
    head, objects, refs = (os.path.join(folder, name) for name in GIT_CONTENT)
    try:
        return os.path.isfile(head) and os.path.isdir(objects) and os.path.isdir(refs)
    except (OSError, ValueError):
        return False


def git_folder_around(path: Path, *, below: Path | None = None) -> Path | None:
    """The Git folder ``path`` is (if a folder) or is inside, by name (``.git``, any case) or by what it holds
    (:func:`is_git_folder`), if any: the outermost, looking only at folders inside ``below`` when given (the
    project, whose own root is not asked) and at every folder up to ``/`` otherwise. ``path`` absolute."""
    folders = [folder for folder in reversed((path, *path.parents)) if below is None or folder.is_relative_to(below)]
    for folder in folders:
        if folder == below:
            continue
        if folder.name.casefold() == GIT_FOLDER or is_git_folder(folder):
            return folder
    return None


def check_written_place(path: Path, *, root: Path) -> Path:
    """Where a command may write a file it makes on request, made absolute: never inside ``.git`` (anywhere up
    the path, the path as written or as it resolves), never inside a site this tool built (its next build
    deletes the file, and a build of some books publishes it), and, inside the project, through no folder that
    is a symbolic link (a pull request can commit ``reports -> ~/.ssh``); and a path a system can open at all."""
    problem = path_problem(os.path.abspath(path))
    if problem is not None:  # a name of 300 characters on the way: an internal error, `File name too long`
        raise OutputError(f"cannot write `{shorten(str(path), 80)}`: the path {problem}")
    stepped_back = parent_after_link(path)
    if stepped_back is not None:
        raise OutputError(f"cannot write `{path}`: {stepped_back}")
    path = Path(os.path.abspath(path))
    shown = shown_path(path, root)
    try:
        resolved = path.resolve()
    except (OSError, RuntimeError) as error:
        raise OutputError(f"cannot write `{shown}`: {reason_of(error)}") from error
    others = open_to_others(path)
    if others is not None:
        raise OutputError(
            f"cannot write `{shown}`: it is in `{others}`, a folder any user may write into (without the sticky bit "
            "/tmp has): another could put a link or a folder of theirs on the way; choose a folder of your own"
        )
    if inside_git(path, resolved):
        raise OutputError(f"cannot write `{shown}`: it is inside `{GIT_FOLDER}`, Git's own folder")
    git_folder = git_folder_around(path) or git_folder_around(resolved)
    if git_folder is not None:  # `lint -o GITDIR/objects/info/alternates` broke every Git command of the project
        raise OutputError(
            f"cannot write `{shown}`: it is inside `{shown_path(git_folder, root)}`, {GIT_FOLDER_SAID}, whose files "
            "Git reads and runs"
        )
    cache = _own_cache_around(path, resolved)
    if cache is not None:  # `init ~/.cache/rulebook/proj`: made where the builds remake what they find
        raise OutputError(
            f"cannot write `{shown}`: it is inside `{cache}`, the folder where this tool keeps its own state and "
            "caches; choose a place outside it"
        )
    state_entry = build_state_entry(path)
    if state_entry is not None:
        raise OutputError(
            f"cannot write `{shown}`: `{state_entry}` is a name a build keeps for its own lock, work folder or site "
            "marker, and the next build would take what it found there for its own; choose another name"
        )
    linked = linked_folder(path, root)
    if linked is not None:
        raise OutputError(
            f"cannot write `{shown}`: `{shown_path(linked, root)}` on the way is a symbolic link; "
            "name a folder of the project itself"
        )
    site = built_site_around(path) or built_site_around(resolved)
    if site is not None:
        raise OutputError(
            f"cannot write `{shown}`: it is inside `{shown_path(site, root)}`, a site this tool built, which its next "
            "build replaces whole (and a build of some books publishes); choose a place outside it"
        )
    return path


def parent_after_link(path: Path) -> str | None:
    """Why a place to write ``path`` names is refused when a ``..`` of it steps back out of a symbolic link
    (:func:`link_before_parent`), if it does."""
    link = link_before_parent(path)
    if link is None:
        return None
    return (
        f"`{link}` is a symbolic link and `..` after it leads out of the folder it leads to, not back to where the "
        "link is (as the shell would go, this tool would not); name the place without `..` after a link"
    )


def link_before_parent(path: Path) -> Path | None:
    """The symbolic link a ``..`` of ``path`` (as written) would step back out of, if any: the system goes to the
    folder holding the link's target there, while a path made absolute by its text (:func:`os.path.abspath`,
    which every check here relies on) goes back beside the link; the two places differ, so such a path is
    refused rather than guessed at."""
    walked: list[str] = []
    start = Path(path.anchor) if path.is_absolute() else Path.cwd()
    for part in path.parts[1:] if path.is_absolute() else path.parts:
        if part != "..":
            walked.append(part)
            continue
        if walked and os.path.islink(start.joinpath(*walked)):
            return Path(path.anchor).joinpath(*walked) if path.is_absolute() else Path(*walked)
        if walked:
            walked.pop()
        else:
            start = start.parent
    return None


def check_rewritable(path: Path, *, root: Path) -> os.stat_result:
    """A file of the project a command rewrites in place (a source ``lint --fix`` corrects), and its status; else an
    :class:`OutputError` saying why not: it must be a regular file, not a symbolic link (the file it leads to is
    named instead), in no place :func:`check_written_place` refuses."""
    path = check_written_place(path, root=root)
    shown = shown_path(path, root)
    try:
        status = path.lstat()
    except OSError as error:
        raise OutputError(f"cannot write `{shown}`: {reason_of(error)}") from error
    if stat.S_ISLNK(status.st_mode):
        raise OutputError(f"cannot write `{shown}`: it is a symbolic link; name the file it leads to")
    if not stat.S_ISREG(status.st_mode):
        raise OutputError(f"cannot write `{shown}`: it is not a regular file")
    return status


def rewrite_file(path: Path, data: bytes, *, root: Path) -> None:
    """Replace a file of the project in one step (:func:`write_atomic`), keeping its permissions, where
    :func:`check_rewritable` allows it."""
    status = check_rewritable(path, root=root)
    try:
        write_atomic(Path(os.path.abspath(path)), data, mode=stat.S_IMODE(status.st_mode))
    except OSError as error:
        raise OutputError(f"cannot write `{shown_path(path, root)}`: {reason_of(error)}") from error


def linked_folder(path: Path, root: Path) -> Path | None:
    """The first folder between the project's root and ``path`` (inside it) that is a symbolic link, if any."""
    base = Path(os.path.abspath(root))
    absolute = Path(os.path.abspath(path))
    if not absolute.is_relative_to(base):
        return None
    for folder in reversed(absolute.relative_to(base).parents):
        if folder != Path(".") and (base / folder).is_symlink():
            return base / folder
    return None


def check_report_file(
    path: Path,
    *,
    root: Path,
    protected: Iterable[Path],
    ours: Callable[[Path], bool] | None,
    kind: str = "report",
    read: Iterable[tuple[Path, str]] = (),
) -> Path:
    """The file a command may write a report, a baseline or an export to, made absolute; else an
    :class:`OutputError` saying why not. The one place that decides it, for every command.

    It may be a new file, an empty one, a character device or a pipe (``-o /dev/null``: written into, never
    replaced; a block device or a socket is refused, never replaced by a file),
    or a file this tool wrote before, as ``ours`` recognises it (a report replaces a report, a baseline a
    baseline; with ``ours`` None, none: a converted source may have been edited since). Never one of
    ``protected`` (the files the configuration names), never a folder, never a symbolic link (but for one
    outside the project that leads to a device or a pipe: ``/dev/stdout``), never inside one of ``read``, the
    folders the build reads files from with what each is (:func:`rulebook.recipe.kept.read_folders`: ``lint -o
    overrides/partials/footer.html`` made the report, a source's line quoted in it, every page's footer), and
    never in a place :func:`check_written_place` refuses.
    """
    path = check_written_place(path, root=root)
    shown = shown_path(path, root)
    if any(os.path.realpath(kept) == os.path.realpath(path) for kept in protected):  # there or looked for there
        raise OutputError(f"`{shown}` is a file of the project (the configuration names it): choose another name")
    places = {Path(os.path.abspath(path)), Path(os.path.realpath(path))}
    for folder, what in read:
        folders = {Path(os.path.abspath(folder)), Path(os.path.realpath(folder))}
        if any(place.is_relative_to(inner) for place in places for inner in folders):
            said = what if places & folders else f"inside `{shown_path(folder, root)}`, {what}"
            raise OutputError(f"cannot write `{shown}`: it is {said}, which the build reads; choose another name")
    try:
        status = path.lstat()
    except FileNotFoundError:
        return path
    except OSError as error:
        raise OutputError(f"cannot write `{shown}`: {reason_of(error)}") from error
    if stat.S_ISLNK(status.st_mode):
        if not path.is_relative_to(Path(os.path.abspath(root))) and _is_stream(path):
            return path
        raise OutputError(f"cannot write `{shown}`: it is a symbolic link; name the file itself")
    if stat.S_ISDIR(status.st_mode):
        raise OutputError(f"cannot write `{shown}`: it is a folder")
    if stat.S_ISCHR(status.st_mode) or stat.S_ISFIFO(status.st_mode):
        return path  # written into, never replaced
    if not stat.S_ISREG(status.st_mode):
        what = "a block device (a disk)" if stat.S_ISBLK(status.st_mode) else "a socket"
        raise OutputError(f"cannot write `{shown}`: it is {what}, not a file; name a file")
    if status.st_size == 0 or (ours is not None and ours(path)):
        return path
    if ours is None:
        raise OutputError(f"`{shown}` exists: a {kind} is written as a new file, never over one; choose another name")
    raise OutputError(
        f"`{shown}` exists and is not a {kind} this tool wrote: choose another name (a {kind} replaces "
        f"only an earlier {kind})"
    )


def write_report_file(
    path: Path,
    text: str,
    *,
    root: Path,
    protected: Iterable[Path],
    ours: Callable[[Path], bool] | None,
    kind: str = "report",
    read: Iterable[tuple[Path, str]] = (),
) -> Path:
    """Write ``text`` where :func:`check_report_file` allows it, and return the path written (made absolute): a
    new file or one of ours replaced in one step (:func:`write_atomic`); a device or a pipe written into, never
    replaced (``-o /dev/null`` run as root would otherwise make ``/dev/null`` a regular file). A write that fails
    (``-o /dev/full``) is an :class:`OutputError`, never a file said written."""
    target = check_report_file(path, root=root, protected=protected, ours=ours, kind=kind, read=read)
    shown = shown_path(target, root)
    data = text.encode("utf-8", "surrogateescape")  # a name that is not UTF-8 (`lint` given one), as its bytes
    try:
        if _is_stream(target):
            _write_into(target, data)
        else:
            write_atomic(target, data)
    except OSError as error:
        raise OutputError(f"cannot write `{shown}`: {reason_of(error)}") from error
    return target


def _write_into(path: Path, data: bytes) -> None:
    with path.open("wb") as stream:  # a pipe waits for its reader, as the shell's `> pipe` does
        stream.write(data)


def _is_stream(path: Path) -> bool:
    try:
        mode = path.stat().st_mode
    except OSError:
        return False
    return stat.S_ISCHR(mode) or stat.S_ISFIFO(mode)


ENDS_BYTES = 64 * 1024
"""How much of each end of an existing file is read to recognise it as a report of ours."""


def file_ends(path: Path, size: int = ENDS_BYTES) -> tuple[str, str]:
    """The first and last ``size`` bytes of a regular file, as text (bytes that are not UTF-8 replaced),
    read without following a link; both empty if it cannot be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError:
        return "", ""
    try:
        length = os.fstat(descriptor).st_size
        head = os.pread(descriptor, size, 0)
        tail = os.pread(descriptor, size, max(length - size, 0))
    except OSError:
        return "", ""
    finally:
        os.close(descriptor)
    return head.decode("utf-8", "replace"), tail.decode("utf-8", "replace")


def link_loop(error: RuntimeError) -> str | None:
    """The path Python 3.11's :meth:`Path.resolve` names when it meets a loop of links (its ``RuntimeError("Symlink
    loop from '...'")``, where later versions raise no error), or None for another error."""
    said = str(error)
    return said.removeprefix("Symlink loop from").strip() if said.startswith("Symlink loop") else None


def reason_of(error: OSError | RuntimeError) -> str:
    """An error as the end of a sentence: ``no space left on device``."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror.lower()
    return "a loop of symbolic links" if isinstance(error, RuntimeError) else str(error).lower()


def shown_path(path: Path, root: Path) -> str:
    """A path as the user would write it: relative to the project when inside it (links not followed)."""
    absolute, base = Path(os.path.abspath(path)), Path(os.path.abspath(root))
    if absolute == base:
        return "."
    return absolute.relative_to(base).as_posix() if absolute.is_relative_to(base) else str(path)


def git_environment() -> dict[str, str]:
    """The environment Git runs in for this tool: a repository found by looking up from the project is only ever its
    ``.git`` (``safe.bareRepository=explicit``, set as a command-line setting, which a repository's own
    configuration cannot undo): a folder of the project holding ``HEAD``, ``config``, ``objects/`` and ``refs/``
    was taken for a bare repository, and the ``config`` a pull request committed there ran its ``core.fsmonitor``
    command at each deploy and chose where the site was pushed."""
    env = dict(os.environ)
    count = int(env["GIT_CONFIG_COUNT"]) if env.get("GIT_CONFIG_COUNT", "").isdigit() else 0
    env |= {
        f"GIT_CONFIG_KEY_{count}": "safe.bareRepository",
        f"GIT_CONFIG_VALUE_{count}": "explicit",
        "GIT_CONFIG_COUNT": str(count + 1),
    }
    return env


def git(folder: Path, *args: str) -> subprocess.CompletedProcess[bytes] | None:
    """``git ARGS`` run in ``folder`` with the tool's Git environment (:func:`git_environment`, its messages in
    English, never a prompt), its output kept; None when it could not be run (no ``git``, a timeout)."""
    import subprocess

    try:
        return subprocess.run(
            ["git", *args],
            cwd=folder,
            capture_output=True,
            # each path a name, never a pattern: `rules/t[1].md`, untracked, was "tracked" beside a tracked `t1.md`
            env=dict(git_environment(), LC_ALL="C", GIT_TERMINAL_PROMPT="0", GIT_LITERAL_PATHSPECS="1"),
            timeout=GIT_WAIT,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None


GIT_WAIT = 60
"""How many seconds Git is given to answer a question before it is stopped (:func:`git`)."""


def git_silence(folder: Path) -> str:
    """How Git's silence in the working tree at ``folder`` is told: no answer is no rule held, so it stops the
    command (a Git stopped after :data:`GIT_WAIT` seconds read as "nothing ignored": the rules held nothing)."""
    return (
        f"Git gave no answer in `{folder}` (stopped after {GIT_WAIT} s, or it could not be run): without it the build "
        "cannot tell which files Git ignores or tracks, which it never reads or follows; run the command again"
    )


def git_tracks(path: Path, folder: Path) -> bool | None:
    """Whether Git tracks ``path`` (a file inside ``folder``), asked in ``folder``; None when there is no answer: no
    Git working tree there, or no ``git`` installed. A Git that is silent in a repository (stopped after
    :data:`GIT_WAIT` seconds) stops the command (:func:`git_silence`)."""
    done = git(folder, "ls-files", "--error-unmatch", "--", os.fsdecode(path))
    if done is None and repository_above(Path(os.path.abspath(folder))) is not None and shutil.which("git"):
        raise UserError(git_silence(folder))
    return None if done is None else {0: True, 1: False}.get(done.returncode)


READ_UNCOMMITTED = "RULEBOOK_READ_UNCOMMITTED"
"""The environment setting a CI job sets to ``1`` when its steps make sources on purpose (:func:`committed_only`)."""


def committed_only() -> bool:
    """Whether only files Git tracks are read, not only those it does not ignore: on a CI machine (``CI`` set, as
    most CI services set it, or one of :data:`CI_SERVICES`), where a checkout holds each file a commit holds and any
    other file is one a step of the job wrote; a pull request may take that file's line out of ``.gitignore`` as it
    names it as a source. A job whose steps make sources on purpose sets :data:`READ_UNCOMMITTED` (the job's
    setting, not the project's)."""
    said = os.environ.get("CI", "").strip().lower()
    on_ci = said not in ("", "0", "false", "no") or any(os.environ.get(name) for name in CI_SERVICES)
    return on_ci and os.environ.get(READ_UNCOMMITTED, "").strip() not in ("1", "true")


CI_SERVICES = ("TF_BUILD", "JENKINS_URL", "TEAMCITY_VERSION", "CODEBUILD_BUILD_ID", "BUILDKITE")
"""What a CI service that does not set ``CI`` sets in each job: Azure Pipelines, Jenkins, TeamCity, AWS CodeBuild
(Buildkite sets both)."""


def ignored_said() -> str:
    """How a file :func:`git_ignored` finds is told, after "is" or "which is"."""
    if committed_only():
        return (
            "a file Git does not track (on a CI machine, `CI` or a CI service's own variable set, only files a "
            "commit holds are read: any other is "
            f"one a step of the job wrote; a job that makes sources on purpose sets `{READ_UNCOMMITTED}=1`)"
        )
    return "a file Git ignores (no commit holds it)"


def git_ignored(paths: Iterable[Path], folder: Path) -> set[Path]:
    """Those of ``paths`` (as they resolve) Git ignores in the working tree around ``folder`` (``.gitignore``,
    ``info/exclude``: files a checkout or a CI step left, which no commit holds; a tracked file never is), or does
    not track at all when :func:`committed_only`; none without a Git working tree there or without ``git``. Asked
    of the tree's list of those files, once a process (:func:`_ignored_in`): a question per path failed whole for a
    path beyond a link (exit 128), and said none."""
    tracked_only = committed_only()
    tree = _ignored_in(Path(os.path.abspath(folder)), tracked_only=tracked_only)
    if tree is None:
        return set()
    return {
        Path(os.path.abspath(path))
        for path in paths
        if _uncommitted(Path(os.path.realpath(path)), tree, tracked_only=tracked_only)
    }


class _GitTree(NamedTuple):  # not a dataclass: the engine's questions import this module, and no `dataclasses`
    """What Git says of one working tree: its top (as it resolves), the files and whole folders it ignores (or does
    not track), and its gitlinks (the folders a commit gives to a submodule)."""

    top: Path
    files: frozenset[str]
    folders: tuple[str, ...]
    gitlinks: tuple[str, ...]


def _uncommitted(path: Path, tree: _GitTree, *, tracked_only: bool) -> bool:
    """Whether ``path`` (resolved) is a file ``tree`` lists as ignored (or untracked), or lies under one of its
    gitlinks where no submodule is checked out: Git looks at nothing there, so a file a CI step wrote into a
    committed gitlink's empty folder was neither untracked nor ignored, and was read (the twenty-seventh probe). In a
    submodule checked out, its own tree says (its own ``.gitignore``)."""
    try:
        below = path.relative_to(tree.top).as_posix()
    except ValueError:  # outside the working tree: not Git's to say
        return False
    if below in tree.files or any(_under(below, name) for name in tree.folders):
        return True
    gitlink = next((name for name in tree.gitlinks if _under(below, name)), None)
    if gitlink is None:
        return False
    if not _checked_out_submodule(tree.top / gitlink):
        return True  # no submodule Git checked out there (none, or a repository of another's): nothing in it a commit's
    inner = _ignored_in(tree.top / gitlink, tracked_only=tracked_only)
    if inner is None or inner.top != Path(os.path.realpath(tree.top / gitlink)):
        return True
    return _uncommitted(path, inner, tracked_only=tracked_only)


def _checked_out_submodule(folder: Path) -> bool:
    """Whether ``folder`` holds a submodule as Git checks one out: a ``.git`` file naming a folder under the
    repository's ``.git/modules/`` (a repository a CI step cloned there has a ``.git`` folder of its own, and a
    committed gitlink made its files count as committed: a private repository's file was published). Asked once a
    folder a process, as :func:`_ignored_in` is."""
    if folder not in _SUBMODULES:
        _SUBMODULES[folder] = _asked_submodule(folder)
    return _SUBMODULES[folder]


_SUBMODULES: dict[Path, bool] = {}


def _asked_submodule(folder: Path) -> bool:
    if not os.path.isfile(folder / ".git"):
        return False
    found = git(folder, "rev-parse", "--absolute-git-dir")
    outer = git(folder.parent, "rev-parse", "--path-format=absolute", "--git-common-dir")
    if found is None or outer is None or found.returncode or outer.returncode:
        return False
    own = Path(os.path.realpath(os.fsdecode(found.stdout.splitlines()[0])))
    modules = Path(os.path.realpath(os.fsdecode(outer.stdout.strip()))) / "modules"
    return own.is_relative_to(modules)


def _under(below: str, name: str) -> bool:
    return below == name or below.startswith(name + "/")


_IGNORED: dict[tuple[Path, bool], _GitTree | None] = {}


def _ignored_in(folder: Path, *, tracked_only: bool) -> _GitTree | None:
    """The working tree around ``folder`` and what Git ignores in it (``git ls-files --others --ignored
    --exclude-standard --directory``), or every file it does not track (``tracked_only``: ``git ls-files --others
    --directory``), with its gitlinks, asked once a process; None without a Git working tree or ``git``."""
    if (folder, tracked_only) in _IGNORED:
        return _IGNORED[folder, tracked_only]
    found: _GitTree | None = None
    top = git(folder, "rev-parse", "--show-toplevel") if repository_above(folder) is not None else None
    if top is None and repository_above(folder) is not None and shutil.which("git"):
        raise UserError(git_silence(folder))
    if top is not None and top.returncode == 0:
        root = Path(os.path.realpath(os.fsdecode(top.stdout.strip())))
        which = () if tracked_only else ("--ignored", "--exclude-standard")
        listed = git(root, "ls-files", "-z", "--others", *which, "--directory")
        staged = git(root, "ls-files", "-z", "--stage")
        if listed is None or staged is None:  # it answered the first question: silent now
            raise UserError(git_silence(root))
        if listed.returncode == 0 and staged.returncode == 0:
            names = [os.fsdecode(name) for name in listed.stdout.split(b"\0") if name]
            entries = [entry.split(b"\t", 1) for entry in staged.stdout.split(b"\0") if b"\t" in entry]
            found = _GitTree(
                top=root,
                files=frozenset(name for name in names if not name.endswith("/")),
                folders=tuple(name.rstrip("/") for name in names if name.endswith("/")),
                gitlinks=tuple(os.fsdecode(name) for info, name in entries if info.startswith(b"160000 ")),
            )
    _IGNORED[folder, tracked_only] = found
    return found


def repository_above(folder: Path) -> Path | None:
    """The folder holding the ``.git`` Git would find from ``folder`` (``folder`` itself or a folder above it), or
    None: looked for as Git looks, up to the first mount point (Git stops at a filesystem's edge)."""
    for up in (folder, *folder.parents):
        if os.path.lexists(up / ".git"):
            return up
        if os.path.ismount(up):
            return None
    return None


BARE_SAID = (
    "holds what Git takes for a repository of its own (`HEAD`, `config`, `objects/`, `refs/`): this tool uses only "
    "the repository's `.git`, never one a commit could bring"
)
"""How a folder a commit made look like a bare repository is told (after the folder's name)."""


def git_refusal(folder: Path) -> str | None:
    """Why Git will not say what it tracks and ignores around ``folder``, which is inside a Git repository (a
    ``.git`` above it), or None: it answers, or there is no repository. Without an answer the rules on files Git
    ignores and on links (:func:`git_ignored`, :func:`git_tracks`) could hold nothing, so a command reads no project
    there (a repository another user owns: "detected dubious ownership"; no ``git`` installed)."""
    folder = Path(os.path.abspath(folder))
    holder = repository_above(folder)
    if holder is None:
        return None
    done = git(folder, "rev-parse", "--show-toplevel")
    if done is None:
        return (
            f"`{holder}` is a Git repository and Git cannot be run here (is it installed?): without it the build "
            "cannot tell which files Git ignores, which it never reads; install Git"
        )
    said_all = done.stderr.decode("utf-8", "replace")
    if done.returncode == 0 or "not a git repository" in said_all:
        return None  # Git's own word that there is none here: a `.git` it does not take, a filesystem's edge
    if "cannot use bare repository" in said_all:  # `safe.bareRepository=explicit` (:func:`git_environment`)
        return f"a folder from `{folder}` up {BARE_SAID}; remove those entries"
    said = next((line for line in said_all.splitlines() if line.strip()), "")
    said = shorten(said.removeprefix("fatal: ").strip(), 200)
    hint = (
        f"; if the repository is yours, tell Git so: `git config --global --add safe.directory {holder}`"
        if "ownership" in said or "safe.directory" in said
        else ""
    )
    return (
        f"Git refuses to answer in `{holder}` ({said}): without it the build cannot tell which files Git ignores, "
        f"which it never reads{hint}"
    )


def forget_git_ignored() -> None:
    """Ask Git again (``serve``, after the sources or ``.gitignore`` changed)."""
    _IGNORED.clear()
    _SUBMODULES.clear()
