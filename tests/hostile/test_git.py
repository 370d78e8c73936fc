"""What ``deploy`` and ``init`` hand to Git and read back from it: a branch name Git takes as a reference but
refuses as a branch's, and names in bytes that are not UTF-8 (a remote's, a folder's), which Git prints as their
bytes: each stopped the command with an internal error (``UnicodeDecodeError``) where a plain message or the
command's own work was due."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from rulebook.cli import main

NOT_UTF8 = "\udcff"
"""The byte 0xff as Python holds it in a name from the command line or the file system (``surrogateescape``)."""


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, check=True).stdout.decode("utf-8", "replace")


@pytest.fixture
def committed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A new project committed in a repository of its own, the working folder for the test."""
    for key, value in {"NAME": "Team", "EMAIL": "team@example.org"}.items():
        monkeypatch.setenv(f"GIT_AUTHOR_{key}", value)
        monkeypatch.setenv(f"GIT_COMMITTER_{key}", value)
    project = tmp_path / "game"
    assert main(["init", str(project), "--title", "Game"]) == 0
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "Start")
    monkeypatch.chdir(project)
    capsys.readouterr()
    return project


def test_a_remote_named_in_bytes_that_are_not_utf8_is_a_plain_error(
    committed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deploy", "--quiet", "--remote", f"origin{NOT_UTF8}"]) == 2
    err = capsys.readouterr().err
    assert "internal error" not in err
    assert err.startswith("rulebook: error: `git push` failed:")


def test_a_branch_named_in_bytes_that_are_not_utf8_is_deployed_under_its_name(
    committed: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deploy", "--quiet", "--no-push", "--branch", f"site{NOT_UTF8}"]) == 0
    assert "internal error" not in capsys.readouterr().err
    assert "index.html" in git(committed, "ls-tree", "--name-only", b"site\xff".decode("utf-8", "surrogateescape"))


def test_init_in_a_repository_whose_folder_is_named_in_bytes_that_are_not_utf8_warns_in_plain_words(
    tmp_path: Path,
) -> None:
    repository = tmp_path / f"games{NOT_UTF8}"
    repository.mkdir()
    git(repository, "init", "-q")
    # Run as a user runs it: the report names the folder by its bytes, which pytest's capture cannot take.
    done = subprocess.run(
        [sys.executable, "-m", "rulebook", "init", str(repository / "book"), "--title", "Game"],
        capture_output=True,
        check=False,
    )
    err = done.stderr.decode("utf-8", "replace")
    assert done.returncode == 0, err
    assert "internal error" not in err
    assert "the project is below the repository's root" in err
    assert (repository / "book" / "rulebook.toml").is_file()


@pytest.mark.parametrize("branch", ["HEAD", "-x"])
def test_a_name_git_refuses_for_a_branch_is_refused_before_anything_is_built(
    committed: Path, capsys: pytest.CaptureFixture[str], branch: str
) -> None:
    """`refs/heads/HEAD` is a reference Git takes, but no branch may be called so: `deploy --branch HEAD` made one,
    and every Git command after it said "refname 'HEAD' is ambiguous"."""
    before = git(committed, "for-each-ref")
    assert main(["deploy", "--quiet", "--no-push", f"--branch={branch}"]) == 2
    assert capsys.readouterr().err == f"rulebook: error: `{branch}` is not a branch name Git accepts\n"
    assert git(committed, "for-each-ref") == before
    assert not (committed / "site").exists()


@pytest.mark.parametrize("remote", ["--upload-pack=touch ran;", "--receive-pack=touch ran;", "-x"])
def test_a_remote_git_would_read_as_an_option_is_refused_before_anything_is_built(
    committed: Path, capsys: pytest.CaptureFixture[str], remote: str
) -> None:
    """`git fetch` was given the remote as it was written: `--remote '--upload-pack=touch ran;'` ran the command
    (after the site was built), then `git push` failed on its options."""
    before = git(committed, "for-each-ref")
    assert main(["deploy", "--quiet", f"--remote={remote}"]) == 2
    assert capsys.readouterr().err == (
        f"rulebook: error: `{remote}` is not a remote (a remote's name or address never starts with `-`: "
        "Git would read it as an option)\n"
    )
    assert not (committed / "ran").exists()
    assert git(committed, "for-each-ref") == before
    assert not (committed / "site").exists()


def test_the_branch_checked_out_in_another_working_tree_is_refused(
    committed: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`gh-pages` checked out in a second working tree (`git worktree add`): the deploy moved it under that tree,
    whose status then showed the deploy undone, staged, for its next commit."""
    assert main(["deploy", "--quiet", "--no-push"]) == 0
    other = tmp_path / "pages"
    git(committed, "worktree", "add", "-q", str(other), "gh-pages")
    (committed / "rules" / "book.xml").write_text(
        (committed / "rules" / "book.xml").read_text(encoding="utf-8").replace("Basics", "Basics again"),
        encoding="utf-8",
    )
    before = git(committed, "rev-parse", "gh-pages")
    capsys.readouterr()
    assert main(["deploy", "--quiet", "--no-push"]) == 2
    assert capsys.readouterr().err == (
        f"rulebook: error: the branch `gh-pages` is checked out in `{other}`: deploying would change it under that "
        "working tree, whose next commit would undo the deploy (check out another branch there first)\n"
    )
    assert git(committed, "rev-parse", "gh-pages") == before
    assert git(other, "status", "--porcelain") == ""


def test_a_bare_repository_committed_in_the_project_is_never_used(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A project in a folder of its repository holding ``HEAD``, ``config``, ``objects/`` and ``refs/`` (committed
    by a pull request) was taken by Git for a bare repository: its ``config``'s ``core.fsmonitor`` command ran at
    each deploy, and the site went to its remote (the fifteenth probe). Git is told to use no bare repository it
    finds by looking: the deploy is refused, nothing of the ``config`` runs."""
    for key, value in {"NAME": "Team", "EMAIL": "team@example.org"}.items():
        monkeypatch.setenv(f"GIT_AUTHOR_{key}", value)
        monkeypatch.setenv(f"GIT_COMMITTER_{key}", value)
    repository = tmp_path / "repository"
    book = repository / "book"
    assert main(["init", str(book), "--title", "Game"]) == 0
    marker = tmp_path / "ran"
    (book / "objects").mkdir()
    (book / "refs" / "heads").mkdir(parents=True)
    (book / "objects" / ".keep").touch()
    (book / "refs" / "heads" / ".keep").touch()
    (book / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    (book / "config").write_text(
        f'[core]\n\trepositoryformatversion = 0\n\tbare = false\n\tworktree = .\n\tfsmonitor = "touch {marker}; false"\n',
        encoding="utf-8",
    )
    git(repository, "init", "-q", "-b", "main")
    git(repository, "add", "-A")
    git(repository, "commit", "-q", "-m", "A pull request")
    monkeypatch.chdir(book)
    capsys.readouterr()
    outcome = main(["deploy", "--quiet", "--no-push"])
    assert not marker.exists()
    assert outcome == 2
    assert "holds what Git takes for a repository of its own (`HEAD`, `config`, `objects/`, `refs/`)" in (
        capsys.readouterr().err
    )
