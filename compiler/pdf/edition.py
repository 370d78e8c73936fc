"""What a print edition holds: its chapters, numbers, link targets and glossary, decided from the model.

Pure: the model, its term graph and the configuration in (for a translation, the site's plan of it:
:class:`~rulebook.site.translated.TranslatedPlan`, so the PDF links, marks and leaves out exactly what the
French site does); an :class:`Edition` out, which :mod:`rulebook.pdf.typeset` writes as Typst source.

Sections are numbered as the source numbers them; a book whose source numbers none (XML, Markdown
without numbers) is numbered chapter by chapter (``2``, ``2.4``, ``2.4.1``), since print refers to
places by number ("see 2.4, p. 12"). Every section, term and figure has a label (``sec-ID``,
``term-NAME``, ``fig-ID``): the PDF's named destinations, so ``BOOK.pdf#term-sight_line`` opens at a
definition.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field

from rulebook.data.terms import term_summary
from rulebook.graph import TermGraph
from rulebook.model import Book, Content, Section
from rulebook.names import ascii_lower, slugify
from rulebook.project import PrintSettings
from rulebook.site.page_table import is_device_name

NAME_LENGTH = 60
"""Longest file name (without ``.pdf``) made from a title."""


@dataclass(frozen=True, slots=True)
class Chapter:
    """A chapter of the edition."""

    section: Section
    untranslated: bool = False
    """A chapter of the original the translation lacks: shown by its title, a notice and its sections' titles."""


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """A term of the glossary and the index."""

    term: str
    """The term's name (its label is ``term-NAME``)."""
    name: str
    """The term as readers see it."""
    text: str
    """What the glossary says of it: its definition's text."""
    original: str | None = None
    """In a translation: the original's name of the term."""
    linked: bool = False
    """Whether the edition states it (its name links to ``term-NAME``)."""

    @property
    def letter(self) -> str:
        """The glossary's group of the entry: its first letter, accents aside (``#`` for a digit or a sign)."""
        first = ascii_lower(self.name)[:1].upper()
        return first if first.isalpha() else "#"


@dataclass(frozen=True, slots=True)
class Edition:
    """Everything one PDF is made from."""

    title: str
    language: str
    chapters: tuple[Chapter, ...]
    numbers: Mapping[str, str]
    """Each numbered section's number as printed, by section id."""
    linked: frozenset[str]
    """The terms a use links to: each has a named destination ``term-NAME`` (its first definition, or the start
    of the section that states it). A use of any other term is text."""
    words: Mapping[str, str]
    """The site's words in the edition's language (``strings.toml``): contents, index, page, see..."""
    look: PrintSettings = field(default_factory=PrintSettings)
    edition: str = ""
    copyright: str = ""
    description: str = ""
    glossary: tuple[GlossaryEntry, ...] = ()
    front: tuple[Content, ...] = ()
    """Text set after the cover, before the contents (a translation's front matter)."""
    notices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """By section id: the titles of the original's sections it lacks (a translation's notice)."""
    stated_in: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """By section id: the terms whose destination is the start of the section (a translation's term whose
    first use there is not marked as its definition)."""
    images: Mapping[str, str] = field(default_factory=dict)
    """The pictures the edition shows, by the name the sources give them: their path in the compile folder."""
    date: int | None = None
    """When it was made, in seconds since 1970 (``SOURCE_DATE_EPOCH``); None: the PDF says no date."""


def section_label(section_id: str) -> str:
    return f"sec-{section_id}"


def term_label(name: str) -> str:
    return f"term-{name}"


def figure_label(figure_id: str) -> str:
    return f"fig-{figure_id}"


def pdf_name(title: str, language: str | None = None) -> str:
    """The PDF's file name, from the book's title (``fantasy-battles-the-9th-age.pdf``); a translation's
    ends in its language (``...-fr.pdf``)."""
    said = any(c.isalnum() for c in ascii_lower(title))  # slugify names a title without letters "section"
    stem = slugify(title)[:NAME_LENGTH].strip("-") if said else "rulebook"
    if is_device_name(stem):  # a book titled "CON": `con.pdf` could not be checked out on Windows
        stem = f"{stem}-rulebook"
    return f"{stem}-{language}.pdf" if language else f"{stem}.pdf"


def book_edition(
    book: Book,
    terms: TermGraph,
    *,
    title: str,
    words: Mapping[str, str],
    look: PrintSettings | None = None,
    edition: str = "",
    copyright: str = "",
    description: str = "",
    images: Mapping[str, str] | None = None,
    date: int | None = None,
) -> Edition:
    """A book's print edition: every chapter, every defined term in its glossary."""
    chapters = tuple(Chapter(section) for document in book.documents for section in document.body)
    linked = [name for name, found in terms.all_definitions().items() if found]
    glossary = [
        GlossaryEntry(name, term_summary(name, terms)["name"], terms.definitions_of(name)[0].plain_text(), None, True)
        for name in linked
    ]
    language = book.documents[0].language if book.documents else "en"
    return Edition(
        title=title,
        language=language,
        chapters=chapters,
        numbers=section_numbers([c.section for c in chapters]),
        linked=frozenset(linked),
        words=words,
        look=look or PrintSettings(),
        edition="" if edition.lower() == "unknown" else edition,
        copyright=copyright,
        description=description,
        glossary=sorted_glossary(glossary),
        images=dict(images or {}),
        date=date,
    )


def sorted_glossary(entries: list[GlossaryEntry]) -> tuple[GlossaryEntry, ...]:
    """Entries in the order readers look them up: by name, case and accents aside."""
    return tuple(sorted(entries, key=lambda e: (ascii_lower(e.name), e.name, e.term)))


def section_numbers(chapters: list[Section]) -> dict[str, str]:
    """Each section's number: the source's where it numbers any section, else by position (``2.4.1``)."""
    sections = [s for chapter in chapters for s in walk(chapter)]
    if any(s.number for s in sections):
        return {s.id: s.number for s in sections if s.number}
    numbers: dict[str, str] = {}

    def place(section: Section, number: str) -> None:
        numbers.setdefault(section.id, number)
        inner = [node for node in section.children if isinstance(node, Section)]
        for position, child in enumerate(inner, 1):
            place(child, f"{number}.{position}")

    for position, chapter in enumerate(chapters, 1):
        place(chapter, str(position))
    return numbers


def walk(section: Section) -> Iterator[Section]:
    """A section and every section inside it, in reading order."""
    yield section
    for node in section.children:
        if isinstance(node, Section):
            yield from walk(node)
