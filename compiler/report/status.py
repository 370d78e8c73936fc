"""The output of ``rulebook status``: each translation's summary, then the lint's renderers over every source, or
the side-by-side page.

Text, JSON, GitHub and SARIF are the lint's formats (:mod:`rulebook.report`): each section that is not current a
finding placed in the translation (an outdated one followed by the edition diff's findings, placed in both editions
of the original). The text starts with each translation's counts and shares; the JSON adds them as ``status``.
HTML is the page for translators (:mod:`rulebook.translate.status_report`): the changed sentences of the original,
before and now, beside the translation made from the earlier one.
"""

from __future__ import annotations

from collections.abc import Sequence

from rulebook.catalog import STATUS_RULES
from rulebook.characters import json_text
from rulebook.formats import STATUS, unknown
from rulebook.report import json_format, renderer, text
from rulebook.report.escaping import visible
from rulebook.report.listing import listed
from rulebook.report.summary import Report
from rulebook.site.theme import Theme
from rulebook.source import SourceText
from rulebook.translate.status import CURRENT, MISSING, ORPHANED, OUTDATED, TranslationStatus


def status_report(statuses: Sequence[TranslationStatus]) -> Report:
    """Every translation's findings as one report over the translations and both editions of the original."""
    sources: dict[str, SourceText] = {}
    for status in statuses:
        sources |= status.comparison.sources | (status.diff.sources if status.diff else {})
    diagnostics = tuple(d for status in statuses for d in status.diagnostics())
    notes = tuple(note for status in statuses for note in (status.diff.notes if status.diff else ()))
    return Report(diagnostics, sources, len(sources), rules=STATUS_RULES, notes=notes)


def render_status(
    statuses: Sequence[TranslationStatus], output_format: str, *, color: bool = False, theme: Theme | None = None
) -> str:
    """The statuses in one of :data:`rulebook.formats.STATUS`."""
    if output_format not in STATUS:
        raise unknown(output_format, STATUS)
    if output_format == "html":
        from rulebook.translate.status_report import status_context

        template = (theme or Theme()).environment().get_template("status.html.j2")
        return template.render(**status_context(statuses))
    report = status_report(statuses)
    if output_format == "json":
        document = json_format.document(report) | {"status": [status.summary() for status in statuses]}
        return json_text(document, indent=2, sort_keys=True) + "\n"
    if output_format == "text":
        return "".join(summary_lines(status) + "\n" for status in statuses) + text.render(report, color=color)
    return renderer(output_format)(report)


def summary_lines(status: TranslationStatus) -> str:
    """A translation's status in a few lines: the editions, the counts and shares, what to translate again."""
    made_from, latest = status.labels
    since = "" if status.latest == status.made_from else f"; the latest edition is {latest}"
    counts = ", ".join(
        f"{status.count(state)} {state} ({status.share(state):.0%})" for state in (CURRENT, OUTDATED, MISSING)
    )
    lines = [
        f"`{status.language}` translation, made from {made_from}{since}.",
        f"  {status.total} sections: {counts}; {status.count(ORPHANED)} orphaned.",
    ]
    outdated = [_named(s.title, s.translation.title if s.translation else None) for s in status.of(OUTDATED)]
    if outdated:
        lines.append(f"  To translate again: {listed(outdated)}.")
    new = [_named(s.title, None) for s in status.of(MISSING) if s.new]
    if new:
        lines.append(f"  New, to translate: {listed(new)}.")
    orphaned = [_named(s.title, s.translation.title if s.translation else None) for s in status.of(ORPHANED)]
    if orphaned:
        lines.append(f"  Gone from the original: {listed(orphaned)}.")
    if status.stale_marks:
        titles = listed([f"`{m.title}`" for m in status.stale_marks])
        lines.append(f"  Marks that no longer hold (the original changed again, or is gone): {titles}.")
    return "".join(visible(line) + "\n" for line in lines)


def _named(title: str, translated: str | None) -> str:
    return f"`{title}`" + (f" (`{translated}`)" if translated and translated != title else "")
