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


# -- a book's declarations in HTML comments --------------------------------------------------------

DECLARED = """# Play

## Rounds
A game lasts five rounds. <!-- rulebook: value name="rounds" kind="turns" term="round" number="5" -->

<!-- rulebook: sequence kind="turn" id="round" title="A round" -->
- Move.
- Fight.

## Injuries
<!-- rulebook: list roll="D3" id="injuries" title="Injuries" -->
1. Grazed.
2. Hurt.
3. Out.

<!-- rulebook: table roll="D6" id="weather" title="Weather" -->
1-3\tRain
4-6\tSun

<!-- rulebook: mechanic name="nerve" roll="2D6" pass="at-most" -->
"""


def test_a_markdown_book_declares_values_sequences_and_tables_in_comments() -> None:
    result = parse_markdown_string(DECLARED, "game.md", language="en")
    assert result.document is not None and result.diagnostics == ()
    document = result.document
    [value] = document.values
    assert (value.name, value.text, value.kind, value.term) == ("rounds", "5", "turns", "round")
    declared = {a.node.id: a.node for a in document.annotated}
    turn, injuries, weather = declared["round"], declared["injuries"], declared["weather"]
    assert isinstance(turn, ItemList) and turn.ordered and (turn.kind, turn.title) == ("turn", "A round")
    assert isinstance(injuries, ItemList) and (injuries.roll, injuries.title) == ("D3", "Injuries")
    assert isinstance(weather, Table) and (weather.roll, weather.title, len(weather.rows)) == ("D6", "Weather", 2)
    assert [m.name for m in document.mechanics] == ["nerve"]  # a mechanic on a line of its own
    # The text shows none of it: the value's comment is gone with the space before it.
    rounds = next(s for s in document.sections if s.title == "Rounds")
    assert "A game lasts five rounds." in [n.strip() for n in rounds.children if isinstance(n, str)]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (
            '## Rounds\n<!-- rulebook: sequence kind="turn" id="round" -->\nA round is long.\n',
            "the turn structure `round` has no phases: no list follows its declaration",
        ),
        (
            '## Rounds\n<!-- rulebook: sequence kind="turn" -->\n',
            "the turn structure has no phases: no list follows its declaration",
        ),
        ('## Loot\n<!-- rulebook: table roll="D6" -->\n\n## Next\n', "the `table` declaration is followed by no table"),
        ('## Loot\n<!-- rulebook: table roll="D6" -->\n- A\n- B\n', "the `table` declaration is followed by a list"),
        ('## Loot\n<!-- rulebook: list roll="D2" -->\n1\tA\n2\tB\n', "the `list` declaration is followed by a table"),
    ],
)
def test_a_declaration_with_nothing_to_declare_is_reported_where_it_stands(text: str, message: str) -> None:
    result = parse_markdown_string(text, "game.md", language="en")
    [diagnostic] = result.diagnostics
    assert (diagnostic.rule, diagnostic.message, diagnostic.span.line) == ("invalid-annotation", message, 2)
