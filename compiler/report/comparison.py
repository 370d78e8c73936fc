"""The output of ``rulebook compare``: the lint's renderers over both sources, or the side-by-side HTML report.

Text, JSON, GitHub and SARIF are the lint's formats (:mod:`rulebook.report`), each finding a
diagnostic placed in the translation with its counterpart in the original. The text adds the
coverage and the waivers; the JSON adds them as ``comparison``. HTML is the report for people
(:mod:`rulebook.translate.report`) through the site's templates, so a project can restyle it.
"""

from __future__ import annotations

from rulebook.catalog import TRANSLATION_RULES
from rulebook.characters import json_text
from rulebook.formats import COMPARE, unknown
from rulebook.report import json_format, renderer, text
from rulebook.report.listing import listed
from rulebook.report.summary import Report
from rulebook.site.theme import Theme
from rulebook.translate.results import Comparison


def comparison_report(comparison: Comparison) -> Report:
    """The comparison as a report over both sources, listing the translation rules."""
    return Report(
        comparison.diagnostics(),
        comparison.sources,
        len(comparison.sources),
        rules=TRANSLATION_RULES,
        notes=comparison.notes,
    )


def render_comparison(
    comparison: Comparison,
    output_format: str,
    *,
    language: str = "fr",
    color: bool = False,
    theme: Theme | None = None,
) -> str:
    """A comparison in one of :data:`rulebook.formats.COMPARE`."""
    if output_format not in COMPARE:
        raise unknown(output_format, COMPARE)
    report = comparison_report(comparison)
    if output_format == "html":
        return _html(comparison, language, theme)
    if output_format == "json":
        document = json_format.document(report) | {"comparison": comparison.summary()}
        return json_text(document, indent=2, sort_keys=True) + "\n"
    if output_format == "text":
        return _coverage(comparison) + text.render(report, color=color) + _waivers(comparison)
    return renderer(output_format)(report)


def _coverage(comparison: Comparison) -> str:
    c = comparison.coverage
    return (
        f"Coverage: {c['translated_sections']} of {c['sections']} sections, "
        f"{c['translated_sentences']} of {c['sentences']} sentences ({c['share']:.0%}).\n\n"
    )


def _waivers(comparison: Comparison) -> str:
    lines = []
    if comparison.waived:
        lines.append(f"{comparison.waived} finding{'s are' if comparison.waived != 1 else ' is'} waived.")
    stale = comparison.stale_waivers
    if stale:
        lines.append(
            f"{len(stale)} waiver{'s match' if len(stale) != 1 else ' matches'} "
            f"nothing any more (a text changed, or it was fixed): {listed(stale)}"
        )
    return "".join(line + "\n" for line in lines)


def _html(comparison: Comparison, language: str, theme: Theme | None) -> str:
    from rulebook.translate.report import report_context

    template = (theme or Theme()).environment().get_template("compare.html.j2")
    return template.render(**report_context(comparison, translation_language=language))
