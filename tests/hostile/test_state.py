"""The build's own state is never trusted from the working tree.

A pull request can commit anything, links included, where a build keeps its lock, its work folder, a
site it moved aside or its caches, and CI builds it on a fresh clone. Each case commits one such
thing into a project made by ``rulebook init`` and runs the build as CI would. The outcome is exact:
refused with exit status 2 and a plain message, with nothing written, deleted or published (the
project and the link's target unchanged), or built with the committed thing never followed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest

from rulebook import published, state
from rulebook.cli import main
from rulebook.publish import MARKER_TEXT
from tests.conftest import need_zensical

from .scratch import Outcome, run, run_guarded
from .test_output import snapshot
from .test_publish import killed_between_renames

TOKEN = "[http]\n\textraheader = AUTHORIZATION: basic c2VjcmV0LXRva2Vu\n"
"""What a CI checkout keeps in ``.git/config``: the token the build must never publish."""


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project made by ``rulebook init`` with a second book and a ``.git`` holding a token, as CI checks it
    out; beside it, ``outside/``: a folder of someone's files, the target of the links that lead out."""
    folder = tmp_path / "game"
    assert main(["init", str(folder), "--title", "Tiles"]) == 0
    shutil.copy(folder / "rules" / "book.xml", folder / "rules" / "extra.xml")
    with (folder / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('\n[books.extra]\nsources = ["rules/extra.xml"]\n')
    (folder / ".git").mkdir()
    (folder / ".git" / "config").write_text(TOKEN, encoding="utf-8")
    outside = tmp_path / "outside"
    for name in ("docs", "site"):
        (outside / name).mkdir(parents=True)
        (outside / name / "index.md").write_text("someone's page\n", encoding="utf-8")
    (outside / "mkdocs.yml").write_text("site_name: someone's\n", encoding="utf-8")
    (outside / "notes.txt").write_text("someone's notes\n", encoding="utf-8")
    monkeypatch.chdir(folder)
    capsys.readouterr()
    return folder


def refused(capsys: pytest.CaptureFixture[str], game: Path, message: str, *argv: str) -> Outcome:
    """``rulebook build -q ARGV`` refused with ``message``: the project (its site, if any, included) and the
    folder beside it unchanged."""
    before = snapshot(game.parent)
    outcome = run(capsys, "build", "-q", *argv)
    assert (outcome.code, outcome.err) == (2, f"rulebook: error: {message}\n")
    assert snapshot(game.parent) == before
    return outcome


def not_ours(path: str, what: str, role: str) -> str:
    return (
        f"`{path}` is {what}, not the build's own {role}: the build does not follow it, use it or publish it; "
        "remove it, then build again"
    )


FOREIGN = "a folder this tool did not make (it has no mark of a build on this machine)"
TARGETS = {"inside": "rules/book.xml", "outside": "../outside/notes.txt", "proc": "/proc/self"}
"""Where a committed link leads: a file of the project, a file outside it, the build's own process."""
FOLDER_TARGETS = {"inside": ".git", "outside": "../outside", "proc": "/proc/self"}


# -- the lock ---------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", TARGETS.values(), ids=TARGETS.keys())
def test_a_lock_that_is_a_link_is_refused(game: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    (game / ".site.lock").symlink_to(target)
    refused(capsys, game, not_ours(".site.lock", "a symbolic link", "lock file"))


def test_a_lock_with_another_name_is_refused(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    os.link(game / "rules" / "book.xml", game / ".site.lock")
    refused(capsys, game, not_ours(".site.lock", "a file with another name too (a hard link)", "lock file"))


@pytest.mark.parametrize("kind", ["folder", "socket", "pipe"])
def test_a_lock_that_is_no_file_is_refused_as_not_the_builds_own(
    game: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    """A folder or a socket in the lock's place said "cannot write the site into `site`: is a directory" (or "no
    such device or address"): refused as a pipe is, saying what is there."""
    import socket

    lock = game / ".site.lock"
    if kind == "folder":
        lock.mkdir()
    elif kind == "socket":
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(lock))
    else:
        os.mkfifo(lock)
    found = "a folder" if kind == "folder" else "neither a file nor a folder"
    refused(capsys, game, not_ours(".site.lock", found, "lock file"))


@pytest.mark.parametrize("content", ["a committed file\n", "rulebook build (process 12)\nand more\n"])
def test_a_lock_holding_what_no_build_writes_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], content: str
) -> None:
    """A committed ``.site.lock`` (or a report written there: ``lint -o .site.lock``) was emptied, then deleted by
    the build, exit 0."""
    (game / ".site.lock").write_text(content, encoding="utf-8")
    refused(capsys, game, not_ours(".site.lock", "a file this tool did not make", "lock file"))
    assert (game / ".site.lock").read_text(encoding="utf-8") == content


@pytest.mark.parametrize("content", ["", "rulebook build (process 4194304)\n"])
def test_a_lock_a_killed_build_left_is_taken(game: Path, capsys: pytest.CaptureFixture[str], content: str) -> None:
    (game / ".site.lock").write_text(content, encoding="utf-8")
    assert run(capsys, "build", "-q").code == 0
    assert not (game / ".site.lock").exists()


# -- the work folder, and what is in it -------------------------------------------------------------------------


@pytest.mark.parametrize("target", FOLDER_TARGETS.values(), ids=FOLDER_TARGETS.keys())
def test_a_work_folder_that_is_a_link_is_refused(game: Path, capsys: pytest.CaptureFixture[str], target: str) -> None:
    (game / ".site.rulebook").symlink_to(target)
    refused(capsys, game, not_ours(".site.rulebook", "a symbolic link", "work folder"))


def test_a_work_folder_that_is_a_file_is_refused(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / ".site.rulebook").write_text("", encoding="utf-8")
    refused(capsys, game, not_ours(".site.rulebook", "a file", "work folder"))


def committed_work_folder(game: Path) -> Path:
    """``.site.rulebook/`` as a commit makes it: with the mark a build of an older version wrote (empty)."""
    work = game / ".site.rulebook"
    work.mkdir()
    (work / ".rulebook-work").write_text("", encoding="utf-8")
    return work


@pytest.mark.parametrize("target", FOLDER_TARGETS.values(), ids=FOLDER_TARGETS.keys())
@pytest.mark.parametrize("argv", [(), ("--book", "extra")], ids=["every book", "one book"])
def test_a_site_moved_aside_that_is_a_link_never_becomes_the_site(
    game: Path, capsys: pytest.CaptureFixture[str], target: str, argv: tuple[str, ...]
) -> None:
    """``previous -> .git`` would have become ``site/``, and a build of one book would have published it."""
    (committed_work_folder(game) / "previous").symlink_to(game / target if target == ".git" else target)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"), *argv)


def test_a_committed_site_moved_aside_never_becomes_the_site(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    previous = committed_work_folder(game) / "previous"
    previous.mkdir()
    (previous / ".rulebook-site").write_text("", encoding="utf-8")
    (previous / "index.html").write_text("<script>steal()</script>", encoding="utf-8")
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"), "--book", "extra")


@pytest.mark.parametrize("held", [b"MAINTAINER NOTES\n" * 150, b"x", b"0" * 65, b"3FA9", b"3fa9\n"])
def test_a_work_folder_holding_only_a_file_named_as_its_mark_but_no_mark_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], held: bytes
) -> None:
    """A committed ``.site.rulebook/.rulebook-work`` of a maintainer's notes was deleted without a word (the
    thirty-ninth probe): a work folder may simply go only when its mark is what a killed build's write left."""
    work = game / ".site.rulebook"
    work.mkdir()
    (work / ".rulebook-work").write_bytes(held)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"))


@pytest.mark.parametrize("held", [b"", b"3fa9", b"0123456789abcdef" * 4])
def test_a_work_folder_a_killed_build_left_goes(game: Path, capsys: pytest.CaptureFixture[str], held: bytes) -> None:
    work = game / ".site.rulebook"
    work.mkdir()
    (work / ".rulebook-work").write_bytes(held)
    assert run(capsys, "build", "-q").code == 0
    assert not work.exists() and (game / "site" / "index.html").is_file()


@pytest.mark.parametrize("target", FOLDER_TARGETS.values(), ids=FOLDER_TARGETS.keys())
def test_a_work_folder_mark_that_is_a_link_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    work = game / ".site.rulebook"
    work.mkdir()
    (work / ".rulebook-work").symlink_to(target)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"))


@pytest.mark.parametrize("target", FOLDER_TARGETS.values(), ids=FOLDER_TARGETS.keys())
@pytest.mark.parametrize("where", ["cache", "cache/zensical/main/original"])
def test_a_zensical_cache_in_the_work_folder_is_never_used(
    game: Path, capsys: pytest.CaptureFixture[str], target: str, where: str
) -> None:
    """Zensical's cache was kept in the work folder: a link there made the build delete ``docs/`` and ``site/``
    and write ``mkdocs.yml`` where it led. The cache is now in the user's cache folder, and a work folder a
    commit made is refused whole."""
    need_zensical()
    link = committed_work_folder(game) / where
    link.parent.mkdir(parents=True, exist_ok=True)
    link.symlink_to(game / target if target == ".git" else target)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"), "--generator", "zensical")


KEPT_LEVELS = ("", "cache", "cache/zensical", "cache/zensical/main", "cache/zensical/main/original")
"""The folders a build keeps Zensical's project in, under the user's cache folder, from the output's own down."""
IN_PROJECT = ("original/.cache", "original/mkdocs.yml", "original/docs", "original/site")
"""What Zensical's project folder holds, from the book's folder: its cache, the configuration, pages and site."""


@pytest.mark.parametrize("where", [*KEPT_LEVELS, *("cache/zensical/main/" + p for p in IN_PROJECT)])
def test_a_link_in_the_user_cache_where_zensical_works_is_replaced_never_followed(
    game: Path, capsys: pytest.CaptureFixture[str], where: str
) -> None:
    """With ``cache/zensical`` a link in the user's cache folder, the build deleted ``docs/`` and ``site/`` and wrote
    ``mkdocs.yml`` where it led (exit 0). Each folder there is reached without following a link: a link in its
    place is deleted and a folder made; the link's target is unchanged and the site built."""
    need_zensical()
    assert run(capsys, "build", "-q", "--no-pdf", "--generator", "zensical").code == 0
    kept = state.kept_folder(game / "site", state.home(game))
    assert kept is not None
    link = kept / where
    shutil.rmtree(link) if link.is_dir() else link.unlink()
    link.symlink_to(game.parent / "outside")
    before = snapshot(game.parent / "outside")
    assert run(capsys, "build", "-q", "--no-pdf", "--generator", "zensical").code == 0
    assert snapshot(game.parent / "outside") == before
    assert not link.is_symlink()
    assert (game / "site" / "index.html").is_file()


def test_a_data_only_build_never_records_through_a_link_in_the_user_cache(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--data-only`` records what it rewrote in the record of the published site: with the output's folder in the
    user's cache a link to a folder holding a record, it rewrote the record there. The folder is reached without
    following a link, as every build's is: the link is replaced, its target unchanged."""
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    kept = state.kept_folder(game / "site", state.home(game))
    assert kept is not None
    shutil.copy(kept / published.RECORD, game.parent / "outside" / published.RECORD)
    shutil.rmtree(kept)
    kept.symlink_to(game.parent / "outside")
    before = snapshot(game.parent / "outside")
    outcome = run(capsys, "build", "-q", "--data-only")  # a record it cannot trust: refused, as `--book` is
    assert (outcome.code, outcome.err) == (2, f"rulebook: error: {writing_refused(NO_RECORD)}\n")
    assert snapshot(game.parent / "outside") == before
    assert kept.is_dir() and not kept.is_symlink()


@pytest.mark.parametrize("kind", ["file", "pipe"])
def test_a_file_or_pipe_where_zensical_works_is_replaced_by_a_folder(
    game: Path, capsys: pytest.CaptureFixture[str], kind: str
) -> None:
    need_zensical()
    kept = state.kept_folder(game / "site", state.home(game))
    assert kept is not None
    (kept / "cache").mkdir(parents=True)
    os.mkfifo(kept / "cache" / "zensical") if kind == "pipe" else (kept / "cache" / "zensical").write_text("x\n")
    assert run_guarded(game, "build", "-q", "--no-pdf", "--generator", "zensical").code == 0
    assert (kept / "cache" / "zensical" / "main" / "original" / ".cache").is_dir()


# -- what a killed build left, changed by a checkout before the next build --------------------------------------


def test_a_site_moved_aside_replaced_by_a_link_is_discarded_not_followed(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A killed build left its work folder (its own, marked); a checkout then put a link where the old site
    waited. The next build does not put the link in the site's place: it removes it with the rest."""
    assert run(capsys, "build", "-q").code == 0
    killed_between_renames(game)
    previous = game / ".site.rulebook" / "previous"
    shutil.rmtree(previous)
    previous.symlink_to(game / ".git")
    git = snapshot(game / ".git")
    assert run(capsys, "build", "-q", "--book", "extra").code == 0
    site = game / "site"
    assert not site.is_symlink() and (site / "extra" / "index.html").is_file()
    assert not (site / "config").exists()
    assert snapshot(game / ".git") == git
    assert sorted(p.name for p in game.iterdir() if p.name.startswith(".site")) == []


def test_a_site_moved_aside_replaced_by_another_folder_is_discarded(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "build", "-q").code == 0
    killed_between_renames(game)
    previous = game / ".site.rulebook" / "previous"
    shutil.rmtree(previous)
    previous.mkdir()
    (previous / ".rulebook-site").write_text("", encoding="utf-8")
    (previous / "index.html").write_text("<script>steal()</script>", encoding="utf-8")
    assert run(capsys, "build", "-q").code == 0
    assert "steal()" not in (game / "site" / "index.html").read_text(encoding="utf-8")


# -- the current site, which a build of some books keeps the other books from ------------------------------------


NO_RECORD = "rulebook has no record of publishing it (it was built elsewhere or by an older version)"


def not_published(path: str) -> str:
    return f"`{path}` in it is not what rulebook published there (added, changed or removed since)"


def writing_refused(because: str) -> str:
    return (
        f"the current site `site` cannot be written into: {because}; build the whole site once (`rulebook build`), "
        "which replaces it"
    )


KEEPING = "the books this build does not remake cannot be kept from the current site `site`"


def keeping_refused(because: str) -> str:
    return f"{KEEPING}: {because}; build every book once (`rulebook build` without `--book`)"


def test_a_committed_site_is_never_kept(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``site/`` with the marker and a book folder of its own, committed: a build of the main book alone would
    have kept that folder and published it."""
    (game / "site" / "extra").mkdir(parents=True)
    (game / "site" / ".rulebook-site").write_text("", encoding="utf-8")
    (game / "site" / "extra" / "index.html").write_text("<script>steal()</script>", encoding="utf-8")
    refused(capsys, game, keeping_refused(NO_RECORD), "--book", "main")


def test_a_file_added_to_the_published_site_is_never_kept(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A checkout that writes into the site a build published (a tracked ``site/extra/page.html``)."""
    assert run(capsys, "build", "-q").code == 0
    (game / "site" / "extra" / "page.html").write_text("<script>steal()</script>", encoding="utf-8")
    refused(capsys, game, keeping_refused(not_published("extra/page.html")), "--book", "main")


@pytest.mark.parametrize("target", FOLDER_TARGETS.values(), ids=FOLDER_TARGETS.keys())
def test_a_link_in_the_published_site_is_never_kept(
    game: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    assert run(capsys, "build", "-q").code == 0
    shutil.rmtree(game / "site" / "extra" / "glossary")
    (game / "site" / "extra" / "glossary").symlink_to(game / target if target == ".git" else target)
    refused(capsys, game, keeping_refused(not_published("extra/glossary")), "--book", "main")


@pytest.mark.parametrize("only", ["--data-only", "--pdf-only"])
@pytest.mark.parametrize("target", FOLDER_TARGETS.values(), ids=FOLDER_TARGETS.keys())
def test_a_build_straight_into_the_site_never_writes_through_a_link(
    game: Path, capsys: pytest.CaptureFixture[str], target: str, only: str
) -> None:
    """A committed ``site/`` with the marker and ``extra -> ../outside``: ``--data-only`` wrote the second book's
    ``rules.json`` and schema into the link's target (``.git``, someone's folder) with exit 0. Neither a committed
    site nor a published one a link was put in is written into: each is not what this tool published there."""
    (game / "site").mkdir()
    (game / "site" / ".rulebook-site").write_text("", encoding="utf-8")
    (game / "site" / "extra").symlink_to(game / target if target == ".git" else target)
    refused(capsys, game, writing_refused(NO_RECORD), only)
    shutil.rmtree(game / "site")
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    shutil.rmtree(game / "site" / "extra")
    (game / "site" / "extra").symlink_to(game / target if target == ".git" else target)
    refused(capsys, game, writing_refused(not_published("extra")), only)
    (game / "site" / "extra").unlink()
    (game / "site" / "extra").write_text("not a folder", encoding="utf-8")
    refused(capsys, game, writing_refused(not_published("extra")), only)


@pytest.mark.parametrize("only", ["--data-only", "--pdf-only"])
def test_a_committed_site_with_the_marker_is_never_written_into(
    game: Path, capsys: pytest.CaptureFixture[str], only: str
) -> None:
    """``--data-only`` and ``--pdf-only`` took a committed ``site/`` holding a committed ``.rulebook-site`` as the
    published site and wrote into it, keeping the rest (a link to ``.git``, a contributor's pages; exit 0). They
    check the record of what was published, as ``--book`` does: a committed site is refused, whole; a site that is
    not there yet, or empty, is made."""
    (game / "site").mkdir()
    (game / "site" / ".rulebook-site").write_text(MARKER_TEXT, encoding="utf-8")
    (game / "site" / "page.html").write_text("<script>steal()</script>", encoding="utf-8")
    (game / "site" / "leak").symlink_to(game / ".git")
    refused(capsys, game, writing_refused(NO_RECORD), only)
    shutil.rmtree(game / "site")
    assert run(capsys, "build", "-q", "--data-only").code == 0  # none yet: made, and recorded
    assert run(capsys, "build", "-q", "--data-only").code == 0  # so that the next one may write into it
    (game / "site" / "page.html").write_text("<script>steal()</script>", encoding="utf-8")
    refused(capsys, game, writing_refused(not_published("page.html")), only)


def test_the_published_site_is_kept_file_for_file(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "build", "-q").code == 0
    page = game / "site" / "extra" / "index.html"
    kept = page.stat().st_ino
    assert run(capsys, "build", "-q", "--book", "main").code == 0
    assert page.stat().st_ino == kept  # the same file, not a copy
    assert run(capsys, "build", "-q", "--book", "extra").code == 0  # what the last build published is recorded
    assert run(capsys, "build", "-q", "--data-only").code == 0  # so is what it writes into the site
    assert run(capsys, "build", "-q", "--book", "main").code == 0


def _huge(path: Path) -> None:
    path.write_bytes(b"")
    os.truncate(path, 65 << 20)  # holes: no room taken


RECORDS = {
    "a pipe": ("it is not a regular file", lambda path: os.mkfifo(path)),
    "a link to /dev/zero": ("too many levels of symbolic links", lambda path: path.symlink_to("/dev/zero")),
    "a huge file": ("it holds more than 64 megabytes", _huge),
}
"""What the record of the published site, in the user's cache folder, may be replaced with: a build of some books read
it with ``read_text``, and waited for ever on the pipe, or filled the memory from ``/dev/zero``."""


@pytest.mark.parametrize("record", RECORDS.values(), ids=RECORDS.keys())
def test_a_record_of_the_published_site_that_is_no_file_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], record: tuple[str, Callable[[Path], None]]
) -> None:
    assert run(capsys, "build", "-q").code == 0
    kept = state.kept_folder(game / "site", state.home(game))
    assert kept is not None
    path = kept / published.RECORD
    path.unlink()
    reason, make = record
    make(path)
    before = snapshot(game.parent)
    outcome = run_guarded(game, "build", "-q", "--book", "main")
    because = f"rulebook's record of publishing it, `{path}`, cannot be read: {reason}"
    assert (outcome.code, outcome.err) == (2, f"rulebook: error: {keeping_refused(because)}\n")
    assert snapshot(game.parent) == before
    outcome = run_guarded(game, "build", "-q", "--data-only")  # which writes into the site only where it is ours
    assert (outcome.code, outcome.err) == (2, f"rulebook: error: {writing_refused(because)}\n")
    assert snapshot(game.parent) == before


# -- the secret the marks are keyed with ----------------------------------------------------------------------


def test_a_cache_folder_inside_the_project_is_not_trusted(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A CI that keeps its caches in the workspace: a commit can then write the secret itself, and forge
    the marks of a work folder and of a site moved aside. The secret is not read from inside the project."""
    _forge_work_folder(game, game / ".cache", monkeypatch)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"), "--book", "extra")


@pytest.mark.parametrize("kind", ["a folder of the repository", "a submodule"])
def test_a_cache_folder_in_the_repository_around_the_project_is_not_trusted(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, kind: str
) -> None:
    """The project in a folder of its repository (or a submodule of it), the CI's caches at the repository's top:
    the cache folder was outside the project, so the secret a commit put there was used, the forged work folder
    taken as the build's own, and its ``previous`` (a script, a link to ``.git``) became the site. Inside a Git
    working tree that holds the project, it is not trusted."""
    shutil.rmtree(game / ".git")
    if kind == "a submodule":
        (game / ".git").write_text("gitdir: ../.git/modules/game\n", encoding="utf-8")
    (game.parent / ".git").mkdir()
    _forge_work_folder(game, game.parent / ".cache", monkeypatch)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"), "--book", "extra")
    assert not (game / "site").exists()


def test_a_home_folder_kept_in_git_keeps_what_a_build_keeps(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A home folder that is a Git working tree (dotfiles), the project a repository of its own: the cache folder in
    it was refused as inside a working tree, nothing was kept between builds, and every ``--book`` was refused
    with advice that could not help. No commit to the project can write there: it is used."""
    home = game.parent / "home"
    (home / ".git").mkdir(parents=True)
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(home))
    assert state.home(game) == home / ".cache" / "rulebook"
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    assert run(capsys, "build", "-q", "--no-pdf", "--book", "extra").code == 0
    assert run(capsys, "build", "-q", "--data-only").code == 0


def test_a_cache_folder_a_commit_could_write_is_refused_with_the_reason_and_a_way_out(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The project in the home folder's working tree (no repository of its own): the cache folder is refused, and
    a build of some books says why nothing was kept and what to set, not to build every book once more."""
    shutil.rmtree(game / ".git")
    (game.parent / ".git").mkdir()
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.setenv("HOME", str(game.parent))
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    unkept = (
        "rulebook keeps nothing between builds here, no record of what it published either: the cache folder "
        f"`{game.parent / '.cache' / 'rulebook'}` is inside the Git working tree `{game.parent}`, where a commit "
        "could have written it; set `XDG_CACHE_HOME` to a folder outside it"
    )
    refused(capsys, game, f"{KEEPING}: {unkept}", "--no-pdf", "--book", "extra")
    monkeypatch.setenv("XDG_CACHE_HOME", str(game.parent.parent / f"{game.parent.name}-cache"))  # the way out named
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    assert run(capsys, "build", "-q", "--no-pdf", "--book", "extra").code == 0


@pytest.mark.parametrize("shared", ["folder", "key"])
def test_a_cache_folder_or_secret_others_may_write_or_read_is_not_trusted(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, shared: str
) -> None:
    """A cache folder another local user prepared (``XDG_CACHE_HOME=/tmp/cache`` on a shared runner: theirs, or
    one anyone may write into), or a secret others may read: whoever knows the secret forges the marks of a committed
    work folder. Neither is used, as ssh uses no key others could have written or read."""
    cache = game.parent / "shared-cache"
    _forge_work_folder(game, cache, monkeypatch)
    if shared == "folder":
        (cache / "rulebook").chmod(0o777)
        (cache / "rulebook" / "state.key").chmod(0o600)
        assert state.home_refusal(game) == (
            f"the cache folder `{cache / 'rulebook'}` may be written by other users; set `XDG_CACHE_HOME` to a folder "
            "of your own"
        )
    else:
        (cache / "rulebook").chmod(0o700)
        (cache / "rulebook" / "state.key").chmod(0o644)
    refused(capsys, game, not_ours(".site.rulebook", FOREIGN, "work folder"), "--book", "extra")
    assert not (game / "site").exists()


def _forge_work_folder(game: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A work folder committed with a site moved aside in it, marked with a secret committed in ``cache``, the
    user's cache folder (as a CI keeping its caches in the workspace sets it)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    committed = state.Marks(b"k" * 32)
    (cache / "rulebook").mkdir(parents=True)
    (cache / "rulebook" / "state.key").write_bytes(committed.key)
    work = game / ".site.rulebook"
    previous = work / "previous"
    previous.mkdir(parents=True)
    (previous / ".rulebook-site").write_text("", encoding="utf-8")
    (previous / "index.html").write_text("<script>steal()</script>", encoding="utf-8")
    (work / ".rulebook-work").write_bytes(committed.of("work", os.stat(work)))
    (work / ".rulebook-previous").write_bytes(committed.of("previous", os.stat(previous)))
    (previous / "git").symlink_to("../../.git")


def test_without_a_cache_folder_a_build_works_and_keeps_nothing(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    unusable = game.parent / "not-a-folder"
    unusable.write_text("", encoding="utf-8")
    monkeypatch.setenv("XDG_CACHE_HOME", str(unusable))
    assert run(capsys, "build", "-q").code == 0
    assert sorted(p.name for p in game.iterdir() if p.name.startswith(".site")) == []
    unkept = (
        f"rulebook keeps nothing between builds here, no record of what it published either: the cache folder "
        f"`{unusable / 'rulebook'}` cannot be used; set `XDG_CACHE_HOME` to a folder of your own"
    )
    refused(capsys, game, f"{KEEPING}: {unkept}", "--book", "extra")


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_without_a_cache_folder_of_the_users_every_generator_builds(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, generator: str
) -> None:
    """The caches in the workspace, as a CI keeps them (``XDG_CACHE_HOME=$GITHUB_WORKSPACE/.cache``): the build keeps
    Zensical's cache in its own work folder, which it named and never made, so every Zensical build stopped ("cannot
    write the site into `site`: no such file or directory (`.site.rulebook/kept`)")."""
    if generator == "zensical":
        need_zensical()
    monkeypatch.setenv("XDG_CACHE_HOME", str(game / ".cache"))
    for _ in range(2):
        outcome = run(capsys, "build", "-q", "--generator", generator)
        assert (outcome.code, outcome.err) == (0, "")
    assert (game / "site" / "index.html").is_file()
    assert sorted(p.name for p in game.iterdir() if p.name.startswith((".site", ".cache"))) == []


def test_a_cache_folder_no_system_can_name_is_passed_over(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``XDG_CACHE_HOME`` longer than a path may be: the engine's verdicts, kept after a build, stopped it with
    "internal error: OSError: File name too long"; a cache that cannot be used is passed over."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(game.parent / "/".join(["d" * 200] * 25)))
    for argv in (["build", "-q"], ["engine", "--rules", "site/rules.json", "odds", "roll", "2D6"]):
        outcome = run(capsys, *argv)
        assert (outcome.code, outcome.err) == (0, "")


@pytest.mark.skipif(
    not os.path.islink("/proc/1/root") or os.access("/proc/1/root", os.R_OK),
    reason="needs a link on the way that cannot be read (/proc/1/root in a container)",
)
def test_a_cache_folder_behind_a_link_that_cannot_be_read_is_passed_over(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Looking where the cache folder leads (is it inside a Git working tree?) read the link, and stopped every
    build with "internal error: PermissionError"."""
    monkeypatch.setenv("XDG_CACHE_HOME", "/proc/1/root/x")
    outcome = run(capsys, "build", "-q")
    assert (outcome.code, outcome.err) == (0, "")


@pytest.mark.parametrize(
    ("xdg", "home"), [("/x/cache", "/x/cache/rulebook"), ("relative", "~/.cache/rulebook"), ("", "~/.cache/rulebook")]
)
def test_the_build_and_the_engine_share_one_cache_folder(monkeypatch: pytest.MonkeyPatch, xdg: str, home: str) -> None:
    """The compiler may not import the engine's modules: the two read the same rule, and find the same folder."""
    from rulebook.engine.schema import cache_folder

    monkeypatch.setenv("XDG_CACHE_HOME", xdg)
    assert state.user_cache() == cache_folder() == Path(home).expanduser()


def test_an_output_inside_the_tools_cache_or_holding_it_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``build -o $XDG_CACHE_HOME/rulebook/new-site`` built a site inside the folder where builds keep their key and
    caches, and ``-o $XDG_CACHE_HOME`` would replace that folder whole: both refused before anything is built,
    through a link to the cache too."""
    cache = game.parent / "home" / "cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    assert run(capsys, "build", "-q").code == 0  # the cache folder made, its key in it
    assert (cache / "rulebook" / state.KEY_FILE).is_file()
    (game.parent / "to-cache").symlink_to(cache / "rulebook")
    said = f"`{cache / 'rulebook'}`, the folder where this tool keeps its own state and caches"
    for output in (cache / "rulebook" / "new-site", cache / "rulebook", game.parent / "to-cache" / "new-site"):
        refused(
            capsys,
            game,
            f"the output `{output}` is inside {said}: choose a folder outside it",
            "-o",
            str(output),
        )
    for output in (cache, cache.parent):
        refused(
            capsys,
            game,
            f"the output `{output}` holds {said}, which a build replacing the whole output would delete: choose "
            "another folder, such as `site`",
            "-o",
            str(output),
        )
    assert not (cache / "rulebook" / "new-site").exists()


def test_a_cache_folder_under_a_folder_open_to_all_however_it_is_named_is_not_trusted(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cache folder two folders under one any user may write into, or named through a link into one and `..`
    after it (`mine/l/../c`: its text leads beside the link, the system beside the link's target), was used: its
    key and records in a folder another user could swap (the thirty-fourth and thirty-sixth probes)."""
    shared, mine = tmp_path / "ww", tmp_path / "mine"
    (shared / "deep").mkdir(parents=True)
    shared.chmod(0o777)
    mine.mkdir()
    (mine / "l").symlink_to(shared / "deep")
    for named in (shared / "a" / "b", mine / "l" / ".." / "c"):
        monkeypatch.setenv("XDG_CACHE_HOME", str(named))
        said = state.home_refusal(tmp_path / "game")
        assert said is not None and f"is in `{shared}`, a folder any user may write into" in said, (named, said)
