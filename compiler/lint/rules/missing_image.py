"""
## What it does
Reports a figure or illustration image whose file is not in the `images/`
folder beside the sources.

## Why is this bad?
The site shows a placeholder ("Image not available") instead of the
picture, and readers lose what the figure explains. The build never
publishes a broken image.

## Example
```xml
<figure id="figure_1"><image source="centre_footprint_and_arcs.png"/>...</figure>
```
with no `rulebook_src/en/images/centre_footprint_and_arcs.png`.
"""

from __future__ import annotations

from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Rule, Severity
from compiler.lint.base import LintInput

RULE = Rule("RB303", "missing-image", Severity.WARNING, "an image file the book shows is missing", __doc__ or "")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    if lint.images is None:
        return
    for image in lint.book.images:
        if image.file not in lint.images:
            yield RULE.diagnostic(
                f"image `{image.file}` is not in the images folder",
                image.span,
                target=image.file,
                help=f"add `images/{image.file}` beside the sources; the site shows a placeholder until then",
            )
