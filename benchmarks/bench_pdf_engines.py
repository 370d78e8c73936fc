#!/usr/bin/env python3
"""Benchmark: why Typst prints the book, measured against WeasyPrint and a browser's print-to-PDF.

For each factor, makes a book that many times the seed (``../shared/tools/scale_rulebook.py``) and prints it
three ways, each a whole command, in rounds whose order turns:

- ``typst``: ``rulebook build --pdf-only`` (reading, lint, the edition, Typst: everything docs/print.md lists);
- ``weasyprint``: the same chapters as one HTML document, rendered by the site's own HTML renderer
  (:func:`rulebook.site.html.render_content`, links to anchors in the document), with a print style sheet for
  what WeasyPrint does of the same features: a contents with page numbers (``target-counter``), "(see p. N)"
  after each cross-reference, running heads (``string-set``), page numbers, bookmarks from the headings, and
  PDF/UA-1 (``pdf_variant``). No glossary or index: CSS cannot list the pages a term is used on;
- ``chromium``: Debian's Chromium printing the same HTML to PDF (``--print-to-pdf``): it has none of CSS's
  paged-media features (no page numbers in the contents, no "see p. N", no running heads).

WeasyPrint is not a dependency of this project: install it in any environment and name its Python with
``--weasyprint PYTHON`` (it also needs the system's Pango, as Chromium does). The HTML is made once per
factor, outside the timing. Outputs go under ``benchmarks/out/``.

Usage: python benchmarks/bench_pdf_engines.py --weasyprint /tmp/wp/bin/python [--factors 1 10] [--rounds 3]
"""

from __future__ import annotations

import argparse
import json
import shutil
import statistics
import sys
from pathlib import Path

from bench_pdf import OUT, ROOT, once, prepare  # the books, and a command's wall-clock and CPU time

from rulebook.recipe.reading import read_book
from rulebook.site.escaping import html_text
from rulebook.site.html import Linker, render_content

CHROMIUM = "/usr/bin/chromium"

STYLE = """
@page { size: A4; margin: 2.6cm 2.2cm 2.4cm;
  @top-left { content: string(chapter); font-size: 8.5pt }
  @bottom-center { content: counter(page); font-size: 9pt } }
body { font: 10.5pt/1.45 serif; text-align: justify; hyphens: auto }
h1 { string-set: chapter content(); break-before: page; bookmark-level: 1 }
h2 { bookmark-level: 2 } h3 { bookmark-level: 3 }
nav a::after { content: leader('.') target-counter(attr(href), page) }
a.rb-link::after { content: " (see p. " target-counter(attr(href), page) ")" }
table { border-collapse: collapse } td, th { border: 0.4pt solid #aaa; padding: 4pt }
.admonition { border-left: 2pt solid #1f4e79; background: #f6f6f6; padding: 6pt 10pt }
dfn { font-style: normal; font-weight: bold }
"""

WEASYPRINT = "import sys, weasyprint; weasyprint.HTML(sys.argv[1]).write_pdf(sys.argv[2], pdf_variant='pdf/ua-1')"


def prepare_html(factor: int) -> tuple[Path, Path]:
    """The book, and its chapters as one HTML document."""
    book = prepare(factor)
    html = OUT / f"print_{factor}x.html"
    if not html.exists():
        html.write_text(one_document(book), encoding="utf-8")
    return book, html


def one_document(path: Path) -> str:
    model = read_book([path], ROOT).book
    chapters = [chapter for document in model.documents for chapter in document.body]
    defined = {d.name for d in model.definitions}
    ids = {s.id for s in model.sections} | {f.id for f in model.figures}
    linker = Linker(
        lambda name: f"#term-{name}" if name in defined else None,
        lambda target: f"#{target}" if target in ids else None,
        lambda file: None,
    )
    toc = "".join(f'<li><a href="#{c.id}">{html_text(c.title)}</a></li>' for c in chapters)
    body = []
    for chapter in chapters:
        linker.defined = set()
        body.append(section_html(chapter, linker, 1))
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Fantasy Battles</title>'
        f"<style>{STYLE}</style></head><body><h1>Fantasy Battles</h1><nav><ol>{toc}</ol></nav>"
        + "".join(body)
        + "</body></html>"
    )


def section_html(section: object, linker: Linker, depth: int) -> str:
    from rulebook.model import Section

    assert isinstance(section, Section)
    own = tuple(node for node in section.children if not isinstance(node, Section))
    inner = "".join(section_html(n, linker, depth + 1) for n in section.children if isinstance(n, Section))
    level = min(depth, 6)
    return f'<h{level} id="{section.id}">{html_text(section.title)}</h{level}>{render_content(own, linker)}{inner}'


def measure(factor: int, rounds: int, weasyprint: str | None) -> dict[str, object]:
    book, html = prepare_html(factor)
    folder = OUT / f"engines_{factor}x"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    argv = {
        "typst": [sys.executable, "-m", "rulebook", "build", "-q", "--pdf-only", "-o", str(folder / "out"), str(book)],
        "chromium": [
            CHROMIUM, "--headless=new", "--no-sandbox", "--disable-gpu", "--no-pdf-header-footer",
            f"--print-to-pdf={folder / 'chromium.pdf'}", html.as_uri(),
        ],
    }  # fmt: skip
    if weasyprint:
        argv["weasyprint"] = [weasyprint, "-c", WEASYPRINT, str(html), str(folder / "weasyprint.pdf")]
    walls: dict[str, list[float]] = {kind: [] for kind in argv}
    cpus: dict[str, list[float]] = {kind: [] for kind in argv}
    kinds = list(argv)
    for round_ in range(rounds):
        for kind in kinds[round_ % len(kinds) :] + kinds[: round_ % len(kinds)]:
            wall, cpu = once(argv[kind])
            walls[kind].append(wall)
            cpus[kind].append(cpu)
    return {
        kind: {"wall_s": statistics.median(walls[kind]), "cpu_s": statistics.median(cpus[kind]), "runs_s": walls[kind]}
        for kind in argv
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--factors", type=int, nargs="+", default=[1, 10])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--weasyprint", help="a Python with weasyprint installed")
    args = parser.parse_args()
    OUT.mkdir(parents=True, exist_ok=True)
    results = {}
    for factor in args.factors:
        print(f"measuring {factor}x …", file=sys.stderr)
        results[factor] = measure(factor, args.rounds, args.weasyprint)
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
