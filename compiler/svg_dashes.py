"""How many dashes an SVG's dashed strokes make a browser draw: a cost neither its elements, points nor area show.

A browser (Skia) draws a dashed stroke as one segment a dash, up to a million a stroke (past them, undashed): a
rectangle of sides of 998 stroked with ``stroke-dasharray="0.01 0.01"`` is 200,000 segments, and a hundred of them
(10 KB) held headless Chromium 15 s; 1,900 ``<use>`` of one held it 289 s. So each shape counts its stroke's length
over the length a dash takes in its pattern (the pattern's length over the dashes it holds: an odd list is drawn
twice), both in the element's own user space, so a transform changes neither. Its pattern is taken as the one of
shortest dashes it may be given: its own ``stroke-dasharray`` (a ``style``'s before an attribute's) or its parent's,
whichever is shorter, and, where it may be drawn elsewhere (a ``<use>`` draws what it repeats with its own
properties) or where a ``<style>`` gives dashes (to any element), the shortest of the picture. A ``pathLength``
lays the pattern along the length it says; a ``vector-effect: non-scaling-stroke`` draws it in the window's pixels,
where the transforms above the shape stretch its stroke and not its pattern.
:mod:`rulebook.svg_pictures` adds them up as it counts what each element draws.
"""

from __future__ import annotations

import math
import re

from lxml import etree

from rulebook.svg_area import CSS_GEOMETRY, CSS_MOVES, MAX_PATH_COMMANDS
from rulebook.svg_geometry import (
    PIXELS,
    ROUND,
    SVG,
    Viewport,
    carried_down,
    command_count,
    length,
    numbers,
    path_length,
    stretch_of,
    transform_of,
    view_box,
)

MAX_DASHES_DRAWN = 2_000_000
"""The most dashes an SVG's strokes may draw, each time each is drawn: headless Chromium drew 1,996,000 (ten
rectangles of sides of 998, dashes of 0.01 and gaps of 0.01) in 2 to 2.4 s more than an empty picture, about a
microsecond a dash. A diagram's dashed lines draw thousands (a hundred lines of 1,000, dashes of 5 and gaps
of 5: 10,000)."""
CAPPED_DASH = 3
"""The dashes a dash with round or square caps counts as: its caps are a shape of their own, drawn even where the dash
has no length (four rectangles of round dots a hundredth apart, 1,600,000 dots a stroke wide, took headless Chromium
6.7 s on a loaded machine where thin dashes without caps took 2 s for 2,000,000)."""
_CAPPED = re.compile(r"linecap\s*+(?:[:=]\s*+)?(?:['\"]\s*+)?(?:round|square)|\b(?:round|square)\b", re.IGNORECASE)
"""A round or square cap, each run of spaces read once (``\\s*[:=]?\\s*['"]?\\s*`` split 2,000 spaces every way:
39 s)."""
DASHES_A_STROKE = 1_000_000
"""The most dashes a browser draws on one stroke: past them it draws the stroke undashed."""
_UNTOLD = re.compile(r"%|[\d.]\s*(?:r?em|ex|ch|v(?:w|h|min|max)|q)\b|\(", re.IGNORECASE)
"""A dash length this module does not follow: a share of the viewport, a font's size, a CSS function."""
_DASH_PROPERTY = re.compile(r"(?<![\w-])stroke-dasharray\s*:([^;}]*)", re.IGNORECASE)
_REFERENCE = re.compile(r"#([^\s'\")]+)")
_IMPORTANT = re.compile(r"!\s*important")
_CSS_NUMBER = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(px|in|cm|mm|pt|pc|)")
"""A length of a dash list as CSS reads it: a number, its measure (``px``) touching it; numbers touching (``.01.01``)
are two."""
_KEYWORDS = {"none": math.inf, "initial": math.inf}
"""Dash values drawing a solid stroke; another keyword (``inherit``) takes the parent's."""
_SHAPES = frozenset({"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"})
_NON_SCALING = "non-scaling-stroke"


class UntoldDashes(ValueError):
    """A dash length given in a measure or a function this module does not follow."""


def spacing(value: str) -> float | None:
    """The length of stroke a dash of the pattern ``value`` takes, in user space, as CSS reads it (numbers may touch:
    ``.01.01`` is two; ``! important`` is no length): infinite for a solid stroke (``none``, all zeros), None where the
    element takes its parent's (no value, ``inherit``, an invalid list: a browser ignores it). Raises
    :class:`UntoldDashes` for a length in ``%`` or ``em`` (a function, ``calc()`` or ``var()``, is refused before,
    by :mod:`rulebook.svg_css`, and so is a custom property)."""
    text = _IMPORTANT.sub(" ", value.lower()).strip()
    if not text or text.isalpha():
        return _KEYWORDS.get(text)
    if _UNTOLD.search(text):
        raise UntoldDashes(text)
    if _CSS_NUMBER.sub(" ", text).strip(" \t\n\r\f,"):
        return None  # a letter, a sign alone: not a list of lengths
    lengths = [float(number) * PIXELS[measure] for number, measure in _CSS_NUMBER.findall(text)]
    if not lengths or any(item < 0 for item in lengths):
        return None
    return _spacing(lengths)


def _spacing(lengths: list[float]) -> float:
    """The length of stroke a dash takes, on average, in a pattern of these dash and gap lengths (an odd list is
    repeated to make it even, as a browser does); infinite where the pattern draws a solid stroke."""
    dashes = len(lengths) if len(lengths) % 2 else len(lengths) // 2
    total = sum(lengths) * (2 if len(lengths) % 2 else 1)
    return total / dashes if total > 0 else math.inf


class DashedStrokes:
    """The dashes each shape of a picture draws itself, once: call :meth:`own` as each element is counted."""

    def __init__(self, root: etree._Element, styles: list[str], view: Viewport, glyph_side: float) -> None:
        self.wide, self.high = _percent_extents(root, view)
        self.glyph_side = glyph_side
        """The largest side a letter may have (a text's stroke runs about a letter's outline)."""
        texts = [*styles, *(str(value) for element in root.iter() for value in element.values())]
        self.decorated = any("text-decoration" in text.lower() for text in styles) or any(
            element.get("text-decoration") is not None for element in root.iter()
        )
        """Whether a text may be underlined, overlined or struck through: a line along its whole advance."""
        self.advance = glyph_side + _widest_spacing(root, texts, glyph_side)
        """The most a letter may move the next along (its size, and letter and word spacing)."""
        self.capped = any(_CAPPED.search(text) for text in texts)
        """Whether a dash may be drawn with round or square caps: a shape of its own, even of no length."""
        self.path_commands = 0
        styled = [spacing(value) for text in styles for value in _DASH_PROPERTY.findall(text)]
        self.spacings: dict[etree._Element, float] = {}
        """The least length of stroke a dash of each element may take, infinite for a solid stroke."""
        given: dict[etree._Element, float | None] = {element: _given(element) for element in root.iter()}
        smallest = min((p for p in [*styled, *given.values()] if p is not None), default=math.inf)
        if math.isinf(smallest):
            return  # no dash in the picture: the common case
        everywhere = any(p is not None and not math.isinf(p) for p in styled)
        repeated = {name for element in root.iter() for name in _repeated(element)}
        self.unmeasured = any(CSS_GEOMETRY.search(text) for text in styles)
        """Whether a ``<style>`` may give any shape its geometry (``r: 400``): its stroke's length is not told."""
        self.unscaled = _non_scaling(root, styles, view)
        """The elements whose stroke may be drawn in the window's pixels (``vector-effect``), dashes and all, and
        how many times those transforms stretch a length: the dashes of a small shape in a large scale."""
        for element, own in given.items():
            parent = element.getparent()
            # a <style>'s rule wins over an attribute, and a <use> draws what it repeats with its own dashes
            if everywhere or (element.get("id") or "") in repeated:
                self.spacings[element] = smallest
            else:  # its own, or its parent's where smaller
                inherited = math.inf if parent is None else self.spacings.get(parent, math.inf)
                self.spacings[element] = inherited if own is None else min(own, inherited)

    def own(self, element: etree._Element, letters: int) -> float:
        """The dashes ``element`` draws itself, each time it is drawn (none for a solid stroke)."""
        each = self.spacings.get(element, math.inf)
        if math.isinf(each):
            return 0.0
        stretch = self.unscaled.get(element, 1.0)
        if not stretch:
            return 0.0
        run = self._stroke_length(element)
        author = length(element.get("pathLength"), 0.0)  # the pattern is laid along the length the author says
        run = max(run, author) if author is not None and author > 0 else run
        dashes = min(float(DASHES_A_STROKE), run * stretch / each) if run else 0.0
        if letters:  # a browser dashes each glyph apart, and a decoration along the whole text
            dashes += letters * min(float(DASHES_A_STROKE), 8 * self.glyph_side * stretch / each)
            if self.decorated:
                moved = max([0.0, *(abs(n) for key in ("dx", "textLength") for n in numbers(element.get(key) or ""))])
                along = letters * (self.advance + moved) * stretch
                dashes += min(float(DASHES_A_STROKE), 3 * along / each)
        return dashes * (CAPPED_DASH if self.capped else 1)

    def overlap(self, element: etree._Element, width: float) -> float:
        """How many of ``element``'s dashes a stroke ``width`` wide draws over each point (one at least): each of
        their edges crosses the others'."""
        each = self.spacings.get(element, math.inf)
        return max(1.0, width / each) if each > 0 and math.isfinite(each) else 1.0

    def _stroke_length(self, element: etree._Element) -> float:
        """How far ``element``'s stroke runs, in its user space (infinite where it is not told)."""
        tag = etree.QName(element).localname
        if self.unmeasured or CSS_GEOMETRY.search(element.get("style") or ""):
            return math.inf if tag in _SHAPES else 0.0
        wide, high = self.wide, self.high
        if tag == "rect":
            width, height = length(element.get("width"), wide), length(element.get("height"), high)
            return math.inf if width is None or height is None else 2 * (abs(width) + abs(height))
        if element.tag in ROUND:
            radii = [length(element.get(key), math.hypot(wide, high)) for key in ("r", "rx", "ry")]
            return math.inf if any(r is None for r in radii) else 2 * math.pi * max(abs(r or 0.0) for r in radii)
        if tag == "line":
            ends = [length(element.get(key), wide if key[0] == "x" else high) for key in ("x1", "y1", "x2", "y2")]
            if any(end is None for end in ends):
                return math.inf
            x1, y1, x2, y2 = (end or 0.0 for end in ends)
            return math.hypot(x2 - x1, y2 - y1)
        if tag in ("polyline", "polygon"):
            values = numbers(element.get("points") or "")
            xs, ys = values[0 : len(values) // 2 * 2 : 2], values[1 : len(values) // 2 * 2 : 2]
            if tag == "polygon" and xs:
                xs, ys = [*xs, xs[0]], [*ys, ys[0]]
            return sum(math.hypot(x2 - x1, y2 - y1) for x1, y1, x2, y2 in zip(xs, ys, xs[1:], ys[1:], strict=False))
        if tag == "path":
            data = element.get("d") or ""
            self.path_commands += command_count(data)
            return math.inf if self.path_commands > MAX_PATH_COMMANDS else path_length(data)
        return 0.0


def _given(element: etree._Element) -> float | None:
    """The length a dash takes in the pattern ``element`` gives itself: its ``style``'s, else its attribute's;
    None if none."""
    if not isinstance(element.tag, str):
        return None
    values = _DASH_PROPERTY.findall(element.get("style") or "")
    values.reverse()  # the last declaration of a style wins
    values.append(element.get("stroke-dasharray") or "")
    for value in values:
        found = spacing(value)
        if found is not None:
            return found
    return None


def _repeated(element: etree._Element) -> list[str]:
    """The ids a ``<use>`` (or anything with an address) of ``element`` draws again, with their own properties."""
    address = element.get("href") or element.get("{http://www.w3.org/1999/xlink}href") or ""
    return _REFERENCE.findall(address)


def _non_scaling(root: etree._Element, styles: list[str], view: Viewport) -> dict[etree._Element, float]:
    """The elements a ``vector-effect`` may draw the stroke of in the window's pixels (all where a ``<style>`` may
    give one), each with how many times the picture's size and the transforms above it stretch a length at most:
    infinite where that is not told (a transform in CSS, a ``viewBox`` inside, what a ``<use>`` repeats)."""
    named = any(_NON_SCALING in str(value).lower() for element in root.iter() for value in element.values())
    if not named and not any(_NON_SCALING in text.lower() for text in styles):
        return {}
    anywhere = any("vector-effect" in text.lower() for text in styles)
    moved = any(CSS_MOVES.search(text) for text in styles)
    repeated = {name for element in root.iter() for name in _repeated(element)}
    sized = math.sqrt(view.pixels / view.area) if not view.untold else math.inf  # pixels a length of user space

    def stretched(element: etree._Element, above: float) -> float:
        own = transform_of(element.get("transform"))
        untold = moved or CSS_MOVES.search(element.get("style") or "") or (element.get("id") or "") in repeated
        if untold or own is None or (element is not root and view_box(element) is not None):
            return math.inf
        stretch = stretch_of(own)
        return 0.0 if stretch == 0 else above * stretch

    stretches = carried_down(root, sized, stretched)
    return {
        element: stretch
        for element, stretch in stretches.items()
        if anywhere or _NON_SCALING in f"{element.get('vector-effect') or ''} {element.get('style') or ''}".lower()
    }


_SPACINGS = re.compile(r"(?<![\w-])(?:letter|word)-spacing\s*[:=]\s*['\"]?([^;}'\"]*)", re.IGNORECASE)


def _widest_spacing(root: etree._Element, texts: list[str], glyph_side: float) -> float:
    """The most letter and word spacing may add after a letter (``em`` of the largest letter; infinite where not
    told), from the attributes and the CSS ``texts``."""
    values = [str(e.get(key)) for e in root.iter() for key in ("letter-spacing", "word-spacing") if e.get(key)]
    values += [value for text in texts for value in _SPACINGS.findall(text)]
    widest = 0.0
    for value in (v.strip().lower() for v in values):
        if value in ("normal", "inherit", "initial", "unset", ""):
            continue
        relative = value.endswith(("em", "ex", "ch"))
        found = length(value[:-2] if relative else value, 0.0) if "%" not in value else None
        if found is None:
            return math.inf
        widest = max(widest, abs(found) * (glyph_side if relative else 1.0))
    return widest


def _percent_extents(root: etree._Element, view: Viewport) -> tuple[float, float]:
    """The widest and highest viewport a length in ``%`` may be a share of: the picture's, or a nested ``<svg>``'s
    or ``<symbol>``'s (its ``viewBox``, or its size), whichever is larger."""
    wide, high = view.shown.right - view.shown.left, view.shown.bottom - view.shown.top
    for element in root.iter(f"{{{SVG}}}svg", f"{{{SVG}}}symbol"):
        box = view_box(element)
        if box is not None:
            wide, high = max(wide, box.right - box.left), max(high, box.bottom - box.top)
        sizes = [length(element.get(key), wide if key == "width" else high) for key in ("width", "height")]
        wide = max(wide, abs(sizes[0])) if sizes[0] is not None else math.inf
        high = max(high, abs(sizes[1])) if sizes[1] is not None else math.inf
    return wide, high
