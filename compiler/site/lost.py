"""Sentences a reader is better without: those pointing at a cross-reference the PDF conversion lost.

A translation converted from a PDF says "see chapter ?? on page ??" where the original linked a chapter:
the reader learns nothing from it, and the editor's view and the translation report show it (``??`` is
a lost link, RB631 ``lost-reference``). The published site leaves out each sentence holding one.
"""

from __future__ import annotations

import re

from rulebook.model import (
    Content,
    Definition,
    Figure,
    Illustration,
    ItemList,
    LineBreak,
    Link,
    Node,
    Note,
    Section,
    Table,
    map_children,
)

_SENTENCE_END = re.compile(r"(?<!\?)[.!?…](?!\?)[\"'”»)]*(?:\s+|$)")
"""A sentence's end: its full stop (never the ``??`` of a lost link), closing quotes, and the space after it."""
LOST = "??"


def is_lost(node: object) -> bool:
    """A link the conversion lost: ``??`` where the original pointed at a chapter or page."""
    return isinstance(node, Link) and not node.to and node.text == LOST


def without_lost_sentences(content: Content) -> Content:
    """The content with each sentence holding a lost cross-reference left out, in every block it holds."""
    out: list[Node] = []
    run: list[Node] = []
    for node in content:
        if isinstance(node, str) or is_lost(node) or _inline(node):
            run.append(node)
            continue
        out += _cut(run)
        run = []
        out.append(_inside(node))
    return (*out, *_cut(run))


def without_lost_text(text: str) -> str:
    """A text without its sentences holding ``??`` (a card's translated definition)."""
    if LOST not in text:
        return text
    kept, start = [], 0
    for match in _SENTENCE_END.finditer(text):
        if LOST not in text[start : match.end()]:
            kept.append(text[start : match.end()])
        start = match.end()
    if LOST not in text[start:]:
        kept.append(text[start:])
    return "".join(kept).strip()


def _inline(node: object) -> bool:
    """Whether a node stands in a paragraph's text (a paragraph break, a block or a definition holding one do not)."""
    return not isinstance(node, Section | Note | Table | ItemList | Figure | Illustration | LineBreak) and not (
        isinstance(node, Definition) and any(not isinstance(n, str) and not _inline(n) for n in node.children)
    )


def _inside(node: Node) -> Node:
    """A block with the lost sentences of its own content left out."""
    return map_children(node, without_lost_sentences)


def _cut(run: list[Node]) -> list[Node]:
    """A run of inline content without the sentences holding a lost link."""
    while (index := next((i for i, n in enumerate(run) if is_lost(n)), None)) is not None:
        start_node, start_at = _sentence_start(run, index)
        end_node, end_at = _sentence_end(run, index)
        first, last = run[start_node], run[end_node] if end_node < len(run) else ""
        head = run[:start_node] + ([first[:start_at]] if isinstance(first, str) and start_at else [])
        tail = ([last[end_at:]] if isinstance(last, str) else []) + run[end_node + 1 :]
        run = [n for n in head + tail if n != ""]
    return run


def _sentence_start(run: list[Node], index: int) -> tuple[int, int]:
    """Where the sentence holding ``run[index]`` starts: a node and a position in it (a text's)."""
    for position in range(index - 1, -1, -1):
        node = run[position]
        if isinstance(node, str):
            ends = list(_SENTENCE_END.finditer(node))
            if ends:
                return position, ends[-1].end()
    return 0, 0


def _sentence_end(run: list[Node], index: int) -> tuple[int, int]:
    """Where the sentence holding ``run[index]`` ends: a node and the position just after it (its space too)."""
    for position in range(index + 1, len(run)):
        node = run[position]
        if isinstance(node, str) and (found := _SENTENCE_END.search(node)):
            return position, found.end()
    return len(run), 0
