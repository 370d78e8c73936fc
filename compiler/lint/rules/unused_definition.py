"""
## What it does
Reports a defined term that nothing refers to (references inside its own
definition do not count).

## Why is this bad?
Usually a sign of a renamed term whose references still use the old name,
or of text that was meant to link to it and does not. Unused terms still
get a glossary entry, with no backlinks.

## Example
```xml
<definition name="in_range">...</definition>
```
with no `<reference name="in_range">` anywhere.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Note, Rule, Severity
from compiler.lint.base import LintInput, is_checkable

RULE = Rule("RB401", "unused-definition", Severity.WARNING, "a term is defined but never referred to", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for name, definitions in terms.all_definitions().items():
        if not is_checkable(name):
            continue
        if any(ref.definition != name for ref in terms.references_to(name)):
            continue
        definition = definitions[0]
        yield RULE.diagnostic(
            f"term `{name}` is defined but never referred to",
            definition.span,
            target=name,
            help=f'refer to it with `<reference name="{name}">` where the rules use it, or remove it',
            notes=tuple(_misspelt_uses(name, lint)),
            section_id=definition.section_id,
        )


def _misspelt_uses(name: str, lint: LintInput) -> list[Note]:
    """Undefined names that look like this term: probably references meant for it."""
    return [
        Note(
            f"`{other}` is referenced but not defined: a misspelling of `{name}`?",
            lint.terms.references_to(other)[0].span,
        )
        for other in lint.dangling_suggester.suggest(name)
    ]
