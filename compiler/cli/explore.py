"""``rulebook graph`` and ``query``: the term graph, exported or asked about one term."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook import formats
from rulebook.cli.common import Commands, add_config_option, output_text, print_fatal, project_of, write_stdout

if TYPE_CHECKING:
    from rulebook.graph import TermGraph


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    graph = commands.add_parser("graph", help="export the term graph (json, dot for Graphviz, graphml for Gephi)")
    graph.add_argument("files", nargs="*", default=[], type=Path, metavar="FILE", help="sources (default: configured)")
    graph.add_argument("--format", choices=formats.GRAPH, default="json")
    graph.add_argument("--output", "-o", type=Path, help="write to this file instead of stdout")
    graph.add_argument("--book", metavar="NAME", help="the book of the configuration (default: main)")
    add_config_option(graph)
    graph.set_defaults(run=run_graph)

    query = commands.add_parser("query", help="show a term's definition, where it is defined and every use")
    query.add_argument("term", help="term name, such as sight_line")
    query.add_argument("files", nargs="*", default=[], type=Path, metavar="FILE", help="sources (default: configured)")
    query.add_argument("--format", choices=formats.QUERY, default="text")
    query.add_argument("--book", metavar="NAME", help="the book of the configuration (default: main)")
    add_config_option(query)
    query.set_defaults(run=run_query)


def _terms(args: argparse.Namespace) -> TermGraph | None:
    """The term graph of the sources, or None after printing why they cannot be read."""
    from rulebook.recipe import commands
    from rulebook.stage_values import ReadResult

    terms = commands.term_graph(project_of(args), args.book, tuple(args.files))
    if isinstance(terms, ReadResult):
        print_fatal(terms)
        return None
    return terms


def run_graph(args: argparse.Namespace) -> int:
    from rulebook.graph_export import export_graph

    terms = _terms(args)
    if terms is None:
        return 2
    output_text(args, export_graph(terms, args.format))
    return 0


def run_query(args: argparse.Namespace) -> int:
    from rulebook.query import query_term, render_term_report

    terms = _terms(args)
    if terms is None:
        return 2
    report = query_term(terms, args.term)
    write_stdout(render_term_report(report, args.format))
    return 0 if report.defined else 1
