"""The `missing-image` check (RB303); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import MISSING_IMAGE
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput

RULE = MISSING_IMAGE


def check(lint: LintInput) -> Iterator[Diagnostic]:
    if lint.images is None:
        return
    for image in lint.book.images:
        if image.file not in lint.images and image.file not in lint.refused_images:
            yield RULE.diagnostic(
                f"image `{image.file}` is not in the images folder",
                image.span,
                target=image.file,
                help=f"add `images/{image.file}` beside the sources; the site shows a placeholder until then",
            )
