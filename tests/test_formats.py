"""The table of output formats (``rulebook.formats``) is what the command line offers and what the renderers
write: every format of every command runs, and writes that format; a renderer refuses any other."""

from __future__ import annotations

import argparse
import csv
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from lxml import etree

from rulebook import formats
from rulebook.cli import main

from .test_translation_companions import BOOK, FRENCH, TERMS

LATER = BOOK.replace("up to its speed in inches", "up to twice its speed in inches")
"""A later edition of the book: one number changed."""
ARGUMENTS = {
    "lint": ("lint",),
    "compare": ("compare", "rules/book.xml", "rules/fr/book.md", "--language", "fr"),  # no translation configured
    "status": ("status", "--config", "translated.toml"),
    "diff": ("diff", "rules/book.xml", "rules/later.xml"),
    "graph": ("graph",),
    "query": ("query", "march"),
    "terms export": ("terms", "export", "rules/fr/terms.toml", "--language", "fr"),  # no translation configured
}
"""Each command of the table, run on the project below."""


def _xml_root(text: str) -> str:
    return str(etree.QName(etree.fromstring(text.encode("utf-8"))).localname)


LOOKS: dict[str, Callable[[str], object]] = {
    "text": lambda out: not out.lstrip().startswith(("{", "<", "::")),
    "summary": lambda out: not out.lstrip().startswith(("{", "<", "::")),
    "json": lambda out: isinstance(json.loads(out), dict),
    "github": lambda out: all(line.startswith("::") for line in out.splitlines()),
    "sarif": lambda out: "sarif" in json.loads(out)["$schema"],
    "html": lambda out: out.lstrip().lower().startswith(("<!doctype html", "<html")),
    "dot": lambda out: out.startswith("digraph "),
    "graphml": lambda out: _xml_root(out) == "graphml",
    "tbx": lambda out: _xml_root(out) == "tbx",
    "csv": lambda out: len(next(csv.reader(io.StringIO(out)))) > 1,
}
"""What a report of each format looks like."""


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A book with findings, a later edition of it, a French translation and its terminology (``translated.toml``:
    the later edition's project, the French made from the first)."""
    folder = tmp_path_factory.mktemp("formats")
    files = {
        "rules/book.xml": BOOK.replace(
            "charges</reference>", "charges</reference> <reference name='wheel'>x</reference>"
        ),
        "rules/later.xml": LATER,
        "rules/fr/book.md": FRENCH,
        "rules/fr/terms.toml": TERMS,
        "rulebook.toml": 'sources = ["rules/book.xml"]\n',
        # The French made from the book, against its later edition.
        "translated.toml": '[tool.rulebook]\nsources = ["rules/later.xml"]\n\n[tool.rulebook.translations.fr]\n'
        'source = "rules/fr/book.md"\nfrom_edition = "first"\n\n[tool.rulebook.books.first]\nsources = ["rules/book.xml"]\n',
    }
    for name, text in files.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_text(text, encoding="utf-8")
    return folder


def format_choices() -> dict[str, tuple[str, ...]]:
    """The ``--format`` choices of every command, as the command line's parser offers them."""
    from rulebook.cli import _parser

    found: dict[str, tuple[str, ...]] = {}

    def walk(parser: argparse.ArgumentParser, words: tuple[str, ...]) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, command in action.choices.items():
                    walk(command, (*words, name))
            elif "--format" in action.option_strings and words not in (("init",), ("new-book",)):
                # init's and new-book's name the book's source format, not an output's
                found[" ".join(words)] = tuple(action.choices or ())

    walk(_parser(), ())
    return found


def test_the_command_line_offers_the_formats_of_the_table() -> None:
    assert format_choices() == formats.BY_COMMAND
    assert set(ARGUMENTS) == set(formats.BY_COMMAND)
    assert set(LOOKS) == {name for names in formats.BY_COMMAND.values() for name in names}


@pytest.mark.parametrize(
    ("command", "output_format"), [(command, name) for command, names in formats.BY_COMMAND.items() for name in names]
)
def test_each_format_of_the_table_is_written(
    project: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    command: str,
    output_format: str,
) -> None:
    monkeypatch.chdir(project)
    code = main([*ARGUMENTS[command], "--format", output_format])
    out, err = capsys.readouterr()
    assert code in (0, 1), err
    assert out.strip(), f"`rulebook {command} --format {output_format}` wrote nothing"
    assert LOOKS[output_format](out), out[:300]


def test_a_format_outside_the_table_is_refused_by_the_command_line_and_the_renderers(
    project: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook.graph_export import export_graph
    from rulebook.report import renderer

    monkeypatch.chdir(project)
    with pytest.raises(SystemExit) as exit:
        main(["graph", "--format", "svg"])
    assert exit.value.code == 2
    assert "invalid choice: 'svg' (choose from 'json', 'dot', 'graphml')" in capsys.readouterr().err
    with pytest.raises(ValueError, match="unknown output format 'html'"):
        renderer("html")
    with pytest.raises(ValueError, match="unknown output format 'svg'"):
        export_graph(None, "svg")  # type: ignore[arg-type]
