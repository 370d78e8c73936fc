"""The site's page table (``rulebook.site.page_table``) against the sites a build makes.

Every name a book's site or a translation's takes at its root is one of its chapters, another book, a
translation, a chapter's old address, a data file, or an entry of the table: a page added to the site
without its entry (so without a reserved name) fails here. The table's names are refused as chapter ids
and book names by ``tests/hostile/test_output.py``.
"""

from __future__ import annotations

from pathlib import Path

import lxml.html
import pytest

from rulebook.site.page_table import DATA_FILES, RESERVED_NAMES, translation_report

BOOKS = ("turns-later", "other-game")
"""The bundled project's other books (folders of the main book's site)."""
LANGUAGES = ("fr",)


def _chapters(root: Path) -> set[str]:
    """The names of the chapters the site's home page lists (their pages' folders or files)."""
    home = root / "index.html"
    links = lxml.html.fromstring(home.read_bytes()).cssselect(".rb-toc a")
    return {str(a.get("href")).strip("./").split("/")[0].removesuffix(".html") for a in links}


def _redirect(path: Path) -> bool:
    """A chapter's old address: a page that only sends its reader on."""
    page = path / "index.html" if path.is_dir() else path
    return page.is_file() and b'<meta http-equiv="refresh"' in page.read_bytes()


def _unaccounted(root: Path, others: set[str]) -> list[str]:
    chapters = _chapters(root)
    found = []
    for entry in sorted(root.iterdir()):
        name = entry.name if entry.is_dir() else entry.name.split(".")[0]
        printed = entry.suffix == ".pdf"  # the print edition of the book or a translation, named by its title
        if entry.name.startswith(".") or entry.name in DATA_FILES or printed or name in chapters | others:
            continue
        if name not in RESERVED_NAMES and not _redirect(entry):
            found.append(entry.name)
    return found


def _sites(output: Path) -> dict[Path, set[str]]:
    """Each site's root, with the names of its own that are not pages: other books, translations, reports."""
    reports = {translation_report(language) for language in LANGUAGES}
    sites = {output: {*BOOKS, *LANGUAGES, *reports}}
    sites |= {output / book: set() for book in BOOKS}
    sites |= {output / language: set() for language in LANGUAGES}
    return sites


@pytest.mark.parametrize("drafts", [False, True], ids=["published", "editors"])
def test_every_name_at_a_sites_root_is_in_the_page_table(any_site: Path, drafts_site: Path, drafts: bool) -> None:
    output = drafts_site if drafts else any_site
    for root, others in _sites(output).items():
        assert _unaccounted(root, others) == [], root
