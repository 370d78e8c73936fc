"""The bilingual terminology: matching, checks in `compare`, TBX and CSV export, suggestions."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from lxml import etree

from rulebook.cli import main
from rulebook.recipe.reading import read_book
from rulebook.translate.compare import compare_books
from rulebook.translate.suggestions import AlignedUse, render_suggestions, suggest_terms
from rulebook.translate.terminology import (
    Entry,
    TerminologyError,
    TermMatcher,
    export_csv,
    export_tbx,
    fold,
    load_terminology,
)

from .conftest import BUNDLED_BOOK, ROOT

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"
TERMS = ROOT / "rulebook_src" / "fr" / "terms.toml"
ENTRIES = {
    "model": Entry("model", "figurine", (), ("modèle",)),
    "line_of_sight": Entry("line_of_sight", "ligne de vue"),
    "weapon_skill": Entry("weapon_skill", "Capacité de Combat", ("CC",)),
}


def test_matching_folds_case_accents_and_plurals() -> None:
    assert fold("Les Figurines réactives") == ["les", "figurine", "reactive"]  # short words are kept whole
    matcher = TermMatcher(ENTRIES)
    assert matcher.terms("tracer des Lignes de Vue") == {"line_of_sight"}
    assert matcher.terms("une ligne droite") == set()


def test_the_matcher_finds_rendered_terms_and_forbidden_variants() -> None:
    matcher = TermMatcher(ENTRIES)
    text = "Un modèle a une CC de 3."
    assert matcher.terms(text) == {"weapon_skill"}
    assert matcher.forbidden(text, "model") == [("modèle", 3, 9)]
    assert matcher.forbidden(text, "line_of_sight") == []


def test_the_curated_list_loads_and_rejects_bad_entries(tmp_path: Path) -> None:
    entries = load_terminology(TERMS)
    assert entries["model"].preferred == "figurine" and entries["warband"].preferred == "patrouille"
    assert len(entries) == 129
    assert entries["character"].preferred == "Personnage" and entries["magical_item"].preferred == "Objet Magique"
    bad = tmp_path / "terms.toml"
    bad.write_text("[model]\naccepted = ['x']\n", encoding="utf-8")
    with pytest.raises(TerminologyError, match=r"`model` needs a `preferred` term \(the rendering to use\)"):
        load_terminology(bad)
    bad.write_text('model = "figurine"\n', encoding="utf-8")  # a plausible shorthand: it was said to need `preferred`
    with pytest.raises(TerminologyError, match=r"`model` is a table of its own: `\[model\]`, then `preferred = "):
        load_terminology(bad)
    bad.write_text("[model]\npreferred = 5\n", encoding="utf-8")
    with pytest.raises(TerminologyError, match=r"`preferred` of `model` must be a phrase, not the number 5$"):
        load_terminology(bad)
    bad.write_text('[model]\npreferred = " "\n', encoding="utf-8")  # rendered the term as nothing, in silence
    with pytest.raises(TerminologyError, match=r"`preferred` of `model` is empty: write the rendering to use$"):
        load_terminology(bad)


def test_tbx_export_is_iso_30042_shaped() -> None:
    tbx = etree.fromstring(export_tbx(ENTRIES, {"model": "model"}).encode("utf-8"))
    ns = {"t": "urn:iso:std:iso:30042:ed-2"}
    assert tbx.tag == "{urn:iso:std:iso:30042:ed-2}tbx" and tbx.get("type") == "TBX-Basic"
    concept = tbx.find(".//t:conceptEntry[@id='model']", ns)
    assert concept is not None
    french = concept.find("t:langSec[@{http://www.w3.org/XML/1998/namespace}lang='fr']", ns)
    assert french is not None
    statuses = [(s.findtext("t:term", namespaces=ns), s.findtext("t:termNote", namespaces=ns)) for s in french]
    assert statuses == [("figurine", "preferredTerm-admn-sts"), ("modèle", "deprecatedTerm-admn-sts")]


def test_tbx_ids_are_ids_xml_takes_each_once() -> None:
    """A terminology's key may be any text: ``a]]>b<c`` was written as the conceptEntry's id, which no TBX tool
    reads as an id (XML's ids are names)."""
    odd = {key: Entry(key, "x") for key in ("a]]>b<c", "2d6", "term-61", "model")}
    tbx = etree.fromstring(export_tbx(odd, {}).encode("utf-8"))
    ids = [concept.get("id") for concept in tbx.iter("{urn:iso:std:iso:30042:ed-2}conceptEntry")]
    assert ids == ["term-32-64-36", "term-61-5d-5d-3e-62-3c-63", "model", "term-61"]
    assert etree.fromstring(export_tbx(odd, {}).encode("utf-8")).findtext(".//{*}term") == "2d6"


def test_csv_export() -> None:
    rows = list(csv.reader(io.StringIO(export_csv(ENTRIES, {}))))
    assert rows[0] == ["term_id", "en", "fr", "fr_accepted", "fr_forbidden"]
    assert ["weapon_skill", "weapon_skill", "Capacité de Combat", "CC", ""] in rows


def test_suggestions_rank_what_goes_with_the_term_and_keep_the_written_form() -> None:
    uses = [
        AlignedUse((("cannon", "Cannon"),), "Un canon et ses trois servants."),
        AlignedUse((("cannon", "cannons"), ("model", "models")), "Le canon tire sur les figurines."),
        AlignedUse((("model", "Models"),), "Les figurines bougent."),
        AlignedUse((("wizard", "Wizard"),), "Le Sorcier lance un sort."),
        AlignedUse((("wizard", "Wizards"),), "Chaque Sorcier connaît ses sorts."),
        AlignedUse((), "Un sort de plus."),
    ]
    suggestions = {s.term: s for s in suggest_terms(uses, {"model": Entry("model", "figurine")}, "fr")}
    assert set(suggestions) == {"cannon", "wizard"}  # model is in the list already
    assert suggestions["cannon"].candidates[0][0] == "canon"  # the cognate, as written
    assert suggestions["wizard"].candidates[0][0] == "Sorcier"  # with the term, rarely without it; capitalised
    assert suggestions["wizard"].english == ("Wizard", "Wizards") and suggestions["wizard"].uses == 2
    toml = render_suggestions(list(suggestions.values()))
    assert '[wizard]\npreferred = "Sorcier"' in toml


def test_suggestions_read_noun_phrases_in_the_translations_language() -> None:
    uses = [
        AlignedUse((("wizard", "Wizard"),), "Der Zauberer wirkt einen Spruch."),
        AlignedUse((("wizard", "Wizards"),), "Jeder Zauberer kennt die Sprüche."),
        AlignedUse((("wizard", "Wizard"),), "Ein Zauberer mit dem Banner."),
        AlignedUse((), "Ein Spruch mehr."),
    ]
    german = suggest_terms(uses, {}, "de")[0]
    assert german.candidates[0][0] == "Zauberer"
    stops = {"der", "jeder", "ein", "die", "dem", "mit"}  # German articles and prepositions (de.toml)
    assert not [c for c, _, _ in german.candidates if {c.split()[0].lower(), c.split()[-1].lower()} & stops]
    french_rules = suggest_terms(uses, {}, "fr")[0]  # French words do not bound a German phrase
    assert [c for c, _, _ in french_rules.candidates if c.split()[0].lower() in stops]


def test_short_accepted_forms_match_only_as_written() -> None:
    matcher = TermMatcher(
        {"attacks": Entry("attacks", "Attaques", ("A",)), "movement": Entry("movement", "Mouvement", ("M",))}
    )
    assert matcher.terms("A à 0 : aucune attaque") == {"attacks"}
    assert matcher.terms("à la table, a 2 m") == set()  # never the preposition, nor metres
    assert matcher.terms("M 4") == {"movement"}


def test_compare_reports_a_term_rendered_by_a_related_one() -> None:
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = read_book([FRENCH], ROOT, language="fr", source_format="plain-markdown").book
    findings = compare_books(english, french, terms=load_terminology(TERMS)).findings
    missing = {(f.original, f.details["term"]) for f in findings if f.kind == "term-missing"}
    # Read in the French: "Bords de table" says « socle » (base) where the English says Footprint.
    assert ("board-edge", "footprint") in missing
    # Bands the French turned into sub-headings still count for their parent section.
    assert not any(term in {"hold_the_ground", "deployment_type_classic"} for _, term in missing)
    # Profiles print abbreviations: "CC à 0" is Weapon Skill.
    assert not any(term == "weapon_skill" for _, term in missing)


def test_terms_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "terms.tbx"
    assert main(["terms", "export", str(TERMS), "--format", "tbx", "-o", str(out)]) == 0
    assert etree.parse(str(out)).getroot().get("type") == "TBX-Basic"
    assert main(["terms", "suggest", str(BUNDLED_BOOK), str(FRENCH), "--terms", str(tmp_path / "none.toml")]) == 2
    capsys.readouterr()
    empty = tmp_path / "terms.toml"
    empty.write_text("", encoding="utf-8")
    assert main(["terms", "suggest", str(BUNDLED_BOOK), str(FRENCH), "--terms", str(empty)]) == 0
    toml = capsys.readouterr().out
    assert '[cannon]\npreferred = "canon"' in toml
    assert '[model]\npreferred = "figurine"' in toml
    assert main(["terms", "suggest", str(BUNDLED_BOOK), str(FRENCH)]) == 0
    listed = capsys.readouterr().out
    assert "[model]" not in listed  # already in the list
