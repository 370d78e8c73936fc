"""What ``rulebook diff`` found, as diagnostics placed in both editions.

Each finding's primary place is in the new edition, its counterpart the same place in the old one
(a section or term that is gone has only its old place). Sentences and steps are found again in the
source text from their section's start, so a finding points at the sentence, not only its section.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, Protocol

from rulebook.catalog import editions as rules
from rulebook.diagnostics import Diagnostic, Note, sort_diagnostics
from rulebook.model import Book, Definition, Section
from rulebook.source import SourceText, Span
from rulebook.source_words import SourceWords


class SectionChange(Protocol):
    """What changed in one matched section (:class:`rulebook.diff.SectionChange`)."""

    sentences: list[dict[str, Any]]
    numbers: dict[str, list[str]]
    steps: dict[str, Any]

    @property
    def renamed(self) -> bool: ...


QUOTE_LIMIT = 60
"""How many characters of a sentence or of changed words a message quotes."""


def edition_findings(
    matched: Iterable[tuple[Section, Section, SectionChange]],
    added: Iterable[Section],
    removed: Iterable[Section],
    terms: dict[str, list[Any]],
    old: Book,
    new: Book,
) -> tuple[Diagnostic, ...]:
    """Every change between two editions as a diagnostic, in report order."""
    found: list[Diagnostic] = []
    dialect = {s.source.path for book in (old, new) for d in book.documents if d.dialect for s in d.sections}
    places = _Places(frozenset(dialect))
    for before, after, change in matched:
        found += _section_findings(before, after, change, places)
    found += [
        rules.SECTION_ADDED.diagnostic(f"new section `{s.title}`", _heading(s), target=s.title, section_id=s.id)
        for s in added
    ]
    found += [
        rules.SECTION_REMOVED.diagnostic(
            f"section `{s.title}` is not in the new edition", _heading(s), target=s.title, section_id=s.id
        )
        for s in removed
    ]
    found += _term_findings(terms, old, new)
    return tuple(sort_diagnostics(found))


def _section_findings(before: Section, after: Section, change: SectionChange, places: _Places) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    where = _Counterpart(before, places)
    if change.renamed:
        found.append(
            rules.SECTION_RENAMED.diagnostic(
                f"section `{before.title}` is now `{after.title}`",
                _heading(after),
                target=after.title,
                section_id=after.id,
                counterpart=Note("in the old edition", _heading(before)),
            )
        )
    for sentence in change.sentences:
        found.append(_sentence_finding(after, sentence, where, places))
    if change.numbers:
        was, now = change.numbers["old"], change.numbers["new"]
        found.append(
            rules.NUMBER_CHANGED.diagnostic(
                _number_message(after.title, was, now),
                places.find(after, _sentence_with(change.sentences, now, "new")) or _heading(after),
                target=after.title,
                section_id=after.id,
                counterpart=where.note(_sentence_with(change.sentences, was, "old")),
            )
        )
    steps = change.steps
    for step in steps.get("added", ()):
        found.append(
            rules.STEP_ADDED.diagnostic(
                f"new step `{step}` in `{after.title}`",
                places.find(after, step) or _heading(after),
                target=step,
                section_id=after.id,
                counterpart=where.note(None),
            )
        )
    for step in steps.get("removed", ()):
        found.append(
            rules.STEP_REMOVED.diagnostic(
                f"step `{step}` of `{after.title}` is gone",
                _heading(after),
                target=step,
                section_id=after.id,
                counterpart=where.note(step),
            )
        )
    for renamed in steps.get("renamed", ()):
        found.append(
            rules.STEP_RENAMED.diagnostic(
                f"step `{renamed['old']}` is now `{renamed['new']}`",
                places.find(after, renamed["new"]) or _heading(after),
                target=renamed["new"],
                section_id=after.id,
                counterpart=where.note(renamed["old"]),
            )
        )
    return found


def _sentence_finding(after: Section, sentence: dict[str, Any], where: _Counterpart, places: _Places) -> Diagnostic:
    was, now = _plain(sentence["old"]), _plain(sentence["new"])
    if not was:
        message = f"new sentence: {_quote(now)}"
    elif not now:
        message = f"sentence removed: {_quote(was)}"
    elif sentence["moved"]:
        message = f"sentence moved: {_quote(now)}"
    else:
        removed = " … ".join(p["text"] for p in sentence["old"] if p["change"] != "equal")
        inserted = " … ".join(p["text"] for p in sentence["new"] if p["change"] != "equal")
        if not removed:
            message = f"words added: {_quote(inserted)}"
        elif not inserted:
            message = f"words removed: {_quote(removed)}"
        else:
            message = f"reworded: {_quote(removed)} became {_quote(inserted)}"
    return rules.TEXT_CHANGED.diagnostic(
        message,
        (places.find(after, now) if now else None) or _heading(after),
        target=after.title,
        section_id=after.id,
        counterpart=where.note(was or None),
    )


def _term_findings(terms: dict[str, list[Any]], old: Book, new: Book) -> list[Diagnostic]:
    old_definitions = _definitions(old)
    new_definitions = _definitions(new)
    found = [
        rules.TERM_ADDED.diagnostic(
            f"new term `{name}`", new_definitions[name].span, target=name, section_id=new_definitions[name].section_id
        )
        for name in terms.get("added", [])
    ]
    found += [
        rules.TERM_REMOVED.diagnostic(
            f"term `{name}` is no longer defined",
            old_definitions[name].span,
            target=name,
            section_id=old_definitions[name].section_id,
        )
        for name in terms.get("removed", [])
    ]
    for renamed in terms.get("renamed", []):
        definition = new_definitions[renamed["new"]]
        found.append(
            rules.TERM_RENAMED.diagnostic(
                f"term `{renamed['old']}` is now `{renamed['new']}`",
                definition.span,
                target=renamed["new"],
                section_id=definition.section_id,
                counterpart=Note("defined in the old edition", old_definitions[renamed["old"]].span),
            )
        )
    return found


class _Counterpart:
    """Notes pointing at the old edition: at a sentence or step of an old section, else at its heading."""

    def __init__(self, section: Section, places: _Places) -> None:
        self.section = section
        self.places = places

    def note(self, text: str | None) -> Note:
        if text:
            span = self.places.find(self.section, text)
            if span is not None:
                return Note("in the old edition", span)
        return Note(f"`{self.section.title}` in the old edition", _heading(self.section))


def _heading(section: Section) -> Span:
    return section.span


class _Places:
    """Where plain text stands in the sources, each source's words indexed the first time it is asked
    (:class:`rulebook.source_words.SourceWords`): a sentence is looked for where its rarest word stands,
    not by searching its section's text from the start for each sentence (time in sentences times text)."""

    def __init__(self, dialect: frozenset[str] = frozenset()) -> None:
        self.sources: dict[SourceText, SourceWords] = {}
        self.dialect = dialect
        """The paths of the sources written in the dialect: their markup (``{.header}``, ``[[cover|``) is no words,
        where a table's change stood at the first word of its section that matched the first of its text."""

    def find(self, section: Section, text: str | None) -> Span | None:
        """Where ``text`` (plain text, as the diff reads it) starts in the section's source, its first words
        matched across markup; None if it cannot be found."""
        words = text.split() if text else []
        source = section.source
        for count in (5, 2, 1):
            if len(words) < count and count != 1:
                continue
            if not words:
                return None
            found = self._words(source).find(words[:count], section.offset)
            if found is not None:
                start, end = found
                line, column = source.position(start)
                line_end = source.line_starts[line] if line < len(source.line_starts) else len(source.text)
                return Span(source.path, line, column, min(end, line_end) - start)
        return None

    def _words(self, source: SourceText) -> SourceWords:
        found = self.sources.get(source)
        if found is None:
            text = source.text
            if source.path in self.dialect:
                from rulebook.readers.markdown_syntax import blank_dialect  # markdown-it only where the dialect is read

                text = _TABLE_MARKUP.sub(_blank, blank_dialect(text))
            found = self.sources[source] = SourceWords(text)
        return found


_TABLE_MARKUP = re.compile(
    r"^[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?$|(?<!\\)\|", re.MULTILINE
)
"""A pipe table's delimiter row and its pipes (but ``\\|``): no words, as the diff's text of a table has none. The
spaces around an optional pipe are one run each (``[ \\t]*\\|?[ \\t]*`` split a line of spaces between two runs every
way: a line of 40,000 spaces in a dialect source made `diff` take 24 s)."""


def _blank(found: re.Match[str]) -> str:
    return " " * len(found.group())  # the same length: places stay


def _definitions(book: Book) -> dict[str, Definition]:
    found: dict[str, Definition] = {}
    for definition in book.definitions:
        found.setdefault(definition.name, definition)
    return found


def _sentence_with(sentences: list[dict[str, Any]], values: list[str], side: str) -> str | None:
    """The first changed sentence whose own changed numbers include one of ``values`` on that side."""
    for sentence in sentences:
        if set(sentence["numbers"].get(side, ())) & set(values):
            return _plain(sentence[side])
    return None


def _plain(parts: list[dict[str, str]]) -> str:
    return " ".join(p["text"] for p in parts if p["text"])


def _number_message(title: str, was: list[str], now: list[str]) -> str:
    def listed(values: list[str]) -> str:
        return ", ".join(f"`{v}`" for v in values)

    if not was:
        return f"in `{title}`, {listed(now)} {'is' if len(now) == 1 else 'are'} new"
    if not now:
        return f"in `{title}`, {listed(was)} {'is' if len(was) == 1 else 'are'} gone"
    return f"in `{title}`, {listed(was)} became {listed(now)}"


def _quote(text: str) -> str:
    text = " ".join(text.split())
    return f'"{text if len(text) <= QUOTE_LIMIT else text[: QUOTE_LIMIT - 1].rstrip() + "…"}"'
