"""Whole numbers in YAML too long to read, found before any is made.

PyYAML makes each whole number it resolves however long it is written: 4,000 hexadecimal digits in ``mkdocs.yml``
loaded and then failed in MkDocs in Python's words, and a base-60 number (``1:1:1:...``, YAML 1.1) of 600 KB in a
front matter took 16 s, its parts summed as numbers growing with each. A composed document (linear to make) is
looked at first, and such a number refused where it is written.
"""

from __future__ import annotations

from typing import Any

MAX_NUMBER_DIGITS = 1_000
"""The most digits of a whole number in a YAML file the compiler reads, in any base (a setting, a front matter's
value): no value read needs more, and Python refuses to write one of more than 4,300 decimal digits."""
_INT = "tag:yaml.org,2002:int"


def digits_of(node: Any) -> int:
    """How many digits a composed scalar resolved as a whole number writes (0 for any other node): its letters and
    digits, not a base's prefix (``0x``, ``0b``) nor the ``:`` of base 60 and the ``_`` between digits."""
    if getattr(node, "tag", None) != _INT or not isinstance(node.value, str):
        return 0
    return sum(character.isalnum() for character in node.value.removeprefix("0x").removeprefix("0b"))


def too_long(node: Any) -> bool:
    """Whether a composed scalar is a whole number of more than :data:`MAX_NUMBER_DIGITS` digits."""
    return digits_of(node) > MAX_NUMBER_DIGITS
