"""What a book's declarations make data, read once: roll tables, values, data tables, sequences and mechanics.

:func:`collect_rule_facts` is the one reading: the lint reports its diagnostics
(``invalid-roll-table``, ``invalid-annotation``) and the rule data is made from the rest,
so a build reads the declarations once and the two never disagree. The declarations the
compiler knows are tables: the kinds of values (:data:`VALUE_KINDS`), of data tables
(:data:`DATA_TABLES`) and of sequences (:data:`SEQUENCE_KINDS`), and the kinds of ``<mechanic>``
in :data:`MECHANIC_KINDS`. The names are the book's own.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rulebook.diagnostics import Diagnostic
from rulebook.facts.annotations import MechanicsData, collect_mechanics
from rulebook.facts.attributes import Context
from rulebook.facts.kinds import MECHANIC_KINDS, MechanicKind
from rulebook.facts.setup_walk import past_the_least_walk
from rulebook.facts.shapes import ArmyComposition, Characteristics, DeclaredValue, Mechanics
from rulebook.facts.tables import (
    DATA_TABLES,
    SEQUENCE_KINDS,
    Facts,
    army_composition_data,
    characteristics_data,
    collect_facts,
)
from rulebook.facts.values import VALUE_KINDS
from rulebook.graph import TermGraph
from rulebook.mechanics import RollTable, roll_tables
from rulebook.model import Book

__all__ = [
    "DATA_TABLES",
    "MECHANIC_KINDS",
    "SEQUENCE_KINDS",
    "VALUE_KINDS",
    "Context",
    "Facts",
    "MechanicKind",
    "MechanicsData",
    "RuleFacts",
    "collect_facts",
    "collect_mechanics",
    "collect_rule_facts",
    "mechanics_context",
]


@dataclass(frozen=True, slots=True)
class RuleFacts:
    """A book's declarations as rule data, with the problems found reading them. Never modified."""

    roll_tables: tuple[RollTable, ...]
    roll_table_problems: tuple[Diagnostic, ...]
    """For the rule ``invalid-roll-table``."""
    mechanics: Mechanics
    values: dict[str, DeclaredValue]
    characteristics: Characteristics
    army_composition: ArmyComposition
    problems: tuple[Diagnostic, ...]
    """For the rule ``invalid-annotation``: values, data tables and sequences, then mechanics."""


def collect_rule_facts(book: Book, terms: TermGraph) -> RuleFacts:
    """Read every declaration of a book once (call it once per book; the lint and the rule data share it)."""
    tables, table_problems = roll_tables(book)
    facts = collect_facts(book, frozenset(terms.defined_terms()))
    mechanics = collect_mechanics(book, mechanics_context(terms, tables, facts))
    return RuleFacts(
        tuple(tables),
        tuple(table_problems),
        mechanics.mechanics,
        facts.values,
        characteristics_data(facts),
        army_composition_data(facts, mechanics.army, mechanics.army_sizes, mechanics.army_rules),
        facts.diagnostics + mechanics.diagnostics + tuple(past_the_least_walk(book, tables, mechanics.mechanics)),
    )


def mechanics_context(terms: TermGraph, tables: Sequence[RollTable], facts: Facts) -> Context:
    """What a ``<mechanic>``'s attributes are checked against: the defined terms, the roll tables, the values
    and the data tables the book declares."""
    return Context(
        frozenset(terms.defined_terms()),
        frozenset(t.id for t in tables),
        {name: entry["kind"] for name, entry in facts.values.items()},
        facts.tables,
        frozenset(terms.defined_terms()) | frozenset(terms.referenced_names()),
        {
            table: frozenset(term for row in facts.rows_of(table) for term in row["terms"])
            for table, kind in facts.tables.items()
            if kind == "categories"
        },
    )
