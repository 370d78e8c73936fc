"""The page for translators of ``rulebook status --format html``: what to translate again, side by side.

For each outdated section, each sentence of the original that changed, before (what was removed struck through)
and now (what is new highlighted), beside the translated sentences the comparison aligned with it before: the
translation made from the earlier text. Then the steps that changed, the diff's other findings, and the whole
translated section. Pure: a dictionary for the templates (``status.html.j2``); the templates escape the text.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from rulebook.translate.results import AlignedText
from rulebook.translate.status import CURRENT, MISSING, ORPHANED, OUTDATED, SectionStatus, TranslationStatus

ALIKE = 0.6
"""How much of a sentence's words the changed sentence of the original must hold for the sentence to be it."""
_WORD = re.compile(r"\w+")


def status_context(statuses: Sequence[TranslationStatus]) -> dict[str, Any]:
    """What the status page shows, translation by translation."""
    return {"translations": [_translation(status) for status in statuses]}


def _translation(status: TranslationStatus) -> dict[str, Any]:
    texts = {text.pair: text for text in status.comparison.texts}
    made_from, latest = status.plain_labels
    return {
        "language": status.language,
        "made_from": made_from,
        "latest": latest,
        "later": status.latest != status.made_from,
        "total": status.total,
        "counts": [
            {"state": state, "count": status.count(state), "share": round(status.share(state) * 100)}
            for state in (CURRENT, OUTDATED, MISSING)
        ],
        "outdated": [
            _outdated(section, texts.get(-1 if section.pair is None else section.pair))
            for section in status.of(OUTDATED)
        ],
        "missing": [{"title": s.title, "new": s.new, "place": _place(s)} for s in status.of(MISSING)],
        "orphaned": [
            {"title": s.title, "translation": s.translation.title if s.translation else ""} for s in status.of(ORPHANED)
        ],
        "marked": [s.title for s in status.sections if s.marked],
        "stale_marks": [m.title for m in status.stale_marks],
    }


def _outdated(section: SectionStatus, text: AlignedText | None) -> dict[str, Any]:
    assert section.original is not None and section.translation is not None
    change = section.change
    sentences = change.sentences if change is not None else []
    earlier = section.earlier
    return {
        "title": section.original.title,
        "was": earlier.title if earlier is not None and change is not None and change.renamed else None,
        "translation": section.translation.title,
        "place": _place(section),
        "translation_place": _unit_place(section),
        "rows": [_row(sentence, text) for sentence in sentences],
        "steps": change.steps if change is not None else {},
        "changes": [d.message for d in section.changes],
        "translated_text": [s.text for s in text.translation] if text is not None else [],
    }


def _row(sentence: dict[str, Any], text: AlignedText | None) -> dict[str, Any]:
    before = " ".join(part["text"] for part in sentence["old"] if part["text"])
    return {
        "old": sentence["old"],
        "new": sentence["new"],
        "numbers": sentence["numbers"],
        "moved": sentence["moved"],
        "translation": translated_sentences(before, text) if before and text is not None else [],
    }


def translated_sentences(original: str, text: AlignedText) -> list[str]:
    """The translated sentences aligned with the sentences of the pair that ``original`` (a sentence of the earlier
    edition, as the diff cut it) holds: each of those sentences' words mostly in it."""
    words = set(_words(original))
    held = set()
    for index, sentence in enumerate(text.original):
        own = _words(sentence.text)
        if own and sum(1 for word in own if word in words) >= ALIKE * len(own):
            held.add(index)
    found: list[int] = []
    for bead in text.beads:
        if held & set(bead.original):
            found += [i for i in bead.translation if i not in found]
    return [text.translation[i].text for i in found]


def _words(text: str) -> list[str]:
    return [word.lower() for word in _WORD.findall(text)]


def _place(section: SectionStatus) -> str:
    original = section.original
    return str(original.span) if original is not None else ""


def _unit_place(section: SectionStatus) -> str:
    unit = section.translation
    if unit is None or unit.source is None:
        return ""
    return str(unit.source.span(unit.offset))
