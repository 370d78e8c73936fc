"""Hostile configuration of a family of books: ``uses`` chains and cycles as long as a configuration can write.

A chain of 1,000 books (each using the one before) was a ``RecursionError`` (an internal error) in the check for
cycles and in each book's order of lookup; a cycle of 1,000 books is the plain message naming it. Its lint took
about 100 s: each book's lint made the whole family again (1,000 term graphs) and walked the chain for each
reference; it is counted here, in term graphs made and terms looked up, not timed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook import family, graph
from rulebook.cli import main
from rulebook.config_file import ConfigError
from rulebook.project import load_project

CHAIN = 1_000


def _chain(folder: Path, *, closed: bool) -> Path:
    """A ``rulebook.toml`` of a main book and books ``b0`` ... ``b999``, each using the one before (``closed``: the
    main book uses the last, making a cycle through all of them)."""
    lines = ['sources = ["book.md"]', f'uses = ["b{CHAIN - 1}"]' if closed else ""]
    before = "main"
    for index in range(CHAIN):
        lines += [f"[books.b{index}]", f'sources = ["b{index}.md"]', f'uses = ["{before}"]']
        before = f"b{index}"
    config = folder / "rulebook.toml"
    config.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return config


def test_a_chain_of_a_thousand_books_is_read_with_each_books_order(tmp_path: Path) -> None:
    project = load_project(config_file=_chain(tmp_path, closed=False))
    assert project.family_order(f"b{CHAIN - 1}") == (*(f"b{i}" for i in reversed(range(CHAIN - 1))), "main")
    every = ("main", *sorted(f"b{i}" for i in range(CHAIN)))  # the configuration's order: its tables sorted
    assert project.users_of("main") == every[1:]
    assert project.family_of("b500") == every


def test_a_cycle_through_a_thousand_books_is_a_plain_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as refused:
        load_project(config_file=_chain(tmp_path, closed=True))
    cycle = " -> ".join(["main", f"b{CHAIN - 1}", *(f"b{i}" for i in reversed(range(CHAIN - 1))), "main"])
    assert str(refused.value) == (
        f"rulebook.toml: `uses` in [top level] makes a cycle: {cycle} (a book cannot build on a book built on it)"
    )


class Counted:
    """Counts the calls of a method (patched in its class) while calling it."""

    def __init__(self, owner: type, name: str, monkeypatch: pytest.MonkeyPatch) -> None:
        self.calls = 0
        original = getattr(owner, name)

        def counted(*args: object, **kwargs: object) -> object:
            self.calls += 1
            return original(*args, **kwargs)

        monkeypatch.setattr(owner, name, counted)


@pytest.mark.slow  # 1,001 books linted: seconds
def test_the_lint_of_a_chain_of_a_thousand_books_makes_each_graph_once_and_walks_no_chain(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    lines, before = ['sources = ["main.xml"]'], "main"
    for index in range(CHAIN):
        lines += [f"[books.b{index}]", f'sources = ["b{index}.xml"]', f'uses = ["{before}"]']
        before = f"b{index}"
    (tmp_path / "rulebook.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    for name, term, previous in [("main", "t_main", None), *((f"b{i}", f"t{i}", None) for i in range(CHAIN))]:
        # Its own term, the term of the book before it, and the main book's (at the chain's far end).
        number = -1 if name == "main" else int(name[1:])
        previous = "t_main" if number == 0 else f"t{number - 1}" if number > 0 else None
        refers = (
            f' It uses <reference name="{previous}">that</reference> and <reference name="t_main">this</reference>.'
        )
        (tmp_path / f"{name}.xml").write_text(
            f'<document><chapter title="Rules {name}"><definition name="{term}">A rule</definition> is'
            f' <reference name="{term}">a rule</reference>.{refers if previous else ""}</chapter></document>\n',
            encoding="utf-8",
        )
    graphs = Counted(graph.TermGraph, "__init__", monkeypatch)
    families = Counted(family.Family, "__init__", monkeypatch)
    asked = Counted(graph.TermGraph, "is_defined", monkeypatch)
    monkeypatch.chdir(tmp_path)
    assert main(["lint", "--format", "json", "--no-baseline"]) == 0, capsys.readouterr()
    capsys.readouterr()
    # Before: a million term graphs, a thousand families, and a walk down the chain for each reference to t_main.
    assert graphs.calls <= CHAIN + 1 and families.calls <= 2, (graphs.calls, families.calls)
    assert asked.calls <= 20 * (CHAIN + 1), asked.calls
