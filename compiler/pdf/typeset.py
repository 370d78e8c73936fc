"""An edition as Typst source: the model's content walked once, every text a string literal.

Pure: :func:`typeset` takes an :class:`~rulebook.pdf.edition.Edition` and returns the text of ``main.typ``,
which imports the template (``print.typ``) and calls its functions: ``book`` (cover, contents, running heads,
glossary and index), ``section``, ``t`` (a use of a term), ``dfn`` (defining words), ``anchor`` (where a
definition or figure is), ``see`` (a cross-reference), ``note``, ``rb-table``, ``roll-list``, ``steps``,
``items``, ``rb-figure`` and ``untranslated``. docs/print.md documents them for a project's own template.

Terms are set as the site sets them (:mod:`rulebook.site.html`): a use of a term links to its definition;
inside a definition, the first use of its own term on a chapter is its defining words (bold), later ones
text; a term the edition does not state is text. A link to a section reads "text (see 2.4, p. 12)".
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from datetime import UTC, datetime

from rulebook.model import (
    Content,
    Definition,
    Figure,
    Illustration,
    Important,
    ItemList,
    LineBreak,
    Link,
    Node,
    Note,
    Reference,
    Row,
    Section,
    Table,
    Value,
    plain_text,
)
from rulebook.model import walk as walk_content
from rulebook.pdf.edition import Chapter, Edition, figure_label, section_label, term_label, walk
from rulebook.pdf.escaping import folded, typography, typst_key, typst_string
from rulebook.site.html import BLOCKS  # the nodes that stand on their own, as the site sets them

MAX_NESTED = 8
"""How deep notes, lists and tables nest in print. Typst lays out nesting only so deep (its show rules, and a
table's columns, which narrow at each level): content nested deeper is set flat, its text and links kept, in
paragraphs (a note's title, a list's items, a table's cells) rather than boxes in boxes."""
MAX_NESTED_TABLES = 2
"""How deep tables nest in print (a table in a table's cell): a deeper one is set flat, its cells as paragraphs."""
PAPER = {"a4": "a4", "letter": "us-letter"}
"""Typst's name of each paper size of the configuration."""
WORDS = (
    "contents",
    "glossary",
    "index",
    "page_abbreviation",
    "see",
    "used",
    "result",
    "picture_missing",
    "untranslated_chapter",
    "untranslated_sections",
    "read_original",
    "original_term",
    "not_translated_mark",
)
"""The site's words (``strings.toml``) the template shows."""


def typeset(edition: Edition) -> str:
    """The Typst source of an edition (``main.typ``)."""
    return Typesetter(edition).document()


class Typesetter:
    """Walks an edition's chapters once, keeping what the site keeps per page (the terms already defined)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self.typography = typography(edition.language)
        self.labels: set[str] = set()
        """Labels placed: a label is placed once (a second definition of a term, a repeated id, gets none)."""
        self.targets = {section.id: section_label(section.id) for c in edition.chapters for section in walk(c.section)}
        self.figures = {
            node.id: figure_label(node.id) for c in edition.chapters for node in _figures(c.section.children)
        }
        self.defined: set[str] = set()
        """Terms whose defining words are already set in this chapter."""
        self.within: list[str] = []
        """The definitions being set, outermost first: a use of one of their terms is its own."""
        self.space = True
        """Whether the text set last ends in a space (or starts a paragraph): a space after it is dropped."""
        self.before = ""
        """The text set last in the paragraph being set ("" at its start): a link after "see" says no "see" again."""
        self.nested: list[type] = []
        """The notes, lists and tables being set, outermost first."""
        self.strong = False
        """Whether the text being set is already strong (important text in important text is not made stronger)."""

    # -- the document -----------------------------------------------------------------------------------

    def document(self) -> str:
        edition = self.edition
        lines = [
            "// Made by rulebook from the book's sources: change the sources or the template, not this file.",
            '#import "print.typ": *',
            "#show: book.with(",
            f"  title: {self.literal(edition.title)},",
            f"  edition: {self.literal(edition.edition)},",
            f"  copyright: {self.literal(edition.copyright)},",
            f"  description: {self.literal(edition.description)},",
            f"  language: {typst_key(edition.language)},",
            f"  paper: {typst_key(PAPER[edition.look.paper])},",
            f"  font: {_key_or(edition.look.font, 'auto')},",
            f"  colour: {f'rgb({typst_key(edition.look.colour)})' if edition.look.colour else 'auto'},",
            f"  words: ({self.words() or ':'}),",
            f"  date: {_date(edition.date)},",
            f"  front: {self.front()},",
            f"  glossary: ({self.glossary()}),",
            ")",
            "",
        ]
        for chapter in edition.chapters:
            lines.append(self.untranslated(chapter.section) if chapter.untranslated else self.chapter(chapter))
        return "\n".join(lines) + "\n"

    def words(self) -> str:
        words = self.edition.words
        return "".join(f"{key}: {self.literal(words[key])}, " for key in WORDS if key in words)

    def front(self) -> str:
        blocks = [block for content in self.edition.front for block in self.blocks(content)]
        return "[\n" + "\n\n".join(blocks) + "\n  ]" if blocks else "none"

    def glossary(self) -> str:
        entries = []
        for entry in self.edition.glossary:
            original = self.literal(entry.original) if entry.original else "none"
            linked = "true" if entry.linked else "false"
            entries.append(
                f"(term: {typst_key(entry.term)}, letter: {typst_key(entry.letter)}, name: {self.literal(entry.name)}, "
                f"text: {self.literal(entry.text)}, original: {original}, linked: {linked}),"
            )
        return "\n    ".join(["", *entries, ""]) if entries else ""

    def chapter(self, chapter: Chapter) -> str:
        self.defined = set()
        return "\n\n".join(self.section(chapter.section)) + "\n"

    def section(self, section: Section, depth: int = 1) -> list[str]:
        """A section's heading (at its depth: a PDF's headings never skip a level), text and sections."""
        number = self.edition.numbers.get(section.id)
        blocks = [self.heading(section, number, depth)]
        lead = "".join(self.term_anchor(term) for term in self.edition.stated_in.get(section.id, ()))
        pending: list[Node] = []
        for node in section.children:
            if isinstance(node, Section):
                blocks += self.led(lead, tuple(pending))
                pending, lead = [], ""
                blocks += self.section(node, depth + 1)
            else:
                pending.append(node)
        blocks += self.led(lead, tuple(pending))
        missing = self.edition.notices.get(section.id)
        if missing:
            titles = ", ".join(self.literal(title) for title in missing)
            blocks.append(f"#notice(({titles},))")
        return blocks

    def led(self, lead: str, content: Content) -> list[str]:
        """Content as blocks, ``lead`` (anchors) at the start of its first paragraph, or on its own before a block."""
        blocks = self.blocks(content)
        if lead and blocks and _starts_a_paragraph(content):
            return [lead + blocks[0], *blocks[1:]]
        return [lead, *blocks] if lead else blocks

    def heading(self, section: Section, number: str | None, depth: int) -> str:
        label = self.place(section_label(section.id))
        return f"#section({depth}, {_key_or(number, 'none')}, {self.literal(section.title)}, {label})"

    def untranslated(self, chapter: Section) -> str:
        """A chapter of the original the translation lacks: its title, the notice, its sections' titles."""
        titles = "".join(f"{self.literal(s.title)}, " for s in walk(chapter) if s is not chapter)
        label = self.place(section_label(chapter.id))
        return f"#untranslated({self.literal(chapter.title)}, ({titles}), {label})\n"

    # -- blocks -----------------------------------------------------------------------------------------

    def blocks(self, content: Content) -> list[str]:
        """Content as blocks: runs of inline content are paragraphs, tables, notes and lists stand alone."""
        blocks: list[str] = []
        paragraph: list[str] = []
        self.space, self.before = True, ""

        def close() -> None:
            text = _merged(paragraph)
            if text:
                blocks.append(text)
            paragraph.clear()
            self.space, self.before = True, ""

        for node in content:
            if _is_block(node):
                close()
                blocks += self.block(node)
                self.space, self.before = True, ""
            elif isinstance(node, LineBreak):
                close()
            else:
                paragraph.append(self.inline(node))
        close()
        return blocks

    def block(self, node: object) -> list[str]:
        if isinstance(node, Definition):
            anchor = self.anchor(node)
            self.within.append(node.name)
            try:
                return self.led(anchor, node.children)
            finally:
                self.within.pop()
        if isinstance(node, Note | Table | ItemList):
            if self._too_deep(node):
                return self.flat(node)
            self.nested.append(type(node))
            try:
                return [self.nested_block(node)]
            finally:
                self.nested.pop()
        if isinstance(node, Figure):
            return [self.figure(node)]
        if isinstance(node, Illustration):
            files = [self.edition.images[i.file] for i in node.images if i.file in self.edition.images]
            described = " ".join(image.alt for image in node.images if image.alt and image.file in self.edition.images)
            alt = f", alt: {self.literal(described)}" if described else ""  # a template of before `alt` still reads it
            return [f"#illustration(({''.join(f'{self.literal(f)}, ' for f in files)}){alt})"] if node.images else []
        return []

    def nested_block(self, node: Note | Table | ItemList) -> str:
        if isinstance(node, Note):
            title = self.literal(node.title) if node.title else "none"
            return f"#note({title})[\n{self.joined(node.children)}\n]"
        if isinstance(node, Table):
            return self.table(node)
        return self.item_list(node)

    def _too_deep(self, node: Note | Table | ItemList) -> bool:
        tables = sum(1 for kind in self.nested if kind is Table)
        return len(self.nested) >= MAX_NESTED or (isinstance(node, Table) and tables >= MAX_NESTED_TABLES)

    def flat(self, node: Note | Table | ItemList) -> list[str]:
        """A block nested too deep for print (:data:`MAX_NESTED`): its title and content as paragraphs."""
        titled: list[tuple[str | None, Content]]
        if isinstance(node, Note):
            titled = [(node.title, node.children)]
        elif isinstance(node, Table):
            rows = ((node.columns,) if node.columns else ()) + node.rows
            titled = [(node.title, ())] + [(None, cell.children) for row in rows for cell in row.cells]
        else:
            titled = [(item.title, item.children) for item in node.items]
        blocks = []
        for title, content in titled:
            if title:
                blocks.append(f"#strong({self.literal(title)})")
            blocks += self.blocks(content)
        return blocks

    def joined(self, content: Content) -> str:
        return "\n\n".join(self.blocks(content))

    def cell(self, content: Content) -> str:
        return f"[{self.joined(content)}]"

    def table(self, table: Table) -> str:
        rows = ((table.columns,) if table.columns else ()) + table.rows
        width = max((len(row.cells) for row in rows), default=0)
        if width == 0:  # `<table/>`, rows of no cell: nothing to set (Typst refused a table of no columns)
            return f"#strong({self.literal(table.title)})" if table.title else ""
        header = f"header: ({self.row(table.columns, width)}), " if table.columns else ""
        body = "".join(f"({self.row(row, width)}), " for row in table.rows)
        title = self.literal(table.title) if table.title else "none"
        die = self.literal(_die_name(table)) if table.roll else "none"
        return f"#rb-table(title: {title}, die: {die}, columns: {width}, {header}rows: ({body}))"

    def row(self, row: Row, width: int) -> str:
        cells = [f"({'true' if cell.header else 'false'}, {self.cell(cell.children)})" for cell in row.cells]
        cells += ["(false, [])"] * (width - len(cells))
        return "".join(f"{cell}, " for cell in cells)

    def item_list(self, node: ItemList) -> str:
        items = "".join(
            f"(title: {self.literal(item.title) if item.title else 'none'}, body: {self.cell(item.children)}), "
            for item in node.items
        )
        if node.roll:
            return f"#roll-list({self.literal(node.roll)}, ({items}))"
        return f"#{'steps' if node.ordered else 'items'}(({items}))"

    def figure(self, figure: Figure) -> str:
        label = self.place(figure_label(figure.id))
        inline = tuple(n for n in figure.caption if not isinstance(n, BLOCKS))
        self.space, self.before = True, ""
        caption = _merged(self.inline(n) for n in inline)
        files = [self.edition.images[i.file] for i in figure.images if i.file in self.edition.images]
        described = " ".join(filter(None, (figure.caption_title, plain_text(inline))))
        title = self.literal(figure.caption_title) if figure.caption_title else "none"
        return (
            f"#rb-figure({label}, ({''.join(f'{self.literal(f)}, ' for f in files)}), "
            f"alt: {self.literal(described)}, title: {title}, caption: [{caption}])"
        )

    # -- inline content ---------------------------------------------------------------------------------

    def inline(self, node: object) -> str:
        if isinstance(node, str):
            return self.text(node)
        if isinstance(node, Reference):
            return self.reference(node)
        if isinstance(node, Link):
            return self.link(node)
        if isinstance(node, Value):
            return self.text(node.text)
        if isinstance(node, Important):
            if self.strong:
                return _merged(self.inline(n) for n in node.children)
            self.strong = True
            try:
                inner = _merged(self.inline(n) for n in node.children)
            finally:
                self.strong = False
            return f"#strong[{inner}]" if inner else ""
        if isinstance(node, Definition):
            return self.inline_definition(node)
        return ""

    def reference(self, reference: Reference) -> str:
        if reference.definition == reference.name or reference.name in self.within:
            if reference.name in self.defined:
                return self.text(reference.text)
            self.defined.add(reference.name)
            shown = self.shown(reference.text)
            return f"#dfn({shown})" if shown else ""
        shown = self.shown(reference.text)
        if reference.name not in self.edition.linked or not shown:
            return self.literal_or_empty(shown)
        example = ", example: true" if reference.kind == "example" else ""
        return f"#t({typst_key(reference.name)}, {shown}{example})"

    def inline_definition(self, definition: Definition) -> str:
        anchor = self.anchor(definition)
        if len(definition.children) == 1 and isinstance(definition.children[0], str):
            self.defined.add(definition.name)
            shown = self.shown(definition.children[0])
            return anchor + (f"#dfn({shown})" if shown else "")
        self.within.append(definition.name)
        body = _merged(self.inline(n) for n in definition.children)
        self.within.pop()
        return anchor + body

    def anchor(self, definition: Definition) -> str:
        """Where the first definition of a term is: the named destination its uses link to."""
        return self.term_anchor(definition.name) if definition.name in self.edition.linked else ""

    def term_anchor(self, name: str) -> str:
        label = self.place(term_label(name))
        return f"#anchor({label})" if label != "none" else ""

    def link(self, link: Link) -> str:
        target = self.targets.get(link.to) or self.figures.get(link.to)
        see = self.edition.words.get("see", "see")
        said = _says(self.before, see) or folded(link.text).split(" ", 1)[0].casefold() == see.casefold()
        shown = self.shown(link.text)
        if target is None or not shown:
            return self.literal_or_empty(shown)
        number = self.edition.numbers.get(link.to)
        self.space = False  # "(see 2.4, p. 12)" ends in a parenthesis
        self.before = ")"
        # after "see" in the text ("see [Measuring](#measuring)"), the place only: "see Measuring (1.3, p. 3)"
        return f"#{'cited' if said else 'see'}({typst_key(target)}, {_key_or(number, 'none')}, {shown})"

    # -- text -------------------------------------------------------------------------------------------

    def shown(self, text: str) -> str | None:
        """A text as a string literal, after what was set before it (a space after a space is dropped)."""
        text = folded(text)
        if self.space:
            text = text.lstrip(" ")
        if not text:
            return None
        self.space = text.endswith(" ")
        self.before = text
        return self.literal(text)

    def text(self, text: str) -> str:
        return self.literal_or_empty(self.shown(text))

    @staticmethod
    def literal_or_empty(literal: str | None) -> str:
        return f"#{literal}" if literal else ""

    def literal(self, text: str) -> str:
        """Any text as a Typst string literal, in the edition's typography."""
        return typst_string(text, self.typography)

    def place(self, label: str) -> str:
        """A label to place (as Typst code), or ``none`` if it is placed already."""
        if label in self.labels:
            return "none"
        self.labels.add(label)
        return typst_key(label)


def _says(text: str, word: str) -> bool:
    """Whether ``text`` ends with ``word`` ("see", the language's), as a word: the cross-reference after it needs
    no "see" of its own."""
    found = re.search(r"(?:^|[\s(\[])(\w+\.?)\s*$", text)
    return found is not None and found[1].casefold() == word.casefold()


_DICE = re.compile(r"(?P<count>\d*)(?P<letter>[^\W\d_])(?P<sides>\d+)")


def _die_name(table: Table) -> str:
    """The die a roll table is rolled with, as the table's own header writes it ("W6" in a German book whose table is
    declared ``roll=D6``), else as its ``roll`` says."""
    roll = _DICE.fullmatch(table.roll or "")
    if table.columns and table.columns.cells and roll is not None:
        written = plain_text(table.columns.cells[0].children).strip()
        found = _DICE.fullmatch(written)
        if found is not None and (found["count"] or "1", found["sides"]) == (roll["count"] or "1", roll["sides"]):
            return written
    return table.roll or ""


def _date(seconds: int | None) -> str:
    """The document's date, from ``SOURCE_DATE_EPOCH`` (none: the PDF says no date, and stays the same)."""
    if seconds is None:
        return "none"
    day = datetime.fromtimestamp(seconds, UTC)
    parts = ("year", "month", "day", "hour", "minute", "second")
    return "datetime(" + ", ".join(f"{part}: {getattr(day, part)}" for part in parts) + ")"


def _merged(pieces: Iterable[str]) -> str:
    """Inline pieces as one: a piece ending in a string and the next starting with one make one string (a smaller
    source, fewer elements to lay out). Only a string ends a piece with ``"`` (calls end with ``)``)."""
    merged: list[str] = []
    for piece in pieces:
        if merged and piece.startswith('#"') and merged[-1].endswith('"'):
            merged[-1] = merged[-1][:-1] + piece[2:]
        elif piece:
            merged.append(piece)
    return "".join(merged)


def _key_or(text: str | None, default: str) -> str:
    return typst_key(text) if text else default


def _starts_a_paragraph(content: Content) -> bool:
    """Whether content's first block is a paragraph (its first node that is not white space is inline)."""
    for node in content:
        if isinstance(node, str) and not node.strip():
            continue
        return not (isinstance(node, LineBreak) or _is_block(node))
    return False


def _is_block(node: object) -> bool:
    """Whether a node stands on its own (a table, a note...; a definition holding any)."""
    return isinstance(node, BLOCKS) or (isinstance(node, Definition) and _has_blocks(node.children))


def _has_blocks(content: Content) -> bool:
    return any(isinstance(n, LineBreak) or _is_block(n) for n in content)


def _figures(content: Content) -> Iterable[Figure]:
    """Every figure in some content, sections and definitions included."""
    inside = walk_content(content, into=lambda node: isinstance(node, Section | Definition | Note))
    return (node for node in inside if isinstance(node, Figure))
