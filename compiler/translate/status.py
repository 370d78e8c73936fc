"""What to translate again: each section of the latest edition of the original, and its translation's status.

A translation is made from one edition of its original (the translation's ``from_edition``); the original
moves on (a book that follows it, ``changes_from``). Two comparisons exist already, and are joined as they are:

- the comparison of the translation with the edition it was made from (:func:`~rulebook.translate.compare.
  compare_books`): which translated section translates which section of that edition (its alignment);
- the edition diff from that edition to the latest one (:func:`~rulebook.diff.diff_books`): which section became
  which (by title, or renamed), which changed and how (its findings), which are new or gone, and which part of
  the book the latest edition covers (a later edition of one chapter leaves the others as they were).

Each section of the latest edition is then **current** (its original did not change since the translated
edition, or a translator marked it up to date), **outdated** (it changed: the diff's findings for it say which
sentences, numbers, steps or title), or **missing** (no translated section: new since, or never translated); and
each translated section whose original is gone is **orphaned**. Marks (:mod:`rulebook.translate.status_file`)
record a section brought up to date with the latest edition, by a fingerprint of its text: when the original
changes again, the mark no longer holds.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from rulebook.catalog import editions as changes
from rulebook.catalog import status as rules
from rulebook.diagnostics import Diagnostic, Note
from rulebook.errors import UserError
from rulebook.model import Book, Section, plain_text
from rulebook.names import normalise
from rulebook.source import Span
from rulebook.translate.align import Unit

if TYPE_CHECKING:
    from rulebook.diff import BookDiff, SectionChange
    from rulebook.translate.results import Comparison

CURRENT = "current"
OUTDATED = "outdated"
MISSING = "missing"
ORPHANED = "orphaned"
STATES = (CURRENT, OUTDATED, MISSING, ORPHANED)
"""Every status a section can have, in the order reports give them."""

_OLD_SIDE = frozenset({changes.TERM_REMOVED.code})
"""The diff's findings placed by the old edition's section (a term no longer defined)."""
_NOT_A_CHANGE = frozenset({changes.SECTION_ADDED.code, changes.SECTION_REMOVED.code})
"""The diff's findings a section's status says itself (missing, orphaned)."""


@dataclass(frozen=True, slots=True)
class Mark:
    """A section of the latest edition a translator brought the translation up to date with."""

    section: str
    """Its id in the latest edition."""
    title: str
    """Its title (for people reading the status file)."""
    edition: str
    """The book holding that edition."""
    fingerprint: str
    """:func:`fingerprint` of the section when it was marked: the mark holds while the section reads so."""


@dataclass(frozen=True, slots=True)
class SectionStatus:
    """One section of the latest edition (or one orphaned translated section) and its translation's status."""

    state: str
    """One of :data:`STATES`."""
    original: Section | None
    """The section of the latest edition (None: orphaned)."""
    earlier: Section | None
    """The section of the translated edition it continues (None: new since that edition)."""
    translation: Unit | None
    """The translated section (None: missing)."""
    pair: int | None = None
    """The index of the translated section's pair in the comparison (its sentences, for the report)."""
    change: SectionChange | None = None
    """What the edition diff found changed in it (None: no later edition, or new, gone or outside what it covers)."""
    changes: tuple[Diagnostic, ...] = ()
    """The edition diff's findings for the section: what changed, placed in both editions."""
    marked: bool = False
    """Current because a translator marked it up to date with the latest edition (the diff says it changed)."""
    fingerprint: str = ""
    """:func:`fingerprint` of the original section (what a mark records)."""

    @property
    def new(self) -> bool:
        """Whether the section is new since the translated edition."""
        return self.original is not None and self.earlier is None

    @property
    def title(self) -> str:
        """The section's title in the latest edition (an orphaned one: in the translated edition)."""
        section = self.original or self.earlier
        return section.title if section is not None else ""


@dataclass(frozen=True, slots=True)
class TranslationStatus:
    """A translation's status against the latest edition of its original, section by section."""

    language: str
    made_from: str
    """The book holding the edition the translation was made from."""
    latest: str
    """The book holding the latest edition of the original (``made_from`` itself when none followed it)."""
    sections: tuple[SectionStatus, ...]
    """Each section of the latest edition in reading order, then the orphaned translated sections."""
    comparison: Comparison
    """The comparison of the translation with the edition it was made from."""
    diff: BookDiff | None = None
    """The edition diff from that edition to the latest one (None: it is the latest)."""
    stale_marks: tuple[Mark, ...] = ()
    """Marks that hold no more: the section changed again since, or is gone."""
    edition_names: tuple[str | None, str | None] = (None, None)
    """What the configuration calls both editions (their books' ``edition``), where it does."""
    latest_book: Book | None = None
    """The latest edition of the original (where its sections are, for the sites)."""

    @property
    def labels(self) -> tuple[str, str]:
        """Both editions as messages name them: the book in backticks, with its edition (`` `main` (0.99) ``)."""
        return _label(self.made_from, self.edition_names[0], "`"), _label(self.latest, self.edition_names[1], "`")

    @property
    def plain_labels(self) -> tuple[str, str]:
        """Both editions as a page names them (``main (0.99)``)."""
        return _label(self.made_from, self.edition_names[0], ""), _label(self.latest, self.edition_names[1], "")

    def count(self, state: str) -> int:
        return sum(1 for s in self.sections if s.state == state)

    @property
    def total(self) -> int:
        """How many sections the latest edition has (an orphaned section is none of them)."""
        return sum(1 for s in self.sections if s.state != ORPHANED)

    def share(self, state: str) -> float:
        """The share of the latest edition's sections in a state, from 0 to 1 (none: 0)."""
        return self.count(state) / self.total if self.total else 0.0

    def of(self, state: str) -> tuple[SectionStatus, ...]:
        return tuple(s for s in self.sections if s.state == state)

    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """Each section that is not current as a finding, in reading order, an outdated one followed by the diff's
        findings that say what changed."""
        found: list[Diagnostic] = []
        for section in self.sections:
            if section.state != CURRENT:
                found.append(self._finding(section))
                found += section.changes if section.state == OUTDATED else ()
        return tuple(found)

    def _finding(self, section: SectionStatus) -> Diagnostic:
        made_from, latest = self.labels
        original, translation = section.original, section.translation
        if section.state == OUTDATED:
            assert original is not None and translation is not None
            count = len(section.changes)
            what = f"{count} change{'s' if count != 1 else ''}" if count else "its title"
            return rules.OUTDATED_TRANSLATION.diagnostic(
                f"`{translation.title}` was translated from {made_from}: `{original.title}` changed since ({what})",
                _heading(translation),
                target=original.id,
                section_id=translation.id,
                counterpart=Note(f"the original now, in {latest}", original.span),
                help=f'translate the changes again, then mark it: `rulebook status --mark "{original.title}"`',
            )
        if section.state == MISSING:
            assert original is not None
            since = f"is new since {made_from}: the translation has no section for it" if section.new else ""
            return rules.UNTRANSLATED_SECTION.diagnostic(
                f"`{original.title}` {since or 'has no translated section'}",
                original.span,
                target=original.id,
                section_id=original.id,
                help=f'translate it, then mark it: `rulebook status --mark "{original.title}"`' if since else None,
            )
        assert section.earlier is not None and translation is not None
        return rules.ORPHANED_TRANSLATION.diagnostic(
            f"`{translation.title}` translates `{section.earlier.title}`, which {latest} no longer has",
            _heading(translation),
            target=section.earlier.id,
            section_id=translation.id,
            counterpart=Note(f"in {made_from}", section.earlier.span),
            help="remove the translated section, or translate into it what the original now says elsewhere",
        )

    def summary(self) -> dict[str, Any]:
        """The status as JSON data: the editions, the counts and shares, and each section that is not current."""
        return {
            "language": self.language,
            "made_from": self.made_from,
            "latest": self.latest,
            "sections": self.total,
            "counts": {state: self.count(state) for state in STATES},
            "shares": {state: round(self.share(state), 3) for state in STATES if state != ORPHANED},
            "not_current": [_section_record(s) for s in self.sections if s.state != CURRENT],
            "marked": sorted(s.original.id for s in self.sections if s.marked and s.original is not None),
            "stale_marks": [{"section": m.section, "title": m.title, "edition": m.edition} for m in self.stale_marks],
        }


def _label(book: str, edition: str | None, quote: str) -> str:
    return f"{quote}{book}{quote}" + (f" ({edition})" if edition else "")


def _section_record(section: SectionStatus) -> dict[str, Any]:
    translation = section.translation
    return {
        "state": section.state,
        "section": section.original.id if section.original else None,
        "title": section.title,
        "new": section.new,
        "translation": None if translation is None else {"id": translation.id, "title": translation.title},
        "changes": [d.message for d in section.changes],
    }


def _heading(unit: Unit) -> Span:
    assert unit.source is not None, "a translated section is read from a source"
    return unit.source.span(unit.offset)


def fingerprint(section: Section) -> str:
    """A hash of a section's title and own text (not its subsections'): what a mark records of it."""
    own = plain_text(tuple(node for node in section.children if not isinstance(node, Section)))
    return hashlib.sha256(f"{section.title}\x1f{own}".encode()).hexdigest()[:16]


def translation_status(
    comparison: Comparison,
    made_from: Book,
    latest: Book,
    diff: BookDiff | None,
    *,
    language: str,
    editions: tuple[str, str],
    edition_names: tuple[str | None, str | None] = (None, None),
    marks: Sequence[Mark] = (),
) -> TranslationStatus:
    """The status of each section of ``latest`` in a translation made from ``made_from`` and compared with it
    (``comparison``), through the edition diff between both (None: ``latest`` is ``made_from``). ``editions``:
    the books' names, ``edition_names`` their editions as configured; ``marks``: the sections marked up to date
    with the latest edition."""
    translated = _translated(comparison)
    found = list(_statuses(made_from, latest, diff, translated))
    holding = {(m.section, m.fingerprint) for m in marks if m.edition == editions[1]}
    kept = []
    for status in found:
        if (status.state == OUTDATED or (status.state == MISSING and status.new)) and (
            _id(status),
            status.fingerprint,
        ) in holding:
            status = _replace(status, state=CURRENT, marked=True)
        kept.append(status)
    present = {(_id(s), s.fingerprint) for s in kept if s.original is not None}
    stale = tuple(m for m in marks if m.edition != editions[1] or (m.section, m.fingerprint) not in present)
    return TranslationStatus(
        language, editions[0], editions[1], tuple(kept), comparison, diff, stale, edition_names, latest
    )


def _id(status: SectionStatus) -> str:
    return status.original.id if status.original is not None else ""


def _replace(status: SectionStatus, **changed: Any) -> SectionStatus:
    from dataclasses import replace

    return replace(status, **changed)


def _translated(comparison: Comparison) -> dict[str, tuple[int, Unit]]:
    """The translated section (and its pair's index) of each section of the translated edition, by id."""
    found: dict[str, tuple[int, Unit]] = {}
    for index, pair in enumerate(comparison.pairs):
        if pair.original is not None and pair.translation is not None and pair.original.kind == "section":
            found.setdefault(pair.original.id, (index, pair.translation))
    return found


def _statuses(
    made_from: Book, latest: Book, diff: BookDiff | None, translated: dict[str, tuple[int, Unit]]
) -> Iterator[SectionStatus]:
    """Each section of the latest edition in reading order: the translated edition's, with what the latest covers
    in place of its first section it covers; then the orphaned ones."""
    if diff is None:
        for section in _titled(made_from):
            yield _status(section, section, None, (), translated)
        return
    places = diff.places
    earlier = {s.id: s for s in _titled(made_from)}
    earlier_of = {new: old for old, new in places.matched}
    change_of = {new: change for (_, new), change in zip(places.matched, diff.changed, strict=True)}
    findings = _findings_by_section(diff, earlier_of)
    covered = False
    for section in earlier.values():
        if section.id not in places.covered:
            yield _status(section, section, None, (), translated)
        elif not covered:
            covered = True
            yield from _latest(latest, earlier, earlier_of, change_of, findings, translated)
    if not covered:
        yield from _latest(latest, earlier, earlier_of, change_of, findings, translated)
    for old in places.removed:
        if old in translated:
            index, unit = translated[old]
            yield SectionStatus(ORPHANED, None, earlier[old], unit, index)


def _latest(
    latest: Book,
    earlier: dict[str, Section],
    earlier_of: dict[str, str],
    change_of: dict[str, SectionChange],
    findings: dict[str, list[Diagnostic]],
    translated: dict[str, tuple[int, Unit]],
) -> Iterator[SectionStatus]:
    for section in _titled(latest):
        old = earlier_of.get(section.id)
        before = earlier[old] if old is not None else None
        yield _status(section, before, change_of.get(section.id), tuple(findings.get(section.id, ())), translated)


def _status(
    section: Section,
    earlier: Section | None,
    change: SectionChange | None,
    found: tuple[Diagnostic, ...],
    translated: dict[str, tuple[int, Unit]],
) -> SectionStatus:
    index, unit = translated.get(earlier.id, (None, None)) if earlier is not None else (None, None)
    state = MISSING if unit is None else OUTDATED if change is not None and change.changed else CURRENT
    return SectionStatus(state, section, earlier, unit, index, change, found, fingerprint=fingerprint(section))


def _findings_by_section(diff: BookDiff, earlier_of: dict[str, str]) -> dict[str, list[Diagnostic]]:
    """The diff's findings about each section of the latest edition, by its id, in report order."""
    latest_of = {old: new for new, old in earlier_of.items()}
    found: dict[str, list[Diagnostic]] = {}
    for finding in diff.findings:
        if finding.code in _NOT_A_CHANGE or finding.section_id is None:
            continue
        section = latest_of.get(finding.section_id) if finding.code in _OLD_SIDE else finding.section_id
        if section is not None:
            found.setdefault(section, []).append(finding)
    return found


def _titled(book: Book) -> list[Section]:
    """A book's sections in reading order, those the diff matches (with a title)."""
    return [s for s in book.sections if s.title]


class MarkError(UserError):
    """A section named to mark cannot be marked; the message says why and what to do."""


def marked(
    status: TranslationStatus, keys: Sequence[str], *, every: bool = False
) -> tuple[tuple[Mark, ...], tuple[SectionStatus, ...]]:
    """The marks a status file holds once the sections named (by title or id in the latest edition; ``every``: each
    outdated or new one) are marked up to date with the latest edition, and the sections that takes. The marks
    that still hold are kept; a section that is current already needs none."""
    if every:
        chosen = [s for s in status.sections if s.state == OUTDATED or (s.state == MISSING and s.new)]
    else:
        chosen = []
        for key in keys:
            section = _named(status, key)
            if section.state == MISSING and not section.new:
                raise MarkError(
                    f"`{section.title}` was never translated: once the translation has it, the comparison finds it "
                    "(there is nothing to mark)"
                )
            if section.state != CURRENT and all(section is not other for other in chosen):
                chosen.append(section)
    held = [m for m in _held_marks(status) if all(m.section != _id(s) for s in chosen)]
    new = [Mark(_id(s), s.title, status.latest, s.fingerprint) for s in chosen]
    return (*held, *new), tuple(chosen)


def _held_marks(status: TranslationStatus) -> list[Mark]:
    """The marks that hold now: those of the sections marked."""
    return [Mark(_id(s), s.title, status.latest, s.fingerprint) for s in status.sections if s.marked]


def _named(status: TranslationStatus, key: str) -> SectionStatus:
    """The section of the latest edition a key names: its id, else its title (case, separators, plurals folded)."""
    sections = [s for s in status.sections if s.original is not None]
    found = [s for s in sections if _id(s) == key] or [s for s in sections if normalise(s.title) == normalise(key)]
    if len(found) == 1:
        return found[0]
    if found:
        ids = ", ".join(f"`{_id(s)}`" for s in found)
        raise MarkError(f"{len(found)} sections of `{status.latest}` are called `{key}`: name one by its id ({ids})")
    gone = [s for s in status.of(ORPHANED) if normalise(s.title) == normalise(key)]
    if gone and gone[0].translation is not None:
        raise MarkError(
            f"`{gone[0].title}` is gone from `{status.latest}`: remove its translated section "
            f"`{gone[0].translation.title}` (there is nothing to mark)"
        )
    import difflib

    close = difflib.get_close_matches(key, [s.title for s in sections], n=1)
    hint = f" (did you mean `{close[0]}`?)" if close else ""
    raise MarkError(f"no section of `{status.latest}` is called `{key}`{hint}")
