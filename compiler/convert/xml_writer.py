"""A document as the XML format (``rulebook convert --to xml``): read back, it gives the same model.

Blocks stand on lines of their own, indented; text is written as the model holds it (escaped), so the
white space between blocks is the only text the writer adds.
"""

from __future__ import annotations

import re
from xml.sax.saxutils import escape, quoteattr

from rulebook.characters import with_character_references
from rulebook.convert.failure import ConversionError
from rulebook.model import (
    Content,
    Definition,
    Document,
    Figure,
    Illustration,
    Image,
    Important,
    Item,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Node,
    Note,
    Reference,
    Row,
    Section,
    Table,
    Value,
)
from rulebook.source import not_xml

_SECTION_TAGS = {1: "chapter", 2: "section", 3: "subsection"}
_BLOCKS = (Section, Note, Table, ItemList, Figure, Illustration)
_BREAK_ON_ITS_LINE = re.compile(r"\n *<br/>")


def write_xml(document: Document) -> str:
    """The document in the XML format, with its declaration and DOCTYPE."""
    title = f" title={quoteattr(document.title)}" if document.title else ""
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<!DOCTYPE document SYSTEM "rulebook.dtd">',
        f"<document{title}>",
    ]
    lines += [_block(section, 1) for section in document.body]
    written = "\n".join([*lines, "</document>", ""])
    _refuse_what_xml_cannot_hold(written, document)
    return with_character_references(written)  # read back as they were; no byte of them acts on a terminal


def _refuse_what_xml_cannot_hold(written: str, document: Document) -> None:
    """A character XML 1.0 forbids (ESC, BEL, U+FFFE: the Markdown dialect reads them as text) would make the
    converted book a file no XML reader reads: refused where the source holds it."""
    found = not_xml(written)
    if found is None:
        return
    character = written[found]
    source = document.sections[0].source if document.sections else None
    place = source.text.find(character) if source is not None else -1
    span = source.span(place, 1) if source is not None and place >= 0 else None
    if span is None and document.title is not None and character in document.title:
        span = document.title_place  # written as an escape YAML reads (``"Moves\e[31m"``): at the title's value
    raise ConversionError(
        f"U+{ord(character):04X} cannot be written in XML, which forbids control characters and non-characters: "
        "remove it from the source",
        span,
    )


def _attributes(*pairs: tuple[str, str | None]) -> str:
    return "".join(f" {key}={quoteattr(value)}" for key, value in pairs if value is not None)


def _content(content: Content, depth: int) -> str:
    """Content: inline nodes as they stand, each block on a line of its own."""
    parts: list[str] = []
    for node in content:
        if isinstance(node, _BLOCKS):
            parts.append("\n" + _block(node, depth) + "\n" + "  " * depth)
        else:
            parts.append(_inline(node, depth))
    return "".join(parts)


def _element(tag: str, attributes: str, content: Content, depth: int) -> str:
    return f"<{tag}{attributes}>{_content(content, depth + 1)}</{tag}>"


def _block(node: Node, depth: int) -> str:
    indent = "  " * depth
    if isinstance(node, Section):
        tag = _SECTION_TAGS.get(node.level, "subsection")
        attributes = _attributes(
            ("title", node.title), ("id", node.id if node.explicit_id else None), ("number", node.number)
        )
        content = _content(node.children, depth + 1)
        if content and not content.startswith("\n"):  # its text on a line of its own, as a heading's paragraph is
            content = "\n" + indent + "  " + content
        return f"{indent}<{tag}{attributes}>{content}</{tag}>"
    if isinstance(node, Note):
        return indent + _element("note", _attributes(("title", node.title)), node.children, depth)
    if isinstance(node, Table):
        return indent + _table(node, depth)
    if isinstance(node, ItemList):
        tag = "sequence" if node.ordered else "list"
        kind = node.kind if node.ordered else None  # the DTD gives a list no kind
        items = "".join(f"\n{indent}  {_item(item, depth + 1)}" for item in node.items)
        written = _attributes(("id", node.id), ("title", node.title), ("kind", kind), ("roll", node.roll))
        return f"{indent}<{tag}{written}>{items}\n{indent}</{tag}>"
    if isinstance(node, Figure):
        images = "".join(_image(image) for image in node.images)
        caption = _element("caption", _attributes(("title", node.caption_title)), node.caption, depth + 1)
        return f"{indent}<figure id={quoteattr(node.id)}>{images}{caption}</figure>"
    if isinstance(node, Illustration):
        return f"{indent}<illustration>{''.join(_image(image) for image in node.images)}</illustration>"
    raise ConversionError(f"a `{type(node).__name__}` cannot be written in XML", getattr(node, "span", None))


def _image(image: Image) -> str:
    alt = f" alt={quoteattr(image.alt)}" if image.alt else ""
    return f"<image source={quoteattr(image.file)}{alt}/>"


def _item(item: Item, depth: int) -> str:
    return _element("item", _attributes(("title", item.title)), item.children, depth)


def _table(table: Table, depth: int) -> str:
    indent = "  " * depth
    attributes = _attributes(("id", table.id), ("title", table.title), ("kind", table.kind), ("roll", table.roll))
    rows = []
    if table.columns is not None:
        cells = table.columns.cells
        row_headers = bool(table.rows) and all(row.cells and row.cells[0].header for row in table.rows)
        corner = row_headers and not cells[0].children  # the empty corner over the rows' headers: the format's title=""
        headers = "".join(_element("header", "", cell.children, depth + 2) for cell in cells[corner:])
        rows.append(f"{indent}  <headers{_attributes(('title', '' if corner else None))}>{headers}</headers>")
    rows += [f"{indent}  {_row(row, depth + 1)}" for row in table.rows]
    return f"<table{attributes}>\n" + "\n".join(rows) + f"\n{indent}</table>"


def _row(row: Row, depth: int) -> str:
    cells = "".join(_element("header" if c.header else "cell", "", c.children, depth + 1) for c in row.cells)
    return f"<row>{_BREAK_ON_ITS_LINE.sub('<br/>', cells)}</row>"  # a cell's text has no lines: a pipe table's has none


def _inline(node: Node, depth: int) -> str:
    if isinstance(node, str):
        return escape(node)
    if isinstance(node, Reference):
        return f"<reference{_attributes(('name', node.name), ('type', node.kind))}>{escape(node.text)}</reference>"
    if isinstance(node, Link):
        return f"<link to={quoteattr(node.to)}>{escape(node.text)}</link>"
    if isinstance(node, Value):
        declared = _attributes(("name", node.name), ("kind", node.kind), ("term", node.term))
        return f"<value{declared}>{escape(node.text)}</value>"
    if isinstance(node, Mechanic):
        return f"<mechanic{_attributes(('name', node.name), *node.attributes)}/>"
    if isinstance(node, Important):
        return _element("important", "", node.children, depth)
    if isinstance(node, Definition):
        return _element("definition", _attributes(("name", node.name)), node.children, depth)
    if isinstance(node, LineBreak):
        return "\n" + "  " * depth + "<br/>"  # the paragraph after it starts a line: a suppression there covers it
    raise ConversionError(f"a `{type(node).__name__}` cannot be written in XML", getattr(node, "span", None))
