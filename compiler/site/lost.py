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
    """A run of inline content without the sentences holding a lost link.

    One pass: each sentence cut is looked for from where the one before ended (a search from the run's start and a
    new run per lost link were quadratic in a paragraph of many)."""
    lost = [index for index, node in enumerate(run) if is_lost(node)]
    if not lost:
        return run
    kept: list[Node] = []
    start, rest = 0, None  # run[start:] is still to place; `rest` is what the cut before left of run[start], a text
    for index in lost:
        if index < start:
            continue  # within the sentence cut before
        start_node, start_at = _sentence_start(run, index, start, rest)
        first = rest if start_node == start and rest is not None else run[start_node]
        if start_node > start:
            kept += ([] if rest is None else [rest]) + run[start + (rest is not None) : start_node]
        kept += [first[:start_at]] if isinstance(first, str) and start_at else []
        start, at = _sentence_end(run, index)
        last = run[start] if start < len(run) else ""
        rest = last[at:] if isinstance(last, str) else ""  # a sentence ends in a text
    kept += ([] if rest is None else [rest]) + run[start + (rest is not None) :]
    return [node for node in kept if node != ""]


def _sentence_start(run: list[Node], index: int, since: int = 0, text: str | None = None) -> tuple[int, int]:
    """Where the sentence holding ``run[index]`` starts: a node and a position in it (a text's); looked for back to
    ``run[since]`` (``text`` in place of it: what a cut before left of it), the sentence cut before."""
    for position in range(index - 1, since - 1, -1):
        node = text if position == since and text is not None else run[position]
        if isinstance(node, str):
            ends = list(_SENTENCE_END.finditer(node))
            if ends:
                return position, ends[-1].end()
    return since, 0


def _sentence_end(run: list[Node], index: int) -> tuple[int, int]:
    """Where the sentence holding ``run[index]`` ends: a node and the position just after it (its space too)."""
    for position in range(index + 1, len(run)):
        node = run[position]
        if isinstance(node, str) and (found := _SENTENCE_END.search(node)):
            return position, found.end()
    return len(run), 0
