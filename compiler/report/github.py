"""``--format github``: GitHub Actions workflow commands, one line per diagnostic.

See "Workflow commands for GitHub Actions": ``::error file=F,line=L,col=C,title=T::message``.
Values are escaped as the runner expects (``%``, CR, LF; also ``:`` and ``,`` in properties), so
nothing from a source can end the line or the properties: the runner takes the first ``::``
after the command as the start of the message, and the message runs to the end of the line.
The message is shown to people, as in the text report: long names cut in their middle,
control characters made visible. The file name is data and stays exact.
"""

from __future__ import annotations

from rulebook.diagnostics import Diagnostic
from rulebook.report.escaping import readable
from rulebook.report.places import placed
from rulebook.report.summary import Report
from rulebook.source import SourceText

_COMMANDS = {"error": "error", "warning": "warning", "info": "notice"}


def _escape_data(value: str) -> str:
    return value.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_property(value: str) -> str:
    return _escape_data(value).replace(":", "%3A").replace(",", "%2C")


def line(diagnostic: Diagnostic, source: SourceText | None = None) -> str:
    """The finding as a workflow command, at the column its caret stands at in the text report (``source``: its
    file's text, where the name at fault is found)."""
    span = placed(diagnostic, source)
    title = _escape_property(f"{diagnostic.code} {diagnostic.rule}")
    message = readable(diagnostic.message)
    if diagnostic.counterpart is not None:
        where = f" ({diagnostic.counterpart.span})" if diagnostic.counterpart.span else ""
        message += f"\n{readable(diagnostic.counterpart.message)}{where}"
    message += f"\nhelp: {readable(diagnostic.help)}" if diagnostic.help else ""
    properties = f"file={_escape_property(span.path)},line={span.line},col={span.column},title={title}"
    return f"::{_COMMANDS[diagnostic.severity.public]} {properties}::{_escape_data(message)}"


def render(report: Report) -> str:
    notices = "".join(f"::notice title=rulebook::{_escape_data(readable(note))}\n" for note in report.notes)
    return "".join(line(d, report.sources.get(d.span.path)) + "\n" for d in report.diagnostics) + notices
