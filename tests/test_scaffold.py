"""``rulebook init``: what a new project starts with, and what it tells the team."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from rulebook.cli import main


def test_init_inside_a_project_warns_that_the_new_one_is_separate(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--title", "Outer"]) == 0
    assert "warning" not in capsys.readouterr().err
    assert main(["init", "sub/deeper", "--title", "Inner"]) == 0
    assert capsys.readouterr().err == (
        "rulebook: warning: `sub/deeper` is inside the project that `rulebook.toml` configures: the new project is a "
        "separate one, and commands run in it no longer see the outer one (to add a book to that project instead, "
        "remove this folder and run `rulebook new-book NAME` there)\n"
    )
    assert (tmp_path / "sub" / "deeper" / "rulebook.toml").is_file()


@pytest.mark.parametrize(
    ("place", "said"),
    [
        ("overrides/p", "inside `overrides` of the project around it (`{config}`), the folder `mkdocs.yml` names as "),
        ("rules/images/q", "inside `rules/images` of the project around it (`{config}`), the pictures folder of"),
        ("site/x", "inside `site` of the project around it (`{config}`), where its build publishes the site"),
        ("site_templates/t", "inside `site_templates` of the project around it (`{config}`), the project's templates"),
    ],
    ids=["theme", "pictures", "site", "templates"],
)
def test_init_in_a_folder_a_project_around_reads_or_publishes_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], place: str, said: str
) -> None:
    """A project made in the outer one's theme folder was published by its next build as theme files, wheel
    included; it was told only that the new project was a separate one (the forty-first probe's note)."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--title", "Outer"]) == 0
    Path("mkdocs.yml").write_text("site_name: x\ntheme:\n  name: material\n  custom_dir: overrides\n", "utf-8")
    capsys.readouterr()
    assert main(["init", place, "--title", "Inner"]) == 2
    err = capsys.readouterr().err
    assert said.format(config=tmp_path / "rulebook.toml") in err, err
    assert "nothing was made (choose a folder outside it)" in err
    assert not (tmp_path / place).exists()


def test_a_new_book_in_a_folder_the_build_reads_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`new-book theme` with the theme's `custom_dir` at `rules/theme` wrote the book's source into the theme's
    folder (the forty-fifth probe's note: `init` asked, `new-book` did not)."""
    monkeypatch.chdir(tmp_path)
    assert main(["init", "--title", "Outer"]) == 0
    Path("mkdocs.yml").write_text("site_name: x\ntheme:\n  name: material\n  custom_dir: rules/theme\n", "utf-8")
    capsys.readouterr()
    assert main(["new-book", "theme"]) == 2
    err = capsys.readouterr().err
    assert (
        f"`{tmp_path / 'rules' / 'theme'}` is inside `rules/theme` of the project (`{tmp_path / 'rulebook.toml'}`)"
        in err
    )
    assert "the folder `mkdocs.yml` names as `theme.custom_dir`: its build would take the new files for its own" in err
    assert not (tmp_path / "rules" / "theme").exists() and "theme" not in Path("rulebook.toml").read_text("utf-8")
    assert main(["new-book", "campaign"]) == 0


def test_init_in_a_repository_says_what_would_keep_the_workflow_from_running(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    subprocess.run(["git", "init", "-q", str(tmp_path)], check=True)
    (tmp_path / ".gitignore").write_text("*.whl\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert main(["init", "rules-site", "--title", "Below"]) == 0
    said = capsys.readouterr().err
    assert "rulebook: warning: the repository's .gitignore leaves out tools/rulebook_compiler-" in said
    assert "commit it all the same (`git add -f`)" in said
    assert "GitHub runs only the workflows in the root's .github/workflows" in said
    assert "`defaults: {run: {working-directory: rules-site}}` and upload `rules-site/site/`" in said
    (tmp_path / ".gitignore").unlink()
    assert main(["init", ".", "--title", "At the root"]) == 0
    assert "warning" not in capsys.readouterr().err  # the root of a repository, nothing ignored: nothing to say


# -- the title's one home, and new books in the project's format --------------------------------------------


def test_a_markdown_project_titles_its_book_in_the_front_matter_and_says_when_the_configuration_differs(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["init", str(tmp_path / "ashfall"), "--format", "markdown", "--title", "Ashfall: Skirmish"]) == 0
    monkeypatch.chdir(tmp_path / "ashfall")
    config = Path("rulebook.toml").read_text(encoding="utf-8")
    assert not [line for line in config.splitlines() if line.startswith("title")]  # no second home for the title
    assert Path("rules/book.md").read_text(encoding="utf-8").startswith('---\ntitle: "Ashfall: Skirmish"\n---\n')
    capsys.readouterr()
    assert main(["build", "--data-only", "-q"]) == 0
    assert json.loads(Path("site/rules.json").read_text(encoding="utf-8"))["book"]["title"] == "Ashfall: Skirmish"
    assert capsys.readouterr().err == ""
    Path("rulebook.toml").write_text('title = "Mygame"\n' + config, encoding="utf-8")
    assert main(["lint"]) == 0
    assert capsys.readouterr().err == (
        'rulebook: warning: the configuration\'s title "Mygame" replaces the title "Ashfall: Skirmish" that '
        '`rules/book.md` gives: the site and the PDF say "Mygame"; give the title in one place (remove one of the two)\n'
    )


@pytest.fixture
def markdown_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project `init --format markdown` made, titled "Game", as the working folder."""
    assert main(["init", str(tmp_path / "game"), "--format", "markdown", "--title", "Game"]) == 0
    monkeypatch.chdir(tmp_path / "game")
    return tmp_path / "game"


def test_new_book_follows_the_projects_format_and_refers_to_a_term_of_the_book_it_uses(
    markdown_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["new-book", "raiders", "--uses", "main", "--title", "The Raiders"]) == 0
    assert (
        "Added the book `raiders`: rules/raiders/book.md (and its table in rulebook.toml)." in capsys.readouterr().out
    )
    assert not Path("rules/raiders/book.xml").exists() and not Path("rules/rulebook.dtd").exists()
    assert (
        Path("rulebook.toml")
        .read_text(encoding="utf-8")
        .endswith('\n[books.raiders]\nsources = ["rules/raiders/book.md"]\nuses = ["main"]\n')
    )
    book = Path("rules/raiders/book.md").read_text(encoding="utf-8")
    assert book.startswith('---\ntitle: "The Raiders"\n---\n')
    assert "This book builds on Game: a word such as [[main:fighter|fighter]] links to its definition there." in book
    assert main(["lint", "--color", "never"]) == 0
    assert capsys.readouterr() == ("All checks passed (2 files).\n", "")


def test_new_book_in_xml_names_a_dtd_that_is_there_and_converts_with_its_title(
    markdown_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    capsys.readouterr()
    assert main(["new-book", "elves", "--format", "xml", "--uses", "main"]) == 0
    said = capsys.readouterr().out
    assert (
        "Added the book `elves`: rules/elves/book.xml and rules/rulebook.dtd (and its table in rulebook.toml)." in said
    )
    assert '<!DOCTYPE document SYSTEM "../rulebook.dtd">' in Path("rules/elves/book.xml").read_text(encoding="utf-8")
    assert Path("rules/rulebook.dtd").is_file()
    assert '[books.elves]\ntitle = "Elves"\n' in Path("rulebook.toml").read_text(encoding="utf-8")
    assert main(["lint", "--color", "never", "--book", "elves"]) == 0
    capsys.readouterr()
    assert main(["convert", "rules/elves/book.xml", "-o", "elves.md"]) == 0
    assert "remove `title` from [books.elves]" in capsys.readouterr().out
    assert Path("elves.md").read_text(encoding="utf-8").startswith('---\ntitle: "Elves"\n---\n')


def test_new_book_never_breaks_a_configuration_that_writes_books_inline(tmp_path: Path) -> None:
    """``books = { other = {...} }``: ``new-book`` appended ``[books.extra]``, a second definition of `books`, and
    the configuration (and ``pyproject.toml`` for every other tool) was no longer TOML, with exit 0."""
    assert main(["init", str(tmp_path), "--title", "Tiles"]) == 0
    config = tmp_path / "rulebook.toml"
    text = config.read_text(encoding="utf-8").replace(
        "\ntitle", '\nbooks = { other = { sources = ["rules/book.xml"] } }\ntitle', 1
    )
    config.write_text(text, encoding="utf-8")
    assert main(["new-book", "extra", "--config", str(config)]) == 2
    assert config.read_text(encoding="utf-8") == text
    assert not (tmp_path / "rules" / "extra").exists()
