"""One kind of ``<mechanic>`` annotation: a row of the table of kinds (:mod:`rulebook.facts.kinds`)."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, NamedTuple, TypeVar

from rulebook.closed_spans import COMMENT, searched_end
from rulebook.facts.attributes import Attribute, Context, Values
from rulebook.facts.shapes import DiceCount, Place
from rulebook.mechanics import Dice
from rulebook.model import Mechanic

T = TypeVar("T")


class Problem(NamedTuple):
    """Why an annotation cannot be read: the attribute that fails its check, and what to tell."""

    attribute: str
    message: str


@dataclass(frozen=True, slots=True)
class MechanicKind(Generic[T]):
    """One shape of ``<mechanic>``: a row of the table."""

    name: str
    """The kind, as the documentation names it (``derived die``)."""
    what: str
    """What it states, as the lint names it (``a derived die``)."""
    key: tuple[str, ...]
    """The attributes that make an annotation this kind (any one of them)."""
    attributes: tuple[Attribute, ...]
    """Every attribute it takes, in the order they are checked; ``name`` is the annotation's name."""
    produces: str
    """Where it goes in ``rules.json`` (Markdown)."""
    produce: Callable[[Mechanic, Values], T]
    """Its entry in the rule data, from its checked values."""
    precedence: int = 0
    """Recognised before kinds of lower precedence when an annotation carries their keys too."""
    hinted: bool = True
    """Whether the message for an annotation of no kind suggests it."""

    def read(self, attributes: Mapping[str, str], context: Context) -> Values | Problem:
        """The checked values (defaults filled in), or the first problem."""
        values: dict[str, str] = {}
        for attribute in self.attributes:
            value = attributes.get(attribute.name, attribute.default)
            problem = attribute.check(value, context)
            if problem is not None:
                return Problem(attribute.name, problem)
            if value is not None:
                values[attribute.name] = value
        return Values(values)


def dice_count(roll: Dice) -> DiceCount:
    """A roll as numbers, for the rule data."""
    return {"count": roll.count, "sides": roll.sides}


PLACE_REACH = 5_000
"""How many characters of its line, before and after it, an annotation's place quotes: a line of up to 5,000
characters is quoted whole; of thousands of annotations on one huge line, each quotes its own
stretch (quoting the whole line for each made the rule data grow with their square)."""
_COMMENT = re.compile(r"<!--.*?-->|<mechanic [^<>]*/>")
_ANNOTATION = re.compile(r"<mechanic [^<>]*/>")
"""An XML annotation (an XML tag holds no ``<``: a run of ``<mechanic`` in Markdown text is not searched
from each one to the next ``>``)."""


def place(mechanic: Mechanic) -> Place:
    """Where an annotation stands, and the source line it annotates (a reader can compare readings)."""
    span, source = mechanic.span, mechanic.source
    start, end = source.line_bounds(span.line)
    at = start + span.column - 1
    line = source.text[max(start, at - PLACE_REACH) : min(end, at + PLACE_REACH)]
    return {"file": span.path, "line": span.line, "column": span.column, "text": _without_annotations(line).strip()}


def _without_annotations(line: str) -> str:
    """The line without comments and annotations, each looked for only where it can end (linear time)."""
    comments = searched_end(line, COMMENT[1])
    tags = max(searched_end(line, "/>"), comments)
    return _COMMENT.sub("", line[:comments]) + _ANNOTATION.sub("", line[comments:tags]) + line[tags:]
