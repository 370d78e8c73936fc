"""The quick reference's sentences: the site's words with their slots filled by text and terms."""

from __future__ import annotations

from typing import Any

from rulebook.model import Book
from rulebook.site import reference
from rulebook.site.reference import ReferenceView, sentence

TERM = {"term": "leadership", "name": "Ld", "href": "#term-leadership"}


def test_a_sentence_fills_its_slots_with_text_and_terms() -> None:
    words = {"ref_pass_at_most": "réussi à {target} ou moins"}
    assert sentence(words, "ref_pass_at_most", "pass at or below {target}", target=TERM) == [
        {"text": "réussi à "},
        TERM,
        {"text": " ou moins"},
    ]
    assert sentence({}, "ref_roll", "roll {dice}", dice="2D6") == [{"text": "roll "}, {"text": "2D6"}]


def test_a_brace_that_names_no_slot_stays_text() -> None:
    words = {"ref_roll": "roll {dice} {not a slot} {other}"}
    assert sentence(words, "ref_roll", "", dice="D6") == [
        {"text": "roll "},
        {"text": "D6"},
        {"text": " {not a slot} {other}"},
    ]


def _text(parts: list[dict[str, Any]]) -> str:
    return "".join(str(part.get("text", part.get("name"))) for part in parts)


def test_the_repeated_rolls_of_one_table_are_one_line() -> None:
    """A player reads the rule and its smaller board's variant together, not two lines of the same title."""
    repeats = {
        "extra_small": {"board": "36x48", "section": "building", "table": "terrain", "times": "D3"},
        "extra": {"board": None, "section": "building", "table": "terrain", "times": "2D3"},
        "scatter": {"board": None, "section": "scatter", "table": "scatter", "times": "2"},
    }
    sections = {"building": "Building the Battlefield", "scatter": "Scattering"}
    view = ReferenceView(
        data={"mechanics": {"repeats": repeats}},
        words={},
        term=lambda name: {"term": name, "name": name, "href": None},
        section=lambda id_: {"title": sections[id_], "href": f"{id_}/"} if id_ in sections else None,
        uses=lambda name: (),
        characteristic=lambda row: ("", ""),
        steps=lambda sequence: [],
    )
    lines = [(_text([line["name"]]), _text(line["parts"]), line["rules"]) for line in reference.tests_and_rolls(view)]
    assert lines == [
        (
            "Building the Battlefield",
            "roll 2D3 times on its table; on a 36x48 board, roll D3 times on its table",
            "building/",
        ),
        ("Scattering", "roll 2 times on its table", "scatter/"),
    ]


def test_a_reroll_limit_and_modifiers_without_a_term_are_named_in_the_pages_words() -> None:
    """Not ": a die is rerolled at most once.": a line the book names no term for has the page's word for it."""
    mechanics = {
        "rerolls": {"max": 1, "term": None},
        "modifiers": {"order": ["set"], "round": "down", "term": None},
    }

    def view(words: dict[str, str]) -> ReferenceView:
        return ReferenceView(
            data={"mechanics": mechanics},
            words=words,
            term=lambda name: {"term": name, "name": name, "href": None},
            section=lambda id_: None,
            uses=lambda name: (),
            characteristic=lambda row: ("", ""),
            steps=lambda sequence: [],
        )

    names = [_text([line["name"]]) for line in reference.tests_and_rolls(view({}))]
    assert names == ["Rerolls", "Modifiers"]
    german = {"ref_rerolls_name": "Wiederholungswürfe", "ref_modifiers_name": "Modifikatoren"}
    assert [_text([line["name"]]) for line in reference.tests_and_rolls(view(german))] == list(german.values())


def test_the_values_are_the_books_sentences() -> None:
    from rulebook.site.value_words import value_sentences

    from .conftest import parse

    xml = (
        '<document><chapter title="Play" id="play"><section title="Crews" id="crews">A crew has at most '
        '<value name="crew_size" kind="count">6</value> fighters. <important>A game lasts <value name="rounds" '
        'kind="turns">5</value> rounds.</important><list><item>Place <value name="pieces" kind="count">3</value> '
        "pieces.</item></list></section></chapter></document>"
    )
    assert value_sentences(Book((parse(xml),))) == {
        "crew_size": "A crew has at most 6 fighters.",
        "rounds": "A game lasts 5 rounds.",
        "pieces": "Place 3 pieces.",
    }


def test_the_profile_is_named_in_the_books_words() -> None:
    """A book that says "stats" is not told "Characteristics": the profile's title, headers and range are its own."""
    from rulebook.readers.markdown import parse_dialect
    from rulebook.site.value_words import profile_words, value_sentences

    text = (
        "# 1 Core {#core}\n\n::: definition stat\nA [[stat]] is a number from [1]{value=stat_min kind=minimum term=stat}"
        " to [6]{value=stat_max kind=maximum term=stat}.\n:::\n\n"
        '{title="Profile" kind=profile id=profile .row-headers}\n| Short | Stat | What it says |\n|---|---|---|\n'
        "| Ai | [[Aim]] | [How well it shoots.]{dfn=aim} |\n"
    )
    book = Book((parse_dialect(text, "book.md").document,))  # type: ignore[arg-type]
    assert profile_words(book) == ("Profile", ("Short", "Stat", "What it says"))
    view = ReferenceView(
        data={
            "characteristics": {"min": 1, "max": 6, "profile": [{"abbreviation": "Ai", "term": "aim"}]},
            "values": {"stat_min": {"kind": "minimum", "value": 1}, "stat_max": {"kind": "maximum", "value": 6}},
            "roll_tables": [],
            "sequences": [],
        },
        words={},
        term=lambda name: {"term": name, "name": name, "href": None},
        section=lambda id_: None,
        uses=lambda name: (),
        characteristic=lambda row: (row["abbreviation"], ""),
        steps=lambda sequence: [],
        said=value_sentences(book).get,
        profile=profile_words(book),
    )
    profile = reference.reference_context(view)["profile"]  # type: ignore[index]
    assert (profile["title"], profile["headers"], profile["range"]) == (
        "Profile",
        ("Short", "Stat", "What it says"),
        [{"text": "A stat is a number from 1 to 6."}],
    )
