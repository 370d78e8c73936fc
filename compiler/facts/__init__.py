"""What a book's annotations make data, read once: roll tables, values, data tables and mechanics.

:func:`collect_rule_facts` is the one reading: the lint reports its diagnostics
(``invalid-roll-table``, ``invalid-annotation``) and the rule data is made from the rest,
so a build reads the annotations once and the two never disagree. The annotations the
compiler knows are tables: :data:`VALUES`, :data:`DATA_TABLES`, :data:`DATA_SEQUENCES`
and the kinds of ``<mechanic>`` in :data:`MECHANIC_KINDS`.
"""

from __future__ import annotations

from dataclasses import dataclass

from rulebook.diagnostics import Diagnostic
from rulebook.facts.annotations import MechanicsData, collect_mechanics
from rulebook.facts.attributes import Context
from rulebook.facts.kinds import MECHANIC_KINDS, MechanicKind
from rulebook.facts.shapes import ArmyComposition, Characteristics, Game, Mechanics
from rulebook.facts.tables import (
    DATA_SEQUENCES,
    DATA_TABLES,
    VALUES,
    Facts,
    army_composition_data,
    characteristics_data,
    collect_facts,
    game_data,
)
from rulebook.graph import TermGraph
from rulebook.mechanics import RollTable, roll_tables
from rulebook.model import Book

__all__ = [
    "DATA_SEQUENCES",
    "DATA_TABLES",
    "MECHANIC_KINDS",
    "VALUES",
    "Context",
    "Facts",
    "MechanicKind",
    "MechanicsData",
    "RuleFacts",
    "collect_facts",
    "collect_mechanics",
    "collect_rule_facts",
]


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """A book's annotations as rule data, with the problems found reading them. Never modified."""

    roll_tables: tuple[RollTable, ...]
    roll_table_problems: tuple[Diagnostic, ...]
    """For the rule ``invalid-roll-table``."""
    mechanics: Mechanics
    game: Game
    characteristics: Characteristics
    army_composition: ArmyComposition
    problems: tuple[Diagnostic, ...]
    """For the rule ``invalid-annotation``: values, data tables and sequences, then mechanics."""


def collect_rule_facts(book: Book, terms: TermGraph) -> RuleFacts:
    """Read every annotation of a book once (call it once per book; the lint and the rule data share it)."""
    tables, table_problems = roll_tables(book)
    facts = collect_facts(book)
    context = Context(frozenset(terms.defined_terms()), frozenset(t.id for t in tables))
    mechanics = collect_mechanics(book, context)
    return RuleFacts(
        tuple(tables),
        tuple(table_problems),
        mechanics.mechanics,
        game_data(facts),
        characteristics_data(facts),
        army_composition_data(facts, mechanics.army_rules),
        facts.diagnostics + mechanics.diagnostics,
    )
