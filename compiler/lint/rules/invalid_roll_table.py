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
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Rule, Severity
from compiler.lint.base import LintInput

RULE = Rule("RB501", "invalid-roll-table", Severity.ERROR, "a roll table cannot be read as dice bands", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    yield from lint.roll_tables[1]
