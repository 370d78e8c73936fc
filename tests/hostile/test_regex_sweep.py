"""Every regular expression the package compiles at module level reads long runs in linear time.

A pattern that can split a run between two of its parts (``\\s*,?\\s*``), or that is tried again from each character
of a run it then fails on (``findall`` of ``([^{}]*)\\{``), takes the square or the cube of the run: issue 32's probe
held the SVG sanitiser 25 s to 5 minutes with 2 KB to 80 KB of one character. This sweep imports every module of
``rulebook``, takes each ``re.Pattern`` it holds at module level (an attribute, or in a table or an object one holds:
277 distinct), and reads with it runs of 2,000 and 8,000 of each character of :data:`RUN_CHARACTERS`, after nothing,
a digit, a letter or one of the pattern's own literal words (``linecap``, ``url(``), followed by a character that
fails most patterns, in each way the package reads with it (``search``, ``match``, ``fullmatch``; ``findall`` for
every reading tried from each place). Four times the run may take loosely more than four times as long
(:data:`GROWTH`), never the square of it; shorter runs are tried first, so a cubic pattern is told before it hangs.

Run as ``python -m tests.hostile.test_regex_sweep`` it prints each family that grew faster, slowest first.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from re import _parser  # type: ignore[attr-defined]
from typing import Any

import rulebook

RUN_CHARACTERS = " ,a0.-*[<{\\'"
"""The characters of the runs: separators, letters, digits and the signs patterns open or escape with."""
GENERIC_PREFIXES = ("", "0", "a")
"""What a run follows besides the pattern's own words."""
TAIL = "\x00"
"""What ends a run: a character almost no pattern takes, so that a pattern reading the run then fails."""
LADDER = (16, 64, 256, 1_000)
"""The short runs tried first, each four times the last: a pattern growing with the cube shows it here in
milliseconds (the cap pattern of the probe: 1.3 ms at 64, 80 ms at 256), before a run of 2,000 would hold it minutes."""
SIZES = (2_000, 8_000)
"""The runs the promise is about."""
GROWTH = 8.0
"""How much longer four times the run may take: 4 for a linear reading, 16 for the square; loose, as the machine is
shared."""
FLOOR = 0.02
"""Seconds of noise allowed on top at 8,000, less in proportion for shorter runs (a square of 8,000 costs the regular
expression engine a tenth of a second and more)."""
_WELL_FORMED = (
    "reads an XML source libxml2 parsed (or up to the first tag past the depth limit, where it stops): there a `<` "
    "stands only in markup, a comment, a CDATA section or an instruction, each read whole"
)
_UP_TO_THE_LAST = "its caller reads the text only up to the last `>` (or `-->`): past it, no `<` is tried"
EXEMPT: dict[str, str] = {
    "rulebook.languages.detect._MARKUP": _UP_TO_THE_LAST + " (`detect.without_markup`)",
    "rulebook.locate._REFERENCE": _WELL_FORMED,
    "rulebook.locate._TAG": _WELL_FORMED,
    "rulebook.markdown_source._TAGS": _UP_TO_THE_LAST + " (`markdown_source._removed`)",
    "rulebook.translate.segments._MARKUP": _UP_TO_THE_LAST + " (`segments.blank_markup`)",
    "rulebook.translate.segments._TAGS_AND_ENTITIES": _UP_TO_THE_LAST + " (`segments.blank_markup`)",
}
"""Patterns allowed to grow faster than linearly on a run of ``<``, each with the reason no input reaches them so."""


@dataclass(frozen=True, slots=True)
class Family:
    """Runs of one character after one prefix, read by one pattern."""

    name: str
    """The pattern's module and attribute (``rulebook.svg_dashes._CAPPED``)."""
    pattern: re.Pattern[str] | re.Pattern[bytes]
    readings: frozenset[str]
    """How the package reads with it: ``search``, ``match``, ``fullmatch``, ``findall`` (for every reading tried from
    each place: ``finditer``, ``sub``, ``split``)."""
    prefix: str
    character: str

    def text(self, size: int) -> str | bytes:
        text = self.prefix + self.character * size + TAIL
        return text.encode("latin-1", "replace") if isinstance(self.pattern.pattern, bytes) else text


def module_patterns() -> dict[str, re.Pattern[str] | re.Pattern[bytes]]:
    """Each distinct pattern compiled at module level in the package, by the first name holding it: a module's
    attribute, or a pattern held in one (a table of messages, a value's checker: ``xml_syntax._RULES[3]``)."""
    found: dict[str, re.Pattern[str] | re.Pattern[bytes]] = {}
    seen: set[tuple[object, int]] = set()
    modules = pkgutil.walk_packages(rulebook.__path__, "rulebook.")
    for name in sorted(info.name for info in modules if info.name != "rulebook.__main__"):
        module = importlib.import_module(name)
        for attribute, value in sorted(vars(module).items()):
            for place, pattern in _held(f"{name}.{attribute}", value, depth=3):
                if (pattern.pattern, pattern.flags) not in seen:
                    seen.add((pattern.pattern, pattern.flags))
                    found[place] = pattern
    return found


def _held(place: str, value: object, depth: int) -> Iterator[tuple[str, re.Pattern[str] | re.Pattern[bytes]]]:
    """The patterns ``value`` is or holds, within ``depth`` levels of containers and the package's own objects."""
    if isinstance(value, re.Pattern):
        yield place, value
        return
    if depth == 0 or isinstance(value, (str, bytes, type)):
        return
    if isinstance(value, dict):
        items: list[tuple[str, object]] = [(f"{place}[{key!r}]", item) for key, item in value.items()]
    elif isinstance(value, (list, tuple, frozenset, set)):
        items = [(f"{place}[{index}]", item) for index, item in enumerate(value)]
    elif type(value).__module__.startswith("rulebook.") and not callable(value):
        fields = getattr(type(value), "__slots__", None) or list(getattr(value, "__dict__", {}))
        items = [(f"{place}.{field}", getattr(value, field, None)) for field in fields]
    else:
        return
    for inner, item in items:
        yield from _held(inner, item, depth - 1)


READINGS = {"search": "search", "match": "match", "fullmatch": "fullmatch"} | dict.fromkeys(
    ("findall", "finditer", "sub", "subn", "split"), "findall"
)


def readings_of(name: str, sources: dict[str, str]) -> frozenset[str]:
    """How the package reads with the pattern ``name`` (``module.ATTRIBUTE``): its own module's calls, and every
    module's for a public name; all four readings where no call names it (the pattern is handed on)."""
    module = _module_of(name)
    attribute = name[len(module) + 1 :]
    if not attribute.isidentifier():  # held in a table or an object: handed on
        return frozenset(("search", "match", "fullmatch", "findall"))
    texts = sources.values() if not attribute.startswith("_") else [sources[module]]
    calls = re.compile(rf"\b{re.escape(attribute)}\.({'|'.join(READINGS)})\(")
    found = frozenset(READINGS[call] for text in texts for call in calls.findall(text))
    return found or frozenset(("search", "match", "fullmatch", "findall"))


def _module_of(place: str) -> str:
    """The module a pattern's place names (``rulebook.xml_syntax`` of ``rulebook.xml_syntax._PLAIN[0][0]``)."""
    module = place.split("[", 1)[0]
    while module not in sys.modules:
        module = module.rsplit(".", 1)[0]
    return module


def literal_words(pattern: re.Pattern[str] | re.Pattern[bytes]) -> set[str]:
    """The runs of literal characters the pattern holds anywhere (``linecap``, ``url(``)."""
    source = pattern.pattern.decode("latin-1") if isinstance(pattern.pattern, bytes) else pattern.pattern
    words: set[str] = set()

    def walk(items: list[tuple[object, object]]) -> None:
        run = ""
        for op, argument in items:
            if op is _parser.LITERAL and isinstance(argument, int):
                run += chr(argument)
                continue
            words.add(run)
            run = ""
            for part in argument if isinstance(argument, (list, tuple)) else ():
                if isinstance(part, _parser.SubPattern):
                    walk(list(part))
                elif isinstance(part, (list, tuple)):
                    walk_nested(part)
        words.add(run)

    def walk_nested(parts: list[object] | tuple[object, ...]) -> None:
        for part in parts:
            if isinstance(part, _parser.SubPattern):
                walk(list(part))
            elif isinstance(part, (list, tuple)):
                walk_nested(part)

    walk(list(_parser.parse(source, pattern.flags & ~re.UNICODE)))
    return {word for word in words if word.strip()}


def families() -> Iterator[Family]:
    patterns = module_patterns()
    sources = {
        module: Path(file).read_text(encoding="utf-8")
        for module in {_module_of(name) for name in patterns}
        if (file := getattr(sys.modules[module], "__file__", None))
    }
    for name, pattern in patterns.items():
        readings = readings_of(name, sources)
        for prefix in sorted({*GENERIC_PREFIXES, *literal_words(pattern)}):
            for character in RUN_CHARACTERS:
                yield Family(name, pattern, readings, prefix, character)


def reading_time(family: Family, size: int) -> float:
    """Seconds the pattern takes to read a run of ``size`` in each way the package reads with it."""
    text = family.text(size)
    readings: list[Callable[[Any], object]] = [getattr(family.pattern, reading) for reading in sorted(family.readings)]
    started = time.perf_counter()
    for read in readings:
        read(text)
    return time.perf_counter() - started


def growth(family: Family) -> tuple[int, float, float] | None:
    """The first size whose run took more than :data:`GROWTH` times the run a quarter its size (with both
    timings), None if each did not. A doubtful pair is timed again, keeping the least, as another process may have
    had the core."""
    sizes = [*LADDER, *SIZES]
    times = {sizes[0]: reading_time(family, sizes[0])}
    for small, large in pairwise(sizes):
        times[large] = reading_time(family, large)
        for _ in range(2):
            if times[large] <= GROWTH * times[small] * large / (4 * small) + FLOOR * large / SIZES[-1]:
                break
            times[small] = min(times[small], reading_time(family, small))
            times[large] = min(times[large], reading_time(family, large))
        else:
            return large, times[small], times[large]
    return None


def superlinear() -> list[tuple[Family, tuple[int, float, float]]]:
    """Each family whose reading grows faster than its run, slowest first."""
    found = []
    for family in families():
        if (grown := growth(family)) is not None:
            found.append((family, grown))
            print(family.name, repr(family.prefix), repr(family.character), grown, file=sys.stderr, flush=True)
    return sorted(found, key=lambda item: -item[1][2])


def test_every_pattern_reads_long_runs_in_linear_time() -> None:
    grown = [
        f"{family.name} on {family.prefix!r} + {family.character!r} * {size}: {small:.3f} s at a quarter, {large:.3f} s"
        for family, (size, small, large) in superlinear()
        if family.name not in EXEMPT
    ]
    assert grown == []


def test_the_sweep_finds_the_probes_patterns() -> None:
    """The sweep tells the probe's patterns as they were written, and a few found since."""
    probes = {
        "linecap": re.compile(r"linecap\s*[:=]?\s*['\"]?\s*(?:round|square)|\b(?:round|square)\b", re.IGNORECASE),
        "prelude": re.compile(r"([^{}]*)\{"),
        "separators": re.compile(r"\s*,?\s*(matrix|translate)\s*\(([^)]*)\)\s*"),
        "digits": re.compile(r"\s*([-+]?(?:\d+\.?\d*|\.\d+))\s*(px|%)?\s*\Z"),
    }
    for name, pattern in probes.items():
        prefixes = {*GENERIC_PREFIXES, *literal_words(pattern)}
        every = frozenset(("search", "match", "fullmatch", "findall"))
        tried = (Family(name, pattern, every, prefix, character) for prefix in prefixes for character in RUN_CHARACTERS)
        assert any(growth(family) is not None for family in tried), name


if __name__ == "__main__":
    for family, (size, small, large) in superlinear():
        print(f"{family.name}\t{family.prefix!r}\t{family.character!r}\t{size}\t{small:.4f}\t{large:.4f}")
    sys.exit(0)
