"""The document model: one immutable tree for every source format.

Every reader (XML, Markdown, plain-text export) produces a :class:`Document`;
every later stage (graph, lint, data, site, translation) reads only this model.

Content is a tuple of inline and block nodes in which plain text is a ``str``:
no wrapper object per text run. Nodes are typed ``NamedTuple``s rather than
frozen dataclasses: just as immutable, and three to four times cheaper to
create, which matters for books with tens of thousands of references
(see ``docs/performance.md``).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeAlias

from rulebook.source import SourceText, Span

MAX_DEPTH = 100
"""How deep nodes of a document may nest, the document itself at depth 1 (in XML: elements).

The readers refuse a deeper source with a located diagnostic, so any walk of the model
may recurse: it never goes deeper than this.
"""

Node: TypeAlias = "str | Reference | Link | Value | Mechanic | Definition | Important | LineBreak | Note | Table | ItemList | Figure | Illustration | Section"  # noqa: E501
Content: TypeAlias = "tuple[Node, ...]"

# Every node records its source file and the character offset where it starts;
# its ``span`` (path, line, column) is computed from them on demand: creating a
# Span per element up front costs more than building the node itself.


class Reference(NamedTuple):
    """A use of a game term: ``<reference name="x">display</reference>``."""

    name: str
    """The term name referred to (a definition's name when it resolves)."""
    text: str
    """The display text, as written."""
    kind: str | None
    """The ``type`` attribute (``"example"``: an illustrative mention), if any."""
    section_id: str
    """Id of the innermost enclosing section."""
    definition: str | None
    """Name of the innermost enclosing definition, if any."""
    source: SourceText
    """The file the node was read from."""
    offset: int
    """Character offset of the node's start tag in its source."""

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Link(NamedTuple):
    """A pointer to a section or figure by id: ``<link to="id">text</link>``."""

    to: str
    """The target id."""
    text: str
    """The display text."""
    section_id: str
    """Id of the innermost enclosing section."""
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Value(NamedTuple):
    """A number stated in prose, declared as data: ``<value name="rounds" kind="turns" term="round">4</value>``."""

    name: str
    """The book's own name for the number (an identifier)."""
    text: str
    """The number as written (shown unchanged); in Markdown, the annotation's ``number``."""
    kind: str | None
    """What it counts (``count``, ``turns``, ``points``, ``distance``, ``minimum``, ``maximum``), as declared."""
    term: str | None
    """The term of the book it is about, as declared."""
    section_id: str
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Mechanic(NamedTuple):
    """A mechanic the prose describes, as data (shows nothing): ``<mechanic name="..." roll="D6" .../>``."""

    name: str
    attributes: tuple[tuple[str, str], ...]
    """Every attribute but ``name``, sorted."""
    section_id: str
    definition: str | None
    """The definition it stands in: the term the mechanic belongs to."""
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Definition(NamedTuple):
    """The definition of a game term; may stand inline or wrap blocks, and may nest."""

    name: str
    """The term name (an identifier such as ``sight_line``)."""
    children: Content
    section_id: str
    """Id of the innermost enclosing section."""
    parent: str | None
    """Name of the enclosing definition, for nested definitions."""
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)

    def plain_text(self) -> str:
        return plain_text(self.children)


class Important(NamedTuple):
    """Text that must stand out."""

    children: Content
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class LineBreak(NamedTuple):
    """A paragraph break (``<br/>``)."""

    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Note(NamedTuple):
    """A titled aside (rendered as an admonition)."""

    title: str | None
    children: Content
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Cell(NamedTuple):
    """One table cell; ``header`` for a ``<header>`` cell."""

    header: bool
    children: Content
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Row(NamedTuple):
    """A table row (the ``<headers>`` row too)."""

    cells: tuple[Cell, ...]
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Table(NamedTuple):
    """A table; ``columns`` holds the ``<headers>`` row when there is one."""

    title: str | None
    columns: Row | None
    rows: tuple[Row, ...]
    kind: str | None
    """What the table holds as data (``kind`` annotation: ``profile``, ``categories``, ``duplicate-limits``)."""
    roll: str | None
    """The dice rolled on this table (``roll`` annotation), if it is a roll table."""
    source: SourceText
    offset: int
    id: str | None = None
    """The book's own name for the table (``id`` attribute), if it gives one."""
    attributes_offset: int | None = None
    """Where its attributes are written when not at the node itself: the dialect's line before it (``{roll=D6}``)."""

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)

    @property
    def attributes_span(self) -> Span:
        """Where its attributes are written (what is wrong with them is reported there)."""
        return self.source.span(self.offset if self.attributes_offset is None else self.attributes_offset)


class Item(NamedTuple):
    """One entry of a list or one step of a sequence."""

    title: str | None
    children: Content
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class ItemList(NamedTuple):
    """A ``<list>`` (unordered) or a ``<sequence>`` (ordered steps)."""

    ordered: bool
    items: tuple[Item, ...]
    roll: str | None
    """The dice rolled on this list (item n on a roll of n), if it is a roll table."""
    source: SourceText
    offset: int
    kind: str | None = None
    """What the sequence is (``kind`` annotation: ``turn``, the phases of a turn; ``setup``, the steps that set up
    a game), if declared."""
    id: str | None = None
    """The book's own name for the list (``id`` attribute), if it gives one."""
    title: str | None = None
    """Its own title (``title`` attribute), if it gives one."""
    attributes_offset: int | None = None
    """Where its attributes are written when not at the node itself: the dialect's line before it (``{roll=D6}``)."""

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)

    @property
    def attributes_span(self) -> Span:
        """Where its attributes are written (what is wrong with them is reported there)."""
        return self.source.span(self.offset if self.attributes_offset is None else self.attributes_offset)


class Image(NamedTuple):
    """An image by file name, relative to the book's image folder, with the words that describe it to a reader who
    cannot see it (``alt``: a Markdown picture's ``![words](file)``, an XML ``<image alt>``; empty: none given)."""

    file: str
    source: SourceText
    offset: int
    alt: str = ""

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Figure(NamedTuple):
    """Images with an id (so links can point at them) and a caption."""

    id: str
    images: tuple[Image, ...]
    caption_title: str | None
    caption: Content
    section_id: str
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Illustration(NamedTuple):
    """Images shown without a caption or id."""

    images: tuple[Image, ...]
    source: SourceText
    offset: int

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)


class Section(NamedTuple):
    """A chapter (level 1), section (2) or subsection (3)."""

    id: str
    """Stable id: the ``id`` attribute, else a slug of the title."""
    explicit_id: bool
    """Whether the id was written in the source (and so may be linked to)."""
    title: str
    level: int
    children: Content
    parent_id: str | None
    number: str | None
    """The section's number as printed ("3.2.1"), for sources that number their sections."""
    source: SourceText
    offset: int
    headed: bool = True
    """Whether a heading in the source wrote it (not so the text a plain Markdown source has before its first)."""

    @property
    def span(self) -> Span:
        """Where the node starts (computed from ``source`` and ``offset``)."""
        return self.source.span(self.offset)

    @property
    def numbered_title(self) -> str:
        """The title as the book heads it: after its number, if the source numbers it (``3.2 Ship Captain``)."""
        return f"{self.number} {self.title}" if self.number else self.title


class Annotated(NamedTuple):
    """A table or list declared as data (``roll``, ``kind`` or ``id``), with where it stands."""

    node: Table | ItemList
    section_id: str
    scope: str
    """The innermost enclosing definition's name, else the section id (names the roll table)."""


@dataclass(frozen=True, slots=True)
class Document:
    """One parsed source file, with flat indexes of what it contains (document order)."""

    path: str
    language: str
    body: tuple[Section, ...]
    sections: tuple[Section, ...]
    definitions: tuple[Definition, ...]
    references: tuple[Reference, ...]
    links: tuple[Link, ...]
    figures: tuple[Figure, ...]
    values: tuple[Value, ...]
    """Every ``<value>`` annotation, in document order."""
    images: tuple[Image, ...]
    """Every image of figures and illustrations, in document order."""
    mechanics: tuple[Mechanic, ...]
    """Every ``<mechanic>`` annotation, in document order."""
    ids: tuple[tuple[str, Span], ...]
    """Every id written in the source (sections and figures), with its place."""
    annotated: tuple[Annotated, ...] = ()
    """Every table or list declared ``roll``, ``kind`` or ``id``, in document order."""
    title: str | None = None
    """The book's title as the source gives it (a Markdown source's front matter or single ``#`` heading)."""
    outline: bool = False
    """Read for the lint only: every index above is whole, but sections, definitions and figures hold
    no content (``children``, ``caption`` and ``body`` chapters' children are empty); see
    :mod:`rulebook.xml_source`."""
    dialect: bool = False
    """Read in the Markdown dialect: its markup (attributes, ``[[term|...]]``, fences, link targets) stands in the
    source's text, where the checks that read a translation's words skip it."""
    title_place: Span | None = None
    """Where the source writes ``title`` (a front matter's value, the title's heading), when it gives one."""


@dataclass(frozen=True, slots=True)
class Book:
    """All documents of one book in one language."""

    documents: tuple[Document, ...]

    @property
    def outline(self) -> bool:
        """Whether a document was read as an outline (for the lint only: no content)."""
        return any(document.outline for document in self.documents)

    @property
    def sections(self) -> Iterator[Section]:
        for document in self.documents:
            yield from document.sections

    @property
    def chapters(self) -> Iterator[Section]:
        """The sections at the top of each document, whatever their heading's level: each is a page of the site (a
        plain-Markdown source of ``##`` headings alone makes a page of each)."""
        for document in self.documents:
            yield from document.body

    @property
    def definitions(self) -> Iterator[Definition]:
        for document in self.documents:
            yield from document.definitions

    @property
    def references(self) -> Iterator[Reference]:
        for document in self.documents:
            yield from document.references

    @property
    def links(self) -> Iterator[Link]:
        for document in self.documents:
            yield from document.links

    @property
    def figures(self) -> Iterator[Figure]:
        for document in self.documents:
            yield from document.figures

    @property
    def annotated(self) -> Iterator[Annotated]:
        for document in self.documents:
            yield from document.annotated

    @property
    def mechanics(self) -> Iterator[Mechanic]:
        for document in self.documents:
            yield from document.mechanics

    @property
    def images(self) -> Iterator[Image]:
        for document in self.documents:
            yield from document.images

    @property
    def values(self) -> Iterator[Value]:
        for document in self.documents:
            yield from document.values

    @property
    def ids(self) -> Iterator[tuple[str, Span]]:
        for document in self.documents:
            yield from document.ids


def unique_id(
    base: str,
    taken: set[str],
    separator: str = "-",
    *,
    counters: dict[str, int] | None = None,
    fold: bool = False,
) -> str:
    """``base``, or ``base-2``, ``base-3``... if taken; the id returned is added to ``taken``.

    ``counters``: the last number given to each base, kept by a caller that asks for many ids
    from one ``taken`` set, which only grows (a title repeated a hundred times stays linear).
    ``fold``: ``taken`` holds names in lower case, and a name is taken whatever its case (a file's name on a
    system that folds case); the name is added in lower case.
    """
    candidate, n = base, (counters or {}).get(base, 1)
    if n > 1:
        candidate = f"{base}{separator}{n}"
    while (candidate.lower() if fold else candidate) in taken:
        n += 1
        candidate = f"{base}{separator}{n}"
    taken.add(candidate.lower() if fold else candidate)
    if counters is not None:
        counters[base] = n
    return candidate


def take_back(index: list[Any], nodes: Iterable[object]) -> None:
    """Remove ``nodes``, each appended lately to ``index`` (the book's list of references, links...), once each.

    Read back from the end, by identity, only as far as the earliest of them: ``list.remove`` reads from the
    start once per node, quadratic in a long book. Raises ``ValueError`` as it does for a node not in ``index``.
    """
    wanted = Counter(id(node) for node in nodes)
    left = sum(wanted.values())
    dropped: set[int] = set()
    position = len(index)
    while left:
        position -= 1
        if position < 0:
            raise ValueError("take_back: a node not in the list")
        key = id(index[position])
        if wanted[key]:
            wanted[key] -= 1
            left -= 1
            dropped.add(position)
    index[position:] = [node for at, node in enumerate(index[position:], position) if at not in dropped]


def plain_text(content: Content) -> str:
    """The text of some content with markup dropped and white space folded."""
    if all(type(node) is str for node in content):  # most cells and items: text alone, no walk
        return " ".join("".join(content).split())  # type: ignore[arg-type]
    return " ".join("".join(_texts(content)).split())


_WITH_TEXT = (Reference, Link, Value)
_TRANSPARENT = (Definition, Important)
_WITHOUT_TEXT = (Mechanic, Illustration)


def _texts(content: Content) -> Iterator[str]:
    for node in content:
        if isinstance(node, str):
            yield node
        elif isinstance(node, _WITH_TEXT):
            yield node.text
        elif isinstance(node, _TRANSPARENT):
            yield from _texts(node.children)
        elif isinstance(node, LineBreak):
            yield " "
        elif not isinstance(node, _WITHOUT_TEXT):  # a block: each of its parts set apart
            for part in children(node):
                yield " "
                yield from _texts(part)
            yield " "


def children(node: Node) -> tuple[Content, ...]:
    """The content directly inside a node, in document order: a section's, definition's, note's or important
    text's children; each item of a list; each cell of a table (its header row first); a figure's caption.

    The one place that knows where each kind of node keeps its content: a walk that only descends (finding
    tables, sequences, terms) asks it, so a new kind of node is taught here, not in every walk.
    """
    if isinstance(node, Section | Definition | Note | Important):
        return (node.children,)
    if isinstance(node, ItemList):
        return tuple(item.children for item in node.items)
    if isinstance(node, Table):
        rows = ((node.columns,) if node.columns else ()) + node.rows
        return tuple(cell.children for row in rows for cell in row.cells)
    if isinstance(node, Figure):
        return (node.caption,)
    return ()


def with_children(node: Node, parts: tuple[Content, ...]) -> Node:
    """The node with its content replaced, part for part in the order :func:`children` gives it (the inverse of
    :func:`children`: ``with_children(node, children(node))`` is the node again)."""
    if isinstance(node, Section | Definition | Note | Important):
        (content,) = parts
        return node._replace(children=content)
    if isinstance(node, ItemList):
        items = tuple(item._replace(children=part) for item, part in zip(node.items, parts, strict=True))
        return node._replace(items=items)
    if isinstance(node, Table):
        cells = iter(parts)

        def row(found: Row) -> Row:
            return found._replace(cells=tuple(cell._replace(children=next(cells)) for cell in found.cells))

        columns = row(node.columns) if node.columns else None  # the header row first, as children gives it
        return node._replace(columns=columns, rows=tuple(row(found) for found in node.rows))
    if isinstance(node, Figure):
        (caption,) = parts
        return node._replace(caption=caption)
    return node


def map_children(node: Node, change: Callable[[Content], Content]) -> Node:
    """The node with each content directly inside it (those :func:`children` lists) replaced by ``change`` of it, in
    document order.

    The one place, beside :func:`children`, that knows where each kind of node keeps its content: a walk that
    rebuilds the model (turning references back into text, leaving sentences out) asks it, so a new kind of node is
    taught here, not in every walk.
    """
    parts = children(node)
    return with_children(node, tuple(change(part) for part in parts)) if parts else node


def annotated_in(body: tuple[Section, ...]) -> tuple[Annotated, ...]:
    """Every table or list declared ``roll``, ``kind`` or ``id`` in some chapters, as a reader lists them: in document
    order (a list after the annotated lists inside it), each with its section and innermost definition.

    For a step that rebuilds a document's content (linking terms): its index is made again from the new nodes.
    """
    found: list[Annotated] = []

    def visit(content: Content, section_id: str, scope: str) -> None:
        for node in content:
            if isinstance(node, Section):
                visit(node.children, node.id, node.id)
                continue
            inner = node.name if isinstance(node, Definition) else scope
            for part in children(node):
                visit(part, section_id, inner)
            if isinstance(node, Table | ItemList) and any(v is not None for v in (node.roll, node.kind, node.id)):
                found.append(Annotated(node, section_id, scope))

    for chapter in body:
        visit(chapter.children, chapter.id, chapter.id)
    return tuple(found)


def walk(content: Content, *, into: Callable[[Node], bool] = lambda node: True) -> Iterator[Node]:
    """Every node of some content and of the content inside it, in document order (a node before what it holds);
    ``into`` says which nodes to go into (``lambda node: not isinstance(node, Section)``: a section's own)."""
    for node in content:
        yield node
        if into(node):
            for part in children(node):
                yield from walk(part, into=into)
