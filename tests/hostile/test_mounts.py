"""A file system mounted inside the built site: the build deletes only what it wrote, and never crosses into it.

A download folder bound into the published site (``mount --bind DATA site/dl``), or a tmpfs there, was emptied
by the next build: the old site was swapped into the work folder and removed entry by entry, down through the
mount, and the build stopped with the mount left in its work folder, blocking every later build.

Each case mounts a folder holding someone's data inside a built site. As root, where ``mount`` is permitted
(this machine), the mounts are real; where it is not (a CI container without ``CAP_SYS_ADMIN``), the mount table
the compiler reads is simulated: the data folder stays where it is, and :func:`rulebook.state._mounts` lists
every place that is that very folder (what the kernel's table says of a bind mount, wherever it was moved).
"""

from __future__ import annotations

import contextlib
import errno
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook import publish, state
from rulebook.cli import main

from .test_output import snapshot
from .test_publish import make_project

DATA = {"data.txt": "precious\n", "inner/more.txt": "more\n"}


@pytest.fixture
def built(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A project with a published site, and beside it ``keep/``: someone's data, to be mounted inside the site."""
    project = make_project(tmp_path / "project")
    monkeypatch.chdir(project)
    assert main(["build", "-q", "--no-pdf"]) == 0
    for name, text in DATA.items():
        (tmp_path / "keep" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "keep" / name).write_text(text, encoding="utf-8")
    capsys.readouterr()
    return project


@contextlib.contextmanager
def mounted(source: Path, at: Path, monkeypatch: pytest.MonkeyPatch, kind: str = "bind") -> Iterator[bool]:
    """``source`` mounted at ``at`` (a bind mount, or ``kind="tmpfs"``: a tmpfs holding a copy of it); True when
    the mount is real. Every mount made under the test's folder is undone at the end, wherever it was moved."""
    at.mkdir(exist_ok=True)
    command = ["mount", "--bind", str(source), str(at)] if kind == "bind" else ["mount", "-t", "tmpfs", "x", str(at)]
    real = (
        os.geteuid() == 0
        and shutil.which("mount") is not None
        and subprocess.run(command, capture_output=True, check=False).returncode == 0
    )
    if not real:  # not permitted here: the data folder itself is what is mounted, the table says so
        if kind != "bind":
            pytest.skip("mounting a tmpfs is not permitted here")
        at.rmdir()
        source.rename(at)
        identity = os.stat(at)
        monkeypatch.setattr(state, "_mounts", lambda folder, *, itself: _same_as(folder, identity, itself))
    elif kind != "bind":
        for name, text in DATA.items():
            (at / name).parent.mkdir(parents=True, exist_ok=True)
            (at / name).write_text(text, encoding="utf-8")
    top = os.path.realpath(at.parent.parent)
    try:
        yield real
    finally:
        if real:  # read here, not by the compiler: a test of a compiler without the fix leaves none behind either
            with open("/proc/self/mountinfo", encoding="utf-8") as table:
                places = [line.split(" ")[4] for line in table]
            for place in sorted((p for p in places if p.startswith(top + "/")), reverse=True):
                subprocess.run(["umount", "-l", place], check=False)


def _same_as(folder: Path, identity: os.stat_result, itself: bool) -> list[Path]:
    found = []
    for place, folders, _files in os.walk(folder):
        for name in ([""] if itself and place == str(folder) else []) + folders:
            status = os.stat(Path(place, name), follow_symlinks=False)
            if (status.st_dev, status.st_ino) == (identity.st_dev, identity.st_ino):
                found.append(Path(place, name) if name else Path(place))
    return sorted(found)


def data_in(folder: Path) -> dict[str, str]:
    return {name: (folder / name).read_text(encoding="utf-8") for name in DATA if (folder / name).is_file()}


def refusal(output: str, mount: str) -> str:
    return (
        f"rulebook: error: the output `{output}` holds `{mount}`, a mount point (another file system, or a folder "
        "mounted there): a build replaces its output and never deletes what another file system holds; unmount it "
        f"(`umount {mount}`), or build into another folder and mount it elsewhere\n"
    )


@pytest.mark.parametrize(
    "argv", [(), ("--book", "extra"), ("--data-only",), ("--pdf-only",)], ids=["whole", "book", "data", "pdf"]
)
def test_a_folder_mounted_inside_the_site_is_refused_before_anything_changes(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """Every mode that touches an existing output refuses it up front, naming the mount point and what to do; the
    project, the site and the mounted data stay as they were."""
    with mounted(built.parent / "keep", built / "site" / "dl", monkeypatch):
        before = snapshot(built.parent)
        assert (
            main(["build", "-q", *(argv if argv[:1] in (("--data-only",), ("--pdf-only",)) else ("--no-pdf", *argv))])
            == 2
        )
        assert capsys.readouterr().err == refusal("site", "site/dl")
        assert snapshot(built.parent) == before
        assert data_in(built / "site" / "dl") == DATA


def test_a_mount_made_while_the_build_ran_is_never_emptied(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Past the check (a mount made during the build), the old site's removal stops at the mount: the data stays,
    the build says where it is and what to do, and once it is unmounted the next build puts everything right."""
    with mounted(built.parent / "keep", built / "site" / "dl", monkeypatch) as real:
        checks = iter([None])  # the first check, at the start, saw nothing; the later ones see it
        monkeypatch.setattr(publish, "_check_mounts", lambda output, root: next(checks, None))
        assert main(["build", "-q", "--no-pdf"]) == 2
        moved = built / ".site.rulebook" / "site" / "dl"
        assert capsys.readouterr().err == (
            f"rulebook: error: cannot write the site into `{built / 'site'}`: `{moved}` is a mount point (another file "
            "system, or a folder mounted there), and the build never deletes what another file system holds; "
            f"unmount it (`umount {moved}`), then build again\n"
        )
        assert data_in(moved) == DATA
        assert main(["build", "-q", "--no-pdf"]) == 2  # the work folder holds it: refused again, still kept
        assert data_in(moved) == DATA
        if real:
            subprocess.run(["umount", str(moved)], check=True)
        else:
            monkeypatch.setattr(state, "_mounts", lambda folder, *, itself: [])
            moved.rename(built.parent / "keep")
        assert main(["build", "-q", "--no-pdf"]) == 0
    assert sorted(p.name for p in built.iterdir() if p.name.startswith(".site")) == []
    assert data_in(built.parent / "keep") == DATA


def test_a_removal_stops_at_a_mount_point_and_at_the_folder_that_is_one(
    built: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The one helper every recursive delete of the compiler goes through: a mount point inside, or the folder
    itself, stops it with EBUSY before anything is deleted."""
    site = built / "site"
    with mounted(built.parent / "keep", site / "dl", monkeypatch):
        before = snapshot(built.parent)
        for doomed, where in ((site, site / "dl"), (site / "dl", site / "dl")):
            with pytest.raises(OSError, match="a file system is mounted there") as raised:
                state.remove(doomed)
            assert (raised.value.errno, raised.value.strerror, raised.value.filename) == (
                errno.EBUSY,
                state.MOUNTED,
                str(where),
            )
            assert snapshot(built.parent) == before


def test_a_tmpfs_inside_the_site_is_found_by_its_device_alone(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Where the system lists no mounts (not Linux), a folder on another device is a mount point: the check and
    the removal both stop at it."""
    with mounted(built.parent / "keep", built / "site" / "dl", monkeypatch, kind="tmpfs"):
        monkeypatch.setattr(state, "MOUNT_TABLE", str(built.parent / "no-mount-table"))
        assert state.mounts_inside(built / "site") == [built / "site" / "dl"]
        assert main(["build", "-q", "--no-pdf"]) == 2
        assert capsys.readouterr().err == refusal("site", "site/dl")
        with pytest.raises(OSError, match="a file system is mounted there"):
            state.remove(built / "site")
        assert data_in(built / "site" / "dl") == DATA


def test_the_mount_table_is_read_as_the_kernel_writes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A space, a tab, a newline or a backslash in a mount point is written in octal (``\\040``)."""
    top = Path(os.path.realpath(tmp_path))
    escaped = str(top).replace(" ", "\\040").encode()
    table = tmp_path / "mountinfo"
    table.write_bytes(
        b"1 0 8:1 / / rw - ext4 /dev/sda rw\n"
        + b"2 1 8:1 /x "
        + escaped
        + b"/site/my\\040files rw - ext4 /dev/sda rw\n"
        + b"3 1 8:1 /x "
        + escaped
        + b"/elsewhere rw - ext4 /dev/sda rw\n"
    )
    monkeypatch.setattr(state, "MOUNT_TABLE", str(table))
    assert state.mounts_inside(tmp_path / "site") == [tmp_path / "site" / "my files"]
    assert state.mounts_inside(tmp_path / "site" / "my files") == []


def test_an_output_that_is_a_bind_mount_is_refused_up_front(
    built: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A bind mount of a folder of the same disk has the same device as its parent (``os.path.ismount`` does not
    see it): it was met only at the swap. The mount table names it before anything is built."""
    with mounted(built.parent / "keep", built / "out", monkeypatch):
        (built / "out" / ".rulebook-site").write_text("", encoding="utf-8")
        before = snapshot(built.parent)
        monkeypatch.setattr(publish, "_exchange", lambda a, b: pytest.fail("the swap was tried"))
        assert main(["build", "-q", "--no-pdf", "-o", "out"]) == 2
        assert capsys.readouterr().err.startswith("rulebook: error: the output `out` is a mount point: ")
        assert snapshot(built.parent) == before
