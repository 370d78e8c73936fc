"""The stages' cache: a stage whose inputs did not change is not run again.

Stages that read files are cached by the content of what they read (:func:`digest`): ``serve`` keeps one
cache for the whole session, which is what lets an edit skip what it did not touch; a build without one
runs every stage once.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from rulebook.inputs import UnreadableInput, read_input

T = TypeVar("T")


class StageCache:
    """Stage results by the content of their inputs: a stage whose inputs did not change is not run again.

    ``limit``: how many results of each stage to keep, the least recently used dropped first (``serve``
    keeps a few, not one per edit); ``None``: all of them; 0: none (:data:`NO_CACHE`).
    """

    def __init__(self, limit: int | None = None) -> None:
        self._results: dict[tuple[str, str], Any] = {}
        self._limit = limit

    def get(self, stage: str, key: str, compute: Callable[[], T]) -> T:
        if (stage, key) in self._results:
            if self._limit is not None:
                self._results[(stage, key)] = self._results.pop((stage, key))  # the most recently used, last
            return self._results[(stage, key)]  # type: ignore[no-any-return]
        result = compute()
        self._results[(stage, key)] = result
        self._drop_oldest(stage)
        return result

    def _drop_oldest(self, stage: str) -> None:
        if self._limit is None:
            return
        kept = [k for k in self._results if k[0] == stage]
        for old in kept[: max(0, len(kept) - self._limit)]:
            del self._results[old]


NO_CACHE = StageCache(limit=0)
"""No cache: every stage runs, and nothing is kept (a stage given it need not make a key)."""


def digest(*parts: str | bytes | Path) -> str:
    """A content key: the files' bytes (a missing file counts as absent) and the other parts as given."""
    import hashlib  # imported when a cache is used: the lint has none

    hasher = hashlib.sha256()
    for part in parts:
        if isinstance(part, Path):
            try:
                hasher.update(read_input(part))
            except UnreadableInput as error:
                hasher.update(f"\0{error.reason}\0".encode())
        else:
            hasher.update(part.encode("utf-8") if isinstance(part, str) else part)
        hasher.update(b"\0")
    return hasher.hexdigest()
