"""A document as the Markdown dialect (``rulebook convert``): read back, it gives the same model.

Text is written one paragraph to a line, every character the dialect reads as markup escaped; a break the
text keeps where no paragraph follows is a line holding a backslash alone; a header cell that no header row or
``{.row-headers}`` makes one ends with ``{.header}``. What a pipe table cannot hold (a numbered list or a note in a
cell, rows of other widths than the header) is refused with a :class:`ConversionError` naming the place.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rulebook.characters import escaped_in_json
from rulebook.closed_spans import COMMENT, searched_end
from rulebook.convert.failure import ConversionError
from rulebook.model import (
    Cell,
    Content,
    Definition,
    Document,
    Figure,
    Illustration,
    Image,
    Important,
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
    plain_text,
)
from rulebook.readers.markdown import holds_blocks, parted_by_break
from rulebook.readers.markdown_inline import term_name
from rulebook.source import Span

_BLOCKS = (Note, Table, ItemList, Figure, Illustration, Section)
_ESCAPED = re.compile(r"([\\`*\[\]<>{}|!&~])|(?<!\w)_|_(?!\w)")
_LEADING_COMMENTS = re.compile(r"(?:\s*<!--.*?-->)+", re.DOTALL)
_COMMENT_AFTER_BREAK = re.compile(r"\\\n((?:<!--.*?-->)+)", re.DOTALL)
_LINE_START = re.compile(r"^(#|[-+>=:]|\d+[.)]|\s)")
_BARE = re.compile(r"[A-Za-z0-9_:-]+")
_SECTION_NUMBER = re.compile(r"\d+(?:\.\d+)*")
_NUMBERED = re.compile(r"\d+(?:\.\d+)*\.?\s")
_DICE = re.compile(r"\d*[dD]\d+")
_AROUND_BREAK = re.compile(r"(?:(?<![ \t])[ \t]++)?\\\n[ \t]*")
"""A hard break and the spaces around it, a run read from its first space only (from each, 80,000 took 3 s)."""


def write_markdown(document: Document) -> str:
    """The document in the dialect, ending with one line end; it says it is a rulebook (``<!-- rulebook -->``), so
    that the file converted is linted and built when named on the command line, as its XML was."""
    lines: list[str] = []
    if document.title:
        lines += ["---", f"title: {_yaml(document.title)}", "---", ""]
    elif len(document.body) == 1 and len(document.sections) > 1:
        lines += ["---", "---", ""]  # a book of one chapter: its `#` is that chapter, not the book's title
    lines += ["<!-- rulebook -->", ""]
    for section in document.body:
        lines += _section(section)
    return "\n".join(lines).rstrip("\n") + "\n"


def _yaml(text: str) -> str:
    import json

    return escaped_in_json(json.dumps(" ".join(text.split()), ensure_ascii=False))  # JSON's strings are YAML's


def _section(section: Section) -> list[str]:
    title = _text(section.title)
    number = f"{section.number} " if section.number else ""
    if section.number and not _SECTION_NUMBER.fullmatch(section.number):
        written = f"the section number `{section.number}` is not digits and dots (`2.1`), which a heading writes"
        raise ConversionError(written, section.span)
    written_id = f"#{section.id}" if _BARE.fullmatch(section.id) else f"id={_value(section.id)}"
    unnumbered = section.number is None and bool(_NUMBERED.match(section.title + " "))  # its digits are its title's
    attributes = ([written_id] if section.explicit_id else []) + ([".unnumbered"] if unnumbered else [])
    explicit = f" {{{' '.join(attributes)}}}" if attributes else ""
    heading = "#" * section.level + f" {number}{title}{explicit}"
    lines = [heading, ""]
    start = 0
    text_after = _own_text_after(section.children)
    for index, node in enumerate(section.children):
        if isinstance(node, Section):
            lines += _blocks(section.children[start:index]) + _section(node)
            start = index + 1
            if text_after[index]:
                lines += ["---", ""] * _open_below(node)  # back to this section's own text
    return lines + _blocks(section.children[start:])


def _own_text_after(children: Content) -> list[bool]:
    """For each child, whether a shown node that is not a section follows it: one pass from the end (a search
    from each subsection to the end made a section of 32,000 subsections take 40 s)."""
    after: list[bool] = []
    seen = False
    for node in reversed(children):
        after.append(seen)
        seen = seen or (_shown(node) and not isinstance(node, Section))
    return after[::-1]


def _open_below(section: Section) -> int:
    """How many sections a reader has open at the end of ``section``: it, and its last subsection's."""
    shown = [n for n in section.children if _shown(n)]
    return 1 + (_open_below(shown[-1]) if shown and isinstance(shown[-1], Section) else 0)


def _shown(node: Node) -> bool:
    """Anything but white space between blocks."""
    return not isinstance(node, str) or bool(node.strip())


def _blocks(content: Content) -> list[str]:
    """Content as lines: paragraphs, blocks and breaks, each followed by a blank line."""
    lines: list[str] = []
    segments = _comment_joined([s for s in _segments(content) if not (isinstance(s, list) and not _inline(s).strip())])
    for index, segment in enumerate(segments):
        if isinstance(segment, list):
            lines += [*_comments_apart(_escape_start(_inline(segment).strip())), ""]
        elif isinstance(segment, LineBreak):
            between = 0 < index < len(segments) - 1
            if not (between and _parted(segments[index - 1], True) and _parted(segments[index + 1], False)):
                lines += ["\\", ""]
        else:
            follows_list = bool(index) and isinstance(segments[index - 1], ItemList)
            lines += (["<!-- -->", ""] if follows_list and isinstance(segment, ItemList) else []) + _block(segment)
    return lines


def _parted(segment: list[Node] | Node, at_end: bool) -> bool:
    """Whether the reader puts a break between ``segment`` and a paragraph after it (``at_end``) or before it: a
    blank line between them is the break, no ``\\`` line needed."""
    return isinstance(segment, list) or (isinstance(segment, Definition) and parted_by_break(segment, at_end=at_end))


def _comment_joined(segments: list[list[Node] | Node]) -> list[list[Node] | Node]:
    """A break between two runs of text is a blank line, unless the second starts with a comment: a comment alone on
    its line would then stand before the break, so the two runs are one paragraph with the break inside it."""
    joined: list[list[Node] | Node] = []
    for segment in segments:
        if (
            isinstance(segment, list)
            and len(joined) >= 2
            and isinstance(joined[-1], LineBreak)
            and isinstance(joined[-2], list)
            and isinstance(next((n for n in segment if not (isinstance(n, str) and not n.strip())), None), Mechanic)
        ):
            brk, previous = joined.pop(), joined.pop()
            assert isinstance(brk, LineBreak) and isinstance(previous, list)
            joined.append([*previous, brk, *segment])
        else:
            joined.append(segment)
    return joined


def _segments(content: Content) -> Iterator[list[Node] | Node]:
    """Runs of inline content, and the breaks and blocks between them."""
    run: list[Node] = []
    for index, node in enumerate(content):
        if isinstance(node, LineBreak) or _is_block(content, index):
            if run:
                yield run
                run = []
            yield node
        else:
            run.append(node)
    if run:
        yield run


def _is_block(content: Content, index: int) -> bool:
    """A block, or a definition that holds one or stands alone between blocks and breaks."""
    node = content[index]
    if isinstance(node, _BLOCKS):
        return True
    if not isinstance(node, Definition):
        return False
    before = (content[i] for i in range(index - 1, -1, -1))  # walked only to the first node that is not white space
    after = (content[i] for i in range(index + 1, len(content)))
    return holds_blocks(node) or (_alone(before) and _alone(after))


def _alone(neighbours: Iterator[Node]) -> bool:
    """Whether the nearest node that is not white space is a break, a block or none: a definition beside one stands
    on its own lines (a definition of paragraphs only is no block: the reader would part the two with a break)."""
    for node in neighbours:
        if isinstance(node, str) and not node.strip():
            continue
        return isinstance(node, (LineBreak, *_BLOCKS)) or (isinstance(node, Definition) and holds_blocks(node))
    return True


def _block(node: Node) -> list[str]:
    if isinstance(node, Definition):
        return [f"::: definition {node.name}", "", *_blocks(node.children), ":::", ""]
    if isinstance(node, Note):
        title = f" {_text(node.title)}" if node.title else ""
        return [f"::: note{title}", "", *_blocks(node.children), ":::", ""]
    if isinstance(node, Figure):
        title = f" {_text(node.caption_title)}" if node.caption_title else ""
        images = " ".join(_picture(image) for image in node.images)
        return [f"::: figure {node.id}{title}", "", images, "", *_blocks(node.caption), ":::", ""]
    if isinstance(node, Illustration):
        return [" ".join(_picture(image) for image in node.images), ""]
    if isinstance(node, Table):
        return _table(node)
    if isinstance(node, ItemList):
        return _item_list(node)
    if isinstance(node, Section):
        return _section(node)
    raise ConversionError(f"a `{type(node).__name__}` cannot be written in Markdown", getattr(node, "span", None))


def _attributes(
    pairs: list[tuple[str, str | None]], classes: tuple[str, ...] = (), span: Span | None = None
) -> list[str]:
    written = [f"{key}={_value(value, span)}" for key, value in pairs if value is not None] + [f".{c}" for c in classes]
    return [f"{{{' '.join(written)}}}"] if written else []


def _value(value: str, span: Span | None = None) -> str:
    if "{" in value or "}" in value:  # the attribute block's reader (mdit-py-plugins) takes no brace, quoted or not
        raise ConversionError(f"`{value}` holds a brace, which an attribute block (`{{...}}`) cannot hold", span)
    return value if _BARE.fullmatch(value) else '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _item_list(node: ItemList) -> list[str]:
    lines = _attributes(
        [("roll", node.roll), ("kind", node.kind), ("id", node.id), ("title", node.title)], span=node.span
    )
    for number, item in enumerate(node.items, 1):
        marker = f"{number}. " if node.ordered else "- "
        title = f"[{_text(item.title)}]{{.title}} " if item.title is not None else ""
        body = _blocks(item.children) or [""]
        while len(body) > 1 and body[-1] == "":
            body.pop()  # a tight list: no blank line after an item
        first, rest = (
            (body[0], body[1:])
            if not body[0].startswith(("::: ", "{", "|", "- ", "1. ", "![")) and not (title and body[0] == "\\")
            else ("", body)  # a block, or a break alone on its line (after a title, `\` would be text)
        )
        lines.append((marker + title + first).rstrip())
        if title and body[0] == "\\":
            lines.append("")  # the title a paragraph of its own: `\` right below it would continue it, as text
        lines += [(" " * len(marker) + line) if line else "" for line in rest]
    return [*lines, ""]


def _table(table: Table) -> list[str]:
    rows = table.rows
    width = max((len(r.cells) for r in rows), default=len(table.columns.cells) if table.columns else 1)
    row_headers = bool(rows) and all(row.cells and row.cells[0].header for row in rows)
    header = list(table.columns.cells) if table.columns else []  # the row headers' corner is a cell, even empty
    if any(len(row.cells) != width for row in rows) or (header and len(header) != width):
        raise ConversionError("a table whose rows are not as wide as its header cannot be a pipe table", table.span)
    if table.roll is None and table.columns and _DICE.fullmatch(plain_text(table.columns.cells[0].children)):
        raise ConversionError("a table headed by dice that is not a roll table cannot be a pipe table", table.span)
    classes = ("row-headers",) if row_headers else ()
    declared = [("title", table.title), ("roll", table.roll), ("kind", table.kind), ("id", table.id)]
    lines = _attributes(declared, classes, table.span)
    lines.append(_row([_cell(c) for c in header] if header else [""] * width))
    lines.append("|" + "|".join(["---"] * width) + "|")
    lines += [
        _row([_cell(cell, cell.header and not (row_headers and n == 0)) for n, cell in enumerate(row.cells)])
        for row in rows
    ]
    return [*lines, ""]


def _row(cells: list[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def _cell(cell: Cell, marked: bool = False) -> str:
    """A cell's text; ``marked``: a header cell the table's header row and ``{.row-headers}`` do not make one, marked
    ``{.header}`` at its end (markdown-it-attrs' attributes of a cell)."""
    if any(_cell_block(n) for n in cell.children):
        raise ConversionError(
            "a table cell holding a note, a table or a numbered list cannot be a pipe table's", cell.span
        )
    text = _inline(cell.children, in_cell=True).strip().replace("|", "\\|")  # a pipe table splits at any other
    return f"{text} {{.header}}".lstrip() if marked else text


def _cell_block(node: Node) -> bool:
    """A block a pipe table's cell cannot hold: any but a list of items that hold text (written as HTML, ``<ul>``)."""
    if isinstance(node, ItemList):
        return node.ordered or any(
            item.title is not None or any(_cell_block(n) for n in item.children) for item in node.items
        )
    if isinstance(node, Definition):
        return any(_cell_block(n) for n in node.children)
    return isinstance(node, _BLOCKS)


# -- inline -----------------------------------------------------------------------------------------


def _inline(content: Content | list[Node], *, in_cell: bool = False) -> str:
    written = "".join(_inline_node(node, in_cell) for node in content)
    return _AROUND_BREAK.sub("\\\n", written)  # a line's leading white space is no text to Markdown


def _inline_node(node: Node, in_cell: bool) -> str:
    if isinstance(node, str):
        return _text(node)
    if isinstance(node, Reference):
        return _reference(node)
    if isinstance(node, Link):
        return f"[{_text(node.text)}]({_destination('#' + node.to)})"
    if isinstance(node, Value):
        declared = "".join(f" {key}={_value(v)}" for key, v in (("kind", node.kind), ("term", node.term)) if v)
        return f"[{_text(node.text)}]{{value={_value(node.name)}{declared}}}"
    if isinstance(node, Mechanic):
        attributes = " ".join(f'{key}="{value}"' for key, value in (("name", node.name), *node.attributes))
        return f"<!-- rulebook: mechanic {attributes} -->"
    if isinstance(node, Important):
        inner = _inline(node.children, in_cell=in_cell)
        stripped = inner.strip()
        return inner[: len(inner) - len(inner.lstrip())] + f"**{stripped}**" + inner[len(inner.rstrip()) :]
    if isinstance(node, Definition):
        return f"[{_inline(node.children, in_cell=in_cell)}]{{dfn={_value(node.name)}}}"
    if isinstance(node, LineBreak):
        return "<br>" if in_cell else "\\\n"
    if isinstance(node, ItemList) and in_cell:
        items = "".join(f"<li>{_inline(item.children, in_cell=True).strip()}</li>" for item in node.items)
        return f"<ul>{items}</ul>"
    raise ConversionError(f"a `{type(node).__name__}` cannot stand in a paragraph", getattr(node, "span", None))


def _reference(reference: Reference) -> str:
    display = _text(" ".join(reference.text.split())) if reference.text.strip() else _link_text(reference.text)
    folded = " ".join(reference.text.split())
    simple = folded and term_name(folded) == reference.name and display == folded
    written = f"[[{display}]]" if simple else f"[[{_link_text(reference.name)}|{display}]]"
    return written + ("" if reference.kind is None else f"{{type={_value(reference.kind)}}}")


def _link_text(text: str) -> str:
    return re.sub(r"([\\|\[\]])", r"\\\1", " ".join(text.split()) if text.strip() else text)


def _destination(target: str) -> str:
    """A link's or image's destination; a ``%`` written ``%25`` (the reader decodes the destination, as markdown-it
    encodes its spaces: ``<my map.png>`` is ``my map.png``)."""
    target = target.replace("%", "%25")
    if re.fullmatch(r"[^\s()<>\\]*", target):
        return target
    return "<" + re.sub(r"([<>\\])", r"\\\1", target) + ">"  # within <...>, these three are escaped


def _picture(image: Image) -> str:
    """A picture as the dialect writes it: ``![its words](its file)``."""
    return f"![{_text(image.alt)}]({_destination(image.file)})"


def _text(text: str) -> str:
    """Text with every character the dialect would read as markup escaped, and white space folded."""
    folded = re.sub(r"\s+", " ", text)
    return _ESCAPED.sub(lambda m: "\\" + m.group(), folded)


def _comments_apart(paragraph: str) -> list[str]:
    """A paragraph's lines, no line starting with a comment (``<!--`` at a line's start opens an HTML block, which
    would take the rest of the line as HTML): comments that start the paragraph stand on a line of their own above
    it, and a break followed by one is written ``<br>`` (as in a table's cell), keeping the comment within the line."""
    closed = searched_end(paragraph, COMMENT[1])
    paragraph = _COMMENT_AFTER_BREAK.sub(r"<br>\1", paragraph[:closed]) + paragraph[closed:]
    leading = _LEADING_COMMENTS.match(paragraph)
    if leading is None or not paragraph[leading.end() :].strip():
        return [paragraph]
    return [leading.group().strip(), paragraph[leading.end() :].lstrip()]


def _escape_start(line: str) -> str:
    """A paragraph's line, with what would start a block at its start escaped."""
    match = _LINE_START.match(line)
    if match is None:
        return line
    if match.group().strip() == "":
        return line.lstrip()
    head = match.group()
    return head[:-1] + "\\" + head[-1] + line[len(head) :]
