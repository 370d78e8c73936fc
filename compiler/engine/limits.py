"""The engine's stated limits: every question inside them is answered in well under a second.

Each limit is checked once, where its input enters: a number on the command line when it is read
(:func:`read_number`), dice notation when it is read (from the command line or from ``rules.json``),
the rule data when it is loaded, an army list or a chain's profile when it is read. Past a limit the engine
refuses with a :class:`~rulebook.engine.errors.LimitError` naming it. docs/engine.md ("Limits") gives each
limit, why that number, and the measured worst case inside it.
"""

from __future__ import annotations

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
MAX_CACHE_BYTES = 65_536
"""Size of the engine's cache file (its 64 digests take 4,160 bytes)."""


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
