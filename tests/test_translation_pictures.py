"""A translation's pictures: those of the ``images`` folder beside it, else the book's, on its site and in its PDF,
as its lint says (a French plan with French words beside the book's; the book's own picture where it has none)."""

from __future__ import annotations

import struct
import subprocess
import zlib
from pathlib import Path
from urllib.parse import unquote, urljoin

import lxml.html
import pypdf
import pytest

from rulebook.cli import main

BOOK = "\n# Pictures {#pics}\n\nA board.\n\n![Two fighters](a.png)\n\n![Green plan](b.png)\n"
FRENCH = """---
title: "Livre"
---

<!-- rulebook -->

# Images {#pics}

Un plateau.

![Deux combattants](a.png)

![Plan bleu](b.png)

![Plan gris](c.png)
"""


def png(red: int, green: int, blue: int) -> bytes:
    """A PNG of one pixel of that colour (its first three bytes of image data, once inflated)."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0)
    pixels = zlib.compress(bytes((0, red, green, blue)))
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")


RED, GREEN, BLUE, GREY = png(255, 0, 0), png(0, 255, 0), png(0, 0, 255), png(9, 9, 9)


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> Path:
    """A Markdown book showing `a.png` and `b.png`, and its French translation showing them and `c.png`: its own
    folder holds a `b.png` of its own (blue where the book's is green) and `c.png`."""
    folder = tmp_path / "game"
    assert main(["init", "--format", "markdown", str(folder)]) == 0
    rules = folder / "rules"
    with (rules / "book.md").open("a", encoding="utf-8") as book:
        book.write(BOOK)
    (rules / "images").mkdir(exist_ok=True)
    (rules / "images" / "a.png").write_bytes(RED)
    (rules / "images" / "b.png").write_bytes(GREEN)
    (rules / "fr" / "images").mkdir(parents=True)
    (rules / "fr" / "book.md").write_text(FRENCH, encoding="utf-8")
    (rules / "fr" / "images" / "b.png").write_bytes(BLUE)
    (rules / "fr" / "images" / "c.png").write_bytes(GREY)
    with (folder / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('\n[translations.fr]\nsource = "rules/fr/book.md"\n')
    subprocess.run(["git", "init", "-q"], cwd=folder, check=True)
    subprocess.run(["git", "add", "-A"], cwd=folder, check=True)
    monkeypatch.chdir(folder)
    capsys.readouterr()
    return folder


def shown(page: Path) -> dict[str, bytes]:
    """Each picture a built page shows, by its alt text: the file its address leads to."""
    tree = lxml.html.fromstring(page.read_bytes())
    base = page.as_uri()
    return {
        image.get("alt"): Path(unquote(urljoin(base, image.get("src")).removeprefix("file://"))).read_bytes()
        for image in tree.iter("img")
        if image.get("alt")
    }


def pdf_pictures(path: Path) -> list[bytes]:
    """The first pixel of each picture the PDF holds, in page order."""
    found = []
    for page in pypdf.PdfReader(path).pages:
        resources = page.get("/Resources") or {}
        for item in (resources.get("/XObject") or {}).values():
            picture = item.get_object()
            if picture.get("/Subtype") == "/Image":
                found.append(picture.get_data()[:3])
    return found


def test_a_translation_shows_its_own_pictures_else_the_books(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The French page showed a "picture not available" box for each picture, its own folder's or not, while the
    lint passed them (the twenty-fifth probe); its PDF showed the book's green plan for its own blue one."""
    assert main(["lint"]) == 0
    assert "RB303" not in capsys.readouterr().out
    assert main(["build", "-q"]) == 0, capsys.readouterr().err
    site = project / "site"
    assert shown(site / "pics" / "index.html") == {"Two fighters": RED, "Green plan": GREEN}
    french = site / "fr" / "pics" / "index.html"
    assert shown(french) == {"Deux combattants": RED, "Plan bleu": BLUE, "Plan gris": GREY}
    assert "rb-figure-missing" not in french.read_text(encoding="utf-8")
    assert sorted(p.name for p in (site / "fr" / "images").iterdir()) == ["b.png", "c.png"]  # the red one: the book's
    assert pdf_pictures(next(site.glob("*.pdf"))) == [b"\xff\x00\x00", b"\x00\xff\x00"]
    assert pdf_pictures(next((site / "fr").glob("*.pdf"))) == [b"\xff\x00\x00", b"\x00\x00\xff", b"\t\t\t"]


def test_a_picture_neither_folder_holds_is_told_where_the_translation_shows_it(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    french = project / "rules" / "fr" / "book.md"
    french.write_text(french.read_text(encoding="utf-8") + "\n![Absent](d.png)\n", encoding="utf-8")
    assert main(["lint"]) == 0
    said = capsys.readouterr().out
    assert "image `d.png` is not in the images folder" in said and "rules/fr/book.md" in said
    assert "a.png" not in said and "b.png" not in said and "c.png" not in said


def test_a_link_in_the_translations_folder_is_told_not_passed_over_for_the_books_picture(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The translation's own `a.png` a committed link to `.git/config`, where the book has an `a.png`: the French page
    showed the book's picture without a word, while the same link in the book's folder was told (the forty-seventh
    probe). It is refused as what it is, never followed."""
    (project / "rules" / "fr" / "images" / "a.png").symlink_to("../../../.git/config")
    subprocess.run(["git", "add", "-A"], cwd=project, check=True)
    main(["lint"])
    said = capsys.readouterr().out
    assert "image `a.png` is not published: it is a link, or no regular file, in the translation's `images` folder" in (
        said
    ), said
    assert main(["build", "-q", "--no-pdf"]) == 0, capsys.readouterr().err
    french = project / "site" / "fr" / "pics" / "index.html"
    assert "Deux combattants" not in shown(french)  # "picture not available" in its place
    assert "[core]" not in french.read_text(encoding="utf-8")
