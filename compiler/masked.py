"""Values a configuration takes from the environment, kept out of every message.

``mkdocs.yml`` may take a value from the environment (``!ENV SECRET``): a CI's token, given to a setting. A message
that quoted the setting's value (an icon or a language the theme lacks, a value of the wrong type) wrote the secret
into the build's log, lower-cased past a CI's masking of secrets. Each such value is remembered as the file is read
(:func:`remember_environment_values`) and written ``***`` in any message made from what the generator says
(:func:`masked`), in any letter case.
"""

from __future__ import annotations

import os
import re

_ENV_TAG = re.compile(r"!ENV\s+(\[[^\]\n]*\]|[^\s#]+)")
"""A YAML ``!ENV`` tag and what it names: one variable, or a list of variables and a default."""
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
SHORTEST = 3
"""Values shorter than this are not masked (``1``, ``on``: masking them would blot out every message)."""
_VALUES: set[str] = set()


def remember_environment_values(text: str) -> None:
    """Remember the values of the environment's variables that the settings ``text`` takes with ``!ENV``."""
    for found in _ENV_TAG.finditer(text):
        for name in _NAME.findall(found[1]):
            value = os.environ.get(name)
            if value is not None and len(value) >= SHORTEST:
                _VALUES.add(value)


def masked(message: str) -> str:
    """``message`` with every value remembered written ``***``, in any letter case."""
    for value in sorted(_VALUES, key=len, reverse=True):
        message = re.sub(re.escape(value), "***", message, flags=re.IGNORECASE)
    return message
