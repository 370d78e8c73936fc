"""An SVG picture is refused when its lines and edges cross more rows of pixels than a browser follows in seconds.

A browser fills a shape, or its stroke, edge by edge over every row each edge crosses, and keeps the edges crossing a
row in order: a filled path of 88,000 points at random across a megapixel (1.6 MB) held headless Chromium 54 s, the
same stroked 20 wide with round joins 85 s, and neither its points (under a million) nor its area (one picture) told
it. CSS's ``d`` gave 50 paths 20,000 such points each, uncounted (177 KB, 34 s). These tests count, they do not time.
"""

from __future__ import annotations

import random
import unicodedata

import pytest

from rulebook.svg_area import EDGES_A_ROW, MAX_ROWS_CROSSED
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

REASON = (
    "its lines and edges cross more than 30,000,000 rows of pixels (each counted by how far it runs up and down where "
    "it is drawn, each time it is drawn), the most an SVG picture may cross: a reader's browser follows each edge "
    "across every row it crosses"
)


def picture(body: str, size: str = 'width="1000" height="1000" viewBox="0 0 1000 1000"') -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" {size}>{body}</svg>'.encode()


def refusal(data: bytes) -> UnsafeSvg:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return refused.value


def scattered(points: int, seed: int = 1) -> str:
    """A path's data through ``points`` points at random across the picture."""
    chance = random.Random(seed)
    return "M" + " L".join(f"{chance.uniform(0, 1000):.1f} {chance.uniform(0, 1000):.1f}" for _ in range(points))


def test_the_probes_pictures_are_refused() -> None:
    assert MAX_ROWS_CROSSED == 30_000_000
    assert EDGES_A_ROW == 1_000
    data = scattered(88_000)
    for body in (
        f'<path d="{data}"/>',  # filled: 54 s
        f'<path fill="none" stroke="black" stroke-width="20" stroke-linejoin="round" d="{data}"/>',  # 85 s
        f'<path fill="none" stroke="black" d="{scattered(200_000)}"/>',  # a hairline, 4.7 s
        f'<polygon points="{data[1:].replace(" L", " ")}"/>',
    ):
        refused = refusal(picture(body))
        assert str(refused) == REASON, body[:60]
        assert refused.help == "draw fewer or shorter lines, or export it simpler, or as a PNG"


def test_path_data_given_in_css_is_counted() -> None:
    """CSS's ``d`` gives a path its data whatever its attribute says: its points are drawn, in a ``<style>`` by
    every path."""
    given = f'<style>path {{ d: path("{scattered(20_000)}") }}</style>' + '<path fill="none" stroke="red"/>' * 50
    assert str(refusal(picture(given))).startswith("it draws more than 1,000,000 elements")
    own = f"<path style='d: path(\"{scattered(12_000)}\")'/>"
    assert str(refusal(picture(own * 3))) == REASON


def test_a_shape_is_counted_where_it_is_drawn() -> None:
    """A transform, a ``<use>`` or the picture's own size stretching a shape up and down stretch its rows; a shape
    far larger than the picture crosses each of its rows once an edge, as the browser follows an edge only where it
    is seen."""
    tall = '<path d="M0 0' + "".join(f" L{i / 100} {10 * (i % 2)}" for i in range(1, 9)) + '"/>'  # 80 rows
    assert sanitised_svg(picture(tall * 1_000))
    assert str(refusal(picture('<g transform="scale(1 100)">' + tall * 4_000 + "</g>"))) == REASON
    assert str(refusal(picture('<g transform="rotate(90) scale(100 1)">' + tall * 4_000 + "</g>"))) == REASON
    # an edge crosses each row it is seen at once: stretched past the picture, it crosses no more
    assert sanitised_svg(picture('<g transform="scale(1 1000)">' + tall * 400 + "</g>"))
    small = 'width="1000" height="1000" viewBox="0 0 10 10"'  # a hundred rows a unit
    assert str(refusal(picture(tall * 4_000, small))) == REASON
    symbol = '<symbol id="s" viewBox="0 0 10 10">' + tall * 40 + "</symbol>"
    assert str(refusal(picture(symbol + '<use href="#s" width="1000" height="1000"/>' * 100))) == REASON
    huge = '<rect x="-1e9" y="-1e9" width="2e9" height="2e9"/>'
    assert sanitised_svg(picture(huge * 1_000))


def test_ordinary_pictures_cross_far_fewer_rows() -> None:
    """A map of hexagons, a filled polygon of 10,000 points at random (1.5 s in Chromium), twenty of 2,000 points
    over each other (2.6 s), a dense zigzag a row apart."""
    hexes = "".join(
        f'<polygon points="{x} {y} {x + 10} {y - 6} {x + 20} {y} {x + 20} {y + 12} {x + 10} {y + 18} {x} {y + 12}"'
        ' fill="none" stroke="grey" stroke-width="2"/>'
        for x in range(0, 1000, 20)
        for y in range(0, 1000, 20)
    )
    zigzag = "M0 0" + "".join(f"L{1000 * (i % 2)} {i % 1000}" for i in range(100_000))
    for body in (
        hexes,
        f'<path d="{scattered(10_000)}"/>',
        "".join(f'<path fill-opacity="0.01" d="{scattered(2_000, seed)}"/>' for seed in range(20)),
        f'<path d="{zigzag}"/>',
    ):
        assert sanitised_svg(picture(body)), body[:60]


@pytest.mark.parametrize("shape", ["path", "polyline"])
def test_a_wide_strokes_segments_each_cross_its_width(shape: str) -> None:
    """Each segment of a wide stroke, its joins and caps, runs across the stroke's width: 60,000 points at random in
    a square of ten, stroked 800 wide with round joins (480 KB), held headless Chromium 119 s, its centre line
    rising a few rows a segment (the thirteenth probe)."""
    chance = random.Random(5)
    points = " ".join(f"{chance.uniform(500, 510):.1f} {chance.uniform(500, 510):.1f}" for _ in range(20_000))
    data = f'd="M{points}"' if shape == "path" else f'points="{points}"'
    wide = f'<{shape} {data} fill="none" stroke="black" stroke-width="800" stroke-linejoin="round"/>'
    assert str(refusal(picture(wide))) == REASON
    assert sanitised_svg(picture(wide.replace('stroke-width="800"', 'stroke-width="1"')))


def test_a_strokes_width_is_judged_as_it_is_drawn() -> None:
    """A stroke 0.8 wide under ``scale(1000)`` or a root ``viewBox`` of one is drawn 800 pixels wide: 30,000 points
    at random in a square of ten so stroked held Chromium 19 to 48 s, its segments counted as thin (the fourteenth
    probe)."""
    chance = random.Random(6)
    points = " ".join(f"{chance.uniform(0, 0.01):.5f} {chance.uniform(0, 0.01):.5f}" for _ in range(20_000))
    wide = f'<path d="M{points}" fill="none" stroke="black" stroke-width="0.8" stroke-linejoin="round"/>'
    assert str(refusal(picture(f'<g transform="scale(1000)">{wide}</g>'))) == REASON


def test_a_texts_letters_are_outlines_crossing_rows() -> None:
    """Each letter is an outline of its own, stroked across its width: eight texts of 712 different letters of
    about 33 pixels stroked 400 wide held Chromium 21 s, and text added nothing to the rows count."""
    letters = "".join(c for c in map(chr, range(0x100, 0x800)) if c.isalpha() and not unicodedata.combining(c))[:712]
    texts = "".join(
        f'<text x="10" y="{40 * i}" font-size="33" stroke="red" stroke-width="400">{letters}</text>' for i in range(8)
    )
    assert str(refusal(picture(texts))) == REASON
    assert sanitised_svg(picture(texts.replace('stroke-width="400"', 'stroke-width="1"')))


def test_a_nested_view_box_stretches_the_rows_its_content_crosses() -> None:
    """A nested ``<svg viewBox="0 0 1 1">`` drawn 1,000 wide stretches its content as ``scale(1000)`` does: a stroke
    0.8 wide through 30,000 points inside one held Chromium 20 to 47 s, counted as drawn unscaled (the fifteenth
    probe)."""
    chance = random.Random(7)
    points = " ".join(f"{chance.uniform(0, 0.01):.5f} {chance.uniform(0, 0.01):.5f}" for _ in range(20_000))
    wide = f'<path d="M{points}" fill="none" stroke="black" stroke-width="0.8" stroke-linejoin="round"/>'
    nested = f'<svg width="1000" height="1000" viewBox="0 0 1 1">{wide}</svg>'
    assert str(refusal(picture(nested))) == REASON


@pytest.mark.parametrize(
    "round_",
    [
        '<circle cx="1e30" cy="50" r="1e30" fill="none" stroke="black" stroke-width="3"/>',
        '<ellipse rx="1e10" ry="5" fill="none" stroke="black"/>',
        '<circle style="r: 1e20" fill="none" stroke="black"/>',
        "<style>circle { r: 1e20 }</style><circle/>",
    ],
)
def test_a_circle_far_larger_than_its_stroke_is_wide_is_refused(round_: str) -> None:
    """Chromium builds the whole stroke of a huge circle before cutting it to the picture: ten of a radius of 10^30
    stroked 3 wide (927 bytes) took 8 s, a hundred 53 s (the fifteenth probe)."""
    refused = refusal(picture(round_))
    assert "more than 1,000,000 times the width of its stroke" in str(refused)
    assert sanitised_svg(picture('<circle cx="500" cy="500" r="400000" fill="none" stroke="black"/>'))
