"""What the lint says of each edit, in the terminal ``serve`` runs in: the findings the edit brought, not all of them.

A page's lint marks are easy to miss; ``rulebook lint`` in another terminal is one step more. So after each
edit the errors and warnings that were not there before are printed as ``rulebook lint`` prints them (the
source line and the caret), and a line says how many went away. A finding is the same one after an edit when
its file, rule, target, section and message are (as a baseline matches them): lines that moved do not make
a finding new. The first build says only how many there are.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable

from rulebook.diagnostics import Diagnostic, Severity
from rulebook.stage_values import LintResult

_SHOWN = (Severity.ERROR, Severity.WARNING)
Key = tuple[str, str, str, str, str]


def _key(diagnostic: Diagnostic) -> Key:
    return (
        diagnostic.span.path,
        diagnostic.rule,
        diagnostic.target or "",
        diagnostic.section_id or "",
        diagnostic.message,
    )


class LintNews:
    """The findings each book had when it was last built, to tell an edit's new ones from the others."""

    def __init__(self, progress: Callable[[str], None]) -> None:
        self.progress = progress
        self.known: dict[str, Counter[Key]] = {}

    def built(self, name: str, label: str, lint: LintResult) -> None:
        """A book built (again): print what its lint found that it had not found before."""
        found = [d for d in lint.new if d.severity in _SHOWN]
        now = Counter(map(_key, found))
        before = self.known.get(name)
        self.known[name] = now
        if before is None:
            if found:
                self.progress(f"The lint finds {_counted(found)} in {label} (run `rulebook lint`).")
            return
        remaining = Counter(before)
        added = []
        for diagnostic in found:
            key = _key(diagnostic)
            if remaining[key] > 0:
                remaining[key] -= 1
            else:
                added.append(diagnostic)
        gone = sum((before - now).values())
        for diagnostic in added:
            _print(diagnostic, lint)
        if gone:
            self.progress(f"{plural(gone, 'lint finding')} fixed in {label}.")


def plural(count: int, word: str) -> str:
    return f"{count} {word}" + ("" if count == 1 else "s")


def _counted(found: list[Diagnostic]) -> str:
    errors = sum(d.severity is Severity.ERROR for d in found)
    parts = [plural(errors, "error")] if errors else []
    if len(found) - errors:
        parts.append(plural(len(found) - errors, "warning"))
    return " and ".join(parts)


def _print(diagnostic: Diagnostic, lint: LintResult) -> None:
    from rulebook.report import text as text_report
    from rulebook.report.escaping import painted_stderr

    stream = painted_stderr()  # its parts are made visible by the report, its colours are ours
    shown = text_report.render_diagnostic(
        diagnostic,
        lint.sources.get(diagnostic.span.path),
        text_report.painter(text_report.use_color("auto", stream)),
        text_report.terminal_width(stream),
    )
    print(shown, file=stream, end="", flush=True)
