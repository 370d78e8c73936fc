"""A translation written in the Markdown dialect: its own marks are its terminology, its front matter its title.

``tests/dialect/de.md`` is a German translation of ``tests/dialect/book.md`` that marks its terms
(``[[fighter|Kämpfer]]``, ``{dfn=fighter}``, ``::: definition tile``) and lacks the section defining
Line of Sight. Its site links each marked use to where the German defines the term, its glossary names
the terms as it marks them, ``terms suggest`` proposes what it marks, and a ``terms.toml`` only overrides.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from rulebook.cli import main
from rulebook.project import BookConfig, Translation
from rulebook.recipe.reading import read_book, translation_title
from rulebook.stage_values import LintResult, ReadResult
from rulebook.translate.terminology import Entry, marked_terms, with_marked

from .conftest import ROOT

DIALECT = ROOT / "tests" / "dialect"
CONFIG = 'title = "Tiles and Dice"\nsources = ["book.md"]\n\n[translations.de]\nsource = "de.md"\n'


def _project(folder: Path, config: str = CONFIG) -> Path:
    for name in ("book.md", "de.md"):
        shutil.copy(DIALECT / name, folder / name)
    (folder / "rulebook.toml").write_text(config, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    project = _project(tmp_path_factory.mktemp("dialect-de"))
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(project)
        assert main(["build", "-q", "--no-pdf"]) == 0
    return project / "site"


def german() -> Translation:
    return Translation("de", DIALECT / "de.md")


def test_the_marks_of_a_translation_are_its_terminology() -> None:
    """The rendering marked most often is preferred, the others accepted in the order first marked; a term the
    translation never marks (Line of Sight, its section untranslated) has no entry."""
    book = read_book([DIALECT / "de.md"], ROOT, language="de").book
    assert marked_terms(book) == {
        "fighter": Entry("fighter", "Kämpfer", ("Kämpfers",)),
        "profile": Entry("profile", "Profil"),
        "tile": Entry("tile", "Kachel", ("Kacheln",)),
        "warband": Entry("warband", "Bande"),
    }
    overridden = with_marked({"tile": Entry("tile", "Feld", ("Kachel",))}, book)
    assert overridden["tile"] == Entry("tile", "Feld", ("Kachel",))  # the file's entry, whole, in place of the marks
    assert overridden["warband"] == Entry("warband", "Bande")


def test_a_translation_that_marks_nothing_gives_no_terminology() -> None:
    """The French seed (converted from a PDF) marks no term: its terminology stays its terms.toml alone."""
    seed = read_book(
        [ROOT / "rulebook_src" / "fr" / "rulebook.md"], ROOT, language="fr", source_format="plain-markdown"
    )
    assert marked_terms(seed.book) == {}


def _links(site: Path) -> dict[str, list[tuple[str, str]]]:
    """Each German page's term links: (the term, where the link leads, from the site's root)."""
    found = {}
    for page in sorted((site / "de").glob("*/index.html")):
        tree = lxml.html.fromstring(page.read_text(encoding="utf-8"))
        base = page.parent.relative_to(site).as_posix() + "/"
        found[base] = [
            (a.get("data-term"), _resolved(base, a.get("href"))) for a in tree.cssselect("article a.rb-term")
        ]
    return found


def _resolved(base: str, href: str) -> str:
    from posixpath import normpath
    from urllib.parse import urldefrag

    path, fragment = urldefrag(href)
    return (normpath(base + path) + "/" if path else base) + "#" + fragment


def test_each_marked_use_links_to_where_the_translation_defines_the_term(built: Path) -> None:
    links = _links(built)
    assert links["de/core/"] == [
        ("warband", "de/core/#term-warband"),
        ("fighter", "de/core/#term-fighter"),
        ("profile", "de/turn/#term-profile"),
        ("tile", "de/core/#term-tile"),
    ]
    assert links["de/turn/"] == [
        ("tile", "de/core/#term-tile"),  # in the table
        ("tile", "de/core/#term-tile"),
        ("fighter", "de/core/#term-fighter"),
    ]
    for target in {t for page in links.values() for _, t in page}:
        page, anchor = target.split("#")
        tree = lxml.html.fromstring((built / page / "index.html").read_text(encoding="utf-8"))
        assert tree.get_element_by_id(anchor) is not None, target


def test_the_glossary_names_the_terms_as_the_translation_marks_them(built: Path) -> None:
    tree = lxml.html.fromstring((built / "de" / "glossary" / "index.html").read_text(encoding="utf-8"))
    names = [h.text_content() for h in tree.cssselect(".rb-glossary-term")]
    assert names == ["Bande", "Kachel", "Kämpfer", "Profil"]
    fighter = tree.get_element_by_id("fighter")
    said = fighter.cssselect(".rb-glossary-definition")[0].text_content()
    assert said == "Ein Kämpfer ist eine Miniatur auf dem Brett, mit einem Profil"  # its own definition


def test_the_rule_data_carries_the_marked_names_and_the_translations_own_definitions(built: Path) -> None:
    terms = json.loads((built / "rules.json").read_text(encoding="utf-8"))["terms"]
    assert terms["tile"]["translations"]["de"] == {"name": "Kachel", "text": "Eine Kachel ist ein Feld des Bretts."}
    assert "de" not in terms["line_of_sight"].get("translations", {})


def test_the_translation_is_titled_by_its_front_matter(built: Path) -> None:
    index = lxml.html.fromstring((built / "de" / "index.html").read_text(encoding="utf-8"))
    assert index.findtext(".//title") == "Kacheln und Würfel"
    chapter = lxml.html.fromstring((built / "de" / "core" / "index.html").read_text(encoding="utf-8"))
    assert chapter.findtext(".//title") == "Grundbegriffe - Kacheln und Würfel"


def test_the_configured_title_wins_over_the_front_matter() -> None:
    book = read_book([DIALECT / "de.md"], ROOT, language="de").book
    assert translation_title(german(), book) == "Kacheln und Würfel"
    configured = Translation("de", DIALECT / "de.md", title="Kacheln & Würfel")
    assert translation_title(configured, book) == "Kacheln & Würfel"
    plain = read_book(
        [ROOT / "rulebook_src" / "fr" / "rulebook.md"], ROOT, language="fr", source_format="plain-markdown"
    )
    assert translation_title(Translation("fr", ROOT / "rulebook_src" / "fr" / "rulebook.md"), plain.book) is None


def test_a_configured_title_names_the_translations_site(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, CONFIG + 'title = "Kacheln & Würfel: die Regeln"\n')
    monkeypatch.chdir(project)
    assert main(["build", "-q", "--no-pdf"]) == 0, capsys.readouterr().err
    index = lxml.html.fromstring((project / "site" / "de" / "index.html").read_text(encoding="utf-8"))
    assert index.findtext(".//title") == "Kacheln & Würfel: die Regeln"
    (project / "rulebook.toml").write_text(CONFIG + "title = 3\n", encoding="utf-8")
    assert main(["build", "-q", "--no-pdf"]) == 2
    assert "title" in capsys.readouterr().err


def test_terms_suggest_proposes_what_the_translation_marks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Marked terms come as marked (no statistics); a term the terms.toml lists is not proposed again; a term the
    translation never marks is still guessed from the aligned sentences."""
    project = _project(tmp_path)
    (project / "terms.toml").write_text('[warband]\npreferred = "Kriegerbande"\n', encoding="utf-8")
    monkeypatch.chdir(project)
    capsys.readouterr()
    assert main(["terms", "suggest", "book.md", "de.md", "--language", "de", "--terms", "terms.toml"]) == 0
    proposed = capsys.readouterr().out
    assert '[fighter]\npreferred = "Kämpfer"  # as the translation marks it\naccepted = ["Kämpfers"]\n' in proposed
    assert '[tile]\npreferred = "Kachel"  # as the translation marks it\naccepted = ["Kacheln"]\n' in proposed
    assert "[warband]" not in proposed
    assert "[line_of_sight]\npreferred = " in proposed and "score" in proposed.split("[line_of_sight]")[1]


def test_compare_takes_the_language_of_the_only_configured_translation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No --language: the configuration's (here German), never French by default; no finding reads the dialect's
    markup as words (``.row-headers`` is no word split at a line end)."""
    monkeypatch.chdir(_project(tmp_path))
    capsys.readouterr()
    assert main(["compare", "book.md", "de.md", "--format", "json"]) == 1  # a section and sentences not translated
    report = json.loads(capsys.readouterr().out)
    assert {d["code"] for d in report["diagnostics"]} == {"RB601", "RB603"}  # no RB632 at `.row-headers`


def test_compare_without_a_language_names_the_configured_ones(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    project = _project(tmp_path, CONFIG + '\n[translations.fr]\nsource = "fr/fr.md"\n')
    (project / "fr").mkdir()
    shutil.copy(DIALECT / "fr.md", project / "fr" / "fr.md")
    shutil.copy(DIALECT / "de.md", project / "other.md")
    monkeypatch.chdir(project)
    capsys.readouterr()
    assert main(["compare", "book.md", "de.md", "--format", "json"]) == 1  # the file configured as German
    capsys.readouterr()
    assert main(["compare", "book.md", "other.md"]) == 2
    assert capsys.readouterr().err == (
        "rulebook: error: name the translation's language with --language (the project's translations: de, fr)\n"
    )


def test_the_dialects_markup_is_no_words_of_the_translation() -> None:
    from rulebook.readers.markdown_syntax import blank_dialect
    from rulebook.translate.debris import find_debris

    text = (
        '{title="Profil" kind=profile id=profile .row-headers}\n'
        "| Zi | [[aim\\|Zielen]] | [Wie gut er schießt.]{dfn=aim} |\n"
        "## 1.3 Messen {#measuring width=wide}\n"
        "::: note Wiederholungs-würfe\n"
        "Siehe [Messen](#measuring).<br>\n"
    )
    blanked = blank_dialect(text)
    assert len(blanked) == len(text)
    shown = ["|", "Zi", "|", "Zielen", "|", "[Wie", "gut", "er", "schießt.]", "|", "##", "1.3", "Messen"]
    assert blanked.split() == [*shown, "Siehe", "[Messen]", "."]
    assert find_debris(text, language="de", dialect=True) == []
    assert [d.message for d in find_debris(text, language="de")][:1] == [
        "`row-headers` is a word split at a line end (`headers` is no word of the translation)"
    ]


def test_a_compound_of_a_translation_written_in_the_dialect_is_no_word_split_by_a_pdf() -> None:
    """A hyphen at a PDF's line end splits a word; a translation written by hand in the dialect has none: its
    `six-sided` was said to be "a word split at a line end", help "write `sixsided`"."""
    from rulebook.translate.debris import find_debris

    text = "## 1 Dice {#dice}\n\nRoll a six-sided die.\n"
    assert find_debris(text, language="en", dialect=True) == []
    assert [d.message for d in find_debris(text, language="en")] == [
        "`six-sided` is a word split at a line end (`sided` is no word of the translation)"
    ]


def test_beides_is_both() -> None:
    """ "Both of the above" and „Beides zusammen“ state the same count (German's « beides » was no number word)."""
    from rulebook.languages.quantities import numbers

    assert numbers("Both of the above.", "en") == numbers("Beides zusammen.", "de") == {"2": 1}


def _lint_json(capsys: pytest.CaptureFixture[str], *files: str) -> tuple[int, list[tuple[str, str, int, int, str]]]:
    capsys.readouterr()
    status = main(["lint", *files, "--format", "json"])
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    return status, [(d["file"], d["code"], d["line"], d["column"], d["message"]) for d in found]


def test_lint_checks_a_translation_written_in_the_dialect(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`rulebook lint` checks the German too, located in its own file: a link to a section it lacks, a term no book
    defines, a table of an unknown kind. A term only the original defines (Line of Sight) is no finding, nor is what
    the original's own lint reports of the same name (its values of turns, its two terms defined through each other).
    """
    project = _project(tmp_path)
    monkeypatch.chdir(project)
    status, clean = _lint_json(capsys)
    assert status == 0 and [f for f in clean if f[0] == "de.md"] == []
    german = (project / "de.md").read_text(encoding="utf-8")
    german = german.replace(
        "Eine [[tile|Kachel]] ist ein Feld des Bretts.",
        "Eine [[tile|Kachel]] ist ein Feld des Bretts. Die [[line_of_sight|Sichtlinie]] und die [[sightline|Sicht]]: "
        "siehe [Sichtlinie](#line_of_sight_rules).",
    ).replace('{title="Abweichung" id=scatter .row-headers}', '{title="Abweichung" id=scatter kind=bogus}')
    (project / "de.md").write_text(german, encoding="utf-8")
    expected = [
        ("de.md", "RB101", 21, 88, "reference to undefined term `sightline`"),
        ("de.md", "RB102", 21, 115, "link to unknown id `line_of_sight_rules`"),
        ("de.md", "RB502", 29, 1, "`bogus` is not a kind of table the compiler knows"),  # at its attribute line
    ]
    status, found = _lint_json(capsys)
    assert status == 1
    assert [f for f in found if f[0] == "de.md"] == expected
    assert [f for f in found if f[0] != "de.md"] == [f for f in clean if f[0] != "de.md"]  # the original's, as before
    assert _lint_json(capsys, "de.md") == (1, expected)  # named alone: checked as the translation it is


def test_lint_checks_the_book_once_for_itself_and_its_translation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The translation's lint reads what the book's own lint found (its terms, its findings): the book is not
    linted again for it, and the findings are those of a translation linted alone."""
    from rulebook.recipe import commands

    linted: list[str] = []
    lint_book = commands.lint_book

    def counted(read: ReadResult, book: BookConfig, **options: Any) -> LintResult:
        linted.append(book.name)
        return lint_book(read, book, **options)

    monkeypatch.chdir(_project(tmp_path))
    monkeypatch.setattr(commands, "lint_book", counted)
    status, together = _lint_json(capsys)
    assert status == 0 and linted == ["main", "main"]  # the book, then its translation: two lints, not three
    linted.clear()
    assert _lint_json(capsys, "de.md") == (0, [f for f in together if f[0] == "de.md"])
    assert linted == ["main", "main"]  # named alone: the book's lint made for it


def test_compare_names_the_terms_file_entries_that_name_no_term(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A terms.toml entry for a name the original neither defines nor uses renders nothing: compare says which,
    with the nearest term (it was passed over in silence); entries that name terms are not named."""
    monkeypatch.chdir(_project(tmp_path))
    Path("terms.toml").write_text(
        '[tiel]\npreferred = "Kachel"\n\n[zzz]\npreferred = "Nichts"\n\n[fighter]\npreferred = "Kämpfer"\n',
        encoding="utf-8",
    )
    capsys.readouterr()
    main(["compare", "book.md", "de.md", "--format", "json"])
    notes = json.loads(capsys.readouterr().out)["summary"]["notes"]
    assert notes[-1] == (
        "terms.toml: 2 entries name no term of the original, so they render nothing: "
        "`tiel` (did you mean `tile`?), `zzz`"
    )
    Path("terms.toml").write_text('[tile]\npreferred = "Kachel"\n', encoding="utf-8")
    main(["compare", "book.md", "de.md", "--format", "json"])
    assert "no term of the original" not in capsys.readouterr().out


def test_lint_leaves_a_translation_converted_from_a_pdf_to_compare(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A plain-markdown translation (the French seed's format) is not the lint's: its links and words are the PDF's."""
    project = _project(tmp_path, CONFIG.replace('source = "de.md"', 'source = "de.md"\nformat = "plain-markdown"'))
    (project / "de.md").write_text("# 1 Grundbegriffe\n\nSiehe [Messen](#measuring).\n", encoding="utf-8")
    monkeypatch.chdir(project)
    status, found = _lint_json(capsys)
    assert status == 0 and {f[0] for f in found} == {"book.md"}


def test_a_books_baseline_is_written_beside_its_checked_translation(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(_project(tmp_path))
    assert main(["lint", "--write-baseline", "known.json"]) == 0, capsys.readouterr().err
    written = json.loads(Path("known.json").read_text(encoding="utf-8"))
    assert {entry["source"] for entry in written["entries"]} == {"book.md"}


def test_compare_outside_a_translated_project_reads_the_language_from_the_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """No translation configured: the language the translation's text reads as (German here), or, for a text too
    short to tell, a plain message."""
    project = _project(tmp_path, 'title = "Tiles and Dice"\nsources = ["book.md"]\n')
    monkeypatch.chdir(project)
    capsys.readouterr()
    assert main(["compare", "book.md", "de.md", "--format", "json"]) == 1
    assert {d["code"] for d in json.loads(capsys.readouterr().out)["diagnostics"]} == {"RB601", "RB603"}
    (project / "short.md").write_text("<!-- rulebook -->\n\n# 1 Grundbegriffe\n\nKacheln.\n", encoding="utf-8")
    assert main(["compare", "book.md", "short.md"]) == 2
    assert capsys.readouterr().err == (
        "rulebook: error: name the translation's language with --language (the shipped: de, en, es, fr, it, pl)\n"
    )


def test_a_term_another_books_translation_marks_is_named_by_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The French army book names a core term as the core's French marks it, with no terms.toml entry for it."""
    from .test_family import FAMILY

    project = tmp_path / "family"
    shutil.copytree(FAMILY, project)
    core = project / "core" / "fr"
    terms = (core / "terms.toml").read_text(encoding="utf-8")
    (core / "terms.toml").write_text(terms.replace('[courage_test]\npreferred = "test de courage"\n', ""), "utf-8")
    text = (core / "core.md").read_text(encoding="utf-8")
    (core / "core.md").write_text(text.replace("Un test de courage", "Un [[courage_test|test de courage]]"), "utf-8")
    monkeypatch.chdir(project)
    assert main(["build", "-q", "--no-pdf"]) == 0, capsys.readouterr().err
    page = lxml.html.fromstring((project / "site" / "elves" / "fr" / "unites-de-l-armee" / "index.html").read_bytes())
    links = {a.text_content(): a.get("href") for a in page.cssselect("article a.rb-term")}
    assert links["test de courage"] == "../../../fr/glossary/#courage_test"


def test_build_tells_a_translations_own_lint_errors_and_strict_publishes_nothing_for_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The build says a translation's lint errors as it says the book's (`rulebook lint` fails for them); under
    `--strict` it publishes nothing for them, the last good site kept."""
    project = _project(tmp_path)
    monkeypatch.chdir(project)
    assert main(["build", "--no-pdf"]) == 0
    assert "The lint found" not in capsys.readouterr().err
    german = (project / "de.md").read_text(encoding="utf-8")
    german = german.replace("Eine [[tile|Kachel]] ist", "Eine [[sightline|Sicht]] und [[tile|Kachel]] ist")
    (project / "de.md").write_text(german, encoding="utf-8")
    assert main(["build", "--no-pdf"]) == 0
    told = "The lint found 1 new error in the de translation (de.md) (run `rulebook lint`)."
    assert told in capsys.readouterr().err
    before = {path: path.read_bytes() for path in (project / "site").rglob("*") if path.is_file()}
    (project / "de.md").write_text(german.replace("Eine [[sightline", "Eine neue [[sightline"), encoding="utf-8")
    assert main(["build", "--no-pdf", "--strict"]) == 1
    err = capsys.readouterr().err
    assert told in err and "nothing was built into" in err
    assert {path: path.read_bytes() for path in (project / "site").rglob("*") if path.is_file()} == before


@pytest.mark.parametrize("broken", ["binary", "folder"])
def test_lint_fails_on_a_translation_converted_from_a_pdf_that_no_build_can_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], broken: str
) -> None:
    """The lint left a `plain-markdown` translation to `compare` unread: bytes that are no text passed it (exit 0),
    and the build after it stopped at them (the twentieth probe). It is read, and what stops a build stops it."""
    project = _project(tmp_path, CONFIG + 'format = "plain-markdown"\n')
    monkeypatch.chdir(project)
    (project / "de.md").unlink()
    if broken == "binary":
        (project / "de.md").write_bytes(b"\xd4\xff\x00binary")
    else:
        (project / "de.md").mkdir()
    capsys.readouterr()
    assert main(["lint"]) == 2
    assert "--> de.md:" in capsys.readouterr().out
    assert main(["build", "-q", "--no-pdf"]) == 2


def test_a_translation_too_large_to_publish_stops_the_build_as_the_books_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translated chapter past the sections a page may hold is the lint's RB306 and was published anyway (20,000
    sections: 69 s, 2.9 GB; the twenty-second probe): the build stops at it, the last good site kept."""
    from rulebook.site import page_table

    project = _project(tmp_path)
    monkeypatch.chdir(project)
    monkeypatch.setattr(page_table, "MOST_PAGE_SECTIONS", 2)
    from rulebook.lint.rules import too_large

    monkeypatch.setattr(too_large, "MOST_PAGE_SECTIONS", 2)
    extra = "".join(f"\n## Teil {n} {{#teil_{n}}}\n\nText.\n" for n in range(3))
    (project / "de.md").write_text(
        (project / "de.md").read_text(encoding="utf-8") + "\n# Mehr {#mehr}\n" + extra, encoding="utf-8"
    )
    capsys.readouterr()
    assert main(["build", "-q", "--no-pdf"]) == 2
    err = capsys.readouterr().err
    assert "RB306" in err and "de.md" in err and "nothing was built" in err


def test_a_mark_of_a_sentences_words_is_no_rendering_of_a_term(tmp_path: Path) -> None:
    """`[[fighter|la la … chose]]` of 391 KB made `status` take 22 s: a mark's words were a rendering looked for at
    every use of its first word. A mark of more than the words a phrase has renders no term."""
    from rulebook.translate.terminology import LONGEST_PHRASE

    long = " ".join(["la"] * (LONGEST_PHRASE + 1))
    (tmp_path / "de.md").write_text(
        f"---\ntitle: T\n---\n\n# Spiel {{#play}}\n\nEin [[fighter|Kämpfer]] und [[fighter|{long}]].\n",
        encoding="utf-8",
    )
    book = read_book([tmp_path / "de.md"], tmp_path, language="de").book
    assert marked_terms(book) == {"fighter": Entry("fighter", "Kämpfer")}
