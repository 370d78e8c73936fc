"""``rulebook graph`` and ``query``: the term graph, exported or asked about one term."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook import formats
from rulebook.cli.common import (
    Commands,
    add_config_option,
    book_option,
    output_option,
    output_text,
    print_fatal,
    project_of,
    write_stdout,
)

if TYPE_CHECKING:
    from rulebook.family import Family


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    graph = commands.add_parser("graph", help="export the term graph (json, dot for Graphviz, graphml for Gephi)")
    graph.add_argument("files", nargs="*", default=[], type=Path, metavar="FILE", help="sources (default: configured)")
    graph.add_argument("--format", choices=formats.GRAPH, default="json", help="how to write the graph (default: json)")
    graph.add_argument("--output", "-o", type=output_option, help="write to this file instead of stdout (- for stdout)")
    graph.add_argument("--book", type=book_option, metavar="NAME", help="the book of the configuration (default: main)")
    add_config_option(graph)
    graph.set_defaults(run=run_graph)

    query = commands.add_parser("query", help="show a term's definition, where it is defined and every use")
    query.add_argument("term", help="term name, such as sight_line")
    query.add_argument("files", nargs="*", default=[], type=Path, metavar="FILE", help="sources (default: configured)")
    query.add_argument(
        "--format", choices=formats.QUERY, default="text", help="how to print the answer (default: text)"
    )
    query.add_argument("--book", type=book_option, metavar="NAME", help="the book of the configuration (default: main)")
    add_config_option(query)
    query.set_defaults(run=run_query)


def _terms(args: argparse.Namespace) -> tuple[Family, str] | None:
    """The term graphs of the book and its family, with the book's name; or None after printing why they cannot
    be read."""
    from rulebook.recipe import commands
    from rulebook.stage_values import ReadResult

    found = commands.term_graph(project_of(args), args.book, tuple(args.files))
    if isinstance(found, ReadResult):
        print_fatal(found)
        return None
    return found


def run_graph(args: argparse.Namespace) -> int:
    from rulebook.graph_export import export_graph

    found = _terms(args)
    if found is None:
        return 2
    family, book = found
    output_text(args, export_graph(family.graph(book), args.format))
    return 0


def run_query(args: argparse.Namespace) -> int:
    from rulebook.characters import escaped_in_json
    from rulebook.query import query_family_term, render_term_report
    from rulebook.report.escaping import visible_in_text

    found = _terms(args)
    if found is None:
        return 2
    report = query_family_term(*found, args.term)
    rendered = render_term_report(report, args.format)
    # The sources' text with control characters as pictures (␛, ␇; U+202E as �), as a lint report shows it: a
    # heading holding `ESC ]0;...` or `ESC [2J` must not retitle or clear the reader's terminal. JSON escapes them.
    write_stdout(visible_in_text(rendered) if args.format == "text" else escaped_in_json(rendered))
    return 0 if report.defined else 1
