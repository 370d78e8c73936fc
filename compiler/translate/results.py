"""What a comparison finds: findings with places on both sides, and each pair's aligned sentences."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from compiler.diagnostics import Diagnostic, Note, Rule
from compiler.source import Span
from compiler.translate.segments import Sentence
from compiler.translate.sentence_align import Bead


@dataclass(frozen=True, slots=True)
class Finding:
    """One disagreement, with its place in the translation and its counterpart in the original."""

    rule: Rule
    message: str
    place: Span | None
    """Where in the translation (None: the translation has nothing there)."""
    counterpart: Span | None = None
    """The same place in the original."""
    help: str | None = None
    original: str | None = None
    """Id of the original's unit."""
    translation: str | None = None
    """Id of the translation's unit."""
    pair: int | None = None
    """Index of the pair of units in :attr:`Comparison.pairs`."""
    details: dict[str, Any] = field(default_factory=dict, compare=False)
    evidence: tuple[str, ...] = field(default=(), compare=False)
    """The texts the finding is about (hashed into its fingerprint)."""
    fingerprint: str = ""
    """A hash of the rule, the details and the evidence: a waiver names it."""

    @property
    def kind(self) -> str:
        """The rule's name."""
        return self.rule.name

    def diagnostic(self) -> Diagnostic:
        """The finding as a diagnostic: the translation's place first, the original's as counterpart."""
        counterpart = Note("the original says", self.counterpart) if self.counterpart else None
        primary = self.place or self.counterpart or Span("", 0, 0)
        if self.place is None:
            counterpart = None
        return self.rule.diagnostic(
            self.message,
            primary,
            target=self.fingerprint,
            help=self.help,
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
    original: tuple[Sentence, ...]
    translation: tuple[Sentence, ...]
    beads: tuple[Bead, ...]
    moved: tuple[Moved, ...] = ()
    """Sentences without counterpart here that a neighbouring pair translates."""
