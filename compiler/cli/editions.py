"""``rulebook diff``: what changed between two editions of a book."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from compiler.cli.common import Commands, add_config_option, emit, project_of
from compiler.cli.translate import read_pair


def add_commands(commands: Commands) -> None:
    diff = commands.add_parser(
        "diff",
        help="what changed between two editions: sections, text, numbers, steps, terms",
        description="Compare two editions of a book (XML, Markdown or the plain-text export), matched by "
        "section titles and term names rather than position.",
    )
    diff.add_argument("old", type=Path)
    diff.add_argument("new", type=Path)
    diff.add_argument("--format", choices=("text", "json", "html"), default="text")
    add_config_option(diff)
    diff.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from compiler.diff import diff_books, render_text

    books = read_pair(args, args.old, args.new, "en")
    if books is None:
        return 2
    result = diff_books(*books)
    if args.format == "html":
        from compiler.site.theme import Theme

        template = Theme.for_project(project_of(args).root).environment().get_template("diff.html.j2")
        sys.stdout.write(template.render(old=str(args.old), new=str(args.new), **result.as_json()))
        return 0
    emit(args, result.as_json(), render_text(result))
    return 0
