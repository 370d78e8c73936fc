"""The `empty-name` check (RB301); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator

from rulebook.catalog.book import EMPTY_NAME
from rulebook.diagnostics import Diagnostic
from rulebook.lint.base import LintInput
from rulebook.model import Link, Reference
from rulebook.names import BOOK_SEPARATOR
from rulebook.source import Span
from rulebook.spelling import XML, spelling_of

RULE = EMPTY_NAME


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    for definition in terms.definitions_of(""):
        yield _empty("definition", "name", definition.span, definition.section_id)
    for reference in terms.references_to(""):
        yield _empty("reference", "name", reference.span, reference.section_id)
    for link in terms.links_to(""):
        yield _empty("link", "to", link.span, link.section_id)
    book = lint.book
    for reference in book.references:
        if reference.name and not reference.text.strip():
            yield _wordless(reference)
    for link in book.links:
        if link.to and not link.text.strip():
            yield _wordless_link(link)
    for target_id, span in book.ids:
        if not target_id.strip():
            yield _empty("element", "id", span, None)
    for section in book.sections:
        if section.headed and not section.title.strip():  # `##` alone, `title=""`: a blank line on the page and menu
            yield _empty("section", "title", section.span, section.id)


def _empty(element: str, attribute: str, span: Span, section_id: str | None) -> Diagnostic:
    if spelling_of(span.path) is XML:
        message = f"{element} has an empty `{attribute}`"
        help = f"write the {_WRITTEN.get(attribute, 'id')} in `{attribute}`"
    else:
        message, help = _IN_MARKDOWN[element]
    return RULE.diagnostic(message, span, target="", help=help, section_id=section_id)


def _wordless(reference: Reference) -> Diagnostic:
    """A reference that shows no words: an empty link on the page, which a reader cannot see or follow."""
    name = reference.name
    if spelling_of(reference.span.path) is XML:
        help = f'write the words it shows: `<reference name="{name}">{name}</reference>`'
    elif name.endswith(BOOK_SEPARATOR):  # `[[core:]]`: a book's name, and no term of it to show
        help = f"name the term after the book's name: `[[{name}term]]`"
    else:
        help = f"write the words it shows: `[[{name}|words]]`, or `[[{name}]]` to show its name"
    return RULE.diagnostic(
        f"the reference to `{name}` shows no words: an empty link on the page",
        reference.span,
        target=name,
        help=help,
        section_id=reference.section_id,
    )


def _wordless_link(link: Link) -> Diagnostic:
    """A link that shows no words (``[](#moving)``, ``<link to="moving"/>``): as empty on the page as a reference
    without words, and it passed the lint."""
    to = link.to
    written = f'`<link to="{to}">words</link>`' if spelling_of(link.span.path) is XML else f"`[words](#{to})`"
    return RULE.diagnostic(
        f"the link to `{to}` shows no words: an empty link on the page",
        link.span,
        target=to,
        help=f"write the words it shows: {written}",
        section_id=link.section_id,
    )


_WRITTEN = {"name": "term name", "title": "title"}
"""What an empty attribute of the XML should hold (an id, for the others)."""

_IN_MARKDOWN = {
    "definition": (
        "a definition names no term",
        "write the term's name: `::: definition NAME`, or `[text]{dfn=NAME}` within a sentence",
    ),
    "reference": ("a reference names no term", "write the term's name: `[[NAME|text]]`"),
    "link": ("a link names no id", "write the id of the section or figure it points at: `[text](#ID)`"),
    "section": ("a heading has no title", "write its title after the `#`s: `## Title`"),
    "element": ("an id is empty", "write the id: `{#ID}` after a heading's title, `::: figure ID Title` for a figure"),
}
"""An empty name as the Markdown dialect writes it: its message and help, by what holds it."""
