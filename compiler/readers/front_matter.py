"""Reading a dialect book's front matter (``---`` ... ``---``, YAML) within limits.

PyYAML's safe loader, with two faults a contributor can write turned into a plain "not YAML" instead of an
exception of the loader: nesting past :data:`MAX_DEPTH` (100,000 nested ``[`` raised a ``RecursionError`` in the
loader's composer, which recurses; its parser does not, so the depth is counted from the parser's events first),
and a value its constructor cannot make (``2001-02-30`` as a date, an integer of 100,000 digits: a ``ValueError``) or
makes in time growing with its square (:mod:`rulebook.yaml_numbers`).
"""

from __future__ import annotations

from typing import Any

import yaml

from rulebook.yaml_numbers import too_long

MAX_DEPTH = 20
"""Nesting of a front matter (it holds a title: 1 deep)."""


class FrontMatterError(Exception):
    """The front matter cannot be read."""


def read_front_matter(text: str) -> Any:
    """The data of a front matter's YAML ``text``; :class:`FrontMatterError` if it is not YAML this reader makes."""
    try:
        depth = 0
        for event in yaml.parse(text, Loader=yaml.SafeLoader):
            if isinstance(event, yaml.CollectionStartEvent):
                depth += 1
                if depth > MAX_DEPTH:
                    raise FrontMatterError
            elif isinstance(event, yaml.CollectionEndEvent):
                depth -= 1
        if _holds_a_long_number(yaml.compose(text, Loader=yaml.SafeLoader)):
            raise FrontMatterError
        return yaml.safe_load(text)
    except (yaml.YAMLError, ValueError, AttributeError, KeyError, IndexError, TypeError):
        # what PyYAML's constructors raise of a tagged value they cannot make (`!!timestamp "x"`, `!!int ""`)
        raise FrontMatterError from None


def _holds_a_long_number(node: Any) -> bool:
    """Whether a composed front matter (its nesting within :data:`MAX_DEPTH`) holds a whole number too long to make
    (:func:`~rulebook.yaml_numbers.too_long`: ``title: 1:1:1:...``, base 60, of 600 KB took 16 s to make)."""
    if isinstance(node, yaml.MappingNode):
        return any(_holds_a_long_number(key) or _holds_a_long_number(value) for key, value in node.value)
    if isinstance(node, yaml.SequenceNode):
        return any(_holds_a_long_number(item) for item in node.value)
    return too_long(node)


def key_places(text: str) -> dict[str, tuple[tuple[int, int], tuple[int, int]]]:
    """Where each key of a front matter's top-level mapping is written, and where its value starts: (line, column),
    both from 0, in ``text`` (which :func:`read_front_matter` has read: its nesting is within limits)."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(node, yaml.MappingNode):
        return {}
    places: dict[str, tuple[tuple[int, int], tuple[int, int]]] = {}
    for key, value in node.value:
        if isinstance(key, yaml.ScalarNode):
            marks = (key.start_mark.line, key.start_mark.column), (value.start_mark.line, value.start_mark.column)
            places[str(key.value)] = marks  # the last, whose value the loader keeps
    return places


def repeated_key(text: str) -> tuple[str, tuple[int, int]] | None:
    """The first key of a front matter's top-level mapping written again, and where it is written again (line,
    column, from 0), or None: YAML forbids a repeated key, and PyYAML's loader keeps the last without a word (a
    front matter giving `title:` twice lost the first title with "All checks passed")."""
    node = yaml.compose(text, Loader=yaml.SafeLoader)
    if not isinstance(node, yaml.MappingNode):
        return None
    seen: set[str] = set()
    for key, _ in node.value:
        if isinstance(key, yaml.ScalarNode):
            if str(key.value) in seen:
                return str(key.value), (key.start_mark.line, key.start_mark.column)
            seen.add(str(key.value))
    return None
