"""An SVG picture's CSS read as a browser reads it, and kept by an allow-list of properties.

A ``style`` attribute's declarations and a ``<style>``'s rules are read by tinycss2, which reads CSS as CSS Syntax
Level 3 tells browsers to: comments, escapes (``\\66 ilter`` is ``filter``), ``!important``, at-rules and nested
rules. A declaration is kept where its property is on :data:`PROPERTIES` (SVG's presentation properties, text's and
fonts', and the few others editors write that cost nothing uncounted) and left out otherwise, as an element or an
attribute the allow-list does not know is: an editor's own property (``-inkscape-font-specification``) changes
nothing a reader sees, and one whose cost no count reads (``text-shadow``, ``mask-image``, ``animation``, a custom
property ``--x``, every ``-webkit-`` spelling) never reaches a reader's browser. Of the at-rules only ``@media`` and
``@supports`` are kept, their rules read as any; the others are left out whole (``@keyframes``, ``@font-face``...).

What reaches out of the picture is refused wherever it stands, kept or not: ``@import`` and an address that is not an
``#id`` of the picture. A value of a kept property may use only the functions the picture's counts read
(:data:`COLOURS`, and those of :data:`FUNCTIONS`), and ``url(#id)`` only where it names an element
(:data:`ELEMENT_ADDRESSES`); anything else (a CSS gradient, a clipping shape, ``var()``) is refused, as a presentation
attribute's value is.

CSS kept whole is published as written (without its comments); CSS with anything left out, or an escape, is published
as tinycss2 writes what was kept, which has neither, so every count of the picture reads each property by its name.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import lru_cache

import tinycss2
from tinycss2 import ast
from tinycss2.serializer import serialize_identifier

PRESENTATION = frozenset(
    {
        *("alignment-baseline", "baseline-shift", "clip", "clip-path", "clip-rule", "color"),
        *("color-interpolation", "color-interpolation-filters", "color-rendering", "direction", "display"),
        *("dominant-baseline", "fill", "fill-opacity", "fill-rule", "filter", "flood-color", "flood-opacity"),
        *("font", "font-family", "font-size", "font-size-adjust", "font-stretch", "font-style", "font-variant"),
        *("font-weight", "image-rendering", "isolation", "kerning", "letter-spacing", "lighting-color"),
        *("marker", "marker-end", "marker-mid", "marker-start", "mask", "mix-blend-mode", "opacity"),
        *("overflow", "paint-order", "shape-rendering", "stop-color", "stop-opacity", "stroke"),
        *("stroke-dasharray", "stroke-dashoffset", "stroke-linecap", "stroke-linejoin", "stroke-miterlimit"),
        *("stroke-opacity", "stroke-width", "text-anchor", "text-decoration", "text-rendering"),
        *("transform-origin", "unicode-bidi", "vector-effect", "visibility", "word-spacing", "writing-mode"),
    }
)
"""SVG's presentation attributes, each also the CSS property of its name."""

GEOMETRY = frozenset({"x", "y", "cx", "cy", "r", "rx", "ry", "width", "height", "d", "transform"})
"""The attributes of a shape's geometry and place that SVG 2 makes properties too (``r: 400``), which the counts read
as overriding the attribute (:data:`rulebook.svg_area.CSS_GEOMETRY`, :data:`rulebook.svg_area.CSS_MOVES`)."""

PROPERTIES = (
    PRESENTATION
    | GEOMETRY
    | {
        *("font-feature-settings", "font-kerning", "font-variant-alternates", "font-variant-caps"),
        *("font-variant-east-asian", "font-variant-ligatures", "font-variant-numeric", "font-variant-position"),
        *("font-variation-settings", "line-height", "text-align", "text-indent", "text-transform"),
        *("text-orientation", "text-decoration-line", "text-decoration-style", "text-decoration-color"),
        *("white-space", "inline-size", "shape-inside", "shape-subtract", "shape-padding", "shape-margin"),
        *("enable-background", "solid-color", "solid-opacity", "mask-type", "background-color"),
    }
)
"""The CSS properties kept: SVG's presentation properties and geometry, the properties of fonts and text an editor
writes on SVG text (Inkscape's flowed text: ``inline-size``, ``shape-inside``...), and five more that cost nothing a
count does not read: ``enable-background`` (SVG 1.1's, no browser reads it), ``solid-color`` and ``solid-opacity``
(SVG 1.2's flat paint, which Inkscape writes), ``mask-type`` (a ``<mask>`` read by its light or by its alpha),
``background-color`` (a colour under the whole picture, painted once: only the outermost ``<svg>`` has a box). Every
one of these is written by the real pictures measured (55,000 SVGs: icon themes, Inkscape's own files, Open Clip Art,
card decks, npm's icon sets), or is the sibling of one that is."""

COLOURS = frozenset({"rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "color"})
"""The functions of a colour, which any kept property may use."""
FUNCTIONS = {
    "filter": frozenset(
        {"blur", "brightness", "contrast", "drop-shadow", "grayscale", "hue-rotate", "invert", "opacity"}
        | {"saturate", "sepia"}
    ),
    "transform": frozenset(
        {"matrix", "translate", "translatex", "translatey", "scale", "scalex", "scaley", "rotate", "skew"}
        | {"skewx", "skewy"}
    ),
    "d": frozenset({"path"}),
    "clip": frozenset({"rect"}),
}
"""The other functions a property's value may use, each counted: a filter's (as
:data:`rulebook.svg_pictures.FUNCTION_PASSES` steps each), a transform's (an element moved in CSS is taken to cover
the picture), a path's data (its points counted), the rectangle ``clip`` cuts a viewport to (SVG 1.1's)."""

ELEMENT_ADDRESSES = frozenset(
    {"fill", "stroke", "marker", "marker-start", "marker-mid", "marker-end", "clip-path", "mask", "filter"}
    | {"shape-inside", "shape-subtract"}
)
"""The properties (and attributes) whose ``url(#id)`` names an element of the picture (Inkscape's flowed text gives
``shape-inside`` one, which browsers do not draw); anywhere else (``background``, ``cursor``) a browser reads it as
this picture's own file and draws it again inside itself (ten background layers of it, 928 bytes, held headless
Chromium 17 s)."""

SIMPLER = "export it simpler, or as a PNG"
"""The help of every refusal of a picture: what else to do."""
_KEPT_AT_RULES = frozenset({"media", "supports"})
"""The at-rules kept: conditions on the rules inside them, read as any rule is."""
_IGNORED = re.compile(r"[\s\x00-\x1f]+")
_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)", re.DOTALL)


class RefusedCss(Exception):
    """CSS that cannot be published: ``reason`` says what it holds, ``help`` what to do instead, if anything."""

    def __init__(self, reason: str, help: str | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.help = help


def without_comments(css: str) -> str:
    """CSS with each comment a space, as a browser reads it (a comment parts what it stands between, and one left
    open runs to the end): every count reads the copy, which holds no comment to hide a property from it
    (``stroke-dasharray/**/: 0.01`` was drawn by Chromium and not read as dashes)."""
    return _COMMENT.sub(" ", css) if "/*" in css else css


@lru_cache(maxsize=4096)
def kept_style(css: str) -> str:
    """The CSS of a ``<style>`` (``css``, without comments) the copy holds: the rules, their allowed declarations;
    :class:`RefusedCss` where it reaches out or a kept value is not counted."""
    nodes = _parsed(tinycss2.parse_stylesheet, css)
    _check_reach(token for node in nodes for token in _tokens_of(node))
    written, changed = _kept_rules(nodes, nested=False)
    return css if not changed and "\\" not in css else without_comments(written)


@lru_cache(maxsize=4096)
def kept_declarations(css: str) -> str:
    """The declarations of a ``style`` attribute (``css``, without comments) the copy holds (a rule in one is read by
    no browser, and left out); :class:`RefusedCss` where it reaches out or a kept value is not counted."""
    plain = _plain_declarations(css)
    if plain is not None:
        kept, left_out = plain
        for name, _, value in (declaration.partition(":") for declaration in kept):
            _check_decoration(name.strip(" \t\n\r\f").lower(), value)
        return ";".join(kept) if left_out else css
    nodes = _parsed(tinycss2.parse_blocks_contents, css)
    _check_reach(token for node in nodes for token in _tokens_of(node))
    kept, changed = [], False
    for node in nodes:
        if isinstance(node, ast.Declaration):
            declaration = _kept_declaration(node)
            kept += [declaration] if declaration is not None else []
            changed |= declaration is None
        elif not isinstance(node, ast.WhitespaceToken):
            changed = True
    return css if not changed and "\\" not in css else without_comments(";".join(kept))


def check_attribute(name: str, value: str) -> None:
    """Refuse an attribute's ``value`` that reaches out of the picture or, for a presentation attribute, one its
    property may not take (:func:`kept_declarations` reads a ``style``)."""
    _check_decoration(name, value)
    if "(" not in value or (name not in PROPERTIES and not _MAY_REACH.search(value)) or _plain_value(name, value):
        return  # nothing to read (a path's data may be megabytes), no address, or plain
    tokens = _parsed(tinycss2.parse_component_value_list, value)
    _check_reach(tokens)
    if name in PROPERTIES:
        _check_value(name, tokens)


def read_length(name: str, value: str) -> int:
    """How much of the attribute ``name``'s ``value`` tinycss2 reads (none where it is plain: the common case)."""
    if name == "style":
        return 0 if _plain_declarations(without_comments(value)) is not None else len(value)
    plain = "(" not in value or (name not in PROPERTIES and not _MAY_REACH.search(value)) or _plain_value(name, value)
    return 0 if plain else len(value)


_VALUE = r"""(?:[A-Za-z0-9_ \t\n\r\f#.,%+()-]++|'[^'\\\n\r\f;()]*+'|"[^"\\\n\r\f;()]*+")*+"""
"""A value of plain characters: names, numbers, colours, parentheses, and strings of no ``;``, ``(`` or escape, which
a browser reads as anyone does (every ``(`` stands after the name of its function, if any)."""
_SPACE = r"[ \t\n\r\f]*+"
_NAME = r"[A-Za-z-][A-Za-z0-9_-]*+"
_PLAIN = re.compile(rf"{_SPACE}(?:{_NAME}{_SPACE}:{_VALUE};{_SPACE})*+(?:{_NAME}{_SPACE}:{_VALUE})?+")
"""A ``style`` attribute of plain declarations: ``fill:#fff;font-family:'DejaVu Sans';stroke:url(#g)``."""
_PLAIN_VALUE = re.compile(_VALUE)
_FUNCTION = re.compile(r"(?<![A-Za-z0-9_-])([A-Za-z0-9_-]*+)\(")
"""A function's name and its ``(``, each run of a name's letters read once, from its start."""
_ELEMENT_ADDRESS = re.compile(r"\([ \t\n\r\f]*+#[A-Za-z0-9_.-]*+[ \t\n\r\f]*+\)")
_INNERMOST = re.compile(r"\([^();]*+\)")
_MAY_REACH = re.compile(r"url\(|src\(|\\", re.IGNORECASE)
"""What an address of CSS needs (an escape can spell it)."""


def _plain_declarations(css: str) -> tuple[list[str], bool] | None:
    """The allowed declarations of a ``style`` attribute of plain declarations (:data:`_PLAIN`, parentheses closed
    before each ``;``), as written, each of whose values is plain (:func:`_plain_value`), and whether any was
    left out; None where tinycss2 is to read it. Fifty times faster than tinycss2, for what editors write."""
    if _PLAIN.fullmatch(css) is None or not _closed(css):
        return None
    kept, left_out = [], False
    for name, _, value in (part.partition(":") for part in css.split(";") if part.strip()):
        name = name.strip(" \t\n\r\f")
        if name.lower() not in PROPERTIES and not _MAY_REACH.search(value):
            left_out = True
        elif name.lower() in PROPERTIES and _plain_value(name.lower(), value):
            kept.append(f"{name}:{value}")
        else:
            return None
    return kept, left_out


def _closed(css: str) -> bool:
    """Whether each parenthesis of ``css`` (whose strings hold none) is closed before a ``;``, :data:`MAX_NESTING`
    deep at most: then a ``;`` ends a declaration, as a browser reads it (one in a function is part of its value)."""
    for _ in range(MAX_NESTING):
        if "(" not in css and ")" not in css:
            return True
        css, found = _INNERMOST.subn("", css)
        if not found:
            return False
    return False


def _plain_value(name: str, value: str) -> bool:
    """Whether the property ``name`` may take ``value`` as it is written, read without tinycss2: plain characters
    (:data:`_VALUE`), each ``(`` after the name of an allowed function, and ``url(#id)`` only where an element is
    named (False where tinycss2 is to tell)."""
    if _PLAIN_VALUE.fullmatch(value) is None or not _closed(value):
        return False
    allowed = COLOURS | FUNCTIONS.get(name, frozenset())
    for function in _FUNCTION.finditer(value):
        called = function.group(1).lower()
        if called == "url":
            if name not in ELEMENT_ADDRESSES or not _ELEMENT_ADDRESS.match(value, function.end() - 1):
                return False
        elif called not in allowed:
            return False
    return True


def _kept_rules(nodes: Iterable[ast.Node], *, nested: bool) -> tuple[str, bool]:
    """What the copy keeps of a list of rules (a stylesheet's, or with ``nested`` a rule's contents, whose
    declarations are read too), and whether anything was left out."""
    written: list[str] = []
    changed = False
    for node in nodes:
        if isinstance(node, ast.WhitespaceToken):
            written.append(node.value)
        elif isinstance(node, ast.Declaration) and nested:
            declaration = _kept_declaration(node)
            written += [declaration + ";"] if declaration is not None else []
            changed |= declaration is None
        elif isinstance(node, ast.QualifiedRule):
            _check_selector(node.prelude)
            inner, left_out = _kept_rules(tinycss2.parse_blocks_contents(node.content), nested=True)
            written.append(f"{tinycss2.serialize(node.prelude)}{{{inner}}}")
            changed |= left_out
        elif isinstance(node, ast.AtRule) and node.lower_at_keyword in _KEPT_AT_RULES and node.content is not None:
            contents: Iterable[ast.Node] = (
                tinycss2.parse_blocks_contents(node.content) if nested else tinycss2.parse_rule_list(node.content)
            )
            inner, left_out = _kept_rules(contents, nested=nested)
            keyword = serialize_identifier(node.at_keyword)
            written.append(f"@{keyword}{tinycss2.serialize(node.prelude)}{{{inner}}}")
            changed |= left_out
        else:  # another at-rule, a declaration where none is read, what no browser reads (a parse error)
            changed = True
    return "".join(written), changed


def _kept_declaration(declaration: ast.Declaration) -> str | None:
    """The declaration as the copy writes it, or None where it is left out: its property is not allowed, or a browser
    reads no value in it (a string cut by a line's end swallows what follows it)."""
    if declaration.lower_name not in PROPERTIES or any(isinstance(t, ast.ParseError) for t in _walk(declaration.value)):
        return None
    _check_value(declaration.lower_name, declaration.value)
    _check_decoration(declaration.lower_name, tinycss2.serialize(declaration.value))
    return str(declaration.serialize())


def _check_value(name: str, tokens: Iterable[ast.Node]) -> None:
    """Refuse a value of the property ``name`` using a function it may not, or an ``#id`` where none is named."""
    allowed = COLOURS | FUNCTIONS.get(name, frozenset())
    for token in _walk(tokens):
        if _address(token) is not None:
            if name not in ELEMENT_ADDRESSES:
                raise RefusedCss(
                    f"its style gives `{name[:40]}` an address (`url(#...)`), which a reader's browser reads there as "
                    "this picture's own file, drawn again inside itself",
                    "give `url(#...)` only to a paint, a marker, a clipping path, a mask or a filter, or " + SIMPLER,
                )
        elif isinstance(token, ast.FunctionBlock) and token.lower_name not in allowed:
            raise RefusedCss(
                f"its style uses `{name[:40]}: {token.lower_name[:40]}()`, which a reader's browser draws at a cost no "
                "count of the picture reads (CSS gradients, clipping shapes and images, computed values)",
                "draw it with SVG's own elements (a `<filter>`, `<mask>`, `<linearGradient>` or `<clipPath>`), or "
                + SIMPLER,
            )


_DECORATIONS = frozenset({"text-decoration", "text-decoration-style"})
_DRAWN_LINE = re.compile(r"(?<![\w-])(?:dotted|dashed)(?![\w-])", re.IGNORECASE)


def _check_decoration(name: str, value: str) -> None:
    """Refuse a text's line (an underline, a line through) drawn dotted or dashed: a reader's browser draws a mark
    every few pixels of it, which no count reads (100 dotted underlines spaced 100 pixels a letter, drawn by 100
    `<use>`, 14 KB, held headless Chromium 85 to 117 s; solid, 0.7 s)."""
    if name in _DECORATIONS and _DRAWN_LINE.search(value):
        raise RefusedCss(
            f"its style draws a text's line dotted or dashed (`{name}: {value.strip()[:40]}`), a mark every few "
            "pixels, which a reader's browser draws at a cost no count of the picture reads",
            "draw the line `solid`, or " + SIMPLER,
        )


def _check_selector(prelude: Iterable[ast.Node]) -> None:
    """Refuse a rule whose selector selects by the siblings before an element (``#a ~ rect``): a reader's browser looks
    through every sibling before each element it matches, which the count of selectors does not read (eleven such
    over 20,000 rectangles, 867 KB, held headless Chromium 33 to 56 s); no real picture measured uses one."""
    if any(isinstance(token, ast.LiteralToken) and token.value == "~" for token in prelude):
        raise RefusedCss(
            "its style selects elements by the siblings before them (`~`), which a reader's browser looks through for "
            "each element, at a cost no count of the picture reads",
            "select them by a class or an id, or " + SIMPLER,
        )


_STANDS_ALONE = (
    "take the address out of its style: a published picture stands alone, drawn in the reader's fonts (a drawing "
    "tool's export that loads its font, Excalidraw's `@font-face`, can be exported without it, or as a PNG)"
)
"""What to do with CSS that names a file out of the picture."""


def _check_reach(tokens: Iterable[ast.Node]) -> None:
    """Refuse CSS that loads something from out of the picture: ``@import``, an address not an ``#id`` (one a
    browser cannot read, ``url(a b)``, too)."""
    for token in _walk(tokens):
        if isinstance(token, ast.AtKeywordToken) and token.lower_value == "import":
            raise RefusedCss("its style reaches outside the picture (`@import`)", _STANDS_ALONE)
        address = _address(token)
        if address is not None and not _IGNORED.sub("", address).startswith("#"):
            shown = address.strip() if len(address.strip()) <= 60 else address.strip()[:59] + "…"
            raise RefusedCss(f"its style reaches outside the picture (`url({shown})`)", _STANDS_ALONE)


def _address(token: ast.Node) -> str | None:
    """The address ``token`` gives, if it gives one: a ``url()`` or ``src()``, a ``url()`` no browser reads."""
    if isinstance(token, ast.URLToken):
        return str(token.value)
    if isinstance(token, ast.ParseError) and token.kind == "bad-url":
        return "…"
    if isinstance(token, ast.FunctionBlock) and token.lower_name in ("url", "src"):
        strings = [str(part.value) for part in token.arguments if isinstance(part, ast.StringToken)]
        return strings[0] if strings else str(tinycss2.serialize(token.arguments))
    return None


MAX_NESTING = 32
"""The deepest CSS may nest rules, functions and brackets: an editor nests two or three (``drop-shadow(rgb())``),
and each level is read, and written again, in turn."""
MAX_DIGITS = 4_000
"""The most digits of a CSS number read (Python reads no integer longer, and a browser no length needs more)."""


def _parsed(parse: Callable[[str], Sequence[ast.Node]], css: str) -> list[ast.Node]:
    """``css`` as tinycss2's ``parse`` reads it; :class:`RefusedCss` for a number longer than :data:`MAX_DIGITS`."""
    try:
        return list(parse(css))
    except ValueError:  # Python's limit on the digits of an integer read from text
        raise RefusedCss(
            f"its style holds a number of more than {MAX_DIGITS:,} digits, more than any drawing needs", SIMPLER
        ) from None


def _tokens_of(node: ast.Node) -> list[ast.Node]:
    """The tokens of a rule or a declaration, all of them (an at-rule's keyword first)."""
    if isinstance(node, ast.Declaration):
        return list(node.value)
    if isinstance(node, ast.AtRule):
        keyword = ast.AtKeywordToken(node.source_line, node.source_column, node.at_keyword)
        return [keyword, *node.prelude, *(node.content or [])]
    if isinstance(node, ast.QualifiedRule):
        return [*node.prelude, *node.content]
    return [node]


def _walk(tokens: Iterable[ast.Node]) -> Iterator[ast.Node]:
    """Every token of ``tokens`` and of the functions and blocks in them (rules nested in a rule too), depth first;
    :class:`RefusedCss` past :data:`MAX_NESTING` levels."""
    stack = [iter(tokens)]
    while stack:
        if len(stack) > MAX_NESTING + 1:
            raise RefusedCss(f"its style nests rules, functions or brackets more than {MAX_NESTING} deep", SIMPLER)
        token = next(stack[-1], None)
        if token is None:
            stack.pop()
            continue
        yield token
        if isinstance(token, ast.FunctionBlock):
            stack.append(iter(token.arguments))
        elif isinstance(token, (ast.ParenthesesBlock, ast.SquareBracketsBlock, ast.CurlyBracketsBlock)):
            stack.append(iter(token.content))
