"""``--format text``: rustc/ruff style, with the source line and a caret under the problem.

```
error[RB101]: reference to undefined term `line_of_sihgt`
  --> rulebook_src/en/rulebook.xml:197:31
    |
197 |   A <reference name="line_of_sihgt">Line of Sight</reference> ...
    |                      ^^^^^^^^^^^^^
    = help: did you mean `line_of_sight`?
```
"""

from __future__ import annotations

import os
import sys
from collections.abc import Mapping
from typing import TextIO

from compiler.diagnostics import Diagnostic
from compiler.report.summary import Report
from compiler.source import SourceText, Span

WINDOW = 100
"""Longest stretch of a source line shown; long lines are cut around the caret."""

_STYLES = {"error": "1;31", "warning": "1;33", "info": "1;36", "bold": "1", "dim": "2;34", "help": "1;32"}


class _Painter:
    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled

    def __call__(self, style: str, text: str) -> str:
        return f"\x1b[{_STYLES[style]}m{text}\x1b[0m" if self.enabled else text


def use_color(choice: str, stream: TextIO = sys.stdout) -> bool:
    """``auto`` colours a terminal unless NO_COLOR is set; ``always``/``never`` force it."""
    if choice == "always":
        return True
    if choice == "never" or os.environ.get("NO_COLOR"):
        return False
    return stream.isatty()


def render(report: Report, *, color: bool = False) -> str:
    paint = _Painter(color)
    blocks = [render_diagnostic(d, report.sources.get(d.span.path), paint, report.sources) for d in report.diagnostics]
    blocks.append(_summary(report, paint))
    return "\n".join(blocks)


def render_diagnostic(
    diagnostic: Diagnostic,
    source: SourceText | None,
    paint: _Painter | None = None,
    sources: Mapping[str, SourceText] | None = None,
) -> str:
    """One diagnostic: its headline, source line and caret, the counterpart's (from ``sources``), notes, help."""
    paint = paint or _Painter(False)
    severity = diagnostic.severity.public
    lines = [f"{paint(severity, f'{severity}[{diagnostic.code}]')}{paint('bold', ': ' + diagnostic.message)}"]
    counterpart = diagnostic.counterpart
    gutter = len(str(diagnostic.span.line))
    if counterpart is not None and counterpart.span is not None:
        gutter = max(gutter, len(str(counterpart.span.line)))
    lines += _snippet(diagnostic.span, diagnostic.target, source, paint, gutter)
    if counterpart is not None:
        lines.append(f"{paint('bold', 'note')}: {counterpart.message}")
        if counterpart.span is not None:
            source = sources.get(counterpart.span.path) if sources else None
            lines += _snippet(counterpart.span, None, source, paint, gutter, mark="-")
    for note in diagnostic.notes:
        where = f" ({note.span})" if note.span else ""
        lines.append(f"    {paint('dim', '=')} note: {note.message}{where}")
    if diagnostic.help:
        lines.append(f"    {paint('dim', '=')} {paint('help', 'help')}: {diagnostic.help}")
    return "\n".join(lines) + "\n"


def _snippet(
    span: Span, target: str | None, source: SourceText | None, paint: _Painter, gutter_width: int = 0, mark: str = "^"
) -> list[str]:
    gutter = " " * max(gutter_width, len(str(span.line)))
    arrow = [f"{gutter}{paint('dim', '-->')} {span}"]
    if source is None:
        return arrow
    text = source.line_text(span.line).replace("\t", " ")
    if span.length:
        start, width = span.column - 1, max(1, min(span.length, len(text) - span.column + 1, WINDOW // 2))
    else:
        start, width = _underline(text, span.column - 1, target)
    shown, start = _window(text, start, width)
    bar = paint("dim", "|")
    return [
        *arrow,
        f"{gutter} {bar}",
        f"{paint('dim', str(span.line).rjust(len(gutter)))} {bar} {shown}",
        f"{gutter} {bar} {' ' * start}{paint('error' if mark == '^' else 'dim', mark * width)}",
    ]


def _underline(text: str, column: int, target: str | None) -> tuple[int, int]:
    """What to underline: the target's quoted value after the column if present, else the tag name."""
    if target:
        quoted = text.find(f'"{target}"', column)
        if quoted == -1:
            quoted = text.find(f"'{target}'", column)
        if quoted != -1:
            return quoted + 1, max(len(target), 1)
        attribute = text.find(f" {target}=", column)
        if attribute != -1:
            return attribute + 1, len(target)
    end = column + 1
    while end < len(text) and (text[end].isalnum() or text[end] in "_-:."):
        end += 1
    return column, max(end - column, 1)


def _window(text: str, start: int, width: int) -> tuple[str, int]:
    """Cut a long line to WINDOW characters around the underline."""
    if len(text) <= WINDOW:
        return text, start
    left = max(0, min(start - WINDOW // 3, len(text) - WINDOW))
    shown = text[left : left + WINDOW]
    prefix = "…" if left > 0 else ""
    suffix = "…" if left + WINDOW < len(text) else ""
    return prefix + shown + suffix, start - left + len(prefix)


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
    if report.stale_baseline:
        stale = (
            "1 baseline entry no longer occurs"
            if report.stale_baseline == 1
            else (f"{report.stale_baseline} baseline entries no longer occur")
        )
        lines.append(f"{stale}: update the baseline with `rulebook lint --write-baseline FILE`.")
    return "\n".join(lines) + "\n"
