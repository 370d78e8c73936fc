"""The `reference-to-section` check (RB103); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from rulebook.catalog.book import REFERENCE_TO_SECTION
from rulebook.diagnostics import Diagnostic, Note
from rulebook.family import Found
from rulebook.graph import IdTarget
from rulebook.lint.base import LintInput, is_checkable_target, places
from rulebook.spelling import spelling_of

RULE = REFERENCE_TO_SECTION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    defined = terms.all_definitions()
    misdirected = {}
    for name, found in terms.all_references().items():
        if name in defined or not is_checkable_target(name):
            continue
        target = _id_target(lint, name)
        if target is not None:
            misdirected[name] = (target, found)
    at = iter(places(list(chain.from_iterable(found for _, found in misdirected.values()))))  # one pass
    for name, (target, references) in misdirected.items():
        note = Note(f"`{target.id}` is the id of the {target.kind} `{target.title}`", target.span)
        yield from RULE.diagnostics(
            f"reference names the {target.kind} id `{name}`, not a term",
            islice(at, len(references)),
            target=name,
            help=f"point at the {target.kind} with `{spelling_of(references[0].source.path).link.format(name=name)}`",
            notes=(note,),
        )


def _id_target(lint: LintInput, name: str) -> IdTarget | None:
    """The section or figure a reference's name is the id of (in the book, or a book it uses), if it is one."""
    ids = lint.terms.all_ids()
    if name in ids:
        return ids[name][0]
    lookup = lint.kin.term(lint.name, name)
    if lookup.found is not Found.ID or lookup.book is None:
        return None
    return lint.kin.book(lookup.book).terms.id_targets(lookup.name)[0]
