"""What a term's preview card says: the sentence that defines the term, and a glimpse of a table it holds.

Pure. A card shows the sentence holding the term's defining words (the definition's first use of
its own term, or the marked first use in a translation), then the sentences after it while they fit;
never the term's name alone: a definition that is only its words (a first use a reader or a
translation marks) is shown in the sentence around it. A definition holding a table shows the
table's first row and how many more there are, not the table flattened into a line.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rulebook.model import (
    Content,
    Definition,
    Figure,
    Illustration,
    Important,
    ItemList,
    LineBreak,
    Link,
    Note,
    Reference,
    Section,
    Table,
    Value,
    plain_text,
    walk,
)

PREVIEW_LENGTH = 320
_MARK = "\x00"
"""Where the defining words stand in a paragraph's text while it is split into sentences."""
_SENTENCE_END = re.compile(r"(?<=[.!?…])[\"'”»)]*\s+(?=[\"'“«(]?[A-ZÀ-Ý0-9])")


def definition_preview(
    definition: Definition, section: Section | None, title: str, words: Mapping[str, str]
) -> dict[str, Any]:
    """A term's card: its name, the sentence that defines it, and a table's first row if it holds one."""
    content: Content = definition.children
    if _only_words(definition) and section is not None:
        content = section.children  # a first use marked as the definition: the sentence around it
    preview: dict[str, Any] = {"title": title, "text": preview_text(content, definition.name)}
    table = _first_table(definition.children)
    if table is not None:
        preview["table"] = table_preview(table, words)
    return preview


def preview_text(content: Content, name: str, limit: int = PREVIEW_LENGTH) -> str:
    """From the sentence holding the defining words of ``name`` (else the first), as many sentences as fit."""
    paragraphs = _paragraphs(content, name)
    if not paragraphs:
        return ""
    text = next((p for p in paragraphs if _MARK in p), paragraphs[0])
    sentences = _SENTENCE_END.split(text)
    start = next((i for i, s in enumerate(sentences) if _MARK in s), 0)
    chosen = [sentences[start].replace(_MARK, "")]
    for sentence in sentences[start + 1 :]:
        if len(" ".join(chosen)) + 1 + len(sentence) > limit:
            break
        chosen.append(sentence.replace(_MARK, ""))
    shown = " ".join(chosen).strip()
    if len(shown) > limit:
        shown = shown[:limit].rsplit(" ", 1)[0] + " …"
    return shown[:1].upper() + shown[1:]


def table_preview(table: Table, words: Mapping[str, str]) -> dict[str, Any]:
    """A table's column names (if any), its first row, and how many rows are left out."""
    head = [plain_text(c.children) for c in table.columns.cells] if table.columns else []
    rows = [[plain_text(c.children) for c in row.cells] for row in table.rows[:1]]
    left = len(table.rows) - len(rows)
    more = ""
    if left > 0:
        # Not str.format: the site's words are text, and a brace in them is text too.
        more = words.get("more_row" if left == 1 else "more_rows", "{count} more rows").replace("{count}", str(left))
    return {"head": head, "rows": rows, "more": more}


def _only_words(definition: Definition) -> bool:
    return len(definition.children) == 1 and isinstance(definition.children[0], str)


def _first_table(content: Content) -> Table | None:
    inside = walk(content, into=lambda node: isinstance(node, Definition | Note))
    return next((node for node in inside if isinstance(node, Table)), None)


def _paragraphs(content: Content, name: str) -> list[str]:
    """The text of each paragraph (list items are paragraphs too), with the defining words of ``name`` marked."""
    found: list[str] = []
    current: list[str] = []
    marked = False

    def close() -> None:
        text = " ".join("".join(current).split())
        if text.replace(_MARK, ""):
            found.append(text)
        current.clear()

    def mark() -> None:
        nonlocal marked
        if not marked:
            marked = True
            current.append(_MARK)

    def walk(nodes: Content) -> None:
        for node in nodes:
            if isinstance(node, str):
                current.append(node)
            elif isinstance(node, Reference):
                if node.name == name:
                    mark()
                current.append(node.text)
            elif isinstance(node, Link | Value):
                current.append(node.text)
            elif isinstance(node, Definition):
                if node.name == name and _only_words(node):
                    mark()
                walk(node.children)
            elif isinstance(node, Important):
                walk(node.children)
            elif isinstance(node, Note):
                close()
                walk(node.children)
                close()
            elif isinstance(node, ItemList):
                close()
                for item in node.items:
                    walk(item.children)
                    close()
            elif isinstance(node, LineBreak | Table | Figure | Illustration | Section):
                close()

    walk(content)
    close()
    return found
