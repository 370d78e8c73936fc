"""What one pass of an SVG filter costs a browser, from its region and how far its primitives reach.

:mod:`rulebook.svg_pictures` counts a filter's primitives as passes over the pixels of each element given it. A pass
covers the filter's region, which the filter's ``x``, ``y``, ``width`` and ``height`` set: by default the element's
box and a tenth more on each side, but any size a picture asks for (``width="100"``: a hundred times the box's
width), of a box as large as the element is drawn (a rectangle 200,000 wide, or one a ``transform`` scales).
Headless Chromium (software drawing) does not work a region past what is seen: it works each primitive over the
viewport grown by how far the primitives after it reach (a blur three standard deviations, an offset its distance),
cut to the region. So :func:`filter_weight` counts a pass as the lesser of the two, over the default region of an
element the size of the picture: a region twice the box's sides counts nearly three passes, a region far larger
counts as far as the blurs reach, a small element the share of the picture its region covers.

Measured on a picture of a megapixel, more than an empty picture in the same round (a loaded machine; 2026-11-26):
ten blurs of ``stdDeviation="50"`` on a rectangle the size of the picture took 3.7 s in the default region, 11.8 s
in 200% of the box, 29.2, 22.4 and 22.3 s in four, ten and a hundred times it (the blurs reach 1,500 past each side:
the viewport so grown is 16 times the picture), and 47.6 s in the default region of a rectangle 200 times the
picture's width; with ``stdDeviation="5"``, 0.7 s in the default region and 1.3 s in a hundred times it; with
``stdDeviation="200"``, a hundred times the box held Chromium past 150 s. The probe of issue 32, 45 such blurs in a
hundred times the box (1.8 KB), held it past 300 s.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from lxml import etree

from rulebook.svg_geometry import SVG, Box, Viewport, length, numbers

DEFAULT_SIDE = 1.2
"""A filter region's side where none is given, as a share of the element's box's (``x="-10%" width="120%"``)."""
_DEFAULT_REGION = DEFAULT_SIDE * DEFAULT_SIDE
LEAST_WEIGHT = 0.01
"""The least a primitive counts for, as a share of a pass over the picture: a hundred rectangles of a 400th of a
picture of a megapixel, each given a drop shadow of five primitives (``x="-50%" width="200%"``), took headless
Chromium no more time to show than the same without the shadow (within 2 s)."""
BLUR_PIXELS = 50.0
"""The pixels of a blur's standard deviation that count one step more (:data:`MOST_BLUR`)."""
MOST_BLUR = 2.0
"""A blur counts as one step and one more for each :data:`BLUR_PIXELS` of its standard deviation, in the picture's
pixels, up to two: on a rectangle of a megapixel in the default region, 24 blurs of ``stdDeviation="8"`` took headless
Chromium 10.5 s, of 50 40.2 s, of 200 22.9 s (one round, a loaded machine); 10 of 5 0.7 s, of 50 3.7 s (a quieter
one); a chain of wide blurs costs more than linearly (of 50: 10 took 3.9 s, 12 9.4 s, 16 24.4 s, 24 38 s, 45 91 s)."""
_BLURS = frozenset({"feGaussianBlur", "feDropShadow"})
"""The primitives that take each pixel from three standard deviations around it."""
_MOVES = frozenset({"feOffset", "feDropShadow"})
"""The primitives that take each pixel from ``dx``, ``dy`` away."""


@dataclass(frozen=True)
class FilterPlace:
    """Where a filter is given: to an element whose box is ``box`` (None where it is not told), in a user space
    stretched ``stretch`` times on the picture (the longest a length of one in it becomes, infinite where CSS or a
    size not told makes it unknown), in a picture whose viewport is ``view``."""

    view: Viewport
    box: Box | None
    stretch: float

    @property
    def shown(self) -> Box:
        """The root's user space seen."""
        return self.view.shown

    @property
    def pixels(self) -> float:
        """The picture's pixels a length of the element's user space is (one where the picture's size is not
        told)."""
        scale = math.sqrt(self.view.pixels / self.view.area) if not self.view.untold else 1.0
        return scale * self.stretch if math.isfinite(scale) and scale > 0 else self.stretch

    @property
    def one_pass(self) -> float:
        """The area of one pass, in the root's user space: the default region of an element the size of the
        picture (infinite where the picture's size is not told)."""
        wide, high = self.shown.right - self.shown.left, self.shown.bottom - self.shown.top
        seen = wide * high
        return seen * _DEFAULT_REGION if math.isfinite(seen) and seen > 0 else math.inf


def filter_weight(filter_: etree._Element, place: FilterPlace) -> float:
    """How many passes each primitive of ``filter_`` given at ``place`` costs: the lesser of its region's area
    (:func:`filter_region`) and of the part of it a browser works, the picture grown by the primitives' reach (one
    pass at least: a region past the picture is cut to it); at least :data:`LEAST_WEIGHT`, and one where the
    element's size is not told. Infinite where neither is told."""
    if math.isinf(place.one_pass):
        return 1.0  # a picture whose size is not told: each pass counted as one over it, as every element is
    reach = _reach(filter_, place.box)
    wide, high = place.shown.right - place.shown.left, place.shown.bottom - place.shown.top
    far = reach * place.stretch if reach else 0.0  # an unknown stretch makes no reach of nothing
    grown = (wide + 2 * far) * (high + 2 * far) * _DEFAULT_REGION / place.one_pass  # at least one pass: the picture
    region = filter_region(filter_, place)
    least = LEAST_WEIGHT if math.isfinite(region) else 1.0  # an element of a size not told: the picture's at least
    return max(least, min(region, grown if math.isfinite(grown) else math.inf))


def filter_region(filter_: etree._Element, place: FilterPlace) -> float:
    """The area of ``filter_``'s region given at ``place``, in the root's user space, over :attr:`FilterPlace.one_pass`:
    its sides are shares of the element's box (the default), or lengths of the user space (``userSpaceOnUse``, a
    percentage of the picture's side); infinite where the box or a length is not told."""
    wide, high = place.shown.right - place.shown.left, place.shown.bottom - place.shown.top
    in_user_space = filter_.get("filterUnits") == "userSpaceOnUse"
    width = length(filter_.get("width"), wide if in_user_space else 1.0, DEFAULT_SIDE * (wide if in_user_space else 1))
    height = length(
        filter_.get("height"), high if in_user_space else 1.0, DEFAULT_SIDE * (high if in_user_space else 1)
    )
    if width is None or height is None:
        return math.inf
    area = abs(width * height)
    if not in_user_space and area:  # shares of the element's box
        area *= place.box.area if place.box is not None else math.inf
    region = area * place.stretch * place.stretch / place.one_pass if area else 0.0
    return region if math.isfinite(region) else math.inf


def _reach(filter_: etree._Element, box: Box | None) -> float:
    """How far, in the element's user space, ``filter_``'s primitives take pixels from, all together (a blur three
    standard deviations, an offset its distance, a displacement half its scale, a kernel five of its lengths); in
    shares of the element's box, the lengths times its longer side (infinite where the box is not told)."""
    reach = 0.0
    for primitive in filter_.iter(f"{{{SVG}}}*"):
        name = etree.QName(primitive).localname
        if name in _BLURS:
            reach += 3 * _largest(primitive.get("stdDeviation"))
        if name in _MOVES:
            reach += max(_largest(primitive.get("dx")), _largest(primitive.get("dy")))
        if name == "feDisplacementMap":
            reach += _largest(primitive.get("scale")) / 2
        reach += 5 * _largest(primitive.get("kernelUnitLength"))  # a kernel is at most 5 wide (MAX_KERNEL_ORDER)
    if reach and filter_.get("primitiveUnits") == "objectBoundingBox":
        side = max(box.right - box.left, box.bottom - box.top) if box is not None else math.inf
        return reach * side if side else 0.0
    return reach


def blur_cost(primitive: etree._Element, place: FilterPlace) -> float:
    """The steps ``primitive`` counts for, given at ``place``, by how wide it blurs (:data:`MOST_BLUR`): one for a
    primitive that does not blur."""
    if etree.QName(primitive).localname not in _BLURS:
        return 1.0
    parent = primitive.getparent()
    deviation = _largest(primitive.get("stdDeviation"))
    if parent is not None and parent.get("primitiveUnits") == "objectBoundingBox" and deviation:
        box = place.box
        deviation *= max(box.right - box.left, box.bottom - box.top) if box is not None else math.inf
    cost = 1 + deviation * place.pixels / BLUR_PIXELS if deviation else 1.0
    return min(MOST_BLUR, cost) if math.isfinite(cost) else MOST_BLUR


MAX_OCTAVES = 10
"""The most octaves of an ``<feTurbulence>``: each halves the last's weight, so past eight none shows; each is a pass
over every pixel (a billion held Typst, and the build, without end)."""


def octave_cost(primitive: etree._Element) -> float:
    """The steps ``primitive`` counts for by its octaves: an ``<feTurbulence>`` computes its noise once an octave at
    every pixel (19 of 10 octaves merged on a rectangle of a megapixel, 2.5 KB, counted as 20 steps, held Typst past
    its 20 s, and the PDF left the picture out after the lint passed it; with one octave each, 20 s at times), up to
    :data:`MAX_OCTAVES` (more is refused); one for another primitive."""
    if etree.QName(primitive).localname != "feTurbulence":
        return 1.0
    octaves = numbers(primitive.get("numOctaves") or "1")[:1]
    return float(min(MAX_OCTAVES, max(1, math.ceil(abs(octaves[0])) if octaves else 1)))


def _largest(value: str | None) -> float:
    """The largest size a list attribute of numbers gives (``stdDeviation="2 40"``: 40); 0 where it gives none."""
    return max((abs(number) for number in numbers(value or "")), default=0.0)
