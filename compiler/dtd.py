"""Validation against the compiler's own ``rulebook.dtd``.

A valid document costs one libxml2 call; the diagnostics for an invalid one are made by
:mod:`rulebook.dtd_findings`, imported only then.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import cache
from pathlib import Path

from lxml import etree

from rulebook.diagnostics import Diagnostic
from rulebook.source import SourceText

_DTD_FILE = Path(__file__).parent / "schema" / "rulebook.dtd"
"""Where the DTD is when the package is files on disk, as installed (no need for importlib.resources then)."""


def dtd_text() -> str:
    """The DTD shipped with the compiler."""
    if _DTD_FILE.is_file():
        return _DTD_FILE.read_text(encoding="utf-8")
    from importlib import resources

    return resources.files("rulebook").joinpath("schema/rulebook.dtd").read_text(encoding="utf-8")


@cache
def _dtd() -> etree.DTD:
    if _DTD_FILE.is_file():
        return etree.DTD(str(_DTD_FILE))
    from importlib import resources

    with resources.as_file(resources.files("rulebook").joinpath("schema/rulebook.dtd")) as path:
        return etree.DTD(str(path))


@cache
def attribute_names(element: str) -> tuple[str, ...]:
    """The attributes the DTD gives an element, in the DTD's order (empty for an element it does not declare): for
    a format that writes the element otherwise (the Markdown dialect's mechanics comment), checked against it."""
    elements = _dtd().iterelements()  # type: ignore[attr-defined]  # lxml's stubs leave the DTD's walk out
    declared = next((e for e in elements if e.name == element), None)
    return tuple(reversed([str(a.name) for a in declared.iterattributes()])) if declared is not None else ()


@cache
def attribute_values(element: str) -> dict[str, tuple[str, ...]]:
    """The values the DTD allows each enumerated attribute of an element (``pass``: ``at-most``, ``at-least``...)."""
    elements = _dtd().iterelements()  # type: ignore[attr-defined]  # lxml's stubs leave the DTD's walk out
    declared = next((e for e in elements if e.name == element), None)
    attributes = declared.iterattributes() if declared is not None else ()
    return {str(a.name): tuple(str(v) for v in a.values()) for a in attributes if a.values()}


MAX_UNDECLARED = 1_000
"""The most elements and attributes the DTD does not declare that a document is validated with: libxml2's
validation grows faster than its errors (15,000 unknown elements took 2 s, 30,000 16 s, 40,000 on their own lines
32 s); past them, one finding says how many there are and where the first is."""


def validate(root: etree._Element, source: SourceText) -> Iterator[Diagnostic]:
    """Diagnostics for every DTD violation in a parsed document."""
    schema = _dtd()
    undeclared = _undeclared(root)
    if len(undeclared) > MAX_UNDECLARED:
        from rulebook.dtd_findings import too_many_undeclared

        yield too_many_undeclared(undeclared, MAX_UNDECLARED, root, source)
        return
    if schema.validate(root):
        return
    from rulebook.dtd_findings import findings

    yield from findings(schema, root, source)


def _undeclared(root: etree._Element) -> list[tuple[etree._Element, str | None]]:
    """The elements the DTD does not declare, and the attributes (in no namespace) it does not give an element it
    declares, each with its element, in document order (one walk; :data:`MAX_UNDECLARED` and one more at most)."""
    found: list[tuple[etree._Element, str | None]] = []
    for element in root.iter(tag=etree.Element):
        tag = element.tag
        if not isinstance(tag, str) or tag not in _declared():
            found.append((element, None))
        else:
            allowed = _attributes_of(tag)
            names = (str(name) for name in element.attrib)
            found += [(element, name) for name in names if "{" not in name and name not in allowed]
        if len(found) > MAX_UNDECLARED:
            break
    return found


@cache
def _declared() -> frozenset[str]:
    return frozenset(str(e.name) for e in _dtd().iterelements())  # type: ignore[attr-defined]


@cache
def _attributes_of(element: str) -> frozenset[str]:
    return frozenset(attribute_names(element))
