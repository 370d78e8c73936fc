"""Screenshots of the print edition's pages at 100 % (96 pixels to the inch, as a PDF viewer shows them on a
laptop), from the bundled project's PDFs.

    .venv/bin/python docs/screenshots/take_pdf.py

Builds the PDFs (``build --pdf-only``) into a temporary folder and renders the pages below with Debian's
poppler-utils (``pdftoppm``; ``apt-get install poppler-utils``): each page is found by a named destination
(a section's, the glossary's, the index's), so the shots follow the book when it changes. Look at every one
before committing them.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pypdf

ROOT = Path(__file__).resolve().parents[2]
HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(ROOT))

from rulebook.cli import main as rulebook  # noqa: E402

BOOK = "fantasy-battles-the-9th-age.pdf"
FRENCH = "fr/fantasy-battles-the-9th-age-fr.pdf"
SHOTS = [
    ("pdf-cover", BOOK, None, 1),
    ("pdf-contents", BOOK, None, 2),
    ("pdf-chapter", BOOK, "sec-models-units-and-formations", 0),
    ("pdf-figure-and-link", BOOK, "fig-figure_1", 0),
    ("pdf-roll-tables", BOOK, "sec-pick_deployment_type", 0),
    ("pdf-sequence", BOOK, "sec-the-pre-game-sequence", 0),
    ("pdf-glossary", BOOK, "rulebook-glossary", 0),
    ("pdf-index", BOOK, "rulebook-index", 0),
    ("pdf-fr-chapter", FRENCH, "sec-s1", 0),
    ("pdf-fr-untranslated", FRENCH, "sec-deployment_phase", 0),
    ("pdf-fr-glossary", FRENCH, "rulebook-glossary", 0),
]
"""Each shot: its name, the PDF, the named destination whose page it shows (or none) and a page number (1 for
the first page; 0 where the destination gives it)."""


def page_of(pdf: Path, destination: str | None, page: int) -> int:
    if destination is None:
        return page
    document = pypdf.PdfReader(str(pdf))
    return document.get_destination_page_number(document.named_destinations[destination]) + 1


def main() -> int:
    if shutil.which("pdftoppm") is None:
        print("pdftoppm is missing: apt-get install poppler-utils", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as folder:
        os.chdir(ROOT)  # the project's configuration
        if rulebook(["build", "-q", "--pdf-only", "--output", f"{folder}/site"]) != 0:
            raise SystemExit("rulebook build --pdf-only failed")
        for name, pdf, destination, page in SHOTS:
            source = Path(folder) / "site" / pdf
            number = str(page_of(source, destination, page))
            subprocess.run(
                ["pdftoppm", "-png", "-r", "96", "-f", number, "-l", number, "-singlefile", source, HERE / name],
                check=True,
            )
            print(f"{name}.png: {pdf}, page {number}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
