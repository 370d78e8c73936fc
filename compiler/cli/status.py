"""``rulebook status``: what to translate again after an update of the original, and the record of what was."""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from rulebook import formats
from rulebook.cli.common import (
    Commands,
    UsageError,
    add_config_option,
    book_option,
    plural,
    print_fatal,
    project_of,
    write_stdout,
)

if TYPE_CHECKING:
    from rulebook.project import Translation
    from rulebook.translate.status import TranslationStatus


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    status = commands.add_parser(
        "status",
        help="which translated sections are out of date: the original changed since the edition they were made from",
        description="For each configured translation, the status of every section of the latest edition of its "
        "original (the book that follows it, `changes_from`): current, outdated (the original changed since the "
        "edition the translation was made from, `from_edition`: with what changed), missing, or orphaned (the "
        "translated section's original is gone). --mark records a section brought up to date.",
        epilog="Exit status: 0 reported (or marked), 1 more sections outdated than --max-outdated allows, "
        "2 unreadable input, bad usage, or a section that cannot be marked.",
    )
    status.add_argument("--book", type=book_option, help="the translations of this book only (default: every book's)")
    status.add_argument("--language", help="the translation into this language only (default: every one)")
    status.add_argument(
        "--format", choices=formats.STATUS, default="text", help="how to print the report (default: text)"
    )
    status.add_argument(
        "--max-outdated",
        type=_percent,
        metavar="PERCENT",
        help="exit 1 when more than this share of the original's sections (0 to 100) is outdated in a translation "
        "(0: any outdated section fails), for CI",
    )
    status.add_argument(
        "--mark",
        action="append",
        default=[],
        metavar="SECTION",
        help="record SECTION (its title or id in the latest edition) as translated from the latest edition, in the "
        "translation's status.toml (repeat for more); nothing is reported",
    )
    status.add_argument(
        "--mark-all",
        action="store_true",
        help="record every outdated or new section as translated from the latest edition",
    )
    add_config_option(status)
    status.set_defaults(run=run_status)


def _percent(value: str) -> float:
    """A share from 0 to 100 in ASCII digits (``12.5``, ``12.5%``); float() also reads `5_0`, `nan`, `1e1` and other
    scripts' digits."""
    written = _PERCENT.fullmatch(value)
    share = float(written.group(1)) if written else -1.0
    if not 0 <= share <= 100:
        raise argparse.ArgumentTypeError(f"{value!r} is no share from 0 to 100 (a percentage)")
    return share


_PERCENT = re.compile(r"(\d+(?:\.\d+)?)%?", re.ASCII)


def run_status(args: argparse.Namespace) -> int:
    from rulebook.recipe import commands
    from rulebook.report import text as text_report
    from rulebook.report.status import render_status
    from rulebook.site.theme import Theme
    from rulebook.stage_values import ReadResult

    project = project_of(args)
    marking = bool(args.mark) or args.mark_all
    if marking and args.max_outdated is not None:
        raise UsageError("--mark records what was translated: check the share outdated in another run")
    found = commands.status(project, book=args.book, language=args.language)
    if isinstance(found, ReadResult):
        print_fatal(found)
        return 2
    if marking:
        return _mark(args, found)
    statuses = [status for _, status in found]
    theme = Theme.for_project(project.root) if args.format == "html" else None
    color = text_report.use_color("auto")
    write_stdout(render_status(statuses, args.format, color=color, theme=theme))
    return _exit_status(statuses, args.max_outdated)


def _exit_status(statuses: Sequence[TranslationStatus], limit: float | None) -> int:
    """1 when a translation has more of its sections outdated than ``limit`` percent allows, else 0."""
    from rulebook.translate.status import OUTDATED

    if limit is None:
        return 0
    over = [s for s in statuses if s.share(OUTDATED) * 100 > limit]
    for status in over:
        print(
            f"rulebook: the `{status.language}` translation has {status.share(OUTDATED):.0%} of its sections "
            f"outdated ({status.count(OUTDATED)} of {status.total}), more than the {limit:g}% allowed",
            file=sys.stderr,
        )
    return 1 if over else 0


def _mark(args: argparse.Namespace, found: Sequence[tuple[Translation, TranslationStatus]]) -> int:
    from rulebook.recipe import commands
    from rulebook.report.escaping import terminal_message  # a title is the source's: it may hold ESC or U+202E

    if len(found) > 1 and args.mark:
        languages = ", ".join(sorted({t.language for t, _ in found}))
        raise UsageError(f"several translations are configured ({languages}): name the one to mark with --language")
    project = project_of(args)
    for translation, status in found:
        chosen = commands.mark(project, translation, status, args.mark, every=args.mark_all)
        titles = ", ".join(f"`{s.title}`" for s in chosen)
        if chosen:
            marked = (
                f"Marked {plural(len(chosen), 'section')} of the `{translation.language}` translation as translated "
                f"from `{status.latest}`, in {translation.status_file.name}: {titles}."
            )
            print(terminal_message(marked), file=sys.stderr)
        else:
            print(f"Nothing to mark in the `{translation.language}` translation: it is current.", file=sys.stderr)
    return 0
