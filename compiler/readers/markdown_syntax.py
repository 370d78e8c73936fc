"""The Markdown dialect's parser: CommonMark with GitHub's tables, through markdown-it-py and its plugins.

Besides CommonMark it reads front matter (``---``), pipe tables, attribute blocks (``{roll=D6}`` on the line
before a block, ``[text]{dfn=name}`` after a bracketed span), and two rules of its own:

- ``[[name]]``, ``[[name|display text]]``: a reference to a term (wikilinks; an attribute block may follow:
  ``[[fighter]]{type=example}``). The name may carry a book's prefix (``core:fighter``), kept as written;
- directives, Pandoc's fenced divs: ``::: definition fighter`` ... ``:::``, which nest (a fence that names
  something opens, a bare fence closes the innermost open one).

Inline tokens carry no place in markdown-it; the rules whose tokens name something (wikilinks, spans,
links, images, inline HTML) are wrapped to record where their token starts in the inline text (``meta["at"]``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import cache, lru_cache
from types import SimpleNamespace
from typing import Any

from markdown_it import MarkdownIt, helpers
from markdown_it.common.utils import unescapeAll
from markdown_it.rules_block import StateBlock
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token
from mdit_py_plugins.attrs import attrs_block_plugin
from mdit_py_plugins.attrs.parse import ParseError
from mdit_py_plugins.attrs.parse import parse as parse_attributes
from mdit_py_plugins.front_matter import front_matter_plugin

from rulebook.model import MAX_DEPTH
from rulebook.names import BOOK_NAME, BOOK_SEPARATOR
from rulebook.readers.markdown_limits import TooLarge, limited
from rulebook.readers.markdown_stray import stray_markup

_OPENING = re.compile(r":{3,}[ \t]*(?P<name>[^\s:{][^\s{]*)[ \t]*(?P<argument>(?:.*[^ \t\n])?)[ \t]*$")
"""A directive's opening fence; its argument ends at its last character that is not a space or tab, found once (a
lazy argument tried the spaces after it from each of its characters: 80,000 spaces in a fence's title, 18 s)."""
_CLOSING = re.compile(r":{3,}[ \t]*$")
_WIKILINK_STOP = re.compile(r"\\.|\]\]|\[\[", re.DOTALL)
"""What ends a wikilink's search for its ``]]``: an escape is passed over, a ``[[`` ends it. A line end does not: a
paragraph's lines are one text, and an editor that wraps them breaks a reference anywhere (``[[nerve`` at a line's
end, ``test]]`` on the next was shown as written, brackets and all, and the lint said nothing)."""
_PLACED = (
    "wikilink",
    "span",
    "link",
    "image",
    "autolink",
    "html_inline",
    "newline",
    "escape",
    "backticks",
    "emphasis",
)
"""The inline rules whose tokens record where they start."""


@cache
def dialect_parser() -> MarkdownIt:
    """The dialect's parser (made once: markdown-it compiles its rules on first use)."""
    # Past ``maxNesting`` markdown-it reads no more blocks or spans, saying nothing: the reader refuses what is
    # nested deeper than ``MAX_DEPTH`` before that (:meth:`rulebook.readers.markdown._Builder.check_depth`).
    md = MarkdownIt("commonmark", {"html": True, "maxNesting": MAX_DEPTH}).enable("table")
    # Every address is read as one, so the reader reports it where it is written: markdown-it leaves a `file:`,
    # `javascript:` or `data:` address as text (`![](file:///C:/a.png)` was shown as its markup, with no finding).
    # None reaches a page: a link out of the book is refused and kept as its words, an image not in the images
    # folder refused and never published (:mod:`rulebook.readers.markdown_inline`).
    md.validateLink = _every_address  # type: ignore[method-assign]  # markdown-it documents this override
    # A reference or a span in a link's words is read, and reported there, not the link left as its markup.
    found = {name: getattr(helpers, name) for name in helpers.__all__} | {"parseLinkLabel": _link_label}
    md.helpers = SimpleNamespace(**found)  # type: ignore[assignment]  # read as md.helpers.NAME only
    md.use(front_matter_plugin)
    md.inline.ruler.after("link", "span", _span)  # the attributes plugin's spans, read by read_attributes
    md.inline.ruler.push("attr", _span_attributes)
    md.use(attrs_block_plugin)
    md.core.ruler.before("attr", "unattached_attributes", _unattached_attributes)
    md.inline.ruler.before("link", "wikilink", _wikilink)
    md.block.ruler.before("fence", "directive", _directive, {"alt": ["paragraph", "reference", "blockquote", "list"]})
    active = md.inline.ruler.get_active_rules()
    functions = dict(zip(active, md.inline.ruler.getRules(""), strict=True))
    for name in _PLACED:
        md.inline.ruler.at(name, _placed(functions[name], last=name == "emphasis"))
    return limited(md, nesting_read_whole=True)  # held to budgets of tokens and steps: rulebook.readers.markdown_limits


def _link_label(state: StateInline, start: int, disable_nested: bool = False) -> int:
    """Where the label ``[...]`` opened at ``start`` ends (-1: nowhere), as markdown-it finds it, but for a link's
    words holding a reference or a span: markdown-it takes any token starting with `[` in a link's words for a link
    inside the link, and reads no link (`[the [[fighter]] rules](#x)` was shown as its markup, with no finding).
    Such a link is read when its words close and its address or a label follows, and the reader reports what its
    words hold (:mod:`rulebook.readers.markdown_inline`), a link inside too."""
    end = helpers.parseLinkLabel(state, start, disable_nested)
    if end >= 0 or not disable_nested:
        return end
    nested = helpers.parseLinkLabel(state, start, False)
    if nested < 0:
        return -1
    follows = state.src[nested + 1 : nested + 2]
    # an address, or a label of a link reference definition (`[the [[fighter]] rules][rules]`: shown as
    # `[the fighter rules]` and a link `rules`, with no finding)
    return nested if follows == "(" or (follows == "[" and state.env.get("references")) else -1


def _every_address(url: str) -> bool:
    """markdown-it's check of a link's or an image's address, taking each (:func:`dialect_parser`)."""
    return True


UNATTACHED = "attrs_unattached"
"""The token of an attribute block no block follows (the end of the document, of a directive or of a list item):
the attributes plugin drops it, and the reader reports it."""


def _unattached_attributes(state: StateCore) -> None:
    """Mark each attribute block with no block after it to take its attributes, before the attributes plugin gives
    them away (it drops such a block: ``{title=Y}`` at a document's end was read as nothing, saying nothing)."""
    tokens = state.tokens
    for index, token in enumerate(tokens):
        if token.type == "attrs_block" and (index + 1 == len(tokens) or tokens[index + 1].nesting < 0):
            token.type = UNATTACHED


def parse_dialect_text(text: str) -> list[Token]:
    """The dialect's tokens of a text; a ``|`` inside ``[[...]]`` on a table's row is the reference's, not a cell's
    end (GitHub's tables split there, so a writer would have to write ``\\|``): it is escaped for the table before
    markdown-it reads it, on the rows of tables only (in a paragraph ``\\|`` would be text), which a first reading
    tells. Lines keep their places, and a cell's text its columns (:func:`table_cells`)."""
    parser = dialect_parser()
    parts = _LINE_END.split(text)  # lines and their ends, as markdown-it counts lines
    lines, ends = parts[0::2], [*parts[1::2], ""]
    protected = [_pipes_protected(line) for line in lines]
    if protected == lines:
        return parser.parse(text)
    tokens = parser.parse("".join(map(str.__add__, protected, ends)))
    rows = {row for token in tokens if token.type == "table_open" and token.map for row in range(*token.map)}
    kept = [line if number in rows else lines[number] for number, line in enumerate(protected)]
    return tokens if kept == protected else parser.parse("".join(map(str.__add__, kept, ends)))


_LINE_END = re.compile(r"(\r\n?|\n)")


_TRIMMED = " \t\n\r\f\v"
"""What markdown-it trims off a cell's text (CommonMark's white space)."""
_WIKILINK_ON_LINE = re.compile(r"\[\[(?:\\.|[^\\\[\]\n]|\[(?!\[)|\](?!\]))*\]\]")
"""``[[...]]`` on a line, as :func:`_wikilink` reads it (``\\]`` escaped, no ``[[`` inside: :func:`_closing_brackets`).
Each try stops at the next ``[[``, so a line is read once: the pattern took any ``[`` inside, and tried from each
``[[`` to the line's end (a line of 20,000 ``[[a`` and a ``|``: 43 s)."""


def _pipes_protected(line: str) -> str:
    """A line with each ``|`` inside ``[[...]]`` that is not escaped written ``\\|``, when the line has a ``|``
    outside them (it may be a table's row)."""
    if "|" not in line or "[[" not in line:
        return line
    if "|" not in _WIKILINK_ON_LINE.sub("", line):
        return line
    return _WIKILINK_ON_LINE.sub(lambda found: re.sub(r"(?<!\\)\|", r"\\|", found.group()), line)


def table_cells(line: str) -> list[tuple[str, list[int]]]:
    """A table row's cells as markdown-it reads them once :func:`parse_dialect_text` has protected the pipes of its
    references: each cell's text (trimmed, a ``\\|``'s backslash dropped) and the column in ``line`` of each of its
    characters; the row's enclosing pipes make no cell."""
    inside = {c for found in _WIKILINK_ON_LINE.finditer(line) for c in range(found.start(), found.end())}
    protected = _pipes_protected(line) != line
    cells: list[tuple[str, list[int]]] = []
    characters, columns = list[str](), list[int]()  # the cell's, each appended (copied, they made a cell quadratic)
    first, last = len(line) - len(line.lstrip(_TRIMMED)), len(line.rstrip(_TRIMMED))
    for column, character in enumerate(line[first:last], first):
        if character == "|" and characters and characters[-1] == "\\" and columns[-1] == column - 1:
            characters[-1], columns[-1] = "|", column  # `\|`: a pipe, in the cell's text
        elif character == "|" and not (protected and column in inside):
            cells.append(("".join(characters), columns))
            characters, columns = [], []
        else:
            characters.append(character)
            columns.append(column)
    cells.append(("".join(characters), columns))
    if cells and not cells[0][0]:
        cells.pop(0)
    if cells and not cells[-1][0]:
        cells.pop()
    return [_trimmed(text, columns) for text, columns in cells]


def _trimmed(text: str, columns: list[int]) -> tuple[str, list[int]]:
    start = len(text) - len(text.lstrip(_TRIMMED))
    end = len(text.rstrip(_TRIMMED))
    return text[start:end], columns[start:end]


def _placed(rule: Callable[[StateInline, bool], bool], *, last: bool) -> Callable[[StateInline, bool], bool]:
    """The rule, its token marked with where it starts: its first token that is not text (the text before it
    is flushed into a token of its own as it pushes), or (``last``) each character of the delimiter run emphasis
    pushes as a text token of its own and later turns into ``em_open`` or ``strong_open`` (the same token: the mark
    stays), marked where the run starts: only the run's last was marked, and the emphasis of ``***both***`` (its
    first) was reported at the paragraph's start."""

    def placed(state: StateInline, silent: bool) -> bool:
        start, count = state.pos, len(state.tokens)
        found = rule(state, silent)
        if found and not silent and len(state.tokens) > count:
            if last:
                for delimiter in state.tokens[count:][-(state.pos - start) :]:  # after the text before it, flushed
                    delimiter.meta.setdefault("at", start)
            else:
                token = next((t for t in state.tokens[count:] if t.type != "text"), None)
                if token is not None:
                    token.meta.setdefault("at", start)
                    token.meta.setdefault("end", state.pos)  # where what the rule read ends (a link's address)
                    if token.type in ("link_open", "image"):  # where its words end: its address and title follow
                        image = token.type == "image"
                        token.meta["words_end"] = state.md.helpers.parseLinkLabel(state, start + image, not image)
        return found

    return placed


def _wikilink(state: StateInline, silent: bool) -> bool:
    """``[[name]]`` or ``[[name|display]]``, with ``\\|`` and ``\\]`` for those characters in either part."""
    src, start = state.src, state.pos
    if not src.startswith("[[", start) or src.startswith("[[[", start):
        return False
    end = _closing_brackets(src, start + 2, state.posMax)
    if end is None:
        return False
    inside = src[start + 2 : end]
    name, bar, display = _split_bar(inside)
    after = end + 2
    attributes: dict[str, str] = {}
    if src.startswith("{", after):
        try:
            length, attributes = read_attributes(src, after, state.posMax)
        except ParseError:
            attributes = {}
        else:
            after += length + 1
    if not silent:
        token = state.push("wikilink", "", 0)
        # Without display text a reader sees the name, never the book's prefix (``[[core:Fighter]]`` shows "Fighter").
        prefix, separator, local = name.partition(BOOK_SEPARATOR)
        shown = display if bar else local if separator and BOOK_NAME.fullmatch(prefix.lower()) else name
        # the name without the spaces around it: `[[fighter | fighters]]` named `fighter ` (RB302, not an identifier)
        # A reference's words are text alone, as the XML's <reference> holds: a hard break in them (a backslash at
        # a line's end) is a line end, as one without it (`[[fighter\` then `]]` named and showed `fighter\`).
        name, shown = _HARD_BREAK.sub("", name), _HARD_BREAK.sub("", shown)
        token.meta = {"name": unescaped(name).strip(), "display": text_read(shown), "named": bool(bar)}
        if bar:  # the display as written, and where it starts in the token's content (after ``[[name|``)
            token.meta["written"], token.meta["display_at"] = display, end - start - len(display)
        token.attrs = dict(attributes)
        token.content = src[start:after]
    state.pos = after
    return True


_HARD_BREAK = re.compile(r"\\(?=\r\n|\r|\n)")
"""The backslash of a hard break (before a line's end)."""

_MAY_BE_MARKUP = re.compile(r"[\[\]*_`<{]")
_MARKUP = {
    "wikilink": "a reference",
    "span_open": "a span",
    "link_open": "a link",
    "image": "an image",
    "strong_open": "emphasis",
    "em_open": "emphasis",
    "code_inline": "code",
    "html_inline": "HTML",
}


def markup_name(token_type: str) -> str:
    """What a token of markup is, as a finding names it (``emphasis``, ``a span``, ``an image``)."""
    return _MARKUP.get(token_type, "markup")


def markup_in(text: str) -> tuple[str, int] | None:
    """The first markup the dialect reads in ``text`` (what it is, where it starts in ``text``), or None: for what
    the XML holds as text alone (a title written as an attribute, a reference's words), where markup would be kept
    as its characters."""
    if _MAY_BE_MARKUP.search(text) is None:  # nothing else starts markup within a line
        return None
    try:
        tokens = dialect_parser().parseInline(text)
    except TooLarge:
        return "markup", 0
    children = (tokens[0].children or []) if tokens else []
    for token in children:
        if token.type not in ("text", "softbreak"):
            return markup_name(token.type), int(token.meta.get("at", 0))
    for at, message, _ in stray_markup(text, children):  # `::: note Scatter {#scatter}`: shown with its braces
        if message.startswith("an attribute"):
            return "an attribute block", at
        if message.startswith("`<!--`"):
            return "a comment's opening", at
        return "a link's brackets" if message.startswith(("`](`", "`][`")) else "a reference's brackets", at
    return None


def _span(state: StateInline, silent: bool) -> bool:
    """A span, ``[text]{dfn=name}``: the attributes plugin's, its attribute block read by :func:`read_attributes`.
    Every attribute is kept on the token (the plugin moves ``on*`` into ``meta``): the reader reports each one the
    dialect does not take where it is written (:func:`attributes_of`)."""
    src, start, maximum = state.src, state.pos, state.posMax
    if src[start] != "[":
        return False
    label_end = state.md.helpers.parseLinkLabel(state, start, False)
    if label_end < 0 or label_end + 1 >= maximum:
        return False
    try:
        length, attributes = read_attributes(src, label_end + 1, len(src))
    except ParseError:
        return False
    if not silent:
        state.pos, state.posMax = start + 1, label_end
        opening = state.push("span_open", "span", 1)
        opening.attrs = dict(attributes)
        state.md.inline.tokenize(state)
        state.push("span_close", "span", -1).meta["opening"] = opening
    state.pos, state.posMax = label_end + 1 + length + 1, maximum
    return True


def _span_attributes(state: StateInline, silent: bool) -> bool:
    """A further attribute block right after a span, ``[text]{.title}{dfn=name}``: merged into the span's."""
    if state.pending or not state.tokens or state.tokens[-1].type != "span_close":
        return False
    try:
        length, attributes = read_attributes(state.src, state.pos, len(state.src))
    except ParseError:
        return False
    state.pos += length + 1
    if not silent:
        opening: Token = state.tokens[-1].meta["opening"]
        if "class" in attributes and "class" in opening.attrs:
            attributes["class"] = f"{opening.attrs['class']} {attributes['class']}"
        opening.attrs.update(attributes)
    return True


def read_attributes(src: str, start: int, end: int) -> tuple[int, dict[str, str]]:
    """What the attributes plugin's parser gives of ``src[start:end]`` (the length of the block, less one, and its
    attributes), reading only as far as the block goes: a piece four times longer each time the block goes on past
    it. The plugin's spans, and the wikilinks, gave it the rest of the paragraph for each block, which it copied
    and searched for a ``%`` (100,000 ``[[a]]{type=example}`` in one paragraph: 7.7 s). A comment (``%...%``) with no
    ``%`` after it ends at the block's ``}`` when the rest holds no ``%``: a piece is given a ``%`` at its end when
    the rest holds one, so the block ends where it ends in the whole."""
    later_percent = _last_percent(src, end)
    length = 64
    while True:
        stop = min(end, start + length)
        piece = src[start:stop]
        try:
            return parse_attributes(piece + ("%" if later_percent >= stop else ""))
        except ParseError as error:
            if stop >= end or error.pos < len(piece):
                raise
        length *= 4


@lru_cache(maxsize=4)
def _last_percent(src: str, end: int) -> int:
    """Where the last ``%`` before ``end`` is (-1: none); once per paragraph (a string keeps its hash)."""
    return src.rfind("%", 0, end)


def _closing_brackets(src: str, position: int, limit: int) -> int | None:
    """Where the ``]]`` that closes a wikilink starts (no ``[[`` before it; ``\\]`` escaped)."""
    for found in _WIKILINK_STOP.finditer(src, position, limit):
        mark = found.group()
        if mark == "]]":
            return found.start()
        if mark != "\\" and mark[0] != "\\":
            return None
    return None


def _split_bar(text: str) -> tuple[str, bool, str]:
    position = 0
    while position < len(text):
        if text[position] == "\\":
            position += 2
        elif text[position] == "|":
            return text[:position], True, text[position + 1 :]
        else:
            position += 1
    return text, False, ""


def unescaped(text: str) -> str:
    """``text`` with its backslash escapes read (``\\|``: a bar), as CommonMark reads them in text."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", text)


def text_read(text: str) -> str:
    """Text the dialect holds as text (a directive's title, a reference's words) as a reader sees it: its backslash
    escapes and character references read (``Q\\&amp;A``: ``Q&amp;A``; ``&amp;``: ``&``), as CommonMark reads
    them in a paragraph."""
    return unescapeAll(text)


def _directive(state: StateBlock, start_line: int, end_line: int, silent: bool) -> bool:
    """A fenced directive: its opening line names it; the content is read as blocks up to its closing fence."""
    if state.sCount[start_line] - state.blkIndent >= 4:
        return False
    opening = _OPENING.fullmatch(_line(state, start_line))
    if opening is None:
        return False
    if silent:
        return True
    line, closed = _directive_end(state, start_line, end_line)
    content_end = line if closed else line + 1
    old_parent, old_max = state.parentType, state.lineMax
    state.parentType = "directive"
    state.lineMax = content_end
    token = state.push("directive_open", "div", 1)
    token.info = opening.group("name")
    token.meta = {"argument": opening.group("argument"), "argument_at": opening.start("argument"), "closed": closed}
    token.map = [start_line, line + 1]
    state.md.block.tokenize(state, start_line + 1, content_end)
    state.push("directive_close", "div", -1)
    state.parentType, state.lineMax = old_parent, old_max
    state.line = line + 1
    return True


def _directive_end(state: StateBlock, start_line: int, end_line: int) -> tuple[int, bool]:
    """The line where the directive opening at ``start_line`` ends (its closing fence, or its last line), and whether
    a fence closes it. One scan finds the ends of the directives nested in it too, kept for when each is read: each
    read its own content again to its end, so 99 directives nested around 100,000 lines read them 99 times (300 KB,
    9 s)."""
    ends: dict[tuple[int, int], tuple[int, bool]] = state.env.setdefault("directive_ends", {})
    if (found := ends.get((start_line, state.blkIndent))) is not None:
        return found
    line, opened = start_line, [start_line]
    while line + 1 < end_line:
        line += 1
        if state.sCount[line] < state.blkIndent and not state.isEmpty(line):
            line -= 1
            break
        text = _line(state, line) if state.sCount[line] - state.blkIndent < 4 else ""
        if _CLOSING.fullmatch(text):
            ends[opened.pop(), state.blkIndent] = (line, True)
            if not opened:
                return line, True
        elif _OPENING.fullmatch(text):
            opened.append(line)
    for opening in opened:  # the ones nested here end where this one does, unclosed
        ends[opening, state.blkIndent] = (line, False)
    return line, False


def _line(state: StateBlock, line: int) -> str:
    return state.src[state.bMarks[line] + state.tShift[line] : state.eMarks[line]]


_DIALECT_MARKUP = re.compile(
    r"^[ \t]*\{[^{}\n]*\}[ \t]*$"  # an attribute line: {title="Profil" kind=profile .row-headers}
    r"|^[ \t]*:::.*$"  # a fence: ::: definition crew, ::: note Rerolls, :::
    r"|(?<=[\]\)])\{[^{}\n]*\}"  # a span's attributes: [...]{dfn=aim}, [[x]]{type=example}
    r"|[ \t]\{[#.][^{}\n]*\}(?=[ \t]*(?:\||$))"  # a heading's, a cell's: ## 1.3 Measuring {#id}, | Front {.header} |
    r"|\[\[[^\[\]|\n]*\|"  # a wikilink's term before its words: [[cover| (or [[line_of_sight\|)
    r"|\[\[|\]\]"  # the brackets of a wikilink
    r"|(?<=\])\([^()\s]*\)"  # a link's target: [Messen](#measuring)
    r"|<!--[^\n]{0,2000}?-->|<[^<>\n]*>",  # a comment, a tag (<br>)
    # Each part stops at the next place another could start (a `[`, a `<`) or after a bounded stretch: a line of
    # 100,000 `<` or `[[` is read once, not once from each of them.
    re.MULTILINE,
)


def blank_dialect(text: str) -> str:
    """A text in the rulebook's dialect with its markup blanked (the same length, so places stay): what is left is
    the words a reader reads, where a check of words finds no word split at ``.row-headers`` nor in ``[[cover|``."""
    return _DIALECT_MARKUP.sub(lambda match: " " * len(match.group()), text)


def attributes_of(token: Any) -> dict[str, str]:
    """A token's attributes as strings (markdown-it keeps a class list under ``class``), a quoted value's backslash
    escapes and character references read (``title="A \\"quoted\\" word"``, ``title="Roll &amp; Move"``), as in
    the text. Those the attributes plugin removes as unsafe (``onclick=...``) are kept too: none is the dialect's, and
    each is reported where it is written."""
    removed = (token.meta or {}).get("insecure_attrs", {}) if isinstance(token.meta, dict) else {}
    return {str(key): text_read(str(value)) for key, value in {**removed, **(token.attrs or {})}.items()}
