"""A translation's print edition, from the site's plan of it: the same links, marks and notices as its site.

The translation's site (:class:`~rulebook.site.translated.TranslatedPlan`) decides which words are uses of
which terms, marks each term's first use in the section that states it as its definition, places the
front matter, and finds the original's chapters and sections the translation lacks. The PDF takes all of
that as it is: a term links to its marked definition (else to the section stating it); a term whose section
is not translated is text; an untranslated chapter is its title, a notice and its sections' titles; a
section lacking some of the original's subsections ends with a notice naming them.
"""

from __future__ import annotations

from collections.abc import Mapping

from rulebook.model import Content, Section
from rulebook.pdf.edition import (
    Chapter,
    Edition,
    GlossaryEntry,
    section_numbers,
    sorted_glossary,
    walk,
)
from rulebook.project import PrintSettings
from rulebook.site.translated import TranslatedPlan


def translated_edition(
    plan: TranslatedPlan,
    *,
    words: Mapping[str, str],
    look: PrintSettings | None = None,
    copyright: str = "",
    date: int | None = None,
    images: Mapping[str, str] | None = None,
) -> Edition:
    """The print edition of the translation ``plan`` places (its words: the site's, in its language)."""
    chapters = tuple(Chapter(section, kind == "untranslated") for kind, section in plan.reading_order)
    linked = {term for term in plan.entries if term in plan.marked or term in plan.term_section}
    stated_in: dict[str, list[str]] = {}
    for term in sorted(linked - plan.marked):
        stated_in.setdefault(plan.term_section[term], []).append(term)
    names = plan.original.site.data["terms"]
    glossary = [
        GlossaryEntry(
            term,
            entry.preferred[:1].upper() + entry.preferred[1:],
            plan.previews[term]["text"],
            names.get(term, {}).get("name", term),
            term in linked,
        )
        for term, entry in plan.entries.items()
    ]
    translated = [c.section for c in chapters if not c.untranslated]
    return Edition(
        title=plan.title,
        language=plan.language,
        chapters=chapters,
        numbers=section_numbers(translated),
        linked=frozenset(linked),
        stated_in={section: tuple(terms) for section, terms in stated_in.items()},
        words=words,
        look=look or PrintSettings(),
        copyright=copyright,
        date=date,
        glossary=sorted_glossary(glossary),
        front=tuple(_own_text(section) for chapter in plan.front for section in walk(chapter)),
        notices={here: tuple(s.title for s in missing) for here, missing in plan.notices.items()},
        images=dict(images or {}),
    )


def _own_text(section: Section) -> Content:
    """A front matter section's text without its subsections (as the translation's home page shows it)."""
    return tuple(node for node in section.children if not isinstance(node, Section))
