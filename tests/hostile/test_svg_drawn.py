"""A reader's browser is never sent an author's SVG: the site publishes each SVG picture drawn into a PNG at build.

What a browser spends drawing an SVG cannot be bounded by counting what it holds: pictures of 2 to 3 KB that passed
every count (text drawn at many scales through nested ``<use>``, many font descriptions) took a browser 15 to 30 s.
A PNG costs a browser its pixels, which are bounded; the drawing is paid once, by Typst in a process bounded in time
and memory (the cases past those limits are in ``test_typst_limits.py``).
"""

from __future__ import annotations

import math
import struct
import subprocess
import sys
from pathlib import Path
from typing import Any

import lxml.html
import pytest

from rulebook import pictures
from rulebook.pictures import DENSITY, MAX_DRAWN_PIXELS, MAX_SIDE, css_size, drawn_size, published_name
from rulebook.recipe import site_pictures
from tests.conftest import need_zensical, serve

from .scratch import run

DIAGRAM = (
    b'<svg xmlns="http://www.w3.org/2000/svg" width="300" height="120" viewBox="0 0 300 120">'
    b'<rect x="5" y="5" width="290" height="110" fill="#eef" stroke="#336"/>'
    b'<text x="20" y="60" font-size="20" font-family="sans-serif">Charge range 12"</text>'
    b"</svg>"
)
"""A diagram with text, 300 x 120 CSS pixels."""
PNG_HEAD = b"\x89PNG\r\n\x1a\n"


def _project(folder: Path, svg: bytes = DIAGRAM) -> Path:
    """A one-section book showing ``diagram.svg`` in a figure captioned "Charge ranges"."""
    (folder / "rules" / "images").mkdir(parents=True)
    (folder / "rules" / "book.xml").write_text(
        '<document><chapter id="c" title="Moving"><section id="s" title="Marching">'
        '<definition name="march">To <reference name="march">march</reference> is to walk.</definition>'
        '<figure id="f1"><image source="diagram.svg"/><caption>Charge ranges</caption></figure>'
        "</section></chapter></document>",
        encoding="utf-8",
    )
    (folder / "rules" / "images" / "diagram.svg").write_bytes(svg)
    (folder / "rulebook.toml").write_text('title = "Marches"\nsources = ["rules/book.xml"]\n', "utf-8")
    return folder


def _png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_HEAD)
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def _counted_drawings(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The names of the pictures each call of Typst's drawing is given, as calls are made."""
    from rulebook.pdf import typst_run

    asked: list[list[str]] = []
    drawn_pictures = typst_run.drawn_pictures

    def counted(given: dict[str, typst_run.Drawing], *args: object, **kwargs: object) -> object:
        asked.append(sorted(given))
        return drawn_pictures(given, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(typst_run, "drawn_pictures", counted)
    return asked


def _svgs(site: Path) -> list[str]:
    """Every file of the site whose name or content is an SVG's."""
    found = []
    for path in site.rglob("*"):
        if path.is_file() and (path.suffix.lower() in (".svg", ".svgz") or b"<svg" in path.read_bytes()[:512]):
            found.append(path.relative_to(site).as_posix())
    return sorted(found)


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_the_site_publishes_an_svg_picture_as_a_png_of_twice_its_size(
    generator: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    if generator == "zensical":
        need_zensical()
    monkeypatch.chdir(_project(tmp_path))
    assert run(capsys, "build", "-q", "--no-pdf", "--drafts", "--generator", generator).code == 0
    site = tmp_path / "site"
    png = (site / "images" / "diagram.svg.png").read_bytes()
    assert _png_size(png) == (300 * DENSITY, 120 * DENSITY)
    assert _svgs(site) == [path for path in _svgs(site) if path.startswith("graph/")]  # the term graph's, ours
    page = lxml.html.parse(str(site / "c" / "index.html"))
    (image,) = page.xpath("//figure/img")
    assert dict(image.attrib) == {
        "src": "../images/diagram.svg.png",
        "alt": "Charge ranges",
        "width": "300",
        "height": "120",
        "loading": "lazy",
    }


def test_the_same_svg_gives_the_same_png_bytes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Drawn with Typst's own fonts only (no font of the system), the same picture is the same PNG anywhere."""
    monkeypatch.chdir(_project(tmp_path))
    drawn = []
    for output in ("one", "two"):
        monkeypatch.setattr(site_pictures, "_DRAWN", pictures.Remembered())  # drawn again, not remembered
        assert run(capsys, "build", "-q", "--no-pdf", "-o", output).code == 0
        drawn.append((tmp_path / output / "images" / "diagram.svg.png").read_bytes())
    assert drawn[0] == drawn[1]


def test_a_picture_is_drawn_once_a_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``serve`` plans the pages again at each edit: the same content is not drawn again (two builds in one process
    stand for it)."""
    monkeypatch.chdir(_project(tmp_path))
    monkeypatch.setattr(site_pictures, "_DRAWN", pictures.Remembered())
    asked = _counted_drawings(monkeypatch)
    for output in ("one", "two"):
        assert run(capsys, "build", "-q", "-o", output).code == 0
    assert asked == [["diagram.svg"]]
    assert (tmp_path / "two" / "images" / "diagram.svg.png").read_bytes().startswith(PNG_HEAD)


def test_one_content_under_two_names_is_drawn_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """The same SVG under two names was drawn twice in one build (the twenty-first probe: 45 s for one slow
    picture's 22): one content is drawn once, each name published."""
    monkeypatch.chdir(_project(tmp_path))
    monkeypatch.setattr(site_pictures, "_DRAWN", pictures.Remembered())
    book = tmp_path / "rules" / "book.xml"
    book.write_text(
        book.read_text(encoding="utf-8").replace(
            "</figure>", '</figure><illustration><image source="copy.svg"/></illustration>'
        ),
        encoding="utf-8",
    )
    (tmp_path / "rules" / "images" / "copy.svg").write_bytes(DIAGRAM)
    asked = _counted_drawings(monkeypatch)
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    assert asked == [["copy.svg"]]
    site = tmp_path / "site" / "images"
    assert (site / "copy.svg.png").read_bytes() == (site / "diagram.svg.png").read_bytes()


@pytest.mark.parametrize(
    ("root", "said"),
    [
        ('width="-5" height="10"', "its `width` is `-5`, no size a picture can have"),
        ('width="0" height="10"', "its `width` is `0`, no size a picture can have"),
        ('width="10" height="1e-300"', "its `height` is `1e-300`, no size a picture can have"),
        ('width="1e308" height="10"', "its `width` is `1e308`, no size a picture can have"),
        ('viewBox="0 0 0 10"', "its `viewBox` is `0 0 0 10`, no box a picture can show"),
        ('viewBox="0 0 1e40 10"', "its `viewBox` is `0 0 1e40 10`, no box a picture can show"),
    ],
)
def test_a_size_no_picture_can_have_is_refused_by_the_lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], root: str, said: str
) -> None:
    """A size Typst refuses passed the lint and `build --strict`, and the picture was left out of the site and the
    PDF with Typst's words (the twenty-first probe): the lint refuses it (`refused-image`), located."""
    svg = f'<svg xmlns="http://www.w3.org/2000/svg" {root}><rect width="5" height="5"/></svg>'.encode()
    monkeypatch.chdir(_project(tmp_path, svg))
    outcome = run(capsys, "lint")
    assert outcome.code == 1
    assert said in outcome.out and "RB305" in outcome.out


def test_a_picture_drawing_a_page_of_text_is_refused() -> None:
    """One `<text>` of 120 KB passed every count and took Typst 7.6 s to draw, 22 s more for the PDF: each text is
    bounded (a map's many short labels are not)."""
    from rulebook.svg_pictures import MAX_TEXT_RUN, UnsafeSvg, sanitised_svg

    words = "word " * (MAX_TEXT_RUN // 5)
    sanitised_svg(f'<svg xmlns="http://www.w3.org/2000/svg"><text>{words}</text></svg>'.encode())
    labels = "<text>0101</text>" * 10_000  # a hex map's coordinates
    sanitised_svg(f'<svg xmlns="http://www.w3.org/2000/svg">{labels}</svg>'.encode())
    with pytest.raises(UnsafeSvg, match="one of its texts has 4,008 characters, more than the 4,000"):
        sanitised_svg(
            f'<svg xmlns="http://www.w3.org/2000/svg"><text>{words}<tspan>and more</tspan></text></svg>'.encode()
        )


def test_a_picture_whose_drawn_copy_would_have_too_long_a_name_is_refused_by_the_lint(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A picture named 252 bytes passed the lint; the build stopped on its `.svg.png` copy, blaming the output."""
    name = "d" * 248 + ".svg"
    monkeypatch.chdir(_project(tmp_path))
    (tmp_path / "rules" / "images" / "diagram.svg").rename(tmp_path / "rules" / "images" / name)
    book = tmp_path / "rules" / "book.xml"
    book.write_text(book.read_text(encoding="utf-8").replace("diagram.svg", name), encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 1 and "its name is too long for the site's copy of it" in outcome.out
    assert run(capsys, "build", "-q", "--no-pdf").code == 0


def test_without_typst_an_svg_picture_is_a_box_and_a_warning(tmp_path: Path) -> None:
    """Typst installed with ``--no-deps`` left out: the site is built (``--no-pdf``), each SVG's place is the box of
    a missing picture, and the build says why."""
    folder = _project(tmp_path)
    script = "import sys; sys.modules['typst'] = None; from rulebook.cli import run; run()"
    done = subprocess.run(
        [sys.executable, "-c", script, "build", "-q", "--no-pdf"], cwd=folder, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr == (
        "rulebook: typst: images/diagram.svg: Typst, which draws it, is not installed: pip install typst (a "
        "dependency of rulebook-compiler); the site shows its place\n"
    )
    assert not (folder / "site" / "images").exists()
    page = (folder / "site" / "c" / "index.html").read_text(encoding="utf-8")
    assert "Picture not available" in page and "diagram.svg" not in page


def test_a_source_picture_named_as_an_svgs_png_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``a.svg`` is published as ``a.svg.png``: a picture of the sources of that name would replace it (or it the
    picture), so it is refused and the lint says why."""
    folder = _project(tmp_path)
    book = folder / "rules" / "book.xml"
    twin = '<figure id="f2"><image source="diagram.svg.png"/><caption>Twin</caption></figure>'
    book.write_text(book.read_text(encoding="utf-8").replace("</section>", twin + "</section>"), encoding="utf-8")
    (folder / "rules" / "images" / "diagram.svg.png").write_bytes(
        (folder / "rules" / "images" / "diagram.svg").read_bytes()
    )
    monkeypatch.chdir(folder)
    outcome = run(capsys, "lint")
    assert (
        "image `diagram.svg.png` is not published: the site would publish it under the name it publishes "
        "`diagram.svg` under, `diagram.svg.png`" in outcome.out
    )
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    assert _png_size((folder / "site" / "images" / "diagram.svg.png").read_bytes()) == (600, 240)


@pytest.mark.parametrize(
    ("root", "size"),
    [
        ('width="300" height="120"', (300, 120)),
        ('width="2in" height="1in"', (192, 96)),
        ('viewBox="0 0 400 100"', (400, 100)),
        ('width="200" viewBox="0 0 400 100"', (200, 50)),
        ('height="50%" viewBox="0 0 400 100"', (400, 100)),
        ("", (300, 150)),
    ],
)
def test_a_pictures_size_is_its_own_in_css_pixels(root: str, size: tuple[int, int]) -> None:
    assert css_size(f'<svg xmlns="http://www.w3.org/2000/svg" {root}/>'.encode()) == size


def test_a_large_picture_is_drawn_with_fewer_pixels_a_css_pixel() -> None:
    """At most :data:`MAX_DRAWN_PIXELS` (a 2,000 CSS pixels square, sharp), and :data:`MAX_SIDE` a side."""
    assert drawn_size((300, 120)) == (600, 240)
    assert drawn_size((2_000, 2_000)) == (4_000, 4_000) and drawn_size((4_000, 4_000)) == (4_000, 4_000)
    for css in [(8_000, 8_000), (100_000, 50), (1_000_000, 1_000_000), (1 / 64, 1_000_000), (3, 5)]:
        width, height = drawn_size(css)
        assert width * height <= MAX_DRAWN_PIXELS and max(width, height) <= MAX_SIDE
        assert math.isclose(width / height, css[0] / css[1], rel_tol=0.05) or min(width, height) == 1


def test_an_svgs_published_name_is_apart_from_its_neighbours() -> None:
    assert published_name("maps/map.svg") == "maps/map.svg.png"
    assert published_name("map.SVG") == "map.SVG.png"
    assert published_name("map.png") == "map.png"


@pytest.mark.browser
def test_the_drawn_picture_loads_in_a_browser_at_its_own_size_on_a_phone(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], chromium: Any
) -> None:
    """The picture loads (its PNG decoded), shown at its CSS size where the page is wide enough, sharp at 2x."""
    monkeypatch.chdir(_project(tmp_path))
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    with serve(tmp_path / "site") as url:
        context = chromium.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2)
        page = context.new_page()
        page.goto(url + "c/")
        shown = page.eval_on_selector(
            "figure img",
            "img => img.decode().then(() => [img.naturalWidth, img.naturalHeight, img.width, img.height])",
        )
        context.close()
    assert shown == [600, 240, 300, 120]


def _text_at_many_scales() -> bytes:
    """The probes' class: 2.7 KB that pass every count, drawing a text at 32,768 distinct scales through five levels
    of eight ``<use>`` (a browser: 15 to 30 s for such a picture; Typst drew this one in 2 s)."""
    levels = ['<text id="l0" font-size="3">Abc xyz</text>']
    for level in range(1, 6):
        uses = "".join(
            f'<use href="#l{level - 1}" transform="translate({i * 7} {i * 5}) scale({1 + i * 0.013 + level * 0.0011})"/>'
            for i in range(8)
        )
        levels.append(f'<g id="l{level}">{uses}</g>')
    defs = "".join(levels[:-1])
    return f'<svg xmlns="http://www.w3.org/2000/svg" width="800" height="600"><defs>{defs}</defs>{levels[-1]}</svg>'.encode()


def test_a_picture_that_passes_every_count_reaches_readers_as_its_png(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """What a reader's browser spends on the picture is its pixels' decoding, whatever the SVG draws."""
    monkeypatch.chdir(_project(tmp_path, _text_at_many_scales()))
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    site = tmp_path / "site"
    assert _png_size((site / "images" / "diagram.svg.png").read_bytes()) == (1_600, 1_200)
    assert _svgs(site) == []
