"""The engine's errors: each says in plain words why a question cannot be answered (exit 2)."""

from __future__ import annotations


class RulesError(Exception):
    """The rule data or the question cannot be used; the message says why."""


class LimitError(RulesError):
    """A question or a file goes past one of the engine's stated limits (docs/engine.md, "Limits")."""
