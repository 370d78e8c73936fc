"""Languages as data: what the translation checks and the edition diff read in a text of one language.

Each language is a TOML file shipped in this folder (``en.toml``, ``fr.toml``, ``de.toml``, ``es.toml``,
``it.toml``, ``pl.toml``), checked against ``language.schema.json``: its number words, comparison and
bound phrases, obligation and frequency words, dice, rounding, quotation marks, sentence rules and the
words that tell the language. A project adds a language, or changes words of a shipped one, with a file
of its own (a translation's ``language_file``, or ``rulebook compare --language-file``): its tables are
merged over the shipped file's key by key, its lists replace the shipped lists, and the result is
checked against the schema. No code knows any language's words.
"""

from __future__ import annotations

import copy
import functools
import json
import re
import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from rulebook.errors import UserError
from rulebook.names import ascii_lower

SCHEMA = "language.schema.json"
FOLD_WORD = re.compile(r"[a-z0-9]+")
"""A folded word (after :func:`ascii_lower`), as :meth:`Language.fold` reads words."""
MODALITIES = ("must", "may", "may_not", "only", "should", "always", "never")
"""The obligation and frequency categories a language file lists words for."""
COMPARISONS = ("more_than", "at_least", "less_than", "at_most")
"""The comparisons written before a value, in the order of :data:`BOUND_NAMES`."""


class LanguageError(UserError):
    """A language file that cannot be used (not TOML, not the schema's shape, another language's code)."""


@dataclass(frozen=True, slots=True)
class PluralRule:
    """One way a word's ending folds to its singular's."""

    ending: str
    becomes: str
    longer_than: int
    """Words this short or shorter keep the ending."""


@dataclass(frozen=True, slots=True)
class Language:
    """What the checks read in a text of one language (see ``docs/translation.md``, "Languages")."""

    code: str
    name: str
    """In English, as messages say it (``French``)."""
    native_name: str
    stop_words: frozenset[str]
    abbreviations: frozenset[str]
    quotes: tuple[tuple[str, str], ...]
    openers: str
    """Marks that may open a sentence (``¿¡``)."""
    space_before: str
    """Punctuation the typography puts a space before (French ``!?;:``)."""
    ordinal_dot: bool
    captions: tuple[str, ...]
    """Words a caption starts with, before its number ("Figure 3 –")."""
    introduces: tuple[str, ...]
    """Phrases of a sentence that only introduces a figure or table ("the following table")."""
    contents: tuple[str, ...]
    """Titles of a table of contents ("table of contents", « sommaire »), in lower case."""
    decimal_marks: str
    thousands_separators: str
    number_words: tuple[tuple[str, Fraction, str], ...]
    """(word in lower case, value, kind): kind ``word`` (cardinals, fractions, multiples) or ``ordinal``."""
    one: tuple[str, ...]
    divided_by: tuple[str, ...]
    pointers: tuple[str, ...]
    not_counts: tuple[str, ...]
    ordinal_suffixes: tuple[str, ...]
    inch: tuple[str, ...]
    point: tuple[str, ...]
    conversion_words: tuple[str, ...]
    """Words before a metric conversion a translator adds (« soit environ »)."""
    by: tuple[str, ...]
    """Words between two dimensions ("by", « par »)."""
    before: tuple[tuple[str, tuple[str, ...]], ...]
    """(comparison, phrases written before a value), in the order of :data:`COMPARISONS`."""
    after: tuple[tuple[str, tuple[str, ...]], ...]
    """(comparison, phrases written after a value): ``at_least`` and ``at_most``."""
    fillers: tuple[str, ...]
    filler_count: int
    dice_letters: str
    die_words: tuple[str, ...]
    roll_words: tuple[str, ...]
    modality: tuple[tuple[str, tuple[str, ...]], ...]
    """(category, phrases) for each of :data:`MODALITIES`."""
    rounding: tuple[tuple[str, tuple[str, ...]], ...]
    """(``up`` or ``down``, phrases)."""
    plural: tuple[PluralRule, ...]
    repeat_plural: bool
    function_words: frozenset[str]
    elisions: tuple[str, ...]
    elided_words: frozenset[str]
    compound_heads: frozenset[str]
    compound_tails: frozenset[str]
    repeatable: frozenset[str]
    phrase_stops: frozenset[str]
    """Words a proposed noun phrase never starts or ends with (``rulebook terms suggest``)."""
    phrase_links: frozenset[str]
    """Words that may stand inside one ("dé de déviation")."""

    def quote(self, words: str) -> str:
        """Words as the language quotes them (« équipage », „Mannschaft“, “crew”): its first pair of quotes."""
        opening, closing = self.quotes[0] if self.quotes else ("“", "”")
        return f"{opening}{words}{closing}"

    def comparison_words(self, comparison: str) -> str:
        """How the language writes a comparison (``more_than``...): the first phrase its file lists for it."""
        phrases = dict(self.before).get(comparison, ())
        return phrases[0] if phrases else comparison.replace("_", " ")

    def words_of(self, kind: str) -> dict[str, tuple[Fraction, str]]:
        """The number words as a table: word -> (value, kind)."""
        return {word: (value, found) for word, value, found in self.number_words if kind in ("all", found)}

    def fold(self, text: str) -> list[str]:
        """A text's words without case, accents or a plural ending: "Figurines" and "figurine" fold alike."""
        return [self.singular(word) for word in FOLD_WORD.findall(ascii_lower(text))]

    def singular(self, word: str) -> str:
        """A folded (lower-case, accentless) word without its plural or case ending, by :attr:`plural`; with
        :attr:`repeat_plural`, again while each ending taken makes it shorter, at most :data:`MOST_ENDINGS` times."""
        for _ in range(MOST_ENDINGS if self.repeat_plural else 1):
            rule = next((r for r in self.plural if word.endswith(r.ending) and len(word) > r.longer_than), None)
            if rule is None or rule.ending == rule.becomes:
                return word
            taken = word[: len(word) - len(rule.ending)] + rule.becomes
            if len(taken) >= len(word):  # `a` -> `b`, `b` -> `a`, or `a` -> `aa`: no end (the forty-eighth probe)
                return taken
            word = taken
        return word


MOST_ENDINGS = 8
"""How many plural or case endings a word may lose one after another: a language stacks two or three; a word of
`x` and 400,000 `es` lost them one at a time in Spanish, the word copied each time (0.8 MB: `compare` 10 s)."""


FOLDER = Path(__file__).parent
"""Where the shipped languages' files are (package data, beside this module)."""


@functools.cache
def shipped_codes() -> tuple[str, ...]:
    """The languages shipped with the compiler, by code (the configuration's check asks: a folder's listing)."""
    return tuple(sorted(entry.name[:-5] for entry in FOLDER.iterdir() if entry.name.endswith(".toml")))


@functools.cache
def shipped(code: str) -> Language:
    """A shipped language (a :class:`LanguageError` for a code none is shipped for)."""
    return make_language(_shipped_table(code))


def as_language(language: Language | str) -> Language:
    """A language given by its code is the shipped one."""
    return shipped(language) if isinstance(language, str) else language


def _shipped_table(code: str) -> dict[str, Any]:
    if code not in shipped_codes():
        known = ", ".join(shipped_codes())
        raise LanguageError(f"no language `{code}` is shipped (the languages: {known}); a language file adds one")
    text = (FOLDER / f"{code}.toml").read_text(encoding="utf-8")
    return tomllib.loads(text)


def load_language(code: str, path: Path | None = None, *, root: Path | None = None) -> Language:
    """The language ``code``: the shipped one, with a project's file over it when ``path`` names one.

    The file must name the same code; a code that is not shipped needs a complete file. ``root``: the
    project, whose files are read only inside it (:func:`rulebook.inputs.read_input`).
    """
    if path is None:
        return shipped(code)
    return read_language_file(path, root=root, code=code)


def read_language_file(path: Path, *, root: Path | None = None, code: str | None = None) -> Language:
    """A project's language file, over the shipped language of its code if there is one, checked."""
    from rulebook.fileio import shown_path
    from rulebook.inputs import InvalidToml, read_toml

    shown = shown_path(path, root) if root is not None else str(path)
    try:
        table = read_toml(path, root=root, kind="language file")
    except InvalidToml as error:  # the file as the project names it, not the absolute path
        raise LanguageError(str(error).replace(str(path), shown, 1)) from None
    _check(table, partial=True, origin=shown)
    named = table["code"]
    if code is not None and named != code:
        raise LanguageError(f"{shown}: the file describes `{named}`, not `{code}` (its `code`)")
    merged = merge(_shipped_table(named), table) if named in shipped_codes() else table
    _check(merged, partial=False, origin=shown)
    gapped = next(_over_gapped(merged), None)
    if gapped is not None:
        key, phrase = gapped
        raise LanguageError(
            f"{shown}: `{key}` gives the phrase `{phrase}`, with more than {MAX_GAPS} gaps (`...`, each up to six "
            "words), the most a phrase may have: each way of sharing the words out among them is tried (13 gaps held "
            "`build` for ever; the languages shipped use one)"
        )
    entries = _entries(merged)
    if entries > MAX_ENTRIES:
        raise LanguageError(
            f"{shown}: the language gives {entries:,} words and phrases, more than the {MAX_ENTRIES:,} a language may "
            "give (each is tried where a sentence may hold it: the languages shipped give at most 677)"
        )
    return make_language(merged)


MAX_ENTRIES = 2_000
"""The most words and phrases a language may give, in all its lists and tables: the comparison tries each where a
sentence may hold it, so a contributor's language file of 20,000 phrases made ``compare`` of a book of 210 KB take
232 s instead of 7 s (the schema holds each list and table to 300 entries; the languages shipped give 388 to 677)."""


MAX_GAPS = 2
"""The most gaps (``...``) a phrase may have (:mod:`rulebook.languages.phrases`)."""


def _over_gapped(table: Mapping[str, Any], where: str = "") -> Iterator[tuple[str, str]]:
    """Each phrase of a language table with more than :data:`MAX_GAPS` gaps, with its key."""
    for key, value in table.items():
        place = f"{where}.{key}" if where else str(key)
        items = value if isinstance(value, list) else [key, value] if not isinstance(value, Mapping) else []
        for item in items:
            if isinstance(item, str) and item.split(" ").count("...") > MAX_GAPS:
                yield place, item
        if isinstance(value, Mapping):
            yield from _over_gapped(value, place)


def _entries(table: Mapping[str, Any]) -> int:
    """The words and phrases of a language table: its lists' items and its tables' keys, at every depth."""
    count = 0
    for value in table.values():
        if isinstance(value, Mapping):
            nested = _entries(value)
            count += nested if nested else len(value)
        elif isinstance(value, list):
            count += len(value)
    return count


def merge(base: Mapping[str, Any], over: Mapping[str, Any]) -> dict[str, Any]:
    """``over`` merged into ``base``: tables key by key, anything else (lists, strings) replaced."""
    merged = copy.deepcopy(dict(base))
    for key, value in over.items():
        if isinstance(value, Mapping) and isinstance(merged.get(key), Mapping):
            merged[key] = merge(merged[key], value)
        else:
            merged[key] = copy.deepcopy(value)
    return merged


def check_language_table(table: Mapping[str, Any], origin: str) -> None:
    """Raise a :class:`LanguageError` naming the first key of a complete language table the schema refuses."""
    _check(table, partial=False, origin=origin)


def _check(table: Mapping[str, Any], *, partial: bool, origin: str) -> None:
    from fastjsonschema import JsonSchemaValueException

    try:
        _validator(partial)(table)
    except JsonSchemaValueException as error:
        raise LanguageError(f"{origin}: {_plain(error)}") from None


def _plain(error: Any) -> str:
    """A schema error as a message: the key in backticks (``numbers.cardinals.deux``), then what is wrong."""
    name = str(error.name)
    message = str(error.message)
    key = name[len("data.") :] if name.startswith("data.") else ""
    rest = message[len(name) :].strip() if message.startswith(name) else message
    if rest.startswith("must contain") and rest.endswith("properties"):
        wanted = re.findall(r"'([^']+)'", rest)
        tables = ", ".join(f"`{table}`" for table in wanted)
        where = f"`{key}`" if key else "a language the compiler does not ship"
        return f'{where} needs {tables} (`rulebook docs translation`, "Languages", lists what each holds)'
    return f"`{key}` {rest}" if key else f"the file {rest}"


@functools.cache
def _validator(partial: bool) -> Any:
    """The schema's validator (for a file over a shipped language: only ``code`` is required)."""
    import fastjsonschema

    schema = json.loads((FOLDER / SCHEMA).read_text(encoding="utf-8"))
    if partial:
        schema = _without_required(schema)
        schema["required"] = ["code"]
    return fastjsonschema.compile(schema)


def _without_required(node: Any) -> Any:
    if isinstance(node, dict):
        return {key: _without_required(value) for key, value in node.items() if key != "required"}
    if isinstance(node, list):
        return [_without_required(value) for value in node]
    return node


def make_language(table: Mapping[str, Any]) -> Language:
    """A :class:`Language` from its (checked) table."""
    sentences, numbers, words = table["sentences"], table["numbers"], table["words"]
    comparisons, dice = table["comparisons"], table["dice"]
    number_words = [
        (w.lower(), Fraction(v), "word")
        for part in ("cardinals", "multiples")
        for w, v in numbers.get(part, {}).items()
    ]
    number_words += [(w.lower(), Fraction(v), "word") for w, v in numbers.get("fractions", {}).items()]
    number_words += [(w.lower(), Fraction(v), "ordinal") for w, v in numbers.get("ordinals", {}).items()]
    longer = int(words.get("longer_than", 3))
    return Language(
        code=table["code"],
        name=table["name"],
        native_name=table.get("native_name", table["name"]),
        stop_words=_lower(table["detection"]["stop_words"]),
        abbreviations=_lower(sentences["abbreviations"]),
        quotes=tuple((pair[0], pair[1]) for pair in sentences["quotes"]),
        openers="".join(sentences.get("openers", [])),
        space_before="".join(sentences.get("space_before", [])),
        ordinal_dot=bool(sentences.get("ordinal_dot", False)),
        captions=_phrases(sentences.get("captions", [])),
        introduces=_phrases(sentences.get("introduces", [])),
        contents=_phrases(sentences.get("contents", [])),
        decimal_marks="".join(numbers["decimal_marks"]),
        thousands_separators="".join(numbers.get("thousands_separators", [])),
        number_words=tuple(sorted(number_words)),
        one=_phrases(numbers["one"]),
        divided_by=_phrases(numbers.get("divided_by", [])),
        pointers=_phrases(numbers.get("pointers", [])),
        not_counts=_phrases(numbers.get("not_counts", [])),
        ordinal_suffixes=tuple(numbers.get("ordinal_suffixes", [])),
        inch=_phrases(table["units"]["inch"]),
        point=_phrases(table["units"]["point"]),
        conversion_words=_phrases(table["units"].get("conversion_words", [])),
        by=_phrases(table["units"].get("by", [])),
        before=tuple((kind, _phrases(comparisons.get(kind, []))) for kind in COMPARISONS),
        after=tuple((kind, _phrases(comparisons.get(f"{kind}_after", []))) for kind in ("at_least", "at_most")),
        fillers=_phrases(comparisons.get("fillers", [])),
        filler_count=int(comparisons.get("filler_count", 1)),
        dice_letters="".join(dice["letters"]),
        die_words=_phrases(dice["words"]),
        roll_words=_phrases(dice["rolls"]),
        modality=tuple((kind, _phrases(table["modality"].get(kind, []))) for kind in MODALITIES),
        rounding=tuple((kind, _phrases(table["rounding"][kind])) for kind in ("up", "down")),
        plural=tuple(PluralRule(r["ending"], r["becomes"], int(r.get("longer_than", longer))) for r in words["plural"]),
        repeat_plural=bool(words.get("repeat", False)),
        function_words=_lower(words["function_words"]),
        elisions=tuple(w.lower() for w in words.get("elisions", [])),
        elided_words=_lower(words.get("elided_words", [])),
        compound_heads=_lower(words.get("compound_heads", [])),
        compound_tails=_lower(words.get("compound_tails", [])),
        repeatable=_lower(words.get("repeatable", [])),
        phrase_stops=_lower(words.get("phrase_stops", [])),
        phrase_links=_lower(words.get("phrase_links", [])),
    )


def _lower(words: list[str]) -> frozenset[str]:
    return frozenset(word.lower() for word in words)


def _phrases(phrases: list[str]) -> tuple[str, ...]:
    """Phrases in lower case, one space between words, each once, in the file's order."""
    return tuple(dict.fromkeys(" ".join(phrase.lower().split()) for phrase in phrases))
