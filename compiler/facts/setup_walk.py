"""The setup sequence's least pre-game walk, counted as the engine counts it: past the lines of a walk the engine
writes, every ``engine pregame`` is refused, so the lint reports it (``invalid-annotation``)."""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.diagnostics import Diagnostic
from rulebook.engine.limits import MAX_WALK, least_walk
from rulebook.facts.shapes import Mechanics
from rulebook.mechanics import RollTable
from rulebook.model import Book, ItemList, Link


def past_the_least_walk(book: Book, tables: Sequence[RollTable], mechanics: Mechanics) -> list[Diagnostic]:
    """The setup sequence (the first, as the engine takes) whose least walk, counted as the engine counts it
    (:func:`least_walk`: a line a step, and each roll in a section a step links to, repeated rolls at their
    fewest), is past the
    lines of a walk the engine writes: 1,001 plain steps passed the lint and the build, and every ``engine pregame``
    was refused. A step the engine finds its section for by its words, not a link, counts as a plain step here."""
    setup = next((a.node for a in book.annotated if isinstance(a.node, ItemList) and a.node.kind == "setup"), None)
    if setup is None:
        return []
    steps = [next((n.to for n in item.children if isinstance(n, Link)), None) for item in setup.items]
    least = least_walk(steps, [(table.id, table.section_id) for table in tables], mechanics)
    if least <= MAX_WALK:
        return []
    return [
        INVALID_ANNOTATION.diagnostic(
            f"the setup sequence's pre-game walk is at least {least:,} lines (a line a step, and each roll in a "
            f"section a step links to, repeated rolls at their fewest), more than the {MAX_WALK:,} lines of a walk "
            "the engine writes: every `engine pregame` would be refused",
            setup.span,
            help="set up a game in fewer steps: join steps, or make a long part a section its step links to",
            section_id=next((a.section_id for a in book.annotated if a.node is setup), None),
        )
    ]
