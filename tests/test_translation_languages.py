"""Translation checks in every language: a small book (tests/translation/languages/book.xml) translated into
French, German, Spanish, Italian and Polish (shipped languages) and Dutch (a language the project describes in
its own file, nl/nl.toml: no code knows Dutch), each with mistakes seeded of every kind the checks report.

For each language: the translation as written gives exactly its seeded mistakes, each at its line and with
the original's line as counterpart; with every mistake corrected it gives nothing (the clean passages, which
hold merged and split sentences, are silent); and each mistake alone, in the corrected text, gives exactly its
finding (mutation tests per kind and per language).
"""

from __future__ import annotations

import json
import re
import shutil
import tomllib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.languages.data import Language, check_language_table, load_language, shipped_codes
from rulebook.languages.quantities import conversions
from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Book
from rulebook.recipe.reading import read_book
from rulebook.translate.compare import Comparison, compare_books
from rulebook.translate.segments import sentences
from rulebook.translate.terminology import load_terminology

from .conftest import ROOT

FOLDER = ROOT / "tests" / "translation" / "languages"
LANGUAGES = ("fr", "de", "es", "it", "pl", "nl")
KINDS = (
    "parenthesis-dropped",
    "obligation-differs",
    "length-differs",
    "rounding-differs",
    "roll-differs",
    "list-differs",
    "added-sentence",
    "numbers-differ",
    "term-missing",
    "comparison-differs",
)
"""The kinds every translation seeds at least once: the misses of issue 28, a number changed and a lower bound
dropped."""


@dataclass(frozen=True)
class Mistake:
    """A mistake seeded in a translation: where it is found, and the text that corrects it."""

    kind: str
    line: int
    original: int
    wrong: str
    right: str
    also: tuple[tuple[str, int, int], ...] = ()
    """Other findings the same mistake gives (a step merged into another is a list of fewer steps, and the
    step's own sentence is missing)."""

    @property
    def expected(self) -> list[tuple[str, int, int]]:
        return sorted([(self.kind, self.line, self.original), *self.also])


def mistakes(language: str) -> list[Mistake]:
    table = tomllib.loads((FOLDER / language / "mistakes.toml").read_text(encoding="utf-8"))
    return [
        Mistake(**(entry | {"also": tuple(tuple(found) for found in entry.get("also", []))}))
        for entry in table["mistake"]
    ]


def language_of(code: str) -> Language:
    """The shipped language, or the project's file for one the compiler does not ship (Dutch)."""
    own = FOLDER / code / f"{code}.toml"
    return load_language(code, own if own.exists() else None)


@cache
def original() -> Book:
    return read_book([FOLDER / "book.xml"], ROOT).book


def written(language: str) -> str:
    return (FOLDER / language / "rulebook.md").read_text(encoding="utf-8")


def corrected(language: str, keep: Mistake | None = None) -> str:
    """The translation with every mistake corrected but ``keep``."""
    text = written(language)
    for mistake in mistakes(language):
        if mistake != keep:
            assert text.count(mistake.wrong) == 1, f"{language}: {mistake.wrong!r} is not once in the translation"
            assert mistake.wrong.count("\n") == mistake.right.count("\n"), "a correction keeps the lines"
            text = text.replace(mistake.wrong, mistake.right)
    return text


def compared(language: str, text: str) -> Comparison:
    path = str((FOLDER / language / "rulebook.md").relative_to(ROOT))
    document = parse_markdown_string(text, path, language=language).document
    assert document is not None
    terms = load_terminology(FOLDER / language / "terms.toml")
    return compare_books(original(), Book((document,)), translation_language=language_of(language), terms=terms)


def found(comparison: Comparison) -> list[tuple[str, int, int]]:
    """(kind, line in the translation, line in the original) of each finding."""
    return sorted(
        (f.kind, f.place.line if f.place else 0, f.counterpart.line if f.counterpart else 0)
        for f in comparison.findings
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_each_seeded_mistake_is_found_on_both_sides_and_nothing_else(language: str) -> None:
    assert found(compared(language, written(language))) == sorted(f for m in mistakes(language) for f in m.expected)


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_corrected_translation_is_silent(language: str) -> None:
    assert found(compared(language, corrected(language))) == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_kind_is_seeded(language: str) -> None:
    assert set(KINDS) <= {m.kind for m in mistakes(language)}


@pytest.mark.parametrize(
    ("language", "mistake"),
    [(language, mistake) for language in LANGUAGES for mistake in mistakes(language)],
    ids=lambda value: value if isinstance(value, str) else f"{value.kind}-{value.line}",
)
def test_each_mistake_alone_is_found_alone(language: str, mistake: Mistake) -> None:
    assert found(compared(language, corrected(language, keep=mistake))) == mistake.expected


CONTENTS = {
    "fr": "Sommaire",
    "de": "Inhaltsverzeichnis",
    "es": "Índice",
    "it": "Indice",
    "pl": "Spis treści",
    "nl": "Inhoud",
}
"""A table of contents in each language (its file's ``contents``; Dutch's is the project's)."""


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_table_of_contents_in_the_translations_language_is_neither_an_added_section_nor_debris(
    language: str,
) -> None:
    text = corrected(language)
    headings = [line for line in text.splitlines() if line.startswith("#")][:3]
    listed = "\n".join(f"- {line.lstrip('# ')}" for line in headings) + "\n- Index index"  # a doubled word
    assert found(compared(language, f"# {CONTENTS[language]}\n\n{listed}\n\n" + text)) == []
    elsewhere = found(compared(language, f"# Anhang 7\n\n{listed}\n\n" + text))
    assert elsewhere == [("doubled-word", 6, 0), ("extra-section", 1, 8)]  # the original goes on at its line 8


@pytest.mark.parametrize(
    ("language", "sentence", "left"),
    [
        ("fr", "Un socle de 2 pouces (soit environ 5 cm par 5 cm) au plus.", "Un socle de 2 pouces  au plus."),
        ("de", "Eine Base von 2 Zoll (ca. 5 cm mal 5 cm) höchstens.", "Eine Base von 2 Zoll  höchstens."),
        ("es", "Una peana de 2 pulgadas (aproximadamente 5 cm por 5 cm).", "Una peana de 2 pulgadas ."),
        ("en", "A base of 2 inches (about 5 cm by 5 cm) at most.", "A base of 2 inches  at most."),
    ],
)
def test_a_metric_conversion_is_read_in_its_language(language: str, sentence: str, left: str) -> None:
    assert conversions(load_language(language)).sub("", sentence) == left


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("pl", "Oddział stoi w szeregach. Łucznicy strzelają raz. Ściana blokuje ruch. Żaden model nie ucieka."),
        ("de", "Die Einheit steht. Übrigens zählt das Glied. Ärger gibt es nie."),
        ("es", "La unidad se mueve. ¿Puede disparar? Él decide."),
    ],
)
def test_a_sentence_starting_with_any_capital_of_its_language_is_one_of_its_own(language: str, text: str) -> None:
    read = [s.text for s in sentences((text,), None, 0, language=language)]
    assert read == [s.strip() for s in re.split(r"(?<=[.?]) ", text)]


def test_the_findings_speak_the_translators_words() -> None:
    comparison = compared("fr", written("fr"))
    by_kind = {f.kind: f for f in comparison.findings}
    term = by_kind["term-missing"]
    assert term.message == "`Model` should be « figurine » here; the translation has « unité » (`Unit`)"
    assert term.quotes == (
        "Each model in the first two ranks shoots once.",
        "Chaque unité des deux premiers rangs tire une fois.",
    )
    notes = [note.message for note in term.diagnostic().notes]
    assert notes[0] == "the original: Each model in the first two ranks shoots once."
    assert notes[1] == "the translation: Chaque unité des deux premiers rangs tire une fois."
    assert by_kind["obligation-differs"].help


# -- a language as data: Dutch from the project's file, in every command ----------------------------------


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A project of the test book with its German and Dutch translations (Dutch from the project's file)."""
    shutil.copy(FOLDER / "book.xml", tmp_path / "book.xml")
    for code in ("de", "nl"):
        shutil.copytree(FOLDER / code, tmp_path / code, ignore=shutil.ignore_patterns("mistakes.toml"))
    (tmp_path / "rulebook.toml").write_text(
        'title = "Skirmish"\nsources = ["book.xml"]\n'
        '[translations.de]\nsource = "de/rulebook.md"\nterms = "de/terms.toml"\n'
        '[translations.nl]\nsource = "nl/rulebook.md"\nterms = "nl/terms.toml"\nlanguage_file = "nl/nl.toml"\n',
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_dutch_needs_no_code_only_the_projects_language_file(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    expected = sum(len(m.expected) for m in mistakes("nl"))
    for options in (["--language-file", "nl/nl.toml"], []):  # named, or the one the configuration gives
        assert main(["compare", "book.xml", "nl/rulebook.md", "--language", "nl", *options, "--format", "json"]) == 1
        assert len(json.loads(capsys.readouterr().out)["diagnostics"]) == expected
    other = project / "other.toml"
    other.write_text('sources = ["book.xml"]\n', encoding="utf-8")
    assert main(["compare", "book.xml", "nl/rulebook.md", "--language", "nl", "--config", str(other)]) == 2
    assert "no language `nl` is shipped (the languages: de, en, es, fr, it, pl)" in capsys.readouterr().err


def test_the_language_switcher_names_a_language_by_its_language_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The site's words have no Dutch: the switcher labelled the Dutch site "English", as it did a Latin one whatever
    its file's `native_name` (the forty-seventh probe's note). Its file's own name, else the site's words'."""
    import lxml.html

    assert main(["build", "-q", "--no-pdf"]) == 0, capsys.readouterr().err
    for page in (project / "site" / "index.html", project / "site" / "nl" / "index.html"):
        labels = {
            link.get("hreflang"): link.text_content().strip()
            for link in lxml.html.fromstring(page.read_bytes()).iter("a")
            if "md-select__link" in (link.get("class") or "")
        }
        assert labels == {"en": "English", "de": "Deutsch", "nl": "Nederlands"}, (page, labels)


def test_a_translation_into_a_language_not_shipped_needs_its_file(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    config = project / "rulebook.toml"
    config.write_text(
        config.read_text(encoding="utf-8").replace('language_file = "nl/nl.toml"\n', ""), encoding="utf-8"
    )
    assert main(["lint"]) == 2
    assert "[translations.nl]: no language `nl` is shipped" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('code = "nl"\nname = "Dutch"\n', "nl/nl.toml: a language the compiler does not ship needs `comparisons`, "),
        ("code = 5\n", "nl/nl.toml: `code` must be string"),
        ('code = "nl"\n[numbers]\ncardinals = { twee = "two" }\n', "`numbers.cardinals.twee` must be integer"),
        ('code = "fr"\n', "the file describes `fr`, not `nl`"),
        ("code = [", "nl/nl.toml: not valid TOML: invalid value (at the end of the file)"),
    ],
)
def test_a_faulty_language_file_is_refused_in_plain_words(
    project: Path, capsys: pytest.CaptureFixture[str], text: str, message: str
) -> None:
    """``lint`` says it as ``build`` does (it passed the file unread, so CI's lint missed what stopped the build)."""
    (project / "nl" / "nl.toml").write_text(text, encoding="utf-8")
    said = []
    for command in (["compare", "book.xml", "nl/rulebook.md", "--language", "nl"], ["build", "-o", "out"], ["lint"]):
        assert main(command) == 2, command
        err = capsys.readouterr().err
        assert message in err and "Traceback" not in err
        said.append(next(line for line in err.splitlines() if message in line))
    assert said[1] == said[2]


def test_a_language_file_holding_more_than_a_language_needs_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A contributor's language file of 20,000 phrases made ``compare`` of a book of 210 KB take 232 s instead of
    7 s (each phrase tried where a sentence may hold it, the thirteenth probe): each list and table holds 300 at
    most, a language 2,000 in all (the largest shipped, French, 677); at those bounds, 7.4 s."""
    phrases = ", ".join(f'"zq{i} le"' for i in range(301))
    (project / "nl" / "nl.toml").write_text(f'code = "fr"\n[sentences]\nintroduces = [{phrases}]\n', encoding="utf-8")
    assert main(["compare", "book.xml", "nl/rulebook.md", "--language", "fr", "--language-file", "nl/nl.toml"]) == 2
    assert "nl/nl.toml: `sentences.introduces` must contain less than or equal to 300 items" in capsys.readouterr().err
    lists = "".join(
        f"{name} = [" + ", ".join(f'"z{name}{i} le"' for i in range(300)) + "]\n"
        for name in ("divided_by", "pointers", "not_counts", "one")
    )
    never = "[modality]\nnever = [" + ", ".join(f'"le zv{i}"' for i in range(300)) + "]\n"
    introduces = ", ".join(f'"zq{i} le"' for i in range(300))
    (project / "nl" / "nl.toml").write_text(
        f'code = "fr"\n[sentences]\nintroduces = [{introduces}]\n[numbers]\n{lists}{never}', encoding="utf-8"
    )
    assert main(["compare", "book.xml", "nl/rulebook.md", "--language", "fr", "--language-file", "nl/nl.toml"]) == 2
    err = capsys.readouterr().err
    assert re.fullmatch(
        r"rulebook: error: nl/nl\.toml: the language gives 2,\d{3} words and phrases, more than the 2,000 a language "
        r"may give \(each is tried where a sentence may hold it: the languages shipped give at most 677\)\n",
        err,
    ), err


def test_a_project_file_overrides_words_of_a_shipped_language(project: Path) -> None:
    """A team whose German translation writes « nimmer » for never adds the word, nothing else."""
    text = written("de").replace("Eine Summe von 12 misslingt nie,", "Eine Summe von 12 misslingt nimmer,")
    own = project / "de.toml"
    own.write_text('code = "de"\n[modality]\nnever = ["nie", "niemals", "nimmer"]\n', encoding="utf-8")
    document = parse_markdown_string(text, "de/rulebook.md", language="de").document
    assert document is not None
    terms = load_terminology(FOLDER / "de" / "terms.toml")
    for language, found_it in ((language_of("de"), False), (load_language("de", own, root=project), True)):
        comparison = compare_books(original(), Book((document,)), translation_language=language, terms=terms)
        lines = {f.place.line for f in comparison.findings if f.kind == "obligation-differs" and f.place}
        assert (42 in lines) is found_it


def test_every_shipped_language_follows_the_schema() -> None:
    for code in shipped_codes():
        table = tomllib.loads((ROOT / "compiler" / "languages" / f"{code}.toml").read_text(encoding="utf-8"))
        check_language_table(table, code)
        assert table["code"] == code
    assert set(shipped_codes()) == {"en", "fr", "de", "es", "it", "pl"}


def test_the_translations_sites_speak_their_language(project: Path) -> None:
    """German chrome from the package's words, Dutch from the project's own site_templates/strings.toml."""
    (project / "site_templates").mkdir()
    (project / "site_templates" / "strings.toml").write_text(
        '[nl]\nhome = "Start"\nglossary = "Woordenlijst"\nlanguage_name = "Nederlands"\nrules = "Regels"\n',
        encoding="utf-8",
    )
    assert main(["build", "-q"]) == 0
    german = (project / "site" / "de" / "index.html").read_text(encoding="utf-8")
    dutch = (project / "site" / "nl" / "index.html").read_text(encoding="utf-8")
    assert '<html lang="de"' in german and "Glossar" in german and "Startseite" in german
    assert '<html lang="nl"' in dutch and "Woordenlijst" in dutch


def test_a_terminology_exports_in_its_language(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """In the language named, else that of the translation the configuration gives the file to."""
    for options in (["--language", "de"], []):
        assert main(["terms", "export", "de/terms.toml", *options]) == 0
        tbx = capsys.readouterr().out
        assert "Skirmish: terminology, English-German" in tbx and '<langSec xml:lang="de">' in tbx
    assert main(["terms", "export", "nl/terms.toml", "--format", "csv"]) == 0
    assert capsys.readouterr().out.startswith('"term_id","en","nl","nl_accepted","nl_forbidden"\n')
    shutil.copy(project / "de" / "terms.toml", project / "loose.toml")
    assert main(["terms", "export", "loose.toml"]) == 2
    assert "name the terminology's language with --language (the project's translations: de, nl)" in (
        capsys.readouterr().err
    )


@pytest.mark.slow
@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_a_language_material_has_no_words_for_is_built_with_its_own_language_said(
    project: Path, capsys: pytest.CaptureFixture[str], generator: str
) -> None:
    """A team's language Material does not speak (Kabyle) stopped the build ("'partials/languages/kab.html' not
    found"): its site is built, Material's own buttons in English, each page saying its language."""
    shutil.copytree(project / "nl", project / "kab")
    (project / "kab" / "kab.toml").write_text(
        (project / "nl" / "nl.toml").read_text(encoding="utf-8").replace('code = "nl"', 'code = "kab"'), "utf-8"
    )
    with (project / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('[translations.kab]\nsource = "kab/rulebook.md"\nterms = "kab/terms.toml"\n')
        config.write('language_file = "kab/kab.toml"\n')
    assert main(["build", "-q", "--no-pdf", "--generator", generator]) == 0, capsys.readouterr().err
    for language in ("kab", "nl", "de"):
        page = (project / "site" / language / "index.html").read_text(encoding="utf-8")
        assert f'<html lang="{language}"' in page
    assert 'aria-label="Header"' in (project / "site" / "kab" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_a_book_in_a_language_not_shipped_is_compared_and_built_in_its_own_words(
    project: Path, capsys: pytest.CaptureFixture[str], generator: str
) -> None:
    """A book in Latin (``language = "la"``) with translations passed the lint, and the build stopped with "no
    language `la` is shipped; a language file adds one", which no key of the book could name (the translations were
    compared as if the original were English); its site blamed "a setting of mkdocs.yml" the project does not have
    (the thirty-first probe). The lint and the build say the book's `language_file` is needed; with it the book's
    translations are compared in its words, and its pages (in a language Material has no words for) say their own
    language, the translations' theirs."""
    config = project / "rulebook.toml"
    configured = config.read_text(encoding="utf-8")
    config.write_text('language = "la"\n' + configured, encoding="utf-8")
    refusal = (
        "rulebook.toml: [top level]: the book is in `la`, a language not shipped (the languages: de, en, es, fr, it, "
        "pl), and its translations are compared in it: describe it in a file of the project and name it with "
        "`language_file`"
    )
    for command in (["lint"], ["build", "-q", "--no-pdf", "--generator", generator]):
        assert main(command) == 2
        assert refusal in capsys.readouterr().err
    latin = (ROOT / "compiler" / "languages" / "en.toml").read_text(encoding="utf-8")
    (project / "la.toml").write_text(latin.replace('code = "en"', 'code = "la"'), encoding="utf-8")
    config.write_text('language = "la"\nlanguage_file = "la.toml"\n' + configured, encoding="utf-8")
    assert main(["build", "-q", "--no-pdf", "--generator", generator]) == 0, capsys.readouterr().err
    for folder, language in (("", "la"), ("nl/", "nl"), ("de/", "de")):
        page = (project / "site" / folder / "index.html").read_text(encoding="utf-8")
        assert f'<html lang="{language}"' in page
    assert main(["compare", "book.xml", "nl/rulebook.md", "--language", "nl"]) == 1
    assert "nl/rulebook.md" in capsys.readouterr().out


def test_a_phrase_with_many_gaps_is_refused_before_it_is_tried(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Each gap (`...`) of a phrase takes up to six words, and each way of sharing the words out is tried: a phrase
    of 13 gaps (80 characters) held `build`, `status` and `compare` for ever (the seventeenth probe)."""
    language = project / "nl" / "nl.toml"
    phrase = "mag " + "... x " * 3 + "... z"
    language.write_text(
        language.read_text(encoding="utf-8").replace('never = ["nooit"]', f'never = ["nooit", "{phrase}"]'), "utf-8"
    )
    assert main(["compare", "book.xml", "nl/rulebook.md", "--language", "nl"]) == 2
    assert (
        f"nl/nl.toml: `modality.never` gives the phrase `{phrase}`, with more than 2 gaps (`...`, each up to six "
        "words), the most a phrase may have"
    ) in capsys.readouterr().err


def test_a_step_number_of_thousands_of_digits_is_never_read_whole(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A translation's numbered step kept as text ("1 Phase ...") is compared with its place; one of 5,000 digits
    stopped `build`, `status` and `compare` with an internal error (Python reads at most 4,300 digits)."""
    source = project / "de" / "rulebook.md"
    source.write_text(
        source.read_text(encoding="utf-8") + f"\n1. {'9' * 5000} Bewegungsphase.\n2. Kampfphase.\n", "utf-8"
    )
    assert main(["compare", "book.xml", "de/rulebook.md", "--language", "de"]) in (0, 1)
    assert "internal error" not in capsys.readouterr().err
