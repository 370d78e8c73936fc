"""The `dangling-link` check (RB102); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from rulebook.catalog.book import DANGLING_LINK
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput, is_checkable, places
from rulebook.spelling import spelling_of

RULE = DANGLING_LINK


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    ids = terms.all_ids()
    unknown = {
        target: found for target, found in terms.all_links().items() if target not in ids and is_checkable(target)
    }
    at = iter(places(list(chain.from_iterable(unknown.values()))))  # every place in one pass
    for target, links in unknown.items():
        suggestions = lint.id_suggester.suggest(target)
        help = _help(target, suggestions, terms.is_defined(target), links[0].source.path)
        message = f"link to unknown id `{target}`"
        yield from RULE.diagnostics(message, islice(at, len(links)), target=target, suggestions=suggestions, help=help)


def _help(target: str, suggestions: tuple[str, ...], is_term: bool, path: str) -> str:
    if suggestions:
        return "did you mean " + " or ".join(f"`{s}`" for s in suggestions) + "?"
    spelling = spelling_of(path)
    if is_term:
        return f"`{target}` is a term: use `{spelling.reference.format(name=target)}`"
    return (
        f"give the target section or figure `{spelling.section_id.format(name=target)}`, or baseline it if it is "
        "not written yet"
    )
