"""``rulebook compare``: where a translation and its original disagree, for the translators.

Reads the section alignment (:mod:`compiler.translate.align`) and reports coverage, sections on
one side only, numbers that differ within aligned sections (number words, decimal commas and
fraction slashes understood in both languages), and cross-references the PDF conversion lost.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from compiler.model import Book, plain_text
from compiler.translate.align import Pair, align_sections
from compiler.translate.terminology import Entry, check_terms

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
    },
}
_TOKEN = re.compile(
    r"(?P<number>\d+\s*[⁄/]\s*\d+|\d+(?:[.,]\s?\d+)?)(?P<unit>\s?(?:%|cm|mm|m)\b|\s?%)?|(?P<word>[^\W\d_]+)",
    re.UNICODE,
)
METRIC = {"cm", "mm", "m"}
"""Units a translator adds when converting inches: such numbers are not disagreements."""


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    """``numbers-differ``, ``term-missing``, ``term-forbidden``, ``lost-reference``, ``missing-section``
    or ``extra-section``."""
    message: str
    original: str | None
    translation: str | None
    details: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Comparison:
    pairs: list[Pair]
    findings: list[Finding]
    coverage: dict[str, Any]

    def as_json(self) -> dict[str, Any]:
        return {
            "coverage": self.coverage,
            "pairs": [
                {
                    "original": p.original.id if p.original else None,
                    "translation": p.translation.id if p.translation else None,
                    "method": p.method,
                    "confidence": p.confidence,
                }
                for p in self.pairs
            ],
            "findings": [
                {"kind": f.kind, "message": f.message, "original": f.original, "translation": f.translation}
                | ({"details": f.details} if f.details else {})
                for f in self.findings
            ],
        }


def numbers(text: str, language: str) -> Counter[str]:
    """The numbers a text states, as digits: "deux" and "2" are both 2; "2,5" is 2.5; a half is 0.5."""
    words = NUMBER_WORDS.get(language, {})
    found: Counter[str] = Counter()
    for match in _TOKEN.finditer(text):
        number, unit, word = match.group("number"), (match.group("unit") or "").strip(), match.group("word")
        if number is not None:
            if unit in METRIC:
                continue
            value = _canonical(re.sub(r"\s*[⁄/]\s*", "/", number).replace(",", ".").replace(" ", ""))
            if unit == "%":
                value = _canonical(str(Fraction(value) / 100))
            found[value] += 1
        elif word.lower() in words:
            found[_canonical(words[word.lower()])] += 1
    return found


def _canonical(number: str) -> str:
    """One spelling per value: "1/2", "0.5" and "0,5" are all "0.5"; "1" stays "1"."""
    value = Fraction(number)
    if value.denominator == 1:
        return str(value.numerator)
    decimal = f"{float(value):.4f}".rstrip("0").rstrip(".")
    return decimal if Fraction(decimal) == value else f"{value.numerator}/{value.denominator}"


def compare_books(
    original: Book, translation: Book, *, translation_language: str = "fr", terms: dict[str, Entry] | None = None
) -> Comparison:
    pairs = align_sections(original, translation)
    findings: list[Finding] = []
    lost = {link.section_id for d in translation.documents for link in d.links if not link.to and link.text == "??"}
    paired = {p.translation.id for p in pairs if p.translation is not None and p.original is not None}
    children: dict[str, list[str]] = {}
    for section in translation.sections:
        if section.parent_id:
            # A paired sub-heading lends its title; an unpaired one, all its text.
            text = section.title if section.id in paired else section.title + " " + plain_text(section.children)
            children.setdefault(section.parent_id, []).append(text)
    for pair in pairs:
        o, t = pair.original, pair.translation
        if o is not None and t is None:
            findings.append(Finding("missing-section", f"`{o.title}` is not translated", o.id, None))
        elif t is not None and o is None:
            findings.append(Finding("extra-section", f"`{t.title}` has no original", None, t.id))
        elif o is not None and t is not None:
            findings += _number_findings(pair, translation_language)
            # Sub-headings the translation made of the original's tables or items belong with their parent.
            text = " ".join([t.title, t.text, *children.get(t.id, [])])
            for kind, term, message in check_terms(list(o.terms), text, terms or {}):
                findings.append(Finding(kind, f"`{o.title}` / `{t.title}`: {message}", o.id, t.id, {"term": term}))
            if t.id in lost:
                findings.append(
                    Finding("lost-reference", f"`{t.title}` has a cross-reference the PDF lost (`??`)", o.id, t.id)
                )
    return Comparison(pairs, findings, _coverage(pairs))


def _number_findings(pair: Pair, language: str) -> list[Finding]:
    assert pair.original is not None and pair.translation is not None
    left = numbers(pair.original.text, "en")
    right = numbers(pair.translation.text, language)
    only_original = sorted((left - right).elements())
    only_translation = sorted((right - left).elements())
    if not only_original and not only_translation:
        return []
    parts = []
    if only_original:
        parts.append("the original says " + ", ".join(only_original))
    if only_translation:
        parts.append("the translation says " + ", ".join(only_translation))
    return [
        Finding(
            "numbers-differ",
            f"`{pair.original.title}` / `{pair.translation.title}`: " + "; ".join(parts),
            pair.original.id,
            pair.translation.id,
            {"only_in_original": only_original, "only_in_translation": only_translation},
        )
    ]


def _coverage(pairs: list[Pair]) -> dict[str, Any]:
    originals = [p for p in pairs if p.original is not None]
    matched = [p for p in originals if p.translation is not None]
    words = sum(len(p.original.text.split()) for p in originals if p.original)
    matched_words = sum(len(p.original.text.split()) for p in matched if p.original)
    return {
        "sections": len(originals),
        "translated_sections": len(matched),
        "words": words,
        "translated_words": matched_words,
        "share": round(matched_words / words, 3) if words else 1.0,
    }


def render_text(comparison: Comparison) -> str:
    c = comparison.coverage
    lines = [
        f"Coverage: {c['translated_sections']} of {c['sections']} sections, "
        f"{c['translated_words']} of {c['words']} words ({c['share']:.0%}).",
    ]
    for finding in comparison.findings:
        lines.append(f"{finding.kind}: {finding.message}")
    counts = Counter(f.kind for f in comparison.findings)
    lines.append(", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "No differences found.")
    return "\n".join(lines) + "\n"
