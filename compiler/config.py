"""Project configuration: the ``[tool.rulebook]`` table of ``pyproject.toml``.

```toml
[tool.rulebook]
title = "Fantasy Battles: The 9th Age"
edition = "Beta v0.99.9"
sources = ["rulebook_src/en/rulebook.xml"]   # what `rulebook lint` and `rulebook build` read

[tool.rulebook.translations.fr]                # French names and texts in rules.json
source = "rulebook_src/fr/rulebook.md"
terms = "rulebook_src/fr/terms.toml"
baseline = "rulebook_src/en/lint-baseline.json"  # optional: known problems

[tool.rulebook.lint]
severity = { unused-definition = "error", RB402 = "off" }  # by rule name or code
ignore = ["mutual-definition"]                               # same as severity "off"

[tool.rulebook.books.other-game]               # more books: each its own site section and rules.json
title = "Tiles and Dice"
sources = ["rulebook_src/other-game/rules.md"]
terms = ["Hit", "Injury"]     # sources without markup: these names are terms too (besides the headings)
emphasis = true               # ... and so are emphasised words
skip = ["Examples"]           # sections whose text is never linked
changes_from = "main"         # a "What changed" page against another book (a later edition)
```
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from compiler.catalog import find_rule
from compiler.diagnostics import Severity

_SEVERITIES = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "off": None}
_LINKING_KEYS = {"terms", "skip", "emphasis"}
_BOOK_KEYS = {"sources", "baseline", "lint", "title", "edition", "changes_from"} | _LINKING_KEYS
_KNOWN_KEYS = _BOOK_KEYS | {"output", "site", "books", "translations"}
MAIN_BOOK = "main"
"""The name of the book ``[tool.rulebook]`` itself describes."""


class ConfigError(Exception):
    """The configuration cannot be used; the message says why in plain words."""


@dataclass(frozen=True, slots=True)
class Config:
    """Resolved settings. Paths are absolute; ``root`` is the project folder."""

    root: Path
    sources: tuple[Path, ...] = ()
    baseline: Path | None = None
    severities: Mapping[str, Severity | None] = field(default_factory=dict)
    """Configured severity by rule code; ``None`` turns a rule off."""
    title: str = "Rulebook"
    edition: str = "unknown"
    output: Path | None = None
    """Where ``rulebook build`` writes (default: ``site/`` in the project folder)."""
    translations: Mapping[str, Translation] = field(default_factory=dict)
    """Translations by language code."""
    name: str = MAIN_BOOK
    linking: Linking = field(default_factory=lambda: Linking())
    changes_from: str | None = None
    """The book this one is a later edition of: its site gets a "What changed" page."""
    books: Mapping[str, Config] = field(default_factory=dict)
    """More books of the project, by name (``[tool.rulebook.books.NAME]``), each built into ``NAME/``."""

    def all_books(self) -> list[Config]:
        return [self, *self.books.values()]

    def book(self, name: str) -> Config:
        for book in self.all_books():
            if book.name == name:
                return book
        known = ", ".join(b.name for b in self.all_books())
        raise ConfigError(f"no book is called `{name}` (the books are: {known})")


@dataclass(frozen=True, slots=True)
class Linking:
    """How terms are found in a source that marks none (plain Markdown)."""

    terms: tuple[str, ...] = ()
    """Term names given by the configuration, besides the headings below the top level."""
    emphasis: bool = False
    """Whether emphasised words are terms too (defined where first emphasised)."""
    skip: tuple[str, ...] = ()
    """Titles of sections whose text is never linked."""


@dataclass(frozen=True, slots=True)
class Translation:
    """A translation of the book: its source and its terminology."""

    source: Path
    terms: Path | None


def find_pyproject(start: Path) -> Path | None:
    """The nearest ``pyproject.toml`` with a ``[tool.rulebook]`` table, from ``start`` upwards."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file() and "[tool.rulebook" in candidate.read_text(encoding="utf-8", errors="replace"):
            return candidate
    return None


def load_config(start: Path | None = None, pyproject: Path | None = None) -> Config:
    """Configuration for the project around ``start`` (default: the working folder)."""
    start = (start or Path.cwd()).resolve()
    path = pyproject or find_pyproject(start)
    if path is None:
        return Config(root=start)
    try:
        document = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise ConfigError(f"cannot read {path}: {error}") from error
    table = document.get("tool", {}).get("rulebook", {})
    return parse_config(table, path.parent.resolve(), str(path))


def parse_config(table: Mapping[str, Any], root: Path, origin: str = "pyproject.toml") -> Config:
    unknown = sorted(set(table) - _KNOWN_KEYS)
    if unknown:
        raise ConfigError(f"{origin}: unknown key `{unknown[0]}` in [tool.rulebook]")
    if "output" in table and not isinstance(table["output"], str):
        raise ConfigError(f"{origin}: `output` in [tool.rulebook] must be a string")
    main = _book(table, root, origin, MAIN_BOOK, "[tool.rulebook]")
    books = {}
    extra = table.get("books", {})
    if not isinstance(extra, dict):
        raise ConfigError(f"{origin}: [tool.rulebook.books] must hold one table per book")
    for name, entry in sorted(extra.items()):
        where = f"[tool.rulebook.books.{name}]"
        if not isinstance(entry, dict):
            raise ConfigError(f"{origin}: {where} must be a table")
        if name == MAIN_BOOK or not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", name):
            raise ConfigError(f"{origin}: {where}: a book's name is lower-case letters, digits, - and _ (not `main`)")
        unknown = sorted(set(entry) - _BOOK_KEYS)
        if unknown:
            raise ConfigError(f"{origin}: unknown key `{unknown[0]}` in {where}")
        if "sources" not in entry:
            raise ConfigError(f"{origin}: {where} needs `sources`")
        books[name] = _book(entry, root, origin, name, where)
    names = {MAIN_BOOK, *books}
    for book in [main, *books.values()]:
        if book.changes_from is not None and (book.changes_from not in names or book.changes_from == book.name):
            raise ConfigError(f"{origin}: `changes_from` of book `{book.name}` must name another book")
    return replace(
        main,
        output=root / table["output"] if "output" in table else None,
        translations=_translations(table.get("translations", {}), root, origin),
        books=books,
    )


def _book(table: Mapping[str, Any], root: Path, origin: str, name: str, where: str) -> Config:
    sources = table.get("sources", [])
    if not isinstance(sources, list) or not all(isinstance(s, str) for s in sources):
        raise ConfigError(f"{origin}: `sources` in {where} must be a list of paths")
    baseline = table.get("baseline")
    if baseline is not None and not isinstance(baseline, str):
        raise ConfigError(f"{origin}: `baseline` in {where} must be a path")
    for key in ("title", "edition", "changes_from"):
        if key in table and not isinstance(table[key], str):
            raise ConfigError(f"{origin}: `{key}` in {where} must be a string")
    for key in ("terms", "skip"):
        if not isinstance(table.get(key, []), list) or not all(isinstance(t, str) for t in table.get(key, [])):
            raise ConfigError(f"{origin}: `{key}` in {where} must be a list of names")
    if not isinstance(table.get("emphasis", False), bool):
        raise ConfigError(f"{origin}: `emphasis` in {where} must be true or false")
    return Config(
        root=root,
        sources=tuple(root / s for s in sources),
        baseline=root / baseline if baseline else None,
        severities=_severities(table.get("lint", {}), origin),
        title=table.get("title", "Rulebook"),
        edition=table.get("edition", "unknown"),
        name=name,
        linking=Linking(tuple(table.get("terms", [])), table.get("emphasis", False), tuple(table.get("skip", []))),
        changes_from=table.get("changes_from"),
    )


def _translations(table: Mapping[str, Any], root: Path, origin: str) -> dict[str, Translation]:
    found = {}
    for language, entry in table.items():
        if not isinstance(entry, dict) or not isinstance(entry.get("source"), str):
            raise ConfigError(f"{origin}: [tool.rulebook.translations.{language}] needs a `source` path")
        terms = entry.get("terms")
        found[language] = Translation(root / entry["source"], root / terms if isinstance(terms, str) else None)
    return found


def _severities(lint: Mapping[str, Any], origin: str) -> dict[str, Severity | None]:
    unknown = sorted(set(lint) - {"severity", "ignore"})
    if unknown:
        raise ConfigError(f"{origin}: unknown key `{unknown[0]}` in [tool.rulebook.lint]")
    chosen: dict[str, Severity | None] = {}
    for key, level in dict(lint.get("severity", {})).items():
        if level not in _SEVERITIES:
            raise ConfigError(f"{origin}: severity of `{key}` must be one of error, warning, info, off")
        chosen[_rule_code(key, origin)] = _SEVERITIES[level]
    for key in lint.get("ignore", []):
        chosen[_rule_code(key, origin)] = None
    return chosen


def _rule_code(key: str, origin: str) -> str:
    rule = find_rule(key)
    if rule is None:
        raise ConfigError(f"{origin}: no lint rule is called `{key}` (see `rulebook explain --all`)")
    return rule.code
