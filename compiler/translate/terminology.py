"""The bilingual terminology: a curated list keyed by English term id, its checks and exports.

``rulebook_src/fr/terms.toml`` gives for each English term id the preferred French term,
accepted variants and forbidden variants. Matching folds case, accents and plurals, so
"Figurines" matches "figurine". Exported as TBX (ISO 30042, TBX-Basic style) and CSV for
translation tools; ``suggest`` proposes French terms for ids not listed yet, from the
aligned sections, for a person to confirm.
"""

from __future__ import annotations

import csv
import io
import re
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from lxml import etree

from compiler.errors import TerminologyError
from compiler.names import folded_words


@dataclass(frozen=True, slots=True)
class Entry:
    term: str
    """The English term id."""
    preferred: str
    accepted: tuple[str, ...] = ()
    forbidden: tuple[str, ...] = ()
    unlinked: tuple[str, ...] = ()
    """Phrases the site never links: renderings that are also ordinary words ("points"), or phrases
    that contain the term and mean something else ("unité de mesure")."""


def load_terminology(path: Path) -> dict[str, Entry]:
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise TerminologyError(f"cannot read {path}: {error}") from error
    entries = {}
    for term, fields in sorted(table.items()):
        if not isinstance(fields, dict) or not isinstance(fields.get("preferred"), str):
            raise TerminologyError(f"{path}: `{term}` needs a `preferred` French term")
        entries[term] = Entry(
            term,
            fields["preferred"],
            tuple(fields.get("accepted", ())),
            tuple(fields.get("forbidden", ())),
            tuple(fields.get("unlinked", ())),
        )
    return entries


def fold(text: str) -> list[str]:
    """A translation's words without case, accents or a plural ending: "Figurines" and "figurine" fold alike."""
    return folded_words(text, "fr")


def contains(text_words: list[str], phrase: str) -> bool:
    """Whether folded words hold a folded phrase, as consecutive words."""
    needle = fold(phrase)
    size = len(needle)
    return bool(size) and any(text_words[i : i + size] == needle for i in range(len(text_words) - size + 1))


def check_terms(terms: list[str], translation: str, entries: dict[str, Entry]) -> list[tuple[str, str, str]]:
    """(kind, term, message) for each English term the translated text misses or renders wrongly."""
    words = fold(translation)
    found = []
    for term in sorted(set(terms)):
        entry = entries.get(term)
        if entry is None:
            continue
        if not any(contains(words, phrase) for phrase in (entry.preferred, *entry.accepted)):
            found.append(("term-missing", term, f"`{term}` should be « {entry.preferred} » here, and is not"))
        for wrong in entry.forbidden:
            if contains(words, wrong):
                found.append(("term-forbidden", term, f"`{term}` is written « {wrong} »: use « {entry.preferred} »"))
    return found


def export_csv(entries: dict[str, Entry], names: dict[str, str]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["term_id", "en", "fr", "fr_accepted", "fr_forbidden"])
    for term, entry in sorted(entries.items()):
        writer.writerow(
            [term, names.get(term, term), entry.preferred, "|".join(entry.accepted), "|".join(entry.forbidden)]
        )
    return out.getvalue()


XML_LANG = "{http://www.w3.org/XML/1998/namespace}lang"
TBX_NAMESPACE = "urn:iso:std:iso:30042:ed-2"


def export_tbx(entries: dict[str, Entry], names: dict[str, str], title: str = "Rulebook") -> str:
    """TBX (ISO 30042) in the TBX-Basic style: one conceptEntry per term, English and French langSecs."""
    namespaces: Any = {None: TBX_NAMESPACE}
    tbx = etree.Element("tbx", {"style": "dct", "type": "TBX-Basic", XML_LANG: "en"}, nsmap=namespaces)
    header = etree.SubElement(tbx, "tbxHeader")
    description = etree.SubElement(etree.SubElement(header, "fileDesc"), "sourceDesc")
    etree.SubElement(description, "p").text = f"{title}: terminology, English-French"
    body = etree.SubElement(etree.SubElement(tbx, "text"), "body")
    for term, entry in sorted(entries.items()):
        concept = etree.SubElement(body, "conceptEntry", {"id": term})
        _lang(concept, "en", [(names.get(term, term), "preferredTerm-admn-sts")])
        french = [(entry.preferred, "preferredTerm-admn-sts")]
        french += [(t, "admittedTerm-admn-sts") for t in entry.accepted]
        french += [(t, "deprecatedTerm-admn-sts") for t in entry.forbidden]
        _lang(concept, "fr", french)
    text = etree.tostring(tbx, xml_declaration=True, encoding="UTF-8", pretty_print=True)
    return text.decode("utf-8")


def _lang(concept: Any, language: str, terms: list[tuple[str, str]]) -> None:
    section = etree.SubElement(concept, "langSec", {XML_LANG: language})
    for term, status in terms:
        holder = etree.SubElement(section, "termSec")
        etree.SubElement(holder, "term").text = term
        etree.SubElement(holder, "termNote", {"type": "administrativeStatus"}).text = status


_STOP = set(
    fold(
        "le la les un une des de du d l et ou en au aux a à par pour sur dans qui que se ne pas est sont son sa ses"
        " leur leurs cette ce ces il elle ils elles plus tout tous toute toutes avec être peut doit"
    )
)


def suggest(
    units: list[tuple[list[str], str]], known: set[str], names: dict[str, str] | None = None, limit: int = 3
) -> dict[str, list[str]]:
    """French candidates for English term ids not in the list yet, best first.

    ``units`` pairs the English term ids of an aligned section with its French text. A candidate is a
    French word or pair of words found in most sections that use the term and rarely elsewhere; one
    that looks like the English name (a cognate: cannon, canon) ranks first.
    """
    surfaces: dict[str, str] = {}
    grams_by_unit = [(terms, _grams(text, surfaces)) for terms, text in units]
    everywhere: Counter[str] = Counter()
    for _, grams in grams_by_unit:
        everywhere.update(set(grams))
    wanted = sorted({t for terms, _ in units for t in terms} - known)
    suggestions = {}
    for term in wanted:
        with_term = [grams for terms, grams in grams_by_unit if term in terms]
        inside: Counter[str] = Counter()
        for grams in with_term:
            inside.update(set(grams))
        english = [w[:4] for w in fold((names or {}).get(term, term.replace("_", " "))) if len(w) > 3]
        floor = max(1, len(with_term) // 2)
        scored = sorted(
            (
                _cognate(gram, english),
                (inside[gram] / len(with_term)) * (inside[gram] / everywhere[gram]),
                inside[gram],
                gram,
            )
            for gram in inside
            if inside[gram] >= floor
        )
        suggestions[term] = [surfaces[gram] for *_, gram in reversed(scored[-limit:])]
    return suggestions


def _cognate(gram: str, english: list[str]) -> int:
    return sum(1 for word in gram.split() if len(word) > 3 and word[:4] in english)


def _grams(text: str, surfaces: dict[str, str]) -> list[str]:
    """Words and pairs of words (folded), remembering how each was first written."""
    written = [w for w in re.findall(r"[^\W\d_]+", text) if len(w) > 2]
    folded = [" ".join(fold(w)) for w in written]
    grams = []
    for index, (word, key) in enumerate(zip(written, folded, strict=True)):
        if key in _STOP:
            continue
        grams.append(key)
        surfaces.setdefault(key, word.lower())
        if index + 1 < len(written) and folded[index + 1] not in _STOP:
            pair = f"{key} {folded[index + 1]}"
            grams.append(pair)
            surfaces.setdefault(pair, f"{word} {written[index + 1]}".lower())
    return grams
