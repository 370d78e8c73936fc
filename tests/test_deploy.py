"""``rulebook deploy``: the site committed to ``gh-pages`` with Git's plumbing and pushed, in a scratch repository
whose remote is a bare repository; the working tree, the index and the branch checked out never touched."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

import pytest

from rulebook.cli import main


def git(folder: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, check=True).stdout.strip()


@pytest.fixture
def repository(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A new project, committed on `main`, with `origin` a bare repository; an edit left uncommitted."""
    for key, value in {"NAME": "Team", "EMAIL": "team@example.org"}.items():
        monkeypatch.setenv(f"GIT_AUTHOR_{key}", value)
        monkeypatch.setenv(f"GIT_COMMITTER_{key}", value)
    git(tmp_path, "init", "-q", "--bare", "remote.git")
    project = tmp_path / "game"
    assert main(["init", str(project), "--title", "Game"]) == 0
    git(project, "init", "-q", "-b", "main")
    git(project, "add", "-A")
    git(project, "commit", "-q", "-m", "Start")
    git(project, "remote", "add", "origin", str(tmp_path / "remote.git"))
    (project / "notes.txt").write_text("not committed\n", encoding="utf-8")
    git(project, "add", "notes.txt")  # staged: the index holds something of its own
    (project / "notes.txt").write_text("edited again\n", encoding="utf-8")
    monkeypatch.chdir(project)
    capsys.readouterr()
    return project


def state(project: Path) -> tuple[str, str, str, str]:
    """What a deploy must leave as it was: the branch checked out, the index, the working tree's status."""
    index = hashlib.sha256((project / ".git" / "index").read_bytes()).hexdigest()
    return (
        git(project, "symbolic-ref", "HEAD"),
        git(project, "rev-parse", "HEAD"),
        index,
        git(project, "status", "--porcelain"),
    )


def branch_files(repository: Path, ref: str) -> dict[str, bytes]:
    names = git(repository, "ls-tree", "-r", "--name-only", ref).splitlines()
    return {
        name: subprocess.run(["git", "show", f"{ref}:{name}"], cwd=repository, capture_output=True, check=True).stdout
        for name in names
    }


def test_deploy_commits_the_site_to_gh_pages_and_pushes_it(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = state(repository)
    assert main(["deploy", "--quiet"]) == 0
    assert state(repository) == before
    remote = repository.parent / "remote.git"
    deployed = branch_files(remote, "gh-pages")
    site = repository / "site"
    published = {p.relative_to(site).as_posix(): p.read_bytes() for p in site.rglob("*") if p.is_file()}
    assert deployed == {".nojekyll": b""} | {name: data for name, data in published.items() if not name.startswith(".")}
    assert "index.html" in deployed and ".rulebook-site" in published  # the build's marker stays home
    head = git(repository, "rev-parse", "--short", "HEAD")
    assert (
        git(remote, "log", "--format=%B", "gh-pages")
        == f"Deploy the site built from {head} with uncommitted changes (rulebook 0.1.0)\n\nDeployed-by: rulebook"
    )
    assert git(repository, "rev-parse", "gh-pages") == git(remote, "rev-parse", "gh-pages")


def test_a_second_deploy_of_the_same_site_commits_nothing_and_an_edit_adds_to_the_history(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deploy"]) == 0
    first = git(repository, "rev-parse", "gh-pages")
    capsys.readouterr()
    assert main(["deploy"]) == 0
    assert "holds this site already" in capsys.readouterr().err
    assert git(repository, "rev-parse", "gh-pages") == first
    book = repository / "rules" / "book.xml"
    book.write_text(book.read_text(encoding="utf-8").replace("Weather", "Climate"), encoding="utf-8")
    assert main(["deploy", "--quiet", "-m", "New weather"]) == 0
    remote = repository.parent / "remote.git"
    assert git(remote, "log", "--format=%s", "gh-pages").splitlines() == [
        "New weather",
        git(remote, "log", "-1", "--format=%s", first),
    ]
    assert b"Climate" in branch_files(remote, "gh-pages")["playing/index.html"]


def test_a_deploy_from_another_clone_is_built_upon(repository: Path, tmp_path: Path) -> None:
    """The remote's branch is fetched first: the new commit follows it, and the push is a fast-forward."""
    assert main(["deploy", "--quiet"]) == 0
    remote = repository.parent / "remote.git"
    other = tmp_path / "other"
    git(tmp_path, "clone", "-q", str(remote), str(other))
    git(other, "checkout", "-q", "gh-pages")
    (other / "CNAME").write_text("rules.example.org\n", encoding="utf-8")
    git(other, "add", "CNAME")
    git(other, "commit", "-q", "-m", "A custom domain")
    git(other, "push", "-q", "origin", "gh-pages")
    theirs = git(remote, "rev-parse", "gh-pages")
    book = repository / "rules" / "book.xml"
    book.write_text(book.read_text(encoding="utf-8").replace("Weather", "Climate"), encoding="utf-8")
    assert main(["deploy", "--quiet"]) == 0
    assert git(remote, "rev-parse", "gh-pages^") == theirs


def test_no_push_commits_here_only(repository: Path) -> None:
    assert main(["deploy", "--quiet", "--no-push", "--branch", "site-build"]) == 0
    assert "index.html" in git(repository, "ls-tree", "--name-only", "site-build")
    assert git(repository.parent / "remote.git", "branch", "--list") == ""


def test_deploy_refuses_the_branch_checked_out_and_a_folder_outside_git(
    repository: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["deploy", "--quiet", "--branch", "main"]) == 2
    assert "the branch `main` is checked out here" in capsys.readouterr().err
    assert git(repository, "log", "--format=%s") == "Start"
    elsewhere = tmp_path / "plain"
    assert main(["init", str(elsewhere), "--title", "Plain"]) == 0
    monkeypatch.chdir(elsewhere)
    capsys.readouterr()
    assert main(["deploy", "--quiet"]) == 2
    assert "is not in a Git repository" in capsys.readouterr().err


def test_a_remote_that_is_not_there_is_named_by_what_git_said(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Only Git's last line was given: "`git push` failed: and the repository exists." (the eighteenth probe).
    assert main(["deploy", "--quiet", "--remote", "nosuch"]) == 2
    err = capsys.readouterr().err
    assert "'nosuch' does not appear to be a git repository; Could not read from remote repository" in err
    assert "and the repository exists" not in err


def test_strict_deploys_nothing_when_the_lint_finds_errors(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    book = repository / "rules" / "book.xml"
    book.write_text(
        book.read_text(encoding="utf-8").replace('name="roll">roll</reference> on', 'name="rol">roll</reference> on'),
        encoding="utf-8",
    )
    assert main(["deploy", "--strict"]) == 1
    assert "rulebook: nothing was deployed." in capsys.readouterr().err
    assert git(repository.parent / "remote.git", "branch", "--list") == ""


def test_a_branch_this_tool_did_not_deploy_is_never_committed_over(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``deploy --branch keep`` (a branch of the sources) committed the site over them, every file deleted in its
    tip, and ``--branch master`` pushed that to the remote's default branch (a fast-forward): refused, here and on
    the remote, before anything is built; a branch of this tool's deploys is built upon."""
    git(repository, "commit", "-q", "--allow-empty", "-m", "Quote the docs\n\nDeployed-by: rulebook")  # text only
    git(repository, "branch", "keep")
    git(repository, "push", "-q", "origin", "main:sources")  # on the remote only
    for branch, where in (("keep", "here"), ("sources", "on `origin`")):
        before = (git(repository, "rev-parse", "keep"), git(repository.parent / "remote.git", "rev-parse", "sources"))
        assert main(["deploy", "--quiet", "--branch", branch]) == 2
        said = capsys.readouterr().err
        assert f"the branch `{branch}` {where} is not a branch of deploys" in said, said
        after = (git(repository, "rev-parse", "keep"), git(repository.parent / "remote.git", "rev-parse", "sources"))
        assert after == before
    assert main(["deploy", "--quiet", "--branch", "site", "--message", "Our words"]) == 0
    assert main(["deploy", "--quiet", "--branch", "site", "--message", "Our words"]) == 0  # its own: built upon


def test_a_site_name_a_git_tree_cannot_take_is_refused_before_git_reads_it(
    repository: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A folder `404.html\\n..` in the site (a theme's static file): `git hash-object --stdin-paths` read
    `<site>/404.html` and `../x`, a file outside the project, into the repository's objects, then an internal
    error. Every part of every path is checked first."""
    odd = repository / "overrides" / "404.html\n.."
    odd.mkdir(parents=True)
    (odd / "x").write_text("inner\n", encoding="utf-8")
    (repository / "mkdocs.yml").write_text("theme:\n  name: material\n  custom_dir: overrides\n", encoding="utf-8")
    before = git(repository, "count-objects")
    assert main(["deploy", "--quiet", "--no-push"]) == 2
    assert "a name a page cannot show as it is" in capsys.readouterr().err
    assert git(repository, "count-objects") == before


def test_a_site_of_many_folders_is_written_by_as_many_git_calls_as_one_of_few(
    repository: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each folder's tree was a `git mktree` of its own, its sub-folders looked for among all the site's: 5,000
    chapter folders took 13 s to deploy. The trees are made by one Git process, whatever their number."""
    import rulebook.deploy
    from rulebook.deploy import deploy_site

    started: list[str] = []
    run, popen = subprocess.run, subprocess.Popen

    def counted_run(args, *rest, **options):  # type: ignore[no-untyped-def]
        started.append(args[1])
        return run(args, *rest, **options)

    def counted_popen(args, *rest, **options):  # type: ignore[no-untyped-def]
        started.append(args[1])
        return popen(args, *rest, **options)

    monkeypatch.setattr(rulebook.deploy.subprocess, "run", counted_run)
    monkeypatch.setattr(rulebook.deploy.subprocess, "Popen", counted_popen)
    calls = []
    for folders in (3, 300):
        site = repository.parent / f"site{folders}"
        for n in range(folders):
            (site / f"c{n}" / "deep").mkdir(parents=True)
            (site / f"c{n}" / "deep" / "index.html").write_text(f"<p>{n}</p>\n", encoding="utf-8")
        started.clear()
        deployed = deploy_site(site, repository, branch=f"site-{folders}", remote=None)
        calls.append(list(started))
        assert deployed.files == folders
        listed = git(repository, "ls-tree", "-r", "--name-only", f"site-{folders}").splitlines()
        assert listed == sorted([".nojekyll", *(f"c{n}/deep/index.html" for n in range(folders))])
    assert calls[0] == calls[1] and calls[1].count("mktree") == 1, calls
