"""The GitHub Actions workflow ``rulebook init`` writes: a fresh repository's first push lints, builds and publishes.

No client of GitHub Actions runs here (``act`` needs a Docker engine), so the workflow is checked the two ways a
first push would fail. Its configuration, against the official actions' documented inputs and outputs (each
action's ``action.yml`` at the tag the workflow names, below) and GitHub's rules for a Pages deployment: the deploy
job's permissions, environment and artifact, and its condition evaluated for a push, a pull request and a branch.
And its commands, run as the runner would (slow): the project ``init`` made is committed to a new repository,
cloned (the checkout), and each ``run:`` of the build job runs in a fresh virtual environment (setup-python),
installing the compiler from the wheel ``init`` put in ``tools/``; the site is archived as the Pages artifact
action archives it.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
from pathlib import Path
from typing import Any

import pytest
import yaml

from rulebook.cli import main

from .conftest import ROOT

ACTIONS: dict[str, tuple[frozenset[str], frozenset[str], frozenset[str]]] = {
    # action@tag: (inputs, required inputs without a default, outputs), from the action's action.yml at that tag.
    "actions/checkout@v6": (
        frozenset(
            {
                *("repository", "ref", "token", "ssh-key", "ssh-known-hosts", "ssh-strict", "ssh-user"),
                *("persist-credentials", "path", "clean", "filter", "sparse-checkout", "sparse-checkout-cone-mode"),
                *("fetch-depth", "fetch-tags", "show-progress", "lfs", "submodules", "set-safe-directory"),
                *("github-server-url", "allow-unsafe-pr-checkout"),
            }
        ),
        frozenset(),
        frozenset({"ref", "commit"}),
    ),
    "actions/setup-python@v6": (
        frozenset(
            {
                *("python-version", "python-version-file", "cache", "architecture", "check-latest", "token"),
                *("cache-dependency-path", "update-environment", "allow-prereleases", "freethreaded"),
                *("pip-version", "pip-install"),
            }
        ),
        frozenset(),
        frozenset({"python-version", "cache-hit", "python-path"}),
    ),
    "actions/upload-pages-artifact@v5": (
        frozenset({"name", "path", "retention-days", "include-hidden-files"}),
        frozenset(),  # `path` is required but has a default, `_site/`: a build into site/ must name it
        frozenset({"artifact_id"}),
    ),
    "actions/configure-pages@v5": (
        frozenset({"static_site_generator", "generator_config_file", "token", "enablement"}),
        frozenset(),
        frozenset({"base_url", "origin", "host", "base_path"}),
    ),
    "actions/deploy-pages@v5": (
        frozenset({"token", "timeout", "error_count", "reporting_interval", "artifact_name", "preview"}),
        frozenset(),
        frozenset({"page_url"}),
    ),
    "github/codeql-action/upload-sarif@v4": (
        frozenset({"sarif_file", "checkout_path", "ref", "sha", "token", "matrix", "category", "wait-for-processing"}),
        frozenset(),
        frozenset({"sarif-id", "sarif-ids"}),
    ),
}
PAGES_ARTIFACT = "github-pages"
"""The artifact name upload-pages-artifact gives by default and deploy-pages deploys by default."""


def workflow_text(tmp_path: Path) -> str:
    assert main(["init", str(tmp_path / "game"), "--title", "Game"]) == 0
    return (tmp_path / "game" / ".github" / "workflows" / "rulebook.yml").read_text(encoding="utf-8")


@pytest.fixture
def workflow(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(workflow_text(tmp_path))
    capsys.readouterr()
    return loaded


def steps(workflow: dict[str, Any], job: str) -> list[dict[str, Any]]:
    return list(workflow["jobs"][job]["steps"])


def check_step(step: dict[str, Any]) -> None:
    """A step runs a command, or uses an action at a tag whose documented inputs it gives."""
    assert ("run" in step) != ("uses" in step), step
    if "uses" in step:
        assert step["uses"] in ACTIONS, f"{step['uses']}: not an action (or tag) whose inputs the test knows"
        inputs, required, _ = ACTIONS[step["uses"]]
        given = set(step.get("with", {}))
        assert given <= inputs, f"{step['uses']} documents no input {given - inputs}"
        assert required <= given


def test_every_step_uses_an_official_action_with_its_documented_inputs(workflow: dict[str, Any]) -> None:
    triggers = workflow[True]  # YAML 1.1 reads the key `on` as true
    assert {"push", "pull_request"} <= set(triggers)
    assert workflow["permissions"] == {"contents": "read"}
    assert set(workflow["jobs"]) == {"build", "deploy"}
    for job in workflow["jobs"]:
        for step in steps(workflow, job):
            check_step(step)


def test_the_build_job_lints_builds_and_uploads_the_site_as_the_pages_artifact(workflow: dict[str, Any]) -> None:
    build = steps(workflow, "build")
    assert [step.get("uses", "").split("@")[0] for step in build[:2]] == ["actions/checkout", "actions/setup-python"]
    runs = [step["run"] for step in build if "run" in step]
    assert runs == [
        "pip install ./tools/rulebook_compiler-*-py3-none-any.whl",
        "rulebook lint --format github",
        "rulebook build",
    ]
    upload = build[-1]
    assert upload["uses"] == "actions/upload-pages-artifact@v5"
    assert upload["with"] == {"path": "site/"}  # the default output; the artifact's name is the default one


def test_the_deploy_job_is_what_deploy_pages_documents(workflow: dict[str, Any]) -> None:
    deploy = workflow["jobs"]["deploy"]
    assert deploy["needs"] == "build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}  # deploy-pages' two permissions
    assert deploy["environment"] == {"name": "github-pages", "url": "${{ steps.deployment.outputs.page_url }}"}
    (deploying,) = [step for step in deploy["steps"] if step.get("id") == "deployment"]
    assert deploying["uses"] == "actions/deploy-pages@v5" and "page_url" in ACTIONS[deploying["uses"]][2]
    assert deploying.get("with", {}).get("artifact_name", PAGES_ARTIFACT) == PAGES_ARTIFACT
    assert [step["uses"] for step in deploy["steps"]] == ["actions/configure-pages@v5", "actions/deploy-pages@v5"]
    assert deploy["concurrency"] == {"group": "pages", "cancel-in-progress": False}  # one deployment at a time


@pytest.mark.parametrize(
    ("event", "ref_name", "publishes"),
    [
        ("push", "main", True),
        ("workflow_dispatch", "main", True),
        ("push", "feature", False),
        ("pull_request", "7/merge", False),
        ("pull_request", "main", False),
    ],
)
def test_only_the_default_branch_publishes(
    workflow: dict[str, Any], event: str, ref_name: str, publishes: bool
) -> None:
    context = {
        "github.event_name": event,
        "github.ref_name": ref_name,
        "github.event.repository.default_branch": "main",
    }
    assert evaluate(workflow["jobs"]["deploy"]["if"], context) is publishes


def evaluate(expression: str, context: dict[str, str]) -> bool:
    """A GitHub Actions condition of comparisons joined by ``&&`` and ``||`` (the workflow's only kind), evaluated;
    any other syntax, or a context name the test does not know, fails the test."""
    return any(
        all(_compare(comparison, context) for comparison in alternative.split("&&"))
        for alternative in expression.split("||")
    )


def _compare(comparison: str, context: dict[str, str]) -> bool:
    found = re.fullmatch(r"\s*(\S+)\s*(==|!=)\s*(\S+)\s*", comparison)
    assert found is not None, f"unsupported syntax: {comparison}"
    left, right = (word[1:-1] if word.startswith("'") else context[word] for word in (found[1], found[3]))
    return (left == right) is (found[2] == "==")


def test_the_optional_sarif_upload_is_valid_once_uncommented(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = workflow_text(tmp_path)
    capsys.readouterr()
    block = re.search(r"^( +)# - name: Lint for code scanning\n(?:\1#.*\n)+", text, re.MULTILINE)
    assert block is not None
    uncommented = re.sub(r"^( +)# ?", r"\1", block.group(), flags=re.MULTILINE)
    sarif_steps = yaml.safe_load(uncommented)
    for step in sarif_steps:
        check_step(step)
    assert sarif_steps[1]["uses"] == "github/codeql-action/upload-sarif@v4"
    assert f"--output {sarif_steps[1]['with']['sarif_file']}" in sarif_steps[0]["run"]
    assert "security-events: write" in text  # the permission the upload needs, named where it is enabled


# -- the first push, its commands run -------------------------------------------------------------------------


def git(folder: Path, *args: str) -> str:
    env = dict(
        os.environ, GIT_AUTHOR_NAME="T", GIT_AUTHOR_EMAIL="t@x", GIT_COMMITTER_NAME="T", GIT_COMMITTER_EMAIL="t@x"
    )
    done = subprocess.run(["git", *args], cwd=folder, capture_output=True, text=True, env=env, check=True)
    return done.stdout


@pytest.mark.slow
def test_a_first_push_runs_green_from_the_wheel_init_committed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    origin = tmp_path / "origin"
    origin.mkdir()
    os.chdir(origin)
    try:
        assert main(["init", "--title", "First Push"]) == 0
    finally:
        os.chdir(ROOT)
    capsys.readouterr()
    git(origin, "init", "-q", "-b", "main")
    git(origin, "add", "-A")
    git(origin, "commit", "-q", "-m", "Start the rulebook")
    committed = git(origin, "ls-files").split()
    assert ".github/workflows/rulebook.yml" in committed
    assert any(re.fullmatch(r"tools/rulebook_compiler-[\w.]+-py3-none-any\.whl", name) for name in committed)
    workspace = tmp_path / "workspace"
    git(tmp_path, "clone", "-q", str(origin), str(workspace))  # actions/checkout: the commit, nothing else
    workflow = yaml.safe_load((workspace / ".github" / "workflows" / "rulebook.yml").read_text(encoding="utf-8"))
    venv = tmp_path / "python"  # actions/setup-python: a Python of its own on the PATH
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env |= {"PATH": f"{venv / 'bin'}{os.pathsep}{env['PATH']}", "CI": "true", "GITHUB_ACTIONS": "true"}
    env |= {str(k): str(v) for k, v in workflow.get("env", {}).items()}
    for step in steps(workflow, "build"):
        if "run" in step:
            done = subprocess.run(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", "-c", step["run"]],
                cwd=workspace,
                env=env,
                capture_output=True,
                text=True,
                timeout=900,
            )
            assert done.returncode == 0, f"{step['run']}:\n{done.stdout}\n{done.stderr}"
    assert (venv / "bin" / "rulebook").is_file()  # the compiler came from the committed wheel
    check_pages_artifact(workspace / workflow["jobs"]["build"]["steps"][-1]["with"]["path"], tmp_path)


def check_pages_artifact(site: Path, scratch: Path) -> None:
    """The site archived as upload-pages-artifact@v5 archives it (its action.yml's tar command), and what Pages
    takes: a tar of files and folders only, no link, under 1 GB, with the home page at its root."""
    assert not [p for p in site.rglob("*") if p.is_symlink()]
    archive = scratch / "artifact.tar"
    subprocess.run(
        [
            *("tar", "--dereference", "--hard-dereference", "--directory", site, "-cf", archive),
            *("--exclude=.git", "--exclude=.github", "--exclude=.[^/]*", "."),
        ],
        check=True,
    )
    with tarfile.open(archive) as tar:
        members = tar.getmembers()
    assert all(member.isfile() or member.isdir() for member in members)
    names = {member.name for member in members}
    assert {"./index.html", "./rules.json", "./404.html"} <= names
    assert not any(name.startswith("./.") for name in names)  # the build's marker is not published
    assert archive.stat().st_size < 1024**3
