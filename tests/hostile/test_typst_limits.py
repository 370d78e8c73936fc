"""Typst works in a process of its own, bounded in memory and time, which never outlives the build.

What a picture costs Typst cannot be told from the picture: svg2pdf rasterises a filtered group at its bounding box,
so one blurred rectangle 200,000 wide took Typst 12 s and 410 MB, five 60 s, and a hundred (10 KB) would take
twenty minutes; a marker bomb made it pass 6 GB, and Typst, failing to allocate, aborted the whole build (exit 134,
no message). The limits here are made small (the configuration's, or the shipped ones patched) so that each case is
quick: what is asserted is the outcome a user sees, never a time.
"""

from __future__ import annotations

import os
import signal
import struct
import subprocess
import sys
import threading
import time
import zlib
from pathlib import Path
from typing import Any

import pytest

from rulebook.cli import main
from rulebook.pdf import typst_run
from tests.pdf_reading import page_texts, reader

BLURRED = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
    '<filter id="b"><feGaussianBlur stdDeviation="5"/></filter>'
    + '<rect width="200000" height="200000" filter="url(#b)"/>' * 5
    + "</svg>"
).encode()
"""Five blurred rectangles 200,000 wide (the filter's region the default): a minute of Typst's time."""
FINE = b'<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><rect width="5" height="5"/></svg>'
HOG = "#let all = range(200000000)\n#all.len()\n"
"""A template asking Typst for billions of bytes (Typst aborts when it cannot have them)."""
BUSY = "#let n = 0\n#for i in range(2000000000) { n += 1 }\n#n\n"
"""A template keeping Typst busy for minutes."""


def _project(folder: Path, config: str = "", template: str | None = None, *, blurred: bool = True) -> Path:
    """A one-section XML book showing ``blurred.svg`` (:data:`BLURRED`, or when not ``blurred`` a fine picture too)
    and ``fine.svg``, its configuration (plus ``config``) and maybe its own template."""
    (folder / "rules" / "images").mkdir(parents=True)
    (folder / "rules" / "book.xml").write_text(
        '<document><chapter id="c" title="Moving"><section id="s" title="Marching">'
        '<definition name="march">To <reference name="march">march</reference> is to walk.</definition>'
        '<figure id="f1"><image source="blurred.svg"/><caption>Blurred</caption></figure>'
        '<figure id="f2"><image source="fine.svg"/><caption>Fine</caption></figure>'
        "</section></chapter></document>",
        encoding="utf-8",
    )
    (folder / "rules" / "images" / "blurred.svg").write_bytes(BLURRED if blurred else FINE)
    (folder / "rules" / "images" / "fine.svg").write_bytes(FINE)
    (folder / "rulebook.toml").write_text(f'title = "Marches"\nsources = ["rules/book.xml"]\n{config}', "utf-8")
    if template is not None:
        (folder / "site_templates").mkdir()
        (folder / "site_templates" / "print.typ").write_text(template, encoding="utf-8")
    return folder


def _build(folder: Path, *options: str) -> int:
    here = Path.cwd()
    os.chdir(folder)
    try:
        return main(["build", "-q", "--output", str(folder / "site"), *options])
    finally:
        os.chdir(here)


def test_a_picture_typst_cannot_read_in_its_time_is_left_out_of_the_pdf_and_drawn_for_the_site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The picture's limit is the configuration's (``picture_time_limit``), and the warning names that key. The site
    publishes the picture drawn into a PNG of its own size, which Typst does quickly (it draws only what is seen)."""
    folder = _project(tmp_path / "blurred", "[pdf]\npicture_time_limit = 3\n")
    assert _build(folder) == 0
    err = capsys.readouterr().err
    assert (
        "rulebook: typst: images/blurred.svg: Typst could not read this picture within 3 s (raise it with "
        "`picture_time_limit = ...` in seconds in the configuration's [pdf] table); the PDF shows its place" in err
    )
    assert "fine.svg" not in err and "the site shows its place" not in err
    text = " ".join(" ".join(page_texts(reader(folder / "site" / "marches.pdf"))).split())
    assert text.count("Picture not available") == 1
    assert sorted(path.name for path in (folder / "site" / "images").iterdir()) == ["blurred.svg.png", "fine.svg.png"]


LARGE = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="4000" height="4000">'
    b'<filter id="b"><feGaussianBlur stdDeviation="20"/></filter>'
    b'<rect width="4000" height="4000" fill="#8ac" filter="url(#b)"/><text x="100" y="200" font-size="80">Large</text>'
    b"</svg>"
)
"""A blurred picture of 4,000 x 4,000 CSS pixels, drawn into 8,000 x 8,000: about 5 s of Typst's time, 1 GB."""


def test_a_picture_typst_cannot_draw_in_its_time_is_a_box_on_the_site_and_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The site draws each SVG within the picture's limits (the PDF's), also when no PDF is made: one it cannot
    draw in them is not published, its place on the page is the box of a missing picture, and the build says why."""
    folder = _project(tmp_path / "large", "[pdf]\npicture_time_limit = 1\n")
    (folder / "rules" / "images" / "blurred.svg").write_bytes(LARGE)
    assert _build(folder, "--no-pdf") == 0
    err = capsys.readouterr().err
    assert (
        "rulebook: typst: images/blurred.svg: Typst could not read this picture within 1 s (raise it with "
        "`picture_time_limit = ...` in seconds in the configuration's [pdf] table); the site shows its place" in err
    )
    assert "fine.svg" not in err
    assert sorted(path.name for path in (folder / "site" / "images").iterdir()) == ["fine.svg.png"]
    page = (folder / "site" / "c" / "index.html").read_text(encoding="utf-8")
    assert page.count("Picture not available") == 1 and page.count('src="../images/fine.svg.png"') == 1


def test_a_picture_past_its_memory_is_left_out_and_the_rest_are_read_on(tmp_path: Path) -> None:
    """Typst aborts when it cannot have the memory: the picture it was reading is named, and a new process reads
    the pictures after it."""
    limits = typst_run.Limits(picture_memory=350 * typst_run.MB)
    pictures = {"a-blurred.svg": BLURRED, "b-fine.svg": FINE, "c-blurred.svg": BLURRED, "d-fine.svg": FINE}
    kept, refused = typst_run.readable_pictures(pictures, tmp_path / "check", limits)
    assert list(kept) == ["b-fine.svg", "d-fine.svg"]
    assert refused == tuple(
        f"images/{name}: Typst could not read this picture: it needed more than 350 MB of memory, the most Typst "
        "may take (raise it with `picture_memory_limit = ...` in MB in the configuration's [pdf] table); the PDF "
        "shows its place"
        for name in ("a-blurred.svg", "c-blurred.svg")
    )


def _png(side: int, red: int) -> bytes:
    """A PNG of ``side`` x ``side`` pixels of one colour (``red``: its red, so that each is a picture of its own)."""
    rows = (b"\x00" + bytes([red, 30, 200, 255]) * side) * side

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", side, side, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 1)) + chunk(b"IEND", b"")


def test_pictures_each_within_the_memory_are_all_read_though_typst_keeps_what_it_decoded(tmp_path: Path) -> None:
    """Typst keeps every picture it decoded: read one after the other, three of 4,000 x 4,000 pixels pass 330 MB
    together (the third was refused), each alone within it; a process that fails after others reads it again."""
    limits = typst_run.Limits(picture_memory=330 * typst_run.MB)
    pictures = {f"p{index}.png": _png(4_000, index) for index in range(3)}
    kept, refused = typst_run.readable_pictures(pictures, tmp_path / "check", limits)
    assert (list(kept), refused) == (list(pictures), ())


def test_pictures_not_read_in_an_editions_time_are_left_out(tmp_path: Path) -> None:
    """Each picture has its time, and all of them together an edition's: past it, the rest are not read."""
    limits = typst_run.Limits(seconds=2, picture_seconds=60)
    pictures = {"a-blurred.svg": BLURRED, "b-fine.svg": FINE}
    kept, refused = typst_run.readable_pictures(pictures, tmp_path / "check", limits)
    assert kept == {}
    said = (
        "not read: Typst may take 2 s to read all the pictures, and took them before (raise it with `time_limit = "
        "...` in seconds in the configuration's [pdf] table, or make the slow pictures simpler: the warnings before "
        "this one name them); the PDF shows its place"
    )
    assert refused == (f"images/a-blurred.svg: {said}", f"images/b-fine.svg: {said}")


def test_an_edition_past_its_memory_is_a_plain_error_and_the_last_good_site_is_kept(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = _project(tmp_path / "hog", blurred=False)
    assert _build(folder) == 0
    published = {path: path.read_bytes() for path in (folder / "site").rglob("*") if path.is_file()}
    (folder / "rulebook.toml").write_text(
        (folder / "rulebook.toml").read_text("utf-8") + "[pdf]\nmemory_limit = 400\n", "utf-8"
    )
    (folder / "site_templates").mkdir()
    (folder / "site_templates" / "print.typ").write_text(HOG, encoding="utf-8")
    capsys.readouterr()
    assert _build(folder) == 2
    err = capsys.readouterr().err
    assert (
        "rulebook: error: Typst could not make the PDF of `marches.pdf`: it needed more than 400 MB of memory, the "
        "most Typst may take (raise it with `memory_limit = ...` in MB in the configuration's [pdf] table)\n"
    ) in err
    assert "Traceback" not in err and "internal error" not in err
    assert {path: path.read_bytes() for path in (folder / "site").rglob("*") if path.is_file()} == published


def test_an_edition_past_its_time_is_a_plain_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _project(tmp_path / "busy", "[pdf]\ntime_limit = 2\n", template=BUSY, blurred=False)
    assert _build(folder, "--pdf-only") == 2
    err = capsys.readouterr().err
    assert (
        "rulebook: error: Typst did not finish the PDF of `marches.pdf` within 2 s, the time an edition may take "
        "(raise it with `time_limit = ...` in seconds in the configuration's [pdf] table)\n"
    ) in err
    assert not (folder / "site" / "marches.pdf").exists()


def test_a_committed_package_named_like_the_compiler_is_never_run_for_typst(tmp_path: Path) -> None:
    """Typst's process was started as ``python -m rulebook.pdf.typst_child`` in the working folder, which Python puts
    first on the import path: a project's committed ``rulebook/__init__.py`` and ``rulebook/pdf/typst_child.py`` ran
    in its place (the build then said Typst "stopped (exit status 0)")."""
    folder = _project(tmp_path / "shadowed", blurred=False)
    ran = tmp_path / "ran"
    (folder / "rulebook" / "pdf").mkdir(parents=True)
    for module in ("__init__.py", "pdf/__init__.py", "pdf/typst_child.py"):
        (folder / "rulebook" / module).write_text(f"open({str(ran)!r}, 'a').write({module!r})\n", encoding="utf-8")
    assert _build(folder, "--pdf-only") == 0
    assert not ran.exists()
    assert (folder / "site" / "marches.pdf").read_bytes().startswith(b"%PDF")


@pytest.mark.parametrize("value", ["255", "'big'", "true", "1.5"])
def test_a_limit_that_is_not_a_number_in_range_is_a_plain_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], value: str
) -> None:
    folder = _project(tmp_path / "bad", f"[pdf]\nmemory_limit = {value}\n")
    assert _build(folder, "--pdf-only") == 2
    err = capsys.readouterr().err
    assert "`memory_limit` in [pdf] must be a whole number from 256 to 1,000,000, not " in err


def _typst_children(parent: int) -> list[int]:
    """The Typst processes ``parent`` started."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            status = (entry / "status").read_text()
            command = (entry / "cmdline").read_bytes()
        except OSError:
            continue
        if f"\nPPid:\t{parent}\n" in status and b"rulebook.pdf.typst_child" in command:
            found.append(int(entry.name))
    return found


def _gone(pid: int, seconds: float = 10) -> bool:
    """Whether process ``pid`` has ended (or is a zombie no one waited for yet) within ``seconds``."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        try:
            state = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.05)
    return False


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("stopped_by", [signal.SIGTERM, signal.SIGINT, signal.SIGKILL])
@pytest.mark.parametrize("reading", ["pictures", "pdf-0"])
def test_typst_never_outlives_a_build_that_is_stopped(tmp_path: Path, stopped_by: signal.Signals, reading: str) -> None:
    """SIGTERM and Ctrl+C stop the build, which kills Typst's process first; SIGKILL leaves the kernel to. Typst is
    stopped reading the pictures (the build waiting in its own thread) and making the edition (in another)."""
    folder = _project(tmp_path / "busy", template=BUSY, blurred=reading == "pictures")
    build = subprocess.Popen(
        [sys.executable, "-m", "rulebook", "build", "-q", "--pdf-only"],
        cwd=folder,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_as_a_terminal_starts_it,
    )
    try:
        children = _started(build, folder, reading)
        build.send_signal(stopped_by)
        _, err = build.communicate(timeout=60)
    finally:
        if build.poll() is None:
            build.kill()
            build.wait()
    assert build.returncode == {signal.SIGTERM: 143, signal.SIGINT: 130, signal.SIGKILL: -9}[stopped_by], err
    assert b"Traceback" not in err
    assert all(_gone(child) for child in children), children


def _as_a_terminal_starts_it() -> None:
    """Ctrl+C as a terminal delivers it: a command a shell starts in the background (a CI's `nohup ... &`) inherits
    SIGINT ignored, and the build, rightly, keeps that (it then ran on to Typst's memory limit)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _started(build: subprocess.Popen[bytes], folder: Path, reading: str) -> list[int]:
    """The Typst processes of ``build`` once one is at work in the scratch folder ``reading`` (``pictures``, or
    ``pdf-0``: the edition's)."""
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and build.poll() is None:
        children = _typst_children(build.pid)
        if children and any(folder.rglob(f"{reading}/typst.log")):
            return children
        time.sleep(0.1)
    raise AssertionError(f"no Typst process at work on {reading}: {build.communicate()}")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize(
    ("reading", "options"), [("pictures", ["--pdf-only"]), ("pdf-0", ["--pdf-only"]), ("pdf-0", [])]
)
def test_a_build_stopped_in_this_process_kills_typst_before_it_returns(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], reading: str, options: list[str]
) -> None:
    """The kernel stops Typst when the build's process dies; a build that unwinds in a process that lives on (a
    test, an editor's plugin) kills it itself, on every path: stopped while it reads the pictures, while it waits
    for the PDF, or while it builds the site beside Typst."""
    folder = _project(tmp_path / "busy", template=BUSY, blurred=reading == "pictures")
    seen: list[int] = []

    def stop_when_typst_works() -> None:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            children = _typst_children(os.getpid())
            if children and any(folder.rglob(f"{reading}/typst.log")):
                seen.extend(children)
                os.kill(os.getpid(), signal.SIGTERM)
                return
            time.sleep(0.1)

    stopper = threading.Thread(target=stop_when_typst_works)
    stopper.start()
    try:
        assert _build(folder, *options) == 143
    finally:
        stopper.join()
    assert seen
    assert _typst_children(os.getpid()) == []
    assert all(not (Path("/proc") / str(child)).exists() for child in seen), seen
    assert capsys.readouterr().err == "rulebook: stopped\n"


def test_the_limits_said_in_the_starter_and_the_docs_are_the_shipped_ones() -> None:
    """The defaults are written out where a team reads them (the starter configuration, the configuration's example,
    docs/print.md): each must say the number the build uses, or a team raising a limit reads a wrong one."""
    import re

    from rulebook import project

    repository = Path(__file__).resolve().parents[2]
    texts = {
        "starter": (repository / "compiler" / "starter" / "rulebook.toml").read_text(encoding="utf-8"),
        "project.py": project.__doc__ or "",
        "docs/print.md": (repository / "docs" / "print.md").read_text(encoding="utf-8"),
    }
    limits, mb = typst_run.LIMITS, typst_run.MB
    shipped = {
        "time_limit": limits.seconds,
        "memory_limit": limits.memory // mb,
        "picture_time_limit": limits.picture_seconds,
        "picture_memory_limit": limits.picture_memory // mb,
    }
    for where, text in texts.items():
        for key, value in shipped.items():
            said = re.findall(rf"^#? ?{key} = (\d+)", text, re.MULTILINE)
            assert said == [str(int(value))], (where, key, said)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
@pytest.mark.parametrize("options", [["--pdf-only"], []])
def test_a_build_stopped_as_typsts_thread_starts_leaves_no_typst(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, options: list[str]
) -> None:
    """A stop that comes while the thread compiling the PDF starts (the build's thread waits for it to run, and a
    signal ends the wait) stops the thread and its Typst too: the thread once ran Typst on after the build (twice
    in CI, SIGTERM sent as Typst began)."""
    from rulebook.recipe.book_pdf import Printing

    folder = _project(tmp_path / "busy", template=BUSY, blurred=False)
    start = Printing.start

    def stopped_as_it_starts(printing: Printing) -> None:
        threading.Thread.start = _started_then_stopped(threading.Thread.start)  # type: ignore[method-assign]
        try:
            start(printing)
        finally:
            threading.Thread.start = _THREAD_START  # type: ignore[method-assign]

    monkeypatch.setattr(Printing, "start", stopped_as_it_starts)
    assert _build(folder, *options) == 130
    assert capsys.readouterr().err == "rulebook: interrupted\n"
    assert _typst_children(os.getpid()) == []


_THREAD_START = threading.Thread.start


def _started_then_stopped(start: Any) -> Any:
    def started(thread: threading.Thread) -> None:
        start(thread)
        raise KeyboardInterrupt

    return started


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_stop_that_comes_as_typst_is_started_kills_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """SIGTERM sent once Typst's process began but before ``Popen`` returned it (Python raises the stop where it
    comes) is kept by the command's handler until the process is known, then kills it. A thread that could take the
    signal is running, as in a build (the kernel gives a process's signal to any thread that does not block it)."""
    from rulebook.cli import Stopped, _stop

    popen = subprocess.Popen

    def popen_then_signalled(*args: Any, **kwargs: Any) -> subprocess.Popen[bytes]:
        process = popen(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(0.2)  # the handler would run here
        return process

    monkeypatch.setattr(typst_run.subprocess, "Popen", popen_then_signalled)
    idle = threading.Event()
    bystander = threading.Thread(target=idle.wait)
    bystander.start()
    previous = signal.signal(signal.SIGTERM, _stop)
    try:
        with pytest.raises(Stopped):
            typst_run.readable_pictures({"fine.svg": FINE}, tmp_path / "check")
    finally:
        signal.signal(signal.SIGTERM, previous)
        idle.set()
        bystander.join()
    assert _typst_children(os.getpid()) == []


def _chapters_book(folder: Path, chapters: str, config: str = "") -> Path:
    (folder / "rules").mkdir(parents=True)
    (folder / "rules" / "book.xml").write_text(f"<document>{chapters}</document>", encoding="utf-8")
    (folder / "rulebook.toml").write_text(f'title = "Heads"\nsources = ["rules/book.xml"]\n{config}', "utf-8")
    return folder


def test_a_book_of_many_short_chapters_is_typeset_in_memory_linear_in_its_pages(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each page's running head looked through every chapter of the book for the one it is in: 1,000 one-line
    chapters (30 KB of source) took Typst 13 s and 2.3 GB, 2,000 passed the 8 GB it may take. Now 1,500 fit in
    1 GB (about 450 MB)."""
    chapters = "".join(
        f'<chapter id="c{n}" title="C{n}"><section id="s{n}" title="S{n}"><p>Text {n}.</p></section></chapter>'
        for n in range(1500)
    )
    folder = _chapters_book(tmp_path / "many", chapters, "[pdf]\nmemory_limit = 1024\n")
    assert _build(folder, "--pdf-only") == 0, capsys.readouterr().err
    assert len(reader(folder / "site" / "heads.pdf").pages) > 1500


def test_the_running_head_names_the_chapter_on_its_later_pages_only(tmp_path: Path) -> None:
    long = "".join(
        f"<p>Sentence {n} of the long chapter, with words enough to fill a line of the page.</p>" for n in range(120)
    )
    folder = _chapters_book(
        tmp_path / "heads",
        f'<chapter id="alpha" title="Alpha"><section id="s" title="Start">{long}</section></chapter>'
        '<chapter id="omega" title="Omega"><section id="t" title="End"><p>Last words.</p></section></chapter>',
    )
    assert _build(folder, "--pdf-only") == 0
    pages = page_texts(reader(folder / "site" / "heads.pdf"))
    assert [page.split("\n")[0] for page in pages] == ["Heads", "Contents", "1 Alpha", "1 Alpha Heads", "2 Omega"]
