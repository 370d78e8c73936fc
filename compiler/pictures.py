"""What the site publishes as a picture: a raster type recognised by its content, or an SVG rebuilt safely and drawn.

A web server says what a file is by its name: ``.html`` is a page, ``.svg`` a document that may run
scripts, and a browser opening either from the site runs it in the site's origin. So a file the sources
show is published only when its name ends in a picture type of :data:`RASTER` (PNG, JPEG, GIF, WebP,
AVIF), and its first bytes say that same type; or when it is an ``.svg`` that
:func:`rulebook.svg_pictures.sanitised_svg` rebuilds. Anything else is refused with a :class:`Refusal` that says
why, for the `refused-image` finding.

A reader's browser never receives an SVG: what it costs a browser to draw one cannot be bounded by counting what
it holds (a picture of 2 KB drawing text at many scales took 15 to 30 s). The build draws the rebuilt SVG into a
PNG once, in a process bounded in time and memory (:mod:`rulebook.recipe.site_pictures`), at
:data:`DENSITY` times its own size (:func:`drawn_size`), and the site publishes that PNG under
:func:`published_name`; the PDF keeps the rebuilt SVG, as vectors.
"""

from __future__ import annotations

import hashlib
import math
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Generic, TypeVar

from lxml import etree

from rulebook.errors import quoted
from rulebook.fileio import MAX_NAME
from rulebook.inputs import MAX_SOURCE_BYTES
from rulebook.picture_size import (
    SIGNATURES,
    pixel_size,
    too_many_frames,
    too_many_pixels,
    too_many_scans,
    too_much_metadata,
    unsized,
)
from rulebook.svg_geometry import length, view_box
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a file is not published as a picture."""

    reason: str
    """What the file is or holds (``its content is HTML, not the PNG picture its name says``)."""
    help: str
    """What to do instead."""


RASTER: dict[str, tuple[str, Callable[[bytes], bool]]] = {
    ".png": ("PNG", SIGNATURES["PNG"]),
    ".jpg": ("JPEG", SIGNATURES["JPEG"]),
    ".jpeg": ("JPEG", SIGNATURES["JPEG"]),
    ".gif": ("GIF", SIGNATURES["GIF"]),
    ".webp": ("WebP", SIGNATURES["WebP"]),
    ".avif": ("AVIF", SIGNATURES["AVIF"]),
}
"""The raster pictures published as they are, by the ending of their name: the type, and how its first bytes read."""
HEAD = 64
"""How many first bytes say a raster picture's type (an AVIF's brands come after its box's size and kind)."""
KINDS = "PNG, JPEG, GIF, WebP, AVIF or SVG"
_EXPORT = f"export it as {KINDS}, its name ending in its type (`.png`, `.jpg`, `.gif`, `.webp`, `.avif`, `.svg`)"


def picture_refusal(path: Path) -> Refusal | None:
    """Why the file at ``path`` is not published as a picture, or None if it is (:func:`published_picture`)."""
    checked = published_picture(path)
    return checked if isinstance(checked, Refusal) else None


def published_picture(path: Path) -> bytes | Refusal:
    """The bytes the site publishes for the picture at ``path``: a raster picture as it is, an SVG rebuilt. Each is
    read whole: an SVG is rebuilt, a JPEG's scans and an animation's frames are counted through the file."""
    suffix = PurePosixPath(path.name).suffix.lower()
    if suffix != ".svg" and suffix not in RASTER:
        return Refusal(f"`{suffix or path.name}` is not a kind of picture the site publishes", _EXPORT)
    if len(published_name(path.name).encode("utf-8", "surrogateescape")) > MAX_NAME:
        return Refusal(
            f"its name is too long for the site's copy of it ({quoted(published_name(path.name))} would pass the "
            f"{MAX_NAME} bytes a file's name may have)",
            "give it a shorter name",
        )
    data = _read(path)
    if isinstance(data, Refusal):
        return data
    if suffix == ".svg":
        return _svg(data)
    kind, is_kind = RASTER[suffix]
    if is_kind(data[:HEAD]):
        size = pixel_size(data, kind)
        too_many = too_many_pixels(size)
        if too_many is not None:
            return Refusal(too_many, "export it smaller")
        scans = too_many_scans(data) if kind == "JPEG" else None
        if scans is not None:
            return Refusal(scans, "export it again: as a baseline JPEG, or progressive with the encoder's own scans")
        frames = too_many_frames(data, kind, size)
        if frames is not None:
            return Refusal(frames, "export it with fewer frames or smaller, or as a video")
        metadata = too_much_metadata(data) if kind == "PNG" else None
        if metadata is not None:
            return Refusal(metadata, "export it again without its metadata, or with the colour profile sRGB")
        no_size = unsized(size, kind)
        return data if no_size is None else Refusal(no_size, f"export it as a still {kind} picture, or as a PNG")
    actual = next((other for other, (_, reads) in RASTER.items() if reads(data[:HEAD])), None)
    if actual is None:
        return Refusal(f"its content is not a {kind} picture", _EXPORT)
    renamed = PurePosixPath(path.name).with_suffix(actual).name
    return Refusal(
        f"its content is a {RASTER[actual][0]} picture, but its name ends in `{suffix}`", f"rename it `{renamed}`"
    )


def _svg(data: bytes) -> bytes | Refusal:
    """The SVG ``data`` rebuilt, or why not: once a command for each content (:data:`MAX_REMEMBERED_BYTES`)."""
    key = hashlib.sha256(data).digest()
    found = _REBUILT.get(key)
    if found is None:
        found = _rebuilt(data)
        kept = len(found) if isinstance(found, bytes) else len(found.reason) + len(found.help)
        _REBUILT.keep(key, found, kept)
    return found


MAX_REMEMBERED_BYTES = 128 * 1024 * 1024
"""How many bytes of rebuilt SVG pictures a command keeps, by a digest of the content each was rebuilt from: a build
read each picture for the lint twice, for the site and for the PDF, and rebuilt it each time (99,000 rectangles,
4.3 MB: a lint 27.5 s, a build 90 s); the same content is the same picture whenever it is read, and content read
again that differs is rebuilt. Past this, a picture is rebuilt each time it is read. The PNGs the site draws from
them are kept within as many bytes again (:data:`DRAWN`)."""


class Remembered(dict[bytes, T], Generic[T]):
    """What a command made from each content, by its digest, the first kept while within :data:`MAX_REMEMBERED_BYTES`
    (a command reads its pictures in the same order each time: the first ones are read again first)."""

    size = 0

    def keep(self, key: bytes, made: T, size: int) -> None:
        """Keep ``made`` (``size`` bytes) for the content of digest ``key``, if there is room."""
        if self.size + len(key) + size <= MAX_REMEMBERED_BYTES:
            self[key] = made
            self.size += len(key) + size


_REBUILT: Remembered[bytes | Refusal] = Remembered()


def _rebuilt(data: bytes) -> bytes | Refusal:
    try:
        return sanitised_svg(data)
    except UnsafeSvg as unsafe:
        return Refusal(str(unsafe), unsafe.help or "export the picture again without it (a plain SVG, or a PNG)")


def _read(path: Path) -> bytes | Refusal:
    """The file, read whole without following a link
    (:func:`rulebook.assets.safe_file` checked the way to it)."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError as error:
        return Refusal(f"it cannot be read ({error.strerror})", "check the file")
    with os.fdopen(descriptor, "rb") as stream:
        status = os.fstat(stream.fileno())
        if not stat.S_ISREG(status.st_mode):
            return Refusal("it is not a regular file", "put the picture itself in the images folder")
        if status.st_size > MAX_SOURCE_BYTES:
            limit = MAX_SOURCE_BYTES // (1024 * 1024)
            return Refusal(f"it is larger than {limit} MB, the most a picture may be", "export it smaller")
        return stream.read()


DENSITY = 2
"""The PNG's pixels for each CSS pixel of an SVG picture's own size, across and down: sharp on a phone's screen,
which has two or three pixels to a CSS pixel."""
MAX_SIDE = 16_384
"""The most pixels a side of a drawn picture may have (browsers decode nothing wider than 32,767)."""
UNSIZED = (300.0, 150.0)
"""The size, in CSS pixels, of a picture that says none (no ``width``, ``height`` nor ``viewBox``), as a browser
shows it in an ``<img>``."""


def is_drawn(name: str) -> bool:
    """Whether the picture ``name`` is published drawn into a PNG (an SVG), rather than as it is."""
    return PurePosixPath(name).suffix.lower() == ".svg"


def published_name(name: str) -> str:
    """The name the site publishes the picture ``name`` (as the sources name it) under, in its ``images/`` folder:
    an SVG's PNG is ``NAME.svg.png``, apart from a ``NAME.png`` beside it; any other picture's is its own (a source
    picture of the name of an SVG's PNG is refused: :func:`rulebook.assets.book_images`)."""
    return f"{name}.png" if is_drawn(name) else name


@dataclass(frozen=True, slots=True)
class DrawnPicture:
    """An SVG picture drawn into the PNG the site publishes."""

    png: bytes
    width: int
    height: int
    """Its size on the page, in CSS pixels (its own, rounded: the ``<img>``'s ``width`` and ``height``)."""


def css_size(svg: bytes) -> tuple[float, float]:
    """The size an SVG picture (as :func:`sanitised_svg` rebuilt it) says it has, in CSS pixels: its ``width`` and
    ``height`` in absolute measures, one of them with the other from the ``viewBox``'s shape, else the
    ``viewBox``'s, else :data:`UNSIZED`."""
    width, height = _said_size(svg)
    return min(max(width, 1 / 64), MAX_CSS_SIDE), min(max(height, 1 / 64), MAX_CSS_SIDE)


MAX_CSS_SIDE = 1_000_000.0
"""The longest side a picture is taken to have, in CSS pixels (a number past it is no drawing's)."""


def _said_size(svg: bytes) -> tuple[float, float]:
    from rulebook.xml_source import safe_parser

    root = etree.fromstring(svg, safe_parser())
    width, height = _absolute(root.get("width")), _absolute(root.get("height"))
    box = view_box(root)
    shape = None if box is None else (box.right - box.left) / (box.bottom - box.top)
    if width is not None and height is not None:
        return width, height
    if shape is not None and 0 < shape < math.inf:
        if width is not None:
            return width, width / shape
        if height is not None:
            return height * shape, height
        assert box is not None
        return box.right - box.left, box.bottom - box.top
    return width or UNSIZED[0], height or UNSIZED[1]


def _absolute(value: str | None) -> float | None:
    """A length of the root in CSS pixels, if it is an absolute one (not a share of a page's, nor in ``em``)."""
    if value is None or "%" in value:
        return None
    found = length(value, 0.0)
    return found if found is not None and 0 < found < math.inf else None


MAX_DRAWN_PIXELS = 16_000_000
"""The most pixels a drawn picture has: 4,000 by 4,000, a 2,000 CSS pixels square at :data:`DENSITY` (64 MB to
decode, what a phone's browser holds for one picture; a raster picture of the sources may have up to
`picture_size.MAX_PIXELS`, as exported)."""


def drawn_size(css: tuple[float, float]) -> tuple[int, int]:
    """The PNG's size for a picture of ``css`` size: :data:`DENSITY` pixels a CSS pixel, fewer for a large picture,
    so that it has at most :data:`MAX_DRAWN_PIXELS` pixels and :data:`MAX_SIDE` a side."""
    width, height = css
    scale = min(DENSITY, math.sqrt(MAX_DRAWN_PIXELS / (width * height)), MAX_SIDE / width, MAX_SIDE / height)
    return max(1, min(MAX_SIDE, math.floor(width * scale))), max(1, min(MAX_SIDE, math.floor(height * scale)))


def page_size(css: tuple[float, float]) -> tuple[int, int]:
    """The ``<img>``'s ``width`` and ``height``: the picture's own size in whole CSS pixels (at least one)."""
    return max(1, round(css[0])), max(1, round(css[1]))
