"""`rulebook compare --waive FINGERPRINT`: one command writes the waiver, and the finding is gone."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook.cli import main

from .conftest import BUNDLED_BOOK, ROOT

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project holding the seed's two books and the French terminology, as the working folder."""
    (tmp_path / "rulebook.toml").write_text(
        'sources = ["en.xml"]\n\n[translations.fr]\nsource = "fr/rulebook.md"\nformat = "plain-markdown"\n',
        encoding="utf-8",
    )
    shutil.copy(BUNDLED_BOOK, tmp_path / "en.xml")
    (tmp_path / "fr").mkdir()
    shutil.copy(FRENCH, tmp_path / "fr" / "rulebook.md")
    shutil.copy(ROOT / "rulebook_src" / "fr" / "terms.toml", tmp_path / "fr" / "terms.toml")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def fingerprints(capsys: pytest.CaptureFixture[str]) -> list[str]:
    main(["compare", "en.xml", "fr/rulebook.md"])
    out = capsys.readouterr().out
    return [line.split("`")[1] for line in out.splitlines() if "= note: fingerprint `" in line]


def test_waiving_writes_the_waiver_and_the_finding_is_gone(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = fingerprints(capsys)
    assert main(["compare", "en.xml", "fr/rulebook.md", "--waive", found[0][:6], "--reason", "front matter"]) == 0
    assert capsys.readouterr().out == "1 finding waived in fr/waivers.toml\n"
    waivers = (project / "fr" / "waivers.toml").read_text(encoding="utf-8")
    assert f'fingerprint = "{found[0]}"\nreason = "front matter"\n' in waivers
    assert "# RB602 extra-section at fr/rulebook.md:1:1:" in waivers  # what it said and where, for a reader
    assert fingerprints(capsys) == found[1:]
    assert main(["compare", "en.xml", "fr/rulebook.md", "--waive", found[1], "--waive", found[2]]) == 0
    assert "2 findings waived" in capsys.readouterr().out
    assert (project / "fr" / "waivers.toml").read_text(encoding="utf-8").startswith(waivers)  # added to, not replaced
    assert fingerprints(capsys) == found[3:]


def test_an_unknown_fingerprint_writes_nothing(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["compare", "en.xml", "fr/rulebook.md", "--waive", "0000000000"]) == 2
    assert "`0000000000` names no finding left" in capsys.readouterr().err
    assert main(["compare", "en.xml", "fr/rulebook.md", "--waive", "abc"]) == 2  # too short to name one
    assert not (project / "fr" / "waivers.toml").exists()


def test_a_file_that_is_not_a_waivers_file_is_not_written(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    found = fingerprints(capsys)
    notes = project / "fr" / "notes.toml"
    notes.write_text('title = "my notes"\n', encoding="utf-8")
    assert main(["compare", "en.xml", "fr/rulebook.md", "--waivers", str(notes), "--waive", found[0]]) == 2
    assert notes.read_text(encoding="utf-8") == 'title = "my notes"\n'


@pytest.mark.parametrize("target", ["site_templates/index.md.j2", "images/w.toml", "fr/images/w.toml"])
def test_no_waivers_file_is_written_into_a_folder_the_build_reads(
    project: Path, capsys: pytest.CaptureFixture[str], target: str
) -> None:
    """``--waivers site_templates/index.md.j2 --waive FP`` wrote the waivers where ``lint -o`` is refused, and the next
    build rendered them as the home page (the forty-first probe): every writer keeps the build's folders."""
    found = fingerprints(capsys)
    (project / target).parent.mkdir(parents=True, exist_ok=True)
    (project / target).write_bytes(b"")
    assert main(["compare", "en.xml", "fr/rulebook.md", "--waivers", target, "--waive", found[0]]) == 2
    assert "which the build reads; choose another name" in capsys.readouterr().err
    assert (project / target).read_bytes() == b""
