"""Names a text report lists on one line: a few at most, the rest counted (the JSON report lists them all)."""

from __future__ import annotations

from collections.abc import Sequence

SHOWN = 20
"""How many names one line of a text report names: 50,000 stale marks of a status file made one line of 490 KB,
100,000 stale waivers one of 1.8 MB."""


def listed(names: Sequence[str]) -> str:
    """``names`` joined with commas, :data:`SHOWN` at most, the rest counted."""
    rest = len(names) - SHOWN
    return ", ".join(names[:SHOWN]) + (f", and {rest:,} more (`--format json` lists them all)" if rest > 0 else "")
