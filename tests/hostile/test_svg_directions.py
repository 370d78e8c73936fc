"""An SVG picture is refused when a text of it changes its writing direction more than a browser orders in time.

A browser lays out an SVG text on one line in runs of one direction, at a cost growing faster than their number: one
``<text>`` of 40,000 one-letter ``<tspan>``, Hebrew and Latin in turn (660 KB), held headless Chromium 55 s, and the
count of letters and elements saw nothing past the ordinary (the eighteenth probe of issue 32). These tests count,
they do not time.
"""

from __future__ import annotations

import pytest
from lxml import etree

from rulebook.svg_directions import DIRECTION_WEIGHT, MAX_DIRECTION_CHANGES, direction_changes
from rulebook.svg_pictures import MAX_SVG_DRAWN, MAX_TEXT_RUN, UnsafeSvg, sanitised_svg

HEBREW = "\u05d0"
REASON = (
    "a text of it changes its writing direction more than 1,000 times (right-to-left letters and left-to-right ones "
    "in turn, wide letters and narrow ones, numbers among right-to-left letters, bidirectional controls, the elements "
    "of a right-to-left text, elements given their own direction), which a reader's browser orders at a cost growing "
    "faster than their number"
)


def picture(body: str) -> bytes:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">\n' + body + "</svg>").encode()


def refusal(data: bytes) -> UnsafeSvg:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return refused.value


def in_turn(count: int, tag: str = "") -> str:
    """``count`` letters, Latin and Hebrew in turn, each in an element ``tag`` (none: plain text)."""
    letters = (HEBREW if index % 2 else "a" for index in range(count))
    return "".join(f"<{tag}>{letter}</{tag}>" if tag else letter for letter in letters)


def test_the_probes_texts_are_refused_where_they_stand() -> None:
    """The probe's text and its neighbours, one change past the limit, refused naming the text's line."""
    past = MAX_DIRECTION_CHANGES + 2  # letters: one change between each two
    assert MAX_DIRECTION_CHANGES == 1_000
    for body in (
        f'<text y="10">{in_turn(past, "tspan")}</text>',  # 40,000 of them: 55 s
        f'<text y="10">{in_turn(past, "a")}</text>',  # 36 s
        f'<text y="10">{in_turn(past)}</text>',  # no element: 160,000 letters, 15.5 s
        '<text y="10">' + '<tspan direction="rtl" unicode-bidi="embed">a</tspan><tspan>a</tspan>' * 501 + "</text>",
        '<text y="10">' + '<tspan style="direction: rtl; unicode-bidi: embed">a</tspan>' * past + "</text>",
        '<style>tspan { unicode-bidi: embed }</style><text y="10">' + "<tspan>a</tspan>" * past + "</text>",
        '<text y="10">' + "\u202ba\u202c" * 501 + "</text>",  # embeddings opened and closed
        f'<text y="10">{HEBREW}' + f"1{HEBREW}" * 501 + "</text>",  # numbers among right-to-left letters
        f'<text y="10"><textPath href="#p">{in_turn(past, "tspan")}</textPath></text><path id="p" d="M0 0H9"/>',
    ):
        refused = refusal(picture("<g>\n" + body + "</g>"))
        assert str(refused) == REASON + ", line 3 of the picture", body[:80]
        assert refused.help == "split the text into several `<text>` elements, or export it simpler, or as a PNG"


def test_a_text_up_to_the_limit_is_published() -> None:
    """A text changing direction 1,000 times is published; Latin letters in elements of their own, any number; a
    right-to-left text of 1,000 elements (14,000 one-letter `<tspan>` of Hebrew drawn ten times, no change of
    direction, held Chromium 50 s: the nineteenth probe)."""
    sanitised_svg(picture(f'<text y="10">{in_turn(MAX_DIRECTION_CHANGES + 1)}</text>'))
    refusal(picture(f'<text y="10">{in_turn(MAX_DIRECTION_CHANGES + 2)}</text>'))
    sanitised_svg(picture('<text y="10">' + "<tspan>a</tspan>" * MAX_TEXT_RUN + "</text>"))  # as many as a text has
    sanitised_svg(picture('<text y="10">' + f"<tspan>{HEBREW}</tspan>" * MAX_DIRECTION_CHANGES + "</text>"))
    refusal(picture('<text y="10">' + f"<tspan>{HEBREW}</tspan>" * (MAX_DIRECTION_CHANGES + 1) + "</text>"))


def test_each_drawing_of_a_text_counts_its_changes() -> None:
    """A text drawn again by ``<use>`` is laid out again (500 of a text of 1,000 changes: 18 s): each change counts
    as :data:`DIRECTION_WEIGHT` elements drawn, each time; the same letters all Latin are far under the limit."""
    uses = MAX_SVG_DRAWN // (MAX_DIRECTION_CHANGES * DIRECTION_WEIGHT) + 1
    text = f'<defs><text id="t" y="10">{in_turn(MAX_DIRECTION_CHANGES + 1)}</text></defs>'
    refused = refusal(picture(text + '<use href="#t"/>' * uses))
    assert str(refused).startswith("it draws more than 1,000,000 elements")
    sanitised_svg(picture(text.replace(HEBREW, "b") + '<use href="#t"/>' * uses))
    sanitised_svg(picture(text + '<use href="#t"/>' * (uses // 2)))


def test_what_counts_as_a_change() -> None:
    """A change between right-to-left and left-to-right letters, whatever stands between; a number among
    right-to-left letters twice (a run inside theirs); spaces, marks and Latin numbers nothing."""

    def changes(content: str) -> int:
        return direction_changes(etree.fromstring(f'<text xmlns="http://www.w3.org/2000/svg">{content}</text>'))

    assert changes("route 66, 1st exit") == 0
    assert changes("\u05e9\u05dc\u05d5\u05dd world 12") == 1
    # each element of a right-to-left text is a run of its own (the nineteenth probe)
    assert changes("\u05e9\u05b8\u05dc\u05d5\u05b9\u05dd, <tspan>!</tspan> \u05e2\u05d5\u05dc\u05dd") == 1
    assert changes("\u0633\u0644\u0627\u0645 2024 \u0633\u0644\u0627\u0645") == 2
    assert changes("a<tspan>\u05d0</tspan>b") == 3
    assert changes("\u05d0\u200e" * 10) == 19  # the left-to-right mark is left-to-right
    assert changes("a\u4e2d" * 10) == 19  # wide letters and narrow ones in turn: a font's runs
    assert changes("Tokyo \u6771\u4eac, caf\u00e9") == 2
    assert changes('a<tspan direction="rtl">b</tspan>') == 2
