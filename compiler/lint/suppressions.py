"""Inline suppressions: silence one finding where it stands, as ruff's ``# noqa: F401`` does.

In an XML source, a processing instruction ``<?rulebook ignore RB101?>`` or a comment
``<!-- rulebook: ignore RB101 -->``; in a Markdown source, the comment. Each names the codes
(``RB101``) or rule names (``dangling-reference``) it hides, separated by spaces or commas, and
covers the lines it is written on, and the next line when it stands alone on its line. A
suppression that hides nothing, or names no rule, is itself reported (``unused-suppression``),
so none outlives the problem it was written for. A finding that stops reading a file is never
suppressed (nothing of the file was read), and neither are the names that stop a build
(the recipe decides those from the findings before suppression).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from rulebook.catalog import find_rule
from rulebook.catalog.book import UNUSED_SUPPRESSION
from rulebook.closed_spans import COMMENT, closed_spans
from rulebook.diagnostics import Diagnostic, Severity
from rulebook.source import LINE_END, SourceText, Span

_SUPPRESSION = re.compile(
    r"<\?rulebook\s+ignore\b(?P<instruction>[^?]*)\?>|<!--\s*rulebook:\s*ignore\b(?P<comment>(?:(?!-->).)*)-->",
    re.DOTALL,
)
_WRITTEN = (("<?rulebook", "?>"), COMMENT)
"""Where a suppression may stand: an instruction or a comment (:func:`~rulebook.closed_spans.closed_spans`; the
expression searched from each ``<!--`` read to the end for every one no ``-->`` followed: 8,000 took 21 s)."""
_SEPARATORS = re.compile(r"[\s,]+")


@dataclass(frozen=True, slots=True)
class Suppression:
    """One suppression written in a source."""

    span: Span
    """Where it starts, its length on that line."""
    codes: tuple[str, ...]
    """The codes of the rules it names, in the order written."""
    unknown: tuple[str, ...]
    """The words it holds that name no rule."""
    lines: range
    """The lines it covers."""


def find_suppressions(source: SourceText) -> list[Suppression]:
    """Every suppression written in a source, in order."""
    text = source.text
    if not _mentions_suppression(text):  # most sources: one pass of `find`, not of the expression
        return []
    found = []
    for start, end, _ in closed_spans(text, _WRITTEN):  # each opener's closer found once: no search to the end
        match = _SUPPRESSION.match(text, start, end)
        if match is None or match.end() != end:
            continue
        words = [w for w in _SEPARATORS.split(match["instruction"] or match["comment"] or "") if w]
        rules = [find_rule(word) for word in words]
        codes = tuple(dict.fromkeys(rule.code for rule in rules if rule is not None))
        unknown = tuple(word for word, rule in zip(words, rules, strict=True) if rule is None)
        first, column = source.position(match.start())
        last = source.position(match.end())[0]
        before = text[source.line_starts[first - 1] : match.start()]
        after = LINE_END.split(text[match.end() : match.end() + 200], 1)[0]  # the rest of its last line, enough of it
        alone = not before.strip() and not after.strip()
        span = Span(source.path, first, column, len(match.group().split("\n", 1)[0]))
        found.append(Suppression(span, codes, unknown, range(first, last + (2 if alone else 1))))
    return found


def _mentions_suppression(text: str) -> bool:
    """Whether ``text`` holds ``<?rulebook`` or ``rulebook:`` (a source's doctype names ``rulebook.dtd``: the
    word alone is no sign), found in one pass."""
    at = text.find("rulebook")
    while at != -1:
        if text.startswith("<?", at - 2) or text.startswith(":", at + 8):
            return True
        at = text.find("rulebook", at + 8)
    return False


def apply_suppressions(diagnostics: Sequence[Diagnostic], sources: Mapping[str, SourceText]) -> list[Diagnostic]:
    """The findings no suppression hides, then one ``unused-suppression`` per suppression that hid nothing
    (none when a file could not be read: the book's rules did not run)."""
    written = {path: found for path, source in sources.items() if (found := find_suppressions(source))}
    if not written:
        return list(diagnostics)
    covering: dict[tuple[str, int, str], list[Suppression]] = {}
    for path, suppressions in written.items():
        for suppression in suppressions:
            for line in suppression.lines:
                for code in suppression.codes:
                    covering.setdefault((path, line, code), []).append(suppression)
    used: set[tuple[int, str]] = set()
    kept = []
    for diagnostic in diagnostics:
        hiding = covering.get((diagnostic.span.path, diagnostic.span.line, diagnostic.code))
        if hiding and diagnostic.severity is not Severity.FATAL:
            used.update((id(suppression), diagnostic.code) for suppression in hiding)
        else:
            kept.append(diagnostic)
    if any(d.severity is Severity.FATAL for d in diagnostics):
        return kept
    every = (suppression for suppressions in written.values() for suppression in suppressions)
    return kept + list(_unused(every, used))


def _unused(suppressions: Iterable[Suppression], used: set[tuple[int, str]]) -> Iterable[Diagnostic]:
    """What is wrong with each suppression: words that name no rule, codes that hid nothing, no code at all."""
    for suppression in suppressions:
        if suppression.unknown:
            words = _listed(suppression.unknown)
            names = "names" if len(suppression.unknown) == 1 else "name"
            yield UNUSED_SUPPRESSION.diagnostic(
                f"{words} in a suppression {names} no rule",
                suppression.span,
                target=" ".join(suppression.unknown),
                help="name rules by code (`RB101`) or name (`dangling-reference`): `rulebook explain --all` lists them",
            )
        idle = [code for code in suppression.codes if (id(suppression), code) not in used]
        if idle:
            yield UNUSED_SUPPRESSION.diagnostic(
                f"the suppression of {_listed(idle)} hides no finding here",
                suppression.span,
                target=" ".join(idle),
                help="remove it: it covers its own line, and the next one when it stands alone on its line",
            )
        elif not suppression.codes and not suppression.unknown:
            yield UNUSED_SUPPRESSION.diagnostic(
                "a suppression that names no rule",
                suppression.span,
                help="name the codes it hides, as in `<?rulebook ignore RB101?>`: it hides only what it names",
            )


def _listed(words: Sequence[str]) -> str:
    return ", ".join(f"`{word}`" for word in words)
