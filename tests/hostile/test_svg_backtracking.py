"""An SVG picture is read in time growing with its size, whatever runs of spaces, digits or letters it holds.

The hostile-input probe of issue 32 found regular expressions of the sanitiser that tried each way of splitting a
run between two of their parts: 2 KB of spaces in an attribute held :func:`sanitised_svg` 39 s, and the other
pictures below 25 s to 5 minutes. Each is published here well within a generous bound (the fixed reading takes
milliseconds); the bound only tells a hang from the work.
"""

from __future__ import annotations

import time

import pytest

from rulebook.svg_geometry import IDENTITY, length, path_box, transform_of
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

BOUND = 5.0
"""Seconds a picture below may take: each took 25 s or more before, and takes a few hundredths now."""
SVG = '<svg xmlns="http://www.w3.org/2000/svg">'


def published_in_time(body: str) -> bytes:
    started = time.perf_counter()
    published = sanitised_svg((SVG + body + "</svg>").encode())
    assert time.perf_counter() - started < BOUND
    return published


@pytest.mark.parametrize(
    ("body", "kept"),
    [
        ('<g id="linecap' + " " * 2_000 + 'x"/>', b'id="linecap'),  # a cap's words around spaces: 39 s
        ('<path d="M0 0 a1 1 0 0 0' + " " * 20_000 + 'x"/>', b"a1 1 0 0 0"),  # an arc's separators: 163 s
        ('<path d="M0 0 a' + "2" * 20_000 + 'x"/>', b"a222"),  # an arc's numbers split: 50 digits, 1.6 s
        ("<style>" + "a" * 80_000 + "</style>", b"<style>"),  # a rule's prelude from each letter: 49 s
        ("<style>g { fill: red" + "; fill: red" * 10_000 + " }</style><g/>", b"fill: red; fill"),
        ('<g transform="' + " " * 40_000 + 'x"/>', b"<g"),  # a transform's separators: 24 s
        ('<rect width="1' + " " * 40_000 + 'x" height="1"/>', b"<rect"),  # a length's spaces: 4 s
        ('<rect width="' + "1" * 40_000 + 'x" height="1"/>', b"<rect"),  # a length's digits split
        ('<text font-size="' + "0" * 20_000 + 'x">a</text>', b"<text"),  # a size from each digit: 1,000 digits 19 s
    ],
)
def test_long_runs_are_read_once(body: str, kept: bytes) -> None:
    assert kept in published_in_time(body)


def test_a_long_url_is_refused_in_time() -> None:
    """``url(`` and a run of spaces before what it names: 80,000 took 5 s for each ``url(``."""
    started = time.perf_counter()
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg((SVG + '<g style="fill: url(' + " " * 80_000 + 'x)"/></svg>').encode())
    assert time.perf_counter() - started < BOUND
    assert str(refused.value) == "its style reaches outside the picture (`url(x)`), line 1 of the picture"


def test_lengths_and_transforms_read_as_before() -> None:
    """The readings made linear still take every way of writing a length, a transform and an arc a picture uses."""
    assert length(" 2.5 cm ", 100) == pytest.approx(2.5 * 96 / 2.54)
    assert length("50 %", 300) == 150
    assert length("1.e1px", 1) == 10
    assert length("1 x", 1) is None
    assert transform_of(" translate(1 2) ,scale( 2 ) , rotate(0)") == (2.0, 0.0, 0.0, 2.0, 1.0, 2.0)
    assert transform_of("translate(1)  x") is None
    assert transform_of("  ") == IDENTITY
    assert path_box("M0 0 a1 1 0 00 1 1") == path_box("M0 0 a1,1 0 0,0 1,1")
    assert path_box("M0 0 a1 1 0 0 0 2 2") is not None
