"""The `dangling-link` check (RB102); its documentation is in :mod:`compiler.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from compiler.catalog.book import DANGLING_LINK
from compiler.diagnostics import Diagnostic
from compiler.lint.base import LintInput, is_checkable

RULE = DANGLING_LINK


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for target, links in terms.all_links().items():
        if terms.id_targets(target) or not is_checkable(target):
            continue
        suggestions = lint.id_suggester.suggest(target)
        help = _help(target, suggestions, terms.is_defined(target))
        message = f"link to unknown id `{target}`"
        for link in links:
            yield RULE.diagnostic(
                message,
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
