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
Checks every table, list or sequence annotated with `roll="..."` (in
Markdown `{roll=D6}` before it, or a first column headed by dice: a roll
table): the annotation must be dice notation (`D6`, `2D6`, `D3`), every band
must start with its results (`1-3:`, `6`) unless its position is the roll, and
the bands must cover every result of the dice exactly once.

## Why is this bad?
Roll tables are published in `rules.json` and rolled on by the bundled
engine. A table that cannot be read would be missing from the data, and one
with a gap or an overlap gives a roll with no result, or two.

## Example
```xml
<table roll="D6" id="weather" title="Weather">
  <row><header>1-2</header><cell>Rain</cell></row>
  <row><header>3-5</header><cell>Clear</cell></row>
  <row><header>5-6</header><cell>Fog</cell></row>
</table>
```
```markdown
{id=weather title="Weather"}
| D6 | Weather |
|---|---|
| 1-2 | Rain |
| 3-5 | Clear |
| 5-6 | Fog |
```
The result 5 is in two bands.
""",
)

INVALID_ANNOTATION = Rule(
    "RB502",
    "invalid-annotation",
    Severity.ERROR,
    "a declaration of the book's mechanics cannot be read",
    """
## What it does
Checks the declarations that make prose rules data. The names are the
book's own; the kinds are the compiler's. A value (`<value name="..."
kind="..." term="...">`, in Markdown `[N]{value=... kind=... term=...}`)
must have a kind the compiler knows, be about a defined term, hold a whole
number (digits 0 to 9, at most 1,000,000), be given once, and a
characteristic's bound needs its companion (a `minimum` and the `maximum` of the same term). A table or
sequence's `kind` must be one the compiler knows, a data table must be
written the way its kind is read, an army table needs the `id` its army
declaration names it by, and an `id` names one table or sequence only. In
Markdown, a declaration on a line of its own must stand right before its list
or table (a turn structure with no phases is one that does not). A
mechanic (`<mechanic>`, in Markdown `<!-- rulebook: mechanic name="..." -->`
with the same attributes) must be of a kind the compiler knows, with the
attributes its kind takes (`rulebook docs data` lists every attribute's
type, default and where it goes in `rules.json`; `rulebook dtd` shows the
XML's).

Kinds of values: `count`, `turns`, `points`, `distance`, `minimum`,
`maximum`.
Kinds of tables: `profile`, `categories`, `duplicate-limits`.
Kinds of sequences: `turn`, `setup`.
Mechanic kinds, by the attribute that makes them: a test (`pass`), a derived
die (`divide`), rerolls (`max`), modifier order (`order`), a repeated roll
(`times`), a contest (`contest`), a roll in a chain (`against`), another
reading of a roll (`reading`), an army-composition rule (`count-together`,
`from`, `marks`, `whole-points`, `prices`), a standard army (`categories`),
an army size (`most-points`, `least-points`).

## Why is this bad?
The engine reads these numbers from `rules.json`, never from constants of
its own. A misspelt or unreadable declaration would leave a gap in the data
that the engine cannot fill.

## Example
```xml
A game lasts <value name="rounds" kind="turn">4</value> rounds.
```
```markdown
A game lasts [4]{value=rounds kind=turn} rounds.
```
The kind of a number of turns is `turns`.
""",
)

UNBOUND_MECHANIC = Rule(
    "RB503",
    "unbound-mechanic",
    Severity.WARNING,
    "a declaration the engine reads lacks what it is read with",
    """
## What it does
Checks each declaration the engine reads only beside another (the bindings
of `rulebook.engine.bindings`): a number of turns needs the turn structure it
counts (a sequence of kind `turn`), an army size needs the standard army
(`<mechanic name="..." categories="...">`); and a roll of a chain must name
rolls the chain has: a critical success passes later steps
(`critical-skips`), a save `cancels` the successes of an earlier step, a roll
taken `instead-of` another names a roll of its own step; and a step's rolls are
all saves or none (the engine takes the defender's best save of a step that
has one). What a roll's attribute needs beside it is there too: `critical-adds`
and `critical-skips` a `critical` result, `fail-adds` a `threshold`, and a
`threshold` no `step` (a roll with a threshold is taken after the chain). A
book that declares nothing for a question is not checked: the engine tells
whoever asks what to declare.

## Why is this bad?
The engine computes only from `rules.json`, from what the book declares. A
declaration without its companion answers nothing (`engine turns` without
the phases), and a chain that names a roll it does not have is not the
chain the book describes: the book and the engine would drift apart
silently.

## Example
```xml
A game lasts <value name="rounds" kind="turns" term="round">4</value> rounds.
```
```markdown
A game lasts [4]{value=rounds kind=turns term=round} rounds.
```
with no sequence of kind `turn` of a round's phases (`<sequence kind="turn">`,
in Markdown `{kind=turn}` before an ordered list).
""",
)
