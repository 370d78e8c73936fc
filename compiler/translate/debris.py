"""What a conversion from PDF leaves in a translation's text, each with its place.

Checks run on the source text itself (not the model), since the model already smooths what they look
for. The table of contents is skipped. Words are judged against a word list built from the same
translation: "nellement" is no word of it, "être" is.
"""

from __future__ import annotations

import re
import unicodedata
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from rulebook.catalog.translation import CONVERSION_DEBRIS, DOUBLED_WORD, OTHER_SCRIPT, PUNCTUATION_SPACING
from rulebook.diagnostics import Rule
from rulebook.translate.language import STOP_WORDS


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
_UPPER = "A-ZÀ-ÖØ-Þ"
_OTHER_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
_CHARACTERS = re.compile(r"[\u0131\u00ad\ufffd\ufb00-\ufb06]")
_LATEX = re.compile(r"\$[^$\n]{1,120}\$|\\[a-zA-Z]{2,}(?:\{[^}\n]{0,120}\})?")
"""A LaTeX fragment: ``$...$``, or a command with its argument (both of at most 120 characters, so that a line
of ``\\ab{`` is not searched to its end from each one)."""
_ESCAPED = re.compile(r"\\[!-/:-@\[\]^_`{|}~]")
"""A backslash before ASCII punctuation: Markdown's escape, which the conversion left for the reader to see."""
_HYPHENATED = re.compile(rf"(?<![\w-])({_LETTER}+)-({_LETTER}+)(?![\w-])")
_HYPHENATED_WORD = re.compile(rf"(?<![\w-]){_LETTER}+-{_LETTER}+(?![\w-])")
_WORDS = re.compile(rf"{_LETTER}+")
_ELISION = re.compile(rf"(?<![\w'’])(qu|d|l)([aeiouyhâàèêëîïôûœ]{_LETTER}+)", re.IGNORECASE)
ELIDED_WORDS = frozenset(
    [
        "quel",
        "quelle",
        "quels",
        "quelles",
        "quelque",
        "quelques",
        "quand",
        "quant",
        "quoi",
        "quoique",
        "lui",
        "leur",
        "leurs",
        "lors",
        "lorsque",
        "loin",
        "long",
        "longue",
        "lequel",
        "laquelle",
        "lesquels",
        "lesquelles",
        "laisser",
        "lieu",
        "lieux",
        "dire",
        "dont",
        "dieu",
        "diable",
    ]
)
"""French words that start like an elision but are words ("quelle" is not "qu'elle")."""
_EMPHASIS = re.compile(rf"[.!?][*_]{{1,2}}(?={_LETTER})")
_JOINED = re.compile(rf"(?<![\w'’])([a-zà-ÿ]{_LETTER}*) ([{_UPPER}]{_LETTER}+)")
_START = re.compile(rf"(?:^|[.!?]\s)[\s\-*·•]*([{_UPPER}]{_LETTER}+)")
"""A word starting a sentence (the space after the full stop one character: as ``\\s+[\\s...]*``, the run of
spaces could be split between the two in quadratically many ways before the word after it is ruled out)."""
_DECIMAL = re.compile(r"(?<![\d,])\d+, \d+\s?(?:mm|cm|km|m|%|\"|″|”|''|pouces?)(?!\w)")
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
_SPACING = re.compile(r"(?<=[^\s?!;:])[!?;:](?=\s|$)", re.MULTILINE)
REPEATABLE = frozenset({"vous", "nous", "que", "de"})
"""Words a correct French sentence may repeat ("vous vous", "nous nous")."""
COMPOUND_HEADS = frozenset(
    [
        "au",
        "ci",
        "quasi",
        "sous",
        "demi",
        "semi",
        "non",
        "anti",
        "avant",
        "arrière",
        "après",
        "contre",
        "porte",
        "pré",
        "vice",
        "ex",
        "mi",
        "néo",
        "pseudo",
        "sur",
        "super",
        "peut",
        "est",
        "soit",
        "celui",
        "celle",
        "ceux",
        "celles",
        "elle",
        "lui",
        "eux",
        "moi",
        "toi",
        "nous",
        "vous",
        "là",
        "grand",
        "grande",
        "petit",
    ]
)
"""Words that start hyphenated compounds ("au-dessus", "quasi-instantané"): what follows is a word."""
COMPOUND_TAILS = frozenset(
    [
        "ci",
        "là",
        "même",
        "mêmes",
        "vous",
        "nous",
        "les",
        "le",
        "la",
        "lui",
        "leur",
        "moi",
        "toi",
        "en",
        "y",
        "il",
        "elle",
        "ils",
        "elles",
        "on",
        "ce",
    ]
)
_FRENCH_ONLY = STOP_WORDS["fr"] - STOP_WORDS["en"]
NEVER_LAST = frozenset(
    [*STOP_WORDS["fr"], *STOP_WORDS["en"], "pour", "sans", "entre", "vers", "chez", "d", "l", "qu", "au", "aux"]
) - {"pas", "est", "sont", "peut", "doit"}
"""Words no sentence ends with (articles, prepositions, conjunctions), in either language."""


def find_debris(text: str, *, skip: tuple[int, int] = (0, 0), language: str = "fr") -> list[Debris]:
    """Every slip of the conversion in a translation's text, in order (``skip``: the table of contents)."""
    vocabulary = WordList(text)
    found = [
        *(debris for pattern in _PATTERNS for debris in pattern.find(text)),
        *_split_words(text, vocabulary),
        *_lost_apostrophes(text, vocabulary),
        *_glued_emphasis(text),
        *_missing_stops(text, vocabulary),
        *_doubled(text),
    ]
    if language == "fr":
        found += _spacing(text)
    return sorted((d for d in found if not skip[0] <= d.start < skip[1]), key=lambda d: (d.start, d.rule.code))


@dataclass(frozen=True, slots=True)
class _Pattern:
    """A slip that a regular expression finds on its own: each match is one, said in these words."""

    rule: Rule
    regex: re.Pattern[str]
    message: Callable[[str], str]
    help: Callable[[str], str]

    def find(self, text: str) -> Iterator[Debris]:
        """Each match in the text, as a slip."""
        for m in self.regex.finditer(text):
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
    _Pattern(
        CONVERSION_DEBRIS,
        _ESCAPED,
        lambda found: f"escaped Markdown `{found}` is read as text",
        lambda found: f"write `{found[1]}` without the backslash, or reword",
    ),
    _Pattern(
        CONVERSION_DEBRIS,
        _DECIMAL,
        lambda found: f"a decimal number is broken by a space: `{found}`",
        lambda found: f"write `{found.replace(', ', ',', 1)}`",
    ),
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


def _split_words(text: str, words: WordList) -> Iterator[Debris]:
    for m in _HYPHENATED.finditer(text):
        head, tail = m.group(1), m.group(2)
        if tail[0].isupper() or head.lower() in COMPOUND_HEADS or tail.lower() in COMPOUND_TAILS:
            continue
        if words.knows(tail) or words.hyphenated[m.group()] > 1:
            continue
        yield Debris(
            CONVERSION_DEBRIS,
            *m.span(),
            f"`{m.group()}` is a word split at a line end (`{tail}` is no word of the translation)",
            f"write `{head}{tail}`",
        )


def _lost_apostrophes(text: str, words: WordList) -> Iterator[Debris]:
    for m in _ELISION.finditer(text):
        glued, rest = m.group(), m.group(2)
        if glued.lower() in ELIDED_WORDS or words.lower[glued.lower()] > 1 or not words.knows(rest) or len(rest) < 3:
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


def _missing_stops(text: str, words: WordList) -> Iterator[Debris]:
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
            if before in NEVER_LAST or (after and (after[0][:1].isupper() or after[0][:1].isdigit())):
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


def _doubled(text: str) -> Iterator[Debris]:
    for m in _DOUBLED.finditer(text):
        if m.group(1).lower() in REPEATABLE or m.group(1).isdigit():
            continue
        yield Debris(DOUBLED_WORD, *m.span(), f"`{m.group()}` repeats a word", f"write `{m.group(1)}` once")


def _spacing(text: str) -> Iterator[Debris]:
    for line_start, line in _lines(text):
        if not line.lstrip().startswith("#") and not _reads_french(line):
            continue
        for m in _SPACING.finditer(line):
            before = line[max(0, m.start() - 12) : m.start()].split()[-1:] or [""]
            yield Debris(
                PUNCTUATION_SPACING,
                line_start + m.start(),
                line_start + m.end(),
                f"`{m.group()}` is glued to `{before[0]}`: French puts a space before it",
                f"write `{before[0]} {m.group()}` (a narrow no-break space, U+202F, or a plain space)",
            )


def _lines(text: str) -> Iterator[tuple[int, str]]:
    start = 0
    for line in text.split("\n"):
        yield start, line
        start += len(line) + 1


def _reads_french(line: str) -> bool:
    """Whether a line has a word only French uses (an English line, a bare address, is left alone)."""
    return any(word.lower() in _FRENCH_ONLY for word in re.findall(rf"{_LETTER}+", line))
