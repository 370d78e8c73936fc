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
    # Headings keep the numbers the source prints; the numbers stay as alias anchors too, and the chapter's
    # old address leads to the new one.
    assert "# 1 Unités { #unites }" in page and "## 1\\.1 Rangs { #rangs }" in page
    assert '<div class="rb-alias" id="s1-1"></div>\n\n## 1\\.1 Rangs' in page
    redirect = built[0].redirects["s1/index.html"]
    assert 'location.replace("../unites/" + location.hash)' in redirect
    assert '<meta http-equiv="refresh" content="0; url=../unites/">' in redirect


def test_french_glossary_lists_french_names_with_the_original(built: Built) -> None:
    page = french(built, "glossary.md")
    assert page.index(">Rang<") < page.index(">Unité<")  # sorted by the French name, in sentence case
    assert "Terme original\u00a0:" in page and 'href="../../units/#term-rank"' in page
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
    assert french_titles["3.2.2 Le dé de déviation"] == "principes-generaux/#le-de-de-deviation"
    assert "3.2.2 Le dé de déviation" not in english_titles
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
    from rulebook.site.page_table import RESERVED_NAMES
    from rulebook.site.translated import readable_anchors

    document = parse_markdown_string("# 1 Bases\n\nLe jeu.\n\n# 2 S1\n\nLa suite.\n", "fr.md", language="fr").document
    assert document is not None
    sections = list(document.sections)
    anchors = readable_anchors(sections, RESERVED_NAMES)
    first, second = (anchors[s.id] for s in sections)
    assert first == "bases"
    aliases = {s.id for s in sections}  # s1 and s2: redirect pages to the readable addresses
    assert second not in aliases and second != first


def test_a_translation_of_a_later_chapter_only_keeps_the_untranslated_one_first() -> None:
    english = parse_xml_string(ENGLISH, "en.xml").document
    french = parse_markdown_string(
        "# 2 Déploiement\n\n## 2.1 Zones\n\nDéployez chaque unité à 12 pouces de distance.\n", "fr.md", language="fr"
    ).document
    assert english is not None and french is not None
    original, translation = Book((english,)), Book((french,))
    terms = TermGraph(original)
    comparison = compare_books(original, translation, translation_language="fr", terms=TERMS)
    summary = build_site_summary(original, terms, title="Book", edition="1")
    report = report_context(comparison, translation_language="fr")
    translations = [SiteTranslation("fr", translation, comparison.pairs, TERMS, report)]
    site = SiteInput(original, terms, summary, (), set(), translations)
    theme = Theme()
    translated = build_translated_site(SitePlan(site), translations[0], theme.environment(), theme.strings("fr"))
    # The untranslated first chapter keeps its place before the translated second one.
    assert [p.path for p in translated.pages] == ["index.md", "units.md", "deploiement.md", "glossary.md"]


FRENCH_SECOND_CHAPTER = """# 2 Jouer une partie

## 2.1 Manches

Une partie dure 4 manches, chacune en ces phases : chaque joueur déplace ses combattants ; les combattants à portée frappent ; chaque combattant ébranlé fait un test de nerfs.

## 2.2 Combat

Quand un combattant attaque, lancez un D6 par attaque. Une frappe porte sur un résultat au moins égal à l'adresse de l'attaquant.

## 2.3 Mise en place

Avant la première manche, préparez la partie : jetez pour la météo, puis pour le premier mouvement.

## 2.4 Météo

Un joueur fait un jet sur cette table. La météo dure toute la partie et affecte chaque combattant (voir Combattants).

| D6 | Météo |
|---|---|
| 1-2 | Pluie : chaque combattant se déplace de 1 pouce de moins. |
| 3-5 | Dégagé : rien ne change. |
| 6 | Brouillard : les combattants à plus de 12 pouces ne se voient pas. |

## 2.5 Premier mouvement

Les deux joueurs lancent un D6 : le plus haut choisit qui bouge en premier à chaque manche.
"""
"""The second chapter of `rulebook init`'s book in French, its sections in the original's order."""


def test_a_new_project_with_its_second_chapter_translated_builds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook.cli import main

    project = tmp_path / "game"
    assert main(["init", str(project), "--title", "My Game"]) == 0
    (project / "rules" / "fr").mkdir()
    (project / "rules" / "fr" / "book.md").write_text(
        FRENCH_SECOND_CHAPTER,
        encoding="utf-8",
    )
    with (project / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('\n[translations.fr]\nsource = "rules/fr/book.md"\n')
    monkeypatch.chdir(project)
    capsys.readouterr()
    assert main(["build", "-q"]) == 0, capsys.readouterr().err
    index = (project / "site" / "fr" / "index.html").read_text(encoding="utf-8")
    toc = [a.text_content() for a in lxml.html.fromstring(index).cssselect(".rb-toc a")]
    assert toc == ["Basics", "Jouer une partie"]
    assert (project / "site" / "fr" / "jouer-une-partie" / "index.html").is_file()


PROFILE_EN = """<document><chapter title="Characteristics" id="characteristics">
<section title="Profile" id="profile">Each model has a profile of these characteristics:
<table><row><header>M</header><cell><reference name="movement">Movement</reference></cell><cell><definition name="movement">How far the model moves, in inches.</definition></cell></row>
<row><header>S</header><cell><reference name="strength">Strength</reference></cell><cell><definition name="strength">How hard the model hits.</definition></cell></row></table>
</section>
<section title="Tests" id="tests">Tests are rolled on a die, 2 times at most. <definition name="test">A <reference name="test">test</reference> is a roll of one die against a characteristic.</definition> Roll again on a 6.
<definition name="reroll">A <reference name="reroll">reroll</reference> rolls the die once more.</definition></section>
</chapter></document>"""

PROFILE_FR = """# 1 Caractéristiques

## 1.1 Profil

Chaque figurine a un profil de ces caractéristiques :

F\tForce\tLa force des coups de la figurine.
M\tMouvement\tLa distance que la figurine parcourt, en pouces.

## 1.2 Tests

Les tests se lancent sur un dé, 2 fois au plus. Un test est un jet d'un dé contre une caractéristique. Relancez sur un 6.

Une relance lance le dé une fois de plus.
"""

PROFILE_TERMS = {
    "movement": Entry("movement", "mouvement"),
    "strength": Entry("strength", "force"),
    "test": Entry("test", "test"),
    "reroll": Entry("reroll", "relance"),
}


def test_a_translated_definition_is_the_text_aligned_with_the_definition_itself() -> None:
    """A row of the profile (in another order) gives its cell; a section defining two terms gives each its sentence,
    not the section's first one."""
    from rulebook.translate.definitions import translated_definitions

    english = parse_xml_string(PROFILE_EN, "en.xml").document
    french = parse_markdown_string(PROFILE_FR, "fr.md", language="fr").document
    assert english is not None and french is not None
    original = Book((english,))
    comparison = compare_books(original, Book((french,)), translation_language="fr", terms=PROFILE_TERMS)
    found = {term: d.text for term, d in translated_definitions(original, comparison, PROFILE_TERMS, "fr").items()}
    assert found == {
        "movement": "La distance que la figurine parcourt, en pouces.",
        "strength": "La force des coups de la figurine.",
        "test": "Un test est un jet d'un dé contre une caractéristique.",
        "reroll": "Une relance lance le dé une fois de plus.",
    }


# The bundled French site --------------------------------------------------------------------------------


def _glossary(site: Path, path: str) -> dict[str, dict[str, str]]:
    page = lxml.html.fromstring((site / path / "glossary" / "index.html").read_bytes())
    entries = {}
    for entry in page.cssselect(".rb-glossary-entry"):
        original = entry.cssselect(".rb-glossary-original a")
        entries[entry.get("id")] = {
            "name": entry.cssselect("h3")[0].text_content().strip(),
            "original": original[0].text_content() if original else "",
            "href": entry.cssselect("h3 a")[0].get("href") if entry.cssselect("h3 a") else "",
            "text": " ".join(entry.cssselect(".rb-glossary-definition")[0].text_content().split()),
        }
    return entries


def test_the_french_glossary_gives_each_term_its_own_definition(site: Path) -> None:
    """Checked against the alignment of the sources: each term's text is the French aligned with its English
    definition (the characteristics each their own row, not the section's first sentence); its original term is
    the English glossary's name; and no debris of the conversion reaches it."""
    import rulebook.recipe as recipe
    from rulebook.project import load_project
    from rulebook.translate.definitions import translated_definitions

    project = load_project(Path(__file__).resolve().parent.parent)
    read = recipe.read_configured(project, project.main)
    (translation,) = recipe.compare_translations(read, project.main, project.root)
    aligned = translated_definitions(read.book, translation.comparison, translation.terms, translation.language)
    french, english = _glossary(site, "fr"), _glossary(site, "")
    checked = 0
    for term, entry in french.items():
        assert entry["original"] == english[term]["name"], term
        assert "??" not in entry["text"] and not re.search(r"\*\w|\w\*\w", entry["text"]), term
        if term in aligned:
            shown = entry["text"].removesuffix(" …")
            assert " ".join(aligned[term].text.split()).startswith(shown), term
            checked += 1
    assert checked >= 60
    profile = [
        "movement",
        "weapon_skill",
        "ballistic_skill",
        "strength",
        "toughness",
        "wounds",
        "initiative",
        "attacks",
    ]
    texts = [french[term]["text"] for term in [*profile, "leadership"]]
    assert len(set(texts)) == 9 and not [t for t in texts if t.startswith("Chaque figurine possède un Profil")]
    assert french["movement"]["text"] == "La vitesse à laquelle la figurine se déplace, en pouces par tour."
    assert (french["rank_and_file"]["original"], french["choice_0x"]["original"]) == ("Rank-and-File", "0-X Choice")
    # The terms that start with no letter (0-X Choix) are a group named in French, the index a labelled list.
    page = lxml.html.fromstring((site / "fr" / "glossary" / "index.html").read_bytes())
    assert page.get_element_by_id("letter-other").text_content().strip("¶ ") == "Autres"
    assert page.cssselect('nav[aria-label="A–Z"] a')[0].get("href") == "#letter-other"


def test_a_french_term_links_to_where_its_definition_is_translated(site: Path) -> None:
    href = _glossary(site, "fr")["choice_0x"]["href"]
    assert href == "../preparer-une-partie/#term-choice_0x"
    page = lxml.html.fromstring((site / "fr" / "preparer-une-partie" / "index.html").read_bytes())
    definition = page.get_element_by_id("term-choice_0x")
    heading = definition.xpath("preceding::*[self::h2 or self::h3 or self::h4][1]")[0]
    assert heading.text_content().strip("¶ ") == "0-X Choix"
    movement = lxml.html.fromstring((site / "fr" / "caracteristiques" / "index.html").read_bytes())
    assert movement.get_element_by_id("term-movement").text_content() == "Mouvement"  # its row of the profile


def test_french_paragraphs_and_captions_stay_apart_and_lost_references_stay_out(site: Path, drafts_site: Path) -> None:
    page = lxml.html.fromstring((site / "fr" / "preparer-une-partie" / "index.html").read_bytes())
    paragraphs = [" ".join(p.text_content().split()) for p in page.cssselect("article .rb-body > p")]
    assert "Table 3 – Restrictions de composition d'armée." in paragraphs
    for path in sorted((site / "fr").rglob("index.html")):
        article = lxml.html.fromstring(path.read_bytes()).cssselect("article")
        text = article[0].text_content() if article else ""
        assert "??" not in text and "*Placez" not in text and "bataille.*" not in text, path
    units = lxml.html.fromstring((site / "fr" / "figurines-unites-et-formations" / "index.html").read_bytes())
    assert "pour former un Rang Complet." in units.text_content() and "Voir le chapitre" not in units.text_content()
    editors = (drafts_site / "fr" / "figurines-unites-et-formations" / "index.html").read_text(encoding="utf-8")
    assert "Voir le chapitre" in editors and 'class="rb-dangling"' in editors  # the editor's view shows it broken


def test_the_switcher_leads_to_the_counterpart_page_or_the_nearest_with_a_note(site: Path, drafts_site: Path) -> None:
    glossary = _alternates(site / "glossary" / "index.html")["fr"]
    assert glossary == {"page": "../fr/glossary/", "sections": {}}
    assert _alternates(site / "fr" / "glossary" / "index.html")["en"]["page"] == "../../glossary/"
    assert _alternates(site / "index.html")["fr"]["page"] == "fr/"
    lint = _alternates(drafts_site / "lint" / "index.html")["fr"]  # the French site has no lint report
    assert lint == {"page": "../fr/", "sections": {}, "nearest": True}
    home = (drafts_site / "fr" / "index.html").read_text(encoding="utf-8")
    assert "La page d&#39;où vous venez n&#39;a pas de version française" in home or "n'a pas de version" in home


def test_the_french_quick_reference_speaks_french(site: Path) -> None:
    """The same rule data, in French: the terms by their French names linked where the French states them, the
    profile's French abbreviations and definitions, the sequences' French steps, the French sections' titles."""
    page = lxml.html.fromstring((site / "fr" / "tables" / "index.html").read_bytes())
    tests = {li.get("id"): " ".join(li.text_content().split()) for li in page.cssselect("#tests ~ div li")}
    assert tests["test-leadership_test"] == "Test de Commandement : lancez 2D6 ; réussi à Cd ou moins. dans les règles"
    # French spacing: the space before a colon or a semicolon does not break (a line never starts with ";").
    said = page.get_element_by_id("test-leadership_test").text_content()
    assert "Commandement\u00a0: lancez 2D6\u00a0; réussi" in said
    ld = page.get_element_by_id("test-leadership_test").cssselect("a.rb-term")[1]
    assert (ld.text, ld.get("href")) == ("Cd", "../caracteristiques/#term-leadership")
    rows = [[" ".join(c.text_content().split()) for c in tr] for tr in page.cssselect("#game ~ div .rb-table tbody tr")]
    assert rows[0] == ["M", "Mouvement", "La vitesse à laquelle la figurine se déplace, en pouces par tour."]
    steps = [li.text_content() for li in page.get_element_by_id("sequence-player_turn").getnext().cssselect("li")]
    assert steps == ["Phase de Mouvement", "Phase de Magie", "Phase de Tir", "Phase de Corps à Corps"]
    roll = [
        " ".join(tr.text_content().split())
        for tr in page.get_element_by_id("roll-building_battlefield").cssselect("tbody tr")
    ]
    assert roll[:2] == ["1 Colline", "2 Forêt"]
    previews = json.loads(page.cssselect("script.rb-previews")[0].text)
    assert {a.get("data-term") for a in page.cssselect("article a.rb-term")} <= previews.keys()
    home = lxml.html.fromstring((site / "fr" / "index.html").read_bytes())
    assert "tables/" in [a.get("href") for a in home.cssselect("article a")]
    assert _alternates(site / "tables" / "index.html")["fr"]["page"] == "../fr/tables/"


def test_french_text_keeps_its_punctuation_on_the_line_it_closes(site: Path) -> None:
    """French typography: no line starts with ";", ":", "?", "!" or "»", nor ends with "«" (a phone's narrow lines
    broke "lancez 2D6 ;" and "« -1 en Initiative ... »" there); the card's text too, its links still on their
    words. The English site is written as before."""
    from rulebook.site.html import spaced

    assert (
        spaced("Pluie : chaque « unité » ; 1:2 ?", "fr") == "Pluie\u00a0: chaque «\u00a0unité\u00a0»\u00a0; 1:2\u00a0?"
    )
    assert spaced("Rain : every unit", "en") == "Rain : every unit"
    assert spaced("«  ★  »", "fr") == "«\u00a0\u00a0★\u00a0\u00a0»"  # one for one: a card's link offsets hold
    breakable = re.compile(r"\s(?<!\u00a0)[:;!?»]|«\s(?<!\u00a0)")
    checked = 0
    for page in sorted((site / "fr").glob("*/index.html")):
        html = lxml.html.fromstring(page.read_bytes())
        for block in html.cssselect(
            "article .rb-body p, article .rb-body li, article .rb-body td, article h2, article h3"
        ):
            text = block.text_content()
            assert not breakable.search(text), (page.parent.name, text)
            checked += "\u00a0" in text
    assert checked > 50
    previews: dict[str, Any] = {}
    page = lxml.html.fromstring((site / "fr" / "caracteristiques" / "index.html").read_bytes())
    for block in page.cssselect("script.rb-previews"):
        previews.update(json.loads(block.text_content()))
    for card in previews.values():
        if isinstance(card, dict) and "text" in card:
            assert not breakable.search(card["text"]), card["title"]
            for start, end, term in card.get("links", ()):
                assert card["text"][start:end].strip(), term
