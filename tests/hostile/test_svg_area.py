"""An SVG picture is refused when it paints its own area over more times than a reader's browser draws in seconds.

Five levels of ten ``<use>`` of a translucent rectangle the size of the picture, 1.1 KB and 100,000 elements (a tenth
of the elements a picture may draw), took headless Chromium 80 s to show: each is a megapixel blended. The count is
of area, as a share of the picture's, each element where it is drawn: these tests count, they do not time.
"""

from __future__ import annotations

import pytest

from rulebook.svg_area import MAX_TIMES_PAINTED
from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

REASON = (
    "it paints more than 2,000 times its own area (each element counted by the area it covers, each time it is "
    "drawn: by a `<use>`, a pattern, a mask or a marker too), the most an SVG picture may paint: a reader's browser "
    "paints each of those pixels in turn"
)
FULL = '<rect width="10" height="10" fill-opacity="0.01"/>'
"""A translucent rectangle covering the whole of :func:`picture`."""


def picture(body: str, size: str = 'width="10" height="10"') -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" {size}>{body}</svg>'.encode()


def nested(shape: str, levels: int, fan: int = 10) -> str:
    """``levels`` groups, each ``fan`` ``<use>`` of the one below, drawing ``shape`` ``fan ** levels`` times."""
    groups = "".join(
        f'<g id="g{level}">' + f'<use href="#g{level - 1}"/>' * fan + "</g>" for level in range(1, levels + 1)
    )
    return f'<defs><g id="g0">{shape}</g>{groups}</defs><use href="#g{levels}"/>'


def refusal(data: bytes) -> str:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return str(refused.value)


def test_the_probes_picture_is_refused() -> None:
    """The probe: 100,000 paints of the whole picture through five levels of ``<use>``, in 1.1 KB."""
    probe = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">'
        + nested('<rect width="1000" height="1000" fill-opacity="0.01"/>', 5)
        + "</svg>"
    ).encode()
    assert refusal(probe) == REASON
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(probe)
    assert refused.value.help == "draw fewer or smaller shapes over each other, or export it simpler, or as a PNG"


def test_a_picture_painted_over_as_many_times_as_may_be_is_published() -> None:
    assert MAX_TIMES_PAINTED == 2_000
    assert sanitised_svg(picture(FULL * 2_000))
    assert refusal(picture(FULL * 2_001)) == REASON
    # the same through <use>: 2 x 999 is published, 2,001 drawings of one rectangle are not
    assert sanitised_svg(picture(f'<g id="a">{FULL * 999}</g><use href="#a"/>'))  # the group is one more
    assert refusal(picture('<rect id="a" width="10" height="10"/>' + '<use href="#a"/>' * 2_000)) == REASON


def test_many_small_shapes_are_counted_by_their_area_not_their_number() -> None:
    """A map of 5,000 cells with a background, a stroke and labels paints itself a few times over; four levels of
    ten ``<use>`` of a rectangle a hundredth of the picture (10,000 drawn) a hundred times; of the whole picture,
    10,000 times."""
    cells = "".join(
        f'<polygon points="{x},{y} {x + 9},{y} {x + 9},{y + 9} {x},{y + 9}" stroke="#333" stroke-width="0.5"/>'
        for x in range(0, 1000, 10)
        for y in range(0, 500, 10)
    )
    labels = '<text x="20" y="20" font-size="9">A place</text>' * 300
    background = '<rect width="1000" height="500" fill="#eef"/>'
    assert sanitised_svg(picture(background + cells + labels, 'viewBox="0 0 1000 500"'))
    assert sanitised_svg(picture(nested('<rect width="0.9" height="0.9"/>', 4)))
    assert refusal(picture(nested(FULL, 4))) == REASON


def test_a_pattern_is_counted_by_the_area_of_its_drawing_each_time_it_paints() -> None:
    """Chromium draws a pattern's tile again for each element it fills (ten rectangles filled with a tile of a
    thousand translucent rectangles took it ten times as long as one): a tile painting itself over 100 times,
    filling 21 rectangles, paints 2,100 times."""
    tile = '<pattern id="p" width="10" height="10" patternUnits="userSpaceOnUse">' + FULL * 100 + "</pattern>"
    filled = '<rect width="10" height="10" fill="url(#p)"/>'
    assert sanitised_svg(picture(tile + filled * 19))
    assert refusal(picture(tile + filled * 21)) == REASON
    small = tile.replace(FULL, '<rect width="1" height="1"/>')  # a hundredth of the tile each
    assert sanitised_svg(picture(small + filled * 21))
    inherited = tile + '<g fill="url(#p)">' + '<rect width="10" height="10"/>' * 21 + "</g>"  # given to a group
    assert refusal(picture(inherited)) == REASON


def test_an_element_covers_at_most_the_whole_picture_but_transforms_cannot_hide_it() -> None:
    """A background far larger than the picture is one picture; a rectangle made small by a transform counts by
    what it covers, and one made small by a transform but huge in its own units still covers the picture."""
    huge = '<rect x="-1e9" y="-1e9" width="2e9" height="2e9"/>'
    assert sanitised_svg(picture(huge + '<rect width="1" height="1"/>' * 1_000))
    assert sanitised_svg(picture('<g transform="scale(0.01)">' + FULL * 3_000 + "</g>"))
    shrunk = '<g transform="scale(0.000001)"><rect width="1e9" height="1e9"/></g>'
    assert refusal(picture(shrunk * 2_001)) == REASON
    used = '<defs><rect id="r" width="1e9" height="1e9"/></defs>' + '<use href="#r" transform="scale(1e-6)"/>' * 2_001
    assert refusal(picture(used)) == REASON
    enlarged = '<symbol id="s" viewBox="0 0 1 1"><rect width="1" height="1"/></symbol>'
    assert refusal(picture(enlarged + '<use href="#s" width="10" height="10"/>' * 2_001)) == REASON


def test_strokes_and_letters_given_in_a_style_are_counted_at_their_largest() -> None:
    """A stroke or a font size a ``<style>`` gives reaches shapes no attribute says: each is taken as the largest
    the picture gives anywhere."""
    dots = '<rect width="0.1" height="0.1"/>' * 2_001
    assert sanitised_svg(picture(dots))
    assert refusal(picture("<style>rect { stroke: red; stroke-width: 1000 }</style>" + dots)) == REASON
    letters = "<text>" + "x" * 2_001 + "</text>"
    assert sanitised_svg(picture(letters, 'viewBox="0 0 1000 1000"'))
    assert refusal(picture("<style>text { font: bold 1000px serif }</style>" + letters, 'viewBox="0 0 1000 1000"'))


def test_markers_are_counted_by_their_box_at_each_point() -> None:
    """An arrowhead at the end of each of a thousand lines is a small box each; a marker as large as the picture,
    drawn at 2,001 points, paints it 2,001 times."""
    arrow = '<marker id="a"><path d="M0,0 L3,1.5 L0,3 z"/></marker>'
    lines = '<line x1="0" y1="0" x2="900" y2="900" marker-end="url(#a)"/>' * 1_000
    assert sanitised_svg(picture(arrow + lines, 'viewBox="0 0 1000 1000"'))
    large = '<marker id="m" markerUnits="userSpaceOnUse" markerWidth="10" markerHeight="10">' + FULL + "</marker>"
    points = " ".join(f"{i % 10},{i % 7}" for i in range(2_001))
    assert refusal(picture(large + f'<polyline points="{points}" marker-mid="url(#m)"/>')) == REASON


def test_a_picture_saying_it_is_larger_than_a_window_counts_each_window() -> None:
    """Opened at its own address, a picture of 4,000 x 4,000 pixels shows a window of 2,000 x 2,000 at a time:
    2,001 rectangles drawn over one window paint that window 2,001 times, though a quarter of the picture each."""
    corner = '<rect width="2000" height="2000" fill-opacity="0.01"/>'
    assert refusal(picture(corner * 2_001, 'width="4000" height="4000"')) == REASON
    assert sanitised_svg(picture(corner * 1_998, 'width="100000" height="100000"'))  # a stroke may grow each


def test_a_paths_extent_is_followed_through_its_relative_moves() -> None:
    """Ten relative steps of one unit reach ten units away: a path is measured where its pen goes, not by the size
    of its numbers; an arc whose radius is too small for its chord is drawn enlarged."""
    small = '<path d="M0,0 l1,1 l-1,0 z"/>' * 2_001
    walking = '<path d="M0,0 ' + "l1,1 " * 10 + 'h-10 z"/>'
    assert sanitised_svg(picture(small))
    assert refusal(picture(walking * 2_001)) == REASON
    assert sanitised_svg(picture(walking * 2_000))


def test_a_length_no_number_holds_covers_the_whole_picture() -> None:
    """``1e999`` is read as infinite: such a rectangle covers all the browser shows, as does every element of a
    picture whose ``viewBox`` is too large or too small to measure a share of."""
    assert refusal(picture('<rect x="0.1" width="1e999" height="1e999"/>' * 2_001)) == REASON
    tiny = '<rect width="1" height="1"/>' * 2_001
    assert sanitised_svg(picture(tiny, 'viewBox="0 0 1000 1000"'))
    assert refusal(picture(tiny, 'viewBox="0 0 1e-320 1e-320"')) == REASON
    with pytest.raises(UnsafeSvg, match="no box a picture can show"):  # no 32-bit number holds it: no box at all
        sanitised_svg(picture(tiny, 'viewBox="0 0 1e300 1e300"'))


def test_paths_past_the_commands_followed_cover_the_whole_picture(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each command of a relative path is a few steps of Python: past :data:`MAX_PATH_COMMANDS` in a picture, a
    path is taken to cover it all (counted here with a limit of 100); a path of absolute coordinates is read whole."""
    from rulebook import svg_area

    monkeypatch.setattr(svg_area, "MAX_PATH_COMMANDS", 100)
    assert refusal(picture('<path d="m1,1 l1,1 z"/>' * 2_051)) == REASON
    assert sanitised_svg(picture('<path d="M1,1 L2,2 Z"/>' * 2_051))


def test_a_layer_costs_the_box_of_what_it_holds() -> None:
    """An ``opacity`` below one draws its element into a layer the size of all it holds, then blends it: four levels
    of ten ``<use>`` of groups so drawn, around two dots at opposite corners (10,000 layers the size of the
    picture), took Chromium 9.4 s; counted by the dots alone, a hundredth of the picture."""
    dots = '<rect width="0.1" height="0.1"/><rect x="9.9" y="9.9" width="0.1" height="0.1"/>'
    layered = nested(dots, 3).replace("<g ", '<g opacity="0.99" ')
    assert sanitised_svg(picture(layered))  # 1,111 layers
    assert refusal(picture(nested(dots, 4).replace("<g ", '<g opacity="0.99" '))) == REASON
    assert refusal(picture("<style>g { opacity: 0.99 }</style>" + nested(dots, 4))) == REASON
    assert sanitised_svg(picture(nested(dots, 4)))  # no layer: the dots alone
    labels = '<g opacity="0.5"><text x="1" y="1" font-size="0.1">a label</text></g>' * 3_000
    assert sanitised_svg(picture("<style>.faded { opacity: 0.5 }</style>" + labels, 'viewBox="0 0 1000 1000"'))


def test_a_css_transform_makes_a_place_untold() -> None:
    """CSS can scale or move an element its attributes place elsewhere: each element it may reach covers the whole
    picture; the other properties that move one (``scale``, ``zoom``, ``offset``) are left out of the copy."""
    tiny = '<rect width="0.1" height="0.1"/>' * 2_001
    assert refusal(picture("<style>rect { transform: scale(1000) }</style>" + tiny)) == REASON
    assert refusal(picture('<g style="Transform: scale(1000)">' + tiny + "</g>")) == REASON
    assert b'<g style="">' in sanitised_svg(
        picture('<g style="scale: 1000; zoom: 9; offset-path: none">' + tiny + "</g>")
    )


@pytest.mark.parametrize(
    "body",
    [
        '<text font-size="1e200">a</text>',  # its square past what a float holds: an OverflowError
        '<g transform="rotate(1e999)"><rect width="1" height="1"/></g>',  # the cosine of infinity: a ValueError
        '<path d="M0,0 a1e160,1e-160 1e999 0 1 1e160,1"/>',
        '<svg viewBox="1e200 1e200 10 10" width="1e200"><rect width="1e200" height="1e200"/></svg>',  # a width lost
    ],
    ids=["font", "rotation", "arc", "view box"],
)
def test_numbers_past_what_a_float_holds_are_measured_without_an_internal_error(body: str) -> None:
    assert sanitised_svg(picture(body))
    assert refusal(picture(body * 2_001)) == REASON


def test_a_lines_markers_are_counted_each_time_a_use_draws_the_line() -> None:
    """Four levels of ten ``<use>`` of a line of 1,000 points carrying a marker of ten rectangles draw a hundred
    million rectangles (6 KB: Chromium ran past 300 s); its markers were counted at the line's points once."""
    points = " ".join(f"{i % 100},{i // 100}" for i in range(1_000))
    marker = '<marker id="m">' + '<rect width="0.1" height="0.1"/>' * 10 + "</marker>"
    line = f'<polyline points="{points}" marker-mid="url(#m)" fill="none"/>'
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(picture(marker + nested(line, 4), 'viewBox="0 0 1000 1000"'))
    assert str(refused.value).startswith("it draws more than 1,000,000 elements (each point of a path or line")
    assert sanitised_svg(picture(marker + nested(line, 1), 'viewBox="0 0 1000 1000"'))


def test_each_point_of_a_path_or_line_is_drawn_as_an_element_is() -> None:
    """A path of 100,000 points zigzagging across a megapixel covers the picture once by its area, but a browser's
    work grows with its points: 0.3 s in headless Chromium each time it is drawn, and a thousand ``<use>`` of it
    (761 KB, counted as a thousand elements) held Chromium past 200 s. Each point past a shape's first now counts as
    an element drawn, each time the shape is drawn."""
    zigzag = "M0 0" + "".join(f"L{1000 * (i % 2)} {i % 1000}" for i in range(100_000))
    shape = f'<defs><path id="p" d="{zigzag}" fill-rule="evenodd"/></defs>'
    size = 'width="1000" height="1000" viewBox="0 0 1000 1000"'
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(picture(shape + '<use href="#p"/>' * 1_000, size))
    assert str(refused.value).startswith("it draws more than 1,000,000 elements (each point of a path or line")
    assert sanitised_svg(picture(shape + '<use href="#p"/>' * 8, size))  # 900,000 points, counting the definition
    # a point is two numbers, whichever command names it; a polyline's and a polygon's points likewise
    dots = " ".join(["1 2"] * 500_001)
    for line in (f'<path d="M{dots}"/>', f'<polyline points="{dots}"/>', f'<polygon points="{dots}"/>'):
        assert sanitised_svg(picture(line * 1, size))
        with pytest.raises(UnsafeSvg):
            sanitised_svg(picture(line * 2, size))


def test_a_gradients_stops_are_counted_each_time_it_paints() -> None:
    """A gradient of 90,000 stops (4 MB) given to a thousand rectangles of one pixel took headless Chromium 23 s: a
    browser makes the gradient again for each element it paints. Four stops count as an element drawn, each time,
    whether the gradient is given in an attribute, inherited from a group, through another gradient's ``href`` or by
    a ``<style>``."""
    stops = "".join(f'<stop offset="{i / 4000:.4f}" stop-color="#{i:06x}"/>' for i in range(4_000))  # 1,000 elements
    gradients = f'<defs><linearGradient id="g">{stops}</linearGradient><linearGradient id="h" href="#g"/></defs>'
    dot = '<rect width="1" height="1"/>'
    size = 'viewBox="0 0 1000 1000"'
    drawn = "it draws more than 1,000,000 elements"
    for painted in (
        f'<g fill="url(#g)">{dot * 1_000}</g>',
        f'<g style="stroke: url(#h)">{dot * 1_000}</g>',
        f"<style>rect {{ fill: url(#g) }}</style>{dot * 500}",  # fill and stroke: either may be given
    ):
        assert refusal(picture(gradients + painted, size)).startswith(drawn), painted
    assert sanitised_svg(picture(gradients + f'<g fill="url(#g)">{dot * 900}</g>', size))
    few = '<linearGradient id="f"><stop offset="0"/><stop offset="0.5"/><stop offset="1"/></linearGradient>'
    assert sanitised_svg(picture(few + f'<g fill="url(#f)">{dot * 25_000}</g>', size))  # as flat colours
    loop = '<linearGradient id="a" href="#b"/><linearGradient id="b" href="#a"/>'  # no stops: nothing to follow
    assert sanitised_svg(picture(loop + '<rect width="9" height="9" fill="url(#a)"/>', size))


def test_a_style_costing_more_than_its_drawing_is_refused() -> None:
    """A browser tries each selector of a ``<style>`` on each element: 10,000 rules ``*:not(#a1)`` over 10,000
    rectangles (569 KB) took headless Chromium 18.7 s, and ``:has()`` matches each element against the others (two
    rules over 20,000 rectangles, 15 s); neither was counted."""
    size = 'viewBox="0 0 1000 1000"'
    rules = "".join(f"*:not(#a{i}) {{ stroke-width: 1 }}" for i in range(2_000))
    dots = '<rect width="1" height="1"/>' * 10_000
    assert refusal(picture(f"<style>{rules}</style>{dots}", size)) == (
        "its `<style>` has 2,000 selectors a reader's browser tries on each of its 10,002 elements drawn, more than it "
        "may try (20,000,000: selectors sorted out by no class, id or tag are tried on every element)"
    )
    assert sanitised_svg(picture(f"<style>{rules}</style>{dots[: len(dots) // 2]}", size))  # 5,002 elements
    for has in ("*:has(~ rect ~ circle) { fill: red }", "g:is(:HAS( rect)) { fill: red }"):
        assert refusal(picture(f"<style>{has}</style>{dots}", size)) == (
            "its `<style>` selects with `:has()`, which a reader's browser matches for every element against the others"
        )
    editor = "".join(f".cls-{i}, .b{i} {{ fill: #{i:06x} }}" for i in range(50))  # an editor's: a rule a class
    assert sanitised_svg(picture(f"<style>{editor}</style>{dots * 2}", size))  # 100 selectors, 20,002 elements


def test_rules_a_class_id_or_tag_sorts_out_are_tried_where_it_is() -> None:
    """A browser keeps a rule by the id, class or tag it selects, and tries it on the elements bearing it: an
    illustrator's export of 2,000 rules a class over 3,700 paths of 65,000 points (requests' logo, 884 KB, was
    refused as 2,000 selectors tried on 65,111 elements); many rules for one class, id or tag are tried on each."""
    size = 'viewBox="0 0 1000 1000"'
    editor = "".join(f".cls-{i} {{ fill: #{i:06x} }}" for i in range(2_000))
    paths = "".join(f'<path class="cls-{i % 2_000}" d="M0 0' + " L1 1" * 16 + '"/>' for i in range(3_700))
    assert sanitised_svg(picture(f"<style>{editor}</style>{paths}", size))
    dots = '<rect class="a" width="1" height="1"/>' * 10_000
    for keyed in ("rect", ".a", "#b", "g > rect.a", "rect:not(.x, .y)"):
        rules = "".join(f"{keyed}:not(#a{i}) {{ stroke-width: 1 }}" for i in range(1_000))
        assert "selectors a reader's browser tries on each" in refusal(picture(f"<style>{rules}</style>{dots}", size))


def test_a_dash_list_longer_than_an_editor_writes_is_refused() -> None:
    """A ``<style>`` giving 20,000 rectangles of one pixel a dash list of 100,000 numbers (600 KB) held headless
    Chromium 55 s: a browser reads the list again for each element it strokes."""
    reason = (
        "it lists more than 64 dashes in a `stroke-dasharray`, which a reader's browser reads again for each element "
        "it strokes"
    )
    long, short = " ".join(["0.5"] * 65), " ".join(["0.5"] * 64)
    dots = '<rect width="1" height="1"/>' * 100
    for given in (
        f"<style>rect {{ stroke: red; stroke-dasharray: {long} }}</style>",
        f"<style>rect {{ STROKE-DASHARRAY:{long.replace(' ', ',')} }}</style>",
        f'<g stroke-dasharray="{long}"/>',
    ):
        assert refusal(picture(given + dots)) == reason, given
    assert sanitised_svg(picture(f'<g stroke-dasharray="{short}" style="stroke-dasharray: 4 2">{dots}</g>'))


@pytest.mark.parametrize("aspect", ["xMidYMid slice", "xMinYMax slice", "none", " defer xMaxYMin  slice "])
def test_a_view_box_cut_or_stretched_to_the_pictures_shape_is_measured_as_shown(aspect: str) -> None:
    """``viewBox="0 0 1000 1"`` in a picture of 1000 x 1000 with ``slice`` (or ``none``) shows a strip one unit high
    across the whole picture: 10,000 ``<use>`` of it took headless Chromium 4.4 s more than the same picture shown
    whole (``meet``), and 100,000 were published, counted as a thousandth of a picture each (the viewBox was taken as
    shown whole whatever the attribute said)."""
    strip = '<rect width="1000" height="1" fill-opacity="0.01"/>'
    size = f'width="1000" height="1000" viewBox="0 0 1000 1" preserveAspectRatio="{aspect}"'
    assert refusal(picture(nested(strip, 4), size)) == REASON
    assert sanitised_svg(picture(nested(strip, 2), size))  # 100 strips
    shown_whole = 'width="1000" height="1000" viewBox="0 0 1000 1" preserveAspectRatio="xMidYMid meet"'
    assert sanitised_svg(picture(nested(strip, 4), shown_whole))  # a strip of the picture: a thousandth each


def test_a_pixel_painted_with_a_gradient_counts_as_more() -> None:
    """1,900 rectangles the size of the picture filled with a three-stop gradient held Chromium 9.4 s, against 2 s
    filled with a colour (the fourteenth probe): where a gradient paints, each pixel counts eight; a gradient no
    element names changes nothing."""
    gradient = '<linearGradient id="g" x2="1"><stop offset="0"/><stop offset="0.5" stop-color="red"/><stop offset="1"/></linearGradient>'
    filled = '<rect width="10" height="10" fill="url(#g)" fill-opacity="0.5"/>'
    assert refusal(picture(gradient + filled * 300)) == REASON
    assert sanitised_svg(picture(gradient + filled * 240))
    assert sanitised_svg(picture(gradient + FULL * 1_900))
