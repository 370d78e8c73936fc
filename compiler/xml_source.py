"""Read an XML rulebook into the document model.

The parser never expands entities, never touches the network and keeps
libxml2's limits on huge documents; the DOCTYPE's DTD is never loaded: the
document is checked against the compiler's own ``rulebook.dtd`` (see
:mod:`compiler.dtd`). Malformed XML is a located fatal diagnostic.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from lxml import etree

from compiler import dtd
from compiler.diagnostics import Diagnostic
from compiler.lint.rules import invalid_document, malformed_xml, unreadable_source
from compiler.locate import start_tag_offsets, start_tag_spans
from compiler.model import (
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
    Node,
    Note,
    Reference,
    Row,
    Section,
    Table,
)
from compiler.source import SourceText, Span

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


def read_xml_file(path: Path, display: str, *, language: str = "en", validate: bool = True) -> SourceResult:
    """Read and parse one XML source file; ``display`` is the path shown in messages."""
    try:
        data = path.read_bytes()
    except OSError as error:
        reason = error.strerror or str(error)
        diagnostic = unreadable_source.RULE.diagnostic(
            f"cannot read `{display}`: {reason.lower()}", Span(display, 1, 1), target=display
        )
        return SourceResult(None, (diagnostic,), None)
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
        diagnostic = unreadable_source.RULE.diagnostic(
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
    return malformed_xml.RULE.diagnostic(
        message.rstrip("."),
        Span(source.path, line, column),
        help="fix the XML at this place; nothing after it could be read",
    )


def slugify(title: str) -> str:
    """A readable anchor from a title: ``"Hidden or Open Lists ?"`` -> ``hidden-or-open-lists``."""
    ascii_title = unicodedata.normalize("NFKD", title).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", ascii_title.lower()).strip("-") or "section"


class _Builder:
    """Walks the lxml tree once, in document order, building immutable nodes."""

    def __init__(self, source: SourceText, root: etree._Element, language: str) -> None:
        self.source = source
        self.path = source.path
        self.root = root
        self.language = language
        self.diagnostics: list[Diagnostic] = []
        self._spans = iter(self._element_spans())
        self._taken_ids = {str(i) for i in root.xpath("//@id")}
        self.sections: list[Section] = []
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.links: list[Link] = []
        self.figures: list[Figure] = []
        self.ids: list[tuple[str, Span]] = []

    def _element_spans(self) -> list[Span]:
        count = sum(1 for _ in self.root.iter(tag=etree.Element))
        offsets = start_tag_offsets(self.source.text, count)
        if len(offsets) != count:  # pragma: no cover - defensive
            return [Span(self.path, e.sourceline or 1, 1) for e in self.root.iter(tag=etree.Element)]
        return start_tag_spans(self.source, offsets)

    def _span(self) -> Span:
        return next(self._spans)

    def build(self) -> Document:
        span = self._span()
        body = tuple(n for n in self._content(self.root, "", None) if isinstance(n, Section))
        if self.root.tag != "document":
            self.diagnostics.append(
                invalid_document.RULE.diagnostic(
                    f"the root element is `<{self.root.tag}>`, not `<document>`", span, target=str(self.root.tag)
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
            tuple(self.ids),
        )

    # -- content ------------------------------------------------------------

    def _content(self, element: etree._Element, section_id: str, definition: str | None) -> Content:
        parts: list[Node] = []
        append = parts.append
        text = element.text
        if text:
            append(" " if text.isspace() else text)
        for child in element:
            tag = child.tag
            if tag == "reference":
                # The hot path (most elements are references): no method call.
                span = next(self._spans)
                label = child.text or "" if len(child) == 0 else self._text_only(child)
                reference = Reference(child.get("name", ""), label, child.get("type"), span, section_id, definition)
                self.references.append(reference)
                append(reference)
            elif isinstance(tag, str):
                node = self._node(child, tag, section_id, definition)
                if type(node) is tuple:
                    parts.extend(node)
                elif node is not None:
                    append(node)
            elif isinstance(child, etree._Entity):
                append(self._entity(child, section_id))
            tail = child.tail
            if tail:
                append(" " if tail.isspace() else tail)
        return tuple(parts)

    def _node(self, el: etree._Element, tag: str, section_id: str, definition: str | None) -> Node | Content | None:
        if tag == "reference":
            return self._reference(el, section_id, definition)
        if tag == "definition":
            return self._definition(el, section_id, definition)
        if tag == "link":
            span = self._span()
            link = Link(el.get("to", ""), self._text_only(el), span, section_id)
            self.links.append(link)
            return link
        if tag == "br":
            line_break = LineBreak(self._span())
            self._skip_descendants(el)
            return line_break
        if tag in SECTION_LEVELS:
            return self._section(el, tag, section_id)
        if tag == "important":
            span = self._span()
            return Important(self._content(el, section_id, definition), span)
        if tag == "note":
            span = self._span()
            return Note(el.get("title"), self._content(el, section_id, definition), span)
        if tag == "table":
            return self._table(el, section_id, definition)
        if tag in ("list", "sequence"):
            return self._item_list(el, tag == "sequence", section_id, definition)
        if tag == "figure":
            return self._figure(el, section_id, definition)
        if tag == "illustration":
            span = self._span()
            return Illustration(tuple(self._images(el)), span)
        # Unknown elements (reported by the DTD check): keep their content.
        self._span()
        return self._content(el, section_id, definition)

    def _reference(self, el: etree._Element, section_id: str, definition: str | None) -> Reference:
        span = self._span()
        reference = Reference(el.get("name", ""), self._text_only(el), el.get("type"), span, section_id, definition)
        self.references.append(reference)
        return reference

    def _definition(self, el: etree._Element, section_id: str, parent: str | None) -> Definition:
        span = self._span()
        name = el.get("name", "")
        definition = Definition(name, (), span, section_id, parent)
        index = len(self.definitions)
        self.definitions.append(definition)  # document order: outer before nested
        children = self._content(el, section_id, name)
        definition = Definition(name, children, span, section_id, parent)
        self.definitions[index] = definition
        return definition

    def _section(self, el: etree._Element, tag: str, parent_id: str) -> Section:
        span = self._span()
        title = " ".join((el.get("title") or "").split())
        explicit = el.get("id")
        section_id = explicit if explicit is not None else self._new_id(title, parent_id)
        if explicit is not None:
            self.ids.append((explicit, span))
        index = len(self.sections)
        placeholder = Section(section_id, explicit is not None, title, SECTION_LEVELS[tag], (), span, parent_id or None)
        self.sections.append(placeholder)
        children = self._content(el, section_id, None)
        section = Section(section_id, explicit is not None, title, SECTION_LEVELS[tag], children, span, parent_id or None)
        self.sections[index] = section
        return section

    def _new_id(self, title: str, parent_id: str) -> str:
        slug = slugify(title)
        if slug not in self._taken_ids:
            self._taken_ids.add(slug)
            return slug
        # A repeated title: qualify it by its parent, then (rarely) count.
        base = f"{parent_id}-{slug}" if parent_id else slug
        candidate, n = base, 1
        while candidate in self._taken_ids:
            n += 1
            candidate = f"{base}-{n}"
        self._taken_ids.add(candidate)
        return candidate

    def _table(self, el: etree._Element, section_id: str, definition: str | None) -> Table:
        span = self._span()
        columns: Row | None = None
        rows: list[Row] = []
        for child in el.iterchildren(tag=etree.Element):
            row = self._row(child, section_id, definition)
            if child.tag == "headers" and columns is None:
                columns = row
            else:
                rows.append(row)
        return Table(el.get("title"), columns, tuple(rows), span)

    def _row(self, el: etree._Element, section_id: str, definition: str | None) -> Row:
        span = self._span()
        cells = []
        for child in el.iterchildren(tag=etree.Element):
            cell_span = self._span()
            content = self._content(child, section_id, definition)
            cells.append(Cell(child.tag == "header", content, cell_span))
        return Row(tuple(cells), span)

    def _item_list(self, el: etree._Element, ordered: bool, section_id: str, definition: str | None) -> ItemList:
        span = self._span()
        items = []
        for child in el.iterchildren(tag=etree.Element):
            item_span = self._span()
            items.append(Item(child.get("title"), self._content(child, section_id, definition), item_span))
        return ItemList(ordered, tuple(items), span)

    def _figure(self, el: etree._Element, section_id: str, definition: str | None) -> Figure:
        span = self._span()
        images: list[Image] = []
        caption_title: str | None = None
        caption: Content = ()
        for child in el.iterchildren(tag=etree.Element):
            if child.tag == "image":
                images.append(Image(child.get("source", ""), self._span()))
                self._skip_descendants(child)
            else:
                self._span()
                caption_title = child.get("title")
                caption = self._content(child, section_id, definition)
        figure_id = el.get("id", "")
        figure = Figure(figure_id, tuple(images), caption_title, caption, span, section_id)
        self.ids.append((figure_id, span))
        self.figures.append(figure)
        return figure

    def _images(self, el: etree._Element) -> Iterator[Image]:
        for child in el.iterchildren(tag=etree.Element):
            yield Image(child.get("source", ""), self._span())
            self._skip_descendants(child)

    def _text_only(self, el: etree._Element) -> str:
        """The text of an element that should hold only text (extra markup is dropped)."""
        if len(el) == 0:
            return el.text or ""
        self._skip_descendants(el)
        return "".join(el.itertext())

    def _skip_descendants(self, el: etree._Element) -> None:
        for _ in el.iterdescendants(tag=etree.Element):
            next(self._spans)

    def _entity(self, entity: etree._Entity, section_id: str) -> str:
        line = entity.sourceline or 1
        self.diagnostics.append(
            invalid_document.RULE.diagnostic(
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
