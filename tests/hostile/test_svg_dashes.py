"""An SVG picture is refused when its dashed strokes make a browser draw more dashes than it draws in seconds.

A browser draws a dashed stroke a segment a dash: a hundred rectangles of 998 units with dashes and gaps of 0.01
(10 KB) held headless Chromium 15 s, 1,900 ``<use>`` of one 289 s, and a count of elements, points or area saw none
of it (the twelfth probe). These tests count, they do not time.
"""

from __future__ import annotations

import pytest

from rulebook.svg_dashes import DASHES_A_STROKE, MAX_DASHES_DRAWN
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

REASON = (
    "its dashed strokes draw more than 2,000,000 dashes (each stroke's length over its dash pattern, each time it is "
    "drawn), the most an SVG picture may draw: a reader's browser draws each dash in turn"
)
FRAME = '<rect x="1" y="1" width="998" height="998" fill="none" stroke="black"{dashes}/>'
"""A rectangle round the whole of :func:`picture`: 3,992 units of stroke."""


def picture(body: str) -> bytes:
    return (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">' + body + "</svg>"
    ).encode()


def refusal(data: bytes) -> UnsafeSvg:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return refused.value


def test_the_probes_pictures_are_refused() -> None:
    """The twelfth probe's: short dashes on long strokes, given every way a browser gives them."""
    tiny = ' stroke-dasharray="0.01 0.01"'
    for body in (
        FRAME.format(dashes=tiny) * 100,  # 10 KB, 15 s
        "<defs>" + FRAME.format(dashes=' id="r" stroke-dasharray="0.01"') + "</defs>" + '<use href="#r"/>' * 1_900,
        "".join(
            f'<circle r="{r}" fill="none" stroke="red" stroke-linecap="round" stroke-dasharray="0 0.01"/>'
            for r in range(1, 401)
        ),  # zero-length dots: past 120 s
        "<style>rect { stroke-dasharray: .01 }</style>" + FRAME.format(dashes="") * 30,
        '<g stroke-dasharray="0.01">' + '<circle r="490" fill="none" stroke="red"/>' * 100 + "</g>",
        '<g transform="scale(1000)">'
        + '<rect width="1" height="1" fill="none" stroke="red" stroke-width="0.001" stroke-dasharray="0.00001"/>' * 30
        + "</g>",  # the pattern and the stroke in one user space: a scale changes neither
        '<g style="stroke-dash\\61 rray: 0.01">' + FRAME.format(dashes="") * 30 + "</g>",  # an escaped name
    ):
        refused = refusal(picture(body))
        assert str(refused) == REASON, body[:80]
        assert refused.help == "give the dashes a longer pattern, or export it simpler, or as a PNG"


def test_dashes_up_to_the_limit_are_published() -> None:
    """Ten frames of 199,600 dashes each (1,996,000) are published; one more dash past the limit is not."""
    assert MAX_DASHES_DRAWN == 2_000_000
    ten = FRAME.format(dashes=' stroke-dasharray="0.01 0.01"') * 10
    assert sanitised_svg(picture(ten))
    longer = '<line x1="0" y1="0" x2="80.02" y2="0" stroke="red" stroke-dasharray="0.01 0.01"/>'  # 4,001 dashes
    assert str(refusal(picture(ten + longer))) == REASON


def test_a_stroke_is_counted_as_a_browser_caps_it() -> None:
    """Past a million dashes a browser draws a stroke undashed: one stroke counts a million at most."""
    endless = '<line x2="1e9" stroke="red" stroke-dasharray="0.001"/>'
    assert DASHES_A_STROKE == 1_000_000
    assert sanitised_svg(picture(endless))
    assert str(refusal(picture(endless * 3))) == REASON


@pytest.mark.parametrize(
    "given",
    [
        ' stroke-dasharray="0.01 0.01"',  # its own
        ' style="stroke-dasharray: 0.01"',  # its style
        ' stroke-dasharray="5" style="stroke-dasharray:0.01 0.01"',  # a style before an attribute
    ],
)
def test_the_pattern_is_read_where_it_is_given(given: str) -> None:
    assert str(refusal(picture(FRAME.format(dashes=given) * 11))) == REASON


def test_a_pattern_reaches_what_inherits_it_and_what_a_use_repeats() -> None:
    """A group's pattern reaches its shapes; a shape a ``<use>`` repeats takes the ``<use>``'s (any of the
    picture's), whatever is around it in the file."""
    solid = FRAME.format(dashes="") * 11
    assert sanitised_svg(picture(f'<g stroke-dasharray="0.01"/>{solid}'))  # a sibling's pattern reaches nothing
    assert str(refusal(picture(f'<g stroke-dasharray="0.01">{solid}</g>'))) == REASON
    repeated = FRAME.format(dashes=' id="f"')
    used = f'<defs>{repeated}</defs><g stroke-dasharray="0.01">' + '<use href="#f"/>' * 11 + "</g>"
    assert str(refusal(picture(used))) == REASON
    # a nested group saying a longer pattern, or none, does not hide its parent's: the shorter is counted
    assert str(refusal(picture(f'<g stroke-dasharray="0.01"><g stroke-dasharray="none">{solid}</g></g>'))) == REASON


def test_ordinary_dashed_drawings_are_published() -> None:
    """A diagram's dashed lines, a map's dotted borders, a solid picture beside a dashed one."""
    lines = '<line x1="0" y1="5" x2="1000" y2="5" stroke="grey" stroke-dasharray="4 2"/>' * 200
    dots = '<circle cx="500" cy="500" r="400" fill="none" stroke="red" stroke-dasharray="1,3"/>' * 50
    style = (
        "<style>.edge { stroke-dasharray: 3 }</style>"
        + '<path class="edge" d="M0 0 C 300 0 700 1000 1000 1000"/>' * 300
    )
    for body in (lines, dots, style, FRAME.format(dashes="") * 1_000, '<g stroke-dasharray="none">' + dots + "</g>"):
        assert sanitised_svg(picture(body))


@pytest.mark.parametrize("dashes", ["1%", "2em 1em", "0.5ex"])
def test_a_dash_length_that_is_not_told_is_refused(dashes: str) -> None:
    refused = refusal(picture(f'<rect width="10" height="10" stroke="red" stroke-dasharray="{dashes}"/>'))
    assert str(refused) == (
        f"its `stroke-dasharray` gives dashes as `{dashes.lower()}`, in `%` or `em`, whose length is not told from "
        "the picture alone"
    )
    assert refused.help == "give the dashes as plain numbers, or export it simpler, or as a PNG"


@pytest.mark.parametrize(
    ("given", "function"),
    [
        (' stroke-dasharray="calc(1px / 1000)"', "calc"),
        (' stroke-dasharray="var(--d)"', "var"),
        (' style="stroke-dasharray: var(--n, 0.01)"', "var"),  # a var() naming no property: its fallback
        (' style="--a: 0; stroke-dasharray: var(--a) 0.01"', "var"),
    ],
)
def test_a_pattern_computed_in_css_is_refused(given: str, function: str) -> None:
    """A function makes a dash list no count reads; a custom property, which ``var()`` reads, is left out."""
    refused = refusal(picture(f'<rect width="10" height="10" stroke="red"{given}/>'))
    assert str(refused) == (
        f"its style uses `stroke-dasharray: {function}()`, which a reader's browser draws at a cost no count of the "
        "picture reads (CSS gradients, clipping shapes and images, computed values), line 1 of the picture"
    )
    published = sanitised_svg(picture('<g style="--w: 50%; stroke: red"><rect width="10" height="10"/></g>'))
    assert b'<g style="stroke: red">' in published


@pytest.mark.parametrize(
    "data",
    [
        "M1 1 L999 1 L999 999 L1 999 Z",  # absolute lines
        "m1 1 h998 v998 h-998 z",  # relative, along the axes
        "M1 1 C 1 1 999 1 999 1 S 999 999 999 999 Q 1 999 1 999 T 1 1",  # curves, their control points on the way
        "M500 1 A 499 499 0 1 1 499.9 1",  # an arc: the whole circle of its radius
    ],
)
def test_a_paths_stroke_is_followed_through_its_commands(data: str) -> None:
    """Each path is about 3,100 to 4,000 long: thirteen with dashes and gaps of 0.01 draw over 2,000,000 dashes."""
    path = f'<path d="{data}" fill="none" stroke="red" stroke-dasharray="0.01 0.01"/>'
    assert sanitised_svg(picture(path * 6))
    assert str(refusal(picture(path * 13))) == REASON


def test_a_pattern_laid_along_a_length_the_author_says_is_counted_along_it() -> None:
    """``pathLength`` lays the pattern along the length it says, however short the shape: dashes of 1 along a
    million are a million dashes on a rectangle of one pixel."""
    said = '<rect width="1" height="1" fill="none" stroke="red" pathLength="1000000" stroke-dasharray="1"/>'
    assert sanitised_svg(picture(said * 3))  # half a million each
    assert str(refusal(picture(said * 5))) == REASON


def test_a_stroke_drawn_in_the_windows_pixels_is_counted_in_them() -> None:
    """With ``vector-effect: non-scaling-stroke`` the pattern is in the window's pixels while the shape is scaled:
    a rectangle of one by one, a thousand times larger on the screen, draws a thousand times more dashes."""
    small = '<rect width="1" height="1" fill="none" stroke="red" stroke-dasharray="0.01" {effect}/>'
    for scaled in (
        '<g transform="scale(1000)">' + small.format(effect='vector-effect="non-scaling-stroke"') * 11 + "</g>",
        '<g transform="rotate(30) scale(100 1000)">'
        + small.format(effect='style="vector-effect:non-scaling-stroke"') * 11
        + "</g>",
        '<style>rect { vector-effect: non-scaling-stroke }</style><g transform="scale(1000)">'
        + small.format(effect="") * 11
        + "</g>",
    ):
        assert str(refusal(picture(scaled))) == REASON, scaled
    assert sanitised_svg(picture('<g transform="scale(1000)">' + small.format(effect="") * 11 + "</g>"))
    sized = b'<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1 1">'
    assert (
        str(refusal(sized + small.format(effect='vector-effect="non-scaling-stroke"').encode() * 11 + b"</svg>"))
        == REASON
    )


def test_a_shape_given_its_geometry_in_css_counts_a_whole_stroke() -> None:
    """CSS may give a circle a radius its attributes do not say (``r: 400``): its dashes are not told, and count as
    the most a stroke draws."""
    styled = '<circle style="r: 400" fill="none" stroke="red" stroke-dasharray="0.01"/>'
    assert str(refusal(picture(styled * 3))) == REASON
    given = "<style>circle { r: 400 }</style>" + '<circle fill="none" stroke="red" stroke-dasharray="0.01"/>' * 3
    assert str(refusal(picture(given))) == REASON


@pytest.mark.parametrize(
    "given",
    [
        ' style="stroke-dash\\61 rray: 0.01"',  # an escaped name: `\\61` is `a`
        ' style="STROKE-DASHARRAY: 0.01 !IMPORTANT; -inkscape-stroke: none"',  # a copy written anew
        ' style="stroke-dasharray/**/: 0.01"',  # a comment where CSS reads none
        ' stroke-dasharray="0.01/**/0.01"',
        ' stroke-dasharray=".01.01"',  # two numbers touching
        ' style="stroke-dasharray: 0.01 ! important"',
    ],
)
def test_a_pattern_is_read_as_css_reads_it(given: str) -> None:
    """The thirteenth probe: each of these drew 100 frames' dashes in Chromium (10 to 38 s) and was read as solid or
    as the parent's: comments are left out of the copy, numbers and names read as CSS reads them."""
    assert str(refusal(picture(FRAME.format(dashes=given) * 11))) == REASON


def test_a_custom_property_registered_with_its_value_is_left_out() -> None:
    registered = "<style>@property --d { syntax: '&lt;number>'; inherits: true; initial-value: 0.01 }</style>"
    assert b"<style></style>" in sanitised_svg(picture(registered + FRAME.format(dashes="") * 11))


def test_a_texts_glyphs_and_decorations_are_dashed_each() -> None:
    """A browser dashes each glyph apart (a million dashes each, not a text's), and an underline along the whole
    advance, letter and word spacing included: 100 texts of font size 1 underlined, letters 990 apart, took 26 s on
    a loaded machine; 905 letters at 300 pixels, 106 s; a size of ``+300`` was read as none."""
    spread = '<text font-size="1" letter-spacing="990" text-decoration="underline" stroke-dasharray="0.01">AAA</text>'
    assert str(refusal(picture(spread * 30))) == REASON
    letters = "".join(chr(0x4E00 + i) for i in range(905))
    assert str(refusal(picture(f'<text font-size="300" stroke-dasharray="0.01">{letters}</text>'))) == REASON
    assert str(refusal(picture('<text font-size="+300" stroke-dasharray="0.01">WMW</text>' * 200))) == REASON


def test_a_smooth_curves_unsaid_control_points_are_followed() -> None:
    """A ``T`` takes the reflection of the control point before it: a chain whose ends alternate swings ever wider,
    and was counted a twentieth of its length (40 such paths, 73 KB: 17 s)."""
    chain = "M500 500 Q 500 520 510 500" + " T 500 500 T 510 500" * 95
    assert str(refusal(picture(f'<path d="{chain}" fill="none" stroke="red" stroke-dasharray="0.01"/>' * 40))) == REASON


def test_a_percentage_is_a_share_of_the_largest_viewport_it_may_be_in() -> None:
    nested = '<svg viewBox="0 0 100000 100000"><rect width="100%" height="100%" fill="none" stroke="red" '
    body = (nested + 'stroke-dasharray="1"/></svg>') * 100
    assert str(refusal(picture(body))) == REASON


@pytest.mark.parametrize(("width", "cap"), [("50", "round"), ("10", "round"), ("50", "square"), ("50", "butt")])
def test_a_wide_dash_counts_as_the_rows_it_crosses(width: str, cap: str) -> None:
    """A dash as wide as its stroke is a shape that tall, and round or square caps make one of a dash of no length:
    one rectangle of round dots 50 wide held Chromium 26 s (four of them past 150 s), 10 wide 9.4 s, butt dashes
    50 wide 4.4 s."""
    dots = f'<rect x="1" y="1" width="998" height="998" fill="none" stroke="black" stroke-width="{width}" '
    refused = refusal(picture(dots + f'stroke-linecap="{cap}" stroke-dasharray="0 0.01 0.01 0.01"/>'))
    assert str(refused).startswith("its lines and edges cross more than 30,000,000 rows of pixels")
