"""``rulebook diff OLD NEW``: what changed between two editions of a book.

Sections are matched by title (case, separators and plurals folded: "Turn" is "Turns"), never by
position, so renumbering and reordering do not drown the real changes. An edition that covers only
part of the book (a later edition of one chapter) is compared with the matching part only. For
each matched section: the text's word-level changes, the numbers that changed, and the steps of its
sequences (added, removed, renamed). Terms added, removed and renamed come from the definitions.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from typing import Any

from rulebook.diagnostics import Diagnostic
from rulebook.edition_findings import edition_findings
from rulebook.languages.quantities import numbers
from rulebook.model import Book, Content, Definition, ItemList, Node, Section, plain_text
from rulebook.names import normalise
from rulebook.source import SourceText


@dataclass
class SectionChange:
    old: str
    new: str
    words: list[dict[str, str]] = field(default_factory=list)
    numbers: dict[str, list[str]] = field(default_factory=dict)
    steps: dict[str, Any] = field(default_factory=dict)
    sentences: list[dict[str, Any]] = field(default_factory=list)
    """Each changed sentence: ``old`` and ``new`` as word parts (``{"text", "change"}``), the ``numbers`` and
    ``terms`` it changes; a sentence only added or removed has one side empty."""

    @property
    def changed(self) -> bool:
        return bool(self.words or self.numbers or self.steps)


@dataclass
class BookDiff:
    changed: list[SectionChange]
    added: list[str]
    removed: list[str]
    terms: dict[str, list[Any]]
    findings: tuple[Diagnostic, ...] = ()
    """Every change as a diagnostic placed in both editions (:mod:`rulebook.edition_findings`)."""
    sources: dict[str, SourceText] = field(default_factory=dict)
    """Both editions' sources by path: a report shows their lines."""

    def as_json(self) -> dict[str, Any]:
        return {
            "sections": {
                "changed": [vars(c) for c in self.changed if c.changed],
                "unchanged": [c.new for c in self.changed if not c.changed],
                "added": self.added,
                "removed": self.removed,
            },
            "terms": self.terms,
        }


def diff_books(old: Book, new: Book) -> BookDiff:
    old_sections = {normalise(s.title): s for s in old.sections if s.title}
    new_sections = [s for s in new.sections if s.title]
    matched = [(old_sections[normalise(s.title)], s) for s in new_sections if normalise(s.title) in old_sections]
    scope = _scope(old, [o for o, _ in matched])
    matched_old = {o.id for o, _ in matched}
    names = _term_names(old)
    changes = [_section_change(o, n, names) for o, n in matched]
    added = [s for s in new_sections if normalise(s.title) not in old_sections]
    removed = [s for s in scope if s.id not in matched_old]
    terms = _terms(old, new)
    findings = edition_findings(
        [(o, n, c) for (o, n), c in zip(matched, changes, strict=True) if c.changed], added, removed, terms, old, new
    )
    return BookDiff(
        changed=changes,
        added=[s.title for s in added],
        removed=[s.title for s in removed],
        terms=terms,
        findings=findings,
        sources={s.source.path: s.source for book in (old, new) for s in book.sections},
    )


def _scope(old: Book, matched: list[Section]) -> list[Section]:
    """The old sections the new edition covers: those matched, and what they contain."""
    ids = {s.id for s in matched}
    found: list[Section] = []
    for section in old.sections:
        if section.id in ids or section.parent_id in ids:
            ids.add(section.id)
            found.append(section)
    return found


def _own(section: Section) -> tuple[str, list[list[str]]]:
    """A section's own text (subsections and ordered steps left out) and its ordered steps."""
    lists: list[list[str]] = []
    text = plain_text(_without_steps(section.children, lists))
    return text, lists


def _without_steps(content: Content, lists: list[list[str]]) -> Content:
    kept: list[Node] = []
    for node in content:
        if isinstance(node, Section):
            continue
        if isinstance(node, ItemList) and node.ordered:
            lists.append([plain_text(item.children) for item in node.items])
        elif isinstance(node, Definition):
            kept.append(node._replace(children=_without_steps(node.children, lists)))
        else:
            kept.append(node)
    return tuple(kept)


def _section_change(old: Section, new: Section, terms: dict[str, str]) -> SectionChange:
    old_text, old_lists = _own(old)
    new_text, new_lists = _own(new)
    change = SectionChange(old.title, new.title)
    change.words = _word_changes(old_text, new_text)
    change.sentences = _sentence_changes(old_text, new_text, terms)
    before, after = numbers(old_text, "en"), numbers(new_text, "en")
    if before != after:
        change.numbers = {"old": sorted((before - after).elements()), "new": sorted((after - before).elements())}
    if old_lists or new_lists:
        change.steps = _step_changes(old_lists[0] if old_lists else [], new_lists[0] if new_lists else [])
    return change


Opcode = tuple[str, int, int, int, int]
WORDS_COMPARED = 2_000
"""How many words two texts may have to be compared word by word as difflib does.

difflib's matching is quadratic in words that repeat (a sentence of numbers): longer texts are compared
from where they differ to where they agree again, and a middle still longer than this is one replacement,
so that an edition's comparison stays linear in its text."""


def word_opcodes(a: list[str], b: list[str]) -> list[Opcode]:
    """difflib's opcodes turning ``a`` into ``b``, in bounded time (see :data:`WORDS_COMPARED`).

    Texts up to that length are compared whole, as difflib does; longer ones from where they differ
    to where they agree again (which may pair repeated words otherwise than difflib would)."""
    if max(len(a), len(b)) <= WORDS_COMPARED:
        return list(difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes())
    shorter = min(len(a), len(b))
    start = 0
    while start < shorter and a[start] == b[start]:
        start += 1
    end = 0
    while end < shorter - start and a[-1 - end] == b[-1 - end]:
        end += 1
    a_end, b_end = len(a) - end, len(b) - end
    middle: list[Opcode]
    if max(a_end, b_end) - start <= WORDS_COMPARED:
        matcher = difflib.SequenceMatcher(a=a[start:a_end], b=b[start:b_end], autojunk=False)
        middle = [
            (tag, i1 + start, i2 + start, j1 + start, j2 + start) for tag, i1, i2, j1, j2 in matcher.get_opcodes()
        ]
    else:  # one replacement (or deletion, or insertion when a side has nothing in the middle)
        tag = "replace" if a_end > start < b_end else "delete" if a_end > start else "insert"
        middle = [(tag, start, a_end, start, b_end)]
    # The middle starts and ends where the texts differ, so the equal start and end stand apart from it.
    spans = [("equal", 0, start, 0, start), *middle, ("equal", a_end, len(a), b_end, len(b))]
    return [span for span in spans if span[1] < span[2] or span[3] < span[4]]


def word_likeness(a: list[str], b: list[str]) -> float:
    """difflib's ratio of two word lists (the share of words in common), from :func:`word_opcodes`."""
    if not a and not b:
        return 1.0
    common = sum(i2 - i1 for tag, i1, i2, _, _ in word_opcodes(a, b) if tag == "equal")
    return 2.0 * common / (len(a) + len(b))


def _word_changes(old: str, new: str, limit: int = 12) -> list[dict[str, str]]:
    if old == new:
        return []
    a, b = old.split(), new.split()
    changes = []
    for tag, i1, i2, j1, j2 in word_opcodes(a, b):
        if tag != "equal":
            changes.append({"change": tag, "old": " ".join(a[i1:i2]), "new": " ".join(b[j1:j2])})
    return changes[:limit]


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”)]*\s+(?=[\"'“(]?[A-Z0-9])")
SIMILAR = 0.4
"""How alike two sentences must be (difflib's ratio of their words) to be one sentence changed."""
MOVED = 0.8
"""How alike a sentence removed and one added elsewhere must be to be one sentence moved."""


def _sentence_changes(old: str, new: str, terms: dict[str, str]) -> list[dict[str, Any]]:
    """The sentences that changed, each paired with what it became (or alone, when added or removed)."""
    if old == new:
        return []
    before, after = _SENTENCE_END.split(old) if old else [], _SENTENCE_END.split(new) if new else []
    pairs: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=before, b=after, autojunk=False).get_opcodes():
        if tag != "equal":
            pairs += _pair_sentences(before[i1:i2], after[j1:j2])
    return [_sentence_change(o, n, terms, moved) for o, n, moved in _moves(pairs)]


def _moves(pairs: list[tuple[str, str]]) -> list[tuple[str, str, bool]]:
    """A sentence removed in one place and added, alike, in another was moved: one change, where it is now."""
    removed = {i: o for i, (o, n) in enumerate(pairs) if not n}
    found: list[tuple[str, str, bool]] = []
    for old, new in pairs:
        if not old:
            match = next((i for i, o in removed.items() if _likeness(o, new) >= MOVED), None)
            if match is not None:
                found.append((removed.pop(match), new, True))
                continue
        found.append((old, new, False))
    kept = set(removed.values())
    return [(o, n, m) for o, n, m in found if n or o in kept]


def _pair_sentences(olds: list[str], news: list[str]) -> list[tuple[str, str]]:
    """Old and new sentences paired in order where alike enough; the others stand alone ("" on one side)."""
    pairs: list[tuple[str, str]] = []
    start = 0
    for old in olds:
        ratios = [_likeness(old, new) for new in news[start:]]
        best = max(range(len(ratios)), key=lambda i: ratios[i], default=None)
        if best is None or ratios[best] < SIMILAR:
            pairs.append((old, ""))
            continue
        pairs += [("", new) for new in news[start : start + best]]
        pairs.append((old, news[start + best]))
        start += best + 1
    pairs += [("", new) for new in news[start:]]
    return pairs


def _likeness(old: str, new: str) -> float:
    return word_likeness(old.split(), new.split())


def _sentence_change(old: str, new: str, terms: dict[str, str], moved: bool) -> dict[str, Any]:
    a, b = old.split(), new.split()
    old_parts: list[dict[str, str]] = []
    new_parts: list[dict[str, str]] = []
    changed: list[str] = []
    for tag, i1, i2, j1, j2 in word_opcodes(a, b):
        if tag == "equal":
            old_parts.append({"text": " ".join(a[i1:i2]), "change": "equal"})
            new_parts.append({"text": " ".join(b[j1:j2]), "change": "equal"})
            continue
        if i2 > i1:
            old_parts.append({"text": " ".join(a[i1:i2]), "change": "delete"})
        if j2 > j1:
            new_parts.append({"text": " ".join(b[j1:j2]), "change": "insert"})
        changed += a[i1:i2] + b[j1:j2]
    before, after = numbers(old, "en"), numbers(new, "en")
    changed_numbers = {"old": sorted((before - after).elements()), "new": sorted((after - before).elements())}
    words = " ".join(changed)
    named = sorted({title for key, title in terms.items() if re.search(rf"\b{re.escape(key)}s?\b", words)})
    return {
        "old": old_parts,
        "new": new_parts,
        "numbers": changed_numbers if before != after else {},
        "terms": named,
        "moved": moved,
    }


def _term_names(book: Book) -> dict[str, str]:
    """The book's defined terms as its text writes them with capitals (``Player Turn``), by the singular
    form the changed words are searched for (case matters: "attack" is not "Attacks")."""
    defined = {d.name for d in book.definitions}
    names: dict[str, str] = {}
    for document in book.documents:
        for reference in document.references:
            written = " ".join(reference.text.split())
            if reference.name in defined and written[:1].isupper():
                names.setdefault(_singular_phrase(written), written)
    return names


def _singular_phrase(phrase: str) -> str:
    return phrase[:-1] if phrase.endswith("s") and not phrase.endswith("ss") else phrase


def _step_changes(old: list[str], new: list[str]) -> dict[str, Any]:
    if old == new:
        return {}
    result: dict[str, Any] = {"old": old, "new": new, "added": [], "removed": [], "renamed": []}
    matcher = difflib.SequenceMatcher(a=[normalise(s) for s in old], b=[normalise(s) for s in new], autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "insert":
            result["added"] += new[j1:j2]
        elif tag == "delete":
            result["removed"] += old[i1:i2]
        elif tag == "replace":
            pairs = min(i2 - i1, j2 - j1)
            result["renamed"] += [{"old": old[i1 + k], "new": new[j1 + k]} for k in range(pairs)]
            result["removed"] += old[i1 + pairs : i2]
            result["added"] += new[j1 + pairs : j2]
    return result


def _terms(old: Book, new: Book) -> dict[str, list[Any]]:
    before = {d.name: d.plain_text() for d in old.definitions}
    after = {d.name: d.plain_text() for d in new.definitions}
    if not after:
        return {"added": [], "removed": [], "renamed": [], "note": ["the new edition marks no terms"]}
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    renamed = [{"old": o, "new": n} for o in removed for n in added if _alike(before[o], after[n])]
    moved = {r["old"] for r in renamed} | {r["new"] for r in renamed}
    return {
        "added": [n for n in added if n not in moved],
        "removed": [o for o in removed if o not in moved],
        "renamed": renamed,
    }


def _alike(old: str, new: str) -> bool:
    """Whether two definitions' texts are one term renamed: difflib's ratio over 0.8, its cheap upper
    bounds asked first (most pairs of a rewrite are far apart)."""
    matcher = difflib.SequenceMatcher(a=old, b=new)
    return matcher.real_quick_ratio() > 0.8 and matcher.quick_ratio() > 0.8 and matcher.ratio() > 0.8


def render_text(diff: BookDiff) -> str:
    lines = []
    for change in diff.changed:
        if not change.changed:
            continue
        title = change.new if change.old == change.new else f"{change.old} -> {change.new}"
        lines.append(f"~ {title}")
        if change.steps:
            lines.append(f"    steps: {' / '.join(change.steps['old'])}")
            lines.append(f"        -> {' / '.join(change.steps['new'])}")
            lines += [f"    + step {s}" for s in change.steps["added"]]
            lines += [f"    - step {s}" for s in change.steps["removed"]]
            lines += [f"    * step {r['old']} -> {r['new']}" for r in change.steps["renamed"]]
        if change.numbers:
            lines.append(
                f"    numbers: {', '.join(change.numbers['old']) or '-'} -> {', '.join(change.numbers['new']) or '-'}"
            )
        for word in change.words:
            lines.append(f"    [{word['old']}] -> [{word['new']}]")
    lines += [f"+ {title}" for title in diff.added]
    lines += [f"- {title}" for title in diff.removed]
    unchanged = [c.new for c in diff.changed if not c.changed]
    if unchanged:
        lines.append("= unchanged: " + ", ".join(unchanged))
    return "\n".join(lines) + "\n"
