"""A family of books: the core rules, an army book that uses them and a FAQ about both (tests/family/).

The configuration (``uses``, ``faq``, the names a book may take), and the lint across the family: references
and links resolved in the book then in the books it uses, did-you-mean drawn from all of them, shadowed
terms, and a core term used only in the army book counted as used.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import jsonschema
import pytest

from rulebook.cli import main

from .conftest import ROOT

FAMILY = ROOT / "tests" / "family"


@pytest.fixture
def family(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the family made for the tests, as the working folder."""
    folder = tmp_path / "family"
    shutil.copytree(FAMILY, folder)
    monkeypatch.chdir(folder)
    return folder


def edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, f"{old!r} is not once in {path}"
    path.write_text(text.replace(old, new), encoding="utf-8")


def lint(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    capsys.readouterr()
    status = main(["lint", "--color", "never", *args])
    return status, capsys.readouterr().out


# -- the configuration ------------------------------------------------------------------------------------


def test_the_family_is_clean(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = lint(capsys)
    assert (status, out) == (0, "All checks passed (5 files).\n")  # every configured book, and its French


def test_a_cycle_of_uses_is_a_configuration_error_naming_the_table(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(family / "rulebook.toml", 'sources = ["core/core.xml"]\n', 'sources = ["core/core.xml"]\nuses = ["faq"]\n')
    assert main(["lint"]) == 2
    err = capsys.readouterr().err
    assert "rulebook.toml: `uses` in [top level] makes a cycle: main -> faq -> elves -> main" in err
    assert "Traceback" not in err


def test_uses_must_name_another_book(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    edit(family / "rulebook.toml", 'uses = ["main"]', 'uses = ["core"]')
    assert main(["lint"]) == 2
    err = capsys.readouterr().err
    assert "`uses` in [books.elves] must name other books of the project, not `core` (the others: faq, main)" in err


@pytest.mark.parametrize(
    ("name", "reason"),
    [
        ("site", "`site` is the output folder's name: the book would be built into `site/site/`"),
        ("assets", "`assets/` is the site's own folder for the site's styles, scripts and icons"),
        ("search", "`search/` is the site's own folder for the search index"),
        ("fr", "`fr` is a language code: a translation's site takes the folder `fr/`"),
        ("translation-fr", "`translation-fr/` is the address of a translation report (the editors' pages)"),
    ],
)
def test_generated_folder_names_are_refused_as_book_names_with_the_reason(
    family: Path, capsys: pytest.CaptureFixture[str], name: str, reason: str
) -> None:
    assert main(["new-book", name]) == 2
    assert f"a book cannot be called `{name}`: {reason}; choose another name" in capsys.readouterr().err
    with (family / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write(f'\n[books.{name}]\nsources = ["core/core.xml"]\n')
    assert main(["lint"]) == 2
    assert f"[books.{name}]: a book cannot be called `{name}`: {reason}" in capsys.readouterr().err


def test_new_book_uses_names_the_books_its_references_resolve_in(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["new-book", "campaign", "--uses", "main", "--uses", "elves"]) == 0
    assert "Its references resolve in it, then in `main`, `elves` (`main:term` names one)." in capsys.readouterr().out
    assert 'sources = ["rules/campaign/book.xml"]\nuses = ["main", "elves"]\n' in (family / "rulebook.toml").read_text()
    source = family / "rules" / "campaign" / "book.xml"
    edit(source, "time to move and act.", 'time to move a <reference name="unit">unit</reference> and act.')
    status, out = lint(capsys, "--book", "campaign")
    assert (status, out) == (0, "All checks passed (1 file).\n")


def test_new_book_uses_must_name_a_book_of_the_project(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    config = (family / "rulebook.toml").read_bytes()
    assert main(["new-book", "campaign", "--uses", "core"]) == 2
    assert "--uses names no book of the project: `core` (the books: elves, faq, main)" in capsys.readouterr().err
    assert (family / "rulebook.toml").read_bytes() == config
    assert not (family / "rules").exists()


# -- the lint across the family -------------------------------------------------------------------------


def test_a_dangling_reference_suggests_the_used_books_term_saying_which_book(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(
        family / "elves" / "elves.xml",
        'traces <reference name="line_of_sight">',
        'traces <reference name="line_of_sihgt">',
    )
    status, out = lint(capsys)
    assert status == 1
    assert "error[RB101]: reference to undefined term `line_of_sihgt`\n --> elves/elves.xml:6:" in out
    assert "= help: did you mean `line_of_sight` (book `main`)?" in out


def test_a_misspelt_term_of_a_named_book_suggests_that_books_terms(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(family / "elves" / "elves.xml", '<reference name="main:courage_test">', '<reference name="main:courage_tset">')
    edit(family / "elves" / "elves.xml", '<link to="main:measuring_distances">', '<link to="main:measuring_distance">')
    status, out = lint(capsys, "--book", "elves")
    assert status == 1
    assert "error[RB101]: reference to undefined term `main:courage_tset`" in out
    assert "= help: did you mean `main:courage_test`?" in out
    assert "error[RB102]: link to unknown id `main:measuring_distance`" in out
    assert "= help: did you mean `main:measuring_distances`?" in out


def test_a_book_in_the_markdown_dialect_uses_the_core_as_an_xml_book_does(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["convert", "elves/elves.xml", "-o", "elves/elves.md"]) == 0
    edit(family / "rulebook.toml", 'sources = ["elves/elves.xml"]', 'sources = ["elves/elves.md"]')
    written = (family / "elves" / "elves.md").read_text(encoding="utf-8")
    assert "[[main:courage_test|Courage Test]]" in written and "](#main:measuring_distances)" in written
    assert lint(capsys, "--book", "elves") == (0, "All checks passed (2 files).\n")  # the book and its French
    edit(family / "elves" / "elves.md", "[[main:courage_test|Courage Test]]", "[[main:Courage Tset]]")
    status, out = lint(capsys, "--book", "elves")
    assert status == 1
    assert "error[RB101]: reference to undefined term `main:courage_tset`\n  --> elves/elves.md:" in out
    assert "= help: did you mean `main:courage_test`?" in out


def test_a_book_prefix_names_a_book_of_the_project_that_the_book_uses(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(family / "elves" / "elves.xml", '<reference name="main:courage_test">', '<reference name="faq:courage_test">')
    edit(family / "faq" / "faq.xml", 'Can a <reference name="unit">', 'Can a <reference name="army:unit">')
    status, out = lint(capsys)
    assert status == 1
    assert "error[RB101]: reference to `faq:courage_test`: this book does not use the book `faq`" in out
    assert '= help: add `"faq"` to this book\'s `uses` in the configuration' in out
    assert "error[RB101]: reference to `army:unit`: the project has no book called `army`" in out
    assert "= help: the books this one uses: `elves`, `main`" in out


def test_a_term_redefined_from_a_used_book_is_a_warning_with_both_places(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(
        family / "elves" / "elves.xml",
        '<section title="Forest Walkers" id="forest_walkers">',
        '<section title="Forest Walkers" id="forest_walkers"><definition name="charge">An elf '
        '<reference name="charge">charge</reference> is swift.</definition>',
    )
    status, out = lint(capsys, "--book", "elves")
    assert status == 0
    assert "warning[RB203]: term `charge` is also defined in the book `main`: this book's definition hides it" in out
    assert " --> elves/elves.xml:5:" in out
    assert "= note: `charge` is defined in `main` (Skirmish: Core Rules) here (core/core.xml:22:7)" in out
    # The FAQ uses both books: its `charge` takes the elves' first, and says so.
    status, out = lint(capsys, "--book", "faq")
    assert (
        "warning[RB203]: term `charge` is defined in the books `elves` and `main`: this reference takes `elves`'s"
        in out
    )
    assert "= help: name the book: `elves:charge` or `main:charge`" in out


def test_a_core_term_used_only_by_another_book_is_used(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, out = lint(capsys, "--book", "main")
    assert (status, out) == (0, "All checks passed (2 files).\n")  # `forest`: only the elves refer to it
    edit(family / "elves" / "elves.xml", 'of a <reference name="forest">Forest</reference>,', "of a Forest,")
    edit(family / "elves" / "elves.xml", 'the <reference name="forest">Forest</reference> it', "the Forest it")
    status, out = lint(capsys, "--book", "main")
    assert (
        "warning[RB401]: term `forest` is referred to only inside its own definition\n  --> core/core.xml:26:25" in out
    )


def test_a_book_is_linted_with_the_books_it_uses_read_not_linted(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    edit(
        family / "core" / "core.xml",
        '<reference name="charge">charge</reference> moves',
        '<reference name="chrage">charge</reference> moves',
    )
    status, out = lint(capsys, "--book", "elves")
    assert (status, out) == (0, "All checks passed (2 files).\n")  # the book and its French
    status, out = lint(capsys)
    assert status == 1 and out.count("error[RB101]") == 1 and "core/core.xml" in out


def test_a_book_it_uses_that_cannot_be_read_is_said(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (family / "core" / "core.xml").write_text("<document><chapter", encoding="utf-8")
    status, out = lint(capsys, "--book", "elves")
    assert status == 2
    assert "error[RB001]: couldn't find end of Start Tag chapter line 1\n --> core/core.xml:1:19" in out


# -- the graph and the query across the family -----------------------------------------------------------


def test_the_graph_spans_the_family_with_the_book_of_each_node(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["graph", "--book", "elves"]) == 0
    graph = json.loads(capsys.readouterr().out)
    nodes = {node["id"]: node for node in graph["nodes"]}
    assert nodes["term:forest_spirit"]["book"] == "elves"
    assert nodes["term:main:line_of_sight"] == {
        "book": "main",
        "defined": True,
        "id": "term:main:line_of_sight",
        "kind": "term",
        "name": "main:line_of_sight",
    }
    assert nodes["section:faq:q_spirit"]["book"] == "faq"  # the FAQ uses the elves: it is in their family
    edges = graph["edges"]
    assert {"source": "section:forest_walkers", "target": "term:main:line_of_sight", "kind": "uses"} in edges
    assert {"source": "term:forest_spirit", "target": "term:main:courage_test", "kind": "uses"} in edges
    assert {"source": "section:forest_spirit", "target": "section:main:measuring_distances", "kind": "links"} in edges
    assert {"source": "section:faq:q_spirit", "target": "section:forest_spirit", "kind": "links"} in edges
    assert not [node for node in nodes.values() if node["kind"] == "term" and not node["defined"]]


def test_a_query_finds_the_term_in_the_used_book_and_every_use_in_the_family(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["query", "forest", "--book", "elves", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["book"], report["defined_at"]) == ("main", ["core/core.xml:26:7"])
    assert [(r["book"], r["at"], r["section"]) for r in report["references"]] == [
        ("main", "core/core.xml:26:35", "Movement › Terrain"),
        ("elves", "elves/elves.xml:6:156", "Army Rules › Forest Walkers"),
        ("elves", "elves/elves.xml:12:67", "Units of the Army › Forest Spirit"),
    ]
    assert main(["query", "forest_sprit", "--book", "faq"]) == 1
    assert "Did you mean `forest_spirit`?" in capsys.readouterr().out


# -- the rule data and the engine ------------------------------------------------------------------------


def _referenced(node: object) -> Iterator[str]:
    """Every term a rules.json refers to, in its content nodes (references and definitions)."""
    if isinstance(node, dict):
        if node.get("type") == "reference":
            yield node["term"]
        for value in node.values():
            yield from _referenced(value)
    elif isinstance(node, list):
        for value in node:
            yield from _referenced(value)


def test_each_books_rule_data_validates_and_resolves_every_outside_term(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["build", "-q", "--data-only"]) == 0
    site = family / "site"
    schema = json.loads((site / "rules.schema.json").read_text(encoding="utf-8"))
    for folder in (site, site / "elves", site / "faq"):
        data = json.loads((folder / "rules.json").read_text(encoding="utf-8"))
        jsonschema.Draft202012Validator(schema).validate(data)
        for name in set(_referenced(data["terms"])) | set(_referenced(data["sections"])):
            if name in data["terms"]:
                assert data["terms"][name]["defined"], name
                continue
            outside = data["outside_terms"][name]  # every other name is another book's term
            used = next(book for book in data["books_used"] if book["id"] == outside["book"])
            there = json.loads((folder / used["rules"]).read_text(encoding="utf-8"))
            assert there["terms"][outside["name"]]["defined"], name
    elves = json.loads((site / "elves" / "rules.json").read_text(encoding="utf-8"))
    assert elves["books_used"] == [{"id": "main", "title": "Skirmish: Core Rules", "rules": "../rules.json"}]
    assert elves["outside_terms"]["main:courage_test"] == {"book": "main", "name": "courage_test"}
    assert elves["outside_targets"] == {"main:measuring_distances": {"book": "main", "name": "measuring_distances"}}
    assert "line_of_sight" not in elves["terms"]  # not a dangling term of its own: the core's
    core = json.loads((site / "rules.json").read_text(encoding="utf-8"))
    assert core["terms"]["forest"]["unused"] is False  # only the elves refer to it
    assert (core["books_used"], core["outside_terms"]) == ([], {})


def test_the_engine_reads_a_books_rule_data_by_its_name(family: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["build", "-q", "--data-only"]) == 0
    capsys.readouterr()
    assert main(["engine", "--book", "elves", "odds", "test", "courage_test", "--value", "7"]) == 2
    err = capsys.readouterr().err
    assert "`courage_test` is not a test of this book (tests: none)" in err
    assert "(it is a term of the book `main`: ask with `--book main`)" in err
    assert main(["engine", "--book", "nowhere", "turns"]) == 2
    assert "no book is called `nowhere` (the books are: elves, faq, main)" in capsys.readouterr().err
    assert main(["engine", "--book", "elves", "--rules", "site/rules.json", "turns"]) == 2
    assert "--rules names the rule data to use: --book cannot choose another" in capsys.readouterr().err


# -- partial builds --------------------------------------------------------------------------------------


def _files(folder: Path) -> dict[str, bytes]:
    """Every file of a folder, by path inside it, with its bytes."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _book_files(site: Path) -> dict[str, dict[str, bytes]]:
    """The site's files by book: each other book's folder, and the main book's (every other entry)."""
    books = {name: _files(site / name) for name in ("elves", "faq")}
    books["main"] = {p: data for p, data in _files(site).items() if p.split("/")[0] not in books}
    return books


@pytest.mark.slow  # two builds of the family each
@pytest.mark.parametrize(
    ("chosen", "rebuilt"),
    [
        (["--book", "elves"], "elves"),
        (["elves/elves.xml"], "elves"),
        (["faq/faq.xml"], "faq"),
        (["core/core.xml"], "main"),
        (["--book", "main"], "main"),
    ],
)
def test_a_partial_build_keeps_every_other_book_byte_for_byte(family: Path, chosen: list[str], rebuilt: str) -> None:
    assert main(["build", "-q"]) == 0
    before = _book_files(family / "site")
    assert main(["build", "-q", *chosen]) == 0
    after = _book_files(family / "site")
    for book, files in before.items():
        if book != rebuilt:
            assert after[book] == files, book
    assert after[rebuilt].keys() == before[rebuilt].keys()


def test_lint_fix_writes_another_books_name_when_it_is_the_one_suggestion(
    family: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    elves = family / "elves" / "elves.xml"
    edit(elves, '<reference name="main:courage_test">', '<reference name="main:courage_tset">')
    edit(elves, 'traces <reference name="line_of_sight">', 'traces <reference name="line_of_sihgt">')
    assert main(["lint", "--fix", "--book", "elves"]) == 0
    text = elves.read_text(encoding="utf-8")
    assert '<reference name="main:courage_test">' in text and 'traces <reference name="line_of_sight">' in text
