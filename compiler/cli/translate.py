"""``rulebook compare`` and ``terms``: the translators' checks and their terminology."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.cli.common import (
    Commands,
    UsageError,
    add_config_option,
    output_text,
    print_fatal,
    project_of,
    write_stdout,
)

if TYPE_CHECKING:
    from rulebook.model import Book
    from rulebook.translate.command import CompareRequest


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    compare = commands.add_parser(
        "compare",
        help="compare a translation with its original: what is missing, what says otherwise, what the conversion broke",
        description="Align the translation's sections and sentences with the original's and report where they "
        "disagree, each finding placed in both texts.",
        epilog="Exit status: 0 nothing to report (of the --fail-on kinds), 1 findings, 2 unreadable input, "
        "an unknown kind, or files that are not in the languages given.",
    )
    compare.add_argument("original", type=Path, help="the original (XML)")
    compare.add_argument("translation", type=Path, help="the translation (Markdown or XML)")
    _add_language_options(compare)
    compare.add_argument(
        "--terms", type=Path, help="the terminology (default: terms.toml beside the translation, if there is one)"
    )
    compare.add_argument(
        "--waivers", type=Path, help="accepted findings (default: waivers.toml beside the translation, if there is one)"
    )
    compare.add_argument("--format", choices=("text", "json", "github", "sarif", "html"), default="text")
    compare.add_argument(
        "--waive",
        action="append",
        metavar="FINGERPRINT",
        help="accept a finding: add it to the waivers file (--waivers, default waivers.toml beside the "
        "translation) and report nothing; repeat for several; the first 6 characters of a fingerprint suffice",
    )
    compare.add_argument("--reason", help="why the findings --waive accepts are accepted (written in the file)")
    compare.add_argument(
        "--fail-on",
        help="kinds of finding that make the exit status 1 (comma-separated names or codes; 'none' for never; "
        "default: the meaning, terminology, missing-text and lost-reference kinds)",
    )
    add_config_option(compare)
    compare.set_defaults(run=run_compare)

    terms = commands.add_parser("terms", help="the bilingual terminology: export it, or suggest missing entries")
    actions = terms.add_subparsers(title="terms commands", required=True, metavar="COMMAND")
    export = actions.add_parser("export", help="export the terminology as TBX (ISO 30042) or CSV")
    export.add_argument("terms", type=Path, help="the terminology file (terms.toml)")
    export.add_argument("--format", choices=("tbx", "csv"), default="tbx")
    export.add_argument("--output", "-o", type=Path, help="write to this file instead of stdout")
    add_config_option(export)
    export.set_defaults(run=run_terms_export)
    suggest = actions.add_parser(
        "suggest", help="propose terms.toml entries for the terms the terminology lacks, from the aligned sentences"
    )
    suggest.add_argument("original", type=Path)
    suggest.add_argument("translation", type=Path)
    suggest.add_argument("--terms", type=Path, help="the terminology (default: terms.toml beside the translation)")
    _add_language_options(suggest)
    add_config_option(suggest)
    suggest.set_defaults(run=run_terms_suggest)


def _add_language_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--language",
        default="fr",
        help="the translation's language: a code the compiler ships (de, en, es, fr, it, pl) or one a language "
        "file describes (default: fr)",
    )
    command.add_argument(
        "--language-file",
        type=Path,
        metavar="FILE",
        help="the project's file for that language: one not shipped, or words over a shipped one (default: the "
        "`language_file` the configuration gives a translation into that language)",
    )


def language_file(args: argparse.Namespace) -> Path | None:
    """The language file a comparison reads: ``--language-file``, else the one the configuration gives."""
    if args.language_file is not None:
        return Path(args.language_file)
    project = project_of(args)
    configured = [t for book in project.books for t in book.translations if t.language == args.language]
    return next((t.language_file for t in configured if t.language_file is not None), None)


def read_pair(args: argparse.Namespace, first: Path, second: Path, language: str) -> tuple[Book, Book] | None:
    """Two sources, each a book of its own, or None after printing why one cannot be read."""
    from rulebook import recipe

    project = project_of(args)
    books = []
    for path, lang in ((first, "en"), (second, language)):
        read = recipe.read_book([path], project.root, language=lang)
        if print_fatal(read):
            return None
        books.append(read.book)
    return books[0], books[1]


def run_compare(args: argparse.Namespace) -> int:
    from rulebook.report import text as text_report
    from rulebook.report.comparison import run_compare
    from rulebook.translate.command import CompareRequest, parse_fail_on

    fail_on = parse_fail_on(args.fail_on) if args.fail_on is not None else None
    root = project_of(args).root
    request = CompareRequest(
        args.original,
        args.translation,
        args.language,
        args.terms,
        args.waivers,
        root=root,
        language_file=language_file(args),
    )
    books = read_pair(args, args.original, args.translation, args.language)
    if books is None:
        return 2
    if args.waive:
        return _waive(args, request, books)
    from rulebook.site.theme import Theme

    color = text_report.use_color("auto")
    theme = Theme.for_project(project_of(args).root)
    output, status = run_compare(request, books[0], books[1], args.format, color=color, fail_on=fail_on, theme=theme)
    write_stdout(output)
    return status


def _waive(args: argparse.Namespace, request: CompareRequest, books: tuple[Book, Book]) -> int:
    """``--waive``: the findings named added to the waivers file, written atomically where a waivers file may be."""
    from rulebook.fileio import check_report_file, shown_path, write_atomic
    from rulebook.translate.command import waive_command
    from rulebook.translate.waivers import is_waivers_file

    path, text, count = waive_command(request, books[0], books[1], args.waive, args.reason)
    root = project_of(args).root
    target = check_report_file(path, root=root, protected=(), ours=is_waivers_file, kind="waivers file")
    try:
        write_atomic(target, text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {(error.strerror or str(error)).lower()}") from error
    write_stdout(f"{count} finding{'s' if count != 1 else ''} waived in {shown_path(target, root)}\n")
    return 0


def run_terms_export(args: argparse.Namespace) -> int:
    from rulebook import recipe
    from rulebook.translate.terminology import export_csv, export_tbx, load_terminology

    entries = load_terminology(args.terms, root=project_of(args).root)
    project = project_of(args)
    names: dict[str, str] = {}
    if project.main.sources:
        read = recipe.read_configured(project, project.main)
        names = {d.name: d.name.replace("_", " ") for d in read.book.definitions}
    tbx = args.format == "tbx"
    output_text(args, export_tbx(entries, names, project.main.display_title) if tbx else export_csv(entries, names))
    return 0


def run_terms_suggest(args: argparse.Namespace) -> int:
    from rulebook.translate.command import CompareRequest, suggest_command

    books = read_pair(args, args.original, args.translation, args.language)
    if books is None:
        return 2
    request = CompareRequest(
        args.original,
        args.translation,
        args.language,
        args.terms,
        root=project_of(args).root,
        language_file=language_file(args),
    )
    write_stdout(suggest_command(request, books[0], books[1]))
    return 0
