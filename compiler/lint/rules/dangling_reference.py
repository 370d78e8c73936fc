"""The `dangling-reference` check (RB101); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from rulebook.catalog.book import DANGLING_REFERENCE
from rulebook.diagnostics import Diagnostic, Note
from rulebook.graph import TermGraph
from rulebook.lint.base import LintInput, is_checkable, places
from rulebook.spelling import spelling_of

RULE = DANGLING_REFERENCE


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    defined, ids = terms.all_definitions(), terms.all_ids()
    undefined = {
        name: found
        for name, found in terms.all_references().items()
        if name not in defined and name not in ids and is_checkable(name)
    }
    at = iter(places(list(chain.from_iterable(undefined.values()))))  # every place in one pass
    for name, references in undefined.items():
        suggestions = lint.term_suggester.suggest(name)
        help = _help(name, suggestions, references[0].source.path)
        siblings = lint.dangling_suggester.same_form(name)
        notes = _sibling_notes(name, siblings, terms) if siblings else ()
        message = f"reference to undefined term `{name}`"  # made once per name, not per place
        yield from RULE.diagnostics(
            message, islice(at, len(references)), target=name, suggestions=suggestions, help=help, notes=notes
        )


def _help(name: str, suggestions: tuple[str, ...], path: str) -> str:
    if suggestions:
        return "did you mean " + " or ".join(f"`{s}`" for s in suggestions) + "?"
    definition = spelling_of(path).definition.format(name=name)
    return f"define it with `{definition}`, or baseline it if its chapter is not written yet"


def _sibling_notes(name: str, siblings: list[str], terms: TermGraph) -> tuple[Note, ...]:
    return tuple(
        Note(f"`{s}` is also referenced ({len(terms.references_to(s))}x) and not defined either: use one name")
        for s in siblings
    )
