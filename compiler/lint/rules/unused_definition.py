"""The `unused-definition` check (RB401); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import UNUSED_DEFINITION
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput, is_checkable
from rulebook.spelling import reference_to

RULE = UNUSED_DEFINITION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    elsewhere = lint.kin.references_into(lint.name)  # a term only the books using this one refer to is used
    for name, definitions in terms.all_definitions().items():
        if not is_checkable(name):
            continue
        if terms.used_outside_own_definition(name) or name in elsewhere:
            continue
        definition = definitions[0]
        reference = reference_to(definition.source.path, name)
        own = terms.references_to(name)  # none outside its definitions: these are inside them
        if own:
            message = f"term `{name}` is referred to only inside its own definition"
            help = (
                f"a use inside its own definition does not count: refer to it with `{reference}` where the rules "
                "use it, outside its definition, or remove it"
            )
            notes: tuple[Note, ...] = (Note(f"`{name}` used inside its own definition", own[0].span),)
        else:
            message = f"term `{name}` is defined but never referred to"
            help = f"refer to it with `{reference}` where the rules use it, or remove it"
            notes = ()
        yield RULE.diagnostic(
            message,
            definition.span,
            target=name,
            help=help,
            notes=(*notes, *_misspelt_uses(name, lint)),
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
