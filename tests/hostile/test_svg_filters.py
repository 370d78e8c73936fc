"""An SVG filter's region, counted: each pass of a filter covers its region, as far as its primitives reach past the
picture (the twelfth probe of issue 32: 45 blurs over a region a hundred times the element's box, 1.8 KB, held
headless Chromium past 300 s, and were published)."""

from __future__ import annotations

import pytest

from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">'
FULL = '<rect width="1000" height="1000" filter="url(#f)"/>'
STEPS = (
    "its filters take more than 25 steps (each primitive of a filter, for each element given that filter, each time "
    "it is drawn), the most an SVG picture may take: each is a pass over every pixel of the element in a reader's "
    "browser"
)


def picture(body: str) -> bytes:
    return f"{HEAD}{body}</svg>".encode()


def blurs(count: int, deviation: float, region: str = "") -> str:
    return f'<filter id="f"{region}>' + f'<feGaussianBlur stdDeviation="{deviation}"/>' * count + "</filter>"


def refusal(data: bytes) -> UnsafeSvg:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return refused.value


REGIONS = {
    # the probe's: x="-50" width="100", a hundred times the box: 45 blurs held Chromium past 300 s, 15 took 73 s
    "a hundred times the box": (' x="-50" y="-50" width="100" height="100"', 5, 50, "6,958", "6"),
    "a percentage": (' x="-4950%" y="-4950%" width="10000%" height="10000%"', 5, 50, "6,958", "6"),
    "twice the box": (' x="-50%" y="-50%" width="200%" height="200%"', 9, 50, "2.8", "3"),
    "the user space, a hundred times the picture": (
        ' filterUnits="userSpaceOnUse" x="-50000" y="-50000" width="100000" height="100000"',
        5,
        50,
        "6,944",
        "6",
    ),
    "the user space in percentages": (
        ' filterUnits="userSpaceOnUse" x="-150%" y="-150%" width="400%" height="400%"',
        3,
        200,
        "11.1",
        "11",
    ),
}


@pytest.mark.parametrize(("region", "count", "deviation", "times", "counted"), REGIONS.values(), ids=REGIONS.keys())
def test_blurs_over_a_region_larger_than_the_default_are_counted_by_it(
    region: str, count: int, deviation: float, times: str, counted: str
) -> None:
    refused = refusal(picture(blurs(count, deviation, region) + FULL))
    assert str(refused) == (
        f"{STEPS}; its filter `f`'s region is {times} times the default one of an element the size of the picture, so "
        f"each of its steps counts as {counted}"
    )
    assert refused.help == (
        "give the filter a smaller region (its `x`, `y`, `width` and `height`), or export it simpler, or as a PNG"
    )


def test_a_wide_blur_counts_as_two_steps() -> None:
    """A chain of wide blurs costs Chromium more than small ones, and more than linearly: 24 of
    ``stdDeviation="50"`` took 40 s, of 8 10.5 s; 12 of 50, 9.4 s."""
    assert b"feGaussianBlur" in sanitised_svg(picture(blurs(12, 50) + FULL))
    wide = refusal(picture(blurs(13, 50) + FULL))
    assert str(wide) == f'{STEPS}; a blur of its filter `f` is wide (`stdDeviation="50"`), so it counts as 2.0 steps'
    assert wide.help == "give the filter narrower blurs, or export it simpler, or as a PNG"
    assert b"feGaussianBlur" in sanitised_svg(picture(blurs(21, 8) + FULL))
    assert str(refusal(picture(blurs(22, 8) + FULL))) == STEPS
    small = '<svg x="0" y="0" width="1000" height="1000" viewBox="0 0 10 10">' + FULL.replace("1000", "10") + "</svg>"
    assert b"feGaussianBlur" in sanitised_svg(picture(blurs(13, 0.5) + FULL))
    assert '`stdDeviation="0.5"`), so it counts as 2.0 steps' in str(refusal(picture(blurs(13, 0.5) + small)))


def test_the_probes_picture_is_refused() -> None:
    body = blurs(45, 50, ' x="-50" y="-50" width="100" height="100"') + FULL
    assert len(picture(body)) < 2_000
    assert "so each of its steps counts as more than 25" in str(refusal(picture(body)))


def test_a_region_counts_only_as_far_as_its_blurs_reach_past_the_picture() -> None:
    """Chromium draws a filter's region only as far as the viewport, grown by what its primitives reach: small blurs
    over a huge region cost about what they cost over the default one (10 of ``stdDeviation="5"``: 1.3 s and
    0.7 s)."""
    huge = ' x="-50" y="-50" width="100" height="100"'
    assert b"feGaussianBlur" in sanitised_svg(picture(blurs(24, 0.1, huge) + FULL))
    assert "counts as 2" in str(refusal(picture(blurs(13, 5, huge) + FULL)))  # 13 x 5 x 3 past each side: 1.8 times


def test_a_region_told_in_no_number_counts_as_far_as_its_blurs_reach() -> None:
    region = ' width="1000em" height="1000em"'
    assert b"1000em" in sanitised_svg(picture(blurs(1, 50, region) + FULL))
    assert str(refusal(picture(blurs(45, 50, region) + FULL))).endswith(
        "; its filter `f`'s region is an untold number of times the default one of an element the size of the "
        "picture, so each of its steps counts as more than 25"
    )


def test_an_element_drawn_larger_than_the_picture_counts_its_default_region() -> None:
    """The default region is a share of the element's box: ten blurs of ``stdDeviation="50"`` on a rectangle 200
    times the picture's width took Chromium 47 s (on a rectangle the size of the picture, 3.7 s, on a machine less
    loaded)."""
    huge = '<rect x="-100000" y="-100000" width="200000" height="200000" filter="url(#f)"/>'
    assert "counts as 16" in str(refusal(picture(blurs(10, 50) + huge)))
    scaled = '<rect width="1000" height="1000" transform="scale(200)" filter="url(#f)"/>'
    assert "counts as more than 25" in str(refusal(picture(blurs(10, 50) + scaled)))
    used = (
        '<defs><rect id="r" width="1000" height="1000" filter="url(#f)"/></defs><use href="#r" transform="scale(200)"/>'
    )
    assert str(refusal(picture(blurs(10, 50) + used))).startswith(STEPS)
    small = '<rect width="1000" height="1000" transform="scale(0.1)" filter="url(#f)"/>'
    assert b"scale(0.1)" in sanitised_svg(picture(blurs(40, 50) + small))


SHADOW = (
    '<filter id="f" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur in="SourceAlpha" stdDeviation="3"/>'
    '<feOffset dx="2" dy="2" result="o"/><feFlood flood-color="#000" flood-opacity="0.5"/>'
    '<feComposite in2="o" operator="in"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>'
)
"""A drop shadow as hand-written CSS and editors give one: a region of twice the box, five primitives."""
INKSCAPE_BLUR = (
    '<filter id="f" x="-0.1" y="-0.1" width="1.2" height="1.2" style="color-interpolation-filters:sRGB">'
    '<feGaussianBlur stdDeviation="2.5"/></filter>'
)
INKSCAPE_WIDE = (
    '<filter id="f" x="-0.25" y="-0.25" width="1.5" height="1.5" style="color-interpolation-filters:sRGB">'
    '<feFlood flood-opacity="0.5" flood-color="#000" result="flood"/>'
    '<feComposite in="flood" in2="SourceGraphic" operator="in" result="composite1"/>'
    '<feGaussianBlur in="composite1" stdDeviation="4" result="blur"/><feOffset dx="3" dy="3" result="offset"/>'
    '<feComposite in="SourceGraphic" in2="offset" operator="over" result="composite2"/></filter>'
)
"""Inkscape's blur and its drop shadow (Filters > Shadows and Glows), as it writes them."""
ORDINARY = {
    "a drop shadow on eight elements": (SHADOW, 8),
    "an Inkscape blur on forty elements": (INKSCAPE_BLUR, 40),
    "an Inkscape drop shadow on eight elements": (INKSCAPE_WIDE, 8),
}


@pytest.mark.parametrize(("filter_", "elements"), ORDINARY.values(), ids=ORDINARY.keys())
def test_ordinary_filters_on_a_handful_of_elements_are_published(filter_: str, elements: int) -> None:
    body = filter_ + '<rect x="100" y="100" width="200" height="100" filter="url(#f)"/>' * elements
    assert b"<filter" in sanitised_svg(picture(body))


@pytest.mark.parametrize("holder", ["pattern", "marker", "mask", "clipPath"])
def test_a_blur_inside_what_is_drawn_at_its_users_scale_is_refused(holder: str) -> None:
    """A pattern's, a marker's, a mask's or a clipping path's content is drawn at the scale of what it paints: twenty
    blurs of half a unit inside a pattern scaled a hundred times, painting ten rectangles, took headless Chromium 8 s
    and were counted as two steps (each blur a hundredth of a pass). How far a blur reaches there is not told: it is
    refused; a filter that reaches nowhere counts a pass over the picture each step."""
    scaled = ' patternTransform="scale(100)" width="10" height="10" patternUnits="userSpaceOnUse"'
    attributes = scaled if holder == "pattern" else ""
    given = {"pattern": 'fill="url(#h)"', "marker": "", "mask": 'mask="url(#h)"', "clipPath": 'clip-path="url(#h)"'}
    inside = f'<{holder} id="h"{attributes}><rect width="10" height="10" filter="url(#f)"/></{holder}>'
    painted = f'<rect width="1000" height="1000" {given[holder]}/>' if given[holder] else ""
    body = blurs(20, 0.5) + inside + painted * 10
    assert "its filter `f`'s region is an untold number of times" in str(refusal(picture(body)))
    flat = '<filter id="f"><feColorMatrix type="saturate" values="0"/></filter>'
    assert sanitised_svg(picture(flat + inside + painted * 3))


@pytest.mark.parametrize(
    ("transforms", "stretch"),
    [
        (["matrix(1,1,0,1,0,0)"], (1 + 5**0.5) / 2),  # a skew stretches more than either column (1.41): 1.62
        (["scale(3)", "rotate(30) scale(2, 0.5)"], 6.0),
        (["scale(0)", "scale(1e300) scale(1e300)"], 0.0),  # collapsed by its own scale: none, however far it is told
    ],
)
def test_an_elements_stretch_is_the_longest_a_length_becomes(transforms: list[str], stretch: float) -> None:
    """A filter's blur reaches as far as its element's user space is stretched: the largest singular value of its
    transforms' product, bounded by theirs (a skew's is more than its columns' lengths)."""
    from lxml import etree

    from rulebook.svg_area import PaintedArea

    groups = "".join(f'<g transform="{transform}">' for transform in reversed(transforms))
    root = etree.fromstring(picture(blurs(1, 5) + groups + FULL + "</g>" * len(transforms)))
    stretches = PaintedArea(root, {}).stretches(root)
    assert stretches[root.find(".//{http://www.w3.org/2000/svg}rect")] == pytest.approx(stretch)
