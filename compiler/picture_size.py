"""How many pixels a raster picture says it has, read from its first bytes, before anything decodes it.

A picture's file size says little of the memory it takes: a browser, or Typst making the PDF, decodes
it into a buffer of its width times its height, and a PNG of 3.5 MB saying 60,000 x 60,000 pixels
(one colour, compressed) made a build take 3.6 GB (a phone opening the page would fare worse). Every
format states its size near its start (PNG in its header, JPEG in its frame marker, GIF in its screen
descriptor, WebP in its first chunk, AVIF in its image's ``ispe`` property), where the decoder reads it
too: :func:`pixel_size` reads it from :data:`SIZE_BYTES` first bytes, and where it is not there (a JPEG's metadata, or
an AVIF's boxes, may fill more), the callers read on through the whole picture (:func:`size_beyond`).
"""

from __future__ import annotations

import re
import struct
import zlib
from collections.abc import Callable, Iterator

MAX_PIXELS = 64_000_000
"""The most pixels a picture may have: 8,000 x 8,000, a page at 600 dots an inch is 35 million; decoded, four
bytes each, 256 MB."""
SIZE_BYTES = 1024 * 1024
"""How many first bytes are searched for a picture's size (a JPEG's metadata comes before its frame)."""
_MAX_BOXES = 4096
"""The most boxes of an AVIF file looked at: a file of tiny boxes is not walked for ever."""
MAX_JPEG_MARKERS = 10_000
"""The most markers of a JPEG walked (its segments and scans): a camera's or an editor's has tens, its tables,
metadata, frame and scans; 64 MB of empty comments are 16 million, and walking them one by one took 11 s."""
MAX_JPEG_SCANS = 100
"""The most scans a JPEG may hold. A browser decodes every block of the picture again at each scan, so its work is
the scans times the pixels, which a file of a megabyte can make huge: a scan that says nothing of 8,000 x 8,000
pixels (every block's run of zeros at once) is 64 bytes, and 10,000 of them (1 MB) took headless Chromium 80 s to
show (2,000 over 4,096 x 4,096: 5 s). An encoder's progressive JPEG has 3 to 12 (libjpeg: 10 in colour, 6 in grey);
at the limit, 8,000 x 8,000 took 5.2 s, against 2.9 s with one scan."""

MAX_FRAME_PIXELS = 160_000_000
"""The most pixels an animated picture (APNG, animated GIF or WebP, an AVIF image sequence) may have over all its
frames: its canvas times its frames, each composed on the whole canvas, decoded again at each pass where a browser
cannot keep them all. Ten frames of 4,000 x 4,000, two of the largest still picture, 77 of 1,920 x 1,080, 610 of
512 x 512. Measured in headless Chromium playing a page's APNG for 15 s (``benchmarks/bench_animation.py``): a still
8,000 x 8,000 took 1.6 s of CPU, ten frames of 4,000 x 4,000 3.1 s, forty of them 6.8 to 9.0 s, and ten of 8,000 x
8,000 8.2 s (19.3 s in 20 s in another round: a core throughout); 10,000 one-pixel frames on a 4,000 x 4,000 canvas
are an APNG of 640 KB."""
_MAX_CHUNKS = 1_000_000
"""The most chunks, blocks or boxes of a picture walked to count its frames: a file of empty chunks is not walked
for ever (a picture of more is refused as unreadable)."""


def _is_png(head: bytes) -> bool:
    return head.startswith(b"\x89PNG\r\n\x1a\n")


def _is_jpeg(head: bytes) -> bool:
    return head.startswith(b"\xff\xd8\xff")


def _is_gif(head: bytes) -> bool:
    return head[:6] in (b"GIF87a", b"GIF89a")


def _is_webp(head: bytes) -> bool:
    return head[:4] == b"RIFF" and head[8:12] == b"WEBP"


def _is_avif(head: bytes) -> bool:
    """An ISO media file (``ftyp`` box) whose brands name AVIF."""
    if head[4:8] != b"ftyp":
        return False
    size = int.from_bytes(head[:4], "big")
    brands = head[8 : min(size, len(head))]
    return any(brands[i : i + 4] in (b"avif", b"avis") for i in range(0, len(brands) - 3, 4))


SIGNATURES: dict[str, Callable[[bytes], bool]] = {
    "PNG": _is_png,
    "JPEG": _is_jpeg,
    "GIF": _is_gif,
    "WebP": _is_webp,
    "AVIF": _is_avif,
}
"""How each raster type's first bytes read."""


def size_refusal_of_any(head: bytes, whole: Callable[[], bytes]) -> str | None:
    """Why a picture of whichever type its first bytes say is refused for its size (:func:`too_many_pixels`,
    :func:`unsized`), or None (a browser decodes a picture whatever type its address names: an SVG's embedded
    ``data:image/png;...`` may hold a JPEG); ``whole`` gives all its bytes, asked for where its size is further in
    (:func:`size_beyond`)."""
    kind = next((kind for kind, reads in SIGNATURES.items() if reads(head)), None)
    if kind is None:
        return None
    size = pixel_size(head, kind)
    if size_beyond(head, size):
        size = pixel_size(whole(), kind)
    return (
        too_many_pixels(size)
        or unsized(size, kind)
        or (too_many_scans(whole()) if kind == "JPEG" else too_many_frames(whole(), kind, size))
        or (too_much_metadata(whole()) if kind == "PNG" else None)
    )


def decoded_pixels(data: bytes) -> int:
    """The pixels a browser decodes to show the raster picture ``data`` (the whole file) whole: its canvas, once
    for each frame of an animation and each scan of a progressive JPEG (0 for no raster picture it reads)."""
    kind = next((kind for kind, reads in SIGNATURES.items() if reads(data)), None)
    size = pixel_size(data, kind) if kind is not None else None
    if kind is None or size is None:
        return 0
    passes = sum(marker == 0xDA for marker, _ in _jpeg_markers(data)) if kind == "JPEG" else frame_count(data, kind)
    return size[0] * size[1] * max(1, passes or 1)


def too_many_pixels(size: tuple[int, int] | None) -> str | None:
    """Why a raster picture of ``size`` (:func:`pixel_size`) is too large to publish, or None."""
    if size is None or size[0] * size[1] <= MAX_PIXELS:
        return None
    width, height = size
    return (
        f"it is {width:,} x {height:,} pixels, more than the {MAX_PIXELS:,} a picture may have (a browser or the "
        f"PDF would need {width * height * 4 / 1024**3:,.1f} GB to show it)"
    )


def too_many_scans(data: bytes) -> str | None:
    """Why the JPEG ``data`` (the whole file) holds too many scans to publish (:data:`MAX_JPEG_SCANS`), or too many
    markers to walk (:data:`MAX_JPEG_MARKERS`), or None. A JPEG carried in a segment (an Exif thumbnail) is not
    counted: the segments are walked by their lengths, as a decoder walks them."""
    scans = markers = 0
    for marker, _ in _jpeg_markers(data):
        markers += 1
        scans += marker == 0xDA
        if scans > MAX_JPEG_SCANS:
            return (
                f"it is a JPEG of more than {MAX_JPEG_SCANS} scans, the most a picture may have (a browser decodes "
                "the whole picture again at each scan: a megabyte of them held one for over a minute)"
            )
    if markers > MAX_JPEG_MARKERS:
        return f"it is a JPEG of more than {MAX_JPEG_MARKERS:,} segments, which no camera or editor writes"
    return None


MAX_METADATA_BYTES = 16 * 1024 * 1024
"""The most bytes a PNG's compressed metadata (its colour profile ``iCCP``, its texts ``zTXt`` and ``iTXt``) may
inflate to, all together: a decoder inflates each whole, whatever the picture's size (a 1 x 1 PNG of 1 MB whose
``iCCP`` inflates to 1 GiB passed the lint, then took Typst past its 2 GB and was left out of the PDF; 200 MiB took
448 MB). A camera's or an editor's colour profile is a few kilobytes (the largest, a printer's, about a megabyte)."""
_INFLATED_STEP = 1024 * 1024
"""The most bytes inflated at a time, counted and dropped: the whole is never kept."""


def too_much_metadata(data: bytes) -> str | None:
    """Why the PNG ``data`` (the whole file) holds compressed metadata inflating past :data:`MAX_METADATA_BYTES`, or
    None; its chunks before the image data walked by their lengths (at most :data:`_MAX_CHUNKS`, as
    :func:`too_many_frames` walks them: a colour profile must come before, where a decoder reads it), each stream
    inflated only as far as the limit."""
    at, walked, inflated = 8, 0, 0
    while at + 8 <= len(data) and walked < _MAX_CHUNKS:
        walked += 1
        length, kind = int.from_bytes(data[at : at + 4], "big"), data[at + 4 : at + 8]
        stream = _compressed_metadata(kind, data[at + 8 : at + 8 + length])
        if stream:
            inflated += _inflated_size(stream, MAX_METADATA_BYTES - inflated)
            if inflated > MAX_METADATA_BYTES:
                return (
                    f"it is a PNG whose compressed metadata (its `{kind.decode('latin-1')}` chunk: a colour profile or "
                    f"a text) inflates to more than {MAX_METADATA_BYTES // 1024 // 1024} MB, which a browser and the "
                    "PDF inflate whole, whatever the picture's size"
                )
        if kind in (b"IDAT", b"IEND"):
            break
        at += 12 + length
    return None


def _compressed_metadata(kind: bytes, body: bytes) -> bytes:
    """The zlib stream of a PNG chunk of compressed metadata (after its name and its method), or nothing: ``iCCP`` and
    ``zTXt`` always, ``iTXt`` where its flag says so (after its language and translated keyword)."""
    named = body.find(b"\0")
    if named < 0 or kind not in (b"iCCP", b"zTXt", b"iTXt"):
        return b""
    if kind != b"iTXt":
        return body[named + 2 :]
    if body[named + 1 : named + 2] != b"\1":
        return b""
    language = body.find(b"\0", named + 3)
    translated = body.find(b"\0", language + 1) if language >= 0 else -1
    return body[translated + 1 :] if translated >= 0 else b""


def _inflated_size(stream: bytes, most: int) -> int:
    """How many bytes the zlib ``stream`` inflates to, counted up to just past ``most`` (a stream broken part way,
    as far as it goes: a decoder stops there too)."""
    inflater, size, pending = zlib.decompressobj(), 0, stream
    while pending and size <= most and not inflater.eof:
        try:
            out = inflater.decompress(pending, _INFLATED_STEP)
        except zlib.error:
            break
        if not out and inflater.unconsumed_tail == pending:
            break
        size, pending = size + len(out), inflater.unconsumed_tail
    return size


def too_many_frames(data: bytes, kind: str, size: tuple[int, int] | None) -> str | None:
    """Why the picture ``data`` (the whole file) of type ``kind`` and canvas ``size`` (:func:`pixel_size`) holds more
    pixels over its frames than :data:`MAX_FRAME_PIXELS`, or None (a still picture, or a JPEG, is one frame)."""
    if size is None:
        return None
    counted = frame_count(data, kind)
    if counted is None:
        return f"it is a {kind} of more than {_MAX_CHUNKS:,} chunks, which no encoder writes"
    width, height = size
    if counted < 2 or counted * width * height <= MAX_FRAME_PIXELS:
        return None
    return (
        f"it is an animation of {counted:,} frames of {width:,} x {height:,} pixels, more than the "
        f"{MAX_FRAME_PIXELS:,} pixels an animated picture may have over all its frames (a browser decodes every "
        "frame on the whole picture, again at each pass)"
    )


def frame_count(data: bytes, kind: str) -> int | None:
    """How many frames the picture ``data`` (the whole file) of type ``kind`` shows, as its decoder counts them: an
    APNG's ``acTL`` before its image data, each image of a GIF, each ``ANMF`` chunk of a WebP, the samples of an
    AVIF's image sequence (1 for a still picture); None where more than :data:`_MAX_CHUNKS` would be walked."""
    counter = {"PNG": _png_frames, "GIF": _gif_frames, "WebP": _webp_frames, "AVIF": _avif_frames}.get(kind)
    return 1 if counter is None else counter(data)


def _png_frames(data: bytes) -> int | None:
    """The frames an APNG's ``acTL`` says (a decoder reads it only before the first ``IDAT``: after, it is a still
    PNG)."""
    at, walked = 8, 0
    while at + 8 <= len(data):
        walked += 1
        if walked > _MAX_CHUNKS:
            return None
        length, kind = int.from_bytes(data[at : at + 4], "big"), data[at + 4 : at + 8]
        if kind == b"acTL" and at + 12 <= len(data):
            return max(1, int.from_bytes(data[at + 8 : at + 12], "big"))
        if kind in (b"IDAT", b"IEND"):
            return 1
        at += 12 + length
    return 1


def _gif_frames(data: bytes) -> int | None:
    """Each image of a GIF (its descriptor, ``0x2C``), its extensions and data blocks walked by their lengths."""
    if len(data) < 13:
        return 1
    at, frames, walked = 13 + _gif_colours(data[10]), 0, 0
    while at < len(data) and data[at] != 0x3B:
        walked += 1
        if walked > _MAX_CHUNKS:
            return None
        if data[at] == 0x21:  # an extension: its label, then its blocks
            at, blocks = _gif_blocks_counted(data, at + 2)
        elif data[at] == 0x2C and at + 10 <= len(data):  # an image: its descriptor, colours, code size, blocks
            frames += 1
            at, blocks = _gif_blocks_counted(data, at + 11 + _gif_colours(data[at + 9]))
        else:
            break
        walked += blocks
    return max(frames, 1)


def _gif_blocks_counted(data: bytes, at: int) -> tuple[int, int]:
    """:func:`_gif_blocks`, and how many blocks it passed."""
    blocks = 0
    while at < len(data) and data[at] and blocks <= _MAX_CHUNKS:
        at += 1 + data[at]
        blocks += 1
    return at + 1, blocks


def _webp_frames(data: bytes) -> int | None:
    """The ``ANMF`` chunks of an animated WebP (its ``VP8X`` saying so), walked by their lengths."""
    if data[12:16] != b"VP8X" or len(data) < 21 or not data[20] & 0x02:
        return 1
    at, frames, walked = 12, 0, 0
    while at + 8 <= len(data):
        walked += 1
        if walked > _MAX_CHUNKS:
            return None
        frames += data[at : at + 4] == b"ANMF"
        length = int.from_bytes(data[at + 4 : at + 8], "little")
        at += 8 + length + (length & 1)
    return max(frames, 1)


_AVIF_SAMPLES = (b"moov", b"trak", b"mdia", b"minf", b"stbl", b"stsz")
"""The boxes, one inside the other, that say how many samples (frames) an AVIF image sequence's track holds."""


def _avif_frames(data: bytes) -> int | None:
    """The samples of an AVIF image sequence's longest track (``stsz``), 1 for a still picture."""
    levels = [(0, len(data))]
    for wanted in _AVIF_SAMPLES:
        levels = [(s, e) for start, end in levels for kind, s, e in _boxes(data, start, end) if kind == wanted]
    counts = [int.from_bytes(data[s + 8 : s + 12], "big") for s, e in levels if e - s >= 12]
    return max([1, *counts])


_FILL = re.compile(rb"\xff+")
"""A run of fill bytes before a marker."""
_NEXT_MARKER = re.compile(rb"\xff(?=[^\x00\xd0-\xd7\xff])")
"""A marker after a scan's coded data: a 0xFF followed by neither a stuffed zero, a restart marker nor a fill byte."""


def _jpeg_markers(data: bytes) -> Iterator[tuple[int, int]]:
    """Each marker of the JPEG ``data`` and where its 0xFF stands, as a decoder walks them, up to the end marker
    and at most :data:`MAX_JPEG_MARKERS` + 1: a byte between segments, a stuffed zero and a run of fill bytes are
    passed over, a segment skipped by its length, and a scan's coded data searched through for the next marker
    (a zero or a restart after a 0xFF is part of it)."""
    at, walked = 2, 0
    while at + 4 <= len(data) and walked <= MAX_JPEG_MARKERS:
        if data[at] != 0xFF:  # bytes between segments: the decoder passes over them to the next marker
            at = data.find(b"\xff", at)
            if at < 0:
                return
            continue
        if data[at + 1] == 0xFF:  # fill bytes: the marker follows the last
            found = _FILL.match(data, at)
            at = (found.end() if found else at + 1) - 1
            continue
        marker = data[at + 1]
        walked += 1
        yield marker, at
        if marker == 0xD9:  # the end
            return
        if marker == 0x00 or marker in _JPEG_ALONE:  # a stuffed zero (no marker), or a marker without a length
            at += 2
            continue
        at += 2 + int.from_bytes(data[at + 2 : at + 4], "big")
        if marker == 0xDA:
            found = _NEXT_MARKER.search(data, at)
            at = len(data) if found is None else found.start()


UNSIZED_KINDS = frozenset({"AVIF"})
"""The types whose pictures are refused when their size is not found: an AVIF image sequence (brand ``avis``) is
sized by its track's AV1 sequence header, which is not read here, and a browser plays it whatever size it says (up
to libavif's own limit of about 268 million pixels). A PNG, JPEG, GIF or WebP whose size is not found is no
picture any decoder shows."""


def unsized(size: tuple[int, int] | None, kind: str) -> str | None:
    """Why a raster picture of type ``kind`` is refused for stating no size (``size`` None where
    :func:`pixel_size` read it), or None."""
    if kind not in UNSIZED_KINDS or size is not None:
        return None
    return f"it states no still picture's size (an {kind} image sequence, or properties that cannot be read)"


def size_beyond(head: bytes, size: tuple[int, int] | None) -> bool:
    """Whether the size of a picture whose first bytes (at most :data:`SIZE_BYTES`) are ``head`` must be looked for
    further in it: :func:`pixel_size` did not find it there (``size``), and the picture may have more (a JPEG whose
    frame comes after 1.1 MB of metadata, an AVIF whose properties follow a large box: each was published, however
    many pixels it said)."""
    return size is None and len(head) >= SIZE_BYTES


def pixel_size(head: bytes, kind: str) -> tuple[int, int] | None:
    """The width and height the raster picture ``head`` (its first bytes) of type ``kind`` (``PNG``, ``JPEG``,
    ``GIF``, ``WebP``, ``AVIF``) says it has; None where they are not found there."""
    reader = {"PNG": _png, "JPEG": _jpeg, "GIF": _gif, "WebP": _webp, "AVIF": _avif}[kind]
    return reader(head)


def _png(head: bytes) -> tuple[int, int] | None:
    if head[12:16] != b"IHDR" or len(head) < 24:
        return None
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _gif(head: bytes) -> tuple[int, int] | None:
    """The logical screen, grown to hold the first frame: a browser shows a picture that large (a screen of 1 x 1
    pixel whose first frame is 16 x 16 shows 16 x 16 in Chromium). None where the first frame (or the end) is not
    in ``head``."""
    if len(head) < 13:
        return None
    width, height = int.from_bytes(head[6:8], "little"), int.from_bytes(head[8:10], "little")
    at = 13 + _gif_colours(head[10])
    while at < len(head):
        if head[at] == 0x3B:  # the end: no frame
            return width, height
        if head[at] == 0x21:  # an extension: its label, then its blocks
            at = _gif_blocks(head, at + 2)
        elif head[at] == 0x2C and at + 9 <= len(head):  # the first frame: where it is, and its size
            left, top, across, down = struct.unpack_from("<4H", head, at + 1)
            return max(width, left + across), max(height, top + down)
        else:
            return None
    return None


def _gif_colours(flags: int) -> int:
    """The bytes of the colour table a GIF's screen or frame has (its flags say whether, and how many)."""
    return 3 << ((flags & 7) + 1) if flags & 0x80 else 0


def _gif_blocks(head: bytes, at: int) -> int:
    """Where the data blocks starting at ``at`` end (each says its length; an empty one ends them)."""
    while at < len(head) and head[at]:
        at += 1 + head[at]
    return at + 1


_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
"""The markers that start a frame (``SOFn``), which states the picture's size."""
_JPEG_ALONE = {0x01, *range(0xD0, 0xD9)}
"""The markers with no length after them."""


def _jpeg(head: bytes) -> tuple[int, int] | None:
    for marker, at in _jpeg_markers(head):
        if marker in (0xD9, 0xDA):  # the end, or a scan before any frame
            return None
        if marker in _JPEG_FRAMES:
            if at + 9 > len(head):
                return None
            return int.from_bytes(head[at + 7 : at + 9], "big"), int.from_bytes(head[at + 5 : at + 7], "big")
    return None


def _webp(head: bytes) -> tuple[int, int] | None:
    chunk = head[12:16]
    if chunk == b"VP8X" and len(head) >= 30:
        return 1 + int.from_bytes(head[24:27], "little"), 1 + int.from_bytes(head[27:30], "little")
    if chunk == b"VP8L" and len(head) >= 25:
        bits = int.from_bytes(head[21:25], "little")
        return 1 + (bits & 0x3FFF), 1 + ((bits >> 14) & 0x3FFF)
    if chunk == b"VP8 " and len(head) >= 30:
        return int.from_bytes(head[26:28], "little") & 0x3FFF, int.from_bytes(head[28:30], "little") & 0x3FFF
    return None


_AVIF_PATH = (b"meta", b"iprp", b"ipco")
"""The boxes, one inside the other, that hold an AVIF image's properties, its size (``ispe``) among them."""


def _avif(head: bytes) -> tuple[int, int] | None:
    """The largest size any ``ispe`` property states (a picture may hold a thumbnail and an alpha plane too)."""
    start, end = 0, len(head)
    for depth, wanted in enumerate(_AVIF_PATH):
        found = next(((s, e) for kind, s, e in _boxes(head, start, end) if kind == wanted), None)
        if found is None:
            return None
        start, end = found
        if depth == 0:
            start += 4  # ``meta`` is a full box: a version and flags come first
    sizes = [
        (int.from_bytes(head[s + 4 : s + 8], "big"), int.from_bytes(head[s + 8 : s + 12], "big"))
        for kind, s, e in _boxes(head, start, end)
        if kind == b"ispe" and e - s >= 12
    ]
    return max(sizes, key=lambda size: size[0] * size[1], default=None)


def _boxes(head: bytes, start: int, end: int) -> list[tuple[bytes, int, int]]:
    """The ISO media boxes between ``start`` and ``end``: each one's kind and where its content starts and ends."""
    found: list[tuple[bytes, int, int]] = []
    at = start
    while at + 8 <= end and len(found) < _MAX_BOXES:
        size, kind, content = int.from_bytes(head[at : at + 4], "big"), head[at + 4 : at + 8], at + 8
        if size == 1:  # a 64-bit size follows
            size, content = int.from_bytes(head[at + 8 : at + 16], "big"), at + 16
        elif size == 0:  # to the end
            size = end - at
        if size < content - at:
            break
        found.append((kind, content, min(at + size, end)))
        at += size
    return found
