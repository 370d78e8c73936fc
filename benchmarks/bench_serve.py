#!/usr/bin/env python3
"""Benchmark: edit-to-reload of ``rulebook serve`` against ``mkdocs serve`` of the same pages.

For each factor, makes a book that many times the seed (``../shared/tools/scale_rulebook.py``), marks one
sentence of its first "Battlefield Logistics" chapter with a word of its own, and makes the plain
MkDocs-Material project of that book (``../shared/tools/to_mkdocs.py``). Each server is started once, from a
neutral temporary folder (no project configuration: ours serves the XML file named on its command line;
``mkdocs serve`` the plain project's folder), with its temporary files there too.

Then, edit by edit, taking turns at going first: the word is changed in the source (the XML for ours, the
chapter's Markdown for ``mkdocs serve``), and the time is taken from the write until the page, fetched over
HTTP every 10 ms, holds the new word. Each edit starts with both servers idle: ours has finished what it does
in the background after an edit (the rule data), ``mkdocs serve`` answers only once its build is done.
Prints every pair with its ratio, then the medians.

Usage: python benchmarks/bench_serve.py [--factors 1 10] [--edits 15] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# ../shared/tools beside the repository (or beside the folder of worktrees it is checked out in).
TOOLS = next((f / "shared" / "tools" for f in ROOT.parents if (f / "shared" / "tools").is_dir()), ROOT / "tools")
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"
BIN = Path(sys.executable).parent
SENTENCE = "An inch corresponds to 2.54 cm."
PATIENCE = 600.0


class Server:
    """A server process; what it says on stderr, kept."""

    def __init__(self, argv: list[str], cwd: Path, temp: Path) -> None:
        env = dict(os.environ, TMPDIR=str(temp), NO_COLOR="1")
        self.process = subprocess.Popen(
            argv, cwd=cwd, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, env=env
        )
        self.lines: list[str] = []
        threading.Thread(target=self._listen, daemon=True).start()

    def _listen(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.lines.append(line)

    def wait_for(self, text: str, after: int = 0) -> str:
        deadline = time.monotonic() + PATIENCE
        while True:
            for line in self.lines[after:]:
                if text in line:
                    return line
            if self.process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"the server never said {text!r}:\n" + "".join(self.lines[-30:]))
            time.sleep(0.05)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(timeout=60)


def prepare(factor: int, folder: Path) -> tuple[Path, Path]:
    """The book (its sentence marked ``w0000000``) and its plain MkDocs project, in ``folder``."""
    book = folder / "ours" / "book.xml"
    book.parent.mkdir(parents=True)
    if factor == 1:
        shutil.copyfile(SEED, book)
    else:
        run([sys.executable, str(TOOLS / "scale_rulebook.py"), str(SEED), str(factor), "-o", str(book)])
    text = book.read_text(encoding="utf-8")
    book.write_text(text.replace(SENTENCE, SENTENCE[:-1] + ", w0000000.", 1), encoding="utf-8")
    plain = folder / "plain"
    run([sys.executable, str(TOOLS / "to_mkdocs.py"), str(book), str(plain)])
    return book, plain


def run(argv: list[str]) -> None:
    subprocess.run(argv, check=True, capture_output=True)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


def edit_and_wait(source: Path, old: str, new: str, url: str) -> float:
    """Seconds from writing the edit until the page at ``url`` holds ``new``."""
    text = source.read_text(encoding="utf-8")
    started = time.perf_counter()
    source.write_text(text.replace(old, new, 1), encoding="utf-8")
    while new not in fetch(url):
        if time.perf_counter() - started > PATIENCE:
            raise SystemExit(f"{url} never showed {new}")
        time.sleep(0.01)
    return time.perf_counter() - started


@dataclass(frozen=True)
class Result:
    factor: int
    pairs: list[tuple[float, float]]
    """Seconds per edit: ``rulebook serve``, ``mkdocs serve``."""

    @property
    def ours(self) -> list[float]:
        return [pair[0] for pair in self.pairs]

    @property
    def theirs(self) -> list[float]:
        return [pair[1] for pair in self.pairs]

    @property
    def ratios(self) -> list[float]:
        return sorted(ours / theirs for ours, theirs in self.pairs)


def _ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.0f} ms ({min(values) * 1000:.0f}-{max(values) * 1000:.0f})"


def measure(factor: int, edits: int) -> Result:
    folder = Path(tempfile.mkdtemp(prefix=f"bench-serve-{factor}x-"))
    try:
        return _measure(factor, edits, folder)
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _measure(factor: int, edits: int, folder: Path) -> Result:
    book, plain = prepare(factor, folder)
    temp = folder / "tmp"
    temp.mkdir()
    ours = Server([str(BIN / "rulebook"), "serve", "--port", "0", book.name], book.parent, temp)
    port = free_port()
    theirs = Server([str(BIN / "mkdocs"), "serve", "-a", f"127.0.0.1:{port}"], plain, temp)
    try:
        found = re.search(r"http://127\.0\.0\.1:\d+/", ours.wait_for("Serving on"))
        assert found is not None
        page = next(p for p in temp.glob("rulebook-serve-*/site/**/index.html") if "w0000000" in p.read_text("utf-8"))
        our_url = found.group() + page.parent.name + "/"
        chapter = next(p for p in sorted((plain / "docs").glob("*.md")) if "w0000000" in p.read_text("utf-8"))
        their_url = f"http://127.0.0.1:{port}/{chapter.stem}/"
        theirs.wait_for("Serving on")
        while "w0000000" not in fetch(their_url):
            time.sleep(0.1)
        pairs = []
        for number in range(1, edits + 1):
            old, new = f"w{number - 1:07d}", f"w{number:07d}"
            timings = {}
            for side in ("ours", "theirs") if number % 2 else ("theirs", "ours"):
                if side == "ours":
                    mark = len(ours.lines)
                    timings[side] = edit_and_wait(book, old, new, our_url)
                    ours.wait_for(" up to date", after=mark)  # "Rule data of ... up to date": idle before the next edit
                else:
                    timings[side] = edit_and_wait(chapter, old, new, their_url)
            pairs.append((timings["ours"], timings["theirs"]))
            ratio = timings["ours"] / timings["theirs"]
            print(
                f"  {factor}x edit {number:2d}: rulebook serve {timings['ours'] * 1000:6.0f} ms, "
                f"mkdocs serve {timings['theirs'] * 1000:6.0f} ms, ratio {ratio:.2f}",
                file=sys.stderr,
            )
    finally:
        ours.stop()
        theirs.stop()
    return Result(factor, pairs)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--edits", type=int, default=15)
    parser.add_argument("--markdown", action="store_true", help="print the results as a Markdown table")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    results = [measure(factor, args.edits) for factor in args.factors]
    print(f"load average at the end: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    if args.markdown:
        print(
            "| book | mkdocs serve: median (range) | rulebook serve: median (range) | median ratio | ratios, sorted |"
        )
        print("|---|---|---|---|---|")
    for result in results:
        ratios = ", ".join(f"{ratio:.2f}" for ratio in result.ratios)
        ratio = statistics.median(result.ratios)
        if args.markdown:
            print(f"| {result.factor}x | {_ms(result.theirs)} | {_ms(result.ours)} | {ratio:.2f}x | {ratios} |")
        else:
            print(
                f"{result.factor}x: mkdocs serve {_ms(result.theirs)}, rulebook serve {_ms(result.ours)}, "
                f"median ratio {ratio:.2f}x (pairs: {ratios})"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
