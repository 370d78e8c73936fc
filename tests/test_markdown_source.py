"""The Markdown reader: the French translation (converted from a PDF) into the same document model."""

from __future__ import annotations

import pytest

from rulebook.markdown_source import heading_parts, parse_markdown_string
from rulebook.model import Document, ItemList, Link, Section, Table

from .conftest import ROOT, SHARED

FRENCH = ROOT / "rulebook_src" / "fr" / "rulebook.md"


def read(text: str) -> Document:
    result = parse_markdown_string(text, "fr.md", language="fr")
    assert result.document is not None
    return result.document


@pytest.fixture(scope="module")
def french() -> Document:
    return read(FRENCH.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("heading", "number", "title"),
    [
        ("3.2.1 Lancer les dés", "3.2.1", "Lancer les dés"),
        ("**3.1 Jeu au tour par tour**", "3.1", "Jeu au tour par tour"),
        ("Batailles Fantastiques Le 9<sup>e</sup> Âge", None, "Batailles Fantastiques Le 9e Âge"),
        ("· Catégories d'unités", None, "Catégories d'unités"),
        ("- 1 à 3 : Classique", None, "1 à 3 : Classique"),  # a roll's results, not a section number
        ("**Petite**", None, "Petite"),
    ],
)
def test_heading_numbers_and_titles(heading: str, number: str | None, title: str) -> None:
    assert heading_parts(heading) == (number, title)


def test_levels_come_from_the_numbering_not_the_hashes() -> None:
    document = read("## 1 Chapitre\n\n#### 1.1 Section\n\ntexte\n\n# 1.1.1 Sous-section\n\n## 2 Suite\n")
    assert [(s.number, s.level, s.parent_id) for s in document.sections] == [
        ("1", 1, None),
        ("1.1", 2, "s1"),
        ("1.1.1", 3, "s1-1"),
        ("2", 1, None),
    ]


def test_unnumbered_headings_are_sub_headings_of_the_numbered_one() -> None:
    document = read("## 4.2.1 Taille\n\n#### **Petite**\n\na\n\n## Moyenne\n\nb\n\n## 4.3 Suite\n")
    small, medium = (s for s in document.sections if s.number is None)
    assert (small.title, small.level, small.parent_id) == ("Petite", 4, "s4-2-1")
    assert (medium.title, medium.level, medium.parent_id) == ("Moyenne", 4, "s4-2-1")


def test_tab_separated_lines_are_tables_and_keep_their_corner_cell() -> None:
    document = read("## 6.2 Restrictions\n\n\tLimite de points\tLimite de duplication\nBase\tmin. 25 %\tmax. 4\n")
    (table,) = [n for n in document.sections[0].children if isinstance(n, Table)]
    assert table.columns is not None and [c.children for c in table.columns.cells] == [
        (),
        ("Limite de points",),
        ("Limite de duplication",),
    ]
    assert [c.children for c in table.rows[0].cells] == [("Base",), ("min. 25 %",), ("max. 4",)]


def test_lost_cross_references_become_links_with_no_target() -> None:
    document = read("## 7 Séquence\n\nVoir le chapitre ?? (page ??) pour plus.\n")
    assert [(link.to, link.text, link.span.line, link.span.column) for link in document.links] == [
        ("", "??", 3, 18),
        ("", "??", 3, 27),
    ]


def test_the_french_seed_is_kept_untouched() -> None:
    seed = SHARED / "seeds" / "003_8805e1630ea13c82.txt"
    if not seed.exists():
        pytest.skip("../shared is not beside the repository")
    assert FRENCH.read_bytes() == seed.read_bytes()


def test_french_book_structure(french: Document) -> None:
    chapters = [(s.number, s.title) for s in french.body]
    assert chapters[0] == (None, "Batailles Fantastiques Le 9e Âge")  # front matter the English lacks
    assert [n for n, _ in chapters[1:]] == ["1", "2", "3", "4", "5", "6", "7"]
    numbered = {s.number: s for s in french.sections if s.number}
    assert numbered["2.1.1"].level == 3 and numbered["2.1.1"].span.line == 79  # written as ####
    assert numbered["2.1.2"].level == 3 and numbered["2.1.2"].span.line == 85  # written as ##
    assert numbered["3.2.2.1"].level == 4
    assert numbered["7.0.4"].title == "Type de déploiement"  # the pre-game steps are numbered 7.0.x
    bands = [s.title for s in french.sections if s.parent_id == "s7-0-4"]
    assert bands == ["1 à 3 : Classique", "4 à 5 : Diagonal", "6: Contournement"]


def test_french_table_of_contents_is_not_rules(french: Document) -> None:
    toc = next(s for s in french.sections if s.title == "Table des matières")
    assert toc.children == ()


def test_french_tables_and_lost_references(french: Document) -> None:
    categories = next(s for s in french.sections if s.title == "Catégories d'unités")
    (table,) = [n for n in categories.children if isinstance(n, Table)]
    assert table.columns is not None
    assert [c.children for c in table.rows[0].cells] == [("Base",), ("min. 25 %",), ("max. 4",)]
    assert [(link.span.line) for link in french.links if isinstance(link, Link)] == [99, 99, 528, 528]
    assert all(isinstance(s, Section) for s in french.body)


def test_pdf_conversion_debris_becomes_text_and_is_noted() -> None:
    result = parse_markdown_string(
        "# 4 Logistique\n\nUn espace d'au moins  $\\mathbf{1}''$  ; une étoile «  $\\star$  » ; empruntée\\* ; $x \\foo$.\n",
        "fr.md",
        language="fr",
    )
    assert result.document is not None
    text = "".join(n for n in result.document.body[0].children if isinstance(n, str))
    assert "au moins 1″ ;" in " ".join(text.split()) and "« ★ »" in " ".join(text.split())
    assert "empruntée*" in text and "$x \\foo$" in text  # what it does not recognise stays as it is
    found = [(d.rule, d.message) for d in result.diagnostics]
    assert ("converted-text", "`$\\mathbf{1}''$` left by the PDF conversion, read as `1″`") in found
    assert len(found) == 3 and all(d.severity.public == "info" for d in result.diagnostics)


def test_bullets_that_each_hold_a_number_are_a_numbered_list(french: Document) -> None:
    section = next(s for s in french.sections if s.title == "Priorité des modificateurs")
    steps = next(n for n in section.children if isinstance(n, ItemList))
    assert steps.ordered and len(steps.items) == 3
    assert "".join(n for n in steps.items[0].children if isinstance(n, str)).startswith("Caractéristique empruntée*")
    plain = read("# 1 A\n\n- un\n- deux\n")
    assert not next(n for n in plain.body[0].children if isinstance(n, ItemList)).ordered


def test_pipe_tables_are_tables() -> None:
    """A translation without the dialect's markup may still hold GitHub's pipe tables: they are tables, not text."""
    document = read("## 7 Séquence\n\n| D6 | Objectif |\n|---|---|\n| 1-2 | Tenir |\n| 3-6 | Percée |\n")
    (table,) = [n for n in document.sections[0].children if isinstance(n, Table)]
    assert table.columns is not None and [c.children for c in table.columns.cells] == [("D6",), ("Objectif",)]
    assert all(cell.header for cell in table.columns.cells)
    assert [[c.children for c in row.cells] for row in table.rows] == [[("1-2",), ("Tenir",)], [("3-6",), ("Percée",)]]
    assert [row.span.line for row in table.rows] == [5, 6]
