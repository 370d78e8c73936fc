"""What an SVG costs that its elements did not tell, counted (the eighteenth probe of issue 32, picture half): a
``<textPath>`` walks the points of its path each time it is drawn, a ``font-family`` list is looked up for each font
description, an ``<feTurbulence>`` makes a pass an octave; and two refusals told plainly (a DOCTYPE's entities, a
nesting deeper than libxml2 reads)."""

from __future__ import annotations

import pytest

from rulebook.svg_pictures import UnsafeSvg, sanitised_svg

HEAD = '<svg xmlns="http://www.w3.org/2000/svg" width="1000" height="1000" viewBox="0 0 1000 1000">'


def picture(body: str) -> bytes:
    return f"{HEAD}{body}</svg>".encode()


def refusal(data: bytes) -> UnsafeSvg:
    with pytest.raises(UnsafeSvg) as refused:
        sanitised_svg(data)
    return refused.value


def test_an_illustrator_doctype_is_refused_with_what_to_do() -> None:
    """Illustrator's "Save As SVG" declares entities for namespace names: refused (never expanded), saying how to
    export or mend it."""
    data = (
        b'<!DOCTYPE svg PUBLIC "-//W3C//DTD SVG 1.1//EN" "http://www.w3.org/Graphics/SVG/1.1/DTD/svg11.dtd" [\n'
        b'<!ENTITY ns_flows "http://ns.adobe.com/Flows/1.0/">\n]>\n'
        b'<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="50" height="30"/></svg>'
    )
    refused = refusal(data)
    assert str(refused) == "it declares entities (`<!ENTITY>` in its DOCTYPE)"
    assert refused.help is not None
    assert "delete the DOCTYPE" in refused.help
    assert "Export As" in refused.help


def test_a_nesting_too_deep_is_said_plainly() -> None:
    """libxml2 stops at 256 elements one inside the other, naming an option of its own no user can set."""
    refused = refusal(picture("<g>" * 300 + "</g>" * 300))
    assert str(refused) == (
        "its elements are nested more than 256 deep, the most a picture may nest them, line 1 of the picture"
    )
    assert "XML_PARSE_HUGE" not in str(refused)
    assert sanitised_svg(picture("<g>" * 250 + "</g>" * 250))
