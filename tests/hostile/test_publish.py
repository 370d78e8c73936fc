"""Publishing under faults: a killed, stopped or concurrent build leaves a complete site, every book in it,
and nothing of its own behind (no temporary folder, no process)."""

from __future__ import annotations

import errno
import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from rulebook import build_values, publish, recipe
from rulebook.cli import main
from rulebook.data_worker import BackgroundData
from rulebook.project import load_project

from .test_output import snapshot

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving {edition}">
<section title="Marching"><definition name="march">To march is to <reference name="march">move</reference>.</definition></section>
</chapter>
</document>
"""


def make_project(folder: Path, edition: str = "one") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.xml").write_text(BOOK.format(edition=edition), encoding="utf-8")
    (folder / "extra.xml").write_text(BOOK.format(edition=f"extra {edition}"), encoding="utf-8")
    (folder / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[books.extra]\nsources = ["extra.xml"]\n', encoding="utf-8"
    )
    return folder


def edition_of(site: Path) -> tuple[str, str]:
    """Which edition the main book's and the extra book's pages say (the site must hold both)."""
    main_page = (site / "moving" / "index.html").read_text(encoding="utf-8")
    extra_page = (site / "extra" / "moving" / "index.html").read_text(encoding="utf-8")
    pick = lambda page: "two" if "Moving two" in page or "extra two" in page else "one"  # noqa: E731
    return pick(main_page), pick(extra_page)


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def processes_under(folder: Path) -> list[int]:
    """Processes still running whose command line or working folder is in ``folder``."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit() or int(entry.name) == os.getpid():
            continue
        try:
            cwd = os.readlink(entry / "cwd")
            state = (entry / "stat").read_text().split()[2]
        except OSError:
            continue
        if cwd.startswith(str(folder)) and state != "Z":
            found.append(int(entry.name))
    return found


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project with a published site of edition one, and edition two in its sources."""
    make_project(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["build", "-q"]) == 0
    make_project(tmp_path, "two")
    return tmp_path


def test_a_failing_swap_keeps_the_old_site(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(a: Path, b: Path) -> bool:
        raise OSError(5, "Input/output error", str(b))

    monkeypatch.setattr(publish, "_exchange", broken)
    assert main(["build", "-q"]) == 2
    assert edition_of(built / "site") == ("one", "one")
    assert leftovers(built) == []


def test_an_old_site_that_cannot_be_deleted_is_said_as_such_and_never_stops_builds_for_ever(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A file of the old site made immutable (`chattr +i`) or another user's: the new site was published, then the
    build said "cannot write the site into `site`: operation not permitted (`index.html`)", and so did every build
    after, until the user found the file. Said as it is, the work folder named, and the next build works once it is
    deleted."""
    from rulebook import state

    real = state._remove_entry

    def undeletable(fd: int, name: str, path: Path) -> None:
        if path == built / ".site.rulebook" / "site":  # the old site, stepped aside
            raise PermissionError(errno.EPERM, "Operation not permitted", "index.html")
        real(fd, name, path)

    monkeypatch.setattr(state, "_remove_entry", undeletable)
    assert main(["build", "-q"]) == 2
    work = built / ".site.rulebook"
    assert capsys.readouterr().err == (
        f"rulebook: error: the new site is published in `{built / 'site'}`, but the site it replaced could not be "
        f"deleted: operation not permitted (`index.html`); delete `{work / 'site'}` (the old site's files), and the "
        "next build works again\n"
    )
    assert edition_of(built / "site") == ("two", "two")
    assert main(["build", "-q"]) == 2
    assert capsys.readouterr().err == (
        f"rulebook: error: the work folder `{work}` could not be deleted: operation not permitted (`index.html`, in "
        "it); delete it, then build again\n"
    )
    monkeypatch.setattr(state, "_remove_entry", real)
    state.remove(work)
    assert main(["build", "-q"]) == 0
    assert leftovers(built) == []


def test_without_an_atomic_exchange_two_renames_do(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(publish, "_exchange", lambda a, b: False)
    assert main(["build", "-q"]) == 0
    assert edition_of(built / "site") == ("two", "two")
    assert leftovers(built) == []


def test_a_build_interrupted_between_two_renames_is_put_right_by_the_next(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(publish, "_exchange", lambda a, b: False)
    real_rename = os.rename
    calls = []

    def interrupted(a: object, b: object, **where: int) -> None:
        calls.append((a, b))
        if len(calls) == 2:
            raise KeyboardInterrupt  # killed after the old site moved aside, before the new one moved in
        real_rename(a, b, **where)  # type: ignore[arg-type]

    project = load_project()
    options = build_values.BuildOptions(output=project.site_folder, books=("main",))
    monkeypatch.setattr(os, "rename", interrupted)
    with pytest.raises(KeyboardInterrupt):
        recipe.build(project, options)
    monkeypatch.setattr(os, "rename", real_rename)
    # The release put the old site back as it unwound.
    assert edition_of(built / "site") == ("one", "one")
    assert leftovers(built) == []


KILLED_BETWEEN_RENAMES = """
import os, signal, sys
from rulebook import publish
from rulebook.cli import main
publish._exchange = lambda a, b: False
real_rename, calls = os.rename, []
def rename(a, b, **where):
    calls.append(a)
    if len(calls) == 2:  # the old site moved aside, the new one not yet in its place
        os.kill(os.getpid(), signal.SIGKILL)
    real_rename(a, b, **where)
os.rename = rename
sys.exit(main(["build", "-q"]))
"""


def killed_between_renames(folder: Path) -> None:
    """A build killed (SIGKILL) just after its first rename of the two: the old site is in its work folder."""
    process = subprocess.run([sys.executable, "-c", KILLED_BETWEEN_RENAMES], cwd=folder, check=False)
    assert process.returncode == -signal.SIGKILL
    assert not (folder / "site").exists()
    assert (folder / ".site.rulebook" / "previous" / ".rulebook-site").is_file()


@pytest.mark.slow
def test_a_build_killed_between_two_renames_is_put_right_by_the_next(built: Path) -> None:
    killed_between_renames(built)
    assert leftovers(built) == [".site.lock", ".site.rulebook"]
    with publish.release(built / "site", root=built):  # where the next build starts: the old site comes back
        assert edition_of(built / "site") == ("one", "one")
    assert leftovers(built) == []
    assert main(["build", "-q"]) == 0
    assert edition_of(built / "site") == ("two", "two")
    assert leftovers(built) == []


MOUNT_POINT = (
    "rulebook: error: the output `site` is a mount point: a new site cannot take its place in one step there "
    "(readers, or a build stopped half-way, would see old and new pages mixed), and the build's own files would "
    "be published in it; build into a folder inside it, such as `site/www`, and serve that folder\n"
)


def test_a_mount_point_output_is_refused_and_kept(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    site = built / "site"
    before = snapshot(built)
    monkeypatch.setattr(os.path, "ismount", lambda path: Path(path) == site)
    capsys.readouterr()
    assert main(["build", "-q"]) == 2
    assert capsys.readouterr().err == MOUNT_POINT
    assert snapshot(built) == before  # the old site whole, and nothing of the build's own in it or beside it


def test_a_mount_point_the_system_reports_only_when_renaming_is_refused_and_kept(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bind mount of a folder of the same disk looks like a folder until it will not be renamed (EBUSY)."""

    def busy(a: Path, b: Path) -> bool:
        raise OSError(errno.EBUSY, "Device or resource busy", str(b))

    before = snapshot(built)
    monkeypatch.setattr(publish, "_exchange", busy)
    capsys.readouterr()
    assert main(["build", "-q"]) == 2
    assert capsys.readouterr().err == MOUNT_POINT
    assert snapshot(built) == before


def within(seconds: float, condition: Callable[[], bool]) -> bool:
    """Whether ``condition()`` holds before ``seconds`` have passed (asked every few milliseconds)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def waiting_for_lock(pid: int, lock: Path) -> bool:
    """Whether process ``pid`` is blocked on ``lock`` in ``flock`` (the kernel lists it in /proc/locks, "->")."""
    if not lock.exists():
        return False
    inode = lock.stat().st_ino
    for line in Path("/proc/locks").read_text(encoding="utf-8").splitlines():
        fields = line.split()
        if fields[1] == "->" and int(fields[5]) == pid and int(fields[6].rpartition(":")[2]) == inode:
            return True
    return False


def _build_process(folder: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "rulebook", "build", "-q"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


@pytest.mark.slow
def test_a_build_killed_at_any_moment_leaves_a_complete_site(built: Path) -> None:
    """SIGKILL at many points of a build: the site is always the old or the new one, both books in it."""
    random.seed(7)
    start = time.perf_counter()
    whole = _build_process(built)
    whole.wait(timeout=120)
    duration = time.perf_counter() - start
    make_project(built, "one")
    assert main(["build", "-q"]) == 0
    seen = set()
    for attempt in range(12):
        make_project(built, "two" if attempt % 2 == 0 else "one")
        process = _build_process(built)
        time.sleep(random.uniform(0.05, duration * 1.1))
        process.send_signal(signal.SIGKILL)
        process.wait(timeout=30)
        editions = edition_of(built / "site")
        assert editions[0] == editions[1], "one book of one edition, the other of another"
        seen.add(editions[0])
        assert (built / "site" / ".rulebook-site").is_file()
        # The kernel kills the worker as its build dies; under load, it may take a while to go.
        assert within(60, lambda: processes_under(built) == []), (
            f"a worker outlived its build: {processes_under(built)}"
        )
    # The next build removes what a killed one left.
    assert main(["build", "-q"]) == 0
    assert leftovers(built) == []


def test_a_worker_whose_build_is_gone_before_it_asks_to_die_with_it_stops(monkeypatch: pytest.MonkeyPatch) -> None:
    """The kernel kills the worker with its build only once the worker has asked; a build killed before that
    leaves its worker to another parent: the worker sees it and stops, rather than work on for nobody."""
    with BackgroundData(lambda: "made", what="the work") as work:
        assert work.files() == "made"
    monkeypatch.setattr(os, "getppid", lambda: 1)  # the forked worker's view: its build is gone
    stopped = pytest.raises(RuntimeError, match=r"^the work stopped \(exit status 1\)$")
    with BackgroundData(lambda: "made", what="the work") as work, stopped:
        work.files()


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stop_that_comes_as_the_worker_is_forked_stops_the_worker(monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM sent once the worker was forked but before its start returned (Python raises the stop where it
    comes) is kept by the command's handler until the worker is known, and the worker goes with the build."""
    import multiprocessing.process

    from rulebook.cli import Stopped, _stop

    start = multiprocessing.process.BaseProcess.start

    def started_then_signalled(process: multiprocessing.process.BaseProcess) -> None:
        start(process)
        started.append(process.pid)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)  # the handler would run here

    started: list[int | None] = []
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", started_then_signalled)
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        with pytest.raises(Stopped), BackgroundData(lambda: time.sleep(60), what="the work"):
            pass
    finally:
        signal.signal(signal.SIGTERM, previous)
    assert started and started[0] is not None
    assert not (Path("/proc") / str(started[0])).exists()


@pytest.mark.slow
def test_a_stopped_build_cleans_up(built: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "rulebook", "build"], cwd=built, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
    )
    assert process.stderr is not None
    while b"Building the site with MkDocs" not in process.stderr.readline():
        assert process.poll() is None
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 143, err
    assert b"rulebook: stopped" in err
    assert leftovers(built) == []
    assert edition_of(built / "site") == ("one", "one")
    assert processes_under(built) == []


@pytest.mark.slow
def test_two_builds_at_once_both_succeed_one_after_the_other(built: Path) -> None:
    first, second = _build_process(built), _build_process(built)
    for build in (first, second):
        _, err = build.communicate(timeout=120)
        assert build.returncode == 0, err.decode()
    assert edition_of(built / "site") == ("two", "two")
    assert leftovers(built) == []


@pytest.mark.slow
def test_a_second_build_says_whose_lock_it_waits_for(built: Path) -> None:
    lock = built / ".site.lock"
    with open(lock, "w", encoding="utf-8") as held:
        import fcntl

        fcntl.flock(held, fcntl.LOCK_EX)
        held.write("rulebook build (process 4242)\n")
        held.flush()
        process = subprocess.Popen(
            [sys.executable, "-m", "rulebook", "build"], cwd=built, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        blocked = within(120, lambda: waiting_for_lock(process.pid, lock) or process.poll() is not None)
        assert blocked and process.poll() is None, "the second build did not wait for the lock"
        assert edition_of(built / "site") == ("one", "one")  # nothing published while the lock is held
        fcntl.flock(held, fcntl.LOCK_UN)
    lock.unlink()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0
    assert b"waiting for rulebook build (process 4242) to finish" in err
