"""Every diagnostic the compiler can report, by identity: code, name, default severity and documentation.

The catalog sits below every stage that reports: readers, lint rules, annotations,
translation and edition checks import the identity of what they report from here, and
decide only *when* to report it. ``rulebook explain`` and the rule pages read it too.
"""

from __future__ import annotations

from compiler.catalog import book, mechanics, reading, translation
from compiler.diagnostics import Rule


def _rules(*families: object) -> tuple[Rule, ...]:
    found = [value for family in families for value in vars(family).values() if isinstance(value, Rule)]
    return tuple(sorted(found, key=lambda rule: rule.code))


LINT_RULES: tuple[Rule, ...] = _rules(reading, book, mechanics)
"""The rules ``rulebook lint`` checks, by code."""
TRANSLATION_RULES: tuple[Rule, ...] = _rules(translation)
"""The rules ``rulebook compare`` checks, by code."""
RULES: tuple[Rule, ...] = _rules(reading, book, mechanics, translation)
"""Every rule, by code."""
_BY_KEY: dict[str, Rule] = {r.code.lower(): r for r in RULES} | {r.name: r for r in RULES}


def find_rule(key: str) -> Rule | None:
    """A rule by code (``RB101``, any case) or name (``dangling-reference``)."""
    return _BY_KEY.get(key.strip().lower())
