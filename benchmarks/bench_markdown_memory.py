#!/usr/bin/env python3
"""Benchmark: the peak memory of reading one Markdown source, hostile or real, in both Markdown formats.

Each input is read by :func:`rulebook.readers.markdown.parse_dialect` or
:func:`rulebook.markdown_source.parse_markdown_string` in a process of its own, held to ``--memory`` GB of address
space; the peak resident size (``VmHWM``) above the process's size before the reading is printed, with its
ratio to the source's bytes, the CPU time and whether the source was read or refused. The hostile inputs are what
markdown-it makes many objects of (``rulebook.readers.markdown_limits``); the real ones are the seed made 100
times larger by ``../shared/tools/scale_rulebook.py`` and converted to the dialect, and the French seed repeated
100 times.

Usage: python benchmarks/bench_markdown_memory.py [--memory 6] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
TOOLS = next(
    (p for p in (ROOT.parent / "shared" / "tools", ROOT.parent.parent / "shared" / "tools") if p.exists()), ROOT
)
CHAPTER = "<!-- rulebook -->\n\n# Chapter {#c}\n\n"
WIDE = 128
TABLE = "|" + "a|" * WIDE + "\n|" + "-|" * WIDE + "\n" + "a\n" * 512 + "\n"

HOSTILE = {
    "tables filled with cells (30 KB)": CHAPTER + TABLE * 20,
    "rows of 50,000 cells (1.1 MB)": CHAPTER
    + ("|" + "a|" * 50_000 + "\n")
    + "|"
    + "-|" * 50_000
    + "\n"
    + ("|" + "a|" * 50_000 + "\n") * 9,
    "500,000 list items (2 MB)": CHAPTER + "- a\n" * 500_000,
    "500,000 emphasis (2 MB)": CHAPTER + "*a* " * 500_000 + "\n",
    "300,000 links (2.1 MB)": CHAPTER + "[a](b) " * 300_000 + "\n",
    "200,000 attribute lists (1.8 MB)": CHAPTER + "[a]{x=y} " * 200_000 + "\n",
    "500,000 inline HTML tags (2 MB)": CHAPTER + "<a> " * 500_000 + "\n",
    "1,000,000 escapes (2 MB)": CHAPTER + "\\*" * 1_000_000 + "\n",
    "2,000,000 pipes on a line (2 MB)": CHAPTER + "|" * 2_000_000 + "\n",
    "100,000 nested quotes (0.1 MB)": CHAPTER + ">" * 100_000 + " a\n",
    "1,999,990 blank lines (2 MB)": CHAPTER + "\n" * 1_999_990,
}
READERS = {
    "markdown": "from rulebook.readers.markdown import parse_dialect as parse",
    "plain-markdown": "from rulebook.markdown_source import parse_markdown_string as parse",
}
CHILD = """
import sys, time
from pathlib import Path
{reader}
def peak():  # VmHWM, in KB: this process's own (ru_maxrss keeps the parent's peak across exec)
    line = next(l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM"))
    return int(line.split()[1])
text = Path(sys.argv[1]).read_text(encoding="utf-8")
parse("<!-- rulebook -->\\n\\n# A {{#a}}\\n\\nx\\n", "warm.md")
before = peak()
start = time.process_time()
result = parse(text, "book.md")
cpu = time.process_time() - start
print(peak() - before, cpu, result.document is not None)
"""


def real_books(folder: Path) -> dict[str, str]:
    from rulebook.convert import convert_document
    from rulebook.xml_source import parse_xml_bytes

    book = folder / "book.xml"
    seed = ROOT / "rulebook_src" / "en" / "rulebook.xml"
    subprocess.run([sys.executable, str(TOOLS / "scale_rulebook.py"), str(seed), "100", "-o", str(book)], check=True)
    document = parse_xml_bytes(book.read_bytes(), "book.xml").document
    assert document is not None
    french = (ROOT / "rulebook_src" / "fr" / "rulebook.md").read_text(encoding="utf-8")
    return {
        "the seed x100, dialect (5.5 MB)": convert_document(document, "markdown"),
        "the French seed x100 (4.7 MB)": french * 100,
    }


def measure(path: Path, reader: str, memory: int) -> str:
    def held() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    done = subprocess.run(
        [sys.executable, "-c", CHILD.format(reader=READERS[reader]), str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=held,
    )
    if done.returncode != 0:
        return f"failed ({done.stderr.strip().splitlines()[-1][:60]})"
    kilobytes, cpu, read = done.stdout.split()
    ratio = int(kilobytes) * 1024 / path.stat().st_size
    outcome = "read" if read == "True" else "refused"
    return f"{int(kilobytes) / 1024:,.0f} MB ({ratio:,.0f}x), {float(cpu):.1f} s, {outcome}"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--memory", type=float, default=6, help="address space per reading, in GB")
    parser.add_argument("--only", nargs="*", help="inputs whose name holds one of these words")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        inputs = {**HOSTILE, **real_books(Path(folder))}
        if args.only:
            inputs = {name: text for name, text in inputs.items() if any(word in name for word in args.only)}
        print("| input | dialect | plain Markdown |\n|---|---|---|")
        for index, (name, text) in enumerate(inputs.items()):
            path = Path(folder) / f"input{index}.md"
            path.write_text(text, encoding="utf-8")
            cells = [measure(path, reader, int(args.memory * 1024**3)) for reader in READERS]
            print(f"| {name} | {' | '.join(cells)} |", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
