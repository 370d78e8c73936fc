"""A committed link to a file inside the project that the project does not publish, and files written into a Git
folder of any name.

A pull request can commit a link (Git stores them), never what the checkout holds beside the project's files:
Git's configuration (``actions/checkout`` keeps the CI's token there), an untracked ``.env`` a CI step wrote, a
Git folder not named ``.git`` (``--separate-git-dir``, a bare ``x.git``). A link inside the project is followed
only to a file none of whose names below the project's root starts with ``.`` and that is inside no Git folder;
anything else is refused in plain words naming the link, exit status 2, nothing published nor quoted. And no report
is written inside a Git folder, whatever its name.
"""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from .pictures import PNG
from .scratch import configure, refused, run, scratch, source  # noqa: F401 (fixtures)
from .test_report_files import BOOK

SECRET = "AUTHORIZATION: basic SECRETTOKEN"
HIDDEN = "which the project keeps hidden"
GIT_FOLDER = "a Git folder (it holds Git's `HEAD`, `objects` and `refs`)"
PLAIN_BOOK = BOOK.replace('<reference name="charge">Charge</reference>', "")
"""The book without its dangling reference: the lint passes it."""


def _git_folder(folder: Path) -> Path:
    """A Git folder (as ``git init`` makes one, whatever its name) whose configuration holds :data:`SECRET`."""
    (folder / "objects" / "info").mkdir(parents=True)
    (folder / "refs" / "heads").mkdir(parents=True)
    (folder / "hooks").mkdir()
    (folder / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (folder / "config").write_text(f'[http "https://github.com/"]\n\textraheader = {SECRET}\n', encoding="utf-8")
    return folder


def _checkout(folder: Path) -> None:
    """The book, its Git folder, an untracked ``.env`` and a Git folder not named ``.git`` (``gitdata``)."""
    source(folder, "book.xml", PLAIN_BOOK)
    _git_folder(folder / ".git")
    _git_folder(folder / "gitdata")
    (folder / ".env").write_text(f"API_KEY={SECRET}\n", encoding="utf-8")
    (folder / "site_templates").mkdir()


def _links(folder: Path, links: dict[str, str]) -> None:
    for name, target in links.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).symlink_to(target)


def _nothing_shown(folder: Path, printed: str) -> None:
    """The secret is neither printed nor published."""
    assert SECRET not in printed
    assert not (folder / "site").exists()


def _git(folder: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=folder, check=True, capture_output=True)


INCLUDE = '# Home\n\n{% include "NAME" %}\n'


@pytest.mark.parametrize(
    ("links", "home", "said"),
    [
        (  # the probe's case: Git's configuration, the CI's token in it, on the home page
            {"site_templates/index.md.j2": "../.git/config"},
            None,
            "cannot read `{root}/site_templates/index.md.j2`: it is a link to `.git/config`, " + HIDDEN,
        ),
        (
            {"site_templates/x.j2": "../.env"},
            INCLUDE.replace("NAME", "x.j2"),
            "cannot read `{root}/site_templates/x.j2`: it is a link to `.env`, " + HIDDEN,
        ),
        (
            {"site_templates/g": "../.git"},
            INCLUDE.replace("NAME", "g/config"),
            "cannot read `{root}/site_templates/g/config`: `site_templates/g` on the way is a link, and it leads to "
            "`.git/config`, " + HIDDEN,
        ),
        (  # a Git folder by what it holds: `git init --separate-git-dir=gitdata`
            {"site_templates/g": "../gitdata"},
            INCLUDE.replace("NAME", "g/config"),
            "cannot read `{root}/site_templates/g/config`: `site_templates/g` on the way is a link, and it leads to "
            f"`gitdata/config`, inside `gitdata`, {GIT_FOLDER}",
        ),
        (
            {"site_templates/index.md.j2": "../gitdata/config"},
            None,
            f"cannot read `{{root}}/site_templates/index.md.j2`: it is a link to `gitdata/config`, inside `gitdata`, "
            f"{GIT_FOLDER}",
        ),
        (  # every file of Git's folder would have been published under assets/
            {"site_templates/assets": "../.git"},
            None,
            "cannot read `{root}/site_templates/assets/HEAD`: `site_templates/assets` on the way is a link, and it "
            "leads to `.git/HEAD`, " + HIDDEN,
        ),
    ],
    ids=["template", "include", "folder", "git folder", "template into git folder", "assets"],
)
def test_a_site_template_linked_to_a_hidden_file_or_into_a_git_folder_is_not_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    links: dict[str, str],
    home: str | None,
    said: str,
) -> None:
    _checkout(scratch)
    if home is not None:
        (scratch / "site_templates" / "index.md.j2").write_text(home, encoding="utf-8")
    _links(scratch, links)
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert said.format(root=scratch) in outcome.err
    _nothing_shown(scratch, outcome.out + outcome.err)


def test_a_link_to_a_file_the_project_shows_is_still_followed(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The rule refuses only what the project does not publish: a template kept elsewhere in it, reached through a
    link to a file or to a folder, is read."""
    _checkout(scratch)
    (scratch / "pages").mkdir()
    (scratch / "pages" / "home.md.j2").write_text(
        '# Home\n\nWelcome aboard.\n{% include "p/more.j2" %}\n', encoding="utf-8"
    )
    (scratch / "pages" / "more.j2").write_text("And more.\n", encoding="utf-8")
    _links(scratch, {"site_templates/index.md.j2": "../pages/home.md.j2", "site_templates/p": "../pages"})
    _git(scratch, "add", "pages")  # what a commit holds
    assert run(capsys, "build", "--no-pdf", "-q").code == 0
    page = (scratch / "site" / "index.html").read_text(encoding="utf-8")
    assert "Welcome aboard." in page and "And more." in page


@pytest.mark.parametrize("markdown_format", ["plain-markdown", "markdown"])
def test_a_translation_linked_to_gits_configuration_is_not_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    markdown_format: str,
) -> None:
    """A plain-Markdown translation linked to ``.git/config`` published it as the front matter's table."""
    _checkout(scratch)
    _links(scratch, {"rules/fr/book.md": "../../.git/config"})
    configure(scratch, f'[translations.fr]\nsource = "rules/fr/book.md"\nformat = "{markdown_format}"\n')
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert "cannot read `rules/fr/book.md`: it is a link to `.git/config`, " + HIDDEN in outcome.out + outcome.err
    assert "--> rules/fr/book.md:1:1" in outcome.out + outcome.err
    _nothing_shown(scratch, outcome.out + outcome.err)


@pytest.mark.parametrize("target", ["../.env", "../gitdata/config"])
def test_the_lint_quotes_no_line_of_a_source_linked_to_an_unpublished_file(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    """The text report showed ``1 | API_KEY=...`` for a source linked to ``.env``: into the CI's log."""
    _checkout(scratch)
    _links(scratch, {"rules/book.md": target})
    (scratch / "rulebook.toml").write_text('sources = ["rules/book.md"]\n', encoding="utf-8")
    outcome = refused(capsys, scratch, "lint", "--color", "never")
    assert "cannot read `rules/book.md`: it is a link to" in outcome.out
    assert SECRET not in outcome.out + outcome.err


@pytest.mark.skipif(not Path("/proc/self/cwd").is_symlink(), reason="needs /proc/self/cwd")
def test_a_path_named_through_a_link_from_outside_is_held_to_the_same_rule(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``lint /proc/self/cwd/.git/notes.md``: named outside the project, it leads into it through a link (named so
    in the configuration, it is outside the project: refused before anything is read, above)."""
    _checkout(scratch)
    (scratch / ".git" / "notes.md").write_text(f"# {SECRET}\n", encoding="utf-8")
    outcome = refused(capsys, scratch, "lint", "--color", "never", "/proc/self/cwd/.git/notes.md")
    assert "cannot read `/proc/self/cwd/.git/notes.md`: it leads through a link to the project's `.git/notes.md`, " in (
        outcome.out
    )
    assert SECRET not in outcome.out + outcome.err


@pytest.mark.parametrize("target", ["../.env", "../gitdata/config", "../.git"])
def test_a_theme_folder_holding_a_link_to_an_unpublished_file_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    """MkDocs copies every file of ``theme.custom_dir`` into the site: ``overrides/env.txt -> ../.env`` published
    the untracked ``.env``."""
    _checkout(scratch)
    _links(scratch, {"overrides/env.txt": target})
    (scratch / "mkdocs.yml").write_text("site_name: x\ntheme:\n  custom_dir: overrides\n", encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert f"`theme.custom_dir` names `overrides`, which holds `env.txt`, a link to `{target[3:]}`" in outcome.err
    _nothing_shown(scratch, outcome.out + outcome.err)


def test_a_hidden_file_named_by_the_configuration_is_refused_and_on_the_command_line_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The configuration is committed, so a pull request's (it named `.git/config`): a source it names in a hidden
    folder is refused, saying why. The command line is the user's own: a file named there is read as named."""
    (scratch / ".rules").mkdir()
    (scratch / ".rules" / "book.xml").write_text(PLAIN_BOOK, encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = [".rules/book.xml"]\n', encoding="utf-8")
    outcome = run(capsys, "lint")
    assert (outcome.code, outcome.err) == (
        2,
        "rulebook: error: rulebook.toml: `sources` in [top level] names `.rules/book.xml`, which the project keeps "
        "hidden (`.rules` starts with `.`): the configuration names only files of the project none of whose names "
        "start with `.` (Git's folder, `.env`)\n",
    )
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    assert run(capsys, "lint", ".rules/book.xml").code == 0


# -- reports inside a Git folder of any name -------------------------------------------------------


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", "-o", "gitdata/objects/info/alternates"),
        ("lint", "--format", "sarif", "-o", "gitdata/info/attributes"),
        ("graph", "-o", "gitdata/hooks/pre-commit"),
        ("lint", "--write-baseline", "gitdata/baseline.json"),
        ("lint", "-o", "project.git/description"),
        ("build", "--no-pdf", "-o", "gitdata/site"),
    ],
)
def test_nothing_is_written_inside_a_git_folder_of_another_name(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
) -> None:
    """``lint -o GITDIR/objects/info/alternates`` (the folder ``git init --separate-git-dir`` made) made every Git
    command of the project fail; a bare ``project.git`` is as much Git's."""
    _checkout(scratch)
    _git_folder(scratch / "project.git")
    outcome = refused(capsys, scratch, *argv)
    folder = argv[-1].split("/")[0]
    assert f"`{argv[-1]}`" in outcome.err and f"is inside `{folder}`, {GIT_FOLDER}" in outcome.err


def test_nothing_is_written_inside_a_git_folder_outside_the_project(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The probe's case: the project's ``.git`` is a file naming a folder elsewhere (``--separate-git-dir``)."""
    source(scratch, "book.xml", PLAIN_BOOK)
    elsewhere = _git_folder(tmp_path_factory.mktemp("separate") / "data")
    (scratch / ".git").write_text(f"gitdir: {elsewhere}\n", encoding="utf-8")
    target = elsewhere / "objects" / "info" / "alternates"
    outcome = refused(capsys, scratch, "lint", "-o", str(target))
    assert outcome.err == (
        f"rulebook: error: cannot write `{target}`: it is inside `{elsewhere}`, {GIT_FOLDER}, whose files Git reads "
        "and runs\n"
    )
    assert not target.exists() and not os.listdir(elsewhere / "objects" / "info")


TOKEN = "ghp_SEKRETTOKEN0123456789"


@pytest.mark.parametrize("ignored", [True, False], ids=["ignored", "untracked"])
def test_a_link_to_a_file_git_does_not_track_is_not_followed(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    ignored: bool,
) -> None:
    """``rules/book.xml -> ../token``, a git-ignored token a CI step left in the workspace (its name not hidden): the
    lint quoted it as the source's first line. A link is followed only to a file Git tracks; once added, it is."""
    _git(scratch, "init", "-q")
    (scratch / "token").write_text(TOKEN + "\n", encoding="utf-8")
    (scratch / ".gitignore").write_text("token\n" if ignored else "", encoding="utf-8")
    (scratch / "rules").mkdir()
    (scratch / "rules" / "real.xml").write_text(PLAIN_BOOK, encoding="utf-8")
    _links(scratch, {"rules/book.xml": "../token"})
    (scratch / "rulebook.toml").write_text('sources = ["rules/book.xml"]\n', encoding="utf-8")
    _git(scratch, "add", "rules", "rulebook.toml", ".gitignore")
    for command in (("lint", "--color", "never"), ("build", "--no-pdf")):
        outcome = refused(capsys, scratch, *command)
        said = outcome.out + outcome.err
        told = ("cannot read `rules/book.xml`: it is a link to `token`, which Git does not track", "Git ignores")
        assert any(words in said for words in told), said  # an ignored target is refused by the configuration
        assert TOKEN not in said
    (scratch / "rules" / "book.xml").unlink()
    _links(scratch, {"rules/book.xml": "real.xml"})
    _git(scratch, "add", "rules")
    assert run(capsys, "lint").code == 0


NAMED = {
    ".git/config": "which the project keeps hidden (`.git` starts with `.`)",
    ".env": "which the project keeps hidden (`.env` starts with `.`)",
    "rules/.hid/book.md": "which the project keeps hidden (`.hid` starts with `.`)",
    "gitdata/config": "inside `gitdata`, " + GIT_FOLDER,
    "../outside.md": "which is outside the project",
    "{outside}": "which is outside the project",
}


@pytest.mark.parametrize("key", ["sources", "translation", "terms", "language_file", "baseline"])
@pytest.mark.parametrize("named", NAMED)
def test_the_configuration_names_no_file_the_project_does_not_publish(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    named: str,
    key: str,
) -> None:
    """``sources = [".git/config"]`` with ``format = "plain-markdown"`` published the CI's token as a page; a file
    outside the project was read, and rewritten by ``lint --fix``. A committed configuration is a pull request's,
    as a committed link is: every file it names to read is held to the rule of links, the path as written."""
    _checkout(scratch)
    outside = scratch.parent / "outside.md"
    outside.write_text(f"# {SECRET}\n", encoding="utf-8")
    named = named.replace("{outside}", str(outside))
    lines = {
        "sources": f'sources = ["{named}"]\nformat = "plain-markdown"\n',
        "translation": f'sources = ["book.xml"]\n[translations.fr]\nsource = "{named}"\nformat = "plain-markdown"\n',
        "terms": f'sources = ["book.xml"]\n[translations.fr]\nsource = "fr.md"\nterms = "{named}"\n',
        "language_file": f'sources = ["book.xml"]\n[translations.xx]\nsource = "xx.md"\nlanguage_file = "{named}"\n',
        "baseline": f'sources = ["book.xml"]\nbaseline = "{named}"\n',
    }
    (scratch / "rulebook.toml").write_text(lines[key], encoding="utf-8")
    for command in (("lint",), ("build", "--no-pdf"), ("lint", "--fix")):
        outcome = run(capsys, *command)
        assert outcome.code == 2
        assert f"names `{named}`, {NAMED[named if named != str(outside) else '{outside}']}" in outcome.err
        _nothing_shown(scratch, outcome.out + outcome.err)
    assert outside.read_text(encoding="utf-8") == f"# {SECRET}\n"


def test_a_file_of_the_project_named_through_dots_is_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "rules").mkdir()
    (scratch / "rulebook.toml").write_text('sources = ["rules/../book.xml"]\n', encoding="utf-8")
    assert run(capsys, "lint").code == 0


def test_a_file_git_ignores_is_never_read_by_name_either(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A committed configuration naming `token.md` (`.gitignore` lists it; a CI step wrote it) published it; a
    committed `<image source="ci-token.png">` a file Git ignores; `custom_dir: ci-out` a folder it ignores. Each is
    refused, naming it: what the build reads and publishes is what a commit can hold."""
    _git(scratch, "init", "-q")
    (scratch / ".gitignore").write_text("token.md\nimages/ci-token.png\nci-out/\n", encoding="utf-8")
    (scratch / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "token.md"]\n', encoding="utf-8")
    source_book = PLAIN_BOOK.replace(
        "</chapter>", '<illustration><image source="ci-token.png"/></illustration></chapter>'
    )
    (scratch / "book.xml").write_text(source_book, encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert "the source `token.md` is a file Git ignores" in outcome.err
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    (scratch / "images").mkdir()
    (scratch / "images" / "ci-token.png").write_bytes(PNG)
    outcome = run(capsys, "lint")
    assert "image `ci-token.png` is not published: it is a file Git ignores" in outcome.out
    (scratch / "ci-out").mkdir()
    (scratch / "ci-out" / "credentials.txt").write_text(TOKEN, encoding="utf-8")
    (scratch / "mkdocs.yml").write_text("theme:\n  name: material\n  custom_dir: ci-out\n", encoding="utf-8")
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2 and "`theme.custom_dir` names `ci-out`, which" in outcome.err
    assert "Git ignores" in outcome.err
    assert not (scratch / "site").exists()


def test_a_committed_site_marker_beside_files_no_commit_holds_is_not_believed(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pull request committing `venv/.rulebook-site` and `output = "venv"`: the build took the maintainer's
    `venv/` for a site of its own and deleted the files there. A committed marker is believed only of a folder
    whose every file a commit holds (a site committed for Pages' `/docs`)."""
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / ".gitignore").write_text("venv/precious.txt\n", encoding="utf-8")
    (scratch / "venv").mkdir()
    (scratch / "venv" / ".rulebook-site").write_text("", encoding="utf-8")
    (scratch / "venv" / "precious.txt").write_text("mine\n", encoding="utf-8")
    _git(scratch, "add", "-A")
    configure(scratch, 'output = "venv"\n')
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert "its `.rulebook-site` is one a commit holds, beside work no commit holds" in outcome.err
    assert (scratch / "venv" / "precious.txt").read_text(encoding="utf-8") == "mine\n"
    (scratch / "venv" / "precious.txt").unlink()  # every file of it committed: a site committed for Pages
    (scratch / "venv" / "notes.md").write_text("committed\n", encoding="utf-8")
    _git(scratch, "add", "-A")
    _git(scratch, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", "notes")
    (scratch / "venv" / "notes.md").write_text("committed, then my uncommitted edit\n", encoding="utf-8")
    outcome = run(capsys, "build", "-q", "--no-pdf")  # a change no commit holds: deleted by a build before
    assert outcome.code == 2 and "beside work no commit holds" in outcome.err
    _git(scratch, "checkout", "--", "venv/notes.md")
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    # its own site now, changed from what is committed: what it last published, built again (Pages' `/docs`)
    assert run(capsys, "build", "-q", "--no-pdf").code == 0


def test_a_snippet_git_ignores_is_never_added_to_every_page(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`pymdownx.snippets` `auto_append: [notice.md]`, `notice.md` Git-ignored and written by a CI step: published
    in every page."""
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / ".gitignore").write_text("notice.md\n", encoding="utf-8")
    (scratch / "notice.md").write_text(f"{TOKEN}\n", encoding="utf-8")
    (scratch / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - pymdownx.snippets: {auto_append: [notice.md]}\n", encoding="utf-8"
    )
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2 and "names `./notice.md`, which is a file Git ignores" in outcome.err, outcome.err
    assert not (scratch / "site").exists()


def test_a_submodules_uncommitted_work_is_seen_whatever_gitmodules_says(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A committed `.gitmodules` with `ignore = all` hid a submodule's uncommitted edit from the committed marker's
    check, and `build -o notes` deleted it."""
    who = ("-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "protocol.file.allow=always")
    shared = scratch.parent / f"{scratch.name}-shared"
    shared.mkdir()
    _git(shared, "init", "-q")
    (shared / "a.md").write_text("original\n", encoding="utf-8")
    _git(shared, "add", "-A")
    _git(shared, *who, "commit", "-q", "-m", "a")
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "notes").mkdir()
    (scratch / "notes" / ".rulebook-site").write_text("", encoding="utf-8")
    _git(scratch, *who, "submodule", "add", "-q", str(shared), "notes/shared")
    (scratch / ".gitmodules").write_text(
        (scratch / ".gitmodules").read_text(encoding="utf-8") + "\tignore = all\n", encoding="utf-8"
    )
    _git(scratch, "add", "-A")
    _git(scratch, *who, "commit", "-q", "-m", "init")
    (scratch / "notes" / "shared" / "a.md").write_text("my uncommitted edit\n", encoding="utf-8")
    outcome = run(capsys, "build", "-q", "--no-pdf", "-o", "notes")
    assert outcome.code == 2 and "beside work no commit holds" in outcome.err, outcome.err
    assert (scratch / "notes" / "shared" / "a.md").read_text(encoding="utf-8") == "my uncommitted edit\n"


@pytest.mark.parametrize("flag", ["--skip-worktree", "--assume-unchanged"])
def test_a_local_edit_git_is_told_not_to_look_at_is_seen_under_a_committed_marker(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    flag: str,
) -> None:
    """`git update-index --skip-worktree notes/local.md`, the usual way to keep a local edit out of commits, hides
    the edit from `git status`: the committed marker was believed and `build -o notes` deleted the edit."""
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "notes").mkdir()
    (scratch / "notes" / ".rulebook-site").write_text("", encoding="utf-8")
    (scratch / "notes" / "local.md").write_text("committed\n", encoding="utf-8")
    _git(scratch, "add", "-A")
    _git(scratch, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", "notes")
    _git(scratch, "update-index", flag, "notes/local.md")
    (scratch / "notes" / "local.md").write_text("my local settings\n", encoding="utf-8")
    outcome = run(capsys, "build", "-q", "--no-pdf", "-o", "notes")
    assert outcome.code == 2 and "beside work no commit holds" in outcome.err, outcome.err
    assert (scratch / "notes" / "local.md").read_text(encoding="utf-8") == "my local settings\n"


def _newer_format(folder: Path) -> None:
    """A repository Git will not answer for: made by a newer Git ("expected git repo version <= 1")."""
    _git(folder, "config", "core.repositoryformatversion", "99")


def _owned_by_another_user(folder: Path) -> None:
    """A `.git` another user owns ("detected dubious ownership"), as in a container whose checkout another user made."""
    if os.geteuid() != 0:
        pytest.skip("making a folder another user's needs root")
    for below, _, names in os.walk(folder / ".git"):
        for name in (".", *names):
            os.chown(os.path.join(below, name), 65534, 65534)


@pytest.mark.parametrize("break_git", [_newer_format, _owned_by_another_user], ids=["newer", "another-users"])
def test_a_repository_git_will_not_answer_for_is_not_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    break_git: Callable[[Path], None],
) -> None:
    """With the repository's `.git` another user's, Git refused every question and each rule on what Git ignores
    held nothing: a Git-ignored `token.md` named as a source was read and published, and a link to it followed. A
    project in a repository Git will not answer for is not read, and the message says why and what to do."""
    _git(scratch, "init", "-q")
    (scratch / ".gitignore").write_text("token.md\n", encoding="utf-8")
    (scratch / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "token.md"]\n', encoding="utf-8")
    break_git(scratch)
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        outcome = run(capsys, *command)
        assert outcome.code == 2, outcome.out + outcome.err
        assert f"Git refuses to answer in `{scratch}` (" in outcome.err
        assert "which it never reads" in outcome.err and "Traceback" not in outcome.err
        assert TOKEN not in outcome.out + outcome.err and not (scratch / "site").exists()
    if break_git is _owned_by_another_user:
        assert f"git config --global --add safe.directory {scratch}" in outcome.err


@pytest.mark.parametrize("silent", ["ls-files", "rev-parse"])
def test_a_git_that_gives_no_answer_stops_the_command(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    silent: str,
) -> None:
    """A Git stopped after its 60 s (a huge or slow repository) was read as "nothing ignored, nothing to say": a
    Git-ignored `token.md` named as a source was read and published, and a link to it followed. No answer stops the
    command, saying so."""
    import rulebook.fileio

    _git(scratch, "init", "-q")
    (scratch / ".gitignore").write_text("token.md\n", encoding="utf-8")
    (scratch / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "token.md"]\n', encoding="utf-8")
    asked = rulebook.fileio.git
    questions: list[str] = []

    def stopped(folder: Path, *args: str):  # type: ignore[no-untyped-def]
        questions.append(args[0])
        # the project's first question (is Git answering here?) is answered; the next of its kind is not
        return None if args[0] == silent and questions.count(silent) > 1 else asked(folder, *args)

    monkeypatch.setattr(rulebook.fileio, "git", stopped)
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        questions.clear()
        outcome = run(capsys, *command)
        assert outcome.code == 2, outcome.out + outcome.err
        assert "Git gave no answer in `" in outcome.err and "stopped after 60 s" in outcome.err, outcome.err
        assert TOKEN not in outcome.out + outcome.err and not (scratch / "site").exists()


def test_on_a_ci_machine_only_files_git_tracks_are_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A pull request naming `token.md` (a file a CI step wrote) as a source took its line out of `.gitignore` in the
    same commit: no longer ignored, it was read and published. On a CI machine only files Git tracks are read; a
    job that makes sources on purpose says so in its own setting."""
    _git(scratch, "init", "-q")
    (scratch / ".gitignore").write_text("", encoding="utf-8")  # `token.md` was listed; the pull request took it out
    source(
        scratch,
        "book.xml",
        PLAIN_BOOK.replace("</chapter>", '<illustration><image source="ci.png"/></illustration></chapter>'),
    )
    (scratch / "images").mkdir()
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "token.md"]\n', encoding="utf-8")
    _git(scratch, "add", "-A")
    (scratch / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")  # what the CI job wrote
    (scratch / "images" / "ci.png").write_bytes(PNG)
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("RULEBOOK_READ_UNCOMMITTED", raising=False)
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        outcome = run(capsys, *command)
        assert outcome.code == 2, outcome.out + outcome.err
        assert (
            "the source `token.md` is a file Git does not track (on a CI machine, `CI` or a CI service" in outcome.err
        )
        assert TOKEN not in outcome.out + outcome.err and not (scratch / "site").exists()
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    _git(scratch, "add", "rulebook.toml")
    outcome = run(capsys, "lint")
    assert "image `ci.png` is not published: it is a file Git does not track" in outcome.out
    monkeypatch.setenv("RULEBOOK_READ_UNCOMMITTED", "1")  # the job's own word: its steps make pictures
    assert "ci.png" not in run(capsys, "lint").out
    monkeypatch.setenv("CI", "false")
    monkeypatch.delenv("RULEBOOK_READ_UNCOMMITTED")
    assert "ci.png" not in run(capsys, "lint").out


def _gitlink(folder: Path, path: str) -> None:
    """A committed gitlink at ``path``, no submodule checked out there: what a pull request adding a submodule
    commits, as a clone without `--recurse-submodules` (`actions/checkout`'s default) leaves it."""
    _git(folder, "update-index", "--add", "--cacheinfo", f"160000,{'1' * 40},{path}")


@pytest.mark.parametrize("ci", [True, False], ids=["ci", "ignored"])
def test_a_file_in_a_gitlinks_folder_no_submodule_holds_is_not_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    ci: bool,
) -> None:
    """A committed gitlink at `ci-out`, no submodule there, and `sources = [..., "ci-out/token.md"]`: Git looks at
    nothing in a gitlink's folder, so the token a CI step wrote there was neither untracked nor ignored, and was
    read and published."""
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / ".gitignore").write_text("" if ci else "ci-out/\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "ci-out/token.md"]\n', encoding="utf-8")
    _git(scratch, "add", "-A")
    _gitlink(scratch, "ci-out")
    (scratch / "ci-out").mkdir()
    (scratch / "ci-out" / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    if ci:
        monkeypatch.setenv("CI", "true")
        monkeypatch.delenv("RULEBOOK_READ_UNCOMMITTED", raising=False)
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        outcome = run(capsys, *command)
        assert outcome.code == 2, outcome.out + outcome.err
        assert "the source `ci-out/token.md` is a file Git" in outcome.err
        assert TOKEN not in outcome.out + outcome.err and not (scratch / "site").exists()


def test_a_gitlinks_folder_holding_files_is_seen_under_a_committed_marker(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`venv/.rulebook-site` and a gitlink at `venv/lib` committed, `output = "venv"`: the maintainer's
    `venv/lib/.../mine.py` was hidden from `git status` by the gitlink, the marker believed, the file deleted."""
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "venv").mkdir()
    (scratch / "venv" / ".rulebook-site").write_text("", encoding="utf-8")
    _git(scratch, "add", "-A")
    _gitlink(scratch, "venv/lib")
    _git(scratch, "-c", "user.name=T", "-c", "user.email=t@example.org", "commit", "-q", "-m", "venv")
    (scratch / "venv" / "lib" / "site-packages").mkdir(parents=True)
    (scratch / "venv" / "lib" / "site-packages" / "mine.py").write_text("mine\n", encoding="utf-8")
    outcome = run(capsys, "build", "-q", "--no-pdf", "-o", "venv")
    assert outcome.code == 2 and "beside work no commit holds" in outcome.err, outcome.err
    assert (scratch / "venv" / "lib" / "site-packages" / "mine.py").read_text(encoding="utf-8") == "mine\n"


def test_a_submodules_own_ignored_file_is_not_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A submodule checked out answers for itself: a file its own `.gitignore` lists is refused, its committed files
    are read (a core book shared by a family of books)."""
    who = ("-c", "user.name=T", "-c", "user.email=t@example.org", "-c", "protocol.file.allow=always")
    shared = scratch.parent / f"{scratch.name}-core"
    shared.mkdir()
    _git(shared, "init", "-q")
    (shared / ".gitignore").write_text("token.md\n", encoding="utf-8")
    (shared / "book.xml").write_text(PLAIN_BOOK, encoding="utf-8")
    _git(shared, "add", "-A")
    _git(shared, *who, "commit", "-q", "-m", "core")
    _git(scratch, "init", "-q")
    _git(scratch, *who, "submodule", "add", "-q", str(shared), "core")
    (scratch / "rulebook.toml").write_text('sources = ["core/book.xml"]\n', encoding="utf-8")
    assert run(capsys, "lint").code == 0
    (scratch / "core" / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["core/book.xml", "core/token.md"]\n', encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and "the source `core/token.md` is a file Git ignores" in outcome.err, outcome.err


@pytest.mark.parametrize("what", ["clone", "socket", "pipe", "empty folder"])
def test_what_no_status_lists_is_seen_under_a_committed_marker(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    what: str,
) -> None:
    """A committed marker and a committed gitlink at `vendor/lib`, where the maintainer keeps a clone of their own:
    Git's status lists none of the clone's ignored files nor its `.git`, and the build deleted them; so a socket, a
    pipe or an empty folder of the maintainer's in the output."""
    who = ("-c", "user.name=T", "-c", "user.email=t@example.org")
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "vendor").mkdir()
    (scratch / "vendor" / ".rulebook-site").write_text("", encoding="utf-8")
    (scratch / "vendor" / "page.html").write_text("<p>site</p>\n", encoding="utf-8")
    _git(scratch, "add", "-A")
    if what == "clone":
        library = scratch / "vendor" / "lib"
        library.mkdir()
        _git(library, "init", "-q")
        (library / ".gitignore").write_text(".env\n", encoding="utf-8")
        _git(library, "add", "-A")
        _git(library, *who, "commit", "-q", "-m", "lib")
        _git(scratch, "update-index", "--add", "--cacheinfo", f"160000,{_head(library)},vendor/lib")
        kept = library / ".env"
        kept.write_text("SECRET=precious\n", encoding="utf-8")
    _git(scratch, *who, "commit", "-q", "-m", "site")
    if what == "socket":
        import socket

        kept = scratch / "vendor" / "s"
        with socket.socket(socket.AF_UNIX) as bound:
            bound.bind(str(kept))
    elif what == "pipe":
        kept = scratch / "vendor" / "p"
        os.mkfifo(kept)
    elif what == "empty folder":
        kept = scratch / "vendor" / "mine"
        kept.mkdir()
    outcome = run(capsys, "build", "-q", "--no-pdf", "-o", "vendor")
    assert outcome.code == 2 and "beside work no commit holds" in outcome.err, outcome.err
    assert os.path.lexists(kept)


def _head(folder: Path) -> str:
    return subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=folder, check=True, capture_output=True, text=True
    ).stdout.strip()


def test_a_repository_cloned_at_a_gitlink_is_no_submodule(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A committed gitlink at `private`, where a CI step clones a private repository, and `sources` naming one of its
    files: any repository there was taken for the submodule, and the file for a committed one, published. A
    submodule is what Git checks out (its `.git` a file into the repository's `.git/modules/`)."""
    who = ("-c", "user.name=T", "-c", "user.email=t@example.org")
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "private/token.md"]\n', encoding="utf-8")
    _git(scratch, "add", "-A")
    private = scratch / "private"
    private.mkdir()
    _git(private, "init", "-q")
    (private / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    _git(private, "add", "-A")
    _git(private, *who, "commit", "-q", "-m", "private")
    _git(scratch, "update-index", "--add", "--cacheinfo", f"160000,{_head(private)},private")
    monkeypatch.setenv("CI", "true")
    monkeypatch.delenv("RULEBOOK_READ_UNCOMMITTED", raising=False)
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2 and "the source `private/token.md` is a file Git does not track" in outcome.err
    assert TOKEN not in outcome.out + outcome.err and not (scratch / "site").exists()


@pytest.mark.parametrize("variable", ["TF_BUILD", "JENKINS_URL"])
def test_a_ci_service_that_does_not_set_ci_is_a_ci_machine_too(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    variable: str,
) -> None:
    """Azure Pipelines and Jenkins set no `CI`: an untracked file a step wrote was read and published there."""
    _git(scratch, "init", "-q")
    source(scratch, "book.xml", PLAIN_BOOK)
    (scratch / "rulebook.toml").write_text('sources = ["book.xml", "token.md"]\n', encoding="utf-8")
    _git(scratch, "add", "-A")
    (scratch / "token.md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.delenv("RULEBOOK_READ_UNCOMMITTED", raising=False)
    monkeypatch.setenv(variable, "True")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and "the source `token.md` is a file Git does not track" in outcome.err


def test_a_name_git_could_read_as_a_pattern_is_asked_as_a_name(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`rules/t[1].md`, untracked, was "tracked" beside a tracked `rules/t1.md` (Git read the name as a pattern): a
    committed link to it was followed and its text published."""
    _git(scratch, "init", "-q")
    (scratch / "rules").mkdir()
    (scratch / "rules" / "t1.md").write_text("tracked\n", encoding="utf-8")
    (scratch / "rules" / "real.xml").write_text(PLAIN_BOOK, encoding="utf-8")
    _links(scratch, {"rules/book.xml": "t[1].md"})
    (scratch / "rulebook.toml").write_text('sources = ["rules/book.xml"]\n', encoding="utf-8")
    _git(scratch, "add", "-A")
    (scratch / "rules" / "t[1].md").write_text(f"# {TOKEN}\n", encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and "which Git does not track" in outcome.out + outcome.err
    assert TOKEN not in outcome.out + outcome.err
