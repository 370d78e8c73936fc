"""Several books in one configuration: each its own site folder and rules.json, built all or one by one.

Also how a book without markup gets its terms: from configuration, headings or emphasis, with passages
opted out of linking.
"""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import jsonschema
import lxml.html
import pytest

from rulebook.cli import main
from rulebook.markdown_source import parse_markdown_string
from rulebook.project import ConfigError, Linking, parse_project
from rulebook.readers.linking import find_terms

from .conftest import ROOT

BOOKS = ("turns-later", "other-game")


def test_the_bundled_site_has_a_folder_per_book_each_with_valid_rule_data(site: Path) -> None:
    schema = json.loads((site / "rules.schema.json").read_text(encoding="utf-8"))
    titles = {}
    for name in BOOKS:
        data = json.loads((site / name / "rules.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(data)
        titles[name] = data["book"]["title"]
    assert titles == {
        "turns-later": "Fantasy Battles: The 9th Age — Turns, later edition",
        "other-game": "Another game: tiles, hits, injuries and defence",
    }
    other = json.loads((site / "other-game" / "rules.json").read_text(encoding="utf-8"))
    assert "defense_roll" in other["terms"] and "unit" not in other["terms"]  # its own terms, not the 9th Age's
    home = lxml.html.fromstring((site / "index.html").read_bytes())
    assert {a.get("href") for a in home.cssselect(".rb-books a")} == {"turns-later/", "other-game/"}
    back = lxml.html.fromstring((site / "other-game" / "index.html").read_bytes())
    assert "../" in {a.get("href") for a in back.cssselect(".rb-books a")}
    assert back.findtext(".//title").endswith("Another game: tiles, hits, injuries and defence")


def test_the_later_edition_has_a_what_changed_page(site: Path) -> None:
    page = lxml.html.fromstring((site / "turns-later" / "changes" / "index.html").read_bytes())
    text = page.text_content()
    assert "Since Fantasy Battles: The 9th Age (Beta v0.99.9)" in " ".join(text.split())
    steps = [li.text_content() for li in page.cssselect(".rb-diff-steps ul li")]
    assert "Added step: Charge Phase" in steps
    assert "Renamed step: Close Combat Phase → Melee Phase" in steps
    assert not (site / "changes").exists()  # the main book follows no earlier edition


def test_what_changed_links_each_rule_in_both_editions(site: Path) -> None:
    """Each changed rule is a heading (with an id, in the table of contents) linked to the rule now and as it was;
    the new rules link to their place."""
    folder = site / "turns-later" / "changes"
    page = lxml.html.fromstring((folder / "index.html").read_bytes())
    headings = [(h.get("id"), h.text_content().strip("¶ ")) for h in page.cssselect("article h2")]
    assert headings[:2] == [("turns", "Turns"), ("player-turn", "Player Turn")]
    assert ("new-rules", "New rules") in headings
    toc = [a.get("href") for a in page.cssselect(".md-sidebar--secondary a")]
    assert "#player-turn" in toc and "#new-rules" in toc
    places = page.cssselect(".rb-diff-places")[1]
    links = {a.text_content(): a.get("href") for a in places.cssselect("a")}
    assert links == {
        "The rule now": "../turns/#player-turn",
        "the rule as it was": "../../general-principles/#player-turn",
    }
    new = [a.get("href") for a in page.get_element_by_id("new-rules").getnext().cssselect("a")]
    assert new == ["../turns/#the-terms-friendly-and-enemy", "../turns/#one-use-only"]
    for href in [*links.values(), *new]:
        target, _, fragment = href.partition("#")
        landed = lxml.html.fromstring(((folder / target).resolve() / "index.html").read_bytes())
        assert landed.get_element_by_id(fragment) is not None


@pytest.fixture
def project(tmp_path: Path) -> Path:
    """A copy of the project's build inputs, to build books one at a time."""
    for name in ("pyproject.toml", "mkdocs.yml"):
        shutil.copy(ROOT / name, tmp_path / name)
    shutil.copytree(ROOT / "rulebook_src", tmp_path / "rulebook_src")
    return tmp_path


def test_one_book_is_built_alone_and_the_others_are_kept(project: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(project)
    assert main(["build", "-q"]) == 0
    site = project / "site"
    main_page = (site / "general-principles" / "index.html").read_bytes()
    other = site / "other-game" / "rules.json"
    other.write_text("stale", encoding="utf-8")
    assert main(["build", "-q", "--book", "other-game"]) == 0
    assert other.read_text(encoding="utf-8") != "stale"
    assert (site / "general-principles" / "index.html").read_bytes() == main_page
    # Rebuilding the main book alone keeps the other books' folders: the very same files.
    kept = (site / "turns-later" / "index.html").stat().st_ino
    assert main(["build", "-q", "--book", "main"]) == 0
    assert (site / "turns-later" / "index.html").stat().st_ino == kept
    assert (site / "other-game" / "index.html").is_file()


def test_an_unknown_book_is_a_usage_error(project: Path, monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(project)
    assert main(["build", "-q", "--book", "nope"]) == 2
    assert "no book is called `nope` (the books are: main, other-game, turns-later)" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("table", "message"),
    [
        ({"books": {"x": {"title": "X"}}}, "[tool.rulebook.books.x] needs `sources`"),
        ({"books": {"X Y": {"sources": []}}}, "a book's name is lower-case letters"),
        ({"books": {"x": {"sources": [], "colour": 1}}}, "unknown key `colour` in [tool.rulebook.books.x]"),
        ({"books": {"x": {"sources": [], "changes_from": "y"}}}, "`changes_from` of book `x` must name another book"),
        (
            {"sources": [], "changes_from": "v1", "books": {"v1": {"sources": [], "changes_from": "main"}}},
            "books `main`, `v1` each name another of them in `changes_from`, round to the first: one of them must be "
            "the first edition, with no `changes_from`",
        ),
        (
            {
                "sources": [],
                "books": {
                    "a": {"sources": [], "changes_from": "b"},
                    "b": {"sources": [], "changes_from": "c"},
                    "c": {"sources": [], "changes_from": "b"},
                },
            },
            "books `b`, `c` each name another of them in `changes_from`",
        ),
        ({"emphasis": "yes"}, "`emphasis` in [tool.rulebook] must be true or false"),
    ],
)
def test_bad_book_configuration_says_what_is_wrong(table: dict[str, object], message: str) -> None:
    with pytest.raises(ConfigError, match=message.replace("[", r"\[").replace("]", r"\]").replace("`", "`")):
        parse_project(table, ROOT)


RULES = """# Combat

## Attacks

Roll one die per **Attack**; each roll of 4+ is a *Hit*.

Every Hit must pass a Defence test.

## Defence

A Defence test is a roll of 5+. A Hit that passes it does no harm.

## Examples

A unit with 3 Attacks scores 1 Hit and the Defence test stops it.
"""


def linked(linking: Linking) -> tuple[dict[str, str], list[tuple[str, str]]]:
    result = find_terms(parse_markdown_string(RULES, "rules.md", language="en"), linking)
    assert result.document is not None
    definitions = {d.name: d.section_id for d in result.document.definitions}
    references = [(r.name, r.section_id) for r in result.document.references]
    return definitions, references


def test_terms_from_headings_by_default() -> None:
    definitions, references = linked(Linking())
    # "Examples" names a section, not a term: the text never says it (but its own heading).
    assert definitions == {"attack": "attacks", "defence": "defence"}
    assert ("defence", "attacks") in references


def test_emphasised_words_are_terms_defined_where_first_used() -> None:
    definitions, references = linked(Linking(emphasis=True))
    assert definitions["hit"] == "attacks"  # "*Hit*" is emphasised in the Attacks section
    assert ("hit", "defence") in references  # "A Hit that passes it" links to it


def test_configured_terms_and_a_passage_opted_out() -> None:
    definitions, references = linked(Linking(terms=("Hit", "Defence test"), skip=("Examples",)))
    assert set(definitions) == {"attack", "defence", "hit", "defence_test"}
    assert ("defence_test", "attacks") in references
    assert not [r for r in references if r[1] == "examples"]  # the examples are left as they are


def _article(site: Path, path: str) -> str:
    page = lxml.html.fromstring((site / path).read_bytes())
    return " ".join(page.cssselect("article")[0].text_content().split())


def test_each_book_has_the_pages_it_has_content_for(site: Path) -> None:
    other = _article(site, "other-game/tables/index.html")  # its rolls, its declared turn, setup and rounds
    assert "Hit: roll D6 for each attack; pass on accuracy or more." in other
    assert "Defense Roll: roll D6 for each Injury; pass on defense + penetration or more; each success cancels" in other
    assert "Round" in other and "Preparation and setup" in other
    assert re.search(r"rounds\s*5\s*a number of turns", other)
    assert "Roll tables" not in other and "Army composition" not in other and "Characteristics" not in other
    later = _article(site, "turns-later/tables/index.html")
    assert "Sequences" in later and "Roll tables" not in later and "Army composition" not in later
    assert not (site / "turns-later" / "glossary").exists()  # it marks no terms
    for path in sorted(site.rglob("index.html")):
        if b"<article" not in path.read_bytes():
            continue  # a redirect from a page's former address
        text = _article(site, str(path.relative_to(site)))
        assert not re.search(r"\bNone\b|unknown|\b1 chapters\b|\b1 roll tables\b", text), path


def test_each_home_page_says_only_what_its_book_has(site: Path) -> None:
    assert "Beta v0.99.9 · 7 chapters · 69 defined terms · 3 roll tables" in _article(site, "index.html")
    later = _article(site, "turns-later/index.html")
    assert "1 chapter" in later and "defined term" not in later and "tap or hover" not in later
    other = lxml.html.fromstring((site / "other-game" / "index.html").read_bytes())
    assert "The 9th Age" not in other.cssselect("footer")[0].text_content()  # another game's licence is its own


def test_the_other_games_glossary_lists_its_terms_not_its_section_headings(site: Path) -> None:
    page = lxml.html.fromstring((site / "other-game" / "glossary" / "index.html").read_bytes())
    entries = {
        e.cssselect("h3")[0].text_content().strip(): " ".join(
            e.cssselect(".rb-glossary-definition")[0].text_content().split()
        )
        for e in page.cssselect(".rb-glossary-entry")
    }
    assert {"Hit", "Injury", "Courage", "Defense Roll", "Terrain", "Using cover"} <= entries.keys()  # used, or rolled
    for heading in ("Standard play", "Preperation and setup", "Capturing objective", "Casting magic and ranged attack"):
        assert heading not in entries  # headings the text never says: sections, not terms
    assert all(entries.values())
    assert entries["Terrain"] == "There are many types of terrain within the game."  # its first subsection's opening


@pytest.mark.slow  # three builds of the bundled books
def test_building_one_source_file_keeps_the_other_books_and_the_translations(
    project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sources named on the command line are a book of the configuration: the rest of the site is kept (the same
    rule as ``--book``), whichever book they are the sources of."""
    monkeypatch.chdir(project)
    assert main(["build", "-q"]) == 0
    site = project / "site"
    kept = {name: (site / name / "index.html").read_bytes() for name in ("fr", "turns-later", "other-game")}
    assert main(["build", "-q", "rulebook_src/en/rulebook.xml"]) == 0
    assert {name: (site / name / "index.html").read_bytes() for name in kept} == kept
    assert main(["build", "-q", "rulebook_src/other-game/rules.md"]) == 0
    assert (site / "turns-later" / "index.html").read_bytes() == kept["turns-later"]
    assert (site / "general-principles" / "index.html").is_file()
