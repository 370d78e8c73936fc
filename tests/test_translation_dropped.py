"""A sentence a translation drops is reported "not translated" at that sentence of the original, whichever it is:
also in a section where every sentence refers to the same term (its anchor then tells no sentence from another,
and neither do the words the term is written with)."""

from __future__ import annotations

import pytest

from rulebook.markdown_source import parse_markdown_string
from rulebook.model import Book
from rulebook.translate.compare import compare_books
from rulebook.translate.terminology import Entry
from rulebook.xml_source import parse_xml_string

CHARGE = '<reference name="charge">charge</reference>'
SAME_TERM = (
    (
        f"A {CHARGE} moves the unit straight ahead, up to twice its move.",
        "Une charge déplace l'unité tout droit, jusqu'au double de son mouvement.",
    ),
    (f"The {CHARGE} ends when the unit touches the enemy.", "La charge se termine quand l'unité touche l'ennemi."),
    (
        f"A failed {CHARGE} still moves the unit 3 inches towards the enemy, and the unit may not shoot this turn.",
        "Une charge ratée déplace quand même l'unité de 3 pouces vers l'ennemi, et l'unité ne peut pas tirer ce "
        "tour-ci.",
    ),
    (f"After the {CHARGE}, the unit fights first.", "Après la charge, l'unité frappe en premier."),
    (
        f"Each {CHARGE} must be declared before any model moves, in the order chosen by the active player.",
        "Chaque charge doit être déclarée avant que la moindre figurine ne bouge, dans l'ordre choisi par le joueur "
        "actif.",
    ),
    (f"A {CHARGE} against a flank gives +1 to hit.", "Une charge de flanc donne +1 pour toucher."),
)
"""English and French sentences of a section about one term, each referring to it."""
REGULAR = (
    ("All models are part of a unit.", "Toute figurine fait partie d'une unité."),
    (
        "A Full Rank is any rank which is at least 5 models wide.",
        "Un Rang Complet est un rang qui contient au moins 5 figurines.",
    ),
    (
        "Units in ranks of 10 or more models are considered to be in Horde Formation.",
        "Les unités formées en rangs de 10 figurines au moins sont en formation de Horde.",
    ),
    (
        "Players are always allowed to measure any distance at any time, even before declaring a charge.",
        "Les joueurs sont autorisés à mesurer n'importe quelle distance à tout moment, même avant de déclarer une "
        "charge.",
    ),
    ("A unit never moves twice in a turn.", "Une unité ne bouge jamais deux fois par tour."),
)
"""English and French sentences of a section whose sentences share little."""


def missing_lines(pairs: tuple[tuple[str, str], ...], dropped: int) -> list[tuple[int | None, int | None]]:
    """(translation line, original line) of each sentence reported missing when the French drops one sentence:
    one sentence a line on both sides, the English from line 2, the French from line 3."""
    english = "\n".join(english for english, _ in pairs)
    french = "\n".join(french for number, (_, french) in enumerate(pairs) if number != dropped)
    original = parse_xml_string(
        f'<document><chapter title="Charges"><definition name="charge">Charge</definition>.\n{english}'
        "</chapter></document>",
        "en.xml",
    ).document
    translation = parse_markdown_string(f"## 1 Charges\n\nCharge.\n{french}\n", "fr.md", language="fr").document
    assert original is not None and translation is not None
    comparison = compare_books(Book((original,)), Book((translation,)), terms={"charge": Entry("charge", "charge")})
    return [
        (f.place.line if f.place else None, f.counterpart.line if f.counterpart else None)
        for f in comparison.findings
        if f.kind == "missing-sentence"
    ]


@pytest.mark.parametrize("pairs", [SAME_TERM, REGULAR], ids=["every-sentence-the-same-term", "regular"])
def test_a_whole_translation_misses_nothing(pairs: tuple[tuple[str, str], ...]) -> None:
    assert missing_lines(pairs, -1) == []


@pytest.mark.parametrize("dropped", range(len(SAME_TERM)))
def test_a_dropped_sentence_among_sentences_of_one_term_is_found_where_it_is(dropped: int) -> None:
    # The French line where it would stand is the next sentence's (the last line's for the last sentence).
    assert missing_lines(SAME_TERM, dropped) == [(3 + min(dropped, len(SAME_TERM) - 2) + 1, 2 + dropped)]


@pytest.mark.parametrize("dropped", range(len(REGULAR)))
def test_a_dropped_sentence_among_unlike_sentences_is_found_where_it_is(dropped: int) -> None:
    assert missing_lines(REGULAR, dropped) == [(3 + min(dropped, len(REGULAR) - 2) + 1, 2 + dropped)]
