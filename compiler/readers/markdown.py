"""Read a rulebook written in the Markdown dialect (``docs/format.md``) into the document model.

The dialect says what the XML format says, in Markdown that still reads well on GitHub: headings are
chapters, sections and subsections (a number before the title is kept as the section's number, ``{#id}``
after it is the section's id), ``[[name|text]]`` a reference, ``[text](#id)`` a link, ``::: definition
name`` ... ``:::`` (or ``[text]{dfn=name}`` within a paragraph) a definition, pipe tables tables (a first
column headed by dice, ``| D6 | Result |``, a roll table), ordered lists sequences. Where the XML's DTD
says what is allowed where, :mod:`rulebook.readers.markdown_checks` says it of the dialect, each finding at
the line and column it is about. Every node keeps the place it starts at.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it.token import Token

from rulebook.diagnostics import Diagnostic
from rulebook.markdown_declarations import Block, apply, block, mismatch, orphan
from rulebook.model import (
    MAX_DEPTH,
    Annotated,
    Content,
    Definition,
    Document,
    Figure,
    Illustration,
    Image,
    Item,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Node,
    Note,
    Reference,
    Section,
    Table,
    Value,
    unique_id,
)
from rulebook.names import slugify
from rulebook.readers import SourceResult, TooDeep, nesting_too_deep, read_text_source
from rulebook.readers.markdown_blocks import Tree, tree_of
from rulebook.readers.markdown_checks import Checks
from rulebook.readers.markdown_inline import InlineReader, ItemTitle
from rulebook.readers.markdown_limits import MAX_BYTES, TooLarge, lines_past
from rulebook.readers.markdown_syntax import UNATTACHED, attributes_of, parse_dialect_text, table_cells, text_read
from rulebook.source import SourceText, Span

_ATTRIBUTE_BLOCK = re.compile(r"\{[^\n]*\}")
"""A paragraph that is a line of attributes alone: an attribute block markdown-it could not read."""
_NUMBER = re.compile(r"(?P<number>\d+(?:\.\d+)*)\.?\s+(?P<title>\S.*)")
_HEADING_ATTRIBUTES = re.compile(r"\{(?P<attributes>[^{}]*)\}\s*$")
"""A heading's attribute block at its end; the spaces before it are the title's, dropped with its other spaces (a
search for them first tried the rest of each run of spaces from each of its characters: 80,000, 13 s)."""
_LIST_TAG = re.compile(r"</?(?:ul|li)>")
"""The tags of a list in a table's cell (``<ul><li>one</li></ul>``)."""
_DELIMITER_ROW = re.compile(r"[ \t]*(?:\|[ \t]*)?:?-+:?[ \t]*(?:\|[ \t]*:?-+:?[ \t]*)*(?:\|[ \t]*)?")
"""A pipe table's delimiter row (``|---|:--:|``)."""
_DASHES = re.compile(r"-+")
_NESTED = {
    "bullet_list_open": "a list",
    "ordered_list_open": "a list",
    "list_item_open": "a list's item",
    "blockquote_open": "a quote",
    "table_open": "a table",
    "em_open": "emphasis",
    "strong_open": "important text",
    "link_open": "a link",
    "span_open": "a span",
}
"""What a block or span nested too deep is, as a refusal names it."""
DEEPEST_HEADING = 3
"""Chapters, sections and subsections, as in the XML format."""


def read_dialect_file(path: Path, display: str, *, language: str, root: Path | None = None) -> SourceResult:
    """Read one source written in the dialect (``display``: the path shown in messages)."""
    parse = functools.partial(parse_dialect, language=language)
    return read_text_source(path, display, parse, root=root, limit=MAX_BYTES, kind="Markdown source", refuse=lines_past)


def parse_dialect(text: str, path: str = "<string>", *, language: str = "en") -> SourceResult:
    """Parse a source written in the dialect into the model, with what reading it found."""
    source = SourceText.from_text(path, text)
    try:
        tokens = parse_dialect_text(text)
    except TooLarge as refusal:
        return SourceResult(None, (refusal.diagnostic(path),), source)
    builder = _Builder(source, language, tree_of(tokens))
    builder.checks.control_characters()
    try:
        document = builder.build()
    except TooDeep as refusal:
        return SourceResult(None, (nesting_too_deep(source.span(refusal.offset), refusal.what),), source)
    return SourceResult(document, tuple(builder.checks.finish()), source)


@dataclass
class _Open:
    """A section being filled."""

    section: Section
    index: int
    """Its place in the document's list of sections."""
    content: list[Node] = field(default_factory=list)
    after_paragraph: bool = False


class _Builder:
    def __init__(self, source: SourceText, language: str, trees: list[Tree]) -> None:
        self.source = source
        self.language = language
        self.trees = trees
        self.checks = Checks(source)
        self.inline = InlineReader(source, self.checks)
        self.stack: list[_Open] = []
        self.body: list[Section] = []
        self.sections: list[Section] = []
        self.figures: list[Figure] = []
        self.annotated: list[Annotated] = []
        self.ids: list[tuple[str, Span]] = []
        self.title: str | None = None
        self.title_at: int | None = None
        """Where the source writes its title (the front matter's value, the title's heading)."""
        self.taken: set[str] = set(self._explicit_ids())
        self.suffixes: dict[str, int] = {}
        self.title_heading = self._title_heading()
        self.declaration: Block | None = None
        """A ``<!-- rulebook: sequence|list|table ... -->`` comment waiting for the list or table right after it."""

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return self.checks.found

    # -- structure -----------------------------------------------------------

    def build(self) -> Document:
        for tree in self.trees:
            token = tree.token
            if token.type == "front_matter":
                if self.title is None:
                    self.title, self.title_at = self.checks.front_matter_title(token)
                continue
            self._check_depth(tree)
            if token.type == "heading_open":
                self._heading(tree)
            else:
                self._top_block(tree)
        self._orphan()
        while self.stack:
            self._close()
        inline = self.inline
        return Document(
            self.source.path,
            self.language,
            tuple(self.body),
            tuple(self.sections),
            tuple(inline.definitions),
            tuple(inline.references),
            tuple(inline.links),
            tuple(self.figures),
            tuple(inline.values),
            tuple(inline.images),
            tuple(inline.mechanics),
            tuple(self.ids),
            tuple(self.annotated),
            title=self.title,
            dialect=True,
            title_place=self.source.span(self.title_at) if self.title_at is not None else None,
        )

    def _check_depth(self, tree: Tree) -> None:
        """Refuse a block of the innermost open section with a block or span nested more than ``MAX_DEPTH`` deep,
        counting the document, each open section, and each block or span inside another but a paragraph
        (markdown-it's nesting, which it stops reading at ``MAX_DEPTH``: nothing is left out unsaid)."""
        base = 1 + len(self.stack)
        waiting = [(tree, False)]
        while waiting:
            found, in_cell = waiting.pop()
            token = found.token
            if token.nesting == 1 and token.type != "paragraph_open" and base + token.level + 1 > MAX_DEPTH:
                what = f"`::: {token.info}`" if token.type == "directive_open" else _NESTED.get(token.type, "a block")
                raise TooDeep(what, self.inline.block_offset(token))
            lists = 0  # a cell's `<ul>` and `<li>`, each a level of the list it makes (as the XML's elements)
            for child in token.children or ():
                if in_cell and child.type == "html_inline" and _LIST_TAG.fullmatch(child.content.strip().lower()):
                    lists += -1 if child.content.strip().startswith("</") else 1
                if (child.nesting == 1 or lists > 0) and base + token.level + child.level + max(lists, 0) > MAX_DEPTH:
                    what = "a list in a table's cell" if lists > 0 else _NESTED.get(child.type, "a span")
                    raise TooDeep(what, self.inline.block_offset(token))
            cell = token.type in ("td_open", "th_open")
            waiting += [(child, cell) for child in reversed(found.children)]  # the first in the text first

    def _explicit_ids(self) -> list[str]:
        found = []
        for tree in _every_tree(self.trees):
            if tree.token.type == "heading_open" and tree.children:
                match = _HEADING_ATTRIBUTES.search(tree.children[0].token.content)
                found.append(self.checks.heading_attributes(match.group("attributes"))[0] if match else None)
            elif tree.token.type == "directive_open" and tree.token.info == "figure":
                found.append(str(tree.token.meta.get("argument", "")).split(" ", 1)[0] or None)
        return [name for name in found if name]

    def _title_heading(self) -> Token | None:
        """A book's single ``#`` heading, written first and unnumbered, in a book without front matter: the book's
        title, not a chapter (its ``##`` are the chapters). Front matter, even empty, says ``#`` is a chapter."""
        if any(t.token.type == "front_matter" for t in self.trees):
            return None
        headings = [t for t in self.trees if t.token.type == "heading_open"]
        tops = [h for h in headings if h.token.tag == "h1"]
        if len(tops) != 1 or len(headings) < 2 or headings[0] is not tops[0] or not tops[0].children:
            return None
        return None if _NUMBER.fullmatch(tops[0].children[0].token.content.strip()) else tops[0].token

    def _heading(self, tree: Token | Tree) -> None:
        assert isinstance(tree, Tree)
        self._orphan()
        opening, inline = tree.token, tree.children[0].token
        offset = self.inline.line_offset(opening.map[0] if opening.map else 0)
        if attributes_of(opening):  # the attributes plugin gave it the block before it
            self.checks.report(
                "an attribute block before a heading: it is not read",
                self.inline.attributes_offset(opening),
                help="write a heading's attributes at its end (`## Title {#id}`)",
            )
        written = self.inline.heading_text(inline)
        match = None if self.checks.brace_escaped(offset) else _HEADING_ATTRIBUTES.search(written)
        explicit, unnumbered = (
            self.checks.heading_attributes(match.group("attributes"), offset) if match else (None, False)
        )
        title = " ".join((written[: match.start()] if match else written).split())
        if opening is self.title_heading:
            if self.title is None:
                self.title, self.title_at = title, offset
            return
        numbered = None if unnumbered else _NUMBER.fullmatch(title)
        number, title = (numbered.group("number"), numbered.group("title")) if numbered else (None, title)
        level = int(opening.tag[1]) - (1 if self.title_heading is not None else 0)
        level = self.checks.heading_level(level, offset)
        if not self.stack and level > 1:  # the XML's <document> holds chapters only
            self.checks.report(
                "a section before the first chapter",
                offset,
                help="start the book with a chapter's heading (`# Title`); the section is read as a chapter",
            )
            level = 1
        while self.stack and self.stack[-1].section.level >= level:
            self._close()
        parent = self.stack[-1].section.id if self.stack else None
        section_id = explicit if explicit is not None else self._new_id(title, parent or "")
        if explicit is not None:
            self.ids.append((explicit, self.source.span(offset)))
        section = Section(section_id, explicit is not None, title, level, (), parent, number, self.source, offset)
        self.sections.append(section)
        self.stack.append(_Open(section, len(self.sections) - 1))

    def _new_id(self, title: str, parent_id: str) -> str:
        """The XML reader's ids: the title's slug; a repeated title qualified by its parent, then counted."""
        slug = slugify(title)
        if slug not in self.taken:
            self.taken.add(slug)
            return slug
        return unique_id(f"{parent_id}-{slug}" if parent_id else slug, self.taken, counters=self.suffixes)

    def _close(self) -> None:
        done = self.stack.pop()
        section = done.section._replace(children=tuple(done.content))
        self.sections[done.index] = section
        if self.stack:
            self.stack[-1].content.append(section)
            self.stack[-1].after_paragraph = False
        else:
            self.body.append(section)

    def _top_block(self, tree: Tree) -> None:
        if not self.stack:
            self.checks.outside_chapters(tree.token, self.inline.block_offset(tree.token))
            return
        if tree.token.type == "hr":  # ends the innermost section: what follows is its parent's again
            if len(self.stack) > 1:
                self._close()
            else:
                self.checks.report("`---` outside a section or subsection", self.inline.block_offset(tree.token))
            return
        current = self.stack[-1]
        section_id = current.section.id
        current.after_paragraph = self._block(
            tree, current.content, section_id, None, "section", current.after_paragraph
        )

    # -- blocks ----------------------------------------------------------------

    def _blocks(self, trees: list[Tree], section_id: str, definition: str | None, within: str) -> Content:
        content: list[Node] = []
        after_paragraph = False
        for tree in trees:
            after_paragraph = self._block(tree, content, section_id, definition, within, after_paragraph)
        return tuple(content)

    def _block(
        self, tree: Tree, content: list[Node], section_id: str, definition: str | None, within: str, after: bool
    ) -> bool:
        """Add one block to ``content``; whether it was a paragraph (two in a row have a break between)."""
        token = tree.token
        kind = token.type
        if kind not in ("bullet_list_open", "ordered_list_open", "table_open"):
            self._orphan()
        if kind == "paragraph_open":
            if _ATTRIBUTE_BLOCK.fullmatch(tree.children[0].token.content):
                self.checks.report(
                    "an attribute block that cannot be read",
                    self.inline.block_offset(token),
                    help='write `{key=value key="a value"}` (no brace inside a value) on the line before the block',
                )
            if attributes_of(token):
                self._paragraph_attributes(token)
            self._table_as_text(token)
            nodes = self.inline.paragraph(tree.children[0].token, section_id, definition, within)
            if len(nodes) == 1 and isinstance(nodes[0], Illustration):
                self.checks.illustration(nodes[0].offset, within)
                content.append(nodes[0])  # a block: no break before it
                return False
            if nodes and after and not isinstance(nodes[0], LineBreak):
                content.append(LineBreak(self.source, self.inline.block_offset(token)))
            content.extend(nodes)
            return bool(nodes) and not isinstance(nodes[-1], LineBreak | ItemTitle)  # an item's title is no paragraph
        if kind in ("bullet_list_open", "ordered_list_open", "table_open"):
            self.checks.block_in(kind, self.inline.block_offset(token), within)
        if kind in ("bullet_list_open", "ordered_list_open"):
            content.append(self._list(tree, section_id, definition, within))
        elif kind == "table_open":
            declared, self.declaration = self.declaration, None
            table = self._declared(self.inline.table(tree, section_id, definition, within), declared)
            assert isinstance(table, Table)
            content.append(table)
            if any(v is not None for v in (table.roll, table.kind, table.id)):
                self.annotated.append(Annotated(table, section_id, definition or section_id))
        elif kind == "directive_open":
            found = self._directive(tree, section_id, definition, within)
            if after and found and parted_by_break(found[0], at_end=False):
                content.append(LineBreak(self.source, self.inline.block_offset(token)))  # as between two paragraphs
            content.extend(found)
            return bool(found) and parted_by_break(found[-1], at_end=True)
        elif kind == "html_block" and (declared := block(token.content, self.inline.block_offset(token))):
            self.declaration = declared  # as plain Markdown declares the list or table after it
            return after
        elif kind == "html_block":
            content.extend(self.inline.html_block(token, section_id, definition))
            return after
        elif kind == "heading_open":
            self.checks.nested_heading(token, self.inline.block_offset(token), within)
        elif kind == UNATTACHED:
            self.checks.report(
                "an attribute block with no block after it: it is not read",
                self.inline.block_offset(token),
                help="write it on the line right before the table or list it is for, or remove it",
            )
        else:
            content.extend(self._unsupported_block(tree, section_id, definition, within))
        return False

    def _unsupported_block(self, tree: Tree, section_id: str, definition: str | None, within: str) -> Content:
        """A block the format has no place for (a quote, code, a rule): reported, its blocks kept."""
        self.checks.unsupported_block(tree.token, self.inline.block_offset(tree.token))
        return self._blocks(tree.children, section_id, definition, within)

    def _table_as_text(self, token: Token) -> None:
        """A paragraph holding a table's header and delimiter rows of different widths (`| a | b |`, `|---|`), which
        GitHub's tables read as text: reported at the delimiter row, where the table was shown as its pipes with
        "All checks passed"."""
        if not token.map:
            return
        first = token.map[0]
        lines = [self.source.line_text(first + number + 1) for number in range(token.map[1] - first)]
        for number, line in enumerate(lines[1:], 1):
            if "|" not in line or "|" not in lines[number - 1] or not _DELIMITER_ROW.fullmatch(line):
                continue
            header, delimiter = len(table_cells(lines[number - 1])), len(_DASHES.findall(line))
            if header != delimiter:
                cells = f"{delimiter} cell{'s' if delimiter != 1 else ''}"
                self.checks.report(
                    f"a table's delimiter row of {cells} under a header of {header}: the table is read as text",
                    self.inline.line_offset(first + number) + len(line) - len(line.lstrip()),
                    help=f"write a delimiter row of {header} cells (`{'|---' * header}|`)",
                )
            return

    def _paragraph_attributes(self, token: Token) -> None:
        """An attribute block the attributes plugin gave a paragraph, which takes none (`{title=Weather roll=D6}`
        over a table whose delimiter row is short, which is then a paragraph): reported at the block, on the line
        before the paragraph or before the blank lines above it. It was dropped with "All checks passed"."""
        self.checks.report(
            "an attribute block before a paragraph, which takes none: it is not read",
            self.inline.attributes_offset(token),
            help="write it on the line right before the table or list it is for (a table needs a delimiter row of as "
            "many cells as its header: `|---|---|`), or remove it",
        )

    def _list(self, tree: Tree, section_id: str, definition: str | None, within: str) -> ItemList:
        declared, self.declaration = self.declaration, None  # its items' blocks come before it is made
        opening = tree.token
        attributes = attributes_of(opening)
        ordered = opening.type == "ordered_list_open"
        offset = self.inline.block_offset(opening)
        written = self.inline.attributes_offset(opening)
        if not ordered and "kind" in attributes:  # `<list>` has no kind: a bulleted turn was no turn, saying nothing
            self.checks.report(
                "a bulleted list takes no `kind`: it is not read",
                self.checks.key_offset(written, "kind"),
                help="a sequence of steps (`kind=turn`, `kind=setup`) is a numbered list: `1.`, `2.`, ...",
            )
            attributes.pop("kind")
        self.checks.block_attributes(attributes, ("roll", "kind", "id", "title"), written, "a list")
        items = []
        for item in tree.children:
            content = self._blocks(item.children, section_id, definition, "item")
            title, content = self.inline.item_title(content)
            items.append(Item(title, content, self.source, self.inline.block_offset(item.token)))
        roll, kind, list_id, title = (attributes.get(key) for key in ("roll", "kind", "id", "title"))
        found = self._declared(
            ItemList(ordered, tuple(items), roll, self.source, offset, kind, list_id, title, _apart(written, offset)),
            declared,
        )
        assert isinstance(found, ItemList)
        if any(v is not None for v in (found.roll, found.kind, found.id)):
            self.annotated.append(Annotated(found, section_id, definition or section_id))
        return found

    def _declared(self, node: Table | ItemList, declared: Block | None) -> Table | ItemList:
        """The list or table as the declaration comment right before it declares it, if one does."""
        if declared is None:
            return node
        wrong = mismatch(declared, node)
        if wrong is not None:
            self.checks.report(wrong[0], declared.offset, help=wrong[1])
            return node
        return apply(declared, node)

    def _orphan(self) -> None:
        """A declaration comment with no list or table right after it: reported where it stands."""
        declared, self.declaration = self.declaration, None
        if declared is not None:
            self.checks.report(*orphan(declared)[:1], declared.offset, help=orphan(declared)[1])

    def _directive(self, tree: Tree, section_id: str, definition: str | None, within: str) -> Content:
        """A directive's node; an unknown directive's content (as the XML reader keeps an unknown element's)."""
        opening = tree.token
        name, argument = opening.info, str(opening.meta.get("argument", ""))
        offset = self.inline.block_offset(opening)
        self.checks.directive(opening, offset, within)
        if name == "definition":
            return (self._definition(tree, argument, offset, section_id, definition),)
        argument_at = offset + int(opening.meta.get("argument_at", 0))
        if name == "note":
            title = self._title(argument, argument_at, "a note's title")
            children = self._blocks(tree.children, section_id, definition, "note")
            return (Note(title or None, children, self.source, offset),)
        if name == "figure":
            figure_id, _, written = argument.partition(" ")
            title = self._title(written, argument_at + len(figure_id) + 1, "a figure's title")
            return (self._figure(tree, figure_id, title, offset, section_id, definition),)
        return self._blocks(tree.children, section_id, definition, within)

    def _definition(self, tree: Tree, name: str, offset: int, section_id: str, parent: str | None) -> Definition:
        index = self.inline.open_definition(name, section_id, parent, offset)
        children = self._blocks(tree.children, section_id, name, "definition")
        return self.inline.close_definition(index, children)

    def _title(self, written: str, at: int, where: str) -> str:
        """A directive's title (``at``: where it is written): text, as the XML's ``title=``, its backslash escapes and
        character references read (``\\*``: a star, ``&amp;``: an ampersand); markup in it is reported, at the
        markup."""
        self.checks.plain_text(written, lambda position: at + position, where)
        return text_read(written)

    def _figure(
        self, tree: Tree, figure_id: str, caption_title: str, offset: int, section_id: str, definition: str | None
    ) -> Figure:
        images: list[Image] = []
        caption: list[Node] = []
        for child in tree.children:
            found = self._blocks([child], section_id, definition, "figure")
            if len(found) == 1 and isinstance(found[0], Illustration):
                images += found[0].images
            else:
                if caption and found and not isinstance(caption[-1], LineBreak) and not isinstance(found[0], LineBreak):
                    caption.append(LineBreak(self.source, self.inline.block_offset(child.token)))  # between paragraphs
                caption += found
        if not images:
            self.checks.report(
                "a figure without an image",
                offset,
                target=figure_id or None,
                help="give it a paragraph of images (`![](file.png)`) before its caption",
            )
        figure = Figure(
            figure_id, tuple(images), caption_title.strip() or None, tuple(caption), section_id, self.source, offset
        )
        self.ids.append((figure_id, self.source.span(offset)))
        self.figures.append(figure)
        return figure


_BLOCK_NODES = (Note, Table, ItemList, Figure, Illustration, Section)
"""The nodes that stand on their own, never within a paragraph."""


def holds_blocks(definition: Definition) -> bool:
    """Whether a definition holds a block (a table, a note, a list...), itself or in a definition inside it."""
    return any(
        isinstance(n, _BLOCK_NODES) or (isinstance(n, Definition) and holds_blocks(n)) for n in definition.children
    )


def parted_by_break(node: Node, *, at_end: bool) -> bool:
    """Whether the reader parts ``node`` from a paragraph before it (``at_end``: after it) with a break, as a blank
    line parts two paragraphs: inline content, or a ``::: definition`` of paragraphs only (shown within a paragraph,
    where text beside it would be glued to it) whose text reaches that side (no break there)."""
    if isinstance(node, Definition):
        if holds_blocks(node) or not node.children:
            return False
        return parted_by_break(node.children[-1 if at_end else 0], at_end=at_end)
    return not isinstance(node, (LineBreak, *_BLOCK_NODES))


def _every_tree(trees: list[Tree]) -> list[Tree]:
    found: list[Tree] = []
    for tree in trees:
        found.append(tree)
        found += _every_tree(tree.children)
    return found


__all__ = ["Link", "Mechanic", "Reference", "Value", "parse_dialect", "read_dialect_file"]


def _apart(written: int, offset: int) -> int | None:
    """Where a block's attributes are written, when not at the block (the line before it), else None."""
    return written if written != offset else None
