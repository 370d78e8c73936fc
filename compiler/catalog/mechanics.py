"""Annotations that make prose mechanics data: roll tables, values, data tables, mechanics, engine bindings."""

from __future__ import annotations

from rulebook.diagnostics import Rule, Severity

INVALID_ROLL_TABLE = Rule(
    "RB501",
    "invalid-roll-table",
    Severity.ERROR,
    "a roll table cannot be read as dice bands",
    """
## What it does
Checks every table, list or sequence annotated with `roll="..."` (a roll
table): the annotation must be dice notation (`D6`, `2D6`, `D3`), every band
must start with its results (`1-3:`, `6`) unless its position is the roll, and
the bands must cover every result of the dice exactly once.

## Why is this bad?
Roll tables are published in `rules.json` and rolled on by the bundled
engine. A table that cannot be read would be missing from the data, and one
with a gap or an overlap gives a roll with no result, or two.

## Example
```xml
<table roll="D6">
  <row><header>1-2</header><cell>Hold the Ground</cell></row>
  <row><header>3-5</header><cell>Breakthrough</cell></row>
  <row><header>5-6</header><cell>Secure Target</cell></row>
</table>
```
The result 5 is in two bands.
""",
)

INVALID_ANNOTATION = Rule(
    "RB502",
    "invalid-annotation",
    Severity.ERROR,
    "a value or data-table annotation cannot be read",
    """
## What it does
Checks the machine-readable annotations that make prose rules data:
`<value name="...">` must use a name the compiler knows, hold a whole
number, and be given once; a `<table data="...">` or `<sequence data="...">`
must be one the compiler knows, and a data table written the way that table
is read; a `<mechanic>` must be of a kind the compiler knows, with the
attributes its kind takes (`rulebook dtd` shows them; `rulebook docs data` lists every
attribute's type, default and where it goes in `rules.json`).

Known values: `game_turns`, `player_turns_each`, `characteristic_min`,
`characteristic_max`, `max_points_below_limit`, `min_army_units`,
`warband_max_points`, `warband_min_army_units`, `grand_army_min_points`.
Known tables: `characteristics_profile`, `army_categories`,
`warband_duplicate_limits`, `grand_army_duplicate_limits`.
Known sequences: `pre_game_sequence`.
Mechanic kinds, by the attribute that makes them: a test (`pass`), a derived
die (`divide`), rerolls (`max`), modifier order (`order`), a repeated roll
(`times`), a contest (`contest`), a roll in a chain (`against`), another
reading of a roll (`reading`), an army-composition rule (`count-together`,
`from`, `marks`, `whole-points`, `prices`).

## Why is this bad?
The engine reads these numbers from `rules.json`, never from constants of
its own. A misspelt or unreadable annotation would leave a gap in the data
that the engine cannot fill.

## Example
```xml
A standard game lasts for <value name="game_turn">6</value> Game Turns.
```
Use `game_turns`.
""",
)

UNBOUND_MECHANIC = Rule(
    "RB503",
    "unbound-mechanic",
    Severity.WARNING,
    "a term the engine implements is not defined",
    """
## What it does
Checks that every term the bundled engine implements (its declared bindings:
the tests, the reroll rule, the turn structure) is defined in the book. A
book that defines none of them (another game, a fragment) is not checked.

## Why is this bad?
The engine computes only from `rules.json`. If a term it implements is
renamed or removed, the engine would run without its rule: the book and the
engine would drift apart silently.

## Example
Renaming `<definition name="leadership_test">` to `leadership_check` breaks
`rulebook engine odds test leadership_test`.
""",
)
