"""``rulebook diff OLD NEW``: what changed between two editions of a book.

Sections are matched by title (case, separators and plurals folded: "Turn" is "Turns"), never by
position, so renumbering and reordering do not drown the real changes. An edition that covers only
part of the book (a later edition of one chapter) is compared with the matching part only. For
each matched section: the text's word-level changes, the numbers that changed, and the steps of its
sequences (added, removed, renamed). Terms added, removed and renamed come from the definitions.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass, field
from typing import Any

from compiler.model import Book, Content, Definition, ItemList, Node, Section, plain_text
from compiler.names import normalise
from compiler.translate.numbers import numbers


@dataclass
class SectionChange:
    old: str
    new: str
    words: list[dict[str, str]] = field(default_factory=list)
    numbers: dict[str, list[str]] = field(default_factory=dict)
    steps: dict[str, Any] = field(default_factory=dict)

    @property
    def changed(self) -> bool:
        return bool(self.words or self.numbers or self.steps)


@dataclass
class BookDiff:
    changed: list[SectionChange]
    added: list[str]
    removed: list[str]
    terms: dict[str, list[Any]]

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
    return BookDiff(
        changed=[_section_change(o, n) for o, n in matched],
        added=[s.title for s in new_sections if normalise(s.title) not in old_sections],
        removed=[s.title for s in scope if s.id not in matched_old],
        terms=_terms(old, new),
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


def _section_change(old: Section, new: Section) -> SectionChange:
    old_text, old_lists = _own(old)
    new_text, new_lists = _own(new)
    change = SectionChange(old.title, new.title)
    change.words = _word_changes(old_text, new_text)
    before, after = numbers(old_text, "en"), numbers(new_text, "en")
    if before != after:
        change.numbers = {"old": sorted((before - after).elements()), "new": sorted((after - before).elements())}
    if old_lists or new_lists:
        change.steps = _step_changes(old_lists[0] if old_lists else [], new_lists[0] if new_lists else [])
    return change


def _word_changes(old: str, new: str, limit: int = 12) -> list[dict[str, str]]:
    a, b = old.split(), new.split()
    changes = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag != "equal":
            changes.append({"change": tag, "old": " ".join(a[i1:i2]), "new": " ".join(b[j1:j2])})
    return changes[:limit]


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
    renamed = [
        {"old": o, "new": n}
        for o in removed
        for n in added
        if difflib.SequenceMatcher(a=before[o], b=after[n]).ratio() > 0.8
    ]
    moved = {r["old"] for r in renamed} | {r["new"] for r in renamed}
    return {
        "added": [n for n in added if n not in moved],
        "removed": [o for o in removed if o not in moved],
        "renamed": renamed,
    }


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
