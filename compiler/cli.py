"""The ``rulebook`` command: a thin shell over the pipeline.

Exit status (every subcommand): 0 success; 1 problems found (lint errors, an
undefined term); 2 unreadable input, bad configuration or bad usage.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import traceback
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from compiler import __version__
from compiler.catalog import RULES, find_rule
from compiler.config import MAIN_BOOK, Config, ConfigError, load_config
from compiler.errors import UserError
from compiler.lint import baseline as baselines
from compiler.model import Book
from compiler.pipeline import ReadResult, build_term_graph, lint, read_book
from compiler.report import FORMATS, Report, exit_code, renderer
from compiler.report import text as text_report
from engine.rules import RulesError

EXIT_USAGE = 2


class UsageError(Exception):
    """Bad usage or configuration: reported in plain words with exit status 2."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    try:
        return int(args.run(args))
    except (
        UsageError,
        ConfigError,
        baselines.BaselineError,
        UserError,
        RulesError,
    ) as error:
        print(f"rulebook: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader went away (`rulebook ... | head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except Exception as error:
        if os.environ.get("RULEBOOK_DEBUG"):
            traceback.print_exc()
        print(
            f"rulebook: internal error: {type(error).__name__}: {error}\n"
            "This is a bug in the rulebook compiler; set RULEBOOK_DEBUG=1 to see the traceback.",
            file=sys.stderr,
        )
        return EXIT_USAGE


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulebook",
        description="Compile, lint and publish XML rulebooks.",
        epilog="Exit status: 0 success, 1 problems found, 2 unreadable input or bad usage.",
    )
    parser.add_argument("--version", action="version", version=f"rulebook {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    _add_build(commands)
    _add_serve(commands)
    _add_lint(commands)
    _add_explain(commands)
    _add_query(commands)
    _add_graph(commands)
    _add_compare(commands)
    _add_diff(commands)
    _add_terms(commands)
    _add_engine(commands)
    dtd = commands.add_parser("dtd", help="print the rulebook DTD the compiler validates against")
    dtd.set_defaults(run=_run_dtd)
    return parser


def _add_lint(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lint_parser = commands.add_parser(
        "lint",
        help="check the rulebook for broken references, links, duplicates and format errors",
        description="Check rulebook sources. Without FILE, lints the sources configured in "
        "[tool.rulebook] of pyproject.toml.",
        epilog="Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 unreadable input or bad usage.",
    )
    lint_parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="XML sources to check")
    lint_parser.add_argument("--format", choices=FORMATS, default="text", help="output format (default: text)")
    lint_parser.add_argument("--output", "-o", type=Path, help="write the report to this file instead of stdout")
    lint_parser.add_argument("--strict", action="store_true", help="fail on warnings as well as errors")
    lint_parser.add_argument("--baseline", type=Path, help="hide the known problems listed in this baseline file")
    lint_parser.add_argument("--no-baseline", action="store_true", help="ignore the configured baseline")
    lint_parser.add_argument(
        "--write-baseline", type=Path, metavar="FILE", help="record every current problem in FILE and exit 0"
    )
    lint_parser.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour text output")
    lint_parser.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    lint_parser.add_argument("--book", metavar="NAME", help="lint this book of the configuration (default: main)")
    lint_parser.set_defaults(run=_run_lint)


def _add_build(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    build = commands.add_parser(
        "build",
        help="compile the book: the website, rules.json and its schema",
        description="Compile the configured sources into the output folder: the website (built with "
        "mkdocs-material from mkdocs.yml), rules.json and rules.schema.json. Outputs are checked, then "
        "written atomically: a failed build keeps the last good site.",
        epilog="Exit status: 0 built, 1 built but --strict and lint errors, 2 unreadable sources or bad usage.",
    )
    build.add_argument("files", nargs="*", type=Path, metavar="FILE", help="XML sources (default: configured)")
    build.add_argument("--output", "-o", type=Path, help="output folder (default: [tool.rulebook] output, or site/)")
    build.add_argument("--strict", action="store_true", help="fail when the lint finds errors not in the baseline")
    build.add_argument("--data-only", action="store_true", help="write rules.json and its schema, not the site")
    build.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    build.add_argument("--book", metavar="NAME", help="build only this book of the configuration (default: every book)")
    build.set_defaults(run=_run_build)


def _add_serve(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = commands.add_parser(
        "serve",
        help="preview the site on localhost, rebuilding and reloading as the sources change",
        description="Build the site into a temporary folder and serve it on 127.0.0.1. Every change to the "
        "sources, site_templates/ or mkdocs.yml rebuilds it and reloads open pages.",
    )
    serve.add_argument("files", nargs="*", type=Path, metavar="FILE", help="XML sources (default: configured)")
    serve.add_argument("--port", type=int, default=8000, help="port to serve on (default: 8000; 0: any free port)")
    serve.set_defaults(run=_run_serve)


def _add_graph(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    graph = commands.add_parser("graph", help="export the term graph (json, dot for Graphviz, graphml for Gephi)")
    graph.add_argument("files", nargs="*", type=Path, metavar="FILE", help="XML sources (default: configured)")
    graph.add_argument("--format", choices=("json", "dot", "graphml"), default="json")
    graph.add_argument("--output", "-o", type=Path, help="write to this file instead of stdout")
    graph.set_defaults(run=_run_graph)


def _add_compare(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
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
    compare.add_argument("--language", default="fr", help="the translation's language (default: fr)")
    compare.add_argument(
        "--terms", type=Path, help="the terminology (default: terms.toml beside the translation, if there is one)"
    )
    compare.add_argument(
        "--waivers", type=Path, help="accepted findings (default: waivers.toml beside the translation, if there is one)"
    )
    compare.add_argument("--format", choices=("text", "json", "github", "sarif", "html"), default="text")
    compare.add_argument(
        "--fail-on",
        help="kinds of finding that make the exit status 1 (comma-separated names or codes; 'none' for never; "
        "default: the meaning, terminology, missing-text and lost-reference kinds)",
    )
    compare.set_defaults(run=_run_compare)


def _add_terms(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    terms = commands.add_parser("terms", help="the bilingual terminology: export it, or suggest missing entries")
    actions = terms.add_subparsers(title="terms commands", required=True, metavar="COMMAND")
    export = actions.add_parser("export", help="export the terminology as TBX (ISO 30042) or CSV")
    export.add_argument("terms", type=Path, help="the terminology file (terms.toml)")
    export.add_argument("--format", choices=("tbx", "csv"), default="tbx")
    export.add_argument("--output", "-o", type=Path, help="write to this file instead of stdout")
    export.set_defaults(run=_run_terms_export)
    suggest = actions.add_parser(
        "suggest", help="propose terms.toml entries for the terms the terminology lacks, from the aligned sentences"
    )
    suggest.add_argument("original", type=Path)
    suggest.add_argument("translation", type=Path)
    suggest.add_argument("--terms", type=Path, help="the terminology (default: terms.toml beside the translation)")
    suggest.add_argument("--language", default="fr")
    suggest.set_defaults(run=_run_terms_suggest)


def _add_diff(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    diff = commands.add_parser(
        "diff",
        help="what changed between two editions: sections, text, numbers, steps, terms",
        description="Compare two editions of a book (XML, Markdown or the plain-text export), matched by "
        "section titles and term names rather than position.",
    )
    diff.add_argument("old", type=Path)
    diff.add_argument("new", type=Path)
    diff.add_argument("--format", choices=("text", "json", "html"), default="text")
    diff.set_defaults(run=_run_diff)


def _add_engine(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    engine = commands.add_parser(
        "engine",
        help="the game's mechanics from the compiled rules.json: exact odds, turn structure",
        description="Compute with the compiled rule data (rules.json, checked against rules.schema.json "
        "beside it). Probabilities are exact fractions; every result names the rules it used.",
    )
    engine.add_argument("--rules", type=Path, help="rules.json to use (default: the build output's)")
    actions = engine.add_subparsers(title="engine commands", required=True, metavar="COMMAND")
    odds = actions.add_parser("odds", help="exact probabilities of tests, rolls and roll tables")
    kinds = odds.add_subparsers(title="what", required=True, metavar="KIND")
    test = kinds.add_parser("test", help="the chance to pass a test, such as leadership_test --value 7")
    test.add_argument("test", help="the test's term id (characteristic_test, leadership_test)")
    test.add_argument("--value", type=int, required=True, help="the tested value")
    test.add_argument("--reroll-failed", action="store_true", help="a failed test is rerolled (once)")
    test.set_defaults(odds="test")
    roll = kinds.add_parser("roll", help="the distribution of a roll, such as 2D6, D3 or 2D3")
    roll.add_argument("notation")
    roll.set_defaults(odds="roll")
    table = kinds.add_parser("table", help="the chance of each result of a roll table")
    table.add_argument("table", help="the roll table's id (see rules.json or the Tables page)")
    table.set_defaults(odds="table")
    for sub in (test, roll, table):
        sub.add_argument("--json", action="store_true", help="print JSON")
        sub.set_defaults(run=_run_engine_odds)
    modify = actions.add_parser("modify", help="apply characteristic modifiers in the book's order, step by step")
    modify.add_argument("--value", type=int, required=True, help="the characteristic's value before modifiers")
    modify.add_argument(
        "--mod",
        action="append",
        default=[],
        metavar="MODIFIER",
        help="set 3, *2, /2, +1 or -1, maybe with min N / max N",
    )
    modify.add_argument("--json", action="store_true", help="print JSON")
    modify.set_defaults(run=_run_engine_modify)
    army = actions.add_parser("army", help="check an army list (YAML or JSON) against the composition rules")
    army.add_argument("file", type=Path, help="the army list")
    army.add_argument("--json", action="store_true", help="print JSON")
    army.set_defaults(run=_run_engine_army)
    turns = actions.add_parser("turns", help="the game's turn structure")
    turns.add_argument("--json", action="store_true", help="print JSON")
    turns.set_defaults(run=_run_engine_turns)
    pregame = actions.add_parser(
        "pregame",
        help="walk the pre-game and deployment sequences, rolling on the book's tables",
        description="Walk the pre-game sequence of the rule data step by step, rolling where the rules roll "
        "(terrain, deployment type, secondary objective, who picks the zones, the first turn), with links to "
        "the site. The same --seed gives the same transcript; --interactive asks for each die instead.",
    )
    dice_source = pregame.add_mutually_exclusive_group()
    dice_source.add_argument("--seed", type=int, default=0, help="seed of the dice (default: 0)")
    dice_source.add_argument("--interactive", action="store_true", help="type in each die rolled")
    pregame.add_argument(
        "--first-to-finish", choices=("A", "B"), default="A", help="the player who finished deploying first"
    )
    pregame.add_argument(
        "--bonus", type=int, default=0, help="their bonus in the first-turn roll (the undeployed units number)"
    )
    pregame.add_argument("--board", metavar="WxD", help="the board's size when not the standard one (such as 36x48)")
    pregame.add_argument("--json", action="store_true", help="print JSON")
    pregame.set_defaults(run=_run_engine_pregame)
    attack = actions.add_parser(
        "attack",
        help="a chain of rolls (hit, injury, save, courage) as the exact distribution of points lost",
        description="Run attacks through the book's chain of rolls from the rule data (mechanics.rolls), with the "
        "values you give (--value accuracy=3 ...). Where the text reads a roll two ways, both are shown.",
    )
    attack.add_argument("--attacks", type=int, required=True, help="how many attacks (dice) are rolled")
    attack.add_argument(
        "--value", action="append", default=[], metavar="NAME=N", help="a value the rolls are against (repeat)"
    )
    attack.add_argument("--json", action="store_true", help="print JSON")
    attack.set_defaults(run=_run_engine_attack)


def _add_explain(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    explain = commands.add_parser("explain", help="show the documentation of a lint rule")
    explain.add_argument("rule", nargs="?", help="rule code (RB101) or name (dangling-reference)")
    explain.add_argument("--all", action="store_true", help="list every rule")
    explain.set_defaults(run=_run_explain)


def _add_query(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    query = commands.add_parser("query", help="show a term's definition, where it is defined and every use")
    query.add_argument("term", help="term name, such as line_of_sight")
    query.add_argument("files", nargs="*", type=Path, metavar="FILE", help="XML sources (default: configured)")
    query.add_argument("--format", choices=("text", "json"), default="text")
    query.set_defaults(run=_run_query)


def _sources(files: list[Path], config: Config) -> list[Path]:
    sources = files or list(config.sources)
    if not sources:
        raise UsageError("no sources: name FILEs, or set `sources` in [tool.rulebook] of pyproject.toml")
    return sources


def _progress(args: argparse.Namespace, message: str) -> None:
    if not getattr(args, "quiet", False) and sys.stderr.isatty():
        print(message, file=sys.stderr)


def _run_lint(args: argparse.Namespace) -> int:
    config = load_config()
    if args.book:
        config = config.book(args.book)
    sources = _sources(args.files, config)
    _progress(args, f"Checking {len(sources)} file{'s' if len(sources) != 1 else ''}…")
    result = lint(read_book(sources, config.root, linking=config.linking), config)
    if args.write_baseline:
        _write(args.write_baseline, baselines.serialise(result.diagnostics))
        print(f"Wrote {len(result.diagnostics)} problems to {args.write_baseline}.", file=sys.stderr)
        return 2 if any(d.severity.value == "fatal" for d in result.diagnostics) else 0
    report = Report(result.diagnostics, result.sources, result.files)
    baseline_path = None if args.no_baseline else (args.baseline or _existing(config.baseline))
    if baseline_path is not None:
        known = baselines.parse(_read(baseline_path), str(baseline_path))
        applied = baselines.apply(result.diagnostics, known)
        # Linting a few files (a pre-commit hook) leaves most entries unmatched: not stale.
        stale = applied.stale if not args.files or args.baseline else 0
        report = Report(applied.new, result.sources, result.files, applied.known, stale)
    if args.format == "text":
        output = text_report.render(report, color=args.output is None and text_report.use_color(args.color))
    else:
        output = renderer(args.format)(report)
    if args.output:
        _write(args.output, output)
    else:
        sys.stdout.write(output)
    return exit_code(report, strict=args.strict)


def _existing(path: Path | None) -> Path | None:
    """The configured baseline, if there is one on disk."""
    return path if path is not None and path.is_file() else None


def _read_sources(args: argparse.Namespace, config: Config) -> ReadResult | None:
    """The book, or None after printing why it cannot be read."""
    read = read_book(_sources(args.files, config), config.root, linking=config.linking)
    return None if _print_fatal(read) else read


def _print_fatal(read: ReadResult) -> bool:
    """Print why the sources cannot be read, if they cannot; True when they cannot."""
    fatal = [d for d in read.diagnostics if d.severity.value == "fatal"]
    for diagnostic in fatal:
        print(text_report.render_diagnostic(diagnostic, read.sources.get(diagnostic.span.path)), file=sys.stderr)
    return bool(fatal)


def _run_build(args: argparse.Namespace) -> int:
    config = load_config()
    base = args.output or config.output or config.root / "site"
    if args.files:
        # Sources named on the command line are one book; translations belong to the configured sources.
        books = [dataclasses.replace(config, translations={}, books={})]
    elif args.book:
        books = [config.book(args.book)]
    else:
        books = config.all_books()
    status = 0
    read_so_far: dict[str, ReadResult] = {}  # a later edition's "What changed" page reuses its previous book
    for book in books:
        folder = base if book.name == MAIN_BOOK else base / book.name
        if len(config.all_books()) > 1:
            _progress(args, f"Book `{book.name}`: {book.title}")
        status = max(status, _build_book(args, config, book, folder, read_so_far))
    return status


def _build_book(
    args: argparse.Namespace, config: Config, book: Config, folder: Path, read_so_far: dict[str, ReadResult]
) -> int:
    """Build one book of the configuration into its folder; the exit status for it."""
    from compiler.build import BackgroundData, build_book_site, compare_translations, compile_outputs, write_outputs

    _progress(args, "Reading the sources…")
    read = _read_sources(args, book)
    if read is None:
        print(f"rulebook: build of `{book.name}` failed; the last good outputs are kept.", file=sys.stderr)
        return 2
    read_so_far[book.name] = read
    result = lint(read, book)
    new = result.diagnostics
    if book.baseline and book.baseline.is_file() and not args.files:
        new = baselines.apply(new, baselines.parse(_read(book.baseline), str(book.baseline))).new
    errors = sum(d.severity.public == "error" for d in new)
    _progress(args, "Compiling the rule data…")
    translations = compare_translations(read, book)
    if args.data_only:
        written = write_outputs(compile_outputs(read, book, translations, result.terms), folder)
        _progress(args, f"Wrote {len(written)} files to {folder}.")
    else:
        terms = result.terms or build_term_graph(read.book)
        data = BackgroundData(read, terms, book, translations)  # forked: it shares what is read so far
        _progress(args, "Building the site with MkDocs…")
        site = build_book_site(
            read,
            result.diagnostics,
            terms,
            book,
            folder,
            rule_files=data.files,
            translations=translations,
            books=_other_books(config, book),
            changes=_changes(config, book, read, read_so_far) if not args.files else None,
        )
        for warning in site.warnings:
            print(f"rulebook: mkdocs: {warning}", file=sys.stderr)
        _progress(args, f"Built {site.pages} pages into {folder}.")
    if errors:
        print(f"rulebook: the lint found {errors} new errors in `{book.name}` (run `rulebook lint`).", file=sys.stderr)
    return 1 if errors and args.strict else 0


def _other_books(config: Config, book: Config) -> list[dict[str, str]]:
    """The project's other books, with their URLs from this book's site root."""
    up = "" if book.name == MAIN_BOOK else "../"
    return [
        {"title": other.title, "href": up + ("" if other.name == MAIN_BOOK else f"{other.name}/") or "./"}
        for other in config.all_books()
        if other.name != book.name
    ]


def _changes(
    config: Config, book: Config, read: ReadResult, read_so_far: dict[str, ReadResult]
) -> dict[str, Any] | None:
    """What changed since the edition this book follows (``changes_from``), for its site."""
    from compiler.diff import diff_books

    if book.changes_from is None:
        return None
    previous = config.book(book.changes_from)
    old = read_so_far.get(previous.name) or read_book(list(previous.sources), config.root, linking=previous.linking)
    if _print_fatal(old):
        return None
    return {"since": previous.title, "since_edition": previous.edition, **diff_books(old.book, read.book).as_json()}


def _run_serve(args: argparse.Namespace) -> int:
    from compiler.build import build_book_site, compare_translations, compile_outputs
    from compiler.serve import RELOAD_SCRIPT, serve

    config = load_config()
    sources = _sources(args.files, config)

    def build(folder: Path) -> bool:
        read = _read_sources(args, config)
        if read is None:
            print("rulebook: the sources cannot be read; still serving the last good site.", file=sys.stderr)
            return False
        translations = compare_translations(read, config)
        result = lint(read, config)
        output = compile_outputs(read, config, translations, result.terms)
        build_book_site(
            read,
            result.diagnostics,
            output.terms,
            config,
            folder,
            rule_files=lambda: output.files,
            translations=translations,
            live_reload=RELOAD_SCRIPT,
            changes=_changes(config, config, read, {}),
        )
        print("Site rebuilt.", file=sys.stderr)
        return True

    translation_files = [p for t in config.translations.values() for p in (t.source, t.terms) if p is not None]
    watch = [*sources, *translation_files, config.root / "site_templates", config.root / "mkdocs.yml"]
    return serve(build, watch, port=args.port)


def _run_graph(args: argparse.Namespace) -> int:
    from compiler.graph_export import export_graph

    config = load_config()
    read = _read_sources(args, config)
    if read is None:
        return 2
    text = export_graph(build_term_graph(read.book), args.format)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _read_books(sources: list[tuple[Path, str]]) -> list[Book] | None:
    """Each source as a book of its own, or None after printing why one cannot be read."""
    config = load_config()
    books = []
    for path, language in sources:
        read = read_book([path], config.root, language=language)
        if _print_fatal(read):
            return None
        books.append(read.book)
    return books


def _run_compare(args: argparse.Namespace) -> int:
    from compiler.report.comparison import run_compare
    from compiler.translate.command import CompareRequest, parse_fail_on

    fail_on = parse_fail_on(args.fail_on) if args.fail_on is not None else None
    request = CompareRequest(args.original, args.translation, args.language, args.terms, args.waivers)
    books = _read_books([(args.original, "en"), (args.translation, args.language)])
    if books is None:
        return 2
    color = text_report.use_color("auto")
    output, status = run_compare(request, books[0], books[1], args.format, color=color, fail_on=fail_on)
    sys.stdout.write(output)
    return status


def _run_terms_export(args: argparse.Namespace) -> int:
    from compiler.translate.terminology import export_csv, export_tbx, load_terminology

    entries = load_terminology(args.terms)
    config = load_config()
    names: dict[str, str] = {}
    if config.sources:
        read = read_book(list(config.sources), config.root)
        names = {d.name: d.name.replace("_", " ") for d in read.book.definitions}
    text = export_tbx(entries, names) if args.format == "tbx" else export_csv(entries, names)
    if args.output:
        _write(args.output, text)
    else:
        sys.stdout.write(text)
    return 0


def _run_terms_suggest(args: argparse.Namespace) -> int:
    from compiler.translate.command import CompareRequest, suggest_command

    books = _read_books([(args.original, "en"), (args.translation, args.language)])
    if books is None:
        return 2
    request = CompareRequest(args.original, args.translation, args.language, args.terms)
    sys.stdout.write(suggest_command(request, books[0], books[1]))
    return 0


def _run_diff(args: argparse.Namespace) -> int:
    from compiler.diff import diff_books, render_text

    books = _read_books([(args.old, "en"), (args.new, "en")])
    if books is None:
        return 2
    result = diff_books(books[0], books[1])
    if args.format == "html":
        from compiler.site.theme import Theme

        template = Theme.for_project(load_config().root).environment().get_template("diff.html.j2")
        sys.stdout.write(template.render(old=str(args.old), new=str(args.new), **result.as_json()))
        return 0
    _emit(args, result.as_json(), render_text(result))
    return 0


def _engine_rules(args: argparse.Namespace) -> Any:
    from engine.rules import load_rules

    config = load_config()
    return load_rules(args.rules or (config.output or config.root / "site") / "rules.json")


def _run_engine_odds(args: argparse.Namespace) -> int:
    from engine import odds

    rules = _engine_rules(args)
    if args.odds == "test":
        result = odds.odds_of_test(rules, args.test, args.value, reroll_failed=args.reroll_failed)
    elif args.odds == "roll":
        result = odds.roll_odds(rules, args.notation)
    else:
        result = odds.table_odds(rules, args.table)
    _emit(args, result.as_json(), odds.render_text(result))
    return 0


def _run_engine_modify(args: argparse.Namespace) -> int:
    from engine import modify

    trace = modify.apply_modifiers(_engine_rules(args), args.value, args.mod)
    _emit(args, trace, modify.render_text(trace))
    return 0


def _run_engine_army(args: argparse.Namespace) -> int:
    from engine import army

    report = army.check_army(_engine_rules(args), army.read_army(args.file))
    _emit(args, report.as_json(), army.render_text(report))
    return 0 if report.legal else 1


def _run_engine_pregame(args: argparse.Namespace) -> int:
    from engine import pregame

    dice = pregame.Dice(ask=_ask_die) if args.interactive else pregame.Dice(seed=args.seed)
    options = pregame.Options(first_to_finish=args.first_to_finish, bonus=args.bonus, board=args.board)
    events = pregame.pregame(_engine_rules(args), dice, options)
    _emit(args, {"events": [e.as_json() for e in events]}, pregame.render_text(events))
    return 0


def _ask_die(why: str, low: int, high: int) -> int:
    """Ask the players for a die on the terminal until they type a value it can show."""
    while True:
        print(f"Roll for {why} ({low}-{high}): ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline()
        if not answer:
            raise UsageError("no more rolls to read (end of input)")
        if answer.strip().isdigit() and low <= int(answer) <= high:
            return int(answer)
        print(f"  a die here shows {low} to {high}.", file=sys.stderr)


def _run_engine_attack(args: argparse.Namespace) -> int:
    from engine import attack

    values = {}
    for given in args.value:
        name, _, number = given.partition("=")
        if not name or not number.lstrip("-").isdigit():
            raise UsageError(f"--value takes NAME=N, such as accuracy=3 (not `{given}`)")
        values[name.strip()] = int(number)
    if args.attacks < 0:
        raise UsageError("--attacks must be 0 or more")
    result = attack.attack(_engine_rules(args), args.attacks, values)
    _emit(args, result.as_json(), attack.render_text(result))
    return 0


def _run_engine_turns(args: argparse.Namespace) -> int:
    from engine import turns

    structure = turns.turn_structure(_engine_rules(args))
    _emit(args, structure, turns.render_text(structure))
    return 0


def _emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """Print a result as JSON (``--json`` or ``--format json``) or as text."""
    if getattr(args, "json", False) or getattr(args, "format", "text") == "json":
        print(json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False))
    else:
        sys.stdout.write(text)


def _run_explain(args: argparse.Namespace) -> int:
    if args.all or not args.rule:
        width = max(len(r.name) for r in RULES)
        for rule in RULES:
            print(f"{rule.code}  {rule.name:<{width}}  {rule.severity.public:<7}  {rule.summary}")
        return 0
    found = find_rule(args.rule)
    if found is None:
        raise UsageError(f"no lint rule is called `{args.rule}` (see `rulebook explain --all`)")
    print(found.documentation, end="")
    print(f"\nDefault severity: {found.severity.public}.")
    return 0


def _run_query(args: argparse.Namespace) -> int:
    from compiler.query import query_term, render_json, render_text

    config = load_config()
    read = _read_sources(args, config)
    if read is None:
        return 2
    report = query_term(build_term_graph(read.book), args.term)
    sys.stdout.write(render_json(report) if args.format == "json" else render_text(report))
    return 0 if report.defined else 1


def _run_dtd(args: argparse.Namespace) -> int:
    from compiler.dtd import dtd_text

    sys.stdout.write(dtd_text())
    return 0


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise UsageError(f"cannot read {path}: {error.strerror or error}") from error


def _write(path: Path, text: str) -> None:
    from compiler.fileio import write_atomic

    try:
        write_atomic(path, text)
    except OSError as error:
        raise UsageError(f"cannot write {path}: {error.strerror or error}") from error
