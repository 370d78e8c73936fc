"""``rulebook compare``: where a translation and its original disagree, for the translators.

Reads the section alignment (:mod:`compiler.translate.align`) and reports coverage, sections on
one side only, numbers that differ within aligned sections (number words, decimal commas and
fraction slashes understood in both languages), and cross-references the PDF conversion lost.
"""

from __future__ import annotations

import hashlib
import json
import re
import tomllib
from collections import Counter
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path
from typing import Any

from compiler.errors import TerminologyError
from compiler.model import Book, Section, plain_text
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
    fingerprint: str = ""
    """Hash of the kind, the details and both texts: a waiver names it, and expires when either text changes."""


@dataclass(frozen=True, slots=True)
class Comparison:
    pairs: list[Pair]
    findings: list[Finding]
    coverage: dict[str, Any]
    waived: int = 0
    stale_waivers: tuple[str, ...] = ()
    """Waivers that match no finding any more: the texts changed, or the problem was fixed."""

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
                {
                    "kind": f.kind,
                    "message": f.message,
                    "original": f.original,
                    "translation": f.translation,
                    "fingerprint": f.fingerprint,
                }
                | ({"details": f.details} if f.details else {})
                for f in self.findings
            ],
            "waived": self.waived,
            "stale_waivers": list(self.stale_waivers),
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
    original: Book,
    translation: Book,
    *,
    translation_language: str = "fr",
    terms: dict[str, Entry] | None = None,
    waivers: dict[str, str] | None = None,
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
    findings += text_findings(translation)
    texts = {u.id: u.text for p in pairs for u in (p.original, p.translation) if u is not None}
    findings = [_fingerprinted(f, texts) for f in findings]
    waivers = waivers or {}
    kept = [f for f in findings if f.fingerprint not in waivers]
    stale = tuple(sorted(set(waivers) - {f.fingerprint for f in findings}))
    return Comparison(pairs, kept, _coverage(pairs), len(findings) - len(kept), stale)


def _fingerprinted(finding: Finding, texts: dict[str, str]) -> Finding:
    parts = [
        finding.kind,
        json.dumps(finding.details, sort_keys=True, ensure_ascii=False),
        texts.get(finding.original or "", ""),
        texts.get(finding.translation or "", ""),
    ]
    digest = hashlib.sha256("\x1f".join(parts).encode("utf-8")).hexdigest()[:16]
    return replace(finding, fingerprint=digest)


def load_waivers(path: Path) -> dict[str, str]:
    """Waivers by fingerprint, with their reasons (``[[waiver]]`` tables of fingerprint and reason)."""
    try:
        table = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as error:
        raise TerminologyError(f"cannot read {path}: {error}") from error
    waivers = {}
    for entry in table.get("waiver", []):
        if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str):
            raise TerminologyError(f"{path}: each [[waiver]] needs a `fingerprint`")
        waivers[entry["fingerprint"]] = str(entry.get("reason", ""))
    return waivers


_OTHER_SCRIPT = re.compile(r"[\u0370-\u03ff\u0400-\u04ff]")
_DOUBLED = re.compile(r"\b(\w+)\s+\1\b", re.IGNORECASE)
# A tab between letters is a table's cell boundary as often as a split word: only characters count.
_DEBRIS = re.compile(r"[\u0131\u00ad\ufffd\ufb00-\ufb06]")
REPEATABLE = {"vous", "nous", "que", "de"}
"""Words a correct French sentence may repeat ("vous vous", "nous nous")."""


def text_findings(translation: Book) -> list[Finding]:
    """Characters from another script that look like Latin letters, conversion debris, doubled words."""
    findings = []
    for document in translation.documents:
        if not document.sections:
            continue
        source = document.sections[0].source
        skip = _table_of_contents_range(document.sections)
        for kind, pattern in (
            ("other-script", _OTHER_SCRIPT),
            ("conversion-debris", _DEBRIS),
            ("doubled-word", _DOUBLED),
        ):
            for match in pattern.finditer(source.text):
                if skip[0] <= match.start() < skip[1]:
                    continue
                if kind == "doubled-word" and match.group(1).lower() in REPEATABLE:
                    continue
                span = source.span(match.start())
                section = _section_at(document.sections, match.start())
                findings.append(
                    Finding(
                        kind,
                        _describe(kind, match.group(), span),
                        None,
                        section,
                        {"line": span.line, "column": span.column, "text": match.group()},
                    )
                )
    return findings


def _describe(kind: str, text: str, span: object) -> str:
    import unicodedata

    if kind == "other-script":
        return f"{span}: `{text}` is {unicodedata.name(text, 'a letter of another script')}, not a Latin letter"
    if kind == "doubled-word":
        return f"{span}: `{text}` repeats a word"
    return f"{span}: conversion debris ({unicodedata.name(text, repr(text)).lower()})"


def _table_of_contents_range(sections: tuple[Section, ...]) -> tuple[int, int]:
    from compiler.markdown_source import TOC_TITLES

    ordered = sorted(sections, key=lambda s: s.offset)
    for index, section in enumerate(ordered):
        if section.title.lower() in TOC_TITLES:
            end = ordered[index + 1].offset if index + 1 < len(ordered) else len(section.source.text)
            return section.offset, end
    return (0, 0)


def _section_at(sections: tuple[Section, ...], offset: int) -> str | None:
    found = None
    for section in sorted(sections, key=lambda s: s.offset):
        if section.offset > offset:
            break
        found = section.id
    return found


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
        lines.append(f"{finding.kind}: {finding.message} [{finding.fingerprint}]")
    counts = Counter(f.kind for f in comparison.findings)
    lines.append(", ".join(f"{n} {kind}" for kind, n in sorted(counts.items())) or "No differences found.")
    if comparison.waived:
        lines.append(f"{comparison.waived} findings are waived.")
    if comparison.stale_waivers:
        lines.append(
            f"{len(comparison.stale_waivers)} waivers match nothing any more (a text changed, or it was fixed): "
            + ", ".join(comparison.stale_waivers)
        )
    return "\n".join(lines) + "\n"


def report_context(
    comparison: Comparison, *, original_language: str = "en", translation_language: str = "fr"
) -> dict[str, Any]:
    """What the side-by-side report templates show: each pair with its findings."""
    by_pair: dict[tuple[str | None, str | None], list[Finding]] = {}
    loose: dict[str | None, list[Finding]] = {}
    for finding in comparison.findings:
        if finding.original is None and finding.kind not in ("extra-section",):
            loose.setdefault(finding.translation, []).append(finding)
        else:
            by_pair.setdefault((finding.original, finding.translation), []).append(finding)
    rows = []
    for pair in comparison.pairs:
        key = (pair.original.id if pair.original else None, pair.translation.id if pair.translation else None)
        findings = by_pair.get(key, []) + (loose.get(key[1], []) if key[1] else [])
        rows.append(
            {"original": pair.original, "translation": pair.translation, "method": pair.method, "findings": findings}
        )
    counts = sorted(Counter(f.kind for f in comparison.findings).items())
    return {
        "rows": rows,
        "coverage": comparison.coverage,
        "counts": counts,
        "original_language": original_language,
        "translation_language": translation_language,
    }
