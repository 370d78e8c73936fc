"""How many times an SVG picture paints itself over: the browser's cost, which grows with the area drawn.

A browser draws each element over the pixels it covers: a translucent rectangle the size of a picture of a
megapixel took headless Chromium 0.7 ms (software drawing), so five levels of ten ``<use>`` of one, 1.1 KB and
100,000 elements (a tenth of what :data:`rulebook.svg_pictures.MAX_SVG_DRAWN` lets through), took 80 s. So each
element drawn is counted by its area, as a share of the picture's: its bounding box (a path's, from its points and
control points; a text's, a square of the largest font size a letter), grown by half the widest stroke of the
picture, moved by its transforms and cut to what the viewport shows. An element drawn once, where it stands in the
picture, is measured exactly so; one drawn again by a ``<use>``, a pattern, a mask, a clipping path, a filter's
``<feImage>`` or as a marker is counted, at each place it is drawn, as the lesser of the area it covers there and one
whole picture for each element it draws; an element drawn into a layer of its own (an ``opacity``, a mask) counts
the box of all it holds once more, as the browser blends it. What cannot be measured from the picture alone (a
length in ``em``, a filter's region, geometry or a transform given in CSS, content sized by the box of the element
it paints) counts as the whole picture. Every element is measured once and each count is kept (as
:mod:`rulebook.svg_pictures` counts elements): linear in the picture's size.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable

from lxml import etree

from rulebook.svg_geometry import (
    IDENTITY,
    PAINT_REFERENCE,
    SVG,
    Box,
    Matrix,
    PathExtent,
    absolute_path,
    carried_down,
    command_count,
    length,
    mapped,
    numbers,
    path_extent,
    point_count,
    polyline_extent,
    product,
    scale_of,
    squared,
    stretch_of,
    transform_of,
    view_box,
    viewport,
)

MAX_TIMES_PAINTED = 2_000
"""The most times an SVG may paint its own area over. Headless Chromium took 0.7 to 0.9 ms a megapixel blended
(software drawing): a picture of a megapixel painted over 2,000 times, 1 to 2.5 s more than an empty one (10,000
times: 7 s); ordinary pictures paint theirs a few times (23,658 SVGs of icon sets and books: 136 at most; a map of
5,000 cells with labels and rivers: 5)."""
MAX_ROWS_CROSSED = 30_000_000
"""The most rows of pixels an SVG's edges may cross: a browser fills a shape, or its stroke, edge by edge, each edge
over every row of pixels it crosses, so a line's cost grows with how far it runs up and down, which neither its
points nor its area tell (a path of 200,000 points at random across a megapixel, 67 million rows crossed, took
headless Chromium 4.7 s more than an empty picture; 100,000 points zigzagging across it a row apart, 0.3 s). Every
shape's edges count, where they are drawn, each time they are drawn; a hex map of 5,000 cells with its coastline and
rivers crosses under a million."""
GLYPH_SEGMENTS = 16
"""The segments a letter's outline counts as, each running across the width of its stroke (eight texts of 712
different letters of about 33 pixels, stroked 400 wide with round joins, took headless Chromium 21 s; stroked 1
wide, 2.4 s): a browser draws each letter's outline at each size as a path of its own."""
ROWS_A_DASH = 12
"""The rows a dash counts as crossing for each pixel of its stroke's width: a browser draws 2,000,000 thin dashes in
about the time it follows edges across 24,000,000 rows (2 s, 70 nanoseconds a row), and a dash as wide as its stroke
is a shape that tall (one rectangle of round dots 50 wide, 400,000 of them, held headless Chromium 26 s; 10 wide,
9.4 s)."""
EDGES_A_ROW = 1_000
"""How many of a shape's edges cross each row, on average, for its rows to count twice: the browser keeps the edges
crossing a row in order as it goes down, so a shape of many edges across each other costs more a row (one filled
polygon of 20,000 points at random, 6.7 million rows crossed by 6,700 edges each, took headless Chromium 2.9 s more
than an empty picture; of 88,000 points, 54 s; twenty of 2,000 points, 13 million rows by 667 edges each, 2.6 s;
15,000 thin filled rectangles the height of the picture, 30 million rows by 2 edges, 0.5 s)."""
GRADIENT_PIXEL = 8.0
"""The pixels of solid colour a pixel painted with a gradient counts as, in a picture holding one (which element
it paints is not told apart): 1,900 rectangles the size of a megapixel filled with a three-stop linear gradient
took headless Chromium 9.4 s against 1.9 to 2.6 s filled with a colour, a radial one with a focal point 15 s. The
23,658 SVGs of icon sets and books paint their area 136 times at most: 1,088 so counted."""
WINDOW_PIXELS = 4_000_000
"""The pixels a window shows at most (2,000 x 2,000): a picture saying it is larger is drawn in parts as a reader
scrolls it, and each part may be the one painted over, so its count is multiplied by how many windows it holds."""

INFINITE = math.inf
NOTHING = Box(0.0, 0.0, 0.0, 0.0)
"""The box of an element that paints nothing itself (a group, a rectangle of no width)."""
_NOT_DRAWN = frozenset(
    f"{{{SVG}}}{name}"
    for name in (
        *("defs", "symbol", "pattern", "marker", "mask", "clipPath", "filter", "linearGradient"),
        *("radialGradient", "style", "title", "desc", "view"),
    )
)
"""Elements whose content is drawn only where something refers to it."""
_DRAWN_AT_ITS_USER = frozenset(f"{{{SVG}}}{name}" for name in ("pattern", "marker", "mask", "clipPath"))
"""Elements whose content is drawn at the scale of the element it paints, marks, masks or clips."""
_NESTED = f"{{{SVG}}}svg"
_PATH = f"{{{SVG}}}path"
_ALONG_PATH = f"{{{SVG}}}textPath"
_TEXTS = (f"{{{SVG}}}text",)
MAX_PATH_COMMANDS = 200_000
"""The most commands of paths with relative coordinates a picture's paths are followed through, pen move by pen
move (about a second); a path past them is taken to cover the whole picture. A path of absolute coordinates is
read at once, whatever its length."""
_GIVEN = frozenset(f"{{{SVG}}}{name}" for name in ("mask", "clipPath", "filter"))
"""What an element refers to that does not draw where it stands (a filter's region is of the element's box)."""
MARKED = frozenset(f"{{{SVG}}}{name}" for name in ("path", "line", "polyline", "polygon"))
"""The shapes a marker is drawn on, at each of their points."""
_BOUNDING_KEYS = ("patternContentUnits", "maskContentUnits", "clipPathUnits")
CSS_GEOMETRY = re.compile(r"(?<![\w-])(?:x|y|cx|cy|r|rx|ry|width|height|d)\s*:", re.IGNORECASE)
"""A geometry property given in CSS, which overrides an attribute: where it is, a shape's extent is not read."""
CSS_MOVES = re.compile(r"(?<![\w-])transform\s*:", re.IGNORECASE)
"""CSS's ``transform``, moving or scaling an element and what it holds: where it is, its place is not told (the
other properties that move one, ``scale``, ``translate``, ``rotate``, ``zoom``, ``offset``, are left out of the copy:
:data:`rulebook.svg_css.PROPERTIES`)."""
CSS_PATH = re.compile(r"(?<![\w-])d\s*:([^;}]*)", re.IGNORECASE)
"""CSS's ``d`` property, which gives a path its data (``d: path("M0 0 L...")``) whatever its attribute says."""
_LAYERS = re.compile(r"(?<![\w-])(?:opacity|mask|clip-path|mix-blend-mode|isolation|filter)\s*:", re.IGNORECASE)
"""A CSS property drawing an element into a layer of its own, blended whole: a layer costs its box."""
_LAYER_KEYS = ("opacity", "mask", "clip-path", "mix-blend-mode", "isolation")
_FONT_VALUE = re.compile(r"(?<![\w-])font(?:-size)?\s*:([^;}]*)", re.IGNORECASE)
_STROKE_VALUE = re.compile(r"(?<![\w-])stroke-width\s*:([^;}!]*)", re.IGNORECASE)
_SIZE = re.compile(
    r"([-+]?(?<!\d)(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?)\s*(px|in|cm|mm|pt|pc|%|r?em|ex|ch)", re.IGNORECASE
)
"""A size and its measure, a number read one way only and from its first digit (one that failed there fails from the
next: ``\\d+\\.?\\d*`` from each digit took a run of 1,000 digits 19 s, growing with the cube)."""
_RELATIVE = {"em": 1.0, "rem": 1.0, "ex": 1.0, "ch": 1.0, "%": 0.01}
_MEASURE = re.compile(r"(?<![\w.])(?:\d++(?:\.\d*+)?|\.\d++)(?:e[-+]?\d++)?+([a-z]++)", re.IGNORECASE)
"""The measure a size is given in (``4000Q``), a number read one way only."""
_KNOWN_MEASURES = frozenset({"px", "in", "cm", "mm", "pt", "pc", "em", "rem", "ex", "ch"})
"""The measures :data:`_SIZE` reads: a size in any other is taken as large as the picture (``vw``, ``Q``...)."""
_PLAIN = re.compile(r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:e[-+]?\d+)?")
_KEYWORDS = {"xx-large": 32.0, "xxx-large": 48.0, "x-large": 24.0, "large": 18.0}
DEFAULT_FONT = 16.0
"""A browser's font size where none is given, in pixels."""


class PaintedArea:
    """The area each element of a picture paints, gathered as :func:`rulebook.svg_pictures` walks it: call
    :meth:`add` on each element after all it draws, then :meth:`times_painted` once."""

    def __init__(self, root: etree._Element, drawn: dict[etree._Element, int]) -> None:
        self.view = viewport(root)
        self.drawn = drawn
        """The elements each element draws, with all it repeats (kept by the caller)."""
        styles = [*(style.text or "" for style in root.iter(f"{{{SVG}}}style"))]
        css = [*styles, *(str(element.get("style") or "") for element in root.iter())]
        self.half_stroke = _widest_stroke(root, css, self.view.shown) / 2
        self.glyph = squared(_largest_font(root, css) + 2 * self.half_stroke)
        self.unmeasured_shapes = any(CSS_GEOMETRY.search(text) for text in styles)
        self.styled_path_points = max((css_path_points(text) for text in styles), default=0)
        """The most points a ``<style>`` may give a path through CSS's ``d``."""
        self.moved = any(CSS_MOVES.search(text) for text in styles)
        """Whether the picture's ``<style>`` may move or scale any element (CSS's ``transform``, ``scale``...)."""
        self.layering = any(_LAYERS.search(text) for text in styles)
        """Whether it may make any element a layer of its own (CSS's ``opacity``, ``mask``...)."""
        self.marked = any(True for _ in root.iter(f"{{{SVG}}}marker"))
        gradients = {str(g.get("id")) for g in root.iter(f"{{{SVG}}}linearGradient", f"{{{SVG}}}radialGradient")}
        named = (name for e in root.iter() for value in e.values() for name in PAINT_REFERENCE.findall(str(value)))
        self.shaded = bool(gradients) and any(
            name in gradients for name in [*named, *PAINT_REFERENCE.findall(" ".join(styles))]
        )
        """Whether any element may be painted with a gradient, which costs a browser more a pixel."""
        self.lettered = any(True for _ in root.iter(*_TEXTS))
        self.overflowing = any("overflow" in text.lower() for text in styles) or any(
            (marker.get("overflow") or "") not in ("", "hidden", "scroll") for marker in root.iter(f"{{{SVG}}}marker")
        )
        self.covered: dict[etree._Element, float] = {}
        """The area each element paints, in its parent's user space, markers left out."""
        self.mass: dict[etree._Element, float] = {}
        """How many elements each draws, each weighed by how its transforms scale an area: an inherited pattern is
        painted once for each."""
        self.points: dict[etree._Element, tuple[float, float]] = {}
        """The points each element draws a marker at: how many, and weighed as :attr:`mass` is."""
        self.used: dict[etree._Element, list[etree._Element]] = {}
        self.painted: dict[etree._Element, list[etree._Element]] = {}
        self.letters: dict[etree._Element, int] = {}
        self.lettering: dict[etree._Element, float] = {}
        """The area each element's own letters cover, in its user space."""
        self.extents: dict[etree._Element, Box | None] = {}
        """The box holding all each element draws, in its parent's user space; None where it is not told."""
        self.layers: set[etree._Element] = set()
        """The elements drawn into a layer of their own, then blended whole (an ``opacity``, a ``mask``...)."""
        self.boxes: dict[etree._Element, Box | None] = {}
        """The box each element paints itself, as :meth:`_own_box` tells it."""
        self.transforms: dict[etree._Element, Matrix | None] = {}
        """Each element's own transform (a pattern's ``patternTransform``), None where it does not parse."""
        self.path_commands = 0
        """The commands of relative paths read so far (each a few steps of Python)."""
        self.outline: dict[etree._Element, tuple[float, float]] = {}
        """How far the edges each element draws (its own, its children's, what it repeats) run up and down, and
        how far they run, in its parent's user space."""
        self.dashes: dict[etree._Element, float] = {}
        """The dashes each element's own stroke draws (:mod:`rulebook.svg_dashes`)."""
        self.own_outline: dict[etree._Element, tuple[float, float, float, float]] = {}
        """How far a path's own edges run up and down, how far they run, its height and its points (:func:`_points`),
        read with its box."""
        self.filtered: set[etree._Element] = set()
        """The elements given a filter, drawing over its region (as large as the picture)."""
        self.marker_count = 0.0
        """How many elements the picture's markers draw at each point a line may carry one."""
        self.marker_area = 0.0
        """The most area they cover there, in the line's user space."""

    def add(
        self,
        element: etree._Element,
        used: list[etree._Element],
        painted: list[etree._Element],
        letters: int,
        dashes: float = 0.0,
        overlap: float = 1.0,
    ) -> None:
        """Measure ``element``, whose children and the ``used`` elements it repeats are measured, and which gives
        the ``painted`` patterns, masks, clipping paths and filters to all it draws; ``letters`` it writes, the
        ``dashes`` its stroke draws itself, ``overlap`` of them over each point."""
        self.used[element], self.painted[element], self.letters[element] = used, painted, letters
        self.dashes[element] = dashes * (1 + 2 * overlap / EDGES_A_ROW)  # dots over each other cross each other
        style = element.get("style") or ""
        self.boxes[element] = self._own_box(element, style)
        if element.get("filter") or "filter" in style.lower():
            self.filtered.add(element)
        layered = style and _LAYERS.search(style)
        if self.layering or layered or any(_layering(key, element.get(key)) for key in _LAYER_KEYS):
            self.layers.add(element)
        self.lettering[element] = self._lettering(element, letters)
        own = self._own_area(element, letters)
        covered, mass = own or 0.0, 0.0 if own is None else 1.0
        points = weighed = _points(element) + self.css_points(element) if self.marked else 0.0
        for part in element:
            covered += self.covered.get(part, 0.0)
            mass += self.mass.get(part, 0.0)
            count, weight = self.points.get(part, (0.0, 0.0))
            points, weighed = points + count, weighed + weight
        for part in used:
            scale = self._scale_of_use(element, part)
            covered += _times(scale, self.covered.get(part, 0.0))
            mass += _times(scale, self.mass.get(part, 0.0))
            count, weight = self.points.get(part, (0.0, 0.0))
            points, weighed = points + count, weighed + _times(scale, weight)
        covered += sum(_times(mass, _times(self.covered.get(paint, 0.0), _content_scale(paint))) for paint in painted)
        for paint in painted:  # a line inside a pattern draws its markers each time the pattern paints
            count, weight = self.points.get(paint, (0.0, 0.0))
            points, weighed = points + self.drawn.get(element, 1) * count, weighed + _times(mass, weight)
        moved = self.moved or (style and CSS_MOVES.search(style))
        transform = None if moved else transform_of(element.get("transform") or element.get("patternTransform"))
        self.transforms[element] = transform
        self.extents[element] = extent = self._extent(element, transform)
        if element in self.layers:
            covered += INFINITE if extent is None else extent.area
        area_scale = INFINITE if transform is None else scale_of(transform)
        view = _nested_view(element)  # a nested <svg> draws its content at its size over its viewBox
        self.outline[element] = _transformed(_transformed(self._outline(element), view), transform)
        self.covered[element] = _times(area_scale, covered)
        self.mass[element] = _times(area_scale, mass)
        self.points[element] = (points, _times(area_scale, weighed))

    def _outline(self, element: etree._Element) -> tuple[float, float]:
        """How far the edges ``element`` draws run up and down, and how far they run, in its own user space: its
        own, its children's, what it repeats (as large as a ``<use>`` draws it), and what its patterns draw, once
        for each element painted."""
        rise, run = self._own_outline(element)
        for part in element:
            part_rise, part_run = self.outline.get(part, (0.0, 0.0))
            rise, run = rise + part_rise, run + part_run
        repeats = [(math.sqrt(self._scale_of_use(element, part)), part) for part in self.used[element]]
        drawn = self.drawn.get(element, 1)
        repeats += [(_times(drawn, math.sqrt(_content_scale(paint))), paint) for paint in self.painted[element]]
        for scale, part in repeats:
            part_rise, part_run = self.outline.get(part, (0.0, 0.0))
            rise, run = rise + _times(scale, part_rise), run + _times(scale, part_run)
        return rise, run

    def _own_outline(self, element: etree._Element) -> tuple[float, float]:
        """How far ``element``'s own edges run up and down, and how far they run, in its user space: a shape's,
        which a browser fills or strokes (twice where a stroke may be wide: an outline on either side, and each of
        its segments and dashes across the stroke's width: a wide stroke through 60,000 points in a square of ten,
        480 KB, held headless Chromium 119 s; one rectangle of zero-length round dashes 50 wide, 26 s), each row
        counted again for each :data:`EDGES_A_ROW` edges crossing it on average; a shape whose geometry is not told,
        as many crossings of the picture as it has points (four for another shape)."""
        letters = self.letters.get(element, 0)
        if letters:  # each letter an outline of about sixteen segments its size tall, stroked like a line
            side = math.sqrt(self.glyph)
            return letters * (2 * side + GLYPH_SEGMENTS * 2 * self.half_stroke), letters * 4 * side
        if element.tag not in _OUTLINES and element.tag != _PATH:
            return 0.0, 0.0
        if self.boxes.get(element) is None:
            given = point_count(element.get("d") or element.get("points") or "") + self.css_points(element)
            crossing = max(4.0, float(given)) * math.hypot(_whole(self.view.shown, 0), _whole(self.view.shown, 1))
            return crossing, crossing
        found = self.own_outline.get(element)
        if found is None:
            rise, run, height = _OUTLINES[element.tag](element, self.view.shown)
            points = _points(element)
        else:
            rise, run, height, points = found
        width = 2 * self.half_stroke
        sides = 2 if width > 1 else 1  # a wide stroke is filled as an outline on either side
        # each segment's joins and caps across its width, as it is drawn (a browser drops a path going nowhere)
        segments = max(0.0, points - 1) if run else 0.0
        crossed = sides * rise + _times(segments, width)
        high = height + width
        crowd = crossed / high / EDGES_A_ROW if high > 0 and math.isfinite(high) else 0.0
        dashed = _times(self.dashes.get(element, 0.0) * ROWS_A_DASH, max(1.0, width))  # each a shape of the width
        return _times(crossed, 1 + crowd) + dashed, run

    def css_points(self, element: etree._Element) -> int:
        """The points CSS's ``d`` may give ``element`` to draw through (none but to a path)."""
        if element.tag != _PATH:
            return 0
        return self.styled_path_points + css_path_points(str(element.get("style") or ""))

    def rows_crossed(self, root: etree._Element, styled: list[etree._Element], drawn: float) -> float:
        """How many rows of pixels the picture's edges cross (:data:`MAX_ROWS_CROSSED`): its root's, what a
        ``<style>`` paints every element with, and its markers' at every point, each as large as a stroke's width;
        at most every row of the picture for each edge of the ``drawn`` elements, points and dashes (four a shape), as a
        browser follows an edge only where it is seen: a background far larger than the picture costs no more than
        one its size."""
        markers = sum(self.outline.get(marker, (0.0, 0.0))[0] for marker in root.iter(f"{{{SVG}}}marker"))
        styled_rise = sum(self.outline.get(paint, (0.0, 0.0))[0] for paint in styled)
        rise = self.outline.get(root, (0.0, 0.0))[0] + self.drawn.get(root, 1) * styled_rise
        rise += _times(self.marker_points(root) * max(1.0, 2 * self.half_stroke), markers)
        seen = self.view.shown.bottom - self.view.shown.top
        rows_a_length = self.view.rows / seen if not self.view.untold and 0 < seen < INFINITE else INFINITE
        edges = 4 * drawn * (GLYPH_SEGMENTS if self.lettered else 1)  # four a shape; a letter's outline more
        return min(_times(rows_a_length, rise), edges * self.view.rows)

    def marker_points(self, root: etree._Element) -> float:
        """The points the picture's lines carry a marker at, each time a line is drawn (none without markers)."""
        return self.points.get(root, (0.0, 0.0))[0]

    def times_painted(self, root: etree._Element, styled: list[etree._Element], context_paint: bool) -> float:
        """How many times the picture paints its own area over; ``styled``: the patterns, masks, clipping paths
        and filters a ``<style>`` gives (to any element), ``context_paint``: whether a marker paints with its
        line's paint."""
        markers = list(root.iter(f"{{{SVG}}}marker"))
        paints = [paint for found in self.painted.values() for paint in found] + styled
        costliest = max((self.covered.get(paint, 0.0) for paint in paints), default=0.0) if context_paint else 0.0
        marked = [(self.drawn.get(m, 1), self._marker_clip(m) + costliest) for m in markers]
        self.marker_count = float(sum(count for count, _ in marked))
        self.marker_area = sum(_times(count, clip) for count, clip in marked)
        given = (float(sum(self.drawn.get(s, 0) for s in styled)), sum(self.covered.get(s, 0.0) for s in styled))
        total = 0.0
        stack: list[tuple[etree._Element, Matrix | None, tuple[float, float]]] = [(root, IDENTITY, given)]
        while stack:
            element, outer, inherited = stack.pop()
            own, view = self.transforms.get(element, IDENTITY), _nested_view(element)
            if outer is None or own is None or view is None:
                matrix = None
            elif own is IDENTITY and view is IDENTITY:
                matrix = outer
            else:
                matrix = product(product(outer, own), view)
            paint = self._paints(element, inherited)
            total += self._painted_here(element, matrix, paint) + self._layer(element, outer)
            stack.extend((child, matrix, paint) for child in element if child.tag not in _NOT_DRAWN)
        shading = GRADIENT_PIXEL if self.shaded else 1.0
        return total * max(1.0, self.view.pixels / WINDOW_PIXELS) * shading

    def _layer(self, element: etree._Element, outer: Matrix | None) -> float:
        """The pictures blending ``element``'s layer costs, where its parent's user space is at ``outer``."""
        if element not in self.layers:
            return 0.0
        extent = self.extents.get(element)
        if extent is None or outer is None or self.view.untold:
            return 1.0
        return 0.0 if extent is NOTHING else mapped(extent, outer).within(self.view.shown) / self.view.area

    def _paints(self, element: etree._Element, inherited: tuple[float, float]) -> tuple[float, float]:
        """What each element drawn inside ``element`` paints with: how many elements, over what area."""
        count, area = inherited
        for paint in self.painted.get(element, []):
            count += self.drawn.get(paint, 0)
            area += _times(self.covered.get(paint, 0.0), _content_scale(paint))
        return count, area

    def _painted_here(self, element: etree._Element, matrix: Matrix | None, paint: tuple[float, float]) -> float:
        """The pictures ``element`` paints itself where it stands (its children apart), at ``matrix``."""
        scale = scale_of(matrix) if matrix is not None else INFINITE
        total = 1.0 if element in self.filtered else 0.0
        box, letters = self.boxes.get(element, NOTHING), self.letters.get(element, 0)
        if box is not NOTHING or letters:
            if box is None or (matrix is None and box is not NOTHING) or self.view.untold:
                total += 1.0
            elif box is not NOTHING and matrix is not None and not total:
                total += mapped(box, matrix).within(self.view.shown) / self.view.area
            total += self._bounded(letters, self.lettering.get(element, 0.0), scale) if letters else 0.0
            total += self._bounded(paint[0], paint[1], scale) if paint[0] else 0.0
        points = self.points.get(element, (0.0, 0.0))[0] if element.tag in MARKED else 0.0
        total += _times(points, self._bounded(self.marker_count, self.marker_area, scale))
        for used in self.used.get(element, []):
            repeat = _times(scale, self._scale_of_use(element, used))
            count, weighed = self.points.get(used, (0.0, 0.0))
            total += self._bounded(  # an element drawn into a layer paints twice: itself, then its layer
                self.drawn.get(used, 0) * (1 + paint[0]) * (2 if self.layers else 1) + count * self.marker_count,
                self.covered.get(used, 0.0)
                + _times(self.mass.get(used, 0.0), paint[1])
                + _times(weighed, self.marker_area),
                repeat,
            )
        return total

    def _bounded(self, count: float, area: float, scale: float) -> float:
        """Pictures painted by ``count`` elements covering ``area`` user space, drawn where an area is ``scale``
        times the root's: each covers at most the whole picture."""
        if count <= 0:
            return 0.0
        if self.view.untold:
            return count
        if area == 0 or scale == 0:
            return count if math.isinf(area) else 0.0
        return min(count, area * scale / self.view.area)

    def _own_area(self, element: etree._Element, letters: int) -> float | None:
        """The area ``element`` paints itself, in its own user space (infinite where it is not told); None if it
        paints nothing itself."""
        box = self.boxes[element]
        if element in self.filtered:
            return INFINITE
        if box is NOTHING and not letters:
            return None
        return (INFINITE if box is None else 0.0 if box is NOTHING else box.area) + self.lettering[element]

    def _lettering(self, element: etree._Element, letters: int) -> float:
        """The area ``element``'s letters cover: each a square of the largest font size, or, stretched to a
        ``textLength``, that length by that size."""
        if not letters:
            return 0.0
        stretched = element.get("textLength")
        if stretched is None:
            return letters * self.glyph
        along = length(stretched, _whole(self.view.shown, 0))
        return INFINITE if along is None else max(letters * self.glyph, abs(along) * math.sqrt(self.glyph))

    def _text_box(self, element: etree._Element) -> Box | None:
        """The box a text's own letters stay in: as many squares of the largest font size as it has letters, on
        either side of where it starts (whatever its anchor); None where it is placed letter by letter, along a path
        or stretched."""
        if any(element.get(key) is not None for key in ("dx", "dy", "textLength")) or element.tag == _ALONG_PATH:
            return None
        x = length((element.get("x") or "0").strip(), _whole(self.view.shown, 0))  # a list of places: None
        y = length((element.get("y") or "0").strip(), _whole(self.view.shown, 1))
        if x is None or y is None:
            return None
        side = math.sqrt(self.glyph)
        reach = self.letters[element] * side
        return Box(x - reach, y - side * 1.5, x + reach, y + side * 1.5)

    def drawn_box(self, element: etree._Element) -> Box | None:
        """The box holding all ``element`` draws, in its own user space, before a filter it is given: what the
        filter's region is a share of (:data:`NOTHING` if it draws nothing, None where it is not told), its masks,
        clipping paths and filters left out; once :meth:`add` has measured it."""
        return self._inner_box(element, [part for part in self.used[element] if part.tag not in _GIVEN])

    def _inner_box(self, element: etree._Element, used: list[etree._Element]) -> Box | None:
        """The box holding what ``element`` draws itself, its children and the ``used`` elements it repeats."""
        box = self.boxes[element]
        if self.marked and element.tag in MARKED:
            return None  # markers: not told here
        if self.letters[element]:
            box = _union(box, self._text_box(element))
        for child in element:
            box = _union(box, self.extents.get(child, NOTHING))
        for part in used:
            box = _union(box, self.extents.get(part, NOTHING) if self._scale_of_use(element, part) == 1 else None)
        return box

    def stretches(self, root: etree._Element) -> dict[etree._Element, float]:
        """How many times each element's own user space is stretched on the picture's: the longest a length of one
        in it becomes through its transforms and its ancestors' (a nested ``<svg>``'s ``viewBox`` too), infinite
        where one is not told (given in CSS, or inside a pattern, a marker, a mask or a clipping path, drawn at the
        scale of what each paints: a filter inside a pattern scaled a hundred times, painting ten rectangles, took
        headless Chromium 8 s, counted as two steps). An element drawn by a ``<use>`` is stretched by the ``<use>``
        too, which :meth:`restretched` tells."""
        if not any(True for _ in root.iter(f"{{{SVG}}}filter")):
            return {}  # no region to measure (each element stretched as a <use> draws it: once)
        return carried_down(root, 1.0, self._stretched)

    def _stretched(self, element: etree._Element, outer: float) -> float:
        """How many times ``element``'s user space is stretched on the picture's, its parent's ``outer`` times."""
        moved = self.moved or CSS_MOVES.search(str(element.get("style") or ""))
        own = None if moved else transform_of(element.get("transform"))
        view = _nested_view(element)
        drawn_elsewhere = element.tag in _DRAWN_AT_ITS_USER  # at the scale of what it paints, not told here
        if drawn_elsewhere:
            return INFINITE
        factors = (outer, _stretch(own), _stretch(view))
        return 0.0 if 0.0 in factors else math.prod(factors)  # collapsed by its own scale, however far it is told

    def restretched(self, user: etree._Element, used: etree._Element, stretches: dict[etree._Element, float]) -> float:
        """How many times more an area of ``used`` is stretched where ``user`` (a ``<use>``...) draws it than where it
        stands (:meth:`stretches`), at least once: what a filter inside it costs more there."""
        if not stretches:
            return 1.0
        where = stretches.get(user, INFINITE) * math.sqrt(self._scale_of_use(user, used))
        parent = used.getparent()
        stands = stretches.get(parent, 1.0) if parent is not None else 1.0
        more = where / stands if stands and math.isfinite(stands) else INFINITE
        return max(1.0, more * more) if math.isfinite(more) else INFINITE

    def _extent(self, element: etree._Element, transform: Matrix | None) -> Box | None:
        """The box holding all ``element`` draws, in its parent's user space (:attr:`extents`)."""
        if element in self.filtered:
            return None  # a filter's region: not told here
        box = self._inner_box(element, self.used[element])
        if box is None or box is NOTHING or transform is None:
            return box if transform is not None else None
        return box if transform is IDENTITY else mapped(box, transform)

    def _own_box(self, element: etree._Element, style: str) -> Box | None:
        """The box ``element`` paints itself, with its stroke (``style``: its own); :data:`NOTHING` if it paints
        nothing, None if it is not told."""
        if element.tag not in _SHAPES and element.tag != _PATH:
            return NOTHING
        if self.unmeasured_shapes or CSS_GEOMETRY.search(style):
            return None
        if element.tag == _PATH:
            data = element.get("d") or ""
            self.path_commands += 0 if absolute_path(data) else command_count(data)
            if self.path_commands > MAX_PATH_COMMANDS:
                return None
            extent = path_extent(data)
            height = 0.0 if extent.box is None else extent.box.bottom - extent.box.top
            self.own_outline[element] = extent.rise, extent.length, height, _points(element, extent)
            box: Box | None = NOTHING if extent.box is None else extent.box
        else:
            box = _SHAPES[element.tag](element, self.view.shown)
        return box if box is None or box is NOTHING else box.grown(self.half_stroke)

    def _marker_clip(self, marker: etree._Element) -> float:
        """The most area one element of ``marker`` paints at a point: the marker's box, as it clips its drawing."""
        if self.overflowing or "overflow" in str(marker.get("style") or "").lower():
            return INFINITE
        width = length(marker.get("markerWidth"), 0.0, 3.0)
        height = length(marker.get("markerHeight"), 0.0, 3.0)
        if width is None or height is None:
            return INFINITE
        stroke = squared(2 * self.half_stroke) if marker.get("markerUnits") != "userSpaceOnUse" else 1.0
        return abs(width * height) * stroke

    def _scale_of_use(self, user: etree._Element, used: etree._Element) -> float:
        """How many times a ``<use>`` multiplies the area of the ``<symbol>`` or ``<svg>`` it draws (its ``viewBox``
        fitted to the ``<use>``'s size), or a mask's or clipping path's drawn in the box of what it is given to."""
        if any(used.get(key) == "objectBoundingBox" for key in _BOUNDING_KEYS):
            return INFINITE
        box = view_box(used) if used.tag in (f"{{{SVG}}}symbol", f"{{{SVG}}}svg") else None
        if box is None:
            return 1.0
        shown = self.view.shown
        width = length(user.get("width") or used.get("width"), _whole(shown, 0), _whole(shown, 0))
        height = length(user.get("height") or used.get("height"), _whole(shown, 1), _whole(shown, 1))
        if width is None or height is None:
            return INFINITE
        return squared(max(width / (box.right - box.left), height / (box.bottom - box.top)))


def _transformed(outline: tuple[float, float], transform: Matrix | None) -> tuple[float, float]:
    """How far edges running ``outline`` (up and down, along) run once ``transform`` moves them: along an axis, as
    it stretches that axis; turned or skewed, up and down as far as they run."""
    rise, run = outline
    if transform is None:
        return _times(INFINITE, rise), _times(INFINITE, run)
    stretch = stretch_of(transform)
    if transform[1] == 0 and transform[2] == 0:  # along the axes: up and down as far as it stretches them
        return _times(abs(transform[3]), rise), _times(stretch, run)
    return _times(stretch, run), _times(stretch, run)


def _union(one: Box | None, other: Box | None) -> Box | None:
    """The box holding both (None if either is not told)."""
    if one is NOTHING or other is NOTHING:
        return other if one is NOTHING else one
    if one is None or other is None:
        return None
    return Box(
        min(one.left, other.left), min(one.top, other.top), max(one.right, other.right), max(one.bottom, other.bottom)
    )


def _layering(key: str, value: str | None) -> bool:
    """Whether an attribute draws its element into a layer of its own."""
    if value is None:
        return False
    if key == "opacity":
        try:
            return float(value) < 1
        except ValueError:
            return True
    return value.strip() not in ("", "none", "normal", "auto")


def _times(factor: float, value: float) -> float:
    """``factor`` times ``value``, nothing where either is nothing (an infinite scale of nothing drawn)."""
    return 0.0 if factor == 0 or value == 0 else factor * value


def _whole(box: Box, axis: int) -> float:
    return box.right - box.left if axis == 0 else box.bottom - box.top


def _content_scale(paint: etree._Element) -> float:
    """How many times a paint's drawing is enlarged where it paints: infinite where it is drawn in the box of what
    it paints or fitted to a ``viewBox``."""
    if any(paint.get(key) == "objectBoundingBox" for key in _BOUNDING_KEYS) or paint.get("viewBox"):
        return INFINITE
    return 1.0


def _stretch(matrix: Matrix | None) -> float:
    """The longest a length of one becomes through ``matrix`` (infinite where it is not told)."""
    if matrix is None:
        return INFINITE
    if matrix is IDENTITY:
        return 1.0
    stretch = stretch_of(matrix)  # a skew stretches more than either of its columns
    return stretch if math.isfinite(stretch) else INFINITE


def _nested_view(element: etree._Element) -> Matrix | None:
    """The scale a nested ``<svg>`` with a ``viewBox`` draws its content at (its own size over its ``viewBox``);
    None where its size is not told."""
    box = view_box(element) if element.tag == _NESTED and element.getparent() is not None else None
    if box is None:
        return IDENTITY
    width, height = length(element.get("width"), 0.0), length(element.get("height"), 0.0)
    if not width or not height or "%" in (element.get("width") or "") + (element.get("height") or ""):
        return None
    scale = max(width / (box.right - box.left), height / (box.bottom - box.top))
    return (scale, 0.0, 0.0, scale, 0.0, 0.0)


def css_path_points(text: str) -> int:
    """The points the path data CSS's ``d`` gives in ``text`` (a ``style`` or a ``<style>``) draws through, the most
    of any one value (a path takes one)."""
    return max((point_count(value) for value in CSS_PATH.findall(text)), default=0)


def _points(element: etree._Element, path: PathExtent | None = None) -> float:
    """The points a line carries a marker at (each vertex; two at least); none for another element. ``path``: the
    extent of its ``d``, where it is read, whose points are not counted again."""
    if element.tag not in MARKED:
        return 0.0
    listed = element.get("points")
    named = path.points if path is not None and not listed else len(numbers(listed or element.get("d") or "")) // 2
    return float(max(2, named))


def _rect(element: etree._Element, shown: Box) -> Box | None:
    x, y = length(element.get("x"), _whole(shown, 0)), length(element.get("y"), _whole(shown, 1))
    width, height = length(element.get("width"), _whole(shown, 0)), length(element.get("height"), _whole(shown, 1))
    if x is None or y is None or width is None or height is None:
        return None
    return NOTHING if width <= 0 or height <= 0 else Box(x, y, x + width, y + height)


def _image(element: etree._Element, shown: Box) -> Box | None:
    if element.get("width") is None or element.get("height") is None:
        return None  # the picture's own size, not read here
    return _rect(element, shown)


def _ellipse(element: etree._Element, shown: Box) -> Box | None:
    diagonal = math.hypot(_whole(shown, 0), _whole(shown, 1)) / math.sqrt(2)
    x, y = length(element.get("cx"), _whole(shown, 0)), length(element.get("cy"), _whole(shown, 1))
    rx = length(element.get("rx") or element.get("r"), _whole(shown, 0))
    ry = length(element.get("ry") or element.get("r") or element.get("rx"), _whole(shown, 1))
    if element.tag == f"{{{SVG}}}circle":
        rx = ry = length(element.get("r"), diagonal)
    if x is None or y is None or rx is None or ry is None:
        return None
    return NOTHING if rx <= 0 or ry <= 0 else Box(x - rx, y - ry, x + rx, y + ry)


def _line(element: etree._Element, shown: Box) -> Box | None:
    ends = [length(element.get(key), _whole(shown, i % 2)) for i, key in enumerate(("x1", "y1", "x2", "y2"))]
    if any(end is None for end in ends):
        return None
    x1, y1, x2, y2 = (end or 0.0 for end in ends)
    return Box(min(x1, x2), min(y1, y2), max(x1, x2), max(y1, y2))


def _poly(element: etree._Element, shown: Box) -> Box | None:
    values = numbers(element.get("points") or "")
    xs, ys = values[0 : len(values) // 2 * 2 : 2], values[1 : len(values) // 2 * 2 : 2]
    return Box(min(xs), min(ys), max(xs), max(ys)) if xs else NOTHING


_SHAPES: dict[str, Callable[[etree._Element, Box], Box | None]] = {
    f"{{{SVG}}}rect": _rect,
    f"{{{SVG}}}image": _image,
    f"{{{SVG}}}circle": _ellipse,
    f"{{{SVG}}}ellipse": _ellipse,
    f"{{{SVG}}}line": _line,
    f"{{{SVG}}}polyline": _poly,
    f"{{{SVG}}}polygon": _poly,
}
"""How each shape's box is read from its attributes."""


def _rect_outline(element: etree._Element, shown: Box) -> tuple[float, float, float]:
    width, height = length(element.get("width"), _whole(shown, 0)), length(element.get("height"), _whole(shown, 1))
    return 2 * abs(height or 0.0), 2 * (abs(width or 0.0) + abs(height or 0.0)), abs(height or 0.0)


def _ellipse_outline(element: etree._Element, shown: Box) -> tuple[float, float, float]:
    box = _ellipse(element, shown)
    if box is None:
        return 0.0, 0.0, 0.0
    high = box.bottom - box.top
    return 2 * high, math.pi * max(box.right - box.left, high), high


def _line_outline(element: etree._Element, shown: Box) -> tuple[float, float, float]:
    box = _line(element, shown)
    if box is None:
        return 0.0, 0.0, 0.0
    high = box.bottom - box.top
    return high, math.hypot(box.right - box.left, high), high


def _poly_outline(element: etree._Element, shown: Box) -> tuple[float, float, float]:
    values = numbers(element.get("points") or "")
    rise, run = polyline_extent(values, closed=element.tag == f"{{{SVG}}}polygon")
    ys = values[1 : len(values) // 2 * 2 : 2]
    return rise, run, max(ys) - min(ys) if ys else 0.0


_OUTLINES: dict[str, Callable[[etree._Element, Box], tuple[float, float, float]]] = {
    f"{{{SVG}}}rect": _rect_outline,
    f"{{{SVG}}}circle": _ellipse_outline,
    f"{{{SVG}}}ellipse": _ellipse_outline,
    f"{{{SVG}}}line": _line_outline,
    f"{{{SVG}}}polyline": _poly_outline,
    f"{{{SVG}}}polygon": _poly_outline,
}
"""How far each shape's edges run up and down, how far they run, and its height, read from its attributes (a
path's are read with its box)."""


def _widest_stroke(root: etree._Element, css: list[str], shown: Box) -> float:
    """The widest stroke any element may be given (1 where none is said; infinite if one is not told)."""
    diagonal = math.hypot(_whole(shown, 0), _whole(shown, 1)) / math.sqrt(2)
    values = [str(e.get("stroke-width")) for e in root.iter() if e.get("stroke-width") is not None]
    values += [value for text in css for value in _STROKE_VALUE.findall(text)]
    widths = [length(value.strip(), diagonal) for value in values]
    return max([1.0, *(INFINITE if width is None else abs(width) for width in widths)])


def _sized(element: etree._Element) -> bool:
    return element.get("font-size") is not None or _FONT_VALUE.search(element.get("style") or "") is not None


def _largest_font(root: etree._Element, css: list[str]) -> float:
    """The largest font size a letter may be drawn at: the largest absolute size said (the browser's own where a
    text may be given none: the root and a text say none), times every relative size larger than one (sizes in
    ``em`` multiply down a chain of elements); infinite if one is not told."""
    values = [str(e.get("font-size")) for e in root.iter() if e.get("font-size") is not None]
    values += [value for text in css for value in _FONT_VALUE.findall(text)]
    unsized = not _sized(root) and not all(_sized(element) for element in root.iter(*_TEXTS))
    largest, factor = DEFAULT_FONT if unsized else 0.0, 1.0
    for value in (v.strip().lower() for v in values):
        if any(measure.lower() not in _KNOWN_MEASURES for measure in _MEASURE.findall(value)):
            return INFINITE  # `vw`, `Q`, `cqmax`: `4000Q`, 3,780 pixels, was read as 0 (44 s)
        largest = max(largest, _KEYWORDS.get(value, abs(float(value)) if _PLAIN.fullmatch(value) else 0.0))
        factor *= 1.2 if value == "larger" else 1.0
        for number, suffix in _SIZE.findall(value):
            if suffix.lower() in _RELATIVE:
                factor *= max(1.0, abs(float(number)) * _RELATIVE[suffix.lower()])
            else:
                largest = max(largest, abs(length(number + suffix, 0.0) or 0.0))
    return largest * factor
