"""
## What it does
Reports two terms whose definitions refer to each other (reported once,
at the first of the two). A term referring to itself is not reported.

## Why is this bad?
Often fine (a model stands on a base; a base is what a model stands on),
but a reader who follows the links goes round in a circle, and a reading
order has to break the cycle. Shown as information for the rules team.

## Example
```xml
<definition name="model">... <reference name="base">base</reference> ...</definition>
<definition name="base">... <reference name="model">models</reference> ...</definition>
```
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Note, Rule, Severity
from compiler.lint.base import LintInput

RULE = Rule("RB402", "mutual-definition", Severity.INFO, "two terms are defined through each other", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for a, b in terms.mutual_definitions():
        first, second = sorted((terms.definitions_of(a)[0], terms.definitions_of(b)[0]), key=lambda d: d.span)
        yield RULE.diagnostic(
            f"terms `{first.name}` and `{second.name}` are defined through each other",
            first.span,
            target=f"{a}<->{b}",
            notes=(Note(f"`{second.name}` refers back to `{first.name}` here", second.span),),
            section_id=first.section_id,
        )
