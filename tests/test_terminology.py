"""The bilingual terminology: matching, checks in `compare`, TBX and CSV export, suggestions."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest
from lxml import etree

from compiler.cli import main
from compiler.recipe import read_book
from compiler.translate.compare import compare_books
from compiler.translate.terminology import (
    Entry,
    TerminologyError,
    check_terms,
    contains,
    export_csv,
    export_tbx,
    fold,
    load_terminology,
    suggest,
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
    assert contains(fold("tracer des Lignes de Vue"), "ligne de vue")
    assert not contains(fold("une ligne droite"), "ligne de vue")


def test_checks_report_missing_and_forbidden_terms() -> None:
    found = check_terms(["model", "line_of_sight", "weapon_skill", "unknown_term"], "Un modèle a une CC de 3.", ENTRIES)
    assert [(kind, term) for kind, term, _ in found] == [
        ("term-missing", "line_of_sight"),
        ("term-missing", "model"),
        ("term-forbidden", "model"),
    ]
    assert "« figurine »" in found[1][2]


def test_the_curated_list_loads_and_rejects_bad_entries(tmp_path: Path) -> None:
    entries = load_terminology(TERMS)
    assert entries["model"].preferred == "figurine" and entries["warband"].preferred == "patrouille"
    assert len(entries) == 64
    bad = tmp_path / "terms.toml"
    bad.write_text("[model]\naccepted = ['x']\n", encoding="utf-8")
    with pytest.raises(TerminologyError, match="`model` needs a `preferred` French term"):
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


def test_csv_export() -> None:
    rows = list(csv.reader(io.StringIO(export_csv(ENTRIES, {}))))
    assert rows[0] == ["term_id", "en", "fr", "fr_accepted", "fr_forbidden"]
    assert ["weapon_skill", "weapon_skill", "Capacité de Combat", "CC", ""] in rows


def test_suggestions_prefer_cognates_and_keep_the_written_form() -> None:
    units = [
        (["cannon"], "Un canon et ses trois servants."),
        (["cannon", "model"], "Le canon tire sur les figurines."),
        (["model"], "Les figurines bougent."),
    ]
    suggestions = suggest(units, known={"model"})
    assert list(suggestions) == ["cannon"]
    assert suggestions["cannon"][0] == "canon"  # the cognate first, as written


def test_compare_checks_the_terms_of_each_aligned_section() -> None:
    english = read_book([BUNDLED_BOOK], ROOT).book
    french = read_book([FRENCH], ROOT, language="fr").book
    findings = compare_books(english, french, terms=load_terminology(TERMS)).findings
    missing = {(f.original, f.details.get("term")) for f in findings if f.kind == "term-missing"}
    # Read in the French: "Bords de table" says "socle" (base) where the English says Footprint, and
    # "Demi-point" drops the "1 pts / two models" clause.
    assert ("board-edge", "footprint") in missing
    assert ("point-costs/Half a Point", "model") in missing
    # Bands the French turned into sub-headings still count for their parent section.
    assert not any(term in {"hold_the_ground", "deployment_type_classic"} for _, term in missing)
    # Profiles print abbreviations: "CC à 0" is Weapon Skill.
    assert not any(term == "weapon_skill" for _, term in missing)


def test_terms_commands(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    out = tmp_path / "terms.tbx"
    assert main(["terms", "export", str(TERMS), "--format", "tbx", "-o", str(out)]) == 0
    assert etree.parse(str(out)).getroot().get("type") == "TBX-Basic"
    assert main(["terms", "suggest", str(BUNDLED_BOOK), str(FRENCH)]) == 0
    lines = capsys.readouterr().out.splitlines()
    suggestions = dict(line.split(": ", 1) for line in lines)
    assert suggestions["cannon"].startswith("canon")
    assert suggestions["cavalry"].startswith("cavalerie")
    assert "model" not in suggestions  # already in the list
