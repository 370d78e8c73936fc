"""Hostile configuration of a family of books: ``uses`` chains and cycles as long as a configuration can write.

A chain of 1,000 books (each using the one before) was a ``RecursionError`` (an internal error) in the check for
cycles and in each book's order of lookup; a cycle of 1,000 books is the plain message naming it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

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
