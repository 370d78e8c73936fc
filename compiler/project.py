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
changes_from = "v1"                     # a later edition of the book `v1`: a "What changed" page against it
output = "site"                         # where `rulebook build` publishes (default: site)
generator = "mkdocs"                    # what builds the site: mkdocs (default) or zensical
offline = false                         # a site to open from disk: pages as files (`a.html`)

[tool.rulebook.pdf]                     # the print edition: a PDF of every book and translation
build = true                            # false: `rulebook build` makes none (`--pdf-only` still does)
paper = "a4"                            # or "letter"
font = "Libertinus Serif"               # shipped with Typst, or a font file in site_templates/fonts/
colour = "#1f4e79"                      # headings and links
time_limit = 300                        # seconds Typst may take for one PDF (default 300)
memory_limit = 8192                     # MB of memory Typst may take for one PDF (default 8192)
picture_time_limit = 20                 # seconds Typst may take to read or draw one picture, PDF or site (default 20)
picture_memory_limit = 2048             # MB of memory Typst may take to read or draw one picture (default 2048)

[tool.rulebook.translations.fr]         # the main book's French edition
source = "rules/fr/book.md"
title = "Tuiles et dés"                 # the French site's title (default: the translation's own)
terms = "rules/fr/terms.toml"
from_edition = "v1"                     # the book of the English it was made from (default: this book)

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

[tool.rulebook.books.v1]                # the English edition the French was made from, kept
sources = ["rules/en/1.0/book.xml"]
# The main book says `changes_from = "v1"`: its site gets a "What changed" page against it, and the French
# translation's status compares v1 with the main book (the latest edition: no book follows it).

[tool.rulebook.books.elves]             # a book built on others: its references resolve in it, then in them
sources = ["rules/elves/book.xml"]
uses = ["main"]                         # `core:term` names a term of book `core` explicitly

[tool.rulebook.books.faq]
sources = ["rules/faq/faq.md"]
uses = ["main", "elves"]
faq = true                              # its entries show on the pages they link to ("Clarified in")
```

Every key is checked for its type here, with the expected type named; paths are
resolved against the project's root. Nothing later re-reads the configuration.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook.catalog import find_rule
from rulebook.characters import UNPRINTABLE
from rulebook.config_file import (
    PYPROJECT,
    SITE,
    ConfigError,
    config_table,
    leaves_root,
    locate_config,
    output_folder,
    toml_kind,
)
from rulebook.diagnostics import Severity
from rulebook.errors import QUOTE_LIMIT, quoted, shorten
from rulebook.fileio import git_ignored, git_refusal, ignored_said, path_problem
from rulebook.inputs import named_refusal
from rulebook.languages.data import shipped_codes
from rulebook.names import BOOK_NAME as BOOK_NAME
from rulebook.site.page_table import LONGEST_LINE, LONGEST_TITLE, SITE_ENTRY, TRANSLATION_REPORT_PREFIX, is_device_name

MAIN_BOOK = "main"
"""The name of the book the top-level table describes."""
LANGUAGE = re.compile(r"[a-z]{2,3}(?:-[A-Za-z0-9]{2,8})?")

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
STATUS_FILE = "status.toml"
"""The record of the sections brought up to date with a later edition, beside its translation."""


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
    language_file: Path | None = None
    """The project's file for the translation's language (:mod:`rulebook.languages`): a language the compiler
    does not ship, or words over a shipped one."""
    from_edition: str | None = None
    """The book holding the edition of the original the translation was made from (``from_edition``); None: the
    book it translates, as it is."""
    format: str | None = None
    """The source's format (one of :data:`SOURCE_FORMATS`); None: its suffix's."""
    title: str | None = None
    """The translation's title (``title``), over the one its source gives (its front matter); None: the source's."""

    @property
    def terms_file(self) -> Path:
        """The terminology: the file named, else ``terms.toml`` beside the translation."""
        return self.terms or self.source.with_name(TERMS_FILE)

    @property
    def waivers_file(self) -> Path:
        """The accepted findings: the file named, else ``waivers.toml`` beside the translation."""
        return self.waivers or self.source.with_name(WAIVERS_FILE)

    @property
    def status_file(self) -> Path:
        """The sections marked up to date with a later edition (``rulebook status --mark`` writes it): ``status.toml``
        beside the translation."""
        return self.source.with_name(STATUS_FILE)

    @property
    def files(self) -> tuple[Path, ...]:
        """Every file the translation is read from: its source, its terminology, its waivers, its status, its
        language file."""
        return tuple(path for path, _ in self.roles)

    @property
    def roles(self) -> tuple[tuple[Path, str], ...]:
        """:attr:`files`, each with its role (:attr:`Input.role`)."""
        return (
            (self.source, "source"),
            (self.terms_file, "terminology"),
            (self.waivers_file, "waivers"),
            (self.status_file, "status file"),
            *(((self.language_file, "language file"),) if self.language_file else ()),
        )


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
    time_limit: float | None = None
    """The seconds Typst may take to make one PDF (None: the shipped limit, :class:`rulebook.pdf.typst_run.Limits`)."""
    memory_limit: int | None = None
    """The memory Typst may take to make one PDF, in MB (None: the shipped limit)."""
    picture_time_limit: float | None = None
    """The seconds Typst may take to read one picture for the PDF, or to draw an SVG picture into the site's PNG
    (None: the shipped limit)."""
    picture_memory_limit: int | None = None
    """The memory Typst may take to read or draw one picture, in MB (None: the shipped limit)."""


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
    language_file: Path | None = None
    """The project's file for the book's language (:mod:`rulebook.languages`), which its translations are compared
    in: a language the compiler does not ship, or words over a shipped one."""
    baseline: Path | None = None
    severities: Mapping[str, Severity | None] = field(default_factory=dict)
    """Configured severity by rule code; ``None`` turns a rule off."""
    linking: Linking = field(default_factory=Linking)
    changes_from: str | None = None
    """The book this one is a later edition of: its site gets a "What changed" page."""
    translations: tuple[Translation, ...] = ()
    uses: tuple[str, ...] = ()
    """The books this one builds on, in the order its references are looked up in them (after its own terms)."""
    faq: bool = False
    """A FAQ or errata: each of its entries shows on the pages of the rules it links to ("Clarified in")."""
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


SITE_SETTINGS = "mkdocs.yml"
"""The site generator's settings a project may keep beside its configuration (MkDocs' file, which Zensical reads
too)."""
OVERRIDES = "site_templates"
"""The folder of a project that overrides the site's and the PDF's default templates, file by file."""


@dataclass(frozen=True, slots=True)
class Input:
    """A file the project reads, in one of its roles (:meth:`Project.configured_inputs`)."""

    path: Path
    """Where the configuration names it, or where it is looked for."""
    role: str
    """What it is to the project: ``configuration``, ``site settings``, ``source``, ``baseline``, ``terminology``,
    ``waivers``, ``status file``, ``language file``."""
    book: str | None = None
    """The book it belongs to (None: the project's)."""
    language: str | None = None
    """The translation of the book it belongs to, by its language (None: the book's own)."""

    def same_as(self, other: Input) -> bool:
        """The same role of the same book and translation (of any, where ``other`` names none) for the same file (as
        it resolves)."""
        same = self.role == other.role and other.book in (None, self.book) and other.language in (None, self.language)
        return same and os.path.realpath(self.path) == os.path.realpath(other.path)


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
    """A page documenting each lint rule, a section per rule (such as the compiler's docs/lint.md where it is
    published); the help links of diagnostics point at it. The site's lint page is the editor's only."""
    _families: dict[str, tuple[str, ...]] = field(default_factory=dict, compare=False, repr=False)
    """:meth:`family_order`, :meth:`users_of` and :meth:`family_of` of each book, worked out once (each lint of a
    family asks for every book's: a chain of 1,000 books took over 120 s)."""
    _by_name: dict[str, BookConfig] = field(default_factory=dict, compare=False, repr=False)
    """The books by name, made at the first :meth:`book` (a family's lint asks for each book many times)."""
    _used_by: dict[str, list[str]] = field(default_factory=dict, compare=False, repr=False)
    """Each book's users (the books naming it in ``uses``), made at the first :meth:`users_of`."""

    @property
    def main(self) -> BookConfig:
        return self.books[0]

    @property
    def site_folder(self) -> Path:
        return self.output or self.root / SITE

    @property
    def rules_docs(self) -> str | None:
        """The page documenting each lint rule (``docs_url``): the published site has none, readers are not
        editors (``rulebook explain CODE`` prints a rule's documentation)."""
        return self.docs_url

    @property
    def names(self) -> tuple[str, ...]:
        """The books' names, the main book's first."""
        return tuple(book.name for book in self.books)

    def book(self, name: str) -> BookConfig:
        found = self._by_name.get(name) if self._by_name else None
        if found is None:
            self._by_name.update((book.name, book) for book in self.books)
            found = self._by_name.get(name)
        if found is not None:
            return found
        known = ", ".join(sorted(b.name for b in self.books))
        raise ConfigError(f"no book is called {quoted(name)} (the books are: {known})")

    def inputs(self, *, writing: Input | None = None) -> tuple[Path, ...]:
        """Every file the project reads that its configuration names or finds by its rules: the configuration
        itself, the site's settings (``mkdocs.yml``), each book's sources and baseline, each translation's source,
        terminology, waivers, status and language file. No output, report, baseline or export may replace one, nor
        be made where one is looked for: the one list every writer protects.

        ``writing``: the file a command writes in its own role (``--write-baseline`` a book's baseline, ``--waive``
        a translation's waivers, ``status --mark`` its status file), left out unless it is an input in another role
        too (``--waivers terms.toml``: the terminology stays protected)."""
        return tuple(
            dict.fromkeys(i.path for i in self.configured_inputs() if writing is None or not i.same_as(writing))
        )

    def configured_inputs(self) -> tuple[Input, ...]:
        """:meth:`inputs`, each with its role and book."""
        found = [Input(self.config_file, "configuration")] if self.config_file else []
        found.append(Input(self.root / SITE_SETTINGS, "site settings"))
        for book in self.books:
            found += [Input(path, "source", book.name) for path in book.sources]
            found += [Input(book.baseline, "baseline", book.name)] if book.baseline else []
            found += [Input(book.language_file, "language file", book.name)] if book.language_file else []
            for translation in book.translations:
                found += [Input(path, role, book.name, translation.language) for path, role in translation.roles]
        return tuple(found)

    def latest_edition(self, book: BookConfig) -> BookConfig:
        """The latest edition of a book: the book that follows it (``changes_from``), the one that follows that,
        and so on (the configuration holds that at most one follows a book with translations); the book itself
        when none follows it."""
        seen = {book.name}
        while True:
            following = [b for b in self.books if b.changes_from == book.name and b.name not in seen]
            if not following:
                return book
            book = following[0]
            seen.add(book.name)

    def status_editions(self, book: BookConfig) -> tuple[str, ...]:
        """The other books the status of ``book``'s translations reads: the editions they were made from, and the
        latest edition of ``book``."""
        if not book.translations:
            return ()
        found = [t.from_edition for t in book.translations if t.from_edition is not None]
        found.append(self.latest_edition(book).name)
        return tuple(name for name in dict.fromkeys(found) if name != book.name)

    def book_of(self, path: Path) -> BookConfig | None:
        """The configured book a source file belongs to, if any."""
        resolved = path.resolve()
        for book in self.books:
            if any(source.resolve() == resolved for source in book.sources):
                return book
        return None

    def family_order(self, name: str) -> tuple[str, ...]:
        """The books a reference of book ``name`` is looked up in after its own terms: those it uses, in their
        order, each followed by those it uses in turn (each book once). The configuration has no cycle."""
        known = self._families.get(name)
        if known is not None:
            return known
        order: dict[str, None] = {}
        unvisited = [iter(self.book(name).uses)]  # a stack of its own, not Python's: a chain of 1,000 books
        while unvisited:
            for used in unvisited[-1]:
                if used != name and used not in order:
                    order[used] = None
                    unvisited.append(iter(self.book(used).uses))
                    break
            else:
                unvisited.pop()
        self._families[name] = tuple(order)
        return self._families[name]

    def users_of(self, name: str) -> tuple[str, ...]:
        """The books whose references may resolve in book ``name`` (those it is in the family order of), in the
        configuration's order."""
        key = f"{name} <-"  # not a book's name: names are identifiers
        if key not in self._families:
            if not self._used_by:
                self._used_by.update((book.name, []) for book in self.books)
                for book in self.books:
                    for used in book.uses:
                        self._used_by.setdefault(used, []).append(book.name)
            users = self._reached({name}, self._used_by)
            self._families[key] = tuple(b.name for b in self.books if b.name in users and b.name != name)
        return self._families[key]

    def family_of(self, name: str) -> tuple[str, ...]:
        """Every book a lint or a site of book ``name`` reads: itself, the books it uses, the books that use it,
        and the books those use (to know where their references resolve), in the configuration's order."""
        key = f"{name} ~"
        if key not in self._families:
            uses = {book.name: book.uses for book in self.books}
            wanted = self._reached({name, *self.users_of(name)}, uses)
            self._families[key] = tuple(book.name for book in self.books if book.name in wanted)
        return self._families[key]

    @staticmethod
    def _reached(start: set[str], edges: Mapping[str, Sequence[str]]) -> set[str]:
        """The books reached from ``start`` along ``edges`` (``start`` included): one walk, each book once, so
        that the family of every book of a chain of 1,000 takes time in the books, not in their orders."""
        reached = set(start)
        waiting = list(start)
        while waiting:
            for other in edges.get(waiting.pop(), ()):
                if other not in reached:
                    reached.add(other)
                    waiting.append(other)
        return reached

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
    "language_file",
    "changes_from",
    "terms",
    "skip",
    "emphasis",
    "translations",
    "uses",
    "faq",
}


def book_name_problem(name: str, languages: frozenset[str] = frozenset()) -> str | None:
    """Why ``name`` cannot name a book (its folder of the site would be one the build makes, or no valid name),
    or None. ``languages``: the configured translations' languages (their sites' folders)."""
    if name == MAIN_BOOK:
        return "`main` is the name of the book the top-level table describes"
    if not BOOK_NAME.fullmatch(name):
        return "a book's name is lower-case letters, digits, - and _, starting with a letter or a digit (at most 63)"
    if name in SITE_ENTRY:  # the page table: the site's own pages and folders
        return f"`{name}/` is the site's own folder for {SITE_ENTRY[name].what}"
    if is_device_name(name):
        return f"`{name}` is a name Windows keeps for a device: no folder there can take it"
    if name == SITE:
        return f"`{SITE}` is the output folder's name: the book would be built into `{SITE}/{SITE}/`"
    if name in languages or name in TRANSLATION_LANGUAGES:
        return f"`{name}` is a language code: a translation's site takes the folder `{name}/`"
    if name.startswith(TRANSLATION_REPORT_PREFIX):
        return f"`{name}/` is the address of a translation report (the editors' pages)"
    return None


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
    languages = frozenset(t.language for t in main.translations)
    for name, entry in sorted(extra.items()):
        where = check.where("books", name)
        if not isinstance(entry, dict):
            raise check.error(f"[{where}] must be a table")
        problem = book_name_problem(name, languages)
        if problem is not None:
            raise check.error(f"[{where}]: a book cannot be called `{shorten(name, QUOTE_LIMIT)}`: {problem}")
        check.keys(entry, _BOOK_KEYS, where)
        if "sources" not in entry:
            raise check.error(f"[{where}] needs `sources`")
        books.append(_book(entry, root, check, name, where))
    _check_read_once(books, check)
    _check_companions(books, root, check)
    names = {book.name for book in books}
    for book in books:
        if book.changes_from is not None and (book.changes_from not in names or book.changes_from == book.name):
            raise check.error(f"`changes_from` of book `{book.name}` must name another book")
        if book.name in languages:
            raise check.error(f"book `{book.name}` has the name of a translation's folder")
    _check_edition_order(books, check)
    for book in books:
        _check_editions(book, books, check)
    _check_uses(books, check)
    output = check.path(table, "output", check.where())
    if output is not None and leaves_root(root, output):  # a pull request's `output = "../../www"`
        raise check.error(
            f"`output` in [{check.where()}] names {quoted(output)}, which is outside the project: a configured output "
            "is a folder of the project (`rulebook build -o` builds anywhere else)"
        )
    docs_url = check.url(table, "docs_url", check.where())
    generator = check.string(table, "generator", check.where()) or "mkdocs"
    if generator not in GENERATORS:
        raise check.error(f"`generator` in [{check.where()}] must be one of {', '.join(GENERATORS)}, not `{generator}`")
    project = Project(
        root=root,
        config_file=config_file,
        output=output_folder(root, output),
        books=tuple(books),
        docs_url=docs_url,
        generator=generator,
        offline=check.boolean(table, "offline", check.where()),
        print=_print_settings(check.table(table, "pdf", check.where()), check, _within(check.where(), "pdf")),
    )
    _check_committable(project, check)
    return project


def _check_committable(project: Project, check: _Checker) -> None:
    """Refuse a file the configuration names that Git ignores (``sources = ["token.md"]``, a file a CI step wrote
    and ``.gitignore`` lists: read and published): the configuration names only files a commit can hold, as a link
    leads only to a file Git tracks (:func:`rulebook.inputs.link_refusal`). One question to Git for them all."""
    refusal = git_refusal(project.root)
    if refusal is not None:  # `.git` another user's: every rule on what Git ignores would hold nothing
        raise ConfigError(refusal)
    named = [found for found in project.configured_inputs() if found.role not in ("configuration", "site settings")]
    ignored = git_ignored([found.path for found in named], project.root)
    for found in named:
        if Path(os.path.abspath(found.path)) in ignored:
            shown = os.path.relpath(found.path, project.root)
            raise check.error(
                f"the {found.role} `{shown}` is {ignored_said()}: the configuration names only files a commit can "
                "hold (commit it, or name another)"
            )


def _check_edition_order(books: list[BookConfig], check: _Checker) -> None:
    """No book is, through ``changes_from``, a later edition of itself (``v1`` after ``main`` after ``v1``: each
    site's "What changed" page against the other, and no first edition)."""
    earlier = {book.name: book.changes_from for book in books}
    done: set[str] = set()
    for book in books:
        path: list[str] = []
        current: str | None = book.name
        while current is not None and current not in done and current not in path:
            path.append(current)
            current = earlier.get(current)
        if current is not None and current in path:
            circle = path[path.index(current) :]
            raise check.error(
                f"books {', '.join(f'`{name}`' for name in circle)} each name another of them in `changes_from`, "
                "round to the first: one of them must be the first edition, with no `changes_from`"
            )
        done.update(path)


def _check_editions(book: BookConfig, books: list[BookConfig], check: _Checker) -> None:
    """A translation's ``from_edition`` names a book, and the later editions of a translated book follow one line:
    its status compares the edition it was made from with the latest one."""
    names = {b.name for b in books}
    for translation in book.translations:
        if translation.from_edition is not None and translation.from_edition not in names:
            known = ", ".join(sorted(names))
            raise check.error(
                f"`from_edition` of the `{translation.language}` translation of book `{book.name}` must name a "
                f"book (the books are: {known}), not {quoted(translation.from_edition)}"
            )
    if not book.translations:
        return
    seen, current = {book.name}, book.name
    while following := sorted(b.name for b in books if b.changes_from == current and b.name not in seen):
        if len(following) > 1:
            raise check.error(
                f"books {' and '.join(f'`{name}`' for name in following)} both follow `{current}` (`changes_from`): "
                f"the translations of `{book.name}` are compared with one latest edition; let one follow the other"
            )
        current = following[0]
        seen.add(current)


def _check_uses(books: list[BookConfig], check: _Checker) -> None:
    """Each book's ``uses`` names other books, each once, and no book uses itself through others."""
    names = {book.name for book in books}
    uses = {book.name: book.uses for book in books}
    for book in books:
        where = check.where() if book.name == MAIN_BOOK else check.where("books", book.name)
        for used in book.uses:
            if used == book.name or used not in names:
                known = ", ".join(sorted(names - {book.name})) or "none"
                raise check.error(
                    f"`uses` in [{where}] must name other books of the project, not {quoted(used)} "
                    f"(the others: {known})"
                )
        if len(set(book.uses)) != len(book.uses):
            raise check.error(f"`uses` in [{where}] names a book twice")
    if not _has_cycle(uses):
        return  # the common case, in one walk: the walk from each book below takes time in the books squared
    for book in books:
        cycle = _cycle_from(book.name, uses)
        if cycle:
            where = check.where() if book.name == MAIN_BOOK else check.where("books", book.name)
            raise check.error(
                f"`uses` in [{where}] makes a cycle: {' -> '.join(cycle)} (a book cannot build on a book built on it)"
            )


def _has_cycle(uses: Mapping[str, tuple[str, ...]]) -> bool:
    """Whether ``uses`` has a cycle: one depth-first walk over every book, on a stack of its own."""
    done: set[str] = set()
    for start in uses:
        if start in done:
            continue
        path = {start}
        unvisited = [(start, iter(uses.get(start, ())))]
        while unvisited:
            for used in unvisited[-1][1]:
                if used in path:
                    return True
                if used not in done:
                    path.add(used)
                    unvisited.append((used, iter(uses.get(used, ()))))
                    break
            else:
                finished, _ = unvisited.pop()
                path.discard(finished)
                done.add(finished)
    return False


def _cycle_from(start: str, uses: Mapping[str, tuple[str, ...]]) -> list[str]:
    """The books of a cycle of ``uses`` through ``start`` (``a -> b -> a``), or an empty list: a depth-first walk
    kept on a stack of its own, not Python's (a chain of 1,000 books was a ``RecursionError``)."""
    seen: set[str] = set()
    path = [start]
    unvisited = [iter(uses.get(start, ()))]
    while unvisited:
        for used in unvisited[-1]:
            if used == start:
                return [*path, used]
            if used not in seen:
                seen.add(used)
                path.append(used)
                unvisited.append(iter(uses.get(used, ())))
                break
        else:
            unvisited.pop()
            path.pop()
    return []


def _print_settings(table: Mapping[str, Any], check: _Checker, where: str) -> PrintSettings:
    check.keys(table, {"build", "paper", "font", "colour", *_LOWEST_LIMITS}, where)
    paper = check.string(table, "paper", where) or "a4"
    if paper not in PAPERS:
        raise check.error(f"`paper` in [{where}] must be one of {', '.join(PAPERS)}, not {quoted(paper)}")
    colour = check.string(table, "colour", where)
    if colour is not None and not re.fullmatch(r"#[0-9A-Fa-f]{6}", colour):
        raise check.error(f"`colour` in [{where}] must be a colour such as `#1f4e79`, not {quoted(colour)}")
    build = table.get("build", True)
    if not isinstance(build, bool):
        raise check._wrong("build", where, "true or false", build)
    limits = {key: _limit(table, key, check, where) for key in _LOWEST_LIMITS}
    return PrintSettings(build, paper, check.string(table, "font", where), colour, **limits)


_LOWEST_LIMITS = {"time_limit": 1, "memory_limit": 256, "picture_time_limit": 1, "picture_memory_limit": 256}
"""The least each of Typst's limits may be (times in seconds, memory in MB: Python and Typst take about 220 MB of
address space before any work)."""


def _limit(table: Mapping[str, Any], key: str, check: _Checker, where: str) -> int | None:
    """A limit of Typst's: a whole number from its least to 1,000,000."""
    value, lowest = table.get(key), _LOWEST_LIMITS[key]
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or not lowest <= value <= 10**6):
        raise check._wrong(key, where, f"a whole number from {lowest} to 1,000,000", value)
    return value


def _book(table: Mapping[str, Any], root: Path, check: _Checker, name: str, where: str) -> BookConfig:
    baseline = check.path(table, "baseline", where, root=root)
    language = check.string(table, "language", where)
    if language is None:
        language = "en"
    elif not language.strip():  # `language = ""` was English, in silence
        raise check.error(f"`language` in [{where}] is empty: write the book's language code, such as `en` or `fr`")
    if not LANGUAGE.fullmatch(language):
        raise check.error(
            f"`language` in [{where}] must be a language code such as `en` or `fr`, not {quoted(language)}"
        )
    listed = table.get("sources")
    if isinstance(listed, list) and len(listed) > MOST_SOURCES:  # counted before each is looked at
        raise check.error(
            f"`sources` in [{where}] names {len(listed):,} files, more than the {MOST_SOURCES:,} a book may have "
            "(a book of many files reads as one; each is a file the build opens): join them, or make books of them"
        )
    sources = check.paths(table, "sources", where, root=root)
    language_file = check.path(table, "language_file", where, root=root)
    translations = _translations(check.table(table, "translations", where), root, check, where)
    if translations and language not in TRANSLATION_LANGUAGES and language_file is None:
        raise check.error(
            f"[{where}]: the book is in `{language}`, a language not shipped (the languages: "
            f"{', '.join(TRANSLATION_LANGUAGES)}), and its translations are compared in it: describe it in a file of "
            "the project and name it with `language_file` (`rulebook docs translation`)"
        )
    return BookConfig(
        name=name,
        sources=tuple(root / source for source in sources),
        title=check.string(table, "title", where, most=LONGEST_TITLE),
        edition=check.string(table, "edition", where, most=LONGEST_TITLE),
        copyright=check.string(table, "copyright", where, most=LONGEST_LINE),
        description=check.string(table, "description", where, most=LONGEST_LINE),
        site_url=check.url(table, "site_url", where),
        language=language,
        language_file=root / language_file if language_file else None,
        baseline=root / baseline if baseline else None,
        severities=_severities(check.table(table, "lint", where), check, _within(where, "lint")),
        linking=Linking(
            check.strings(table, "terms", where),
            check.boolean(table, "emphasis", where),
            check.strings(table, "skip", where),
        ),
        changes_from=check.string(table, "changes_from", where),
        translations=translations,
        uses=check.strings(table, "uses", where),
        faq=check.boolean(table, "faq", where),
        format=_source_format(table, check, where),
    )


MOST_SOURCES = 5_000
"""The most files a book's ``sources`` may name: 40,000 (752 KB of configuration, every one missing) held the lint
13 s and printed 3.9 MB of errors; a real book has tens."""


def _check_read_once(books: Sequence[BookConfig], check: _Checker) -> None:
    """Refuse a file two books name as a source, links followed: each book read it (30 books naming links to one
    source of 1 MB: 21 s, a site of 56 MB; the thirty-fifth probe), and its terms were each book's own."""
    first: dict[str, str] = {}
    for book in books:
        for source in book.sources:
            owner = first.setdefault(os.path.realpath(source), book.name)
            if owner != book.name:
                raise check.error(
                    f"`sources` of book `{book.name}` names `{source.name}`, a file book `{owner}` reads as its source "
                    "(links followed): a file is one book's; the other book uses it (`uses`)"
                )


def _check_companions(books: Sequence[BookConfig], root: Path, check: _Checker) -> None:
    """Refuse two translations in one folder (links followed): the status file beside each (``status --mark`` writes
    it; no setting names another) and, unless named, the terminology and the waivers were one file for both, so
    ``compare --waive`` and ``status --mark`` could write neither's (the forty-third probe's note)."""
    first: dict[str, tuple[str, str]] = {}
    for book in books:
        for translation in book.translations:
            here = (book.name, translation.language)
            owner = first.setdefault(os.path.realpath(translation.status_file), here)
            if owner == here:
                continue
            both = (
                f"`{owner[1]}` and `{here[1]}` of book `{book.name}`"
                if owner[0] == book.name
                else f"`{owner[1]}` of book `{owner[0]}` and `{here[1]}` of book `{book.name}`"
            )
            folder = os.path.relpath(translation.source.parent, root)
            raise check.error(
                f"the translations {both} are in one folder, `{folder}/`: the files kept beside a translation "
                f"(`{STATUS_FILE}`, `{TERMS_FILE}`, `{WAIVERS_FILE}`) would be one for both; give each translation "
                "a folder of its own"
            )


def _source_format(table: Mapping[str, Any], check: _Checker, where: str) -> str | None:
    chosen = check.string(table, "format", where)
    if chosen is not None and chosen not in SOURCE_FORMATS:
        raise check.error(f"`format` in [{where}] must be one of {', '.join(SOURCE_FORMATS)}, not {quoted(chosen)}")
    return chosen


TRANSLATION_LANGUAGES = shipped_codes()
"""The languages a translation may be in without a language file of the project: those shipped as data
(:mod:`rulebook.languages`), whose numbers, comparisons and common words the comparison reads."""


def _translations(table: Mapping[str, Any], root: Path, check: _Checker, where: str) -> tuple[Translation, ...]:
    found = []
    for language, entry in sorted(table.items()):
        place = _within(where, f"translations.{shorten(language, QUOTE_LIMIT)}")
        if not LANGUAGE.fullmatch(language):
            raise check.error(f"[{place}]: {quoted(language)} is not a language code such as `fr`")
        if is_device_name(language):
            raise check.error(
                f"[{place}]: a translation's site takes the folder `{language}/`, a name Windows keeps for a device: "
                "no folder there can take it, and the published site could not be checked out there"
            )
        if not isinstance(entry, dict):
            raise check.error(f"[{place}] must be a table")
        check.keys(entry, {"source", "terms", "language_file", "from_edition", "format", "title"}, place)
        source = check.path(entry, "source", place, root=root)
        if source is None:
            raise check.error(f"[{place}] needs a `source` path")
        terms = check.path(entry, "terms", place, root=root)
        language_file = check.path(entry, "language_file", place, root=root)
        if language not in TRANSLATION_LANGUAGES and language_file is None:
            raise check.error(
                f"[{place}]: no language `{language}` is shipped (the languages: {', '.join(TRANSLATION_LANGUAGES)}); "
                "describe it in a file of the project and name it with `language_file` (`rulebook docs translation`)"
            )
        made_from = check.string(entry, "from_edition", place)
        found.append(
            Translation(
                language,
                root / source,
                root / terms if terms else None,
                language_file=root / language_file if language_file else None,
                from_edition=made_from,
                format=_source_format(entry, check, place),
                title=check.string(entry, "title", place, most=LONGEST_TITLE),
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


def _configured_path_problem(value: str) -> str | None:
    """Why a path the configuration gives cannot be taken (:func:`~rulebook.fileio.path_problem`, or a control or
    bidirectional character: `output = "a\\nb"` put a line break in the published folder's name and in Git's list of
    paths a deploy hands it), or None."""
    problem = path_problem(value)
    if problem is None and any(ord(character) in UNPRINTABLE for character in value):
        return "holds a control character (a line break, a tab, a bidirectional control): write it in plain characters"
    return problem


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

    def string(self, table: Mapping[str, Any], key: str, where: str, *, most: int | None = None) -> str | None:
        """A string; ``most``: at most so many characters (a title or a copyright line is on every page: one of a
        megabyte made a site of hundreds)."""
        value = table.get(key)
        if value is None:
            return None
        if not isinstance(value, str):
            raise self._wrong(key, where, "a string", value)
        if most is not None and len(value) > most:
            raise self.error(
                f"`{key}` in [{where}] has {len(value):,} characters, more than the {most:,} it may have "
                "(it is on every page)"
            )
        return value

    def path(self, table: Mapping[str, Any], key: str, where: str, *, root: Path | None = None) -> str | None:
        """A string naming a file or folder: one no system could open (a NUL, too long) is refused here; with
        ``root``, the project, a file of the project to read (:func:`~rulebook.inputs.named_refusal`)."""
        value = self.string(table, key, where)
        problem = _configured_path_problem(value) if value is not None else None
        if problem is not None:
            raise self.error(f"`{key}` in [{where}] {problem}")
        if value is not None and root is not None:
            self._own(root, value, f"`{key}` in [{where}]")
        return value

    def _own(self, root: Path, value: str, said: str) -> None:
        refused = named_refusal(root / value, root)
        if refused is not None:
            raise self.error(f"{said} names {quoted(value)}, {refused}")
        try:
            (root / value).resolve()
        except RuntimeError:  # Python 3.11's "Symlink loop" (`loop -> loop` committed): `serve` ended on it
            raise self.error(f"{said} names {quoted(value)}, whose way goes round a loop of symbolic links") from None
        except OSError:
            pass  # not there, or not to be reached: the read says why, in its place

    def paths(self, table: Mapping[str, Any], key: str, where: str, *, root: Path) -> tuple[str, ...]:
        """A list of strings, each naming a file of the project to read (see :meth:`path`), each file once: a
        source named twice (``rules/book.md`` and ``./rules/book.md``) was read twice, and each of its ids reported
        as "used again" where it is written once."""
        values = self.strings(table, key, where)
        seen: dict[str, str] = {}
        reached: dict[str, str] = {}
        for value in values:
            problem = _configured_path_problem(value)
            if problem is not None:
                raise self.error(f"a path of `{key}` in [{where}] {problem}")
            self._own(root, value, f"`{key}` in [{where}]")
            first = seen.get(os.path.normpath(value))
            seen.setdefault(os.path.normpath(value), value)
            if first is not None:
                again = "again" if first == value else f"again, as {quoted(value)}"
                raise self.error(f"`{key}` in [{where}] names {quoted(first)} {again}: a file is read once; remove one")
            # the file itself, through links: 100 committed links to one source of 1 MB read it 100 times (64 s)
            first = reached.setdefault(os.path.realpath(root / value), value)
            if first != value:
                raise self.error(
                    f"`{key}` in [{where}] names {quoted(value)}, which leads to the file {quoted(first)} names "
                    "(a link): a file is read once; remove one"
                )
        return values

    def url(self, table: Mapping[str, Any], key: str, where: str) -> str | None:
        value = self.string(table, key, where)
        # printable only: a bidirectional control (U+202E) reorders the address a reader sees in every page's links
        if value is not None and not (value.isprintable() and re.fullmatch(r"https?://[^\s\"'<>]+", value)):
            raise self.error(f"`{key}` in [{where}] must be an http(s) URL, not {quoted(value)}")
        return value

    def strings(self, table: Mapping[str, Any], key: str, where: str) -> tuple[str, ...]:
        value = table.get(key, [])
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self._wrong(key, where, "a list of strings", value)
        if any(not item.strip() for item in value):  # `terms = ["Fighter", ""]`: a name of nothing, read in silence
            raise self.error(f"`{key}` in [{where}] lists an empty string: remove it, or write what it names")
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
