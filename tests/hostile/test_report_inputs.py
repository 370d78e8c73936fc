"""No report, baseline, export, converted source or waivers file is ever written over (or where the project looks for)
a file the project reads: one list of them (:meth:`rulebook.project.Project.inputs`) for every writer.

``compare --waive --waivers rules/fr/terms.toml`` (a terminology just begun: two comment lines) and ``lint
--write-baseline rules/fr/terms.toml`` (an empty one) replaced the terminology, with exit 0, and then the build, the
lint and ``compare`` all stopped: both writers protected nothing, and a file of comments alone was taken for a
waivers file this tool wrote. A waivers file is one by its ``[[waiver]]`` tables, never by being empty or comments.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from .scratch import configure, refused, run, scratch, source  # noqa: F401 (fixtures)
from .test_report_files import BOOK

FRENCH = "# 1 Bouger\n\nMarcher, c'est bouger.\n\n# 2 En plus\n\nAutre.\n\n# 3 Encore\n\nEncore.\n"
"""A translation with a section the original lacks: ``compare`` finds it (a fingerprint to waive)."""
BEGUN = "# French terminology, to be filled by the translators.\n# One table a term.\n"
PROTECTED = "is a file of the project (the configuration names it): choose another name"


def _project(folder: Path) -> None:
    """A book with a French translation whose terminology is just begun, and a second book with its baseline."""
    source(folder, "book.xml", BOOK)
    (folder / "fr").mkdir()
    (folder / "fr" / "book.md").write_text(FRENCH, encoding="utf-8")
    (folder / "fr" / "terms.toml").write_text(BEGUN, encoding="utf-8")
    (folder / "second").mkdir()
    shutil.copy(folder / "book.xml", folder / "second" / "book.xml")
    configure(
        folder,
        '\n[translations.fr]\nsource = "fr/book.md"\n\n'
        '[books.second]\nsources = ["second/book.xml"]\nbaseline = "second/baseline.json"\n',
    )


def _fingerprint(capsys: pytest.CaptureFixture[str]) -> str:
    out = run(capsys, "compare", "book.xml", "fr/book.md").out
    return next(line.split("`")[1] for line in out.splitlines() if "= note: fingerprint `" in line)


def test_a_waiver_is_never_written_into_the_terminology(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The probe's case: the user mixed up ``--waivers`` and ``--terms``."""
    _project(scratch)
    found = _fingerprint(capsys)
    outcome = refused(
        capsys, scratch, "compare", "book.xml", "fr/book.md", "--waive", found, "--waivers", "fr/terms.toml"
    )
    assert outcome.err == f"rulebook: error: `fr/terms.toml` {PROTECTED}\n"
    (scratch / "fr" / "terms.toml").write_text("", encoding="utf-8")
    outcome = refused(capsys, scratch, "lint", "--book", "main", "--write-baseline", "fr/terms.toml")
    assert outcome.err == f"rulebook: error: `fr/terms.toml` {PROTECTED}\n"
    assert run(capsys, "compare", "book.xml", "fr/book.md").code == 0  # the terminology still reads


WRITERS = {
    "lint -o": ("lint", "-o"),
    "lint --write-baseline": ("lint", "--book", "main", "--write-baseline"),
    "graph -o": ("graph", "-o"),
    "terms export -o": ("terms", "export", "fr/terms.toml", "--language", "fr", "-o"),
    "convert -o": ("convert", "book.xml", "--to", "markdown", "-o"),
}
INPUTS = {
    "a terminology of comments": "fr/terms.toml",
    "an empty terminology": "fr/terms.toml",
    "a status file not made yet": "fr/status.toml",
    "a waivers file not made yet": "fr/waivers.toml",
    "the site's settings not made yet": "mkdocs.yml",
    "another book's baseline": "second/baseline.json",
}


@pytest.mark.parametrize("writer", sorted(WRITERS))
@pytest.mark.parametrize("kind", sorted(INPUTS))
def test_no_writer_writes_a_file_the_project_reads(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
    kind: str,
) -> None:
    """Every writer refuses every file the configuration names or the project looks for (a translation's status
    and waivers beside it, ``mkdocs.yml``), there or not: a report made as ``mkdocs.yml`` would be read as the
    site's settings by the next build."""
    _project(scratch)
    if kind == "an empty terminology":
        (scratch / "fr" / "terms.toml").write_text("", encoding="utf-8")
    if kind == "another book's baseline":
        assert run(capsys, "lint", "--book", "second", "--write-baseline", "second/baseline.json").code == 0
    target = INPUTS[kind]
    outcome = refused(capsys, scratch, *WRITERS[writer], target)
    assert outcome.err.endswith(f"rulebook: error: `{target}` {PROTECTED}\n")


def test_a_books_own_baseline_and_a_translations_own_waivers_are_still_rewritten(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    _project(scratch)
    for _ in range(2):
        assert run(capsys, "lint", "--book", "second", "--write-baseline", "second/baseline.json").code == 0
    found = _fingerprint(capsys)
    assert run(capsys, "compare", "book.xml", "fr/book.md", "--waive", found).code == 0
    assert (scratch / "fr" / "waivers.toml").read_text(encoding="utf-8").startswith("[[waiver]]\n")
    assert run(capsys, "compare", "book.xml", "fr/book.md", "--waive", _fingerprint(capsys)).code == 0
    assert (scratch / "fr" / "waivers.toml").read_text(encoding="utf-8").count("[[waiver]]") == 2


@pytest.mark.parametrize("content", [BEGUN, "# notes\n\n", "waiver = []\n"])
def test_a_file_of_comments_is_not_taken_for_a_waivers_file(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    content: str,
) -> None:
    _project(scratch)
    (scratch / "notes.toml").write_text(content, encoding="utf-8")
    found = _fingerprint(capsys)
    outcome = refused(capsys, scratch, "compare", "book.xml", "fr/book.md", "--waive", found, "--waivers", "notes.toml")
    assert outcome.err == (
        "rulebook: error: `notes.toml` exists and is not a waivers file this tool wrote: choose another name (a "
        "waivers file replaces only an earlier waivers file)\n"
    )


def test_a_waiver_is_never_written_into_another_translations_waivers(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each translation's waivers are its own: ``--waivers es/waivers.toml`` for the French is refused."""
    _project(scratch)
    (scratch / "es").mkdir()
    (scratch / "es" / "book.md").write_text(FRENCH, encoding="utf-8")
    configure(scratch, '\n[translations.es]\nsource = "es/book.md"\n')
    found = _fingerprint(capsys)
    out = run(capsys, "compare", "book.xml", "es/book.md", "--language", "es").out
    other = next(
        line.split("`")[1] for line in out.splitlines() if "= note: fingerprint `" in line and found not in line
    )
    assert run(capsys, "compare", "book.xml", "es/book.md", "--language", "es", "--waive", other).code == 0
    outcome = refused(
        capsys, scratch, "compare", "book.xml", "fr/book.md", "--waive", found, "--waivers", "es/waivers.toml"
    )
    assert outcome.err == f"rulebook: error: `es/waivers.toml` {PROTECTED}\n"
