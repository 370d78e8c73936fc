"""Reading a YAML or JSON file a player writes (an army list, a chain profile): safely, within limits.

A ``.json`` file is read by :mod:`json`, anything else as YAML by libyaml's parser (the one
``yaml.CSafeLoader`` uses; PyYAML's own where libyaml is missing) with PyYAML's safe constructor.
Two things differ from ``CSafeLoader``, both measured on hostile files: nodes are composed in
Python with the nesting capped at :data:`MAX_DEPTH` (libyaml's composer crashes the interpreter
on 50,000 nested ``[`` and its scanner takes 50 s on 100,000), and merge keys (``<<``) are refused
(21 nested merges in 744 bytes took 8.6 s: each level doubles the keys), as is a key given twice in a mapping (the
first was lost without a word: ``points_limit`` twice). A number too long to be
read whole, NaN or infinite is kept as :class:`Unreadable`, for the caller to refuse naming the entry.
"""

from __future__ import annotations

import json
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
from rulebook.engine.limits import shown

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
"""Nesting of a player's file (an upgrade of an entry of an army list is 5 deep)."""
_LONGEST_NUMBER = 20
"""Digits past which a number is not read whole: no army needs them, and reading them can be slow."""


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A number the file writes that is not one an army list can have: NaN, infinity, 5,000 digits."""

    text: str


def read_document(path: Path, limit: int, what: str) -> Any:
    """The data of a YAML or JSON file of at most ``limit`` bytes; ``what`` it is (``an army list``) names it in
    messages."""
    raw = read_file(path, limit, what)
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as error:
        raise RulesError(f"{path} is not UTF-8 text (byte {error.start}): {what} is YAML or JSON") from None
    return _parse_json(text, path, what) if path.suffix.lower() == ".json" else _parse_yaml(text, path, what)


def _parse_json(text: str, path: Path, what: str) -> Any:
    try:
        return json.loads(text, parse_constant=Unreadable, parse_int=_whole, object_pairs_hook=_once_each)
    except _GivenTwice as twice:
        raise RulesError(f"{path} cannot be read as {what}: `{shown(twice.key)}` is given twice in an object") from None
    except ValueError as error:
        raise RulesError(f"{path} is not JSON: {error}") from None
    except RecursionError:
        raise RulesError(f"{path} nests deeper than {what} can") from None


def _parse_yaml(text: str, path: Path, what: str) -> Any:
    try:
        loader = _Loader(text)
        try:
            return loader.get_single_data()
        finally:
            loader.dispose()
    except _TooDeep:
        raise _too_deep(path, what) from None
    except yaml.MarkedYAMLError as error:
        if "maximum nesting depth" in (error.problem or ""):  # libyaml's own cap (PyYAML 6.0.4 on), met first
            raise _too_deep(path, what) from None  # by its scanner, which reads ahead of the composer that counts
        mark = error.problem_mark
        where = f" (line {mark.line + 1}, column {mark.column + 1})" if mark else ""
        fault = f"cannot be read as {what}" if isinstance(error, ConstructorError) else "is not YAML or JSON"
        raise RulesError(f"{path} {fault}: {error.problem or error.context}{where}") from None
    except yaml.YAMLError as error:
        raise RulesError(f"{path} is not YAML or JSON: {error}") from None
    except ValueError as error:  # what the safe constructor cannot make: a date no calendar has (``2001-02-30``)
        raise RulesError(f"{path} cannot be read as {what}: {error}") from None
    except (AttributeError, KeyError, IndexError, TypeError):  # a tagged value it cannot make (`!!timestamp "x"`)
        raise RulesError(f"{path} cannot be read as {what}: a tagged value (`!!...`) YAML cannot make") from None


class _GivenTwice(Exception):
    def __init__(self, key: str) -> None:
        self.key = key


def _once_each(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object whose keys are each given once (the first of two was lost without a word)."""
    made: dict[str, Any] = {}
    for key, value in pairs:
        if key in made:
            raise _GivenTwice(key)
        made[key] = value
    return made


def _too_deep(path: Path, what: str) -> RulesError:
    return RulesError(f"{path} nests more than {MAX_DEPTH} deep, more than {what} does")


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
        seen: set[str] = set()
        for key, _ in node.value:
            if key.tag == "tag:yaml.org,2002:merge":
                raise ConstructorError(None, None, "merge keys (<<) are not read", key.start_mark)
            if isinstance(key, ScalarNode) and key.value in seen:  # the first was lost: `points_limit` twice
                raise ConstructorError(None, None, f"`{shown(key.value)}` is given twice", key.start_mark)
            if isinstance(key, ScalarNode):
                seen.add(key.value)

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
