"""
## What it does
Reports a `<reference name="x">` where `x` is not a term but the id of a
section or figure.

## Why is this bad?
References are for game terms: they get a definition preview and a
glossary entry. A section is pointed at with `<link to>`; written as a
reference it is a dangling term on the site and in the data.

## Example
```xml
<reference name="share_army_list">share their Army Lists</reference>
```
Use `<link to="share_army_list">share their Army Lists</link>`.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Note, Rule, Severity
from compiler.lint.base import LintInput, is_checkable

RULE = Rule(
    "RB103",
    "reference-to-section",
    Severity.ERROR,
    "a reference names a section or figure id instead of a term",
    __doc__ or "",
)


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for name, references in terms.all_references().items():
        targets = terms.id_targets(name)
        if terms.is_defined(name) or not targets or not is_checkable(name):
            continue
        target = targets[0]
        note = Note(f"`{name}` is the id of the {target.kind} `{target.title}`", target.span)
        for reference in references:
            yield RULE.diagnostic(
                f"reference names the {target.kind} id `{name}`, not a term",
                reference.span,
                target=name,
                help=f'point at the {target.kind} with `<link to="{name}">`',
                notes=(note,),
                section_id=reference.section_id,
            )
