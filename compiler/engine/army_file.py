"""Reading an army list (YAML or JSON): every entry checked for shape and limits where the file enters.

A ``.json`` file is read by :mod:`json`, anything else as YAML by libyaml's parser (the one
``yaml.CSafeLoader`` uses; PyYAML's own where libyaml is missing) with PyYAML's safe constructor.
Two things differ from ``CSafeLoader``, both measured on hostile files: nodes are composed in
Python with the nesting capped at :data:`MAX_DEPTH` (libyaml's composer crashes the interpreter
on 50,000 nested ``[`` and its scanner takes 50 s on 100,000), and merge keys (``<<``) are refused
(21 nested merges in 744 bytes took 8.6 s: each level doubles the keys).

Numbers are refused, naming the file and the entry, when they are NaN or infinite (YAML ``.nan``,
JSON ``NaN``), booleans, absurdly long (never read whole), or past :data:`~rulebook.engine.limits.MAX_POINTS`.
"""

from __future__ import annotations

import json
import math
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml
from yaml.composer import Composer
from yaml.constructor import ConstructorError, SafeConstructor
from yaml.nodes import MappingNode, Node, ScalarNode
from yaml.resolver import Resolver

from rulebook.engine.errors import RulesError
from rulebook.engine.files import read_file
from rulebook.engine.limits import MAX_ARMY_BYTES, MAX_ITEMS, MAX_POINTS, MAX_UNITS, over, shown

try:
    from yaml._yaml import CParser as _Parser
except ImportError:  # PyYAML built without libyaml
    from yaml.parser import Parser as _PyParser
    from yaml.reader import Reader
    from yaml.scanner import Scanner

    class _Parser(Reader, Scanner, _PyParser):  # type: ignore[no-redef]
        def __init__(self, stream: str) -> None:
            Reader.__init__(self, stream)
            Scanner.__init__(self)
            _PyParser.__init__(self)


MAX_DEPTH = 20
"""Nesting of an army list (an upgrade of a unit of the list is 5 deep)."""
_LONGEST_NUMBER = 20
"""Digits past which a number is not read whole: no army needs them, and reading them can be slow."""
_PRICE = re.compile(r"^\s*\d+(\.\d+)?(\s*/\s*\d+(\.\d+)?)*\s*$")


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A number the file writes that is not one an army list can have: NaN, infinity, 5,000 digits."""

    text: str


def read_army(path: Path) -> dict[str, Any]:
    """An army list from YAML or JSON, checked for shape and limits (not yet for the rules)."""
    text = _read_text(path)
    data = _parse_json(text, path) if path.suffix.lower() == ".json" else _parse_yaml(text, path)
    return _checked(data, path)


def _read_text(path: Path) -> str:
    raw = read_file(path, MAX_ARMY_BYTES, "an army list")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesError(f"{path} is not UTF-8 text (byte {error.start}): an army list is YAML or JSON") from None


def _parse_json(text: str, path: Path) -> Any:
    try:
        return json.loads(text, parse_constant=Unreadable, parse_int=_whole)
    except ValueError as error:
        raise RulesError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise RulesError(f"{path} nests deeper than an army list can") from None


def _parse_yaml(text: str, path: Path) -> Any:
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except _TooDeep:
        raise _too_deep(path) from None
    except yaml.MarkedYAMLError as error:
        if "maximum nesting depth" in (error.problem or ""):  # libyaml's own cap (PyYAML 6.0.4 on), met first
            raise _too_deep(path) from None  # by its scanner, which reads ahead of the composer that counts
        mark = error.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        what = "cannot be read as an army list" if isinstance(error, ConstructorError) else "is not YAML or JSON"
        raise RulesError(f"{path} {what}: {error.problem or error.context}{where}") from None
    except yaml.YAMLError as error:
        raise RulesError(f"{path} is not YAML or JSON: {error}") from None


def _too_deep(path: Path) -> RulesError:
    return RulesError(f"{path} nests more than {MAX_DEPTH} deep; an army list is a list of units")


def _whole(digits: str) -> int | Unreadable:
    return int(digits) if len(digits.lstrip("+-")) <= _LONGEST_NUMBER else Unreadable(digits)


class _TooDeep(yaml.YAMLError):
    pass


class _Composer(Composer):
    """PyYAML's composer, counting how deep it is."""

    _depth = 0

    def compose_node(self, parent: Node | None, index: Any) -> Node | None:
        self._depth += 1
        try:
            if self._depth > MAX_DEPTH:
                raise _TooDeep
            return super().compose_node(parent, index)
        finally:
            self._depth -= 1


class _Constructor(SafeConstructor):
    """PyYAML's safe constructor without merge keys, and with long numbers left unread."""

    def flatten_mapping(self, node: MappingNode) -> None:
        for key, _ in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                raise ConstructorError(None, None, "merge keys (<<) are not read in an army list", key.start_mark)

    def construct_yaml_int(self, node: ScalarNode) -> int | Unreadable:  # type: ignore[override]
        text = str(self.construct_scalar(node))
        if len(text.replace("_", "").lstrip("+-")) > _LONGEST_NUMBER:
            return Unreadable(text)
        return int(super().construct_yaml_int(node))


_Constructor.yaml_constructors = {
    **SafeConstructor.yaml_constructors,
    "tag:yaml.org,2002:int": _Constructor.construct_yaml_int,
}


class _Loader(_Composer, _Parser, _Constructor, Resolver):
    """libyaml's parser (when built in), the depth-counting composer, the safe constructor."""

    def __init__(self, stream: str) -> None:
        _Parser.__init__(self, stream)
        _Composer.__init__(self)
        _Constructor.__init__(self)
        Resolver.__init__(self)


def _checked(data: Any, path: Path) -> dict[str, Any]:
    if not isinstance(data, dict) or "points_limit" not in data:
        raise RulesError(f"{path}: an army list needs a whole-number `points_limit`")
    limit = data["points_limit"]
    _points(limit, f"{path}: `points_limit`", lowest=1)
    if not isinstance(limit, int):
        raise RulesError(f"{path}: `points_limit` must be a whole number, not {limit}")
    units = data.get("units")
    if not isinstance(units, list) or not all(isinstance(u, dict) for u in units[: MAX_UNITS + 1]):
        raise RulesError(f"{path}: `units` must be a list of units")
    if len(units) > MAX_UNITS:
        raise over(f"{path}: {len(units)} units", MAX_UNITS, "units in an army list")
    for index, unit in enumerate(units, 1):
        _check_unit(unit, f"{path}: unit {index}")
    return data


def _check_unit(unit: dict[str, Any], where: str) -> None:
    for key, kind in (("name", str), ("category", str)):
        if not isinstance(unit.get(key), kind):
            raise RulesError(f"{where} needs `{key}` ({kind.__name__})")
    where = f"{where} (`{shown(unit['name'])}`)"
    _points(unit.get("points"), f"{where}: `points`")
    for key, kinds in (("unit", (str, int)), ("choice", (str, int)), ("troop_type", (str,)), ("general", (bool,))):
        if key in unit and not isinstance(unit[key], kinds):
            raise RulesError(f"{where}: `{key}` must be {' or '.join(_KIND_NAMES[k] for k in kinds)}")
    for key in ("upgrades", "marks"):
        items = unit.get(key, [])
        if not isinstance(items, list):
            raise RulesError(f"{where}: `{key}` must be a list")
        if len(items) > MAX_ITEMS:
            raise over(f"{where}: {len(items)} {key}", MAX_ITEMS, f"{key} of a unit")
    if not all(isinstance(mark, str) for mark in unit.get("marks", [])):
        raise RulesError(f"{where}: `marks` must be a list of names")
    for number, upgrade in enumerate(unit.get("upgrades", []), 1):
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
