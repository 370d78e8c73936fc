"""The site's own pages and folders: the one table every name a chapter or a book may not take derives from.

Each entry is a name at the root of a book's site (and of a translation's, under ``<language>/``): a page
of ours (its Markdown file ``name.md``, its address ``name/``), a folder, or a file the site generator
writes. A chapter's page is named by its id and a book's folder by its name, so neither may take one of
these (the configuration's book names in ``project.book_name_problem``, ``recipe.stages.reserved_names``, the
translated site's anchors and the ``reserved-name`` lint rule all read this table). Adding a page to the site
is one entry here.

Imports nothing: the configuration (a lower layer) reads it too.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class SiteEntry:
    """A name the site takes at its root."""

    name: str
    """The page's, folder's or file's name (without ``.md``, ``.html`` or ``.xml``)."""
    what: str
    """What it holds, a noun phrase (a refused book name's message says it: "`assets/` is the site's own folder
    for the site's styles, scripts and icons")."""
    ours: bool
    """A page the compiler writes (``name.md``); otherwise a folder or file of the pictures or the generator's."""

    @property
    def file(self) -> str:
        """The page's Markdown file in the docs folder (``glossary.md``)."""
        return f"{self.name}.md"


HOME = SiteEntry("index", "the home page", ours=True)
GLOSSARY = SiteEntry("glossary", "the glossary (every defined term A-Z, with where it is used)", ours=True)
TABLES = SiteEntry(
    "tables", "the quick reference (roll tables, tests, sequences, profile, army composition)", ours=True
)
CHANGES = SiteEntry("changes", 'the "What changed" page (since the previous edition)', ours=True)
LINT = SiteEntry("lint", "the lint report and the rules' documentation (the editor's view)", ours=True)
GRAPH = SiteEntry("graph", "the term graph and its pictures (the editor's view)", ours=True)
IMAGES = SiteEntry("images", "the pictures of the sources", ours=False)
ASSETS = SiteEntry("assets", "the site's styles, scripts and icons", ours=False)  # the theme's and the compiler's
SEARCH = SiteEntry("search", "the search index", ours=False)  # search/ with MkDocs, search.json with Zensical
NOT_FOUND = SiteEntry("404", "the page a missing address shows", ours=False)
SITEMAP = SiteEntry("sitemap", "the sitemap", ours=False)  # sitemap.xml (and sitemap.xml.gz)

SITE_ENTRIES = (HOME, GLOSSARY, TABLES, CHANGES, LINT, GRAPH, IMAGES, ASSETS, SEARCH, NOT_FOUND, SITEMAP)
"""Every name a book's site (and each translation's) takes at its root."""

SITE_ENTRY = {entry.name: entry for entry in SITE_ENTRIES}
"""Each entry by its name."""

RESERVED_NAMES = frozenset(SITE_ENTRY)
"""Names no chapter and no book may take: its page or folder would replace one of the site's own."""

DEVICE_NAMES = frozenset({"con", "prn", "aux", "nul", *(f"com{n}" for n in range(10)), *(f"lpt{n}" for n in range(10))})
"""Names Windows keeps for its devices, in any case and whatever follows a dot: no file or folder there takes one,
so a page or book so named could not be built, checked out (the published branch) or served on Windows."""


def is_device_name(name: str) -> bool:
    """Whether Windows keeps ``name`` (a file's or folder's, one part of a path) for a device (:data:`DEVICE_NAMES`)."""
    return name.split(".")[0].lower() in DEVICE_NAMES


MOST_PAGES = 2_000
"""The most chapters a book may hold: each is a page of the site, about 4 ms of the build and 50 KB of the theme's
markup (20,000 one-line chapters, 270 KB of source, made a site of 1.1 GB in 83 s). Real rulebooks hold a few dozen."""

MOST_SITE_PAGES = 10_000
"""The most chapter pages a project's site may have, every book's in its language and in each translation's: ten
books of 1,999 chapters each (400 KB of source) made 20,000 pages, a site of 805 MB, in 83 s."""

MOST_PAGE_SECTIONS = 2_000
"""The most sections (the chapter itself, its sections and subsections) one chapter's page may hold: each is a
heading, and the site generator's search index looks each heading up in the page's whole table of contents, work
growing with the square of a page's headings (10,000 took 10 s, 40,000 a minute; 2,000 about 0.1 s). Real rulebooks
hold a few hundred a chapter."""

LONGEST_TITLE = 300
"""The longest title, in characters (a book's, chapter's, section's, figure's, a declared table's, list's or step's):
a chapter's title is written into the navigation of many pages, a book's into every page (one of a megabyte made
a site of 455 MB). A title is a line; the text belongs in the section."""
LONGEST_LINE = 1_000
"""The most characters a line written on every page may have (a configured copyright line or description, a word
of the site's ``strings.toml``): one of a megabyte made a site of hundreds."""

LONGEST_PAGE_NAME = 200
"""The longest chapter id, in characters: its page is a file and a folder named after it (``id.md``, ``id.html``,
``id/``), and a file system takes names of at most 255 bytes. A plain-Markdown book's ids are its headings' words:
a longer heading is a sentence, not a title."""

DATA_FILES = ("rules.json", "rules.schema.json")
"""Files at a book's root that no page can take (a page is a folder, or offline a ``.html`` file)."""

TRANSLATION_REPORT = "translation-{language}"
"""The editor's page of a translation's report, in the original's site (``translation-fr``)."""


TRANSLATION_REPORT_PREFIX = TRANSLATION_REPORT.partition("{language}")[0]
"""How every translation report's name begins: no book may be called so (``translation-``)."""


def translation_report(language: str) -> str:
    """The name of a translation's report page in the original's site (``translation-fr``)."""
    return TRANSLATION_REPORT.replace("{language}", language)
