"""What the site publishes as a picture: a raster type recognised by its content, or an SVG rebuilt safely.

A web server says what a file is by its name: ``.html`` is a page, ``.svg`` a document that may run
scripts, and a browser opening either from the site runs it in the site's origin. So a file the sources
show is published only when its name ends in a picture type of :data:`RASTER` (PNG, JPEG, GIF, WebP,
AVIF), and its first bytes say that same type; or when it is an ``.svg`` that
:func:`rulebook.svg_pictures.sanitised_svg` rebuilds (published as rebuilt, never as written). Anything
else is refused with a :class:`Refusal` that says why, for the `refused-image` finding.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

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
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg


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
        _REBUILT.keep(key, found)
    return found


MAX_REMEMBERED_BYTES = 128 * 1024 * 1024
"""How many bytes of rebuilt SVG pictures a command keeps, by a digest of the content each was rebuilt from: a build
read each picture for the lint twice, for the site and for the PDF, and rebuilt it each time (99,000 rectangles,
4.3 MB: a lint 27.5 s, a build 90 s); the same content is the same picture whenever it is read, and content read
again that differs is rebuilt. Past this, a picture is rebuilt each time it is read."""


class _Remembered(dict[bytes, "bytes | Refusal"]):
    """What each SVG content was rebuilt as, by its digest, the first kept while within :data:`MAX_REMEMBERED_BYTES`
    (a command reads its pictures in the same order each time: the first ones are read again first)."""

    size = 0

    def keep(self, key: bytes, rebuilt: bytes | Refusal) -> None:
        kept = len(key) + (len(rebuilt) if isinstance(rebuilt, bytes) else len(rebuilt.reason) + len(rebuilt.help))
        if self.size + kept <= MAX_REMEMBERED_BYTES:
            self[key] = rebuilt
            self.size += kept


_REBUILT = _Remembered()


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
