"""Rulebooks without markup: terms from headings, defined in their sections, linked in the text."""

from __future__ import annotations

import re
from collections import Counter

from rulebook.autolink import Term, heading_terms, link_document, term_id
from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Definition, Document
from rulebook.recipe.reading import read_book

from .conftest import ROOT, SHARED

OTHER_GAME = ROOT / "rulebook_src" / "other-game" / "rules.md"

BOOK = """# Rules

## Defense Rolls
A Defense Roll ignores an injury.

## Cover
Cover helps. Take a defense roll or use cover.

- A unit in cover takes Defense Rolls with a bonus.

## Defense
Defense is a value; the Defense Roll uses it.
"""


def linked(text: str) -> Document:
    document = parse_markdown_string(text, "book.md", language="en").document
    assert document is not None
    return link_document(document, heading_terms(document))


def test_unnumbered_markdown_takes_levels_from_hashes() -> None:
    document = parse_markdown_string(BOOK, "book.md", language="en").document
    assert document is not None
    assert [(s.title, s.level) for s in document.sections] == [
        ("Rules", 1),
        ("Defense Rolls", 2),
        ("Cover", 2),
        ("Defense", 2),
    ]


def test_term_ids_are_singular_identifiers() -> None:
    assert term_id("Defense Rolls") == "defense_roll"
    assert term_id("Casting, Magic, and Ranged Attacks") == "casting_magic_and_ranged_attack"


def test_headings_define_terms_and_the_text_links_to_them() -> None:
    document = linked(BOOK)
    assert [d.name for d in document.definitions] == ["defense_roll", "cover", "defense"]
    refs = [(r.name, r.text, r.section_id) for r in document.references]
    # Longest match first: "Defense Roll" is one term, not "Defense" + "Roll"; case and plural tolerant.
    assert ("defense_roll", "defense roll", "cover") in refs
    assert ("defense_roll", "Defense Rolls", "cover") in refs  # inside a list item
    assert ("defense_roll", "Defense Roll", "defense") in refs
    assert ("defense", "Defense", "defense") in refs
    assert not any(
        r.text.lower().startswith("defense") and r.name == "defense" and "roll" in r.text.lower()
        for r in document.references
    )


def test_never_inside_headings_and_places_are_exact() -> None:
    document = linked(BOOK)
    lines = BOOK.split("\n")
    for reference in document.references:
        line = lines[reference.span.line - 1]
        assert not line.startswith("#")
        start = reference.span.column - 1
        assert line[start : start + len(reference.text)] == reference.text


def test_a_definition_found_from_a_heading_starts_where_its_paragraph_does() -> None:
    """Its place (the lint's caret, rules.json's defined_at) is the paragraph's first word, never the end of
    its text; a term first used there (defined in place) comes after it, in document order."""
    book = "# Rules\n\n## Cover\n\nCover is a wall. Behind it an injury is less likely.\n"
    document = parse_markdown_string(book, "book.md", language="en").document
    assert document is not None
    document = link_document(document, [*heading_terms(document), Term("injury", "Injury")])
    places = [(d.name, d.span.line, d.span.column) for d in document.definitions]
    assert places == [("cover", 5, 1), ("injury", 5, 31)]


def test_a_paragraph_whose_text_is_not_found_in_the_source_places_its_references_on_its_own_line() -> None:
    """The text read lost the source's `**`: its references stand on its line (they stood at the end of the text
    before it, lines above), and the items' on theirs."""
    book = "# Rules\n\n## Fighter\n\nA fighter fights.\n\n" + "".join(f"**B{i}** a fighter.\n\n" for i in range(3))
    document = linked(book + "- **I** a fighter\n- **J** a fighter\n")
    assert [r.span.line for r in document.references] == [5, 7, 9, 11, 13, 14]


def test_the_other_games_rules(tmp_path) -> None:  # type: ignore[no-untyped-def]
    seed = SHARED / "seeds" / "002_88f0abb2bda2166c.txt"
    if seed.exists():
        # The only edits are declarations: seven mechanics and a value, HTML comments at the ends of lines,
        # and the turn structure and the setup steps, on lines of their own before their lists.
        text = OTHER_GAME.read_text(encoding="utf-8")
        assert text.count("<!-- rulebook: mechanic ") == 7 and text.count("<!-- rulebook: value ") == 1
        declarations = re.findall(r"^<!-- rulebook: sequence [^>]*-->\n", text, flags=re.MULTILINE)
        assert len(declarations) == 2
        text = re.sub(r"^<!-- rulebook: sequence [^>]*-->\n", "", text, flags=re.MULTILINE)
        assert re.sub(r" <!-- rulebook: (?:mechanic|value) [^>]*-->", "", text) == seed.read_text(encoding="utf-8")
    book = read_book([OTHER_GAME], ROOT, source_format="plain-markdown").book
    names = Counter(r.name for r in book.references)
    assert names["defense_roll"] == 6 and names["melee"] == 8 and names["terrain"] == 10
    assert {d.name for d in book.definitions} >= {"defense_roll", "melee", "courage", "terrain", "action"}
    melee = next(d for d in book.definitions if d.name == "melee")
    assert isinstance(melee, Definition) and melee.plain_text().startswith("Melee is similar to Casting")


def test_the_lint_reads_the_other_game() -> None:
    from rulebook.project import load_project
    from rulebook.recipe.stages import lint_book

    book = load_project(ROOT).book("other-game")
    result = lint_book(
        read_book([OTHER_GAME], ROOT, linking=book.linking, source_format="plain-markdown"), book, root=ROOT
    )
    rules = Counter(d.rule for d in result.diagnostics)
    assert rules["dangling-reference"] == 0  # every heading term is defined
    assert set(rules) <= {"unused-definition"}


SAID = """# Rules

## Charge

Units charge. Charges happen.

## Move & Charge

You may Move  &  Charge.

## Rank-and-File

Rank-and-File models.

## (Optional) Rule

An (optional) rule.

## Boxes

Boxes and BOXES.

## Hit

-hit and hit- and x-hit and hits-like do not count.

## Unsaid Heading

Nothing here.

## Σίσυφος

ΣΊΣΥΦΟΣ.

## Maße

Die MASSE zählt nicht.

## Not Said Twice

Not said twice the same way: not-said twice.

### Not Said Twice
"""


def test_a_heading_is_a_term_when_the_text_says_it_outside_the_heading() -> None:
    """Case aside, white space as any run of it, maybe a plural ending, never touching a letter or a hyphen; the
    same title in another heading is said there."""
    terms = heading_terms(parse_markdown_string(SAID, "rules.md").document)
    assert [t.id for t in terms] == [
        "charge", "move_charge", "rank_and_file", "optional_rule", "box", "section", "not_said_twice"
    ]  # fmt: skip


def test_a_heading_is_a_term_only_where_the_text_says_it_whatever_ends_the_lines() -> None:
    """A heading's own title is not a use of it: with lines ending in ``\\r`` alone, its line's end was searched for
    as ``\\n``, none was found, and every heading became a term (`term p is defined but never referred to`)."""
    for line_end in ("\n", "\r\n", "\r"):
        text = line_end.join(["# C", "", "## P", "", "A line.", "", "## Q", "", "Q is said.", ""])
        document = parse_markdown_string(text, language="en").document
        assert document is not None
        assert heading_terms(document) == [Term("q", "Q")], repr(line_end)
