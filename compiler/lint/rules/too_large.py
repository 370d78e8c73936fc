"""The `too-large` check (RB306); its documentation is in :mod:`rulebook.catalog.book`.

The build refuses what it reports (:func:`rulebook.recipe.stages.unsafe_names`): its bounds keep the site's work and
size linear in the book.
"""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import TOO_LARGE
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput
from rulebook.model import Book, Document, Item, ItemList, Section
from rulebook.reading_order import MOST_READ_FIRST_BYTES, read_first_bytes, read_first_bytes_at_most, reading_order
from rulebook.site.page_table import LONGEST_TITLE, MOST_PAGE_SECTIONS, MOST_PAGES
from rulebook.source import Span

RULE = TOO_LARGE


def check(lint: LintInput) -> Iterator[Diagnostic]:
    yield from page_findings(lint.book)
    yield from _long_reading_lists(lint)


def page_findings(book: Book) -> Iterator[Diagnostic]:
    """What makes ``book``'s pages too large for the site, whatever its format: too many chapters, a chapter of too
    many sections, a title too long. A translation in a format the lint only reads is held to them too (a
    plain-Markdown translation's chapter of 40,000 sections took 81 s to publish, and passed the lint)."""
    yield from _many_chapters(book)
    for document in book.documents:
        yield from _crowded_chapters(document)
        yield from _long_titles(document)


def _many_chapters(book: Book) -> Iterator[Diagnostic]:
    """The book's first chapter past :data:`MOST_PAGES`, if it has more (each chapter is a page of the site)."""
    chapters = list(book.chapters)
    if len(chapters) > MOST_PAGES:
        yield RULE.diagnostic(
            f"the book holds {len(chapters):,} chapters, more than the {MOST_PAGES:,} pages a site may have (each "
            "chapter is a page, and the build's work and the site's size grow with them)",
            chapters[MOST_PAGES].span,
            target=f"{len(chapters):,} chapters",
            help=f"make sections of chapters: at most {MOST_PAGES:,} chapters a book",
            section_id=chapters[MOST_PAGES].id,
        )


def _crowded_chapters(document: Document) -> Iterator[Diagnostic]:
    """Each chapter holding more than :data:`MOST_PAGE_SECTIONS` sections, itself counted (the index of sections is
    whole in an outline too)."""
    counts: dict[str, int] = {}
    chapters: dict[str, Section] = {}
    tops = {section.span for section in document.body}  # a page's top, whatever its level (`##` alone: a page each)
    chapter: Section | None = None
    for section in document.sections:
        if section.span in tops:
            chapter = chapters.setdefault(section.id, section)
        if chapter is not None:
            counts[chapter.id] = counts.get(chapter.id, 0) + 1
    for chapter_id, count in counts.items():
        if count > MOST_PAGE_SECTIONS:
            yield RULE.diagnostic(
                f"chapter `{chapter_id}` holds {count:,} sections, more than the {MOST_PAGE_SECTIONS:,} one page of "
                "the site may hold (the search index's work grows with the square of a page's headings)",
                chapters[chapter_id].span,
                target=chapter_id,
                help=f"split the chapter into chapters of at most {MOST_PAGE_SECTIONS:,} sections each",
                section_id=chapter_id,
            )


def _long_titles(document: Document) -> Iterator[Diagnostic]:
    if document.title is not None and document.title_place is not None:
        yield from _title("the book's title", document.title, document.title_place, None)
    for section in document.sections:
        what = "chapter" if section.level == 1 else "section"
        yield from _title(f"the title of {what} `{section.id}`", section.title, section.span, section.id)
    for figure in document.figures:
        yield from _title(f"the title of figure `{figure.id}`", figure.caption_title, figure.span, figure.section_id)
    for annotated in document.annotated:
        node = annotated.node
        what = "list" if isinstance(node, ItemList) else "table"
        yield from _title(f"the title of a {what}", node.title, node.span, annotated.section_id)
        if isinstance(node, ItemList):
            yield from _step_titles(node.items, annotated.section_id)


def _step_titles(items: tuple[Item, ...], section_id: str) -> Iterator[Diagnostic]:
    for item in items:
        yield from _title("the title of a step", item.title, item.span, section_id)


def _title(what: str, title: str | None, span: Span, section_id: str | None) -> Iterator[Diagnostic]:
    """The finding on a title longer than :data:`LONGEST_TITLE` characters, if it is."""
    if title is not None and len(title) > LONGEST_TITLE:
        yield RULE.diagnostic(
            f"{what} is {len(title):,} characters long, more than the {LONGEST_TITLE} a title may be (the site writes "
            "titles into the navigation of its pages)",
            span,
            help=f"shorten the title to {LONGEST_TITLE} characters at most; the rest belongs in the text under it",
            section_id=section_id,
        )


def _long_reading_lists(lint: LintInput) -> Iterator[Diagnostic]:
    """The rule data's ``read_first`` lists past :data:`MOST_READ_FIRST_BYTES`, counted by the function the rule data
    is made with (the lint passed a book whose ``rules.json`` the build then refused as past the engine's 64 MB);
    reported at the definition of the term listing the most."""
    if read_first_bytes_at_most(lint.terms) <= MOST_READ_FIRST_BYTES:
        return
    _, read_first = reading_order(lint.terms)
    size = read_first_bytes(read_first)
    if size <= MOST_READ_FIRST_BYTES:
        return
    longest = max(read_first, key=lambda name: len(read_first[name]))
    definition = lint.terms.definition(longest)
    assert definition is not None, "a term read first is defined"
    yield RULE.diagnostic(
        f"the terms to read before each of the book's {len(read_first):,} terms come to {size:,} bytes of rule data, "
        f"more than the {MOST_READ_FIRST_BYTES:,} it may spend on them (`{longest}` lists "
        f"{len(read_first[longest]):,})",
        definition.span,
        target=longest,
        help="define fewer terms in each other's terms, or split the book into books that use one another (`uses`)",
        section_id=definition.section_id,
    )
