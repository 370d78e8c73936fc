"""The engine's stated limits: every question inside them is answered in well under a second.

Each limit is checked once, where its input enters: a number on the command line when it is read
(:func:`read_number`), dice notation when it is read (from the command line or from ``rules.json``),
the rule data when it is loaded, an army list or a chain's profile when it is read. Past a limit the engine
refuses with a :class:`~rulebook.engine.errors.LimitError` naming it. docs/engine.md ("Limits") gives each
limit, why that number, and the measured worst case inside it.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from rulebook.engine.errors import LimitError, RulesError

MAX_DICE = 100
"""Dice in one roll (the 100 of ``100D6``)."""
MAX_SIDES = 100
"""Sides of a die (``D100``); a die made from another (a D3 from a D6) is made from one such die."""
MAX_REPEATS = 100
"""The most a repeated roll's count (``times="2D3"``: at most 6) may come to."""
MAX_WALK = 1000
"""Lines of a pre-game walk's transcript (the main book's has 25)."""
MAX_CHAIN = 10
"""Rolls in a chain, other readings included (each reading is answered again)."""
MAX_CHAIN_DICE = 10
"""Dice in one roll of a chain, the dice a failure adds and a success's damage included."""
MAX_COUNT = 100
"""Dice a chain starts with (``--count``: the attacks) in one ``engine chain`` question."""
MAX_DIGITS = 2000
"""Digits of a chain's exact answer: of the outcomes its successes are counted over (dice x one die's), and of
its damage's, what it loses and the targets it removes."""
MAX_RESULTS = 1000
"""Results a chain's answer can have: the most successes (or damage) it can come to."""
MAX_CRITICAL_ADDS = 100
"""More successes a critical brings (``critical-adds``): games give one or two; each is the rest of the chain's
distribution added again, so a thousand took 18 s of CPU to work out (and could never be answered: 1,001
results)."""
MAX_HEALTH = 100
"""Points of health of a target (``--health``), and targets (``--targets``), in a chain question."""
MAX_VALUE = 1_000_000
"""Any number typed into a question, either way: a tested value, a modifier's (``+3``), a value a chain is
rolled against, the dice a chain starts with, a bonus, a seed, a board's sides."""
MAX_MODIFIERS = 100
"""Modifiers in one ``engine modify`` question (a characteristic gains a handful)."""
MAX_GIVEN_VALUES = 100
"""Values given to one ``engine chain`` question (``--value NAME=N``; the other game's chain reads six), and
rerolls (``--reroll``)."""
MAX_ENTRIES = 200
"""Entries in an army list."""
MAX_ITEMS = 100
"""Upgrades, and marks, of one entry in an army list."""
MAX_POINTS = 1_000_000
"""Points anywhere in an army list: the limit, an entry's cost, an upgrade's price."""
MAX_ARMY_BYTES = 100_000
"""Size of an army list file, and of a chain's profile."""
MAX_RULES_BYTES = 64_000_000
"""Size of a ``rules.json`` file (a whole rulebook's is a few megabytes), and of a schema."""
MAX_JSON_DIGITS = 40
"""Digits of a whole number in a JSON file the tool reads (rule data, a baseline): those it writes have at most ten
(a baseline's count, 999,999,999); Python reads at most 4,300, and said so in its own words, with no place."""
MAX_CACHE_BYTES = 65_536
"""Size of the engine's cache file (its 64 digests take 4,160 bytes)."""


def least_walk(steps: Iterable[str | None], tables: Iterable[tuple[str, str]], mechanics: Mapping[str, Any]) -> int:
    """The fewest lines any pre-game walk of a setup sequence writes, whatever the dice and the board: a line for
    each step (``steps``: the section each points at, or None), and for each step pointing at a section, a line for
    each roll made there once (a roll table no repeated roll there rolls, a test against a target, a contest) and
    for each repeated roll there its own line and its fewest rolls, for the board that rolls the fewest.
    ``tables``: each roll table's id and section; ``mechanics``: the rule data's (``repeats``, ``dice``, ``tests``,
    ``contests``).

    The lint and the engine count with this one function: a walk past :data:`MAX_WALK` lines is refused, and a book
    whose every walk would be was passed by the lint (1,001 steps, each a line). Steps inside a nested sequence are
    not counted (a walk goes into one only from a step of a section holding it)."""
    repeats = mechanics["repeats"].values()
    once: dict[str, int] = {}
    repeated = {(repeat["section"], repeat["table"]) for repeat in repeats}
    for table, section in tables:
        if (section, table) not in repeated:
            once[section] = once.get(section, 0) + 1
    for test in mechanics["tests"].values():
        if test.get("section") is not None and test.get("target") is not None:
            once[test["section"]] = once.get(test["section"], 0) + 1
    for contest in mechanics["contests"].values():
        once[contest["section"]] = once.get(contest["section"], 0) + 1
    by_board: dict[str, dict[str | None, int]] = {}
    for repeat in repeats:
        choices = by_board.setdefault(repeat["section"], {})
        lines = 1 + fewest_rolled(repeat["times"], mechanics["dice"])
        choices[repeat.get("board")] = choices.get(repeat.get("board"), 0) + lines
    # A board a section names no repeated roll for rolls its repeated rolls for no board; one it names, its own.
    for section, choices in by_board.items():
        once[section] = once.get(section, 0) + min(choices.get(None, 0), *choices.values())
    return sum(1 + (once.get(section, 0) if section is not None else 0) for section in steps)


def fewest_rolled(notation: str, derived: Mapping[str, Any]) -> int:
    """The lowest total of dice notation (``2D3``: 2): each die's lowest face, a derived die's (a D6 halved rounding
    down shows 0) from its rule (``derived``, by name, as ``mechanics.dice``)."""
    count, _, sides = notation.upper().partition("D")
    rule = derived.get(f"D{sides}")
    lowest = 1 if rule is None else (-(-1 // rule["divide"]) if rule["round"] == "up" else 1 // rule["divide"])
    return int(count or 1) * lowest


def read_bounded(digits: str, limit: int) -> int | None:
    """The whole number ``digits`` writes, or None past ``limit`` (a huge number is never read whole)."""
    significant = digits.lstrip("0") or "0"
    if len(significant) > len(str(limit)):
        return None
    value = int(significant)
    return value if value <= limit else None


def read_number(text: str, what: str) -> int:
    """A whole number a question gives as text (``7``, ``-3``, ``+1``), refused past :data:`MAX_VALUE` either way;
    anything else (``nan``, ``1e9``, ``0x10``) is refused as not a whole number."""
    digits = text[1:] if text[:1] in ("+", "-") else text
    if not (digits.isascii() and digits.isdigit()):
        raise RulesError(f"{what} is `{shown(text, 'characters')}`, not a whole number")
    value = read_bounded(digits, MAX_VALUE)
    if value is None:
        raise over(f"{what} is {shown(text)}", MAX_VALUE, "either way for a number in a question")
    return -value if text.startswith("-") else value


def check_count(count: int, limit: int, items: str) -> None:
    """Refuse a question that gives more than ``limit`` items (modifiers, values), naming the limit."""
    if count > limit:
        raise over(f"{count:,} {items}", limit, items)


def shown(text: str, measure: str = "digits") -> str:
    """A number or a name as a message shows it: an absurdly long one is cut, with its length in ``measure``."""
    return text if len(text) <= 20 else f"{text[:8]}... ({len(text)} {measure})"


def over(what: str, limit: int, measure: str) -> LimitError:
    """The error for a question or a file past a limit: what it asked for, then the limit (in ``measure``) in the
    words of docs/engine.md."""
    return LimitError(f"{what}; the engine's limit is {limit:,} {measure} (see Limits in `rulebook docs engine`)")


class LongNumber(ValueError):
    """A JSON file's whole number of more than :data:`MAX_JSON_DIGITS` digits, and where it stands."""

    def __init__(self, digits: int, where: str) -> None:
        super().__init__(
            f"a whole number of {digits:,} digits at {where}; no number there has more than {MAX_JSON_DIGITS} digits"
        )


def load_json(text: str, **hooks: Any) -> Any:
    """``json.loads(text, **hooks)``, a whole number of more than :data:`MAX_JSON_DIGITS` digits refused as
    :class:`LongNumber` naming its JSON path (``$.entries[0].count``), never read whole."""
    long: list[_Long] = []

    def whole(digits: str) -> int | _Long:
        if len(digits.lstrip("-")) <= MAX_JSON_DIGITS:
            return int(digits)
        long.append(_Long(len(digits.lstrip("-"))))
        return long[-1]

    data = json.loads(text, parse_int=whole, **hooks)
    if long:  # the first the parser met is the first in the text
        raise LongNumber(long[0].digits, shown(_path_to(data, long[0]), "characters"))
    return data


class _Long:
    """Stands in the data for a number too long to read."""

    def __init__(self, digits: int) -> None:
        self.digits = digits


def _path_to(data: Any, found: object) -> str:
    """The JSON path of ``found`` in ``data`` (walked without recursion: the data may nest deeply)."""
    stack: list[tuple[Any, str]] = [(data, "$")]
    while stack:
        value, where = stack.pop()
        if value is found:
            return where
        if isinstance(value, dict):
            stack.extend((item, f"{where}{_member(key)}") for key, item in value.items())
        elif isinstance(value, list):
            stack.extend((item, f"{where}[{index}]") for index, item in enumerate(value))
    return "$"


def _member(key: str) -> str:
    """A key as a JSON path writes it: ``.name``, else quoted with its controls escaped (``["a b"]``)."""
    return f".{key}" if key.isascii() and key.isidentifier() else f"[{json.dumps(key)}]"
