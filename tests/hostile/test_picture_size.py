"""A picture is refused when it says it has more pixels than a reader's browser, or Typst, could decode.

A PNG of 3.5 MB saying 60,000 x 60,000 pixels (one colour, compressed) made a build take 3.6 GB and was
published for every reader's phone to decode. Each raster type states its size near its start, as its
decoder reads it: each is made here as an encoder writes it, around the size, and read.
"""

from __future__ import annotations

import base64
import json
import struct
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.picture_size import MAX_PIXELS, pixel_size
from rulebook.pictures import Refusal, published_picture
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

from .pictures import HUGE, PNG


def _png(width: int, height: int) -> bytes:
    header = struct.pack(">II5B", width, height, 8, 6, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + header + b"\x00" * 4


def _gif(width: int, height: int) -> bytes:
    return b"GIF89a" + struct.pack("<HH", width, height) + b"\x00\x00\x00;"


def _jpeg(width: int, height: int) -> bytes:
    """A progressive JPEG whose frame comes after its metadata (JFIF, then an Exif block of 40 KB) and a fill byte."""
    jfif = b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
    exif = b"\xff\xe1" + struct.pack(">H", 40_002) + b"Exif\x00\x00" + b"\x00" * 39_994
    frame = b"\xff\xff\xc2\x00\x11\x08" + struct.pack(">HH", height, width) + b"\x03" + b"\x01\x22\x00" * 3
    return b"\xff\xd8" + jfif + exif + frame + b"\xff\xd9"


def _riff(chunk: bytes, body: bytes) -> bytes:
    inner = b"WEBP" + chunk + struct.pack("<I", len(body)) + body
    return b"RIFF" + struct.pack("<I", len(inner)) + inner


def _webp_extended(width: int, height: int) -> bytes:
    return _riff(b"VP8X", b"\x10\x00\x00\x00" + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little"))


def _webp_lossless(width: int, height: int) -> bytes:
    bits = (width - 1) | (height - 1) << 14 | 1 << 28
    return _riff(b"VP8L", b"\x2f" + struct.pack("<I", bits) + b"\x00" * 4)


def _webp_lossy(width: int, height: int) -> bytes:
    return _riff(b"VP8 ", b"\x30\x01\x00\x9d\x01\x2a" + struct.pack("<HH", width, height) + b"\x00" * 8)


def _box(kind: bytes, body: bytes, *, full: bool = False) -> bytes:
    content = (b"\x00\x00\x00\x00" if full else b"") + body
    return struct.pack(">I", 8 + len(content)) + kind + content


def _avif(width: int, height: int) -> bytes:
    """An AVIF as libavif writes one: a thumbnail's ``ispe`` first, then the image's."""
    ispe = _box(b"ispe", struct.pack(">II", 64, 64), full=True) + _box(
        b"ispe", struct.pack(">II", width, height), full=True
    )
    properties = _box(b"iprp", _box(b"ipco", _box(b"pixi", b"\x00\x00\x00\x00\x03\x08\x08\x08") + ispe))
    meta = _box(b"meta", _box(b"hdlr", b"\x00" * 24, full=True) + properties, full=True)
    return _box(b"ftyp", b"avif\x00\x00\x00\x00avifmif1miaf") + meta + _box(b"mdat", b"\x00" * 16)


MADE: dict[str, tuple[Callable[[int, int], bytes], str, int]] = {
    "PNG": (_png, "picture.png", 60_000),
    "GIF": (_gif, "picture.gif", 60_000),
    "JPEG": (_jpeg, "picture.jpg", 60_000),
    "WebP": (_webp_extended, "picture.webp", 60_000),
    "WebP lossless": (_webp_lossless, "picture.webp", 16_384),
    "WebP lossy": (_webp_lossy, "picture.webp", 16_383),
    "AVIF": (_avif, "picture.avif", 60_000),
}
"""How each raster type is made at a given size (its first word), its file's name, and the largest side it can
state."""


@pytest.mark.parametrize("kind", MADE)
def test_each_type_says_its_size(kind: str) -> None:
    make, _, _ = MADE[kind]
    data = make(1_234, 567)
    assert pixel_size(data, kind.split()[0]) == (1_234, 567)


@pytest.mark.parametrize("kind", MADE)
def test_a_picture_of_too_many_pixels_is_refused(kind: str, tmp_path: Path) -> None:
    make, name, side = MADE[kind]
    (tmp_path / name).write_bytes(make(side, side))
    needed = side * side * 4 / 1024**3
    assert published_picture(tmp_path / name) == Refusal(
        f"it is {side:,} x {side:,} pixels, more than the 64,000,000 a picture may have (a browser or the PDF would "
        f"need {needed:,.1f} GB to show it)",
        "export it smaller",
    )


@pytest.mark.parametrize("kind", MADE)
def test_a_picture_of_as_many_pixels_as_may_be_is_published(kind: str, tmp_path: Path) -> None:
    make, name, _ = MADE[kind]
    data = make(8_000, MAX_PIXELS // 8_000)
    (tmp_path / name).write_bytes(data)
    assert published_picture(tmp_path / name) == data


def test_an_svg_carrying_a_picture_of_too_many_pixels_is_refused() -> None:
    """An SVG may carry a raster picture (``data:image/png;base64,...``): its size is the picture's, whatever type
    the address names (here a GIF named a PNG)."""
    for carried in (HUGE, _gif(60_000, 60_000)):
        address = "data:image/png;base64," + base64.b64encode(carried).decode()
        drawing = f'<svg xmlns="http://www.w3.org/2000/svg">\n<image href="{address}"/></svg>'.encode()
        with pytest.raises(UnsafeSvg) as refused:
            sanitised_svg(drawing)
        assert str(refused.value) == (
            "a picture it carries is refused: it is 60,000 x 60,000 pixels, more than the 64,000,000 a picture may "
            "have (a browser or the PDF would need 13.4 GB to show it), line 2 of the picture"
        )
    small = "data:image/png;base64," + base64.b64encode(PNG).decode()
    assert small.encode() in sanitised_svg(
        f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{small}"/></svg>'.encode()
    )


def test_an_svg_too_large_to_parse_safely_is_refused_before_it_is_parsed(tmp_path: Path) -> None:
    """35 MB of ``<rect/>`` took 1.4 GB and 18 s to rebuild (for the lint, then for the site): an SVG may hold 16 MB
    and 30,000 tags (a drawing of 100,000 elements takes 200 MB to rebuild)."""
    start = b'<svg xmlns="http://www.w3.org/2000/svg">'
    cases = {
        "large.svg": (start + b" " * (16 << 20) + b"</svg>", "it is larger than 16 MB, the most an SVG picture may be"),
        "busy.svg": (
            start + b"<rect/>" * 30_000 + b"</svg>",
            "it has more than 30,000 tags, the most an SVG picture may have",
        ),
    }
    for name, (data, reason) in cases.items():
        (tmp_path / name).write_bytes(data)
        assert published_picture(tmp_path / name) == Refusal(reason, "export it simpler, or as a PNG")
    (tmp_path / "fine.svg").write_bytes(start + b"<rect/>" * 29_998 + b"</svg>")
    assert isinstance(published_picture(tmp_path / "fine.svg"), bytes)


def _jpeg_with_a_stray_byte(width: int, height: int) -> bytes:
    """A JPEG holding a byte between two segments, which a decoder passes over (Chromium shows the picture)."""
    return _jpeg(width, height).replace(b"\xff\xff\xc2", b"\x00\xff\xc2")


def _jpeg_with_much_metadata(width: int, height: int) -> bytes:
    """A JPEG whose frame comes after 1.1 MB of metadata (17 ICC blocks of 64 KB)."""
    block = b"\xff\xe2" + struct.pack(">H", 65_535) + b"\x00" * 65_533
    made = _jpeg(width, height)
    return made[:2] + block * 17 + made[2:]


def _gif_with_a_larger_frame(width: int, height: int) -> bytes:
    """A GIF whose screen is 1 x 1 but whose first frame is larger (Chromium grows the picture to hold it), after a
    comment and a colour table."""
    comment = b"\x21\xfe\x05hello\x00"
    frame = b"\x2c" + struct.pack("<4H", 0, 0, width, height) + b"\x81" + b"\x00" * 12 + b"\x02\x02\x44\x01\x00"
    return b"GIF89a" + struct.pack("<HH", 1, 1) + b"\x80\x00\x00" + b"\x00" * 6 + comment + frame + b";"


def _avif_after_a_large_box(width: int, height: int) -> bytes:
    """An AVIF whose properties follow a box of 1.1 MB (boxes may come in any order)."""
    made = _avif(width, height)
    meta = made.index(b"meta") - 4
    return made[:meta] + _box(b"free", b"\x00" * (1_100 * 1024)) + made[meta:]


FURTHER: dict[str, tuple[Callable[[int, int], bytes], str]] = {
    "JPEG, a stray byte": (_jpeg_with_a_stray_byte, "picture.jpg"),
    "JPEG, 1.1 MB of metadata": (_jpeg_with_much_metadata, "picture.jpg"),
    "JPEG, a stuffed zero": (lambda w, h: _jpeg(w, h).replace(b"\xff\xff\xc2", b"\xff\x00\xff\xc2"), "picture.jpg"),
    "GIF, a larger first frame": (_gif_with_a_larger_frame, "picture.gif"),
    "AVIF, after a large box": (_avif_after_a_large_box, "picture.avif"),
}
"""Pictures whose size is where their decoder finds it but was not looked for: each was published whatever it said."""


@pytest.mark.parametrize("kind", FURTHER)
def test_a_picture_whose_size_is_further_in_is_held_to_the_limit(kind: str, tmp_path: Path) -> None:
    """The lint (which reads a picture's first megabyte) and the site (which reads it whole) refuse it alike; an SVG
    carrying it too; one within the limit is published as it is."""
    from rulebook.pictures import picture_refusal

    make, name = FURTHER[kind]
    (tmp_path / name).write_bytes(make(60_000, 60_000))
    refusal = Refusal(
        "it is 60,000 x 60,000 pixels, more than the 64,000,000 a picture may have (a browser or the PDF would need "
        "13.4 GB to show it)",
        "export it smaller",
    )
    assert picture_refusal(tmp_path / name) == published_picture(tmp_path / name) == refusal
    address = "data:image/png;base64," + base64.b64encode(make(60_000, 60_000)).decode()
    with pytest.raises(UnsafeSvg, match="a picture it carries is refused: it is 60,000 x 60,000 pixels"):
        sanitised_svg(f'<svg xmlns="http://www.w3.org/2000/svg"><image href="{address}"/></svg>'.encode())
    small = make(8_000, 8_000)
    (tmp_path / name).write_bytes(small)
    assert picture_refusal(tmp_path / name) is None
    assert published_picture(tmp_path / name) == small


def _avif_sequence() -> bytes:
    """An AVIF image sequence as libavif writes one without a still image: brand ``avis``, its frames in a track
    (sized by the AV1 sequence header, which is not read), no ``ispe`` property."""
    return (
        _box(b"ftyp", b"avis\x00\x00\x00\x00avisavifmsf1iso8mif1miaf")
        + _box(b"moov", _box(b"mvhd", b"\x00" * 96, full=True) + _box(b"trak", _box(b"tkhd", b"\x00" * 80, full=True)))
        + _box(b"mdat", b"\x00" * 16)
    )


def test_an_avif_stating_no_still_pictures_size_is_refused(tmp_path: Path) -> None:
    """A browser plays an AVIF image sequence whatever size its track says: without a still picture's size to
    hold to the limit, it is not published, alone or carried in an SVG; a still AVIF is."""
    (tmp_path / "moving.avif").write_bytes(_avif_sequence())
    assert published_picture(tmp_path / "moving.avif") == Refusal(
        "it states no still picture's size (an AVIF image sequence, or properties that cannot be read)",
        "export it as a still AVIF picture, or as a PNG",
    )
    address = "data:image/avif;base64," + base64.b64encode(_avif_sequence()).decode()
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(f'<svg xmlns="http://www.w3.org/2000/svg">\n<image href="{address}"/></svg>'.encode())
    assert str(refused.value) == (
        "a picture it carries is refused: it states no still picture's size (an AVIF image sequence, or properties "
        "that cannot be read), line 2 of the picture"
    )
    still = _avif(640, 480)
    (tmp_path / "still.avif").write_bytes(still)
    assert published_picture(tmp_path / "still.avif") == still


def _repeating(levels: int, fan: int = 10) -> bytes:
    """An SVG of ``levels`` groups, each ``fan`` ``<use>`` of the group below: it draws ``fan ** levels`` rectangles."""
    groups = "".join(
        f'<g id="g{level}">' + f'<use href="#g{level - 1}"/>' * fan + "</g>" for level in range(1, levels + 1)
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg"><defs><rect id="g0" width="1" height="1"/>{groups}</defs>'
        f'<use href="#g{levels}"/></svg>'
    ).encode()


def test_an_svg_drawing_too_many_elements_through_use_is_refused(tmp_path: Path) -> None:
    """Seven levels of ten ``<use>`` of the level below: 80 tags drew ten million rectangles. The lint passed it, the
    site published it, and the PDF stopped the whole build at usvg's million nodes ("Typst could not read the
    pictures", naming no picture); a chain of ``<use>`` each of the one before draws the sum of their lengths."""
    chain = '<rect id="r0"/>' + "".join(f'<use id="r{i}" href="#r{i - 1}"/>' for i in range(1, 1500))
    points = " ".join(f"{i % 1000},{i // 1000}" for i in range(50_000))
    patterns = '<pattern id="p0"><rect/></pattern>' + "".join(
        f'<pattern id="p{d}">' + f'<rect fill="url(#p{d - 1})"/>' * 10 + "</pattern>" for d in range(1, 9)
    )
    cases = {
        "levels.svg": _repeating(7),
        "patterns.svg": svg_of(patterns + '<rect style="fill: url(#p8)"/>'),  # Typst: over 60 s at 36 MB
        "masks.svg": svg_of(patterns.replace("pattern", "mask").replace("fill=", "mask=") + '<rect mask="url(#p8)"/>'),
        "filters.svg": svg_of(  # Typst: 17 GB in 40 s for seven levels
            '<g id="g0"><rect/></g>'
            + "".join(
                f'<filter id="f{d}"><feImage href="#g{d - 1}"/></filter><g id="g{d}">'
                + f'<rect filter="url(#f{d})"/>' * 10
                + "</g>"
                for d in range(1, 9)
            )
            + '<use href="#g8"/>'
        ),
        "markers.svg": svg_of(  # 16.5 GB in Typst after 40 s, from 390 KB
            f'<style>polyline {{ marker-mid: url(#m) }}</style><marker id="m">{"<rect/>" * 2000}</marker>'
            f'<polyline points="{points}"/>'
        ),
        "chain.svg": f'<svg xmlns="http://www.w3.org/2000/svg">{chain}</svg>'.encode(),
    }
    reason = (
        "it draws more than 1,000,000 elements (each point of a path or line counted as one; its `<use>` elements, "
        "patterns, masks, clipping paths or filters repeating others, or its markers drawn at every point of its "
        "lines), the most an SVG picture may draw"
    )
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        assert published_picture(tmp_path / name) == Refusal(reason, "export it simpler, or as a PNG"), name
    fine = '<g id="a"><use href="#a"/><use href="#b"/></g><g id="b"><use href="#a"/></g>'  # cycles draw nothing
    arrow = '<marker id="a"><path d="M0,0 L10,5 L0,10 z"/></marker><path d="M0 0 L9 9" marker-end="url(#a)"/>'
    for name, data in {"five.svg": _repeating(5), "cycle.svg": svg_of(fine), "arrow.svg": svg_of(arrow)}.items():
        (tmp_path / name).write_bytes(data)
        assert isinstance(published_picture(tmp_path / name), bytes), name


def svg_of(body: str) -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg">{body}</svg>'.encode()


def test_a_picture_typst_stops_inside_is_left_out_of_the_pdf_alone(tmp_path: Path) -> None:
    """usvg names the SVG's own file, not the line of the document showing it, when it stops inside the picture: the
    whole PDF was refused; now that picture alone is left out and said to be."""
    from rulebook.pdf.typst_run import readable_pictures

    kept, refused = readable_pictures({"fine.svg": _repeating(2), "busy.svg": _repeating(6)}, tmp_path / "check")
    assert list(kept) == ["fine.svg"]
    assert refused == (
        "images/busy.svg: Typst cannot read this picture (failed to parse SVG (nodes limit reached)); the PDF shows "
        "its place",
    )


def test_an_svg_whose_markers_may_draw_markers_is_refused() -> None:
    """Markers drawing lines that carry markers: three levels of 3,000 points took Typst 14.8 GB in 40 s."""
    points = " ".join(f"{i},{i}" for i in range(3000))
    nested = (
        '<marker id="m0"><rect/></marker>'
        f'<marker id="m1"><polyline points="{points}" marker-mid="url(#m0)"/></marker>'
        f'<polyline points="{points}" marker-mid="url(#m1)"/>'
    )
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(svg_of(nested))
    assert str(refused.value) == (
        "a marker of it draws a line that may carry markers in turn (markers given in a `<style>` or inside a marker)"
    )


def test_an_svg_whose_style_paints_with_one_of_its_patterns_is_refused() -> None:
    """Which elements a ``<style>`` rule paints is not told apart: with two patterns, one may paint the other's
    drawing at each of its elements, level after level."""
    styled = '<style>.a { fill: url(#p0) }</style><pattern id="p0"><rect/></pattern><pattern id="p1"><rect class="a"/>'
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(svg_of(styled + '</pattern><rect fill="url(#p1)"/>'))
    assert str(refused.value) == "its `<style>` refers to `p0`, a pattern whose drawing may refer to another in turn"


_INHERITED = '<pattern id="L0"><rect/></pattern>' + "".join(
    f'<pattern id="L{d}"><g fill="url(#L{d - 1})">' + "<rect/>" * 10 + "</g></pattern>" for d in range(1, 8)
)
_TEMPLATED = '<pattern id="T0"><rect/></pattern>' + "".join(
    f'<pattern id="T{d}" href="#U{d}"/><pattern id="U{d}">' + f'<rect fill="url(#T{d - 1})"/>' * 10 + "</pattern>"
    for d in range(1, 8)
)


@pytest.mark.parametrize(
    "body",
    [
        _INHERITED + '<g style="fill: url(#L7)"><rect/></g>',
        _TEMPLATED + '<rect fill="url(#T7)"/>',
        '<style>rect { fill: url(#p) }</style><pattern id="p">' + "<circle/>" * 1001 + "</pattern>" + "<rect/>" * 1000,
        '<pattern id="p">' + "<rect/>" * 10_000 + '</pattern><text fill="url(#p)"><a>' + "abcd " * 6000 + "</a></text>",
        '<pattern id="p">'
        + "<rect/>" * 2000
        + '</pattern><marker id="m">'
        + '<rect fill="context-fill"/>' * 10
        + '</marker><polyline fill="url(#p)" marker-mid="url(#m)" points="'
        + " ".join(f"{i},{i}" for i in range(3000))
        + '"/>',
        _INHERITED.replace('<g fill="url', '<g fill="URL') + '<rect fill="URL(#L7)"/>',
    ],
    ids=["inherited", "templated", "styled", "lettered", "in-context", "upper-case"],
)
def test_an_svg_painting_with_a_pattern_many_times_unseen_is_refused(body: str) -> None:
    """A pattern given to a group paints each element inside (``fill`` is inherited), one given in a ``<style>`` may
    paint any element, and a pattern with an ``href`` draws the one it names: each was counted once. Seven levels of
    groups of ten held Typst, and the build, over two minutes; one pattern of 20,000 circles styled onto 20,000
    rectangles the same; 30,000 letters painted with a pattern of 10,000 rectangles (each glyph paints it) the same; a marker's ten rectangles
    painted with its line's pattern (``context-fill``) at 3,000 points took Typst past 6 GB, where it aborted; nine levels written
    ``URL(#p)``, which CSS reads as ``url(#p)``, held Chromium over 90 s."""
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(svg_of(body))
    assert str(refused.value).startswith("it draws more than 1,000,000 elements (each point of a path or line")


def test_a_hatched_drawing_is_published() -> None:
    """A pattern given by a ``<style>`` and by a group to a thousand shapes is a thousand times its drawing."""
    hatched = '<style>.h { fill: url(#h) }</style><pattern id="h"><path d="M0 0 L4 4"/></pattern>'
    assert sanitised_svg(svg_of(hatched + '<g fill="url(#h)">' + '<rect class="h"/>' * 1000 + "</g>"))


def test_an_svg_giving_markers_in_capitals_is_refused_as_in_small_letters() -> None:
    """CSS reads property names and functions in any case: ``MARKER-MID: URL(#m)`` in a ``<style>`` gives markers as
    ``marker-mid: url(#m)`` does, and was not seen."""
    points = " ".join(f"{i},{i}" for i in range(3000))
    nested = (
        "<style>polyline { MARKER-MID: URL(#m) }</style>"
        f'<marker id="m"><polyline points="{points}"/></marker><polyline points="{points}"/>'
    )
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(svg_of(nested))
    assert str(refused.value) == (
        "a marker of it draws a line that may carry markers in turn (markers given in a `<style>` or inside a marker)"
    )


SHADOW = (
    '<filter id="f"><feGaussianBlur in="SourceAlpha" stdDeviation="3"/><feOffset dx="2" dy="2"/>'
    '<feComponentTransfer><feFuncA type="linear" slope="0.5"/></feComponentTransfer>'
    '<feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge><feFlood flood-color="#000"/></filter>'
)
"""A drop shadow as an editor writes it: five passes (its channels and inputs are parts of them)."""
WHOLE = 'width="2000" height="2000"'
"""A rectangle the size of the picture (:func:`svg_of` says none: 2,000 x 2,000), filtered over all of it."""
FILTERS_TAKING_TOO_MANY_STEPS = {
    # one filter of 26 blurs on one rectangle (1,000 held Chromium over 120 s)
    "one long filter": '<filter id="f">' + '<feGaussianBlur stdDeviation="8"/>' * 26 + "</filter>"
    f'<rect {WHOLE} filter="url(#f)"/>',
    # a 5 x 5 kernel is two steps (50 took Chromium 28 s)
    "kernels": '<filter id="f">' + '<feConvolveMatrix order="5" kernelMatrix="1"/>' * 13 + "</filter>"
    f'<rect {WHOLE} filter="url(#f)"/>',
    # six elements each given the shadow's five passes, by attribute, by style in any case, through <use>
    "given to many": SHADOW + f'<rect id="r" {WHOLE} filter="URL(#f)"/>' * 6,
    "given in style": SHADOW + f"<g style=\"opacity: 1; FILTER: url( '#f' )\"><rect {WHOLE}/></g>" * 6,
    "repeated by use": SHADOW + f'<rect id="r" {WHOLE} filter="url(#f)"/>' + '<use href="#r"/>' * 5,
    "given by a style": SHADOW + "<style>rect { filter: url(#f) }</style>" + '<rect width="9" height="9"/>' * 6,
    # CSS's filter functions, five steps each (50 blur() on one rectangle held Chromium 40 s, 100 over 120 s)
    "functions": '<rect width="1000" height="1000" filter="' + "blur(8px) " * 6 + '"/>',
    "functions in style": '<rect style="FILTER: ' + "Drop-Shadow(2px 2px 8px red) " * 6 + '"/>',
    "functions in a style": "<style>rect { filter: blur(1px) }</style>" + "<rect/>" * 6,
}


@pytest.mark.parametrize("body", FILTERS_TAKING_TOO_MANY_STEPS.values(), ids=FILTERS_TAKING_TOO_MANY_STEPS.keys())
def test_an_svg_whose_filters_take_too_many_steps_is_refused(body: str) -> None:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(svg_of(body))
    assert str(refused.value) == (
        "its filters take more than 25 steps (each primitive of a filter, for each element given that filter, each "
        "time it is drawn), the most an SVG picture may take: each is a pass over every pixel of the element in a "
        "reader's browser"
    )


def test_a_drop_shadow_on_four_elements_the_size_of_the_picture_or_a_hundred_small_ones_is_published() -> None:
    assert b"feGaussianBlur" in sanitised_svg(svg_of(SHADOW + f'<rect {WHOLE} filter="url(#f)"/>' * 4))
    assert b"feGaussianBlur" in sanitised_svg(svg_of(SHADOW + '<rect width="90" height="90" filter="url(#f)"/>' * 100))
    assert b"blur(2px)" in sanitised_svg(svg_of('<rect filter="blur(2px)"/>' * 5))


def _segment(marker: int, payload: bytes) -> bytes:
    return bytes((0xFF, marker)) + struct.pack(">H", len(payload) + 2) + payload


def _progressive_scans(scans: int) -> bytes:
    """A progressive grey JPEG of 64 x 64 pixels: its DC scan, then ``scans`` - 1 scans of its AC coefficients, each
    saying in one byte that all 64 blocks hold zeros (an end-of-band run of 64): a browser decodes every block again at
    each (a megabyte of such scans over 8,000 x 8,000 pixels held Chromium 80 s)."""
    frame = _segment(0xC2, struct.pack(">BHHB", 8, 64, 64, 1) + b"\x01\x11\x00")
    tables = _segment(0xC4, b"\x00" + bytes([1] + [0] * 15) + b"\x00")  # DC: a difference of 0 is "0"
    tables += _segment(0xC4, b"\x10" + bytes([1] + [0] * 15) + b"\x60")  # AC: a run of 64 to 127 blocks is "0"
    dc = _segment(0xDA, b"\x01\x01\x00\x00\x00\x00") + b"\x00" * 8  # 64 blocks, each "0"
    ac = _segment(0xDA, b"\x01\x01\x00\x01\x3f\x00") + b"\x01"  # "0", the run's 6 bits (64 + 0), padding
    quantisation = _segment(0xDB, b"\x00" + b"\x01" * 64)
    return b"\xff\xd8" + quantisation + frame + tables + dc + ac * (scans - 1) + b"\xff\xd9"


def test_a_jpeg_of_too_many_scans_is_refused(tmp_path: Path) -> None:
    """Its work in a browser is its scans times its pixels, which its file size does not bound: the lint (which reads
    a picture's start) and the site refuse it alike; a JPEG carrying a thumbnail (a JPEG in its Exif block) counts
    its own scans only."""
    from rulebook.pictures import picture_refusal

    refused = Refusal(
        "it is a JPEG of more than 100 scans, the most a picture may have (a browser decodes the whole picture again "
        "at each scan: a megabyte of them held one for over a minute)",
        "export it again: as a baseline JPEG, or progressive with the encoder's own scans",
    )
    (tmp_path / "many.jpg").write_bytes(b"\xff\xd8\xff\xe0\x00\x10JFIF\x00" + b"\x00" * 9 + _progressive_scans(101)[2:])
    assert published_picture(tmp_path / "many.jpg") == refused
    assert picture_refusal(tmp_path / "many.jpg") == refused
    thumbnail = _progressive_scans(100)
    exif = _segment(0xE1, b"Exif\x00\x00" + thumbnail * 3)
    data = _progressive_scans(100)
    (tmp_path / "at the limit.jpg").write_bytes(data[:2] + exif + data[2:])
    assert published_picture(tmp_path / "at the limit.jpg") == (tmp_path / "at the limit.jpg").read_bytes()
    carried = "data:image/png;base64," + base64.b64encode(_progressive_scans(101)).decode()
    with pytest.raises(UnsafeSvg) as unsafe:
        sanitised_svg(f'<svg xmlns="http://www.w3.org/2000/svg">\n<image href="{carried}"/></svg>'.encode())
    assert str(unsafe.value) == f"a picture it carries is refused: {refused.reason}, line 2 of the picture"


def test_a_jpeg_of_too_many_segments_is_refused(tmp_path: Path) -> None:
    """A camera's or an editor's JPEG has tens of segments; 16 million empty comments (64 MB) were walked one by one,
    24 s for the site and again for the lint."""
    from rulebook.pictures import picture_refusal

    data = _progressive_scans(2)
    (tmp_path / "many.jpg").write_bytes(data[:2] + b"\xff\xfe\x00\x02" * 10_001 + data[2:])
    refused = Refusal(
        "it is a JPEG of more than 10,000 segments, which no camera or editor writes",
        "export it again: as a baseline JPEG, or progressive with the encoder's own scans",
    )
    assert published_picture(tmp_path / "many.jpg") == refused
    assert picture_refusal(tmp_path / "many.jpg") == refused
    (tmp_path / "enough.jpg").write_bytes(data[:2] + b"\xff\xfe\x00\x02" * 9_000 + data[2:])
    assert picture_refusal(tmp_path / "enough.jpg") is None


@pytest.mark.parametrize(
    "filler",
    [b"\xff\x00" * (32 * 1024 * 1024), b"\xff" * (64 * 1024 * 1024), b"\xff\xfe\x00\x02" * (16 * 1024 * 1024)],
    ids=["stuffed zeros in a scan", "fill bytes", "empty comments"],
)
def test_a_large_jpeg_is_walked_in_linear_time(tmp_path: Path, filler: bytes) -> None:
    """64 MB a JPEG's scan, its fill bytes or its segments were walked a byte or a segment at a time in Python: 24 s
    and more, for the site and again for the lint; searched at the regular expression engine's pace now (under
    0.5 s each on this machine)."""
    from rulebook.pictures import picture_refusal

    from .test_growth import cpu_time_under

    data = _progressive_scans(2)
    at = len(data) - 2 if filler.startswith(b"\xff\x00") else 2
    (tmp_path / "large.jpg").write_bytes(data[:at] + filler + data[at:])
    with cpu_time_under(10):
        picture_refusal(tmp_path / "large.jpg")
        published_picture(tmp_path / "large.jpg")


# -- animations: every frame is decoded on the whole canvas ---------------------------------------------------------


def _png_chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def _apng(width: int, height: int, frames: int) -> bytes:
    """An APNG as an encoder writes one: its ``acTL`` before its image, then a one-pixel frame (``fcTL``, ``fdAT``)
    after another, each composed on the whole canvas."""
    image = [_png_chunk(b"fcTL", struct.pack(">5I2H2B", 0, width, height, 0, 0, 1, 100, 0, 0))]
    image.append(_png_chunk(b"IDAT", zlib.compress(b"\x00" * (width + 1))))  # a first row: no decoder reads it here
    pixel = zlib.compress(b"\x00\xff")
    for frame in range(1, frames):
        image.append(_png_chunk(b"fcTL", struct.pack(">5I2H2B", 2 * frame - 1, 1, 1, frame % width, 0, 1, 100, 1, 0)))
        image.append(_png_chunk(b"fdAT", struct.pack(">I", 2 * frame) + pixel))
    header = _png_chunk(b"IHDR", struct.pack(">II5B", width, height, 8, 0, 0, 0, 0))
    return b"\x89PNG\r\n\x1a\n" + header + _png_chunk(b"acTL", struct.pack(">II", frames, 0)) + b"".join(image)


def _gif_animation(width: int, height: int, frames: int) -> bytes:
    """A GIF of ``frames`` images of one pixel, each after its graphic control (its delay), with a loop."""
    loop = b"\x21\xff\x0bNETSCAPE2.0\x03\x01\x00\x00\x00"
    frame = b"\x21\xf9\x04\x04\x0a\x00\x00\x00" + b"\x2c" + struct.pack("<4HB", 0, 0, 1, 1, 0) + b"\x02\x02\x44\x01\x00"
    return b"GIF89a" + struct.pack("<HH", width, height) + b"\x00\x00\x00" + loop + frame * frames + b";"


def _webp_animation(width: int, height: int, frames: int) -> bytes:
    """An animated WebP: its canvas (``VP8X`` saying so), its loop (``ANIM``), then each frame (``ANMF``)."""
    canvas = b"\x12\x00\x00\x00" + (width - 1).to_bytes(3, "little") + (height - 1).to_bytes(3, "little")
    chunks = b"VP8X" + struct.pack("<I", len(canvas)) + canvas + b"ANIM" + struct.pack("<I", 6) + b"\x00" * 6
    pixel = b"VP8L" + struct.pack("<I", 5) + b"\x2f\x00\x00\x00\x10" + b"\x00"
    body = b"\x00" * 12 + b"\x64\x00\x00\x00" + pixel
    chunks += (b"ANMF" + struct.pack("<I", len(body)) + body) * frames
    return b"RIFF" + struct.pack("<I", 4 + len(chunks)) + b"WEBP" + chunks


def _avif_animation(width: int, height: int, frames: int) -> bytes:
    """An AVIF image sequence with a still picture (its ``ispe``), its track holding ``frames`` samples."""
    samples = _box(b"stsz", struct.pack(">II", 0, frames) + b"\x00\x00\x00\x10" * frames, full=True)
    track = _box(b"trak", _box(b"mdia", _box(b"minf", _box(b"stbl", samples))))
    return _avif(width, height)[:-24] + _box(b"moov", track) + _box(b"mdat", b"\x00" * 16)


ANIMATED: dict[str, tuple[Callable[[int, int, int], bytes], str]] = {
    "PNG": (_apng, "moving.png"),
    "GIF": (_gif_animation, "moving.gif"),
    "WebP": (_webp_animation, "moving.webp"),
    "AVIF": (_avif_animation, "moving.avif"),
}
"""How each type that animates is made of a canvas and a number of frames, and its file's name."""


@pytest.mark.parametrize("kind", ANIMATED)
def test_an_animation_of_too_many_pixels_over_its_frames_is_refused(kind: str, tmp_path: Path) -> None:
    """A small file of many frames of a large canvas (10,000 frames of 4,000 x 4,000 pixels are 640 KB of APNG) makes
    a reader's browser decode every frame on the whole canvas, again at each pass: the frames times the canvas are
    held to a limit, by the lint, the site and an SVG carrying the picture alike; a still picture of the largest
    size and an animation at the limit are published."""
    from rulebook.picture_size import MAX_FRAME_PIXELS, frame_count
    from rulebook.pictures import picture_refusal

    make, name = ANIMATED[kind]
    assert frame_count(make(640, 480, 12), kind) == 12
    (tmp_path / name).write_bytes(make(4_000, 4_000, 11))
    refused = Refusal(
        f"it is an animation of 11 frames of 4,000 x 4,000 pixels, more than the {MAX_FRAME_PIXELS:,} pixels an "
        "animated picture may have over all its frames (a browser decodes every frame on the whole picture, again "
        "at each pass)",
        "export it with fewer frames or smaller, or as a video",
    )
    assert published_picture(tmp_path / name) == picture_refusal(tmp_path / name) == refused
    carried = "data:image/png;base64," + base64.b64encode(make(4_000, 4_000, 11)).decode()
    with pytest.raises(UnsafeSvg) as unsafe:
        sanitised_svg(f'<svg xmlns="http://www.w3.org/2000/svg">\n<image href="{carried}"/></svg>'.encode())
    assert str(unsafe.value) == f"a picture it carries is refused: {refused.reason}, line 2 of the picture"
    for width, height, frames in ((4_000, 4_000, 10), (8_000, 8_000, 1), (8_000, 8_000, 2), (64, 64, 39_000)):
        data = make(width, height, frames)
        (tmp_path / name).write_bytes(data)
        assert published_picture(tmp_path / name) == data, (width, height, frames)


def test_the_lint_places_an_animation_of_too_many_pixels_and_the_site_leaves_it_out(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The APNG of the probe, 10,000 frames on a 4,000 x 4,000 canvas, is the located `refused-image` finding, and
    the site shows its placeholder."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "rules" / "images").mkdir(parents=True)
    (tmp_path / "rules" / "images" / "moving.png").write_bytes(_apng(4_000, 4_000, 10_000))
    (tmp_path / "rules" / "book.xml").write_text(
        '<?xml version="1.0" encoding="UTF-8"?>\n<document>\n<chapter id="moves" title="Moves">\n'
        '<figure id="figure_1"><image source="moving.png"/><caption>Moving</caption></figure>\n'
        "</chapter>\n</document>\n",
        encoding="utf-8",
    )
    (tmp_path / "rulebook.toml").write_text('title = "Moves"\nsources = ["rules/book.xml"]\n', encoding="utf-8")
    code = main(["lint", "--format", "json"])
    found = [json.loads(line.rstrip(",")) for line in capsys.readouterr().out.splitlines()[1:-1]]
    assert code == 1
    assert [(d["code"], d["line"], d["column"], d["message"]) for d in found] == [
        (
            "RB305",
            4,
            23,
            "image `moving.png` is not published: it is an animation of 10,000 frames of 4,000 x 4,000 pixels, more "
            "than the 160,000,000 pixels an animated picture may have over all its frames (a browser decodes every "
            "frame on the whole picture, again at each pass)",
        )
    ]
    assert main(["build", "-q"]) == 0
    assert not (tmp_path / "site" / "images" / "moving.png").exists()


def test_the_raster_pictures_an_svg_carries_are_counted_together() -> None:
    """Each carried picture passed its own limit, but a browser decodes every distinct one whole: thirty one-bit PNGs
    of 8,000 x 8,000 (22 KB each) held Chromium 12 s, shown a pixel wide 11 s, a hundred past 200 s (the fourteenth
    probe). Together they may decode to 256,000,000 pixels; one drawn many times counts once."""
    import base64
    import struct
    import zlib

    from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

    def png(width: int, height: int, shade: int) -> str:
        def chunk(kind: bytes, data: bytes) -> bytes:
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

        row = b"\x00" + bytes([shade]) * ((width + 7) // 8)
        body = zlib.compress(row * height, 9)
        header = struct.pack(">IIBBBBB", width, height, 1, 0, 0, 0, 0)
        data = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", body) + chunk(b"IEND", b"")
        return "data:image/png;base64," + base64.b64encode(data).decode()

    head = '<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">'
    images = "".join(f'<image width="1" height="1" href="{png(8_000, 8_000, shade)}"/>' for shade in range(5))
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(f"{head}{images}</svg>".encode())
    assert str(refused.value).startswith("the raster pictures it carries decode to more than 256,000,000 pixels")
    one = f'<image id="i" width="1" height="1" href="{png(8_000, 8_000, 1)}"/>' + '<use href="#i"/>' * 20
    assert sanitised_svg(f"{head}{one}</svg>".encode())
    four = "".join(f'<image width="1" height="1" href="{png(8_000, 8_000, shade)}"/>' for shade in range(4))
    assert sanitised_svg(f"{head}{four}</svg>".encode())
