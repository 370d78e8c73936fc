"""Lint baselines: record today's problems, then fail only on new ones.

Entries match by source file, rule, target and enclosing section id, never by line, so
edits elsewhere in the book do not invalidate the baseline. Each key keeps a count: a
fourth dangling ``spell`` in a section that had three is new. A baseline belongs to the
sources it was written for: an entry applies only to the file it names.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from compiler.diagnostics import Diagnostic
from compiler.errors import UserError

FORMAT_VERSION = 2
Key = tuple[str, str, str, str]
"""(source path, rule name, target, section id)."""
MAX_BYTES = 64 * 1024 * 1024


class BaselineError(UserError):
    """The baseline file cannot be used; the message says why."""


@dataclass(frozen=True, slots=True)
class BaselineResult:
    """Diagnostics not covered by the baseline, and what the baseline covered."""

    new: tuple[Diagnostic, ...]
    known: int
    """How many diagnostics the baseline covered (and so are not shown)."""
    stale: int
    """Baseline entries that no longer occur: the problems were fixed."""


def key(diagnostic: Diagnostic) -> Key:
    return (diagnostic.span.path, diagnostic.rule, diagnostic.target or "", diagnostic.section_id or "")


def serialise(diagnostics: Iterable[Diagnostic]) -> str:
    """The baseline file for some diagnostics: sorted, stable, one entry per key."""
    counts = Counter(key(d) for d in diagnostics)
    entries = [
        {"source": source, "rule": rule, "target": target, "section": section, "count": count}
        for (source, rule, target, section), count in sorted(counts.items())
    ]
    return json.dumps({"version": FORMAT_VERSION, "entries": entries}, indent=2, ensure_ascii=False) + "\n"


def load(path: Path) -> Counter[Key]:
    """A baseline file's entries; a file that is not a baseline is a :class:`BaselineError` saying why."""
    if path.is_dir():
        raise BaselineError(f"the baseline `{path}` is a folder, not a file")
    try:
        data = path.read_bytes()
    except OSError as error:
        raise BaselineError(f"cannot read the baseline `{path}`: {(error.strerror or str(error)).lower()}") from error
    if len(data) > MAX_BYTES:
        raise BaselineError(f"`{path}` is not a rulebook lint baseline: it is larger than {MAX_BYTES // 2**20} MB")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BaselineError(f"`{path}` is not a rulebook lint baseline: it is not UTF-8 text") from None
    return parse(text, str(path))


def parse(text: str, origin: str) -> Counter[Key]:
    try:
        data = json.loads(text)
    except ValueError as error:
        raise BaselineError(f"`{origin}` is not a rulebook lint baseline: it is not JSON ({error})") from error
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise BaselineError(f"`{origin}` is not a rulebook lint baseline: it has no `entries` list")
    version = data.get("version")
    if version not in (1, FORMAT_VERSION):
        raise BaselineError(
            f"the baseline `{origin}` has version {version!r}; this rulebook reads versions 1 and {FORMAT_VERSION}"
        )
    found: Counter[Key] = Counter()
    for index, entry in enumerate(data["entries"], 1):
        where = f"`{origin}`, entry {index}"
        found[_entry(entry, version, where)] += _count(entry, where)
    return found


def _entry(entry: object, version: int, where: str) -> Key:
    fields = ("rule", "target", "section") if version == 1 else ("source", "rule", "target", "section")
    if not isinstance(entry, dict) or not all(isinstance(entry.get(f), str) for f in fields):
        raise BaselineError(f"{where}: an entry needs {', '.join(f'`{f}`' for f in fields)} as strings")
    # Version 1 named no source: its entries apply to whichever source is linted ("").
    return (entry.get("source", ""), entry["rule"], entry["target"], entry["section"])


def _count(entry: dict[str, object], where: str) -> int:
    count = entry.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 < count < 10**9:
        raise BaselineError(f"{where}: `count` must be a whole number from 1, not {count!r}")
    return count


def apply(diagnostics: Iterable[Diagnostic], baseline: Counter[Key]) -> BaselineResult:
    """Drop the diagnostics the baseline covers, earliest first within each key."""
    remaining = Counter(baseline)
    new: list[Diagnostic] = []
    total = 0
    for diagnostic in diagnostics:
        total += 1
        k = key(diagnostic)
        anywhere = ("", *k[1:])
        if remaining[k] > 0:
            remaining[k] -= 1
        elif remaining[anywhere] > 0:
            remaining[anywhere] -= 1
        else:
            new.append(diagnostic)
    return BaselineResult(tuple(new), total - len(new), sum(remaining.values()))
