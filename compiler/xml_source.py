"""Read an XML rulebook into the document model.

The parser never expands entities, never touches the network and keeps
libxml2's limits on huge documents; the DOCTYPE's DTD is never loaded: the
document is checked against the compiler's own ``rulebook.dtd`` (see
:mod:`compiler.dtd`). Malformed XML is a located fatal diagnostic.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from compiler import dtd
from compiler.catalog.reading import INVALID_DOCUMENT, MALFORMED_XML, UNREADABLE_SOURCE
from compiler.diagnostics import Diagnostic
from compiler.locate import start_tag_offsets
from compiler.model import (
    Annotated,
    Cell,
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
    unique_id,
)
from compiler.names import slugify
from compiler.source import SourceText, Span, read_text

SECTION_LEVELS = {"chapter": 1, "section": 2, "subsection": 3}


@dataclass(frozen=True, slots=True)
class SourceResult:
    """What reading one source gave: a document (unless fatal) and diagnostics."""

    document: Document | None
    diagnostics: tuple[Diagnostic, ...]
    source: SourceText | None


def safe_parser() -> etree.XMLParser:
    """An XML parser that expands no entity, loads no DTD and reaches no network."""
    return etree.XMLParser(
        resolve_entities=False,
        no_network=True,
        load_dtd=False,
        dtd_validation=False,
        huge_tree=False,
        remove_pis=False,
    )


def unreadable(display: str, reason: str) -> SourceResult:
    """The result for a source file that could not be read at all."""
    message = f"cannot read `{display}`: {reason}"
    diagnostic = UNREADABLE_SOURCE.diagnostic(message, Span(display, 1, 1), target=display)
    return SourceResult(None, (diagnostic,), None)


def read_text_source(path: Path, display: str, parse: Callable[[str, str], SourceResult]) -> SourceResult:
    """A UTF-8 source file (Markdown, the plain-text export) read and parsed by ``parse(text, display)``."""
    text, problem = read_text(path)
    if text is None:
        return unreadable(display, problem or "unknown error")
    return parse(text, display)


def read_xml_file(path: Path, display: str, *, language: str = "en", validate: bool = True) -> SourceResult:
    """Read and parse one XML source file; ``display`` is the path shown in messages."""
    try:
        data = path.read_bytes()
    except OSError as error:
        return unreadable(display, (error.strerror or str(error)).lower())
    return parse_xml_bytes(data, display, language=language, validate=validate)


def parse_xml_string(text: str, path: str = "<string>", *, language: str = "en", validate: bool = True) -> SourceResult:
    """Parse XML given as text (tests, tools)."""
    return parse_xml_bytes(text.encode("utf-8"), path, language=language, validate=validate)


def parse_xml_bytes(data: bytes, path: str, *, language: str = "en", validate: bool = True) -> SourceResult:
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        source = SourceText.from_text(path, data.decode("utf-8", errors="replace"))
        line, column = source.position(error.start)
        diagnostic = UNREADABLE_SOURCE.diagnostic(
            "the file is not valid UTF-8 text", Span(path, line, column), target=path
        )
        return SourceResult(None, (diagnostic,), source)
    source = SourceText.from_text(path, text)
    try:
        root = etree.fromstring(data, safe_parser())
    except etree.XMLSyntaxError as error:
        return SourceResult(None, (_malformed(error, source),), source)
    diagnostics = list(dtd.validate(root, source)) if validate else []
    builder = _Builder(source, root, language)
    document = builder.build()
    diagnostics.extend(builder.diagnostics)
    return SourceResult(document, tuple(diagnostics), source)


def _malformed(error: etree.XMLSyntaxError, source: SourceText) -> Diagnostic:
    line, column = error.position if error.position else (1, 1)
    line = max(1, min(line or 1, len(source.line_starts)))
    column = max(1, min(column or 1, len(source.line_text(line)) + 1))
    message = re.sub(r", line \d+, column \d+$", "", error.msg or "not well-formed")
    message = message[:1].lower() + message[1:]
    return MALFORMED_XML.diagnostic(
        message.rstrip("."),
        Span(source.path, line, column),
        help="fix the XML at this place; nothing after it could be read",
    )


class _Builder:
    """Walks the lxml tree once, in document order, building immutable nodes.

    Start tags appear in the text in document order, so the n-th element visited
    starts at the n-th start-tag offset: ``_offset()`` is called exactly once per
    element, in pre-order.
    """

    def __init__(self, source: SourceText, root: etree._Element, language: str) -> None:
        self.source = source
        self.path = source.path
        self.root = root
        self.language = language
        self.diagnostics: list[Diagnostic] = []
        self._offsets = iter(self._element_offsets())
        self._taken_ids = {str(i) for i in root.xpath("//@id")}  # type: ignore[union-attr]
        self.sections: list[Section] = []
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.links: list[Link] = []
        self.figures: list[Figure] = []
        self.values: list[Value] = []
        self.images: list[Image] = []
        self.mechanics: list[Mechanic] = []
        self.annotated: list[Annotated] = []
        self.ids: list[tuple[str, Span]] = []

    def _element_offsets(self) -> list[int]:
        count = sum(1 for _ in self.root.iter(tag=etree.Element))
        offsets = start_tag_offsets(self.source.text, count)
        if len(offsets) != count:  # pragma: no cover - defensive: fall back to line starts
            starts = self.source.line_starts
            lines = [int(e.sourceline or 1) for e in self.root.iter(tag=etree.Element)]  # type: ignore[call-overload]
            return [starts[min(line, len(starts)) - 1] for line in lines]
        return offsets

    def _offset(self) -> int:
        return next(self._offsets)

    def build(self) -> Document:
        offset = self._offset()
        body = tuple(n for n in self._content(self.root, "", None) if isinstance(n, Section))
        if self.root.tag != "document":
            self.diagnostics.append(
                INVALID_DOCUMENT.diagnostic(
                    f"the root element is `<{self.root.tag}>`, not `<document>`",
                    self.source.span(offset),
                    target=str(self.root.tag),
                )
            )
        return Document(
            self.path,
            self.language,
            body,
            tuple(self.sections),
            tuple(self.definitions),
            tuple(self.references),
            tuple(self.links),
            tuple(self.figures),
            tuple(self.values),
            tuple(self.images),
            tuple(self.mechanics),
            tuple(self.ids),
            tuple(self.annotated),
        )

    # -- content ------------------------------------------------------------

    def _content(self, element: etree._Element, section_id: str, definition: str | None) -> Content:
        parts: list[Node] = []
        append = parts.append
        references = self.references
        offsets = self._offsets
        source = self.source
        text = element.text
        if text:
            append(" " if text.isspace() else text)
        for child in element:
            tag = child.tag
            if tag == "reference":
                # The hot path (most elements are references): no method call.
                offset = next(offsets)
                label = (child.text or "") if len(child) == 0 else self._text_only(child)
                reference = Reference(
                    child.get("name", ""), label, child.get("type"), section_id, definition, source, offset
                )
                references.append(reference)
                append(reference)
            elif isinstance(tag, str):
                node = self._node(child, tag, section_id, definition)
                if type(node) is tuple:
                    parts.extend(node)  # type: ignore[arg-type]  # an unknown element's content
                elif node is not None:
                    append(node)  # type: ignore[arg-type]
            elif isinstance(child, etree._Entity):
                append(self._entity(child, section_id))
            tail = child.tail
            if tail:
                append(" " if tail.isspace() else tail)
        return tuple(parts)

    def _node(self, el: etree._Element, tag: str, section_id: str, definition: str | None) -> Node | Content | None:
        source = self.source
        if tag == "definition":
            return self._definition(el, section_id, definition)
        if tag == "link":
            offset = self._offset()
            link = Link(el.get("to", ""), self._text_only(el), section_id, source, offset)
            self.links.append(link)
            return link
        if tag == "value":
            offset = self._offset()
            value = Value(el.get("name", ""), self._text_only(el), section_id, source, offset)
            self.values.append(value)
            return value
        if tag == "mechanic":
            attributes = tuple(sorted((str(k), str(v)) for k, v in el.attrib.items() if k != "name"))
            mechanic = Mechanic(el.get("name", ""), attributes, section_id, definition, source, self._offset())
            self._skip_descendants(el)
            self.mechanics.append(mechanic)
            return mechanic
        if tag == "br":
            line_break = LineBreak(source, self._offset())
            self._skip_descendants(el)
            return line_break
        if tag in SECTION_LEVELS:
            return self._section(el, tag, section_id)
        if tag == "important":
            offset = self._offset()
            return Important(self._content(el, section_id, definition), source, offset)
        if tag == "note":
            offset = self._offset()
            return Note(el.get("title"), self._content(el, section_id, definition), source, offset)
        if tag == "table":
            return self._table(el, section_id, definition)
        if tag in ("list", "sequence"):
            return self._item_list(el, tag == "sequence", section_id, definition)
        if tag == "figure":
            return self._figure(el, section_id, definition)
        if tag == "illustration":
            offset = self._offset()
            return Illustration(tuple(self._images(el)), source, offset)
        # Unknown elements (reported by the DTD check): keep their content.
        self._offset()
        return self._content(el, section_id, definition)

    def _definition(self, el: etree._Element, section_id: str, parent: str | None) -> Definition:
        offset = self._offset()
        name = el.get("name", "")
        index = len(self.definitions)
        self.definitions.append(Definition(name, (), section_id, parent, self.source, offset))  # outer first
        children = self._content(el, section_id, name)
        definition = Definition(name, children, section_id, parent, self.source, offset)
        self.definitions[index] = definition
        return definition

    def _section(self, el: etree._Element, tag: str, parent_id: str) -> Section:
        offset = self._offset()
        title = " ".join((el.get("title") or "").split())
        explicit = el.get("id")
        section_id = explicit if explicit is not None else self._new_id(title, parent_id)
        if explicit is not None:
            self.ids.append((explicit, self.source.span(offset)))
        level = SECTION_LEVELS[tag]
        index = len(self.sections)
        parent = parent_id or None
        explicit_id = explicit is not None
        self.sections.append(Section(section_id, explicit_id, title, level, (), parent, None, self.source, offset))
        children = self._content(el, section_id, None)
        section = Section(section_id, explicit_id, title, level, children, parent, None, self.source, offset)
        self.sections[index] = section
        return section

    def _new_id(self, title: str, parent_id: str) -> str:
        slug = slugify(title)
        if slug not in self._taken_ids:
            self._taken_ids.add(slug)
            return slug
        # A repeated title: qualify it by its parent, then (rarely) count.
        return unique_id(f"{parent_id}-{slug}" if parent_id else slug, self._taken_ids)

    def _table(self, el: etree._Element, section_id: str, definition: str | None) -> Table:
        offset = self._offset()
        columns: Row | None = None
        rows: list[Row] = []
        for child in el.iterchildren(tag=etree.Element):
            row = self._row(child, section_id, definition)
            if child.tag == "headers" and columns is None:
                columns = row
            else:
                rows.append(row)
        table = Table(el.get("title"), columns, tuple(rows), el.get("data"), el.get("roll"), self.source, offset)
        if table.data is not None or table.roll is not None:
            self.annotated.append(Annotated(table, section_id, definition or section_id))
        return table

    def _row(self, el: etree._Element, section_id: str, definition: str | None) -> Row:
        offset = self._offset()
        cells = []
        for child in el.iterchildren(tag=etree.Element):
            cell_offset = self._offset()
            content = self._content(child, section_id, definition)
            cells.append(Cell(child.tag == "header", content, self.source, cell_offset))
        return Row(tuple(cells), self.source, offset)

    def _item_list(self, el: etree._Element, ordered: bool, section_id: str, definition: str | None) -> ItemList:
        offset = self._offset()
        items = []
        for child in el.iterchildren(tag=etree.Element):
            item_offset = self._offset()
            content = self._content(child, section_id, definition)
            items.append(Item(child.get("title"), content, self.source, item_offset))
        item_list = ItemList(ordered, tuple(items), el.get("roll"), self.source, offset, el.get("data"))
        if item_list.roll is not None or item_list.data is not None:
            self.annotated.append(Annotated(item_list, section_id, definition or section_id))
        return item_list

    def _figure(self, el: etree._Element, section_id: str, definition: str | None) -> Figure:
        offset = self._offset()
        images: list[Image] = []
        caption_title: str | None = None
        caption: Content = ()
        for child in el.iterchildren(tag=etree.Element):
            if child.tag == "image":
                image = Image(child.get("source", ""), self.source, self._offset())
                images.append(image)
                self.images.append(image)
                self._skip_descendants(child)
            else:
                self._offset()
                caption_title = child.get("title")
                caption = self._content(child, section_id, definition)
        figure_id = el.get("id", "")
        figure = Figure(figure_id, tuple(images), caption_title, caption, section_id, self.source, offset)
        self.ids.append((figure_id, self.source.span(offset)))
        self.figures.append(figure)
        return figure

    def _images(self, el: etree._Element) -> Iterator[Image]:
        for child in el.iterchildren(tag=etree.Element):
            image = Image(child.get("source", ""), self.source, self._offset())
            self.images.append(image)
            yield image
            self._skip_descendants(child)

    def _text_only(self, el: etree._Element) -> str:
        """The text of an element that should hold only text (extra markup is dropped)."""
        if len(el) == 0:
            return el.text or ""
        self._skip_descendants(el)
        return "".join(str(text) for text in el.itertext())

    def _skip_descendants(self, el: etree._Element) -> None:
        for _ in el.iterdescendants(tag=etree.Element):
            next(self._offsets)

    def _entity(self, entity: etree._Entity, section_id: str) -> str:
        line = int(entity.sourceline or 1)
        self.diagnostics.append(
            INVALID_DOCUMENT.diagnostic(
                f"entity reference `&{entity.name};` is not expanded",
                Span(self.path, line, _column_of(self.source.line_text(line), f"&{entity.name};")),
                target=str(entity.name),
                help="write the text itself, or a character reference such as `&#8217;`",
                section_id=section_id or None,
            )
        )
        return f"&{entity.name};"


def _column_of(line_text: str, needle: str) -> int:
    index = line_text.find(needle)
    return index + 1 if index >= 0 else 1
