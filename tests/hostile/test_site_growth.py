"""Hostile and large input against the site's size and the generator's work (issue 32, the twentieth probe).

A chapter's page of thousands of headings (the search index looks each up in the page's whole table of contents:
quadratic), a title written into the navigation of many pages, and a book of thousands of chapters, each page
carrying the navigation: each is bounded by a limit the test reaches, or its work is counted.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from rulebook.graph import TermGraph
from rulebook.model import Book
from rulebook.reading_order import MOST_READ_FIRST_BYTES, read_first_bytes, read_first_bytes_at_most, reading_order
from rulebook.site.page_table import LONGEST_TITLE, MOST_PAGE_SECTIONS, MOST_PAGES
from rulebook.site.pages import CHAPTERS_PER_NAV_GROUP, nav_chapters
from rulebook.xml_source import parse_xml_string

from .scratch import REFUSED, run, source
from .scratch import scratch as scratch  # the fixture every case takes


def _chapter_of(count: int, title: str = "C") -> str:
    sections = "".join(f'<section id="s{i}" title="S{i}">x.</section>\n' for i in range(count - 1))
    return f'<chapter id="c" title="{title}">\n{sections}</chapter>\n'


def _refusal(capsys: pytest.CaptureFixture[str], folder: Path, message: str) -> None:
    """The lint reports ``message`` as an error, and the build refuses the book with the same words."""
    (folder / "rulebook.toml").write_text('sources = ["book.xml"]\n[pdf]\nbuild = false\n', encoding="utf-8")
    linted = run(capsys, "lint")
    assert linted.code == 1 and f"error[RB306]: {message}" in linted.out, linted.out
    built = run(capsys, "build", "-q", "-o", "out")
    assert built.code == 2 and f"error[RB306]: {message}" in built.err and built.err.endswith(REFUSED), built.err
    assert not (folder / "out").exists()


def test_a_chapter_of_more_sections_than_a_page_holds_is_refused_by_lint_and_build(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    # 40,000 sections in one chapter took a minute of Material's search plugin (quadratic in a page's headings)
    source(scratch, "book.xml", f"<document>{_chapter_of(MOST_PAGE_SECTIONS + 1)}</document>\n")
    _refusal(
        capsys,
        scratch,
        f"chapter `c` holds {MOST_PAGE_SECTIONS + 1:,} sections, more than the {MOST_PAGE_SECTIONS:,} one page of the "
        "site may hold",
    )


def _chapters(count: int) -> str:
    return "".join(f'<chapter id="c{i}" title="C{i}">x.</chapter>\n' for i in range(count))


def test_a_book_of_more_chapters_than_a_site_has_pages_is_refused_by_lint_and_build(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    # 20,000 one-line chapters (270 KB of source) made a site of 1.1 GB in 83 s: each chapter is a page
    source(scratch, "book.xml", f"<document>{_chapters(MOST_PAGES + 1)}</document>\n")
    _refusal(
        capsys,
        scratch,
        f"the book holds {MOST_PAGES + 1:,} chapters, more than the {MOST_PAGES:,} pages a site may have",
    )
    place = f"book.xml:{MOST_PAGES + 1}:"  # the first chapter past the bound, where a split would start
    assert place in run(capsys, "lint").out


def test_a_book_at_the_bound_of_chapters_passes_the_lint(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", f"<document>{_chapters(MOST_PAGES)}</document>\n")
    assert "RB306" not in run(capsys, "lint").out


def test_a_chapter_at_the_bound_of_sections_passes_the_lint(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", f"<document>{_chapter_of(MOST_PAGE_SECTIONS)}</document>\n")
    assert "RB306" not in run(capsys, "lint").out


@pytest.mark.parametrize(
    ("book", "what"),
    [
        (f'<document><chapter id="c" title="{"T" * (LONGEST_TITLE + 1)}">x.</chapter></document>', "chapter `c`"),
        (
            f'<document><chapter id="c" title="C"><section id="s" title="{"T" * (LONGEST_TITLE + 1)}">x.</section>'
            "</chapter></document>",
            "section `s`",
        ),
        (
            '<document><chapter id="c" title="C"><sequence kind="setup" id="q"><item title="'
            + "T" * (LONGEST_TITLE + 1)
            + '">Place.</item></sequence></chapter></document>',
            "a step",
        ),
    ],
)
def test_a_title_longer_than_a_title_may_be_is_refused_by_lint_and_build(capsys, scratch, book: str, what: str) -> None:  # type: ignore[no-untyped-def]
    # one chapter title of 1 MB, written into the navigation of 400 pages, made a site of 455 MB
    source(scratch, "book.xml", book + "\n")
    _refusal(
        capsys,
        scratch,
        f"the title of {what} is {LONGEST_TITLE + 1:,} characters long, more than the {LONGEST_TITLE} a title may be",
    )


def test_a_title_at_the_bound_passes_the_lint(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", f'<document><chapter id="c" title="{"T" * LONGEST_TITLE}">x.</chapter></document>\n')
    assert "RB306" not in run(capsys, "lint").out


def _rendered(nav: list[Any], path: str) -> int:
    """How many entries of ``nav`` the page at ``path`` renders, as Material does with ``navigation.sections`` and
    ``navigation.prune``: every top-level entry, every entry of a top-level group (a section, always open), and the
    entries of each group open on the way to the page; a group below the top level that holds no open page is one
    entry (pruned)."""

    def holds(entries: list[Any]) -> bool:
        return any(value == path or (isinstance(value, list) and holds(value)) for e in entries for value in e.values())

    def inside(entries: list[Any], top: bool) -> int:
        count = len(entries)
        for entry in entries:
            for value in entry.values():
                if isinstance(value, list) and (top or holds(value)):
                    count += inside(value, top=False)
        return count

    return inside(nav, top=True)


@pytest.mark.parametrize("count", [26, 500, 4_000, 100_000])
def test_each_page_renders_a_navigation_of_logarithmic_size_whatever_the_chapters(count: int) -> None:
    # 4,000 chapters: 531 entries on each page (7 top-level groups of 25 groups), a site of 443 MB
    nav = nav_chapters([(f"C{i}", f"c{i}.md") for i in range(count)], "Chapters")
    levels = 1
    while CHAPTERS_PER_NAV_GROUP**levels < count:
        levels += 1
    for page in (0, count // 2, count - 1):
        assert _rendered(nav, f"c{page}.md") <= 1 + CHAPTERS_PER_NAV_GROUP * levels


def test_a_short_book_lists_its_chapters_at_the_top_level() -> None:
    chapters = [(f"C{i}", f"c{i}.md") for i in range(CHAPTERS_PER_NAV_GROUP)]
    assert nav_chapters(chapters, "Chapters") == [{title: path} for title, path in chapters]


def _chain(count: int) -> str:
    """``count`` definitions in one section, each using the one before (the rule data lists up to 100 terms to read
    before each)."""
    definitions = "".join(
        f'<definition name="a{i}">A <reference name="a{i}">t</reference> is <reference name="a{i - 1}">u</reference>.'
        "</definition>\n"
        for i in range(1, count)
    )
    section = f'<section id="s" title="S"><definition name="a0">Base.</definition>\n{definitions}</section>'
    return f'<document><chapter id="c" title="C">{section}</chapter></document>\n'


def test_the_lists_of_terms_read_first_are_counted_as_the_rule_data_writes_them(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", _chain(300))
    assert run(capsys, "build", "-q", "--data-only", "-o", "out").code == 0
    text = (scratch / "out" / "rules.json").read_text(encoding="utf-8")
    lists = {name: term["read_first"] for name, term in json.loads(text)["terms"].items()}
    written = sum(len(found.group(0)) for found in re.finditer(r'"read_first": \[[^\]]*\]', text))
    assert read_first_bytes(lists) == written
    assert max(len(names) for names in lists.values()) == 100


@pytest.mark.slow  # a book of 1.5 MB, read and linted twice: about 4 s
def test_rule_data_whose_lists_of_terms_read_first_pass_their_bound_is_refused_by_lint_and_build(
    capsys, scratch
) -> None:  # type: ignore[no-untyped-def]
    # 30,000 chained definitions (3.66 MB) passed the lint; the build then refused a 72 MB rules.json, past the
    # engine's 64 MB, after 5.4 s and 797 MB. 13,000 list 17.3 MB of names to read first, past their 16 MB.
    source(scratch, "book.xml", _chain(13_000))
    _refusal(capsys, scratch, "the terms to read before each of the book's 13,000 terms come to 17,265,297 bytes")
    assert MOST_READ_FIRST_BYTES < 17_265_297


@pytest.mark.parametrize("count", [150, 300])
def test_the_most_the_lists_can_come_to_is_never_less_than_what_they_take(count: int) -> None:
    # the lint orders the terms (loading the graph library) only when this bound passes the limit
    terms = TermGraph(Book((parse_xml_string(_chain(count)).document,)))  # type: ignore[arg-type]
    _, lists = reading_order(terms)
    assert read_first_bytes(lists) <= read_first_bytes_at_most(terms)
    assert read_first_bytes_at_most(terms) < MOST_READ_FIRST_BYTES  # a small book: far under the limit


def _one_chapter_and_plain_french(folder: Path) -> None:
    """A book of one chapter, and its French translation `fr.md` (a plain-Markdown file the test writes)."""
    source(folder, "book.xml", '<document><chapter id="c" title="C">x.</chapter></document>\n')
    (folder / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[translations.fr]\nsource = "fr.md"\nformat = "plain-markdown"\n[pdf]\nbuild = false\n',
        encoding="utf-8",
    )


def _pages_of_books(folder: Path, books: int, chapters: int) -> None:
    """``books`` books of ``chapters`` chapters each, each chapter defining a term of its own."""
    lines = ['sources = ["b0.xml"]', "[pdf]", "build = false"]
    for index in range(books):
        body = "".join(
            f'<chapter id="c{index}x{n}" title="C{n}"><definition name="t{index}x{n}">A <reference '
            f'name="t{index}x{n}">t</reference>.</definition></chapter>\n'
            for n in range(chapters)
        )
        source(folder, f"b{index}.xml", f"<document>\n{body}</document>\n")
        if index:
            lines += [f"[books.b{index}]", f'sources = ["b{index}.xml"]']
    (folder / "rulebook.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")


def test_a_family_of_books_past_the_sites_pages_is_refused_by_lint_and_build(  # type: ignore[no-untyped-def]
    capsys, scratch, monkeypatch
) -> None:
    """Ten books of 1,999 chapters each, each within its own bound, made a site of 20,000 pages (805 MB, 83 s): the
    site's pages are bounded across its books (here at 10 for the test), by the lint and the build alike."""
    from rulebook.recipe import stages

    monkeypatch.setattr(stages, "MOST_SITE_PAGES", 10)
    _pages_of_books(scratch, books=3, chapters=3)  # 9 pages
    assert run(capsys, "lint").code == 0
    _pages_of_books(scratch, books=3, chapters=4)  # 12 pages
    said = "the site would have 12 pages of chapters, more than the 10 a site may have"
    linted = run(capsys, "lint")
    assert linted.code == 2 and said in linted.err and "the most: `b1` 4, `b2` 4, `main` 4" in linted.err, (
        linted.out + linted.err
    )
    built = run(capsys, "build", "-q", "-o", "out")
    assert built.code == 2 and said in built.err and not (scratch / "out").exists(), built.err
    assert run(capsys, "lint", "--book", "b1").code == 0  # one book of the three: its own site
    assert run(capsys, "build", "-q", "--book", "b1", "-o", "out").code == 0


def test_an_edit_that_takes_the_site_past_its_pages_is_refused_by_serve(  # type: ignore[no-untyped-def]
    scratch, monkeypatch
) -> None:
    """`serve` built each edit's pages without the bound a build holds: an edit adding chapters took the site past
    it (the twenty-eighth probe). The edited book is counted with the others as served (bound here 10)."""
    from rulebook import build_values
    from rulebook.project import load_project
    from rulebook.recipe import stages
    from rulebook.recipe.cache import StageCache
    from rulebook.recipe.live import live_books, live_pages_refusal, update_live

    monkeypatch.setattr(stages, "MOST_SITE_PAGES", 10)
    _pages_of_books(scratch, books=3, chapters=3)  # 9 pages
    project, cache = load_project(scratch), StageCache(limit=8)
    options = build_values.BuildOptions(output=scratch / "out")
    served = live_books(project, options, cache)
    assert not isinstance(served, build_values.BuildResult)
    books = {book.config.name: book for book in served}
    more = "".join(f'<chapter id="n{n}" title="N{n}">x.</chapter>\n' for n in range(2))
    edited = (scratch / "b1.xml").read_text(encoding="utf-8").replace("</document>", more + "</document>")
    (scratch / "b1.xml").write_text(edited, encoding="utf-8")  # 11 pages
    edit = update_live(project, options, books["b1"], cache)
    assert not isinstance(edit, build_values.BuildResult)
    assert live_pages_refusal(books, "b1", books["b1"].read) is None  # as served: 9
    said = live_pages_refusal(books, "b1", edit.read)
    assert said is not None and said.startswith("the site would have 11 pages of chapters, more than the 10"), said


def test_a_translations_navigation_is_grouped_as_the_books(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A translation's chapters were one flat list in its navigation, which every page of it renders: 1,000 French
    chapters (22 KB) took 45 s, 5,000 took 541 s. Grouped as the book's own, in the translation's words."""
    _one_chapter_and_plain_french(scratch)
    count = 3 * CHAPTERS_PER_NAV_GROUP
    (scratch / "fr.md").write_text("".join(f"# Titre {n}\n\nTexte {n}.\n\n" for n in range(count)), encoding="utf-8")
    assert run(capsys, "build", "-q").code == 0
    pages = sorted(path for path in (scratch / "site" / "fr").glob("*/index.html") if "Titre" in path.read_text())
    assert len(pages) >= count
    page = pages[len(pages) // 2].read_text(encoding="utf-8")
    assert f"Chapitres 1–{count}" in page
    assert page.count('class="md-nav__link') < 2 * CHAPTERS_PER_NAV_GROUP + 10, "every chapter on every page"


def test_a_translations_chapters_count_among_the_sites_pages(capsys, scratch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """A translation of 5,000 chapters (114 KB) beside a book of one made 5,000 pages of its site, which the book's
    own bound did not see: its chapters count among the site's pages, by the lint and the build (bound here 10)."""
    from rulebook.recipe import stages

    monkeypatch.setattr(stages, "MOST_SITE_PAGES", 10)
    _one_chapter_and_plain_french(scratch)
    (scratch / "fr.md").write_text("".join(f"# Titre {n}\n\nTexte.\n\n" for n in range(9)), encoding="utf-8")
    assert run(capsys, "lint").code == 0  # 1 + 9 pages
    (scratch / "fr.md").write_text("".join(f"# Titre {n}\n\nTexte.\n\n" for n in range(10)), encoding="utf-8")
    said = "the site would have 11 pages of chapters, more than the 10 a site may have"
    linted = run(capsys, "lint")
    assert linted.code == 2 and said in linted.err, linted.out + linted.err
    built = run(capsys, "build", "-q", "-o", "out")
    assert built.code == 2 and said in built.err and not (scratch / "out").exists(), built.err


def test_a_translations_chapters_never_take_the_sites_own_pages(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A plain-Markdown translation's chapter `Index` replaced its site's home page, `Glossary` was lost under the
    glossary, `Search` and `Assets` went into the site's own folders (exit 0, not a word); a title of 300 characters
    stopped the build with "file name too long" from its scratch folder. A chapter page's name is the translation's
    own only when it may name a page; else a slug of its title (`index-2`)."""
    _one_chapter_and_plain_french(scratch)
    titles = ["Index", "Glossary", "Search", "Assets", "404", "Aux", "T" * 300]
    (scratch / "fr.md").write_text("".join(f"# {t}\n\nTEXT-{n}.\n\n" for n, t in enumerate(titles)), encoding="utf-8")
    built = run(capsys, "build", "-q")
    assert built.code == 0, built.err
    french = scratch / "site" / "fr"
    home = (french / "index.html").read_text(encoding="utf-8")
    assert "TEXT-0" not in home and 'href="index-2/"' in home  # the home page, linking to the chapter
    for n in range(len(titles)):  # each chapter's text on a page of its own, none in the site's own folders
        holding = [p for p in french.rglob("*.html") if f"TEXT-{n}." in p.read_text(encoding="utf-8")]
        assert len(holding) == 1 and holding[0].parent.name not in ("glossary", "search", "assets", "404"), holding


@pytest.mark.parametrize(
    ("french", "said"),
    [
        ("# Top\n\nx\n\n" + "".join(f"## S{n}\n\nx\n\n" for n in range(5)), "chapter `top` holds 6 sections"),
        ("# " + "T" * (LONGEST_TITLE + 1) + "\n\ny\n", f"is {LONGEST_TITLE + 1} characters long, more than the"),
    ],
    ids=["sections", "title"],
)
def test_a_translation_the_lint_only_reads_is_held_to_the_pages_bounds(  # type: ignore[no-untyped-def]
    capsys, scratch, monkeypatch, french, said
) -> None:
    """A plain-Markdown translation (read by the lint, checked by `compare`) was held to none of the site's bounds:
    a chapter of 40,000 sections took 81 s to publish (quadratic), 25 titles of 160,000 characters made a site of
    164 MB. Its pages are bounded as the book's, by the lint and the build (here 5 sections a chapter)."""
    from rulebook.lint.rules import too_large

    monkeypatch.setattr(too_large, "MOST_PAGE_SECTIONS", 5)
    _one_chapter_and_plain_french(scratch)
    (scratch / "fr.md").write_text(french, encoding="utf-8")
    linted = run(capsys, "lint", "--color", "never")
    assert linted.code == 1 and "error[RB306]" in linted.out and said in linted.out and "--> fr.md:1:1" in linted.out
    built = run(capsys, "build", "-q", "-o", "out")
    assert built.code == 2 and said in built.err and not (scratch / "out").exists(), built.err


def test_a_translations_front_chapter_keeps_its_id_on_the_home_page(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A PDF conversion's title heading `# Index` before its numbered chapters: it is shown on the home page as
    `#index`, but links to it said `#index-2` (the slug a chapter's page takes when its id cannot name one): a dead
    "in the rules" link, and Zensical stopped the build on it. Only a chapter that is a page of its own is renamed."""
    assert run(capsys, "init", "--format", "markdown", ".").code == 0
    (scratch / "rules" / "fr").mkdir()
    (scratch / "rules" / "fr" / "book.md").write_text("# Index\n\nX.\n\n# 1 Deux\n\nT.\n", encoding="utf-8")
    with (scratch / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('[translations.fr]\nsource = "rules/fr/book.md"\nformat = "plain-markdown"\n')
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    french = scratch / "site" / "fr"
    assert '<h1 id="index"' in (french / "index.html").read_text(encoding="utf-8")
    linked = "".join(path.read_text(encoding="utf-8") for path in french.rglob("*.html"))
    assert "#index-2" not in linked and 'class="rb-in-rules" href="../"' in linked


@pytest.mark.parametrize(
    ("appended", "french", "untranslated", "translated"),
    [
        (
            "# Third Things {#s1}\n\nThe third chapter's own words: ORIGINAL-S1-TEXT.\n",
            "# Bases\n\n## 1 Les bases\n\nTexte des bases.\n",
            ("s1-2", "Third Things"),
            "les-bases",
        ),
        (
            "# Zzz Last {#Jouer}\n\nThe last.\n",
            "## 1 Les bases\n\nTexte.\n\n## 2 Jouer\n\nJeu.\n",
            ("Jouer-2", "Zzz Last"),
            "jouer",
        ),
    ],
    ids=["redirect", "case"],
)
def test_an_untranslated_chapters_page_is_named_apart_from_every_other(  # type: ignore[no-untyped-def]
    capsys, scratch, appended, french, untranslated, translated
) -> None:
    """The untranslated chapter `s1`'s page was replaced by the redirect kept at a numbered chapter's old address
    `s1/`; the untranslated `Jouer/` stood beside the translation's `jouer/` (on macOS or Windows one replaced the
    other). An untranslated chapter's page is named apart from every page and old address, whatever the case."""
    assert run(capsys, "init", "--format", "markdown", ".").code == 0
    with (scratch / "rules" / "book.md").open("a", encoding="utf-8") as book:
        book.write(f"\n{appended}")
    (scratch / "rules" / "fr").mkdir()
    (scratch / "rules" / "fr" / "book.md").write_text(french, encoding="utf-8")
    with (scratch / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('[translations.fr]\nsource = "rules/fr/book.md"\nformat = "plain-markdown"\n')
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    french_site = scratch / "site" / "fr"
    names = {path.name for path in french_site.iterdir() if path.is_dir()}
    assert {untranslated[0], translated} <= names and len({name.lower() for name in names}) == len(names), names
    page = (french_site / untranslated[0] / "index.html").read_text(encoding="utf-8")
    assert f"<title>{untranslated[1]}" in page and "location.replace" not in page


def test_the_quick_reference_is_left_out_of_the_search(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """The quick reference writes a heading for each sequence, bounded by nothing: 20,000 sequences in one section
    (1.6 MB) made the search plugin look each heading up in the page's whole table of contents (36 s, quadratic).
    It repeats the rules, as the glossary does: searches land on the rules text."""
    sequences = "".join(
        f'<sequence kind="turn" id="q{n}" title="Sq {n}"><item title="Move">a</item></sequence>' for n in range(3)
    )
    source(
        scratch,
        "book.xml",
        f'<document><chapter id="c" title="C"><section id="s" title="S">x.{sequences}</section></chapter></document>\n',
    )
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n[pdf]\nbuild = false\n', encoding="utf-8")
    assert run(capsys, "build", "-q").code == 0
    assert "Sq 2" in (scratch / "site" / "tables" / "index.html").read_text(encoding="utf-8")
    index = json.loads((scratch / "site" / "search" / "search_index.json").read_text(encoding="utf-8"))
    locations = [entry["location"] for entry in index["docs"]]
    assert any(location.startswith("c/") for location in locations)
    assert not any(location.startswith("tables/") for location in locations)
