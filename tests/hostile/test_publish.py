"""Publishing under faults: a killed, stopped or concurrent build leaves a complete site, every book in it,
and nothing of its own behind (no temporary folder, no process)."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from compiler import build_values, publish, recipe
from compiler.cli import main
from compiler.project import load_project

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

    def interrupted(a: object, b: object) -> None:
        calls.append((a, b))
        if len(calls) == 2:
            raise KeyboardInterrupt  # killed after the old site moved aside, before the new one moved in
        real_rename(a, b)  # type: ignore[arg-type]

    project = load_project()
    options = build_values.BuildOptions(output=project.site_folder, books=("main",))
    monkeypatch.setattr(os, "rename", interrupted)
    with pytest.raises(KeyboardInterrupt):
        recipe.build(project, options)
    monkeypatch.setattr(os, "rename", real_rename)
    # The release put the old site back as it unwound.
    assert edition_of(built / "site") == ("one", "one")
    assert leftovers(built) == []


def test_a_build_killed_between_two_renames_is_put_right_by_the_next(built: Path) -> None:
    """As a SIGKILL would leave it: the old site moved aside into the work folder, no site in place."""
    work = built / ".site.rulebook"
    work.mkdir()
    (work / ".rulebook-work").write_text("", encoding="utf-8")
    os.rename(built / "site", work / "previous")
    publish.recover(built / "site", work)
    assert edition_of(built / "site") == ("one", "one")
    assert leftovers(built) == []


def test_a_mount_point_output_has_its_entries_exchanged(built: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = built / "site"
    inode = site.stat().st_ino
    monkeypatch.setattr(os.path, "ismount", lambda path: Path(path) == site)
    (site / "stale.html").write_text("from an older build", encoding="utf-8")
    assert main(["build", "-q"]) == 0
    assert site.stat().st_ino == inode  # the mount point itself stays
    assert edition_of(site) == ("two", "two")
    assert not (site / "stale.html").exists()
    assert leftovers(site) == [".rulebook-site"]
    assert leftovers(built) == []


def _build_process(folder: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "compiler", "build", "-q"],
        cwd=folder,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )


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
        time.sleep(0.2)
        editions = edition_of(built / "site")
        assert editions[0] == editions[1], "one book of one edition, the other of another"
        seen.add(editions[0])
        assert (built / "site" / ".rulebook-site").is_file()
        assert processes_under(built) == [], "a worker outlived its build"
    # The next build removes what a killed one left.
    assert main(["build", "-q"]) == 0
    assert leftovers(built) == []


def test_a_stopped_build_cleans_up(built: Path) -> None:
    process = subprocess.Popen(
        [sys.executable, "-m", "compiler", "build"], cwd=built, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
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


def test_two_builds_at_once_both_succeed_one_after_the_other(built: Path) -> None:
    first, second = _build_process(built), _build_process(built)
    assert first.wait(timeout=120) == 0
    assert second.wait(timeout=120) == 0
    assert edition_of(built / "site") == ("two", "two")
    assert leftovers(built) == []


def test_a_second_build_says_whose_lock_it_waits_for(built: Path) -> None:
    lock = built / ".site.lock"
    with open(lock, "w", encoding="utf-8") as held:
        import fcntl

        fcntl.flock(held, fcntl.LOCK_EX)
        held.write("rulebook build (process 4242)\n")
        held.flush()
        process = subprocess.Popen(
            [sys.executable, "-m", "compiler", "build"], cwd=built, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
        )
        time.sleep(2.5)
        assert process.poll() is None, "the second build did not wait"
        fcntl.flock(held, fcntl.LOCK_UN)
    lock.unlink()
    _, err = process.communicate(timeout=120)
    assert process.returncode == 0
    assert b"waiting for rulebook build (process 4242) to finish" in err
