"""The numbers a text states, read alike in both languages.

Rules are full of numbers, and numbers survive translation: "deux" and "2" are both 2, "2,5" is
2.5, "la moitié" and "halved" are a half, "D6" is "1D6". Numbers that are not quantities are left
out: section numbers ("6.4.1"), pointers ("figure 1", "paragraphe 2.2.5") and a translator's metric
conversions ("(1,80 m)", "15x20 cm").
"""

from __future__ import annotations

import re
from collections import Counter
from fractions import Fraction
from functools import lru_cache

# Words for "one" are left out on both sides: French "un"/"une" is also the article "a".
NUMBER_WORDS = {
    "en": {
        "two": "2",
        "three": "3",
        "four": "4",
        "five": "5",
        "six": "6",
        "seven": "7",
        "eight": "8",
        "nine": "9",
        "ten": "10",
        "twice": "2",
        "half": "1/2",
        "double": "2",
        "doubled": "2",
        "triple": "3",
        "tripled": "3",
        "both": "2",
        "halved": "1/2",
        "quarter": "1/4",
        "third": "1/3",
    },
    "fr": {
        "deux": "2",
        "trois": "3",
        "quatre": "4",
        "cinq": "5",
        "six": "6",
        "sept": "7",
        "huit": "8",
        "neuf": "9",
        "dix": "10",
        "moitié": "1/2",
        "demi": "1/2",
        "double": "2",
        "doublé": "2",
        "doublée": "2",
        "triple": "3",
        "triplé": "3",
        "triplée": "3",
        "quart": "1/4",
        "tiers": "1/3",
    },
}
_NUMBER = r"\d+\s*[⁄/]\s*\d+|\d+(?:[.,]\s?\d+)?"
LONGEST_NUMBER = 40
"""The most characters a number may have to be read as one: a longer one is no rule's value (and past 4,300
digits Python refuses to read it, past 308 a float cannot hold it)."""
METRIC_LENGTH = r"\d{1,30}(?:[.,]\s?\d{1,30})?(?:\s?[x×]\s?\d{1,30}(?:[.,]\d{1,30})?){0,8}\s?(?:mm|cm|km|m)\b"
"""A length in metric units, dimensions too (``60 x 60 cm``): a translator's conversion. Its runs are bounded
(30 digits, 8 dimensions) so that a failed try costs a few steps, not the rest of a long run."""
_DIVIDED = re.compile(r"\b(?:divided by|divisée?s? par) (\d+|two|deux|three|trois|four|quatre)\b", re.IGNORECASE)
""""Divided by 2" is a half, as "halved" says: both are written as the fraction."""
_DIVISORS = {"two": "2", "deux": "2", "three": "3", "trois": "3", "four": "4", "quatre": "4"}
_TOKEN = re.compile(
    r"(?P<dice>\b\d*[DW]\d+\b)|(?P<dotted>\b\d+(?:\.\d+){2,})|"
    rf"(?P<number>{_NUMBER})(?P<dimensions>(?:\s?[x×]\s?(?:{_NUMBER}))*)(?P<unit>\s?(?:%|cm|mm|m)\b|\s?%)?"
    r"|(?P<word>[^\W\d_]+)",
    re.UNICODE,
)
METRIC = {"cm", "mm", "m"}
"""Units a translator adds when converting inches: such numbers are not disagreements."""
REFERENCE_WORDS = {
    "en": {"figure", "fig", "section", "chapter", "page", "paragraph"},
    "fr": {"figure", "fig", "section", "chapitre", "page", "paragraphe"},
}
"""Words before a number that points somewhere ("figure 1", "paragraphe 2.2.5"): not a rule's number."""


def numbers(text: str, language: str) -> Counter[str]:
    """The numbers a text states, as digits: "deux" and "2" are both 2; "2,5" is 2.5; a half is 0.5."""
    text = _DIVIDED.sub(lambda m: f"1/{_DIVISORS.get(m.group(1).lower(), m.group(1))}", text)
    words = NUMBER_WORDS.get(language, {})
    pointers = REFERENCE_WORDS.get(language, set())
    found: Counter[str] = Counter()
    previous = ""
    for match in _TOKEN.finditer(text):
        number, unit, word = match.group("number"), (match.group("unit") or "").strip(), match.group("word")
        if match.group("dice"):
            dice = match.group("dice").upper().replace("W", "D")  # W: German and Dutch dice ("W6")
            found["D".join(part or "1" for part in dice.split("D"))] += 1  # D6 and 1D6 are the same roll
            previous = ""
        elif match.group("dotted"):
            previous = ""  # a section number ("6.4.1"), never a quantity
        elif number is not None:
            if unit in METRIC or previous in pointers:
                previous = ""
                continue
            for part in [number, *re.split(r"\s?[x×]\s?", match.group("dimensions"))[1:]]:
                if len(part) > LONGEST_NUMBER:
                    continue
                value = _canonical(re.sub(r"\s*[⁄/]\s*", "/", part).replace(",", ".").replace(" ", ""))
                if unit == "%":
                    value = _canonical(str(Fraction(value) / 100))
                found[value] += 1
            previous = ""
        else:
            previous = word.lower()
            if previous in words:
                found[_canonical(words[previous])] += 1
    return found


@lru_cache(maxsize=4096)  # a book states the same few numbers again and again
def _canonical(number: str) -> str:
    """One spelling per value: "1/2", "0.5" and "0,5" are all "0.5"; "1" stays "1"."""
    value = Fraction(number)
    if value.denominator == 1:
        return str(value.numerator)
    decimal = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return decimal if Fraction(decimal) == value else f"{value.numerator}/{value.denominator}"
