"""The `duplicate-id` check (RB202); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import DUPLICATE_ID
from rulebook.diagnostics import Diagnostic, Note
from rulebook.lint.base import LintInput, is_checkable

RULE = DUPLICATE_ID


def check(lint: LintInput) -> Iterator[Diagnostic]:
    for target_id, targets in lint.terms.all_ids().items():
        if len(targets) < 2 or not is_checkable(target_id):
            continue
        first = targets[0]
        for duplicate in targets[1:]:
            yield RULE.diagnostic(
                f"id `{target_id}` is used again, by the {duplicate.kind} `{duplicate.title}`",
                duplicate.span,
                target=target_id,
                help="give each section and figure an id of its own",
                notes=(Note(f"first used by the {first.kind} `{first.title}`", first.span),),
                section_id=target_id if duplicate.kind == "section" else None,
            )
