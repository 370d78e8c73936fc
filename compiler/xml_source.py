"""Read an XML rulebook into the document model.

The parser never expands entities, never touches the network and keeps
libxml2's limits on huge documents; the DOCTYPE's DTD is never loaded: the
document is checked against the compiler's own ``rulebook.dtd`` (see
:mod:`rulebook.dtd`). Malformed XML is a located fatal diagnostic.

Sources are UTF-8 (see "Encodings and line ends" in ``docs/format.md``): invalid
bytes, or an XML declaration naming another encoding, are refused where they stand.
Every place is found in the decoded text, in characters, never taken from libxml2's
line numbers; elements nested deeper than :data:`~rulebook.model.MAX_DEPTH` are refused.

The lint reads an *outline* (``outline=True``): the same builder, recording every name, id,
target and place in the document's indexes, but not the text between them, and sections,
definitions and figures without content; tables and lists declared (``roll``, ``kind``, ``id``) are
built whole, since their cells are what the annotation checks read. Its loop over content is
its own (``_outline_content``: it builds no content), and ``tests/test_outline.py`` holds its
indexes equal to the whole model's. The stages that need the text (rule data, site) read the
whole model.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TypeVar

from lxml import etree

from rulebook import dtd
from rulebook.catalog.reading import INVALID_DOCUMENT, MALFORMED_XML, RAGGED_TABLE, UNREADABLE_SOURCE
from rulebook.diagnostics import Diagnostic
from rulebook.diagnostics import Note as DiagnosticNote
from rulebook.inputs import UnreadableInput, read_input
from rulebook.locate import (
    attribute_entity_references,
    attribute_list_declarations,
    entity_reference_offsets,
    start_tag_deeper_than,
    start_tag_offsets,
)
from rulebook.model import (
    MAX_DEPTH,
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
from rulebook.names import slugify
from rulebook.readers import SourceResult, decode_source, nesting_too_deep, unreadable
from rulebook.source import SourceText, Span
from rulebook.xml_syntax import plain_error

SECTION_LEVELS = {"chapter": 1, "section": 2, "subsection": 3}
_TAG_NAME = re.compile(r"[^\s/>]+")
T = TypeVar("T")
_TOO_DEEP = etree.XPath("(" + "/".join(["*"] * MAX_DEPTH) + ")[1]")
"""From the root (depth 1): the first element at depth ``MAX_DEPTH + 1``, in C, without recursion."""
_IDS = etree.XPath("//@id", smart_strings=False)
"""Every ``id`` the document writes, as plain strings."""


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


def read_xml_file(
    path: Path,
    display: str,
    *,
    language: str = "en",
    validate: bool = True,
    outline: bool = False,
    root: Path | None = None,
) -> SourceResult:
    """Read and parse one XML source file; ``display`` is the path shown in messages (``outline``: see above;
    ``root``: the project, when the file is one of its own, see :func:`~rulebook.inputs.read_input`)."""
    try:
        data = [read_input(path, root=root)]
    except UnreadableInput as error:
        return unreadable(display, error.reason)
    # Handed over, not kept: the bytes are dropped as soon as they are parsed (8 MB at the 100x book's peak).
    return parse_xml_bytes(data.pop(), display, language=language, validate=validate, outline=outline)


def parse_xml_string(
    text: str, path: str = "<string>", *, language: str = "en", validate: bool = True, outline: bool = False
) -> SourceResult:
    """Parse XML given as text (tests, tools)."""
    return parse_xml_bytes(text.encode("utf-8"), path, language=language, validate=validate, outline=outline)


def parse_xml_bytes(
    data: bytes, path: str, *, language: str = "en", validate: bool = True, outline: bool = False
) -> SourceResult:
    """Parse an XML source into the model (``outline``: its outline), with what reading it found."""
    source, problem = decode_source(data, path, xml=True)
    if problem is not None:
        return SourceResult(None, (problem,), source)
    try:
        root = etree.fromstring(_newline_ends(data), safe_parser())
    except etree.XMLSyntaxError as error:
        return SourceResult(None, (_malformed(error, source),), source)
    del data  # the text and the tree hold all that is needed from here on
    too_deep = _too_deep(root, source) or _too_many_attributes(root, source)
    if too_deep is not None:
        return SourceResult(None, (too_deep,), source)
    diagnostics = list(dtd.validate(root, source)) if validate else []
    diagnostics.extend(_declared_in_the_doctype(root, source))
    builder = _Builder(source, root, language, outline=outline)
    document = builder.build()
    diagnostics.extend(builder.diagnostics)
    return SourceResult(document, tuple(diagnostics), source)


def _newline_ends(data: bytes) -> bytes:
    """The bytes with every line ending in ``\\n``, as XML reads them anyway.

    libxml2 counts only ``\\n`` as a line end: this way its line numbers (which tell
    elements apart in DTD errors, and place syntax errors) count the lines we count.
    """
    return data.replace(b"\r\n", b"\n").replace(b"\r", b"\n") if b"\r" in data else data


def _malformed(error: etree.XMLSyntaxError, source: SourceText) -> Diagnostic:
    # libxml2 counts lines as we do (see _newline_ends) and columns in characters; clamped into the file.
    line, column = error.position if error.position else (1, 1)
    line = max(1, min(line or 1, len(source.line_starts)))
    column = max(1, min(column or 1, len(source.line_text(line)) + 1))
    span = Span(source.path, line, column)
    message = re.sub(r", line \d+, column \d+$", "", error.msg or "not well-formed")
    message = re.sub(r",? *(?:try|use) XML_PARSE_HUGE(?: option)?", "", message).strip()  # not the user's to set
    if message.lower().startswith("excessive depth in document"):
        # libxml2's own limit (256) is past ours: the same refusal, at the first start tag too deep.
        deep = start_tag_deeper_than(source.text, MAX_DEPTH)
        if deep is not None:
            tag = _TAG_NAME.match(source.text, deep + 1)
            return nesting_too_deep(source.span(deep), f"`<{tag.group() if tag else ''}>`")
    plain = plain_error(message)
    if plain is not None:
        marked = source.line_text(line).rfind(plain.mark, 0, column) if plain.mark else -1
        span = Span(source.path, line, marked + 1, 1) if marked != -1 else span
        return MALFORMED_XML.diagnostic(
            plain.message, span, help=f"{plain.help}; nothing after this place could be read"
        )
    if not message[1:2].isupper():  # "PCDATA invalid" keeps its capitals
        message = message[:1].lower() + message[1:]
    return MALFORMED_XML.diagnostic(
        message.rstrip("."), span, help="fix the XML at this place; nothing after it could be read"
    )


_DECLARATIONS_NAMED = 20
"""The DOCTYPE's declarations reported one by one; the rest are one finding (50,000 were 50,000 findings, 5 s)."""


def _declared_in_the_doctype(root: etree._Element, source: SourceText) -> Iterator[Diagnostic]:
    """What the DOCTYPE's own declarations put in attribute values, a finding at each place: libxml2 replaces an
    entity reference there by the entity's text, and gives every element of a name the default an ``<!ATTLIST>``
    declares, where nothing shows it; the format is its own DTD's alone (references in text are found apart)."""
    declared = root.getroottree().docinfo.internalDTD
    if declared is None:
        return
    declarations = attribute_list_declarations(source.text)
    for offset, kind, name in declarations[:_DECLARATIONS_NAMED]:
        declared_here = f"attributes of `<{name}>`" if kind == "ATTLIST" else f"the parameter entity `{name}`"
        yield INVALID_DOCUMENT.diagnostic(
            f"the DOCTYPE declares {declared_here} (`<!{kind}>`): not part of the rulebook format",
            source.span(offset),
            target=name,
            help="write each attribute on the element it is for; the format's own DTD is `rulebook dtd`",
        )
    if len(declarations) > _DECLARATIONS_NAMED:
        yield INVALID_DOCUMENT.diagnostic(
            f"the DOCTYPE declares {len(declarations) - _DECLARATIONS_NAMED:,} more attribute lists or parameter "
            "entities: not part of the rulebook format",
            source.span(declarations[_DECLARATIONS_NAMED][0]),
            help="remove the DOCTYPE's declarations; the format's own DTD is `rulebook dtd`",
        )
    if not any(True for _ in declared.iterentities()):  # type: ignore[attr-defined]
        return  # a reference to an entity not declared is malformed: none stands in a value
    for offset, name in attribute_entity_references(source.text):
        yield INVALID_DOCUMENT.diagnostic(
            f"entity reference `&{name};` in an attribute value is not part of the rulebook format",
            source.span(offset),
            target=name,
            help="write the text itself, or a character reference such as `&#8217;`",
        )


def _too_deep(root: etree._Element, source: SourceText) -> Diagnostic | None:
    """The refusal of the first element nested deeper than ``MAX_DEPTH``, if there is one."""
    found = _TOO_DEEP(root)
    if not isinstance(found, list) or not found or not isinstance(found[0], etree._Element):
        return None
    deep = found[0]
    elements = list(root.iter(tag=etree.Element))
    offset = start_tag_offsets(source.text, len(elements))[elements.index(deep)]
    return nesting_too_deep(source.span(offset), f"`<{deep.tag}>`")


MAX_ATTRIBUTES = 100
"""Attributes one element may have (the rulebook's elements take at most a dozen): lxml finds each value by its name
among the element's others, so reading them all grows with their square (one `<section>` of 80,000 attributes,
870 KB, held the lint 30 s, and the build, `convert` and `graph` as long), whatever reads them."""


def _too_many_attributes(root: etree._Element, source: SourceText) -> Diagnostic | None:
    """The refusal of the first element with more than :data:`MAX_ATTRIBUTES` attributes (counted without reading
    their values), if there is one."""
    for index, element in enumerate(root.iter(tag=etree.Element)):
        if len(element.attrib) > MAX_ATTRIBUTES:
            offset = start_tag_offsets(source.text, index + 1)[index]
            return UNREADABLE_SOURCE.diagnostic(
                f"`<{etree.QName(element).localname}>` has {len(element.attrib):,} attributes, more than the "
                f"{MAX_ATTRIBUTES} an element may have",
                source.span(offset),
                help="give the element the attributes the format describes (`rulebook docs format`)",
            )
    return None


_DECLARING = ("roll", "kind", "id")
"""The attributes that declare a table or list as data: a roll table, what it is, its own name."""


def _annotated(element: etree._Element) -> bool:
    """Whether a table or list is declared as data (a roll table, a kind of table or sequence, a named one)."""
    return any(element.get(attribute) is not None for attribute in _DECLARING)


class _Builder:
    """Walks the lxml tree once, in document order, building immutable nodes.

    Start tags appear in the text in document order, so the n-th element visited
    starts at the n-th start-tag offset: ``_offset()`` is called exactly once per
    element, in pre-order. ``outline``: the text between elements is passed over and
    sections, definitions and figures keep no content (see the module's documentation).
    """

    def __init__(self, source: SourceText, root: etree._Element, language: str, *, outline: bool = False) -> None:
        self.source = source
        self.outline = outline
        self.path = source.path
        self.root = root
        self.language = language
        self.diagnostics: list[Diagnostic] = []
        self._offsets = iter(self._element_offsets())
        self._taken_ids: set[str] = set(_IDS(root))  # type: ignore[arg-type]
        self._entity_offsets: dict[etree._Entity, int] | None = None
        self._suffixes: dict[str, int] = {}
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
        count = int(self.root.xpath("count(//*)"))  # type: ignore[arg-type]
        offsets = start_tag_offsets(self.source.text, count)
        if len(offsets) != count:  # pragma: no cover - the scan is exact for well-formed XML
            raise RuntimeError(f"{len(offsets)} start tags in the text, {count} elements parsed")
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
            title=self.root.get("title"),
            outline=self.outline,
        )

    # -- content ------------------------------------------------------------

    def _content(self, element: etree._Element, section_id: str, definition: str | None) -> Content:
        if self.outline:
            return self._outline_content(element, section_id, definition)
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

    def _outline_content(self, element: etree._Element, section_id: str, definition: str | None) -> Content:
        """The outline's walk of an element's content: it records what the content holds and returns
        only the sections standing in it (the body, for the root), since an outline keeps no content.

        The same nodes as :meth:`_content` makes, with less made on the way: this loop is most of
        the lint's reading time (see ``docs/performance.md``).
        """
        sections: list[Node] = []
        record = self.references.append
        offsets = self._offsets
        source = self.source
        make = tuple.__new__  # Reference's own __new__ is a Python function: twice the cost per reference
        for child in element:
            tag = child.tag
            if tag == "reference":
                offset = next(offsets)
                label = self._text_only(child) if len(child) else (child.text or "")
                fields = (child.get("name", ""), label, child.get("type"), section_id, definition, source, offset)
                record(make(Reference, fields))
            elif tag in SECTION_LEVELS:
                sections.append(self._section(child, tag, section_id))
            elif isinstance(tag, str):
                node = self._node(child, tag, section_id, definition)
                if type(node) is tuple:  # an unknown element's content: the sections in it
                    sections.extend(node)  # type: ignore[arg-type]
            elif isinstance(child, etree._Entity):
                self._entity(child, section_id)
        return tuple(sections)

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
            text = self._text_only(el)
            value = Value(el.get("name", ""), text, el.get("kind"), el.get("term"), section_id, source, offset)
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
        if self.outline:
            return self.definitions[index]
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
        number = el.get("number")
        self.sections.append(Section(section_id, explicit_id, title, level, (), parent, number, self.source, offset))
        children = self._content(el, section_id, None)
        if self.outline:
            return self.sections[index]
        section = Section(section_id, explicit_id, title, level, children, parent, number, self.source, offset)
        self.sections[index] = section
        return section

    def _new_id(self, title: str, parent_id: str) -> str:
        slug = slugify(title)
        if slug not in self._taken_ids:
            self._taken_ids.add(slug)
            return slug
        # A repeated title: qualify it by its parent, then (rarely) count.
        return unique_id(f"{parent_id}-{slug}" if parent_id else slug, self._taken_ids, counters=self._suffixes)

    def _table(self, el: etree._Element, section_id: str, definition: str | None) -> Table | None:
        if self.outline:
            if not _annotated(el):
                self._outline_grid(el, 2, section_id, definition)
                return None
            return self._whole(lambda: self._table(el, section_id, definition))
        offset = self._offset()
        columns: Row | None = None
        rows: list[Row] = []
        for child in el.iterchildren(tag=etree.Element):
            row = self._row(child, section_id, definition)
            if child.tag == "headers" and columns is None:
                columns = row
            else:
                rows.append(row)
        shape = [(r is columns, len(r.cells), r.offset) for r in ((columns,) if columns else ()) + tuple(rows)]
        self._check_shape(shape, section_id)
        kind, roll, title = el.get("kind"), el.get("roll"), el.get("title")
        table = Table(title, columns, tuple(rows), kind, roll, self.source, offset, el.get("id"))
        if _annotated(el):
            self.annotated.append(Annotated(table, section_id, definition or section_id))
        return table

    def _row(self, el: etree._Element, section_id: str, definition: str | None) -> Row:
        offset = self._offset()
        cells = []
        corner = el.get("title") if el.tag == "headers" else None
        if corner is not None:
            # The header row's title heads the column of the rows' headers: the corner, a cell even when empty.
            cells.append(Cell(True, (corner,) if corner.strip() else (), self.source, offset))
        for child in el.iterchildren(tag=etree.Element):
            cell_offset = self._offset()
            content = self._content(child, section_id, definition)
            cells.append(Cell(child.tag == "header", content, self.source, cell_offset))
        return Row(tuple(cells), self.source, offset)

    def _item_list(self, el: etree._Element, ordered: bool, section_id: str, definition: str | None) -> ItemList | None:
        if self.outline:
            if not _annotated(el):
                self._outline_grid(el, 1, section_id, definition)
                return None
            return self._whole(lambda: self._item_list(el, ordered, section_id, definition))
        offset = self._offset()
        items = []
        for child in el.iterchildren(tag=etree.Element):
            item_offset = self._offset()
            content = self._content(child, section_id, definition)
            items.append(Item(child.get("title"), content, self.source, item_offset))
        roll, kind, title = el.get("roll"), el.get("kind"), el.get("title")
        item_list = ItemList(ordered, tuple(items), roll, self.source, offset, kind, el.get("id"), title)
        if _annotated(el):
            self.annotated.append(Annotated(item_list, section_id, definition or section_id))
        return item_list

    def _outline_grid(self, el: etree._Element, levels: int, section_id: str, definition: str | None) -> int:
        """An unannotated table (``levels`` 2: rows of cells) or list (1: items) in an outline: the
        content of its cells is walked, and no node is made for the table, its rows or cells. Its offset."""
        offset = self._offset()
        shape: list[tuple[bool, int, int]] = []
        for child in el.iterchildren(tag=etree.Element):
            if levels > 1:
                row_offset = self._outline_grid(child, levels - 1, section_id, definition)
                corner = child.tag == "headers" and child.get("title") is not None
                cells = sum(1 for _ in child.iterchildren(tag=etree.Element)) + corner
                shape.append((child.tag == "headers" and not shape, cells, row_offset))
            else:
                next(self._offsets)
                self._outline_content(child, section_id, definition)
        if levels > 1:
            self._check_shape(shape, section_id)
        return offset

    def _check_shape(self, rows: list[tuple[bool, int, int]], section_id: str) -> None:
        """A table whose rows have another number of cells than its headers name columns (``rows``: whether
        it is the headers row, its cells and its offset): each cell would stand under the wrong header."""
        if not rows:
            return
        headed, columns = rows[0][0], rows[0][1]
        found = next(((n, cells, at) for n, (_, cells, at) in enumerate(rows[1:], 1) if cells != columns), None)
        if found is None:
            return
        number, cells, at = found
        row = f"row {number + (not headed)} has {cells} cell{'s' if cells != 1 else ''}"
        named = f"{columns} column{'s' if columns != 1 else ''}"
        # Without headers, the first row sets the width (a roll table's row of three cells read `b — c` as its result).
        said = f"the table's headers name {named}" if headed else f"the table's first row has {named}"
        help = (
            'when the rows start with a header, head its column too: `<headers title="">` for an empty corner, or a '
            "title for it"
            if headed
            else "give every row as many cells: `<cell/>` for an empty one"
        )
        self.diagnostics.append(
            RAGGED_TABLE.diagnostic(
                f"{said}, but its {row}",
                self.source.span(rows[0][2]),
                notes=(DiagnosticNote(row, self.source.span(at)),),
                help=help,
                section_id=section_id,
            )
        )

    def _whole(self, build: Callable[[], T]) -> T:
        """A node built whole in an outline (an annotated table or list: the annotation checks read it)."""
        self.outline = False
        try:
            return build()
        finally:
            self.outline = True

    def _figure(self, el: etree._Element, section_id: str, definition: str | None) -> Figure:
        offset = self._offset()
        images: list[Image] = []
        caption_title: str | None = None
        caption: Content = ()
        for child in el.iterchildren(tag=etree.Element):
            if child.tag == "image":
                image = Image(
                    child.get("source", ""), self.source, self._offset(), " ".join(child.get("alt", "").split())
                )
                images.append(image)
                self.images.append(image)
                self._skip_descendants(child)
            else:
                self._offset()
                caption_title = child.get("title")
                caption = self._content(child, section_id, definition)
        figure_id = el.get("id", "")
        caption = () if self.outline else caption
        figure = Figure(figure_id, tuple(images), caption_title, caption, section_id, self.source, offset)
        self.ids.append((figure_id, self.source.span(offset)))
        self.figures.append(figure)
        return figure

    def _images(self, el: etree._Element) -> Iterator[Image]:
        for child in el.iterchildren(tag=etree.Element):
            image = Image(child.get("source", ""), self.source, self._offset(), _words(child.get("alt", "")))
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
        if not len(el):
            return
        for _ in el.iterdescendants(tag=etree.Element):
            next(self._offsets)

    def _entity(self, entity: etree._Entity, section_id: str) -> str:
        self.diagnostics.append(
            INVALID_DOCUMENT.diagnostic(
                f"entity reference `&{entity.name};` is not expanded",
                self.source.span(self._entity_offset(entity)),
                target=str(entity.name),
                help="write the text itself, or a character reference such as `&#8217;`",
                section_id=section_id or None,
            )
        )
        return f"&{entity.name};"

    def _entity_offset(self, entity: etree._Entity) -> int:
        """Where an entity reference stands: the n-th reference in the text is the n-th in the tree."""
        if self._entity_offsets is None:
            entities = list(self.root.iter(tag=etree.Entity))
            offsets = entity_reference_offsets(self.source.text)
            self._entity_offsets = dict(zip(entities, offsets, strict=False)) if len(offsets) == len(entities) else {}
        found = self._entity_offsets.get(entity)
        return found if found is not None else max(self.source.text.find(f"&{entity.name};"), 0)


def _words(text: str) -> str:
    """An attribute's words, white space folded (a picture's ``alt``, written over lines)."""
    return " ".join(text.split())
