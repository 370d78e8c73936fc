"""Where an SVG's elements draw, told cheaply and from above: lengths, transforms, bounding boxes, the viewport.

Each answer is an upper bound of what a browser paints, or None where it cannot be told from the element alone (a
length in ``em``, a transform that does not parse): the caller counts such an element as covering the whole
picture. Nothing here follows a reference; :mod:`rulebook.svg_area` does.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from lxml import etree

SVG = "http://www.w3.org/2000/svg"

UNSIZED = 2_000.0
"""The extent, in pixels, of a side a picture does not state (no ``viewBox``, no absolute ``width`` or ``height``):
a browser opening it fills its window, whose side is rarely more."""

_NUMBER = r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?"
_LENGTH = re.compile(rf"\s*({_NUMBER})\s*(px|in|cm|mm|pt|pc|%)?\s*\Z", re.IGNORECASE)
_PIXELS = {"": 1.0, "px": 1.0, "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "pt": 96 / 72, "pc": 16.0}
_NUMBERS = re.compile(_NUMBER)


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
        return (self.right - self.left) * (self.bottom - self.top)

    def grown(self, margin: float) -> Box:
        """The rectangle with ``margin`` more on each side (a stroke's half width)."""
        return Box(self.left - margin, self.top - margin, self.right + margin, self.bottom + margin)

    def within(self, other: Box) -> float:
        """The area of the part of this rectangle inside ``other``."""
        width = min(self.right, other.right) - max(self.left, other.left)
        height = min(self.bottom, other.bottom) - max(self.top, other.top)
        return max(0.0, width) * max(0.0, height)


Matrix = tuple[float, float, float, float, float, float]
"""An affine transform ``(a, b, c, d, e, f)`` as SVG writes it: ``x' = a x + c y + e``, ``y' = b x + d y + f``."""
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)


def product(outer: Matrix, inner: Matrix) -> Matrix:
    """The transform doing ``inner`` first, then ``outer``."""
    a, b, c, d, e, f = outer
    p, q, r, s, t, u = inner
    return (a * p + c * q, b * p + d * q, a * r + c * s, b * r + d * s, a * t + c * u + e, b * t + d * u + f)


def scale_of(matrix: Matrix) -> float:
    """How many times ``matrix`` multiplies an area (the absolute value of its determinant)."""
    return abs(matrix[0] * matrix[3] - matrix[1] * matrix[2])


def mapped(box: Box, matrix: Matrix) -> Box:
    """The bounding box of ``box`` once ``matrix`` has moved its corners."""
    a, b, c, d, e, f = matrix
    corners = [(x, y) for x in (box.left, box.right) for y in (box.top, box.bottom)]
    xs = [a * x + c * y + e for x, y in corners]
    ys = [b * x + d * y + f for x, y in corners]
    return Box(min(xs), min(ys), max(xs), max(ys))


_TRANSFORM = re.compile(r"\s*,?\s*(matrix|translate|scale|rotate|skewX|skewY)\s*\(([^)]*)\)\s*")


def transform_of(text: str | None) -> Matrix | None:
    """The matrix of a ``transform`` attribute (the identity if there is none), None if it does not parse."""
    matrix, position, text = IDENTITY, 0, text or ""
    while position < len(text.rstrip()):
        found = _TRANSFORM.match(text, position)
        if found is None:
            return None
        step = _step(found.group(1), [float(n) for n in _NUMBERS.findall(found.group(2))])
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


def length(value: str | None, extent: float, default: float = 0.0) -> float | None:
    """A length in user units (``%`` of ``extent``); ``default`` when it is not given, None when its unit depends on
    what this module does not follow (``em``, ``calc()``)."""
    if value is None:
        return default
    found = _LENGTH.match(value)
    if found is None:
        return None
    unit = (found.group(2) or "").lower()
    number = float(found.group(1))
    return number * extent / 100 if unit == "%" else number * _PIXELS[unit]


def numbers(text: str) -> list[float]:
    """The numbers of a list attribute (``points``, ``viewBox``)."""
    return [float(number) for number in _NUMBERS.findall(text)]


def view_box(element: etree._Element) -> Box | None:
    """The ``viewBox`` an element states, if it states a usable one."""
    values = numbers(element.get("viewBox") or "")
    if len(values) != 4 or values[2] <= 0 or values[3] <= 0:
        return None
    return Box(values[0], values[1], values[0] + values[2], values[1] + values[3])


@dataclass(frozen=True, slots=True)
class Viewport:
    """What of an SVG's user space a browser opening it shows."""

    shown: Box
    """The part of the root's user space that can be seen: the ``viewBox``, widened on both sides where the
    picture's own width and height have another shape (the browser centres the drawing and shows what lies
    beside it)."""
    area: float
    """The picture's own area, in the root's user units: what "painted over once" means."""
    pixels: float
    """The pixels the picture says it has (its ``width`` times its ``height``); :data:`UNSIZED` a side it leaves
    unsaid."""


def viewport(root: etree._Element) -> Viewport:
    """The viewport of the picture whose root element is ``root``."""
    width = length(root.get("width"), 0.0, UNSIZED) if "%" not in (root.get("width") or "") else UNSIZED
    height = length(root.get("height"), 0.0, UNSIZED) if "%" not in (root.get("height") or "") else UNSIZED
    width = width if width is not None and width > 0 else UNSIZED
    height = height if height is not None and height > 0 else UNSIZED
    box = view_box(root)
    if box is None:
        return Viewport(Box(0.0, 0.0, width, height), width * height, width * height)
    wide, high = box.right - box.left, box.bottom - box.top
    fitted = min(width / wide, height / high)  # the viewBox's units a pixel, as shown whole ("meet")
    seen_wide, seen_high = width / fitted, height / fitted
    extra_x, extra_y = seen_wide - wide, seen_high - high
    shown = Box(box.left - extra_x, box.top - extra_y, box.right + extra_x, box.bottom + extra_y)
    return Viewport(shown, seen_wide * seen_high, width * height)


_PATH_TOKEN = re.compile(rf"\s*,?\s*([MmLlHhVvCcSsQqTtAaZz]|{_NUMBER})")
_FLAG = re.compile(r"\s*,?\s*([01])")
_ARGUMENTS = {"M": 2, "L": 2, "H": 1, "V": 1, "C": 6, "S": 4, "Q": 4, "T": 2, "A": 7, "Z": 0}


def path_box(d: str) -> Box | None:
    """The box holding every point and control point of a path's data (a curve lies within its control points; an
    arc within its endpoints widened by twice its radius, as the browser enlarges a radius too small), as far as
    the data is well formed (a browser draws a path up to its first error); None for a path drawing nothing."""
    xs: list[float] = []
    ys: list[float] = []
    x = y = start_x = start_y = 0.0
    command, position = "", 0
    while True:
        found = _PATH_TOKEN.match(d, position)
        if found is None:
            break
        if found.group(1).isalpha():
            command, position = found.group(1), found.end()
            if command in "Zz":
                x, y = start_x, start_y
            continue
        if not command or command in "Zz" or (not xs and command not in "Mm"):
            break
        arguments, position = _path_arguments(d, position, command.upper())
        if arguments is None:
            break
        relative = command.islower()
        x, y = _path_step(command.upper(), arguments, x, y, relative, xs, ys)
        if command in "Mm":
            start_x, start_y = x, y
            command = "l" if relative else "L"
    if not xs:
        return None
    return Box(min(xs), min(ys), max(xs), max(ys))


def _path_arguments(d: str, position: int, command: str) -> tuple[list[float] | None, int]:
    values: list[float] = []
    for index in range(_ARGUMENTS[command]):
        found = (_FLAG if command == "A" and index in (3, 4) else _PATH_TOKEN).match(d, position)
        if found is None or found.group(1).isalpha():
            return None, position
        values.append(float(found.group(1)))
        position = found.end()
    return values, position


def _path_step(
    command: str, n: list[float], x: float, y: float, relative: bool, xs: list[float], ys: list[float]
) -> tuple[float, float]:
    """The point a path segment ends at; its points and control points added to ``xs`` and ``ys``."""
    dx, dy = (x, y) if relative else (0.0, 0.0)
    if command == "H":
        points = [(n[0] + dx, y)]
    elif command == "V":
        points = [(x, n[0] + dy)]
    elif command == "A":
        end_x, end_y = n[5] + dx, n[6] + dy
        reach = 2 * _arc_radius(n[0], n[1], n[2], end_x - x, end_y - y)
        points = [(x - reach, y - reach), (x + reach, y + reach), (end_x - reach, end_y - reach)]
        points += [(end_x + reach, end_y + reach), (end_x, end_y)]
    else:
        points = [(n[i] + dx, n[i + 1] + dy) for i in range(0, len(n), 2)]
    xs.extend(point[0] for point in points)
    ys.extend(point[1] for point in points)
    return points[-1]


def _arc_radius(rx: float, ry: float, angle: float, dx: float, dy: float) -> float:
    """The largest radius an arc is drawn with, once the browser has enlarged radii too small for its chord."""
    rx, ry = abs(rx), abs(ry)
    if rx == 0 or ry == 0:
        return 0.0
    cos, sin = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    half_x, half_y = (cos * dx + sin * dy) / 2, (-sin * dx + cos * dy) / 2
    enlarged = math.sqrt((half_x / rx) ** 2 + (half_y / ry) ** 2)
    return max(1.0, enlarged) * max(rx, ry)
