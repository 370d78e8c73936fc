"""The `reference-to-section` check (RB103); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from rulebook.catalog.book import REFERENCE_TO_SECTION
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput, is_checkable, places
from rulebook.spelling import spelling_of

RULE = REFERENCE_TO_SECTION


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    defined, ids = terms.all_definitions(), terms.all_ids()
    misdirected = {
        name: found
        for name, found in terms.all_references().items()
        if name in ids and name not in defined and is_checkable(name)
    }
    at = iter(places(list(chain.from_iterable(misdirected.values()))))  # every place in one pass
    for name, references in misdirected.items():
        target = ids[name][0]
        note = Note(f"`{name}` is the id of the {target.kind} `{target.title}`", target.span)
        yield from RULE.diagnostics(
            f"reference names the {target.kind} id `{name}`, not a term",
            islice(at, len(references)),
            target=name,
            help=f"point at the {target.kind} with `{spelling_of(references[0].source.path).link.format(name=name)}`",
            notes=(note,),
        )
