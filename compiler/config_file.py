"""A project's configuration file: where it is, and its table, before any key is checked.

:func:`rulebook.project.load_project` starts here and checks every key. :func:`site_folder` reads one
key and nothing else: an engine question needs only where the site is, and should not pay for the
whole project's model (dataclasses, the lint's catalogue) to find its ``rules.json``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rulebook.errors import UserError
from rulebook.fileio import path_problem
from rulebook.inputs import (
    MAX_DATA_BYTES,
    InvalidToml,
    UnreadableInput,
    not_readable,
    parse_toml,
    present,
    read_input_text,
)

CONFIG_FILE = "rulebook.toml"
PYPROJECT = "pyproject.toml"
SITE = "site"
"""The output folder, in the project's root, when the configuration names none."""


class ConfigError(UserError):
    """The configuration cannot be used; the message says where and why."""


def find_config(start: Path, *, anyone: bool = False) -> Path | None:
    """The configuration file of the project around ``start``: ``rulebook.toml``, else a
    ``pyproject.toml`` with a ``[tool.rulebook]`` table, in ``start`` or the nearest parent; one another user owns
    is refused (:func:`_own`) unless ``anyone`` (``init``, which only says it is there)."""
    owned = (lambda path: path) if anyone else _own
    for folder in (start, *start.parents):
        if present(folder / CONFIG_FILE):  # whatever it is: reading it says why it cannot be the configuration
            return owned(folder / CONFIG_FILE)
        candidate = folder / PYPROJECT
        if candidate.is_file() and _configures_rulebook(_text_of(candidate), candidate):
            return owned(candidate)
    return None


def _own(path: Path) -> Path:
    """``path``, a configuration found by looking up from the working folder, if it is the caller's; else a
    :class:`ConfigError`: another user's configuration chooses the sources, the output and the site's settings
    (whose hooks run code), as Git refuses a repository found above that another user owns."""
    problem = _owner_problem(path)
    if problem is not None:
        raise ConfigError(
            f"`{path}` {problem}: its settings would be theirs to choose for you; work in a folder of your own, or "
            "name it with `--config` to use it"
        )
    return path


def _owner_problem(path: Path) -> str | None:
    """Why ``path`` is not the caller's own, or None: another user owns it (root acting for a user through ``sudo``
    may use that user's)."""
    try:
        owner = os.stat(path, follow_symlinks=False).st_uid
    except OSError:
        return None  # reading it says why
    if owner == os.geteuid() or (os.geteuid() == 0 and os.environ.get("SUDO_UID") == str(owner)):
        return None
    return "belongs to another user"


def _text_of(path: Path) -> str:
    """A ``pyproject.toml``'s text, to know whether it configures a rulebook: read as the configuration is, the
    caller's own file's faults said; another user's that cannot be read configures nothing of the caller's."""
    if _owner_problem(path) is None:
        return read_config(path)
    try:
        return read_config(path)
    except ConfigError:
        return ""


def _configures_rulebook(text: str, path: Path) -> bool:
    """Whether a ``pyproject.toml`` holds a ``tool.rulebook`` table, however TOML writes it (``[tool.rulebook]``,
    ``[ tool."rulebook" ]``, ``[tool]`` and ``rulebook = {...}``, dotted keys: all but the first were "no rulebook
    project here"), or names ``rulebook`` and is not valid TOML or has a ``tool`` that is no table (reading it then says
    what is wrong)."""
    if "rulebook" not in text:
        return False
    try:
        document = parse_toml(text, path)
    except InvalidToml:
        return True
    tool = document.get("tool", {})
    return not isinstance(tool, dict) or "rulebook" in tool  # `tool = "x"`: reading it says what is wrong


def locate_config(start: Path, config_file: Path | None = None) -> Path | None:
    """The configuration file given (``--config``), else the one found from ``start`` upwards. A file given that is
    no regular file is told as such, by the name given (``--config /dev/stdin`` resolved through the kernel's link
    into a name no file has, ``pipe:[1180956]``, and was told "no such file or directory")."""
    if config_file is None:
        return find_config(start.resolve())
    refused = not_readable(config_file, MAX_DATA_BYTES, "configuration")
    if refused is not None:
        raise ConfigError(f"cannot read the configuration `{os.path.abspath(config_file)}`: {refused}")
    return config_file.resolve()


def read_config(path: Path) -> str:
    """The configuration file's text, read as every input is (:func:`~rulebook.inputs.read_input`): a regular
    file, not larger than 64 MB, and not a link that leads out of the folder that holds it."""
    try:
        return read_input_text(path, root=path.parent, limit=MAX_DATA_BYTES, kind="configuration", committed=False)
    except UnreadableInput as error:
        raise ConfigError(f"cannot read the configuration `{path}`: {error.reason}") from error


def config_table(path: Path) -> tuple[Mapping[str, Any], str]:
    """The project's table in the configuration file (``[tool.rulebook]`` of a ``pyproject.toml``, the whole of a
    ``rulebook.toml``) and the prefix its keys are named under in messages."""
    document = parse_toml(read_config(path), path)
    if path.name == CONFIG_FILE:
        return document, ""
    tool = document.get("tool", {})
    if not isinstance(tool, dict):
        raise ConfigError(f"{path}: `tool` must be a table, not {toml_kind(tool)}")
    table = tool.get("rulebook", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: `tool.rulebook` must be a table, not {toml_kind(table)}")
    return table, "tool.rulebook"


def toml_kind(value: object) -> str:
    """A TOML value's type in words, quoting it when it is short: a message quotes no huge value."""
    if isinstance(value, bool):
        return f"`{str(value).lower()}`"
    if isinstance(value, str):
        return f'the string "{value}"' if len(value) <= 40 else "a string"
    if isinstance(value, int | float):
        shown = str(value) if isinstance(value, float) or abs(value) < 10**20 else ""
        return f"the number {shown}" if shown and len(shown) <= 24 else "a number of more than 20 digits"
    if isinstance(value, list):
        return _list_kind(value)
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def _list_kind(value: list[object]) -> str:
    """A TOML list in words, by what it holds: it said "a list with something else than strings in it" of any list,
    a list of strings where a string goes (`title = ["A"]`) and a list of tables (`[[translations]]`) too."""
    if not value:
        return "an empty list"
    kinds = {_ITEM_KINDS.get(type(item), "values") for item in value}
    return f"a list of {kinds.pop()}" if len(kinds) == 1 else "a list of values of several kinds"


_ITEM_KINDS = {str: "strings", int: "numbers", float: "numbers", bool: "booleans", dict: "tables", list: "lists"}


def site_folder(start: Path, config_file: Path | None = None) -> Path | None:
    """Where the project around ``start`` (or the one ``config_file`` configures) publishes its site: its
    ``output``, else ``site/`` in its root; the same folder as ``load_project(...).site_folder``, with only
    ``output`` read. None when ``output`` is not a string: the project's own check says what is wrong."""
    path = locate_config(start, config_file)
    if path is None:
        return start.resolve() / SITE
    table, _ = config_table(path)
    output = table.get("output")
    root = path.parent.resolve()
    if output is not None and (not isinstance(output, str) or path_problem(output) or leaves_root(root, output)):
        return None
    return output_folder(root, output) or root / SITE


def leaves_root(root: Path, output: str) -> bool:
    """Whether a configured ``output``, as written, leads out of the project ``root`` (``../www``, ``/srv/www``): a
    committed configuration's output is a folder of the project (``build -o`` builds anywhere else)."""
    return not Path(os.path.normpath(os.path.abspath(root / output))).is_relative_to(os.path.abspath(root))


def output_folder(root: Path, output: str | None) -> Path | None:
    """The configured ``output`` against the project's root (None: not configured); links on the way are the
    output check's to see, so the path is made absolute, not resolved."""
    return Path(os.path.abspath(root / output)) if output else None
