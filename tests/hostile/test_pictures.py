"""Images a contributor commits: only pictures are published, each by what its content is; an SVG only rebuilt
from a static drawing's elements, one that could act is refused with the `refused-image` error at its figure."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.etree
import lxml.html
import pytest

from rulebook.pictures import Refusal, published_name, published_picture
from rulebook.svg_pictures import SVG, XLINK, UnsafeSvg, sanitised_svg

from .pictures import DRAWING, FILES, PNG, PUBLISHED, make_project
from .scratch import nothing_written_outside, run


def svg(body: str, attributes: str = "") -> bytes:
    return f'<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="{XLINK}" {attributes}>{body}</svg>'.encode()


REFUSED_SVG = {
    "script": (svg("\n<script>alert(1)</script>"), "it holds a script (`<script>`), line 2 of the picture"),
    "handler": (svg("", 'onload="alert(1)"'), "it has an event attribute (`onload`), line 1 of the picture"),
    "handler in a namespace": (
        svg('<rect xmlns:x="urn:x" x:onclick="alert(1)"/>'),
        "it has an event attribute (`onclick`), line 1 of the picture",
    ),
    "foreign object": (
        svg('<foreignObject><p xmlns="http://www.w3.org/1999/xhtml">x</p></foreignObject>'),
        "it holds embedded HTML (`<foreignObject>`), line 1 of the picture",
    ),
    "HTML": (
        svg('<h:script xmlns:h="http://www.w3.org/1999/xhtml">alert(1)</h:script>'),
        "it holds HTML (`<script>`), line 1 of the picture",
    ),
    "animation": (
        svg('<a><set attributeName="href" to="javascript:alert(1)"/></a>'),
        "it holds an animation (`<set>`), line 1 of the picture",
    ),
    "script link": (
        svg('<a href=" java\tscript:alert(1)"><rect/></a>'),
        "it refers to `javascript:alert(1)`, outside the picture, line 1 of the picture",
    ),
    "link out": (
        svg('<a xlink:href="https://example.com/"><rect/></a>'),
        "it refers to `https://example.com/`, outside the picture, line 1 of the picture",
    ),
    "other file": (
        svg('<use href="other.svg#shape"/>'),
        "it refers to `other.svg#shape`, outside the picture, line 1 of the picture",
    ),
    "linked picture": (
        svg('<image href="photo.png"/>'),
        "it refers to `photo.png`, outside the picture, line 1 of the picture",
    ),
    "SVG in a data address": (
        svg('<image href="data:image/svg+xml;base64,PHN2Zy8+"/>'),
        "it refers to `data:image/svg+xml;base64,PHN2Zy8+`, outside the picture, line 1 of the picture",
    ),
    "CSS import": (
        svg('<style>@IMPORT "https://example.com/a.css";</style>'),
        "its style reaches outside the picture (`@import`), line 1 of the picture",
    ),
    "CSS address": (
        svg('<rect style="fill: URL( https://example.com/p.png )"/>'),
        "its style reaches outside the picture (`url(https://example.com/p.png)`), line 1 of the picture",
    ),
    "CSS escape": (
        svg("<style>rect { fill: \\75 rl(https://example.com/p.png) }</style>"),
        "its style reaches outside the picture (`url(https://example.com/p.png)`), line 1 of the picture",
    ),
    "CSS import split by a comment": (
        svg('<style>@im<!-- -->port "https://example.com/a.css";</style>'),
        "its style reaches outside the picture (`@import`), line 1 of the picture",
    ),
    "CSS address split by an instruction": (
        svg("<style>rect { fill: u<?x?>rl(https://example.com/p.png) }</style>"),
        "its style reaches outside the picture (`url(https://example.com/p.png)`), line 1 of the picture",
    ),
    "CSS import after an element": (
        svg('<style>rect {}<g/>@import "https://example.com/a.css";</style>'),
        "its style reaches outside the picture (`@import`), line 1 of the picture",
    ),
    "address in an attribute": (
        svg('<rect filter="url(effects.svg#blur)"/>'),
        "its style reaches outside the picture (`url(effects.svg#blur)`), line 1 of the picture",
    ),
    "entity": (
        b'<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
        "it declares entities (`<!ENTITY>` in its DOCTYPE)",
    ),
    "not SVG": (
        b"<html><script>alert(1)</script></html>",
        "it is not an SVG picture (its root is `html` in no namespace)",
    ),
    "no namespace": (
        b"<svg><script>alert(1)</script></svg>",
        "it is not an SVG picture (its root is `svg` in no namespace)",
    ),
    # filters whose work had no bound: each held Typst, and the build, for over a minute (a reader's browser too)
    "morphology": (
        svg('<filter id="f">\n<feMorphology operator="dilate" radius="50"/></filter>'),
        "it holds a filter whose work grows with the square of its radius (`<feMorphology>`), line 2 of the picture",
    ),
    "octaves": (
        svg('<filter id="f"><feTurbulence baseFrequency="0.5" numOctaves="1000000000"/></filter>'),
        'its filter asks for `numOctaves="1000000000"`, more than 10, the most a picture may ask for, line 1 of the '
        "picture",
    ),
    "kernel": (
        svg('<filter id="f"><feConvolveMatrix order="3 300" kernelMatrix="1"/></filter>'),
        'its filter asks for `order="3 300"`, more than 5, the most a picture may ask for, line 1 of the picture',
    ),
    "not XML": (
        b'<svg xmlns="http://www.w3.org/2000/svg">\n<rect></svg>',
        "it is not well-formed XML (Opening and ending tag mismatch: rect line 2 and svg), line 2 of the picture",
    ),
}


@pytest.mark.parametrize("name", REFUSED_SVG)
def test_an_svg_that_could_act_is_refused_with_what_it_holds(name: str) -> None:
    data, reason = REFUSED_SVG[name]
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    assert str(refused.value) == reason


def test_a_style_is_published_as_the_css_that_was_checked() -> None:
    """What is inside a ``<style>`` but its text is left out, and the text around it is joined as the browser joins it."""
    rebuilt = sanitised_svg(svg("<style>rect { fill: <x>y</x>#fff }<!-- c --><?p?> .a { stroke: red }</style>"))
    assert b"<style>rect { fill: #fff } .a { stroke: red }</style>" in rebuilt


def test_a_drawing_is_published_without_its_editors_metadata() -> None:
    rebuilt = lxml.etree.fromstring(sanitised_svg(DRAWING))
    tags = [lxml.etree.QName(e).localname for e in rebuilt.iter() if isinstance(e.tag, str)]
    drawn = ["path", "use", "text", "tspan", "image"]
    assert tags == ["svg", "title", "defs", "linearGradient", "stop", "stop", "style", "g", *drawn]
    assert {lxml.etree.QName(e).namespace for e in rebuilt.iter()} == {SVG}
    attributes = {key for e in rebuilt.iter() for key in e.attrib}
    assert attributes == {
        *("width", "height", "viewBox", "id", "offset", "style", "stop-color", "class", "d", "x", "y"),
        f"{{{XLINK}}}href",
        "{http://www.w3.org/XML/1998/namespace}space",
        "href",
    }
    assert rebuilt.findtext(f".//{{{SVG}}}text") == "Front & "
    assert rebuilt.findtext(f".//{{{SVG}}}style") == ".arc { fill: url(#fade); stroke: #333 }"
    assert sanitised_svg(DRAWING) == sanitised_svg(sanitised_svg(DRAWING))  # nothing left to take out


@pytest.mark.parametrize("name", sorted(FILES))
def test_only_pictures_are_published_and_as_what_their_content_is(name: str, tmp_path: Path) -> None:
    (tmp_path / name).write_bytes(FILES[name])
    content = published_picture(tmp_path / name)
    if name not in PUBLISHED:
        assert isinstance(content, Refusal)
    elif name.endswith(".svg"):
        assert content == sanitised_svg(FILES[name])
    else:
        assert content == FILES[name]


def test_a_refusal_says_what_the_file_is(tmp_path: Path) -> None:
    for name in ("photo.png", "page.png", "page.html", "noname", "link.png"):
        (tmp_path / name).write_bytes(FILES.get(name, PNG))
    (tmp_path / "page.png").write_bytes(b"<html></html>")
    (tmp_path / "link.png").unlink()
    (tmp_path / "link.png").symlink_to(tmp_path / "photo.png")
    assert published_picture(tmp_path / "photo.png") == Refusal(
        "its content is a JPEG picture, but its name ends in `.png`", "rename it `photo.jpg`"
    )
    assert published_picture(tmp_path / "page.png") == Refusal(
        "its content is not a PNG picture",
        "export it as PNG, JPEG, GIF, WebP, AVIF or SVG, its name ending in its type "
        "(`.png`, `.jpg`, `.gif`, `.webp`, `.avif`, `.svg`)",
    )
    refusal = published_picture(tmp_path / "page.html")
    assert isinstance(refusal, Refusal) and refusal.reason == "`.html` is not a kind of picture the site publishes"
    refusal = published_picture(tmp_path / "noname")
    assert isinstance(refusal, Refusal) and refusal.reason == "`noname` is not a kind of picture the site publishes"
    refusal = published_picture(tmp_path / "link.png")
    assert isinstance(refusal, Refusal) and refusal.reason.startswith("it cannot be read")


@pytest.fixture
def pictures(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return make_project(tmp_path)


def test_the_lint_places_each_refused_picture_at_its_image_element(
    pictures: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with nothing_written_outside(pictures):
        outcome = run(capsys, "lint", "--format", "json")
    assert outcome.code == 1
    found = [json.loads(line.rstrip(",")) for line in outcome.out.splitlines()[1:-1]]
    refused = {(d["target"], d["line"], d["column"]): d["message"] for d in found if d["code"] == "RB305"}
    assert refused == {
        ("scripted.svg", 12, 23): "image `scripted.svg` is not published: it holds a script (`<script>`), "
        "line 3 of the picture",
        (
            "page.html",
            13,
            23,
        ): "image `page.html` is not published: `.html` is not a kind of picture the site publishes",
        ("page.png", 14, 23): "image `page.png` is not published: its content is not a PNG picture",
        ("photo.png", 15, 24): "image `photo.png` is not published: its content is a JPEG picture, "
        "but its name ends in `.png`",
        ("vector.png", 16, 24): "image `vector.png` is not published: its content is not a PNG picture",
        ("huge.png", 17, 24): "image `huge.png` is not published: it is 60,000 x 60,000 pixels, more than the "
        "64,000,000 a picture may have (a browser or the PDF would need 13.4 GB to show it)",
    }
    assert not [d for d in found if d["code"] == "RB303"]  # they are there: not missing


def test_the_site_publishes_only_the_pictures(pictures: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "build", "-q").code == 0
    images = pictures / "site" / "images"
    assert {p.name for p in images.iterdir()} == {published_name(name) for name in PUBLISHED}
    assert not (images / "arc.svg").exists()  # a reader's browser is never sent an SVG: it gets the PNG drawn from it
    assert (images / "arc.svg.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")
    assert (images / "front.png").read_bytes() == PNG
    page = lxml.html.parse(str(pictures / "site" / "pictures" / "index.html"))
    shown = sorted(str(src).removeprefix("../images/") for src in page.xpath("//figure/img/@src"))
    assert shown == sorted(published_name(name) for name in PUBLISHED)
    assert len(page.xpath("//figure/div[@class='rb-figure-missing']")) == len(FILES) - len(PUBLISHED)


def test_the_editors_view_names_the_refused_pictures(pictures: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "build", "--drafts", "-q").code == 0
    page = lxml.html.parse(str(pictures / "site" / "pictures" / "index.html"))
    marks = sorted(str(m.text_content()) for m in page.xpath("//span[@class='rb-missing-files']"))
    assert marks == [f"refused-image: {name}" for name in sorted(set(FILES) - PUBLISHED)]


def test_an_images_folder_that_is_a_link_is_named_at_each_image(
    pictures: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A link is never followed, even inside the project; each image was said to be missing ("add `images/x.png`
    beside the sources"), though it was there, through the link."""
    (pictures / "rules" / "images").rename(pictures / "art")
    (pictures / "rules" / "images").symlink_to(Path("..") / "art")
    outcome = run(capsys, "lint", "--format", "json")
    found = [json.loads(line.rstrip(",")) for line in outcome.out.splitlines()[1:-1]]
    said = {(d["code"], d["message"], d["help"]) for d in found if d["code"] in ("RB303", "RB305")}
    reason = "the `images` folder beside the sources is a symbolic link, which the build never follows"
    help_ = "make `images` a folder of the project itself, holding the pictures"
    assert said == {("RB305", f"image `{name}` is not published: {reason}", help_) for name in FILES}
    assert outcome.code == 1
