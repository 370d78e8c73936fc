"""The one module that runs Typst: an edition's source, its template, pictures and fonts into PDF bytes.

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

import re
import shutil
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.errors import PdfBuildError
from rulebook.pdf.escaping import typst_key

if TYPE_CHECKING:
    from types import ModuleType

TEMPLATE = Path(__file__).with_name("templates") / "print.typ"
"""The shipped template."""
STANDARDS = ["ua-1"]
"""The PDF standards every edition is checked against (Typst refuses to write a PDF that breaks them)."""
MISSING = (
    "the print edition needs Typst, which is not installed: pip install typst (a dependency of rulebook-compiler; "
    "or build without it: rulebook build --no-pdf, or `build = false` in the configuration's [pdf] table)"
)
NOT_UA = "not PDF/UA-1 (it is tagged still)"


@dataclass(frozen=True, slots=True)
class PdfResult:
    data: bytes
    warnings: tuple[str, ...]
    """What Typst warned about (a font it does not have, a layout that did not settle)."""


def require() -> ModuleType:
    """The ``typst`` package, or a plain error naming the extra that installs it."""
    try:
        import typst
    except ImportError:
        raise PdfBuildError(MISSING) from None
    return typst


def compile_pdf(
    source: str,
    folder: Path,
    *,
    template: str,
    pictures: Mapping[str, bytes] | None = None,
    fonts: Mapping[str, bytes] | None = None,
    date: int | None = None,
    label: str = "the book",
) -> PdfResult:
    """The PDF of ``source`` (``main.typ``), made in ``folder`` (emptied first: a scratch folder of the build's).

    ``template``: the text of ``print.typ``; ``pictures`` and ``fonts``: file contents by name. ``date``:
    the PDF's date in seconds since 1970 (None: no date; nothing in the PDF depends on the clock).
    """
    typst = require()
    shutil.rmtree(folder, ignore_errors=True)
    files = {
        "main.typ": source.encode("utf-8"),
        "print.typ": template.encode("utf-8"),
        "rulebook/print.typ": TEMPLATE.read_bytes(),
    }
    files |= {f"images/{name}": data for name, data in (pictures or {}).items()}
    files |= {f"fonts/{name}": data for name, data in (fonts or {}).items()}
    _lay_out(folder, files.items())
    compiler = typst.Compiler(
        str(folder / "main.typ"),
        root=str(folder),
        font_paths=[str(folder / "fonts")] if fonts else [],
        ignore_system_fonts=True,
        package_path=str(folder / "packages"),
        package_cache_path=str(folder / "packages"),
    )
    said: list[str] = []
    try:
        try:
            data, warnings = compiler.compile_with_warnings(pdf_standards=STANDARDS, timestamp=date or 0)
        except typst.TypstError as error:
            if "PDF/UA" not in str(getattr(error, "message", error)):
                raise
            said.append(f"{NOT_UA}: {_described(error)}")
            data, warnings = compiler.compile_with_warnings(pdf_standards=[], timestamp=date or 0)
    except typst.TypstError as error:
        raise PdfBuildError(f"Typst could not make the PDF of {label}: {_described(error)}") from error
    return PdfResult(bytes(data), (*said, *(_described(warning) for warning in warnings)))


def readable_pictures(pictures: Mapping[str, bytes], folder: Path) -> tuple[dict[str, bytes], tuple[str, ...]]:
    """The pictures Typst can read, and why each other one cannot be (its place in the PDF says it is missing).

    The site publishes a raster picture whose first bytes are its type's: a picture cut short passes, and Typst
    would refuse the whole PDF for it. All are read in one document (``folder``: a scratch folder), a picture
    Typst stops at is left out and the rest read again; the PDF's compile then finds them decoded already.
    """
    typst = require()
    kept = dict(sorted(pictures.items()))
    refused: list[str] = []
    while kept:
        names = list(kept)
        shutil.rmtree(folder, ignore_errors=True)
        check = "\n".join(f'#image({typst_key("images/" + name)}, alt: "")' for name in names)
        _lay_out(folder, [("check.typ", check.encode("utf-8")), *((f"images/{n}", kept[n]) for n in names)])
        try:
            typst.compile(str(folder / "check.typ"), root=str(folder), ignore_system_fonts=True)
        except typst.TypstError as error:
            name = _picture_stopped_at(str(getattr(error, "diagnostic", "")), names)
            if name is None:
                raise PdfBuildError(f"Typst could not read the pictures: {_described(error)}") from error
            del kept[name]
            said = _described(error)
            refused.append(f"images/{name}: Typst cannot read this picture ({said}); the PDF shows its place")
        else:
            break
    return kept, tuple(refused)


def _picture_stopped_at(diagnostic: str, names: list[str]) -> str | None:
    """The picture Typst's ``diagnostic`` stopped at: the one shown on the line of ``check.typ`` it names, or the
    picture whose own file it names (an SVG usvg stops inside, at its limit of nodes: the whole PDF was refused)."""
    line = re.search(r"check\.typ:(\d+):", diagnostic)
    if line is not None and 1 <= int(line.group(1)) <= len(names):
        return names[int(line.group(1)) - 1]
    named = [name for name in names if f"images/{name}:" in diagnostic]
    return max(named, key=len) if named else None


def _lay_out(folder: Path, files: Iterable[tuple[str, bytes]]) -> None:
    for name, data in files:
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)


def _described(problem: object) -> str:
    """A Typst error or warning in one message: what, and its hints."""
    message = str(getattr(problem, "message", None) or problem)
    hints = [str(hint) for hint in getattr(problem, "hints", None) or ()]
    return "; ".join([message, *hints])


def write_pdf(path: Path, data: bytes) -> None:
    """A PDF into the folder the build gives (the release being made)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
