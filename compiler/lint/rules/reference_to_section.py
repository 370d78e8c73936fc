"""The `reference-to-section` check (RB103); its documentation is in :mod:`compiler.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from compiler.catalog.book import REFERENCE_TO_SECTION
from compiler.diagnostics import Diagnostic, Note
from compiler.lint.base import LintInput, is_checkable

RULE = REFERENCE_TO_SECTION


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
