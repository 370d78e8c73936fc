#!/usr/bin/env python3
"""Benchmark: reading a book in the Markdown dialect against reading it in XML, and converting it.

The book is the seed made N times larger by ``../shared/tools/scale_rulebook.py`` (in a temporary folder),
converted once to the dialect. Measured in one process, in CPU time, the median of the rounds, each result
freed inside its own timing:

- ``XML, whole``: :func:`rulebook.xml_source.parse_xml_bytes` (the model a build reads);
- ``Markdown dialect``: :func:`rulebook.readers.markdown.parse_dialect` of the converted text (the same model);
- ``convert to Markdown``, ``convert to XML``: the writers of ``rulebook convert``, from the model.

Usage: python benchmarks/bench_dialect.py [--factor 20] [--rounds 5]
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

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TOOLS = next(
    (p for p in (ROOT.parent / "shared" / "tools", ROOT.parent.parent / "shared" / "tools") if p.exists()), ROOT
)
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"


def cpu_seconds(work: Callable[[], object]) -> float:
    start = time.process_time()
    result = work()
    del result
    return time.process_time() - start


def main() -> int:
    from rulebook.convert import convert_document
    from rulebook.readers.markdown import parse_dialect
    from rulebook.xml_source import parse_xml_bytes

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--factor", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        book = Path(folder) / "book.xml"
        command = [sys.executable, str(TOOLS / "scale_rulebook.py"), str(SEED), str(args.factor), "-o", str(book)]
        subprocess.run(command, check=True, capture_output=True)
        data = book.read_bytes()
    document = parse_xml_bytes(data, "book.xml").document
    assert document is not None
    text = convert_document(document, "markdown")
    work: dict[str, Callable[[], object]] = {
        "XML, whole": lambda: parse_xml_bytes(data, "book.xml"),
        "Markdown dialect": lambda: parse_dialect(text, "book.md"),
        "convert to Markdown": lambda: convert_document(document, "markdown"),
        "convert to XML": lambda: convert_document(document, "xml"),
    }
    for run in work.values():
        cpu_seconds(run)  # imports and caches warmed
    gc.disable()
    times = {name: [cpu_seconds(run) for _ in range(args.rounds)] for name, run in work.items()}
    print(f"book: the seed x{args.factor}, {len(data) / 1e6:.1f} MB of XML, {len(text) / 1e6:.1f} MB of Markdown")
    for name, found in times.items():
        print(f"{name:22} {statistics.median(found):7.3f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
