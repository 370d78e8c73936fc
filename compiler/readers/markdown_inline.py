"""The dialect's inline content (and the blocks made of it: tables, notes' paragraphs), as model nodes.

``[[name|text]]`` is a reference, ``[text](#id)`` a link, ``**text**`` important text, ``[text]{dfn=name}``
a definition within a paragraph, ``[6]{value=rounds}`` a value, ``<!-- rulebook: mechanic ... -->`` a
mechanics annotation, a backslash at the end of a line a break, ``![](file.png)`` an image (a paragraph of
images alone: an illustration). Every node's offset is where its markup starts in the source.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeAlias
from urllib.parse import unquote

from markdown_it.token import Token
from mdit_py_plugins.attrs.parse import ParseError
from mdit_py_plugins.attrs.parse import parse as parse_attributes

from rulebook.errors import quoted
from rulebook.markdown_declarations import ATTRIBUTE, mechanics
from rulebook.model import (
    Cell,
    Content,
    Definition,
    Illustration,
    Image,
    Important,
    Item,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Node,
    Reference,
    Row,
    Table,
    Value,
    plain_text,
    take_back,
    walk,
)
from rulebook.readers.markdown_blocks import Tree
from rulebook.readers.markdown_checks import Checks
from rulebook.readers.markdown_stray import stray_markup
from rulebook.readers.markdown_syntax import attributes_of, markup_name, read_attributes, table_cells
from rulebook.source import SourceText

_DICE = re.compile(r"\d*[dD]\d+")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_NOT_NAME = re.compile(r"[^a-z0-9_:]+")
_SPAN_KEYS = ("dfn", "value", "kind", "term")
_SPAN_ROLES = {
    "dfn": (("dfn",), "a definition"),
    "value": (("value", "kind", "term"), "a value"),
    "title": ((), "an item's title"),
}
"""What each kind of bracketed span takes: a definition its name, a value its name, kind and term, a title nothing."""
_TABLE_KEYS = ("title", "roll", "kind", "id")


def term_name(written: str) -> str:
    """The name ``[[written]]`` refers to: the text as an identifier (``Nerve Test`` is ``nerve_test``);
    a book's prefix (``core:fighter``) is kept."""
    return _NOT_NAME.sub("_", written.strip().lower()).strip("_")


class ItemTitle(NamedTuple):
    """``[Title]{.title}`` opening a list item: the item's title (never left in the model)."""

    text: str
    offset: int


_Inline: TypeAlias = "Node | ItemTitle | Image"
"""What inline reading makes: nodes, and what its paragraph makes something of (a title, an image)."""


@dataclass
class _Frame:
    kind: str
    attributes: dict[str, str]
    offset: int
    nodes: list[_Inline] = field(default_factory=list)
    index: int = -1
    """For a definition: its place in the document's list of definitions."""
    items: list[Item] = field(default_factory=list)
    """For a list in a table's cell (``<ul>``): its items so far."""


class _Places:
    """Where each position of an inline token's text stands in the source."""

    def __init__(self, source: SourceText, token: Token, search_from: int = 0) -> None:
        first = token.map[0] if token.map else 0
        self.starts: list[int] = []
        self.lengths: list[int] = []
        self.firsts: list[int] = []
        """Per line, where it starts in the token's text."""
        self.pipes: list[list[int]] = []
        """Per line, where a ``|`` the source writes ``\\|`` stands in the text (a table's cell: markdown-it takes the
        backslash off before reading the cell)."""
        for number, line in enumerate(token.content.split("\n")):
            # Found in place, not in a copy of the line: a row of many cells would be copied once per cell.
            begin, end = source.line_bounds(first + number + 1)
            since = begin + (search_from if number == 0 else 0)
            column = source.text.find(line, since, end) - begin if line else end - begin
            pipes: list[int] = []
            if column < 0 and "|" in line:
                column = source.text.find(line.replace("|", "\\|"), since, end) - begin
                pipes = [index for index, character in enumerate(line) if character == "|"] if column >= 0 else []
            column = max(column, 0)
            start = source.line_starts[min(first + number, len(source.line_starts) - 1)]
            self.starts.append(start + column)
            self.firsts.append(self.firsts[-1] + self.lengths[-1] if self.lengths else 0)
            self.lengths.append(len(line) + 1)
            self.pipes.append(pipes)

    def offset(self, position: int) -> int:
        """Where a position of the token's text stands in the source (a look-up: a paragraph of many lines
        asks once per span)."""
        if position >= self.firsts[-1] + self.lengths[-1]:
            return self.starts[-1]
        line = max(bisect.bisect_right(self.firsts, position) - 1, 0)
        position -= self.firsts[line]
        return self.starts[line] + position + bisect.bisect_left(self.pipes[line], position)

    def end(self) -> int:
        """Where the text's last line ends in the source."""
        return self.starts[-1] + self.lengths[-1] - 1 + len(self.pipes[-1])


class InlineReader:
    """Makes inline nodes, and keeps the document's indexes of what they are."""

    def __init__(self, source: SourceText, checks: Checks) -> None:
        self.source = source
        self.checks = checks
        self.definitions: list[Definition] = []
        self.references: list[Reference] = []
        self.links: list[Link] = []
        self.values: list[Value] = []
        self.images: list[Image] = []
        self.mechanics: list[Mechanic] = []
        self._written_above: dict[int, int] = {}
        """Each block's line (from 0), and the line above it that is not blank (:meth:`attributes_offset`)."""

    # -- places -----------------------------------------------------------------

    def line_offset(self, line: int) -> int:
        """Offset of the first non-blank character of a 0-based line."""
        return self.source.first_nonblank(min(line, len(self.source.line_starts) - 1) + 1)

    def block_offset(self, token: Token) -> int:
        return self.line_offset(token.map[0] if token.map else 0)

    def attributes_offset(self, token: Token) -> int:
        """Where a block's attributes are written: the line before it, or before the blank lines above it
        (``{roll=D6}``; the attributes plugin reads across them), at its brace; else the block."""
        line = token.map[0] if token.map else 0  # from 0; `line_text` counts from 1
        above = self._written_above.get(line)
        if above is None:  # once a line: 45 lists opening on one line below a million blank lines walked them each
            above = line - 1
            while above > 0 and not self.source.line_text(above + 1).strip():
                above -= 1
            self._written_above[line] = above
        text = self.source.line_text(above + 1) if above >= 0 else ""
        if not text.lstrip().startswith("{"):
            return self.line_offset(line)
        return self.line_offset(above) + len(text) - len(text.lstrip())

    # -- definitions ----------------------------------------------------------------

    def open_definition(self, name: str, section_id: str, parent: str | None, offset: int) -> int:
        """Index the definition, outer before inner (as the XML reader does), until its content is read."""
        self.definitions.append(Definition(name, (), section_id, parent, self.source, offset))
        return len(self.definitions) - 1

    def close_definition(self, index: int, children: Content) -> Definition:
        definition = self.definitions[index]._replace(children=children)
        self.definitions[index] = definition
        return definition

    # -- paragraphs -----------------------------------------------------------------

    def paragraph(self, inline: Token, section_id: str, definition: str | None, within: str) -> list[Node]:
        """A paragraph's nodes: a paragraph of images alone is an illustration, one of ``\\`` alone a break."""
        if inline.content.strip() == "\\":
            return [LineBreak(self.source, self.block_offset(inline))]
        self._stray_fences(inline)
        self._unread_attribute_blocks(inline)
        self._unread_lines(inline)
        nodes = self.nodes(inline, _Places(self.source, inline), section_id, definition)
        images = tuple(n for n in nodes if isinstance(n, Image))
        blocks = [n.strip() for n in nodes if isinstance(n, str) and _PICTURE_ATTRIBUTES.fullmatch(n.strip())]
        if images and all(isinstance(n, Image) or (isinstance(n, str) and not n.strip()) or n in blocks for n in nodes):
            for block in blocks:  # `![a](x.png){width=50%}`, as Pandoc writes: it was "an image within text"
                self.checks.report(
                    f"attributes after a picture ({quoted(block)}), which takes none: they are not read",
                    images[0].offset,
                    help="a picture is shown at its own size; take the braces out (a caption is a figure's title)",
                )
            return [Illustration(images, self.source, self.block_offset(inline))]
        for image in images:
            self.checks.report("an image within text", image.offset, help="give a picture a paragraph of its own")
        return self._titles_resolved([n for n in nodes if not isinstance(n, Image)], first=within == "item")

    def _stray_fences(self, inline: Token) -> None:
        """A line of a paragraph that is a directive's closing fence (``:::``) with no directive open: it was text on
        the page, in silence (a directive closed twice, or a fence left over)."""
        if ":::" not in inline.content or not inline.map:
            return
        for line in range(*inline.map):
            text = self.source.line_text(line + 1)
            if _FENCE_ALONE.fullmatch(text):
                self.checks.report(
                    "`:::` closes no directive here: it is read as text",
                    self.source.line_starts[line] + len(text) - len(text.lstrip()),
                    help="remove it, or open the directive it closes (`::: note Title`)",
                )

    def _unread_lines(self, inline: Token) -> None:
        """Lines of a paragraph written as a block markdown-it does not read there: a table's rows with no delimiter
        row under the header (``| a | b |`` / ``| 1 | 2 |``: one line of bars on the page), a heading of seven
        ``#`` or more (its ``#`` shown). Each was shown as written, with "All checks passed"."""
        if not inline.map:
            return
        first = inline.map[0]
        lines = [self.source.line_text(line + 1) for line in range(*inline.map)]
        rows = len(lines) > 1 and all(_ROW_WRITTEN.fullmatch(text) for text in lines)
        if rows and not any(_TABLE_DELIMITER.fullmatch(text) for text in lines):  # one of the wrong width: its own
            self.checks.report(
                "a table with no delimiter row under its header: its rows are shown as a paragraph of bars",
                self.source.line_starts[first] + lines[0].index("|"),
                help="write a row of dashes under the header, one a column: `|---|---|`",
            )
        for number, text in enumerate(lines, first):
            if _TOO_DEEP.match(text):
                self.checks.report(
                    "a heading deeper than a subsection: seven `#` or more make no heading, it is shown as written",
                    self.source.line_starts[number] + len(text) - len(text.lstrip()),
                    help="headings are chapters (`#`), sections (`##`) and subsections (`###`); `\\#` shows the "
                    "character",
                )

    def _unread_attribute_blocks(self, inline: Token) -> None:
        """An attribute block after a span or a reference that its parser cannot read (``[x]{dfn=hit on=a(1)}``):
        the span was read as text, its braces shown, the definition it made lost, in silence."""
        if "]{" not in inline.content or not inline.map:
            return
        for line in range(*inline.map):
            text = self.source.line_text(line + 1)
            for found in _AFTER_BRACKET.finditer(text):
                try:
                    read_attributes(text, found.end() - 1, len(text))
                except ParseError:
                    self.checks.report(
                        "an attribute block that cannot be read: what it follows is read as text",
                        self.source.line_starts[line] + found.end() - 1,
                        help="write each attribute as key=value, a value holding spaces or signs in quotes: "
                        '`[text]{dfn=name}`, `{title="A title"}`',
                    )

    def item_title(self, content: Content) -> tuple[str | None, Content]:
        """An item's title (``[Title]{.title}`` first in it), and its content without it."""
        if content and isinstance(content[0], ItemTitle):
            rest = list(content[1:])
            if rest and isinstance(rest[0], str):
                rest[0] = rest[0].lstrip()
            return content[0].text, tuple(n for n in rest if n != "")
        return None, content

    def _titles_resolved(self, nodes: list[_Inline], *, first: bool) -> list[Node]:
        found: list[Node] = []
        for index, node in enumerate(nodes):
            if isinstance(node, Image):
                self.checks.report("an image within text", node.offset, help="give a picture a paragraph of its own")
                continue
            if isinstance(node, ItemTitle):
                if first and index == 0:
                    found.append(node)  # type: ignore[arg-type]  # taken off by item_title
                    continue
                self.checks.report("a title (`{.title}`) is only allowed first in a list item", node.offset)
                node = node.text
            found.append(node)
        return found

    def heading_text(self, inline: Token) -> str:
        """A heading's text as written (without markup); a reference or other markup in it is reported."""
        places = _Places(self.source, inline)
        for position, message, help in stray_markup(inline.content, inline.children or [], own_end=True):
            self.checks.report(message, places.offset(position), help=help)
        parts = []
        for token in inline.children or ():
            if token.type in ("text", "code_inline"):
                parts.append(token.content)
            elif token.type == "softbreak":
                parts.append(" ")
            elif token.type == "wikilink":
                parts.append(token.meta["display"])
                self.checks.report(
                    "a reference inside a heading",
                    places.offset(token.meta.get("at", 0)),
                    target=token.meta["name"],
                    help="a heading is a title: refer to the term in the section's text",
                )
            elif token.type == "html_inline" and not token.content.lstrip().startswith("<!--"):
                self.checks.unsupported_inline(
                    f"HTML (`{token.content.strip()[:30]}`) in a heading",
                    places.offset(token.meta.get("at", 0)),
                    "a heading is a title: write it as plain text",
                )
            if token.type == "code_inline" or token.type == "image" or token.nesting == 1:
                # the XML's title holds text alone: a definition or value span, emphasis, a link, code or an image
                # in a heading was dropped (the image whole), with "All checks passed"
                self.checks.report(
                    f"{markup_name(token.type)} inside a heading",
                    places.offset(token.meta.get("at", 0)),
                    help="a heading is a title: write it as plain text"
                    + (", and the definition or value in the section's text" if token.type == "span_open" else ""),
                )
        return "".join(parts)

    def nodes(
        self, inline: Token, places: _Places, section_id: str, definition: str | None, *, lists: bool = False
    ) -> list[_Inline]:
        """The nodes of an inline token's children (``definition``: the innermost enclosing definition's name;
        ``lists``: a table's cell, where ``<ul><li>...</li></ul>`` is a list, as GitHub shows it)."""
        frames = [_Frame("root", {}, self.block_offset(inline))]
        for position, message, help in stray_markup(inline.content, inline.children or [], own_end=lists):
            self.checks.report(message, places.offset(position), help=help)
        for token in inline.children or ():
            kind = token.type
            at = places.offset(token.meta["at"]) if "at" in token.meta else frames[-1].offset
            if kind == "text":
                frames[-1].nodes.append(token.content)
            elif kind == "softbreak":
                frames[-1].nodes.append("\n")
            elif kind == "hardbreak":
                frames[-1].nodes.append(LineBreak(self.source, at))
            elif kind == "wikilink":
                frames[-1].nodes.append(self._reference(token, at, section_id, _innermost(frames, definition)))
                self._reference_words(token, places)
            elif kind.endswith("_open"):
                frames.append(self._opened(token, at, section_id, frames, definition))
            elif kind.endswith("_close") and len(frames) > 1:
                done = frames.pop()
                frames[-1].nodes += self._closed(done, section_id, _innermost(frames, definition))
            elif kind == "image":
                described = "".join(child.content for child in token.children or () if child.type == "text")
                image = Image(unquote(str(token.attrs.get("src", ""))), self.source, at, " ".join(described.split()))
                self.images.append(image)
                frames[-1].nodes.append(image)
            elif kind == "html_inline" and lists and _LIST_TAG.fullmatch(token.content.strip().lower()):
                self._list_tag(token.content.strip().lower(), at, frames)
            elif kind == "html_inline":
                frames[-1].nodes += self._html(token.content, at, section_id, _innermost(frames, definition))
            elif kind == "code_inline":
                self.checks.unsupported_inline("code (`` ` ``)", at, "write the text without backticks")
                frames[-1].nodes.append(token.content)
        while len(frames) > 1:  # markdown-it closes what it opens (not the HTML of a cell's list)
            done = frames.pop()
            if done.kind in ("ul", "li"):
                self.checks.report(f"`<{done.kind}>` is never closed", done.offset, help="close it in the same cell")
                frames[-1].nodes += [*(n for item in done.items for n in item.children), *done.nodes]
                continue
            frames[-1].nodes += self._closed(done, section_id, definition)
        return _joined(frames[0].nodes)

    def _list_tag(self, tag: str, at: int, frames: list[_Frame]) -> None:
        """A tag of a list in a table's cell: ``<ul>`` opens it, ``<li>``...``</li>`` an item, ``</ul>`` ends it."""
        inside = frames[-1].kind
        if tag == "<ul>" and inside != "ul":
            frames.append(_Frame("ul", {}, at))
        elif tag == "<li>" and inside == "ul":
            frames.append(_Frame("li", {}, at))
        elif tag == "</li>" and inside == "li":
            done = frames.pop()
            content = [n for n in _joined(done.nodes) if not isinstance(n, ItemTitle | Image)]
            frames[-1].items.append(Item(None, tuple(_strip(content)), self.source, done.offset))
        elif tag == "</ul>" and inside == "ul":
            done = frames.pop()
            if any(not (isinstance(n, str) and not n.strip()) for n in done.nodes):
                self.checks.report("text in a cell's list outside its items", done.offset, help="put it in a `<li>`")
            frames[-1].nodes.append(ItemList(False, tuple(done.items), None, self.source, done.offset))
        else:
            self.checks.report(
                f"`{tag}` out of place",
                at,
                help="a list in a table's cell is written `<ul><li>one</li><li>two</li></ul>`",
            )

    def _reference_words(self, token: Token, places: _Places) -> None:
        """The words after a reference's bar (``[[name|words]]``), checked for markup: text, as the XML's
        ``<reference>`` holds."""
        if "written" in token.meta:
            words = int(token.meta["at"]) + int(token.meta["display_at"])
            self.checks.plain_text(token.meta["written"], lambda k: places.offset(words + k), "a reference's words")

    def _reference(self, token: Token, at: int, section_id: str, definition: str | None) -> Reference:
        meta = token.meta
        name = meta["name"] if meta["named"] else term_name(meta["name"])
        attributes = attributes_of(token)
        self.checks.block_attributes(attributes, ("type",), at, "a reference")
        kind = attributes.get("type")
        if kind is not None and kind != "example":
            self.checks.report(
                f"`{kind}` is not an allowed value of `type` on a reference",
                at,
                target=kind,
                help="write `{type=example}`",
            )
        reference = Reference(name, meta["display"], kind, section_id, definition, self.source, at)
        self.references.append(reference)
        return reference

    def _opened(self, token: Token, at: int, section_id: str, frames: list[_Frame], definition: str | None) -> _Frame:
        kind = token.type[: -len("_open")]
        attributes = attributes_of(token)
        frame = _Frame(kind, attributes, at)
        if kind == "span" and "dfn" in attributes:
            if any(f.kind == "strong" for f in frames):
                self.checks.report(
                    "a definition is not allowed inside important text (`**`)", at, target=attributes["dfn"]
                )
            frame.index = self.open_definition(attributes["dfn"], section_id, _innermost(frames, definition), at)
        elif kind == "em":
            self.checks.unsupported_inline(
                "emphasis (`*text*`)", at, "write `**text**` for important text, or plain text"
            )
        elif kind == "link" and not str(token.attrs.get("href", "")).startswith("#"):
            self.checks.unsupported_inline(
                "a link out of the book", at, "write the address as text; `[text](#id)` links to a section or figure"
            )
        return frame

    def _closed(self, frame: _Frame, section_id: str, definition: str | None) -> list[_Inline]:
        nodes = _joined(frame.nodes)
        attributes = frame.attributes
        if frame.kind == "strong":
            return [Important(tuple(self._pictures_left_out(nodes)), self.source, frame.offset)]  # type: ignore[arg-type]
        if frame.kind == "link" and attributes.get("href", "").startswith("#"):
            target = unquote(attributes["href"][1:])  # markdown-it writes a destination's spaces as %20
            self._text_only(nodes, "a link's text")
            link = Link(target, plain_text(tuple(_texts(nodes))), section_id, self.source, frame.offset)
            self.links.append(link)
            return [link]
        if frame.kind != "span":
            return nodes
        role = "dfn" if frame.index >= 0 else "value" if "value" in attributes else ""
        role = role or ("title" if "title" in attributes.get("class", "").split() else "")
        allowed, what = _SPAN_ROLES.get(role, (_SPAN_KEYS, "a span"))
        self.checks.block_attributes(attributes, allowed, frame.offset, what, ("title",) if role == "title" else ())
        if frame.index >= 0:
            return [self.close_definition(frame.index, tuple(self._pictures_left_out(nodes)))]  # type: ignore[arg-type]
        if "value" in attributes:
            self._text_only(nodes, "a value")
            text, kind, term = "".join(_texts(nodes)), attributes.get("kind"), attributes.get("term")
            value = Value(attributes["value"], text, kind, term, section_id, self.source, frame.offset)
            self.values.append(value)
            return [value]
        if role == "title":
            self._text_only(nodes, "an item's title")
            return [ItemTitle("".join(_texts(nodes)), frame.offset)]
        return nodes

    def _pictures_left_out(self, nodes: list[_Inline]) -> list[_Inline]:
        """The content of a definition's or important text's span without its images, each reported as one in a
        paragraph is: an image kept inside the span reached the rule data's compiler, an internal error."""
        for node in nodes:
            if isinstance(node, Image):
                self.checks.report("an image within text", node.offset, help="give a picture a paragraph of its own")
        return [node for node in nodes if not isinstance(node, Image)]

    def _text_only(self, nodes: list[_Inline], where: str) -> None:
        """What the XML writes as text alone (an item's ``title=``, a ``<value>``, a ``<link>``'s words): a reference,
        link, image, value or mechanic in it is reported, kept as its words and left out of the book's indexes."""
        indexes: dict[type, tuple[str, list[Any]]] = {
            Reference: ("a reference", self.references),
            Link: ("a link", self.links),
            Image: ("an image", self.images),
            Value: ("a value", self.values),
            Mechanic: ("a mechanic", self.mechanics),
        }
        taken: dict[int, tuple[list[Any], list[_Inline]]] = {}
        for node in nodes:
            if isinstance(node, Important):  # `[**Move**]{.title}`: the emphasis was dropped, with no finding
                help = "write it without `**`: it is text"
                self.checks.report(f"important text inside {where}", node.offset, help=help)
                continue
            if isinstance(node, Definition):  # `[Go [a march]{dfn=march}]{.title}`: defined, with no place on a page
                taken.setdefault(id(self.definitions), (self.definitions, []))[1].append(node)
                help = "it is text: define the term in the text beside it"
                self.checks.report(f"a definition inside {where}", node.offset, target=node.name, help=help)
                continue
            found = indexes.get(type(node))
            if found is None or not isinstance(node, Reference | Link | Image | Value | Mechanic):
                continue
            what, index = found
            taken.setdefault(id(index), (index, []))[1].append(node)
            self.checks.report(
                f"{what} inside {where}",
                node.offset,
                target=getattr(node, "name", None),
                help=_TEXT_ONLY[where],
            )
        for index, written in taken.values():
            take_back(index, written)

    def _html(self, html: str, at: int, section_id: str, definition: str | None) -> list[Node]:
        if _BREAK.fullmatch(html):
            return [LineBreak(self.source, at)]  # a pipe table's cell breaks its lines so
        found: list[Node] = []
        for match in mechanics(html):
            pairs = list(ATTRIBUTE.finditer(match.group("attributes")))
            written = at + match.start("attributes")
            keys = [(m.group("key"), m.group("value"), written + m.start("key")) for m in pairs]
            word = at + match.start() + match.group().index("mechanic")
            self.checks.mechanic(match.group("attributes"), keys, written, word)
            attributes = {m.group("key"): m.group("value") for m in pairs}
            name = attributes.pop("name", "")
            offset = at + match.start()
            mechanic = Mechanic(name, tuple(sorted(attributes.items())), section_id, definition, self.source, offset)
            self.mechanics.append(mechanic)
            found.append(mechanic)
        self.checks.plain_declarations(html, at)
        if not found and not html.lstrip().startswith("<!--"):
            self.checks.unsupported_inline(f"HTML (`{html.strip()[:30]}`)", at, "write the text in Markdown")
        return found

    def html_block(self, token: Token, section_id: str, definition: str | None) -> list[Node]:
        """An HTML block: the mechanics annotations in it (a comment alone is left out). A comment that starts a line
        makes the whole line HTML: text after it on that line is reported, not read."""
        at = self.block_offset(token)
        content = token.content
        self.checks.unclosed_comment(content, at)
        end = content.rfind("-->")
        if content.lstrip().startswith("<!--") and end >= 0 and content[end + 3 :].strip():
            after = end + 3 + len(content[end + 3 :]) - len(content[end + 3 :].lstrip())
            self.checks.report(
                "text after a comment that starts a line is not read",
                at + after,
                help="put the comment after the text's first words, or on a line of its own",
            )
        return self._html(content, at, section_id, definition)

    # -- tables -------------------------------------------------------------------------

    def table(self, tree: Tree, section_id: str, definition: str | None, within: str) -> Table:
        """A pipe table: a header row of empty cells means no column headers; a first column headed by dice
        (``| D6 | Result |``) makes a roll table whose first column holds each row's results."""
        opening = tree.token
        attributes = attributes_of(opening)
        offset = self.block_offset(opening)
        written = self.attributes_offset(opening)
        self.checks.block_attributes(attributes, _TABLE_KEYS, written, "a table", ("row-headers",))
        classes = attributes.pop("class", "").split()
        rows = [self._row(row, section_id, definition) for part in tree.children for row in part.children]
        self._check_delimiter_rows([row for part in tree.children[1:] for row in part.children])
        columns = rows.pop(0) if rows else None
        roll = attributes.get("roll")
        row_headers = "row-headers" in classes
        if columns is not None and roll is None and _DICE.fullmatch(plain_text(columns.cells[0].children)):
            roll, row_headers = plain_text(columns.cells[0].children), True
        if columns is not None and all(not cell.children for cell in columns.cells):
            columns = None
        if row_headers:
            rows = [row._replace(cells=(row.cells[0]._replace(header=True), *row.cells[1:])) for row in rows]
        self._check_grid(columns, rows, offset)
        kind, table_id = attributes.get("kind"), attributes.get("id")
        apart = written if written != offset else None  # the line before the table
        return Table(attributes.get("title"), columns, tuple(rows), kind, roll, self.source, offset, table_id, apart)

    def _check_grid(self, columns: Row | None, rows: list[Row], offset: int) -> None:
        """What the DTD says of a table's rows: one at least; header cells hold no definition and no list."""
        if not rows:
            self.checks.report("a table without rows", offset, help="add a row under the header row")
        headers = [cell for row in ([columns] if columns else []) + rows for cell in row.cells if cell.header]
        for node in (node for cell in headers for node in walk(cell.children)):
            if isinstance(node, Definition):
                self.checks.report(
                    "a definition inside a header cell",
                    node.offset,
                    target=node.name,
                    help="define the term in a data cell, or in the text around the table",
                )
            elif isinstance(node, ItemList):
                self.checks.report("a list inside a header cell", node.offset, help="put the list in a data cell")

    def _row(self, tree: Tree, section_id: str, definition: str | None) -> Row:
        offset = self.block_offset(tree.token)
        cells = []
        search = 0
        for cell in tree.children:
            inline = cell.children[0].token if cell.children else None
            if inline is None:
                cells.append(Cell(cell.token.type == "th_open", (), self.source, offset))
                continue
            places = _Places(self.source, inline, search)
            search = places.end() - self.source.line_starts[inline.map[0]] if inline.map else 0
            nodes = self.nodes(inline, places, section_id, definition, lists=True)
            marked = self._cell_marker(inline.content, nodes, places)
            content = _strip(self._titles_resolved(nodes, first=False))
            cells.append(Cell(cell.token.type == "th_open" or marked, tuple(content), self.source, places.starts[0]))
        self._check_width(tree)
        return Row(tuple(cells), self.source, offset)

    def _check_delimiter_rows(self, rows: list[Tree]) -> None:
        """A delimiter row among a table's rows (``|---|---|``): a second table written with no blank line before it,
        which GitHub's tables read as rows of the first, its header a row and its delimiter a row of dashes, with
        "All checks passed". Reported at the row of the second table's header; a row of cells holding a dash or
        two (``| - | - |``, nothing to say) is a row."""
        for row in rows:
            line = row.token.map[0] if row.token.map else 0
            text = self.source.line_text(line + 1)
            if _TABLE_DELIMITER.fullmatch(text) is None:
                continue
            header = self.source.line_text(line)  # the line above: the new table's header, read as a row
            self.checks.report(
                "a table's delimiter row among its rows: a table goes on to the first blank line, so this one's "
                "header and rows are read as rows of the table above",
                self.source.line_starts[line - 1] + len(header) - len(header.lstrip()),
                help="leave a blank line before the new table's header row",
            )

    def _check_width(self, row: Tree) -> None:
        """A row written with more cells than its table's header: markdown-it leaves the others out, so they are
        reported where the first of them starts, never lost unsaid."""
        line = row.token.map[0] if row.token.map else 0
        text, width = self.source.line_text(line + 1), len(row.children)
        if text.count("|") <= width + 1:  # no more pipes than the cells and the enclosing pipes take
            return
        written = table_cells(text)
        contents = [cell.children[0].token.content if cell.children else "" for cell in row.children]
        if [found for found, _ in written[:width]] != contents:
            return  # not the cells markdown-it read (a quote's row: `> | a |`)
        extra = [(found, columns) for found, columns in written[width:] if columns]
        if not extra:
            return
        shown = " | ".join(found for found, _ in extra)
        self.checks.report(
            f"a row with more cells than its table's header: `{shown[:60]}` is not read",
            self.source.line_starts[line] + extra[0][1][0],
            help="add a column to the header row, or write `\\|` for a `|` inside a cell",
        )

    def _cell_marker(self, written: str, nodes: list[_Inline], places: _Places) -> bool:
        """Whether a cell ends with ``{.header}`` (markdown-it-attrs' attributes of a cell, at its end): a header cell
        wherever it stands in its row. The marker is taken off the cell's text; other attributes there are reported."""
        match = _CELL_ATTRIBUTES.search(written)
        if match is None or not nodes or not isinstance(nodes[-1], str) or not nodes[-1].endswith(match.group()):
            return False  # no attribute block, or one a span or reference took (``[x]{dfn=y}``)
        try:
            _, attributes = parse_attributes(match.group())
        except ParseError:
            return False  # text in braces (``{2D6}``): not attributes
        nodes[-1] = nodes[-1][: -len(match.group())]
        at = places.offset(match.start())
        classes = attributes.pop("class", "").split()
        written_keys = [("." + name, name) for name in classes if name != "header"]
        written_keys += [("#" + value if key == "id" else key, key) for key, value in attributes.items()]
        alone = not written[: match.start()].strip()  # `{title=After}` under a table: a row of that one cell
        self.checks.attributes(
            [(shown, self.checks.key_offset(at, shown)) for shown, _ in written_keys],
            {".header": "`{.header}`"},
            "a table cell",
            _tables_own if alone else None,
        )
        return "header" in classes


def _tables_own(key: str) -> str:
    """The hint of a table's attribute (``title``, ``#id``, ``.row-headers``) written in a cell's block alone: the
    line under a table is a row of one cell, and "unknown attribute `title` on a table cell" was all it said."""
    own = key.startswith("#") or key in (*_TABLE_KEYS, ".row-headers")
    return "; a table's own attributes go on the line right before its first row" if own else ""


_PICTURE_ATTRIBUTES = re.compile(r"\{[^{}\n]*\}")
"""An attribute block written after a picture alone in its paragraph (Pandoc's and kramdown's ``{width=50%}``)."""
_CELL_ATTRIBUTES = re.compile(r"(?<!\\)\{[^{}\\\n]*\}\s*$")
"""An attribute block ending a cell's text (``| Sprint {.header} |``); none whose brace is escaped."""
_FENCE_ALONE = re.compile(r"[ \t]*:{3,}[ \t]*")
_AFTER_BRACKET = re.compile(r"(?<!\\)\]\{")
"""A brace right after a closing bracket (not an escaped one): an attribute block, of a span or a reference."""
"""A line holding a directive's closing fence alone."""
_ROW_WRITTEN = re.compile(r"[ \t]*\|.*\|[ \t]*")
"""A line written as a table's row, between bars."""
_TOO_DEEP = re.compile(r"[ \t]*#{7,}(?:[ \t]|$)")
"""A heading's opening of more ``#`` than any heading has."""
_LIST_TAG = re.compile(r"</?(?:ul|li)>")
"""The tags of a list in a table's cell."""
_TABLE_DELIMITER = re.compile(r"[ \t]*+(?:\|[ \t]*+)?:?-{3,}+:?(?:[ \t]*+\|[ \t]*+:?-{3,}+:?)*[ \t]*+(?:\|[ \t]*+)?")
"""A pipe table's delimiter row as written (``|---|:---:|``): three dashes a cell at least, as a row's ``| - |`` is
not. Each run of spaces is read once (``[ \\t]*\\|?(?:[ \\t]*...`` split runs of spaces every way: 4,000 spaces,
``---`` and 4,000 spaces took 131 s)."""
_TEXT_ONLY = {
    "an item's title": "a title is text: refer to the term in the item's text",
    "a value": "a value is the number as written: refer to the term beside it",
    "a link's text": "a link's words are text: refer to the term outside the link",
}
"""The help for markup inside what holds text only."""


def _innermost(frames: list[_Frame], definition: str | None) -> str | None:
    for frame in reversed(frames):
        if frame.index >= 0:
            return frame.attributes["dfn"]
    return definition


def _texts(nodes: list[_Inline]) -> list[str]:
    """The text of nodes that should be text alone (a link's, a value's)."""
    return [n if isinstance(n, str) else plain_text((n,)) for n in nodes if not isinstance(n, ItemTitle | Image)]


def _joined(nodes: list[_Inline]) -> list[_Inline]:
    """Neighbouring text as one string, each run joined once (a string grown by each of its parts was copied each
    time: a paragraph of 300,000 lines, its words and line ends, took 130 s)."""
    joined: list[_Inline] = []
    run: list[str] = []
    for node in nodes:
        if isinstance(node, str):
            run.append(node)
            continue
        if text := "".join(run):
            joined.append(text)
        run = []
        joined.append(node)
    if text := "".join(run):
        joined.append(text)
    return joined


def _strip(nodes: list[Node]) -> list[Node]:
    if nodes and isinstance(nodes[0], str):
        nodes[0] = nodes[0].lstrip()
    if nodes and isinstance(nodes[-1], str):
        nodes[-1] = nodes[-1].rstrip()
    return [n for n in nodes if n != ""]
