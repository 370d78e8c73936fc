"""Golden cases: each folder under tests/cases holds a tiny rulebook and the text report it gives.

Rewrite the golden files with ``pytest --update-golden`` and read the diff before committing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook.facts import MECHANIC_KINDS, Context
from rulebook.facts.kinds import NO_KIND, Problem, recognise
from rulebook.graph import TermGraph
from rulebook.mechanics import roll_tables
from rulebook.project import BookConfig
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book
from rulebook.report import Report, exit_code
from rulebook.report import text as text_report

from .conftest import CASES, ROOT

CASE_DIRS = sorted(p for p in CASES.iterdir() if (p / "book.xml").is_file())
SOURCES = sorted(p for case in CASES.iterdir() for p in (case / "book.xml", case / "book.md") if p.is_file())
"""Each case's book in XML and, converted by `rulebook convert`, in the Markdown dialect (some cases are
Markdown only: what the dialect's checks find)."""


@pytest.mark.parametrize("source", SOURCES, ids=lambda p: f"{p.parent.name}/{p.name}")
def test_case_report_matches_golden(source: Path, update_golden: bool) -> None:
    linking = BookConfig("main").linking
    result = lint_book(read_book([source], ROOT, linking=linking), BookConfig("main"), root=ROOT)
    report = Report(result.diagnostics, result.sources, result.files)
    output = text_report.render(report) + f"exit status: {exit_code(report)}\n"
    golden = source.parent / ("expected.txt" if source.suffix == ".xml" else "expected-markdown.txt")
    if update_golden or not golden.exists():
        golden.write_text(output, encoding="utf-8")
    assert output == golden.read_text(encoding="utf-8")


def test_every_check_of_the_mechanic_kinds_fails_in_a_golden_case() -> None:
    """Each attribute check of the table of kinds is pinned by a golden case (one problem per annotation)."""
    failing: set[tuple[str, str]] = set()
    texts = ""
    for case in CASE_DIRS:
        texts += (case / "expected.txt").read_text(encoding="utf-8")
        read = read_book([case / "book.xml"], ROOT)
        terms = TermGraph(read.book)
        context = Context(frozenset(terms.defined_terms()), frozenset(t.id for t in roll_tables(read.book)[0]))
        for mechanic in read.book.mechanics:
            attributes = {"name": mechanic.name, **dict(mechanic.attributes)}
            kind = recognise(attributes)
            if kind is not None and isinstance(problem := kind.read(attributes, context), Problem):
                failing.add((kind.name, problem.attribute))
    checked = {
        (kind.name, attribute.name)
        for kind in MECHANIC_KINDS
        for attribute in kind.attributes
        # A key attribute is never missing: it is how the kind was recognised.
        if attribute.type.accepts or (attribute.required and attribute.name not in kind.key)
    }
    assert checked - failing == set()
    assert NO_KIND in texts and "a reading must follow a roll of that name" in texts
