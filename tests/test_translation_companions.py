"""A translation's companion files, its terminology and its waivers, are found by one rule for every command:
the file named (by the configuration, or ``compare --terms``/``--waivers``) must be there; without a name, the
file of the usual name beside the translation is read when there is one.

``rulebook compare`` once used a ``terms.toml`` beside the translation that ``rulebook build`` ignored (its
rules.json had no translated term), and ignored a terminology the configuration named elsewhere.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.project import load_project
from rulebook.recipe import commands
from rulebook.recipe.reading import read_configured
from rulebook.recipe.stages import compare_translations
from rulebook.serve.edits import LiveAffected, touched_by, watched

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving">
<section id="marching" title="Marching">
<definition name="march">To march is to move a unit forward up to its speed in inches.</definition>
</section>
<section id="charging" title="Charging">
<definition name="charge">To charge is to <reference name="march">march</reference> into contact with an enemy
unit.</definition>
A unit that <reference name="charge">charges</reference> must <reference name="march">march</reference> straight ahead.
</section>
</chapter>
</document>
"""
FRENCH = """# 1 Se déplacer

## 1.1 Marcher

Marcher, c'est déplacer une unité vers l'avant jusqu'à sa vitesse en pouces.

## 1.2 Charger

Charger, c'est avancer au contact d'une unité ennemie.

Une unité qui charge doit avancer tout droit.
"""
TERMS = '[march]\npreferred = "marcher"\n\n[charge]\npreferred = "charger"\n'
TRANSLATED = {"march": "marcher", "charge": "charger"}
"""The French names rules.json gives the terms with the terminology (none without it)."""
CONFIG = 'title = "Small"\nsources = ["rules/book.xml"]\n\n[translations.fr]\nsource = "rules/fr/book.md"\n'
TERM_MISSING = "RB621"
"""The finding the terminology makes here: `march` rendered « avancer » where the text says « charger »."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A book and its French translation, with nothing beside the translation yet; the working folder."""
    (tmp_path / "rules" / "fr").mkdir(parents=True)
    (tmp_path / "rules" / "book.xml").write_text(BOOK, encoding="utf-8")
    (tmp_path / "rules" / "fr" / "book.md").write_text(FRENCH, encoding="utf-8")
    (tmp_path / "rulebook.toml").write_text(CONFIG, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def compared(capsys: pytest.CaptureFixture[str], *options: str) -> tuple[int, list[str]]:
    """``rulebook compare`` of the translation: its exit status and the codes of its findings."""
    code = main(["compare", "rules/book.xml", "rules/fr/book.md", "--format", "json", *options])
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    return code, sorted(finding["code"] for finding in found)


def built_names(project: Path) -> dict[str, str]:
    """The French name of each term in the rules.json ``rulebook build`` writes."""
    assert main(["build", "--data-only", "-q", "--output", "out"]) == 0
    terms = json.loads((project / "out" / "rules.json").read_text(encoding="utf-8"))["terms"]
    return {term: data["translations"]["fr"]["name"] for term, data in terms.items() if data["translations"]}


def test_without_a_terminology_no_command_checks_or_translates_terms(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert TERM_MISSING not in compared(capsys)[1]
    assert built_names(project) == {}


def test_a_terminology_beside_the_translation_is_used_by_compare_and_build_alike(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "rules" / "fr" / "terms.toml").write_text(TERMS, encoding="utf-8")
    assert compared(capsys)[1].count(TERM_MISSING) == 1
    assert built_names(project) == TRANSLATED


def test_a_terminology_the_configuration_names_elsewhere_is_used_by_compare_too(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "glossary").mkdir()
    (project / "glossary" / "fr.toml").write_text(TERMS, encoding="utf-8")
    (project / "rulebook.toml").write_text(CONFIG + 'terms = "glossary/fr.toml"\n', encoding="utf-8")
    assert compared(capsys)[1].count(TERM_MISSING) == 1
    assert built_names(project) == TRANSLATED
    (project / "empty.toml").write_text("", encoding="utf-8")
    assert TERM_MISSING not in compared(capsys, "--terms", "empty.toml")[1]  # the command line's name comes first


def test_a_named_terminology_that_is_missing_stops_compare_and_build_alike(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "rules" / "fr" / "terms.toml").write_text(TERMS, encoding="utf-8")  # not the one named
    (project / "rulebook.toml").write_text(CONFIG + 'terms = "glossary/fr.toml"\n', encoding="utf-8")
    said = f"rulebook: error: cannot read `{project / 'glossary' / 'fr.toml'}`: no such file or directory\n"
    assert main(["compare", "rules/book.xml", "rules/fr/book.md"]) == 2
    assert capsys.readouterr().err == said
    assert main(["build", "-q", "--output", "out"]) == 2
    assert capsys.readouterr().err == said
    assert not (project / "out").exists()


def test_waivers_beside_the_translation_are_applied_by_compare_and_the_build_alike(project: Path) -> None:
    (project / "rules" / "fr" / "terms.toml").write_text(TERMS, encoding="utf-8")
    loaded = load_project(project)
    translation = commands.translation_of(loaded, Path("rules/fr/book.md"), "fr")
    compared = commands.compare(loaded, Path("rules/book.xml"), translation)
    assert isinstance(compared, tuple) and compared[1] == 1
    (finding,) = [f for f in compared[0].findings if f.kind == "term-missing"]
    waiver = f'[[waiver]]\nfingerprint = "{finding.fingerprint}"\nreason = "« avancer » is right here"\n'
    (project / "rules" / "fr" / "waivers.toml").write_text(waiver, encoding="utf-8")

    compared = commands.compare(loaded, Path("rules/book.xml"), translation)
    assert isinstance(compared, tuple)
    (built,) = compare_translations(read_configured(loaded, loaded.main), loaded.main, loaded.root)
    for comparison in (compared[0], built.comparison):
        assert comparison.waived == 1
        assert "term-missing" not in {f.kind for f in comparison.findings}
    assert compared[1] == 0


def test_serve_watches_the_companion_files_beside_a_translation(project: Path) -> None:
    loaded = load_project(project)
    companions = [project / "rules" / "fr" / name for name in ("terms.toml", "waivers.toml")]
    assert set(companions) <= {entry.path for entry in watched(loaded, loaded.books)}
    for path in companions:
        assert touched_by(loaded, loaded.books, [path]) == LiveAffected(later=("main",), translated=("main",))


@pytest.mark.parametrize("name", ["terms.toml", "waivers.toml"])
def test_lint_refuses_a_companion_file_a_build_refuses(
    name: str, project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A malformed terminology or waivers file beside a translation stops a build; `rulebook lint`, which CI runs on
    every change, says so first, in the same words (it said "All checks passed")."""
    (project / "rules" / "fr" / name).write_text("[march\n", encoding="utf-8")
    assert main(["build", "--data-only", "-q", "--output", "out"]) == 2
    refusal = capsys.readouterr().err
    assert f"rules/fr/{name}" in refusal
    assert main(["lint"]) == 2
    assert capsys.readouterr().err == refusal
