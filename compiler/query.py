"""``rulebook query TERM``: a term's definition, where it is defined and every use."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rulebook.errors import quoted
from rulebook.family import Family, Found
from rulebook.formats import QUERY, unknown
from rulebook.graph import TermGraph
from rulebook.model import Reference
from rulebook.suggest import Suggester


@dataclass(frozen=True, slots=True)
class TermReport:
    name: str
    defined: bool
    definition: str
    defined_at: list[str]
    section_path: list[str]
    uses: list[dict[str, Any]]
    used_by_terms: list[str]
    references: list[dict[str, Any]]
    suggestions: tuple[str, ...]
    book: str | None = None
    """The book that defines the term, in a family of books (None: the book alone)."""


def section_path(terms: TermGraph, section_id: str) -> list[str]:
    """Titles from the chapter down to a section."""
    return [section.title for section in terms.section_chain(section_id)]


def query_term(terms: TermGraph, name: str) -> TermReport:
    """A term of a book alone: its definition, where it is, what it uses and every reference to it."""
    return query_family_term(Family.alone("", "", terms), "", name)


def query_family_term(family: Family, focus: str, name: str) -> TermReport:
    """A term as book ``focus`` names it (``fighter``, ``core:fighter``): found in the book or in the
    books it uses, with every reference to it in the books of the family."""
    lookup = family.term(focus, name)
    book = lookup.book if lookup.found is Found.TERM and lookup.book is not None else focus
    terms = family.book(book).terms
    local = lookup.name if lookup.found is Found.TERM else name
    definition = terms.definition(local)
    places = [("", r) for r in terms.references_to(local)]
    places += family.references_into(book).get(local, []) if definition is not None else []
    in_family = family.uses_others(focus)
    return TermReport(
        name=name,
        defined=definition is not None,
        definition=definition.plain_text() if definition else "",
        defined_at=[str(d.span) for d in terms.definitions_of(local)],
        section_path=section_path(terms, definition.section_id) if definition else [],
        uses=[{"term": t, "defined": terms.is_defined(t)} for t in terms.terms_used_by(local)],
        used_by_terms=terms.terms_using(local),
        references=[_reference(family, where or book, r, in_family) for where, r in places],
        suggestions=() if definition else Suggester(family.candidates(focus, terms=True)).suggest(name),
        book=book if in_family else None,
    )


def _reference(family: Family, book: str, reference: Reference, in_family: bool) -> dict[str, Any]:
    terms = family.book(book).terms
    found = {
        "at": str(reference.span),
        "text": reference.text,
        "section": " › ".join(section_path(terms, reference.section_id)),
    }
    return {**found, "book": book} if in_family else found


def render_text(report: TermReport) -> str:
    """The report as text: the sources' own text (titles, the definition, each use) as they are; the command
    shows its control characters as pictures (:func:`rulebook.cli.explore.run_query`)."""
    if not report.defined:
        lines = [f"{quoted(report.name)} is not defined in this book."]
        if report.suggestions:
            lines.append("Did you mean " + " or ".join(f"`{s}`" for s in report.suggestions) + "?")
    else:
        lines = [
            f"{report.name}" + (f" (book `{report.book}`)" if report.book else ""),
            f"  defined at {', '.join(report.defined_at)} ({' › '.join(report.section_path)})",
            "",
            f"  {report.definition}",
        ]
    if report.uses:
        names = [u["term"] + ("" if u["defined"] else " (undefined)") for u in report.uses]
        lines += ["", "Uses: " + ", ".join(names)]
    if report.used_by_terms:
        lines += ["", "Used in the definitions of: " + ", ".join(report.used_by_terms)]
    count = len(report.references)
    lines += ["", f"Referenced {count} time{'' if count == 1 else 's'}:"]
    lines += [f"  {r['at']}  {_in(r)}{r['section']}  “{r['text'].strip()}”" for r in report.references]
    return "\n".join(lines) + "\n"


def _in(reference: dict[str, Any]) -> str:
    return f"[{reference['book']}] " if "book" in reference else ""


def render_json(report: TermReport) -> str:
    data = {
        "name": report.name,
        "defined": report.defined,
        "definition": report.definition,
        "defined_at": report.defined_at,
        "section_path": report.section_path,
        "uses": report.uses,
        "used_by_terms": report.used_by_terms,
        "references": report.references,
        "suggestions": list(report.suggestions),
    }
    if report.book is not None:
        data["book"] = report.book
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_term_report(report: TermReport, output_format: str) -> str:
    """The report in one of :data:`rulebook.formats.QUERY`."""
    if output_format not in QUERY:
        raise unknown(output_format, QUERY)
    return render_json(report) if output_format == "json" else render_text(report)
