"""Reading an army list (YAML or JSON, :mod:`rulebook.engine.documents`): every entry checked for shape and limits
where the file enters.

Numbers are refused, naming the file and the entry, when they are NaN or infinite (YAML ``.nan``,
JSON ``NaN``), booleans, absurdly long (never read whole), or past :data:`~rulebook.engine.limits.MAX_POINTS`.
"""

from __future__ import annotations

import math
import re
from pathlib import Path
from typing import Any

from rulebook.engine.documents import Unreadable, read_document
from rulebook.engine.errors import RulesError
from rulebook.engine.limits import MAX_ARMY_BYTES, MAX_ENTRIES, MAX_ITEMS, MAX_POINTS, over, shown

_PRICE = re.compile(r"^\s*\d+(\.\d+)?(\s*/\s*\d+(\.\d+)?)*\s*$", re.ASCII)


def read_army(path: Path) -> dict[str, Any]:
    """An army list from YAML or JSON, checked for shape and limits (not yet for the rules)."""
    return _checked(read_document(path, MAX_ARMY_BYTES, "an army list"), path)


def _checked(data: Any, path: Path) -> dict[str, Any]:
    if not isinstance(data, dict) or "points_limit" not in data:
        raise RulesError(f"{path}: an army list needs a whole-number `points_limit`")
    limit = data["points_limit"]
    _points(limit, f"{path}: `points_limit`", lowest=1)
    if not isinstance(limit, int):
        raise RulesError(f"{path}: `points_limit` must be a whole number, not {limit}")
    entries = data.get("entries")
    if not isinstance(entries, list) or not all(isinstance(e, dict) for e in entries[: MAX_ENTRIES + 1]):
        raise RulesError(f"{path}: `entries` must be a list of the army's entries")
    if len(entries) > MAX_ENTRIES:
        raise over(f"{path}: {len(entries)} entries", MAX_ENTRIES, "entries in an army list")
    for index, entry in enumerate(entries, 1):
        _check_entry(entry, f"{path}: entry {index}")
    return data


_OPTIONAL = (("id", (str, int)), ("choice", (str, int)), ("type", (str,)), ("leader", (bool,)))
"""An entry's optional keys and the kinds of value each takes."""


def _check_entry(entry: dict[str, Any], where: str) -> None:
    for key, kind in (("name", str), ("category", str)):
        if not isinstance(entry.get(key), kind):
            raise RulesError(f"{where} needs `{key}` ({kind.__name__})")
    where = f"{where} (`{shown(entry['name'])}`)"
    _points(entry.get("points"), f"{where}: `points`")
    for key, kinds in _OPTIONAL:
        if key in entry and not isinstance(entry[key], kinds):
            raise RulesError(f"{where}: `{key}` must be {' or '.join(_KIND_NAMES[k] for k in kinds)}")
    for key in ("upgrades", "marks"):
        items = entry.get(key, [])
        if not isinstance(items, list):
            raise RulesError(f"{where}: `{key}` must be a list")
        if len(items) > MAX_ITEMS:
            raise over(f"{where}: {len(items)} {key}", MAX_ITEMS, f"{key} of an entry")
    if not all(isinstance(mark, str) for mark in entry.get("marks", [])):
        raise RulesError(f"{where}: `marks` must be a list of names")
    for number, upgrade in enumerate(entry.get("upgrades", []), 1):
        _check_upgrade(upgrade, f"{where}: upgrade {number}")


def _check_upgrade(upgrade: Any, where: str) -> None:
    price = upgrade.get("points") if isinstance(upgrade, dict) else None
    if not isinstance(price, str):
        _points(price, f'{where}: `points` (a number, or "50/40")')
        return
    if not _PRICE.match(price):
        raise RulesError(f'{where}: `points` is the text `{shown(price)}`, not a price such as 50 or "50/40"')
    for part in price.split("/"):
        _points(float(part), f"{where}: `points`")


def _points(value: Any, where: str, lowest: int = 0) -> None:
    """A number of points: a finite number, not a boolean, within the limit."""
    if isinstance(value, bool) or not isinstance(value, int | float | Unreadable):
        raise RulesError(f"{where} must be a number, not {_kind(value)}")
    if isinstance(value, Unreadable) and value.text.strip("+-").isdigit():
        raise over(f"{where} is {shown(value.text)}", MAX_POINTS, "points")
    if isinstance(value, Unreadable) or not math.isfinite(value):
        text = value.text if isinstance(value, Unreadable) else str(value)
        raise RulesError(f"{where} is {text}, not a number of points")
    if value > MAX_POINTS:
        raise over(f"{where} is {shown(str(value))}", MAX_POINTS, "points")
    if value < lowest:
        raise RulesError(f"{where} is {value}; it must be at least {lowest}")


_KIND_NAMES = {str: "text", int: "a whole number", bool: "true or false"}


def _kind(value: Any) -> str:
    """What a value is, in a message's words."""
    if value is None:
        return "missing"
    if isinstance(value, Unreadable):
        return value.text
    if isinstance(value, bool):
        return str(value).lower()
    if isinstance(value, str):
        return f"the text `{shown(value)}`"
    if isinstance(value, list | dict):
        return "a list" if isinstance(value, list) else "a mapping"
    return type(value).__name__
