"""Two revisions of the compiler on the same project: ``rulebook lint`` and ``rulebook build``, interleaved.

For refactors that must not cost speed: each revision is checked out with ``git worktree`` into a
temporary folder and run as ``python -m`` with its own code first on the path (see revision_import; the
dependencies are this environment's, the same for both sides). Each revision works on its own
copy of its own bundled project (sources and configuration as that revision has them), so the
commands are those a user of that revision runs. Runs alternate the sides, and the median of the
per-pair ratios is printed (new / old).

    python benchmarks/bench_revisions.py 758375c            # that revision against HEAD
    python benchmarks/bench_revisions.py OLD NEW --runs 9
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from revision_import import runnable

ROOT = Path(__file__).resolve().parent.parent
COMMANDS: dict[str, list[str]] = {
    "lint": ["lint", "--color", "never"],
    "build": ["build", "-o", "{out}"],
}


def checkout(revision: str, into: Path) -> Path:
    """A detached worktree of ``revision`` in ``into`` (removed by :func:`remove`)."""
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(into), revision], check=True)
    return into


def remove(worktree: Path) -> None:
    subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(worktree)], check=False)


def run_once(worktree: Path, command: str, scratch: Path) -> float:
    """Seconds of one command, run in the revision's own project folder; the output goes to ``scratch``."""
    argv = [part.format(out=scratch / "site") for part in COMMANDS[command]]
    path, module = runnable(worktree)
    environment = dict(os.environ, PYTHONPATH=path, PYTHONDONTWRITEBYTECODE="")
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", module, *argv], cwd=worktree, env=environment, capture_output=True, check=False
    )
    elapsed = time.perf_counter() - started
    if done.returncode not in (0, 1):  # 1: the bundled book has lint errors by design
        command_line = " ".join(argv)
        raise SystemExit(f"{worktree.name}: rulebook {command_line} exited {done.returncode}:\n{done.stderr.decode()}")
    return elapsed


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", help="the earlier revision (a commit, tag or branch)")
    parser.add_argument("new", nargs="?", default="HEAD", help="the later revision (default: HEAD)")
    parser.add_argument("--runs", type=int, default=5, help="pairs of runs per command (default: 5)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-revisions-") as temporary:
        base = Path(temporary)
        sides = {"old": checkout(args.old, base / "old"), "new": checkout(args.new, base / "new")}
        try:
            for command in COMMANDS:
                times: dict[str, list[float]] = {"old": [], "new": []}
                for side in sides:  # one warm-up each: byte code, the OS's file cache
                    run_once(sides[side], command, base / f"{side}-out")
                for run in range(args.runs):
                    order = ("old", "new") if run % 2 == 0 else ("new", "old")
                    for side in order:
                        times[side].append(run_once(sides[side], command, base / f"{side}-out"))
                ratios = [n / o for n, o in zip(times["new"], times["old"], strict=True)]
                old, new = statistics.median(times["old"]), statistics.median(times["new"])
                pairs = ", ".join(f"{r:.2f}" for r in ratios)
                ratio = statistics.median(ratios)
                print(f"{command:6} old {old:.2f} s   new {new:.2f} s   new/old {ratio:.2f}x  ({pairs})")
        finally:
            for worktree in sides.values():
                remove(worktree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
