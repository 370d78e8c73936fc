"""``--format text``: rustc/ruff style, with the source line and a caret under the problem.

```
error[RB101]: reference to undefined term `sight_lnie`
  --> rules/book.xml:197:22
    |
197 |   A <reference name="sight_lnie">Sight Line</reference> ...
    |                      ^^^^^^^^^^
    = help: did you mean `sight_line`?
```

The source line and its caret fit the terminal (at most ``MAX_WIDTH`` characters): a long
line is cut around the caret with an ellipsis. Long names in messages are cut in their
middle, and control characters from a source are shown as visible stand-ins
(:mod:`rulebook.report.escaping`).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from typing import TextIO

from rulebook.diagnostics import Diagnostic
from rulebook.errors import shorten
from rulebook.report.escaping import readable, visible
from rulebook.report.places import Line, underlined
from rulebook.report.summary import Report
from rulebook.source import SourceText, Span

WINDOW = 100
"""Longest stretch of a source line shown; long lines are cut around the caret."""
MAX_WIDTH = 200
"""Longest line of a report (fewer when the terminal is narrower)."""
_MIN_WIDTH = 40

_STYLES = {"error": "1;31", "warning": "1;33", "info": "1;36", "bold": "1", "dim": "2;34", "help": "1;32"}


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if self.enabled else text


def painter(color: bool) -> _Painter:
    """What colours a report's parts (``color``: in ANSI colours; else it leaves them as they are)."""
    return _Painter(color)


def use_color(choice: str, stream: TextIO | None = None) -> bool:
    """``auto`` colours a terminal unless NO_COLOR is set; ``always``/``never`` force it."""
    stream = stream or sys.stdout
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


def terminal_width(stream: TextIO | None = None) -> int:
    """The width to fit a report to: the terminal's, at most ``MAX_WIDTH`` (that when not a terminal)."""
    stream = stream or sys.stdout  # looked up now: the stream may have been replaced since import
    if not stream.isatty():
        return MAX_WIDTH
    return max(_MIN_WIDTH, min(shutil.get_terminal_size((MAX_WIDTH, 24)).columns, MAX_WIDTH))


def render(report: Report, *, color: bool = False, width: int = MAX_WIDTH) -> str:
    paint = _Painter(color)
    blocks = [
        render_diagnostic(d, report.sources.get(d.span.path), paint, width, report.sources) for d in report.diagnostics
    ]
    blocks.append(_summary(report, paint))
    return "\n".join(blocks)


def render_summary(report: Report, *, color: bool = False) -> str:
    """The summary that ends a text report: the counts, what the baseline hid, what ``--fix`` would fix."""
    return _summary(report, _Painter(color))


def render_diagnostic(
    diagnostic: Diagnostic,
    source: SourceText | None,
    paint: _Painter | None = None,
    width: int = MAX_WIDTH,
    sources: Mapping[str, SourceText] | None = None,
) -> str:
    """One diagnostic: its headline, source line and caret, the counterpart's (from ``sources``), notes, help."""
    paint = paint or _Painter(False)
    severity = diagnostic.severity.public
    label = f"{severity}[{diagnostic.code}]"
    lines = [f"{paint(severity, label)}{paint('bold', ': ' + readable(diagnostic.message))}"]
    counterpart = diagnostic.counterpart
    gutter = len(str(diagnostic.span.line))
    if counterpart is not None and counterpart.span is not None:
        gutter = max(gutter, len(str(counterpart.span.line)))
    lines += _snippet(diagnostic.span, diagnostic.target, source, paint, width, gutter)
    if counterpart is not None:
        lines.append(f"{paint('bold', 'note')}: {readable(counterpart.message)}")
        if counterpart.span is not None:
            other = sources.get(counterpart.span.path) if sources else None
            lines += _snippet(counterpart.span, None, other, paint, width, gutter, mark="-")
    for note in diagnostic.notes:
        where = f" ({note.span})" if note.span else ""
        lines.append(f"    {paint('dim', '=')} note: {readable(note.message + where)}")
    if diagnostic.help:
        lines.append(f"    {paint('dim', '=')} {paint('help', 'help')}: {readable(diagnostic.help)}")
    return "\n".join(lines) + "\n"


def _snippet(
    span: Span,
    target: str | None,
    source: SourceText | None,
    paint: _Painter,
    width: int,
    gutter_width: int = 0,
    mark: str = "^",
) -> list[str]:
    gutter = " " * max(gutter_width, len(str(span.line)))
    room = max(min(WINDOW, width - len(gutter) - 5), _MIN_WIDTH // 4)  # the gutter, " | " and two ellipses
    if source is not None:
        line = Line(source.text, *source.line_bounds(span.line))
        start, length = underlined(span, target, line, room)
        span = span._replace(column=start + 1)  # the header names the column the caret stands at
    arrow = [f"{gutter}{paint('dim', '-->')} {visible(shorten(str(span), max(width - len(gutter) - 5, 20)))}"]
    if source is None:
        return arrow
    shown, start, length = _window(line, start, length, room)
    bar = paint("dim", "|")
    return [
        *arrow,
        f"{gutter} {bar}",
        f"{paint('dim', str(span.line).rjust(len(gutter)))} {bar} {visible(shown)}",
        f"{gutter} {bar} {' ' * start}{paint('error' if mark == '^' else 'dim', mark * length)}",
    ]


def _window(line: Line, start: int, length: int, room: int) -> tuple[str, int, int]:
    """Cut a long line to ``room`` characters around the underline, and the underline to the line shown.

    Returns the text shown, and where the underline starts in it and how long it is.
    """
    start = min(start, len(line))  # past the end of the line: the caret just after it
    left = 0 if len(line) <= room else max(0, min(start - room // 3, len(line) - room))
    shown = line.part(left, left + room)
    length = max(1, min(length, len(shown) - (start - left)))
    prefix = "…" if left > 0 else ""
    suffix = "…" if left + room < len(line) else ""
    return prefix + shown + suffix, start - left + len(prefix), length


def _summary(report: Report, paint: _Painter) -> str:
    counts = report.counts()
    parts = [
        f"{counts[name]} {label}{'' if counts[name] == 1 else 's'}"
        for name, label in (("error", "error"), ("warning", "warning"), ("info", "note"))
        if counts[name]
    ]
    files = f"{report.files} file{'' if report.files == 1 else 's'}"
    headline = f"Found {', '.join(parts)} in {files}." if parts else f"All checks passed ({files})."
    lines = [paint("bold", headline)]
    if report.baselined:
        known = "1 known problem is" if report.baselined == 1 else f"{report.baselined} known problems are"
        lines.append(f"{known} listed in the baseline and not shown.")
    if report.fixable:
        lines.append(f"{len(report.fixable)} fixable with `rulebook lint --fix` (`--diff` shows the fixes first).")
    lines += [f"{paint('bold', 'note')}: {readable(note)}" for note in report.notes]
    if report.stale_baseline:
        stale = (
            "1 baseline entry no longer occurs"
            if report.stale_baseline == 1
            else (f"{report.stale_baseline} baseline entries no longer occur")
        )
        lines.append(f"{stale}: update the baseline with `rulebook lint --write-baseline FILE`.")
    return "\n".join(lines) + "\n"
