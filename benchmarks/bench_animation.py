#!/usr/bin/env python3
"""Benchmark: what an animated picture costs a browser playing it, by its canvas and its frames.

Each APNG below is made in a temporary folder (its first frame the whole canvas, each other frame one pixel composed
on it, 10 ms a frame, looping for ever), shown in a page (``<img>``, ``max-width: 100%``) by headless Chromium
(``/usr/bin/chromium``, software drawing, a window of 1,000 x 1,000) for ``--seconds`` of real time, and the CPU
time of all its processes taken then (from ``/proc``), with the most memory they held at once. The verdict is
:func:`rulebook.picture_size.too_many_frames`'s.

Usage: python benchmarks/bench_animation.py [--seconds 15]
"""

from __future__ import annotations

import argparse
import os
import signal
import struct
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

CASES = (
    (8_000, 8_000, 1),
    (8_000, 8_000, 2),
    (4_000, 4_000, 10),
    (4_000, 4_000, 40),
    (1_920, 1_080, 30),
    (1_920, 1_080, 300),
    (8_000, 8_000, 10),
    (4_000, 4_000, 10_000),
)
"""Each picture: its width, its height and its frames."""


def _chunk(kind: bytes, body: bytes) -> bytes:
    return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body))


def apng(width: int, height: int, frames: int) -> bytes:
    """An APNG of grey pixels: a first frame of the whole canvas, then one-pixel frames moving across it."""
    parts = [
        b"\x89PNG\r\n\x1a\n",
        _chunk(b"IHDR", struct.pack(">II5B", width, height, 8, 0, 0, 0, 0)),
        _chunk(b"acTL", struct.pack(">II", frames, 0)),
        _chunk(b"fcTL", struct.pack(">5I2H2B", 0, width, height, 0, 0, 1, 100, 0, 0)),
        _chunk(b"IDAT", zlib.compress(b"\x00" * ((width + 1) * height), 9)),
    ]
    pixel = zlib.compress(b"\x00\xff")
    for frame in range(1, frames):
        x, y = (frame * 7) % (width - 1), (frame * 13) % (height - 1)
        parts.append(_chunk(b"fcTL", struct.pack(">5I2H2B", 2 * frame - 1, 1, 1, x, y, 1, 100, 1, 0)))
        parts.append(_chunk(b"fdAT", struct.pack(">I", 2 * frame) + pixel))
    return b"".join([*parts, _chunk(b"IEND", b"")])


def _session_usage(session: int) -> tuple[float, int]:
    """The CPU seconds and the resident kilobytes of every process of ``session``."""
    ticks, resident = 0, 0
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = Path(f"/proc/{entry}/stat").read_text().rsplit(")", 1)[1].split()
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        if int(fields[3]) != session:  # fields after the name: state, ppid, pgrp, session, ...
            continue
        ticks += int(fields[11]) + int(fields[12])
        resident += next((int(line.split()[1]) for line in status.splitlines() if line.startswith("VmRSS:")), 0)
    return ticks / os.sysconf("SC_CLK_TCK"), resident


def played(page: Path, seconds: float, profile: Path) -> tuple[float, int]:
    """Chromium's CPU seconds after showing ``page`` for ``seconds``, and the most kilobytes it held at once."""
    browser = subprocess.Popen(
        [
            "/usr/bin/chromium",
            *("--headless", "--no-sandbox", "--disable-gpu", "--window-size=1000,1000"),
            *("--remote-debugging-port=0", f"--user-data-dir={profile}", page.as_uri()),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    peak = 0
    cpu = 0.0
    try:
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            time.sleep(1)
            cpu, resident = _session_usage(browser.pid)
            peak = max(peak, resident)
    finally:
        os.killpg(browser.pid, signal.SIGKILL)
        browser.wait()
    return cpu, peak


def main() -> None:
    from rulebook.picture_size import too_many_frames

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=15)
    options = parser.parse_args()
    print(f"| canvas | frames | file | verdict | Chromium CPU in {options.seconds:g} s | most memory |")
    print("|---|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as folder:
        for width, height, frames in CASES:
            data = apng(width, height, frames)
            picture = Path(folder) / "moving.png"
            picture.write_bytes(data)
            page = Path(folder) / "page.html"
            page.write_text('<html><body><img src="moving.png" style="max-width:100%"></body></html>')
            verdict = "refused" if too_many_frames(data, "PNG", (width, height)) else "published"
            cpu, peak = played(page, options.seconds, Path(folder) / "profile")
            print(
                f"| {width:,} x {height:,} | {frames:,} | {len(data) / 1024:,.0f} KB | {verdict} | {cpu:.1f} s "
                f"| {peak / 1024:,.0f} MB |"
            )


if __name__ == "__main__":
    main()
