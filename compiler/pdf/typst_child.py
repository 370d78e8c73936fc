"""Typst in a process of its own, bounded: the only module that imports Typst.

:mod:`rulebook.pdf.typst_run` lays a compile folder out and runs ``python -m rulebook.pdf.typst_child``, giving its
work as one JSON object on standard input; this process limits its own memory (``RLIMIT_AS``), dies with the build
(:func:`~rulebook.child_process.die_with_parent`) and answers one JSON line on standard output per piece of work:

    {"task": "check", "folder": F, "documents": [D, ...], ...}   one line per document, in order, as each is read:
                                                                  {"problem": null} or {"problem": "what Typst said"}
    {"task": "render", "folder": F, "documents": [D, ...],       each document into the PNG F/D.png at ``ppi``, one
     "ppi": N, "fonts": bool}                                     line per document as for "check"
    {"task": "compile", "folder": F, "fonts": bool, "date": N}    F/main.typ into F/edition.pdf, then one line:
                                                                  {"said": [...], "warnings": [...], "problem": null}
    {"task": "families", "folder": F}                             the font families Typst has with F/fonts/, one
                                                                  line: {"families": [...]}

What no answer can say (Typst cannot allocate past the limit and aborts, or is killed at its deadline) the parent
reads from how this process ended.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import resource
import sys
from pathlib import Path
from typing import Any, TextIO

STANDARDS = ["ua-1"]
"""The PDF standards every edition is checked against (Typst refuses to write a PDF that breaks them)."""
NOT_UA = "not PDF/UA-1 (it is tagged still)"
PDF_NAME = "edition.pdf"
"""Where a compile leaves the PDF in its folder."""


def main() -> None:
    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", encoding="ascii")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())  # whatever else writes there (Typst, a library) is not an answer
    request = json.loads(sys.stdin.buffer.read())
    from rulebook.child_process import die_with_parent

    die_with_parent(int(request["parent"]))
    with contextlib.suppress(ValueError, OSError):  # a system that refuses the limit (macOS): time still bounds it
        resource.setrlimit(resource.RLIMIT_AS, (int(request["memory"]), int(request["memory"])))
    import typst

    folder = Path(request["folder"])
    if request["task"] == "families":
        found = typst.Fonts(include_system_fonts=False, font_paths=[str(folder / "fonts")]).families()
        _answer(answers, {"families": sorted(found)})
    elif request["task"] in ("check", "render"):
        ppi = float(request["ppi"]) if request["task"] == "render" else None
        for document in request["documents"]:
            _answer(answers, {"problem": _checked(typst, folder, document, ppi, fonts=bool(request.get("fonts")))})
    else:
        _answer(answers, _compiled(typst, folder, fonts=bool(request["fonts"]), date=int(request["date"])))


def _checked(typst: Any, folder: Path, document: str, ppi: float | None, *, fonts: bool = False) -> str | None:
    """What stops Typst reading ``document`` (a document showing one picture), or None; with ``ppi``, the document
    is drawn into the PNG ``document.png`` beside it, at that many pixels an inch (with the fonts of ``fonts/``)."""
    font_paths = [str(folder / "fonts")] if fonts else []
    try:
        if ppi is None:
            typst.compile(str(folder / document), root=str(folder), ignore_system_fonts=True)
            return None
        drawn = typst.compile(
            str(folder / document),
            root=str(folder),
            format="png",
            ppi=ppi,
            font_paths=font_paths,
            ignore_system_fonts=True,
        )
    except typst.TypstError as error:
        return described(error)
    if not isinstance(drawn, bytes):
        return "it was drawn on more than one page"
    (folder / f"{document}.png").write_bytes(drawn)
    return None


def _compiled(typst: Any, folder: Path, *, fonts: bool, date: int) -> dict[str, Any]:
    """The edition's PDF written into ``folder``, and what Typst said; a PDF that cannot be PDF/UA is made without."""
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
            data, warnings = compiler.compile_with_warnings(pdf_standards=STANDARDS, timestamp=date)
        except typst.TypstError as error:
            if "PDF/UA" not in str(getattr(error, "message", error)):
                raise
            said.append(f"{NOT_UA}: {described(error)}")
            data, warnings = compiler.compile_with_warnings(pdf_standards=[], timestamp=date)
    except typst.TypstError as error:
        return {"problem": described(error), "where": located(error, folder), "said": said, "warnings": []}
    (folder / PDF_NAME).write_bytes(bytes(data))
    return {"problem": None, "said": said, "warnings": [described(warning) for warning in warnings]}


def described(problem: object) -> str:
    """A Typst error or warning in one message: what, and its hints."""
    message = str(getattr(problem, "message", None) or problem)
    hints = [str(hint) for hint in getattr(problem, "hints", None) or ()]
    return "; ".join([message, *hints])


_PLACE = re.compile(r"┌─ ([^\n:]+):(\d+):(\d+)")
"""Where Typst's diagnostic says an error is: ``┌─ print.typ:21:17``."""


def located(problem: object, folder: Path) -> str | None:
    """Where in the files of ``folder`` Typst found ``problem`` (``print.typ:21:17``), or None when it does not say."""
    found = _PLACE.search(str(getattr(problem, "diagnostic", None) or ""))
    if found is None:
        return None
    try:
        file = Path(os.path.abspath(found[1])).relative_to(os.path.abspath(folder)).as_posix()
    except ValueError:
        return None
    return f"{file}:{found[2]}:{int(found[3]) + 1}"  # Typst's columns count from 0, an editor's from 1


def _answer(answers: TextIO, value: dict[str, Any]) -> None:
    answers.write(json.dumps(value, ensure_ascii=True) + "\n")
    answers.flush()


if __name__ == "__main__":
    main()
