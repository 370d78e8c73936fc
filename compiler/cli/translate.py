"""``rulebook compare`` and ``terms``: the translators' checks and their terminology."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from compiler.cli.common import Commands, add_config_option, emit, output_text, print_fatal, project_of

if TYPE_CHECKING:
    from compiler.model import Book

FAIL_ON = "numbers-differ,table-row,term-missing,term-forbidden,missing-section,lost-reference"


def add_commands(commands: Commands) -> None:
    compare = commands.add_parser(
        "compare",
        help="compare a translation with its original: coverage, missing sections, numbers that differ",
        description="Align the translation's sections with the original's and report where they disagree.",
        epilog="Exit status: 0 nothing to report (of the --fail-on kinds), 1 findings, 2 unreadable input.",
    )
    compare.add_argument("original", type=Path, help="the original (XML)")
    compare.add_argument("translation", type=Path, help="the translation (Markdown or XML)")
    compare.add_argument("--language", default="fr", help="the translation's language (default: fr)")
    compare.add_argument(
        "--terms", type=Path, help="the terminology (default: terms.toml beside the translation, if there is one)"
    )
    compare.add_argument(
        "--waivers", type=Path, help="accepted findings (default: waivers.toml beside the translation, if there is one)"
    )
    compare.add_argument("--format", choices=("text", "json", "html"), default="text")
    compare.add_argument(
        "--fail-on",
        default=FAIL_ON,
        help="finding kinds that make the exit status 1 (comma-separated; 'none' for never)",
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
    suggest = actions.add_parser("suggest", help="propose French terms for term ids the terminology lacks")
    suggest.add_argument("original", type=Path)
    suggest.add_argument("translation", type=Path)
    suggest.add_argument("--terms", type=Path, help="the terminology (default: terms.toml beside the translation)")
    suggest.add_argument("--language", default="fr")
    add_config_option(suggest)
    suggest.set_defaults(run=run_terms_suggest)


def read_pair(args: argparse.Namespace, first: Path, second: Path, language: str) -> tuple[Book, Book] | None:
    """Two sources, each a book of its own, or None after printing why one cannot be read."""
    from compiler import recipe

    project = project_of(args)
    books = []
    for path, lang in ((first, "en"), (second, language)):
        read = recipe.read_book([path], project.root, language=lang)
        if print_fatal(read):
            return None
        books.append(read.book)
    return books[0], books[1]


def run_compare(args: argparse.Namespace) -> int:
    from compiler.translate.compare import compare_books, load_waivers, render_text
    from compiler.translate.terminology import load_terminology

    books = read_pair(args, args.original, args.translation, args.language)
    if books is None:
        return 2
    terms_path = args.terms or args.translation.with_name("terms.toml")
    entries = load_terminology(terms_path) if args.terms or terms_path.is_file() else {}
    waivers_path = args.waivers or args.translation.with_name("waivers.toml")
    waivers = load_waivers(waivers_path) if args.waivers or waivers_path.is_file() else {}
    comparison = compare_books(books[0], books[1], translation_language=args.language, terms=entries, waivers=waivers)
    if args.format == "html":
        from compiler.site.theme import Theme
        from compiler.translate.compare import report_context

        template = Theme.for_project(project_of(args).root).environment().get_template("compare.html.j2")
        sys.stdout.write(template.render(**report_context(comparison, translation_language=args.language)))
    else:
        emit(args, comparison.as_json(), render_text(comparison))
    failing = {kind.strip() for kind in args.fail_on.split(",")} - {"none", ""}
    return 1 if any(f.kind in failing for f in comparison.findings) else 0


def run_terms_export(args: argparse.Namespace) -> int:
    from compiler import recipe
    from compiler.translate.terminology import export_csv, export_tbx, load_terminology

    entries = load_terminology(args.terms)
    project = project_of(args)
    names: dict[str, str] = {}
    if project.main.sources:
        read = recipe.read_configured(project, project.main)
        names = {d.name: d.name.replace("_", " ") for d in read.book.definitions}
    tbx = args.format == "tbx"
    output_text(args, export_tbx(entries, names, project.main.display_title) if tbx else export_csv(entries, names))
    return 0


def run_terms_suggest(args: argparse.Namespace) -> int:
    from compiler.translate.align import align_sections
    from compiler.translate.terminology import load_terminology, suggest

    books = read_pair(args, args.original, args.translation, args.language)
    if books is None:
        return 2
    terms_path = args.terms or args.translation.with_name("terms.toml")
    known = set(load_terminology(terms_path)) if terms_path.is_file() else set()
    units = [
        (list(p.original.terms), p.translation.text + " " + p.translation.title)
        for p in align_sections(books[0], books[1])
        if p.original is not None and p.translation is not None
    ]
    for term, candidates in suggest(units, known).items():
        print(f"{term}: {', '.join(candidates) if candidates else '(no candidate)'}")
    return 0
