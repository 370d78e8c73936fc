"""A project's configuration file: where it is, and its table, before any key is checked.

:func:`compiler.project.load_project` starts here and checks every key. :func:`site_folder` reads one
key and nothing else: an engine question needs only where the site is, and should not pay for the
whole project's model (dataclasses, the lint's catalogue) to find its ``rules.json``.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from compiler.errors import UserError

CONFIG_FILE = "rulebook.toml"
PYPROJECT = "pyproject.toml"
SITE = "site"
"""The output folder, in the project's root, when the configuration names none."""


class ConfigError(UserError):
    """The configuration cannot be used; the message says where and why."""


def find_config(start: Path) -> Path | None:
    """The configuration file of the project around ``start``: ``rulebook.toml``, else a
    ``pyproject.toml`` with a ``[tool.rulebook]`` table, in ``start`` or the nearest parent."""
    for folder in (start, *start.parents):
        if (folder / CONFIG_FILE).is_file():
            return folder / CONFIG_FILE
        candidate = folder / PYPROJECT
        if candidate.is_file() and "[tool.rulebook" in read_config(candidate):
            return candidate
    return None


def locate_config(start: Path, config_file: Path | None = None) -> Path | None:
    """The configuration file given (``--config``), else the one found from ``start`` upwards."""
    return config_file.resolve() if config_file is not None else find_config(start.resolve())


def read_config(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        raise ConfigError(f"cannot read {path}: {reason}") from error


def config_table(path: Path) -> tuple[Mapping[str, Any], str]:
    """The project's table in the configuration file (``[tool.rulebook]`` of a ``pyproject.toml``, the whole of a
    ``rulebook.toml``) and the prefix its keys are named under in messages."""
    import tomllib  # only with a configuration file

    try:
        document = tomllib.loads(read_config(path))
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path}: not valid TOML: {error}") from error
    if path.name != CONFIG_FILE and "tool" in document:
        return document["tool"].get("rulebook", {}), "tool.rulebook"
    return document, ""


def site_folder(start: Path, config_file: Path | None = None) -> Path | None:
    """Where the project around ``start`` (or the one ``config_file`` configures) publishes its site: its
    ``output``, else ``site/`` in its root; the same folder as ``load_project(...).site_folder``, with only
    ``output`` read. None when ``output`` is not a string: the project's own check says what is wrong."""
    path = locate_config(start, config_file)
    if path is None:
        return start.resolve() / SITE
    table, _ = config_table(path)
    output = table.get("output")
    if output is not None and not isinstance(output, str):
        return None
    root = path.parent.resolve()
    return output_folder(root, output) or root / SITE


def output_folder(root: Path, output: str | None) -> Path | None:
    """The configured ``output`` against the project's root (None: not configured); links on the way are the
    output check's to see, so the path is made absolute, not resolved."""
    return Path(os.path.abspath(root / output)) if output else None
