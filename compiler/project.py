"""The project and its books: configuration loaded and validated once, before any stage runs.

A project is configured by ``rulebook.toml`` or by the ``[tool.rulebook]`` table of
``pyproject.toml``. From the working folder upwards, the first folder holding either
is the project's root; in one folder, ``rulebook.toml`` wins. Without either, the
working folder is the project, with no configured sources (name files on the command line).

```toml
[tool.rulebook]                         # in rulebook.toml, the same keys at the top level
title = "Tiles and Dice"                # what readers see; every key but `sources` is optional
edition = "2.1"
copyright = "Rules texts: the Tiles and Dice team, CC BY-SA 4.0"
description = "The rules of Tiles and Dice, every term linked to its definition."
site_url = "https://rules.tiles-and-dice.org/"
language = "en"
sources = ["rules/en/book.xml"]
baseline = "rules/en/lint-baseline.json"
output = "site"                         # where `rulebook build` publishes (default: site)
generator = "mkdocs"                    # what builds the site: mkdocs (default) or zensical
offline = false                         # a site to open from disk: pages as files (`a.html`)

[tool.rulebook.pdf]                     # the print edition: a PDF of every book and translation
build = true                            # false: `rulebook build` makes none (`--pdf-only` still does)
paper = "a4"                            # or "letter"
font = "Libertinus Serif"               # shipped with Typst, or a font file in site_templates/fonts/
colour = "#1f4e79"                      # headings and links

[tool.rulebook.translations.fr]         # the main book's French edition
source = "rules/fr/book.md"
terms = "rules/fr/terms.toml"

[tool.rulebook.lint]
severity = { unused-definition = "error", RB402 = "off" }
ignore = ["mutual-definition"]

[tool.rulebook.books.campaign]          # more books, each built into site/NAME/
title = "Tiles and Dice: the Campaign"
sources = ["rules/campaign/rules.md"]
format = "markdown"                     # the sources' format, when not their suffix's (docs/format.md)
terms = ["Hit", "Injury"]               # sources without markup: more terms besides the headings
emphasis = true                         # ... and emphasised words
skip = ["Examples"]                     # sections whose text is never linked
changes_from = "main"                   # a "What changed" page against another book
```

Every key is checked for its type here, with the expected type named; paths are
resolved against the project's root. Nothing later re-reads the configuration.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook.catalog import find_rule
from rulebook.config_file import (
    PYPROJECT,
    SITE,
    ConfigError,
    config_table,
    locate_config,
    output_folder,
    path_problem,
    toml_kind,
)
from rulebook.diagnostics import Severity
from rulebook.errors import QUOTE_LIMIT, quoted, shorten

MAIN_BOOK = "main"
"""The name of the book the top-level table describes."""
BOOK_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
LANGUAGE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?")
RESERVED_FOLDERS = frozenset(
    {"assets", "search", "images", "graph", "index", "glossary", "tables", "lint", "changes", "404", "sitemap"}
)
"""Names the site's own pages and folders take: no book may be called so (its folder would replace them)."""

_SEVERITIES = {"error": Severity.ERROR, "warning": Severity.WARNING, "info": Severity.INFO, "off": None}


@dataclass(frozen=True, slots=True)
class Linking:
    """How terms are found in a source that marks none (plain Markdown)."""

    terms: tuple[str, ...] = ()
    """Term names given by the configuration, besides the headings below the top level."""
    emphasis: bool = False
    """Whether emphasised words are terms too (defined where first emphasised)."""
    skip: tuple[str, ...] = ()
    """Titles of sections whose text is never linked."""


TERMS_FILE = "terms.toml"
"""The terminology's name beside a translation: used when nothing names another."""
WAIVERS_FILE = "waivers.toml"
"""The waivers' name beside a translation: used when nothing names another."""


@dataclass(frozen=True, slots=True)
class Translation:
    """A book's translation: its source, and its companion files, the terminology and the waivers.

    Every command reads the companions by one rule: the file named (by the configuration, or by
    ``rulebook compare --terms``/``--waivers``) must be there; without a name, the file of the usual name
    beside the translation is read when there is one (:attr:`terms_file`, :attr:`waivers_file`).
    """

    language: str
    source: Path
    terms: Path | None = None
    """The terminology named; None: ``terms.toml`` beside the translation, if there is one."""
    waivers: Path | None = None
    """The waivers named (only ``rulebook compare --waivers`` names one); None: ``waivers.toml`` beside the
    translation, if there is one."""
    format: str | None = None
    """The source's format (one of :data:`SOURCE_FORMATS`); None: its suffix's."""

    @property
    def terms_file(self) -> Path:
        """The terminology: the file named, else ``terms.toml`` beside the translation."""
        return self.terms or self.source.with_name(TERMS_FILE)

    @property
    def waivers_file(self) -> Path:
        """The accepted findings: the file named, else ``waivers.toml`` beside the translation."""
        return self.waivers or self.source.with_name(WAIVERS_FILE)

    @property
    def files(self) -> tuple[Path, Path, Path]:
        """Every file the translation is read from: its source, its terminology, its waivers."""
        return self.source, self.terms_file, self.waivers_file


PAPERS = ("a4", "letter")
"""The paper sizes the print edition is set on (``[pdf] paper``)."""


@dataclass(frozen=True, slots=True)
class PrintSettings:
    """The print edition (``[pdf]``): whether a build makes it, and its look (the template does the rest)."""

    build: bool = True
    """Whether ``rulebook build`` writes each book's PDF (``--pdf-only`` always does, ``--no-pdf`` never)."""
    paper: str = "a4"
    """One of :data:`PAPERS`."""
    font: str | None = None
    """The text's font family (None: the template's): one shipped with Typst or in ``site_templates/fonts/``."""
    colour: str | None = None
    """The colour of headings and links, ``#rrggbb`` (None: the template's)."""


@dataclass(frozen=True, slots=True)
class BookConfig:
    """One book of the project: its sources and what readers see of it."""

    name: str
    """``main`` for the book the top-level table describes, else the name in ``[books.NAME]``."""
    sources: tuple[Path, ...] = ()
    title: str | None = None
    edition: str | None = None
    copyright: str | None = None
    """The copyright or licence line of the site's footer."""
    description: str | None = None
    """A sentence that says what the book is (the pages' description for search engines)."""
    site_url: str | None = None
    """Where the book's site is published (canonical links); None: no canonical links."""
    language: str = "en"
    baseline: Path | None = None
    severities: Mapping[str, Severity | None] = field(default_factory=dict)
    """Configured severity by rule code; ``None`` turns a rule off."""
    linking: Linking = field(default_factory=Linking)
    changes_from: str | None = None
    """The book this one is a later edition of: its site gets a "What changed" page."""
    translations: tuple[Translation, ...] = ()
    format: str | None = None
    """The sources' format (one of :data:`SOURCE_FORMATS`); None: each source's suffix says."""

    @property
    def folder(self) -> str:
        """The book's folder inside the project's site (``""`` for the main book)."""
        return "" if self.name == MAIN_BOOK else f"{self.name}/"

    @property
    def display_title(self) -> str:
        return self.title or "Rulebook"

    @property
    def label(self) -> str:
        """The book as messages name it: its title, with its name when it is not the main book."""
        return self.display_title if self.name == MAIN_BOOK else f"{self.display_title} (`{self.name}`)"


@dataclass(frozen=True, slots=True)
class Project:
    """A rules team's project: where it is, where it publishes, and its books (the main one first)."""

    root: Path
    config_file: Path | None = None
    output: Path | None = None
    """The configured output folder (None: ``site/`` in the root)."""
    books: tuple[BookConfig, ...] = (BookConfig(MAIN_BOOK),)
    generator: str = "mkdocs"
    """What builds the site from our pages: ``mkdocs`` (mkdocs-material) or ``zensical`` (its successor;
    the ``zensical`` extra). ``rulebook build --generator`` overrides it."""
    offline: bool = False
    """Build a site to read from disk (``site/index.html`` opened in a browser): MkDocs' ``use_directory_urls:
    false`` and Material's ``offline`` plugin. ``rulebook build --offline`` asks for it for one build."""
    print: PrintSettings = field(default_factory=PrintSettings)
    """The print edition's settings (``[pdf]``)."""
    docs_url: str | None = None
    """A page documenting each lint rule, a section per rule (such as docs/lint.md where it is published);
    the help links of diagnostics point at it."""

    @property
    def main(self) -> BookConfig:
        return self.books[0]

    @property
    def site_folder(self) -> Path:
        return self.output or self.root / SITE

    @property
    def rules_docs(self) -> str | None:
        """The page documenting each lint rule: ``docs_url``, else the lint page of the published site."""
        if self.docs_url:
            return self.docs_url
        return f"{self.main.site_url.rstrip('/')}/lint/" if self.main.site_url else None

    def book(self, name: str) -> BookConfig:
        for book in self.books:
            if book.name == name:
                return book
        known = ", ".join(sorted(b.name for b in self.books))
        raise ConfigError(f"no book is called {quoted(name)} (the books are: {known})")

    def inputs(self) -> tuple[Path, ...]:
        """Every file the project reads that its configuration names: the configuration itself, each book's
        sources and baseline, each translation's source, terminology and waivers. No output may replace one."""
        found: list[Path] = [self.config_file] if self.config_file else []
        for book in self.books:
            found += book.sources
            found += [book.baseline] if book.baseline else []
            for translation in book.translations:
                found += translation.files
        return tuple(dict.fromkeys(found))

    def book_of(self, path: Path) -> BookConfig | None:
        """The configured book a source file belongs to, if any."""
        resolved = path.resolve()
        for book in self.books:
            if any(source.resolve() == resolved for source in book.sources):
                return book
        return None

    def translation_of(self, path: Path) -> Translation | None:
        """The configured translation whose source a file is, if any."""
        resolved = path.resolve()
        for book in self.books:
            for translation in book.translations:
                if translation.source.resolve() == resolved:
                    return translation
        return None


def load_project(start: Path | None = None, config_file: Path | None = None) -> Project:
    """The project around ``start`` (default: the working folder), or the one ``config_file`` configures."""
    start = (start or Path.cwd()).resolve()
    path = locate_config(start, config_file)
    if path is None:
        return Project(root=start)
    table, prefix = config_table(path)
    return parse_project(table, path.parent, path, prefix=prefix)


_PROJECT_KEYS = {"output", "books", "docs_url", "generator", "offline", "pdf"}
GENERATORS = ("mkdocs", "zensical")
"""The site generators a project can choose (``generator``)."""
SOURCE_FORMATS = ("xml", "markdown", "plain-markdown", "text-export")
"""The formats a book's or a translation's sources may be read in (``format``), as named by the readers'
table (:mod:`rulebook.readers.formats`; a test holds the two equal)."""
_BOOK_KEYS = {
    "sources",
    "format",
    "baseline",
    "lint",
    "title",
    "edition",
    "copyright",
    "description",
    "site_url",
    "language",
    "changes_from",
    "terms",
    "skip",
    "emphasis",
    "translations",
}


def parse_project(
    table: Mapping[str, Any], root: Path, config_file: Path | None = None, *, prefix: str = "tool.rulebook"
) -> Project:
    """A project from its configuration table; every key checked for its type."""
    check = _Checker(str(config_file.name if config_file else PYPROJECT), prefix)
    check.keys(table, _PROJECT_KEYS | _BOOK_KEYS, check.where())
    root = root.resolve()
    main = _book(table, root, check, MAIN_BOOK, check.where())
    books = [main]
    extra = check.table(table, "books", check.where())
    for name, entry in sorted(extra.items()):
        where = check.where("books", name)
        if not isinstance(entry, dict):
            raise check.error(f"[{where}] must be a table")
        if name == MAIN_BOOK or not BOOK_NAME.fullmatch(name):
            raise check.error(
                f"[{where}]: a book's name is lower-case letters, digits, - and _ (at most 63, not `main`)"
            )
        if name in RESERVED_FOLDERS:
            raise check.error(f"[{where}]: `{name}` is the name of one of the site's own pages or folders")
        check.keys(entry, _BOOK_KEYS, where)
        if "sources" not in entry:
            raise check.error(f"[{where}] needs `sources`")
        books.append(_book(entry, root, check, name, where))
    names = {book.name for book in books}
    languages = {t.language for t in main.translations}
    for book in books:
        if book.changes_from is not None and (book.changes_from not in names or book.changes_from == book.name):
            raise check.error(f"`changes_from` of book `{book.name}` must name another book")
        if book.name in languages:
            raise check.error(f"book `{book.name}` has the name of a translation's folder")
    output = check.path(table, "output", check.where())
    docs_url = check.url(table, "docs_url", check.where())
    generator = check.string(table, "generator", check.where()) or "mkdocs"
    if generator not in GENERATORS:
        raise check.error(f"`generator` in [{check.where()}] must be one of {', '.join(GENERATORS)}, not `{generator}`")
    return Project(
        root=root,
        config_file=config_file,
        output=output_folder(root, output),
        books=tuple(books),
        docs_url=docs_url,
        generator=generator,
        offline=check.boolean(table, "offline", check.where()),
        print=_print_settings(check.table(table, "pdf", check.where()), check, _within(check.where(), "pdf")),
    )


def _print_settings(table: Mapping[str, Any], check: _Checker, where: str) -> PrintSettings:
    check.keys(table, {"build", "paper", "font", "colour"}, where)
    paper = check.string(table, "paper", where) or "a4"
    if paper not in PAPERS:
        raise check.error(f"`paper` in [{where}] must be one of {', '.join(PAPERS)}, not {quoted(paper)}")
    colour = check.string(table, "colour", where)
    if colour is not None and not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        raise check.error(f"`colour` in [{where}] must be a colour such as `#1f4e79`, not {quoted(colour)}")
    build = table.get("build", True)
    if not isinstance(build, bool):
        raise check._wrong("build", where, "true or false", build)
    return PrintSettings(build, paper, check.string(table, "font", where), colour)


def _book(table: Mapping[str, Any], root: Path, check: _Checker, name: str, where: str) -> BookConfig:
    baseline = check.path(table, "baseline", where)
    language = check.string(table, "language", where) or "en"
    if not LANGUAGE.fullmatch(language):
        raise check.error(
            f"`language` in [{where}] must be a language code such as `en` or `fr`, not {quoted(language)}"
        )
    return BookConfig(
        name=name,
        sources=tuple(root / source for source in check.paths(table, "sources", where)),
        title=check.string(table, "title", where),
        edition=check.string(table, "edition", where),
        copyright=check.string(table, "copyright", where),
        description=check.string(table, "description", where),
        site_url=check.url(table, "site_url", where),
        language=language,
        baseline=root / baseline if baseline else None,
        severities=_severities(check.table(table, "lint", where), check, _within(where, "lint")),
        linking=Linking(
            check.strings(table, "terms", where),
            check.boolean(table, "emphasis", where),
            check.strings(table, "skip", where),
        ),
        changes_from=check.string(table, "changes_from", where),
        translations=_translations(check.table(table, "translations", where), root, check, where),
        format=_source_format(table, check, where),
    )


def _source_format(table: Mapping[str, Any], check: _Checker, where: str) -> str | None:
    chosen = check.string(table, "format", where)
    if chosen is not None and chosen not in SOURCE_FORMATS:
        raise check.error(f"`format` in [{where}] must be one of {', '.join(SOURCE_FORMATS)}, not {quoted(chosen)}")
    return chosen


TRANSLATION_LANGUAGES = ("fr",)
"""The languages a translation may be in: those whose numbers, comparisons and common words the
comparison reads (:mod:`rulebook.translate.numbers`, :mod:`rulebook.translate.facts`)."""


def _translations(table: Mapping[str, Any], root: Path, check: _Checker, where: str) -> tuple[Translation, ...]:
    found = []
    for language, entry in sorted(table.items()):
        place = _within(where, f"translations.{shorten(language, QUOTE_LIMIT)}")
        if not LANGUAGE.fullmatch(language):
            raise check.error(f"[{place}]: {quoted(language)} is not a language code such as `fr`")
        if language not in TRANSLATION_LANGUAGES:
            raise check.error(
                f"[{place}]: translations into `{language}` cannot be compared yet "
                f"(the languages compared: {', '.join(TRANSLATION_LANGUAGES)})"
            )
        if not isinstance(entry, dict):
            raise check.error(f"[{place}] must be a table")
        check.keys(entry, {"source", "terms", "format"}, place)
        source = check.path(entry, "source", place)
        if source is None:
            raise check.error(f"[{place}] needs a `source` path")
        terms = check.path(entry, "terms", place)
        found.append(
            Translation(
                language, root / source, root / terms if terms else None, format=_source_format(entry, check, place)
            )
        )
    return tuple(found)


def _severities(lint: Mapping[str, Any], check: _Checker, where: str) -> dict[str, Severity | None]:
    check.keys(lint, {"severity", "ignore"}, where)
    chosen: dict[str, Severity | None] = {}
    for key, level in check.table(lint, "severity", where).items():
        if not isinstance(level, str) or level not in _SEVERITIES:
            raise check.error(f"severity of {quoted(key)} in [{where}] must be one of error, warning, info, off")
        chosen[_rule_code(key, check)] = _SEVERITIES[level]
    for key in check.strings(lint, "ignore", where):
        chosen[_rule_code(key, check)] = None
    return chosen


def _rule_code(key: str, check: _Checker) -> str:
    rule = find_rule(key)
    if rule is None:
        raise check.error(f"no lint rule is called {quoted(key)} (see `rulebook explain --all`)")
    return rule.code


def _within(where: str, key: str) -> str:
    """The name of a table inside another, as TOML writes it."""
    return key if where == TOP_LEVEL else f"{where}.{key}"


TOP_LEVEL = "top level"


class _Checker:
    """Reads typed values out of the configuration, or says which key has the wrong type."""

    def __init__(self, origin: str, prefix: str) -> None:
        self.origin = origin
        self.prefix = prefix

    def where(self, *parts: str) -> str:
        """A table's name as messages give it (a book's name, as written, can be of any length)."""
        return ".".join(shorten(p, QUOTE_LIMIT) for p in (self.prefix, *parts) if p) or TOP_LEVEL

    def error(self, message: str) -> ConfigError:
        return ConfigError(f"{self.origin}: {message}")

    def keys(self, table: Mapping[str, Any], known: set[str], where: str) -> None:
        unknown = sorted(set(table) - known)
        if unknown:
            import difflib

            close = difflib.get_close_matches(unknown[0], sorted(known), n=1, cutoff=0.7)
            hint = f" (did you mean `{close[0]}`?)" if close else f"; the keys are: {', '.join(sorted(known))}"
            raise self.error(f"unknown key {quoted(unknown[0])} in [{where}]{hint}")

    def _wrong(self, key: str, where: str, expected: str, value: object) -> ConfigError:
        return self.error(f"`{key}` in [{where}] must be {expected}, not {toml_kind(value)}")

    def string(self, table: Mapping[str, Any], key: str, where: str) -> str | None:
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._wrong(key, where, "a string", value)
        return value

    def path(self, table: Mapping[str, Any], key: str, where: str) -> str | None:
        """A string naming a file or folder: one no system could open (a NUL, too long) is refused here."""
        value = self.string(table, key, where)
        problem = path_problem(value) if value is not None else None
        if problem is not None:
            raise self.error(f"`{key}` in [{where}] {problem}")
        return value

    def paths(self, table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        """A list of strings, each naming a file (see :meth:`path`)."""
        values = self.strings(table, key, where)
        for value in values:
            problem = path_problem(value)
            if problem is not None:
                raise self.error(f"a path of `{key}` in [{where}] {problem}")
        return values

    def url(self, table: Mapping[str, Any], key: str, where: str) -> str | None:
        value = self.string(table, key, where)
        if value is not None and not re.fullmatch(r"https?://[^\s\"'<>\x00-\x1f\x7f-\x9f]+", value):
            raise self.error(f"`{key}` in [{where}] must be an http(s) URL, not {quoted(value)}")
        return value

    def strings(self, table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self._wrong(key, where, "a list of strings", value)
        return tuple(value)

    def boolean(self, table: Mapping[str, Any], key: str, where: str) -> bool:
        value = table.get(key, False)
        if not isinstance(value, bool):
            raise self._wrong(key, where, "true or false", value)
        return value

    def table(self, table: Mapping[str, Any], key: str, where: str) -> dict[str, Any]:
        value = table.get(key, {})
        if not isinstance(value, dict):
            raise self._wrong(key, where, "a table", value)
        return value
