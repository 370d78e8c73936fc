r"""Read a Markdown rulebook without markup (``plain-markdown``: a PDF's conversion, another game's rules).

Parsed with markdown-it-py. The PDF conversion scrambled the heading levels, so a section's
level comes from its printed number ("3.2.1" is level 3, whatever its count of ``#``), not
from the Markdown. Headings without a number (``## Moyenne``, ``#### **Petite**``, ``## · Le
Général``, ``## - 1 à 3 : Classique``) are sub-headings of the numbered section before them.
Runs of tab-separated lines are tables, and so are GitHub's pipe tables; the table of contents is
recognised and kept out of the rules; ``??`` (a cross-reference the PDF lost) becomes a link with no
target. What else the conversion left that the reader recognises becomes the text it stands for, each time with a note
(``converted-text``) so the source can be fixed: LaTeX fragments (``$\star$``, ``$\mathbf{1}''$``),
escaped punctuation (``\*``), and bullets that each hold a number (``- 1. ...``), which are a
numbered list. Every node keeps its file, line and column.

A book declares its mechanics in HTML comments that start ``rulebook:`` (they show nothing): at the end of
a line, ``mechanic`` (the XML's ``<mechanic>``, the same attributes) and ``value`` (the XML's ``<value>``, the
number in ``number``); on a line of its own, right before a list or table, ``sequence``, ``list`` or
``table`` with the XML's attributes (``kind``, ``id``, ``title``, ``roll``): a bullet list declared a
``sequence`` is ordered steps.
"""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from pathlib import Path

from markdown_it import MarkdownIt
from markdown_it.token import Token

from rulebook.catalog.mechanics import INVALID_ANNOTATION
from rulebook.catalog.reading import CONVERTED_TEXT, INVALID_DOCUMENT
from rulebook.diagnostics import Diagnostic
from rulebook.markdown_declarations import (
    SHOWN_AS_NOTHING,
    UNCLOSED_IN_PARAGRAPH,
    VALUE,
    Block,
    apply,
    attributes,
    block,
    closed_end,
    mechanics,
    mismatch,
    orphan,
)
from rulebook.model import (
    MAX_DEPTH,
    Annotated,
    Cell,
    Content,
    Document,
    Item,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Node,
    Row,
    Section,
    Table,
    Value,
    unique_id,
)
from rulebook.names import number_id, slugify
from rulebook.readers import SourceResult, TooDeep, nesting_too_deep, read_text_source
from rulebook.readers.markdown_limits import MAX_BYTES, TooLarge, limited, lines_past
from rulebook.source import LINE_END, SourceText

_NUMBER = re.compile(r"^(?P<number>\d+(?:\.\d+)*)\.?\s+(?P<title>\S.*)$")
_DECORATION = re.compile(r"^[\s·•\-–*]+|(?<![\s*])[\s*]+$")
"""Bullets and emphasis marks around a heading (the trailing run tried only from its start: linear time)."""
_TAGS = re.compile(r"<[^>]+>")
_LOST_REFERENCE = re.compile(r"\?\?")
_EMPHASIS = re.compile(r"(?<![\w*\\])\*(?=[^\s*])([^*\n]*?[^\s*\\])\*(?!\*)")
"""Emphasis (``*words*``): its text is kept, its markers are not (a converted PDF glues the closing one to the next
sentence, ``*...bataille.*Placez``, which the translation checks report)."""
_MATH = re.compile(r"\$([^$\n]{1,60})\$")
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")
_LATEX_SYMBOLS = {
    "star": "★",
    "times": "×",
    "le": "≤",
    "leq": "≤",
    "ge": "≥",
    "geq": "≥",
    "pm": "±",
    "circ": "°",
    "prime": "′",
    "%": "%",
}
_LATEX_TEXT = re.compile(r"\\(?:mathbf|mathrm|textbf|text|mathit)\{([^{}]*)\}")
_LATEX_SYMBOL = re.compile(r"\\(%|[a-z]+)")
TOC_TITLES = {"table des matières", "table of contents", "contents", "sommaire"}


def read_markdown_file(path: Path, display: str, *, language: str, root: Path | None = None) -> SourceResult:
    parse = functools.partial(parse_markdown_string, language=language)
    return read_text_source(path, display, parse, root=root, limit=MAX_BYTES, kind="Markdown source", refuse=lines_past)


def parse_markdown_string(text: str, path: str = "<string>", *, language: str = "fr") -> SourceResult:
    source = SourceText.from_text(path, text)
    try:
        tokens = limited(MarkdownIt("commonmark", {"html": True}).enable("table")).parse(text)
    except TooLarge as refusal:
        return SourceResult(None, (refusal.diagnostic(path),), source)
    builder = _Builder(source, language)
    # A book that numbers none of its headings (another game's rules) takes its levels from the #s.
    builder.numbered = any(
        heading_parts(tokens[i + 1].content)[0] is not None for i, t in enumerate(tokens) if t.type == "heading_open"
    )
    try:
        builder.read(tokens)
    except TooDeep as refusal:
        return SourceResult(None, (nesting_too_deep(source.span(refusal.offset), refusal.what),), source)
    return SourceResult(builder.document(), tuple(builder.diagnostics), source)


def convert_debris(text: str) -> tuple[str, list[str]]:
    r"""Text with the PDF conversion's debris it recognises turned into what it stands for, and the
    debris found (``$\star$`` -> ``★``; ``$\mathbf{1}''$`` -> ``1″``; ``\*`` -> ``*``). A LaTeX
    fragment with anything unknown is left as it is."""
    found: list[str] = []

    def math(match: re.Match[str]) -> str:
        converted = _latex(match.group(1))
        if converted is None:
            return match.group()
        found.append(match.group())
        return converted

    def escaped(match: re.Match[str]) -> str:
        found.append(match.group())
        return match.group(1)

    return _ESCAPED.sub(escaped, _MATH.sub(math, text)), found


def _removed(pattern: re.Pattern[str], text: str, closing: str) -> str:
    """``pattern.sub("", text)`` for a pattern whose every match ends with ``closing``, in linear time.

    After the last ``closing`` nothing can match, yet the expression would scan from each opening there
    (each ``<`` of a run) to the end of the text: that part is kept without being searched."""
    end = closed_end(text, closing)
    return pattern.sub("", text[:end]) + text[end:]


def _latex(formula: str) -> str | None:
    text = _LATEX_TEXT.sub(r"\1", formula)
    text = _LATEX_SYMBOL.sub(lambda m: _LATEX_SYMBOLS.get(m.group(1), m.group()), text)
    text = text.replace("''", "″").replace("'", "′").replace("^", "").replace("{", "").replace("}", "")
    return None if "\\" in text else text.strip()


def heading_parts(text: str) -> tuple[str | None, str]:
    """(number, title) of a heading: ``"3.2.1 Lancer les dés"`` -> ``("3.2.1", "Lancer les dés")``.

    A heading marked as a list entry (``- 1 à 3 : Classique``, ``· Le Général``) has no number,
    even when it starts with digits: those are a roll's results, not a section number.
    """
    clean = " ".join(_removed(_TAGS, text, ">").replace("**", "").split())
    bulleted = clean[:1] in "-–·•*" and clean[:1] != ""
    clean = _DECORATION.sub("", clean)
    match = None if bulleted else _NUMBER.match(clean)
    if match is None:
        return None, clean
    return match.group("number"), match.group("title").strip()


@dataclass
class _Open:
    """A section being filled."""

    id: str
    title: str
    level: int
    number: str | None
    parent_id: str | None
    offset: int
    content: list[Node] = field(default_factory=list)
    children: list[Section] = field(default_factory=list)
    is_toc: bool = False
    headed: bool = True


class _Builder:
    def __init__(self, source: SourceText, language: str) -> None:
        self.source = source
        self.language = language
        self.diagnostics: list[Diagnostic] = []
        self.stack: list[_Open] = []
        self.body: list[Section] = []
        self.sections: list[Section] = []
        self.links: list[Link] = []
        self.mechanics: list[Mechanic] = []
        self.values: list[Value] = []
        self.annotated: list[Annotated] = []
        self.block: Block | None = None
        """A declaration waiting for its list or table: (element, attributes, offset)."""
        self.taken: set[str] = set()
        self.suffixes: dict[str, int] = {}
        """The last number given to each id (``same-20000``): a title repeated is not counted up from 2 each time."""
        self.pending_header: tuple[int, int] | None = None
        self.end = len(source.text)
        """Where the text being read ends in the source: what :meth:`_locate` searches stops there."""
        self.numbered = True
        """Whether levels come from section numbers (else from the count of #)."""
        """Lines of a tab-indented header row (parsed as a code block) waiting for its table."""

    # -- structure -----------------------------------------------------------

    def read(self, tokens: list[Token]) -> None:
        index = 0
        while index < len(tokens):
            token = tokens[index]
            if token.type == "heading_open":
                self._heading(tokens[index + 1], token)
                index += 3
            elif token.type == "paragraph_open":
                self._paragraph(tokens[index + 1], token)
                index += 3
            elif token.type in ("bullet_list_open", "ordered_list_open"):
                index = self._list(tokens, index)
            elif token.type == "code_block":
                self._code_block(token)
                index += 1
            elif token.type == "table_open":
                index = self._pipe_table(tokens, index)
            elif token.type == "html_block":
                self._html_block(token)
                index += 1
            else:
                index += 1
        self._orphan()
        while self.stack:
            self._close()

    def _pipe_table(self, tokens: list[Token], index: int) -> int:
        """A GitHub pipe table: its header row (unless every cell is empty) and its rows; the index after it."""
        opening = tokens[index]
        self._check_depth(3, "a table", self._offset(opening))  # table, row, cell
        rows: list[Row] = []
        cells: list[Cell] = []
        line = opening.map[0] if opening.map else 0
        while tokens[index].type != "table_close":
            token = tokens[index]
            if token.type == "tr_open":
                cells, line = [], token.map[0] if token.map else line
            elif token.type == "tr_close":
                rows.append(Row(tuple(cells), self.source, self._line_offset(line)))
            elif token.type == "inline":
                content = [n for n in self._inline(token.content, line, line + 1) if n != ""]
                cells.append(Cell(False, tuple(content), self.source, self._line_offset(line)))
            index += 1
        columns = rows.pop(0) if rows else None
        if columns is not None and all(not cell.children for cell in columns.cells):
            columns = None
        elif columns is not None:
            columns = columns._replace(cells=tuple(cell._replace(header=True) for cell in columns.cells))
        table = Table(None, columns, tuple(rows), None, None, self.source, self._offset(opening))
        self._target().content.append(self._declared(table))  # a declaration right before it applies
        return index + 1

    def _heading(self, inline: Token, opening: Token) -> None:
        self._orphan()
        number, title = heading_parts(inline.content)
        offset = self._offset(opening)
        if not self.numbered:
            level = int(opening.tag[1])
            while self.stack and self.stack[-1].level >= level:
                self._close()
            number = None
        elif number is not None:
            level = number.count(".") + 1
            while self.stack and (self.stack[-1].number is None or self.stack[-1].level >= level):
                self._close()
        elif not self.stack or self.stack[0].is_toc:
            level = 1  # front matter, or a heading after the table of contents
            while self.stack:
                self._close()
        else:
            # An unnumbered heading is a sub-heading of the numbered section it follows.
            while self.stack[-1].number is None and len(self.stack) > 1:
                self._close()
            level = self.stack[-1].level + 1
        self._check_depth(1, "a section", offset)
        parent = self.stack[-1].id if self.stack else None
        section = _Open(self._new_id(number, title, parent), title, level, number, parent, offset)
        section.is_toc = number is None and title.lower() in TOC_TITLES
        self.stack.append(section)

    def _close(self) -> None:
        done = self.stack.pop()
        content: Content = () if done.is_toc else tuple(done.content) + tuple(done.children)
        section = Section(
            done.id,
            False,
            done.title,
            done.level,
            content,
            done.parent_id,
            done.number,
            self.source,
            done.offset,
            done.headed,
        )
        self.sections.append(section)
        if self.stack:
            self.stack[-1].children.append(section)
        else:
            self.body.append(section)

    def _check_depth(self, below: int, what: str, offset: int) -> None:
        """Refuse a node ``below`` levels under the innermost open section, if that is too deep."""
        if len(self.stack) + 1 + below > MAX_DEPTH:  # the document is the first level
            raise TooDeep(what, offset)

    def _new_id(self, number: str | None, title: str, parent: str | None) -> str:
        return unique_id(number_id(number) if number else slugify(title), self.taken, counters=self.suffixes)

    def _target(self) -> _Open:
        if not self.stack:
            self.stack.append(_Open(self._new_id(None, "front matter", None), "", 1, None, None, 0, headed=False))
        return self.stack[-1]

    # -- content -------------------------------------------------------------

    def _paragraph(self, inline: Token, opening: Token) -> None:
        lines = inline.content.split("\n")
        first_line = opening.map[0] if opening.map else 0
        target = self._target()
        if not any("\t" in line for line in lines):
            self._orphan()
        if any("\t" in line for line in lines):
            # From the source: markdown-it strips a leading tab, the empty corner cell of a header row.
            last_line = opening.map[1] if opening.map else first_line + len(lines)
            if self.pending_header is not None and self.pending_header[1] == first_line:
                first_line = self.pending_header[0]
            self.pending_header = None
            raw = [self.source.line_text(n + 1) for n in range(first_line, last_line)]
            self._check_depth(3, "a table", self._line_offset(first_line))  # table, row, cell
            target.content.append(self._declared(self._table(raw, first_line)))
        else:
            if target.content:  # paragraphs stay apart, as in the source (a caption from the text after it)
                target.content.append(LineBreak(self.source, self._offset(opening)))
            last_line = opening.map[1] if opening.map else first_line + len(lines)
            target.content.extend(self._inline(inline.content, first_line, last_line))
            target.content.append(" ")

    def _code_block(self, token: Token) -> None:
        """A tab-indented line is a code block to Markdown; here it is the header row of a table."""
        if token.map and "\t" in token.content.strip("\n"):
            self.pending_header = (token.map[0], token.map[1])
        elif token.content.strip():
            self._target().content.append(token.content.strip())

    def _table(self, lines: list[str], first_line: int) -> Table:
        rows = []
        for number, line in enumerate(lines):
            offset = self._line_offset(first_line + number)
            cells = tuple(
                Cell(False, (cell.strip(),) if cell.strip() else (), self.source, offset) for cell in line.split("\t")
            )
            rows.append(Row(cells, self.source, offset))
        columns = rows[0] if rows and not rows[0].cells[0].children else None
        body = rows[1:] if columns is not None else rows
        if columns is not None:  # under an empty corner, each row starts with its header ("Base", "Spécial")
            body = [row._replace(cells=(row.cells[0]._replace(header=True), *row.cells[1:])) for row in body]
        return Table(None, columns, tuple(body), None, None, self.source, self._line_offset(first_line))

    def _inline(self, text: str, first_line: int, last_line: int) -> list[Node]:
        """Text with ``??`` (a lost cross-reference) as a link with no target, and its mechanics annotations
        (a value's stays out of the content: its text is already the sentence's).

        Each is looked for in the source between ``first_line`` and ``last_line`` (excluded), the text's own, after
        the one before; one not found there (the text lost a ``**`` or a tag) ends the search for its kind, placing
        the rest at the text's first line: a search to the file's end for each was quadratic."""
        parts: list[Node] = []
        line_offset = self._line_offset(first_line)
        self.end = self._line_end(last_line)
        self._unclosed_comment(text, line_offset)
        annotations = self._mechanics(text, line_offset)
        cursor: int | None = line_offset  # each is looked for after the one before: not from the start each time
        for match in VALUE.finditer(text, 0, closed_end(text, "-->")):
            given = attributes(match.group("attributes"))
            found = None if cursor is None else self._locate(match.group(), cursor)
            offset, cursor = (line_offset, None) if found is None else (found, found + len(match.group()))
            value = Value(
                given.get("name", ""),
                given.get("number", ""),
                given.get("kind"),
                given.get("term"),
                self._target().id,
                self.source,
                offset,
            )
            self.values.append(value)
        position = 0
        shown = _removed(_TAGS, _removed(SHOWN_AS_NOTHING, text, "-->"), ">").replace("**", "")
        clean = self._converted(_EMPHASIS.sub(_emphasised, shown), line_offset)
        cursor = line_offset
        for match in _LOST_REFERENCE.finditer(clean):
            parts.append(clean[position : match.start()])
            found = None if cursor is None else self._locate(match.group(), cursor)
            offset, cursor = (line_offset, None) if found is None else (found, found + 2)
            link = Link("", "??", self._target().id, self.source, offset)
            self.links.append(link)
            parts.append(link)
            position = match.end()
        parts.append(clean[position:])
        return [p for p in parts if p != ""] + annotations

    def _unclosed_comment(self, text: str, line_offset: int) -> None:
        """The first ``<!--`` of a paragraph's text that no ``-->`` of the paragraph closes: CommonMark shows it as
        text, and so does this reader, with "All checks passed" (the dialect reported it). Reported where it stands:
        the source's ``<!--`` as many after ``line_offset`` as the text holds before it."""
        position, before = 0, 0
        while (opening := text.find("<!--", position)) >= 0:
            closing = text.find("-->", opening + 4)
            if closing < 0 and not text.endswith("\\", 0, opening):  # `\<!--` shows the characters, as meant
                at = line_offset
                for _ in range(before + 1):
                    at = self._find("<!--", at) + 1
                message, help = UNCLOSED_IN_PARAGRAPH
                self.diagnostics.append(
                    INVALID_DOCUMENT.diagnostic(
                        message, self.source.span(at - 1), help=help, section_id=self._target().id
                    )
                )
                return
            before += 1
            position = opening + 4 if closing < 0 else closing + 3

    def _mechanics(self, text: str, line_offset: int) -> list[Node]:
        """The mechanics annotations of some text, each found in the source after the one before."""
        found: list[Node] = []
        cursor: int | None = line_offset
        for match in mechanics(text):
            given = attributes(match.group("attributes"))
            name = given.pop("name", "")
            located = None if cursor is None else self._locate(match.group(), cursor)
            offset, cursor = (line_offset, None) if located is None else (located, located + len(match.group()))
            mechanic = Mechanic(name, tuple(sorted(given.items())), self._target().id, None, self.source, offset)
            self.mechanics.append(mechanic)
            found.append(mechanic)
        return found

    def _html_block(self, token: Token) -> None:
        """A comment on lines of its own: a declaration of the list or table after it, or a mechanic."""
        self._orphan()
        offset = self._offset(token)
        if token.content.lstrip().startswith("<!--") and "-->" not in token.content:  # all after it left out
            self.diagnostics.append(
                INVALID_DOCUMENT.diagnostic(
                    "`<!--` opens a comment that no `-->` closes: all that follows it is hidden",
                    self.source.span(offset),
                    help="close the comment with `-->`",
                    section_id=self._target().id,
                )
            )
        self.block = block(token.content, offset)
        if self.block is None:
            self.end = self._line_end(token.map[1]) if token.map else len(self.source.text)
            self._target().content.extend(self._mechanics(token.content, offset))

    def _declared(self, node: Table | ItemList) -> Table | ItemList:
        """The list or table with the declaration that stands right before it, if one does."""
        declared, self.block = self.block, None
        if declared is None:
            return node
        wrong = mismatch(declared, node)
        if wrong is not None:
            self._refuse(declared.offset, *wrong)
            return node
        node = apply(declared, node)
        if any(node_attribute is not None for node_attribute in (node.roll, node.kind, node.id)):
            self.annotated.append(Annotated(node, self._target().id, self._target().id))
        return node

    def _orphan(self) -> None:
        """A declaration with no list or table right after it: reported where it stands."""
        declared, self.block = self.block, None
        if declared is not None:
            self._refuse(declared.offset, *orphan(declared))

    def _refuse(self, offset: int, message: str, help: str) -> None:
        self.diagnostics.append(
            INVALID_ANNOTATION.diagnostic(message, self.source.span(offset), help=help, section_id=self._target().id)
        )

    def _converted(self, text: str, line_offset: int) -> str:
        """The text with the debris it holds converted, each conversion noted where it stands."""
        converted, found = convert_debris(text)
        cursors: dict[str, int | None] = {}  # by kind (LaTeX, escape): each found in order, until one is not
        for debris in found:
            cursor = cursors.get(debris[0], line_offset)
            at = None if cursor is None else self._locate(debris, cursor)
            cursors[debris[0]] = None if at is None else at + len(debris)
            span = self.source.span(line_offset if at is None else at)
            message = f"`{debris}` left by the PDF conversion, read as `{convert_debris(debris)[0]}`"
            self.diagnostics.append(CONVERTED_TEXT.diagnostic(message, span, help="write the text in the source"))
        return converted

    def _list(self, tokens: list[Token], index: int) -> int:
        found, index = self._read_list(tokens, index)
        self._target().content.append(self._declared(found))
        return index

    def _read_list(self, tokens: list[Token], index: int, depth: int = 0) -> tuple[ItemList, int]:
        """A list from its opening token, nested lists inside their items; and the index after its end.

        ``depth``: how many levels the list stands below the innermost open section (lists in lists)."""
        opening = tokens[index]
        closing = opening.type.replace("_open", "_close")
        items: list[Item] = []
        content: list[Node] = []
        line = 0
        index += 1
        while index < len(tokens) and tokens[index].type != closing:
            token = tokens[index]
            if token.type == "list_item_open":
                content, line = [], token.map[0] if token.map else 0
            elif token.type == "list_item_close":
                items.append(Item(None, tuple(content), self.source, self._line_offset(line)))
            elif token.type == "inline":
                first, last = token.map if token.map else (line, line + token.content.count("\n") + 1)
                content.extend(self._inline(token.content, first, last))
            elif token.type in ("bullet_list_open", "ordered_list_open"):
                nested, index = self._read_list(tokens, index, depth + 2)
                content.append(nested)
                continue
            index += 1
        self._check_depth(depth + 2, "a list", self._offset(opening))  # list, item
        ordered = opening.type == "ordered_list_open"
        if not ordered and items and all(_numbered(item) for item in items):
            # A numbered list the conversion turned into bullets, each holding its number: `- 1. Caractéristique`.
            items = [next(n for n in item.children if isinstance(n, ItemList)).items[0] for item in items]
            ordered = True
            message = "bullets that each hold a number, read as a numbered list"
            self.diagnostics.append(CONVERTED_TEXT.diagnostic(message, self.source.span(self._offset(opening))))
        return ItemList(ordered, tuple(items), None, self.source, self._offset(opening)), index + 1

    # -- places --------------------------------------------------------------

    def _offset(self, token: Token) -> int:
        return self._line_offset(token.map[0] if token.map else 0)

    def _line_offset(self, line: int) -> int:
        """Offset of the first non-blank character of a 0-based line."""
        return self.source.first_nonblank(min(line, len(self.source.line_starts) - 1) + 1)

    def _line_end(self, line: int) -> int:
        """Offset where a 0-based line starts, the text's end past the last."""
        starts = self.source.line_starts
        return starts[line] if line < len(starts) else len(self.source.text)

    def _find(self, needle: str, start: int) -> int:
        found = self._locate(needle, start)
        return found if found is not None else start

    def _locate(self, needle: str, start: int) -> int | None:
        """Where ``needle`` (text as markdown-it gives it) first stands in the source from ``start``, before the
        end of the text being read (:attr:`end`)."""
        if "\n" in needle:  # markdown-it ends every line with "\n"; the source may not
            pattern = f"(?:{LINE_END.pattern})".join(map(re.escape, needle.split("\n")))
            match = re.compile(pattern).search(self.source.text, start, self.end)
            return match.start() if match else None
        found = self.source.text.find(needle, start, self.end)
        return found if found != -1 else None

    def document(self) -> Document:
        return Document(
            self.source.path,
            self.language,
            tuple(self.body),
            tuple(sorted(self.sections, key=lambda s: s.offset)),
            (),
            (),
            tuple(self.links),
            (),
            tuple(self.values),
            (),
            tuple(self.mechanics),
            (),
            tuple(self.annotated),
        )


def _emphasised(match: re.Match[str]) -> str:
    """Emphasised words without their markers, apart from a next word the closing marker was glued to."""
    glued = match.end() < len(match.string) and match.string[match.end()].isalnum()
    return match.group(1) + (" " if glued else "")


def _numbered(item: Item) -> bool:
    """Whether a bulleted item holds only a numbered list of one item (``- 1. Caractéristique``)."""
    lists = [n for n in item.children if not (isinstance(n, str) and not n.strip())]
    return len(lists) == 1 and isinstance(lists[0], ItemList) and lists[0].ordered and len(lists[0].items) == 1
