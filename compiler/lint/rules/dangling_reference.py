"""
## What it does
Reports every `<reference name="x">` for which no `<definition name="x">`
exists, one diagnostic per occurrence, with the closest defined names as
suggestions (typos, case, spaces vs underscores, singular vs plural).

## Why is this bad?
On the site the term cannot link to its definition and shows as broken
text; in the data the term has no meaning. A typo in a name silently
detaches a rule from the term it depends on.

## Example
```xml
<reference name="line_of_sihgt">Line of Sight</reference>
```
Use `line_of_sight`. On a partial book, references to chapters not yet
written can be recorded once with `rulebook lint --write-baseline`.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Note, Rule, Severity
from compiler.graph import TermGraph
from compiler.lint.base import LintInput, is_checkable

RULE = Rule(
    "RB101", "dangling-reference", Severity.ERROR, "a reference names a term that is not defined", __doc__ or ""
)


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for name, references in terms.all_references().items():
        if terms.is_defined(name) or not is_checkable(name) or terms.id_targets(name):
            continue
        suggestions = lint.term_suggester.suggest(name)
        help = _help(name, suggestions)
        siblings = lint.dangling_suggester.same_form(name)
        notes = _sibling_notes(name, siblings, terms) if siblings else ()
        for reference in references:
            yield RULE.diagnostic(
                f"reference to undefined term `{name}`",
                reference.span,
                target=name,
                suggestions=suggestions,
                help=help,
                notes=notes,
                section_id=reference.section_id,
            )


def _help(name: str, suggestions: tuple[str, ...]) -> str:
    if suggestions:
        return "did you mean " + " or ".join(f"`{s}`" for s in suggestions) + "?"
    return f'define it with `<definition name="{name}">`, or baseline it if its chapter is not written yet'


def _sibling_notes(name: str, siblings: list[str], terms: TermGraph) -> tuple[Note, ...]:
    return tuple(
        Note(f"`{s}` is also referenced ({len(terms.references_to(s))}x) and not defined either: use one name")
        for s in siblings
    )
