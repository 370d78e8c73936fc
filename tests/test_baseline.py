"""Baselines: adopt the lint on a partial book, then fail only on new problems."""

from __future__ import annotations

from pathlib import Path

from rulebook.cli import main

BOOK = """<document>
  <chapter title="Turns">
    <definition name="turn">A <reference name="turn">turn</reference> has <reference name="phase">phases</reference>.</definition>
    <section title="Magic">Cast <reference name="spell">spells</reference> and <reference name="spell">more</reference>.</section>
  </chapter>
</document>
"""


def write(path: Path, text: str) -> Path:
    path.write_text(text, encoding="utf-8")
    return path


def lint(*args: str | Path) -> int:
    return main(["lint", "--quiet", "--color", "never", *map(str, args)])


def test_baseline_hides_known_problems_and_survives_edits_elsewhere(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    book = write(tmp_path / "book.xml", BOOK)
    baseline = tmp_path / "baseline.json"
    assert lint(book, "--write-baseline", baseline) == 0
    assert lint(book) == 1
    assert lint(book, "--baseline", baseline) == 0
    # Lines move: new text above, the same problems further down.
    write(book, BOOK.replace("<document>", "<document>\n\n<!-- edited -->\n", 1))
    capsys.readouterr()
    assert lint(book, "--baseline", baseline) == 0
    assert "4 known problems are listed in the baseline" in capsys.readouterr().out


def test_a_new_problem_fails_even_with_the_same_name_elsewhere(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    book = write(tmp_path / "book.xml", BOOK)
    baseline = tmp_path / "baseline.json"
    lint(book, "--write-baseline", baseline)
    # A third `spell` in the same section is new; so is `phase` in another section.
    write(book, BOOK.replace("and <reference", 'and <reference name="spell">x</reference> <reference', 1))
    capsys.readouterr()
    assert lint(book, "--baseline", baseline) == 1
    output = capsys.readouterr().out
    assert output.count("error[RB101]") == 1 and "`spell`" in output


def test_fixed_problems_are_reported_as_stale_baseline_entries(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    book = write(tmp_path / "book.xml", BOOK)
    baseline = tmp_path / "baseline.json"
    lint(book, "--write-baseline", baseline)
    write(book, BOOK.replace('<reference name="phase">phases</reference>', "phases"))
    capsys.readouterr()
    assert lint(book, "--baseline", baseline) == 0
    assert "1 baseline entry no longer occurs" in capsys.readouterr().out


def test_a_broken_baseline_file_is_a_usage_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    book = write(tmp_path / "book.xml", BOOK)
    assert lint(book, "--baseline", write(tmp_path / "b.json", "{not json")) == 2
    assert "is not a rulebook lint baseline" in capsys.readouterr().err


def test_writing_a_baseline_says_how_to_configure_it(tmp_path: Path, capsys, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    write(tmp_path / "rulebook.toml", 'title = "T"\nsources = ["book.xml"]\n\n[books.more]\nsources = ["more.xml"]\n')
    write(tmp_path / "book.xml", BOOK)
    write(tmp_path / "more.xml", BOOK)
    monkeypatch.chdir(tmp_path)
    assert lint("--book", "main", "--write-baseline", "known.json") == 0
    assert capsys.readouterr().err == (
        "Wrote 4 problems to known.json.\n"
        'To have `rulebook lint` and `rulebook build` use it, add `baseline = "known.json"` to the top (before any '
        "[table]) of rulebook.toml.\n"
    )
    assert lint("--book", "more", "--write-baseline", "more.json") == 0
    assert 'add `baseline = "more.json"` to the [books.more] table of rulebook.toml.' in capsys.readouterr().err
    write(tmp_path / "rulebook.toml", 'title = "T"\nsources = ["book.xml"]\nbaseline = "known.json"\n')
    assert lint("--write-baseline", "known.json") == 0
    assert capsys.readouterr().err == "Wrote 4 problems to known.json.\n"  # configured already: nothing to add
    assert lint("--quiet") == 0


def test_a_baseline_may_name_a_rule_by_its_code(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    """A rule named by its code (``RB101``, as the configuration's ``severity`` may) matched nothing, and the entry was
    said to "no longer occur"; it is the rule's name, as the configuration reads it."""
    book = write(tmp_path / "book.xml", BOOK)
    baseline = tmp_path / "baseline.json"
    assert lint(book, "--write-baseline", baseline) == 0
    write(baseline, baseline.read_text(encoding="utf-8").replace('"dangling-reference"', '"rb101"'))
    capsys.readouterr()
    assert lint(book, "--baseline", baseline) == 0
    said = capsys.readouterr().out
    assert "4 known problems are listed in the baseline" in said and "no longer" not in said
