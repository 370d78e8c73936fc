"""The dialect's markup that markdown-it read as text: a reference's brackets that open or close none, a link's
``](`` that opens no address, an attribute block that follows nothing taking one, a comment's ``<!--`` that nothing
closes, the tildes of text struck through. Each was shown on the page as written, with "All checks passed"; the
readers report each where it stands (a paragraph's, a cell's or a heading's text, a title the XML holds as text)."""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterator

from markdown_it.token import Token

from rulebook.markdown_declarations import UNCLOSED_IN_PARAGRAPH

_BRACKETS = re.compile(r"\\.|\[\[|\]\]", re.DOTALL)
"""An escaped character (passed over), or the brackets of a reference."""
_ATTRIBUTES_IN_TEXT = re.compile(r"\{[ \t]*(?:[.#][A-Za-z_]|[A-Za-z_][\w-]*=)[^{}\n]*\}")
"""An attribute block (``{type=example}``, ``{dfn=x}``, ``{.title}``) as text: it followed nothing that takes one."""
_LINK_OPENING = re.compile(r"\\.|\][(\[]", re.DOTALL)
"""An escaped character (passed over), or the ``](`` between a link's words and its address, the ``][`` before its
label."""
_LINKS = ("link_open", "image")
"""The tokens of a link or a picture: a ``](`` from where they start to where their address ends is theirs."""
_LINK_FINDINGS = {
    "](": (
        "`](` opens no link's address: the link is shown as written",
        "write a link as `[words](#id)`, its address with no space and its `)`; `\\](` shows the characters",
    ),
    "][": (
        "`][` opens no label a link reference definition gives: the link is shown as written",
        "define the label on a line of its own, `[label]: #id`, or write `[words](#id)`; `\\][` shows the characters",
    ),
}
_COMMENT_OPENING = re.compile(r"\\.|<!--", re.DOTALL)
"""An escaped character (passed over), or the ``<!--`` of a comment: one markdown-it read as text was never closed
(``<!-- rulebook: mechanic name="hit" ...`` without its ``-->``: the declaration lost, its text on the page)."""
_TILDES = re.compile(r"\\.|(?<!~)~~(?!~)", re.DOTALL)
"""An escaped character (passed over), or the two tildes GitHub's preview strikes text through between."""
_SPANNING = ("wikilink", "html_inline", "autolink")
"""The tokens whose content is what the source writes, from where they start: brackets inside them are theirs."""


def stray_markup(text: str, children: list[Token], *, own_end: bool = False) -> Iterator[tuple[int, str, str]]:
    """The dialect's markup an inline text holds that markdown-it read as text, each found where it stands in
    ``text`` (the inline token's), with the finding and its help: the brackets of a reference that opens or closes
    none (``[[nerve test] is``, ``test]] is``) and an attribute block that follows nothing taking one
    (``[[x]] {type=example}``, ``[words.{dfn=x}``). Each was shown on the page as written, brackets and braces, the
    reference, its example or the definition lost, with "All checks passed". Read once, each part in order. With
    ``own_end``, a block ending the text is the construct's own, read and checked by its reader (a cell's ``{.header}``,
    a heading's ``{#id}``)."""
    if "[[" in text or "]]" in text:
        spans = sorted(_spans(text, children))
        unkept = list(_unkept(children))
        for found in _BRACKETS.finditer(text):
            mark = found.group()
            if mark[0] == "\\" or _within(spans, found.start(), found.end()):
                continue
            holder = next((what for start, end, what in unkept if start <= found.start() < end), None)
            if holder is not None:  # a link's title (no page shows it), a picture's words (plain text, its `alt`)
                picture = holder.startswith("a picture")
                kept = "whose words are plain text" if picture else "which the book does not keep"
                yield (
                    found.start(),
                    f"`{mark}` in {holder}, {kept}: it makes no reference",
                    "refer to the term in the text around it; the book keeps a link's words and address, and a "
                    "picture's file and its words as plain text",
                )
                continue
            yield (
                found.start(),
                f"`{mark}` {'opens' if mark == '[[' else 'closes'} no reference: it is shown as written",
                "write a reference on one paragraph as `[[name]]` or `[[name|words]]`; `\\[[`, `\\]]` show the "
                "brackets",
            )
    if "](" in text or "][" in text:
        read = _merged([*_spans(text, children), *_links(children)])
        for found in _LINK_OPENING.finditer(text):
            mark = found.group()
            if mark[0] != "\\" and not _within(read, found.start(), found.end()):
                yield found.start(), *_LINK_FINDINGS[mark]
    if "<!--" in text:
        spans = sorted(_spans(text, children))
        for found in _COMMENT_OPENING.finditer(text):
            if found.group() == "<!--" and not _within(spans, found.start(), found.end()):
                yield found.start(), *UNCLOSED_IN_PARAGRAPH
                break  # the first: what follows it is what the comment was meant to hold (8,000 findings for a line)
    if "~~" in text:
        yield from _struck(text, sorted(_spans(text, children)))
    position, after_picture, written = 0, False, dict[str, list[int]]()
    for child in children:
        after_picture, follows_picture = child.type == "image", after_picture
        if "at" in child.meta:  # a reference's content holds the attribute block it took
            at = int(child.meta["at"])
            position = max(position, at + len(child.content) if child.type in _SPANNING else at)
        if child.type != "text" or "{" not in child.content:
            continue
        for found in _ATTRIBUTES_IN_TEXT.finditer(child.content):
            if found.group() == text.strip():  # a block alone: the line's own findings say what it is
                continue
            at = _written_at(text, found.group(), position, written)
            if at < 0:  # written with an escape (`\{type=x\}`): text, as meant
                continue
            position = at + len(found.group())
            if (own_end and not text[position:].strip()) or (follows_picture and found.start() == 0):
                continue  # the construct's own, or a picture's (`![a](x.png){width=50%}`: reported as such)
            yield (
                at,
                "an attribute block that follows nothing that takes one: it is shown as written",
                "write it right after the closing brackets, with no space: `[[name]]{type=example}`, "
                "`[words]{dfn=name}`",
            )


def _struck(text: str, spans: list[tuple[int, int]]) -> Iterator[tuple[int, str, str]]:
    """The ``~~`` opening each pair that GitHub's preview strikes through (``~~gone~~``): neither CommonMark nor the
    dialect does, and the text was shown with its tildes, with "All checks passed"."""
    opened = -1
    for found in _TILDES.finditer(text):
        if found.group()[0] == "\\" or _within(spans, found.start(), found.end()):
            continue
        if opened < 0:
            opened = found.start()
            continue
        yield (
            opened,
            "`~~` strikes nothing through in the rulebook format: the text is shown with its tildes",
            "leave out what is struck through, or keep it without the tildes; `\\~\\~` shows the characters",
        )
        opened = -1


def _written_at(text: str, block: str, position: int, written: dict[str, list[int]]) -> int:
    """Where ``block`` is first written in ``text`` from ``position`` (-1: nowhere), looked up among the blocks
    ``text`` writes, found once (``written``, filled on first use): a block written with an escape or a character
    reference (``\\{.a\\}``, ``&#123;.a}``) is not in the source as read, and each was searched for to the text's
    end: 40,000 on a line took 24 s and 34 s."""
    if not written:
        for found in _ATTRIBUTES_IN_TEXT.finditer(text):
            written.setdefault(found.group(), []).append(found.start())
        written.setdefault("", [])  # filled, if with no block
    places = written.get(block, [])
    index = bisect.bisect_left(places, position)
    return places[index] if index < len(places) else -1


def _spans(text: str, children: list[Token]) -> Iterator[tuple[int, int]]:
    """Where each token that keeps its source stands in ``text`` (a code span: to its closing backticks)."""
    for child in children:
        if "at" not in child.meta:
            continue
        start = int(child.meta["at"])
        if child.type in _SPANNING:
            yield start, start + len(child.content)
        elif child.type == "code_inline":  # its content is trimmed: it ends at the backticks that close it
            closing = text.find(child.markup, start + len(child.markup))
            yield start, closing + len(child.markup) if closing >= 0 else len(text)


def _unkept(children: list[Token]) -> Iterator[tuple[int, int, str]]:
    """Where the text the book does not keep stands, and what it is: a link's title (and address), from where its
    words end to where it ends, and a picture's description and title, the picture whole."""
    for child in children:
        if child.type in _LINKS and "at" in child.meta and "end" in child.meta:
            picture = child.type == "image"
            start = int(child.meta["at"]) if picture else int(child.meta.get("words_end", child.meta["end"]))
            yield start, int(child.meta["end"]), "a picture's description or title" if picture else "a link's title"


def _links(children: list[Token]) -> Iterator[tuple[int, int]]:
    """Where each link and picture stands in the text, from its ``[`` to its address's end."""
    for child in children:
        if child.type in _LINKS and "at" in child.meta and "end" in child.meta:
            yield int(child.meta["at"]), int(child.meta["end"])


def _merged(spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans sorted, those inside or across others made one (a picture in a link's words)."""
    merged: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if merged and start < merged[-1][1]:
            merged[-1] = (merged[-1][0], max(merged[-1][1], end))
        else:
            merged.append((start, end))
    return merged


def _within(spans: list[tuple[int, int]], start: int, end: int) -> bool:
    """Whether any character of ``start``..``end`` is inside one of the spans (sorted, none inside another)."""
    last = bisect.bisect_left(spans, (end,)) - 1  # the last span starting before ``end``
    return last >= 0 and spans[last][1] > start
