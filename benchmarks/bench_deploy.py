#!/usr/bin/env python3
"""Benchmark: ``deploy``'s commit of a site of many folders (one per chapter), before and after.

A site of N chapter folders (``cN/index.html``) is made in a neutral temporary folder beside a new Git repository;
each side commits it to a branch of its own with ``rulebook.deploy.deploy_site`` (no build, no push), run as its
own process with its own code first on the path (see revision_import). The side that goes first alternates from
size to size; times are the process's CPU time with Git's (its children's), and both sides' trees must be the same.

Usage: python benchmarks/bench_deploy.py [--before c6346cd] [--sizes 1000,2500,5000] [--markdown]
"""

from __future__ import annotations

import argparse
import io
import os
import resource
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from revision_import import runnable

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "c6346cd"
"""The revision before a deploy's trees were made by one Git process."""

DEPLOY = """
import sys
from pathlib import Path
from {module}.deploy import deploy_site
print(deploy_site(Path(sys.argv[1]), Path(sys.argv[2]), branch=sys.argv[3], remote=None).commit)
"""


def export(revision: str, into: Path) -> Path:
    """The files of ``revision`` in ``into`` (``git archive``: the repository is only read)."""
    archive = subprocess.run(["git", "-C", str(ROOT), "archive", revision], check=True, capture_output=True).stdout
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(into, filter="data")
    return into


def site_of(folder: Path, chapters: int) -> Path:
    """A site of ``chapters`` chapter folders, each holding its page."""
    for n in range(chapters):
        (folder / f"c{n}").mkdir(parents=True)
        (folder / f"c{n}" / "index.html").write_text(f"<p>Chapter {n}</p>\n", encoding="utf-8")
    return folder


def deployed(code: Path, site: Path, repository: Path, branch: str) -> tuple[float, str]:
    """CPU seconds of one side's deploy (with Git's), and the tree it committed."""
    path, module = runnable(code)
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(
        [sys.executable, "-c", DEPLOY.format(module=module), str(site), str(repository), branch],
        env=dict(os.environ, PYTHONPATH=path),
        check=True,
        capture_output=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    tree = subprocess.run(
        ["git", "rev-parse", f"{branch}^{{tree}}"], cwd=repository, check=True, capture_output=True, text=True
    ).stdout.strip()
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), tree


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", default=BEFORE, help=f"the earlier revision (default: {BEFORE})")
    parser.add_argument("--sizes", default="1000,2500,5000", help="chapter folders, comma-separated")
    parser.add_argument("--markdown", action="store_true", help="a table for docs/performance.md")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        sides = {"before": export(args.before, work / "before"), "after": ROOT}
        for turn, size in enumerate(int(part) for part in args.sizes.split(",")):
            site = site_of(work / f"site-{size}", size)
            repository = work / f"repository-{size}"
            subprocess.run(["git", "init", "-q", str(repository)], check=True)
            order = ("before", "after") if turn % 2 == 0 else ("after", "before")
            found = {side: deployed(sides[side], site, repository, f"{side}-{size}") for side in order}
            assert found["before"][1] == found["after"][1], "the two sides committed different trees"
            rows.append((f"{size:,} chapter folders", *(f"{found[side][0]:.2f} s" for side in ("before", "after"))))
            print(" | ".join(rows[-1]), file=sys.stderr, flush=True)
    if args.markdown:
        print("| site | before | after |\n|---|---|---|")
    for row in rows:
        print(f"| {' | '.join(row)} |" if args.markdown else "  ".join(row))


if __name__ == "__main__":
    main()
