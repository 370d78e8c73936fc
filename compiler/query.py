"""``rulebook query TERM``: a term's definition, where it is defined and every use."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from rulebook.errors import quoted
from rulebook.formats import QUERY, unknown
from rulebook.graph import TermGraph
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


def section_path(terms: TermGraph, section_id: str) -> list[str]:
    """Titles from the chapter down to a section."""
    return [section.title for section in terms.section_chain(section_id)]


def query_term(terms: TermGraph, name: str) -> TermReport:
    definition = terms.definition(name)
    references = terms.references_to(name)
    return TermReport(
        name=name,
        defined=definition is not None,
        definition=definition.plain_text() if definition else "",
        defined_at=[str(d.span) for d in terms.definitions_of(name)],
        section_path=section_path(terms, definition.section_id) if definition else [],
        uses=[{"term": t, "defined": terms.is_defined(t)} for t in terms.terms_used_by(name)],
        used_by_terms=terms.terms_using(name),
        references=[
            {"at": str(r.span), "text": r.text, "section": " › ".join(section_path(terms, r.section_id))}
            for r in references
        ],
        suggestions=() if definition else Suggester(terms.defined_terms()).suggest(name),
    )


def render_text(report: TermReport) -> str:
    """The report as text: the sources' own text (titles, the definition, each use) as they are; the command
    shows its control characters as pictures (:func:`rulebook.cli.explore.run_query`)."""
    if not report.defined:
        lines = [f"{quoted(report.name)} is not defined in this book."]
        if report.suggestions:
            lines.append("Did you mean " + " or ".join(f"`{s}`" for s in report.suggestions) + "?")
    else:
        lines = [
            f"{report.name}",
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
    lines += [f"  {r['at']}  {r['section']}  “{r['text'].strip()}”" for r in report.references]
    return "\n".join(lines) + "\n"


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
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def render_term_report(report: TermReport, output_format: str) -> str:
    """The report in one of :data:`rulebook.formats.QUERY`."""
    if output_format not in QUERY:
        raise unknown(output_format, QUERY)
    return render_json(report) if output_format == "json" else render_text(report)
