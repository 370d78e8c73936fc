"""Picture files a contributor can commit beside a book: real pictures, and files that only claim to be.

:func:`make_project` writes a one-chapter book that shows each of :data:`FILES` in a figure, with its images
folder. A test of the site opens what was published; a test of the lint reads what was refused.
"""

from __future__ import annotations

import base64
from pathlib import Path

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="
)
"""A 1x1 PNG."""
JPEG = b"\xff\xd8\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00\xff\xd9"
GIF = b"GIF89a\x01\x00\x01\x00\x00\x00\x00;"
WEBP = b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00/\x00\x00\x00\x10\x07\x10\x11\x11\x88\x88\xfe\x07\x00"
HUGE = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + (60_000).to_bytes(4, "big") * 2 + b"\x08\x00\x00\x00\x00"
"""A PNG saying it is 60,000 x 60,000 pixels: a browser or Typst would ask for 13 GB to decode it (compressed, one
colour, it takes 3.5 MB; its header is enough to be refused)."""


def _box(kind: bytes, content: bytes, *, full: bool = False) -> bytes:
    """An ISO media box (``full``: with its version and flags)."""
    content = (b"\x00\x00\x00\x00" if full else b"") + content
    return (8 + len(content)).to_bytes(4, "big") + kind + content


AVIF = (
    _box(b"ftyp", b"avif\x00\x00\x00\x00avifmif1miaf")
    + _box(
        b"meta",
        _box(b"iprp", _box(b"ipco", _box(b"ispe", (1).to_bytes(4, "big") * 2, full=True))),
        full=True,
    )
    + _box(b"mdat", b"\x00" * 16)
)
"""A still AVIF of 1 x 1 pixels, as its properties say (no frames a decoder would show)."""
DRAWING = b"""<?xml version="1.0" encoding="UTF-8"?>
<!-- Created with Inkscape (http://www.inkscape.org/) -->
<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink"
     xmlns:inkscape="http://www.inkscape.org/namespaces/inkscape"
     xmlns:sodipodi="http://sodipodi.sourceforge.net/DTD/sodipodi-0.dtd"
     xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"
     width="40" height="20" viewBox="0 0 40 20" sodipodi:docname="arc.svg" inkscape:version="1.2">
  <sodipodi:namedview id="view" pagecolor="#ffffff"><inkscape:grid type="xygrid"/></sodipodi:namedview>
  <metadata><rdf:RDF><rdf:Description about="arc"/></rdf:RDF></metadata>
  <title>Front arc</title>
  <defs><linearGradient id="fade"><stop offset="0" style="stop-color:#000"/><stop offset="1" stop-color="#fff"/>
  </linearGradient></defs>
  <style>.arc { fill: url(#fade); stroke: #333 }</style>
  <g inkscape:label="Layer 1" inkscape:groupmode="layer">
    <path class="arc" d="M 0,20 L 20,0 L 40,20 Z"/><use xlink:href="#fade"/>
    <text x="2" y="18" xml:space="preserve">Front &amp; <tspan>arc</tspan></text>
    <image width="1" height="1" href="data:image/png;base64,iVBORw0KGgo="/>
  </g>
</svg>
"""
"""A drawing as an editor saves it: its metadata is left out, the drawing is published."""
SCRIPTED = b"""<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">
  <rect width="10" height="10"/>
  <script>alert(document.domain)</script>
</svg>
"""
FILES = {
    "front.png": PNG,
    "photo.jpg": JPEG,
    "Photo.JPEG": JPEG,
    "anim.gif": GIF,
    "small.webp": WEBP,
    "small.avif": AVIF,
    "arc.svg": DRAWING,
    "scripted.svg": SCRIPTED,
    "page.html": b"<script>alert(document.domain)</script>",
    "page.png": b"<html><script>alert(document.domain)</script></html>",
    "photo.png": JPEG,
    "vector.png": DRAWING,
    "huge.png": HUGE,
}
"""Each file of the images folder, by name."""
PUBLISHED = {"front.png", "photo.jpg", "Photo.JPEG", "anim.gif", "small.webp", "small.avif", "arc.svg"}
"""What the site publishes of them."""


def make_project(folder: Path) -> Path:
    """The book, its configuration and its images folder in ``folder``; returns it."""
    figures = "\n".join(
        f'<figure id="figure_{index}"><image source="{name}"/><caption>{name}</caption></figure>'
        for index, name in enumerate(FILES)
    )
    book = f"""<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="pictures" title="Pictures">
<section id="all" title="All">
{figures}
</section>
</chapter>
</document>
"""
    (folder / "rules" / "images").mkdir(parents=True)
    (folder / "rules" / "book.xml").write_text(book, encoding="utf-8")
    (folder / "rulebook.toml").write_text('title = "Pictures"\nsources = ["rules/book.xml"]\n', encoding="utf-8")
    for name, content in FILES.items():
        (folder / "rules" / "images" / name).write_bytes(content)
    return folder
