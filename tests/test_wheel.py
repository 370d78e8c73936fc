"""The package is the product: a wheel installed (not editable) in a fresh virtual environment, used from
an empty folder by a rules team that is not this repository.

Slow (it builds a wheel and installs it with its dependencies from the package index, once per session);
CI runs it.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import time
import urllib.request
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from .conftest import ROOT, serve
from .test_guides import TEXT_FILES, anchors, named_guides

pytestmark = pytest.mark.slow

THIS_BOOK = re.compile(r"9th Age|Fantasy Battles|ninth-age|9e Âge", re.IGNORECASE)


_MADE_HERE = {".git", ".venv", "build", "site", ".ci", ".hypothesis"}
"""What a checkout holds at its top that a clean clone does not (folders the project's commands make)."""


def _not_in_a_clone(folder: str, names: list[str]) -> list[str]:
    at_top = Path(folder) == ROOT
    return [
        n for n in names if (at_top and n in _MADE_HERE) or n == "__pycache__" or n.endswith(("_cache", ".egg-info"))
    ]


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The package's wheel, built from a copy of this repository's files as a clean clone has them: a build
    folder left in the checkout (setuptools reuses ``build/lib``) would put files no longer in the sources into
    the wheel."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    shutil.copytree(ROOT, source, ignore=_not_in_a_clone)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", str(source), "-w", base],
        check=True,
        cwd=base,
    )
    (built,) = base.glob("rulebook_compiler-*.whl")
    return built


@pytest.fixture(scope="module")
def rulebook(wheel: Path) -> Path:
    """The ``rulebook`` command of a fresh venv where only the wheel (and its dependencies) is installed."""
    base = wheel.parent
    venv = base / "venv"
    subprocess.run([sys.executable, "-m", "venv", venv], check=True)
    subprocess.run([venv / "bin" / "pip", "install", "--quiet", str(wheel)], check=True, cwd=base)
    return venv / "bin" / "rulebook"


def run(rulebook: Path, folder: Path, *args: str, code: int = 0) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    done = subprocess.run([rulebook, *args], cwd=folder, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == code, done.stdout + done.stderr
    return done


def site_words(site: Path) -> str:
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(site.rglob("*")) if p.is_file())


def check_site(site: Path, title: str) -> None:
    """The project's own title everywhere, no word of this repository's book, valid rule data."""
    text = site_words(site)
    assert not THIS_BOOK.search(text), THIS_BOOK.search(text)
    for page in site.rglob("*.html"):
        if page.name != "404.html":
            assert "<title>" in page.read_text(encoding="utf-8")
            assert title in page.read_text(encoding="utf-8"), page
    data = json.loads((site / "rules.json").read_text(encoding="utf-8"))
    schema = json.loads((site / "rules.schema.json").read_text(encoding="utf-8"))
    jsonschema.Draft202012Validator(schema).validate(data)
    assert data["book"]["title"] == title


def test_init_lint_build_from_an_empty_folder(rulebook: Path, tmp_path: Path) -> None:
    project = tmp_path / "skirmish"
    project.mkdir()
    made = run(rulebook, project, "init", "--title", "Skirmish at Dawn")
    assert "rulebook.toml" in made.stdout
    assert run(rulebook, project, "lint").stdout.startswith("All checks passed")
    built = run(rulebook, project, "build")
    assert re.search(r"Built 1 book, \d+ pages, 1 PDF, in [\d.]+ s -> site/", built.stderr), built.stderr
    check_site(project / "site", "Skirmish at Dawn")
    assert (project / "site" / "skirmish-at-dawn.pdf").read_bytes().startswith(b"%PDF-")  # the template is shipped
    assert run(rulebook, project, "init", code=2).stderr.startswith("rulebook: error: ")


def test_a_template_override_and_a_second_book(rulebook: Path, tmp_path: Path) -> None:
    run(rulebook, tmp_path, "init", "--title", "Skirmish at Dawn")
    overrides = tmp_path / "site_templates"
    overrides.mkdir()
    (overrides / "index.md.j2").write_text(
        '{% extends "rulebook/index.md.j2" %}{% block intro %}<p class="welcome">Welcome, generals.</p>{% endblock %}',
        encoding="utf-8",
    )
    run(rulebook, tmp_path, "new-book", "campaign", "--title", "The Campaign")
    run(rulebook, tmp_path, "build", "-q")
    home = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    assert '<p class="welcome">Welcome, generals.</p>' in home
    assert "The Campaign" in (tmp_path / "site" / "campaign" / "index.html").read_text(encoding="utf-8")


def test_a_pyproject_project_with_a_markdown_rulebook(rulebook: Path, tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text(
        '[project]\nname = "tiles"\n\n[tool.rulebook]\ntitle = "Tiles and Hits"\nsources = ["rules.md"]\n',
        encoding="utf-8",
    )
    (tmp_path / "rules.md").write_text(
        "# Tiles and Hits\n\n## Tile\nA tile is one square of the board.\n\n"
        "## Hit\nA hit is scored when an attack lands on a Tile.\n\n## Attacking\nRoll a die: a 4+ is a Hit.\n",
        encoding="utf-8",
    )
    run(rulebook, tmp_path, "lint")
    run(rulebook, tmp_path, "build", "-q")
    check_site(tmp_path / "site", "Tiles and Hits")
    # The `#` title is the book's; each `##` rule is a page, its heading a term linked where the text uses it.
    attacking = (tmp_path / "site" / "attacking" / "index.html").read_text(encoding="utf-8")
    assert 'data-term="hit"' in attacking


@pytest.fixture
def served(rulebook: Path, tmp_path: Path) -> Iterator[str]:
    """``rulebook serve`` of a new project; yields its URL."""
    run(rulebook, tmp_path, "init", "--title", "Skirmish at Dawn")
    process = subprocess.Popen([rulebook, "serve", "--port", "0"], cwd=tmp_path, stderr=subprocess.PIPE, text=True)
    assert process.stderr is not None
    try:
        deadline = time.monotonic() + 120
        for line in process.stderr:
            found = re.search(r"Serving on (http://\S+)", line)
            if found:
                yield found.group(1)
                return
            assert time.monotonic() < deadline
        raise AssertionError("rulebook serve stopped")
    finally:
        process.terminate()
        process.wait(timeout=30)


def test_serve_shows_the_site(served: str) -> None:
    page = urllib.request.urlopen(served + "basics/").read().decode("utf-8")
    assert "Fighters" in page and "Skirmish at Dawn" in page


@pytest.mark.browser
def test_term_links_and_previews_work_in_a_new_project(rulebook: Path, tmp_path: Path, chromium: Any) -> None:
    run(rulebook, tmp_path, "init", "--title", "Skirmish at Dawn")
    run(rulebook, tmp_path, "build", "-q")
    with serve(tmp_path / "site") as url:
        tab = chromium.new_page()
        tab.goto(url + "playing/")
        term = tab.locator('a.rb-term[data-term="fighter"]').first
        term.hover()
        preview = tab.locator(".rb-preview")
        preview.wait_for()
        assert "a single miniature" in preview.inner_text()
        term.click()
        tab.wait_for_url(re.compile(r"basics/#term-fighter$"))
        tab.close()


def test_every_guide_a_message_names_is_in_the_wheel(wheel: Path, rulebook: Path, tmp_path: Path) -> None:
    """What the messages point at (``rulebook docs lint``, ``docs/site.md#publishing``) a wheel user has: the guide is
    in the wheel, and the installed command prints it."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        texts = {
            name: archive.read(name).decode("utf-8")
            for name in names
            if name.startswith("rulebook/") and not name.startswith("rulebook/docs/") and name.endswith(TEXT_FILES)
        }
        guides = {name: archive.read(name).decode("utf-8") for name in names if name.startswith("rulebook/docs/")}
    assert {"rulebook/docs/lint.md", "rulebook/docs/format.md", "rulebook/docs/site.md"} <= set(guides)
    pointed = {named for text in texts.values() for named in named_guides(text)}
    assert {("lint", None), ("engine", None), ("format", None), ("data", None), ("readme", None)} <= pointed
    for topic, anchor in sorted(pointed, key=str):
        printed = run(rulebook, tmp_path, "docs", topic).stdout
        if topic != "readme":
            assert printed == guides[f"rulebook/docs/{topic}.md"], topic
        if anchor:
            assert anchor in anchors(printed), f"no heading `#{anchor}` in {topic}"
    folder = Path(run(rulebook, tmp_path, "docs", "--path").stdout.strip())
    assert folder.is_relative_to(rulebook.parent.parent) and (folder / "lint.md").is_file()  # inside the venv
    assert "`rulebook docs` lists the guides" in " ".join(run(rulebook, tmp_path, "--help").stdout.split())


def test_init_from_the_wheel_puts_that_wheel_in_tools(wheel: Path, rulebook: Path, tmp_path: Path) -> None:
    """The wheel ``init`` makes for the project's CI, from an installed wheel, holds what the wheel holds, byte for
    byte (its RECORD and WHEEL written anew), and is the same bytes every time."""
    run(rulebook, tmp_path, "init", "a", "--title", "A")
    run(rulebook, tmp_path, "init", "b", "--title", "B")
    (made,) = (tmp_path / "a" / "tools").glob("*.whl")
    assert made.name == wheel.name
    assert made.read_bytes() == (tmp_path / "b" / "tools" / made.name).read_bytes()
    kept = re.compile(r".*\.dist-info/(RECORD|WHEEL)$")
    with zipfile.ZipFile(wheel) as built, zipfile.ZipFile(made) as copied:
        assert copied.testzip() is None
        expected = {name: built.read(name) for name in built.namelist() if not kept.match(name)}
        assert {name: copied.read(name) for name in copied.namelist() if not kept.match(name)} == expected
