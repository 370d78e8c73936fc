"""
## What it does
Reports a source file that is not well-formed XML: a tag left open, a
mismatched end tag, an unescaped `&` or `<`, an undefined entity.

## Why is this bad?
Nothing after the first such error can be read reliably, so the compiler
stops reading the file: no lint result, no site, no data. The last good site
stays in place.

## Example
```xml
<definition name="unit">A unit is <reference name="model">models</definition>
```
Close the reference: `<reference name="model">models</reference>`.
"""

from __future__ import annotations

from compiler.diagnostics import Rule, Severity

RULE = Rule("RB001", "malformed-xml", Severity.FATAL, "a source file is not well-formed XML", __doc__ or "")
