"""
## What it does
Reports every `<link to="id">` whose id names no section or figure.

## Why is this bad?
The link is dead on the site and in every export. Often the target
section exists but lacks the `id` attribute, or the id is misspelt.

## Example
```xml
<item><link to="determine_deployment_zone">Determine Deployment Zones.</link></item>
...
<subsection title="Deployment Zones">
```
Give the subsection `id="determine_deployment_zone"`.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Rule, Severity
from compiler.lint.base import LintInput, is_checkable

RULE = Rule("RB102", "dangling-link", Severity.ERROR, "a link points at an id that does not exist", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for target, links in terms.all_links().items():
        if terms.id_targets(target) or not is_checkable(target):
            continue
        suggestions = lint.id_suggester.suggest(target)
        help = _help(target, suggestions, terms.is_defined(target))
        for link in links:
            yield RULE.diagnostic(
                f"link to unknown id `{target}`",
                link.span,
                target=target,
                suggestions=suggestions,
                help=help,
                section_id=link.section_id,
            )


def _help(target: str, suggestions: tuple[str, ...], is_term: bool) -> str:
    if suggestions:
        return "did you mean " + " or ".join(f"`{s}`" for s in suggestions) + "?"
    if is_term:
        return f'`{target}` is a term: use `<reference name="{target}">`'
    return f'give the target section or figure `id="{target}"`, or baseline it if it is not written yet'
