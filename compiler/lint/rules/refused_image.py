"""The `refused-image` check (RB305); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import REFUSED_IMAGE
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput

RULE = REFUSED_IMAGE


def check(lint: LintInput) -> Iterator[Diagnostic]:
    for image in lint.book.images:
        refusal = lint.refused_images.get(image.file)
        if refusal is not None:
            yield RULE.diagnostic(
                f"image `{image.file}` is not published: {refusal.reason}",
                image.span,
                target=image.file,
                help=refusal.help,
            )
