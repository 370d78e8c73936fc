"""What the translated site tells its readers of the translation's status against the latest edition.

A translated page whose original changed since the edition it was translated from says so at its top, with a link
to the original's page as it reads now (``status_banner.html.j2``); the translated site's home page shows the
status of the whole translation (``status_summary.html.j2``). The status itself is
:mod:`rulebook.translate.status`'s; here it becomes places on the sites and words in the site's language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass

from jinja2 import Environment

from rulebook.model import Book, Section
from rulebook.translate.status import CURRENT, MISSING, ORPHANED, OUTDATED, SectionStatus, TranslationStatus


@dataclass(frozen=True, slots=True)
class StatusEntry:
    """A translated section whose original changed (outdated) or is gone (orphaned); or a section new in the
    original since, not translated yet (missing), shown with the translated section before it."""

    state: str
    translation: str
    """The translated section's id (a new section: the translated section before it, where it would be; the first
    translated section for one before them all)."""
    translated_title: str
    """Its title (a new section: empty)."""
    title: str
    """The original's title now (an orphaned section's: as it was)."""
    original: str | None
    """The original section as it reads now, from the translated book's site root (a page's Markdown path with its
    ``#fragment``); None for an orphaned section."""


@dataclass(frozen=True, slots=True)
class SiteStatus:
    """A translation's status, as its site shows it."""

    made_from: str
    """The edition the translation was made from (the configuration's ``edition``, else the book's name)."""
    latest: str
    """The latest edition of the original."""
    total: int
    counts: Mapping[str, int]
    entries: tuple[StatusEntry, ...]
    """The translated sections to read with care and the sections new in the original, in reading order."""
    changes: str | None
    """The latest edition's "What changed" page, from the translated book's site root, if it has one."""


def site_status(status: TranslationStatus, *, latest_root: str, changes_page: bool) -> SiteStatus:
    """The status for the translated site; ``latest_root``: the latest edition's site root from the translated book's
    (``""`` when it is that book, ``turns-later/`` or ``../turns-later/`` for another); ``changes_page``: whether the
    latest edition has a "What changed" page."""
    chapter_of = _chapters(status.latest_book) if status.latest_book is not None else {}

    def target(original: Section | None) -> str | None:
        chapter = chapter_of.get(original.id) if original is not None else None
        if original is None or chapter is None:
            return None
        return f"{latest_root}{chapter}.md" + ("" if chapter == original.id else f"#{original.id}")

    entries: list[StatusEntry] = []
    before: str | None = None
    waiting: list[SectionStatus] = []
    for section in status.sections:
        translation = section.translation
        if section.state == MISSING and section.new:
            if before is None:
                waiting.append(section)
            else:
                entries.append(StatusEntry(MISSING, before, "", section.title, target(section.original)))
            continue
        if translation is None:
            continue
        if section.state != ORPHANED:
            before = translation.id
            entries += [StatusEntry(MISSING, before, "", s.title, target(s.original)) for s in waiting]
            waiting = []
        if section.state in (OUTDATED, ORPHANED):
            entries.append(
                StatusEntry(section.state, translation.id, translation.title, section.title, target(section.original))
            )
    return SiteStatus(
        _edition(status.made_from, status.edition_names[0]),
        _edition(status.latest, status.edition_names[1]),
        status.total,
        {state: status.count(state) for state in (CURRENT, OUTDATED, MISSING)},
        tuple(entries),
        f"{latest_root}changes.md" if changes_page else None,
    )


def _edition(book: str, edition: str | None) -> str:
    return edition or book


def _chapters(book: Book) -> dict[str, str]:
    """Each section's chapter (its page on the site), by id."""
    found: dict[str, str] = {}

    def place(section: Section, chapter: str) -> None:
        found[section.id] = chapter
        for node in section.children:
            if isinstance(node, Section):
                place(node, chapter)

    for document in book.documents:
        for chapter in document.body:
            place(chapter, chapter.id)
    return found


_PLACEHOLDER = re.compile(r"\{(\w+)\}")
Link = Callable[[str], str]
"""A link from the page being made to a place from the translated book's site root."""


def status_banner(
    status: SiteStatus,
    sections: Collection[str],
    *,
    anchor: Callable[[str], str],
    link: Link,
    env: Environment,
    strings: Mapping[str, str],
) -> str:
    """The notice at the top of a translated page holding ``sections`` (ids): which of them were translated from an
    earlier edition of an original that changed since, or is gone, and which sections the original has new among
    them; empty when none."""
    entries = [entry for entry in status.entries if entry.translation in sections]
    if not entries:
        return ""
    shown = [
        {
            "state": entry.state,
            "anchor": anchor(entry.translation),
            "title": entry.title,
            "translated_title": entry.translated_title,
            "href": link(entry.original) if entry.original else None,
        }
        for entry in entries
    ]
    changes = link(status.changes) if status.changes else None
    return env.get_template("status_banner.html.j2").render(entries=shown, changes=changes, strings=strings)


def status_summary(
    status: SiteStatus,
    *,
    translated: Callable[[str], str | None],
    link: Link,
    env: Environment,
    strings: Mapping[str, str],
) -> str:
    """The translation's status on its home page: the editions, the counts, the sections to translate again
    (``translated``: a translated section's place from the book's site root) and those new in the original."""
    entries, new = [], []
    for entry in status.entries:
        if entry.state == MISSING:
            new.append({"title": entry.title, "href": link(entry.original) if entry.original else None})
            continue
        place = translated(entry.translation)
        entries.append(
            {
                "state": entry.state,
                "title": entry.title,
                "translated_title": entry.translated_title,
                "href": link(place) if place else None,
            }
        )
    share = round(100 * status.counts[CURRENT] / status.total) if status.total else 100
    editions = "status_edition" if status.made_from == status.latest else "status_editions"
    counts = {
        "current": status.counts[CURRENT],
        "total": status.total,
        "share": share,
        "outdated": status.counts[OUTDATED],
        "missing": status.counts[MISSING],
    }
    return env.get_template("status_summary.html.j2").render(
        editions=filled(strings.get(editions, ""), made_from=status.made_from, latest=status.latest),
        counts=filled(strings.get("status_counts", ""), **counts),
        entries=entries,
        new=new,
        changes=link(status.changes) if status.changes else None,
        strings=strings,
    )


def filled(words: str, **values: object) -> str:
    """The site's words with each ``{name}`` replaced by its value: a project's words are text, never a format
    string (``str.format`` would fail on any other brace, and read attributes: ``{latest.__class__}``)."""
    return _PLACEHOLDER.sub(lambda m: str(values[m[1]]) if m[1] in values else m[0], words)
