"""Shared fixtures: paths, the golden-file switch, and helpers that lint a string."""

from __future__ import annotations

from pathlib import Path

import pytest

from compiler.config import Config
from compiler.diagnostics import Diagnostic
from compiler.graph import TermGraph
from compiler.model import Book, Document
from compiler.pipeline import ReadResult, lint
from compiler.xml_source import parse_xml_string

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"
BUNDLED_BOOK = ROOT / "rulebook_src" / "en" / "rulebook.xml"
SHARED = ROOT.parent / "shared"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files from current output")


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def parse(xml: str, path: str = "book.xml") -> Document:
    result = parse_xml_string(xml, path)
    assert result.document is not None, result.diagnostics
    return result.document


def lint_string(xml: str, path: str = "book.xml") -> list[Diagnostic]:
    """Every diagnostic for a one-file book given as text."""
    result = parse_xml_string(xml, path)
    documents = (result.document,) if result.document else ()
    sources = {path: result.source} if result.source else {}
    read = ReadResult(Book(documents), result.diagnostics, sources)
    return list(lint(read, Config(root=ROOT)).diagnostics)


def terms_of(xml: str) -> TermGraph:
    return TermGraph(Book((parse(xml),)))


def rules_of(diagnostics: list[Diagnostic]) -> list[tuple[str, str | None]]:
    return [(d.rule, d.target) for d in diagnostics]
