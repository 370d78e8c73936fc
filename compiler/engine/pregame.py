"""``rulebook engine pregame``: walk the steps that set up a game, rolling where the rules roll.

Everything comes from ``rules.json``: the sequence the book declares of kind ``setup`` and its steps,
the sections they point at, and in each of those sections the roll tables, repeated rolls
(``repeats``), tests against a fixed target (``tests`` with a ``target``) and contests
(``contests``) the compiler found there. A step whose section holds a sequence of its own is walked
too. Dice come from a :class:`Dice` source: seeded, so the same seed gives the same transcript, or
typed in by the players.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from itertools import islice
from typing import Any

from rulebook.engine.dice import parse_notation, single_die
from rulebook.engine.limits import MAX_WALK, least_walk, over, read_number, shown
from rulebook.engine.rules import BookTest, Rules, RulesError, sections_by_id

Ask = Callable[[str, int, int], int]
"""Asks the players for one die: (what the roll is for, lowest, highest) -> the value rolled."""


class Dice:
    """Where the rolls come from: a seeded generator, or the players (``ask``)."""

    def __init__(self, seed: int | None = None, ask: Ask | None = None) -> None:
        if seed is not None and seed < 0:
            raise RulesError(f"the seed is {seed}; a seed is 0 or more")
        self._random = random.Random(seed)
        self._ask = ask

    def roll(self, notation: str, why: str, derived: dict[str, Any]) -> list[int]:
        """One roll of ``notation`` (``2D3``): the value of each die, derived dice (D3) included."""
        dice = parse_notation(notation)
        faces = single_die(dice.sides, derived).faces()
        values = []
        for n in range(dice.number):
            label = why if dice.number == 1 else f"{why} (die {n + 1})"
            if self._ask is not None:
                values.append(self._ask(label, faces[0], faces[-1]))
            else:
                values.append(self._random.choice(faces))
        return values


@dataclass
class Event:
    """One line of the transcript."""

    step: str
    """The step's number ("3", or "8.2" inside a nested sequence)."""
    text: str
    anchor: str | None
    """The site page and anchor of the rule."""
    rolls: list[int] = field(default_factory=list)
    result: str | None = None
    rules: list[dict[str, str | None]] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "step": self.step,
            "text": self.text,
            "anchor": self.anchor,
            "rolls": self.rolls,
            "result": self.result,
            "rules": self.rules,
        }


@dataclass(frozen=True, slots=True)
class Options:
    first: str = "A"
    """The player a contest names first, who adds its bonus (``A`` or ``B``)."""
    bonus: int = 0
    """The value of a contest's bonus term."""
    board: str | None = None
    """The board's size (36x48) when it is not the standard one: rolls the book gives for it are used."""


def board_size(text: str) -> str:
    """A board's size as the rule data writes it (``36x48``), from what a player typed (``36X048``)."""
    sides = text.lower().split("x")
    if len(sides) != 2:
        raise RulesError(f"--board takes WxD, such as 36x48 (not `{shown(text, 'characters')}`)")
    width, depth = (read_number(side, "a side of --board") for side in sides)
    if width < 1 or depth < 1:
        raise RulesError(f"--board takes WxD, such as 36x48 (not `{shown(text, 'characters')}`)")
    return f"{width}x{depth}"


def pregame(rules: Rules, dice: Dice, options: Options | None = None) -> list[Event]:
    """The transcript of a pre-game: each step, and the result of every roll it makes."""
    options = options or Options()
    data = rules.data
    sequence = next((s for s in data["sequences"] if s["kind"] == "setup"), None)
    if sequence is None:
        raise rules.undeclared("pregame")
    game = _Game(rules, dice, options, sections_by_id(data["sections"]), _index(rules, options))
    steps = [step["section"] for step in sequence["steps"]]
    tables = [(table["id"], table["section"]) for table in data["roll_tables"]]
    if least_walk(steps, tables, data["mechanics"]) > MAX_WALK:  # the lint counts so too
        raise over("the pre-game walk goes on longer", MAX_WALK, "lines of a pre-game walk")
    events = list(islice(_walk(game, sequence, "", set()), MAX_WALK + 1))
    if len(events) > MAX_WALK:
        raise over("the pre-game walk goes on longer", MAX_WALK, "lines of a pre-game walk")
    return events


@dataclass(frozen=True, slots=True)
class _Here:
    """What is rolled in one section, in the order the walk rolls it."""

    repeats: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    """Repeated rolls for this board, by name."""
    tables: list[dict[str, Any]] = field(default_factory=list)
    """Roll tables rolled once (not those a repeated roll rolls, for this board or another)."""
    tests: list[BookTest] = field(default_factory=list)
    """Tests against a fixed target."""
    contests: list[tuple[str, dict[str, Any]]] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class _Game:
    """What a walk needs at every step: the data, the dice, the options, the sections by id, the rolls
    of each section."""

    rules: Rules
    dice: Dice
    options: Options
    places: dict[str, dict[str, Any]]
    here: dict[str, _Here]
    bands: dict[str, dict[int, dict[str, Any]]] = field(default_factory=dict)
    """For each table rolled so far, the band each total falls in."""

    def anchor(self, section: str | None) -> str | None:
        return self.places.get(section or "", {}).get("anchor")

    def band(self, table: dict[str, Any], total: int) -> dict[str, Any] | None:
        if table["id"] not in self.bands:
            self.bands[table["id"]] = _first_bands(table, self.rules.data["mechanics"]["dice"])
        return self.bands[table["id"]].get(total)


def _index(rules: Rules, options: Options) -> dict[str, _Here]:
    """Each section's rolls, found once for the whole walk."""
    mechanics = rules.data["mechanics"]
    here: dict[str, _Here] = {}
    repeated: dict[str, set[str]] = {}
    for section in sorted({r["section"] for r in mechanics["repeats"].values()}):
        found = {name: r for name, r in mechanics["repeats"].items() if r["section"] == section}
        for_board = {name: r for name, r in found.items() if options.board and r.get("board") == options.board}
        chosen = for_board or {name: r for name, r in found.items() if r.get("board") is None}
        # A table rolled for another board is not a table of its own either.
        repeated[section] = {r["table"] for r in found.values()}
        here.setdefault(section, _Here()).repeats.extend(sorted(chosen.items()))
    for table in rules.data["roll_tables"]:
        if table["id"] not in repeated.get(table["section"], set()):
            here.setdefault(table["section"], _Here()).tables.append(table)
    for test in rules.tests():
        if test.section is not None and test.target is not None:
            here.setdefault(test.section, _Here()).tests.append(test)
    for name, contest in sorted(mechanics["contests"].items()):
        here.setdefault(contest["section"], _Here()).contests.append((name, contest))
    return here


def _walk(game: _Game, sequence: dict[str, Any], prefix: str, seen: set[str]) -> Iterator[Event]:
    seen.add(sequence["id"])
    for step in sequence["steps"]:
        number = f"{prefix}{step['number']}"
        section = step["section"]
        broken = step["link"] is not None and not step["resolved"] and section is not None
        note = " (found by its title: the step's link is broken)" if broken else ""
        yield Event(number, step["text"] + note, game.anchor(section))
        if section is None:
            continue
        yield from _rolls(game, section, number)
        below = _below(game.places, section)
        for inner in game.rules.data["sequences"]:
            if inner["id"] not in seen and inner["section"] in below:
                yield from _walk(game, inner, f"{number}.", seen)


def _rolls(game: _Game, section: str, number: str) -> Iterator[Event]:
    """Every roll the rules in one section make, in the order the data lists them."""
    rules, dice = game.rules, game.dice
    derived = rules.data["mechanics"]["dice"]
    tables = {t["id"]: t for t in rules.data["roll_tables"]}
    here = game.here.get(section, _Here())
    for name, repeat in here.repeats:
        table = tables[repeat["table"]]
        rolled = dice.roll(repeat["times"], f"{name}: how many", derived)
        times = sum(rolled)
        yield Event(number, f"{name}: {repeat['times']} rolled {times}", game.anchor(section), rolled)
        for n in range(times):
            yield _table_roll(game, table, number, f"{table['id']} ({n + 1} of {times})")
    for table in here.tables:
        yield _table_roll(game, table, number, table["id"])
    for test in here.tests:
        yield _test_roll(rules, test, test.target or 0, number, dice)
    for name, contest in here.contests:
        yield _contest(game, name, contest, number)


def _table_roll(game: _Game, table: dict[str, Any], number: str, why: str) -> Event:
    rules = game.rules
    rolled = game.dice.roll(table["die"], why, rules.data["mechanics"]["dice"])
    total = sum(rolled)
    band = game.band(table, total)
    result = band["result"] if band else f"no result for {total}"
    cited = [rules.cite(band["term"])] if band and band.get("term") else []
    return Event(number, f"{why}: {table['die']} rolled {total}", game.anchor(table["section"]), rolled, result, cited)


def _first_bands(table: dict[str, Any], derived: dict[str, Any]) -> dict[int, dict[str, Any]]:
    """Each total the table's die can roll, and the first band (in the data's order) that takes it.

    Every total is given once, skipping those taken with "the next total not yet taken" links, so a table
    of many overlapping bands costs its bands plus its totals, not their product.
    """
    dice = parse_notation(table["die"])
    faces = single_die(dice.sides, derived).faces()
    low, high = dice.number * faces[0], dice.number * faces[-1]
    following = list(range(high - low + 2))
    taken: dict[int, dict[str, Any]] = {}
    for band in table["bands"]:
        start, stop = max(band["min"], low) - low, min(band["max"], high) - low
        index = _untaken(following, start) if start <= stop else stop + 1
        while index <= stop:
            taken[low + index] = band
            following[index] = index + 1
            index = _untaken(following, index + 1)
    return taken


def _untaken(following: list[int], index: int) -> int:
    """The first total not yet taken from ``index`` on, shortening the links walked."""
    found = index
    while following[found] != found:
        found = following[found]
    while following[index] != found:
        following[index], index = found, following[index]
    return found


def _test_roll(rules: Rules, test: BookTest, target: int, number: str, dice: Dice) -> Event:
    rolled = dice.roll(test.roll, f"{test.name} (player A)", rules.data["mechanics"]["dice"])
    total = sum(rolled)
    outcome = f"rolled {total}: passed, player A" if test.passes(total, target) else f"rolled {total}: failed, player B"
    return Event(
        number,
        f"{test.name}: player A rolls {test.roll}, needs {test.need(target)}",
        rules.anchor(test.term),
        rolled,
        outcome,
        [rules.cite(test.term)],
    )


def _contest(game: _Game, name: str, contest: dict[str, Any], number: str) -> Event:
    rules, dice, options = game.rules, game.dice, game.options
    first = options.first
    second = "B" if first == "A" else "A"
    derived = rules.data["mechanics"]["dice"]
    adds = f", who adds {contest['bonus']}" if contest["bonus"] else ", named first"
    first_roll = dice.roll(contest["roll"], f"{name} (player {first}{adds})", derived)
    second_roll = dice.roll(contest["roll"], f"{name} (player {second})", derived)
    bonus = options.bonus if contest["bonus"] else 0
    first_total, second_total = sum(first_roll) + bonus, sum(second_roll)
    if first_total != second_total:
        winner = first if first_total > second_total else second
    else:
        winner = first if contest["ties"] == "first" else second
    bonus_text = f" + {contest['bonus']} {bonus}" if contest["bonus"] else ""
    text = f"{name}: player {first} {sum(first_roll)}{bonus_text} = {first_total}, player {second} {second_total}"
    cited = [rules.cite(contest["bonus"])] if contest["bonus"] else []
    return Event(
        number, text, game.anchor(contest["section"]), first_roll + second_roll, f"player {winner} wins", cited
    )


def _below(places: dict[str, dict[str, Any]], section: str) -> set[str]:
    """A section and every section inside it."""
    found = {section}
    for child in places.get(section, {}).get("children", []):
        found |= _below(places, child["id"])
    return found


def render_text(events: list[Event]) -> str:
    lines = []
    for event in events:
        result = f" -> {event.result}" if event.result else ""
        place = f"  [{event.anchor}]" if event.anchor else ""
        lines.append(f"{event.step:>5}  {event.text}{result}{place}")
    return "\n".join(lines) + "\n"
