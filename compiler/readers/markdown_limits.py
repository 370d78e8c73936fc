"""What reading one Markdown source may cost: at most so many bytes, lines and markdown-it tokens.

A Markdown reader's memory grows with markdown-it's work, not with the file's size: markdown-it keeps five
numbers per line and makes an object per token (a block, a table cell, a list item, a span, a line break), and
the readers make their model from those, about 470 bytes a token in all. A real book makes one token per 16 to
40 bytes, but a table whose header names 128 columns makes 128 cells of every line under it, even a line of
one letter (markdown-it fills up to 65,536 cells a table): 30 KB of such tables made four million tokens and
1.9 GB, 64,830 times the file. So each source is held to three limits, each checked before what it guards is
made, and refused past them with a located ``unreadable-source`` error (exit 2):

- :data:`MAX_BYTES`, checked before reading and while reading (:func:`rulebook.inputs.read_input`);
- :data:`MAX_LINES`, counted in the bytes before they are decoded (:func:`lines_past`);
- :func:`token_budget`, counted as markdown-it makes each token (:func:`limited`): the parse stops at the first
  token past it, before the readers' model is made;
- :func:`step_budget`, the steps markdown-it takes over what may lie inside brackets (``[...]``) looking for where
  they close, counted as it takes each: a ``[`` makes it try the rules once more from each place up to its
  nesting limit, so 200 KB of ``[[`` took 16 s (7,000 times a paragraph of words' steps). A book takes one step
  per hundred characters, nested definitions one per two; past two per character plus :data:`FREE_STEPS`, the
  source is refused at the line being read.

``docs/security.md`` says why these numbers; ``benchmarks/bench_markdown_memory.py`` measures them.
"""

from __future__ import annotations

import re

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.rules_inline import StateInline
from markdown_it.token import Token

from rulebook.catalog.reading import NESTING_TOO_DEEP, UNREADABLE_SOURCE
from rulebook.diagnostics import Diagnostic
from rulebook.inputs import MEGABYTE
from rulebook.source import Span

MAX_BYTES = 64 * MEGABYTE
"""The largest Markdown source: 10,000 pages of 6.5 KB (the bundled book has 2.2 KB a printed page)."""
MAX_LINES = 2_000_000
"""The most lines a Markdown source may hold (the bundled book: 28 lines a page, 280,000 for 10,000 pages)."""
MAX_TOKENS = 3_000_000
"""The most tokens a Markdown source may make (the bundled book: 123 a page, 1.2 million for 10,000 pages)."""
FREE_TOKENS = 100_000
"""Tokens any source may make, however short."""
CHARACTERS_PER_TOKEN = 2
"""Past :data:`FREE_TOKENS`, a source makes at most one token per this many characters (a real book one per 16
to 40 bytes; a table of one-digit cells, ``| 4 | 3 |``, one per byte)."""


FREE_STEPS = 100_000
"""Steps over the inside of brackets any source may take, however short (:func:`step_budget`)."""
STEPS_PER_CHARACTER = 2
"""Past :data:`FREE_STEPS`, the steps a source may take per character (the bundled books take under 0.01, a page of
spans nested four deep, each a definition, 0.55; 200 KB of ``[[`` 202)."""


QUOTE_READS_PER_LINE = 3
"""Past :data:`FREE_STEPS`, how many times on average a line may be read as part of a quote (:func:`quotes_past`)."""
_QUOTE_MARKS = re.compile(r"(?:[ \t]*(?:>|[-*+](?=[ \t])|[0-9]{1,9}[.)](?=[ \t])))+")
"""What starts a line inside quotes: each ``>`` a level of a quote, however spaced (a tab after one, as markdown-it
reads it), and the marks of the list items around or inside them (``- > - > ...``): the ``>`` after a tab or a list's
mark were not counted, and 95 quotes so nested, then 50,000 lazy lines (100 KB), took 27 s, unrefused."""


def quotes_past(text: str) -> TooLarge | None:
    """The refusal of a source whose quotes make markdown-it read its lines too many times, at the line where they
    went past; None if they do not. markdown-it reads a quote's lines once for each quote it is in, and a line
    without ``>`` after a quote's paragraph goes on with it (a lazy line) at the depth of that paragraph: 95 quotes
    nested on one line, then 50,000 lines of one letter (100 KB), took 6.4 s, 2 MB about two minutes. A line counts
    as many reads as the quotes it is in (a blank line ends them, and a line of text under fewer ``>`` goes on
    with the deepest: ``> b`` lines after ``> > ... > a``, 100 KB, took 14 s), and a source may take three a line past
    :data:`FREE_STEPS`: a real book quotes one level deep, when it quotes at all."""
    if ">" not in text:
        return None
    lines = text.split("\n")
    budget, depth = FREE_STEPS + QUOTE_READS_PER_LINE * len(lines), 0
    for number, line in enumerate(lines, 1):
        marks = _QUOTE_MARKS.match(line)
        quotes = marks.group().count(">") if marks else 0
        # a blank line, or one of marks alone, ends the deeper quotes; text under fewer `>` than the paragraph it
        # follows goes on with it, as deep (`> b` under `> > > a`)
        text = line[marks.end() if marks else 0 :].strip()
        depth = max(depth, quotes) if text else quotes
        budget -= depth
        if budget < 0:
            message = (
                f"a Markdown source of {len(lines):,} lines may be read at most {QUOTE_READS_PER_LINE} times a line "
                "as the quotes (`>`) around it; by this line, its quotes have made it read more"
            )
            help = (
                "a line is read once for each quote it is in: nest quotes less deeply, and end each with a blank line"
            )
            return TooLarge(message, number, help)
    return None


def step_budget(text: str) -> int:
    """The most steps markdown-it may take over the inside of brackets in ``text``, looking for where they close."""
    return FREE_STEPS + len(text) * STEPS_PER_CHARACTER


class TooLarge(Exception):
    """A Markdown source past one of the limits, and the line (1-based) where it went past."""

    def __init__(self, message: str, line: int, help: str) -> None:
        super().__init__(message)
        self.message = message
        self.line = line
        self.help = help

    def diagnostic(self, path: str) -> Diagnostic:
        """The refusal, located at the start of its line."""
        return UNREADABLE_SOURCE.diagnostic(self.message, Span(path, self.line, 1), target=path, help=self.help)


class BracketsTooDeep(TooLarge):
    """Brackets (``[``) nested as deep as markdown-it reads, and the line of their paragraph."""

    def __init__(self, deepest: int, line: int) -> None:
        help = f"nest at most {deepest} levels deep; a `[` that nothing closes is text: write it `\\[`"
        super().__init__(f"a bracket (`[`) is nested more than {deepest} deep", line, help)

    def diagnostic(self, path: str) -> Diagnostic:
        return NESTING_TOO_DEEP.diagnostic(self.message, Span(path, self.line, 1), help=self.help)


_SPLIT = "split the book into several sources (`sources = [...]` in the configuration)"


def lines_past(data: bytes, path: str) -> Diagnostic | None:
    """The refusal of a source holding more than :data:`MAX_LINES` lines (``\\n``, ``\\r\\n`` and ``\\r`` end a line),
    counted in its bytes before the line table every reader makes is made; None if it holds no more."""
    ends = data.count(b"\n") + data.count(b"\r") - data.count(b"\r\n")
    count = ends + (1 if data and data[-1:] not in (b"\n", b"\r") else 0)  # a last line may have no end
    if count <= MAX_LINES:
        return None
    message = f"a Markdown source may hold at most {MAX_LINES:,} lines; this one holds {count:,}"
    return TooLarge(message, MAX_LINES + 1, _SPLIT).diagnostic(path)


def token_budget(text: str) -> int:
    """The most tokens markdown-it may make of ``text``."""
    return min(MAX_TOKENS, FREE_TOKENS + len(text) // CHARACTERS_PER_TOKEN)


def limited(md: MarkdownIt, *, nesting_read_whole: bool = False) -> MarkdownIt:
    """``md``, its every parse held to :func:`token_budget` and :func:`step_budget`: past either, ``parse`` raises
    :class:`TooLarge` at the line being read. Every token markdown-it makes is appended to the document's list of
    blocks or to an inline block's children: both lists are :class:`_Tokens` sharing one budget.
    ``nesting_read_whole``: brackets nested as deep as markdown-it's ``maxNesting`` raise :class:`BracketsTooDeep`
    (markdown-it would read the rest of their paragraph as text, saying nothing: 150 spans nested, the outer 101
    were text)."""
    md.core.ruler.before("block", "token_budget", _budgeted_blocks)
    md.core.ruler.at("inline", _budgeted_inline)
    skip = md.inline.skipToken
    deepest = md.options["maxNesting"] if nesting_read_whole else None

    def counted(state: StateInline) -> None:  # the one step markdown-it takes over what lies inside brackets
        tokens = state.tokens
        if isinstance(tokens, _Tokens):  # an image's words are read apart, after their brackets were counted
            tokens.budget.steps -= 1
            if tokens.budget.steps < 0:
                raise tokens.budget.slow(tokens._line())
            if deepest is not None and state.level >= deepest:
                raise BracketsTooDeep(deepest, tokens._line())
        skip(state)

    md.inline.skipToken = counted  # type: ignore[method-assign]
    return md


class _Budget:
    __slots__ = ("left", "length", "steps", "total", "total_steps")

    def __init__(self, text: str) -> None:
        self.length = len(text)
        self.total = self.left = token_budget(text)
        self.total_steps = self.steps = step_budget(text)

    def slow(self, line: int) -> TooLarge:
        message = (
            f"a Markdown source of {self.length:,} characters may take at most {self.total_steps:,} "
            "steps to find where its brackets (`[`) close; this one takes more by this line"
        )
        help = "a `[` that nothing closes is text: write it `\\[`, or close it with `]`"
        return TooLarge(message, line, help)

    def refusal(self, line: int) -> TooLarge:
        message = (
            f"a Markdown source of {self.length:,} characters may make at most {self.total:,} blocks, table cells, "
            "list items and spans; this one makes more by this line"
        )
        help = f"a table makes a cell for each of its columns in every row, even a row of one letter; {_SPLIT}"
        return TooLarge(message, line, help)


class _Tokens(list[Token]):
    """A list of tokens that refuses the one past its budget (``line``: where an inline block's children start;
    None for the blocks, which are located by the last block that has a place)."""

    def __init__(self, budget: _Budget, line: int | None = None) -> None:
        super().__init__()
        self.budget = budget
        self.line = line

    def append(self, token: Token) -> None:
        budget = self.budget
        budget.left -= 1
        if budget.left < 0:
            raise budget.refusal(self._line())
        super().append(token)

    def _line(self) -> int:
        if self.line is not None:
            return self.line
        placed = next((token.map for token in reversed(self) if token.map), None)
        return placed[0] + 1 if placed else 1


def _budgeted_blocks(state: StateCore) -> None:
    """The document's list of blocks made a :class:`_Tokens` (markdown-it's block rules append to it), once its
    quotes are known not to make it read its lines past :func:`quotes_past`."""
    if (refusal := quotes_past(state.src)) is not None:
        raise refusal
    state.tokens = _Tokens(_Budget(state.src))


def _budgeted_inline(state: StateCore) -> None:
    """markdown-it's own core rule ``inline``, each inline block's children a :class:`_Tokens` of the same budget."""
    blocks = state.tokens
    assert isinstance(blocks, _Tokens)
    for token in blocks:
        if token.type == "inline":
            children = _Tokens(blocks.budget, token.map[0] + 1 if token.map else blocks._line())
            for child in token.children or ():
                children.append(child)
            token.children = children
            state.md.inline.parse(token.content, state.md, state.env, children)
