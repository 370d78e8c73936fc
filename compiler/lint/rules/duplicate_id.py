"""
## What it does
Reports an id given to more than one section or figure (every one after
the first).

## Why is this bad?
Links and site anchors must name one place. With two, a link silently
lands on the first one.

## Example
```xml
<subsection title="Deploy Units" id="deploy">...</subsection>
<subsection title="Deploy Remaining Units" id="deploy">...</subsection>
```
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Note, Rule, Severity
from compiler.lint.base import LintInput, is_checkable

RULE = Rule("RB202", "duplicate-id", Severity.ERROR, "an id names more than one section or figure", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    for target_id, targets in lint.terms.all_ids().items():
        if len(targets) < 2 or not is_checkable(target_id):
            continue
        first = targets[0]
        for duplicate in targets[1:]:
            yield RULE.diagnostic(
                f"id `{target_id}` is used again, by the {duplicate.kind} `{duplicate.title}`",
                duplicate.span,
                target=target_id,
                help="give each section and figure an id of its own",
                notes=(Note(f"first used by the {first.kind} `{first.title}`", first.span),),
                section_id=target_id if duplicate.kind == "section" else None,
            )
