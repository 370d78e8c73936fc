"""A book and its French translation written in the Markdown dialect, in a real browser: their pipe tables are
tables on the pages (each cell its own, the roll column's cells row headers), never the Markdown's raw text."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from typing import Any

import pytest

from rulebook.cli import main

from .conftest import CHROMIUM, ROOT, serve

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="Debian chromium is not installed (.ci/run installs it)"),
]


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    project = tmp_path_factory.mktemp("dialect")
    for name in ("book.md", "fr.md"):
        shutil.copy(ROOT / "tests" / "dialect" / name, project / name)
    (project / "rulebook.toml").write_text(
        'title = "Tiles and Dice"\nsources = ["book.md"]\n\n[translations.fr]\nsource = "fr.md"\n', encoding="utf-8"
    )
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(project)
        assert main(["build", "-q"]) == 0
    with serve(project / "site") as url:
        yield url


def _tables(chromium: Any, url: str) -> list[list[list[str]]]:
    """Each table of the page: its rows, each a list of its cells' text (a row header's marked `th:`)."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    tab = context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda error: errors.append(str(error)))
    tab.goto(url)
    found = tab.evaluate(
        """[...document.querySelectorAll('article table')].map(table => [...table.rows].map(row =>
            [...row.cells].map(cell => (cell.tagName === 'TH' ? 'th:' : '') + cell.innerText.trim())))"""
    )
    assert "|" not in tab.locator("article").inner_text(), "a pipe table shown as text"
    context.close()
    assert errors == []
    return list(found)


def test_the_french_pages_pipe_tables_are_tables(chromium: Any, base_url: str) -> None:
    tables = _tables(chromium, base_url + "fr/le-tour/")
    assert tables[0] == [
        ["th:D6", "th:Résultat"],
        ["th:1-2", "Touche la tuile"],
        ["th:3-6", "Manqué\n\net déplacement"],
    ]
    assert tables[1][1:] == [["1", "vue bloquée"], ["2 à 3", "rien ne se passe"]]


def test_the_originals_pipe_tables_are_tables(chromium: Any, base_url: str) -> None:
    tables = _tables(chromium, base_url + "turn/")
    assert tables[0][1:] == [["th:1-2", "Hit the tile"], ["th:3-6", "Miss\n\nand move"]]
    assert tables[1] == [["th:", "th:Effect"], ["th:1", "sight blocked"], ["th:2-3", "nothing happens"]]
