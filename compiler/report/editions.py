"""The output of ``rulebook diff``: the lint's renderers over both editions, a summary, or the HTML page.

Text, JSON, GitHub and SARIF are the lint's formats (:mod:`rulebook.report`), each change a
diagnostic placed in the new edition with its counterpart in the old one. ``summary`` is the
short overview (one line per change, no places); ``html`` the page the site's "What changed"
shows, through the project's templates.
"""

from __future__ import annotations

from rulebook.catalog import EDITION_RULES
from rulebook.characters import json_text
from rulebook.diff import BookDiff, render_text
from rulebook.formats import DIFF, unknown
from rulebook.report import json_format, renderer, text
from rulebook.report.escaping import visible
from rulebook.report.summary import Report
from rulebook.site.theme import Theme


def diff_report(diff: BookDiff) -> Report:
    """The changes as a report over both editions, listing the edition rules."""
    return Report(diff.findings, diff.sources, len(diff.sources), rules=EDITION_RULES, notes=diff.notes)


def render_diff(
    diff: BookDiff, output_format: str, *, old: str, new: str, color: bool = False, theme: Theme | None = None
) -> str:
    """A diff in one of :data:`rulebook.formats.DIFF`; ``old`` and ``new`` name the two editions' files."""
    if output_format not in DIFF:
        raise unknown(output_format, DIFF)
    if output_format == "summary":
        return "".join(visible(line) + "\n" for line in render_text(diff).splitlines())
    if output_format == "html":
        template = (theme or Theme()).environment().get_template("diff.html.j2")
        return template.render(old=old, new=new, **diff.as_json())
    report = diff_report(diff)
    if output_format == "json":
        document = json_format.document(report) | {"diff": diff.as_json()}
        return json_text(document, indent=2, sort_keys=True) + "\n"
    if output_format == "text":
        return text.render(report, color=color)
    return renderer(output_format)(report)
