"""``rulebook graph``: the term graph for other tools (Graphviz, Gephi, scripts)."""

from __future__ import annotations

from io import BytesIO
from typing import TYPE_CHECKING

from rulebook.characters import json_text, with_character_references
from rulebook.formats import GRAPH, unknown
from rulebook.graph import GraphNode
from rulebook.source import xml_text

if TYPE_CHECKING:
    import networkx as nx


def export_graph(graph: nx.MultiDiGraph[GraphNode], fmt: str) -> str:
    """A term graph (a book's, or a family's: :meth:`rulebook.family.Family.graph`) as ``json`` (node-link),
    ``dot`` or ``graphml`` (:data:`rulebook.formats.GRAPH`); nodes and edges sorted."""
    if fmt not in GRAPH:
        raise unknown(fmt, GRAPH)
    nodes = sorted(graph.nodes)
    edges = sorted(graph.edges(keys=True))
    if fmt == "json":
        data = {
            "nodes": [
                {"id": f"{kind}:{name}", "kind": kind, "name": name, **graph.nodes[(kind, name)]}
                for kind, name in nodes
            ],
            "edges": [{"source": f"{u[0]}:{u[1]}", "target": f"{v[0]}:{v[1]}", "kind": k} for u, v, k in edges],
        }
        return json_text(data, indent=1, sort_keys=True) + "\n"
    if fmt == "dot":
        lines = ["digraph rulebook {", "  rankdir=LR;"]
        for kind, name in nodes:
            shape = {"term": "ellipse", "section": "box", "figure": "note"}[kind]
            style = "" if graph.nodes[(kind, name)].get("defined", True) else ", style=dashed"
            lines.append(f'  "{kind}:{_dot(name)}" [label="{_dot(name)}", shape={shape}{style}];')
        for u, v, k in edges:
            lines.append(f'  "{u[0]}:{_dot(u[1])}" -> "{v[0]}:{_dot(v[1])}" [label="{k}"];')
        lines.append("}")
        return with_character_references("\n".join(lines) + "\n")  # Graphviz reads `&#x202e;` as the character
    import networkx as nx

    flat: nx.MultiDiGraph[str] = nx.MultiDiGraph()
    for kind, name in nodes:  # a Markdown heading can hold a character XML forbids: shown as its picture
        attributes = {k: xml_text(v) if isinstance(v, str) else v for k, v in graph.nodes[(kind, name)].items()}
        attributes = {k: v for k, v in attributes.items() if v is not None}
        flat.add_node(xml_text(f"{kind}:{name}"), kind=kind, name=xml_text(name), **attributes)
    for u, v, k in edges:
        flat.add_edge(xml_text(f"{u[0]}:{u[1]}"), xml_text(f"{v[0]}:{v[1]}"), key=k, kind=k)
    buffer = BytesIO()
    nx.write_graphml(flat, buffer)
    return with_character_references(buffer.getvalue().decode("utf-8"))


def _dot(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"')
