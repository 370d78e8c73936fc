"""Quantities as typed facts, one kind at a time, in English and in French; and how aligned sentences' facts compare."""

from __future__ import annotations

from fractions import Fraction

import pytest

from rulebook.languages.quantities import AT_LEAST, AT_MOST, GREATER, LESS, quantities
from rulebook.translate.meaning import Side, compare_beads, reportable


def facts(text: str, language: str) -> list[tuple[str, str | None]]:
    """Each quantity as shown (sign, value, unit) with its comparison."""
    return [(q.shown, q.comparison) for q in quantities(text, language)]


@pytest.mark.parametrize(
    ("language", "text", "expected"),
    [
        # digits, decimals (point or comma), fractions
        ("en", "a value of 7", [("7", None)]),
        ("fr", "une valeur de 7", [("7", None)]),
        ("en", "An inch corresponds to 2.54", [('1"', None), ("2.54", None)]),
        ("fr", "il vaut 2,5 pouces", [('5/2"', None)]),
        ("en", 'within 1⁄2" of it', [('1/2"', LESS)]),
        # number words, zero included
        ("en", "from zero to two times", [("0", None), ("2", None)]),
        ("en", "both players", [("2", None)]),  # as « les deux joueurs » (a word alone on one side is never reported)
        ("fr", "entre zéro et deux fois", [("0", None), ("2", None)]),
        ("en", "one model and a unit", []),  # "one" is never a number: French "un" is also "a"
        ("fr", "un dragon et une figurine", []),
        # halves, doubles, triples, quarters, division
        ("en", "halved, doubled or tripled", [("1/2", None), ("2", None), ("3", None)]),
        ("fr", "divisée par deux, doublée ou triplée", [("1/2", None), ("2", None), ("3", None)]),
        ("en", "the D6 before halving", [("1D6", None), ("1/2", None)]),
        ("fr", "le D6 avant la division par deux", [("1D6", None), ("1/2", None)]),
        ("en", "no more than 50% of it", [("50%", AT_MOST)]),
        ("fr", "pas plus de la moitié du socle", [("1/2", AT_MOST)]),
        ("fr", "à plus du quart des bords", [("1/4", GREATER)]),
        # ordinals
        ("en", "the second Player Turn", [("2", None)]),
        ("fr", "le deuxième Tour de Joueur", [("2", None)]),
        # signed modifiers
        ("en", "such as -1 or +3", [("-1", None), ("+3", None)]),
        ("fr", "comme -1 ou +3", [("-1", None), ("+3", None)]),
        ("en", "4+4-1=7 models", [("4", None), ("4", None), ("1", None), ("7", None)]),  # operators, not signs
        # dice
        ("en", "roll a D6, then 2D6, or D6+1", [("1D6", None), ("2D6", None), ("1D6", None), ("1", None)]),
        ("fr", "lancez 1D6, puis 2D3", [("1D6", None), ("2D3", None)]),
        # distances in inches, dimensions
        ("en", "more than 12” away", [('12"', GREATER)]),
        ("fr", 'à plus de 12" de la zone', [('12"', GREATER)]),
        ("en", "into 24”x24” sections", [('24"', None), ('24"', None)]),
        ("fr", "un espace d'un pouce", [('1"', None)]),
        # prices with a slash: two prices, not a fraction
        ("en", "for example “50 pts / 40 pts”", [("50", None), ("40", None)]),
        ("fr", "par exemple 50/40 pts", [("50", None), ("40", None)]),
        ("fr", "par exemple 50 / 40 pts", [("50", None), ("40", None)]),
        # roll targets
        ("en", "on a 4+", [("4", AT_LEAST)]),
        ("fr", "sur 4+", [("4", AT_LEAST)]),
    ],
)
def test_values_units_signs_and_words(language: str, text: str, expected: list[tuple[str, str | None]]) -> None:
    assert facts(text, language) == expected


@pytest.mark.parametrize(
    ("language", "text", "comparison"),
    [
        ("en", "more than 1 inch", GREATER),
        ("en", "at least 5 models", AT_LEAST),
        ("en", "within 6 inches", LESS),
        ("en", "up to 2 times", AT_MOST),
        ("en", "10 or more models", AT_LEAST),
        ("en", "1500 points or less", AT_MOST),
        ("en", "above 10", GREATER),
        ("en", "below 0", LESS),
        ("en", "to a minimum of 1", AT_LEAST),
        ("en", "4000 points and more", AT_LEAST),
        ("fr", "plus de 9 pouces", GREATER),
        ("fr", "au moins 5 figurines", AT_LEAST),
        ("fr", "10 figurines au moins", AT_LEAST),
        ("fr", "à moins de 1 pouce", LESS),
        ("fr", "au-delà de 2000 points", GREATER),
        ("fr", "jusqu'à 20 points", AT_MOST),
        ("fr", "1500 points ou moins", AT_MOST),
        ("fr", "4000 points ou plus", AT_LEAST),
        ("fr", "au minimum 3 unités", AT_LEAST),
        ("fr", "jusqu'à un minimum de 1", AT_LEAST),
        ("fr", "un Décor au plus", AT_MOST),
    ],
)
def test_comparisons_in_both_languages(language: str, text: str, comparison: str) -> None:
    assert [q.comparison for q in quantities(text, language)] == [comparison]


def test_a_postfix_comparison_belongs_to_its_own_value() -> None:
    # "or below" introduces 0; it does not make 10 "at most".
    assert facts("modified to above 10 or below 0", "en") == [("10", GREATER), ("0", LESS)]


@pytest.mark.parametrize(
    ("language", "text"),
    [
        ("en", "Fantasy Battles: The 9th Age"),  # a proper name
        ("fr", "Batailles Fantastiques : Le 9e Âge"),
        ("en", "see figure 1 and table 2"),  # pointers
        ("fr", "voir la figure 1, la table 3 et le paragraphe 2.2.5"),
        ("fr", "Table 3 – Restrictions de composition d'armée."),
        ("en", "as section 6.4.1 says"),  # a section number
        ("fr", "(soit environ 1,80 m par 1,20 m)"),  # a translator's metric conversion
        ("fr", "entre 6 par 8 (soit 15x20 cm)"[21:]),
        ("en", "noted “0-X Choice” here"),  # a placeholder, not a count
        ("en", "randomly decide which of the two"),
        ("fr", "divisée en deux moitiés égales"[12:]),  # "deux moitiés" is one half, written twice
    ],
)
def test_numbers_that_are_not_quantities(language: str, text: str) -> None:
    assert [q.shown for q in quantities(text, language) if q.value != Fraction(1, 2)] == []


def test_quoted_section_titles_are_names() -> None:
    assert facts("“0-2 Choice”", "en") == [("0", None), ("2", None)]
    assert facts(
        "noted “Value of 0”",
        "en",
    ) == [("0", None)]
    assert [q.shown for q in quantities("noted “Value of 0”", "en", names=["Value of 0"])] == []


def side(text: str, language: str) -> Side:
    return Side(tuple((0, q) for q in quantities(text, language)))


def differences(english: str, french: str) -> list[tuple[str, list[str], list[str]]]:
    (found,) = compare_beads([(side(english, "en"), side(french, "fr"))])
    return [
        (d.kind, [q.shown for _, q in d.original], [q.shown for _, q in d.translation]) for d in found if reportable(d)
    ]


def test_a_changed_value_a_comparison_and_a_sign() -> None:
    assert differences("at least 5 models", "au moins 6 figurines") == [("numbers-differ", ["5"], ["6"])]
    assert differences("more than 1” away", "au moins 1\" d'écart") == [("comparison-differs", ['1"'], ['1"'])]
    assert differences("such as 1 or +3", "comme -1 ou +3") == [("sign-differs", ["1"], ["-1"])]
    assert differences("at least 5 models", "au moins cinq figurines") == []  # digits and words are one value


def test_what_one_side_words_alone_is_no_difference() -> None:
    # A number word or an ordinal only one side states is wording ("two measurements"); digits are not.
    assert differences("given as two measurements", "données en millimètres") == []
    assert differences("the first player", "le joueur") == []
    assert differences("costs 0.5 point (written as “1 pts / two models”)", "coûte 0,5 point") == [
        ("numbers-differ", ["1", "2"], [])
    ]
    # A comparison stated on one side only is an ellipsis, not a difference.
    assert differences('more than 12" away and 24" away', 'à plus de 12" et à plus de 24"') == []


def test_dice_count_only_where_both_sides_write_dice() -> None:
    assert differences("roll a D6", "lancez un dé") == []
    assert differences("roll 2D6", "lancez 3D6") == [("numbers-differ", ["2D6"], ["3D6"])]


def test_values_a_neighbouring_bead_states_are_moved_not_lost() -> None:
    beads = [(side("roll 3 dice", "en"), side("lancez des dés", "fr")), (side("then add", "en"), side("3 dés", "fr"))]
    assert compare_beads(beads) == [[], []]


def test_quantities_are_paired_as_by_a_pass_over_every_candidate() -> None:
    """The filed candidates give the pairs the plain rule gives: the first of the same value (and die),
    the same comparison and sign first."""
    import random
    from fractions import Fraction

    from rulebook.languages.quantities import Quantity
    from rulebook.translate.meaning import _Candidates

    def plain(quantity: Quantity, candidates: list[tuple[int, Quantity]]) -> tuple[int, Quantity] | None:
        dice = quantity.kind == "dice"
        same = [c for c in candidates if c[1].value == quantity.value and (c[1].kind == "dice") == dice]
        same = [c for c in same if c[1].unit == quantity.unit] if dice else same
        return min(
            same, key=lambda c: (c[1].comparison != quantity.comparison, c[1].sign != quantity.sign), default=None
        )

    randomly = random.Random(11)

    def quantity() -> Quantity:
        dice = randomly.random() < 0.2
        return Quantity(
            Fraction(randomly.randint(1, 3)),
            randomly.choice(["D6", "D3"]) if dice else randomly.choice([None, "inch"]),
            randomly.choice([None, "at least", "more than"]),
            randomly.choice([None, "+", "-"]),
            "dice" if dice else "digits",
            0,
            1,
        )

    for _ in range(200):
        right = [(i, quantity()) for i in range(randomly.randint(0, 15))]
        left = [quantity() for _ in range(randomly.randint(0, 15))]
        filed, remaining = _Candidates(right), list(right)
        for item in left:
            expected = plain(item, remaining)
            assert filed.take(item) == expected
            if expected is not None:
                remaining.remove(expected)
        assert filed.left() == remaining
