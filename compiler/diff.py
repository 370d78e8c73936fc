"""``rulebook diff OLD NEW``: what changed between two editions of a book.

Sections are matched by title (case, separators and plurals folded: "Turn" is "Turns"), never by
position, so renumbering and reordering do not drown the real changes; a section removed and one added
whose own texts are alike are one section renamed. An edition that covers only
part of the book (a later edition of one chapter) is compared with the matching part only. For
each matched section: the text's word-level changes, the numbers that changed, and the steps of its
sequences (added, removed, renamed). Terms added, removed and renamed come from the definitions.
"""

from __future__ import annotations

import difflib
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from rulebook.diagnostics import Diagnostic
from rulebook.edition_findings import edition_findings
from rulebook.languages.quantities import numbers
from rulebook.model import Book, Content, Definition, ItemList, Node, Section, plain_text
from rulebook.names import normalise
from rulebook.source import SourceText
from rulebook.text_diff import Budget, EditionBudget, SentencePairing, sentence_opcodes, word_opcodes


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
    old_place: dict[str, str] = field(default_factory=dict)
    """Where the rule is in the old edition: its section's ``id`` and the ``chapter`` (page) holding it."""
    new_place: dict[str, str] = field(default_factory=dict)
    """Where the rule is in the new edition (as ``old_place``)."""

    @property
    def renamed(self) -> bool:
        """Whether the section has another title, not only another spelling of it (``Turn`` and ``Turns``)."""
        return normalise(self.old) != normalise(self.new)

    @property
    def changed(self) -> bool:
        return bool(self.words or self.numbers or self.steps or self.renamed)


@dataclass(frozen=True, slots=True)
class SectionPlaces:
    """The sections of both editions as the diff matched them, by id."""

    matched: tuple[tuple[str, str], ...] = ()
    """Each new section matched with an old one (by title, or renamed), as (old id, new id), in the order of
    :attr:`BookDiff.changed`."""
    added: tuple[str, ...] = ()
    """The new sections no old one matches."""
    removed: tuple[str, ...] = ()
    """The old sections, within what the new edition covers, that no new one matches."""
    covered: frozenset[str] = frozenset()
    """The old sections the new edition covers (matched, and what they contain): the others it leaves as they were."""


@dataclass
class BookDiff:
    changed: list[SectionChange]
    added: list[str]
    removed: list[str]
    terms: dict[str, list[Any]]
    added_places: list[dict[str, str]] = field(default_factory=list)
    """The new sections: ``title``, ``id`` and ``chapter`` (the page holding it) in the new edition."""
    removed_places: list[dict[str, str]] = field(default_factory=list)
    """The sections no longer there, placed in the old edition."""
    findings: tuple[Diagnostic, ...] = ()
    """Every change as a diagnostic placed in both editions (:mod:`rulebook.edition_findings`)."""
    sources: dict[str, SourceText] = field(default_factory=dict)
    """Both editions' sources by path: a report shows their lines."""
    notes: tuple[str, ...] = ()
    """Each comparison made simpler than difflib's because its input was too large (none for an ordinary
    edition): what was compared otherwise, and how."""
    places: SectionPlaces = field(default_factory=lambda: SectionPlaces())
    """Which section is which, by id: what joins the diff with other comparisons of the same editions."""

    def as_json(self) -> dict[str, Any]:
        found = {
            "sections": {
                "changed": [vars(c) for c in self.changed if c.changed],
                "unchanged": [c.new for c in self.changed if not c.changed],
                "added": self.added,
                "removed": self.removed,
                "added_places": self.added_places,
                "removed_places": self.removed_places,
            },
            "terms": self.terms,
        }
        return found | {"notes": list(self.notes)} if self.notes else found


def diff_books(old: Book, new: Book) -> BookDiff:
    old_sections = {normalise(s.title): s for s in old.sections if s.title}
    new_sections = [s for s in new.sections if s.title]
    matched = [(old_sections[normalise(s.title)], s) for s in new_sections if normalise(s.title) in old_sections]
    scope = _scope(old, [o for o, _ in matched])
    matched_old = {o.id for o, _ in matched}
    notes: list[str] = []
    added = [s for s in new_sections if normalise(s.title) not in old_sections]
    removed = [s for s in scope if s.id not in matched_old]
    renamed = _renamed_sections(removed, added, notes)
    if renamed:
        was = {n.id: o for o, n in matched} | {n.id: o for o, n in renamed}
        matched = [(was[s.id], s) for s in new_sections if s.id in was]
        added = [s for s in added if s.id not in was]
        gone = {o.id for o, _ in renamed}
        removed = [s for s in removed if s.id not in gone]
    names = _TermNames(_term_names(old))
    edition = EditionBudget()  # shared by the sections: each had its own, and twenty took 14 s
    changes = [_section_change(o, n, names, notes, edition) for o, n in matched]
    old_place, new_place = _places(old), _places(new)
    for (o, n), change in zip(matched, changes, strict=True):
        change.old_place, change.new_place = old_place(o), new_place(n)
    terms = _terms(old, new, notes)
    findings = edition_findings(
        [(o, n, c) for (o, n), c in zip(matched, changes, strict=True) if c.changed], added, removed, terms, old, new
    )
    return BookDiff(
        changed=changes,
        added=[s.title for s in added],
        removed=[s.title for s in removed],
        terms=terms,
        added_places=[{"title": s.title, **new_place(s)} for s in added],
        removed_places=[{"title": s.title, **old_place(s)} for s in removed],
        findings=findings,
        sources={s.source.path: s.source for book in (old, new) for s in book.sections},
        notes=tuple(notes),
        places=SectionPlaces(
            tuple((o.id, n.id) for o, n in matched),
            tuple(s.id for s in added),
            tuple(s.id for s in removed),
            frozenset(s.id for s in scope),
        ),
    )


def _places(book: Book) -> Callable[[Section], dict[str, str]]:
    """Where a section of ``book`` is: its ``id`` and the ``chapter`` holding it (its page on the site)."""
    parents = {s.id: s.parent_id for s in book.sections}

    def place(section: Section) -> dict[str, str]:
        chapter = section.id
        while parents.get(chapter):
            chapter = str(parents[chapter])
        return {"id": section.id, "chapter": chapter}

    return place


def _renamed_sections(removed: list[Section], added: list[Section], notes: list[str]) -> list[tuple[Section, Section]]:
    """The removed sections each paired with an added one whose own text is alike (as renamed terms are found,
    :class:`_Renames`, within the same work): one section renamed. Sections without text of their own (a
    chapter's heading) are never paired, and each section is paired once, in reading order."""
    before = {s.id: _own(s)[0] for s in removed}
    after = {s.id: _own(s)[0] for s in added}
    found = _Renames(before, after, [s.id for s in added if after[s.id].strip()]).renamed(
        [s.id for s in removed if before[s.id].strip()]
    )
    if found.simplified:
        notes.append(
            f"{len(removed)} sections removed and {len(added)} added are too many to compare each text with each "
            f"(past {TERM_WORK:,} character comparisons): the rest were found renamed only with the same text"
        )
    old_by_id, new_by_id = {s.id: s for s in removed}, {s.id: s for s in added}
    pairs: list[tuple[Section, Section]] = []
    paired: tuple[set[str], set[str]] = (set(), set())
    for pair in found.pairs:
        if pair["old"] not in paired[0] and pair["new"] not in paired[1]:
            paired[0].add(pair["old"])
            paired[1].add(pair["new"])
            pairs.append((old_by_id[pair["old"]], new_by_id[pair["new"]]))
    return pairs


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


def _section_change(
    old: Section, new: Section, terms: _TermNames, notes: list[str], edition: EditionBudget
) -> SectionChange:
    old_text, old_lists = _own(old)
    new_text, new_lists = _own(new)
    change = SectionChange(old.title, new.title)
    budget = Budget(edition)
    change.words = _word_changes(old_text, new_text, budget)
    change.sentences = _sentence_changes(old_text, new_text, terms, budget)
    notes += budget.notes(new.title)
    before, after = numbers(old_text, "en"), numbers(new_text, "en")
    if before != after:
        change.numbers = {"old": sorted((before - after).elements()), "new": sorted((after - before).elements())}
    if old_lists or new_lists:
        change.steps = _step_changes(old_lists[0] if old_lists else [], new_lists[0] if new_lists else [])
    return change


def _word_changes(old: str, new: str, budget: Budget, limit: int = 12) -> list[dict[str, str]]:
    if old == new:
        return []
    a, b = old.split(), new.split()
    changes = []
    for tag, i1, i2, j1, j2 in word_opcodes(a, b, budget):
        if tag != "equal":
            changes.append({"change": tag, "old": " ".join(a[i1:i2]), "new": " ".join(b[j1:j2])})
    return changes[:limit]


_SENTENCE_END = re.compile(r"(?<=[.!?])[\"'”)]*\s+(?=[\"'“(]?[A-Z0-9])")


def _sentence_changes(old: str, new: str, terms: _TermNames, budget: Budget) -> list[dict[str, Any]]:
    """The sentences that changed, each paired with what it became (or alone, when added or removed)."""
    if old == new:
        return []
    before, after = _SENTENCE_END.split(old) if old else [], _SENTENCE_END.split(new) if new else []
    pairing = SentencePairing(budget)
    pairs: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in sentence_opcodes(before, after, budget):
        if tag != "equal":
            pairs += pairing.pair(before[i1:i2], after[j1:j2])
    return [_sentence_change(o, n, terms, moved, budget) for o, n, moved in pairing.moves(pairs)]


def _sentence_change(old: str, new: str, terms: _TermNames, moved: bool, budget: Budget) -> dict[str, Any]:
    a, b = old.split(), new.split()
    old_parts: list[dict[str, str]] = []
    new_parts: list[dict[str, str]] = []
    changed: list[str] = []
    for tag, i1, i2, j1, j2 in word_opcodes(a, b, budget):
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
    return {
        "old": old_parts,
        "new": new_parts,
        "numbers": changed_numbers if before != after else {},
        "terms": terms.named(" ".join(changed)),
        "moved": moved,
    }


class _TermNames:
    """The book's term names (:func:`_term_names`) found in changed words, each with the expression
    ``\\bNAMEs?\\b``, tried only for the names whose first word the changed words hold: finding them
    takes time in the words and the names found, not in the words times every name of the book."""

    def __init__(self, names: dict[str, str]) -> None:
        self.names = names
        self.patterns = {key: re.compile(rf"\b{re.escape(key)}s?\b") for key in names}
        self.by_first_word: dict[str, list[str]] = {}
        self.always: list[str] = []
        for key in names:
            first = _WORD.match(key)
            (self.by_first_word.setdefault(first.group(), []) if first else self.always).append(key)

    def named(self, words: str) -> list[str]:
        """The names (as written) of the terms ``words`` name, sorted."""
        found = set(_WORD.findall(words))
        found |= {word[:-1] for word in found if word.endswith("s")}  # "Turns" is where "Turn" may stand
        keys = [key for word in found for key in self.by_first_word.get(word, ())] + self.always
        return sorted({self.names[key] for key in keys if self.patterns[key].search(words)})


_WORD = re.compile(r"\w+")


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
    for tag, i1, i2, j1, j2 in word_opcodes([normalise(s) for s in old], [normalise(s) for s in new]):
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


def _terms(old: Book, new: Book, notes: list[str]) -> dict[str, list[Any]]:
    before = {d.name: d.plain_text() for d in old.definitions}
    after = {d.name: d.plain_text() for d in new.definitions}
    if not after:
        return {"added": [], "removed": [], "renamed": [], "note": ["the new edition marks no terms"]}
    added = sorted(set(after) - set(before))
    removed = sorted(set(before) - set(after))
    renamed = _Renames(before, after, added).renamed(removed)
    if renamed.simplified:
        notes.append(
            f"{len(removed)} terms removed and {len(added)} added are too many to compare each definition with "
            f"each (past {TERM_WORK:,} character comparisons): the rest were found renamed only with the same text"
        )
    moved = {r["old"] for r in renamed.pairs} | {r["new"] for r in renamed.pairs}
    return {
        "added": [n for n in added if n not in moved],
        "removed": [o for o in removed if o not in moved],
        "renamed": renamed.pairs,
    }


RENAMED = 0.8
"""How alike two definitions' texts must be (difflib's ratio of their characters) to be one term renamed."""
TERM_WORK = 20_000_000
"""How many character comparisons finding renamed terms may take, as difflib counts them: a pair of
definitions of m and n characters costs m + n for the cheap bounds, and m·n for the ratio (m·n/16 when the
new one has 200 characters or more: difflib then leaves out its commonest characters). About a second
on a slow machine; past it, a removed term is renamed only as an added one with the same text."""


@dataclass
class _Renamed:
    pairs: list[dict[str, str]]
    """Each removed term with each added one alike, by old then new name."""
    simplified: bool
    """Whether the work ran out: the later removed terms were paired only with identical texts."""


class _Renames:
    """Removed and added terms whose definitions are alike (or sections whose own texts are): one term renamed
    (difflib's ratio over :data:`RENAMED`, its cheap upper bounds asked first), within :data:`TERM_WORK`."""

    def __init__(self, before: dict[str, str], after: dict[str, str], added: list[str]) -> None:
        self.before, self.after, self.added = before, after, added
        self.left = TERM_WORK
        self.counts: dict[str, Counter[str]] = {}
        self.same_text: dict[str, list[str]] = {}
        for name in added:
            self.same_text.setdefault(after[name], []).append(name)

    def renamed(self, removed: list[str]) -> _Renamed:
        pairs: list[dict[str, str]] = []
        simplified = False
        for old in removed:
            found = None if simplified else self._alike(self.before[old])
            if found is None:
                simplified = True
                found = self.same_text.get(self.before[old], [])
            pairs += [{"old": old, "new": new} for new in found]
        return _Renamed(pairs, simplified)

    def _alike(self, text: str) -> list[str] | None:
        """The added terms defined alike ``text``, or None when the work runs out on the way."""
        found = []
        for name in self.added:
            other = self.after[name]
            total = len(text) + len(other)
            if not self._spend(total):
                return None
            if _ratio(min(len(text), len(other)), total) <= RENAMED:
                continue
            common = _common(self._counts(text), self._counts(other))
            if _ratio(common, total) <= RENAMED:
                continue
            if not self._spend(len(text) * len(other) // (16 if len(other) >= 200 else 1)):
                return None
            if difflib.SequenceMatcher(a=text, b=other).ratio() > RENAMED:
                found.append(name)
        return found

    def _spend(self, work: int) -> bool:
        if work > self.left:
            self.left = 0
            return False
        self.left -= work
        return True

    def _counts(self, text: str) -> Counter[str]:
        found = self.counts.get(text)
        if found is None:
            found = self.counts[text] = Counter(text)
        return found


def _common(a: Counter[str], b: Counter[str]) -> int:
    """How many characters two texts have in common in any order (difflib's ``quick_ratio`` counts these)."""
    small, large = (a, b) if len(a) <= len(b) else (b, a)
    return sum(min(count, large[char]) for char, count in small.items())


def _ratio(matches: int, length: int) -> float:
    """difflib's ratio of ``matches`` in texts of ``length`` characters in all, computed as difflib does."""
    return 2.0 * matches / length if length else 1.0


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
    lines += [f"note: {note}" for note in diff.notes]
    return "\n".join(lines) + "\n"
