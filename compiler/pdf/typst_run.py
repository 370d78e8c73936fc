"""The one module that runs Typst: an edition's source, its template, pictures and fonts into PDF bytes.

Typst works in a process of its own (:mod:`rulebook.pdf.typst_child`), bounded in memory and time (:class:`Limits`):
what a picture costs Typst cannot be told from the picture (a blurred rectangle 200,000 wide took 12 s and
410 MB; a hundred in 10 KB, twenty minutes), so whatever a picture or a template does, the build is bounded. A
picture Typst cannot read within its limits is left out of the PDF with a warning; an edition that cannot be
made within them is a plain error. The process is killed at its deadline, when the build is stopped (Ctrl+C,
SIGTERM: ``stop``), and by the kernel if the build is killed.

Typst reads files only under the folder it is given as its root, so the build lays out in a scratch folder
of its own everything a PDF is made from, each file read through the project's guarded reader:

    main.typ             the edition, as :mod:`rulebook.pdf.typeset` wrote it
    print.typ            the template: the project's ``site_templates/print.typ``, else the shipped one
    rulebook/print.typ   the shipped template (a project's own may import it and change only a part)
    images/NAME          the pictures the sources show, as the site publishes them
    fonts/NAME           the project's fonts (``site_templates/fonts/``), besides those inside Typst

No font of the system is used (the same sources give the same PDF on any machine), and the PDF is tagged
and checked against PDF/UA-1: a PDF that cannot be (a character none of its fonts has, which PDF/UA forbids to
show as a blank box) is made tagged still, with a warning that says why. Typst is a dependency of the package; an
environment without it (installed with ``--no-deps``) is told how to install it by :func:`require`.
"""

from __future__ import annotations

import contextlib
import importlib.util
import json
import os
import selectors
import signal
import subprocess
import sys
import time
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any

from rulebook.errors import PdfBuildError
from rulebook.pdf.escaping import typst_key
from rulebook.pdf.typst_child import PDF_NAME
from rulebook.state import remove
from rulebook.stops import stops_held

if TYPE_CHECKING:
    import threading

TEMPLATE = Path(__file__).with_name("templates") / "print.typ"
"""The shipped template."""
MISSING = (
    "the print edition needs Typst, which is not installed: pip install typst (a dependency of rulebook-compiler; "
    "or build without it: rulebook build --no-pdf, or `build = false` in the configuration's [pdf] table)"
)
MB = 1024 * 1024
CHILD = [sys.executable, "-P", "-m", "rulebook.pdf.typst_child"]
STOPPED = "the PDF was not made: the build was stopped"
"""``-P``: the working folder (the project, where a build runs) is not put first on the child's import path, where a
committed ``rulebook/__init__.py`` with ``rulebook/pdf/typst_child.py`` was imported and run in its place."""
_OUT_OF_MEMORY = ("memory allocation of", "MemoryError", "Cannot allocate memory", "out of memory")
"""What Rust, Python or the C library says on standard error when a process cannot have more memory."""


@dataclass(frozen=True, slots=True)
class Limits:
    """How much Typst may take (its process's address space, and wall-clock time), for an edition and a picture."""

    seconds: float = 300
    """An edition's compile (the configuration's ``[pdf] time_limit``)."""
    memory: int = 8192 * MB
    """An edition's compile, in bytes (``[pdf] memory_limit``, in MB)."""
    picture_seconds: float = 20
    """Reading one picture (``[pdf] picture_time_limit``; all of them: at most :attr:`seconds`)."""
    picture_memory: int = 2048 * MB
    """Reading one picture, in bytes (``[pdf] picture_memory_limit``, in MB)."""


LIMITS = Limits()


@dataclass(frozen=True, slots=True)
class PdfResult:
    data: bytes
    warnings: tuple[str, ...]
    """What Typst warned about (a font it does not have, a layout that did not settle)."""


def require() -> None:
    """A plain error naming the package that installs Typst, if it is not installed."""
    if importlib.util.find_spec("typst") is None:
        raise PdfBuildError(MISSING)


def compile_pdf(
    source: str,
    folder: Path,
    *,
    template: str,
    template_file: str | None = None,
    pictures: Mapping[str, bytes] | None = None,
    fonts: Mapping[str, bytes] | None = None,
    date: int | None = None,
    label: str = "the book",
    limits: Limits = LIMITS,
    stop: threading.Event | None = None,
) -> PdfResult:
    """The PDF of ``source`` (``main.typ``), made in ``folder`` (emptied first: a scratch folder of the build's).

    ``template``: the text of ``print.typ`` (``template_file``: the project's file it was read from, as messages name
    it, where an error in it is told; None: the shipped one); ``pictures`` and ``fonts``: file contents by name.
    ``date``: the PDF's date in seconds since 1970 (None: no date; nothing in the PDF depends on the clock).
    ``stop``: set, Typst is stopped and the PDF not made.
    """
    require()
    _emptied(folder)
    files = {
        "main.typ": source.encode("utf-8"),
        "print.typ": template.encode("utf-8"),
        "rulebook/print.typ": TEMPLATE.read_bytes(),
    }
    files |= {f"images/{name}": data for name, data in (pictures or {}).items()}
    files |= {f"fonts/{name}": data for name, data in (fonts or {}).items()}
    _lay_out(folder, files.items())
    request = {"task": "compile", "folder": str(folder), "fonts": bool(fonts), "date": date or 0}
    with _Child(request, folder, limits.memory, stop) as child:
        answer = child.answer(limits.seconds)
    if isinstance(answer, _Ended):
        raise PdfBuildError(
            f"Typst could not make the PDF of {label}: {_beyond(answer, limits.memory, 'memory_limit')}"
        )
    if answer is None:
        raise PdfBuildError(
            f"Typst did not finish the PDF of {label} within {_seconds(limits.seconds)}, the time an edition may take "
            f"(raise it with `time_limit = ...` in seconds in the configuration's [pdf] table)"
        )
    if answer["problem"] is not None:
        where = answer.get("where") or ""
        if template_file is not None and where.startswith(f"{TEMPLATE.name}:"):  # the project's template: its place
            place = where.removeprefix(f"{TEMPLATE.name}:")
            raise PdfBuildError(f"{template_file}:{place}: Typst could not read the template: {answer['problem']}")
        lacking = (
            f' ({template_file} lacks what the edition calls: start it with `#import "rulebook/print.typ": *`)'
            if template_file is not None and where.startswith("main.typ:")
            else ""
        )
        raise PdfBuildError(f"Typst could not make the PDF of {label}: {answer['problem']}{lacking}")
    return PdfResult((folder / PDF_NAME).read_bytes(), (*answer["said"], *answer["warnings"]))


def font_families(folder: Path, fonts: Mapping[str, bytes], limits: Limits = LIMITS) -> list[str]:
    """The font families an edition may name: those inside Typst and those of ``fonts`` (file contents by name),
    read by Typst in ``folder`` (emptied first: a scratch folder); none system-wide, as no edition uses them."""
    require()
    _emptied(folder)
    (folder / "fonts").mkdir(parents=True)
    _lay_out(folder, [(f"fonts/{name}", data) for name, data in fonts.items()])
    with _Child({"task": "families", "folder": str(folder)}, folder, limits.memory, None) as child:
        answer = child.answer(limits.seconds)
    if isinstance(answer, _Ended) or answer is None:
        said = "it took too long" if answer is None else _beyond(answer, limits.memory, "memory_limit")
        raise PdfBuildError(f"Typst could not read the fonts of site_templates/fonts/: {said}")
    return [str(family) for family in answer["families"]]


def readable_pictures(
    pictures: Mapping[str, bytes], folder: Path, limits: Limits = LIMITS
) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The pictures Typst can read, and why each other one cannot be (its place in the PDF says it is missing).

    The site publishes a raster picture whose first bytes are its type's: a picture cut short passes, and Typst
    would refuse the whole PDF for it. Each picture is read alone (:func:`_each_alone`).
    """
    require()
    names = sorted(pictures)
    _emptied(folder)
    checks = {
        name: (f"check-{index}.typ", f'#image({typst_key("images/" + name)}, alt: "")')
        for index, name in enumerate(names)
    }
    _lay_out(folder, [*((f"images/{name}", pictures[name]) for name in names)])
    refused = _each_alone({"task": "check"}, checks, folder, limits)
    said = tuple(f"images/{name}: {problem}; the PDF shows its place" for name, problem in refused.items())
    return {name: pictures[name] for name in names if name not in refused}, said


@dataclass(frozen=True, slots=True)
class Drawing:
    """A picture to draw into a PNG: its content, and the PNG's size in pixels."""

    data: bytes
    width: int
    height: int


def drawn_pictures(
    pictures: Mapping[str, Drawing], folder: Path, limits: Limits = LIMITS, fonts: Mapping[str, bytes] | None = None
) -> tuple[dict[str, bytes], dict[str, str]]:
    """Each picture Typst can draw within its limits, as a PNG of its size, and why each other one cannot be.

    ``folder``: a scratch folder; ``fonts``: the project's fonts by name (no font of the system is used). Each
    picture is drawn alone (:func:`_each_alone`), stretched to its size at 72 pixels an inch (a point a pixel), on a
    transparent page of that size. Without Typst, none can be.
    """
    names = sorted(pictures)
    if importlib.util.find_spec("typst") is None:
        return {}, dict.fromkeys(names, NOT_INSTALLED)
    _emptied(folder)
    page = "#set page(width: auto, height: auto, margin: 0pt, fill: none)\n"
    documents = {
        name: (
            f"draw-{index}.typ",
            f"{page}#image({typst_key('images/' + name)}, width: {pictures[name].width}pt, "
            f'height: {pictures[name].height}pt, fit: "stretch", alt: "")',
        )
        for index, name in enumerate(names)
    }
    _lay_out(folder, [(f"images/{name}", pictures[name].data) for name in names])
    _lay_out(folder, [(f"fonts/{name}", data) for name, data in (fonts or {}).items()])
    request = {"task": "render", "ppi": 72, "fonts": bool(fonts)}
    refused = _each_alone(request, documents, folder, limits)
    drawn = {name: (folder / f"{documents[name][0]}.png").read_bytes() for name in names if name not in refused}
    return drawn, refused


NOT_INSTALLED = "Typst, which draws it, is not installed: pip install typst (a dependency of rulebook-compiler)"


def _each_alone(
    request: dict[str, Any], documents: Mapping[str, tuple[str, str]], folder: Path, limits: Limits
) -> dict[str, str]:
    """Why Typst could not do ``request``'s task with each document (by name: its file and text) within its limits.

    Each document is done alone, one after the other by one Typst process, within its own time and memory: one
    past them is refused, the process replaced and the rest done on. Typst keeps every picture it decoded: one
    that its process cannot hold after others is done again by a new one, alone. All of them together take at
    most an edition's time: those not done by then are refused too.
    """
    _lay_out(folder, [(file, text.encode()) for file, text in documents.values()])
    deadline = time.monotonic() + limits.seconds
    refused: dict[str, str] = {}
    waiting = sorted(documents)
    while waiting and time.monotonic() < deadline:
        asked = {**request, "folder": str(folder), "documents": [documents[name][0] for name in waiting]}
        with _Child(asked, folder, limits.picture_memory, None) as child:
            for index, name in enumerate(waiting):
                left = deadline - time.monotonic()
                answer = child.answer(min(limits.picture_seconds, left))
                if isinstance(answer, _Ended) and index > 0:  # Typst keeps what it decoded: do it alone, afresh
                    waiting = waiting[index:]
                    break
                problem = _picture_problem(answer, limits, cut=left < limits.picture_seconds)
                if problem is not None:
                    refused[name] = problem
                if not isinstance(answer, dict):  # the process is gone: a new one does the rest
                    waiting = waiting[index + 1 :]
                    break
            else:
                waiting = []
    for name in waiting:
        refused[name] = _picture_problem(None, limits, cut=True) or ""
    return dict(sorted(refused.items()))


def _picture_problem(answer: dict[str, Any] | _Ended | None, limits: Limits, *, cut: bool) -> str | None:
    """Why Typst cannot read a picture, from its answer (None: not in time; ``cut``: the time left to all the
    pictures was shorter than a picture's own) or from how its process ended."""
    if answer is None and cut:
        return (
            f"not read: Typst may take {_seconds(limits.seconds)} to read all the pictures, and took them before "
            "(raise it with `time_limit = ...` in seconds in the configuration's [pdf] table, or make the slow "
            "pictures simpler: the warnings before this one name them)"
        )
    if answer is None:
        raise_it = "(raise it with `picture_time_limit = ...` in seconds in the configuration's [pdf] table)"
        return f"Typst could not read this picture within {_seconds(limits.picture_seconds)} {raise_it}"
    if isinstance(answer, _Ended):
        return f"Typst could not read this picture: {_beyond(answer, limits.picture_memory, 'picture_memory_limit')}"
    problem = answer["problem"]
    return None if problem is None else f"Typst cannot read this picture ({problem})"


@dataclass(frozen=True, slots=True)
class _Ended:
    """A Typst process that ended without answering: its exit status and the end of what it wrote on stderr."""

    status: int
    said: str


def _beyond(ended: _Ended, memory: int, key: str | None) -> str:
    """What an ended Typst process was stopped by: its memory (``key``: the setting that raises it), or else."""
    if ended.status == -signal.SIGABRT or any(sign in ended.said for sign in _OUT_OF_MEMORY):
        raise_it = f" (raise it with `{key} = ...` in MB in the configuration's [pdf] table)" if key else ""
        return f"it needed more than {memory // MB:,} MB of memory, the most Typst may take{raise_it}"
    if ended.status < 0:
        return f"its process was stopped by signal {-ended.status}"
    last = ended.said.strip().splitlines()[-1:] or [f"exit status {ended.status}"]
    return f"its process stopped ({last[0][:200]})"


def _seconds(seconds: float) -> str:
    return f"{seconds:g} s"


class _Child:
    """A Typst process given ``request``, read one answer at a time with a deadline each, killed when left."""

    def __init__(self, request: dict[str, Any], folder: Path, memory: int, stop: threading.Event | None) -> None:
        if stop is not None and stop.is_set():  # stopped before Typst's thread came here
            raise PdfBuildError(STOPPED)
        self._stop = stop
        self._buffer = b""
        self._log = (folder / "typst.log").open("w+b")
        try:  # a build stopped here (SIGTERM, Ctrl+C) before the ``with`` holds the process kills it too
            with stops_held():  # a stop that came meanwhile is raised on leaving, the process known
                self._process = subprocess.Popen(
                    CHILD, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self._log, env=_environment()
                )
            self._answers = selectors.DefaultSelector()
            assert self._process.stdin is not None and self._process.stdout is not None
            self._answers.register(self._process.stdout, selectors.EVENT_READ)
            with contextlib.suppress(BrokenPipeError), self._process.stdin as stdin:  # gone: its end is its answer
                stdin.write(json.dumps({**request, "memory": memory, "parent": os.getpid()}).encode())
        except BaseException:
            if hasattr(self, "_process"):
                self._process.kill()
                self._process.wait()
            self._log.close()
            raise

    def __enter__(self) -> _Child:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        if self._process.poll() is None:
            self._process.kill()
        self._process.wait()
        assert self._process.stdout is not None
        self._answers.close()
        self._process.stdout.close()
        self._log.close()

    def answer(self, seconds: float) -> dict[str, Any] | _Ended | None:
        """The next answer, or how the process ended without giving it, or None when ``seconds`` passed first (the
        process is then killed)."""
        assert self._process.stdout is not None
        deadline = time.monotonic() + seconds
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if self._stop is not None and self._stop.is_set():
                self._process.kill()
                raise PdfBuildError(STOPPED)
            if left <= 0:
                self._process.kill()
                return None
            ready = self._answers.select(min(left, 0.2))
            chunk = os.read(self._process.stdout.fileno(), 1 << 16) if ready else b""
            if ready and not chunk:
                return self._ended()
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        answer: dict[str, Any] = json.loads(line)
        return answer

    def _ended(self) -> _Ended:
        status = self._process.wait()
        self._log.seek(max(0, self._log.seek(0, os.SEEK_END) - 4096))
        return _Ended(status, self._log.read().decode("utf-8", "replace"))


def _environment() -> dict[str, str]:
    """The build's environment, with glibc's memory arenas kept few: each thread's reserves 64 MB of address space,
    which the memory limit counts though nothing uses it."""
    return {**os.environ, "MALLOC_ARENA_MAX": "2"}


def _lay_out(folder: Path, files: Iterable[tuple[str, bytes]]) -> None:
    for name, data in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def write_pdf(path: Path, data: bytes) -> None:
    """A PDF into the folder the build gives (the release being made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _emptied(folder: Path) -> None:
    """Delete a scratch folder of the build's, if there is one (:func:`rulebook.state.remove`: never following a
    link, never across into another file system)."""
    with contextlib.suppress(OSError):
        remove(folder)
