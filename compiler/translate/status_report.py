"""The page for translators of ``rulebook status --format html``: what to translate again, side by side.

For each outdated section, each sentence of the original that changed, before (what was removed struck through)
and now (what is new highlighted), beside the translated sentences the comparison aligned with it before: the
translation made from the earlier text. Then the steps that changed, the diff's other findings, and the whole
translated section. Pure: a dictionary for the templates (``status.html.j2``); the templates escape the text.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence
from typing import Any

from rulebook.translate.results import AlignedText
from rulebook.translate.status import CURRENT, MISSING, ORPHANED, OUTDATED, SectionStatus, TranslationStatus

ALIKE = 0.6
"""How alike (difflib's ratio over words) a changed sentence and one of the comparison's must be to be one
sentence, where neither holds the other."""
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
    befores = [" ".join(part["text"] for part in sentence["old"] if part["text"]) for sentence in sentences]
    translated = translated_sentences(befores, text) if text is not None else [[] for _ in befores]
    return {
        "title": section.original.title,
        "was": earlier.title if earlier is not None and change is not None and change.renamed else None,
        "translation": section.translation.title,
        "place": _place(section),
        "translation_place": _unit_place(section),
        "rows": [_row(sentence, found) for sentence, found in zip(sentences, translated, strict=True)],
        "steps": change.steps if change is not None else {},
        "changes": [d.message for d in section.changes],
        "translated_text": [s.text for s in text.translation] if text is not None else [],
    }


def _row(sentence: dict[str, Any], translation: list[str]) -> dict[str, Any]:
    return {
        "old": sentence["old"],
        "new": sentence["new"],
        "numbers": sentence["numbers"],
        "moved": sentence["moved"],
        "translation": translation,
    }


def translated_sentences(befores: Sequence[str], text: AlignedText) -> list[list[str]]:
    """For each changed sentence of the earlier edition (as the edition diff cut it; empty: a sentence added), the
    translated sentences the comparison aligned with it. The comparison cut the same text into its own sentences:
    those the changed sentence holds word for word are it; failing any, the one most like it (at least
    :data:`ALIKE` of both sentences' words in common order), unless another changed sentence is more like it."""
    own = [_words(sentence.text) for sentence in text.original]
    changed = [_words(before) for before in befores]
    held: list[set[int]] = []
    for words in changed:
        inside = {i for i, sentence in enumerate(own) if sentence and _holds(words, sentence)}
        held.append(inside or _most_alike(words, own, changed))
    found: list[list[str]] = []
    for indices in held:
        translated: list[int] = []
        for bead in text.beads:
            if indices & set(bead.original):
                translated += [i for i in bead.translation if i not in translated]
        found.append([text.translation[i].text for i in translated])
    return found


def _holds(words: list[str], sentence: list[str]) -> bool:
    """Whether ``sentence`` is a run of ``words``."""
    size = len(sentence)
    return any(words[start : start + size] == sentence for start in range(len(words) - size + 1))


def _most_alike(words: list[str], own: list[list[str]], changed: list[list[str]]) -> set[int]:
    """The comparison's sentence most like a changed sentence, if alike enough and no other changed sentence is
    more like it (none for an added sentence)."""
    if not words:
        return set()
    ratios = [_alike(words, sentence) for sentence in own]
    best = max(range(len(own)), key=lambda i: ratios[i], default=None)
    if best is None or ratios[best] < ALIKE:
        return set()
    if any(_alike(other, own[best]) > ratios[best] for other in changed if other is not words):
        return set()
    return {best}


def _alike(first: list[str], second: list[str]) -> float:
    return difflib.SequenceMatcher(None, first, second, autojunk=False).ratio()


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
