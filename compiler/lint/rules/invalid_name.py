"""
## What it does
Reports a term name, id or link target that is not an identifier: it must
start with a letter or underscore and contain only ASCII letters, digits
and underscores (no spaces, hyphens or accents).

## Why is this bad?
Names become anchors, file names and JSON keys. A name with a space is
almost always a typo for an underscore, and it never matches a definition.

## Example
```xml
<reference name="inspiring presence">Inspiring Presence</reference>
```
Use `inspiring_presence`.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from compiler.diagnostics import Diagnostic, Rule, Severity
from compiler.lint.base import LintInput, is_valid_name
from compiler.source import Span

RULE = Rule("RB302", "invalid-name", Severity.ERROR, "a name or id is not a valid identifier", __doc__ or "")

_NOT_IDENTIFIER = re.compile(r"[^A-Za-z0-9_]+")


def check(lint: LintInput) -> Iterator[Diagnostic]:
    book = lint.book
    for definition in book.definitions:
        yield from _check("term name", definition.name, definition.span, definition.section_id, lint)
    for reference in book.references:
        yield from _check("term name", reference.name, reference.span, reference.section_id, lint)
    for link in book.links:
        yield from _check("link target", link.to, link.span, link.section_id, lint)
    for target_id, span in book.ids:
        yield from _check("id", target_id, span, None, lint)


def _check(what: str, name: str, span: Span, section_id: str | None, lint: LintInput) -> Iterator[Diagnostic]:
    if not name.strip() or is_valid_name(name):
        return
    fixed = _NOT_IDENTIFIER.sub("_", name.strip()).strip("_").lower() or "_"
    known = lint.terms.is_defined(fixed) or bool(lint.terms.id_targets(fixed))
    yield RULE.diagnostic(
        f"{what} `{name}` is not a valid identifier",
        span,
        target=name,
        suggestions=(fixed,),
        help=f"use `{fixed}`" + ("" if known else " (letters, digits and underscores only)"),
        section_id=section_id,
    )
