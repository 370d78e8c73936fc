"""The sanitiser's own work at its limits: each SVG content rebuilt once a command, and no more tags than the largest
real pictures hold.

The sanitiser is linear but takes about a fifth of a millisecond an element: 99,000 rectangles (4.3 MB, within the
limits then) took a lint 27.5 s and a build 90 s, which rebuilt the picture four times (twice for the lint, for the
site, for the PDF) (the eighteenth probe of issue 32). These tests count, they do not time.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulebook import pictures
from rulebook.pictures import published_picture
from rulebook.svg_pictures import MAX_SVG_ATTRIBUTES, MAX_SVG_TAGS, UnsafeSvg, sanitised_svg

from .pictures import make_project
from .scratch import run

RECTANGLE = '<rect x="1" y="1" width="1" height="1"/>'


def picture(body: str) -> bytes:
    return ('<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000">' + body + "</svg>").encode()


def test_a_build_rebuilds_each_svg_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A build reads each picture for the lint, the site and the PDF; an SVG's content is rebuilt once."""
    monkeypatch.chdir(tmp_path)
    make_project(tmp_path)
    monkeypatch.setattr(pictures, "_REBUILT", pictures.Remembered())
    rebuilt: list[bytes] = []

    def counted(data: bytes) -> bytes:
        rebuilt.append(data)
        return sanitised_svg(data)

    monkeypatch.setattr(pictures, "sanitised_svg", counted)
    assert run(capsys, "build", "-q").code == 0
    svgs = {path.read_bytes() for path in (tmp_path / "rules" / "images").glob("*.svg")}
    assert len(svgs) == 2  # one published, one refused
    assert sorted(rebuilt) == sorted(svgs)


def test_content_read_again_that_differs_is_rebuilt(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What is published is what was checked: the same name read again with other content is checked again."""
    monkeypatch.setattr(pictures, "_REBUILT", pictures.Remembered())
    path = tmp_path / "drawing.svg"
    path.write_bytes(picture(RECTANGLE))
    assert published_picture(path) == sanitised_svg(picture(RECTANGLE))
    path.write_bytes(picture("<script>alert(1)</script>"))
    refused = published_picture(path)
    assert isinstance(refused, pictures.Refusal)
    assert refused.reason == "it holds a script (`<script>`), line 1 of the picture"
    path.write_bytes(picture(RECTANGLE))
    assert published_picture(path) == sanitised_svg(picture(RECTANGLE))


def test_no_more_tags_than_the_largest_real_picture_holds_twice() -> None:
    """At most 30,000 tags (the largest of the 53,997 SVGs of this machine holds 19,059): the rebuilding is linear,
    at the limit a few seconds, where 100,000 took 27 s."""
    assert MAX_SVG_TAGS == 30_000
    sanitised_svg(picture(RECTANGLE * (MAX_SVG_TAGS - 3)))  # with the root's two tags and one to spare
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(picture(RECTANGLE * (MAX_SVG_TAGS + 1)))
    assert str(refused.value) == "it has more than 30,000 tags, the most an SVG picture may have"


def test_no_more_attributes_than_the_largest_real_picture_has_twice() -> None:
    """At most 150,000 attributes in all (the 53,997 SVGs of this machine have 47,403 at most): 7,500 rectangles of
    200 attributes each (16 MB, under the tag limit) took the sanitiser 23 to 54 s; unknown ones are read too."""
    assert MAX_SVG_ATTRIBUTES == 150_000
    named = '<rect x="1" y="1" width="1" height="1" fill="red" stroke="red"/>'  # six attributes
    sanitised_svg(picture(named * (MAX_SVG_ATTRIBUTES // 6 - 1)))
    reason = "its elements have more than 150,000 attributes, the most an SVG picture may have"
    for body in (
        named * (MAX_SVG_ATTRIBUTES // 6 + 1),
        ("<g " + " ".join(f'a{i}="1"' for i in range(200)) + "/>") * 751,
    ):
        with pytest.raises(UnsafeSvg) as refused:
            sanitised_svg(picture(body))
        assert str(refused.value) == reason
        assert refused.value.help == "export it simpler, or as a PNG"


def test_no_element_has_more_attributes_than_a_real_one_has_seven_times() -> None:
    """lxml finds each value by its name among the element's others: one element of 40,000 attributes took 6.6 s to
    read (the nineteenth probe); the 54,000 SVGs measured give one element 36 at most."""
    from rulebook.svg_pictures import MAX_ELEMENT_ATTRIBUTES

    sanitised_svg(picture("<g " + " ".join(f'a{i}="1"' for i in range(MAX_ELEMENT_ATTRIBUTES)) + "/>"))
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(picture("<g " + " ".join(f'a{i}="1"' for i in range(100_000)) + "/>"))
    assert (
        str(refused.value) == "an element has 100,000 attributes, more than the 256 one may have, line 1 of the picture"
    )
