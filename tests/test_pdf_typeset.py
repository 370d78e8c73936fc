"""The print edition's pure stage: the edition decided from the model, written as Typst source, every text escaped.

A hostile text (Typst code, markup, quotes, backslashes, controls) in any place the PDF shows is printed as
those characters: Typst never reads a source's text as code. Compiled here only where the PDF's text is what
is checked (a small book, well under a second).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rulebook.graph import TermGraph
from rulebook.model import MAX_DEPTH, Book
from rulebook.pdf.edition import Chapter, Edition, book_edition, pdf_name, section_numbers
from rulebook.pdf.escaping import typography, typst_key, typst_string
from rulebook.pdf.typeset import typeset
from rulebook.pdf.typst_run import TEMPLATE, compile_pdf
from rulebook.site.theme import Theme

from .conftest import parse
from .pdf_reading import page_texts, reader, squeezed

WORDS = Theme().strings("en")
TYPST = '#read("rulebook.toml") #panic("boom") ] [ $x^2$ <lbl> @lbl = Heading // line /* block */ \\ "q" `raw` *b* _e_ ~ --- ...'
"""Typst's code, markup and shorthands: each would do something if the text were read as Typst."""
CONTROLS = "\x1b[31m\x07\u202e"
"""What a configuration value can hold (TOML escapes any control character)."""
SOURCE_CONTROLS = "\u0085\u202e\u2066\u200f\u061c"
"""What an XML source can hold (XML 1.0 allows the C1 and bidirectional controls)."""


def edition_of(xml: str, **given: object) -> Edition:
    book = Book((parse(xml),))
    return book_edition(book, TermGraph(book), title=str(given.pop("title", "Book")), words=WORDS, **given)  # type: ignore[arg-type]


def printed_text(edition: Edition, folder: Path) -> str:
    """The PDF's text, each page's lines joined by spaces (no-break spaces kept)."""
    result = compile_pdf(typeset(edition), folder / "typst", template=TEMPLATE.read_text(encoding="utf-8"))
    (folder / "book.pdf").write_bytes(result.data)
    return re.sub(r"[ \n]+", " ", " ".join(page_texts(reader(folder / "book.pdf"))))


def test_a_string_literal_escapes_what_typst_reads_in_a_string() -> None:
    assert typst_string('a "b" \\ c') == '"a \\"b\\" \\\\ c"'
    assert typst_string("two\n\n  lines\tand\u2028more") == '"two lines and more"'
    assert typst_string(CONTROLS) == '"\ufffd[31m\ufffd\ufffd"'  # no font inside Typst has the site's ␛
    assert typst_key('sec-a"b\\\x1b') == '"sec-a\\"b\\\\\\u{1b}"'


@pytest.mark.parametrize(
    ("written", "set"),
    [
        ("Qu'est-ce que BF : Le 9e Âge?", "Qu'est-ce que BF\u00a0: Le 9e Âge\u202f?"),
        ("« pouce » et «pied»", "«\u202fpouce\u202f» et «\u202fpied\u202f»"),
        ("Vraiment?! Oui; non!", "Vraiment\u202f?! Oui\u202f; non\u202f!"),
        (
            "http://www.the-ninth-age.com/index.php?board/117 à 10:30",
            "http://www.the-ninth-age.com/index.php?board/117 à 10:30",
        ),
    ],
)
def test_french_typography(written: str, set: str) -> None:
    assert typography("fr").apply(written) == set
    assert typography("en").apply(written) == written


def test_sections_are_numbered_as_the_source_numbers_them_else_by_place() -> None:
    xml = '<document><chapter title="A"><section title="B"><subsection title="C"/></section><section title="D"/></chapter><chapter title="E"/></document>'
    chapters = list(parse(xml).body)
    assert section_numbers(chapters) == {"a": "1", "b": "1.1", "c": "1.1.1", "d": "1.2", "e": "2"}
    numbered = [chapter._replace(number="7") for chapter in chapters[:1]]
    assert section_numbers(numbered) == {"a": "7"}


def test_the_file_is_named_after_the_title() -> None:
    assert pdf_name("Fantasy Battles: The 9th Age") == "fantasy-battles-the-9th-age.pdf"
    assert pdf_name("Fantasy Battles: The 9th Age", "fr") == "fantasy-battles-the-9th-age-fr.pdf"
    assert pdf_name("«»") == "rulebook.pdf"
    assert len(pdf_name("word " * 40)) <= 64
    assert pdf_name("CON") == "con-rulebook.pdf"  # `con.pdf` could not be checked out on Windows (the 19th probe)
    assert pdf_name("nul", "fr") == "nul-rulebook-fr.pdf"


def test_terms_are_set_as_the_site_sets_them() -> None:
    """In its definition, a term's first use on a chapter is its defining words, later ones text; elsewhere a use
    links to the definition; a term the book does not define is text."""
    xml = (
        '<document><chapter title="One"><definition name="march">To <reference name="march">march</reference> '
        'is to <reference name="march">march</reference> on.</definition></chapter>'
        '<chapter title="Two">A <reference name="march">march</reference> and a <reference name="nowhere">walk</reference>, '
        '<reference name="march" type="example">marching</reference>.</chapter></document>'
    )
    source = typeset(edition_of(xml))
    one, two = source.split("#section(1, ")[1:]
    assert '#anchor("term-march")' in one
    assert one.count("#dfn(") == 1 and '#dfn("march")#" is to march on."' in one
    assert '#t("march", "march")' in two and '#t("march", "marching", example: true)' in two
    assert '#" and a walk, "' in two  # no link: the book does not define it


def test_a_link_to_a_section_says_its_number_and_page(tmp_path: Path) -> None:
    xml = (
        '<document><chapter title="Rules"><section id="moving" title="Moving">Walk.</section>'
        '<section title="Charging">As in <link to="moving">moving</link>, run.</section></chapter></document>'
    )
    assert "As in moving (see 1.1, p.\u00a03), run." in printed_text(edition_of(xml), tmp_path)


def test_a_link_after_see_says_see_once(tmp_path: Path) -> None:
    xml = (
        '<document><chapter title="Rules"><section id="moving" title="Moving">Walk.'
        '<figure id="cover"><illustration/><caption title="Cover">Walls.</caption></figure></section>'
        '<section title="Charging">Run (see <link to="moving">Moving</link>). See <link to="cover">the cover '
        'figure</link>. As in <link to="moving">moving</link>.</section></chapter></document>'
    )
    text = printed_text(edition_of(xml), tmp_path)
    assert (
        "Run (see Moving (1.1, p.\u00a03)). See the cover figure (p.\u00a03). As in moving (see 1.1, p.\u00a03)."
        in text
    )


def test_a_roll_tables_die_is_named_as_its_header_writes_it() -> None:
    xml = (
        '<document><chapter title="Sturm"><section title="Wetter">'
        '<table roll="D6" title="Aschesturm"><headers><header>W6</header><header>Sturm</header></headers>'
        "<row><cell>1-3</cell><cell>Still</cell></row><row><cell>4-6</cell><cell>Wind</cell></row></table>"
        '<table roll="D6" title="Roll"><headers><header>Result</header><header>What</header></headers>'
        "<row><cell>1-3</cell><cell>Still</cell></row><row><cell>4-6</cell><cell>Wind</cell></row></table>"
        "</section></chapter></document>"
    )
    source = typeset(edition_of(xml))
    assert '#rb-table(title: "Aschesturm", die: "W6",' in source
    assert '#rb-table(title: "Roll", die: "D6",' in source  # a header that is no die: the declared roll


@pytest.mark.parametrize("payload", [TYPST, SOURCE_CONTROLS + TYPST])
def test_hostile_texts_are_printed_as_text_never_run(tmp_path: Path, payload: str) -> None:
    def xml(text: str) -> str:
        return text.replace("&", "&amp;").replace("<", "&lt;").replace('"', "&quot;")

    book = (
        f'<document><chapter title="Chapter {xml(payload)}"><section id="s" title="Section {xml(payload)}">'
        f'<definition name="march">To <reference name="march">march {xml(payload)}</reference> is text {xml(payload)}.</definition>'
        f'<table title="Table {xml(payload)}" roll="D6 {xml(payload)}"><row><header>1-6</header><cell>Cell {xml(payload)}</cell></row></table>'
        f'<note title="Note {xml(payload)}">Noted {xml(payload)}.</note>'
        f'<list><item title="Item {xml(payload)}">Listed {xml(payload)}</item></list>'
        f'<figure id="f"><image source="none.png"/><caption title="Figure {xml(payload)}">Caption {xml(payload)}</caption></figure>'
        f"<sequence><item>Step {xml(payload)}</item></sequence>"
        f"</section></chapter></document>"
    )
    (tmp_path / "rulebook.toml").write_text("secret = 'must never be read'", encoding="utf-8")
    configured = payload.replace(SOURCE_CONTROLS, CONTROLS)
    edition = edition_of(
        book, title=f"Title {configured}", edition=f"Edition {configured}", copyright=f"© {configured}"
    )
    printed = printed_text(edition, tmp_path)
    text = _plain(printed)
    places = ("Chapter", "Section", "Table", "Note", "Item", "Figure", "Cell", "Caption", "Step", "Noted", "Listed")
    for place in places:
        assert _plain(f"{place} {payload}") in text, place
    for place in ("Title", "Edition", "©"):
        assert _plain(f"{place} {configured}") in text, place
    assert _plain(f"march {payload} is text {payload}.") in text
    if SOURCE_CONTROLS in payload:
        assert printed.count("\ufffd") >= 2 * 14  # the controls shown, in every place
    assert "mustneverberead" not in text and "boom" in text
    assert not re.search("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]", text)


def _plain(text: str) -> str:
    """Text squeezed, without its controls (each shown as U+FFFD: what an XML attribute keeps of them varies)."""
    return squeezed(re.sub("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ufffd]", "", text))


def test_a_translation_notice_names_the_sections_it_lacks(tmp_path: Path) -> None:
    xml = (
        '<document><chapter title="Règles"><section id="marche" title="Marche">Marcher.</section></chapter></document>'
    )
    book = Book((parse(xml),))
    edition = Edition(
        title="Livre",
        language="fr",
        chapters=tuple(Chapter(c) for c in book.documents[0].body),
        numbers={},
        linked=frozenset(),
        words=Theme().strings("fr"),
        notices={"marche": ("Charging", "Fleeing")},
    )
    text = printed_text(edition, tmp_path)
    assert "Pas encore traduit (lire l'original)\u00a0: Charging, Fleeing" in text


@pytest.mark.parametrize("kind", ["note", "important", "list", "table", "definition", "section"])
def test_content_nested_as_deep_as_the_model_allows_is_printed_whole(tmp_path: Path, kind: str) -> None:
    """Typst lays out nesting only so deep: notes, lists and tables deeper than print nests them are set flat,
    and every text of the hundred levels is in the PDF."""
    from .hostile.test_reader import nested

    xml = nested(kind, MAX_DEPTH)
    text = printed_text(edition_of(xml), tmp_path)
    body = text[: text.rindex("Glossary")] if "Glossary" in text else text  # a definition's text is there again
    assert len(re.findall(r"\bx\b", body)) == xml.count(">x")
