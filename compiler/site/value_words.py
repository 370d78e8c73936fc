"""The book's own words for what the quick reference shows: the sentence that states each number it declares, the
profile table's title and headers.

A value (``<value name="crew_size">6</value>``, ``[6]{value=crew_size}``) stands in a sentence of the rules; that
sentence ("A crew starts with at most 6 scavengers.") says what the number is in the book's words, where its name
is an identifier and its kind a generic explanation.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from rulebook.model import (
    Book,
    Content,
    Definition,
    Important,
    LineBreak,
    Link,
    Node,
    Reference,
    Table,
    Value,
    children,
    plain_text,
)
from rulebook.site.html import BLOCKS
from rulebook.site.previews import sentence_bounds

_PARAGRAPH = "\n\n"
_VALUE = re.compile("\x01([^\x02]*)\x02([^\x03]*)\x03")
"""A value in the flattened text: its name, then its number."""


Said = tuple[str, str, str]
"""A value's sentence in three parts: the words before its number, the number, the words after it."""


def value_sentences(book: Book) -> dict[str, Said]:
    """Each value's sentence, by the value's name (the first place it is stated, when it is stated twice), split at
    the value's number: a sentence that states two numbers (a minimum and a maximum) is shown once for each, each
    time with its own number marked."""
    found: dict[str, Said] = {}
    for document in book.documents:
        for chapter in document.body:
            for paragraph in "".join(_flattened((chapter,))).split(_PARAGRAPH):
                if "\x01" not in paragraph:
                    continue
                text = " ".join(paragraph.split())
                for start, end in sentence_bounds(text):
                    sentence = text[start:end].strip()
                    for match in _VALUE.finditer(sentence):
                        if match[1] not in found:
                            before, after = _before(sentence, match.start()), _after(sentence, match.end())
                            found[match[1]] = (before, match[2], after)
    return found


SHOWN = 200
"""The most characters of a sentence shown on either side of a value's number: a sentence that states 20,000
numbers was shown whole for each of them, an 800 MB page (and search index) from a 570 KB source, in 210 s."""
_MARKS = re.compile("[\x01-\x03]")


def _before(sentence: str, end: int) -> str:
    """The words of ``sentence`` before ``end`` (a value's), at most :data:`SHOWN` characters of them (cut at a space,
    after ``…``); only a window of the sentence is read, so a sentence of thousands of values is read in linear time."""
    window = sentence[max(0, end - SHOWN * 8) : end]
    whole = len(window) == end
    cut = window.find("\x03")
    if not whole and cut >= 0 and "\x01" not in window[:cut]:  # a value's mark cut by the window
        window = window[cut + 1 :]
    text = _MARKS.sub("", _VALUE.sub(r"\2", window))
    if len(text) <= SHOWN and whole:
        return text
    return "… " + text[-SHOWN:].split(" ", 1)[-1]


def _after(sentence: str, start: int) -> str:
    """The words of ``sentence`` from ``start`` (a value's end), at most :data:`SHOWN` characters of them (cut at a
    space, before ``…``)."""
    window = sentence[start : start + SHOWN * 8]
    whole = start + len(window) == len(sentence)
    cut = window.rfind("\x01")
    if not whole and cut >= 0 and "\x03" not in window[cut:]:  # a value's mark cut by the window
        window = window[:cut]
    text = _MARKS.sub("", _VALUE.sub(r"\2", window))
    if len(text) <= SHOWN and whole:
        return text
    return text[:SHOWN].rsplit(" ", 1)[0] + " …"


def _flattened(content: Content | tuple[Node, ...]) -> Iterator[str]:
    """The text of some content, each value marked with its name, paragraphs and blocks apart."""
    for node in content:
        if isinstance(node, str):
            yield node
        elif isinstance(node, Value):
            yield f"\x01{node.name}\x02{node.text}\x03"
        elif isinstance(node, Reference | Link):
            yield node.text
        elif isinstance(node, Definition | Important):
            yield from _flattened(node.children)
        elif isinstance(node, LineBreak):
            yield _PARAGRAPH
        elif isinstance(node, BLOCKS):
            for part in children(node):
                yield _PARAGRAPH
                yield from _flattened(part)
            yield _PARAGRAPH


def profile_words(book: Book) -> tuple[str | None, tuple[str, ...]]:
    """The characteristics profile's title and headers as the book writes them (``{title="Profile" kind=profile}``,
    ``| Short | Stat | What it says |``): the quick reference names the profile in the book's words."""
    for document in book.documents:
        for annotated in document.annotated:
            table = annotated.node
            if isinstance(table, Table) and table.kind == "profile":
                headers = tuple(plain_text(c.children) for c in table.columns.cells) if table.columns else ()
                return table.title, headers if all(headers) else ()
    return None, ()
