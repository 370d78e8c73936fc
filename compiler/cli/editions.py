"""``rulebook diff``: what changed between two editions of a book."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from rulebook import formats
from rulebook.cli.common import Commands, add_config_option, print_fatal, project_of, write_stdout


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    diff = commands.add_parser(
        "diff",
        help="what changed between two editions: sections, text, numbers, steps, terms",
        description="Compare two editions of a book (XML, Markdown or the plain-text export), matched by "
        "section titles and term names rather than position. Each change is a finding with a code "
        "(RB701-RB711, see `rulebook explain`) placed in the new edition and in the old one.",
        epilog="Exit status: 0 whatever changed (a diff reports, it does not judge), 2 unreadable input.",
    )
    diff.add_argument("old", type=Path, help="the earlier edition")
    diff.add_argument("new", type=Path, help="the later edition")
    diff.add_argument(
        "--format",
        choices=formats.DIFF,
        default="text",
        help="text: each change placed in both editions (default); summary: one line per change; "
        "json, github, sarif: the lint's formats; html: a page",
    )
    add_config_option(diff)
    diff.set_defaults(run=run_diff)


def run_diff(args: argparse.Namespace) -> int:
    from rulebook.recipe import commands
    from rulebook.report import text as text_report
    from rulebook.report.editions import render_diff
    from rulebook.site.theme import Theme
    from rulebook.stage_values import ReadResult

    project = project_of(args)
    diff = commands.diff(project, args.old, args.new)
    if isinstance(diff, ReadResult):
        print_fatal(diff)
        return 2
    theme = Theme.for_project(project.root) if args.format == "html" else None
    color = text_report.use_color("auto")
    write_stdout(render_diff(diff, args.format, old=str(args.old), new=str(args.new), color=color, theme=theme))
    return 0
