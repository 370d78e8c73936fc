"""The translation's own site: French pages linked to the terms, the language switcher, untranslated notices.

Small hand-made English/French pairs pin each behaviour without MkDocs; the bundled book's built site
(the ``site`` fixture) pins what the seeds give.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag, urljoin

import lxml.html
import pytest

from rulebook.data import build_site_summary
from rulebook.graph import TermGraph
from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Book
from rulebook.site.pages import SiteInput, SitePlan, SiteTranslation, build_pages
from rulebook.site.theme import Theme
from rulebook.site.translated import TranslatedSite, build_translated_site
from rulebook.translate.compare import compare_books, report_context
from rulebook.translate.terminology import Entry
from rulebook.xml_source import parse_xml_string

ENGLISH = """<document>
<chapter title="Units" id="units">
  <section title="Ranks" id="ranks"><definition name="rank">A rank is a row of 5 models side by side.</definition>
  A <reference name="unit">unit</reference> has 3 ranks.</section>
  <section title="Unit" id="unit-section"><definition name="unit">A unit is 10 models or more acting as one.</definition></section>
  <section title="Hordes" id="hordes">A unit 10 wide is a horde. Its <reference name="rank">ranks</reference> count twice.</section>
</chapter>
<chapter title="Deployment" id="deployment"><section title="Zones" id="zones">Deploy each <reference name="unit">unit</reference> 12 inches away.</section></chapter>
</document>"""

FRENCH = """# 1 Unités

## 1.1 Rangs

Un rang est une ligne de 5 figurines côte à côte. Une unité a 3 rangs.

## 1.2 Unité

Une unité compte 10 figurines ou plus qui agissent ensemble, au rang que le chef leur donne.
"""

TERMS = {
    "rank": Entry("rank", "rang"),
    "unit": Entry("unit", "unité", ("régiment",)),
}


Built = tuple[TranslatedSite, dict[str, str]]
"""The French site, and the English pages by path."""


@pytest.fixture(scope="module")
def built() -> Built:
    english = parse_xml_string(ENGLISH, "en.xml").document
    french = parse_markdown_string(FRENCH, "fr.md", language="fr").document
    assert english is not None and french is not None
    original, translation = Book((english,)), Book((french,))
    terms = TermGraph(original)
    summary = build_site_summary(original, terms, title="Book", edition="1")
    comparison = compare_books(original, translation, translation_language="fr", terms=TERMS)
    report = report_context(comparison, translation_language="fr")
    pairs = comparison.pairs
    site = SiteInput(original, terms, summary, (), set(), [SiteTranslation("fr", translation, pairs, TERMS, report)])
    theme = Theme()
    env = theme.environment()
    plan = SitePlan(site)
    translated = build_translated_site(plan, site.translations[0], env, theme.strings("fr"))
    pages, _ = build_pages(plan, env, translated.original_alternates)
    return translated, {p.path: p.markdown for p in pages}


def french(built: Built, path: str) -> str:
    return next(p.markdown for p in built[0].pages if p.path == path)


def script_data(markdown: str, css_class: str) -> Any:
    found = re.search(rf'class="{css_class}">(.*?)</script>', markdown)
    assert found is not None, css_class
    return json.loads(found.group(1))


def test_french_uses_of_terms_link_to_the_french_statement_of_the_rule(built: Built) -> None:
    page = french(built, "unites.md")
    # The first use in the section aligned with the definition's is marked as the definition: its defining words.
    assert '<dfn class="rb-definition rb-dfn" id="term-rank" data-term="rank">rang</dfn>' in page
    assert '<dfn class="rb-definition rb-dfn" id="term-unit" data-term="unit">unité</dfn>' in page
    # Later uses, plurals included, link to it on the same page.
    assert re.search(r'<a class="rb-term" href="#term-rank" data-term="rank">rangs</a>', page)
    assert re.search(r'<a class="rb-term" href="#term-unit" data-term="unit">[Uu]nité</a>', page)


def test_a_one_word_rendering_links_only_where_the_original_uses_the_term(built: Built) -> None:
    page = french(built, "unites.md")
    # "rang" in the Unit section is an ordinary word there: the original's Unit section never says rank.
    assert "au rang que le chef" in page
    assert 'data-term="rank">rangs</a>' in page  # and the rule of ranks still links it


def test_french_previews_show_the_french_text_with_the_original_name(built: Built) -> None:
    page = french(built, "unites.md")
    previews = script_data(page, "rb-previews")
    assert previews["rank"]["title"] == "rang (Rank)"
    assert previews["rank"]["text"].startswith("Un rang est une ligne de 5 figurines")


def test_an_untranslated_chapter_gets_a_page_with_a_notice_and_keeps_its_place(built: Built) -> None:
    assert [p.path for p in built[0].pages] == ["index.md", "unites.md", "deployment.md", "glossary.md"]
    page = french(built, "deployment.md")
    assert "Ce chapitre n&#39;est pas encore traduit." in page or "Ce chapitre n'est pas encore traduit." in page
    assert 'href="../../deployment/"' in page
    index = french(built, "index.md")
    assert "(pas encore traduit)" in index


def test_an_untranslated_section_shows_a_notice_in_its_translated_parent(built: Built) -> None:
    page = french(built, "unites.md")
    notice = page[page.index("rb-untranslated") :]
    assert 'href="../../units/#hordes"' in notice and "Hordes" in notice


def test_the_switcher_data_pairs_each_section_both_ways(built: Built) -> None:
    english = built[1]
    back = script_data(french(built, "unites.md"), "rb-alternate")["en"]
    assert back["page"] == "../../units/"
    assert back["sections"]["rangs"] == "../../units/#ranks"  # by the heading's anchor on the page
    there = script_data(english["units.md"], "rb-alternate")["fr"]
    assert there["page"] == "../fr/unites/"
    assert there["sections"]["unit-section"] == "../fr/unites/#unite"
    # Hordes is not translated: the switcher lands on the chapter that would hold it.
    assert there["sections"]["hordes"] == "../fr/unites/"
    deployment = script_data(english["deployment.md"], "rb-alternate")["fr"]
    assert deployment["page"] == "../fr/deployment/"


def test_french_pages_are_named_by_their_titles_and_keep_their_numbered_addresses(built: Built) -> None:
    page = french(built, "unites.md")
    assert "# Unités { #unites }" in page and "## Rangs { #rangs }" in page
    # The section numbers stay as alias anchors, and the chapter's old address leads to the new one.
    assert '<div class="rb-alias" id="s1-1"></div>\n\n## Rangs' in page
    redirect = built[0].redirects["s1/index.html"]
    assert 'location.replace("../unites/" + location.hash)' in redirect
    assert '<meta http-equiv="refresh" content="0; url=../unites/">' in redirect


def test_french_glossary_lists_french_names_with_the_original(built: Built) -> None:
    page = french(built, "glossary.md")
    assert page.index(">Rang<") < page.index(">Unité<")  # sorted by the French name, in sentence case
    assert "Terme original :" in page and 'href="../../units/#term-rank"' in page
    assert "régiment" in page


# The bundled book's site -----------------------------------------------------------------------


def _alternates(path: Path) -> dict[str, dict[str, object]]:
    found: dict[str, dict[str, object]] = {}
    for block in lxml.html.fromstring(path.read_bytes()).cssselect("script.rb-alternate"):
        found.update(json.loads(block.text))
    return found


def test_every_switcher_target_exists_in_both_sites(site: Path) -> None:
    checked = 0
    for path in sorted(site.rglob("index.html")):
        url = "file://" + path.as_posix()
        for alternate in _alternates(path).values():
            targets = [alternate["page"], *alternate["sections"].values()]
            for href in targets:
                target, fragment = urldefrag(urljoin(url, str(href)))
                file = Path(target.removeprefix("file://"))
                file = file / "index.html" if file.is_dir() else file
                assert file.is_file(), (path, href)
                if fragment:
                    assert fragment in lxml.html.fromstring(file.read_bytes()).xpath("//@id"), (path, href)
                checked += 1
    assert checked > 120


def test_each_language_has_its_own_search(site: Path) -> None:
    english = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    french = json.loads((site / "fr" / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert english["config"]["lang"] == ["en"] and french["config"]["lang"] == ["fr"]
    english_titles = {d["title"]: d["location"] for d in english["docs"]}
    french_titles = {d["title"]: d["location"] for d in french["docs"]}
    assert french_titles["Le dé de déviation"] == "principes-generaux/#le-de-de-deviation"
    assert "Le dé de déviation" not in english_titles
    assert english_titles["The Scatter Dice"] == "general-principles/#the-scatter-dice"
    assert "The Scatter Dice" not in french_titles
    assert lxml.html.fromstring((site / "fr" / "principes-generaux" / "index.html").read_bytes()).get("lang") == "fr"


def test_seed_french_pages_link_terms_through_the_terminology(site: Path) -> None:
    page = lxml.html.fromstring((site / "fr" / "figurines-unites-et-formations" / "index.html").read_bytes())
    # "Les figurines représentent des guerriers..." states what a model is.
    assert page.get_element_by_id("term-model").text_content().endswith("figurines")
    linked = [a.text_content() for a in page.cssselect("a.rb-term")]
    assert "unité" in linked and "socle" in linked
    # Abbreviations from the terminology (F, E, CC) are too short to link in running text.
    assert not [text for text in linked if len(text) < 3]


def test_seed_untranslated_deployment_chapter_keeps_its_place(site: Path) -> None:
    nav = lxml.html.fromstring((site / "fr" / "index.html").read_bytes()).cssselect(".rb-toc a")
    titles = [a.text_content() for a in nav]
    assert titles[-2:] == ["Séquence pré-partie", "Deployment Phase"]
    page = (site / "fr" / "deployment_phase" / "index.html").read_text(encoding="utf-8")
    assert "Ce chapitre n&#39;est pas encore traduit." in page or "Ce chapitre n'est pas encore traduit." in page


def test_unlinked_phrases_stay_text() -> None:
    from rulebook.autolink import link_references

    document = parse_markdown_string(
        "# 1 Mesures\n\nL'unité de mesure est le pouce. Une unité avance.\n", "fr.md", language="fr"
    ).document
    assert document is not None
    linked = link_references(document, {"unité": "unit", "unité de mesure": ""})
    assert [(r.name, r.text) for r in linked.references] == [("unit", "unité")]
    assert linked.references[0].offset == document.body[0].source.text.index("Une unité") + len("Une ")


def test_a_title_that_reads_like_a_number_never_takes_another_chapters_old_address() -> None:
    from rulebook.site.translated import RESERVED_PAGES, readable_anchors

    document = parse_markdown_string("# 1 Bases\n\nLe jeu.\n\n# 2 S1\n\nLa suite.\n", "fr.md", language="fr").document
    assert document is not None
    sections = list(document.sections)
    anchors = readable_anchors(sections, RESERVED_PAGES)
    first, second = (anchors[s.id] for s in sections)
    assert first == "bases"
    aliases = {s.id for s in sections}  # s1 and s2: redirect pages to the readable addresses
    assert second not in aliases and second != first
