"""Conversion debris, one kind at a time, each found at its place (in French, and where the kind is not French's
alone, in English, Polish or German translations too); the language check; the punctuation spacing of French."""

from __future__ import annotations

import pytest

from rulebook.languages.detect import check_pair, detect_language
from rulebook.translate.debris import find_debris

FRENCH_WORDS = (
    "Les unités doivent être placées sur le champ de bataille. Pour chaque unité, lancez un dé. "
    "Pour une figurine, comptez l'unité entière. Quand une unité est en contact, elle combat. "
    "Il faut être prudent avec les unités. Pour finir, la partie est gagnée par le joueur qui "
    "exceptionnellement a le plus de points. Les règles sont exceptions. Elle combat pour gagner, pour vaincre.\n"
)
"""A few French sentences giving the word list words are checked against ("être", "unité", "Pour")."""
ENGLISH_WORDS = (
    "Units must be placed on the battlefield. For each unit, roll a dice. When a unit is in contact, it "
    "fights. Each model counts. The rules are exceptions.\n"
)


POLISH_WORDS = (
    "Oddziały muszą stać na polu bitwy. Łucznicy strzelają raz. Gdy oddział walczy, łucznicy czekają. "
    "Łucznicy są szybcy. Każdy model walczy, a łucznicy nie. Łucznicy wygrywają.\n"
)
"""A few Polish sentences: « Łucznicy » mostly starts sentences, and is a word written in lower case too."""
GERMAN_WORDS = (
    "Einheiten müssen auf dem Schlachtfeld stehen. Für jede Einheit wird ein Würfel geworfen. Ausnahmsweise "
    "darf sie ziehen. Die Regeln sind Ausnahmen.\n"
)


def found(text: str, language: str = "fr", *, markdown: bool = True) -> list[tuple[str, str, int]]:
    """(rule, the text it points at, line) of each slip."""
    lines = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    return [
        (d.rule.name, text[d.start : d.end], sum(1 for s in lines if s <= d.start))
        for d in find_debris(text, language=language, markdown=markdown)
    ]


@pytest.mark.parametrize(
    ("language", "words", "line", "slip", "rule"),
    [
        (
            "fr",
            FRENCH_WORDS,
            "un espace d'au moins  $\\mathbf{1}''$  entre elles.",
            "$\\mathbf{1}''$",
            "conversion-debris",
        ),
        ("fr", FRENCH_WORDS, "par une étoile «  $\\star$  ».", "$\\star$", "conversion-debris"),
        ("en", ENGLISH_WORDS, "a space of  $\\mathbf{1}''$  between them.", "$\\mathbf{1}''$", "conversion-debris"),
        ("fr", FRENCH_WORDS, "un tiret « \\– » sépare les deux.", "\\", "conversion-debris"),
        ("en", ENGLISH_WORDS, "a dash « \\– » between them.", "\\", "conversion-debris"),
        (
            "fr",
            FRENCH_WORDS,
            "Vous pouvez exception-nellement relancer ce dé.",
            "exception-nellement",
            "conversion-debris",
        ),
        ("en", ENGLISH_WORDS, "You may excep-tionally reroll the dice.", "excep-tionally", "conversion-debris"),
        ("fr", FRENCH_WORDS, "Détermine les chances d'éviter dêtre touché.", "dêtre", "conversion-debris"),
        ("fr", FRENCH_WORDS, "la taille de lunité entière.", "lunité", "conversion-debris"),
        ("fr", FRENCH_WORDS, "*Tenez le centre.*Placez un marqueur.", "*", "conversion-debris"),
        ("en", ENGLISH_WORDS, "*Hold the centre.*Place a marker.", "*", "conversion-debris"),
        (
            "fr",
            FRENCH_WORDS,
            "Il choisit un bord du champ de bataille Pour un déploiement Diagonal, il prend un coin.",
            " ",
            "conversion-debris",
        ),
        ("fr", FRENCH_WORDS, "soit environ 1, 20 m par 1,80 m.", "1, 20 m", "conversion-debris"),
        ("en", ENGLISH_WORDS, "about 1, 20 m by 1.80 m.", "1, 20 m", "conversion-debris"),
        ("fr", FRENCH_WORDS, "L'échelle du\u0131 jeu.", "\u0131", "conversion-debris"),
        ("fr", FRENCH_WORDS, "Le nombre d'\u0391ttaques.", "\u0391", "other-script"),
        ("en", ENGLISH_WORDS, "The number of \u0410ttacks.", "\u0410", "other-script"),
        ("fr", FRENCH_WORDS, "se mettre d'accord sur sur un objectif.", "sur sur", "doubled-word"),
        ("en", ENGLISH_WORDS, "agree on on an objective.", "on on", "doubled-word"),
        ("fr", FRENCH_WORDS, "un symbole « Touché! » est obtenu.", "!", "punctuation-spacing"),
        ("fr", FRENCH_WORDS, "## 6.4 Liste d'armée ouverte?", "?", "punctuation-spacing"),
        ("fr", FRENCH_WORDS, "tout objet qui affecte l'attaque; la partie.", ";", "punctuation-spacing"),
        ("fr", FRENCH_WORDS, "## - 6: Contournement", ":", "punctuation-spacing"),
        # A full stop lost before a capital, after a word whose first letter is no Latin-1 one (« ścianie »).
        ("pl", POLISH_WORDS, "Oddział stoi przy ścianie Łucznicy strzelają dwa razy.", " ", "conversion-debris"),
        ("pl", POLISH_WORDS, "Liczba \u0410taków.", "\u0410", "other-script"),
        ("de", GERMAN_WORDS, "Sie darf ausnahms-weise ziehen.", "ausnahms-weise", "conversion-debris"),
        ("de", GERMAN_WORDS, "Sie darf darf ziehen.", "darf darf", "doubled-word"),
    ],
)
def test_each_kind_of_debris_is_found_where_it_is(language: str, words: str, line: str, slip: str, rule: str) -> None:
    assert (rule, slip, 2) in found(words + line + "\n", language)


@pytest.mark.parametrize(
    "line",
    [
        "Un joueur peut se déplacer au-dessus, ci-dessous, celui-ci, quasi-instantanément.",  # compounds
        "Les Porte-Étendards, le Moyen-Âge, le Royaume-Uni.",
        "Vous vous déplacez, nous nous battons.",  # a French repetition
        "Voir http://www.the-ninth-age.com/ et the-ninth-age.com/license.html",  # addresses
        "Il lance un dé : 1, 2 ou 3.",  # a list of numbers, not a decimal
        "Le joueur actif choisit. Un Personnage peut rejoindre une Unité de Base.",  # capitalised terms
        "Un « Touché ! » est obtenu ; ensuite : rien ?",  # French spacing
        "Il vaut 12:30 heures.",
    ],
)
def test_what_is_no_debris(line: str) -> None:
    assert found(FRENCH_WORDS + line + "\n") == []


def test_markdown_escapes_are_text_in_markdown_and_debris_elsewhere() -> None:
    line = "\\* Si la Caractéristique empruntée\\* est modifiée.\n"
    assert found(FRENCH_WORDS + line) == []  # Markdown shows `*` (issue 28: `\*` was reported as debris)
    assert [slip for _, slip, _ in found(FRENCH_WORDS + line, markdown=False)] == ["\\*", "\\*"]


def test_punctuation_spacing_is_french_only() -> None:
    assert found(ENGLISH_WORDS + "A “Hit!” result: nothing?\n", "en") == []


def test_the_table_of_contents_is_skipped() -> None:
    text = FRENCH_WORDS + "L'échelle du\u0131 jeu\n"
    assert find_debris(text, skip=(len(FRENCH_WORDS), len(text))) == []


def test_languages_are_told_by_their_common_words() -> None:
    english = "The rules of the game are written for the players: each of them has a unit, and it may move. " * 5
    french = "Les règles du jeu sont écrites pour les joueurs : chacun a une unité, et elle peut se déplacer. " * 5
    german = "Die Regeln des Spiels sind für die Spieler geschrieben, und jeder hat eine Einheit, die sich bewegt. " * 5
    assert (detect_language(english).language, detect_language(french).language) == ("en", "fr")
    assert detect_language(german).language == "de"
    assert detect_language("Units.").language is None  # too little to tell
    assert check_pair(english, french, original_language="en", translation_language="fr") is None
    assert "swapped" in (check_pair(french, english, original_language="en", translation_language="fr") or "")
    assert "not French" in (check_pair(english, german, original_language="en", translation_language="fr") or "")
    assert "not French" in (check_pair(english, english, original_language="en", translation_language="fr") or "")
