"""The player's numbers for a chain question: on the command line, or in a small YAML (or JSON) profile.

A profile gives what the chain's rolls are rolled against and what the player's side brings::

    count: 10                  # dice the chain starts with (the attacks)
    values: {skill: 4, grit: 4, plate: 3, pierce: 1}
    reroll: {to_hit: failures} # per roll of the chain: failures, successes, or the results rerolled ([1])
    damage: D3                 # what each success deals: a number or dice notation (default 1)
    health: 3                  # points a target has: the answer counts targets removed
    targets: 5                 # at most this many targets

Every number is checked where it enters, as on the command line (docs/engine.md, "Limits"); the command
line's options replace the profile's.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rulebook.engine.dice import parse_notation
from rulebook.engine.documents import Unreadable, read_document
from rulebook.engine.errors import RulesError
from rulebook.engine.limits import (
    MAX_ARMY_BYTES,
    MAX_CHAIN_DICE,
    MAX_COUNT,
    MAX_GIVEN_VALUES,
    MAX_HEALTH,
    check_count,
    over,
    read_number,
    shown,
)

_TOKEN = re.compile(r"(?:([-+])\s*)?([a-z0-9_]+)")
"""A term of what a roll is against (``plate - 1``), found by ``findall``, which passes over the spaces between: a
leading ``\\s*`` was tried to the end of a run of spaces from each of its places (20,000: 13 s)."""
_GIVEN = re.compile(r"(?P<name>[^=]+)=(?P<setting>.+)")
_KEYS = ("count", "values", "reroll", "damage", "health", "targets")


@dataclass(frozen=True, slots=True)
class Profile:
    """What the player brings to a chain: every number checked."""

    count: int
    """Dice the chain starts with."""
    values: dict[str, int] = field(default_factory=dict)
    """What the rolls are rolled against, by the book's names."""
    rerolls: dict[str, str | list[int]] = field(default_factory=dict)
    """Per roll of the chain: ``failures``, ``successes`` or the results rerolled."""
    damage: str | None = None
    """What each success deals: a whole number or dice notation; None: 1."""
    health: int | None = None
    """Points each target has; None: targets removed are not counted."""
    targets: int | None = None
    """The most targets there are."""


def read_profile(path: Path) -> dict[str, Any]:
    """A profile file's settings, each checked (a key it does not know is refused)."""
    data = read_document(path, MAX_ARMY_BYTES, "a chain profile")
    if not isinstance(data, dict):
        raise RulesError(f"{path}: a chain profile is a mapping of {', '.join(_KEYS)}")
    unknown = sorted(str(key) for key in data if key not in _KEYS)
    if unknown:
        raise RulesError(
            f"{path}: `{shown(unknown[0], 'characters')}` is not a setting of a chain profile ({', '.join(_KEYS)})"
        )
    found: dict[str, Any] = {}
    for key in ("count", "health", "targets"):
        if key in data:
            found[key] = _number(data[key], f"{path}: `{key}`")
    if "damage" in data:
        found["damage"] = damage_text(_text(data["damage"], f"{path}: `damage`"))
    values = _mapping(data.get("values", {}), f"{path}: `values`")
    found["values"] = {name: _number(value, f"{path}: `values.{name}`") for name, value in values.items()}
    rerolls = _mapping(data.get("reroll", {}), f"{path}: `reroll`")
    found["rerolls"] = {name: reroll_setting(_text(how, f"{path}: `reroll.{name}`")) for name, how in rerolls.items()}
    return found


def make_profile(settings: dict[str, Any]) -> Profile:
    """The profile the settings give (a file's, then the command line's over it), checked against the limits."""
    if "count" not in settings:
        raise RulesError("a chain needs the number of dice it starts with: --count N (or `count` in a profile)")
    count = settings["count"]
    if count < 0:
        raise RulesError("the number of dice a chain starts with must be 0 or more")
    if count > MAX_COUNT:
        raise over(f"{shown(str(count))} dice", MAX_COUNT, "dice a chain starts with")
    for key in ("health", "targets"):
        if settings.get(key) is not None and not 1 <= settings[key] <= MAX_HEALTH:
            raise RulesError(f"`{key}` is {settings[key]}: it must be 1 to {MAX_HEALTH}")
    values, rerolls = settings.get("values", {}), settings.get("rerolls", {})
    check_count(len(values), MAX_GIVEN_VALUES, "values given to a chain")
    check_count(len(rerolls), MAX_GIVEN_VALUES, "rerolls given to a chain")
    return Profile(count, values, rerolls, settings.get("damage"), settings.get("health"), settings.get("targets"))


def read_values(given: Sequence[str]) -> dict[str, int]:
    """The values a player gives as ``NAME=N`` (``skill=3``), each number within the engine's limit."""
    check_count(len(given), MAX_GIVEN_VALUES, "values given to a chain")
    values = {}
    for text in given:
        name, setting = _pair(text, "--value takes NAME=N, such as skill=3")
        values[name] = read_number(setting, f"the value of `{shown(name, 'characters')}`")
    return values


def read_rerolls(given: Sequence[str]) -> dict[str, str | list[int]]:
    """The rerolls a player gives as ``ROLL=failures``, ``ROLL=successes`` or ``ROLL=1,2``."""
    check_count(len(given), MAX_GIVEN_VALUES, "rerolls given to a chain")
    return {name: reroll_setting(setting) for name, setting in (_pair(t, _REROLL_USAGE) for t in given)}


_REROLL_USAGE = "--reroll takes ROLL=failures, ROLL=successes or ROLL=1,2 (the results rerolled)"


def reroll_setting(text: str) -> str | list[int]:
    """``failures``, ``successes``, or the results rerolled (``1`` or ``1,2``)."""
    if text in ("failures", "successes"):
        return text
    parts = [part.strip() for part in text.replace(",", " ").split()]
    if not parts or not all(part.isascii() and part.isdigit() for part in parts):
        raise RulesError(f"cannot read the reroll `{shown(text, 'characters')}`: {_REROLL_USAGE}")
    return [read_number(part, "a result rerolled") for part in parts]


def damage_text(text: str) -> str:
    """What a success deals: a whole number from 1, or dice notation within the chain's dice."""
    if text.isascii() and text.isdigit():
        if read_number(text, "--damage") < 1:
            raise RulesError("a success deals 1 damage or more")
        return str(int(text))
    dice = parse_notation(text)
    if dice.number > MAX_CHAIN_DICE:
        raise over(
            f"`{shown(text, 'characters')}` rolls {dice.number} dice", MAX_CHAIN_DICE, "dice in a roll of a chain"
        )
    return text.strip().upper()


def check_names(profile: Profile, rolls: Sequence[dict[str, Any]]) -> None:
    """Refuse a value no roll of the chain is rolled against and a reroll of no roll of it: a misspelt name
    would be ignored, and the answer silently wrong (an optional save left out, a reroll never made)."""
    expressions = [roll["against"] for roll in rolls] + [
        reading["against"] for roll in rolls for reading in roll["readings"] if reading["against"]
    ]
    read = sorted({name for text in expressions for _, name in _TOKEN.findall(text) if not name.isdigit()})
    if stray := sorted(set(profile.values) - set(read)):
        raise RulesError(
            f"`{shown(stray[0], 'characters')}` is no value the chain's rolls are against"
            f" (they are against: {', '.join(read) or 'whole numbers only'})"
        )
    terms = sorted({roll["term"] for roll in rolls})
    if stray := sorted(set(profile.rerolls) - set(terms)):
        raise RulesError(f"`{shown(stray[0], 'characters')}` is no roll of the chain (its rolls: {', '.join(terms)})")


def given(roll: dict[str, Any], profile: Profile) -> bool:
    """Whether the player gave every value an optional roll is rolled against."""
    return all(name.isdigit() or name in profile.values for _, name in _TOKEN.findall(roll["against"]))


def evaluate(expression: str, values: dict[str, int]) -> int:
    """``plate + pierce`` with the player's values; a missing name is asked for in plain words."""
    total = 0
    for sign, name in _TOKEN.findall(expression):
        if name.isdigit():
            value = int(name)
        elif name in values:
            value = values[name]
        else:
            raise RulesError(f"the roll against `{expression}` needs a value for `{name}` (--value {name}=N)")
        total += -value if sign == "-" else value
    return total


def _pair(text: str, usage: str) -> tuple[str, str]:
    match = _GIVEN.fullmatch(text.strip())
    if match is None or not match.group("name").strip():
        raise RulesError(f"{usage} (not `{shown(text, 'characters')}`)")
    return match.group("name").strip(), match.group("setting").strip()


def _number(value: Any, where: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int | Unreadable):
        raise RulesError(f"{where} must be a whole number")
    return read_number(value.text if isinstance(value, Unreadable) else str(value), where)


def _text(value: Any, where: str) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | list):
        raise RulesError(f"{where} must be text or a number")
    if isinstance(value, list):
        return ",".join(str(_number(item, where)) for item in value)
    return str(value)


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if not isinstance(value, dict) or not all(isinstance(key, str) for key in value):
        raise RulesError(f"{where} must be a mapping of names")
    check_count(len(value), MAX_GIVEN_VALUES, "settings of a chain profile")
    return value
