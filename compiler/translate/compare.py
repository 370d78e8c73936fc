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
from pathlib import Path
from typing import Any

from compiler.errors import TerminologyError
from compiler.model import Book, Section, plain_text
from compiler.translate.align import Pair, align_sections
from compiler.translate.numbers import numbers
from compiler.translate.tables import compare_tables, own_tables
from compiler.translate.terminology import Entry, check_terms


@dataclass(frozen=True, slots=True)
class Finding:
    kind: str
    """``numbers-differ``, ``table-row``, ``term-missing``, ``term-forbidden``, ``lost-reference``,
    ``missing-section``, ``extra-section``, ``other-script``, ``conversion-debris`` or ``doubled-word``."""
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
    # Sub-headings the translation made of the original's tables or items belong with their parent.
    texts = {
        p.translation.id: " ".join([p.translation.text, *children.get(p.translation.id, [])])
        for p in pairs
        if p.translation is not None
    }
    differences = _number_differences(pairs, texts, translation_language)
    sections = {s.id: s for book in (original, translation) for s in book.sections}
    for index, pair in enumerate(pairs):
        o, t = pair.original, pair.translation
        if o is not None and t is None:
            findings.append(Finding("missing-section", f"`{o.title}` is not translated", o.id, None))
        elif t is not None and o is None:
            findings.append(Finding("extra-section", f"`{t.title}` has no original", None, t.id))
        elif o is not None and t is not None:
            findings += _number_findings(pair, *differences[index])
            for kind, term, message in check_terms(list(o.terms), t.title + " " + texts[t.id], terms or {}):
                findings.append(Finding(kind, f"`{o.title}` / `{t.title}`: {message}", o.id, t.id, {"term": term}))
            findings += _table_findings(pair, sections, terms or {}, translation_language)
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


def _step_numbers(steps: tuple[int, ...]) -> Counter[str]:
    """The numbers a printed book shows before the steps of its numbered lists."""
    return Counter(str(n) for count in steps for n in range(1, count + 1))


def _table_findings(
    pair: Pair, sections: dict[str, Section], entries: dict[str, Entry], language: str
) -> list[Finding]:
    """Rows of the pair's tables, matched by key: missing rows and rows whose numbers differ."""
    assert pair.original is not None and pair.translation is not None
    if pair.original.kind != "section" or pair.translation.kind != "section":
        return []
    original, translation = sections.get(pair.original.id), sections.get(pair.translation.id)
    if original is None or translation is None:
        return []
    rows = compare_tables(own_tables(original), own_tables(translation), entries, language)
    prefix = f"`{pair.original.title}` / `{pair.translation.title}`: "
    return [Finding("table-row", prefix + r.message, pair.original.id, pair.translation.id, r.details) for r in rows]


def _number_differences(
    pairs: list[Pair], texts: dict[str, str], language: str
) -> dict[int, tuple[list[str], list[str]]]:
    """By pair: the numbers only the original states, and those only the translation states.

    A passage the translation moved to another section (the PDF placed a figure's caption
    elsewhere) leaves the same numbers missing from one pair and extra in another: those cancel
    out, between neighbours for any number, within a few sections for three or more. Numbers one
    side prints before the steps of a list the other side numbers by its markup are not
    differences, and dice notation counts only where both sides use it ("D6" is "un dé").
    """
    found: dict[int, tuple[Counter[str], Counter[str]]] = {}
    for index, pair in enumerate(pairs):
        if pair.original is None or pair.translation is None:
            continue
        left = numbers(pair.original.text, "en")
        right = numbers(texts[pair.translation.id], language)
        if not any(_is_dice(n) for n in left) or not any(_is_dice(n) for n in right):
            left = Counter({n: c for n, c in left.items() if not _is_dice(n)})
            right = Counter({n: c for n, c in right.items() if not _is_dice(n)})
        only_original = left - right - _step_numbers(pair.translation.steps)
        only_translation = right - left - _step_numbers(pair.original.steps)
        found[index] = (only_original, only_translation)
    for index in sorted(found):
        for other in range(index + 1, index + 1 + MOVED_PASSAGE_REACH):
            if other not in found:
                continue
            here, there = found[index], found[other]
            for missing, extra in ((here[0], there[1]), (here[1], there[0])):
                moved = missing & extra
                if other == index + 1 or sum(moved.values()) >= 3:
                    missing.subtract(moved)
                    extra.subtract(moved)
    return {i: (sorted((+a).elements()), sorted((+b).elements())) for i, (a, b) in found.items()}


MOVED_PASSAGE_REACH = 6
"""How many sections away a moved passage's numbers are looked for."""


def _is_dice(number: str) -> bool:
    return "D" in number


def _number_findings(pair: Pair, only_original: list[str], only_translation: list[str]) -> list[Finding]:
    assert pair.original is not None and pair.translation is not None
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
