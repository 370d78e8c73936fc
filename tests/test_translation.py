"""Aligning the French translation with the English book, and what `rulebook compare` reports, where and how."""

from __future__ import annotations

import json
from collections import Counter
from functools import cache
from pathlib import Path

import jsonschema
import lxml.html
import pytest

from rulebook.cli import main
from rulebook.languages.quantities import numbers
from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Book
from rulebook.recipe.reading import read_book
from rulebook.translate.align import Pair, align_sections
from rulebook.translate.compare import Comparison, compare_books
from rulebook.translate.segments import Locator, sentences
from rulebook.translate.terminology import Entry, load_terminology
from rulebook.xml_source import parse_xml_string

from .conftest import BUNDLED_BOOK, ROOT

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"
TERMS = ROOT / "rulebook_src" / "fr" / "terms.toml"


@pytest.fixture(scope="module")
def books() -> tuple[Book, Book]:
    return read_book([BUNDLED_BOOK], ROOT).book, read_book(
        [FRENCH], ROOT, language="fr", source_format="plain-markdown"
    ).book


@pytest.fixture(scope="module")
def pairs(books: tuple[Book, Book]) -> dict[str, Pair]:
    return {p.original.title: p for p in align_sections(*books) if p.original is not None}


@cache
def seed_comparison() -> Comparison:
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = read_book([FRENCH], ROOT, language="fr", source_format="plain-markdown").book
    return compare_books(english, french, terms=load_terminology(TERMS))


def french_title(pair: Pair) -> str | None:
    return pair.translation.title if pair.translation else None


# -- sections -----------------------------------------------------------------------------------------


def test_chapters_align_across_the_numbering_offset(pairs: dict[str, Pair]) -> None:
    # The French adds an introduction chapter: its chapter 2 is the English chapter 1.
    assert french_title(pairs["Models, Units and Formations"]) == "Figurines, unités et formations"
    assert pairs["Models, Units and Formations"].translation.number == "2"  # type: ignore[union-attr]
    assert french_title(pairs["The Pre-Game Sequence"]) == "Séquence pré-partie"
    assert french_title(pairs["Deployment Phase"]) is None  # not translated in this edition
    assert pairs["Deployment Phase"].method == "unmatched"


def test_subsections_straight_under_a_chapter_meet_the_French_0_numbering(pairs: dict[str, Pair]) -> None:
    pair = pairs["Deployment Type"]
    assert (french_title(pair), pair.translation.number, pair.method) == (  # type: ignore[union-attr]
        "Type de déploiement",
        "7.0.4",
        "numbering",
    )


@pytest.mark.parametrize(
    ("english", "french"),
    [
        ("Small", "Petite"),  # a note in the English, a sub-heading in the French
        ("Value of 0", "Caractéristique à 0"),
        ("Army Points", "Coût en Points de l'armée"),  # a titled list item became a bulleted heading
        ("0-X Choice", "0-X Choix"),
        ("Warbands", "Patrouilles"),  # a numbered subsection became a bold heading
        ("Secure Target", "6 : Sécurisez la Cible"),
    ],
)
def test_notes_and_headings_that_changed_form_still_pair(pairs: dict[str, Pair], english: str, french: str) -> None:
    assert french_title(pairs[english]) == french
    assert pairs[english].method == "content" and 0 < pairs[english].confidence <= 1


def test_alignment_is_monotonic_and_pairs_each_section_once(books: tuple[Book, Book]) -> None:
    original, translation = books
    order = {s.id: s.offset for s in translation.sections}
    pairs = align_sections(original, translation)
    french = [p.translation.id for p in pairs if p.translation is not None]
    assert len(french) == len(set(french)) == len({u.id for u in (p.translation for p in pairs) if u})
    offsets = [order[i] for i in french if i in order]
    assert offsets == sorted(offsets)


def test_numbers_reading_kept_for_the_editions_diff() -> None:
    assert numbers("deux figurines et 2 socles", "fr") == Counter({"2": 2})


# -- sentences ----------------------------------------------------------------------------------------


def test_sentences_have_places_and_skip_abbreviations_and_step_numbers() -> None:
    result = parse_markdown_string(
        "## 1 Tour\n\n## 1.1 Tour de joueur\n\nChaque tour, e.g. celui-ci, a max. 4 phases. Voilà.\n\n- 1 Mouvement\n- 2 Magie\n",
        "fr.md",
    )
    assert result.document is not None and result.source is not None
    section = next(s for s in result.document.sections if s.number == "1.1")
    found = sentences(section.children, Locator(result.source), section.offset)
    assert [(s.text, s.kind, s.span.line, s.span.column) for s in found] == [
        ("Chaque tour, e.g. celui-ci, a max. 4 phases.", "prose", 5, 1),
        ("Voilà.", "prose", 5, 46),
        ("Mouvement", "item", 7, 5),  # the printed step number is no part of the sentence
        ("Magie", "item", 8, 5),
    ]
    assert found[0].place(found[0].text.index("4"), found[0].text.index("4") + 1).column == 36


def pair_of(english: str, french: str) -> tuple[Book, Book]:
    original = parse_xml_string(f'<document><chapter title="Units">{english}</chapter></document>', "en.xml").document
    translation = parse_markdown_string(f"## 1 Unités\n\n{french}\n", "fr.md", language="fr").document
    assert original is not None and translation is not None
    return Book((original,)), Book((translation,))


ENGLISH_UNITS = (
    "All models are part of a unit. A Full Rank is any rank which is at least 5 models wide. "
    "Units in ranks of 10 or more models are considered to be in Horde Formation. "
    "<br/>Players are always allowed to measure any distance at any time, even before declaring a charge."
)
FRENCH_UNITS = (
    "Toute figurine fait partie d'une unité. Un Rang Complet est un rang qui contient au moins 5 figurines. "
    "Les unités formées en rangs de 10 figurines au moins sont en formation de Horde.\n\n"
    "Les joueurs sont autorisés à mesurer n'importe quelle distance à tout moment, même avant de déclarer une charge."
)


def kinds_and_lines(english: str, french: str) -> list[tuple[str, int | None, int | None]]:
    comparison = compare_books(*pair_of(english, french))
    return sorted(
        (f.kind, f.place.line if f.place else None, f.counterpart.line if f.counterpart else None)
        for f in comparison.findings
    )


def test_a_faithful_translation_gives_nothing() -> None:
    assert kinds_and_lines(ENGLISH_UNITS, FRENCH_UNITS) == []


def test_a_paragraph_missing_at_a_sections_end_is_found() -> None:
    french = FRENCH_UNITS.split("\n\n")[0]
    assert kinds_and_lines(ENGLISH_UNITS, french) == [("missing-sentence", 3, 1)]


def test_an_added_sentence_is_found_with_both_places() -> None:
    french = FRENCH_UNITS.replace(
        "au moins 5 figurines.", "au moins 5 figurines. Une unité ne bouge jamais deux fois par tour."
    )
    assert kinds_and_lines(ENGLISH_UNITS, french) == [("added-sentence", 3, 1)]


def test_meaning_errors_are_found_in_aligned_sentences() -> None:
    changed = FRENCH_UNITS.replace("au moins 5", "plus de 5").replace("10 figurines au moins", "12 figurines au moins")
    assert kinds_and_lines(ENGLISH_UNITS, changed) == [("comparison-differs", 3, 1), ("numbers-differ", 3, 1)]


def test_coverage_counts_aligned_sentences() -> None:
    comparison = compare_books(*pair_of(ENGLISH_UNITS, FRENCH_UNITS.split("\n\n")[0]))
    assert (comparison.coverage["sentences"], comparison.coverage["translated_sentences"]) == (4, 3)


# -- the seeds ----------------------------------------------------------------------------------------


def finding_places(comparison: Comparison, kind: str) -> list[tuple[int | None, int | None]]:
    return [
        (f.place.line if f.place else None, f.counterpart.line if f.counterpart else None)
        for f in comparison.findings
        if f.kind == kind
    ]


def test_the_seeds_major_meaning_errors_are_found_in_both_texts() -> None:
    comparison = seed_comparison()
    # "more than 1”" became « au moins 1" »; "within 1/4 of the table's length" became « à plus du quart »;
    # deployment zones "more than 12" / 9" away" « commencent à 12" / 9" » (the bound dropped).
    assert finding_places(comparison, "comparison-differs") == [(233, 220), (489, 666), (493, 671), (497, 676)]
    # The English lost two minus signs that the French kept.
    assert finding_places(comparison, "sign-differs") == [(303, 359), (307, 362)]


def test_the_seeds_sections_cross_references_and_coverage() -> None:
    comparison = seed_comparison()
    missing = [f.message for f in comparison.findings if f.kind == "missing-section"]
    assert missing == ["`Deployment Phase` is not translated (nor its 6 subsections)"]
    extra = [f.details["title"] for f in comparison.findings if f.kind == "extra-section"]
    assert extra == [
        "Batailles Fantastiques Le 9e Âge",
        "Introduction",
    ]  # the deployment types are read with their section
    assert finding_places(comparison, "lost-reference") == [(99, 45), (528, 740)]
    coverage = comparison.coverage
    assert (coverage["translated_sections"], coverage["sections"]) == (72, 79)
    assert 0.9 < coverage["share"] < 1.0


def test_the_seeds_conversion_slips_are_found() -> None:
    comparison = seed_comparison()
    slips = {(f.kind, f.place.line) for f in comparison.findings if f.place}
    assert ("other-script", 248) in slips  # a Greek capital alpha for the A of "Attaques"
    assert ("doubled-word", 506) in slips  # "sur sur"
    for line in (
        33,
        173,
        233,
        254,
        263,
        510,
        532,
    ):  # 1, 20 m; exception-nellement; LaTeX; dêtre; $\star$; *...*P; no stop
        assert ("conversion-debris", line) in slips
    assert ("conversion-debris", 301) not in slips  # « empruntée\* »: a Markdown escape, shown as `*`


def test_terms_rendered_by_a_related_term_are_reported() -> None:
    comparison = seed_comparison()
    terms = {(f.details["term"], tuple(f.details["instead"])) for f in comparison.findings if f.kind == "term-missing"}
    assert ("footprint", ("base",)) in terms  # "Bords de table" says « socle » where the English says Footprint
    assert ("model_part", ("model",)) in terms
    assert not any(term in {"hero", "lord"} for term, _ in terms)  # « Personnage » says both: a paraphrase


def test_fingerprints_are_distinct_and_waivers_hide_one_finding() -> None:
    comparison = seed_comparison()
    fingerprints = [f.fingerprint for f in comparison.findings]
    assert len(fingerprints) == len(set(fingerprints))
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = read_book([FRENCH], ROOT, language="fr", source_format="plain-markdown").book
    front = [f for f in comparison.findings if f.kind == "extra-section"]
    waived = compare_books(english, french, terms=load_terminology(TERMS), waivers={front[0].fingerprint: "read"})
    assert (waived.waived, len(waived.findings)) == (1, len(comparison.findings) - 1)
    assert front[1].fingerprint in {f.fingerprint for f in waived.findings}


def test_a_waiver_expires_when_either_text_changes() -> None:
    original, translation = pair_of(ENGLISH_UNITS, FRENCH_UNITS.replace("au moins 5", "au moins 6"))
    (finding,) = compare_books(original, translation).findings
    waivers = {finding.fingerprint: "checked with the authors"}
    assert compare_books(original, translation, waivers=waivers).findings == []
    edited = pair_of(ENGLISH_UNITS, FRENCH_UNITS.replace("au moins 5", "bien au moins 6"))
    expired = compare_books(*edited, waivers=waivers)
    assert [f.kind for f in expired.findings] == ["numbers-differ"] and expired.stale_waivers == (finding.fingerprint,)


# -- tables -------------------------------------------------------------------------------------------


def table_findings(french_rows: str, *, in_item: bool = False) -> list[str]:
    table = (
        "<table>"
        '<row><cell><reference name="core">Core</reference></cell><cell>max 2</cell></row>'
        '<row><cell><reference name="special">Special</reference></cell><cell>max 3</cell></row>'
        '<row><cell><reference name="rare">Rare</reference></cell><cell>max 1</cell></row>'
        "</table>"
    )
    body = f'<list><item title="Limits">Limits: {table}</item></list>' if in_item else f"Limits:{table}"
    english = parse_xml_string(
        f'<document><chapter title="Army"><section title="Warbands">{body}</section></chapter></document>'
    ).document
    heading = "#### · Limites\n\n" if in_item else ""
    french = parse_markdown_string(
        f"## 1 Armée\n\n## 1.1 Patrouilles\n\n{heading}Limites :\n\n{french_rows}\n", "fr.md"
    ).document
    assert english is not None and french is not None
    entries = {"core": Entry("core", "Base"), "special": Entry("special", "Spécial"), "rare": Entry("rare", "Rare")}
    comparison = compare_books(Book((english,)), Book((french,)), terms=entries)
    return [f.message for f in comparison.findings if f.kind == "table-row"]


def test_table_rows_are_matched_by_key_not_position() -> None:
    assert table_findings("Rare\tmax. 1\nBase\tmax. 2\nSpécial\tmax. 3") == []


def test_a_table_row_with_another_value_or_missing_is_reported() -> None:
    assert table_findings("Rare\tmax. 1\nBase\tmax. 4\nSpécial\tmax. 3") == [
        "row `Core` / `Base`: the original says 2; the translation says 4"
    ]
    assert table_findings("Base\tmax. 2\nRare\tmax. 1") == ["row `Special` is missing from the translation's table"]


def test_a_table_inside_a_list_item_is_compared() -> None:
    assert table_findings("Rare\tmax. 1\nBase\tmax. 5\nSpécial\tmax. 3", in_item=True) == [
        "row `Core` / `Base`: the original says 2; the translation says 5"
    ]


def test_seed_tables_agree_row_by_row_and_a_changed_limit_shows_at_its_row() -> None:
    assert finding_places(seed_comparison(), "table-row") == []
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = FRENCH.read_text(encoding="utf-8").replace("Base\tmax. 2", "Base\tmax. 3", 1)
    changed = parse_markdown_string(french, str(FRENCH.relative_to(ROOT)), language="fr").document
    assert changed is not None
    comparison = compare_books(english, Book((changed,)), terms=load_terminology(TERMS))
    assert finding_places(comparison, "table-row") == [(397, 478)]


# -- the command --------------------------------------------------------------------------------------

ARGS = ["compare", str(BUNDLED_BOOK), str(FRENCH)]


def test_text_output_shows_both_places_with_their_source_lines(capsys: pytest.CaptureFixture[str], monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(ROOT)
    assert main(["compare", "rulebook_src/en/rulebook.xml", "rulebook_src/fr/rulebook.md"]) == 1
    out = capsys.readouterr().out
    assert out.startswith("Coverage: 72 of 79 sections, ")
    block = out[out.index("error[RB612]") :].split("\n\n")[0]
    assert "--> rulebook_src/fr/rulebook.md:233:" in block and "d'au moins" in block
    assert "note: the original says" in block and "--> rulebook_src/en/rulebook.xml:220:" in block
    assert "more than  1”" in block and "= help: write « plus de »" in block


def test_json_output_has_places_on_both_sides(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    record = next(d for d in data["diagnostics"] if d["rule"] == "comparison-differs")
    assert (record["code"], record["line"], record["counterpart"]["line"]) == ("RB612", 233, 220)
    assert record["counterpart"]["file"].endswith("rulebook.xml") and record["file"].endswith("rulebook.md")
    assert all("counterpart" not in d for d in data["diagnostics"] if d["rule"] == "doubled-word" and False)
    assert data["comparison"]["coverage"]["translated_sections"] == 72
    assert data["summary"]["files"] == 2


def test_github_and_sarif_outputs(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--format", "github"]) == 1
    github = capsys.readouterr().out
    assert "::error file=" in github and "title=RB612 comparison-differs::" in github
    assert "the original says (" in github or "%0Athe original says" in github
    assert main([*ARGS, "--format", "sarif"]) == 1
    log = json.loads(capsys.readouterr().out)
    schema = json.loads((ROOT / "tests" / "schemas" / "sarif-2.1.0.json").read_text(encoding="utf-8"))
    jsonschema.Draft4Validator(schema).validate(log)
    run = log["runs"][0]
    assert {rule["id"][:3] for rule in run["tool"]["driver"]["rules"]} == {"RB6"}
    result = next(r for r in run["results"] if r["ruleId"] == "RB612")
    related = result["relatedLocations"][-1]
    assert related["message"]["text"] == "the original says"
    assert related["physicalLocation"]["region"]["startLine"] == 220


def test_fail_on_names_are_checked_and_codes_accepted(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--fail-on", "numbers-diff"]) == 2
    error = capsys.readouterr().err
    assert "`numbers-diff` is not a kind of finding" in error and "comparison-differs" in error
    assert main([*ARGS, "--fail-on", "none"]) == 0
    assert main([*ARGS, "--fail-on", "RB634"]) == 1  # doubled-word: "sur sur"
    assert main([*ARGS, "--fail-on", "table-row"]) == 0


def test_a_swapped_or_wrong_language_pair_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["compare", str(FRENCH), str(BUNDLED_BOOK)]) == 2
    assert "seem swapped" in capsys.readouterr().err
    english_copy = tmp_path / "book.md"
    english_copy.write_text((ROOT / "rulebook_src" / "other-game" / "rules.md").read_text(encoding="utf-8"), "utf-8")
    assert main(["compare", str(BUNDLED_BOOK), str(english_copy)]) == 2
    assert "reads as English, not French" in capsys.readouterr().err


# -- the report for people ----------------------------------------------------------------------------


def test_side_by_side_html_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main([*ARGS, "--format", "html"]) == 1
    page = lxml.html.fromstring(capsys.readouterr().out)
    heading = next(r for r in page.cssselect(".rb-heading") if "Models, Units and Formations" in r.text_content())
    assert "Figurines, unités et formations" in heading.text_content()
    # Full texts: the last paragraph of Generating Spells is there, on both sides.
    assert "Spells that are not generated" in page.text_content() and "Les sorts qui ne sont pas" in page.text_content()
    # Line numbers lead (through the report's script, so a link checker has thousands fewer links to follow)
    # to the source lines listed in the report.
    links = [a.get("data-line") for a in page.cssselect("a.rb-line")]
    anchors = {element.get("id") for element in page.cssselect("[id]")}
    assert links and all(link in anchors for link in links)
    # The values that differ are highlighted, the finding under its row, with kind and severity for the filter.
    row = next(r for r in page.cssselect("tr.rb-row") if "d'au moins" in r.text_content() and r.cssselect("mark"))
    assert any("1" in mark.text_content() for mark in row.cssselect("mark"))
    finding = row.getnext().cssselect(".rb-finding")[0]
    assert (finding.get("data-kind"), finding.get("data-severity")) == ("comparison-differs", "error")
    assert {box.get("value") for box in page.cssselect(".rb-filter input[name=kind]")} >= {"comparison-differs"}
    # Tables as tables.
    profile = [t for t in page.cssselect("table.rb-table") if "Capacité de Combat" in t.text_content()]
    assert profile and len(profile[0].cssselect("tr")) == 9
    alpha = next(li for li in page.cssselect(".rb-finding") if "GREEK CAPITAL LETTER ALPHA" in li.text_content())
    assert alpha.cssselect("code")[0].text == "other-script"


def test_the_site_carries_the_same_report(drafts_site: Path) -> None:
    page = lxml.html.fromstring((drafts_site / "translation-fr" / "index.html").read_bytes())
    assert page.cssselect(".rb-compare .rb-side-by-side tbody.rb-pair")
    assert page.cssselect(".rb-compare form.rb-filter") and page.cssselect(".rb-compare details.rb-source")
