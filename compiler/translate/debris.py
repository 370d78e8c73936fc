"""What a conversion from PDF leaves in a translation's text, each with its place.

Checks run on the source text itself (not the model), since the model already smooths what they look
for. The table of contents is skipped. Words are judged against a word list built from the same
translation: "nellement" is no word of it, "être" is. What a language allows (elisions, compounds, a
repeated word, the spaces of its typography) is its file's (:mod:`rulebook.languages.data`).
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rulebook.catalog.translation import CONVERSION_DEBRIS, DOUBLED_WORD, OTHER_SCRIPT, PUNCTUATION_SPACING
from rulebook.diagnostics import Rule
from rulebook.languages.data import Language, as_language
from rulebook.languages.phrases import CAPITALS, SMALL_LETTERS


@dataclass(frozen=True, slots=True)
class Debris:
    """One slip of the conversion."""

    rule: Rule
    start: int
    """Offset in the source text."""
    end: int
    message: str
    help: str


_LETTER = r"[^\W\d_]"
_UPPER = CAPITALS
_OTHER_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
_CHARACTERS = re.compile(r"[\u0131\u00ad\ufffd\ufb00-\ufb06]")
_LATEX = re.compile(r"\$[^$\n]{1,120}\$|\\[a-zA-Z]{2,}(?:\{[^}\n]{0,120}\})?")
"""A LaTeX fragment: ``$...$``, or a command with its argument (both of at most 120 characters, so that a line
of ``\\ab{`` is not searched to its end from each one)."""
_ESCAPED = re.compile(r"\\[!-/:-@\[\]^_`{|}~]")
"""A backslash before ASCII punctuation: Markdown's escape (valid in Markdown, where the reader shows the mark; in
another format, the backslash is shown too)."""
_STRAY_BACKSLASH = re.compile(r"\\(?![!-/:-@\[\]^_`{|}~a-zA-Z\n$])")
"""A backslash before what Markdown does not escape (a letter is LaTeX's): shown as it is, in any format."""
_HYPHENATED = re.compile(rf"(?<![\w-])({_LETTER}+)-({_LETTER}+)(?![\w-])")
_HYPHENATED_WORD = re.compile(rf"(?<![\w-]){_LETTER}+-{_LETTER}+(?![\w-])")
_WORDS = re.compile(rf"{_LETTER}+")
_VOWELS = "aeiouyhâàèêëîïôûœáíóúìòù"
"""Letters an elided word may start with (not « é »: « décrit » is no « d'écrit »)."""
_EMPHASIS = re.compile(rf"[.!?][*_]{{1,2}}(?={_LETTER})")
_JOINED = re.compile(rf"(?<![\w'’])([{SMALL_LETTERS}]{_LETTER}*) ([{_UPPER}]{_LETTER}+)")
_START = re.compile(rf"(?:^|[.!?]\s)[\s\-*·•]*([{_UPPER}]{_LETTER}+)")
"""A word starting a sentence (the space after the full stop one character: as ``\\s+[\\s...]*``, the run of
spaces could be split between the two in quadratically many ways before the word after it is ruled out)."""
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class _Rules:
    """What the checks need of the translation's language (and the original's words a sentence never ends with)."""

    language: Language
    never_last: frozenset[str]
    """Words no sentence ends with (articles, prepositions, conjunctions), in either language."""
    own_words: frozenset[str]
    """The translation's common words the original's language does not use: a line with one is the translation's."""
    elision: re.Pattern[str] | None
    decimal: re.Pattern[str]
    spacing: re.Pattern[str] | None


def _rules(language: Language, original: Language) -> _Rules:
    elisions = "|".join(re.escape(e) for e in sorted(language.elisions, key=len, reverse=True))
    elision = re.compile(rf"(?<![\w'’])({elisions})([{_VOWELS}]{_LETTER}+)", re.IGNORECASE) if elisions else None
    inches = "|".join(re.escape(w) for w in language.inch)
    decimal = re.compile(rf"(?<![\d,])\d+, \d+\s?(?:mm|cm|km|m|%|\"|″|”|''|{inches})(?!\w)")
    marks = re.escape(language.space_before)
    spacing = re.compile(rf"(?<=[^\s{marks}])[{marks}](?=\s|$)", re.MULTILINE) if marks else None
    return _Rules(
        language,
        language.function_words | original.function_words,
        language.stop_words - original.stop_words,
        elision,
        decimal,
        spacing,
    )


def find_debris(
    text: str,
    *,
    skip: tuple[int, int] = (0, 0),
    language: Language | str = "fr",
    original: Language | str = "en",
    markdown: bool = True,
    dialect: bool = False,
) -> list[Debris]:
    """Every slip of the conversion in a translation's text, in order (``skip``: the table of contents).

    ``markdown``: whether the text is Markdown, whose escapes (``\\*``) are valid and shown as the mark;
    ``dialect``: whether it is written in the rulebook's dialect, whose markup is no words
    (:func:`rulebook.readers.markdown_syntax.blank_dialect`), by hand: no word of it was split at a PDF's line end.
    """
    if dialect:
        from rulebook.readers.markdown_syntax import blank_dialect  # markdown-it only where the dialect is read

        text = blank_dialect(text)
    rules = _rules(as_language(language), as_language(original))
    vocabulary = WordList(text)
    found = [
        *(debris for pattern in _PATTERNS for debris in pattern.find(text)),
        *_ESCAPES[markdown].find(text),
        *_DECIMALS.find(text, rules.decimal),
        # A line-end hyphen is the PDF's: in a translation written in the dialect, `six-sided` is a compound.
        *(() if dialect else _split_words(text, vocabulary, rules.language)),
        *_lost_apostrophes(text, vocabulary, rules),
        *_glued_emphasis(text),
        *_missing_stops(text, vocabulary, rules),
        *_doubled(text, rules.language),
        *_spacing(text, rules),
    ]
    return sorted((d for d in found if not skip[0] <= d.start < skip[1]), key=lambda d: (d.start, d.rule.code))


@dataclass(frozen=True, slots=True)
class _Pattern:
    """A slip that a regular expression finds on its own: each match is one, said in these words."""

    rule: Rule
    regex: re.Pattern[str] | None
    message: Callable[[str], str]
    help: Callable[[str], str]

    def find(self, text: str, regex: re.Pattern[str] | None = None) -> Iterator[Debris]:
        """Each match in the text (of ``regex``, when the pattern's own depends on the language), as a slip."""
        pattern = regex or self.regex
        assert pattern is not None
        for m in pattern.finditer(text):
            yield Debris(self.rule, *m.span(), self.message(m.group()), self.help(m.group()))


_PATTERNS = (
    _Pattern(
        OTHER_SCRIPT,
        _OTHER_SCRIPT,
        lambda found: f"`{found}` is {unicodedata.name(found, 'a letter of another script')}, not a Latin letter",
        lambda found: "type the Latin letter it stands for",
    ),
    _Pattern(
        CONVERSION_DEBRIS,
        _CHARACTERS,
        lambda found: f"conversion debris: {unicodedata.name(found, repr(found)).lower()}",
        lambda found: "retype the word without it",
    ),
    _Pattern(
        CONVERSION_DEBRIS,
        _LATEX,
        lambda found: f"a LaTeX fragment `{found.strip()}` is left in the text",
        lambda found: "write what it stands for as plain text",
    ),
)
_ESCAPES = {
    False: _Pattern(
        CONVERSION_DEBRIS,
        _ESCAPED,
        lambda found: f"escaped Markdown `{found}` is read as text",
        lambda found: f"write `{found[1]}` without the backslash, or reword",
    ),
    True: _Pattern(
        CONVERSION_DEBRIS,
        _STRAY_BACKSLASH,
        lambda found: "a backslash is left in the text (Markdown escapes only ASCII punctuation)",
        lambda found: "remove the backslash",
    ),
}
_DECIMALS = _Pattern(
    CONVERSION_DEBRIS,
    None,
    lambda found: f"a decimal number is broken by a space: `{found}`",
    lambda found: f"write `{found.replace(', ', ',', 1)}`",
)


class WordList:
    """The words of a text, as written and lower-cased, with their counts; hyphenated words apart."""

    def __init__(self, text: str) -> None:
        self.hyphenated = Counter(_HYPHENATED_WORD.findall(text))
        plain = _HYPHENATED.sub(" ", text)
        self.written = Counter(_WORDS.findall(plain))
        self.lower: Counter[str] = Counter()
        for word, count in self.written.items():
            self.lower[word.lower()] += count
        self.mid_sentence = Counter(m.group(2) for m in _JOINED.finditer(plain))
        """Capitalised words found after a lower-case word: names and terms, not sentence starts."""
        self.starts = Counter(m.group(1) for _, line in _prose_lines(plain) for m in _START.finditer(line))
        """Capitalised words found at a sentence's start (headings are not sentences)."""

    def knows(self, word: str) -> bool:
        """Whether the text uses the word on its own (any case)."""
        return self.lower[word.lower()] > 0


def _split_words(text: str, words: WordList, language: Language) -> Iterator[Debris]:
    for m in _HYPHENATED.finditer(text):
        head, tail = m.group(1), m.group(2)
        if tail[0].isupper() or head.lower() in language.compound_heads or tail.lower() in language.compound_tails:
            continue
        if words.knows(tail) or words.hyphenated[m.group()] > 1:
            continue
        yield Debris(
            CONVERSION_DEBRIS,
            *m.span(),
            f"`{m.group()}` is a word split at a line end (`{tail}` is no word of the translation)",
            f"write `{head}{tail}`",
        )


def _lost_apostrophes(text: str, words: WordList, rules: _Rules) -> Iterator[Debris]:
    if rules.elision is None:
        return
    known = rules.language.elided_words
    for m in rules.elision.finditer(text):
        glued, rest = m.group(), m.group(2)
        if glued.lower() in known or words.lower[glued.lower()] > 1 or not words.knows(rest) or len(rest) < 3:
            continue
        yield Debris(
            CONVERSION_DEBRIS,
            *m.span(),
            f"`{glued}` lost the apostrophe of its elision",
            f"write `{m.group(1)}'{rest}`",
        )


def _glued_emphasis(text: str) -> Iterator[Debris]:
    for m in _EMPHASIS.finditer(text):
        yield Debris(
            CONVERSION_DEBRIS,
            m.start() + 1,
            m.end(),
            f"the emphasis marker `{m.group()[1:]}` is glued to the next sentence",
            "put a space after the closing marker",
        )


def _missing_stops(text: str, words: WordList, rules: _Rules) -> Iterator[Debris]:
    """A lower-case word then a capitalised one that mostly starts sentences ("bataille Pour"): a full stop was lost.

    Capitalised words the text also uses after lower-case words as often as it starts sentences
    with them are names and terms ("de Batailles Fantastiques", "un Personnage"); so is one followed by
    a capitalised word or a number ("Le 9e Âge", "Troupe Légère"). A sentence never ends with an
    article, a preposition or a conjunction ("ou Un par Armée").
    """
    for line_start, line in _prose_lines(text):
        for m in _JOINED.finditer(line):
            word, before = m.group(2), m.group(1).lower()
            starts_sentences = words.starts[word] >= 2 * words.mid_sentence[word]
            if not starts_sentences or words.lower[word.lower()] - words.written[word] < 2:
                continue
            after = line[m.end() :].split(maxsplit=1)[:1]
            if before in rules.never_last or (after and (after[0][:1].isupper() or after[0][:1].isdigit())):
                continue
            if line[m.end() : m.end() + 1] in ("-", "'", "’"):
                continue  # a compound: "la règle Avant-Garde"
            yield Debris(
                CONVERSION_DEBRIS,
                line_start + m.start(2) - 1,
                line_start + m.start(2),
                f"a sentence seems to end after `{m.group(1)}` without its full stop",
                f"write `{m.group(1)}. {word}`",
            )


def _prose_lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.split("\n"):
        if line.strip() and not line.lstrip().startswith(("#", "|", "<")) and "\t" not in line:
            yield start, line
        start += len(line) + 1


def _doubled(text: str, language: Language) -> Iterator[Debris]:
    for m in _DOUBLED.finditer(text):
        if m.group(1).lower() in language.repeatable or m.group(1).isdigit():
            continue
        yield Debris(DOUBLED_WORD, *m.span(), f"`{m.group()}` repeats a word", f"write `{m.group(1)}` once")


def _spacing(text: str, rules: _Rules) -> Iterator[Debris]:
    if rules.spacing is None:
        return
    name = rules.language.name
    for line_start, line in _lines(text):
        if not line.lstrip().startswith("#") and not _reads_as(line, rules.own_words):
            continue
        for m in rules.spacing.finditer(line):
            before = line[max(0, m.start() - 12) : m.start()].split()[-1:] or [""]
            yield Debris(
                PUNCTUATION_SPACING,
                line_start + m.start(),
                line_start + m.end(),
                f"`{m.group()}` is glued to `{before[0]}`: {name} puts a space before it",
                f"write `{before[0]} {m.group()}` (a narrow no-break space, U+202F, or a plain space)",
            )


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def _reads_as(line: str, own_words: frozenset[str]) -> bool:
    """Whether a line has a word only the translation's language uses (an English line, a bare address, is
    left alone)."""
    return any(word.lower() in own_words for word in _WORDS.findall(line))
