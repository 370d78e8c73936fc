"""Where an SVG's elements draw, told cheaply and from above: lengths, transforms, bounding boxes, the viewport.

Each answer is an upper bound of what a browser paints, or None where it cannot be told from the element alone (a
length in ``em``, a transform that does not parse): the caller counts such an element as covering the whole
picture. Nothing here follows a reference; :mod:`rulebook.svg_area` does.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from itertools import accumulate, pairwise
from operator import sub

from lxml import etree

SVG = "http://www.w3.org/2000/svg"
ROUND = frozenset(f"{{{SVG}}}{name}" for name in ("circle", "ellipse"))
"""The round shapes: a circle and an ellipse, drawn around a centre by their radii."""

UNSIZED = 2_000.0
"""The extent, in pixels, of a side a picture does not state (no ``viewBox``, no absolute ``width`` or ``height``):
a browser opening it fills its window, whose side is rarely more."""

_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
"""A number of SVG, read one way only (``\\d+\\.?\\d*`` split a run of digits each way: quadratic)."""
_LENGTH = re.compile(rf"\s*+({_NUMBER})\s*+(?:(px|in|cm|mm|pt|pc|%)\s*+)?\Z", re.IGNORECASE)
"""A length, each run of spaces read once (``\\s*(px)?\\s*`` split a run of spaces each way: quadratic)."""
PIXELS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96 / 72, "pc": 16.0}
"""The pixels (lengths of user space) one of each absolute measure is, as CSS fixes them (``""``: a plain number)."""
_NUMBERS = re.compile(_NUMBER)
_SEPARATORS = re.compile(r"[\s,A-DF-Za-df-z]+")
"""What parts the numbers of a list or a path's data (any letter but an exponent's)."""
PAINT_REFERENCE = re.compile(r"url\(\s*(?:['\"]\s*)?#([^)'\"\s]+)", re.IGNORECASE)
"""A reference to an element of the picture in CSS or a presentation attribute, whose function name CSS reads in any
case (``URL(#p)``: nine levels of patterns so written were not counted, and held Chromium over 90 s); a run of
spaces is read once (``\\s*['"]?\\s*`` tried each split of it)."""


@dataclass(frozen=True, slots=True)
class Box:
    """An axis-aligned rectangle in some user space."""

    left: float
    top: float
    right: float
    bottom: float
    """The rectangle's sides (``right >= left``, ``bottom >= top``)."""

    @property
    def area(self) -> float:
        """The rectangle's area, infinite if a side is not finite."""
        area = (self.right - self.left) * (self.bottom - self.top)
        return area if math.isfinite(area) else math.inf

    def grown(self, margin: float) -> Box:
        """The rectangle with ``margin`` more on each side (a stroke's half width)."""
        return Box(self.left - margin, self.top - margin, self.right + margin, self.bottom + margin)

    def within(self, other: Box) -> float:
        """The area of the part of this rectangle inside ``other`` (all of ``other`` if a side is not finite: a
        browser draws a length too large for it as the largest it holds)."""
        if not all(math.isfinite(side) for side in (self.left, self.top, self.right, self.bottom)):
            return other.area
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return max(0.0, width) * max(0.0, height)


Matrix = tuple[float, float, float, float, float, float]
"""An affine transform ``(a, b, c, d, e, f)`` as SVG writes it: ``x' = a x + c y + e``, ``y' = b x + d y + f``."""
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def squared(value: float) -> float:
    """``value`` times itself: infinite past what a float holds, where ``value ** 2`` raises an error."""
    return value * value


def product(outer: Matrix, inner: Matrix) -> Matrix:
    """The transform doing ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = outer
    p, q, r, s, t, u = inner
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f)


def scale_of(matrix: Matrix) -> float:
    """How many times ``matrix`` multiplies an area (the absolute value of its determinant)."""
    return abs(matrix[0] * matrix[3] - matrix[1] * matrix[2])


def stretch_of(matrix: Matrix) -> float:
    """How many times ``matrix`` stretches a length at most (the largest singular value of its linear part)."""
    a, b, c, d = matrix[:4]
    spread = squared(a) + squared(b) + squared(c) + squared(d)
    if math.isinf(spread):
        return math.inf
    return math.sqrt((spread + math.sqrt(max(0.0, squared(spread) - 4 * squared(a * d - b * c)))) / 2)


def mapped(box: Box, matrix: Matrix) -> Box:
    """The bounding box of ``box`` once ``matrix`` has moved its corners."""
    a, b, c, d, e, f = matrix
    corners = [(x, y) for x in (box.left, box.right) for y in (box.top, box.bottom)]
    xs = [a * x + c * y + e for x, y in corners]
    ys = [b * x + d * y + f for x, y in corners]
    return Box(min(xs), min(ys), max(xs), max(ys))


_TRANSFORM = re.compile(r"\s*+(?:,\s*+)?(matrix|translate|scale|rotate|skewX|skewY)\s*+\(([^)]*+)\)\s*+")
"""One function of a transform list, each run of spaces read once (``\\s*,?\\s*`` split it each way: quadratic)."""


def transform_of(text: str | None) -> Matrix | None:
    """The matrix of a ``transform`` attribute (the identity if there is none), None if it does not parse."""
    if not text:
        return IDENTITY
    matrix, position, end = IDENTITY, 0, len(text.rstrip())
    while position < end:
        found = _TRANSFORM.match(text, position)
        if found is None:
            return None
        values = [float(n) for n in _NUMBERS.findall(found.group(2))]
        step = _step(found.group(1), values) if all(math.isfinite(value) for value in values) else None
        if step is None:
            return None
        matrix, position = product(matrix, step), found.end()
    return matrix if all(math.isfinite(value) for value in matrix) else None


def _step(name: str, n: list[float]) -> Matrix | None:
    if name == "matrix" and len(n) == 6:
        return (n[0], n[1], n[2], n[3], n[4], n[5])
    if name == "translate" and len(n) in (1, 2):
        return (1.0, 0.0, 0.0, 1.0, n[0], n[1] if len(n) == 2 else 0.0)
    if name == "scale" and len(n) in (1, 2):
        return (n[0], 0.0, 0.0, n[-1], 0.0, 0.0)
    if name == "rotate" and len(n) in (1, 3):
        cos, sin = math.cos(math.radians(n[0])), math.sin(math.radians(n[0]))
        x, y = (n[1], n[2]) if len(n) == 3 else (0.0, 0.0)
        return (cos, sin, -sin, cos, x - cos * x + sin * y, y - sin * x - cos * y)
    if name in ("skewX", "skewY") and len(n) == 1:
        tangent = math.tan(math.radians(n[0]))
        return (1.0, 0.0, tangent, 1.0, 0.0, 0.0) if name == "skewX" else (1.0, tangent, 0.0, 1.0, 0.0, 0.0)
    return None


def carried_down(
    root: etree._Element, top: float, step: Callable[[etree._Element, float], float]
) -> dict[etree._Element, float]:
    """A value carried down ``root``'s tree, each element's made by ``step`` from the element and its parent's (``top``
    for the root): how many times each element's user space is stretched on the picture's, in one walk without
    recursion (a parent is read before its children)."""
    carried: dict[etree._Element, float] = {}
    for element in root.iter():
        parent = element.getparent()
        carried[element] = step(element, top if parent is None or element is root else carried[parent])
    return carried


def length(value: str | None, extent: float, default: float = 0.0) -> float | None:
    """A length in user space (``%`` of ``extent``); ``default`` when it is not given, None when its suffix depends on
    what this module does not follow (``em``, ``calc()``)."""
    if value is None:
        return default
    try:
        number = float(value)  # most lengths are a plain number
    except ValueError:
        pass
    else:
        return number if math.isfinite(number) else None
    found = _LENGTH.match(value)
    if found is None:
        return None
    suffix = (found.group(2) or "").lower()
    number = float(found.group(1)) * (extent / 100 if suffix == "%" else PIXELS[suffix])
    return number if math.isfinite(number) else None


def numbers(text: str) -> list[float]:
    """The numbers of a list attribute (``points``, ``viewBox``)."""
    try:  # most lists are numbers between spaces, commas or commands: split at once
        return [float(number) for number in _SEPARATORS.split(text) if number]
    except ValueError:  # ``1-2``, ``.5.5``: read a number at a time
        return [float(number) for number in _NUMBERS.findall(text)]


def point_count(text: str) -> int:
    """How many points a path's data or a ``points`` list names: its numbers, two a point (a curve's control points
    counted too, as a browser draws a curve as several lines)."""
    return len(_NUMBERS.findall(text)) // 2


def view_box(element: etree._Element) -> Box | None:
    """The ``viewBox`` an element states, if it states a usable one."""
    values = numbers(element.get("viewBox") or "")
    if len(values) != 4 or values[2] <= 0 or values[3] <= 0 or not all(math.isfinite(value) for value in values):
        return None
    box = Box(values[0], values[1], values[0] + values[2], values[1] + values[3])
    return box if box.right > box.left and box.bottom > box.top else None  # a width lost beside a large origin


@dataclass(frozen=True, slots=True)
class Viewport:
    """What of an SVG's user space a browser opening it shows."""

    shown: Box
    """The part of the root's user space that can be seen: the ``viewBox``, widened on both sides where the
    picture's own width and height have another shape (the browser centres the drawing and shows what lies
    beside it)."""
    area: float
    """The picture's own area, in the root's user space: what "painted over once" means."""
    pixels: float
    """The pixels the picture says it has (its ``width`` times its ``height``); :data:`UNSIZED` a side it leaves
    unsaid."""
    rows: float
    """The rows of pixels it says it has (its ``height``)."""

    @property
    def untold(self) -> bool:
        """Whether the share of the picture an element covers cannot be told (a ``viewBox`` too large or too small
        for a number): each element is then taken to cover the whole picture."""
        return not (0 < self.area < math.inf and math.isfinite(self.shown.area))


def viewport(root: etree._Element) -> Viewport:
    """The viewport of the picture whose root element is ``root``."""
    width = length(root.get("width"), 0.0, UNSIZED) if "%" not in (root.get("width") or "") else UNSIZED
    height = length(root.get("height"), 0.0, UNSIZED) if "%" not in (root.get("height") or "") else UNSIZED
    width = width if width is not None and width > 0 else UNSIZED
    height = height if height is not None and height > 0 else UNSIZED
    box = view_box(root)
    if box is None:
        return Viewport(Box(0.0, 0.0, width, height), width * height, width * height, height)
    wide, high = box.right - box.left, box.bottom - box.top
    align, slice_ = _aspect(root.get("preserveAspectRatio"))
    if align is None:  # "none": the viewBox stretched to the picture's shape, shown whole and nothing beside it
        return Viewport(box, wide * high if math.isfinite(wide * high) else math.inf, width * height, height)
    fitted = (max if slice_ else min)(width / wide, height / high)  # the viewBox's lengths a pixel
    if not 0 < fitted < math.inf:
        return Viewport(box, math.inf, width * height, height)  # untold: no share of it can be taken
    seen_wide, seen_high = width / fitted, height / fitted
    if slice_:  # the picture filled, the viewBox cut to its shape where the alignment puts it
        left = box.left + (wide - seen_wide) * align[0]
        top = box.top + (high - seen_high) * align[1]
        return Viewport(
            Box(left, top, left + seen_wide, top + seen_high), seen_wide * seen_high, width * height, height
        )
    extra_x, extra_y = seen_wide - wide, seen_high - high
    shown = Box(box.left - extra_x, box.top - extra_y, box.right + extra_x, box.bottom + extra_y)
    return Viewport(shown, seen_wide * seen_high, width * height, height)


_ALIGN = {"min": 0.0, "mid": 0.5, "max": 1.0}
_ASPECT = re.compile(r"\s*(?:defer\s+)?(?:(none)|x(min|mid|max)y(min|mid|max))(?:\s+(meet|slice))?\s*\Z", re.IGNORECASE)


def _aspect(value: str | None) -> tuple[tuple[float, float] | None, bool]:
    """A ``preserveAspectRatio``: where the viewBox is aligned (a share of the room left, across and down; None
    for ``none``, stretched to fill) and whether it is cut to fill the picture (``slice``) rather than shown whole
    (``meet``, also where the value does not parse, as a browser takes it)."""
    found = _ASPECT.match(value or "")
    if found is None:
        return (0.5, 0.5), False
    if found.group(1):
        return None, False
    across, down, fit = found.group(2, 3, 4)
    return (_ALIGN[across.lower()], _ALIGN[down.lower()]), (fit or "").lower() == "slice"


_COMMAND = re.compile(r"([MmLlHhVvCcSsQqTtAaZz])")
_GROUP = {
    key: size
    for upper, size in {"M": 2, "L": 2, "T": 2, "C": 6, "S": 4, "Q": 4, "H": 1, "V": 1}.items()
    for key in (upper, upper.lower())
}
"""The numbers each segment of a command takes: pairs of coordinates, its end point last (one for ``H``, ``V``)."""
_SEPARATOR = r"\s*+(?:,\s*+)?"
_WHOLE_NUMBER = rf"((?>{_NUMBER}))"
_ARC = re.compile(
    rf"{_SEPARATOR}{_WHOLE_NUMBER}{_SEPARATOR}{_WHOLE_NUMBER}{_SEPARATOR}{_WHOLE_NUMBER}{_SEPARATOR}([01]){_SEPARATOR}"
    rf"([01]){_SEPARATOR}{_WHOLE_NUMBER}{_SEPARATOR}{_WHOLE_NUMBER}"
)
"""An arc's seven numbers, its two flags a digit each (``a1 1 0 00 1 1`` is valid). A run of spaces is read once and
a number whole, as a browser reads it (``\\s*,?\\s*`` split 10,000 spaces each way, 25 s; numbers split in every way
a run of 50 digits, 1.6 s)."""


_NOT_PAIRS = re.compile(r"[mlhvcsqtaHVAST]")
"""A command whose numbers are not absolute pairs of coordinates."""


_COMMAND_LETTERS = re.compile(r"[A-Za-df-z]")
"""A letter of a path's data but an exponent's: a command, or an error."""


def command_count(d: str) -> int:
    """How many commands a path's data names: each a few steps of Python to follow, pen move by pen move."""
    return len(_COMMAND_LETTERS.findall(d))


def absolute_path(d: str) -> bool:
    """Whether a path's data is absolute pairs of coordinates alone (``M``, ``L``, ``C``, ``S``, ``Q``, ``T``,
    ``Z``): its box is then that of its numbers taken two by two."""
    return _NOT_PAIRS.search(d) is None


@dataclass(frozen=True, slots=True)
class PathExtent:
    """Where a path's data draws: the box holding it, and how far its stroke runs."""

    box: Box | None
    """The box holding every point and control point (a curve lies within its control points; an arc within its
    endpoints widened by twice its radius, as the browser enlarges a radius too small for its chord); None for a
    path drawing nothing."""
    length: float
    """The most its stroke runs: the lines through its points and control points in turn (a curve is no longer than
    they are), each arc the whole ellipse of its largest radius, each closing line back to where its part began; a
    move counted as a line."""
    rise: float
    """The most it runs up and down along those lines: the rows of pixels a browser crosses following its edges."""
    points: int
    """The points its data names: its numbers, two a point, as :func:`numbers` reads them (a curve's control points
    counted too); none where it does not start with a move (it draws nothing)."""


NO_PATH = PathExtent(None, 0.0, 0.0, 0)


def path_extent(d: str) -> PathExtent:
    """The extent of a path's data, read a command at a time, its numbers at once (a segment is a few steps of
    Python: 25,000 paths of 25 curves each take a second). A browser draws a path up to its first error: numbers
    after it may widen the box and lengthen the stroke, never narrow or shorten them."""
    parts = _COMMAND.split(d, maxsplit=2)
    if parts[0].strip() or len(parts) < 3 or parts[1] not in "Mm":
        return NO_PATH
    if absolute_path(d):  # a number out of place after an error may widen the box, never narrow it
        values = numbers(d)
        across, down = values[0 : len(values) // 2 * 2 : 2], values[1 : len(values) // 2 * 2 : 2]
        if not across:
            return NO_PATH
        box = Box(min(across), min(down), max(across), max(down))
        closings = d.count("Z") + d.count("z")
        closing = math.hypot(box.right - box.left, box.bottom - box.top) * closings
        rise = _rise(down) + (box.bottom - box.top) * closings
        return PathExtent(box, _polyline_length(across, down) + closing, rise, len(values) // 2)
    parts = _COMMAND.split(d)
    pen = [0.0] * 7  # where the pen is, where its subpath started, the last control point and its curve's kind
    xs: list[float] = []
    ys: list[float] = []
    total = risen = 0.0
    for command, text in zip(parts[1::2], parts[2::2], strict=True):
        if command in "Zz":
            total, risen = total + math.hypot(pen[2] - pen[0], pen[3] - pen[1]), risen + abs(pen[3] - pen[1])
            pen[0], pen[1] = pen[2], pen[3]
            continue
        moved = (_arcs if command in "Aa" else _segments)(pen, command, text, xs, ys)
        if moved is None:
            break
        total, risen = total + moved[0], risen + moved[1]
    drawn = Box(min(xs), min(ys), max(xs), max(ys)) if xs else None
    return PathExtent(drawn, total, risen, len(numbers(d)) // 2)


def path_box(d: str) -> Box | None:
    """The box holding a path's data (:attr:`PathExtent.box`)."""
    return path_extent(d).box


def path_length(d: str) -> float:
    """How far a path's stroke runs at most (:attr:`PathExtent.length`)."""
    return path_extent(d).length


def polyline_extent(values: list[float], *, closed: bool) -> tuple[float, float]:
    """How far the stroke of a ``points`` list runs (back to its first point, ``closed``), and how far up and down."""
    xs, ys = values[0 : len(values) // 2 * 2 : 2], values[1 : len(values) // 2 * 2 : 2]
    if closed and xs:
        xs, ys = [*xs, xs[0]], [*ys, ys[0]]
    return _polyline_length(xs, ys), _rise(ys)


def _polyline_length(xs: list[float], ys: list[float]) -> float:
    return sum(map(math.hypot, map(sub, xs[1:], xs), map(sub, ys[1:], ys)))


def _rise(ys: list[float]) -> float:
    return math.fsum(abs(b - a) for a, b in pairwise(ys))


def _segments(
    pen: list[float], command: str, text: str, xs: list[float], ys: list[float]
) -> tuple[float, float] | None:
    """Move ``pen`` along one command's segments, adding the least and most of their coordinates to ``xs`` and
    ``ys``: how far it moved, and how far up and down; None where the data stops being drawn."""
    values = [float(number) for number in _NUMBERS.findall(text)]
    size = _GROUP[command]
    if size == 1:  # H, V: one coordinate a segment
        axis, along = _along(pen, command, values)
        if not along:
            return None
        (xs if axis == 0 else ys).extend((min(along), max(along)))
        ran = sum(abs(b - a) for a, b in pairwise([pen[axis], *along]))
        pen[axis] = along[-1]
        return ran, ran if axis else 0.0
    if len(values) == size:  # the common case: one segment
        across, down = values[0::2], values[1::2]
        if command.islower():
            across, down = [value + pen[0] for value in across], [value + pen[1] for value in down]
    elif len(values) < size:
        return None
    else:
        across, down = _points(values[: len(values) // size * size], size, pen[0], pen[1], command.islower())
    if command in "SsTt":
        across, down = _reflected(pen, command, across, down)
    xs.extend((min(across), max(across)))
    ys.extend((min(down), max(down)))
    moved = _polyline_length([pen[0], *across], [pen[1], *down]), _rise([pen[1], *down])
    if command in "CcQq":  # the control point the next S or T reflects, and the curve's kind
        pen[4], pen[5], pen[6] = across[-2], down[-2], _CUBIC if command in "Cc" else _QUADRATIC
    elif command not in "SsTt":
        pen[6] = 0.0
    pen[0], pen[1] = across[-1], down[-1]
    if command in "Mm":
        pen[2], pen[3] = across[0], down[0]  # further pairs draw lines; Z returns to the first
    return moved


_CUBIC, _QUADRATIC = 1.0, 2.0


def _reflected(
    pen: list[float], command: str, across: list[float], down: list[float]
) -> tuple[list[float], list[float]]:
    """The points of smooth curves (``S``, ``T``) with the control point each takes unsaid: the reflection of the one
    before it across where the pen is, if the curve before is of its kind (a chain of ``T`` whose ends alternate
    swings ever wider: each ``T`` drawn from its end alone ran a twentieth of its curve), else where the pen is."""
    kind = _CUBIC if command in "Ss" else _QUADRATIC
    step = 2 if kind == _CUBIC else 1  # the points a segment names
    xs: list[float] = []
    ys: list[float] = []
    x, y, control_x, control_y, before = pen[0], pen[1], pen[4], pen[5], pen[6]
    for index in range(0, len(across) - step + 1, step):
        implied = (2 * x - control_x, 2 * y - control_y) if before == kind else (x, y)
        xs += [implied[0], *across[index : index + step]]
        ys += [implied[1], *down[index : index + step]]
        control_x, control_y = (across[index], down[index]) if kind == _CUBIC else implied
        x, y, before = across[index + step - 1], down[index + step - 1], kind
    pen[4], pen[5], pen[6] = control_x, control_y, kind
    return xs, ys


def _along(pen: list[float], command: str, values: list[float]) -> tuple[int, list[float]]:
    """The axis an ``H`` or ``V`` command moves the pen along (0 across, 1 down), and where it takes it in turn."""
    axis = 0 if command in "Hh" else 1
    return axis, list(accumulate(values, initial=pen[axis]))[1:] if command.islower() else values


def _points(values: list[float], size: int, x: float, y: float, relative: bool) -> tuple[list[float], list[float]]:
    """The coordinates of each point of segments of ``size`` numbers, the pen at ``x``, ``y``, a relative segment's
    points counted from where the one before ended (the end point of each is its last)."""
    xs = values[0::2]
    ys = values[1::2]
    if not relative:
        return xs, ys
    pairs = size // 2
    starts_x = list(accumulate(values[size - 2 :: size], initial=x))
    starts_y = list(accumulate(values[size - 1 :: size], initial=y))
    moved_x = [value + starts_x[index // pairs] for index, value in enumerate(xs)]
    moved_y = [value + starts_y[index // pairs] for index, value in enumerate(ys)]
    return moved_x, moved_y


def _arcs(pen: list[float], command: str, text: str, xs: list[float], ys: list[float]) -> tuple[float, float] | None:
    """Move ``pen`` along arcs, as :func:`_segments` along other segments, each counted as the whole ellipse of its
    largest radius."""
    position, moved = 0, None
    while (found := _ARC.match(text, position)) is not None:
        rx, ry, angle, _, _, end_x, end_y = (float(value) for value in found.groups())
        end_x, end_y = (end_x + pen[0], end_y + pen[1]) if command == "a" else (end_x, end_y)
        radius = _arc_radius(rx, ry, angle, end_x - pen[0], end_y - pen[1])
        xs.extend((min(pen[0], end_x) - 2 * radius, max(pen[0], end_x) + 2 * radius))
        ys.extend((min(pen[1], end_y) - 2 * radius, max(pen[1], end_y) + 2 * radius))
        run = max(2 * math.pi * radius, math.hypot(end_x - pen[0], end_y - pen[1]))
        rise = max(4 * radius, abs(end_y - pen[1]))
        moved = (run, rise) if moved is None else (moved[0] + run, moved[1] + rise)
        pen[0], pen[1], position = end_x, end_y, found.end()
    return moved


def _arc_radius(rx: float, ry: float, angle: float, dx: float, dy: float) -> float:
    """The largest radius an arc is drawn with, once the browser has enlarged radii too small for its chord."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return 0.0
    if not all(math.isfinite(value) for value in (rx, ry, angle, dx, dy)):
        return math.inf
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    half_x, half_y = (cos * dx + sin * dy) / 2, (-sin * dx + cos * dy) / 2
    enlarged = math.sqrt(squared(half_x / rx) + squared(half_y / ry))
    return max(1.0, enlarged) * max(rx, ry)
