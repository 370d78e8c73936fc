"""The one number reader: the quantities a text states, as typed facts, read with its language's data.

"more than 1 inch" is (more than, 1, inch); "au moins 5 figurines" is (at least, 5); "-1 en
Agilité" is (minus, 1); "50/40 pts" is two prices; "la moitié", "halved" and "50 %" are all a
half; "2D6" (German "2W6", Polish "2K6") is a roll of two six-sided dice. Numbers that are not
quantities are left out: those inside proper names ("The 3rd Age", "Le 3e Âge"), in titles of
sections (given by the caller), pointers ("figure 1", "table 2", "paragraphe 2.2.5"), section
numbers, addresses, and metric conversions a translator adds ("(1,80 m)"). The words for one are
read only where a unit or a bound follows them ("one inch", "un Décor au plus"): in most languages
they are also the article.

Every language's words come from its file (:mod:`rulebook.languages.data`); the translation checks
(``rulebook compare``) and the edition diff (``rulebook diff``, :func:`numbers`) read numbers here.
"""

from __future__ import annotations

import bisect
import functools
import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction

from rulebook.languages.data import Language, as_language
from rulebook.languages.phrases import CAPITALS, alternatives

GREATER, AT_LEAST, LESS, AT_MOST = "more than", "at least", "less than", "at most"
"""The comparisons a rule states about a value."""
_COMPARISON_NAMES = {"more_than": GREATER, "at_least": AT_LEAST, "less_than": LESS, "at_most": AT_MOST}
LONGEST_NUMBER = 40
"""The most characters a number may have to be read as one: a longer one is no rule's value (and past 4,300
digits Python refuses to read it, past 308 a float cannot hold it)."""
METRIC_LENGTH = r"\d{1,30}(?:[.,]\s?\d{1,30})?(?:\s?[x×]\s?\d{1,30}(?:[.,]\d{1,30})?){0,8}\s?(?:mm|cm|km|m)\b"
"""A length in metric units, dimensions too (``60 x 60 cm``): a translator's conversion. Its runs are bounded
(30 digits, 8 dimensions) so that a failed try costs a few steps, not the rest of a long run."""


@functools.lru_cache(maxsize=32)
def conversions(language: Language) -> re.Pattern[str]:
    """A translator's metric conversion, with the language's words before it and between dimensions:
    « (soit environ 60 cm par 60 cm) », "(about 1.8 m)". Its runs are bounded, as :data:`METRIC_LENGTH`'s."""
    words = alternatives(language.conversion_words)
    by = alternatives(language.by) + "|x"
    return re.compile(
        rf"\(?(?:(?:{words})\s+){{0,3}}(?<!\d){METRIC_LENGTH}"
        rf"(?:\s*(?:{by})\s*\d{{1,30}}(?:[.,]\d{{1,30}})?\s?(?:mm|cm|m|km)\b)?\)?",
        re.IGNORECASE,
    )


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
        number = written(self.value)
        if self.unit == "share":
            number = f"{float(self.value * 100):g}%"
        elif self.unit == "inch":
            number += '"'
        return (self.sign or "") + number


def written(value: Fraction) -> str:
    """A value as a rule would write it: 7, 2.54, 1/2 (halves, thirds and quarters as fractions)."""
    if value.denominator == 1:
        return str(value.numerator)
    if value.denominator in (2, 3, 4):
        return f"{value.numerator}/{value.denominator}"
    return canonical(value)


def canonical(value: Fraction) -> str:
    """One spelling per value, as the edition diff shows it: "1/2", "0.5" and "0,5" are all ``0.5``; 1 is ``1``."""
    if value.denominator == 1:
        return str(value.numerator)
    decimal = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return decimal if Fraction(decimal) == value else f"{value.numerator}/{value.denominator}"


def numbers(text: str, language: Language | str) -> Counter[str]:
    """The values a text states, each spelt once (:func:`canonical`; a roll as ``2D6``, a share as its
    fraction), ordinals left out: what the edition diff compares."""
    found: Counter[str] = Counter()
    for quantity in quantities(text, language):
        if quantity.kind == "ordinal":
            continue
        if quantity.kind == "dice":
            found[f"{quantity.value}{quantity.unit}"] += 1
        else:
            found[canonical(quantity.value)] += 1
    return found


def quantities(
    text: str, language: Language | str, *, names: Iterable[str] | QuotedTitles = ()
) -> tuple[Quantity, ...]:
    """The quantities a sentence states, in order. ``names``: titles and names whose numbers are not quantities
    where quoted (made once into :class:`QuotedTitles` by a caller that reads many sentences)."""
    reader = _reader(as_language(language))
    return reader.read(text, names if isinstance(names, QuotedTitles) else QuotedTitles.of(names))


@dataclass(frozen=True, slots=True)
class QuotedTitles:
    """Titles with a number, found where a sentence quotes them ("0-X Choice" names a rule, it counts nothing).

    Looked up from each closing quote, by length, in a set: the work per sentence does not grow with the
    number of titles (one pattern of every title, tried at each character, made a comparison of thousands of
    sections quadratic).
    """

    lowered: frozenset[str]
    lengths: tuple[int, ...]
    """The lengths of the titles, longest first (the longest title ending at a quote is the one blanked)."""

    @classmethod
    def of(cls, names: Iterable[str]) -> QuotedTitles:
        lowered = frozenset(name.lower() for name in names if any(c.isdigit() for c in name))
        return cls(lowered, tuple(sorted({len(name) for name in lowered}, reverse=True)))

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """Where ``text`` quotes a title: the title and a plural's ``s`` or ``x`` before a closing quote."""
        if not self.lowered:
            return
        for quote in _CLOSING_QUOTE.finditer(text):
            end = quote.start()
            if end and text[end - 1].isspace():
                end -= 1
            if not _ends_word(text, end):
                continue
            for stop in (end - 1, end) if end and text[end - 1] in "sxSX" else (end,):
                found = next(
                    (stop - n for n in self.lengths if n <= stop and text[stop - n : stop].lower() in self.lowered),
                    None,
                )
                if found is not None:
                    yield found, end
                    break


_CLOSING_QUOTE = re.compile(r"[»”\"’“]")


def _ends_word(text: str, end: int) -> bool:
    """Whether a word ends at ``end`` (the regular expression ``\\b`` there)."""
    before = end > 0 and (text[end - 1].isalnum() or text[end - 1] == "_")
    after = end < len(text) and (text[end].isalnum() or text[end] == "_")
    return before != after


@functools.lru_cache(maxsize=32)
def _reader(language: Language) -> _Reader:
    return _Reader(language)


# What is not a quantity in any language. Each is blanked out (same length), so offsets keep pointing into the
# sentence; each is tried from where it may start, with its runs bounded, so a sentence of 100,000 digits or of
# ``1x1x1...`` is read in linear time.
_SECTION_NUMBER = r"\b\d+(?:\.\d+){2,}\b"
_PLACEHOLDER = r"\b\d+-[A-Z]\b"  # a placeholder range: 0-X
_ADDRESS = r"\S{1,200}://\S+|\b[\w.-]{1,200}\.(?:com|org|net|fr|de|es|it|pl|nl|eu|html)\S*"
_METRIC = rf"(?<!\d){METRIC_LENGTH}"
_DIMENSIONS = re.compile(r"(?<=[\d”\"″'])[x×](?=\d)")
"""The "x" of dimensions (24”x24”): both numbers are values."""
_LATEX = re.compile(r"\$|\\math\w+\{|\\text\w*\{|\\,|(?<=\d)\}")
_DIGIT = re.compile(r"\d")
_LETTERS = re.compile(r"[^\W\d_]+")
_SIGNS = "+-−–"
_BEFORE_SIGN = " \t\n(«\"“‘„‚',;:"


class _Reader:
    """A language's expressions, made once: number words, comparisons, units, what is not a quantity."""

    def __init__(self, language: Language) -> None:
        self.language = language
        self.words = language.words_of("all")
        self.cardinal = {w for w, _, kind in language.number_words if kind == "word"}
        self.fraction_values = {v for _, v, _ in language.number_words if v.denominator != 1}
        self.initial = frozenset(self.words) | {w for w in language.one if " " not in w}
        decimals = re.escape(language.decimal_marks) or "."
        thousands = f"\\d{{1,3}}(?:[{re.escape(language.thousands_separators)}]\\d{{3}})+(?![\\d])"
        number = (thousands + "|" if language.thousands_separators else "") + rf"\d+(?:[{decimals}]\d+)?"
        points = alternatives(language.point)
        letters = re.escape(language.dice_letters) or "D"
        self.tokens = re.compile(
            rf"(?P<dice>(?<![\w])(?P<count>\d*)[{letters}](?P<sides>\d+)(?![\w]))"
            rf"|(?P<fraction>(?<![\d/⁄])\d+\s?⁄\s?\d+|(?<![\d/⁄.,])\d+/\d+(?!\s*(?:{points}))(?![\d/]))"
            rf"|(?P<number>(?<![^\W\d_])(?:{number}))"
            r"|(?P<word>[^\W\d_]+)"
        )
        self.thousands = (
            re.compile(f"[{re.escape(language.thousands_separators)}]") if language.thousands_separators else None
        )
        self.decimal = re.compile(f"[{decimals}]")
        inch = alternatives(language.inch)
        self.units = [
            (re.compile(r"^\s?%"), "share"),
            (re.compile(rf"^\s?(?:[\"”″]|''|’’|(?:{inch}))", re.IGNORECASE), "inch"),
            (re.compile(rf"^\s?(?:{points})", re.IGNORECASE), "point"),
            (re.compile(r"^\s?°"), "degree"),
        ]
        self.before, self.before_names = self._before()
        self.before_ends = frozenset(
            _last_word(p) for _, phrases in language.before for p in [*phrases, *language.fillers]
        )
        self.after, self.after_names = self._after()
        cardinals = "|".join(re.escape(w) for w in sorted(self.cardinal, key=len, reverse=True)) or r"(?!x)x"
        self.divided = re.compile(rf"(?:{alternatives(language.divided_by)})\s+(?P<n>\d+|{cardinals})\b", re.I)
        self.divided_ends = frozenset(_last_word(p) for p in language.divided_by)
        self.one = self._one()
        pointers = alternatives(language.pointers)
        suffixes = "|".join(re.escape(s) for s in language.ordinal_suffixes) or r"(?!x)x"
        self.not_quantities = [
            rf"(?:{pointers})\s*(?:n°\s*)?\d+(?:\.\d+)*",
            _SECTION_NUMBER,
            rf"\b\d+\s*(?:{suffixes})\s+(?=[{CAPITALS}])",  # a proper name: The 9th Age, Le 9e Âge, Das 9. Zeitalter
            _PLACEHOLDER,
            _ADDRESS,
            _METRIC,
        ]
        self.not_counts = re.compile(alternatives(language.not_counts), re.IGNORECASE)
        self.digits = re.compile("|".join(f"(?:{p})" for p in self.not_quantities), re.IGNORECASE)
        """What has digits and is not a quantity: pointers, section numbers, names, addresses, conversions (the
        titles a sentence quotes are :class:`QuotedTitles`)."""

    def _before(self) -> tuple[re.Pattern[str], dict[str, str]]:
        """Comparisons written before a value; fillers ("de la", "d'") may stand between."""
        language = self.language
        fillers = alternatives(language.fillers) if language.fillers else None
        gap = rf"(?:\s*(?:{fillers})){{0,{language.filler_count}}}" if fillers else ""
        groups = "|".join(f"(?P<c{i}>{alternatives(phrases)})" for i, (_, phrases) in enumerate(language.before))
        names = {f"c{i}": _COMPARISON_NAMES[kind] for i, (kind, _) in enumerate(language.before)}
        return re.compile(rf"(?:^|\W)(?:{groups}){gap}\s*$", re.IGNORECASE), names

    def _after(self) -> tuple[re.Pattern[str], dict[str, str]]:
        """Comparisons written after a value ("6 or more"), maybe one word after it ("10 figurines au moins")."""
        groups = "|".join(f"(?P<c{i}>{alternatives(p)})" for i, (_, p) in enumerate(self.language.after))
        names = {f"c{i}": _COMPARISON_NAMES[kind] for i, (kind, _) in enumerate(self.language.after)}
        pattern = rf"^[’'\"”»\s]*(?:[^\W\d_]+\s+)?(?:{groups})(?!\s*[\d+\-−])"
        return re.compile(pattern, re.IGNORECASE), names

    def _one(self) -> re.Pattern[str]:
        """The words for one where they state a value: before an inch word, or a word and a bound after."""
        language = self.language
        after = alternatives(phrase for _, phrases in language.after for phrase in phrases)
        units = alternatives(language.inch)
        return re.compile(
            rf"(?<![^\W_])(?:{alternatives(language.one, boundaries=False)})(?![^\W_])"
            rf"(?=\s+(?:{units})|\s+[^\W\d_]+\s+(?:{after}))",
            re.IGNORECASE,
        )

    def read(self, text: str, titles: QuotedTitles) -> tuple[Quantity, ...]:
        if not _DIGIT.search(text) and not self.initial & set(_LETTERS.findall(text.lower())):
            return ()
        clean = self._blank(text, titles)
        quotes = _Quotes(clean)
        found: list[Quantity] = []
        for match in self.one.finditer(clean):
            rest = clean[match.end() :].lstrip().lower()
            unit = "inch" if rest.startswith(tuple(self.language.inch)) else None
            comparison, scope = self._comparison("", clean[match.end() : match.end() + 40], *match.span())
            found.append(Quantity(Fraction(1), unit, comparison, None, "word", *match.span(), scope))
        for match in self.tokens.finditer(clean):
            if match.lastgroup == "word" and match.group().lower() not in self.words:
                continue
            if match.lastgroup != "word" and len(match.group()) > LONGEST_NUMBER:
                continue  # no rule's value; and past 4,300 digits Python refuses to read it
            if match.group("dice"):
                count = int(match.group("count") or 1)
                unit = f"D{match.group('sides')}"
                found.append(Quantity(Fraction(count), unit, None, None, "dice", *match.span(), match.span()))
                continue
            quantity = self._number(match, clean, quotes)
            if quantity is not None:
                found.append(quantity)
        return tuple(sorted(found, key=lambda q: q.start))

    def _blank(self, text: str, titles: QuotedTitles) -> str:
        """The text with what is not a quantity blanked out, and LaTeX markup removed ($\\mathbf{1}''$ is 1'')."""
        if "$" in text or "\\" in text:
            text = _LATEX.sub(lambda m: " " * len(m.group()), text)
        text = self.not_counts.sub(self._counted_blank, text)
        if _DIGIT.search(text):
            for start, end in list(titles.spans(text)):
                text = text[:start] + " " * (end - start) + text[end:]
            text = self.digits.sub(self._blank_match, text)
            text = _DIMENSIONS.sub(" ", text)
        return text

    def _counted_blank(self, match: re.Match[str]) -> str:
        """A phrase naming one of a pair with its counting words blanked ("deux" of « deux moitiés »)."""
        return _LETTERS.sub(
            lambda word: " " * len(word.group()) if self._counts(word.group().lower()) else word.group(),
            match.group(),
        )

    def _counts(self, word: str) -> bool:
        if word in self.language.one:
            return True
        entry = self.words.get(word)
        return entry is not None and entry[0] not in self.fraction_values

    def _blank_match(self, match: re.Match[str]) -> str:
        found = match.group()
        if self.thousands is not None and "." in self.language.thousands_separators and _thousands(found):
            return found  # 1.000.000 in German: a number, not a section
        return " " * len(found)

    def _number(self, match: re.Match[str], text: str, quotes: _Quotes) -> Quantity | None:
        start, end = match.span()
        if match.group("word"):
            entry = self.words.get(match.group("word").lower())
            if entry is None:
                return None
            value, kind = entry
        elif match.group("fraction"):
            top, bottom = re.split(r"\s?[⁄/]\s?", match.group("fraction"))
            value, kind = Fraction(int(top), max(int(bottom), 1)), "digits"
        else:
            value, kind = self._value(match.group("number")), "digits"
        before, after = text[max(0, start - 40) : start], text[end : end + 40]
        unit = next((name for pattern, name in self.units if pattern.match(after)), None) if kind == "digits" else None
        if unit == "inch" and after.lstrip().startswith("”") and quotes.open_at(start):
            unit = None  # the closing quote of “Value of 0”, not an inch
        if unit == "share":
            value /= 100
        sign = None
        if kind == "digits" and start and text[start - 1] in _SIGNS and (start == 1 or text[start - 2] in _BEFORE_SIGN):
            sign = "+" if text[start - 1] == "+" else "-"
        window = max(0, start - 30)
        divided = self.divided.search(text[window:end]) if _last_word(text[window:start]) in self.divided_ends else None
        if divided is not None and divided.end() == end - window:
            number = divided.group("n").lower()
            divisor = self.words[number][0] if number in self.words else Fraction(int(number))
            value, kind = 1 / max(divisor, Fraction(1)), "word"
        comparison, scope = self._comparison(before, after, start - (sign is not None), end)
        return Quantity(value, unit, comparison, sign, kind, start, end, scope)

    def _value(self, number: str) -> Fraction:
        if self.thousands is not None and self.thousands.search(number) and _thousands(number):
            return Fraction(int(self.thousands.sub("", number)))
        return Fraction(self.decimal.sub(".", number))

    def _comparison(self, before: str, after: str, start: int, end: int) -> tuple[str | None, tuple[int, int]]:
        """The comparison written around a value, and where it and the value are written."""
        if re.match(r"^\+(?!\d)", after):
            return AT_LEAST, (start, end + 1)  # a roll of 3+
        found = self.after.match(after)
        if found and found.lastgroup:
            return self.after_names[found.lastgroup], (start, end + found.end())
        # The comparison ends the text before the value: unless its last word ends a phrase or a filler, none
        # is there, and the expression (each phrase tried from each of 40 characters) is not asked.
        found = self.before.search(before) if _last_word(before) in self.before_ends else None
        if found and found.lastgroup:
            words = before[found.start() :]
            return self.before_names[found.lastgroup], (
                start - len(words) + (len(words) - len(words.lstrip(" (,;:'’"))),
                end,
            )
        return None, (start, end)


def _last_word(text: str) -> str:
    """The word a text ends with, in lower case, spaces after it ignored, with the sign after its letters:
    ``moins``, ``d'``, ``min.``; a sign alone where no letter is before it (``1``)."""
    text = text.rstrip().lower().replace("’", "'")
    end = len(text) - 1 if text and not text[-1].isalpha() else len(text)
    start = end
    while start and text[start - 1].isalpha():
        start -= 1
    return text[start:]


class _Quotes:
    """Where the quotation marks of a text open and close, to tell whether one is open at an offset."""

    def __init__(self, text: str) -> None:
        self.opening = [i for i, c in enumerate(text) if c == "“"] if "“" in text else []
        self.closing = [i for i, c in enumerate(text) if c == "”"] if "”" in text else []

    def open_at(self, offset: int) -> bool:
        """Whether more quotes open than close before ``offset``."""
        return bisect.bisect_left(self.opening, offset) > bisect.bisect_left(self.closing, offset)


def _thousands(number: str) -> bool:
    """Whether digits with separators are grouped by thousands (1.000, 10 000), not a decimal or a section."""
    groups = re.split(r"[^\d]", number)
    return len(groups) > 1 and 1 <= len(groups[0]) <= 3 and all(len(group) == 3 for group in groups[1:])
