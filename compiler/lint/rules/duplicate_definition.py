"""
## What it does
Reports a term defined more than once (every definition after the first).

## Why is this bad?
References resolve to one definition only; the other is unreachable and
the two texts drift apart at the next errata.

## Example
```xml
<definition name="unit">...</definition>
...
<definition name="unit">...</definition>
```
Keep one definition; rename the other if it is a different term.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Note, Rule, Severity
from compiler.lint.base import LintInput, is_checkable

RULE = Rule("RB201", "duplicate-definition", Severity.ERROR, "a term is defined more than once", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    for name, definitions in lint.terms.all_definitions().items():
        if len(definitions) < 2 or not is_checkable(name):
            continue
        first = definitions[0]
        for duplicate in definitions[1:]:
            yield RULE.diagnostic(
                f"term `{name}` is defined again",
                duplicate.span,
                target=name,
                help="keep one definition, or give this term a name of its own",
                notes=(Note("first defined here", first.span),),
                section_id=duplicate.section_id,
            )
