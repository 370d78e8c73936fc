"""The conventions of ``rulebook compare`` and ``rulebook terms suggest``: the kinds ``--fail-on`` names,
the check that both books are in the languages they claim, the exit status, and the findings ``--waive``
names.

The recipe runs the comparison (:func:`rulebook.recipe.commands.compare`: both books read, this check, the
terminology and waivers by the translation's rule, the comparison); the report renders it
(``compiler/report/comparison.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from rulebook.catalog import TRANSLATION_RULES, find_rule
from rulebook.errors import UserError
from rulebook.languages.data import Language
from rulebook.languages.detect import check_pair
from rulebook.model import Book
from rulebook.translate.compare import Comparison
from rulebook.translate.results import Finding

KINDS = tuple(sorted(rule.name for rule in TRANSLATION_RULES))
"""Every kind of finding, by rule name."""


class CompareInputError(UserError):
    """The comparison cannot run as asked (an unknown kind, a swapped pair): exit status 2."""


def parse_fail_on(text: str) -> tuple[str, ...]:
    """The kinds named by ``--fail-on`` (names or codes, comma-separated; ``none`` for none).

    Raises :class:`CompareInputError` naming the valid kinds when one is unknown: a misspelt kind
    would otherwise never fail.
    """
    names = [name.strip() for name in text.split(",") if name.strip()]
    if names == ["none"]:
        return ()
    kinds = []
    for name in names:
        rule = find_rule(name)
        if rule is None or rule.name not in KINDS:
            raise CompareInputError(
                f"`{name}` is not a kind of finding (--fail-on); the kinds are: {', '.join(KINDS)}, or `none`"
            )
        kinds.append(rule.name)
    return tuple(kinds)


def book_text(book: Book) -> str:
    """The text of a book's sources, for telling its language."""
    seen: dict[str, str] = {}
    for document in book.documents:
        for section in document.sections[:1]:
            seen.setdefault(section.source.path, section.source.text)
    return "\n".join(seen.values())


def check_languages(
    original: Book, translation: Book, languages: tuple[Language, Language], *, names: tuple[Path, Path]
) -> None:
    """Raise :class:`CompareInputError` when the original or the translation is not in its language
    (``names``: the two files, as the message names them)."""
    problem = check_pair(
        book_text(original),
        book_text(translation),
        original_language=languages[0],
        translation_language=languages[1],
    )
    if problem is not None:
        raise CompareInputError(f"cannot compare {names[0]} with {names[1]}: {problem}")


def exit_status(comparison: Comparison, fail_on: tuple[str, ...]) -> int:
    """1 when a finding of a failing kind is left (not waived), else 0."""
    return 1 if any(finding.kind in fail_on for finding in comparison.findings) else 0


FINGERPRINT_PREFIX = 6
"""The fewest first characters of a fingerprint ``--waive`` accepts for it (when no other finding shares them)."""


def named_findings(comparison: Comparison, fingerprints: Sequence[str]) -> list[Finding]:
    """The findings ``rulebook compare --waive`` names, each once.

    A fingerprint may be given by its first :data:`FINGERPRINT_PREFIX` characters or more; one that names no
    finding (or several) is a :class:`CompareInputError`, so a mistyped one never writes anything.
    """
    chosen: list[Finding] = []
    for given in fingerprints:
        matches = [f for f in comparison.findings if f.fingerprint.startswith(given.strip())]
        if len(given.strip()) < FINGERPRINT_PREFIX or len(matches) != 1:
            what = "several findings" if len(matches) > 1 else "no finding left (waived already, or a text changed)"
            raise CompareInputError(
                f"`{given}` names {what}: give a fingerprint as `rulebook compare` shows it (`[0123abcd...]`)"
            )
        if matches[0] not in chosen:
            chosen.append(matches[0])
    return chosen
