"""The bilingual terminology: a curated list keyed by the original's term ids, its checks and exports.

A translation's ``terms.toml`` (``rulebook_src/fr/terms.toml``) gives for each term id of the original
the preferred rendering in the translation's language, accepted variants and forbidden variants.
Matching folds case, accents and plurals (the language's endings), so "Figurines" matches "figurine".
Exported as TBX (ISO 30042, TBX-Basic style) and CSV for translation tools;
:mod:`rulebook.translate.suggestions` proposes entries for ids not listed yet, from the aligned
sentences, for a person to confirm.
"""

from __future__ import annotations

import csv
import io
import itertools
import re
import unicodedata
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from rulebook.config_file import toml_kind
from rulebook.errors import TerminologyError, UserError, quoted
from rulebook.inputs import read_toml
from rulebook.languages.data import FOLD_WORD, Language, as_language, shipped, shipped_codes
from rulebook.model import Book
from rulebook.names import ascii_lower
from rulebook.source import xml_text
from rulebook.suggest import Suggester


@dataclass(frozen=True, slots=True)
class Entry:
    """One term's renderings in the translation's language."""

    term: str
    """The English term id."""
    preferred: str
    accepted: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    unlinked: tuple[str, ...] = ()
    """Phrases the site never links: renderings that are also ordinary words ("points"), or phrases
    that contain the term and mean something else ("unité de mesure")."""


def read_translation_toml(path: Path, *, root: Path | None = None, kind: str = "terminology") -> dict[str, Any]:
    """A translation's TOML file (terminology, waivers), or a plain-words error naming it (``root``: the
    project, when the file is one of its own: it is read only inside it, see :func:`~rulebook.inputs.read_input`)."""
    try:
        return read_toml(path, root=root, kind=kind)
    except UserError as error:  # the file and the fault in words: this error names what the file is for
        raise TerminologyError(str(error)) from error


_ENTRY_KEYS = ("preferred", "accepted", "forbidden", "unlinked")
"""What a term's entry holds."""


def load_terminology(path: Path, *, root: Path | None = None) -> dict[str, Entry]:
    """A terms.toml file's entries, by English term id (``root``: see :func:`read_translation_toml`)."""
    table = read_translation_toml(path, root=root)
    entries = {}
    for term, fields in sorted(table.items()):
        _one_line(path, term, "a term id")
        if not isinstance(fields, dict):  # `fighter = "combattant"`: said to need what it seemed to give
            raise TerminologyError(
                f'{path}: {quoted(term)} is a table of its own: `[{term}]`, then `preferred = "..."` (the rendering '
                "to use)"
            )
        if "preferred" not in fields:
            raise TerminologyError(f"{path}: {quoted(term)} needs a `preferred` term (the rendering to use)")
        if not isinstance(fields["preferred"], str):
            raise TerminologyError(
                f"{path}: `preferred` of {quoted(term)} must be a phrase, not {toml_kind(fields['preferred'])}"
            )
        if not fields["preferred"].strip():  # `preferred = ""` rendered the term as nothing, in silence
            raise TerminologyError(f"{path}: `preferred` of {quoted(term)} is empty: write the rendering to use")
        if extra := sorted(set(fields) - set(_ENTRY_KEYS)):  # a misspelt `forbiden` forbade nothing, in silence
            raise TerminologyError(
                f"{path}: {quoted(extra[0])} is not a key of a term's entry ({quoted(term)} holds "
                f"{', '.join(f'`{key}`' for key in _ENTRY_KEYS)})"
            )
        entries[term] = Entry(
            term,
            _one_line(path, fields["preferred"], f"`preferred` of {quoted(term)}"),
            *(_strings(path, term, fields, key) for key in ("accepted", "forbidden", "unlinked")),
        )
    return entries


def unknown_entries(entries: Iterable[str], original: Book, *, shown: str) -> str | None:
    """A note naming the terms file's entries for names the original neither defines nor refers to (a misspelt
    ``[chrage]`` renders nothing and was passed over in silence), each with the nearest term; ``shown``: the
    file as the note names it. None when every entry names a term."""
    names = {d.name for d in original.definitions} | {r.name for r in original.references}
    names |= {name.split(":", 1)[1] for name in names if ":" in name}  # a term of a book it uses, by its name
    unknown = sorted(set(entries) - names)
    if not unknown:
        return None
    suggester = Suggester(names)

    def named(entry: str) -> str:
        near = suggester.suggest(entry)
        return f"`{entry}`" + (f" (did you mean `{near[0]}`?)" if near else "")

    shown_entries = ", ".join(named(entry) for entry in unknown[:20]) + (" ..." if len(unknown) > 20 else "")
    return (
        f"{shown}: {len(unknown)} entr{'ies name' if len(unknown) != 1 else 'y names'} no term of the original, "
        f"so {'they render' if len(unknown) != 1 else 'it renders'} nothing: {shown_entries}"
    )


def marked_terms(translation: Book) -> dict[str, Entry]:
    """The renderings a translation marks itself, by the original's term id: a translation written in the dialect
    pairs each word with its term (``[[round|Runde]]``, ``[...]{dfn=round}``), so its marks are a terminology.

    ``preferred``: the rendering marked most often (the first marked, among as many); ``accepted``: the others, in
    the order the text first marks them. A translation that marks nothing (the French seed, read from a PDF's
    conversion) gives none."""
    written: dict[str, Counter[str]] = {}
    for reference in translation.references:
        text = " ".join(reference.text.split())
        if text and _words(text) <= LONGEST_PHRASE:  # a mark of a sentence's words is no rendering of a term
            written.setdefault(reference.name, Counter())[text] += 1
    entries = {}
    for term, counts in sorted(written.items()):
        preferred = counts.most_common(1)[0][0]
        entries[term] = Entry(term, preferred, tuple(text for text in counts if text != preferred))
    return entries


def with_marked(entries: dict[str, Entry], translation: Book) -> dict[str, Entry]:
    """A translation's terminology: the renderings its text marks (:func:`marked_terms`), each term's entry of its
    terms.toml in place of the marked one (the file only overrides)."""
    return dict(sorted({**marked_terms(translation), **entries}.items()))


def _strings(path: Path, term: str, fields: dict[str, Any], key: str) -> tuple[str, ...]:
    """A list of phrases of an entry, checked: a list of strings."""
    value = fields.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise TerminologyError(f'{path}: `{key}` of {quoted(term)} must be a list of phrases, such as ["socle"]')
    return tuple(_one_line(path, item, f"`{key}` of {quoted(term)}") for item in value)


_CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\ufffe\uffff]")
"""Characters a term never holds: controls (XML 1.0 forbids most of them, a TBX export could not hold them)
and the two non-characters."""


_WORD = FOLD_WORD
"""A word of a phrase, as the matcher folds it (hyphens and apostrophes part words: `a-a-a` is three)."""


def _words(text: str) -> int:
    """How many words ``text`` has as the matcher reads them (folded as :meth:`Language.fold` folds: ``⑴⑴⑴`` is
    three words ``1``), counted up to one more than :data:`LONGEST_PHRASE`."""
    return sum(1 for _ in itertools.islice(_WORD.finditer(ascii_lower(text)), LONGEST_PHRASE + 1))


LONGEST_PHRASE = 30
"""The most words a phrase of the terminology may have: each is looked for at every word of a translation that
starts it (an ``accepted`` phrase of 10,000 words, 20 KB, held ``status`` 25 s on a translation of 244 KB)."""


def _one_line(path: Path, text: str, what: str) -> str:
    """``text``, a phrase of the terminology, if it holds no control character and at most :data:`LONGEST_PHRASE`
    words; else a plain error."""
    found = _CONTROL.search(text)
    if found is not None:
        raise TerminologyError(
            f"{path}: {what} holds the control character U+{ord(found.group()):04X}: a term is one line of text"
        )
    if _words(text) > LONGEST_PHRASE:
        raise TerminologyError(
            f"{path}: {what} has more than {LONGEST_PHRASE} words: a term's rendering is a phrase, not a sentence"
        )
    return text


def fold(text: str, language: Language | str = "fr") -> list[str]:
    """A translation's words without case, accents or a plural ending: "Figurines" and "figurine" fold alike
    (the plural endings are the language's, :meth:`~rulebook.languages.data.Language.singular`)."""
    return as_language(language).fold(text)


SHORT_FORM = 2
"""Renderings this short (profile abbreviations: ``A``, ``CC``) match only as whole words written as listed."""
SHARED_RENDERING = 8
"""A rendering more terms accept than this names none of them: it is matched for none (a terminology of 1,000 terms
accepting one form made each sentence writing it render all 1,000, work growing with terms times sentences, 7.9 s
and 555 MB for 1,000 sentences). The bundled terminology shares a rendering between two terms at most."""
_TOKEN = re.compile(r"[^\W_]+")


def tokens(text: str, language: Language | str = "fr") -> list[tuple[str, str, int, int]]:
    """A text's words as (folded, written, start, end): folded without case, accents or plural."""
    language = as_language(language)
    known = _FOLDED.setdefault(language.code, {})
    found = []
    for match in _TOKEN.finditer(text):
        word = match.group()
        folded = known.get(word)
        if folded is None:
            folded = known[word] = next(iter(language.fold(word)), "")
        if folded:
            found.append((folded, word, match.start(), match.end()))
    return found


_FOLDED: dict[str, dict[str, str]] = {}
"""Each word folded once per language (a book has a few thousand distinct words)."""


class TermMatcher:
    """Where a text renders the terms of a terminology (preferred or accepted forms) or a forbidden variant.

    Forms are folded (case, accents, plural), except forms of one or two letters: those are
    abbreviations (``A`` for Attaques, ``M`` for Mouvement) and match only as whole words written
    exactly as listed, never the preposition "à" or "a", nor "m" for metres.
    """

    def __init__(self, entries: dict[str, Entry], language: Language | str = "fr") -> None:
        self.entries = entries
        self.language = as_language(language)
        self._spans: dict[str, list[tuple[str, int, int, bool]]] = {}
        self.forms: dict[str, list[tuple[tuple[str, ...], tuple[str, ...]]]] = {}
        """By its first word folded, each rendering (preferred or accepted) folded, and the terms it renders: a form
        looked for once, its owners filed once, however many terms render it."""
        self.short: dict[str, tuple[str, ...]] = {}
        self.shared: dict[str, int] = {}
        """Renderings more than :data:`SHARED_RENDERING` terms share, as written, and how many: matched for none."""
        self.wrong: dict[str, list[tuple[str, tuple[str, ...]]]] = {}
        """By its first word folded, each forbidden form, as written and folded (once, however many terms forbid it)."""
        self.forbidding: dict[str, list[str]] = {}
        """The terms that forbid each form as written, in the terminology's order."""
        for term, entry in entries.items():
            for form in entry.forbidden:
                self.forbidding.setdefault(form, []).append(term)
        self.ordinary: set[tuple[str, tuple[str, ...]]] = {
            (term, tuple(self.language.fold(form))) for term, entry in entries.items() for form in entry.unlinked
        }
        short: dict[str, list[str]] = {}
        owners: dict[tuple[str, ...], list[str]] = {}
        written: dict[tuple[str, ...], str] = {}
        looked_for: set[str] = set()
        for term, entry in sorted(entries.items()):
            for form in (entry.preferred, *entry.accepted):
                if len(form.strip()) <= SHORT_FORM:
                    short.setdefault(form.strip(), []).append(term)
                elif words := tuple(self.language.fold(form)):
                    owners.setdefault(words, []).append(term)
                    written.setdefault(words, form)
            for form in entry.forbidden:
                words = tuple(self.language.fold(form))
                if words and form not in looked_for:  # once, not once for each term forbidding it
                    looked_for.add(form)
                    self.wrong.setdefault(words[0], []).append((form, words))
        for form, terms in short.items():
            if self._distinct(form, terms):
                self.short[form] = tuple(terms)
        for words, terms in owners.items():
            if self._distinct(written[words], terms):
                self.forms.setdefault(words[0], []).append((words, tuple(terms)))
        self._rendered = {words: terms for forms in self.forms.values() for words, terms in forms}
        self._rendered_lengths = _lengths(self._rendered)
        self._wrong_forms: dict[tuple[str, ...], list[str]] = {}
        for forms_of_word in self.wrong.values():
            for form, words in forms_of_word:
                self._wrong_forms.setdefault(words, []).append(form)
        self._wrong_lengths = _lengths(self._wrong_forms)

    def _distinct(self, form: str, terms: list[str]) -> bool:
        """Whether a rendering names few enough terms to be matched for them (else it is filed in ``shared``)."""
        if len(set(terms)) <= SHARED_RENDERING:
            return True
        self.shared[form] = len(set(terms))
        return False

    def terms(self, text: str) -> frozenset[str]:
        """The term ids the text renders."""
        return frozenset(term for term, _, _ in self.spans(text))

    def spans(self, text: str, *, ordinary: bool = True) -> list[tuple[str, int, int]]:
        """Each rendering of a term in the text, as (term id, start, end).

        ``ordinary=False`` leaves out renderings the terminology lists as ``unlinked``: ordinary words
        ("points") that say little about which term is meant. Each text is read once.
        """
        found = self._spans.get(text)
        if found is None:
            found = self._spans[text] = self._find(text)
        return [(term, start, end) for term, start, end, plain in found if ordinary or not plain]

    def _find(self, text: str) -> list[tuple[str, int, int, bool]]:
        """(term id, start, end, whether the rendering is an ordinary word) of each rendering."""
        words = tokens(text, self.language)
        folded = [word[0] for word in words]
        found = [(term, start, end, False) for _, written, start, end in words for term in self.short.get(written, ())]
        for index, word in enumerate(folded):  # each form looked up whole, by the lengths of those starting here
            for length in self._rendered_lengths.get(word, ()):
                form = tuple(folded[index : index + length])
                terms = self._rendered.get(form) if len(form) == length else None
                if terms is not None:
                    start, end = words[index][2], words[index + length - 1][3]
                    found += [(term, start, end, (term, form) in self.ordinary) for term in terms]
        return found

    def forbidden(self, text: str, term: str | None = None) -> list[tuple[str, int, int]]:
        """Forbidden variants the text uses (of ``term`` only, if given), as (form, start, end) in ``text``: each
        once, however many terms forbid it (it was found once a term, and a terminology of 250 terms forbidding
        one word made 250 findings of each use, 187,500 in all)."""
        words = tokens(text, self.language)
        folded = [word[0] for word in words]
        found = []
        for index, word in enumerate(folded):
            for length in self._wrong_lengths.get(word, ()):
                wanted = tuple(folded[index : index + length])
                for form in self._wrong_forms.get(wanted, ()) if len(wanted) == length else ():
                    if term is None or term in self.forbidding[form]:
                        found.append((form, words[index][2], words[index + length - 1][3]))
        return found


def _lengths(forms: Iterable[tuple[str, ...]]) -> dict[str, tuple[int, ...]]:
    """The lengths, in words, of the ``forms`` (folded) starting with each first word: a terminology of 5,000 terms
    all starting "chose" compared each "chose" of a text with 5,000 forms (quadratic in terms and sections); a form
    is looked up whole, once for each length."""
    found: dict[str, set[int]] = {}
    for words in forms:
        found.setdefault(words[0], set()).add(len(words))
    return {word: tuple(sorted(lengths)) for word, lengths in found.items()}


def export_csv(entries: dict[str, Entry], names: dict[str, str], language: str = "fr", original: str = "en") -> str:
    """The terminology as CSV, one row per term, every cell quoted and none read as a formula (see :func:`cell`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n", quoting=csv.QUOTE_ALL)
    writer.writerow(["term_id", original, language, f"{language}_accepted", f"{language}_forbidden"])
    for term, entry in sorted(entries.items()):
        row = [term, names.get(term, term), entry.preferred, "|".join(entry.accepted), "|".join(entry.forbidden)]
        writer.writerow([cell(text) for text in row])
    return out.getvalue()


FORMULA_STARTS = (
    *("=", "+", "-", "@", "\t", "\r"),
    *("\uff1d", "\uff0b", "\uff0d", "\uff20", "\ufe66", "\ufe62", "\ufe63", "\ufe6b", "\u2212"),
)
"""How a cell a spreadsheet would read as a formula starts (OWASP, "CSV Injection"), its full-width and small forms
(which fold to them) and the minus sign included."""


def cell(text: str) -> str:
    """A CSV cell no spreadsheet runs as a formula: one starting as a formula does gets a leading ``'``, as
    OWASP recommends (``=HYPERLINK(...)`` from a contributor's terms.toml would run on a translator's machine), and so
    does one where only blanks or invisible characters come before (a no-break or ideographic space, a zero-width
    space: a spreadsheet may trim them as it reads the cell)."""
    first = next((c for c in text if not _unseen(c)), "")
    folded = unicodedata.normalize("NFKC", first)[:1]  # superscript, subscript, small and full-width forms: `⁼` is `=`
    starts = text.startswith(FORMULA_STARTS) or first in FORMULA_STARTS or folded in FORMULA_STARTS
    return "'" + text if starts else text


_IGNORABLE_LETTERS = frozenset("\u115f\u1160\u3164\uffa0")
"""The Hangul fillers: letters to Unicode's categories, yet drawn as nothing (default-ignorable)."""


def _unseen(character: str) -> bool:
    """Whether a character shows nothing of its own before a cell's first visible one: blanks, controls, format
    characters (ZWSP and BOM are no blanks to `str.strip`), combining marks (U+034F) and the Hangul fillers."""
    return character.isspace() or unicodedata.category(character)[0] in "CZM" or character in _IGNORABLE_LETTERS


XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
TBX_NAMESPACE = "urn:iso:std:iso:30042:ed-2"


def export_tbx(
    entries: dict[str, Entry],
    names: dict[str, str],
    title: str = "Rulebook",
    language: str = "fr",
    original: str = "en",
) -> str:
    """TBX (ISO 30042) in the TBX-Basic style: one conceptEntry per term, a langSec for each language (by code)."""
    translated, source = _named(language), _named(original)
    namespaces: Any = {None: TBX_NAMESPACE}
    tbx = etree.Element("tbx", {"style": "dct", "type": "TBX-Basic", XML_LANG: source.code}, nsmap=namespaces)
    header = etree.SubElement(tbx, "tbxHeader")
    description = etree.SubElement(etree.SubElement(header, "fileDesc"), "sourceDesc")
    etree.SubElement(description, "p").text = xml_text(f"{title}: terminology, {source.name}-{translated.name}")
    body = etree.SubElement(etree.SubElement(tbx, "text"), "body")
    taken: set[str] = set()
    for term, entry in sorted(entries.items()):
        concept = etree.SubElement(body, "conceptEntry", {"id": _concept_id(term, taken)})
        _lang(concept, source.code, [(names.get(term, term), "preferredTerm-admn-sts")])
        rendered = [(entry.preferred, "preferredTerm-admn-sts")]
        rendered += [(t, "admittedTerm-admn-sts") for t in entry.accepted]
        rendered += [(t, "deprecatedTerm-admn-sts") for t in entry.forbidden]
        _lang(concept, translated.code, rendered)
    text = etree.tostring(tbx, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return text.decode("utf-8")


_XML_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9._-]*")
"""An id XML takes (an NCName, in ASCII): a term's name as the book writes it."""


def _concept_id(term: str, taken: set[str]) -> str:
    """The ``id`` of a term's conceptEntry: its name where XML takes it as an id, else one made of its characters'
    code points (a terminology's key may be any text: ``a]]>b<c`` was written as an id no TBX tool reads), each
    once."""
    made = term if _XML_NAME.fullmatch(term) else "term-" + "-".join(f"{ord(c):x}" for c in term)
    found, number = made, 1
    while found in taken:
        number += 1
        found = f"{made}-{number}"
    taken.add(found)
    return found


@dataclass(frozen=True, slots=True)
class _Named:
    code: str
    name: str


def _named(code: str) -> _Named:
    """A language's code and English name (its code, for one the project describes)."""
    return _Named(code, shipped(code).name if code in shipped_codes() else code)


def _lang(concept: Any, language: str, terms: list[tuple[str, str]]) -> None:
    section = etree.SubElement(concept, "langSec", {XML_LANG: language})
    for term, status in terms:
        holder = etree.SubElement(section, "termSec")
        etree.SubElement(holder, "term").text = xml_text(term)
        etree.SubElement(holder, "termNote", {"type": "administrativeStatus"}).text = status
