"""The site of a family of books (tests/family/): links and preview cards across books, the glossary's terms from
other books, "Used in" from other books and "Clarified in" from the FAQ on the core's pages; every link and
anchor good with the site served from the root and from a sub-path, 404 pages included; the same in Chromium.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from rulebook.cli import main

from .conftest import CHROMIUM, serve
from .test_family import FAMILY
from .test_site import linkcheck


@pytest.fixture(scope="module")
def family_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The family's site, built once (MkDocs)."""
    folder = tmp_path_factory.mktemp("family") / "project"
    shutil.copytree(FAMILY, folder)
    assert main(["build", "-q", "--config", str(folder / "rulebook.toml"), "-o", str(folder / "site")]) == 0
    return folder / "site"


def html(site: Path, page: str) -> Any:
    return lxml.html.fromstring((site / page / "index.html").read_bytes())


def previews(document: Any) -> dict[str, Any]:
    return json.loads(document.cssselect("script.rb-previews")[0].text)


def test_a_core_term_in_the_army_book_links_to_the_cores_page_with_the_same_card(family_site: Path) -> None:
    page = html(family_site, "elves/army_units")
    links = {a.get("data-term"): a.get("href") for a in page.cssselect("article a.rb-term")}
    assert links["charge"] == "../../movement/#term-charge"
    assert links["main:courage_test"] == "../../general_principles/#term-courage_test"
    assert [a.get("href") for a in page.cssselect("article a.rb-link")] == [
        "../../general_principles/#measuring_distances"
    ]
    mine, core = previews(page)["charge"], previews(html(family_site, "movement"))["charge"]
    assert (mine.pop("href"), core.pop("href")) == ("../../movement/#term-charge", "#term-charge")  # from each page
    assert mine == core  # the same card, the terms it names linked alike
    assert mine["title"] == "Charge"
    assert mine["text"] == "A charge moves a unit into contact with an enemy it has Line of Sight to."
    assert previews(page)["main:courage_test"]["title"] == "Courage Test"


def test_the_glossary_lists_the_core_terms_a_book_uses_apart(family_site: Path) -> None:
    glossary = html(family_site, "elves/glossary")
    own = [a.text_content() for a in glossary.cssselect(".rb-glossary-entry:not(.rb-outside-term) h3 a")]
    assert own == ["Forest Spirit", "Forest Walker"]
    part = glossary.cssselect("h2#from-other-books")[0]
    assert part.text_content().strip().startswith("Terms from other books")
    assert [h.text_content() for h in glossary.cssselect("h3.rb-glossary-book")] == ["Skirmish: Core Rules"]
    outside = {a.text_content(): a.get("href") for a in glossary.cssselect(".rb-outside-term a.rb-term")}
    assert outside == {
        "Charge": "../../movement/#term-charge",
        "Courage Test": "../../general_principles/#term-courage_test",
        "Forest": "../../movement/#term-forest",
        "Line of Sight": "../../general_principles/#term-line_of_sight",
        "Unit": "../../general_principles/#term-unit",
    }
    assert not (family_site / "glossary" / "index.html").read_text(encoding="utf-8").count("from-other-books")


def test_the_cores_glossary_says_which_other_books_use_a_term(family_site: Path) -> None:
    glossary = html(family_site, "glossary")
    used_in = {" ".join(a.text_content().split()): a.get("href") for a in glossary.cssselect("#forest .rb-used-in a")}
    assert used_in == {
        "Army Book: Sylvan Elves, Forest Walkers": "../elves/army_rules/#forest_walkers",
        "Army Book: Sylvan Elves, Forest Spirit": "../elves/army_units/#forest_spirit",
    }
    faq = [a.text_content() for a in glossary.cssselect("#charge .rb-used-in a")]
    assert "FAQ and Errata, Q1: Charging out of sight" in faq


def test_a_faq_entry_shows_on_the_page_of_the_rule_it_clarifies(family_site: Path) -> None:
    page = html(family_site, "movement")
    aside = page.cssselect(".rb-clarified")
    assert len(aside) == 1
    assert " ".join(aside[0].text_content().split()) == "Clarified in: FAQ and Errata, Q1: Charging out of sight"
    assert aside[0].cssselect("a")[0].get("href") == "../faq/faq_core/#q_charge_sight"
    # It stands at the end of the section it clarifies, before the next one.
    following = aside[0].getparent().getnext()
    assert following is not None and following.get("id") == "terrain"
    elves = html(family_site, "elves/army_units").cssselect(".rb-clarified a")
    assert [a.get("href") for a in elves] == ["../../faq/faq_elves/#q_spirit"]


def test_the_french_army_book_names_and_links_core_terms_by_the_french_core(family_site: Path) -> None:
    page = html(family_site, "elves/fr/unites-de-l-armee")
    links = {a.text_content(): a.get("href") for a in page.cssselect("article a.rb-term")}
    assert links["test de courage"] == "../../../fr/glossary/#courage_test"  # the core's French glossary entry
    assert links["forêt"] == "../../../fr/glossary/#forest"
    assert links["marcheur des forêts"] == "../regles-d-armee/#term-forest_walker"  # its own term, its own page
    card = previews(page)["main:courage_test"]
    assert card == {
        "title": "test de courage (Courage Test)",
        "text": "(texte original) A Courage Test is passed when two dice roll at most the unit's Leadership.",
        "href": "../../../fr/glossary/#courage_test",  # where the core's French states it
        "links": [[73, 77, "unit"]],  # the card of a term the core's card names opens from it
    }
    assert card["text"][73:77] == "unit"
    core = lxml.html.fromstring((family_site / "fr" / "glossary" / "index.html").read_bytes())
    assert core.cssselect("#courage_test h3")[0].text_content() == "Test de courage"


def test_every_books_404_page_links_inside_its_own_folder(family_site: Path) -> None:
    for book in ("", "elves/", "faq/", "fr/", "elves/fr/"):
        assert_links_from_where_it_is(family_site / book / "404.html")


def test_every_bundled_books_404_page_links_inside_its_own_folder(site: Path) -> None:
    """The bundled project's books (no site_url): `other-game/404.html` led to the main book's `/general-rules/`."""
    pages = sorted(site.rglob("404.html"))
    assert {p.parent.relative_to(site).as_posix() for p in pages} >= {".", "fr", "other-game", "turns-later"}
    for page in pages:
        assert_links_from_where_it_is(page)


def assert_links_from_where_it_is(path: Path) -> None:
    """Every link and script of a 404 page leads from the page's own folder (``./``), whatever serves it."""
    page = lxml.html.fromstring(path.read_bytes())
    hrefs = [a.get("href") for a in page.iter("a")] + [s.get("src") for s in page.iter("script") if s.get("src")]
    inside = [h for h in hrefs if h and not h.startswith(("http", "#"))]
    assert inside and all(h.startswith("./") for h in inside), (path, inside)


@pytest.mark.slow  # the link checker
@pytest.mark.parametrize("root", ["", "project/"], ids=["served-from-the-root", "served-from-a-sub-path"])
def test_link_checker_finds_no_broken_link_or_anchor(family_site: Path, tmp_path: Path, root: str) -> None:
    served = tmp_path / "served"
    shutil.copytree(family_site, served / root)
    with serve(served) as url:
        base = url + root
        # Every link is checked, those leading out of the site's folder too (a link to /movement/ from a site served
        # at /project/ is broken); the 404 pages are linked from nowhere: they are checked from their own addresses.
        pages = [base, *(base + book + "404.html" for book in ("", "elves/", "faq/", "fr/", "elves/fr/"))]
        result = linkcheck(pages, tmp_path, "--check-extern")
    assert result.returncode == 0, result.stdout[-3000:]
    assert " 0 errors found" in result.stdout and " 0 warnings found" in result.stdout


# -- in the browser ------------------------------------------------------------------------------------------


@pytest.fixture
def page(chromium: Any, family_site: Path) -> Iterator[tuple[Any, str]]:
    with serve(family_site) as url:
        context = chromium.new_context(viewport={"width": 1280, "height": 900})
        tab = context.new_page()
        errors: list[str] = []
        tab.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
        tab.on("pageerror", lambda error: errors.append(str(error)))
        yield tab, url
        context.close()
        assert errors == [], "console errors"


@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)")
def test_a_core_term_in_the_army_book_previews_and_leads_to_the_core_page(page: tuple[Any, str]) -> None:
    tab, url = page
    tab.goto(url + "elves/army_units/")
    term = tab.locator("article a.rb-term[data-term='charge']").first
    term.hover()
    preview = tab.locator(".rb-preview")
    preview.wait_for(state="visible")
    assert preview.locator("strong").inner_text() == "Charge"
    assert "A charge moves a unit into contact with an enemy" in preview.inner_text()
    tab.mouse.move(5, 5)
    term.click()
    tab.wait_for_url(url + "movement/#term-charge")
    assert tab.locator("#term-charge").is_visible()
    clarified = tab.locator(".rb-clarified a")
    assert clarified.inner_text() == "FAQ and Errata, Q1: Charging out of sight"
    clarified.click()
    tab.wait_for_url(url + "faq/faq_core/#q_charge_sight")
    assert tab.locator("#q_charge_sight").is_visible()


# -- serve: an edit of the core updates the pages of the books that use it ------------------------------------


def test_an_edit_of_a_book_touches_its_family() -> None:
    from rulebook.project import load_project
    from rulebook.serve.edits import LiveAffected, touched_by

    project = load_project(FAMILY)
    every = ("main", "elves", "faq")
    core = touched_by(project, project.books, [FAMILY / "core" / "core.xml"])
    assert core == LiveAffected(books=every, later=every, own=("main",))
    elves = touched_by(project, project.books, [FAMILY / "elves" / "elves.xml"])
    assert elves == LiveAffected(books=("elves", "main", "faq"), later=("elves", "main", "faq"), own=("elves",))


@pytest.mark.slow  # serve, in a process of its own
def test_serve_rewrites_the_pages_of_other_books_that_show_an_edited_core_term(tmp_path: Path) -> None:
    from .serving import Served, edit, files_of
    from .test_serve import changed, full_build, rewritten

    project = tmp_path / "project"
    shutil.copytree(FAMILY, project)
    core = project / "core" / "core.xml"
    old, new = "moves a <reference", "hurls a <reference"
    with Served([], cwd=project, temp=tmp_path / "tmp") as served:
        before, mark = files_of(served.folder), served.mark()
        edit(core, old, new)
        served.wait_for_page("elves/army_units/", "A charge hurls a unit")
        for book in ("Skirmish: Core Rules", "Army Book: Sylvan Elves (`elves`)", "FAQ and Errata (`faq`)"):
            served.wait_for(f" of {book} up to date", after=mark)  # its translations and rule data
        after = files_of(served.folder)
        assert rewritten(before, after) == changed(before, after)
        pages = {path for path in rewritten(before, after) if path.endswith(".html")}
        # The core's page, glossary and translation report, and every page of the other books that shows the
        # term's card (the French army book's too): no other.
        assert pages == {
            "movement/index.html",
            "glossary/index.html",
            "translation-fr/index.html",
            "elves/army_units/index.html",
            "elves/glossary/index.html",
            "elves/fr/unites-de-l-armee/index.html",
            "faq/faq_core/index.html",
        }
        served_now = {path: data for path, (_, data) in files_of(served.folder).items()}
    assert served_now == full_build(project, tmp_path / "built")


PLANNED = """
import sys
import rulebook.recipe.live as live
_update = live.update_live
def _updated(project, options, book, cache):  # each book whose pages an edit plans again, said on stderr
    print(f"test: planned {book.config.name}", file=sys.stderr, flush=True)
    return _update(project, options, book, cache)
live.update_live = _updated
"""


@pytest.mark.slow  # serve, in a process of its own
def test_serve_plans_again_only_the_books_that_show_what_a_core_edit_changed(tmp_path: Path) -> None:
    from .serving import Served, edit, files_of
    from .test_serve import full_build, rewritten

    project = tmp_path / "project"
    shutil.copytree(FAMILY, project)
    core = project / "core" / "core.xml"
    with Served([], cwd=project, temp=tmp_path / "tmp", prelude=PLANNED) as served:

        def planned(old: str, new: str, page: str, shown: str) -> tuple[set[str], set[str]]:
            """The books an edit of the core planned again, and the pages it rewrote (``page`` shows ``shown`` once
            the edit is served)."""
            before, mark = files_of(served.folder), served.mark()
            edit(core, old, new)
            served.wait_for_page(page, shown)
            served.wait_for(" of Skirmish: Core Rules up to date", after=mark)
            said = served.lines[mark:]
            books = {line.split()[-1] for line in said if line.startswith("test: planned ")}
            pages = {path for path in rewritten(before, files_of(served.folder)) if path.endswith(".html")}
            return books, pages

        # Leadership is shown by the core alone (the army book and the FAQ never name it): they stay as they are.
        books, pages = planned("from 2 to 10", "from 3 to 10", "general_principles/", "from 3 to 10")
        assert books == {"main"}
        assert not {page for page in pages if page.startswith(("elves/", "faq/"))}, pages
        # The charge's card shows in the army book and the FAQ: theirs are planned again, and show the edit.
        books, pages = planned("moves a <reference", "hurls a <reference", "elves/army_units/", "A charge hurls a unit")
        assert books == {"main", "elves", "faq"}
        assert {"elves/army_units/index.html", "faq/faq_core/index.html"} <= pages
        served.wait_for(" of FAQ and Errata (`faq`) up to date")
        served_now = {path: data for path, (_, data) in files_of(served.folder).items()}
    assert served_now == full_build(project, tmp_path / "built")
