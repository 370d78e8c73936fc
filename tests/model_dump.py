"""A document model as plain values, for comparing two readings of one book: places (sources, offsets) left
out, and white space in text folded (layout: XML keeps its indentation as text, Markdown cannot)."""

from __future__ import annotations

import re
from typing import Any

from rulebook.model import Document, Node

_PLACES = {"source", "offset", "attributes_offset"}


def dump_document(document: Document) -> dict[str, Any]:
    """The model's content and indexes as plain values."""
    return {
        "body": _content(document.body),
        "indexes": {
            name: [_node(n) for n in getattr(document, name)]
            for name in ("sections", "definitions", "references", "links", "figures", "values", "images", "mechanics")
        },
        "ids": [name for name, _ in document.ids],
        "annotated": [(_node(a.node), a.section_id, a.scope) for a in document.annotated],
    }


def _content(content: tuple[Node, ...] | tuple[Any, ...]) -> list[Any]:
    found: list[Any] = []
    for node in content:
        if isinstance(node, str):
            text = re.sub(r"\s+", " ", node)
            if found and isinstance(found[-1], str):
                found[-1] += text
            else:
                found.append(text)
        else:
            found.append(_node(node))
    return [t.strip() if isinstance(t, str) else t for t in found if not (isinstance(t, str) and not t.strip())]


def _node(node: Any) -> Any:
    if isinstance(node, tuple) and hasattr(node, "_fields"):
        fields: dict[str, Any] = {"type": type(node).__name__}
        for name in node._fields:
            if name in _PLACES:
                continue
            value = getattr(node, name)
            if isinstance(value, str):
                value = " ".join(value.split())
            elif hasattr(value, "_fields"):
                value = _node(value)
            elif isinstance(value, tuple) and name in ("children", "caption"):
                value = _content(value)
            elif isinstance(value, tuple):
                value = [_node(v) for v in value]
            fields[name] = value
        return fields
    return node
