"""What the Markdown dialect allows where: the DTD's role for the dialect, each finding at its line and column.

The XML format's DTD says which element may stand where; here the same rules are said of the dialect
(``invalid-document``, as the DTD's findings): an unknown directive or attribute, a directive where the
XML would not allow its element (a note in a note, a figure in a list), a heading inside a directive or a
list, a reference inside a heading, Markdown the format has no place for (emphasis, code, a quote, an
outside link), text before the first chapter. What is read is kept; only its markup is lost.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Callable, Iterator

from markdown_it.token import Token

from rulebook.catalog.reading import INVALID_DOCUMENT
from rulebook.diagnostics import SAME_SHOWN, Diagnostic
from rulebook.markdown_declarations import ATTRIBUTE
from rulebook.source import SourceText
from rulebook.suggest import Suggester

_MARKER = re.compile(r"<!--\s*rulebook\s*")
"""The marker that says a Markdown file is a rulebook, alone on its line (a mechanic's declaration goes on:
``<!-- rulebook: mechanic ...``)."""

_STRAY = re.compile(r"\S+")
_DECLARATION = re.compile(
    r"<!--\s*rulebook:[ \t]*(?P<word>(?:[A-Za-z]\w*)?)(?P<attributes>(?:(?!-->)[^<])*)", re.DOTALL
)
"""A comment that declares something (``<!-- rulebook: value name="x" -->``): its word and attributes."""
DECLARATIONS = ("mechanic", "value", "sequence", "list", "table")
"""What a ``<!-- rulebook: ... -->`` comment declares (plain Markdown's; the dialect reads a mechanic, and a sequence,
list or table on lines of its own before it)."""
DIRECTIVES = ("definition", "note", "figure")
"""The directives of the dialect (``::: name``)."""
_NOT_WITHIN = {
    "note": {"note", "figure", "cell"},
    "figure": {"note", "item", "figure", "cell"},
    "definition": {"figure"},
}
"""Where each directive may not stand (as the DTD says of its element)."""
_BLOCKS = {
    "blockquote_open": ("a quote", "write a note as `::: note Title` ... `:::`"),
    "fence": ("a code block", "write the text as a paragraph"),
    "code_block": ("an indented code block", "write the text without indenting it four spaces"),
    "hr": ("a horizontal rule here", "`---` ends a section or subsection, between blocks of its text"),
}


_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
"""A control character, as XML forbids them in text (a tab and the line ends are text)."""
CONTROL_SHOWN = 100
"""How many control characters a source's findings name one by one (a file of them is one mistake, not millions)."""


class Checks:
    """The findings of one source's reading, in the order found."""

    def __init__(self, source: SourceText) -> None:
        self.source = source
        self.found: list[Diagnostic] = []
        self._attribute_places: dict[int, dict[str, int]] = {}
        self._told: dict[str, int] = {}
        """How many times each message was reported (:data:`~rulebook.diagnostics.SAME_SHOWN`)."""
        self._unlisted: dict[str, tuple[int, str | None, str | None]] = {}
        """Where the first finding of each message past the bound stands, with its target and help."""

    def control_characters(self) -> None:
        """Each control character where it stands, as the XML reader refuses it: most editors do not show one, and a
        page could only picture it. A plain Markdown conversion keeps them (a PDF's page breaks are form feeds)."""
        places = [found.start() for found in itertools.islice(_CONTROL.finditer(self.source.text), CONTROL_SHOWN)]
        after = sum(1 for _ in _CONTROL.finditer(self.source.text, places[-1] + 1)) if places else 0
        for number, offset in enumerate(places, start=1):
            character = self.source.text[offset]
            last = number == CONTROL_SHOWN and after > 0
            more = f" (and {after:,} more after it, not listed)" if last else ""
            self.report(
                f"a control character (U+{ord(character):04X}) in the text{more}",
                offset,
                target=f"({after:,} more)" if last else None,  # the count a baseline keys: it never hides one more
                help="remove it: most editors do not show control characters, and a page can only picture one",
            )

    def report(self, message: str, offset: int, *, target: str | None = None, help: str | None = None) -> None:
        """A finding where ``offset`` stands; past :data:`~rulebook.diagnostics.SAME_SHOWN` of the same message,
        none, not even kept: the last listed says more follow (2 MB of ``](`` made a million findings, 2.2 GB)."""
        told = self._told.get(message, 0) + 1
        self._told[message] = told
        if told > SAME_SHOWN:
            self._unlisted.setdefault(message, (offset, target, help))
            return
        self.found.append(INVALID_DOCUMENT.diagnostic(message, self.source.span(offset), target=target, help=help))

    def finish(self) -> list[Diagnostic]:
        """The findings, with one for each message past the bound, where the first unlisted one stands, saying how
        many more there are: a count in its words, so that a baseline made of it never hides one more."""
        for message, (offset, target, help) in self._unlisted.items():
            more = self._told[message] - SAME_SHOWN
            said = f"{message} ({more:,} more like it from here in this file, not listed one by one)"
            # the count is its target too: a baseline keys findings by target, never by message, and one written
            # when there were 500 more hid 50,000 more
            counted = f"{target or ''} ({more:,} more)".strip()
            self.found.append(INVALID_DOCUMENT.diagnostic(said, self.source.span(offset), target=counted, help=help))
        return self.found

    def plain_text(self, text: str, place: Callable[[int], int], where: str) -> None:
        """What the XML holds as text alone (a title written as an attribute, a reference's words), checked for markup:
        the dialect would keep it as its characters, shown raw on the page; the first is reported where it starts
        (``place``: the source's offset of a position in ``text``)."""
        from rulebook.readers.markdown_syntax import markup_in

        found = markup_in(text)
        if found is not None:
            what, at = found
            self.report(f"{what} inside {where}", place(at), help=_PLAIN_HELP[where])

    def front_matter_title(self, token: Token) -> tuple[str | None, int | None]:
        """The title a front matter gives, and where its value is written; what is wrong in it reported where it is
        written (a key it does not hold at the key, a control character a YAML escape writes, ``"\\e"``, at the
        title)."""
        from rulebook.readers.front_matter import FrontMatterError, key_places, read_front_matter, repeated_key

        try:
            values = read_front_matter(token.content)
        except FrontMatterError:
            self.report("the front matter is not YAML", 0, help="write `title: The Book's Title`")
            return None, None
        if values is None:
            return None, None
        places = key_places(token.content)

        def offset(place: tuple[int, int]) -> int:  # a place in the YAML, which starts on the line after `---`
            return self.source.line_starts[1 + place[0]] + place[1]

        if not isinstance(values, dict) or not isinstance(values.get("title", ""), str):
            written = offset(places["title"][0]) if isinstance(values, dict) and "title" in places else 0
            self.report("the front matter's `title` must be text", written, help="write `title: The Book's Title`")
            return None, None

        repeated = repeated_key(token.content)
        if repeated is not None:
            self.report(
                f"`{repeated[0]}` is given again in the front matter: the last one is read",
                offset(repeated[1]),
                target=repeated[0],
                help="keep one",
            )
        unknown = sorted(str(key) for key in values if key != "title")
        if unknown:
            self.report(
                f"unknown key `{unknown[0]}` in the front matter",
                offset(places[unknown[0]][0]) if unknown[0] in places else 0,
                target=unknown[0],
                help="the front matter holds `title`",
            )
        title = values.get("title")
        control = _CONTROL.search(title) if isinstance(title, str) else None
        if control is not None and "title" in places:  # the text's own are reported where they stand
            self.report(
                f"a control character (U+{ord(control.group()):04X}) in the front matter's title",
                offset(places["title"][1]),
                help="remove it: a page can only picture it, and an XML book cannot hold it",
            )
        at = offset(places["title"][1]) if "title" in places else None
        return (" ".join(title.split()), at) if isinstance(title, str) and title.strip() else (None, None)

    def _repeated(self, start: int, what: str) -> None:
        """A key given twice in the attribute block of what starts at ``start`` (see :meth:`key_offset`)."""
        brace = attribute_block(self.source.text, start)
        repeated = None if brace is None else repeated_attribute(self.source.text, brace)
        if repeated is not None:
            key, at = repeated
            said = f"attribute `{key}` given twice on {what}: the last one is read"
            self.report(said, at, target=key, help="keep one")

    def heading_attributes(self, written: str, offset: int | None = None) -> tuple[str | None, bool]:
        """The id of a heading's ``{#id}``, and whether it says ``.unnumbered`` (Pandoc's: its title's leading
        digits are no number); other attributes are reported at their place (when ``offset`` says where the
        attribute text ``written`` starts)."""
        from mdit_py_plugins.attrs.parse import ParseError, parse

        try:
            _, attributes = parse("{" + written + "}")
        except ParseError:
            attributes = {}
            if offset is not None:
                self.report(
                    "a heading's attribute block that cannot be read",
                    self._last_brace(offset),
                    help="write `{#id}` or `{.unnumbered}` at the title's end; `\\{` writes a brace in the title",
                )
        found = attributes.pop("id", None)
        classes = attributes.pop("class", "").split()
        unnumbered = "unnumbered" in classes
        if offset is not None:
            start = self._last_brace(offset)
            unknown = sorted(attributes) + [f".{name}" for name in classes if name != "unnumbered"]
            keys = [(key, self.key_offset(start, key)) for key in unknown]
            self.attributes(keys, {"#id": "`{#id}`", ".unnumbered": "`{.unnumbered}`"}, "a heading")
            self._repeated(start, "a heading")
        return found, unnumbered

    def _line_end(self, offset: int) -> int:
        """Where the line holding ``offset`` ends, whatever ends it (``\\r`` alone too: a search for ``\\n`` found the
        end of the file, and a heading's attribute block was taken from the last line holding a brace)."""
        return self.source.line_around(offset)[1]

    def _last_brace(self, offset: int) -> int:
        """Where the attribute block of the heading whose line starts at ``offset`` opens."""
        return max(self.source.text.rfind("{", offset, self._line_end(offset)), offset)

    def brace_escaped(self, offset: int) -> bool:
        """Whether the heading whose line starts at ``offset`` ends with an escaped brace (``## Rolls \\{2D6\\}``):
        text, not attributes."""
        return self.source.text[offset : self._line_end(offset)].rstrip().endswith("\\}")

    def key_offset(self, start: int, key: str) -> int:
        """Where an attribute ``key`` (``colour``, ``.red``, ``#id``) is written in the attribute block of what starts
        at ``start`` (the block's ``{``, or the ``[`` of the span or reference it follows), else ``start``. The block
        is read once, as its parser reads it: a key is never found in a quoted value or in the span's text, and many
        keys cost one reading (each was searched for from the block to the line's end)."""
        if start not in self._attribute_places:
            brace = attribute_block(self.source.text, start)
            self._attribute_places[start] = {} if brace is None else attribute_places(self.source.text, brace)
        return self._attribute_places[start].get(key, start)

    def attributes(
        self, unknown: list[tuple[str, int]], known: dict[str, str], what: str, hint: Callable[[str], str] | None = None
    ) -> None:
        """Attributes ``what`` does not take (each as written, ``colour`` or ``.red``, with its place); ``known``:
        those it takes, as written and as the help spells them. The closest one known is suggested; ``hint`` adds
        to the help of a key what it may have been meant for."""
        suggester = Suggester(known)
        for key, at in sorted(unknown, key=lambda found: found[1]):
            close = suggester.suggest(key) or suggester.suggest(key.lstrip(".#"))
            help = f"did you mean {known[close[0]]}?" if close else f"{what} takes {', '.join(known.values())}"
            help += hint(key) if hint is not None else ""
            kind = "class" if key.startswith(".") else "attribute"
            self.report(f"unknown {kind} `{key}` on {what}", at, target=key, help=help)

    def heading_level(self, level: int, offset: int) -> int:
        if level <= 3:
            return level
        self.report(
            "a heading deeper than a subsection",
            offset,
            help="headings are chapters (`#`), sections (`##`) and subsections (`###`), one `#` fewer under a title",
        )
        return 3

    def outside_chapters(self, token: Token, offset: int) -> None:
        if token.type in ("html_block",) and token.content.lstrip().startswith("<!--"):
            self.unclosed_comment(token.content, offset)
            return  # a comment (the declaration `<!-- rulebook -->`)
        self.report("text before the first chapter", offset, help="start the book with a chapter's heading (`# Title`)")

    def unclosed_comment(self, content: str, offset: int) -> None:
        """A comment starting a line that no ``-->`` closes: markdown-it makes the rest of its block HTML, to the
        book's end at the top level (the sections after it were left out with "All checks passed"). The marker
        written unclosed (``<!-- rulebook``) is named: it hid the book to the next ``-->`` (a mechanic's), and only
        "text before the first chapter" was said, at the lines after that."""
        opening = content.lstrip()
        first_line = opening.split("\n", 1)[0]
        if _MARKER.fullmatch(first_line):
            self.report(
                "the marker `<!-- rulebook` is not closed on its line: all that follows it is hidden, "
                + ("to the next `-->`" if "-->" in opening else "to the end"),
                offset + len(content) - len(opening),
                help="write the marker `<!-- rulebook -->` on a line of its own",
            )
        elif opening.startswith("<!--") and "-->" not in content:
            self.report(
                "`<!--` opens a comment that no `-->` closes: all that follows it is hidden",
                offset + len(content) - len(content.lstrip()),
                help="close the comment with `-->`",
            )

    def nested_heading(self, token: Token, offset: int, within: str) -> None:
        self.report(
            f"a heading inside {_PLACES.get(within, 'a block')}",
            offset,
            help="close the directive or the list (`:::`, a blank line) before the heading",
        )

    def unsupported_block(self, token: Token, offset: int) -> None:
        what, help = _BLOCKS.get(token.type, (f"`{token.type}`", "`rulebook docs format` says what the format holds"))
        self.report(f"{what} is not part of the rulebook format", offset, help=help)

    def unsupported_inline(self, what: str, offset: int, help: str) -> None:
        self.report(f"{what} is not part of the rulebook format", offset, help=help)

    def block_attributes(
        self,
        attributes: dict[str, str],
        allowed: tuple[str, ...],
        offset: int,
        what: str,
        classes: tuple[str, ...] = (),
    ) -> None:
        """The attributes and classes of a block or span (written from ``offset``) that ``what`` does not take."""
        self._repeated(offset, what)
        unknown = sorted(set(attributes) - set(allowed) - {"class"})
        unknown += [f".{name}" for name in attributes.get("class", "").split() if name not in classes]
        keys = [(key, self.key_offset(offset, key)) for key in unknown]
        self.attributes(keys, {key: f"`{key}`" for key in allowed} | {f".{c}": f"`.{c}`" for c in classes}, what)

    def mechanic(self, written: str, keys: list[tuple[str, str, int]], offset: int, word: int) -> None:
        """A mechanics comment's attributes as the DTD says of ``<mechanic>``: ``keys`` are those read (name and
        place), ``written`` the comment's attribute text from ``offset``, ``word`` where it says ``mechanic``;
        text that is no ``key="value"`` (left out of the mechanic), an unknown or repeated key, a value the DTD does
        not allow, a missing name."""
        from rulebook.dtd import attribute_names, attribute_values

        allowed, values = attribute_names("mechanic"), attribute_values("mechanic")
        stray = _STRAY.search(ATTRIBUTE.sub(lambda match: " " * len(match.group()), written))
        if stray is not None:
            self.report(
                f"`{stray.group()}` is no attribute of the mechanic",
                offset + stray.start(),
                help='write each attribute as `key="value"` (double quotes), as the XML does',
            )
        seen: set[str] = set()
        for key, value, at in keys:
            if key in values and value not in values[key]:
                self.report(
                    f"`{value}` is not an allowed value of `{key}` on a mechanic",
                    at,
                    target=key,
                    help="write one of " + ", ".join(f"`{v}`" for v in values[key]),
                )
            if key not in allowed:
                suggestions = Suggester(allowed).suggest(key)
                help = f"did you mean `{suggestions[0]}`?" if suggestions else "`rulebook dtd` lists the attributes"
                self.report(f"unknown attribute `{key}` on a mechanic", at, target=key, help=help)
            elif key in seen:
                self.report(f"attribute `{key}` given twice on a mechanic", at, target=key, help="keep one")
            seen.add(key)
        if "name" not in seen:
            self.report(
                "a mechanic without `name`",
                word,
                target="mechanic",
                help='write `<!-- rulebook: mechanic name="NAME" ... -->` (the term the mechanic is)',
            )

    def plain_declarations(self, html: str, at: int) -> None:
        """The comments of ``html`` (from ``at``) that declare something as plain Markdown does and the dialect does
        not read (a ``mechanic`` is read; a ``sequence``, ``list`` or ``table`` on lines of its own before its
        block is too): each reported with the dialect's way to say it."""
        from rulebook.markdown_declarations import attributes

        for match in _DECLARATION.finditer(html, 0, html.rfind("-->") + 3):
            word = match.group("word")
            if word in ("mechanic", "ignore"):  # a mechanic is read; `ignore` is a suppression (docs/lint.md)
                continue
            offset = at + (match.start("word") if word else match.start())
            if word == "value":
                given = attributes(match.group("attributes"))
                extra = "".join(f" {key}={given[key]}" for key in ("kind", "term") if given.get(key))
                spelt = f"[{given.get('number', 'NUMBER')}]{{value={given.get('name', 'NAME')}{extra}}}"
                self.report(
                    "a value declared in a comment (plain Markdown's) is not read in the dialect",
                    offset,
                    target="value",
                    help=f"write the number as a value where the text states it: `{spelt}`",
                )
            elif word in ("sequence", "list", "table"):
                self.report(
                    f"a `{word}` declaration within a line is not read",
                    offset,
                    target=word,
                    help=f"write it on a line of its own right before the {'table' if word == 'table' else 'list'}, "
                    "or its attributes there: `{kind=... id=...}`",
                )
            else:
                close = Suggester(DECLARATIONS).suggest(word) if word else ()
                listed = ", ".join(f"`{name}`" for name in DECLARATIONS)
                self.report(
                    f"unknown declaration `{word}`" if word else "a declaration comment that declares nothing",
                    offset,
                    target=word or None,
                    help=f"did you mean `rulebook: {close[0]}`?" if close else f"the declarations are {listed}",
                )

    def block_in(self, kind: str, offset: int, within: str) -> None:
        """A list or a table in a figure, whose caption the XML allows text only."""
        if within == "figure":
            what = "a table" if kind == "table_open" else "a list"
            self.report(f"{what} inside a figure", offset, help="a figure holds images and a caption's text")

    def illustration(self, offset: int, within: str) -> None:
        """A paragraph of images where the XML allows no ``<illustration>`` (a note, a list's item)."""
        if within in ("note", "item"):
            self.report(
                f"images inside {_PLACES[within]}",
                offset,
                help="put them in the section's text, or in a figure (`::: figure ID`) the text links to",
            )

    def directive(self, opening: Token, offset: int, within: str) -> None:
        name = opening.info
        if name not in DIRECTIVES:
            suggestions = Suggester(DIRECTIVES).suggest(name)
            help = (
                f"did you mean `::: {suggestions[0]}`?"
                if suggestions
                else "the directives are " + ", ".join(DIRECTIVES)
            )
            self.report(f"unknown directive `{name}`", offset, target=name, help=help)
        elif within in _NOT_WITHIN.get(name, ()):
            self.report(f"a {name} is not allowed inside {_PLACES[within]}", offset, target=name)
        if name == "note" and not str(opening.meta.get("argument", "")).strip():
            # a definition or figure naming nothing is the lint's empty-name finding, as in XML: one finding
            self.report("`::: note` needs the note's title", offset, target=name, help="write `::: note TITLE`")
        if not opening.meta.get("closed", True):
            self.report(f"`::: {name}` is never closed", offset, target=name, help="end it with a line `:::`")


_PLAIN_HELP = {
    "a note's title": "a title is text, as the XML's `title=`: write it without markup, and refer to terms in the note",
    "a figure's title": "a title is text, as the XML's `title=`: write it without markup, and refer to terms in the "
    "caption",
    "a reference's words": "a reference's words are text, as the XML's `<reference>` holds: write them without markup",
}
"""What to do about markup where the XML holds text alone (:meth:`Checks.plain_text`)."""

_PLACES = {
    "note": "a note",
    "figure": "a figure",
    "item": "a list",
    "cell": "a table cell",
    "definition": "a definition",
    "section": "a section",
}


_SPACES = re.compile(r"[ \t]*")
_BRACKET = re.compile(r"\\.|[\[\]]", re.DOTALL)
_ATTRIBUTE_PART = re.compile(
    r'(?P<space>\s+)|(?P<quoted>"(?:\\.|[^"\\])*"?)|(?P<comment>%[^%]*%?)|(?P<equals>=)|(?P<end>\})'
    r'|(?P<word>[#.]?[^\s="%}]+)|(?P<other>.)',
    re.DOTALL,
)
"""A part of an attribute block (``{#id .class key=value key="a value" %comment%}``), as its parser reads it."""


def attribute_block(text: str, start: int) -> int | None:
    """Where the attribute block of what starts at ``start`` opens: the ``{`` there (after spaces), or the one right
    after the ``]`` closing the ``[`` there (a span's, a reference's ``[[name]]``); None if there is none."""
    at = _SPACES.match(text, start).end()  # type: ignore[union-attr]  # it matches the empty string
    if text.startswith("{", at):
        return at
    if not text.startswith("[", at):
        return None
    depth = 0
    for found in _BRACKET.finditer(text, at):
        depth += {"[": 1, "]": -1}.get(found.group(), 0)
        if depth == 0:
            return found.end() if text.startswith("{", found.end()) else None
    return None


def repeated_attribute(text: str, brace: int) -> tuple[str, int] | None:
    """The first key given again in the attribute block opening at ``brace`` (``{title=A title=B}``, ``{#a #b}``),
    and where it is given again: the attributes plugin reads the last, the first lost without a word. A class may be
    given with others (``.a .b``)."""
    seen: set[str] = set()
    for written, at in _keys(text, brace):
        key = "id" if written.startswith("#") else written
        if key in seen and not written.startswith("."):
            return key, at
        seen.add(key)
    return None


def attribute_places(text: str, brace: int) -> dict[str, int]:
    """Where each key of the attribute block opening at ``brace`` is first written, by the key as a finding names it
    (``colour``, ``.red``, ``#id``; an ``#id`` is the key ``id`` too); values, quoted or not, and comments are passed
    over."""
    places: dict[str, int] = {}
    for written, at in _keys(text, brace):
        places.setdefault(written, at)
        if written.startswith("#"):
            places.setdefault("id", at)
    return places


def _keys(text: str, brace: int) -> Iterator[tuple[str, int]]:
    """Each key of the attribute block opening at ``brace`` as written (``colour``, ``.red``, ``#id``) and where, read
    once as its parser reads it: values, quoted or not, and comments are passed over."""
    position, value_next = brace + 1, False
    while position < len(text):
        part = _ATTRIBUTE_PART.match(text, position)
        assert part is not None  # `other` takes any character
        kind = part.lastgroup
        if kind == "end":
            break
        if kind == "word" and not value_next:
            yield part.group(), part.start()
        value_next = kind == "equals"
        position = part.end()
