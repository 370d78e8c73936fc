"""What ``rulebook compare`` and ``rulebook terms suggest`` do, once the command line has read both books.

The command line parses the options and reads the books; everything else is here: which
terminology and waivers apply, whether the two books are the languages they claim to be, the
comparison, and the exit status. Rendering the result is the report's (``compiler/report/comparison.py``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.catalog import TRANSLATION_RULES, find_rule
from rulebook.errors import UserError
from rulebook.inputs import present, read_input_text
from rulebook.languages.data import Language, load_language
from rulebook.languages.detect import check_pair
from rulebook.model import Book
from rulebook.translate.compare import FAIL_ON, Comparison, compare_books
from rulebook.translate.suggestions import aligned_uses, render_suggestions, suggest_terms
from rulebook.translate.terminology import Entry, load_terminology
from rulebook.translate.waivers import load_waivers, waiver_entries

KINDS = tuple(sorted(rule.name for rule in TRANSLATION_RULES))
"""Every kind of finding, by rule name."""


class CompareInputError(UserError):
    """The comparison cannot run as asked (an unknown kind, a swapped pair): exit status 2."""


@dataclass(frozen=True, slots=True)
class CompareRequest:
    """A comparison as the command line asks for it."""

    original: Path
    translation: Path
    language: str = "fr"
    """The translation's language (its code); the original is the book's (English by default)."""
    terms: Path | None = None
    """The terminology; None: ``terms.toml`` beside the translation, if there is one."""
    waivers: Path | None = None
    """Accepted findings; None: ``waivers.toml`` beside the translation, if there is one."""
    fail_on: tuple[str, ...] = field(default=FAIL_ON)
    """Kinds of finding that make the exit status 1."""
    root: Path | None = None
    """The project: its terminology and waivers are read only inside it (no link leads out)."""
    language_file: Path | None = None
    """The project's file for the translation's language: one not shipped, or words over a shipped one."""
    original_language: str = "en"

    def languages(self) -> tuple[Language, Language]:
        """The original's language and the translation's (with the project's language file over it)."""
        return load_language(self.original_language), load_language(self.language, self.language_file, root=self.root)

    def terminology(self) -> dict[str, Entry]:
        """The terminology that applies (empty when there is none)."""
        path = self.terms or self.translation.with_name("terms.toml")
        return load_terminology(path, root=self.root) if self.terms or present(path) else {}

    def accepted(self) -> dict[str, str]:
        """The waivers that apply, by fingerprint."""
        path = self.waivers or self.translation.with_name("waivers.toml")
        return load_waivers(path, root=self.root) if self.waivers or present(path) else {}


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


def compare_request(request: CompareRequest, original: Book, translation: Book) -> tuple[Comparison, int]:
    """The comparison a request asks for, and the command's exit status.

    Exit status: 0 no finding of the ``fail_on`` kinds (waived ones do not count); 1 some;
    2 (raised as :class:`CompareInputError`) when the books are not in the languages they should be.
    """
    languages = checked_languages(request, original, translation)
    comparison = compare_books(
        original,
        translation,
        original_language=languages[0],
        translation_language=languages[1],
        terms=request.terminology(),
        waivers=request.accepted(),
    )
    return comparison, exit_status(comparison, request.fail_on)


def checked_languages(request: CompareRequest, original: Book, translation: Book) -> tuple[Language, Language]:
    """The request's languages, once both books are found to be written in them (else a
    :class:`CompareInputError`: swapped files, or a translation in another language)."""
    languages = request.languages()
    problem = check_pair(
        book_text(original), book_text(translation), original_language=languages[0], translation_language=languages[1]
    )
    if problem is not None:
        raise CompareInputError(f"cannot compare {request.original} with {request.translation}: {problem}")
    return languages


FINGERPRINT_PREFIX = 6
"""The fewest first characters of a fingerprint ``--waive`` accepts for it (when no other finding shares them)."""


def waive_command(
    request: CompareRequest, original: Book, translation: Book, fingerprints: Sequence[str], reason: str | None
) -> tuple[Path, str, int]:
    """``rulebook compare --waive``: the waivers file, its text with the named findings waived, how many.

    A fingerprint may be given by its first :data:`FINGERPRINT_PREFIX` characters or more; one that names no
    finding (or several) is a :class:`CompareInputError`, so a mistyped one never writes anything.
    """
    comparison, _ = compare_request(request, original, translation)
    chosen = []
    for given in fingerprints:
        matches = [f for f in comparison.findings if f.fingerprint.startswith(given.strip())]
        if len(given.strip()) < FINGERPRINT_PREFIX or len(matches) != 1:
            what = "several findings" if len(matches) > 1 else "no finding left (waived already, or a text changed)"
            raise CompareInputError(
                f"`{given}` names {what}: give a fingerprint as `rulebook compare` shows it (`[0123abcd...]`)"
            )
        if matches[0] not in chosen:
            chosen.append(matches[0])
    path = request.waivers or request.translation.with_name("waivers.toml")
    existing = read_input_text(path, root=request.root, kind="waivers file") if present(path) else ""
    if existing:
        load_waivers(path, root=request.root)  # a file that is not a waivers file is refused, not added to
    joined = existing.rstrip("\n") + "\n\n" if existing.strip() else ""
    return path, joined + waiver_entries(chosen, reason), len(chosen)


def exit_status(comparison: Comparison, fail_on: tuple[str, ...]) -> int:
    """1 when a finding of a failing kind is left (not waived), else 0."""
    return 1 if any(finding.kind in fail_on for finding in comparison.findings) else 0


def suggest_command(request: CompareRequest, original: Book, translation: Book) -> str:
    """``rulebook terms suggest``: terms.toml entries proposed for the terms the terminology lacks."""
    languages = checked_languages(request, original, translation)
    entries = request.terminology()
    comparison = compare_books(
        original, translation, original_language=languages[0], translation_language=languages[1], terms=entries
    )
    return render_suggestions(suggest_terms(aligned_uses(comparison.texts), entries))
