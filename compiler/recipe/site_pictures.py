"""The site's SVG pictures drawn into the PNGs readers receive (a step of the site stage, :func:`site_input`).

A reader's browser is never sent an SVG: what drawing one costs a browser cannot be bounded by counting what it
holds (:mod:`rulebook.pictures`). Each SVG picture the sources show is drawn here once, as
:func:`rulebook.svg_pictures.sanitised_svg` rebuilt it, by Typst in a process bounded in time and memory (the
configuration's ``[pdf] picture_time_limit`` and ``picture_memory_limit``, the PDF's own), with Typst's fonts and
the project's only. A picture Typst cannot draw within them, or any when Typst is not installed, is not published:
its page shows the box of a missing picture, and the build says why.

What each content was drawn as is kept for the length of the command (:class:`rulebook.pictures.Remembered`):
``serve`` plans a book's pages again at each edit, and draws no picture twice.
"""

from __future__ import annotations

import hashlib
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.pictures import (
    DrawnPicture,
    Remembered,
    css_size,
    drawn_size,
    is_drawn,
    page_size,
    published_picture,
)
from rulebook.project import Project
from rulebook.recipe.book_pdf import limits, project_fonts


@dataclass(frozen=True, slots=True)
class SitePictures:
    """The SVG pictures of a book's site, drawn."""

    drawn: dict[str, DrawnPicture] = field(default_factory=dict)
    """Each picture drawn, by the name the sources give it."""
    refused: dict[str, str] = field(default_factory=dict)
    """Why each other one could not be drawn (the build's warning), by the name the sources give it."""


_DRAWN: Remembered[DrawnPicture | str] = Remembered()
"""What each SVG content was drawn as (or why it could not be), by a digest of it and of the project's fonts."""


def draw_site_pictures(project: Project, published: Mapping[str, Path]) -> SitePictures:
    """The SVG pictures among ``published`` (the pictures the site publishes, by name: :func:`book_images`), each
    drawn into a PNG, or why it could not be."""
    from rulebook.pdf.typst_run import Drawing, drawn_pictures

    svgs = {name: published_picture(path) for name, path in sorted(published.items()) if is_drawn(name)}
    rebuilt = {name: svg for name, svg in svgs.items() if isinstance(svg, bytes)}  # else refused since it was read
    if not rebuilt:
        return SitePictures()
    fonts = project_fonts(project)
    fonts_key = b"".join(hashlib.sha256(name.encode() + b"\0" + data).digest() for name, data in sorted(fonts.items()))
    keys = {name: hashlib.sha256(fonts_key + b"\0" + svg).digest() for name, svg in rebuilt.items()}
    first = {key: name for name, key in reversed(keys.items())}  # one name for each content: drawn once
    asked = {name: rebuilt[name] for key, name in sorted(first.items(), key=lambda item: item[1]) if key not in _DRAWN}
    drawn_now: dict[bytes, DrawnPicture | str] = {}
    if asked:
        sizes = {name: css_size(svg) for name, svg in asked.items()}
        drawings = {name: Drawing(svg, *drawn_size(sizes[name])) for name, svg in asked.items()}
        with tempfile.TemporaryDirectory(prefix="rulebook-pictures-") as room:
            pngs, problems = drawn_pictures(drawings, Path(room), limits(project), fonts)
        for name in asked:
            made: DrawnPicture | str = (
                DrawnPicture(pngs[name], *page_size(sizes[name])) if name in pngs else problems[name]
            )
            _DRAWN.keep(keys[name], made, len(made.png) if isinstance(made, DrawnPicture) else len(made))
            drawn_now[keys[name]] = made
    found: dict[str, DrawnPicture | str] = {}
    for name in rebuilt:
        made = drawn_now[keys[name]] if keys[name] in drawn_now else _DRAWN[keys[name]]
        found[name] = made if isinstance(made, DrawnPicture) else _refusal(name, made)
    return SitePictures(
        {name: made for name, made in found.items() if isinstance(made, DrawnPicture)},
        {name: made for name, made in found.items() if isinstance(made, str)},
    )


def _refusal(name: str, problem: str) -> str:
    return f"images/{name}: {problem}; the site shows its place"
