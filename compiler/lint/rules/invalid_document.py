"""
## What it does
Checks each XML source against the rulebook DTD (`rulebook.dtd`, shipped
with the compiler): unknown or misspelt elements and attributes, elements
in places the format does not allow, attribute values outside their list,
and entity references (which the compiler never expands).

## Why is this bad?
The compiler and the site only understand the elements the DTD declares.
A misspelt `<refrence>` is silently not a reference: the term use is lost
from the glossary, the backlinks and the lint.

## Example
```xml
<refrence name="model">models</refrence>
```
Use `<reference name="model">models</reference>`.
"""

from __future__ import annotations

from compiler.diagnostics import Rule, Severity

RULE = Rule(
    "RB002", "invalid-document", Severity.ERROR, "an XML source does not follow the rulebook DTD", __doc__ or ""
)
