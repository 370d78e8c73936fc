"""Golden cases: each folder under tests/cases holds a tiny rulebook and the text report it gives.

Rewrite the golden files with ``pytest --update-golden`` and read the diff before committing.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.facts import MECHANIC_KINDS, collect_facts, mechanics_context
from rulebook.facts.kinds import NO_KIND, Problem, recognise
from rulebook.graph import TermGraph
from rulebook.lint.fixes import edit_for
from rulebook.mechanics import roll_tables
from rulebook.project import BookConfig
from rulebook.recipe.reading import read_book
from rulebook.recipe.stages import lint_book
from rulebook.report import text as text_report
from rulebook.report.summary import Report, exit_code

from .conftest import CASES, ROOT, check_golden

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
    check_golden(golden, output, update_golden)


FIX_CASES = ["dangling-reference-suggests-closest", "dangling-link-suggests-id", "fix-only-what-is-not-in-doubt"]
"""The cases ``rulebook lint --fix`` is run on: each has ``fixed.xml``, the source as the fixes leave it."""


@pytest.mark.parametrize("name", FIX_CASES)
def test_fix_leaves_the_golden_source_and_nothing_left_to_fix(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, update_golden: bool
) -> None:
    case = CASES / name
    book = tmp_path / "book.xml"
    shutil.copyfile(case / "book.xml", book)
    monkeypatch.chdir(tmp_path)
    main(["lint", "--fix", "--quiet", "book.xml"])
    golden = case / "fixed.xml"
    if update_golden or not golden.exists():
        shutil.copyfile(book, golden)
    assert book.read_bytes() == golden.read_bytes()
    assert book.read_bytes() != (case / "book.xml").read_bytes()
    left = lint_book(read_book([book], tmp_path), BookConfig("main"), root=tmp_path)
    assert [d for d in left.diagnostics if edit_for(d, left.sources[d.span.path])] == []  # none of the fixed findings
    assert main(["lint", "--diff", "--quiet", "book.xml"]) == 0  # and nothing more to fix


def test_every_check_of_the_mechanic_kinds_fails_in_a_golden_case() -> None:
    """Each attribute check of the table of kinds is pinned by a golden case (one problem per annotation)."""
    failing: set[tuple[str, str]] = set()
    texts = ""
    for case in CASE_DIRS:
        texts += (case / "expected.txt").read_text(encoding="utf-8")
        read = read_book([case / "book.xml"], ROOT)
        terms = TermGraph(read.book)
        facts = collect_facts(read.book, frozenset(terms.defined_terms()))
        context = mechanics_context(terms, roll_tables(read.book)[0], facts)
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


@pytest.mark.parametrize("name", [n for n in FIX_CASES if (CASES / n / "book.md").is_file()])
def test_fix_rewrites_a_markdown_books_names_as_its_xmls(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, update_golden: bool
) -> None:
    """The same fixes in the Markdown dialect: a reference's name (``[[marchmove|march]]``), a link's id."""
    case = CASES / name
    book = tmp_path / "book.md"
    shutil.copyfile(case / "book.md", book)
    monkeypatch.chdir(tmp_path)
    main(["lint", "--fix", "--quiet", "book.md"])
    check_golden(case / "fixed.md", book.read_text(encoding="utf-8"), update_golden)
    assert book.read_bytes() != (case / "book.md").read_bytes()
    assert main(["lint", "--diff", "--quiet", "book.md"]) == 0  # nothing more to fix
