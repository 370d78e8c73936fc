#!/usr/bin/env python3
"""Benchmark: ways to read a rulebook for the lint, against the bare lxml parse.

Why the lint reads by walking lxml's tree rather than in one streaming ``pyexpat`` pass: the DTD check
needs lxml's tree anyway, and on CPython a streaming pass pays a Python call per element, which is more
than the walk saves. Measured in one process, in CPU time, on a book N times the seed made by
``../shared/tools/scale_rulebook.py`` in a temporary folder; each round runs every reader once, the
order rotating from round to round, and each reader's result is freed inside its own timing.

- ``lxml parse``: ``etree.fromstring`` of the bytes (the issue's bare parse, freed);
- ``lxml parse + DTD``: the same, and the check against the compiler's DTD;
- ``expat, no handlers``: pyexpat over the bytes, nothing called back;
- ``expat, facts``: pyexpat recording what the lint's rules need of each reference, link,
  definition and section: name, line and column, the section and definition it stands in,
  and each reference's text (a prototype of the streaming design, not of the DTD check);
- ``our outline``: :func:`rulebook.xml_source.parse_xml_bytes` with ``outline=True``, the lint's
  reading (DTD check, exact places, ids, nesting check, the document's indexes).

Usage: python benchmarks/bench_readers.py [--factor 100] [--rounds 7]
"""

from __future__ import annotations

import argparse
import gc
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from xml.parsers import expat

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TOOLS = next(
    (p for p in (ROOT.parent / "shared" / "tools", ROOT.parent.parent / "shared" / "tools") if p.exists()), ROOT
)
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"
SECTIONS = frozenset({"chapter", "section", "subsection"})


def lxml_parse(data: bytes) -> object:
    from lxml import etree

    from rulebook.xml_source import safe_parser

    return etree.fromstring(data, safe_parser())


def lxml_parse_and_dtd(data: bytes) -> object:
    from rulebook import dtd
    from rulebook.source import SourceText

    root = lxml_parse(data)
    return root, list(dtd.validate(root, SourceText.from_text("book.xml", "")))  # type: ignore[arg-type]


def expat_bare(data: bytes) -> object:
    parser = expat.ParserCreate()
    parser.Parse(data, True)
    return parser


def expat_facts(data: bytes) -> object:
    """What the lint's rules read, recorded in one streaming pass."""
    parser = expat.ParserCreate()
    parser.ordered_attributes = True
    parser.buffer_text = True
    references: list[tuple[str, int, int, str, str | None, str]] = []
    others: list[tuple[str, str, int, int, str]] = []
    sections: list[str] = [""]
    definitions: list[str | None] = [None]
    text: list[str] = []

    def start(tag: str, attributes: list[str]) -> None:
        named = dict(zip(attributes[::2], attributes[1::2], strict=True)) if attributes else {}
        line, column = parser.CurrentLineNumber, parser.CurrentColumnNumber + 1
        if tag == "reference":
            text.clear()
            parser.CharacterDataHandler = text.append
            references.append((named.get("name", ""), line, column, sections[-1], definitions[-1], ""))
        elif tag in SECTIONS:
            sections.append(named.get("id") or named.get("title", ""))
            others.append((tag, sections[-1], line, column, sections[-2]))
        elif tag == "definition":
            definitions.append(named.get("name", ""))
            others.append((tag, named.get("name", ""), line, column, sections[-1]))
        elif tag == "link":
            others.append((tag, named.get("to", ""), line, column, sections[-1]))

    def end(tag: str) -> None:
        if tag == "reference":
            parser.CharacterDataHandler = None
            name, line, column, section, definition, _ = references[-1]
            references[-1] = (name, line, column, section, definition, "".join(text))
        elif tag in SECTIONS:
            sections.pop()
        elif tag == "definition":
            definitions.pop()

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.Parse(data, True)
    return references, others


def our_outline(data: bytes) -> object:
    from rulebook.xml_source import parse_xml_bytes

    return parse_xml_bytes(data, "book.xml", outline=True)


READERS: dict[str, Callable[[bytes], object]] = {
    "lxml parse": lxml_parse,
    "lxml parse + DTD": lxml_parse_and_dtd,
    "expat, no handlers": expat_bare,
    "expat, facts": expat_facts,
    "our outline": our_outline,
}


def cpu_seconds(read: Callable[[bytes], object], data: bytes) -> float:
    gc.collect()
    started = time.process_time()
    result = read(data)
    del result
    return time.process_time() - started


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factor", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / f"book_{args.factor}x.xml"
        command = [sys.executable, str(TOOLS / "scale_rulebook.py"), str(SEED), str(args.factor), "-o", str(book)]
        subprocess.run(command, check=True, capture_output=True)
        data = book.read_bytes()
    names = list(READERS)
    for name in names:
        cpu_seconds(READERS[name], data)  # imports and caches warmed
    gc.disable()  # as the lint reads (its collector is off while it builds)
    times: dict[str, list[float]] = {name: [] for name in names}
    for round_ in range(args.rounds):
        for name in names[round_ % len(names) :] + names[: round_ % len(names)]:
            times[name].append(cpu_seconds(READERS[name], data))
    base = statistics.median(times["lxml parse"])
    print(f"{args.factor}x book, {len(data) / 1e6:.1f} MB, {args.rounds} rounds, CPU medians:")
    for name in names:
        median = statistics.median(times[name])
        print(f"  {name:<20} {median * 1000:7.0f} ms  {median / base:5.2f}x the lxml parse")
    return 0


if __name__ == "__main__":
    sys.exit(main())
