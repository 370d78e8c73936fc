"""The numbers a book declares (``<value name="..." kind="..." term="...">``): checked, and made data.

A value's name is the book's own; its ``kind`` says what it counts (:data:`VALUE_KINDS`) and its
``term`` what it is about. What cannot be read is a diagnostic (``invalid-annotation``) at the value:
an unknown kind, an undefined term, a number that is not whole, a name given twice, a characteristic's
bound without its companion (a ``minimum`` needs the ``maximum`` of the same term, and the other way).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import cast

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.diagnostics import Diagnostic
from rulebook.facts.shapes import DeclaredValue, ValueKind
from rulebook.model import Value
from rulebook.source import Span
from rulebook.spelling import XML, spelling_of
from rulebook.suggest import Suggester

VALUE_KINDS: dict[str, str] = {
    "count": "a number of things (entries, dice, pieces)",
    "turns": "a number of turns (how long a game lasts)",
    "points": "points (a limit, a threshold)",
    "distance": "a distance",
    "minimum": "the lowest value a characteristic can have (beside its maximum)",
    "maximum": "the highest value a characteristic can have (beside its minimum)",
}
"""What a value may be, with what it means."""
COMPANIONS: dict[str, str] = {"minimum": "maximum", "maximum": "minimum"}
"""The kinds a value of a kind needs beside it, for the same term."""
MAX_VALUE = 1_000_000
"""The largest number a value may be: the engine's bound on any number of a question (docs/engine.md,
"Limits"); a game's numbers are far below it, and a longer one would be read into a number of any size."""


def bounded_number(digits: str) -> int | None:
    """The whole number ASCII ``digits`` write, or None past :data:`MAX_VALUE` (a longer one is never read whole:
    Python refuses more than 4,300 digits)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(MAX_VALUE)) or int(significant) > MAX_VALUE:
        return None
    return int(significant)


def collect_values(
    values: tuple[Value, ...], defined: frozenset[str]
) -> tuple[dict[str, DeclaredValue], list[Diagnostic]]:
    """Every value given once as a whole number with a known kind, by name; and what is wrong with the others."""
    found: dict[str, DeclaredValue] = {}
    first: dict[str, Span] = {}
    diagnostics: list[Diagnostic] = []
    placed: dict[str, Value] = {}
    for value in values:
        problem = _problem(value, defined, first)
        if problem is not None:
            diagnostics.append(problem)
            continue
        first[value.name] = value.span
        placed[value.name] = value
        kind = cast("ValueKind", value.kind)
        found[value.name] = {
            "value": int(value.text.strip().lstrip("0") or "0"),
            "kind": kind,
            "term": value.term,
            "section": value.section_id,
        }
    diagnostics.extend(_without_companion(found, placed))
    return found, diagnostics


def _problem(value: Value, defined: frozenset[str], first: Mapping[str, Span]) -> Diagnostic | None:
    if value.kind is None or value.kind not in VALUE_KINDS:
        return unknown_kind("value", value.name, value.kind, VALUE_KINDS, value.span, value.section_id)
    if value.term is not None and value.term not in defined:
        return _at(
            value,
            f"value `{value.name}` is about `{value.term}`, which the book does not define",
            "define the term, or name the term the value is about",
        )
    number = value.text.strip()
    if not (number.isascii() and number.isdigit()):
        return _at(
            value,
            f"value `{value.name}` must be a whole number, not `{_shown(value.text)}`",
            f"wrap only the number in `{spelling_of(value.source.path).value}`, written in the digits 0 to 9",
        )
    if bounded_number(number) is None:
        return _at(
            value,
            f"value `{value.name}` is {_shown(number)}: a value is at most {MAX_VALUE:,}",
            "write the number the rules state",
        )
    if value.name in first:
        return _at(value, f"value `{value.name}` is given twice", f"it is first given at {first[value.name]}")
    return None


def _declared(value: Value, kind: str, term: str | None) -> str:
    """A value of that kind and term, as the source of ``value`` writes one."""
    about = f' term="{term}"' if term else ""
    if spelling_of(value.source.path) is XML:
        return f'<value name="..." kind="{kind}"{about}>N</value>'
    return f"[N]{{value=NAME kind={kind}{about.replace(chr(34), '')}}}"


def _shown(text: str) -> str:
    """A value's text as a message quotes it: at most 40 characters."""
    return text if len(text) <= 40 else f"{text[:20]}… ({len(text):,} characters)"


def _without_companion(found: Mapping[str, DeclaredValue], placed: Mapping[str, Value]) -> list[Diagnostic]:
    kinds = {(entry["kind"], entry["term"]) for entry in found.values()}
    diagnostics = []
    for name, entry in found.items():
        companion = COMPANIONS.get(entry["kind"])
        if companion is not None and (companion, entry["term"]) not in kinds:
            about = f" of `{entry['term']}`" if entry["term"] else ""
            diagnostics.append(
                _at(
                    placed[name],
                    f"value `{name}` is a `{entry['kind']}`{about} without its `{companion}`",
                    f"declare the {companion} too: " + _declared(placed[name], companion, entry["term"]),
                )
            )
    return diagnostics


def _at(value: Value, message: str, help: str) -> Diagnostic:
    return INVALID_ANNOTATION.diagnostic(message, value.span, target=value.name, help=help, section_id=value.section_id)


def unknown_kind(
    what: str, name: str, kind: str | None, known: Mapping[str, str], span: Span, section_id: str
) -> Diagnostic:
    """The diagnostic of a declaration of no kind, or of one the compiler does not know."""
    listed = ", ".join(f"`{k}` ({meaning})" for k, meaning in known.items())
    if kind is None:
        return INVALID_ANNOTATION.diagnostic(
            f"{what} `{name}` has no `kind`", span, target=name, help=f"say what it is: {listed}", section_id=section_id
        )
    suggestions = Suggester(known).suggest(kind)
    return INVALID_ANNOTATION.diagnostic(
        f"`{kind}` is not a kind of {what} the compiler knows",
        span,
        target=kind,
        suggestions=suggestions,
        help=f"did you mean `{suggestions[0]}`?" if suggestions else f"a {what} is one of: {listed}",
        section_id=section_id,
    )
