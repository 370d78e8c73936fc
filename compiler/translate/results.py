"""What a comparison finds: findings with places on both sides, and each pair's aligned sentences."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from rulebook.diagnostics import Diagnostic, Note, Rule, at_most_same
from rulebook.errors import shorten
from rulebook.languages.data import Language
from rulebook.model import Table
from rulebook.source import SourceText, Span
from rulebook.translate.align import Pair
from rulebook.translate.segments import Sentence
from rulebook.translate.sentence_align import Bead

QUOTED_SENTENCE = 400
"""Characters of the sentences a finding quotes (cut in the middle past it)."""
Mark = tuple[int, int, int, int]
"""(side, sentence, start, end): a stretch of a sentence of the finding's pair that the report highlights
(side 0 the original, 1 the translation; start and end -1: the whole sentence)."""


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement, with its place in the translation and its counterpart in the original."""

    rule: Rule
    """The translation rule (``rulebook.catalog.translation``): code, name, severity."""
    message: str
    """Lowercase, no final period, names in backticks."""
    place: Span | None
    """Where in the translation (None: the translation has nothing there)."""
    counterpart: Span | None = None
    """The same place in the original."""
    help: str | None = None
    """How to fix it."""
    original: str | None = None
    """Id of the original's unit."""
    translation: str | None = None
    """Id of the translation's unit."""
    pair: int | None = None
    """Index of the pair of units in :attr:`Comparison.pairs`."""
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    """What the finding is about, for the JSON (the values, the term, the row)."""
    evidence: tuple[str, ...] = field(default=(), compare=False)
    """The texts the finding is about (hashed into its fingerprint)."""
    counterpart_note: str = "the original says"
    """What the counterpart is, as the reports say it."""
    marks: tuple[Mark, ...] = field(default=(), compare=False)
    """What the side-by-side report highlights; the first mark's sentence places the finding in its row."""
    fingerprint: str = ""
    """A hash of the rule, the details and the evidence: a waiver names it."""
    quotes: tuple[str, str] = ("", "")
    """The original's sentences and the translation's the finding is about, as the reports quote them."""

    @property
    def kind(self) -> str:
        """The rule's name."""
        return self.rule.name

    def diagnostic(self) -> Diagnostic:
        """The finding as a diagnostic: the translation's place first, the original's as counterpart."""
        counterpart = Note(self.counterpart_note, self.counterpart) if self.counterpart else None
        primary = self.place or self.counterpart or Span("", 0, 0)
        if self.place is None:
            counterpart = None
        waiver = Note(f"fingerprint `{self.fingerprint}` (`rulebook compare --waive {self.fingerprint}` accepts it)")
        quoted = tuple(
            Note(f"{side}: {shorten(text, QUOTED_SENTENCE)}")
            for side, text in zip(("the original", "the translation"), self.quotes, strict=True)
            if text
        )
        return self.rule.diagnostic(
            self.message,
            primary,
            target=self.fingerprint,
            help=self.help,
            notes=(*quoted, waiver),
            section_id=self.translation or self.original,
            counterpart=counterpart,
        )


@dataclass(frozen=True, slots=True)
class Moved:
    """Sentences of one pair whose counterparts the PDF moved into a neighbouring pair."""

    side: int
    """0: the sentences are the original's; 1: the translation's."""
    sentences: tuple[int, ...]
    other_pair: int
    """Index (in :attr:`Comparison.pairs`) of the pair holding the counterparts."""
    counterparts: tuple[int, ...]
    """Indices of the counterparts among that pair's sentences of the other side."""


@dataclass(frozen=True, slots=True)
class AlignedText:
    """A pair of units' sentences and how they pair (what the side-by-side report shows)."""

    pair: int
    """Index of the pair in :attr:`Comparison.pairs`."""
    original: tuple[Sentence, ...]
    """The original's sentences, in reading order."""
    translation: tuple[Sentence, ...]
    beads: tuple[Bead, ...]
    """How the sentences pair, in order (indices into ``original`` and ``translation``)."""
    moved: tuple[Moved, ...] = ()
    """Sentences without counterpart here that a neighbouring pair translates."""
    tables: tuple[tuple[Table | None, Table | None], ...] = ()
    """The pair's tables: those compared row by row side by side, then those of one side only."""


@dataclass(frozen=True, slots=True)
class Comparison:
    """What ``compare_books`` finds: the section pairs, the findings left after waivers, the aligned texts."""

    pairs: list[Pair]
    """The section alignment, in reading order."""
    findings: list[Finding]
    """Every finding no waiver accepts."""
    coverage: dict[str, Any]
    """Sections and sentences of the original that the translation translates."""
    waived: int = 0
    """Findings a waiver accepts."""
    stale_waivers: tuple[str, ...] = ()
    """Waivers that match no finding any more: the texts changed, or the problem was fixed."""
    texts: tuple[AlignedText, ...] = ()
    """Each pair's sentences and how they align (what the side-by-side report shows)."""
    sources: dict[str, SourceText] = field(default_factory=dict)
    """Both books' sources by path: a report shows their lines."""
    notes: tuple[str, ...] = ()
    """Each comparison made simpler because its input was too large (none for an ordinary book)."""
    languages: tuple[Language, Language] | None = None
    """The original's language and the translation's, as compared (the shipped ones, or the project's files)."""

    def diagnostics(self) -> tuple[Diagnostic, ...]:
        """The findings as diagnostics, in report order (path, line, column), bounded as the lint's reports are
        (:func:`~rulebook.diagnostics.at_most_same`: 300,000 doubled words on a line listed 150,000 findings, 52 MB).
        """
        return tuple(at_most_same(sorted((f.diagnostic() for f in self.findings), key=lambda d: d.sort_key)))

    def summary(self) -> dict[str, Any]:
        """Coverage, the pairs and the waivers, for the JSON report."""
        return {
            "coverage": self.coverage,
            "pairs": [
                {
                    "original": p.original.id if p.original else None,
                    "translation": p.translation.id if p.translation else None,
                    "method": p.method,
                    "confidence": p.confidence,
                }
                for p in self.pairs
            ],
            "waived": self.waived,
            "stale_waivers": list(self.stale_waivers),
        }
