"""Inline and block content as typed nodes: references stay links by id, never HTML."""

from __future__ import annotations

from rulebook.data.shapes import CellData, ItemData, Node
from rulebook.model import (
    Cell,
    Content,
    Definition,
    Figure,
    Illustration,
    Important,
    ItemList,
    LineBreak,
    Link,
    Mechanic,
    Note,
    Reference,
    Row,
    Section,
    Table,
    Value,
)


def content_json(content: Content) -> list[Node]:
    """The nodes of some content; neighbouring text is one node, and mechanics are left out."""
    nodes: list[Node] = []
    text: str | None = None
    for node in content:
        if isinstance(node, Mechanic):
            continue  # data, not text: published under "mechanics"
        if isinstance(node, str):
            text = node if text is None else text + node
            continue
        if text is not None:
            nodes.append({"type": "text", "text": text})
            text = None
        nodes.append(_node_json(node))
    if text is not None:
        nodes.append({"type": "text", "text": text})
    return nodes


def _node_json(node: object) -> Node:
    if isinstance(node, Reference):
        return {"type": "reference", "term": node.name, "text": node.text, "example": node.kind == "example"}
    if isinstance(node, Link):
        return {"type": "link", "to": node.to, "text": node.text}
    if isinstance(node, Value):
        return {"type": "value", "name": node.name, "text": node.text}
    if isinstance(node, Definition):
        return {"type": "definition", "term": node.name, "children": content_json(node.children)}
    if isinstance(node, Important):
        return {"type": "important", "children": content_json(node.children)}
    if isinstance(node, LineBreak):
        return {"type": "break"}
    if isinstance(node, Note):
        return {"type": "note", "title": node.title, "children": content_json(node.children)}
    if isinstance(node, Table):
        return {
            "type": "table",
            "title": node.title,
            "columns": _row_json(node.columns) if node.columns else None,
            "rows": [_row_json(row) for row in node.rows],
        }
    if isinstance(node, ItemList):
        items: list[ItemData] = [{"title": i.title, "children": content_json(i.children)} for i in node.items]
        return {"type": "list", "ordered": node.ordered, "items": items}
    if isinstance(node, Figure):
        return {"type": "figure", "id": node.id}
    if isinstance(node, Illustration):
        return {"type": "illustration", "images": [image.file for image in node.images]}
    if isinstance(node, Section):
        return {"type": "section", "id": node.id}
    raise TypeError(f"unknown node {type(node).__name__}")  # pragma: no cover


def _row_json(row: Row) -> list[CellData]:
    return [_cell_json(cell) for cell in row.cells]


def _cell_json(cell: Cell) -> CellData:
    return {"header": cell.header, "children": content_json(cell.children)}
