"""What a term's card says: the sentence that defines it, never the name alone, and a table's first row."""

from __future__ import annotations

from rulebook.graph import TermGraph
from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Book
from rulebook.project import Linking
from rulebook.readers.linking import find_terms
from rulebook.site.previews import definition_preview, preview_text

from .conftest import parse

WORDS = {"more_row": "and {count} more row", "more_rows": "and {count} more rows"}


def card(xml: str, name: str) -> dict[str, object]:
    terms = TermGraph(Book((parse(xml),)))
    definition = terms.definition(name)
    assert definition is not None
    return definition_preview(definition, terms.section(definition.section_id), name.title(), WORDS)


def test_the_card_starts_at_the_sentence_with_the_defining_words() -> None:
    xml = (
        '<document><chapter title="Models"><definition name="multipart"><definition name="part">'
        'Models with more than one profile are called <reference name="multipart">Multipart Models</reference>. '
        "For example, a cavalry model has two parts. Each part can be referred to as a "
        '"<reference name="part">model part</reference>".</definition></definition></chapter></document>'
    )
    assert card(xml, "part")["text"] == 'Each part can be referred to as a "model part".'
    assert card(xml, "multipart")["text"].startswith("Models with more than one profile are called Multipart Models.")


def test_a_definition_that_is_only_its_words_shows_the_sentence_around_it() -> None:
    markdown = (
        "# Combat\n\n## Attacks\n\nRoll one die per attack. Each *Hit* is followed by injury rolls to see what harms.\n"
    )
    result = find_terms(parse_markdown_string(markdown, "rules.md", language="en"), Linking(terms=("Injury",)))
    assert result.document is not None
    terms = TermGraph(Book((result.document,)))
    definition = terms.definition("injury")
    assert definition is not None and definition.children == ("injury",)
    shown = definition_preview(definition, terms.section(definition.section_id), "Injury", WORDS)
    assert shown["text"] == "Each Hit is followed by injury rolls to see what harms."  # emphasis is no text


def test_a_definition_in_a_table_cell_or_a_caption_shows_its_own_words() -> None:
    """Not the section's first paragraph, nor the cell of an earlier reference to the term (a profile's name
    column, then its meaning: the starter book's shape)."""
    xml = (
        '<document><chapter title="Fighters">A fighter is one miniature.<table><row><cell>Gu</cell>'
        '<cell><reference name="guard">Guard</reference></cell><cell><definition name="guard">How well the fighter '
        'blocks.</definition></cell></row></table><figure id="f"><image source="a.png"/><caption>The '
        '<definition name="edge">edge</definition> of the table ends the game.</caption></figure></chapter></document>'
    )
    assert card(xml, "guard")["text"] == "How well the fighter blocks."
    assert card(xml, "edge")["text"] == "The edge of the table ends the game."


def test_a_table_definition_shows_its_first_row_and_how_many_more() -> None:
    xml = (
        '<document><chapter title="Profiles"><definition name="profile">A <reference name="profile">profile</reference>'
        " has these values:<table><row><header>M</header><cell>Movement</cell></row>"
        "<row><header>S</header><cell>Strength</cell></row><row><header>T</header><cell>Toughness</cell></row>"
        "</table></definition></chapter></document>"
    )
    shown = card(xml, "profile")
    assert shown["text"] == "A profile has these values:"
    assert shown["table"] == {"head": [], "rows": [["M", "Movement"]], "more": "and 2 more rows"}


def test_a_long_sentence_is_cut_at_a_word_and_a_lower_case_start_is_capitalised() -> None:
    xml = '<document><chapter title="A"><section title="B">'
    xml += 'Lastly, <definition name="reroll">some effects call for <reference name="reroll">rerolls</reference>'
    xml += " of " + "many dice " * 60 + ".</definition></section></chapter></document>"
    text = card(xml, "reroll")["text"]
    assert text.startswith("Some effects call for rerolls") and text.endswith(" …") and len(text) <= 322
    assert preview_text((), "x") == ""


def test_the_card_links_the_other_terms_it_uses_where_they_stand() -> None:
    xml = (
        '<document><chapter title="Units"><section title="Units">Intro.\n <definition name="unit">A  <reference name="unit">'
        'unit</reference> is a group of\n <reference name="model">models</reference> in <reference name="rank">ranks'
        '</reference>. “It moves as one.” Then <reference name="model">a model</reference> leaves.</definition>'
        "</section></chapter></document>"
    )
    shown = card(xml, "unit")
    text = str(shown["text"])
    assert text == "A unit is a group of models in ranks. “It moves as one.” Then a model leaves."
    links = shown["links"]
    assert isinstance(links, list)
    assert [(text[a:b], term) for a, b, term in links] == [("models", "model"), ("ranks", "rank"), ("a model", "model")]


def _section_of_terms(count: int, filler: int) -> tuple[TermGraph, list[str]]:
    """A section of ``filler`` list items, ``count`` of them defining a term by its words alone, with a note, a
    table whose cell defines one more, and a figure's caption around them."""
    items = []
    for n in range(filler):
        defined = f'<definition name="t{n}">Term {n}</definition> is told here. ' if n % (filler // count) == 0 else ""
        items.append(f'<item>{defined}Item {n} uses <reference name="t0">the first</reference>.</item>')
    xml = (
        '<document><chapter id="c" title="C"><section id="s" title="S">Opening words. '
        f'<list>{"".join(items)}</list><note>A note on <reference name="t1">it</reference>.</note>'
        '<table><row><header>1</header><cell>A <definition name="celled">celled term</definition> here.</cell></row>'
        "<row><header>2</header><cell>Other cell.</cell></row></table>"
        "</section></chapter></document>"
    )
    terms = TermGraph(Book((parse(xml),)))
    return terms, list(terms.all_definitions())


def test_a_sections_terms_share_one_walk_and_show_what_each_walk_showed() -> None:
    """Each term defined by its words alone walked its whole section and folded every paragraph of it: 1,000 terms in
    a section of 1.5 MB took 78 s. One walk a section now, one paragraph folded a term, the same cards."""
    from rulebook.site import previews

    terms, names = _section_of_terms(count=40, filler=400)
    section = terms.section("s")
    assert section is not None and len(names) == 41
    folded = 0
    fold = previews._fold

    def counted(parts):  # type: ignore[no-untyped-def]
        nonlocal folded
        folded += 1
        return fold(parts)

    previews._LAST_WALKED.clear()
    cards = {}
    try:
        previews._fold = counted
        for name in names:
            definition = terms.definition(name)
            assert definition is not None
            cards[name] = definition_preview(definition, section, name, WORDS)["text"]
    finally:
        previews._fold = fold
    assert folded == len(names)  # one paragraph folded a term (400 items: 16,400 folds before)
    for name in names:  # as the walk for each term alone shows it
        assert cards[name] == previews.preview(section.children, name, at_definition=True)[0], name
    assert cards["t40"].startswith("Term 40 is told here.") and cards["celled"] == "A celled term here."


def test_a_cards_table_is_bounded_in_columns_and_characters() -> None:
    """A card is written into every page using its term: a header cell of 250,000 characters, the term used on 1,999
    pages, made a site of 1.1 GB. A card shows at most 12 columns, each cell at most 1,000 characters."""
    from rulebook.site.previews import CARD_CELL, CARD_COLUMNS

    cells = "".join(f"<cell>{'H' * 5_000 if n == 0 else n}</cell>" for n in range(20))
    xml = (
        '<document><chapter title="Big"><definition name="big">A <reference name="big">big</reference> table.'
        f"<table><row>{cells}</row><row>{cells}</row></table></definition></chapter></document>"
    )
    table = card(xml, "big")["table"]
    assert isinstance(table, dict)
    for row in table["rows"]:
        assert len(row) == CARD_COLUMNS and row[0] == "H" * (CARD_CELL - 1) + "…" and row[1] == "1"


def test_a_page_carries_its_nearest_cards_up_to_a_bound() -> None:
    """Each page carried every card two links deep: one `See [[a]].` on each of 1,999 pages, `a` linking 40 terms
    each linking 40, carried 1,641 cards into every page (a site of 1.4 GB). The used terms' cards come first, then
    the nearer ones, up to the page's bound."""
    import json

    from rulebook.site.pages import PAGE_CARDS_BYTES, page_previews

    def card(text: str, links: list[str]) -> dict[str, object]:
        return {"title": text, "text": text + " " + " ".join(links), "links": [[0, 1, name] for name in links]}

    previews = {"a": card("a", [f"b{n}" for n in range(40)])}
    previews |= {f"b{n}": card(f"b{n}", [f"c{n}x{k}" for k in range(40)]) for n in range(40)}
    previews |= {f"c{n}x{k}": card("w " * 100, []) for n in range(40) for k in range(40)}
    carried = page_previews(previews, ["a"], lambda name: f"#{name}")
    assert "a" in carried and all(f"b{n}" in carried for n in range(40))  # the nearest first
    assert len(json.dumps(carried, ensure_ascii=False)) <= PAGE_CARDS_BYTES + 1_000
    assert len(carried) < len(previews)
    assert list(carried) == sorted(carried)
