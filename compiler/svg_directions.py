"""Where an SVG picture's text changes its writing direction: a browser's cost that no count of letters reads.

A browser lays an SVG ``<text>`` out on one line (it never wraps), cut into runs of one writing direction, which it
orders and shapes together: a text whose letters change direction often costs it more than linearly in their number,
and more again where each run is an element of its own (one ``<text>`` of 40,000 one-letter ``<tspan>``, Hebrew and
Latin in turn, 660 KB, held headless Chromium 55 s, 20,000 of them 5.6 s, the same all Latin 0.7 s; 160,000 letters
in turn without an element, 240 KB, 15.5 s, 80,000 2.9 s). Each text is laid out again wherever it is drawn (a
``<use>`` of a text of 1,000 such ``<tspan>``, 500 times: 18 s). So the changes of direction of a text are counted
(:func:`direction_changes`), refused past :data:`MAX_DIRECTION_CHANGES` in one text, and each weighs as
:data:`DIRECTION_WEIGHT` elements each time the text is drawn (:func:`drawn_weight`), where
:mod:`rulebook.svg_pictures` counts what a picture draws.
"""

from __future__ import annotations

import re
from functools import cache, lru_cache

from lxml import etree

from rulebook.svg_geometry import SVG

MAX_DIRECTION_CHANGES = 1_000
"""The most times one ``<text>`` may change its writing direction: a right-to-left letter after a left-to-right one
or the reverse, a bidirectional control character, a number among right-to-left letters or an element inside it
given its own ``direction`` or ``unicode-bidi`` (two: a run of its own, and the one after it). The 53,997 SVGs of
this machine (icon sets, books, maps) change direction at most 4 times in a text, and have at most 257 elements in
one; a text of 1,000 changes, each a ``<tspan>``, took headless Chromium 0.16 s (5,000: 0.6 s, 10,000: 1.4 s)."""
DIRECTION_WEIGHT = 10
"""How many elements drawn each change of direction of a text counts as, each time the text is drawn: a change took
headless Chromium 36 microseconds where each run was a ``<tspan>`` (500 ``<use>`` of a text of 1,000, 18 s), an
element drawn about 6 (the same all Latin, a million elements drawn: 5.7 s)."""

_TEXT = f"{{{SVG}}}text"
_CONTENT = frozenset(f"{{{SVG}}}{name}" for name in ("text", "tspan", "textPath", "a"))
"""The elements whose text a ``<text>`` draws."""
_RIGHT_TO_LEFT = ((0x0590, 0x08FF), (0xFB1D, 0xFDFF), (0xFE70, 0xFEFF), (0x10800, 0x10FFF), (0x1E800, 0x1EFFF))
"""The blocks holding every right-to-left letter (Unicode's bidirectional class R or AL), and where a code point
not yet given one takes that class."""
_CONTROLS = "\u202a-\u202e\u2066-\u2069"
"""The bidirectional controls that open or close an embedding, an override or an isolate: each a run of its own."""
_STYLED = re.compile(r"direction|unicode-bidi", re.IGNORECASE)


def direction_changes(text: etree._Element, *, styled: bool = False) -> int:
    """How many times the ``<text>`` ``text`` changes its writing direction (:data:`MAX_DIRECTION_CHANGES`), counted
    up to one past it; ``styled``: whether the picture's ``<style>`` may give its elements a direction."""
    # an element given a direction opens a run of its own, and the text goes on after it
    changes = 2 * sum(1 for inner in text.iterdescendants(*_CONTENT) if styled or _given_direction(inner))
    content = _content(text)
    if content.isascii():  # no right-to-left letter, no control
        return changes
    last, right_seen = "", False
    for found in _runs().finditer(content):
        kind = found.lastgroup or ""
        if kind == "right" and not right_seen:
            # a browser orders a right-to-left text's runs element by element: each element inside is a run of its
            # own (14,000 one-letter `<tspan>` of Hebrew drawn ten times, no change of direction, held Chromium 50 s)
            right_seen = True
            changes += sum(1 for _ in text.iterdescendants(*_CONTENT))
        if kind == "control":
            changes += 1
        elif kind == "number":
            changes += 2 if last == "right" else 0  # a run inside the right-to-left one, which goes on after it
        elif kind != last:
            changes += 1 if last else 0
            last = kind
        if changes > MAX_DIRECTION_CHANGES:
            break
    return changes


def first_past_the_limit(root: etree._Element) -> tuple[etree._Element, int] | None:
    """The first ``<text>`` of ``root`` changing its direction more than :data:`MAX_DIRECTION_CHANGES` times, with
    how many times it does (up to one past the limit); None if there is none."""
    styled = styles_direction(root)
    for text in root.iter(_TEXT):
        changes = direction_changes(text, styled=styled)
        if changes > MAX_DIRECTION_CHANGES:
            return text, changes
    return None


def drawn_weight(element: etree._Element, styles: list[str]) -> int:
    """The elements drawn ``element``'s changes of direction count as (:data:`DIRECTION_WEIGHT` each), each time it
    is drawn: none but for a ``<text>``; ``styles``: the CSS of the picture's ``<style>`` elements."""
    if element.tag != _TEXT:
        return 0
    return DIRECTION_WEIGHT * direction_changes(element, styled=_directs(tuple(styles)))


def styles_direction(root: etree._Element) -> bool:
    """Whether a ``<style>`` of the picture may give an element of a text its own direction."""
    return _directs(tuple(style.text or "" for style in root.iter(f"{{{SVG}}}style")))


@lru_cache(maxsize=4)
def _directs(styles: tuple[str, ...]) -> bool:
    """Whether CSS of ``styles`` may give an element a direction (read once a picture, not once a text)."""
    return any(_STYLED.search(text) or "\\" in text for text in styles)  # an escape may spell it: `dir\\65 ction`


def _given_direction(element: etree._Element) -> bool:
    if element.get("direction") is not None or element.get("unicode-bidi") is not None:
        return True
    style = element.get("style") or ""
    return _STYLED.search(style) is not None or "\\" in style  # an escape may spell it: `dir\\65 ction`


def _content(text: etree._Element) -> str:
    """What ``text`` writes, in its order: the text of each element inside that draws text, and the text after
    each node inside it."""
    parts: list[str] = []
    for node in text.iter():
        if node.tag in _CONTENT:
            parts.append(node.text or "")
        if node is not text:
            parts.append(node.tail or "")
    return "".join(parts)


@cache
def _runs() -> re.Pattern[str]:
    """A run of right-to-left letters, of numbers, of other letters, or a control (read once, the first time a text
    is not ASCII)."""
    import unicodedata

    right = "".join(
        re.escape(chr(code))
        for low, high in _RIGHT_TO_LEFT
        for code in range(low, high + 1)
        if unicodedata.bidirectional(chr(code)) in ("R", "AL", "")
    )
    right += "\u200f"  # the right-to-left mark
    # A run of wide letters (Chinese, Japanese, Korean) is a font's run of its own beside a narrow one: letters of
    # both in turn cost a browser as changes of direction do (`a中` 320,000 times, 1.3 MB: 20 s). The left-to-right
    # mark and every mark or letter that is not right-to-left are left-to-right (U+200E between Hebrew letters was
    # passed over: 160,000 of them, 53 s); spaces and punctuation are no run.
    neutral = "\\s!-/:-@\\[-`{-~\u2000-\u200d\u2010-\u205e" + _MARKS
    return re.compile(
        f"(?P<control>[{_CONTROLS}])|(?P<right>[{right}]+)|(?P<number>\\d+)|(?P<wide>[{_WIDE}]+)"
        f"|(?P<left>[^{right}{_CONTROLS}{neutral}\\d{_WIDE}]+)"
    )


_MARKS = (
    "\u0300-\u036f\u0483-\u0489\u0591-\u05c7\u0610-\u061a\u064b-\u065f\u0670\u06d6-\u06ed"
    "\u1ab0-\u1aff\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f"
)
"""The combining marks of Latin, Greek, Cyrillic, Hebrew and Arabic: they join the letter before them, no run."""
_WIDE = "\u1100-\u11ff\u2e80-\u2fff\u3040-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
"""The blocks of wide letters: Hangul, CJK radicals and ideographs, kana, compatibility and full-width forms."""
