"""What an SVG costs that its elements did not tell, counted (the eighteenth probe of issue 32, picture half): a
``<textPath>`` walks the points of its path each time it is drawn, a ``font-family`` list is looked up for each font
description, an ``<feTurbulence>`` makes a pass an octave; and two refusals told plainly (a DOCTYPE's entities, a
nesting deeper than libxml2 reads)."""

from __future__ import annotations

import pytest
from lxml import etree

from rulebook.svg_pictures import sanitised_svg

from .test_svg_css import picture, refusal  # one picture frame and one way to take a refusal


def test_an_illustrator_doctype_is_refused_with_what_to_do() -> None:
    """Illustrator's "Save As SVG" declares entities for namespace names: refused (never expanded), saying how to
    export or mend it."""
    data = (
        b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n'
        b'<!ENTITY ns_flows "http://ns.adobe.com/Flows/1.0/">\n]>\n'
        b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="50" height="30"/></svg>'
    )
    refused = refusal(data)
    assert str(refused) == "it declares entities (`<!ENTITY>` in its DOCTYPE)"
    assert refused.help is not None
    assert "delete the DOCTYPE" in refused.help
    assert "Export As" in refused.help


def test_a_nesting_too_deep_is_said_plainly() -> None:
    """libxml2 stops at 256 elements one inside the other, naming an option of its own no user can set."""
    refused = refusal(picture("<g>" * 300 + "</g>" * 300))
    assert str(refused) == (
        "its elements are nested more than 256 deep, the most a picture may nest them, line 1 of the picture"
    )
    assert "XML_PARSE_HUGE" not in str(refused)
    assert sanitised_svg(picture("<g>" * 250 + "</g>" * 250))


def followed(points: int, levels: int, text_path: str = '<textPath href="#p">a</textPath>') -> bytes:
    """The probe's picture: a path of ``points`` points, one letter laid along it, drawn ten times a level."""
    data = " ".join(f"{i % 1000} {500 + (i % 2) * 0.3:.1f}" for i in range(points))
    body = f'<defs><path id="p" d="M0 500L{data}"/><text id="l0" font-size="10">{text_path}</text>'
    for level in range(1, levels + 1):
        body += f'<g id="l{level}">' + f'<use href="#l{level - 1}"/>' * 10 + "</g>"
    return picture(f'{body}</defs><use href="#l{levels}"/>')


DRAWN = "it draws more than 1,000,000 elements"


@pytest.mark.parametrize(
    "text_path",
    [
        '<textPath href="#p">a</textPath>',
        '<textPath xlink:href=" #p" xmlns:xlink="http://www.w3.org/1999/xlink">a</textPath>',
    ],
)
def test_a_text_path_counts_its_paths_points_each_time_it_is_drawn(text_path: str) -> None:
    """A browser walks the whole path for each ``<textPath>`` drawn: 2,000 points drawn 100,000 times (21 KB, counted
    as 100,000 elements) held headless Chromium 41 to 44 s; now 200 million points, refused by the count."""
    assert str(refusal(followed(2_000, 5, text_path))).startswith(DRAWN)
    assert sanitised_svg(followed(2_000, 2, text_path))  # 200,000 points: a few milliseconds


def test_text_paths_along_one_long_path_count_its_points_each() -> None:
    """1,000 ``<textPath>`` along one path of 100,000 points (9.3 s in Chromium): each walks it."""
    data = " ".join(f"{i % 1000} {i % 2}" for i in range(1_000))
    path = f'<defs><path id="p" d="M0 0L{data}"/></defs>'
    body = '<text font-size="10"><textPath href="#p">a</textPath></text>'
    assert sanitised_svg(picture(path + body * 900))
    assert str(refusal(picture(path + body * 1_100))).startswith(DRAWN)


def test_an_inline_text_path_is_left_out_of_the_copy() -> None:
    """SVG 2's ``path`` attribute on a ``<textPath>`` is no attribute of the allow-list: the copy draws no path."""
    data = " ".join(f"{i} {i % 2}" for i in range(10))
    rebuilt = sanitised_svg(picture(f'<text><textPath path="M0 0L{data}">a</textPath></text>'))
    assert b"textPath" in rebuilt
    assert b"path=" not in rebuilt


TURBULENCE = '<feTurbulence type="fractalNoise" baseFrequency="0.01" numOctaves="{octaves}" result="t{at}"/>'


def turbulences(count: int, octaves: int) -> bytes:
    """The probe's filter: ``count`` turbulences merged, on a rectangle the size of the picture."""
    merged = "".join(f'<feMergeNode in="t{at}"/>' for at in range(count))
    made = "".join(TURBULENCE.format(octaves=octaves, at=at) for at in range(count))
    return picture(
        f'<filter id="f">{made}<feMerge>{merged}</feMerge></filter><rect width="1000" height="1000" filter="url(#f)"/>'
    )


def test_a_turbulence_counts_a_step_an_octave() -> None:
    """19 turbulences of 10 octaves (2.5 KB) counted as 20 steps held Typst past its 20 s, the picture left out of the
    PDF after the lint passed it: now 191 steps, refused, naming the octaves."""
    refused = refusal(turbulences(19, 10))
    assert 'a turbulence of its filter `f` has `numOctaves="10"`, so it counts as 10 steps' in str(refused)
    assert refused.help is not None and refused.help.startswith("give the turbulence fewer octaves")
    assert sanitised_svg(turbulences(2, 10))  # an editor's noise: 21 steps
    assert sanitised_svg(turbulences(19, 1))


FAMILIES = ",".join(f"n{number}" for number in range(1_000)) + ",sans-serif"
SIZES = "".join(f'<text x="{at}" y="7" font-size="{8 + at / 2}">a</text>' for at in range(200))


@pytest.mark.parametrize(
    "listed",
    [
        f'<g font-family="{FAMILIES}">{SIZES}</g>',
        f'<g style="font-size: 9px; font-family: {FAMILIES}">{SIZES}</g>',
        f"<style>text {{ font-family: {FAMILIES} }}</style>{SIZES}",
        f"<style>text {{ font: italic 12px/1.2 {FAMILIES} }}</style>{SIZES}",
        f'<g style="font:12px {FAMILIES}">{SIZES}</g>',
        f'<style>text {{ font-family: "a;b", {FAMILIES} }}</style>{SIZES}',
        f"<style>text {{ font-family/**/: {FAMILIES} }}</style>{SIZES}",
    ],
)
def test_a_long_font_family_list_is_refused_where_it_is_given(listed: str) -> None:
    """1,000 families given to 200 texts of as many sizes (14 KB) held headless Chromium 46 to 57 s: a browser looks
    each family up for each size. Refused, in an attribute, a ``style``, a ``<style>``, a shorthand, past a quoted name holding a semicolon or a comment."""
    refused = refusal(picture(listed))
    assert "font families, more than 16, the most a picture may list" in str(refused)
    assert str(refused).endswith("line 1 of the picture")


def test_a_font_family_list_a_custom_property_carries_is_refused() -> None:
    """A custom property is left out of the copy, and ``var()`` in a kept property refuses the picture (svg_css)."""
    listed = f"<style>svg {{ --fonts: {FAMILIES} }} text {{ font-family: var(--fonts) }}</style>{SIZES}"
    assert "`font-family: var()`" in str(refusal(picture(listed)))


def test_a_font_stack_passes() -> None:
    """An editor's list, or a CSS font stack of a dozen (a quoted name's comma is its own), passes."""
    stack = '-apple-system, BlinkMacSystemFont, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "a, b, c"'
    stack += ', Ubuntu, Cantarell, "Fira Sans", "Droid Sans", sans-serif, "Apple Color Emoji", "Segoe UI Emoji"'
    assert sanitised_svg(picture(f"<g font-family='Georgia, serif'><text style='font-family: {stack}'>a</text></g>"))
    assert sanitised_svg(picture(f"<style>text {{ font: bold 12px {stack} }}</style><text>a</text>"))


@pytest.mark.parametrize(
    "drawn",
    [
        '<text style="text-decoration:underline dotted">a</text>',
        '<text text-decoration="line-through dashed">a</text>',
        "<style>text { text-decoration-style: dotted }</style><text>a</text>",
        "<style>text { text-decoration: underline dashed red }</style><text>a</text>",
    ],
)
def test_a_text_line_drawn_dotted_or_dashed_is_refused(drawn: str) -> None:
    """100 dotted underlines spaced 100 pixels a letter, drawn by 100 `<use>` (14 KB), held Chromium 85 to 117 s; the
    same solid 0.7 s (the nineteenth probe): a mark every few pixels that no count reads."""
    assert "its style draws a text's line dotted or dashed" in str(refusal(picture(drawn)))
    assert sanitised_svg(picture(drawn.replace("dotted", "solid").replace("dashed", "solid")))


def test_a_selector_by_the_siblings_before_is_refused() -> None:
    """`#n1 ~ rect` over 20,000 sibling rectangles (867 KB) held Chromium 33 to 56 s (the nineteenth probe)."""
    assert "(`~`)" in str(refusal(picture("<style>#a ~ rect { fill: red }</style><rect/>")))
    assert sanitised_svg(picture('<style>[class~="x"] { fill: red }</style><rect class="x"/>'))


def test_a_font_size_in_a_measure_the_counts_do_not_read_is_as_large_as_the_picture() -> None:
    """`font-size="4000Q"` (3,780 pixels) was read as 0: 400 letters drawn 1,000 times by `<use>` (3 KB) held
    Chromium 44 s, where the same in pixels was refused (the nineteenth probe)."""
    from rulebook.svg_area import _largest_font

    for size in ("4000Q", "100cqmax", "50rlh", "10vw"):
        tree = etree.fromstring(picture(f'<text font-size="{size}">a</text>'))
        assert _largest_font(tree, []) == float("inf"), size
    assert _largest_font(etree.fromstring(picture('<text font-size="12px">a</text>')), []) == 12.0


def test_an_escaped_quote_hides_no_font_family() -> None:
    """`a\\"x,q0x,...,z\\"y` read with its backslashes as CSS reads them: 1,003 families (the count saw 3)."""
    listed = 'a\\"x,' + ",".join(f"q{number}x" for number in range(1_000)) + ',z\\"y,sans-serif'
    for body in (f"<text style='font-family:{listed}'>a</text>", f"<style>text {{ font-family: {listed} }}</style>"):
        assert "names 1,003 font families" in str(refusal(picture(body)))
