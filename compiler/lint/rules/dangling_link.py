"""The `dangling-link` check (RB102); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from rulebook.catalog.book import DANGLING_LINK
from rulebook.diagnostics import Diagnostic
from rulebook.family import Found, Lookup
from rulebook.lint.base import Explained, LintInput, book_problem, is_checkable_target, places
from rulebook.model import Section, Table
from rulebook.spelling import reference_to, spelling_of

RULE = DANGLING_LINK


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    ids = terms.all_ids()
    unknown = {
        target: found
        for target, found in terms.all_links().items()
        if target not in ids and is_checkable_target(target) and _dangles(lint, target)
    }
    at = iter(places(list(chain.from_iterable(unknown.values()))))  # every place in one pass
    blocks = _named_blocks(lint) if unknown else {}
    for target, links in unknown.items():
        lookup = lint.kin.target(lint.name, target)
        message, suggestions, help = _explained(lint, target, lookup, links[0].source.path, blocks)
        yield from RULE.diagnostics(message, islice(at, len(links)), target=target, suggestions=suggestions, help=help)


def _dangles(lint: LintInput, target: str) -> bool:
    """Whether a target the book has no id for leads nowhere (an id of a book it uses is found)."""
    return lint.kin.target(lint.name, target).found is not Found.ID


def _explained(
    lint: LintInput, target: str, lookup: Lookup, path: str, blocks: dict[str, tuple[str, Section]]
) -> Explained:
    """The message, the suggestions and the help for a target that leads nowhere (made once per target)."""
    problem = book_problem(lint, "link", target, lookup)
    if problem is not None:
        return problem
    book = lookup.book
    outside = book is not None and book != lint.name
    suggester = lint.book_suggester(book, terms=False) if outside and book else lint.id_suggester
    suggestions = suggester.suggest(target)
    message = f"link to unknown id `{target}`"
    if suggestions:
        return message, suggestions, "did you mean " + " or ".join(f"`{s}`" for s in suggestions) + "?"
    spelling = spelling_of(path)
    if lookup.found is Found.TERM:
        return message, (), f"`{target}` is a term: use `{reference_to(path, target)}`"
    if outside:
        return message, (), f"the book `{book}` has no section or figure with the id `{lookup.name}`"
    holder = blocks.get(target)
    if holder is not None:
        kind, section = holder
        link = f"`{spelling.link.format(name=section.id)}`"
        point = (
            link
            if section.explicit_id
            else f"{link}, once it has the id `{spelling.section_id.format(name=section.id)}`"
        )
        return (
            message,
            (),
            f"`{target}` names a {kind}, which a link cannot point at: point at the section holding it "
            f"({section.title}) with {point}",
        )
    return (
        message,
        (),
        f"give the target section or figure `{spelling.section_id.format(name=lookup.name)}`, or baseline it if it is "
        "not written yet",
    )


def _named_blocks(lint: LintInput) -> dict[str, tuple[str, Section]]:
    """The tables and lists the book names (their ``id``): their kind, and the section holding each (read once, from
    the book's index of them, which the lint's outline of a source holds too)."""
    sections = {section.id: section for section in lint.book.sections}
    found: dict[str, tuple[str, Section]] = {}
    for annotated in lint.book.annotated:
        node, section = annotated.node, sections.get(annotated.section_id)
        if node.id is not None and section is not None:
            found.setdefault(node.id, ("table" if isinstance(node, Table) else "list", section))
    return found
