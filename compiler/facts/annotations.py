"""A book's ``<mechanic>`` annotations, checked and made data by the table of kinds (:mod:`rulebook.facts.kinds`)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.diagnostics import Diagnostic
from rulebook.engine.limits import MAX_CHAIN, MAX_RESULTS, MAX_WALK
from rulebook.facts.army_kinds import ARMY, ARMY_RULES, ARMY_SIZE, ArmyDeclaration, VariantDeclaration
from rulebook.facts.attributes import Context, Values
from rulebook.facts.kinds import (
    CONTEST,
    DERIVED_DIE,
    MODIFIERS,
    NO_KIND,
    READING,
    REPEAT,
    REROLLS,
    ROLL,
    TEST,
    MechanicKind,
    Problem,
    recognise,
)
from rulebook.facts.shapes import ArmyRules, Mechanics, Reading, Roll
from rulebook.model import Book, Mechanic
from rulebook.spelling import XML, spelling_of

T = TypeVar("T")


class _Checked(NamedTuple):
    kind: MechanicKind[Any]
    mechanic: Mechanic
    values: Values


@dataclass(frozen=True, slots=True)
class MechanicsData:
    """What a book's ``<mechanic>`` annotations make, and a diagnostic for each that cannot be read."""

    mechanics: Mechanics
    army: ArmyDeclaration | None
    """The standard army's declaration (the last one given)."""
    army_sizes: tuple[VariantDeclaration, ...]
    army_rules: ArmyRules
    diagnostics: tuple[Diagnostic, ...]


def collect_mechanics(book: Book, context: Context) -> MechanicsData:
    """Every annotation recognised, checked and made data; the lint reports the diagnostics."""
    checked: list[_Checked] = []
    problems: list[Diagnostic] = []
    for mechanic in book.mechanics:
        attributes = {"name": mechanic.name, **dict(mechanic.attributes)}
        kind = recognise(attributes)
        if kind is None:
            problems.append(_diagnostic(mechanic, NO_KIND))
        elif isinstance(values := kind.read(attributes, context), Problem):
            problems.append(_diagnostic(mechanic, values.message))
        else:
            checked.append(_Checked(kind, mechanic, values))
    checked, past = _within_the_chain(checked)
    problems.extend(_diagnostic(mechanic, _PAST_THE_CHAIN) for mechanic in past)
    problems.extend(_past_the_results(checked))
    problems.extend(_derived_dice_unlike_their_names(checked))
    problems.extend(_past_the_walk(checked))
    rolls, unread = _rolls(checked)
    problems.extend(_diagnostic(r, "a reading must follow a roll of that name (`against`)") for r in unread)
    problems.extend(_declared_again(checked))
    problems.extend(_not_categories(checked, context))
    mechanics: Mechanics = {
        "tests": {name: test for name, test in _by_name(TEST, checked).items() if name not in rolls},
        "dice": _by_name(DERIVED_DIE, checked, str.upper),
        "rerolls": _last(REROLLS, checked),
        "modifiers": _last(MODIFIERS, checked),
        "repeats": _by_name(REPEAT, checked),
        "contests": _by_name(CONTEST, checked),
        "rolls": rolls,
    }
    sizes = tuple(size for _, size in _produced(ARMY_SIZE, checked))
    return MechanicsData(mechanics, _last(ARMY, checked), sizes, _army_rules(checked), tuple(problems))


def _produced(kind: MechanicKind[T], checked: Sequence[_Checked]) -> list[tuple[Mechanic, T]]:
    return [(c.mechanic, kind.produce(c.mechanic, c.values)) for c in checked if c.kind is kind]


def _by_name(kind: MechanicKind[T], checked: Sequence[_Checked], key: Callable[[str], str] = str) -> dict[str, T]:
    """By the annotation's name; a name given twice keeps the last."""
    return {key(mechanic.name): entry for mechanic, entry in _produced(kind, checked)}


def _last(kind: MechanicKind[T], checked: Sequence[_Checked]) -> T | None:
    produced = _produced(kind, checked)
    return produced[-1][1] if produced else None


def _rolls(checked: Sequence[_Checked]) -> tuple[dict[str, Roll], list[Mechanic]]:
    """The rolls with their other readings, and the readings of no roll."""
    rolls = _by_name(ROLL, checked)
    readings: dict[str, list[Reading]] = {}
    unread: list[Mechanic] = []
    for mechanic, reading in _produced(READING, checked):
        if mechanic.name in rolls:
            readings.setdefault(mechanic.name, []).append(reading)
        else:
            unread.append(mechanic)
    return {name: {**roll, "readings": readings.get(name, [])} for name, roll in rolls.items()}, unread


_PAST_THE_CHAIN = (
    f"more rolls and readings than the engine answers in a chain: at most {MAX_CHAIN} in a book, "
    "each roll and each of its readings counted"
)


def _within_the_chain(checked: Sequence[_Checked]) -> tuple[list[_Checked], list[Mechanic]]:
    """The annotations but the rolls and readings past the engine's :data:`MAX_CHAIN` in the book's order (with the
    readings of a roll past it), and those left out: the engine refused the whole rule data on load, so a book
    past it passed the lint into a ``rules.json`` on which every question was refused."""
    rolls = {c.mechanic.name for c in checked if c.kind is ROLL}
    named: set[str] = set()
    kept_rolls: set[str] = set()
    counted = 0
    past: set[int] = set()
    for index, entry in enumerate(checked):
        new_roll = entry.kind is ROLL and entry.mechanic.name not in named
        if not (new_roll or (entry.kind is READING and entry.mechanic.name in rolls)):
            continue
        if new_roll:
            named.add(entry.mechanic.name)
        counted += 1
        if counted > MAX_CHAIN:
            past.add(index)
        elif new_roll:
            kept_rolls.add(entry.mechanic.name)
    for index, entry in enumerate(checked):
        if entry.kind in (ROLL, READING) and entry.mechanic.name in rolls and entry.mechanic.name not in kept_rolls:
            past.add(index)
    kept = [entry for index, entry in enumerate(checked) if index not in past]
    return kept, [checked[index].mechanic for index in sorted(past)]


def _past_the_results(checked: Sequence[_Checked]) -> list[Diagnostic]:
    """The roll whose critical successes, with those of the rolls before it, can bring one die more successes than
    the engine's :data:`MAX_RESULTS`: each roll's critical multiplies what one die brings through the rest of the
    chain by at most ``1 + critical-adds`` (two rolls of ``critical-adds="100"``, each within its own limit, made
    every chain question refused: 10,201 successes)."""
    adds = {c.mechanic.name: c.values.number("critical-adds") or 0 for c in checked if c.kind is ROLL}
    most, seen = 1, set()
    for entry in checked:
        name = entry.mechanic.name
        if entry.kind is not ROLL or name in seen or not adds[name]:
            continue
        seen.add(name)
        most *= 1 + adds[name]
        if most > MAX_RESULTS:
            return [
                _diagnostic(
                    entry.mechanic,
                    f"`critical-adds`: with the criticals of the rolls before it, one die can bring {most:,} "
                    f"successes through the chain, more than the engine's {MAX_RESULTS:,} results of a chain",
                )
            ]
    return []


def _past_the_walk(checked: Sequence[_Checked]) -> list[Diagnostic]:
    """The repeated roll whose most rolls, with those of the repeated rolls before it, pass the lines of a pre-game
    walk the engine writes (:data:`MAX_WALK`): thirty of ``times="10D10"``, each within its own limit, made every
    walk at least 300 lines and at most 3,000, and ``engine pregame`` refused (counted for every board at once)."""
    most = 0
    for entry in checked:
        if entry.kind is REPEAT:
            most += entry.values.dice("times").highest
            if most > MAX_WALK:
                message = (
                    f"`times`: with the repeated rolls before it, the pre-game walk can roll {most:,} times, more "
                    f"than the {MAX_WALK:,} lines of a walk the engine writes"
                )
                return [_diagnostic(entry.mechanic, message)]
    return []


def _derived_dice_unlike_their_names(checked: Sequence[_Checked]) -> list[Diagnostic]:
    """Each derived die whose faces are not its name's (``name="D5" roll="D10" divide="1"`` shows 1 to 10): the
    engine reads a table rolled with it by its name's faces, so its odds did not add up, and a walk rolled a 10 on
    a D5 with "no result for 10"."""
    found = []
    for entry in checked:
        if entry.kind is not DERIVED_DIE:
            continue
        named, rolled = entry.values.dice("name"), entry.values.dice("roll")
        divide, up = int(entry.values.text("divide")), entry.values.text("round") == "up"
        faces = [-(-face // divide) if up else face // divide for face in range(1, rolled.sides + 1)]
        if named.count == 1 and rolled.count == 1 and (faces[0], faces[-1]) != (1, named.sides):
            shown = f"{faces[0]} to {faces[-1]}" if faces[0] != faces[-1] else str(faces[0])
            found.append(
                _diagnostic(
                    entry.mechanic,
                    f"`{entry.mechanic.name}` made so ({rolled.notation} divided by {divide}, rounding "
                    f"{'up' if up else 'down'}) shows {shown}, not 1 to {named.sides}: name it by its faces, or "
                    "divide so that it shows them",
                )
            )
    return found


NAMED_ONCE = (TEST, ROLL)
"""The kinds a mechanic of a name is one of: the engine's ``odds test`` and the quick reference read a test and a
roll of one name as one mechanic (a roll is answered as a test), so a name is declared by one annotation."""


def _declared_again(checked: Sequence[_Checked]) -> list[Diagnostic]:
    """An annotation of a test or roll whose name an earlier one of those kinds declared (the data keeps one: the
    last of a kind, and the roll of a test and a roll)."""
    first: dict[str, Mechanic] = {}
    found = []
    for entry in checked:
        if entry.kind not in NAMED_ONCE:
            continue
        earlier = first.setdefault(entry.mechanic.name, entry.mechanic)
        if earlier is not entry.mechanic:
            said = f"declared again (line {earlier.span.line} declares it): one annotation says how it is rolled"
            found.append(_diagnostic(entry.mechanic, said + " and passed (a roll answers `odds test` too)"))
    return found


CATEGORY_ATTRIBUTES = ("from", "prices", "not-counted")
"""The attributes of the army's annotations that name categories (the rows of its categories table)."""


def _not_categories(checked: Sequence[_Checked], context: Context) -> list[Diagnostic]:
    """An army rule naming a term that is no category of the standard army's table: a leader chosen from `relic`
    (a term of the book, not a category) passed the lint, and the engine found every army with a leader illegal."""
    army = _last(ARMY, checked)
    categories = context.categories.get(army["categories"]) if army is not None else None
    if army is None or not categories:
        return []
    found = []
    for entry in checked:
        if entry.kind not in (ARMY, ARMY_RULES):
            continue
        for attribute in CATEGORY_ATTRIBUTES:
            named = dict(entry.mechanic.attributes).get(attribute)
            strays = [name for name in (named or "").split() if name not in categories]
            if strays:
                listed = ", ".join(f"`{name}`" for name in sorted(categories))
                found.append(
                    _diagnostic(
                        entry.mechanic,
                        f"`{attribute}` names {', '.join(f'`{n}`' for n in strays[:5])}, no category of the army's "
                        f"table `{army['categories']}` ({listed})",
                    )
                )
    return found


def _army_rules(checked: Sequence[_Checked]) -> ArmyRules:
    """The army's rules; a rule given twice keeps the last, marks add up."""
    rules: ArmyRules = {"count_together": [], "leader": None, "marked": {}, "whole_points": None, "slash_prices": []}
    for _, part in _produced(ARMY_RULES, checked):
        rules = {**rules, **part, "marked": rules["marked"] | part.get("marked", {})}
    return rules


def _diagnostic(mechanic: Mechanic, problem: str) -> Diagnostic:
    return INVALID_ANNOTATION.diagnostic(
        f"mechanic `{mechanic.name}`: {problem}",
        mechanic.span,
        target=mechanic.name,
        help=_MECHANICS_HELP if spelling_of(mechanic.span.path) is XML else _MECHANICS_HELP_MARKDOWN,
        section_id=mechanic.section_id,
    )


_MECHANICS_HELP = "see `rulebook dtd` for the mechanic annotations"
_MECHANICS_HELP_MARKDOWN = (
    'see `rulebook docs data` for the kinds of mechanic and their attributes (`<!-- rulebook: mechanic name="..." '
    "...-->` takes those of the XML's `<mechanic>`)"
)
