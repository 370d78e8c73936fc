"""CSS and text an SVG may hold whose cost in a reader's browser no count reads, refused (the sixteenth probe of issue
32): shadows, masks given as images, CSS gradients and clipping shapes, animations, raster bytes of a type no check
reads, and a character carrying a run of combining marks. Each case is a few KB that held headless Chromium from 10 s
to past 150 s; what SVG's own elements do instead is counted and passes."""

from __future__ import annotations

import base64

import pytest

from rulebook.svg_pictures import MAX_MARKS, UnsafeSvg, sanitised_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">'
UNCOUNTED = (
    "which a reader's browser draws at a cost no count of the picture reads (CSS shadows, masks, gradients and "
    "clipping shapes)"
)


def picture(body: str) -> bytes:
    return f"{HEAD}{body}</svg>".encode()


def refusal(data: bytes) -> UnsafeSvg:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return refused.value


STYLED = {
    "text-shadow": (
        "<style>text{text-shadow:0 0 100px #00f8, 1px 1px 100px #00f8}</style><text>a</text>",
        "text-shadow",
    ),
    "box-shadow": ('<rect width="9" height="9" style="box-shadow: 0 0 9px red"/>', "box-shadow"),
    "a mask of gradients": (
        '<rect width="9" height="9" style="mask-image:repeating-radial-gradient(#000 0 1px,#0000 1px 2px)"/>',
        "mask-image",
    ),
    "a prefixed mask": ('<rect width="9" height="9" style="-webkit-mask-image: none"/>', "-webkit-mask-image"),
    "a CSS gradient": ("<style>svg{background:conic-gradient(red, blue)}</style>", "conic-gradient"),
    "a clipping polygon": (
        '<style>rect{clip-path:polygon(0 0, 9 0, 0 9)}</style><rect width="9" height="9"/>',
        "clip-path: polygon()",
    ),
    "a clipping circle in an attribute": (
        '<rect width="9" height="9" clip-path="circle(5px)"/>',
        "clip-path: circle()",
    ),
    "a backdrop filter": ('<g style="backdrop-filter: blur(9px)"/>', "backdrop-filter"),
}


@pytest.mark.parametrize(("body", "named"), STYLED.values(), ids=STYLED.keys())
def test_css_whose_cost_is_not_counted_is_refused(body: str, named: str) -> None:
    refused = refusal(picture(body))
    assert refused.reason == f"its style uses `{named}`, {UNCOUNTED}"
    assert refused.help == (
        "draw it with SVG's own elements (a `<filter>`, `<mask>`, `<linearGradient>` or `<clipPath>`), or export it "
        "simpler, or as a PNG"
    )


@pytest.mark.parametrize(
    ("body", "named"),
    [
        ("<style>@keyframes spin{to{opacity:0}} rect{animation:spin 1s infinite}</style>", "@keyframes"),
        ('<rect width="9" height="9" style="animation-name: spin"/>', "animation-name"),
        ('<rect width="9" height="9" style="transition: opacity 1s"/>', "transition"),
    ],
)
def test_css_that_animates_is_refused_as_smil_is(body: str, named: str) -> None:
    """A picture animating a costly effect has a reader's browser draw it again and again."""
    assert str(refusal(picture(body))) == (
        f"its style animates it (`{named}`): a published picture is a still drawing, as it is when it animates with "
        "`<animate>`, line 1 of the picture"
    )


def test_what_svg_does_itself_passes() -> None:
    """Clipping and masking by an element of the picture, a mask's type, a filter's shadow: counted, published."""
    body = (
        '<clipPath id="c"><rect width="5" height="5"/></clipPath><mask id="m"><rect width="5" height="5" '
        'fill="white"/></mask><linearGradient id="g"><stop offset="0"/></linearGradient>'
        '<rect width="9" height="9" clip-path="url(#c)" style="mask: url(#m); mask-type: alpha; fill: url(#g)"/>'
    )
    assert b'clip-path="url(#c)"' in sanitised_svg(picture(body))


BMP = b"BM@\x00\x00\x00\x00\x00\x00\x006\x04\x00\x00(\x00\x00\x00@\x1f\x00\x00@\x1f\x00\x00\x01\x00\x08\x00\x01\x00"


def test_raster_bytes_of_a_type_no_check_reads_are_refused() -> None:
    """Thirty 8,000 x 8,000 BMPs of 64 bytes each, named `image/png` (4.7 KB): Chromium decodes them by their bytes,
    18.8 s; the checks read PNG, JPEG, GIF, WebP and AVIF only, and counted nothing."""
    address = "data:image/png;base64," + base64.b64encode(BMP + bytes(24)).decode()
    refused = refusal(picture(f'<image width="9" height="9" href="{address}"/>'))
    assert refused.reason.startswith("a picture it carries is no PNG, JPEG, GIF, WebP or AVIF picture")
    assert refused.help == "carry it as a PNG, or export it simpler, or as a PNG"


def test_a_character_carrying_a_run_of_marks_is_refused_and_a_scripts_own_accents_pass() -> None:
    """A browser shapes a letter and its marks as one, at a cost growing with their number squared (an `a` with
    100,000 marks, 200 KB: 26 to 31 s)."""
    assert "Tiếng Việt".encode() in sanitised_svg(picture("<text>Tiếng Việt, \u05e9\u05c1\u05b8\u05dc</text>"))
    assert b"a" in sanitised_svg(picture(f"<text>a{chr(0x301) * MAX_MARKS}</text>"))
    refused = refusal(picture(f"<text>\n<tspan>a{chr(0x301) * (MAX_MARKS + 1)}</tspan></text>"))
    assert str(refused) == (
        f"its text gives a character more than {MAX_MARKS} combining marks (accents, signs) in a row (U+0301 on), "
        "which a reader's browser shapes at a cost growing with their number squared, line 2 of the picture"
    )


@pytest.mark.parametrize(
    ("body", "said"),
    [
        (  # ten layers of it (928 bytes) held headless Chromium 17 s
            '<style>svg{background:url(#a) 0 0/1000px, url(#a) 0 0/999px}</style><rect id="a" width="9"/>',
            "its style gives `background` an address (`url(#...)`), which a reader's browser reads there as this "
            "picture's own file, drawn again inside itself, line 1 of the picture",
        ),
        (
            '<rect width="9" height="9" style="--picture: url(#a)"/>',
            "its style gives `--picture` an address (`url(#...)`), which a reader's browser reads there as this "
            "picture's own file, drawn again inside itself, line 1 of the picture",
        ),
        (  # thirty (2 KB): 12 to 26 s; Typst read `#/../secret.png` as a file beside the picture
            '<image href="#a" width="999" height="999"/>',
            "an `<image>` shows `#a`, which a reader's browser reads as this picture's own file, drawn again inside "
            "itself (an `<image>` shows a raster picture it carries; `<use>` repeats an element), line 1 of the picture",
        ),
    ],
)
def test_a_picture_never_draws_its_own_file(body: str, said: str) -> None:
    """`url(#id)` names an element only where a paint, marker, clipping path, mask or filter takes it; elsewhere,
    and as an `<image>`'s address, a browser loads the picture's own file and draws it again inside itself (the
    seventeenth probe)."""
    assert str(refusal(picture(body))) == said


@pytest.mark.parametrize(
    ("style", "named"),
    [
        ("-webkit-mask:-webkit-gradient(radial,5 5,0,5 5,9,from(#000),to(#0000))", "-webkit-gradient"),
        ("-webkit-clip-path:polygon(0 0, 9 0, 0 9)", "clip-path: polygon()"),
        ("--shape:polygon(0 0, 9 0, 0 9); clip-path: var(--shape)", "--shape: polygon()"),
    ],
)
def test_prefixed_and_carried_spellings_are_refused_too(style: str, named: str) -> None:
    """Chromium reads `-webkit-gradient()` and `-webkit-clip-path` (11 s for a 3 KB mask of twenty such gradients
    drawn 30 times; a 22 KB prefixed polygon drawn 300 times, 11 s), and a shape carried by a custom property."""
    assert refusal(picture(f'<rect width="9" height="9" style="{style}"/>')).reason == (
        f"its style uses `{named}`, {UNCOUNTED}"
    )


def test_inkscapes_flowed_text_keeps_its_shape() -> None:
    assert b"shape-inside" in sanitised_svg(
        picture('<rect id="r" width="9" height="9"/><text style="shape-inside:url(#r);fill:url(#g)">a</text>')
    )
