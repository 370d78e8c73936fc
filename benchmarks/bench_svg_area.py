#!/usr/bin/env python3
"""Benchmark: what an SVG picture costs a browser by the area it paints, and what counting that area costs us.

Each picture below is made in a temporary folder, counted by :class:`rulebook.svg_area.PaintedArea` (how many times
it paints its own area over, whether the sanitiser publishes it, and the sanitiser's time), and, with ``--chromium``,
opened by headless Chromium (``/usr/bin/chromium --headless --screenshot``, software drawing, a window of 1,000 x
1,000), its wall-clock time taken against an empty picture's in the same round (starting the browser is most of it).

- ``empty``: one rectangle the size of the picture (a megapixel);
- ``1,000`` / ``2,000`` / ``10,000 translucent``: that many translucent rectangles the size of the picture;
- ``probe``: five levels of ten ``<use>`` of one (100,000 drawn, 1.1 KB);
- ``layers``: four levels of ten ``<use>`` of groups of ``opacity="0.99"`` around two dots at opposite corners
  (11,111 layers the size of the picture);
- ``pattern x1`` / ``x10``: a tile of 1,000 such rectangles filling one rectangle, or ten;
- ``map``: a hex map of 5,000 cells, 300 labels, a coastline and twelve rivers, 1,200 x 900.

Usage: python benchmarks/bench_svg_area.py [--chromium] [--rounds 3]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SIDE = 1000
FULL = f'<rect width="{SIDE}" height="{SIDE}" fill-opacity="0.01"/>'


def _picture(body: str, width: int = SIDE, height: int = SIDE) -> bytes:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}">'
        f"{body}</svg>"
    ).encode()


def _nested(levels: int) -> str:
    groups = "".join(f'<g id="g{n}">' + f'<use href="#g{n - 1}"/>' * 10 + "</g>" for n in range(1, levels + 1))
    return f'<defs><g id="g0">{FULL}</g>{groups}</defs><use href="#g{levels}"/>'


def _layers(levels: int) -> str:
    dots = f'<rect width="1" height="1"/><rect x="{SIDE - 1}" y="{SIDE - 1}" width="1" height="1"/>'
    return _nested(levels).replace(FULL, dots).replace("<g ", '<g opacity="0.99" ')


def _pattern(fills: int) -> str:
    tile = f'<pattern id="p" width="{SIDE}" height="{SIDE}" patternUnits="userSpaceOnUse">{FULL * 1000}</pattern>'
    return tile + f'<rect width="{SIDE}" height="{SIDE}" fill="url(#p)"/>' * fills


def _map() -> bytes:
    rng, size = random.Random(7), 7.0
    cells = []
    for q in range(100):
        for r in range(50):
            x, y = 10 + q * size * 1.5, 10 + (r + (q % 2) / 2) * size * math.sqrt(3)
            corners = " ".join(
                f"{x + size * math.cos(math.radians(60 * i)):.1f},{y + size * math.sin(math.radians(60 * i)):.1f}"
                for i in range(6)
            )
            cells.append(f'<polygon points="{corners}" fill="#{rng.randrange(0x1000000):06x}" stroke="#333"/>')
    labels = "".join(
        f'<text x="{rng.uniform(0, 1200):.0f}" y="{rng.uniform(0, 900):.0f}" font-size="9">Place {i}</text>'
        for i in range(300)
    )
    coast = " ".join(f"L{x},{400 + 60 * math.sin(x / 40):.1f}" for x in range(0, 1201, 5))
    rivers = "".join(
        f'<path d="M{100 * i},0 '
        + " ".join(f"l{rng.uniform(-5, 15):.1f},{rng.uniform(5, 15):.1f}" for _ in range(60))
        + '" fill="none" stroke="#09c" stroke-width="2"/>'
        for i in range(12)
    )
    background = '<rect width="1200" height="900" fill="#eef"/>'
    body = background + "".join(cells) + f'<path d="M0,400 {coast}" fill="none" stroke="#036"/>' + rivers + labels
    return _picture(body, 1200, 900)


PICTURES = {
    "empty": _picture(FULL.replace(' fill-opacity="0.01"', "")),
    "1,000 translucent": _picture(FULL * 1000),
    "2,000 translucent": _picture(FULL * 2000),
    "10,000 translucent": _picture(FULL * 10_000),
    "probe": _picture(_nested(5)),
    "layers": _picture(_layers(4)),
    "pattern x1": _picture(_pattern(1)),
    "pattern x10": _picture(_pattern(10)),
    "map": _map(),
}


def counted(data: bytes) -> tuple[float, str, float]:
    """How many times ``data`` paints its area over, whether it is published, and the sanitiser's time."""
    from rulebook import svg_area
    from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

    seen: list[float] = []
    measure = svg_area.PaintedArea.times_painted

    def spy(self: svg_area.PaintedArea, *arguments: object) -> float:
        seen.append(measure(self, *arguments))  # type: ignore[arg-type]
        return seen[-1]

    svg_area.PaintedArea.times_painted = spy  # type: ignore[method-assign]
    started = time.perf_counter()
    try:
        sanitised_svg(data)
        verdict = "published"
    except UnsafeSvg as refused:
        verdict = "refused" if seen else f"refused before: {refused}"
    finally:
        svg_area.PaintedArea.times_painted = measure  # type: ignore[method-assign]
    return (seen[-1] if seen else math.nan), verdict, time.perf_counter() - started


def chromium_seconds(path: Path, folder: Path) -> float:
    started = time.perf_counter()
    browser = ["/usr/bin/chromium", "--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,1000"]
    subprocess.run(
        [*browser, f"--user-data-dir={folder / 'profile'}", f"--screenshot={folder / 'shot.png'}", path.as_uri()],
        capture_output=True,
        timeout=900,
        check=False,
    )
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", action="store_true", help="time headless Chromium opening each picture")
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    print("| picture | size | painted over | sanitiser | verdict | Chromium, more than empty |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        for name, data in PICTURES.items():
            path = folder / "picture.svg"
            path.write_bytes(data)
            times, verdict, spent = counted(data)
            browser = "-"
            if options.chromium:
                more = [chromium_seconds(path, folder) for _ in range(options.rounds)]
                empty = folder / "empty.svg"
                empty.write_bytes(PICTURES["empty"])
                base = [chromium_seconds(empty, folder) for _ in range(options.rounds)]
                browser = f"{statistics.median(more) - statistics.median(base):.2f} s"
            print(f"| {name} | {len(data) / 1024:,.1f} KB | {times:,.1f} | {spent:.3f} s | {verdict} | {browser} |")


if __name__ == "__main__":
    main()
