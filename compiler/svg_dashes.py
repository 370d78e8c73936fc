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
from rulebook.svg_geometry import SVG, Viewport, length, numbers, path_length, stretch_of, transform_of, view_box

MAX_DASHES_DRAWN = 2_000_000
"""The most dashes an SVG's strokes may draw, each time each is drawn: headless Chromium drew 1,996,000 (ten
rectangles of sides of 998, dashes of 0.01 and gaps of 0.01) in 2 to 2.4 s more than an empty picture, about a
microsecond a dash. A diagram's dashed lines draw thousands (a hundred lines of 1,000, dashes of 5 and gaps
of 5: 10,000)."""
DASHES_A_STROKE = 1_000_000
"""The most dashes a browser draws on one stroke: past them it draws the stroke undashed."""
_UNTOLD = re.compile(r"%|[\d.]\s*(?:r?em|ex|ch|v(?:w|h|min|max)|q)\b|\((?<!var\()", re.IGNORECASE)
"""A dash length this module does not follow: a share of the viewport, a font's size, a CSS function."""
_DASH_PROPERTY = re.compile(r"(?<![\w-])stroke-dasharray\s*:([^;}]*)", re.IGNORECASE)
_CUSTOM_PROPERTY = re.compile(r"(?<![\w-])--[\w-]*\s*:([^;}]*)", re.IGNORECASE)
_REFERENCE = re.compile(r"#([^\s'\")]+)")
_KEYWORDS = {"none": math.inf, "initial": math.inf}
"""Dash values drawing a solid stroke; another keyword (``inherit``) takes the parent's."""
_COMMANDS = re.compile(r"[A-Za-df-z]")
_SHAPES = frozenset({"rect", "circle", "ellipse", "line", "polyline", "polygon", "path"})
_NON_SCALING = "non-scaling-stroke"
_CIRCLES = frozenset(f"{{{SVG}}}{name}" for name in ("circle", "ellipse"))


class UntoldDashes(ValueError):
    """A dash length given in a measure or a function this module does not follow."""


def spacing(value: str, custom: float | None) -> float | None:
    """The length of stroke a dash of the pattern ``value`` takes, in user space: infinite for a solid stroke
    (``none``, all zeros), None where the element takes its parent's (no value, ``inherit``, an invalid list: a
    browser ignores it); ``custom`` is the least a ``var()`` may give, None if a custom property holds a length not
    followed. Raises :class:`UntoldDashes` for a length in ``%``, ``em`` or ``calc()``."""
    text = value.strip().lower().replace("!important", "").strip()
    if not text or text.isalpha():
        return _KEYWORDS.get(text)
    if _UNTOLD.search(text) or ("var(" in text and custom is None):
        raise UntoldDashes(text)
    if "var(" in text:
        return custom  # math.inf where no property is given: then the parent's, as for any list
    lengths = [length(item, 0.0) for item in re.split(r"[\s,]+", text) if item]
    if not lengths or any(item is None or item < 0 for item in lengths):
        return None
    return _spacing([item or 0.0 for item in lengths])


def _spacing(lengths: list[float]) -> float:
    """The length of stroke a dash takes, on average, in a pattern of these dash and gap lengths (an odd list is
    repeated to make it even, as a browser does); infinite where the pattern draws a solid stroke."""
    dashes = len(lengths) if len(lengths) % 2 else len(lengths) // 2
    total = sum(lengths) * (2 if len(lengths) % 2 else 1)
    return total / dashes if total > 0 else math.inf


class DashedStrokes:
    """The dashes each shape of a picture draws itself, once: call :meth:`own` as each element is counted."""

    def __init__(self, root: etree._Element, styles: list[str], view: Viewport, glyph_side: float) -> None:
        self.shown = view.shown
        self.glyph_side = glyph_side
        """The largest side a letter may have (a text's stroke runs about a letter's outline)."""
        self.path_commands = 0
        customs = [value for element in root.iter() for value in _CUSTOM_PROPERTY.findall(element.get("style") or "")]
        customs += [value for text in styles for value in _CUSTOM_PROPERTY.findall(text)]
        custom = None if any(_UNTOLD.search(value) for value in customs) else _custom_spacing(customs)
        styled = [spacing(value, custom) for text in styles for value in _DASH_PROPERTY.findall(text)]
        self.spacings: dict[etree._Element, float] = {}
        """The least length of stroke a dash of each element may take, infinite for a solid stroke."""
        given: dict[etree._Element, float | None] = {element: _given(element, custom) for element in root.iter()}
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
            else:  # its own, or its parent's where smaller (a var() naming no property takes the parent's)
                inherited = math.inf if parent is None else self.spacings.get(parent, math.inf)
                self.spacings[element] = inherited if own is None else min(own, inherited)

    def own(self, element: etree._Element, letters: int) -> float:
        """The dashes ``element`` draws itself, each time it is drawn (none for a solid stroke)."""
        each = self.spacings.get(element, math.inf)
        if math.isinf(each):
            return 0.0
        run = self._stroke_length(element) + 8 * self.glyph_side * letters
        author = length(element.get("pathLength"), 0.0)  # the pattern is laid along the length the author says
        run = max(run, author) if author is not None and author > 0 else run
        stretch = self.unscaled.get(element, 1.0)
        run = run * stretch if run and stretch else 0.0
        return min(float(DASHES_A_STROKE), run / each) if run else 0.0

    def _stroke_length(self, element: etree._Element) -> float:
        """How far ``element``'s stroke runs, in its user space (infinite where it is not told)."""
        tag = etree.QName(element).localname
        if self.unmeasured or CSS_GEOMETRY.search(element.get("style") or ""):
            return math.inf if tag in _SHAPES else 0.0
        wide, high = self.shown.right - self.shown.left, self.shown.bottom - self.shown.top
        if tag == "rect":
            width, height = length(element.get("width"), wide), length(element.get("height"), high)
            return math.inf if width is None or height is None else 2 * (abs(width) + abs(height))
        if element.tag in _CIRCLES:
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
            self.path_commands += len(_COMMANDS.findall(data))
            return math.inf if self.path_commands > MAX_PATH_COMMANDS else path_length(data)
        return 0.0


def _given(element: etree._Element, custom: float | None) -> float | None:
    """The length a dash takes in the pattern ``element`` gives itself: its ``style``'s, else its attribute's;
    None if none."""
    if not isinstance(element.tag, str):
        return None
    values = _DASH_PROPERTY.findall(element.get("style") or "")
    values.reverse()  # the last declaration of a style wins
    values.append(element.get("stroke-dasharray") or "")
    for value in values:
        found = spacing(value, custom)
        if found is not None:
            return found
    return None


def _custom_spacing(values: list[str]) -> float:
    """The least length a dash may take in a list a ``var()`` makes of the custom properties ``values``, each read
    as a dash list."""
    return min((_spacing([abs(number) for number in numbers(value)]) for value in values), default=math.inf)


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
    stretches: dict[etree._Element, float] = {}
    unscaled: dict[etree._Element, float] = {}
    for element in root.iter():
        parent = element.getparent()
        above = sized if parent is None else stretches.get(parent, math.inf)
        own = transform_of(element.get("transform"))
        untold = moved or CSS_MOVES.search(element.get("style") or "") or (element.get("id") or "") in repeated
        if untold or own is None or (parent is not None and view_box(element) is not None):
            stretches[element] = math.inf
        else:
            stretch = stretch_of(own)
            stretches[element] = 0.0 if stretch == 0 else above * stretch
        said = f"{element.get('vector-effect') or ''} {element.get('style') or ''}".lower()
        if anywhere or _NON_SCALING in said:
            unscaled[element] = stretches[element]
    return unscaled
