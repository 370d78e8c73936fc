"""Aligning the French translation with the English book, and comparing them."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from compiler.cli import main
from compiler.model import Book
from compiler.recipe import read_book
from compiler.translate.align import Pair, align_sections
from compiler.translate.compare import compare_books
from compiler.translate.numbers import numbers

from .conftest import BUNDLED_BOOK, ROOT

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"


@pytest.fixture(scope="module")
def books() -> tuple[Book, Book]:
    return read_book([BUNDLED_BOOK], ROOT).book, read_book([FRENCH], ROOT, language="fr").book


@pytest.fixture(scope="module")
def pairs(books: tuple[Book, Book]) -> dict[str, Pair]:
    return {p.original.title: p for p in align_sections(*books) if p.original is not None}


def french_title(pair: Pair) -> str | None:
    return pair.translation.title if pair.translation else None


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


@pytest.mark.parametrize(
    ("text", "language", "expected"),
    [
        ("deux figurines et 2 socles", "fr", {"2": 2}),
        ("un dragon et une figurine", "fr", {}),  # "un"/"une" is the article, not a count
        ("2,5 pouces", "fr", {"2.5": 1}),
        ("50 %", "fr", {"0.5": 1}),
        ("la moitié", "fr", {"0.5": 1}),
        ("1\u2044" + "2\u201d", "en", {"0.5": 1}),
        ("72\u201d (1,80 m)", "fr", {"72": 1}),  # the translator's metric conversion is not a disagreement
        ('entre 6" par 8" (soit 15x20 cm)', "fr", {"6": 1, "8": 1}),  # so is one in dimensions
        ("voir la figure 1 et le paragraphe 2.2.5", "fr", {}),  # pointers, not quantities
        ("see Figure 1", "en", {}),
        ("roll a D6, then 2D6", "en", {"1D6": 1, "2D6": 1}),  # dice notation: D6 is 1D6
        ("lancez 1D6", "fr", {"1D6": 1}),
        ("halved", "en", {"0.5": 1}),
        ("divisée par 2", "fr", {"0.5": 1}),
        ("both players", "en", {"2": 1}),
    ],
)
def test_numbers_are_read_as_values(text: str, language: str, expected: dict[str, int]) -> None:
    assert numbers(text, language) == Counter(expected)


def test_compare_reports_what_a_translator_needs(books: tuple[Book, Book]) -> None:
    comparison = compare_books(*books)
    kinds = Counter(f.kind for f in comparison.findings)
    assert kinds["missing-section"] == 7  # the Deployment Phase chapter and its six subsections
    assert kinds["extra-section"] == 9  # front matter and the translators' introduction
    lost = [(f.original, f.translation) for f in comparison.findings if f.kind == "lost-reference"]
    assert lost == [("full-ranks", "s2-2-2"), ("choose_secondary_objective/Secure Target", "6-securisez-la-cible")]
    coverage = comparison.coverage
    assert coverage["translated_sections"] == 72 and coverage["sections"] == 79
    # Equivalent numbers are not reported: the Board Edge's "50%" is the French "moitié".
    assert not any(f.original and "board-edge" in f.original and "0.5" in f.message for f in comparison.findings)


def test_compare_command(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["compare", str(BUNDLED_BOOK), str(FRENCH)]
    assert main([*args, "--format", "json"]) == 1
    data = json.loads(capsys.readouterr().out)
    assert data["coverage"]["share"] > 0.9
    assert {"kind", "message", "original", "translation"} <= set(data["findings"][0])
    assert main([*args, "--fail-on", "none"]) == 0
    assert "Coverage: 72 of 79 sections" in capsys.readouterr().out


def small_pair(french_text: str) -> tuple[Book, Book]:
    from compiler.markdown_source import parse_markdown_string
    from compiler.xml_source import parse_xml_string

    english = parse_xml_string(
        '<document><chapter title="Dice"><section title="Rolling">Roll 2 dice.</section></chapter></document>'
    ).document
    french = parse_markdown_string(french_text, "fr.md").document
    assert english is not None and french is not None
    return Book((english,)), Book((french,))


def number_findings(english_xml: str, french_text: str) -> list[dict[str, object]]:
    from compiler.markdown_source import parse_markdown_string
    from compiler.xml_source import parse_xml_string

    english = parse_xml_string(english_xml).document
    french = parse_markdown_string(french_text, "fr.md").document
    assert english is not None and french is not None
    comparison = compare_books(Book((english,)), Book((french,)))
    return [f.details for f in comparison.findings if f.kind == "numbers-differ"]


def test_numbers_printed_before_steps_match_a_numbered_sequence() -> None:
    english = (
        '<document><chapter title="Turn"><section title="Player Turn">Each turn has three phases:'
        "<sequence><item>Movement</item><item>Magic</item><item>Shooting</item></sequence></section></chapter></document>"
    )
    french = "## 1 Tour\n\n## 1.1 Tour de joueur\n\nChaque tour a trois phases :\n\n- 1 Mouvement\n- 2 Magie\n- 3 Tir\n"
    assert number_findings(english, french) == []
    # A step number that is not one is still reported.
    assert number_findings(english, french.replace("- 3 Tir", "- 3 Tir sur 4+")) == [
        {"only_in_original": [], "only_in_translation": ["4"]}
    ]


def test_a_passage_moved_to_the_next_section_is_no_difference() -> None:
    english = (
        '<document><chapter title="Units"><section title="Ranks">A rank has 5 models. Figure: 3 ranks of 5.</section>'
        '<section title="Files">Files are columns.</section></chapter></document>'
    )
    french = "## 1 Unités\n\n## 1.1 Rangs\n\nUn rang a 5 figurines.\n\n## 1.2 Colonnes\n\nLes colonnes. Figure : 3 rangs de 5.\n"
    assert number_findings(english, french) == []
    # A number missing for good is still reported.
    assert number_findings(english, french.replace("Un rang a 5 figurines.", "Un rang a des figurines.")) == [
        {"only_in_original": ["5"], "only_in_translation": []}
    ]


def test_other_script_debris_and_doubled_words() -> None:
    english, french = small_pair(
        "## 1 Dés\n\n## 1.1 Lancer\n\nLancez 2 dés sur sur la table. Vous vous \u0410rrêtez\u00ad.\n"
    )
    found = {(f.kind, f.details.get("text")) for f in compare_books(english, french).findings}
    assert ("other-script", "\u0410") in found  # CYRILLIC CAPITAL LETTER A
    assert ("doubled-word", "sur sur") in found
    assert ("conversion-debris", "\u00ad") in found  # a soft hyphen
    assert not any(kind == "doubled-word" and "ous" in str(text) for kind, text in found)  # "vous vous" is French


def test_seed_slips_are_found() -> None:
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = read_book([FRENCH], ROOT, language="fr").book
    found = {(f.kind, f.details.get("line")) for f in compare_books(english, french).findings if f.details}
    assert ("other-script", 248) in found  # a Greek capital alpha for the A of "Attaques"
    assert ("doubled-word", 506) in found  # "sur sur"


def test_waivers_hide_a_finding_until_either_text_changes() -> None:
    english, french = small_pair("## 1 Dés\n\n## 1.1 Lancer\n\nLancez 3 dés.\n")
    (finding,) = [f for f in compare_books(english, french).findings if f.kind == "numbers-differ"]
    waived = compare_books(english, french, waivers={finding.fingerprint: "checked with the authors"})
    assert not any(f.kind == "numbers-differ" for f in waived.findings)
    assert (waived.waived, waived.stale_waivers) == (1, ())
    english, edited = small_pair("## 1 Dés\n\n## 1.1 Lancer\n\nLancez bien 3 dés.\n")
    expired = compare_books(english, edited, waivers={finding.fingerprint: "checked with the authors"})
    assert any(f.kind == "numbers-differ" for f in expired.findings)
    assert expired.stale_waivers == (finding.fingerprint,)


def test_side_by_side_report_as_html_and_as_a_site_page(capsys: pytest.CaptureFixture[str], drafts_site) -> None:  # type: ignore[no-untyped-def]
    import lxml.html

    assert main(["compare", str(BUNDLED_BOOK), str(FRENCH), "--format", "html"]) == 1
    page = lxml.html.fromstring(capsys.readouterr().out)
    rows = page.cssselect(".rb-side-by-side tbody tr")
    first_pair = next(r for r in rows if "Models, Units and Formations" in r.text_content())
    left, right = first_pair.cssselect("td")
    assert "Models, Units and Formations" in left.text_content()
    assert "Figurines, unités et formations" in right.text_content()
    alpha = next(li for li in page.cssselect(".rb-findings li") if "GREEK CAPITAL LETTER ALPHA" in li.text_content())
    assert alpha.cssselect("code")[0].text == "other-script"
    site_page = lxml.html.fromstring((drafts_site / "translation-fr" / "index.html").read_bytes())
    assert len(site_page.cssselect(".rb-side-by-side tbody tr")) == len(rows)


def table_findings(french_rows: str) -> list[str]:
    from compiler.markdown_source import parse_markdown_string
    from compiler.translate.terminology import Entry
    from compiler.xml_source import parse_xml_string

    english = parse_xml_string(
        '<document><chapter title="Army"><section title="Warbands">Limits:<table>'
        '<row><cell><reference name="core">Core</reference></cell><cell>max 2</cell></row>'
        '<row><cell><reference name="special">Special</reference></cell><cell>max 3</cell></row>'
        '<row><cell><reference name="rare">Rare</reference></cell><cell>max 1</cell></row>'
        "</table></section></chapter></document>"
    ).document
    french = parse_markdown_string(
        f"## 1 Armée\n\n## 1.1 Patrouilles\n\nLimites :\n\n{french_rows}\n", "fr.md"
    ).document
    assert english is not None and french is not None
    entries = {"core": Entry("core", "Base"), "special": Entry("special", "Spécial"), "rare": Entry("rare", "Rare")}
    comparison = compare_books(Book((english,)), Book((french,)), terms=entries)
    return [f.message.split(": ", 1)[1] for f in comparison.findings if f.kind == "table-row"]


def test_table_rows_are_matched_by_key_not_position() -> None:
    assert table_findings("Rare\tmax. 1\nBase\tmax. 2\nSpécial\tmax. 3") == []


def test_a_table_row_with_another_value_or_missing_is_reported() -> None:
    assert table_findings("Rare\tmax. 1\nBase\tmax. 4\nSpécial\tmax. 3") == [
        "row `Core` / `Base`: the original says 2; the translation says 4"
    ]
    assert table_findings("Base\tmax. 2\nRare\tmax. 1") == ["row `Special` is missing from the translation's table"]


def test_seed_tables_agree_row_by_row(books: tuple[Book, Book]) -> None:
    from compiler.translate.terminology import load_terminology

    terms = load_terminology(ROOT / "rulebook_src" / "fr" / "terms.toml")
    assert not [f.message for f in compare_books(*books, terms=terms).findings if f.kind == "table-row"]
    # The Warband table's rows are matched through the terminology (Core is Base): a changed limit shows.
    french = FRENCH.read_text(encoding="utf-8").replace("Base\tmax. 2", "Base\tmax. 3", 1)
    from compiler.markdown_source import parse_markdown_string

    changed = parse_markdown_string(french, str(FRENCH), language="fr").document
    assert changed is not None
    rows = [f.message for f in compare_books(books[0], Book((changed,)), terms=terms).findings if f.kind == "table-row"]
    assert rows == ["`Warbands` / `Patrouilles`: row `Core` / `Base`: the original says 2; the translation says 3"]
