#!/usr/bin/env python3
"""Benchmark: what an SVG filter costs a browser by its region and its blurs' reach, against the steps counted.

Each picture below (1,000 x 1,000, a megapixel) is counted by the sanitiser (``sanitised_svg``: the filter steps it
counts, and whether it publishes the picture) and, with ``--chromium``, opened as it is by headless Chromium
(software drawing, a window of 1,000 x 1,000), its wall-clock time taken against an empty picture's in the same
round (as ``bench_svg_area.py`` does). ``N x sD, region`` is one filter of N blurs of that ``stdDeviation`` on a
rectangle the size of the picture, in that region (``default``: none given, a tenth more than the box on each side;
``100x``: ``x="-50" width="100"``, a hundred times the box's sides; ``user``: ``filterUnits="userSpaceOnUse"`` a
hundred times the picture's sides); ``huge``: the rectangle 200 times the picture's width; ``shadows``: a hundred
rectangles of a 400th of the picture, each with a drop shadow of five primitives in 200% of its box.

Usage: python benchmarks/bench_svg_filters.py [--chromium] [--rounds 1] [--only NAME]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.bench_svg_area import chromium_seconds  # noqa: E402

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">'
WHOLE = '<rect width="1000" height="1000" fill="teal" filter="url(#f)"/>'
REGIONS = {
    "default": "",
    "200%": ' x="-50%" y="-50%" width="200%" height="200%"',
    "100x": ' x="-50" y="-50" width="100" height="100"',
    "user": ' filterUnits="userSpaceOnUse" x="-50000" y="-50000" width="100000" height="100000"',
}
SHADOW = (
    '<filter id="f" x="-50%" y="-50%" width="200%" height="200%"><feGaussianBlur in="SourceAlpha" stdDeviation="3"/>'
    '<feOffset dx="2" dy="2" result="o"/><feFlood flood-color="#000" flood-opacity="0.5"/>'
    '<feComposite in2="o" operator="in"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter>'
)


def blurs(count: int, deviation: float, region: str, element: str = WHOLE) -> bytes:
    chain = f'<feGaussianBlur stdDeviation="{deviation}"/>' * count
    return f'{HEAD}<filter id="f"{REGIONS[region]}>{chain}</filter>{element}</svg>'.encode()


def shadows(filtered: bool) -> bytes:
    given = ' filter="url(#f)"' if filtered else ""
    cells = (
        f'<rect x="{i % 10 * 100 + 25}" y="{i // 10 * 100 + 25}" width="50" height="50"{given}/>' for i in range(100)
    )
    return f"{HEAD}{SHADOW}{''.join(cells)}</svg>".encode()


PICTURES = {
    "empty": f"{HEAD}</svg>".encode(),
    "10 x s5, default": blurs(10, 5, "default"),
    "10 x s5, 100x": blurs(10, 5, "100x"),
    "10 x s50, default": blurs(10, 50, "default"),
    "10 x s50, 200%": blurs(10, 50, "200%"),
    "10 x s50, 100x": blurs(10, 50, "100x"),
    "10 x s50, user": blurs(10, 50, "user"),
    "10 x s50, default, huge": blurs(
        10, 50, "default", '<rect x="-100000" y="-100000" width="200000" height="200000" filter="url(#f)"/>'
    ),
    "3 x s50, 100x": blurs(3, 50, "100x"),
    "4 x s50, 200%": blurs(4, 50, "200%"),
    "21 x s8, default": blurs(21, 8, "default"),
    "12 x s50, default": blurs(12, 50, "default"),
    "12 x s200, default": blurs(12, 200, "default"),
    "24 x s50, default": blurs(24, 50, "default"),
    "45 x s50, default": blurs(45, 50, "default"),
    "45 x s50, 100x (the probe)": blurs(45, 50, "100x"),
    "100 shadows": shadows(True),
    "100 without shadows": shadows(False),
}


def counted(data: bytes) -> tuple[float, str]:
    """The filter steps the sanitiser counts in ``data`` (the first count past the limit, if it is refused there) and
    its verdict."""
    from rulebook import svg_pictures

    seen: list[float] = []
    check = svg_pictures._check_filter_passes

    def spy(passes: int, *arguments: object) -> None:
        seen.append(passes / svg_pictures._SHARES)
        check(passes, *arguments)  # type: ignore[arg-type]

    svg_pictures._check_filter_passes = spy  # type: ignore[assignment]
    try:
        svg_pictures.sanitised_svg(data)
        verdict = "published"
    except svg_pictures.UnsafeSvg:
        verdict = "refused"
    finally:
        svg_pictures._check_filter_passes = check  # type: ignore[assignment]
    return (seen[-1] if seen else float("nan")), verdict


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--chromium", action="store_true", help="time headless Chromium opening each picture")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--only", action="append", help="time only these pictures (and the empty one)")
    options = parser.parse_args()
    print("| picture | size | steps counted | verdict | Chromium, more than empty |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as scratch:
        folder = Path(scratch)
        empty = folder / "empty.svg"
        empty.write_bytes(PICTURES["empty"])
        for name, data in PICTURES.items():
            if name == "empty" or (options.only and name not in options.only):
                continue
            path = folder / "picture.svg"
            path.write_bytes(data)
            steps, verdict = counted(data)
            browser = "-"
            if options.chromium:
                more = [chromium_seconds(path, folder) for _ in range(options.rounds)]
                base = [chromium_seconds(empty, folder) for _ in range(options.rounds)]
                browser = f"{statistics.median(more) - statistics.median(base):.2f} s"
            shown = f"{steps:,.2f}" if verdict == "published" else "more than the limit"
            print(f"| {name} | {len(data) / 1024:,.1f} KB | {shown} | {verdict} | {browser} |", flush=True)


if __name__ == "__main__":
    main()
