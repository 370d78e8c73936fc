"""``rulebook deploy``: the published site committed to a branch of its own (``gh-pages``) and pushed, as
``mkdocs gh-deploy`` does, for a team that publishes from a branch rather than with GitHub's Pages actions.

The commit is made with Git's plumbing only, from the site folder's files: each file's blob
(``git hash-object -w``), each folder's tree (``git mktree``), the commit (``git commit-tree``), then the
branch moved to it in one compare-and-swap (``git update-ref NEW OLD``). The working tree, the index and
the branch checked out are never touched (a deploy to the branch checked out is refused). The commit's
parent is the branch as the remote has it (fetched first), else as it is here, so the push is a
fast-forward and the branch keeps the history of every deploy; a site that is the same tree as the
branch's is not committed again. Hidden files of the site (the build's ``.rulebook-site`` marker) are
left out, as GitHub's Pages artifact leaves them out, and a ``.nojekyll`` file is added so that GitHub
Pages serves the files as they are. A link in the site is refused: Pages publishes files only.
"""

from __future__ import annotations

import contextlib
import os
import stat
import subprocess
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from rulebook import __version__
from rulebook.errors import UserError
from rulebook.fileio import BARE_SAID, git_environment

BRANCH = "gh-pages"
REMOTE = "origin"
NOJEKYLL = ".nojekyll"
"""An empty file at the site's root: GitHub Pages then serves the files as they are, without Jekyll."""
_FILE, _FOLDER = "100644", "040000"


class DeployError(UserError):
    """The site cannot be deployed; the message says why."""


@dataclass(frozen=True, slots=True)
class Deployed:
    """What a deploy did."""

    branch: str
    commit: str
    """The branch's commit now (the one made, or the one it held when nothing changed)."""
    files: int
    changed: bool
    """False when the branch held the same site already (nothing committed)."""
    pushed_to: str | None = None
    """The remote the branch was pushed to (None: not pushed)."""


def deploy_site(
    site: Path,
    repository: Path,
    *,
    branch: str = BRANCH,
    remote: str | None = REMOTE,
    message: str | None = None,
) -> Deployed:
    """Commit the site folder to ``branch`` of the Git repository around ``repository`` and push it to
    ``remote`` (None: commit only)."""
    _check_remote(remote)
    git = _Git(repository)
    _check_branch(git, branch)
    if remote is not None:
        git.run("fetch", "--quiet", remote, f"+refs/heads/{branch}:refs/remotes/{remote}/{branch}", allowed=(0, 128))
    before = git.ref(f"refs/heads/{branch}")
    parent = (git.ref(f"refs/remotes/{remote}/{branch}") if remote else None) or before
    for tip, where in ((before, "here"), (parent, f"on `{remote}`")):
        _check_ours(git, branch, tip, where)
    files = dict(_site_files(site))
    tree = _write_tree(git, files)
    changed = parent is None or git.output("rev-parse", f"{parent}^{{tree}}") != tree
    commit = parent or ""
    if changed:
        text = message or f"Deploy the site built from {git.describe_head()} (rulebook {__version__})"
        commit = git.output("commit-tree", tree, *(["-p", parent] if parent else []), "-m", f"{text}\n\n{TRAILER}")
    if commit != before:
        git.run("update-ref", f"refs/heads/{branch}", commit, before or "0" * len(commit))
    if remote is not None:
        git.run("push", "--quiet", remote, f"refs/heads/{branch}:refs/heads/{branch}")
    return Deployed(branch, commit, len(files), changed, remote)


def check_deployable(repository: Path, branch: str = BRANCH, remote: str | None = None) -> None:
    """Refuse, before anything is built, a folder outside Git, a branch name Git refuses, the branch checked out, a
    branch this tool did not deploy, or a remote that Git would read as an option."""
    _check_remote(remote)
    git = _Git(repository)
    _check_branch(git, branch)
    _check_ours(git, branch, git.ref(f"refs/heads/{branch}"), "here")


TRAILER = "Deployed-by: rulebook"
"""The last line of every commit ``deploy`` makes: a branch with one in its history holds this tool's sites."""
_EARLIER_SUBJECT = "Deploy the site built from "
"""How the commits of the versions before :data:`TRAILER` begin (with ``(rulebook VERSION)`` after the source)."""


def _check_ours(git: _Git, branch: str, tip: str | None, where: str) -> None:
    """Refuse a branch (its last commit ``tip``, None: no such branch) that is not one of deploys: ``deploy --branch
    keep`` (a branch of the sources) committed the site over them, every file of theirs deleted in its tip, and
    ``--branch master`` pushed that to the remote's default branch (a fast-forward, which a remote refusing forced
    pushes takes). A branch of deploys has a commit this tool made (the last line :data:`TRAILER`, or an earlier
    version's subject) and its tip holds a site: ``.nojekyll`` at its root, and no project's configuration (a
    squash-merged pull request quoting the trailer made a branch of sources pass). A commit of the team's own on it
    (a ``CNAME``) is built upon."""
    if tip is None:
        return
    made = git.output("log", "--format=%H%x00%s%x00%(trailers:key=Deployed-by,valueonly,separator=%x2C)", tip)
    ours = any(
        fields[2].strip() == "rulebook" or (fields[1].startswith(_EARLIER_SUBJECT) and "(rulebook " in fields[1])
        for line in made.splitlines()
        if len(fields := line.split("\0")) == 3
    )
    names = set(git.output("ls-tree", "--name-only", tip).splitlines())
    if ours and NOJEKYLL in names and not names & _PROJECT_FILES:
        return
    raise DeployError(
        f"the branch `{branch}` {where} is not a branch of deploys (its last commit holds no site this tool "
        "deployed): deploying would replace its files with the site's; name a branch of the site's own (`--branch`, "
        f"default `{BRANCH}`), or delete that branch first if it only ever held a site (made by another tool)"
    )


_PROJECT_FILES = frozenset({"rulebook.toml", "pyproject.toml", "mkdocs.yml", ".git", ".gitignore", ".github"})
"""Names at a branch's root that say it holds a project, not a site."""


def _check_remote(remote: str | None) -> None:
    """A remote is a name or an address, never an option: ``--remote '--upload-pack=touch x;'`` was given to
    ``git fetch`` as it is, which ran the command."""
    if remote is not None and remote.startswith("-"):
        raise DeployError(
            f"`{remote}` is not a remote (a remote's name or address never starts with `-`: Git would read it as an "
            "option)"
        )


def _check_branch(git: _Git, branch: str) -> None:
    if (
        git.run("check-ref-format", f"refs/heads/{branch}", allowed=(0, 1)) != 0
        # a branch's own rules: `HEAD` (every later command said "refname 'HEAD' is ambiguous"), `-x`
        or git.output("check-ref-format", "--branch", branch, allowed=(0, 128)) != branch
    ):
        raise DeployError(f"`{branch}` is not a branch name Git accepts")
    checked_out = git.output("symbolic-ref", "--quiet", "HEAD", allowed=(0, 1))
    if checked_out == f"refs/heads/{branch}":
        raise DeployError(
            f"the branch `{branch}` is checked out here: deploying would change it under the working tree "
            "(switch to your sources' branch first)"
        )
    for worktree in git.output("worktree", "list", "--porcelain").split("\n\n"):
        fields = dict(line.partition(" ")[::2] for line in worktree.splitlines())
        if fields.get("branch") == f"refs/heads/{branch}":  # another working tree of the repository (`git worktree`)
            raise DeployError(
                f"the branch `{branch}` is checked out in `{fields.get('worktree')}`: deploying would change it under "
                "that working tree, whose next commit would undo the deploy (check out another branch there first)"
            )


def _site_files(site: Path) -> Iterator[tuple[str, Path]]:
    """Every file of the site by its path in the branch, hidden ones left out (nothing read through a link)."""
    if not site.is_dir():
        raise DeployError(f"there is no site in `{site}`: build it first (`rulebook build`)")
    for folder, folders, names in os.walk(site):
        for name in (*folders, *names):
            if Path(folder, name).is_symlink():
                raise DeployError(f"`{Path(folder, name)}` is a link: GitHub Pages publishes files only")
            if not name.isprintable() or "\\" in name or name.startswith('"'):  # folders' names too
                shown = repr(str(Path(folder, name)))
                raise DeployError(
                    f"{shown} has a name a Git tree cannot take as it is (a control character, a line break, a tab, "
                    "a backslash or a leading quote): rename it"
                )
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            path = Path(folder, name)
            if not name.startswith(".") and stat.S_ISREG(path.lstat().st_mode):
                yield path.relative_to(site).as_posix(), path


def _write_tree(git: _Git, files: Mapping[str, Path]) -> str:
    """The tree of ``files`` and an empty ``.nojekyll``, written into the repository's objects; its id."""
    names = sorted(files)
    paths = "".join(f"{files[name]}\n" for name in names)
    blobs = git.output("hash-object", "-w", "--no-filters", "--stdin-paths", stdin=paths).split()
    empty = git.output("hash-object", "-w", "--stdin", stdin="")
    folders: dict[str, list[tuple[str, str, str]]] = {"": [(_FILE, empty, NOJEKYLL)]}
    for name, blob in zip(names, blobs, strict=True):
        parent, _, leaf = name.rpartition("/")
        _add_folders(folders, parent)
        folders[parent].append((_FILE, blob, leaf))
    below: dict[str, list[str]] = {path: [] for path in folders}
    for path in folders:
        if path:
            below[path.rpartition("/")[0]].append(path)
    with git.tree_maker() as make:
        return _tree(make, folders, below, "")


def _add_folders(folders: dict[str, list[tuple[str, str, str]]], path: str) -> None:
    while path not in folders:
        folders[path] = []
        path = path.rpartition("/")[0]


def _tree(
    make: Callable[[str], str],
    folders: Mapping[str, Sequence[tuple[str, str, str]]],
    below: Mapping[str, Sequence[str]],
    path: str,
) -> str:
    """A folder's tree, its sub-folders' trees (``below``: each folder's, by path) written first (each folder's
    sub-folders looked for among all: 5,000 chapter folders took 13 s to deploy, one `git mktree` each)."""
    entries = list(folders[path])
    prefix = f"{path}/" if path else ""
    for sub in below[path]:
        entries.append((_FOLDER, _tree(make, folders, below, sub), sub[len(prefix) :]))
    return make(
        "".join(f"{mode} {'tree' if mode == _FOLDER else 'blob'} {oid}\t{name}\n" for mode, oid, name in entries)
    )


class _Git:
    """Git commands run in one repository, their failures said in plain words."""

    def __init__(self, repository: Path) -> None:
        self.folder = repository
        found = self._call(("rev-parse", "--git-dir"), (0, 128), None)
        if "cannot use bare repository" in found.stderr:
            raise DeployError(
                f"a folder from `{repository}` up {BARE_SAID}; remove those entries, or deploy from outside that folder"
            )
        if found.returncode != 0:
            raise DeployError(f"`{repository}` is not in a Git repository: deploy commits the site to a branch of one")

    def run(self, *args: str, allowed: Sequence[int] = (0,), stdin: str | None = None) -> int:
        return self._call(args, allowed, stdin).returncode

    def output(self, *args: str, allowed: Sequence[int] = (0,), stdin: str | None = None) -> str:
        return self._call(args, allowed, stdin).stdout.strip()

    @contextlib.contextmanager
    def tree_maker(self) -> Iterator[Callable[[str], str]]:
        """A function writing a tree from its listing (``git mktree``'s input) and giving its id: one `git mktree
        --batch` for every tree of a deploy, each asked in turn (a tree's id is in its parent's listing)."""
        try:
            process = subprocess.Popen(
                ["git", "mktree", "--batch"],
                cwd=self.folder,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                encoding="utf-8",
                errors="surrogateescape",
                env=_environment(),
            )
        except FileNotFoundError:
            raise DeployError("`git` is not installed (or not on the PATH): deploy needs it") from None
        asked, answered = process.stdin, process.stdout
        assert asked is not None and answered is not None

        def make(listing: str) -> str:
            try:
                asked.write(listing + "\n")  # a blank line ends each tree
                asked.flush()
                made = answered.readline().strip()
            except OSError:
                made = ""
            if not made:
                _, said = process.communicate()
                raise DeployError(f"`git mktree` failed: {_reason(subprocess.CompletedProcess([], 1, '', said))}")
            return made

        try:
            yield make
        finally:
            if process.poll() is None:
                asked.close()
                process.wait()

    def ref(self, name: str) -> str | None:
        """The commit a reference names, None when there is no such reference."""
        found = self.output("rev-parse", "--verify", "--quiet", f"{name}^{{commit}}", allowed=(0, 1))
        return found or None

    def describe_head(self) -> str:
        head = self.output("rev-parse", "--short", "--verify", "--quiet", "HEAD", allowed=(0, 1))
        dirty = self.output("status", "--porcelain", "--untracked-files=no", allowed=(0, 128))
        return (head or "no commit yet") + (" with uncommitted changes" if dirty else "")

    def _call(self, args: Sequence[str], allowed: Sequence[int], stdin: str | None) -> subprocess.CompletedProcess[str]:
        try:
            done = subprocess.run(
                ["git", *args],
                cwd=self.folder,
                input=stdin,
                capture_output=True,
                encoding="utf-8",
                errors="surrogateescape",  # a path or name in bytes that are not UTF-8 goes both ways as itself
                env=_environment(),
            )
        except FileNotFoundError:
            raise DeployError("`git` is not installed (or not on the PATH): deploy needs it") from None
        if done.returncode not in allowed:
            raise DeployError(f"`git {args[0]}` failed: {_reason(done)}")
        return done


def _reason(done: subprocess.CompletedProcess[str]) -> str:
    """What Git said went wrong: its `fatal:` and `error:` lines (its advice after them left out), else its last
    line (the last line alone was "and the repository exists.", of a remote that does not exist)."""
    text = (done.stderr.strip() or done.stdout.strip()).encode("utf-8", "surrogateescape")
    said = [line.strip() for line in text.decode("utf-8", "replace").splitlines() if line.strip()]  # a name's bytes
    faults = [line.partition(":")[2].strip() for line in said if line.startswith(("fatal:", "error:"))]
    if faults:
        return "; ".join(faults)
    return said[-1] if said else f"exit status {done.returncode}"


def _environment() -> dict[str, str]:
    """Git's environment: its messages in English (they are quoted), a fixed date under ``SOURCE_DATE_EPOCH``."""
    env = dict(git_environment(), LC_ALL="C", GIT_TERMINAL_PROMPT="0")
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch and epoch.isdigit():
        env |= {"GIT_AUTHOR_DATE": f"{epoch} +0000", "GIT_COMMITTER_DATE": f"{epoch} +0000"}
    return env
