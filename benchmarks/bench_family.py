#!/usr/bin/env python3
"""Benchmark: a family of books (issue 24): one core and army books that use it, linted, built and served.

Makes, under ``benchmarks/out/family/``, a project of 1 core book (the seed) and N-1 army books of the seed's
size, each generated from the seed: every other definition becomes the army book's own term (renamed
``armyNN_name``, with its references), the others are unwrapped, so their references resolve in the core
(``line_of_sight`` always among them), and every fifth reference to a term the core defines names the core
(``main:name``); the seed's own dangling references stay as they are, in every book. Each army book
``uses = ["main"]``. Beside it, the same books each in a project of its own (no ``uses``: the core's terms
dangle there), which is what building or linting "each book alone" means.

Then, rounds of whole commands (the family first in odd rounds, the books alone first in even ones):

- ``rulebook lint`` of the family against the sum of ``rulebook lint`` of each book alone; and ``rulebook lint
  --book army01`` (which reads the core without linting it) against army01 alone;
- ``rulebook build`` of the family against the sum of ``rulebook build`` of each book alone (with ``--build``);

and, with ``--serve``, ``rulebook serve`` of the family: the core's definition of ``line_of_sight`` is edited
(the sentence its card shows), and the time is taken until an army book's page that shows the card holds the
new word, until serve says the changed pages of every book are written, then until every book's rule data is
up to date (made again aside); the pages rewritten are counted, book by book.

Usage: python benchmarks/bench_family.py [--books 20] [--rounds 3] [--build] [--serve] [--markdown]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import statistics
import subprocess
import sys
import time
import urllib.request
from collections import Counter
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parent.parent
SEED = ROOT / "rulebook_src" / "en" / "rulebook.xml"
OUT = ROOT / "benchmarks" / "out" / "family"
BIN = Path(sys.executable).parent
EDITED = ("if you can extend a straight line", "if you can draw a straight line")
"""A sentence of the core's ``line_of_sight`` definition, the one its card shows, and the edit made to it."""
PATIENCE = 900.0


def army_book(seed: bytes, number: int) -> bytes:
    """An army book of the seed's size: every other definition its own (renamed), the others the core's."""
    tree = etree.fromstring(seed)
    prefix = f"army{number:02d}_"
    own = set()
    core = {definition.get("name", "") for definition in tree.iter("definition")}
    for index, definition in enumerate(tree.iter("definition")):
        name = definition.get("name", "")
        if index % 2 and name != "line_of_sight":
            own.add(name)
    for definition in list(tree.iter("definition")):
        if definition.get("name") in own:
            definition.set("name", prefix + definition.get("name", ""))
        else:
            _unwrap(definition)
    for index, reference in enumerate(tree.iter("reference")):
        name = reference.get("name", "")
        if name in own:
            reference.set("name", prefix + name)
        elif index % 5 == 0 and name in core:
            reference.set("name", f"main:{name}")
    for chapter in tree.iter("chapter"):
        chapter.set("title", f"{chapter.get('title')} (Army {number:02d})")
    return bytes(etree.tostring(tree, encoding="UTF-8", xml_declaration=True))


def _unwrap(element: etree._Element) -> None:
    """Put an element's text and children in its place (a definition kept as plain text)."""
    parent = element.getparent()
    assert parent is not None
    index = parent.index(element)
    before = element.getprevious()
    text = element.text or ""
    if before is not None:
        before.tail = (before.tail or "") + text
    else:
        parent.text = (parent.text or "") + text
    children = list(element)
    for offset, child in enumerate(children):
        parent.insert(index + offset, child)
    last = children[-1] if children else parent[index - 1] if index else None
    tail = element.tail or ""
    if last is not None:
        last.tail = (last.tail or "") + tail
    else:
        parent.text = (parent.text or "") + tail
    parent.remove(element)


def prepare(books: int) -> tuple[Path, list[Path]]:
    """The family's project, and a project of its own for each of its books."""
    shutil.rmtree(OUT, ignore_errors=True)
    family = OUT / "project"
    (family / "core").mkdir(parents=True)
    seed = SEED.read_bytes()
    (family / "core" / "book.xml").write_bytes(seed)
    config = ['title = "Core rules"', 'sources = ["core/book.xml"]', ""]
    names = [f"army{number:02d}" for number in range(1, books)]
    for number, name in enumerate(names, start=1):
        (family / name).mkdir()
        (family / name / "book.xml").write_bytes(army_book(seed, number))
        config += [f"[books.{name}]", f'title = "Army book {number}"', f'sources = ["{name}/book.xml"]']
        config += ['uses = ["main"]', ""]
    (family / "rulebook.toml").write_text("\n".join(config), encoding="utf-8")
    alone = []
    for name in ["core", *names]:
        folder = OUT / "alone" / name
        folder.mkdir(parents=True)
        shutil.copyfile(family / name / "book.xml", folder / "book.xml")
        (folder / "rulebook.toml").write_text(f'title = "{name}"\nsources = ["book.xml"]\n', encoding="utf-8")
        alone.append(folder)
    return family, alone


def timed(argv: list[str], cwd: Path) -> tuple[float, float]:
    """A command's wall-clock and CPU seconds (children's user + system)."""
    before = os.times()
    started = time.perf_counter()
    subprocess.run(argv, cwd=cwd, capture_output=True, env=_environment(), check=False)
    wall = time.perf_counter() - started
    after = os.times()
    return wall, (after.children_user - before.children_user) + (after.children_system - before.children_system)


def _environment() -> dict[str, str]:
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    return environment | {"NO_COLOR": "1"}


def rulebook(*args: str) -> list[str]:
    return [str(BIN / "rulebook"), *args]


def compare(
    label: str, family: list[str], family_cwd: Path, alone: list[tuple[list[str], Path]], rounds: int
) -> dict[str, object]:
    """Rounds of the family's command against the sum of the books' own, alternating which goes first."""
    pairs = []
    for number in range(rounds):
        order = ("family", "alone") if number % 2 == 0 else ("alone", "family")
        got: dict[str, tuple[float, float]] = {}
        for side in order:
            if side == "family":
                got[side] = timed(family, family_cwd)
            else:
                runs = [timed(argv, cwd) for argv, cwd in alone]
                got[side] = (sum(r[0] for r in runs), sum(r[1] for r in runs))
        pairs.append(got)
        (wall, cpu), (alone_wall, alone_cpu) = got["family"], got["alone"]
        print(
            f"  {label} round {number + 1}: family {wall:.2f} s (CPU {cpu:.2f}), "
            f"alone {alone_wall:.2f} s (CPU {alone_cpu:.2f}), ratio {wall / alone_wall:.2f}",
            file=sys.stderr,
        )
    return {
        "label": label,
        "family": statistics.median(p["family"][0] for p in pairs),
        "family_cpu": statistics.median(p["family"][1] for p in pairs),
        "alone": statistics.median(p["alone"][0] for p in pairs),
        "alone_cpu": statistics.median(p["alone"][1] for p in pairs),
        "ratios": sorted(p["family"][0] / p["alone"][0] for p in pairs),
    }


def serve(family: Path) -> dict[str, object]:
    """Edit the core's ``line_of_sight`` while the family is served; the times and the pages rewritten."""
    import threading

    temp = OUT / "serve-tmp"
    shutil.rmtree(temp, ignore_errors=True)
    temp.mkdir()
    process = subprocess.Popen(
        rulebook("serve", "--port", "0"),
        cwd=family,
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        env=_environment() | {"TMPDIR": str(temp)},
    )
    lines: list[str] = []
    assert process.stderr is not None
    stream = process.stderr
    threading.Thread(target=lambda: lines.extend(iter(stream.readline, "")), daemon=True).start()

    def wait_for(text: str, after: int = 0, count: int = 1) -> None:
        deadline = time.monotonic() + PATIENCE
        while sum(text in line for line in lines[after:]) < count:
            if process.poll() is not None or time.monotonic() > deadline:
                raise SystemExit(f"serve never said {text!r}:\n" + "".join(lines[-30:]))
            time.sleep(0.01)

    try:
        wait_for("Serving on")
        url = re.search(r"http://127\.0\.0\.1:\d+/", next(line for line in lines if "Serving on" in line))
        assert url is not None
        site = next(temp.glob("rulebook-serve-*/site"))
        page = url.group() + "army01/battlefield-logistics-army-01/"
        before = _files(site)
        mark = len(lines)
        source = family / "core" / "book.xml"
        text = source.read_text(encoding="utf-8")
        started = time.perf_counter()
        source.write_text(text.replace(*EDITED, 1), encoding="utf-8")
        while "draw a straight line" not in _fetch(page):
            if time.perf_counter() - started > PATIENCE:
                raise SystemExit(f"{page} never showed the edit")
            time.sleep(0.01)
        first = time.perf_counter() - started
        wait_for("Updated ", after=mark)
        written = time.perf_counter() - started
        books = 1 + len([p for p in family.iterdir() if p.name.startswith("army")])
        wait_for(" up to date", after=mark, count=books)
        done = time.perf_counter() - started
        after = _files(site)
    finally:
        process.terminate()
        process.wait(timeout=60)
    pages = [path for path in after if path.endswith(".html")]
    by_book = Counter(_book_of(path) for path in pages if before.get(path) != after[path])
    return {
        "first": first,
        "written": written,
        "done": done,
        "rewritten": by_book,
        "pages": Counter(map(_book_of, pages)),
    }


def _book_of(path: str) -> str:
    return path.split("/")[0] if path.startswith("army") else "core"


def _files(site: Path) -> dict[str, int]:
    return {p.relative_to(site).as_posix(): p.stat().st_mtime_ns for p in site.rglob("*") if p.is_file()}


def _fetch(url: str) -> str:
    try:
        with urllib.request.urlopen(url, timeout=PATIENCE) as response:
            return str(response.read().decode("utf-8"))
    except OSError:
        return ""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--books", type=int, default=20, help="books of the family, the core among them")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--build", action="store_true", help="also the builds (a few minutes a round)")
    parser.add_argument("--serve", action="store_true", help="also an edit of the core while the family is served")
    parser.add_argument("--markdown", action="store_true", help="print the results as Markdown")
    args = parser.parse_args()
    print(f"load average at the start: {os.getloadavg()[0]:.1f}", file=sys.stderr)
    family, alone = prepare(args.books)
    subprocess.run(rulebook("--version"), capture_output=True, env=_environment(), check=False)  # bytecode written
    results = [
        compare("lint", rulebook("lint", "-q"), family, [(rulebook("lint", "-q"), a) for a in alone], args.rounds),
        compare(
            "lint one army book",
            rulebook("lint", "-q", "--book", "army01"),
            family,
            [(rulebook("lint", "-q"), alone[1])],
            args.rounds,
        ),
    ]
    if args.build:
        build = [(rulebook("build", "-q"), a) for a in alone]
        results.append(compare("build", rulebook("build", "-q"), family, build, args.rounds))
    served = serve(family) if args.serve else None
    _print(results, served, args.books, markdown=args.markdown)
    return 0


def _print(results: list[dict[str, object]], served: dict[str, object] | None, books: int, *, markdown: bool) -> None:
    if markdown:
        print(f"| {books} books | family | each alone (sum) | family / alone (rounds) |")
        print("|---|---|---|---|")
    for r in results:
        ratios = ", ".join(f"{x:.2f}" for x in r["ratios"])  # type: ignore[attr-defined]
        line = (
            f"{r['label']}: family {r['family']:.2f} s (CPU {r['family_cpu']:.2f}), alone {r['alone']:.2f} s "
            f"(CPU {r['alone_cpu']:.2f}), ratios {ratios}"
        )
        if markdown:
            line = (
                f"| `{r['label']}` | {r['family']:.2f} s (CPU {r['family_cpu']:.2f}) | {r['alone']:.2f} s "
                f"(CPU {r['alone_cpu']:.2f}) | {ratios} |"
            )
        print(line)
    if served is not None:
        rewritten, pages = served["rewritten"], served["pages"]
        assert isinstance(rewritten, Counter) and isinstance(pages, Counter)
        armies = sorted(name for name in pages if name != "core")
        army_counts = sorted({rewritten.get(name, 0) for name in armies})
        print(
            f"serve, the core's line_of_sight edited: an army page shows it in {served['first']:.2f} s, the pages of "
            f"every book in {served['written']:.2f} s, every book's rule data in {served['done']:.2f} s; "
            f"pages rewritten: core {rewritten.get('core', 0)} of "
            f"{pages['core']}, each army book {'/'.join(map(str, army_counts))} of {pages[armies[0]]}"
        )


if __name__ == "__main__":
    raise SystemExit(main())
