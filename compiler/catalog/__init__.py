"""Every diagnostic the compiler can report, by identity: code, name, default severity and documentation.

The catalog sits below every stage that reports: readers, lint rules, annotations,
translation and edition checks import the identity of what they report from here, and
decide only *when* to report it. ``rulebook explain`` and the rule pages read it too.
"""

from __future__ import annotations

from rulebook.catalog import book, editions, mechanics, reading, translation
from rulebook.diagnostics import Rule, Severity


def _rules(*families: object) -> tuple[Rule, ...]:
    found = [value for family in families for value in vars(family).values() if isinstance(value, Rule)]
    return tuple(sorted(found, key=lambda rule: rule.code))


LINT_RULES: tuple[Rule, ...] = _rules(reading, book, mechanics)
"""The rules ``rulebook lint`` checks, by code."""
TRANSLATION_RULES: tuple[Rule, ...] = _rules(translation)
"""The rules ``rulebook compare`` checks, by code."""
EDITION_RULES: tuple[Rule, ...] = _rules(editions)
"""The changes ``rulebook diff`` reports, by code."""
RULES: tuple[Rule, ...] = _rules(reading, book, mechanics, translation, editions)
"""Every rule, by code."""
_BY_KEY: dict[str, Rule] = {r.code.lower(): r for r in RULES} | {r.name: r for r in RULES}


def find_rule(key: str) -> Rule | None:
    """A rule by code (``RB101``, any case) or name (``dangling-reference``)."""
    return _BY_KEY.get(key.strip().lower())


def anchor(rule: Rule) -> str:
    """Where a rule's documentation is on a page (docs/lint.md, the site's lint page): ``rb101-dangling-reference``."""
    return f"{rule.code.lower()}-{rule.name}"


def rule_url(docs_url: str | None, code: str) -> str | None:
    """A rule's documentation at ``docs_url`` (a page with a section per rule), or None without one."""
    rule = find_rule(code)
    if docs_url is None or rule is None:
        return None
    return f"{docs_url}#{anchor(rule)}"


def markdown() -> str:
    """Every rule's documentation as Markdown sections (docs/lint.md holds this text)."""
    sections = []
    for rule in RULES:
        body = rule.documentation.split("\n", 1)[1].strip().replace("\n## ", "\n#### ")
        sections.append(f"### {rule.code} {rule.name}\n\n{body}\n\n{default_severity(rule)}\n")
    return "\n".join(sections)


def default_severity(rule: Rule) -> str:
    """The sentence ``explain`` and docs/lint.md end a rule's documentation with: its default severity, in the
    word every report uses (a rule that stops reading a file is an error too, one that cannot be turned down)."""
    if rule.severity is Severity.FATAL:
        return (
            f"Default severity: {rule.severity.public}. It stops reading the file: it cannot be turned off or "
            "down, and the lint exits with status 2."
        )
    return f"Default severity: {rule.severity.public}."
