"""
## What it does
Reports a source file that cannot be read: missing, a folder, not
permitted, or not valid UTF-8 text.

## Why is this bad?
The book cannot be compiled without its sources.

## Example
`rulebook lint rulebook_src/en/rulbook.xml` (a typo in the path).
"""

from __future__ import annotations

from compiler.diagnostics import Rule, Severity

RULE = Rule("RB003", "unreadable-source", Severity.FATAL, "a source file cannot be read", __doc__ or "")
