"""
## What it does
Checks the machine-readable annotations that make prose rules data:
`<value name="...">` must use a name the compiler knows, hold a whole
number, and be given once; a `<table data="...">` must be a table the
compiler knows, written the way that table is read; a `<mechanic>` must
be a test named after its term (`pass`, `roll`, `always-fails`), a derived
die (`divide`, `roll`, `round`) or the reroll limit (`max`).

Known values: `game_turns`, `player_turns_each`, `characteristic_min`,
`characteristic_max`, `max_points_below_limit`, `min_army_units`,
`warband_max_points`, `warband_min_army_units`, `grand_army_min_points`.
Known tables: `characteristics_profile`, `army_categories`,
`warband_duplicate_limits`, `grand_army_duplicate_limits`.

## Why is this bad?
The engine reads these numbers from `rules.json`, never from constants of
its own. A misspelt or unreadable annotation would leave a gap in the data
that the engine cannot fill.

## Example
```xml
A standard game lasts for <value name="game_turn">6</value> Game Turns.
```
Use `game_turns`.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Rule, Severity
from compiler.lint.base import LintInput

RULE = Rule(
    "RB502", "invalid-annotation", Severity.ERROR, "a value or data-table annotation cannot be read", __doc__ or ""
)


def check(lint: LintInput) -> Iterator[Diagnostic]:
    from compiler.facts import collect_facts, collect_mechanics

    yield from collect_facts(lint.book).diagnostics
    tables = {table.id for table in lint.roll_tables[0]}
    yield from collect_mechanics(lint.book, set(lint.terms.defined_terms()), tables)[1]
