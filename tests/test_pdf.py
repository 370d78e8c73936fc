"""The print edition: each book and translation as a PDF, read back as a reader's tools read it (pypdf).

Everything of the model is in the PDF's text, in order; every link leads to a named destination on the
page that shows its target; the bookmarks are the section tree; the index's pages are the pages each term is
used and defined on; the PDF is tagged, titled, in its language, with its fonts; the French one is French;
the same sources give the same bytes.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pypdf
import pytest

from rulebook.cli import main
from rulebook.graph import TermGraph
from rulebook.model import Book, Section
from rulebook.pdf.edition import section_numbers
from rulebook.project import load_project
from rulebook.recipe.reading import configured_format, read_book, read_configured
from rulebook.site.lost import without_lost_sentences

from .conftest import ROOT
from .pdf_reading import (
    body_text,
    destinations,
    index_entries,
    links,
    missing_runs,
    model_runs,
    outline_tree,
    page_texts,
    reader,
    squeezed,
)

MAIN = "fantasy-battles-the-9th-age.pdf"
FRENCH = "fr/fantasy-battles-the-9th-age-fr.pdf"
OTHER = "other-game/another-game-tiles-hits-injuries-and-defence.pdf"
TITLE = "Fantasy Battles: The 9th Age"


def build_pdfs(output: Path, *options: str, cwd: Path = ROOT) -> int:
    """``rulebook build --pdf-only`` from a project folder."""
    here = Path.cwd()
    os.chdir(cwd)
    try:
        return main(["build", "-q", "--pdf-only", "--output", str(output), *options])
    finally:
        os.chdir(here)


@pytest.fixture(scope="session")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled project's PDFs (``build --pdf-only``), made once per test session."""
    output = tmp_path_factory.mktemp("printed") / "site"
    assert build_pdfs(output) == 0
    return output


def read_source(path: str, language: str = "en") -> Book:
    """A source as the build reads it: a configured book's with its configuration (a Markdown book's terms)."""
    project = load_project(ROOT)
    configured = project.book_of(ROOT / path)
    if configured is not None:
        return read_configured(project, configured).book
    source_format = configured_format(project, ROOT / path)  # a translation's (the French: plain Markdown)
    return read_book([ROOT / path], ROOT, language=language, source_format=source_format).book


def chapters(book: Book) -> list[Section]:
    return [chapter for document in book.documents for chapter in document.body]


# -- everything of the model, in order ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("pdf", "source", "runs"),
    [(MAIN, "rulebook_src/en/rulebook.xml", 300), (OTHER, "rulebook_src/other-game/rules.md", 40)],
)
def test_every_heading_paragraph_and_cell_of_the_model_is_in_the_pdf_in_order(
    printed: Path, pdf: str, source: str, runs: int
) -> None:
    """A Markdown book (the other game) as an XML one: nothing lost, in the model's order."""
    book = read_source(source)
    document = reader(printed / pdf)
    expected = [run for chapter in chapters(book) for run in model_runs((chapter,))]
    assert len(expected) >= runs
    assert missing_runs(expected, body_text(document, str(document.metadata.title))) == []


def test_the_pdf_holds_no_markup_debris(printed: Path) -> None:
    """No Typst code, label or Python ``None`` in the text: only what the sources say holds these characters."""
    sources = {
        MAIN: ("rulebook_src/en/rulebook.xml", "en"),
        FRENCH: ("rulebook_src/fr/rulebook.md", "fr"),
        OTHER: ("rulebook_src/other-game/rules.md", "en"),
    }
    for pdf, (source, language) in sources.items():
        said = "".join(model_runs(tuple(chapters(read_source(source, language)))))
        text = "\n".join(page_texts(reader(printed / pdf)))
        for debris in ("None", "\\", "$", "[", "]", "{", "}", "term-", "sec-", "use-", "anchor", "\ufffd", "*", "_"):
            assert debris in said or debris not in text, (pdf, debris)
        assert "not published yet" not in text and "dangling" not in text, pdf  # the readers' view: no lint marks
        assert re.search(r"#[^\s]", text) is None, pdf  # Typst code (#t(...)); the glossary's "#" group stands alone


# -- links, destinations, bookmarks --------------------------------------------------------------------------


BOOKS = [(MAIN, "rulebook_src/en/rulebook.xml"), (OTHER, "rulebook_src/other-game/rules.md")]
"""An XML book and a Markdown one: each PDF is checked alike."""


@pytest.mark.parametrize(("pdf", "source"), BOOKS)
def test_every_link_leads_to_a_named_destination_on_the_page_of_its_target(
    printed: Path, pdf: str, source: str
) -> None:
    assert check_links(reader(printed / pdf), read_source(source)) > 20


def check_links(document: pypdf.PdfReader, book: Book) -> int:
    """Every link of the PDF goes to a named destination, on the page that shows its target: a definition's first
    words, a section's title, a figure's caption. The number of links."""
    terms = TermGraph(book)
    named = destinations(document)
    texts = [squeezed(text) for text in page_texts(document)]
    found = links(document)
    for page, dest in found:
        assert isinstance(dest, str) and dest in named, (page, dest)
        kind, _, name = dest.partition("-")
        shown = texts[named[dest]]
        if kind == "term":
            definition = terms.definition(name)
            assert definition is not None
            assert squeezed(definition.plain_text())[:12] in shown, dest
        elif kind == "sec":
            section = terms.section(name)
            assert section is not None and squeezed(section.title) in shown, dest
        elif kind == "fig":
            assert squeezed(next(f.caption_title or "" for f in book.figures if f.id == name)) in shown, dest
        else:
            assert dest in ("rulebook-glossary", "rulebook-index"), dest
    assert {dest for _, dest in found} >= {f"fig-{figure.id}" for figure in book.figures if terms.links_to(figure.id)}
    return len(found)


def test_a_link_to_a_section_says_its_number_and_page(printed: Path) -> None:
    document = reader(printed / MAIN)
    named = destinations(document)
    text = " ".join(" ".join(page_texts(document)).split())
    numbers = section_numbers(chapters(read_source("rulebook_src/en/rulebook.xml")))
    # "see <link to="figure_1">figure 1</link>": the text says "see", the place does not again; a section's link
    # "(see 6.4, p. 15)"
    assert f"see figure 1 (p. {named['fig-figure_1'] + 1})" in text
    said = re.findall(r"\(see (\d+(?:\.\d+)*), p\. (\d+)\)", text)
    assert said, "no cross-reference to a section"
    by_number = {number: f"sec-{section_id}" for section_id, number in numbers.items()}
    for number, page in said:
        assert named[by_number[number]] + 1 == int(page), number


@pytest.mark.parametrize(("pdf", "source"), BOOKS)
def test_the_bookmarks_are_the_section_tree(printed: Path, pdf: str, source: str) -> None:
    check_bookmarks(reader(printed / pdf), read_source(source))


def check_bookmarks(document: pypdf.PdfReader, book: Book) -> None:
    """The PDF's bookmarks are the book's chapters, sections and subsections, numbered, then the back matter."""
    book_chapters = chapters(book)
    numbers = section_numbers(book_chapters)

    def tree(section: Section) -> tuple[str, list[object]]:
        inner = [tree(node) for node in section.children if isinstance(node, Section)]
        return (f"{numbers[section.id]} {section.title}", inner)

    back = [("Glossary", []), ("Index", [])] if TermGraph(book).defined_terms() else []
    assert outline_tree(document) == [tree(chapter) for chapter in book_chapters] + back


@pytest.mark.parametrize(("pdf", "source"), BOOKS)
def test_the_index_gives_the_pages_each_term_is_defined_and_used_on(printed: Path, pdf: str, source: str) -> None:
    check_index(reader(printed / pdf), read_source(source))


def check_index(document: pypdf.PdfReader, book: Book) -> None:
    """Each term of the index gives the pages of the links to its definition before the glossary, and the page of
    the definition."""
    named = destinations(document)
    used: dict[str, set[int]] = {}
    for page, dest in links(document):
        if isinstance(dest, str) and dest.startswith("term-") and page < named["rulebook-glossary"]:
            used.setdefault(dest, set()).add(page + 1)
    entries = index_entries(document, named["rulebook-index"])
    terms = TermGraph(book)
    assert len(entries) == len(terms.defined_terms())
    for name, pages in entries.items():
        term = next(t for t in terms.defined_terms() if squeezed(_display(t, terms)) == squeezed(name))
        defined = named[f"term-{term}"] + 1
        assert pages == sorted(used.get(f"term-{term}", set()) | {defined}), name


def _display(term: str, terms: TermGraph) -> str:
    from rulebook.data.terms import term_summary

    return term_summary(term, terms)["name"]


def test_the_glossary_lists_every_term_with_its_definition_and_the_pages_using_it(printed: Path) -> None:
    document = reader(printed / MAIN)
    named = destinations(document)
    glossary = squeezed(" ".join(page_texts(document)[named["rulebook-glossary"] : named["rulebook-index"]]))
    terms = TermGraph(read_source("rulebook_src/en/rulebook.xml"))
    for term in terms.defined_terms():
        entry = squeezed(_display(term, terms) + ". " + terms.definitions_of(term)[0].plain_text())
        assert entry[:60] in glossary, term
    line_of_sight = {page + 1 for page, dest in links(document) if dest == "term-line_of_sight"}
    pages = sorted(p for p in line_of_sight if p < named["rulebook-glossary"] + 1)
    assert squeezed(f"Used: p. {', '.join(map(str, pages))}") in glossary


# -- a standard PDF --------------------------------------------------------------------------------------------


def test_the_pdf_is_tagged_titled_in_its_language_and_holds_its_fonts(printed: Path) -> None:
    document = reader(printed / MAIN)
    assert document.metadata.title == TITLE
    assert document.metadata.subject.startswith("The rules of Fantasy Battles")
    root = document.trailer["/Root"]
    assert root["/Lang"] == "en"
    assert root["/MarkInfo"]["/Marked"] == True  # noqa: E712 (a PDF boolean)
    assert "/StructTreeRoot" in root
    assert document.xmp_metadata is not None
    assert "<pdfuaid:part>1</pdfuaid:part>" in document.xmp_metadata.stream.get_data().decode()  # PDF/UA-1
    fonts = []
    for page in document.pages:
        for font in (page["/Resources"].get("/Font") or {}).values():
            font = font.get_object()
            descendant = font["/DescendantFonts"][0].get_object() if "/DescendantFonts" in font else font
            fonts.append(descendant["/FontDescriptor"].get_object())
    assert fonts and all({"/FontFile", "/FontFile2", "/FontFile3"} & set(f) for f in fonts)


def test_the_french_pdf_is_french(printed: Path) -> None:
    document = reader(printed / FRENCH)
    assert document.trailer["/Root"]["/Lang"] == "fr"
    assert document.metadata.title == "Batailles Fantastiques Le 9e Âge"
    bookmarks = [title for title, _ in outline_tree(document)]
    assert bookmarks[:2] == ["1 Introduction", "2 Figurines, unités et formations"]
    assert bookmarks[-3:] == ["Deployment Phase (pas encore traduit)", "Glossaire", "Index"]
    text = "\n".join(page_texts(document))
    assert "Table des matières" in text and "Glossary" not in text
    assert "Qu'est-ce que BF\u00a0: Le 9e Âge\u202f?" in text  # French typography
    assert "«\u202fpouce technique" in text
    assert "Ce chapitre n'est pas encore traduit." in text  # the untranslated chapter, marked as on the site
    assert "Arc de vision (Arc)." in text  # the glossary: French names, the original's in brackets
    assert "Employé\u00a0: p." in text
    named = destinations(document)  # a term whose first use is not marked links to the start of its section
    assert links(document) and all(isinstance(dest, str) and dest in named for _, dest in links(document))
    french = read_source("rulebook_src/fr/rulebook.md", "fr")
    numbered = [chapter for chapter in chapters(french) if chapter.number]
    shown = without_lost_sentences(tuple(numbered))  # as readers get it: no sentence pointing at a lost "??"
    runs = [run for chapter in shown for run in model_runs((chapter,))]
    assert missing_runs(runs, body_text(document, "Batailles Fantastiques Le 9e Âge")) == []


@pytest.mark.slow
def test_the_same_sources_give_the_same_pdf(printed: Path, tmp_path: Path) -> None:
    """Built again by another process (none of Typst's memory of the first), in another scratch folder."""
    argv = [sys.executable, "-m", "rulebook", "build", "-q", "--pdf-only", "-o", str(tmp_path / "again")]
    subprocess.run(argv, cwd=ROOT, check=True, capture_output=True)
    for pdf in (MAIN, FRENCH, OTHER):
        assert (tmp_path / "again" / pdf).read_bytes() == (printed / pdf).read_bytes(), pdf


def test_the_pdf_is_dated_by_source_date_epoch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1700000000")
    assert build_pdfs(tmp_path / "dated", "--book", "other-game") == 0
    document = reader(tmp_path / "dated" / OTHER)
    assert document.metadata["/CreationDate"].startswith("D:20231114221320")


# -- the site, the command line, a project's own look ---------------------------------------------------------------


def test_the_site_links_to_the_pdf_of_each_book_and_language(site: Path) -> None:
    for home, pdf, words in (
        ("index.html", MAIN, "Download the PDF"),
        ("fr/index.html", FRENCH, "Télécharger le PDF"),
        ("other-game/index.html", OTHER, "Download the PDF"),
    ):
        html = (site / home).read_text(encoding="utf-8")
        link = re.search(r'<p class="rb-pdf"><a href="([^"]+)">([^<]+)</a>', html)
        assert link is not None, home
        assert link.group(2) == words
        assert (site / home).parent.joinpath(link.group(1)).resolve() == (site / pdf).resolve()
        assert (site / pdf).read_bytes().startswith(b"%PDF-")


def test_no_pdf_builds_none_and_links_none(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    assert main(["build", "-q", "--no-pdf", "--book", "other-game", "-o", str(tmp_path / "site")]) == 0
    assert list((tmp_path / "site").rglob("*.pdf")) == []
    assert 'class="rb-pdf"' not in (tmp_path / "site" / "other-game" / "index.html").read_text(encoding="utf-8")


def project(folder: Path, config: str = "", template: str | None = None) -> Path:
    """A small project: one XML book, its configuration (plus ``config``) and maybe its own template."""
    (folder / "rules").mkdir(parents=True)
    (folder / "rules" / "book.xml").write_text(
        '<document><chapter title="Moving"><section title="Marching">'
        '<definition name="march">To <reference name="march">march</reference> is to walk.</definition>'
        '<note title="Mind">Keep a <reference name="march">march</reference> short.</note>'
        "</section></chapter></document>",
        encoding="utf-8",
    )
    (folder / "rulebook.toml").write_text(
        f'title = "Marches"\nsources = ["rules/book.xml"]\n{config}', encoding="utf-8"
    )
    if template is not None:
        (folder / "site_templates").mkdir()
        (folder / "site_templates" / "print.typ").write_text(template, encoding="utf-8")
    return folder


def test_the_configuration_sets_the_paper_and_can_turn_the_pdf_off(tmp_path: Path) -> None:
    folder = project(tmp_path / "letter", '[pdf]\npaper = "letter"\n')
    assert build_pdfs(folder / "site", cwd=folder) == 0
    box = reader(folder / "site" / "marches.pdf").pages[0].mediabox
    assert (round(float(box.width)), round(float(box.height))) == (612, 792)
    off = project(tmp_path / "off", "[pdf]\nbuild = false\n")
    here = Path.cwd()
    os.chdir(off)
    try:
        assert main(["build", "-q"]) == 0
    finally:
        os.chdir(here)
    assert list((off / "site").rglob("*.pdf")) == []


SYSTEM_FONT = Path("/usr/share/fonts/truetype/dejavu/DejaVuSerif.ttf")
"""A font file to copy into a project (Debian's fonts-dejavu, which Chromium brings)."""


def test_a_project_font_is_used_and_an_unknown_one_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not SYSTEM_FONT.is_file():
        pytest.skip(f"no font file to copy ({SYSTEM_FONT})")
    folder = project(tmp_path / "font", '[pdf]\nfont = "DejaVu Serif"\n', template=None)
    (folder / "site_templates" / "fonts").mkdir(parents=True)
    (folder / "site_templates" / "fonts" / SYSTEM_FONT.name).write_bytes(SYSTEM_FONT.read_bytes())
    assert build_pdfs(folder / "site", cwd=folder) == 0
    fonts = {
        str(font.get_object()["/BaseFont"])
        for page in reader(folder / "site" / "marches.pdf").pages
        for font in page["/Resources"]["/Font"].values()
    }
    assert any("DejaVuSerif" in font for font in fonts), fonts
    capsys.readouterr()
    unknown = project(tmp_path / "unknown", '[pdf]\nfont = "Nope Sans"\n')
    assert build_pdfs(unknown / "site", cwd=unknown) == 0  # set in the template's font instead
    assert "rulebook: typst: marches.pdf: unknown font family: nope sans" in capsys.readouterr().err


def test_the_lint_refuses_a_font_neither_typst_nor_the_project_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`font = "Nope Sans"` passed the lint, and the build set the PDF in another font with Typst's warning (a
    probe's note): the lint names the fonts there are; Typst's own and the project's pass, in any case."""
    unknown = project(tmp_path / "unknown", '[pdf]\nfont = "Nope Sans"\n')
    monkeypatch.chdir(unknown)
    capsys.readouterr()
    assert main(["lint"]) == 2
    assert capsys.readouterr().err == (
        "rulebook: error: rulebook.toml: `font` in [pdf] names `Nope Sans`, which neither Typst nor "
        "site_templates/fonts/ holds, so the PDF would be set in another (the fonts: DejaVu Sans Mono, Libertinus "
        "Serif, New Computer Modern, New Computer Modern Math)\n"
    )
    (unknown / "rulebook.toml").write_text(
        (unknown / "rulebook.toml").read_text(encoding="utf-8").replace("Nope Sans", "libertinus serif"), "utf-8"
    )
    assert main(["lint"]) != 2 and "font" not in capsys.readouterr().err
    if SYSTEM_FONT.is_file():
        (unknown / "rulebook.toml").write_text(
            (unknown / "rulebook.toml").read_text(encoding="utf-8").replace("libertinus serif", "DejaVu Serif"), "utf-8"
        )
        (unknown / "site_templates" / "fonts").mkdir(parents=True)
        (unknown / "site_templates" / "fonts" / SYSTEM_FONT.name).write_bytes(SYSTEM_FONT.read_bytes())
        assert main(["lint"]) != 2 and "font" not in capsys.readouterr().err


def test_the_hostile_text_project_prints_every_text_as_text(tmp_path: Path) -> None:
    """Every text a page shows is hostile there (Markdown, HTML, controls, an attribute list): each of its five
    PDFs prints them as text, and the title in the PDF's metadata is the configured one, controls shown."""
    from .hostile.hostile_text import MARKUP, make_project

    folder = make_project(tmp_path / "hostile")
    assert build_pdfs(folder / "site", cwd=folder) == 0
    pdfs = sorted((folder / "site").rglob("*.pdf"))
    assert len(pdfs) == 5  # the book, its French translation, the plain Markdown book, the dialect's, the later edition
    for pdf in pdfs:
        document = reader(pdf)
        assert squeezed(MARKUP) in squeezed(" ".join(page_texts(document))), pdf.name
        assert "\x1b" not in str(document.metadata.title) and "\u202e" not in str(document.metadata.title)
    (book,) = (folder / "site").glob("*.pdf")  # the main book's, at the site's root
    main_title = str(reader(book).metadata.title)
    assert main_title.startswith(f"Game {MARKUP} \ufffd[31m\ufffd\ufffd")


def test_a_bad_pdf_setting_is_a_plain_error(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = project(tmp_path / "bad", '[pdf]\npaper = "a5"\n')
    assert build_pdfs(folder / "site", cwd=folder) == 2
    assert "`paper` in [pdf] must be one of a4, letter, not `a5`" in capsys.readouterr().err


def test_a_project_template_extends_the_shipped_one(tmp_path: Path) -> None:
    template = (
        '#import "rulebook/print.typ": *\n'
        "#let note(title, body) = block(stroke: 1pt, inset: 6pt)[NOTE: #title. #body]\n"
    )
    folder = project(tmp_path / "own", template=template)
    assert build_pdfs(folder / "site", cwd=folder) == 0
    text = " ".join(" ".join(page_texts(reader(folder / "site" / "marches.pdf"))).split())
    assert "NOTE: Mind. Keep a march short." in text


def test_a_template_typst_refuses_is_a_plain_error_at_its_place(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Typst's place of the fault, in the project's template, is told (it said only which PDF failed: the twentieth
    probe); a template lacking what the edition calls is told how to start one."""
    folder = project(tmp_path / "broken", template='#import "rulebook/print.typ": *\n#let note(title, body) = oops\n')
    assert build_pdfs(folder / "site", cwd=folder) == 2
    err = capsys.readouterr().err
    assert (
        "rulebook: error: site_templates/print.typ:2:26: Typst could not read the template: unknown variable: oops"
        in err
    )
    assert "Traceback" not in err
    assert not (folder / "site" / "marches.pdf").exists()
    (folder / "site_templates" / "print.typ").write_text("#let x = (1 +\n", encoding="utf-8")
    assert build_pdfs(folder / "site", cwd=folder) == 2
    assert (
        "site_templates/print.typ:1:10: Typst could not read the template: unclosed delimiter"
        in capsys.readouterr().err
    )
    (folder / "site_templates" / "print.typ").write_text("", encoding="utf-8")
    assert build_pdfs(folder / "site", cwd=folder) == 2
    assert (
        "Typst could not make the PDF of `marches.pdf`: unknown variable: book (site_templates/print.typ lacks what "
        'the edition calls: start it with `#import "rulebook/print.typ": *`)'
    ) in capsys.readouterr().err


def test_pictures_are_printed_with_their_caption_as_alt_text_and_a_picture_typst_cannot_read_is_a_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The hostile pictures project: what the site publishes is printed (PNG, WebP, the SVG rebuilt), what it
    refuses is not; a picture whose first bytes say its type but which is cut short (its JPEG, its GIF) is not
    printable: its place says so, with a warning, and the PDF is made."""
    from .hostile.pictures import make_project

    folder = make_project(tmp_path / "pictures")
    assert build_pdfs(folder / "site", cwd=folder) == 0
    err = capsys.readouterr().err
    for name in ("photo.jpg", "Photo.JPEG", "anim.gif"):
        assert f"rulebook: typst: images/{name}: Typst cannot read this picture (failed to decode image" in err
    document = reader(folder / "site" / "pictures.pdf")
    drawn = [
        name
        for page in document.pages
        for name, thing in (page["/Resources"].get("/XObject") or {}).items()
        if thing.get_object().get("/Subtype") == "/Image"
    ]
    assert len(drawn) >= 2  # the PNG and the WebP (the SVG is drawn as paths)
    text = " ".join(" ".join(page_texts(document)).split())
    assert text.count("Picture not available") == 10  # 6 the site refuses, the AVIF, 3 Typst cannot read
    tags = document.trailer["/Root"]["/StructTreeRoot"]
    assert "front.png" in str(_alt_texts(tags))


def _alt_texts(node: object) -> list[str]:
    """Every /Alt of a tagged PDF's structure tree."""
    found = []
    node = node.get_object() if hasattr(node, "get_object") else node
    if isinstance(node, dict):
        if "/Alt" in node:
            found.append(str(node["/Alt"]))
        kids = node.get("/K")
        for kid in kids if isinstance(kids, list) else [kids] if kids is not None else []:
            found += _alt_texts(kid)
    return found


def test_a_character_no_font_has_gives_a_tagged_pdf_and_says_why_it_is_not_pdf_ua(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = project(tmp_path / "kanji")
    book = folder / "rules" / "book.xml"
    book.write_text(book.read_text(encoding="utf-8").replace("is to walk", "is to walk (歩く)"), encoding="utf-8")
    assert build_pdfs(folder / "site", cwd=folder) == 0
    err = capsys.readouterr().err
    assert "rulebook: typst: marches.pdf: not PDF/UA-1 (it is tagged still): PDF/UA-1 error:" in err
    document = reader(folder / "site" / "marches.pdf")
    assert document.trailer["/Root"]["/MarkInfo"]["/Marked"] == True  # noqa: E712 (a PDF boolean)


def test_without_typst_the_build_names_the_package(tmp_path: Path) -> None:
    folder = project(tmp_path / "bare")
    script = "import sys; sys.modules['typst'] = None; from rulebook.cli import run; run()"
    done = subprocess.run(
        [sys.executable, "-c", script, "build", "-q", "--pdf-only"], cwd=folder, capture_output=True, text=True
    )
    assert done.returncode == 2
    assert "the print edition needs Typst, which is not installed: pip install typst" in done.stderr
    assert "--no-pdf" in done.stderr


def test_a_book_from_rulebook_init_prints(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(["init", "game", "--title", "My Game"]) == 0
    monkeypatch.chdir(tmp_path / "game")
    assert main(["build", "-q"]) == 0
    pdf = tmp_path / "game" / "site" / "my-game.pdf"
    document = reader(pdf)
    book = read_book(sorted((tmp_path / "game" / "rules").glob("*.xml")), tmp_path / "game").book
    runs = [run for chapter in chapters(book) for run in model_runs((chapter,))]
    assert missing_runs(runs, body_text(document, "My Game")) == []
    assert check_links(document, book) > 0
    check_bookmarks(document, book)
    check_index(document, book)
    assert 'href="my-game.pdf"' in (tmp_path / "game" / "site" / "index.html").read_text(encoding="utf-8")


def test_the_typst_adapter_works_with_the_installed_typst() -> None:
    """The template is written for Typst 0.15 (pyproject pins it): the installed package compiles it offline,
    with the fonts inside the wheel."""
    import typst

    fonts = typst.Fonts(include_system_fonts=False).families()
    assert {"Libertinus Serif", "DejaVu Sans Mono"} <= set(fonts)
    assert pypdf.__version__
