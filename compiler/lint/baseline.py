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

from rulebook.catalog import find_rule
from rulebook.diagnostics import Diagnostic, Severity
from rulebook.dtd_findings import UNCHECKED
from rulebook.engine.limits import LongNumber, load_json
from rulebook.errors import NOT_UTF8, UserError, quoted
from rulebook.inputs import MAX_DATA_BYTES, UnreadableInput, read_input

FORMAT_VERSION = 2
Key = tuple[str, str, str, str]
"""(source path, rule name, target, section id)."""
MAX_BYTES = MAX_DATA_BYTES


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
    counts = Counter(key(d) for d in diagnostics if not _never_baselined(d))
    entries = [
        {"source": source, "rule": rule, "target": target, "section": section, "count": count}
        for (source, rule, target, section), count in sorted(counts.items())
    ]
    text = json.dumps({"version": FORMAT_VERSION, "entries": entries}, indent=2, ensure_ascii=False) + "\n"
    # a byte of a file's name that is not UTF-8 escaped (``\\udcff``, read back as it was): the file stays UTF-8 text
    text = NOT_UTF8.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    if len(text.encode("utf-8", "surrogateescape")) > MAX_BYTES:  # written, it was then refused by every lint
        raise BaselineError(
            f"the baseline would hold {len(entries):,} entries, more than the {MAX_BYTES // (1024 * 1024)} MB a "
            "baseline may be: fix the most frequent findings first (`rulebook lint --statistics`)"
        )
    return text


def load(path: Path, *, root: Path | None = None) -> Counter[Key]:
    """A baseline file's entries; a file that is not a baseline is a :class:`BaselineError` saying why.

    Read through :func:`~rulebook.inputs.read_input` (``root``: the project, when the baseline is one of its files).
    """
    try:
        data = read_input(path, root=root, limit=MAX_BYTES, kind="baseline")
    except UnreadableInput as error:
        raise BaselineError(f"cannot read the baseline `{path}`: {error.reason}") from error
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise BaselineError(f"`{path}` is not a rulebook lint baseline: it is not UTF-8 text") from None
    return parse(text, str(path))


def is_baseline(path: Path) -> bool:
    """Whether the file at ``path`` is a lint baseline (so ``--write-baseline`` may replace it)."""
    try:
        load(path)
    except BaselineError:
        return False
    return True


def parse(text: str, origin: str) -> Counter[Key]:
    """The entries of a baseline's text. A BOM (Notepad writes one) is read past, as a source's is, and as RFC 8259
    lets a JSON parser do: the message quoted Python's codec ("decode using utf-8-sig")."""
    try:
        data = load_json(text.removeprefix("\ufeff"))
    except LongNumber as error:
        raise BaselineError(f"`{origin}` is not a rulebook lint baseline: {error}") from None
    except RecursionError:
        raise BaselineError(f"`{origin}` is not a rulebook lint baseline: its JSON nests too deeply") from None
    except ValueError as error:
        raise BaselineError(f"`{origin}` is not a rulebook lint baseline: it is not JSON ({error})") from error
    if not isinstance(data, dict) or not isinstance(data.get("entries"), list):
        raise BaselineError(f"`{origin}` is not a rulebook lint baseline: it has no `entries` list")
    version = data.get("version")
    if isinstance(version, bool) or version not in (1, FORMAT_VERSION):
        raise BaselineError(
            f"the baseline `{origin}` has version {_shown(version)}; "
            f"this rulebook reads versions 1 and {FORMAT_VERSION}"
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
    rule = find_rule(entry["rule"])
    if rule is None:  # it matched nothing, and was said to be a problem that "no longer occurs"
        raise BaselineError(
            f"{where}: {quoted(entry['rule'])} is no rule of the lint (`rulebook explain` lists them; "
            "`rulebook lint --write-baseline FILE` writes a baseline)"
        )
    # Version 1 named no source: its entries apply to whichever source is linted (""). A rule's code is its name.
    return (entry.get("source", ""), rule.name, entry["target"], entry["section"])


def _count(entry: dict[str, object], where: str) -> int:
    count = entry.get("count")
    if isinstance(count, bool) or not isinstance(count, int) or not 0 < count < 10**9:
        raise BaselineError(f"{where}: `count` must be a whole number from 1 to 999,999,999, not {_shown(count)}")
    return count


def _shown(value: object) -> str:
    """A JSON value as a message quotes it: a number or a short string as written, anything else by its kind
    (a baseline can hold a list of a million items where a number should be)."""
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int | float) and len(str(value)) <= 20:
        return str(value)
    if isinstance(value, str) and len(value) <= 40:
        return json.dumps(value, ensure_ascii=False)
    kinds = {dict: "an object", list: "a list", str: "a long string", int: "a huge number", float: "a number"}
    return kinds.get(type(value), "a value")


def _never_baselined(diagnostic: Diagnostic) -> bool:
    """A finding after which nothing of its file was read (fatal), or nothing of its structure checked (more than
    1,000 elements the format does not know): a baseline of it hid every error after it."""
    return diagnostic.severity is Severity.FATAL or diagnostic.message.endswith(UNCHECKED)


def apply(diagnostics: Iterable[Diagnostic], baseline: Counter[Key]) -> BaselineResult:
    """Drop the diagnostics the baseline covers, earliest first within each key; never a file that could not be read
    (a fatal finding): a baseline of RB001 passed a book whose build stopped, and nothing after it was ever read."""
    remaining = Counter(baseline)
    new: list[Diagnostic] = []
    total = 0
    for diagnostic in diagnostics:
        total += 1
        if _never_baselined(diagnostic):
            new.append(diagnostic)
            continue
        k = key(diagnostic)
        anywhere = ("", *k[1:])
        if remaining[k] > 0:
            remaining[k] -= 1
        elif remaining[anywhere] > 0:
            remaining[anywhere] -= 1
        else:
            new.append(diagnostic)
    return BaselineResult(tuple(new), total - len(new), sum(remaining.values()))
