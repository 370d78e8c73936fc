"""The `refused-image` check (RB305); its documentation is in :mod:`compiler.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from compiler.catalog.book import REFUSED_IMAGE
from compiler.diagnostics import Diagnostic
from compiler.lint.base import LintInput

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
