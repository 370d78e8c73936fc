"""A unit's text as sentences, each with its place in the source: what sentence alignment pairs.

Paragraphs, list items, notes and figure captions are split into sentences (abbreviations such as
"e.g." and "max." do not end one). Table rows are sentences only where they hold prose (a cell of
six words or more): the rows of a table the other side also has are compared row by row instead
(:mod:`rulebook.translate.tables`), and a row of labels ("1-2 | Hold the Ground") is no sentence.
A step number the PDF kept as text ("- 1 Phase de Mouvement") is not part of its item's sentence.
Titles are never sentences: a sub-heading's title is not its parent's text.

Each sentence is found back in its source by its words (tags, entities and Markdown markup between
them skipped), so it has a file, line and column, and so does every word in it.
"""

from __future__ import annotations

import functools
import itertools
import re
from bisect import bisect_left, bisect_right
from collections.abc import Collection
from dataclasses import dataclass, field

from rulebook.closed_spans import COMMENT, searched_end
from rulebook.languages.data import Language, as_language
from rulebook.languages.phrases import CAPITALS, alternatives
from rulebook.model import (
    Content,
    Definition,
    Figure,
    Important,
    Item,
    ItemList,
    LineBreak,
    Link,
    Note,
    Reference,
    Row,
    Section,
    Table,
    Value,
    plain_text,
)
from rulebook.source import SourceText, Span

PROSE_WORDS = 6
"""A table cell with this many words is prose: its row is read as a sentence."""
_STEP = re.compile(r"^\s*(\d+)[.)]?\s+(?=\S)")
_WORD = re.compile(r"\w+")
_KEY_LETTERS = 4
"""How many of a sentence's first letters, across word breaks, pick the word starts it may begin at
(:meth:`Locator._word_starts`); the rest are compared there."""
_MOST_PLACES_TRIED = 256
"""How many word starts picked by a sentence's first letters are compared with the whole of its first words before it
is told not found: from each of 15,000 word starts of `la la la`, letters past what twelve words hold were compared,
a step each (10 ms a sentence, 11.9 s for 86 KB; the forty-fourth probe). Real text has tens."""


@dataclass(frozen=True, slots=True)
class Sentence:
    """One sentence of a unit (or a table row read as one), with its place."""

    text: str
    kind: str
    """``prose``, ``item`` (a list entry), ``row`` (a table row or cell), ``caption`` (a figure's or
    table's), or ``pointer`` (a short sentence introducing a figure or table: "the following table")."""
    source: SourceText | None
    offset: int
    """Where the sentence starts in ``source`` (its first word)."""
    terms: tuple[str, ...] = ()
    """Term ids the sentence refers to (an original marks them; a translation has no markup)."""
    written_terms: tuple[tuple[str, str], ...] = field(default=(), repr=False)
    """(term id, text as written) of each reference."""
    found: int = -1
    """Index in :attr:`locator`'s words where the sentence was found back (-1: not found)."""
    locator: Locator | None = field(default=None, repr=False, compare=False)
    label: bool = False
    """Whether the sentence only titles a figure or table ("Table 1 - Nombre maximal de ..."): an edition's
    layout, not a rule."""
    item: tuple[int, int] | None = None
    """The list entry the sentence stands in: (where its list starts in ``source``, the entry's number)."""

    @property
    def words(self) -> tuple[tuple[int, int], ...]:
        """(position in ``text``, offset in ``source``) of each word found back in the source."""
        if self.locator is None or self.found < 0:
            return ()
        return self.locator.follow(self.text, self.found)

    @property
    def span(self) -> Span:
        """The sentence's place: its first line, from its first word."""
        if self.source is None:
            return Span("", 0, 0)
        length = self.source.line_around(self.offset)[1] - self.offset
        return self.source.span(self.offset, max(1, min(length, len(self.text))))

    def position(self, offset: int) -> int | None:
        """The position in ``text`` of an offset in the source, if the offset falls in the sentence."""
        if not self.words or offset < self.offset or self.locator is None:
            return None
        offsets = self.locator.followed(self.text, self.found)[1]
        index = max(0, bisect_right(offsets, offset) - 1)
        position, source_offset = self.words[index]
        found = position + offset - source_offset
        return found if 0 <= found < len(self.text) and offset - source_offset < 40 else None

    def place(self, start: int, end: int) -> Span:
        """The place of ``text[start:end]`` in the source (the sentence's place if it was not found back)."""
        if self.source is None or not self.words or self.locator is None:
            return self.span
        positions = self.locator.followed(self.text, self.found)[0]
        index = max(0, bisect_right(positions, start) - 1)
        position, offset = self.words[index]
        delta = start - position if start - position < 40 else 0
        return self.source.span(offset + delta, max(1, end - start))


@dataclass
class _Block:
    kind: str
    item: tuple[int, int] | None = None
    parts: list[str] = field(default_factory=list)
    terms: list[tuple[int, str, str]] = field(default_factory=list)
    length: int = 0

    def add(self, text: str, term: str | None = None) -> None:
        """Append text (a reference's text with its term id)."""
        if term is not None:
            self.terms.append((self.length, term, text))
        self.parts.append(text)
        self.length += len(text)


def sentences(
    content: Content,
    locator: Locator | None,
    offset: int,
    *,
    skip_tables: Collection[int] = (),
    language: Language | str = "en",
) -> list[Sentence]:
    """The sentences of some content in reading order, found back in the locator's source from ``offset`` on.

    ``skip_tables``: offsets of tables compared row by row, whose rows are not sentences; ``language``:
    the text's (its abbreviations, quotation marks, captions).
    """
    rules = _segmenter(as_language(language))
    blocks: list[_Block] = []
    blocks.append(_walk(content, blocks, _Block("prose"), set(skip_tables)))
    source = locator.source if locator is not None else None
    found: list[Sentence] = []
    cursor = offset
    for block in blocks:
        for text, written in rules.split(block):
            terms = tuple(term for term, _ in written)
            place, index = locator.find(text, cursor) if locator is not None else (cursor, -1)
            kind = block.kind
            if kind == "prose" and source is not None and rules.in_caption(source, place):
                kind = "caption"
            elif kind == "prose" and rules.pointer.search(text) and len(text.split()) <= POINTER_WORDS:
                kind = "pointer"
            label = kind == "caption" and rules.is_label(text)
            found.append(Sentence(text, kind, source, place, terms, written, index, locator, label, block.item))
            cursor = place
    return found


POINTER_WORDS = 12
"""A sentence this short that points at a figure, a table or another section only introduces it ("La table
suivante donne...", "For more information please see the section on Hidden Lists.")."""
LABEL_WORDS = 10
"""A caption's first sentence this short, after "Figure 3 –", is the figure's title."""


class _Segmenter:
    """How a language's text is cut into sentences, and which sentences are captions and pointers."""

    def __init__(self, language: Language) -> None:
        self.abbreviations = language.abbreviations
        self.ordinal_dot = language.ordinal_dot
        closing = "".join(sorted({close.strip() for _, close in language.quotes} | {")", "]", "’"}))
        opening = "".join(sorted({start.strip() for start, _ in language.quotes} | {"(", "["} | set(language.openers)))
        # The spaces are taken whole (``++``): given back one by one, each would be read again by the look
        # ahead's ``\s*`` (a stop before 100,000 spaces took 40 s); a shorter run is never followed by the capital.
        self.end = re.compile(
            rf"[.!?][{re.escape(closing)}]*(?:\s++|\*++)(?=[{re.escape(opening)}]?\s*[{CAPITALS}0-9])"
        )
        captions = alternatives(language.captions)
        self.caption = re.compile(rf"\s*(?:{captions})\s+\d+\s*[–—:-]", re.IGNORECASE)
        self.pointer = re.compile(rf"(?:{captions})\s+\d+|{alternatives(language.introduces)}", re.IGNORECASE)

    def in_caption(self, source: SourceText, offset: int) -> bool:
        """Whether a sentence stands in a caption paragraph ("Figure 1 - ..."), as a converted PDF prints them."""
        start = source.line_around(offset)[0]
        return self.caption.match(source.text, start) is not None

    def is_label(self, text: str) -> bool:
        """Whether a caption's sentence is its title ("Table 1 - Nombre maximal de figurines touchées.")."""
        return bool(self.caption.match(text)) and len(text.split()) <= LABEL_WORDS

    def split(self, block: _Block) -> list[tuple[str, tuple[tuple[str, str], ...]]]:
        """The block's sentences, each with the terms it refers to (term id, text as written)."""
        raw = "".join(block.parts)
        cuts = [0] + [m.end() for m in self.end.finditer(raw) if not self._abbreviation(raw, m.start())] + [len(raw)]
        marked = sorted(block.terms, key=lambda term: term[0])  # in reading order already: the sort keeps it
        positions = [position for position, _, _ in marked]
        found = []
        for start, end in itertools.pairwise(cuts):
            text = " ".join(raw[start:end].split())
            if _WORD.search(text):  # each sentence's own terms, not every term of the block read again for each
                within = marked[bisect_left(positions, start) : bisect_left(positions, end)]
                found.append((text, tuple((term, shown) for _, term, shown in within)))
        return found

    def _abbreviation(self, text: str, stop: int) -> bool:
        """Whether the full stop at ``stop`` ends an abbreviation ("e.g.", "max."), an initial, or (where the
        language writes them so) an ordinal ("das 9. Zeitalter")."""
        if text[stop] != ".":
            return False
        word = text[max(0, stop - 8) : stop].split()[-1:] or [""]
        if self.ordinal_dot and word[0].isdigit():
            return True  # "das 9. Zeitalter"; but "als W6." ends its sentence
        return word[0].lower().lstrip('(“"«„') in self.abbreviations


@functools.lru_cache(maxsize=16)
def _segmenter(language: Language) -> _Segmenter:
    return _Segmenter(language)


def _walk(content: Content, blocks: list[_Block], current: _Block, skip: set[int]) -> _Block:
    """Add the content's text to ``current``; a block-level node closes it. Returns the block still open."""
    for node in content:
        if isinstance(node, str):
            current.add(node)
        elif isinstance(node, Reference):
            current.add(node.text, node.name)
        elif isinstance(node, Link | Value):
            current.add(node.text)
        elif isinstance(node, Definition | Important):
            current = _walk(node.children, blocks, current, skip)
        elif isinstance(node, LineBreak | Note | ItemList | Table | Figure | Section):
            blocks.append(current)
            _block(node, blocks, skip)
            current = _Block("prose")
    return current


def _block(node: object, blocks: list[_Block], skip: set[int]) -> None:
    if isinstance(node, Note) and not node.title:
        blocks.append(_walk(node.children, blocks, _Block("prose"), skip))
    elif isinstance(node, ItemList):
        for index, item in enumerate(node.items, 1):
            blocks.append(_walk(_without_step(item, index), blocks, _Block("item", (node.offset, index)), skip))
    elif isinstance(node, Table) and node.offset not in skip:
        for row in node.rows:
            _row(row, blocks, skip)
    elif isinstance(node, Figure):
        blocks.append(_walk(node.caption, blocks, _Block("caption"), skip))


def _row(row: Row, blocks: list[_Block], skip: set[int]) -> None:
    """A row with one prose cell is one sentence (labels first); each prose cell of a wider row is its own."""
    prose = [cell for cell in row.cells if len(plain_text(cell.children).split()) >= PROSE_WORDS]
    if len(prose) == 1:
        block = _Block("row")
        for cell in row.cells:
            block = _walk(cell.children, blocks, block, skip)
            block.add(" ")
        blocks.append(block)
    else:
        for cell in prose:
            blocks.append(_walk(cell.children, blocks, _Block("row"), skip))


def _without_step(item: Item, index: int) -> Content:
    """An item's content without the step number a PDF conversion kept as text ("1 Phase de Mouvement")."""
    if item.children and isinstance(item.children[0], str):
        match = _STEP.match(item.children[0])
        if match and (match.group(1).lstrip("0") or "0") == str(index):  # never read whole: 5,000 digits were an error
            return (item.children[0][match.end() :], *item.children[1:])
    return item.children


_MARKUP = re.compile(r"<!--.*?-->|<[^>]*>|&#?\w+;", re.DOTALL)
_TAGS_AND_ENTITIES = re.compile(r"<[^>]*>|&#?\w+;")
_ENTITIES = re.compile(r"&#?\w+;")
_SOURCE_WORD = re.compile(r"\w+")
CHECKED_WORDS = 6
"""How many first words of a sentence must follow each other in the source to find it back."""


def blank_markup(text: str) -> str:
    """The text with its comments, tags and entities blanked out (same length), in linear time.

    After the last ``-->`` no comment can end, after the last ``>`` no tag: there the expression is not
    asked for them, as from each ``<`` of a run it would search to the end of the text."""
    comments = searched_end(text, COMMENT[1])
    tags = max(searched_end(text, ">"), comments)
    parts = ((_MARKUP, 0, comments), (_TAGS_AND_ENTITIES, comments, tags), (_ENTITIES, tags, len(text)))
    return "".join(pattern.sub(_blank, text[start:end]) for pattern, start, end in parts)


def _blank(match: re.Match[str]) -> str:
    return " " * len(match.group())


class Locator:
    """The words of a source outside markup, with their offsets: sentences are found back by their words."""

    def __init__(self, source: SourceText, *, dialect: bool = False) -> None:
        self.source = source
        self.words: list[str]
        self.offsets: list[int]
        # Markup blanked out, same length: the words left are the text's, at their offsets. The dialect's too
        # (``[[cover|``, ``{dfn=cover}``): its sentences were not found back, and a finding stood at its section's
        # heading instead of its words.
        if dialect:
            from rulebook.readers.markdown_syntax import blank_dialect  # markdown-it only where the dialect is read

            text = blank_markup(blank_dialect(source.text))
        else:
            text = blank_markup(source.text)
        self.words = []
        self.offsets = []
        for match in _SOURCE_WORD.finditer(text):
            self.words.append(match.group())
            self.offsets.append(match.start())
        self._joined = "".join(self.words)
        """The words one after the other, without what lies between: a sentence's letters are compared with it."""
        self._starts = list(itertools.accumulate(map(len, self.words), initial=0))
        """Where each word starts in :attr:`_joined` (and, last, its length)."""
        self._keyed: dict[int, dict[str, list[int]]] = {}
        self._followed: dict[tuple[str, int], tuple[tuple[int, int], ...]] = {}
        self._columns: dict[tuple[str, int], tuple[tuple[int, ...], tuple[int, ...]]] = {}

    def find(self, text: str, start: int) -> tuple[int, int]:
        """Where a sentence's words follow each other in the source from ``start`` on (its offset and the
        index of its first word), or ``start`` and -1.

        Words are compared letter by letter across word breaks: ``9<sup>e</sup>`` is the word "9e".
        """
        wanted = _WORD.findall(text)
        if not wanted:
            return start, -1
        letters = "".join(wanted[:CHECKED_WORDS])
        first = bisect_left(self.offsets, start)
        last = bisect_right(self.offsets, start + REACH)  # the words a sentence may start at
        if first >= last:
            return start, -1
        # The word starts its first letters pick, each compared at C speed: a sentence not found (its first words
        # hold `&eacute;`) read every word of its first letter within REACH, 12 words joined for each, and the next
        # sentence, from the same place, again (the forty-second probe); then each place its letters stood inside a
        # word (the forty-third); then an expression of its letters was tried from every word start within REACH,
        # across thousands of short words spelling them (the forty-fourth and forty-fifth).
        places = self._word_starts(min(len(letters), _KEY_LETTERS)).get(letters[:_KEY_LETTERS], [])
        at = bisect_left(places, first)
        for index in places[at : at + _MOST_PLACES_TRIED]:
            if index >= last:
                break
            checked = min(index + 2 * CHECKED_WORDS, len(self.words))  # the letters of 12 words at most
            if self._joined.startswith(letters, self._starts[index], self._starts[checked]):
                return self.offsets[index], index
        return start, -1

    def _word_starts(self, length: int) -> dict[str, list[int]]:
        """The index of every word by the ``length`` letters from its start, across word breaks (each list in order);
        made once for each length."""
        keyed = self._keyed.get(length)
        if keyed is None:
            keyed = {}
            joined, starts = self._joined, self._starts
            for index in range(len(self.words)):
                keyed.setdefault(joined[starts[index] : starts[index] + length], []).append(index)
            self._keyed[length] = keyed
        return keyed

    def follow(self, text: str, index: int) -> tuple[tuple[int, int], ...]:
        """Each word of a sentence found at ``index``: (position in the text, offset in the source)."""
        key = (text, index)
        if key not in self._followed:
            self._followed[key] = self._follow([(m.start(), m.group()) for m in _WORD.finditer(text)], index)
        return self._followed[key]

    def followed(self, text: str, index: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
        """:meth:`follow`'s positions in the text and offsets in the source, each as one tuple, made once: a
        sentence holding thousands of findings is not read again for each."""
        key = (text, index)
        if key not in self._columns:
            words = self.follow(text, index)
            self._columns[key] = (tuple(p for p, _ in words), tuple(o for _, o in words))
        return self._columns[key]

    def _follow(self, wanted: list[tuple[int, str]], index: int) -> tuple[tuple[int, int], ...]:
        """Each wanted word's offset, stepping over source words the text does not have (an entity's)."""
        found: list[tuple[int, int]] = []
        for position, word in wanted:
            limit = min(index + 4, len(self.words))
            step = next((i for i in range(index, limit) if word.startswith(self.words[i])), None)
            if step is None:
                break
            found.append((position, self.offsets[step]))
            index, joined = step + 1, self.words[step]
            while joined != word and index < len(self.words) and word.startswith(joined + self.words[index]):
                joined += self.words[index]
                index += 1
        return tuple(found)


REACH = 30_000
"""How far after its unit's start a sentence is looked for (a figure's caption may follow subsections)."""
