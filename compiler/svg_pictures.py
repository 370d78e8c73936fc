"""An SVG picture rebuilt from an allow-list: a static drawing, with nothing that runs or reaches out.

A browser that opens an SVG file from the site (at its own address, not through ``<img>``) makes it a
document of the site's origin: a script in it, an event attribute or embedded HTML runs with the
site's rights. So an SVG is parsed as the sources are (no entity expanded, no DTD loaded, no network
reached) and published only as a new document made of the elements and attributes of a static drawing
(:data:`ELEMENTS`, :data:`ATTRIBUTES`), every reference inside the picture (``#id``) or a raster
picture it carries (``data:image/png;base64,...``). What could act is refused with the reason and its
line in the picture: scripts, event attributes (``onload``), ``<foreignObject>`` and HTML elements,
animations (they can rewrite a link), references out of the picture (``https://``, another file,
``javascript:``) in an attribute or in CSS (``url(...)``, ``@import``). What cannot act and is not
drawn is left out without a word: an editor's own metadata (Inkscape's, Illustrator's, RDF), comments,
processing instructions, elements and attributes the allow-list does not know, and CSS properties it does not know
(:mod:`rulebook.svg_css`, which reads the picture's CSS).
"""

from __future__ import annotations

import base64
import math
import re
from collections.abc import Callable, Iterator
from functools import cache, partial

from lxml import etree

from rulebook.errors import quoted
from rulebook.picture_size import MAX_PIXELS, SIGNATURES, SIZE_BYTES, decoded_pixels, size_refusal_of_any
from rulebook.svg_area import MARKED, MAX_ROWS_CROSSED, MAX_TIMES_PAINTED, PaintedArea
from rulebook.svg_css import (
    GEOMETRY,
    PRESENTATION,
    SIMPLER,
    RefusedCss,
    check_attribute,
    kept_declarations,
    kept_style,
    read_length,
    without_comments,
)
from rulebook.svg_dashes import MAX_DASHES_DRAWN, DashedStrokes, UntoldDashes
from rulebook.svg_directions import MAX_DIRECTION_CHANGES, drawn_weight, first_past_the_limit
from rulebook.svg_filters import MAX_OCTAVES, FilterPlace, blur_cost, filter_region, filter_weight, octave_cost
from rulebook.svg_fonts import css_too_many_families, too_many_families
from rulebook.svg_geometry import PAINT_REFERENCE, ROUND, SVG, numbers, point_count

XLINK = "http://www.w3.org/1999/xlink"
XML = "http://www.w3.org/XML/1998/namespace"
XHTML = "http://www.w3.org/1999/xhtml"

ELEMENTS = frozenset(
    {
        *("svg", "g", "defs", "symbol", "use", "switch", "title", "desc", "a", "style", "image"),
        *("path", "rect", "circle", "ellipse", "line", "polyline", "polygon"),
        *("text", "tspan", "textPath"),
        *("linearGradient", "radialGradient", "stop", "pattern", "clipPath", "mask", "marker"),
        *("filter", "feBlend", "feColorMatrix", "feComponentTransfer", "feComposite", "feConvolveMatrix"),
        *("feDiffuseLighting", "feDisplacementMap", "feDistantLight", "feDropShadow", "feFlood", "feFuncA"),
        *("feFuncB", "feFuncG", "feFuncR", "feGaussianBlur", "feImage", "feMerge", "feMergeNode"),
        *("feOffset", "fePointLight", "feSpecularLighting", "feSpotLight", "feTile"),
        "feTurbulence",
    }
)
"""The SVG elements of a static drawing: structure, shapes, text, paint, clipping, markers, filters (not ``<view>``,
which only zooms the picture where an address names it: ``x.svg#v``, as ``#svgView(viewBox(...))`` does, multiplies
what the picture costs past what its own size measures)."""

ACTIVE = {
    "script": "a script (`<script>`)",
    "foreignObject": "embedded HTML (`<foreignObject>`)",
    "handler": "an event handler (`<handler>`)",
    "listener": "an event listener (`<listener>`)",
    "set": "an animation (`<set>`)",
    "animate": "an animation (`<animate>`)",
    "animateMotion": "an animation (`<animateMotion>`)",
    "animateTransform": "an animation (`<animateTransform>`)",
    "animateColor": "an animation (`<animateColor>`)",
    "discard": "an animation (`<discard>`)",
    "iframe": "an embedded page (`<iframe>`)",
}
"""SVG elements that run, animate or embed: the picture is refused, naming the first."""

COSTLY = {"feMorphology": "a filter whose work grows with the square of its radius (`<feMorphology>`)"}
"""Filters whose work no attribute bounds (a radius is in the picture's user space, scaled by its ``viewBox``): a
radius of 50 on a picture 2,000 wide held Typst, and the build, for over a minute."""
MAX_KERNEL_ORDER = 5
"""The widest kernel of an ``<feConvolveMatrix>``, in pixels: each pixel is the sum of ``order²`` (300 held Typst,
and the build, without end)."""

ATTRIBUTES = (
    frozenset(
        {
            *("id", "class", "style", "type", "media", "lang", "version", "systemLanguage", "requiredExtensions"),
            *("x1", "y1", "x2", "y2", "fx", "fy", "fr", "points", "pathLength", "viewBox", "preserveAspectRatio"),
            *("dx", "dy", "rotate", "textLength", "lengthAdjust", "startOffset", "method", "spacing", "side"),
            *("gradientUnits", "gradientTransform", "spreadMethod", "offset"),
            *("patternUnits", "patternContentUnits", "patternTransform", "clipPathUnits", "maskUnits"),
            *("maskContentUnits", "markerWidth", "markerHeight", "markerUnits", "refX", "refY", "orient"),
            *("filterUnits", "primitiveUnits", "in", "in2", "result", "stdDeviation", "mode", "values"),
            *("tableValues", "slope", "intercept", "amplitude", "exponent", "operator", "k1", "k2", "k3", "k4"),
            *("order", "kernelMatrix", "divisor", "bias", "targetX", "targetY", "edgeMode", "kernelUnitLength"),
            *("preserveAlpha", "surfaceScale", "diffuseConstant", "specularConstant", "specularExponent"),
            *("azimuth", "elevation", "z", "pointsAtX", "pointsAtY", "pointsAtZ", "limitingConeAngle", "scale"),
            *("xChannelSelector", "yChannelSelector", "radius", "baseFrequency", "numOctaves", "seed"),
            "stitchTiles",
        }
    )
    | PRESENTATION
    | GEOMETRY
)
"""The attributes (in no namespace) of a static drawing: geometry, paint, text, filters; ``href`` is checked apart."""

_RASTER_DATA = re.compile(r"data:image/(?:png|jpeg|gif|webp|avif);base64,[A-Za-z0-9+/=\s]*\Z")
_IGNORED = re.compile(r"[\s\x00-\x1f]+")
_PLACE = re.compile(r", line \d+, column \d+$")


class UnsafeSvg(Exception):
    """The SVG cannot be published: ``reason`` says what it holds, ``line`` where (in the picture)."""

    def __init__(self, reason: str, line: int | None = None, *, help: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.line = line
        self.help = help
        """What to do instead, where it is not to take out what was named."""

    def __str__(self) -> str:
        return self.reason if self.line is None else f"{self.reason}, line {self.line} of the picture"


def sanitised_svg(data: bytes) -> bytes:
    """The picture ``data`` holds, rebuilt from the allow-list; :class:`UnsafeSvg` if it is no SVG or could act."""
    from rulebook.xml_source import safe_parser

    _check_extent(data)
    try:
        tree = etree.fromstring(data, safe_parser())
    except etree.XMLSyntaxError as error:
        raise _malformed(error) from None
    declared = tree.getroottree().docinfo.internalDTD
    if declared is not None and any(True for _ in declared.iterentities()):  # type: ignore[union-attr]
        raise UnsafeSvg("it declares entities (`<!ENTITY>` in its DOCTYPE)", help=_NO_DOCTYPE)
    _check_attribute_count(tree)
    if tree.tag != f"{{{SVG}}}svg":
        raise UnsafeSvg(f"it is not an SVG picture (its root is `{etree.QName(tree).localname}` {_namespace(tree)})")
    _check_css_extent(tree)
    _check_own_size(tree)
    root = etree.Element(tree.tag, _attributes(tree), nsmap={None: SVG, "xlink": XLINK})  # type: ignore[dict-item]
    root.text = tree.text
    _copy_children(tree, root)
    _check_marks(tree)
    _check_directions(tree)
    _check_carried(root)
    _check_drawn(root)
    _check_text_length(root)
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8") + b"\n"


MAX_TEXT_RUN = 4_000
"""The most characters one ``<text>`` of an SVG picture may draw: laying a line out costs more than its length (one
``<text>`` of 60 KB took Typst 3 s to draw, 120 KB 7.6 s, and 22 s more for the PDF, past every other count)."""
MAX_SVG_TEXT = 200_000
"""The most characters of text all of a picture's ``<text>`` may draw (a map's thousands of labels are a tenth)."""


def _check_text_length(root: etree._Element) -> None:
    """Refuse a picture one ``<text>`` of which draws more than :data:`MAX_TEXT_RUN` characters, or all of them more
    than :data:`MAX_SVG_TEXT`."""
    help = "put the text in the book, or convert the picture's text to paths (Inkscape: Path > Object to Path)"
    drawn = 0
    for text in root.iter(f"{{{SVG}}}text"):
        length = sum(len(part) for part in text.itertext())
        if length > MAX_TEXT_RUN:
            raise UnsafeSvg(
                f"one of its texts has {length:,} characters, more than the {MAX_TEXT_RUN:,} a text of an SVG "
                "picture may",
                help=help,
            )
        drawn += length
    if drawn > MAX_SVG_TEXT:
        raise UnsafeSvg(
            f"it draws {drawn:,} characters of text, more than the {MAX_SVG_TEXT:,} an SVG picture may", help=help
        )


SMALLEST_SIDE = 1 / 64
"""The narrowest a picture's own ``width`` or ``height`` may be, in CSS pixels (Typst refuses 0, a negative size and
one too small for its numbers, and the picture was left out of the site and the PDF after the lint passed it)."""
LARGEST_SIDE = 1_000_000.0
"""The widest: a size past it is no picture's (``1e308``: Typst's numbers cannot hold it)."""
LARGEST_VIEW = 1e9
"""The largest number of a ``viewBox`` (Typst reads it in 32-bit numbers, which lose a box past it)."""


def _check_own_size(tree: etree._Element) -> None:
    """Refuse a root whose ``width``, ``height`` or ``viewBox`` is no size a picture can have (``0``, ``-5``,
    ``1e-300``): Typst refuses it, the picture is left out after the lint passed it. A size this module cannot read
    (``auto``, a percentage, ``em``) is left to the drawing."""
    from rulebook.svg_geometry import length

    for side in ("width", "height"):
        said = tree.get(side)
        found = length(said, 0.0) if said is not None and "%" not in said else None
        if found is not None and not SMALLEST_SIDE <= found <= LARGEST_SIDE:
            raise UnsafeSvg(
                f"its `{side}` is {quoted(said or '')}, no size a picture can have",
                help=f"give it a {side} from 1 to 1,000,000 pixels, or none (its `viewBox` then sizes it)",
            )
    box = tree.get("viewBox")
    values = numbers(box) if box is not None else []
    if len(values) == 4 and not (
        all(math.isfinite(v) and abs(v) <= LARGEST_VIEW for v in values) and values[2] > 0 and values[3] > 0
    ):
        raise UnsafeSvg(
            f"its `viewBox` is {quoted(box or '')}, no box a picture can show",
            help="give it a `viewBox` of a positive width and height (`0 0 300 120`)",
        )


_NO_DOCTYPE = (
    "delete the DOCTYPE and the entities it declares (`<!DOCTYPE svg ... [ <!ENTITY ...> ]>`; an editor's entities "
    'name namespaces, which the picture needs not), or export it again without one (Illustrator: "Export As" SVG, '
    'or "Save As" SVG 1.1 with "Preserve Illustrator Editing Capabilities" off)'
)
"""What to do with a picture whose DOCTYPE declares entities: Illustrator's "Save As SVG" (through CC 2017) declares
``&ns_flows;`` and the like for namespace names; an entity is never expanded here."""
MAX_DEPTH = 256
"""How deep libxml2 reads elements nested in a picture (its own limit, past which it stops)."""


def _malformed(error: etree.XMLSyntaxError) -> UnsafeSvg:
    """The refusal of a picture lxml could not read, in plain words (libxml2's own option is not the user's to set)."""
    message = _PLACE.sub("", error.msg)  # the place is said once, as the picture's line
    if message.lower().startswith("excessive depth in document"):
        return UnsafeSvg(
            f"its elements are nested more than {MAX_DEPTH} deep, the most a picture may nest them",
            error.lineno,
            help="put fewer groups one inside the other, or " + SIMPLER,
        )
    return UnsafeSvg(f"it is not well-formed XML ({message})", error.lineno)


MAX_MARKS = 32
"""The most combining marks (accents, vowel signs, variation selectors) one character of a picture's text may carry:
a browser shapes a character and its marks as one, at a cost growing with the square of their number (an `a` with
100,000 marks, 200 KB, held headless Chromium 26 to 31 s; drawn ten times, 46 to 62 s); a script's own writing puts
a few on a letter."""


def _check_marks(tree: etree._Element) -> None:
    """Refuse a picture whose text gives a character more than :data:`MAX_MARKS` combining marks."""
    for element in tree.iter():
        for text in (element.text, element.tail) if isinstance(element.tag, str) else (element.tail,):
            if text and not text.isascii() and (found := _marks().search(text)) is not None:
                raise UnsafeSvg(
                    f"its text gives a character more than {MAX_MARKS} combining marks (accents, signs) in a row "
                    f"(U+{ord(found.group()[0]):04X} on), which a reader's browser shapes at a cost growing with their "
                    "number squared",
                    _line(element),
                    help="write the text with fewer marks on each letter, or " + SIMPLER,
                )


@cache
def _marks() -> re.Pattern[str]:
    """A run of more than :data:`MAX_MARKS` combining characters (read once, the first time a text is not ASCII)."""
    import unicodedata

    marks = "".join(
        re.escape(chr(code))
        for code in (*range(0x300, 0x30000), *range(0xE0000, 0xE1000))
        if unicodedata.category(chr(code)) in ("Mn", "Mc", "Me")
    )
    return re.compile(f"[{marks}]{{{MAX_MARKS + 1}}}")


def _check_directions(tree: etree._Element) -> None:
    """Refuse a picture with a text changing its writing direction more than
    :data:`rulebook.svg_directions.MAX_DIRECTION_CHANGES` times."""
    found = first_past_the_limit(tree)
    if found is not None:
        raise UnsafeSvg(
            f"a text of it changes its writing direction more than {MAX_DIRECTION_CHANGES:,} times (right-to-left "
            "letters and left-to-right ones in turn, wide letters and narrow ones, numbers among right-to-left "
            "letters, bidirectional controls, the elements of a right-to-left text, elements given their own "
            "direction), which a reader's browser orders at a cost growing faster than "
            "their number",
            _line(found[0]),
            help="split the text into several `<text>` elements, or " + SIMPLER,
        )


MAX_SVG_BYTES = 16 * 1024 * 1024
"""The largest SVG published: a drawing of a rulebook is kilobytes, a map with its pictures embedded megabytes."""
MAX_SVG_TAGS = 30_000
"""The most tags (``<``) an SVG may hold: a parsed element takes hundreds of bytes, a browser or Typst draws each, and
the sanitiser takes about a fifth of a millisecond to rebuild and count one (99,000 rectangles, 4.3 MB, took a lint
27.5 s). The largest of the 53,997 SVGs of this machine (icon sets, clip art, the tutorials and maps of editors)
holds 19,059 tags (a clip-art border), the next 15,981 (a traced drawing); at the limit, 6.5 s (two loaded cores)."""


MAX_SVG_ATTRIBUTES = 150_000
"""The most attributes an SVG's elements may have together: the sanitiser reads each (its name, and its value as
CSS), about 35 microseconds each on two loaded cores, so 7,500 rectangles of 200 attributes each (16 MB) took it
54 s, whatever the tags; the 53,997 SVGs of this machine have 47,403 at most (a traced drawing of 2.9 MB), 36 on one
element; at the limit (five an element of :data:`MAX_SVG_TAGS`), 999 rectangles of 150 each took it 1.7 s."""


MAX_ELEMENT_ATTRIBUTES = 256
"""Attributes one element of a picture may have (the 54,000 SVGs measured give one at most 36): lxml finds each value
by its name among the element's others, so reading them grows with their square (40,000 on one element, 6.6 s)."""


def _check_attribute_count(tree: etree._Element) -> None:
    """Refuse, before any is read, a picture whose elements have more than :data:`MAX_SVG_ATTRIBUTES` attributes, or
    one with more than :data:`MAX_ELEMENT_ATTRIBUTES`."""
    count = 0
    for element in tree.iter(etree.Element):
        here = len(element.attrib)
        if here > MAX_ELEMENT_ATTRIBUTES:
            raise UnsafeSvg(
                f"an element has {here:,} attributes, more than the {MAX_ELEMENT_ATTRIBUTES} one may have",
                _line(element),
                help=SIMPLER,
            )
        count += here
    if count > MAX_SVG_ATTRIBUTES:
        raise UnsafeSvg(
            f"its elements have more than {MAX_SVG_ATTRIBUTES:,} attributes, the most an SVG picture may have",
            help=SIMPLER,
        )


MAX_SVG_DRAWN = 1_000_000
"""The most elements an SVG may draw, each ``<use>`` counted as all it repeats: usvg (Typst's reader) stops at a
million and the whole PDF with it, and a browser draws each. Ten tags a level, each ``<use>`` of the level below,
draw ten times more a level: 80 tags drew ten million."""

MAX_FILTER_PASSES = 25
"""The most filter steps an SVG may take: each primitive of a filter is a pass over the region of each element it is
given to, each time that element is drawn (a ``<use>`` of it draws it again), counted as a share of a pass over the
default region of an element the size of the picture (:func:`rulebook.svg_filters.filter_weight`: a region larger
than the default counts more, as far as the primitives reach past the picture; a filter on a small element, its
share, a hundredth at least), a blur up to two as it is wide (:func:`rulebook.svg_filters.blur_cost`). A blur took
headless Chromium 0.2 to 0.3 s a pass over a megapixel (software drawing): one filter of 1,000 blurs on one rectangle,
35 KB, held it over 120 s (100: 20 s), and 100 rectangles of that size given one blur each 8.9 s. A wide blur costs
more, and a chain of them more than linearly, as each reaches past the pixels the next needs: on a rectangle of a
megapixel, 24 blurs of ``stdDeviation="50"`` took 40 s (under 50, the limit before), 12 of them 9.4 s, 24 of 8
10.5 s (a machine of 2 cores loaded 5 to 8). So at the limit, about 10 s for a picture of a megapixel filtered whole
(12 wide blurs, 21 of 8: 11 to 22 s in a round where the load made ten of 50 take 9.8 s, 3.7 s quieter), a fraction
of that in a page's column. A drop shadow is five primitives: four elements
the size of the picture may have one, a hundred of a hundredth of it (which cost Chromium nothing it could
measure)."""
_SHARES = 100
"""Filter steps are counted in hundredths: a filter on a small element costs a share of a pass over the picture."""
_MOST_SHARES = MAX_FILTER_PASSES * _SHARES
_NOT_PASSES = frozenset({"feFuncR", "feFuncG", "feFuncB", "feFuncA", "feMergeNode"})
_NOT_PASSES |= {"feDistantLight", "fePointLight", "feSpotLight"}
"""The ``fe`` elements that are parts of a primitive (its channels, inputs, light), not passes of their own."""
_HEAVY_PRIMITIVES = {"feConvolveMatrix": 2}
"""Primitives counted as more than one step: a 5 x 5 kernel is 25 sums a pixel (50 of them on a megapixel took
Chromium 28 s, 50 blurs 15 s)."""
_FILTER_PROPERTY = re.compile(r"filter\s*:([^;}]*)", re.IGNORECASE)
"""The value of CSS's ``filter`` (or ``-webkit-filter``) property, in a ``style`` attribute or a ``<style>``."""
_FILTER_FUNCTION = re.compile(r"(?<![\w-])(?!url\()[a-z-]+\(", re.IGNORECASE)
"""A CSS filter function (``blur(8px)``, ``drop-shadow(...)``); ``url(#f)`` names a filter, counted by its
primitives."""
FUNCTION_PASSES = 5
"""The steps a CSS filter function counts for: unlike a ``<filter>``, whose region is fixed, each function draws
the region grown by the ones before it, so a list of them costs more than linearly (``blur(8px)`` on a rectangle of
a megapixel, in Chromium: 10 of them 1.2 s, 25 6.7 s, 50 40 s, 100 over 120 s)."""


def _check_extent(data: bytes) -> None:
    """Refuse, before it is parsed, an SVG larger than a picture may be: parsed, it takes forty times its size (35 MB
    of ``<rect/>`` took 1.4 GB and 18 s to rebuild, for the lint and again for the site and the PDF)."""
    if len(data) > MAX_SVG_BYTES:
        raise UnsafeSvg(
            f"it is larger than {MAX_SVG_BYTES // 1024 // 1024} MB, the most an SVG picture may be", help=SIMPLER
        )
    if data.count(b"<") > MAX_SVG_TAGS:
        raise UnsafeSvg(f"it has more than {MAX_SVG_TAGS:,} tags, the most an SVG picture may have", help=SIMPLER)


MAX_CSS_READ = 512 * 1024
"""The most CSS of an SVG read whole by tinycss2 (:mod:`rulebook.svg_css`: its ``<style>`` elements, and attributes
that are not plain declarations), which reads a megabyte in 3 to 4 s; the largest of 55,000 real pictures holds 47 KB
(every attribute of theirs plain, read at once)."""


def _check_css_extent(tree: etree._Element) -> None:
    """Refuse, before it is read, a picture holding more CSS to read whole than :data:`MAX_CSS_READ`."""
    total = 0
    for element in tree.iter():
        if element.tag == f"{{{SVG}}}style":
            total += len(_style_text(element))
        total += sum(read_length(str(key), str(value)) for key, value in element.attrib.items() if key in ATTRIBUTES)
        if total > MAX_CSS_READ:
            raise UnsafeSvg(
                f"it holds more than {MAX_CSS_READ // 1024} KB of CSS in `<style>` elements and attributes that are "
                "not plain declarations, the most an SVG picture may hold",
                help=SIMPLER,
            )


def _check_drawn(root: etree._Element) -> None:
    """Refuse a rebuilt SVG that draws more than :data:`MAX_SVG_DRAWN` elements, counting each ``<use>`` as the
    element it repeats, with all that one draws (a ``<use>`` of one of its own ancestors draws nothing, as in a
    browser). Counted once an element, without recursion: a chain of ``<use>`` may be as long as the picture. The
    same walk measures the area each element paints (:class:`rulebook.svg_area.PaintedArea`): a picture painting its
    own area over more than :data:`rulebook.svg_area.MAX_TIMES_PAINTED` times is refused last."""
    named: dict[str, etree._Element] = {}
    for element in root.iter():
        named.setdefault(element.get("id") or "", element)
    styled = _check_styled_repeaters(root, named)
    weights = _gradient_weights(named)
    lettered = {inside for text in root.iter(f"{{{SVG}}}text") for inside in text.iter()}
    drawn: dict[etree._Element, int] = {}
    area = PaintedArea(root, drawn)
    styles = [_style_text(style) for style in root.iter(f"{{{SVG}}}style")]
    strokes = _dashed_strokes(root, styles, area)
    radii = (numbers(value)[:1] for text in styles for value in _CSS_RADIUS.findall(text))
    styled_radius = max((abs(found[0]) for found in radii if found), default=0.0)
    dashes: dict[etree._Element, float] = {}  # the dashes each element draws, with all it draws
    passes: dict[etree._Element, int] = {}  # the filter steps each element takes, with all it draws
    stretches = area.stretches(root)  # what a filter's region and reach are in the picture's lengths
    open_: set[etree._Element] = set()  # on the way down from the root: a reference back to one is a cycle
    references: dict[etree._Element, tuple[list[etree._Element], list[etree._Element]]] = {}  # read on the way down
    stack: list[tuple[etree._Element, bool]] = [(root, False)]
    while stack:
        element, counted = stack.pop()
        if element in drawn:
            continue
        if element not in references:
            references[element] = _used(element, named), _painted(element, named)
        used, painted = references[element]
        parts = [*element, *used]
        if not counted:
            open_.add(element)
            stack.append((element, True))
            stack.extend((part, False) for part in [*parts, *painted] if part not in drawn and part not in open_)
            continue
        open_.discard(element)
        letters = _letters(element) if element in lettered else 0
        drawing = 1 + sum(drawn.get(part, 0) for part in parts) + letters + drawn_weight(element, styles)
        # a paint is inherited: each element drawn here (itself, its children, what it repeats) paints with it;
        # a line's points past its first are drawn as elements are, each time it is drawn, its paint given once
        lines = max(0, _points(element) + area.css_points(element) - 1) + _path_followed(element, named, area)
        paints = 1 + sum(drawn.get(paint, 0) for paint in painted) + _shading(element, weights)
        drawn[element] = min(MAX_SVG_DRAWN + 1, drawing * paints + lines)
        if element.tag in ROUND:
            _check_round(element, area, styled_radius)
        own_dashes = strokes.own(element, letters)
        area.add(element, used, painted, letters, own_dashes, strokes.overlap(element, 2 * area.half_stroke))
        taken = _filter_passes(element, named, area, stretches) + sum(passes.get(part, 0) for part in element)
        taken += sum(
            _restretched(passes[part], area.restretched(element, part, stretches)) for part in used if passes.get(part)
        )
        passes[element] = min(_MOST_SHARES + 1, taken + drawing * sum(passes.get(paint, 0) for paint in painted))
        dashed = own_dashes + sum(dashes.get(part, 0.0) for part in parts)
        dashes[element] = min(MAX_DASHES_DRAWN + 1, dashed + drawing * sum(dashes.get(p, 0.0) for p in painted))
    everywhere = drawn[root] * sum(drawn.get(target, 0) for target in styled)  # a <style> may paint any element
    everywhere += drawn[root] * 2 * max((weights.get(name, 0) for name in _styled_names(root)), default=0)
    context_paint = _context_paint(root, named, drawn, styled)
    marked = _marked(root, drawn, area.marker_points(root)) * (1 + context_paint)
    drawn_in_all = drawn[root] + everywhere + marked
    if drawn_in_all > MAX_SVG_DRAWN:
        raise UnsafeSvg(
            f"it draws more than {MAX_SVG_DRAWN:,} elements (each point of a path or line counted as one; its `<use>` "
            "elements, patterns, masks, clipping paths or filters repeating others, or its markers drawn at every "
            "point of its lines), the most an SVG picture may draw",
            help=SIMPLER,
        )
    given_by_styles = _functions([value for text in styles for value in _FILTER_PROPERTY.findall(text)])
    anywhere = FilterPlace(area.view, None, 1.0)  # given by a <style>: to any element
    styled_passes = sum(_steps(target, anywhere) for target in styled) + given_by_styles
    _check_filter_passes(passes[root] + drawn[root] * styled_passes, root, named, area, stretches)
    _check_selectors(root, styles, drawn[root])
    _check_dashes(root, styles)
    markers = sum(dashes.get(marker, 0.0) for marker in root.iter(f"{{{SVG}}}marker"))
    styled_dashes = drawn[root] * sum(dashes.get(target, 0.0) for target in styled)
    dashes_in_all = dashes[root] + styled_dashes + area.marker_points(root) * markers * (1 + context_paint)
    if dashes_in_all > MAX_DASHES_DRAWN:
        raise UnsafeSvg(
            f"its dashed strokes draw more than {MAX_DASHES_DRAWN:,} dashes (each stroke's length over its dash "
            "pattern, each time it is drawn), the most an SVG picture may draw: a reader's browser draws each dash "
            "in turn",
            help="give the dashes a longer pattern, or " + SIMPLER,
        )
    if area.times_painted(root, styled, context_paint > 0) > MAX_TIMES_PAINTED:
        raise UnsafeSvg(
            f"it paints more than {MAX_TIMES_PAINTED:,} times its own area (each element counted by the area it "
            "covers, each time it is drawn: by a `<use>`, a pattern, a mask or a marker too), the most an SVG "
            "picture may paint: a reader's browser paints each of those pixels in turn",
            help="draw fewer or smaller shapes over each other, or " + SIMPLER,
        )
    if area.rows_crossed(root, styled, drawn_in_all + dashes_in_all) > MAX_ROWS_CROSSED:
        raise UnsafeSvg(
            f"its lines and edges cross more than {MAX_ROWS_CROSSED:,} rows of pixels (each counted by how far it "
            "runs up and down where it is drawn, each time it is drawn), the most an SVG picture may cross: a "
            "reader's browser follows each edge across every row it crosses",
            help="draw fewer or shorter lines, or " + SIMPLER,
        )


def _dashed_strokes(root: etree._Element, styles: list[str], area: PaintedArea) -> DashedStrokes:
    """The dashes of the picture's strokes (:mod:`rulebook.svg_dashes`), or its refusal where a dash's length is not
    told."""
    try:
        return DashedStrokes(root, styles, area.view, math.sqrt(area.glyph))
    except UntoldDashes as untold:
        raise UnsafeSvg(
            f"its `stroke-dasharray` gives dashes as `{untold.args[0][:40]}`, in `%` or `em`, whose length is not told "
            "from the picture alone",
            help="give the dashes as plain numbers, or " + SIMPLER,
        ) from None


_CSS_RADIUS = re.compile(r"(?<![\w-])r[xy]?\s*:([^;}]*)", re.IGNORECASE)
"""A radius CSS gives (``r: 400``), over what the attribute says."""
MAX_ROUND_RATIO = 1_000_000
"""The most times a circle's or an ellipse's radius may be its stroke's width (the picture's widest): a browser
builds the whole of such a stroke before it cuts it to the picture (ten circles of a radius of 10^30 stroked 3 wide,
927 bytes, took headless Chromium 8 s, a hundred 53 s); a radius of a million is drawn at once."""


def _check_round(element: etree._Element, area: PaintedArea, styled: float) -> None:
    """Refuse a circle or an ellipse far larger than its stroke is wide (:data:`MAX_ROUND_RATIO`); ``styled``: the
    largest radius a ``<style>`` gives."""
    radii = [numbers(str(element.get(key) or "")) for key in ("r", "rx", "ry")]
    radii += [numbers(value) for value in _CSS_RADIUS.findall(str(element.get("style") or ""))]
    largest = max([styled, *(abs(value) for found in radii for value in found[:1])])
    if largest > MAX_ROUND_RATIO * max(1.0, 2 * area.half_stroke):
        raise UnsafeSvg(
            f"it draws a circle or an ellipse of a radius of {largest:.3g}, more than {MAX_ROUND_RATIO:,} times the "
            "width of its stroke: a reader's browser builds the whole stroke before it cuts it to the picture",
            help="draw a smaller circle, or a path of the part shown, or " + SIMPLER,
        )


_POINTED = {f"{{{SVG}}}path": "d", f"{{{SVG}}}polyline": "points", f"{{{SVG}}}polygon": "points"}
"""The shapes drawn through a list of points, and the attribute holding it."""


def _points(element: etree._Element) -> int:
    """The points a path, polyline or polygon draws its lines through (0 for another element). A browser's work for a
    shape grows with its points, which its area does not tell: a path of 100,000 points across a picture of a
    megapixel, 740 KB, took headless Chromium 0.3 s each time it was drawn, so a thousand ``<use>`` of it (761 KB, a
    thousand elements) held it past 200 s."""
    attribute = _POINTED.get(element.tag)
    return point_count(element.get(attribute) or "") if attribute else 0


def _path_followed(element: etree._Element, named: dict[str, etree._Element], area: PaintedArea) -> int:
    """The points of the path a ``<textPath>`` lays its letters along (its ``href``, or SVG 2's ``path``, which the
    copy leaves out), counted as a shape's are, each time it is drawn: a browser walks the whole path for each
    ``<textPath>`` drawn, a ``<use>``'s copies too (a path of 2,000 points followed by one letter, drawn 100,000 times
    by five levels of ten ``<use>``, 21 KB, counted as 100,000 elements, held headless Chromium 41 to 44 s; 1,000
    ``<textPath>`` on a path of 100,000 points, 9.3 s); 0 for another element."""
    if element.tag != _TEXT_PATH:
        return 0
    inline = element.get("path")
    if inline is not None:
        return point_count(inline)
    address = _IGNORED.sub("", element.get("href") or element.get(f"{{{XLINK}}}href") or "")
    followed = named.get(address[1:]) if address.startswith("#") and len(address) > 1 else None
    return 0 if followed is None else _points(followed) + area.css_points(followed)


_TEXT_PATH = f"{{{SVG}}}textPath"


MAX_SELECTOR_MATCHES = 20_000_000
"""The most times a browser may try a selector of an SVG's ``<style>`` on an element: a rule that no id, class or tag
sorts out is tried on every element drawn (a ``<use>``'s copies too: 10,000 rules ``*:not(#a1)`` over 10,000
rectangles, 569 KB, took headless Chromium 18.7 s), and one that does, on each element bearing its id, class or tag
(the browser keeps rules by the id, else the class, else the tag of what they select: an editor's rule a class,
thousands of them, costs a rule an element); at the limit, about 4 s."""
_SELECTS_AMONG_OTHERS = re.compile(r":has\(")
"""``:has()``, which a browser matches for each element against the others (two rules over 20,000 rectangles, 430
bytes of CSS, took Chromium 15 s, growing with the square); no editor writes it in a picture."""
_PRELUDE = re.compile(r"(?<![^{}])([^{}]*+)\{")
"""What a rule's ``{`` follows, read only from a brace or the start (from each letter, 80,000 letters took 49 s)."""
_PARENTHESIS = re.compile(r"([()])")
_COMBINATOR = re.compile(r"[\s>+~]+")
_KEY = re.compile(r"#[\w-]+|\.[\w-]+|\A[a-z][\w-]*")


def _check_selectors(root: etree._Element, styles: list[str], drawn: int) -> None:
    """Refuse a picture whose ``<style>`` costs a browser more than drawing it: ``:has()``, or more selectors tried
    on each element (those no id, class or tag sorts out, and the most any one id, class or tag sorts out, once for
    each it may bear) times elements drawn than :data:`MAX_SELECTOR_MATCHES`."""
    texts = [_IGNORED.sub(" ", text).lower() for text in styles]
    if any(_SELECTS_AMONG_OTHERS.search(text) for text in texts):
        raise UnsafeSvg(
            "its `<style>` selects with `:has()`, which a reader's browser matches for every element against the "
            "others",
            help="give the elements a class, or " + SIMPLER,
        )
    keyed: dict[str, int] = {}
    unkeyed = 0
    for prelude in (found for text in texts for found in _PRELUDE.findall(text)):
        for selector in prelude.split(","):
            key = _key_of(selector)
            if key is None:
                unkeyed += 1
            else:
                keyed[key] = keyed.get(key, 0) + 1
    if not keyed and not unkeyed:
        return
    keys = 2 + max((len((element.get("class") or "").split()) for element in root.iter()), default=0)
    tried = unkeyed + keys * max(keyed.values(), default=0)
    if tried * drawn > MAX_SELECTOR_MATCHES:
        raise UnsafeSvg(
            f"its `<style>` has {tried:,} selectors a reader's browser tries on each of its {drawn:,} elements drawn, "
            f"more than it may try ({MAX_SELECTOR_MATCHES:,}: selectors sorted out by no class, id or tag are tried "
            "on every element)",
            help="give fewer rules, each to a class, or " + SIMPLER,
        )


def _key_of(selector: str) -> str | None:
    """The id, else the class, else the tag a browser keeps ``selector``'s rule by (what its last part selects);
    None where it is tried on every element (``*``, ``:not(...)``, ``[x]``)."""
    outside, depth = [], 0
    for piece in _PARENTHESIS.split(selector):  # what no parentheses hold, read once
        depth += 1 if piece == "(" else -1 if piece == ")" and depth else 0
        outside += [piece] if depth == 0 and piece not in "()" else []
    parts = [part for part in _COMBINATOR.split("".join(outside).strip()) if part]
    if not parts:
        return None
    keys: list[str] = _KEY.findall(parts[-1])
    for mark in ("#", "."):
        if any(key.startswith(mark) for key in keys):
            return next(key for key in keys if key.startswith(mark))
    return keys[0] if keys else None


MAX_DASHES = 64
"""The most numbers a ``stroke-dasharray`` may list: a browser reads the whole list again for each element it
strokes (100,000 numbers given by a ``<style>`` to 20,000 rectangles of one pixel, 600 KB, held headless Chromium
55 s); an editor writes two to six."""
_DASHES = re.compile(r"(?<![\w-])stroke-dasharray\s*:([^;}]*)", re.IGNORECASE)
"""A dash list in CSS."""


def _check_dashes(root: etree._Element, styles: list[str]) -> None:
    """Refuse a dash list of more than :data:`MAX_DASHES` numbers, in an attribute, a ``style`` or a ``<style>``."""
    lists = [str(element.get("stroke-dasharray") or "") for element in root.iter()]
    css = [*styles, *(str(element.get("style") or "") for element in root.iter())]
    lists += [value for text in css for value in _DASHES.findall(text)]
    longest = max((len(numbers(text)) for text in lists), default=0)
    if longest > MAX_DASHES:
        raise UnsafeSvg(
            f"it lists more than {MAX_DASHES} dashes in a `stroke-dasharray`, which a reader's browser reads again "
            "for each element it strokes",
            help="give a shorter pattern of dashes, or " + SIMPLER,
        )


def _filter_passes(
    element: etree._Element,
    named: dict[str, etree._Element],
    area: PaintedArea,
    stretches: dict[etree._Element, float],
) -> int:
    """The filter steps ``element`` takes itself: those of the filters its ``filter`` attribute or the ``filter``
    property of its ``style`` gives it (CSS reads the property's name in any case), each weighed where it is given
    (:func:`_place`), and their CSS filter functions."""
    given = _filter_values(element)
    filters = _filters(given, named)
    place = _place(element, area, stretches) if filters else None
    return sum(_steps(found, place) for found in filters if place is not None) + _functions(given)


def _place(element: etree._Element, area: PaintedArea, stretches: dict[etree._Element, float]) -> FilterPlace:
    """Where a filter given to ``element`` (measured by ``area``) is: the box of what it draws, its user space's
    stretch on the picture (:meth:`rulebook.svg_area.PaintedArea.stretches`)."""
    return FilterPlace(area.view, area.drawn_box(element), stretches.get(element, math.inf))


def _filter_values(element: etree._Element) -> list[str]:
    """The values ``element``'s ``filter`` attribute and the ``filter`` property of its ``style`` give."""
    return [element.get("filter") or "", *_FILTER_PROPERTY.findall(element.get("style") or "")]


def _filters(given: list[str], named: dict[str, etree._Element]) -> list[etree._Element]:
    """The elements of the picture the ``filter`` values ``given`` name (a filter, or another element: no steps)."""
    return [named[name] for text in given for name in PAINT_REFERENCE.findall(text) if name in named]


def _functions(values: list[str]) -> int:
    """The steps of the CSS filter functions in ``filter`` values (:data:`FUNCTION_PASSES` each), in shares."""
    return FUNCTION_PASSES * _SHARES * sum(len(_FILTER_FUNCTION.findall(value)) for value in values)


def _steps(element: etree._Element, place: FilterPlace) -> int:
    """The steps a filter counts for, in shares, each time it is given: its primitives (a blur by how wide it is,
    :func:`rulebook.svg_filters.blur_cost`), each weighed by what its region makes it cost where it is given
    (:func:`rulebook.svg_filters.filter_weight`); none for another element."""
    costs = [
        _HEAVY_PRIMITIVES.get(name, 1) * blur_cost(primitive, place) * octave_cost(primitive)
        for primitive, name in _passes(element)
    ]
    return math.ceil(sum(costs) * _SHARES * min(filter_weight(element, place), _MOST_SHARES)) if costs else 0


def _restretched(steps: int, more: float) -> int:
    """The filter ``steps`` of an element drawn again where its area is ``more`` times as large (a ``<use>``
    scaling it): its regions and reach grow with it (counted up to the limit)."""
    return math.ceil(steps * min(more, _MOST_SHARES + 1)) if steps else 0


def _primitives(element: etree._Element) -> float:
    """The passes a filter makes over what it is given: its primitives, a turbulence one an octave (none for another
    element)."""
    return sum(_HEAVY_PRIMITIVES.get(name, 1) * octave_cost(primitive) for primitive, name in _passes(element))


def _passes(element: etree._Element) -> list[tuple[etree._Element, str]]:
    """The primitives of a filter, each with its name (none for another element)."""
    if element.tag != f"{{{SVG}}}filter":
        return []
    named = ((child, etree.QName(child).localname) for child in element.iter() if isinstance(child.tag, str))
    return [(child, name) for child, name in named if name.startswith("fe") and name not in _NOT_PASSES]


_NAMED_WEIGHT = 1.5
"""How many passes a primitive of a filter must count for to name its region as the reason."""


def _check_filter_passes(
    passes: int,
    root: etree._Element,
    named: dict[str, etree._Element],
    area: PaintedArea,
    stretches: dict[etree._Element, float],
) -> None:
    """Refuse a picture whose filters take more than :data:`MAX_FILTER_PASSES` steps; where a filter's region
    weighs more than one step a primitive, name the heaviest (its region is what to make smaller)."""
    if passes <= _MOST_SHARES:
        return
    weight, heaviest, place = 1.0, None, None
    for found, at in _given_filters(root, named, area, stretches):
        if _primitives(found) and filter_weight(found, at) > weight:
            weight, heaviest, place = filter_weight(found, at), found, at
    region = ""
    if heaviest is not None and place is not None and weight >= _NAMED_WEIGHT:
        name = f"`{heaviest.get('id')}`"
        times = filter_region(heaviest, place)
        told = f"{times:,.{0 if times >= 100 else 1}f} times" if math.isfinite(times) else "an untold number of times"
        counted = f"{weight:,.0f}" if weight <= MAX_FILTER_PASSES else f"more than {MAX_FILTER_PASSES}"
        region = (
            f"; its filter {name}'s region is {told} the default one of an element the size of the picture, so each "
            f"of its steps counts as {counted}"
        )
    given = "give the filter a smaller region (its `x`, `y`, `width` and `height`), or " if region else ""
    if not region:
        region, given = _wide_blur(root, named, area, stretches)
    raise UnsafeSvg(
        f"its filters take more than {MAX_FILTER_PASSES} steps (each primitive of a filter, for each element "
        "given that filter, each time it is drawn), the most an SVG picture may take: each is a pass over every "
        f"pixel of the element in a reader's browser{region}",
        help=given + SIMPLER,
    )


def _wide_blur(
    root: etree._Element,
    named: dict[str, etree._Element],
    area: PaintedArea,
    stretches: dict[etree._Element, float],
) -> tuple[str, str]:
    """What to say of the first blur of a filter the picture gives that counts as more than one step and a half (a
    wide one), or else of its first turbulence of more than one octave, and what to do; nothing where there is
    none."""
    for found, at in _given_filters(root, named, area, stretches):
        for primitive, _ in _passes(found):
            if blur_cost(primitive, at) >= _NAMED_WEIGHT:
                wide = str(primitive.get("stdDeviation") or "")[:30]
                return (
                    f'; a blur of its filter `{found.get("id")}` is wide (`stdDeviation="{wide}"`), so it counts as '
                    f"{blur_cost(primitive, at):,.1f} steps",
                    "give the filter narrower blurs, or ",
                )
    for found, _ in _given_filters(root, named, area, stretches):
        for primitive, _ in _passes(found):
            if octave_cost(primitive) >= _NAMED_WEIGHT:
                octaves = str(primitive.get("numOctaves") or "")[:30]
                return (
                    f'; a turbulence of its filter `{found.get("id")}` has `numOctaves="{octaves}"`, so it counts as '
                    f"{octave_cost(primitive):,.0f} steps (a pass an octave)",
                    "give the turbulence fewer octaves, or fewer turbulences, or ",
                )
    return "", ""


def _given_filters(
    root: etree._Element,
    named: dict[str, etree._Element],
    area: PaintedArea,
    stretches: dict[etree._Element, float],
) -> Iterator[tuple[etree._Element, FilterPlace]]:
    """Each filter an element of the picture is given in its own attribute or ``style``, with where it is given."""
    for element in root.iter():
        if element.get("filter") or element.get("style"):
            for found in _filters(_filter_values(element), named):
                yield found, _place(element, area, stretches)


def _letters(element: etree._Element) -> int:
    """The characters a text element draws itself (each a glyph, painted as a shape is: 30,000 letters given a
    pattern of 10,000 rectangles, 310 KB, held Typst, and the build, past 120 s)."""
    return len(element.text or "") + sum(len(child.tail or "") for child in element)


def _marked(root: etree._Element, drawn: dict[etree._Element, int], points: float) -> int:
    """How many elements the picture's markers may draw: every marker at every point of every shape that can carry
    one, each time the shape is drawn (``points``: a ``<use>`` of a line draws its markers again; four levels of ten
    ``<use>`` of a line of 1,000 points carrying a marker of ten rectangles, 6 KB, held Chromium past 300 s, counted
    as 11,000 elements) (a ``<style>`` can give markers to shapes by their tag, so which shapes carry which is not
    told apart: the count is the most it may be). A marker holding such a shape may draw markers in turn: refused,
    as a marker given by a ``<style>`` (one level of ten thousand rectangles drawn at 50,000 points took Typst
    16 GB)."""
    markers = list(root.iter(f"{{{SVG}}}marker"))  # of the rebuilt picture: no line of the file to name
    if not markers:
        return 0
    for marker in markers:
        if any(True for element in marker.iter() if element.tag in MARKED):
            if any(_gives_markers(element) for element in root.iter()):
                raise UnsafeSvg(
                    "a marker of it draws a line that may carry markers in turn (markers given in a `<style>` or "
                    "inside a marker)",
                    help=SIMPLER,
                )
            break
    return int(min(MAX_SVG_DRAWN + 1, points * sum(drawn.get(marker, 1) for marker in markers)))


def _context_paint(
    root: etree._Element,
    named: dict[str, etree._Element],
    drawn: dict[etree._Element, int],
    styled: list[etree._Element],
) -> int:
    """What a marker's ``context-fill`` or ``context-stroke`` may paint with at each of its points: the line's own
    paint, taken as the costliest pattern, mask, clipping path or filter any element is painted with (ten rectangles
    of a marker at 3,000 points, painted with the line's pattern of 2,000 rectangles, 73 KB, took Typst past 6 GB,
    where it aborted the build); 0 if no marker takes its line's paint."""
    styles = (style.text or "" for style in root.iter(f"{{{SVG}}}style"))
    markers = (str(value) for marker in root.iter(f"{{{SVG}}}marker") for e in marker.iter() for value in e.values())
    if not any("context-" in text.lower() for text in (*styles, *markers)):  # CSS reads keywords in any case
        return 0
    paints = [*styled, *(paint for element in root.iter() for paint in _painted(element, named))]
    return max((drawn.get(paint, 0) for paint in paints), default=0)


def _gives_markers(element: etree._Element) -> bool:
    """Whether markers are given in ``element``'s CSS (a ``<style>``) or, inside a marker, by its attributes."""
    if element.tag == f"{{{SVG}}}style":
        return "marker" in (element.text or "").lower()
    inside = any(parent.tag == f"{{{SVG}}}marker" for parent in element.iterancestors())
    return inside and any("marker" in f"{key!s} {value!s}".lower() for key, value in element.attrib.items())


_REPEATERS = frozenset(f"{{{SVG}}}{name}" for name in ("pattern", "mask", "clipPath", "filter"))
"""What an element refers to with ``url(#id)`` whose drawing is drawn again for it (a marker is counted apart)."""


_GRADIENTS = frozenset(f"{{{SVG}}}{name}" for name in ("linearGradient", "radialGradient"))
STOPS_AN_ELEMENT = 4
"""The stops of a gradient counted as one element drawn, each time an element is painted with it: a browser makes the
gradient again for each element it paints, and looks each pixel's colour up among its stops (a gradient of 90,000
stops, 4 MB, given to a thousand rectangles of one pixel took headless Chromium 23 s, to a hundred the size of the
picture 18 s, against 2.6 s with two stops): at the limit, 44 such drawings, 1 to 7 s. A gradient of fewer stops is
painted as a flat colour is."""


def _gradient_weights(named: dict[str, etree._Element]) -> dict[str, int]:
    """The elements each gradient counts as (:data:`STOPS_AN_ELEMENT`), by its id: its own stops, or, where it has
    none, those of the gradient its ``href`` names, which a browser takes then (each chain followed once)."""
    weights: dict[str, int] = {}
    stops_of: dict[etree._Element, int] = {}
    for gradient in named.values():
        chain: list[etree._Element] = []
        current: etree._Element | None = gradient
        stops = 0
        while current is not None and current.tag in _GRADIENTS and current not in chain:
            if current in stops_of:
                stops = stops_of[current]
                break
            chain.append(current)
            stops = sum(1 for child in current if child.tag == f"{{{SVG}}}stop")
            if stops:
                break
            address = _IGNORED.sub("", current.get("href") or current.get(f"{{{XLINK}}}href") or "")
            current = named.get(address[1:]) if address.startswith("#") else None
        stops_of.update((link, stops) for link in chain)
    for name, element in named.items():
        if element in stops_of:
            weights[name] = stops_of[element] // STOPS_AN_ELEMENT
    return weights


def _shading(element: etree._Element, weights: dict[str, int]) -> int:
    """The elements the gradients ``element`` gives in an attribute every element it draws inherits count as."""
    return sum(
        weights.get(name, 0)
        for key, value in element.attrib.items()
        if etree.QName(key).localname in _INHERITED
        for name in PAINT_REFERENCE.findall(str(value))
    )


def _styled_names(root: etree._Element) -> list[str]:
    """The elements of the picture its ``<style>`` elements refer to with ``url(#id)``."""
    return PAINT_REFERENCE.findall(" ".join(style.text or "" for style in root.iter(f"{{{SVG}}}style")))


_INHERITED = frozenset({"fill", "stroke", "style"})
"""The attributes whose patterns every element inside is painted with (``fill`` and ``stroke`` are inherited; a
``style`` is taken to give them)."""


def _used(element: etree._Element, named: dict[str, etree._Element]) -> list[etree._Element]:
    """What ``element`` draws besides its children: the element a ``<use>`` or an ``<feImage>`` repeats, or whose
    drawing a ``<pattern>`` or ``<filter>`` takes as its own (``href="#id"``), and the masks, clipping paths and
    filters it refers to in an attribute not inherited (``mask="url(#m)"``), if the picture holds them."""
    used: list[etree._Element] = []
    if etree.QName(element).localname in ("use", "feImage", "pattern", "filter"):
        address = element.get("href") or element.get(f"{{{XLINK}}}href") or ""
        repeated = named.get(_IGNORED.sub("", address)[1:]) if address.strip().startswith("#") else None
        used += [repeated] if repeated is not None and address.strip()[1:] else []
    return used + _referred(element, named, inherited=False)


def _painted(element: etree._Element, named: dict[str, etree._Element]) -> list[etree._Element]:
    """The patterns, masks, clipping paths and filters ``element`` gives in an attribute every element it draws
    inherits (``fill="url(#p)"``, ``style="fill: url(#p)"``): a group of ten rectangles given a pattern draws it ten
    times (seven levels of such groups held Typst, and the build, over two minutes)."""
    return _referred(element, named, inherited=True)


def _referred(element: etree._Element, named: dict[str, etree._Element], *, inherited: bool) -> list[etree._Element]:
    referred: list[etree._Element] = []
    for key, value in element.attrib.items():
        if (etree.QName(key).localname in _INHERITED) == inherited:
            for name in PAINT_REFERENCE.findall(str(value)):
                target = named.get(name)
                referred += [target] if target is not None and target.tag in _REPEATERS else []
    return referred


def _check_styled_repeaters(root: etree._Element, named: dict[str, etree._Element]) -> list[etree._Element]:
    """The patterns, masks, clipping paths and filters a ``<style>`` gives, any element of the picture may draw (one
    pattern of 20,000 circles given to 20,000 rectangles held Typst over two); refused where there are two
    or more: the drawing of one, given another, repeats it at each of its elements (eight levels of patterns held
    Typst, and the build, without end; seven of masks took 14.8 GB), and which elements a rule reaches is not told
    apart here."""
    repeaters = sum(1 for element in root.iter() if element.tag in _REPEATERS)
    styles = " ".join(style.text or "" for style in root.iter(f"{{{SVG}}}style"))
    styled = [n for n in PAINT_REFERENCE.findall(styles) if getattr(named.get(n), "tag", None) in _REPEATERS]
    if repeaters >= 2 and styled:
        raise UnsafeSvg(
            f"its `<style>` refers to `{styled[0]}`, a {etree.QName(named[styled[0]]).localname} whose drawing may "
            "refer to another in turn",
            help="give it in the element's own attribute, or " + SIMPLER,
        )
    return [named[name] for name in dict.fromkeys(styled)]


def _line(node: etree._Element) -> int | None:
    """Where ``node`` starts in the picture (lxml's stubs leave ``sourceline`` untyped)."""
    line = node.sourceline
    return line if isinstance(line, int) else None


def _namespace(element: etree._Element) -> str:
    namespace = etree.QName(element).namespace
    return f"in the namespace `{namespace}`" if namespace else "in no namespace"


def _copy_children(source: etree._Element, copy: etree._Element) -> None:
    """The children of ``source`` that the allow-list keeps, into ``copy``; the text of the others' tails kept."""
    last: etree._Element | None = None
    for child in source:
        kept = _kept(child)
        if kept is None:
            if child.tail:  # the text after a left-out element stays where it was
                if last is None:
                    copy.text = (copy.text or "") + child.tail
                else:
                    last.tail = (last.tail or "") + child.tail
            continue
        element = etree.SubElement(copy, kept, _attributes(child))
        element.text, element.tail = child.text, child.tail
        if kept == f"{{{SVG}}}style":
            element.text = _kept_css(kept_style, _style_text(child), child)
            _check_families(css_too_many_families(element.text), _line(child))  # the kept rules (svg_fonts)
        else:
            _copy_children(child, element)
        last = element


def _style_text(style: etree._Element) -> str:
    """The CSS of a ``<style>``: its text and the text after each node in it, as the browser joins them, and as
    the copy holds it, nothing else (a comment, an instruction or an element inside must not hide a part of
    ``@im<!-- -->port`` from the check, nor be put back around it)."""
    return (style.text or "") + "".join(node.tail or "" for node in style)


def _kept(node: etree._Element) -> str | None:
    """The tag ``node`` keeps in the copy, or None if it is left out; :class:`UnsafeSvg` if it could act."""
    if isinstance(node, etree._Entity):
        raise UnsafeSvg(f"it refers to the entity `&{node.name};`", _line(node))
    if not isinstance(node.tag, str):  # a comment or a processing instruction
        return None
    name = etree.QName(node)
    if name.namespace == XHTML:
        raise UnsafeSvg(f"it holds HTML (`<{name.localname}>`)", _line(node))
    if name.namespace != SVG:
        return None  # an editor's metadata, or an element no browser draws
    if name.localname in ACTIVE:
        raise UnsafeSvg(f"it holds {ACTIVE[name.localname]}", _line(node))
    if name.localname in COSTLY:
        raise UnsafeSvg(f"it holds {COSTLY[name.localname]}", _line(node), help=SIMPLER)
    return node.tag if name.localname in ELEMENTS else None


def _attributes(element: etree._Element) -> dict[str, str]:
    """The attributes of ``element`` the allow-list keeps; :class:`UnsafeSvg` at one that could act."""
    kept: dict[str, str] = {}
    for key, value in ((str(k), str(v)) for k, v in element.attrib.items()):
        name = etree.QName(key)
        if name.localname.lower().startswith("on"):
            raise UnsafeSvg(f"it has an event attribute (`{name.localname}`)", _line(element))
        if name.localname == "href" and name.namespace in (None, XLINK):
            _check_reference(value, element)
        elif name.namespace == XML and name.localname in ("space", "lang"):
            pass
        elif name.namespace is not None or name.localname not in ATTRIBUTES:
            continue
        elif name.localname == "style":
            value = _kept_css(kept_declarations, value, element)
            _check_families(css_too_many_families(value), _line(element))  # the kept declarations (svg_fonts)
        else:
            value = _kept_css(partial(_checked_attribute, name.localname), value, element)
            _check_families(too_many_families(name.localname, value), _line(element))
            _check_filter_work(element, name.localname, value)
        kept[key] = value
    return kept


def _check_families(refused: str | None, line: int | None) -> None:
    """Refuse a ``font-family`` list too long (:mod:`rulebook.svg_fonts`), at ``line``."""
    if refused is not None:
        raise UnsafeSvg(refused, line, help="name a few families, the last a generic one (`sans-serif`), or " + SIMPLER)


def _check_filter_work(element: etree._Element, key: str, value: str) -> None:
    """Refuse a filter's octaves or kernel past what a reader's browser and Typst can draw in time (each is work on
    every pixel): :data:`MAX_OCTAVES`, :data:`MAX_KERNEL_ORDER`."""
    limits = {("feTurbulence", "numOctaves"): MAX_OCTAVES, ("feConvolveMatrix", "order"): MAX_KERNEL_ORDER}
    limit = limits.get((etree.QName(element).localname, key))
    if limit is None:
        return
    numbers = re.findall(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?", value)
    if any(float(number) > limit for number in numbers):
        raise UnsafeSvg(
            f'its filter asks for `{key}="{value[:30]}"`, more than {limit}, the most a picture may ask for',
            _line(element),
            help=SIMPLER,
        )


def _check_reference(value: str, element: etree._Element) -> None:
    """A link or a picture's address must stay inside the picture (``#id``), or carry a raster picture."""
    address = _IGNORED.sub("", value)
    if address.startswith("#") and etree.QName(element).localname == "image":  # this very file, drawn again
        raise UnsafeSvg(
            f"an `<image>` shows `{address[:40]}`, which a reader's browser reads as this picture's own file, drawn "
            "again inside itself (an `<image>` shows a raster picture it carries; `<use>` repeats an element)",
            _line(element),
            help="repeat the element with `<use>`, or " + SIMPLER,
        )
    if address.startswith("#"):
        return
    if etree.QName(element).localname in ("image", "feImage") and _RASTER_DATA.match(value.strip()):
        head = _embedded_head(value)
        if not any(reads(head) for reads in SIGNATURES.values()):  # a browser decodes it by its bytes: a BMP too
            raise UnsafeSvg(
                "a picture it carries is no PNG, JPEG, GIF, WebP or AVIF picture, whatever its address says (a "
                "reader's browser reads its bytes, and decodes other types, which no count here reads)",
                _line(element),
                help="carry it as a PNG, or " + SIMPLER,
            )
        refused = size_refusal_of_any(head, lambda: _embedded_head(value, whole=True))
        if refused is not None:
            raise UnsafeSvg(f"a picture it carries is refused: {refused}", _line(element))
        return
    shown = address if len(address) <= 60 else address[:59] + "…"
    raise UnsafeSvg(f"it refers to `{shown}`, outside the picture", _line(element))


MAX_CARRIED_PIXELS = 4 * MAX_PIXELS
"""The most pixels the raster pictures an SVG carries may decode to, all together (each distinct one once, its
frames and scans each): a browser decodes each whole, however small it is shown, and each passed its own limit
(thirty one-bit PNGs of 8,000 x 8,000, 22 KB each, held headless Chromium 12 s, a hundred past 200 s); four of the
largest a picture may be, about 1.6 s."""


def _check_carried(root: etree._Element) -> None:
    """Refuse a picture whose raster pictures decode to more than :data:`MAX_CARRIED_PIXELS` together."""
    addresses = {
        value.strip()
        for element in root.iter(f"{{{SVG}}}image", f"{{{SVG}}}feImage")
        for value in (element.get("href"), element.get(f"{{{XLINK}}}href"))
        if value and _RASTER_DATA.match(value.strip())
    }
    total = 0
    for address in addresses:
        total += decoded_pixels(_embedded_head(address, whole=True))
        if total > MAX_CARRIED_PIXELS:
            raise UnsafeSvg(
                f"the raster pictures it carries decode to more than {MAX_CARRIED_PIXELS:,} pixels together (each "
                "frame and scan counted), which a reader's browser decodes whole, however small they are shown",
                help="carry fewer or smaller pictures, or " + SIMPLER,
            )


def _embedded_head(address: str, *, whole: bool = False) -> bytes:
    """The first bytes (:data:`rulebook.picture_size.SIZE_BYTES`), or all (``whole``), of the raster picture a
    checked ``data:`` address carries."""
    encoded = re.sub(r"\s", "", address.partition(",")[2])
    encoded = encoded if whole else encoded[: -(-SIZE_BYTES // 3) * 4]  # a few bytes more than SIZE_BYTES
    try:
        return base64.b64decode(encoded[: len(encoded) // 4 * 4], validate=False)
    except ValueError:  # padding in the middle: no picture a browser decodes
        return b""


def _checked_attribute(name: str, css: str) -> str:
    """An attribute's value (``css``, without comments), as :func:`rulebook.svg_css.check_attribute` lets it be."""
    check_attribute(name, css)
    return css


def _kept_css(keep: Callable[[str], str], css: str, element: etree._Element) -> str:
    """What the copy keeps of ``css`` (``element``'s, read without comments by ``keep``, a reader of
    :mod:`rulebook.svg_css`); :class:`UnsafeSvg` where it is refused."""
    try:
        return keep(without_comments(css))
    except RefusedCss as refused:
        raise UnsafeSvg(refused.reason, _line(element), help=refused.help) from None
