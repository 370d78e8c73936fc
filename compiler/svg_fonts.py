"""How many font families an SVG picture's ``font-family`` names: a browser looks each up for each font description.

A reader's browser resolves every family of a ``font-family`` list, in order, for each distinct font description
(size, weight, style, stretch) a text is drawn in, a family missing from the reader's machine being a query to the
system's font matching each time: a list of 1,000 made-up names given to 200 texts of as many sizes (14 KB) held
headless Chromium 46 to 57 s, and the built page that shows it 101 s (1,000 names and 100 sizes: 21 s; 20,000 names
and one size: 4 s). An editor writes one to five families (the 54,000 SVGs of this machine name four at most); a
font stack of CSS, up to a dozen. So a list may name at most :data:`MAX_FAMILIES`, in an attribute (``font-family``,
``font``), a ``style`` or a ``<style>`` (``font-family``, the ``font`` shorthand, a custom property ``var()`` may
make one).
"""

from __future__ import annotations

import re

MAX_FAMILIES = 16
"""The most families a ``font-family`` list (or a ``font`` shorthand's) may name."""
_LISTED = frozenset({"font-family", "font"})
"""The properties, and attributes, whose value lists families."""
_ESCAPED = re.compile(r"\\.", re.DOTALL)
"""A backslash and the character it escapes: part of a name, never a quote, a comma or a semicolon (`a\\"x,...`
hid a list of 1,000 families from the count behind what looked like a quote)."""
_QUOTED = re.compile(r"\"[^\"\n]*+\"?|'[^'\n]*+'?")
"""A quoted family name (CSS ends one left open at the line's end): its commas and semicolons are its own."""
_DECLARATION = re.compile(r"(?<![\w-])(font-family|font|--[\w-]*+)\s*+:([^;{}]*+)", re.IGNORECASE)
"""A declaration that may list families: ``font-family``, ``font``, or a custom property ``var()`` may put in one."""


def too_many_families(name: str, value: str) -> str | None:
    """Why ``value``, given to the attribute or property ``name``, names too many font families
    (:data:`MAX_FAMILIES`), or None."""
    listed = name.lower()
    if listed not in _LISTED and not listed.startswith("--"):
        return None
    count = _QUOTED.sub('""', _ESCAPED.sub("x", value)).count(",") + 1
    if count <= MAX_FAMILIES:
        return None
    return (
        f"its `{name[:40]}` names {count:,} font families, more than {MAX_FAMILIES}, the most a picture may list: a "
        "reader's browser looks each up for each size and style of its text"
    )


def css_too_many_families(css: str) -> str | None:
    """Why a ``style`` attribute's or a ``<style>``'s CSS ``css`` names too many font families in a declaration, or
    None (each quoted name read whole, as CSS reads it: ``"a;b"`` is one family)."""
    for name, value in _DECLARATION.findall(_QUOTED.sub('""', _ESCAPED.sub("x", css))):
        refused = too_many_families(name, value)
        if refused is not None:
            return refused
    return None
