"""``rulebook compare`` and ``terms``: the translators' checks and their terminology."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook import formats
from rulebook.cli.common import (
    Commands,
    add_config_option,
    output_option,
    output_text,
    print_fatal,
    project_of,
    write_stdout,
)

if TYPE_CHECKING:
    from rulebook.project import Translation
    from rulebook.translate.compare import Comparison


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    compare = commands.add_parser(
        "compare",
        help="compare a translation with its original: what is missing, what says otherwise, what the conversion broke",
        description="Align the translation's sections and sentences with the original's and report where they "
        "disagree, each finding placed in both texts.",
        epilog="Exit status: 0 nothing to report (of the --fail-on kinds), 1 findings, 2 unreadable input, "
        "an unknown kind, or files that are not in the languages given.",
    )
    compare.add_argument("original", type=Path, help="the original (XML or Markdown)")
    compare.add_argument("translation", type=Path, help="the translation (Markdown or XML)")
    _add_language_options(compare)
    compare.add_argument(
        "--terms", type=Path, help="the terminology (default: terms.toml beside the translation, if there is one)"
    )
    compare.add_argument(
        "--waivers", type=Path, help="accepted findings (default: waivers.toml beside the translation, if there is one)"
    )
    compare.add_argument(
        "--format", choices=formats.COMPARE, default="text", help="how to print the findings (default: text)"
    )
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
    export.add_argument("--format", choices=formats.TERMS_EXPORT, default="tbx", help="the file format (default: tbx)")
    export.add_argument(
        "--language",
        type=_language_code,
        help="the terminology's language, by code (default: that of the translation the configuration gives it "
        "to, else of the project's only translation)",
    )
    export.add_argument(
        "--output", "-o", type=output_option, help="write to this file instead of stdout (- for stdout)"
    )
    add_config_option(export)
    export.set_defaults(run=run_terms_export)
    suggest = actions.add_parser(
        "suggest", help="propose terms.toml entries for the terms the terminology lacks, from the aligned sentences"
    )
    suggest.add_argument("original", type=Path, help="the original (XML or Markdown)")
    suggest.add_argument("translation", type=Path, help="the translation (Markdown or XML)")
    suggest.add_argument("--terms", type=Path, help="the terminology (default: terms.toml beside the translation)")
    _add_language_options(suggest)
    add_config_option(suggest)
    suggest.set_defaults(run=run_terms_suggest)


def _language_code(text: str) -> str:
    """A language code as the configuration takes one (``fr``, ``pt-BR``): it names the export's columns and its
    TBX's language (``--language ../x`` was written there, and one holding ESC stopped the TBX export with an
    internal error and reached the terminal raw in the CSV's header)."""
    from rulebook.errors import quoted
    from rulebook.project import LANGUAGE

    if not LANGUAGE.fullmatch(text):
        raise argparse.ArgumentTypeError(f"a language code such as `fr` or `pt-BR`, not {quoted(text)}")
    return text


def _add_language_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--language",
        help="the translation's language: a code the compiler ships (de, en, es, fr, it, pl) or one a language "
        "file describes (default: the language the configuration gives the file, else its only translation's)",
    )
    command.add_argument(
        "--language-file",
        type=Path,
        metavar="FILE",
        help="the project's file for that language: one not shipped, or words over a shipped one (default: the "
        "`language_file` the configuration gives a translation into that language)",
    )


def run_compare(args: argparse.Namespace) -> int:
    from rulebook.recipe import commands
    from rulebook.report import text as text_report
    from rulebook.report.comparison import render_comparison
    from rulebook.site.theme import Theme
    from rulebook.stage_values import ReadResult
    from rulebook.translate.command import parse_fail_on

    fail_on = parse_fail_on(args.fail_on) if args.fail_on is not None else None
    project = project_of(args)
    translation = commands.translation_of(
        project,
        args.translation,
        args.language,
        terms=args.terms,
        waivers=args.waivers,
        language_file=args.language_file,
    )
    compared = commands.compare(project, args.original, translation, fail_on=fail_on)
    if isinstance(compared, ReadResult):
        print_fatal(compared)
        return 2
    comparison, status = compared
    if args.waive:
        return _waive(args, translation, comparison)
    color = text_report.use_color("auto")
    theme = Theme.for_project(project.root)
    write_stdout(render_comparison(comparison, args.format, language=translation.language, color=color, theme=theme))
    return status


def _waive(args: argparse.Namespace, translation: Translation, comparison: Comparison) -> int:
    """``--waive``: the findings named added to the waivers file, written atomically where a waivers file may be."""
    from rulebook.fileio import shown_path, write_report_file
    from rulebook.project import Input
    from rulebook.recipe import commands
    from rulebook.recipe.kept import kept_files
    from rulebook.translate.waivers import is_waivers_file

    project = project_of(args)
    path, text, count = commands.waive(project, translation, comparison, args.waive, args.reason)
    book = project.book_of(args.original)
    own = Input(path, "waivers", book.name if book else None, translation.language)
    protected, read = kept_files(project, path, writing=own)  # a terminology named as `--waivers` stays one
    target = write_report_file(
        path, text, root=project.root, protected=protected, ours=is_waivers_file, kind="waivers file", read=read
    )
    write_stdout(f"{count} finding{'s' if count != 1 else ''} waived in {shown_path(target, project.root)}\n")
    return 0


def run_terms_export(args: argparse.Namespace) -> int:
    from rulebook.recipe import commands
    from rulebook.translate.terminology import export_csv, export_tbx

    project = project_of(args)
    entries, names = commands.terminology(project, args.terms)
    tbx = args.format == "tbx"
    title = project.main.display_title
    language = args.language or commands.terminology_language(project, args.terms)
    text = export_tbx(entries, names, title, language) if tbx else export_csv(entries, names, language)
    output_text(args, text)
    return 0


def run_terms_suggest(args: argparse.Namespace) -> int:
    from rulebook.recipe import commands
    from rulebook.stage_values import ReadResult
    from rulebook.translate.suggestions import render_suggestions

    project = project_of(args)
    translation = commands.translation_of(
        project, args.translation, args.language, terms=args.terms, language_file=args.language_file
    )
    suggestions = commands.suggest(project, args.original, translation)
    if isinstance(suggestions, ReadResult):
        print_fatal(suggestions)
        return 2
    write_stdout(render_suggestions(suggestions))
    return 0
