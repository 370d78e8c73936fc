"""The `dangling-reference` check (RB101); its documentation is in :mod:`rulebook.catalog.book`."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import chain, islice

from rulebook.catalog.book import DANGLING_REFERENCE
from rulebook.diagnostics import Diagnostic, Note
from rulebook.family import Found, Lookup
from rulebook.graph import TermGraph
from rulebook.lint.base import Explained, LintInput, book_problem, is_checkable_target, places
from rulebook.spelling import reference_to, spelling_of

RULE = DANGLING_REFERENCE


def check(lint: LintInput) -> Iterator[Diagnostic]:
    terms = lint.terms
    defined, ids = terms.all_definitions(), terms.all_ids()
    undefined = {
        name: found
        for name, found in terms.all_references().items()
        if name not in defined and name not in ids and is_checkable_target(name) and _dangles(lint, name)
    }
    at = iter(places(list(chain.from_iterable(undefined.values()))))  # every place in one pass
    for name, references in undefined.items():
        lookup = lint.kin.term(lint.name, name)
        message, suggestions, help = _explained(lint, name, lookup, references[0].source.path)
        siblings = lint.dangling_suggester.same_form(name)
        notes = _sibling_notes(name, siblings, terms) if siblings else ()
        yield from RULE.diagnostics(
            message, islice(at, len(references)), target=name, suggestions=suggestions, help=help, notes=notes
        )


def _dangles(lint: LintInput, name: str) -> bool:
    """Whether a name the book does not define leads nowhere (a term or id of a book it uses is found)."""
    return lint.kin.term(lint.name, name).found not in (Found.TERM, Found.ID)


def _explained(lint: LintInput, name: str, lookup: Lookup, path: str) -> Explained:
    """The message, the suggestions and the help for a name that leads nowhere (made once per name)."""
    problem = book_problem(lint, "reference", name, lookup)
    if problem is not None:
        return problem
    book = lookup.book
    message = f"reference to undefined term `{name}`"
    if book is not None and book != lint.name:
        suggestions = lint.book_suggester(book, terms=True).suggest(name)
        if suggestions:
            return message, suggestions, _help(lint, suggestions, path)
        return message, (), f"the book `{book}` defines no term `{lookup.name}`: define it there, or name another"
    suggestions = lint.term_suggester.suggest(name)
    if suggestions:
        return message, suggestions, _help(lint, suggestions, path)
    definition = spelling_of(path).definition.format(name=lookup.name)
    help = f"define it with `{definition}`, or baseline it if its chapter is not written yet"
    return message, (), help


def _help(lint: LintInput, suggestions: tuple[str, ...], path: str) -> str:
    return "did you mean " + " or ".join(_suggestion(lint, s, path) for s in suggestions) + "?"


def _suggestion(lint: LintInput, name: str, path: str) -> str:
    """A suggested name, with the book it is found in when the book uses others (``fighter`` (`core`)), and how the
    source refers to it where its name alone would not (``Sprint``, written `[[Sprint|Sprint]]`: the reference
    `[[Sprint]]` is to ``sprint``, and the help said "did you mean `Sprint`?" to the `[[Sprint]]` it stood at)."""
    written = reference_to(path, name)
    bare = written == spelling_of(path).reference.format(name=name)
    shown = f"`{name}`" if bare else f"`{name}`, written `{written}`"
    if not lint.in_family or ":" in name:
        return shown
    book = lint.kin.term(lint.name, name).book
    return f"{shown} (this book)" if book == lint.name else f"{shown} (book `{book}`)"


def _sibling_notes(name: str, siblings: list[str], terms: TermGraph) -> tuple[Note, ...]:
    return tuple(
        Note(f"`{s}` is also referenced ({len(terms.references_to(s))}x) and not defined either: use one name")
        for s in siblings
    )
