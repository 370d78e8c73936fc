"""An output that is a folder the build reads: refused whether it exists yet or not.

``-o images`` (the pictures folder beside a book at the project's root), ``-o site_templates`` and ``-o overrides``
(the theme's ``custom_dir``) were accepted while empty or absent: the site was built there, and the next build,
replacing its output whole, deleted the picture or ``strings.toml`` the author had added since (exit 0).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .scratch import nothing_written_outside, run
from .test_output import project

OWN = "choose a folder of its own, such as `site`"
MKDOCS = "site_name: Tiles\ntheme:\n  name: material\n  custom_dir: {custom}\n"


@pytest.fixture
def root_book(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A book at the project's root (its pictures folder ``images/``), with a ``mkdocs.yml`` naming a theme's
    ``custom_dir``."""
    folder = project(tmp_path / "game")
    (folder / "mkdocs.yml").write_text(MKDOCS.format(custom="look/overrides"), encoding="utf-8")
    monkeypatch.chdir(folder)
    return folder


PICTURES = "the pictures folder of `book.xml`"
TEMPLATES = "the project's templates folder"
CUSTOM = "the folder `mkdocs.yml` names as `theme.custom_dir`"
CASES = {
    "images": f"the output `images` is {PICTURES}, which the build reads: {OWN}",
    "images/www": f"the output `images/www` is inside `images`, {PICTURES}, which the build reads: {OWN}",
    "site_templates": f"the output `site_templates` is {TEMPLATES}, which the build reads: {OWN}",
    "site_templates/fonts": (
        f"the output `site_templates/fonts` is inside `site_templates`, {TEMPLATES}, which the build reads: {OWN}"
    ),
    "look/overrides": f"the output `look/overrides` is {CUSTOM}, which the build reads: {OWN}",
    "look": (
        f"the output `look` holds `look/overrides`, {CUSTOM}, which the build reads, and a build replaces its output "
        f"whole: {OWN}"
    ),
}


@pytest.mark.parametrize("made", [False, True], ids=["absent", "empty"])
@pytest.mark.parametrize("output", CASES)
def test_an_output_the_build_reads_from_is_refused(
    root_book: Path, capsys: pytest.CaptureFixture[str], output: str, made: bool
) -> None:
    """Absent or empty (as a fresh checkout has it), the folder is refused by name, and nothing is written."""
    if made:
        (root_book / output).mkdir(parents=True)
    capsys.readouterr()
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, "build", "-q", "--no-pdf", "-o", output)
    assert (outcome.code, outcome.err) == (2, f"rulebook: error: {CASES[output]}\n")


def test_every_mode_refuses_it(root_book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    for argv in (("--data-only",), ("--book", "main", "--no-pdf"), ("--pdf-only",)):
        with nothing_written_outside(root_book.parent):
            outcome = run(capsys, "build", "-q", *argv, "-o", "images")
        assert (outcome.code, outcome.err) == (2, f"rulebook: error: {CASES['images']}\n")


def test_a_folder_beside_the_book_that_it_does_not_read_is_built_into(
    root_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The rule names the folders read, nothing more: ``-o site``, beside the book at the root, is built."""
    (root_book / "look" / "overrides").mkdir(parents=True)
    assert run(capsys, "build", "-q", "--no-pdf", "-o", "site").code == 0
    assert (root_book / "site" / "index.html").is_file()


REPORTS = {
    "site_templates/strings.toml": f"it is inside `site_templates`, {TEMPLATES}",
    "site_templates/fonts/x.ttf": f"it is inside `site_templates`, {TEMPLATES}",
    "images/missing.png": f"it is inside `images`, {PICTURES}",
    "look/overrides/partials/footer.html": f"it is inside `look/overrides`, {CUSTOM}",
    "hooks.py": "it is a file `mkdocs.yml` names as `hooks`",
}


@pytest.mark.parametrize("made", [False, True], ids=["absent", "empty"])
@pytest.mark.parametrize("target", REPORTS)
@pytest.mark.parametrize("command", [("lint",), ("graph",), ("convert", "book.xml", "--to", "markdown")])
def test_no_report_is_written_into_a_place_the_build_reads(
    root_book: Path, capsys: pytest.CaptureFixture[str], target: str, made: bool, command: tuple[str, ...]
) -> None:
    """``lint -o overrides/partials/footer.html`` made the report the theme's footer (a source's line quoted in it
    raw on every page), ``lint -o site_templates/strings.toml`` broke the next build: new or empty, a file there is
    refused by name, as every report, export and converted source is."""
    settings = root_book / "mkdocs.yml"
    settings.write_text(settings.read_text(encoding="utf-8") + "hooks: [hooks.py]\n", encoding="utf-8")
    if made:
        (root_book / target).parent.mkdir(parents=True, exist_ok=True)
        (root_book / target).write_bytes(b"")
    capsys.readouterr()
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, *command, "-o", target)
    said = f"rulebook: error: cannot write `{target}`: {REPORTS[target]}, which the build reads; choose another name\n"
    assert (outcome.code, outcome.err) == (2, said)
    if made:
        assert (root_book / target).read_bytes() == b""
    else:
        assert not (root_book / target).exists()


def test_a_report_beside_the_folders_read_is_written(root_book: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (root_book / "look" / "overrides").mkdir(parents=True)  # as MkDocs asks of a `custom_dir` (the lint checks it)
    assert run(capsys, "lint", "-o", "reports/lint.txt").code == 0
    assert (root_book / "reports" / "lint.txt").is_file()


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", "-o", "../game/site_templates/index.md.j2"),
        ("graph", "-o", "../game/images/new.png"),
        ("convert", "book.xml", "--to", "markdown", "-o", "../game/look/overrides/main.html"),
        ("build", "-q", "--no-pdf", "-o", "../game/site_templates"),
    ],
)
def test_nothing_is_written_into_a_place_another_projects_build_reads(
    root_book: Path, capsys: pytest.CaptureFixture[str], argv: tuple[str, ...]
) -> None:
    """Run from another project (or with its `--config`), ``lint -o ../game/site_templates/index.md.j2`` was written,
    and the game's next build showed the lint report as its home page (the thirty-ninth probe): a place inside
    another project is held to what that project's build reads."""
    other = project(root_book.parent / "other")
    (root_book / "look" / "overrides").mkdir(parents=True)
    for cwd, config in ((other, ()), (root_book, ("--config", str(other / "rulebook.toml")))):
        place = argv if cwd == other else tuple(arg.replace("../game/", "") for arg in argv)
        os.chdir(cwd)
        with nothing_written_outside(root_book.parent):
            outcome = run(capsys, *place[:1], *config, *place[1:])
        assert outcome.code == 2 and "which the build reads" in outcome.err, (cwd, outcome)
    os.chdir(other)
    assert run(capsys, "lint", "-o", "../game/reports/lint.txt").code == 0  # beside what the game's build reads
    (root_book / "rulebook.toml").write_text("sources = 5\n", encoding="utf-8")
    outcome = run(capsys, "lint", "-o", "../game/reports/lint2.txt")
    assert outcome.code == 2 and "it is inside another project, whose configuration cannot be used" in outcome.err


@pytest.mark.parametrize("command", [("lint",), ("graph",), ("convert", "book.xml", "--to", "markdown")])
def test_nothing_is_written_from_a_project_inside_another_into_a_place_the_outer_build_reads(
    root_book: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """From a project inside another, only the nearest configuration was asked: ``lint -o overrides/main.html`` in
    the inner project, the outer one's theme folder, made every page of the outer site the lint report (the fortieth
    probe). Every project around the place is asked."""
    inner = project(root_book / "look")
    (root_book / "look" / "overrides").mkdir()
    os.chdir(inner)
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, *command, "-o", "overrides/main.html")
    assert outcome.code == 2 and "the folder `mkdocs.yml` names as `theme.custom_dir`" in outcome.err, outcome
    assert run(capsys, "lint", "-o", "reports/lint.txt").code == 0


@pytest.mark.parametrize(
    ("command", "said"),
    [
        (("lint", "-o", "../via/main.html"), f"inside `{{other}}/look`, {CUSTOM}"),
        (("graph", "-o", "../via/partials/footer.html"), f"inside `{{other}}/look`, {CUSTOM}"),
        (("build", "-q", "--no-pdf", "-o", "../via/site"), f"inside `{{other}}/look`, {CUSTOM}"),
        (("lint", "-o", "../third/templates/strings.toml"), f"inside `{{other}}/site_templates`, {TEMPLATES}"),
    ],
    ids=["lint", "graph", "build", "a link a third project holds"],
)
def test_nothing_is_written_into_another_projects_read_folders_through_a_link_outside_it(
    root_book: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...], said: str
) -> None:
    """Only the projects above a place as written were asked: through ``via``, a link outside every project (a
    user's shortcut) or one a third project commits, to another project's theme or templates folder, reports, a
    converted source and a build went there with exit 0, and every page of that site was the lint report (the
    forty-fourth probe). The projects above where the place leads are asked too."""
    other = project(root_book.parent / "other")
    (other / "mkdocs.yml").write_text(MKDOCS.format(custom="look"), encoding="utf-8")
    (other / "look").mkdir()
    (other / "site_templates").mkdir(exist_ok=True)
    (root_book.parent / "via").symlink_to(other / "look")
    third = project(root_book.parent / "third")
    (third / "templates").symlink_to("../other/site_templates")
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, *command)
    assert outcome.code == 2 and said.format(other=other) in outcome.err, outcome.err


@pytest.mark.parametrize(
    "broken",
    [
        "extra:\n  x: !!python/name:no_such_module_at_all.x\n",
        "extra: 5\n",
        "plugins: [nosuchplugin]\nextra: {a: *b}\n",
        "extra: 5\ndocs_dir: !ENV [RULEBOOK_NO_SUCH_VARIABLE, look/overrides]\n",
        "extra: 5\nINHERIT: base.yml\n",
    ],
    ids=["an import failing", "a value of the wrong kind", "no YAML", "a tag naming a folder", "an inherited file"],
)
def test_the_folders_a_settings_file_names_are_kept_while_it_cannot_be_loaded(
    root_book: Path, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    """A ``mkdocs.yml`` the build cannot load named no folder to keep: ``lint -o look/overrides/main.html`` was
    written (then the lint said what was wrong with the settings), and once they were mended every page was the lint
    report (the fortieth probe). Read as plain YAML, its folders are kept; not YAML at all, no place is guessed."""
    settings = root_book / "mkdocs.yml"
    settings.write_text(settings.read_text(encoding="utf-8") + broken, encoding="utf-8")
    (root_book / "look" / "overrides").mkdir(parents=True)
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, "lint", "-o", "look/overrides/main.html")
    assert outcome.code == 2 and not (root_book / "look" / "overrides" / "main.html").exists()
    if "5" not in broken or "!ENV" in broken or "INHERIT" in broken:  # read otherwise than by the build: no guess
        assert "the folders it names, where no report or export may go, are not known; mend it" in outcome.err
    else:
        assert f"inside `look/overrides`, {CUSTOM}, which the build reads" in outcome.err, outcome.err


@pytest.mark.parametrize("broken", ["INHERIT: missing.yml\n", "INHERIT: mkdocs.yml\n"], ids=["missing", "a cycle"])
def test_an_output_into_a_folder_another_projects_broken_settings_name_is_refused(
    root_book: Path, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    """``build -o ../other/out``, ``out`` the theme folder of another project whose ``mkdocs.yml`` cannot be loaded,
    was built into (the forty-second probe): only this build stops on its own settings before publishing."""
    other = project(root_book.parent / "other")
    (other / "mkdocs.yml").write_text(f"site_name: x\ntheme:\n  custom_dir: out\n{broken}", encoding="utf-8")
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, "build", "-q", "--no-pdf", "-o", "../other/out")
    assert outcome.code == 2 and "the folders it names, where no report or export may go, are not known" in outcome.err
    if "cycle" in broken:
        assert "`INHERIT` makes a chain of more than 10 files (or a cycle)" in outcome.err, outcome.err
    assert not (other / "out").exists()


def test_a_report_into_another_project_whose_settings_cannot_be_read_is_refused(
    root_book: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Another project's ``mkdocs.yml`` that is no UTF-8 named no folder, and a report went into its theme folder,
    while an inherited file that cannot be read refused the place (the forty-third probe's note): neither is
    guessed now."""
    other = project(root_book.parent / "other")
    (other / "mkdocs.yml").write_bytes(b"site_name: x\ntheme:\n  custom_dir: look\n# \xff\n")
    (other / "look").mkdir()
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, "lint", "-o", "../other/look/main.html")
    assert outcome.code == 2 and "the folders it names, where no report or export may go, are not known" in outcome.err
    assert not (other / "look" / "main.html").exists()
    (other / "mkdocs.yml").write_bytes(b"site_name: x\ntheme:\n  custom_dir: look\n")
    assert "the folder `mkdocs.yml` names as `theme.custom_dir`" in run(capsys, "lint", "-o", "../other/look/x").err


@pytest.mark.parametrize("command", [("lint", "-o", "report.txt"), ("build", "-q", "--no-pdf")])
def test_an_inherit_of_a_list_is_told_at_its_line(
    root_book: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...]
) -> None:
    """``INHERIT: [a.yml]`` was told only "`INHERIT` names a file of settings", no line (the forty-third probe)."""
    (root_book / "mkdocs.yml").write_text("site_name: x\nINHERIT: [a.yml]\n", encoding="utf-8")
    outcome = run(capsys, *command)
    assert outcome.code == 2
    assert "mkdocs.yml:2: `INHERIT` names one file of settings: write its path as text" in outcome.err, outcome.err


INHERITED = "it is a file `mkdocs.yml` inherits (`INHERIT`), which the build reads"


@pytest.mark.parametrize(
    ("command", "place"),
    [
        (("lint", "--format", "json", "-o"), "base.yml"),
        (("lint", "--format", "sarif", "-o"), "conf/deeper.yml"),
        (("lint", "--write-baseline"), "base.yml"),
        (("graph", "-o"), "conf/deeper.yml"),
        (("convert", "book.xml", "--to", "markdown", "-o"), "base.yml"),
        (("lint", "-o"), "../other/base.yml"),
    ],
)
@pytest.mark.parametrize("loaded", [True, False], ids=["settings loaded", "settings broken"])
def test_no_report_replaces_a_file_mkdocs_yml_inherits(
    root_book: Path, capsys: pytest.CaptureFixture[str], command: tuple[str, ...], place: str, loaded: bool
) -> None:
    """``mkdocs.yml`` was kept, but not the file its ``INHERIT`` names: empty, it took a JSON or SARIF report, a
    baseline, a graph or a converted source with exit 0, in one's own project and in another, and the next build
    read the report's keys as settings (the forty-fifth probe). Every file inherited, in turn, is kept as it is."""
    broken = "" if loaded else "extra: 5\n"  # read plainly, for the folders and files it names
    other = project(root_book.parent / "other")
    for folder in (root_book, other):
        (folder / "conf").mkdir()
        (folder / "mkdocs.yml").write_text(f"site_name: x\n{broken}INHERIT: base.yml\n", encoding="utf-8")
        (folder / "base.yml").write_text("INHERIT: conf/deeper.yml\n", encoding="utf-8")
        (folder / "conf" / "deeper.yml").write_text("", encoding="utf-8")
        if place.endswith("base.yml"):
            (folder / "base.yml").write_text("", encoding="utf-8")
    before = (root_book / place).read_bytes()
    with nothing_written_outside(root_book.parent):
        outcome = run(capsys, *command, place)
    assert outcome.code == 2 and INHERITED in outcome.err, outcome
    assert (root_book / place).read_bytes() == before
    outcome = run(capsys, "build", "-q", "--no-pdf", "-o", "base.yml")
    assert outcome.code == 2 and ("the output `base.yml` is a file `mkdocs.yml` inherits" in outcome.err) is loaded
