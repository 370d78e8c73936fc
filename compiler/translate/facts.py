"""The quantities a sentence states, as typed facts: value, unit, comparison and sign, in English or French.

"more than 1 inch" is (greater than, 1, inch); "au moins 5 figurines" is (at least, 5); "-1 en
Agilité" is (minus, 1); "50/40 pts" is two prices; "la moitié", "halved" and "50 %" are all a
half; "2D6" is a roll of two six-sided dice. Numbers that are not quantities are left out: those
inside proper names ("The 3rd Age", "Le 3e Âge"), in titles of sections (given by the caller),
pointers ("figure 1", "table 2", "paragraphe 2.2.5"), section numbers, addresses, and metric
conversions a translator adds ("(1,80 m)"). "One" and "un"/"une" are never read as numbers: in
French they are also the article.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from rulebook.translate.numbers import LONGEST_NUMBER, METRIC_LENGTH

GREATER, AT_LEAST, LESS, AT_MOST = "more than", "at least", "less than", "at most"
"""The comparisons a rule states about a value."""


@dataclass(frozen=True, slots=True)
class Quantity:
    """One quantity of a sentence."""

    value: Fraction
    """The magnitude (the sign is apart): a half is 1/2, 25 % is 1/4, a roll of 2D6 is 2."""
    unit: str | None
    """``inch``, ``share`` (a percentage), ``point``, ``degree``, a die (``D6``), or None."""
    comparison: str | None
    """``more than``, ``at least``, ``less than``, ``at most``, or None when the value is stated as is."""
    sign: str | None
    """``+`` or ``-`` when written before the number (a modifier), else None."""
    kind: str
    """``digits``, ``word`` (a number word), ``ordinal`` (first, deuxième) or ``dice``."""
    start: int
    """Where the quantity is written in the sentence (character offset)."""
    end: int
    scope: tuple[int, int] = (0, 0)
    """Where the quantity and its comparison words ("more than", "ou plus") are written."""

    @property
    def shown(self) -> str:
        """The value as the reports show it: ``-1``, ``1/2``, ``2D6``, ``6"``."""
        if self.unit is not None and self.unit.startswith("D"):
            return f"{self.value}{self.unit}"
        number = _written(self.value)
        if self.unit == "share":
            number = f"{float(self.value * 100):g}%"
        elif self.unit == "inch":
            number += '"'
        return (self.sign or "") + number


def _written(value: Fraction) -> str:
    """A value as a rule would write it: 7, 2.54, 1/2 (halves, thirds and quarters as fractions)."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator in (2, 3, 4):
        return f"{value.numerator}/{value.denominator}"
    decimal = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return decimal if Fraction(decimal) == value else f"{value.numerator}/{value.denominator}"


WORDS: dict[str, dict[str, tuple[Fraction, str]]] = {
    "en": {
        "zero": (Fraction(0), "word"),
        **{
            w: (Fraction(i), "word")
            for i, w in enumerate(
                [
                    *("_", "_", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven"),
                    *("twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"),
                    "twenty",
                ]
            )
            if i >= 2
        },
        "thirty": (Fraction(30), "word"),
        "forty": (Fraction(40), "word"),
        "fifty": (Fraction(50), "word"),
        "hundred": (Fraction(100), "word"),
        "twice": (Fraction(2), "word"),
        "both": (Fraction(2), "word"),
        "double": (Fraction(2), "word"),
        "doubled": (Fraction(2), "word"),
        "doubling": (Fraction(2), "word"),
        "triple": (Fraction(3), "word"),
        "tripled": (Fraction(3), "word"),
        "thrice": (Fraction(3), "word"),
        "half": (Fraction(1, 2), "word"),
        "halves": (Fraction(1, 2), "word"),
        "halved": (Fraction(1, 2), "word"),
        "halving": (Fraction(1, 2), "word"),
        "halve": (Fraction(1, 2), "word"),
        "quarter": (Fraction(1, 4), "word"),
        **{
            w: (Fraction(i), "ordinal")
            for i, w in enumerate(
                ["_", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
            )
            if i >= 1
        },
    },
    "fr": {
        "zéro": (Fraction(0), "word"),
        **{
            w: (Fraction(i), "word")
            for i, w in enumerate(
                [
                    "_",
                    "_",
                    "deux",
                    "trois",
                    "quatre",
                    "cinq",
                    "six",
                    "sept",
                    "huit",
                    "neuf",
                    "dix",
                    "onze",
                    "douze",
                    "treize",
                    "quatorze",
                    "quinze",
                    "seize",
                ]
            )
            if i >= 2
        },
        "vingt": (Fraction(20), "word"),
        "trente": (Fraction(30), "word"),
        "quarante": (Fraction(40), "word"),
        "cinquante": (Fraction(50), "word"),
        "cent": (Fraction(100), "word"),
        "moitié": (Fraction(1, 2), "word"),
        "moitiés": (Fraction(1, 2), "word"),
        "demi": (Fraction(1, 2), "word"),
        "demie": (Fraction(1, 2), "word"),
        "quart": (Fraction(1, 4), "word"),
        "tiers": (Fraction(1, 3), "word"),
        **{w: (Fraction(2), "word") for w in ["double", "doublé", "doublée", "doublés", "doublées", "doubler"]},
        **{w: (Fraction(3), "word") for w in ["triple", "triplé", "triplée", "triplés", "triplées", "tripler"]},
        **{w: (Fraction(1), "ordinal") for w in ["premier", "première", "premiers", "premières"]},
        **{w: (Fraction(2), "ordinal") for w in ["deuxième", "deuxièmes", "second", "seconde"]},
        **{
            w: (Fraction(i), "ordinal")
            for i, w in enumerate(
                [
                    "_",
                    "_",
                    "_",
                    "troisième",
                    "quatrième",
                    "cinquième",
                    "sixième",
                    "septième",
                    "huitième",
                    "neuvième",
                    "dixième",
                ]
            )
            if i >= 3
        },
    },
}
"""Number words, by language: cardinals from zero (never "one": French "un" is also "a"), halves,
doubles and triples, quarters, and ordinals."""

# Comparisons written before the value; fillers ("de la", "d'") may stand between.
_BEFORE = {
    "en": [
        (r"(?:no|not) more than", AT_MOST),
        (r"(?:no|not) (?:less|fewer) than", AT_LEAST),
        (r"at least|(?:to )?a minimum of|minimum of|min\.?|minimum", AT_LEAST),
        (r"at most|(?:to )?a maximum of|maximum of|max\.?|maximum|up to", AT_MOST),
        (r"more than|greater than|higher than|further than|farther than|above|beyond|over|exceeding", GREATER),
        (r"less than|fewer than|lower than|closer than|below|under|within", LESS),
    ],
    "fr": [
        (r"(?:ne )?pas plus (?:de|d'|du|que)", AT_MOST),
        (r"(?:ne )?pas moins (?:de|d'|du|que)", AT_LEAST),
        (r"(?:jusqu'à )?(?:un )?minimum de|au moins|au minimum|min\.?|supérieure?s? ou égale?s? à", AT_LEAST),
        (r"(?:un )?maximum de|au plus|au maximum|max\.?|inférieure?s? ou égale?s? à|jusqu'à|jusqu'au", AT_MOST),
        (
            r"(?:strictement )?plus (?:grand|élevé|haut)e?s? que|supérieure?s? à|plus (?:de|d'|du|que)"
            r"|au[- ]delà (?:de|d'|du)|au[- ]dessus (?:de|d'|du)|dépasser|dépasse|dépassant",
            GREATER,
        ),
        (
            r"(?:strictement )?plus (?:petit|faible|bas)e?s? que|inférieure?s? à|moins (?:de|d'|du|que)"
            r"|en[- ]dessous (?:de|d'|du)|au[- ]dessous (?:de|d'|du)",
            LESS,
        ),
    ],
}
_AFTER = {
    "en": [(r"or more|and more|or higher|or greater|or above|and above|or over", AT_LEAST),
           (r"or less|or fewer|or lower|or below|and less|or under", AT_MOST)],
    "fr": [(r"ou plus|et plus|au moins|au minimum|ou davantage|ou supérieure?s?", AT_LEAST),
           (r"ou moins|au plus|au maximum|ou inférieure?s?", AT_MOST)],
}  # fmt: skip
_FILLERS = {"en": r"(?:\s+(?:of|a|an|the|by))?", "fr": r"(?:\s*(?:à|a|de|d'|du|la|le|l'|un|une)){0,2}"}


def _combined(found: list[tuple[str, str]], before: str, after: str) -> tuple[re.Pattern[str], dict[str, str]]:
    """One expression for a language's comparison phrases (in order: the first phrase that fits wins)."""
    groups = "|".join(f"(?P<c{index}>{phrase})" for index, (phrase, _) in enumerate(found))
    return re.compile(f"{before}(?:{groups}){after}", re.I), {f"c{index}": c for index, (_, c) in enumerate(found)}


_BEFORE_RE = {
    language: _combined(found, r"(?:^|\W)", _FILLERS[language] + r"\s*$") for language, found in _BEFORE.items()
}
_AFTER_RE = {
    language: _combined(found, r"^[’'\"”»\s]*(?:[^\W\d_]+\s+)?", r"\b(?!\s*[\d+\-−])")
    for language, found in _AFTER.items()
}
_DIVIDED = {
    "en": re.compile(r"\bdivided by (?P<n>\d+|two|three|four)\b", re.I),
    "fr": re.compile(r"\b(?:divis[ée]+s?|diviser|division) par (?P<n>\d+|deux|trois|quatre)\b", re.I),
}
_DIVISORS = {"two": 2, "three": 3, "four": 4, "deux": 2, "trois": 3, "quatre": 4}

# What is not a quantity. Each is blanked out (same length), so offsets keep pointing into the sentence.
_NOT_QUANTITIES = [
    r"\b(?:figure|fig\.|table|tableau|section|chapter|chapitre|page|paragraph|paragraphe|p\.)\s*(?:n°\s*)?\d+(?:\.\d+)*",
    r"\b\d+(?:\.\d+){2,}\b",  # a section number: 6.4.1
    r"\b\d+\s*(?:st|nd|rd|th|e|er|re|ème|º)\s+(?=[A-ZÀ-ÖØ-Þ])",  # a proper name: The 9th Age, Le 9e Âge
    r"\b\d+-[A-Z]\b",  # a placeholder range: 0-X
    r"\S{1,200}://\S+|\b[\w.-]{1,200}\.(?:com|org|net|fr|html)\S*",  # an address
    rf"(?<!\d){METRIC_LENGTH}",  # metric: a translator's conversion
]
"""Each tried from where it may start (after a run of digits, not inside it) and with its runs bounded, so
that a sentence of 100,000 digits or of ``1x1x1...`` is read in linear time, not tried from each character."""
_LANGUAGE_NOT_QUANTITIES = {
    "en": [r"\b(?:which|either|one|each) of the two\b"],
    "fr": [r"\bdeux(?=\s+moitiés\b)", r"\b(?:lequel|laquelle|l'une?) des deux\b"],
}
"""Words for two that name one of a pair rather than count ("which of the two", "lequel des deux"). "Both"
is two, as « les deux » is: when French writes « chaque joueur » instead, a number word stated by one side
only is never reported."""
_DIMENSIONS = re.compile(r"(?<=[\d”\"″'])[x×](?=\d)")
"""The "x" of dimensions (24”x24”): both numbers are values."""
_LATEX = re.compile(r"\$|\\math\w+\{|\\text\w*\{|\\,|(?<=\d)\}")
_TOKEN = (
    r"(?P<dice>(?<![\w])(?P<count>\d*)[DW](?P<sides>\d+)(?![\w]))"
    r"|(?P<fraction>(?<![\d/⁄])\d+\s?⁄\s?\d+|(?<![\d/⁄.,])\d+/\d+(?!\s*(?:pts|points?)\b)(?![\d/]))"
    r"|(?P<number>(?<![^\W\d_])\d+(?:[.,]\d+)?)"
)


@functools.lru_cache(maxsize=8)
def _tokens(language: str) -> re.Pattern[str]:
    """Numbers, dice, and words (of which :func:`_number` keeps the language's number words)."""
    return re.compile(rf"{_TOKEN}|(?P<word>[^\W\d_]+)")


_UNITS = [
    (re.compile(r"^\s?%"), "share"),
    (re.compile(r"^\s?(?:[\"”″]|''|’’|inch(?:es)?\b|pouces?\b)"), "inch"),
    (re.compile(r"^\s?(?:pts?\b|points?\b)"), "point"),
    (re.compile(r"^\s?°"), "degree"),
]
_SIGNS = "+-−–"
_BEFORE_SIGN = " \t\n(«\"“‘',;:"
_ONE = {
    "en": re.compile(r"\b(?:an|one)(?= inch\b)", re.I),
    "fr": re.compile(r"\bune?(?= pouce\b| [^\W\d_]+ (?:au plus|au maximum|au moins|au minimum)\b)", re.I),
}
""""One inch", "un pouce" and "un Décor au plus" state a value, though neither "one" nor "un" is a number word."""


def quantities(text: str, language: str, *, names: Iterable[str] = ()) -> tuple[Quantity, ...]:
    """The quantities a sentence states, in order. ``names``: titles and names whose numbers are not quantities."""
    tokens, one = _tokens(language), _ONE[language if language in _ONE else "en"]
    if not _DIGIT.search(text) and not _number_words(language) & set(_LETTERS.findall(text.lower())):
        return ()
    clean = _blank(text, language, tuple(names))
    found: list[Quantity] = []
    words = WORDS.get(language, WORDS["en"])
    for match in one.finditer(clean):
        unit = "inch" if clean[match.end() :].lstrip().startswith(("inch", "pouce")) else None
        comparison, scope = _comparison("", clean[match.end() : match.end() + 40], language, *match.span())
        found.append(Quantity(Fraction(1), unit, comparison, None, "word", *match.span(), scope))
    for match in tokens.finditer(clean):
        if match.lastgroup == "word" and match.group().lower() not in words:
            continue
        if match.lastgroup != "word" and len(match.group()) > LONGEST_NUMBER:
            continue  # no rule's value; and past 4,300 digits Python refuses to read it
        if match.group("dice"):
            count = int(match.group("count") or 1)
            dice = Quantity(
                Fraction(count), f"D{match.group('sides')}", None, None, "dice", *match.span(), match.span()
            )
            found.append(dice)
            continue
        quantity = _number(match, clean, words, language)
        if quantity is not None:
            found.append(quantity)
    return tuple(sorted(found, key=lambda q: q.start))


def _blank(text: str, language: str, names: tuple[str, ...]) -> str:
    """The text with what is not a quantity blanked out, and LaTeX markup removed ($\\mathbf{1}''$ is 1'')."""
    if "$" in text or "\\" in text:
        text = _LATEX.sub(lambda m: " " * len(m.group()), text)
    words, digits = _not_quantities(language, names)
    text = words.sub(lambda m: " " * len(m.group()), text)
    if _DIGIT.search(text):
        text = digits.sub(lambda m: " " * len(m.group()), text)
        text = _DIMENSIONS.sub(" ", text)
    return text


_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]+")


@functools.lru_cache(maxsize=8)
def _number_words(language: str) -> frozenset[str]:
    """The words that may state a value in a language (number words, and the one of "un pouce", "one inch")."""
    return frozenset(WORDS.get(language, WORDS["en"])) | {"un", "une", "an", "one"}


@functools.lru_cache(maxsize=16)
def _not_quantities(language: str, names: tuple[str, ...]) -> tuple[re.Pattern[str], re.Pattern[str]]:
    """What is not a quantity: words (the language's), and what has digits (names, pointers, conversions)."""
    patterns = list(_NOT_QUANTITIES)
    # A title with a number, quoted: "0-X Choice" names a rule, it does not count anything.
    patterns += [re.escape(name) + r"[sx]?\b(?=\s?[»”\"’])" for name in names if any(c.isdigit() for c in name)]
    words = _LANGUAGE_NOT_QUANTITIES.get(language, []) or [r"(?!x)x"]
    return (
        re.compile("|".join(f"(?:{p})" for p in words), re.IGNORECASE),
        re.compile("|".join(f"(?:{p})" for p in patterns), re.IGNORECASE),
    )


def _number(match: re.Match[str], text: str, words: dict[str, tuple[Fraction, str]], language: str) -> Quantity | None:
    start, end = match.span()
    if match.group("word"):
        entry = words.get(match.group("word").lower())
        if entry is None:
            return None
        value, kind = entry
    elif match.group("fraction"):
        top, bottom = re.split(r"\s?[⁄/]\s?", match.group("fraction"))
        value, kind = Fraction(int(top), max(int(bottom), 1)), "digits"
    else:
        value, kind = Fraction(match.group("number").replace(",", ".")), "digits"
    before, after = text[max(0, start - 40) : start], text[end : end + 40]
    unit = next((name for pattern, name in _UNITS if pattern.match(after)), None) if kind == "digits" else None
    if unit == "inch" and after.lstrip().startswith("”") and text[:start].count("“") > text[:start].count("”"):
        unit = None  # the closing quote of “Value of 0”, not an inch
    if unit == "share":
        value /= 100
    sign = None
    if kind == "digits" and start and text[start - 1] in _SIGNS and (start == 1 or text[start - 2] in _BEFORE_SIGN):
        sign = "+" if text[start - 1] == "+" else "-"
    divided = _DIVIDED[language].search(text[max(0, start - 20) : end])
    if divided is not None and divided.end() == end - max(0, start - 20):
        number = divided.group("n").lower()
        value, kind = Fraction(1, _DIVISORS.get(number) or int(number)), "word"
    comparison, scope = _comparison(before, after, language, start - (sign is not None), end)
    return Quantity(value, unit, comparison, sign, kind, start, end, scope)


def _comparison(before: str, after: str, language: str, start: int, end: int) -> tuple[str | None, tuple[int, int]]:
    """The comparison written around a value, and where it and the value are written."""
    if re.match(r"^\+(?!\d)", after):
        return AT_LEAST, (start, end + 1)  # a roll of 3+
    pattern, comparisons = _AFTER_RE.get(language, _AFTER_RE["en"])
    found = pattern.match(after)
    if found and found.lastgroup:
        return comparisons[found.lastgroup], (start, end + found.end())
    pattern, comparisons = _BEFORE_RE.get(language, _BEFORE_RE["en"])
    found = pattern.search(before)
    if found and found.lastgroup:
        words = before[found.start() :]
        return comparisons[found.lastgroup], (start - len(words) + (len(words) - len(words.lstrip(" (,;:'’"))), end)
    return None, (start, end)
