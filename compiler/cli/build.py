"""``rulebook build`` and ``serve``: the same recipe, published into the output folder or served live."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.cli.common import Commands, Progress, add_config_option, book_option, plural, project_of
from rulebook.engine.limits import read_bounded
from rulebook.errors import QUOTE_LIMIT, quoted, shorten

if TYPE_CHECKING:
    from rulebook import build_values
    from rulebook.project import Project


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    build = commands.add_parser(
        "build",
        help="compile the book: the website, its PDF, rules.json and its schema",
        description="Compile the configured books into the output folder: the website (built with "
        "mkdocs-material, or with Zensical), the PDF of each book and translation (typeset with Typst), rules.json "
        "and rules.schema.json for each book. Outputs are checked, then "
        "published in one step: a failed build keeps the last good site. The output folder must be one "
        "this tool made (it holds a .rulebook-site file) or empty.",
        epilog="Exit status: 0 built, 1 --strict and lint errors (nothing published), 2 unreadable sources, unsafe "
        "names or bad usage (nothing published).",
    )
    build.add_argument("files", nargs="*", default=[], type=Path, metavar="FILE", help="sources (default: configured)")
    build.add_argument("--output", "-o", type=Path, help="output folder (default: the configured output, or site/)")
    build.add_argument(
        "--strict",
        action="store_true",
        help="publish nothing when the lint finds errors not in the baseline (the last good site stays; exit 1)",
    )
    only = build.add_mutually_exclusive_group()
    only.add_argument("--data-only", action="store_true", help="write rules.json and its schema, not the site")
    only.add_argument(
        "--pdf-only", action="store_true", help="write each book's PDF into the published site, nothing else"
    )
    only.add_argument(
        "--no-pdf",
        action="store_true",
        help="make no PDF (default: one per book and translation, unless the "
        "configuration's [pdf] table says `build = false`)",
    )
    build.add_argument(
        "--drafts", action="store_true", help="the editor's view: lint marks, lint and translation reports, term graph"
    )
    build.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    build.add_argument(
        "--book",
        type=book_option,
        metavar="NAME",
        help="build only this book of the configuration (default: every book)",
    )
    build.add_argument(
        "--offline",
        action="store_true",
        help="a site to open from disk (site/index.html): pages as files, search included (default: `offline` "
        "in the configuration)",
    )
    add_generator_option(build)
    add_config_option(build)
    build.set_defaults(run=run_build)

    serve = commands.add_parser(
        "serve",
        help="preview the site on localhost, rebuilding and reloading as the sources change",
        description="Build the site into a temporary folder and serve it on 127.0.0.1 (--host: another address). "
        "Every change to the sources, site_templates/ or mkdocs.yml rebuilds it and reloads open pages; the lint's "
        "findings an edit brings are printed here.",
    )
    serve.add_argument("files", nargs="*", default=[], type=Path, metavar="FILE", help="sources (default: configured)")
    serve.add_argument(
        "--port", type=_port, default=8000, help="port to serve on, 0 to 65535 (default: 8000; 0: any free port)"
    )
    serve.add_argument(
        "--host",
        default="127.0.0.1",
        help="the address to listen on (default: 127.0.0.1, this machine alone; 0.0.0.0: every network, so that "
        "a phone can open the preview; it has no password, a warning says so)",
    )
    serve.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    add_generator_option(serve)
    add_config_option(serve)
    serve.set_defaults(run=run_serve)


def add_generator_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--generator",
        choices=("mkdocs", "zensical"),  # project.GENERATORS, not imported: the parser stays cheap to build
        help="what builds the website: mkdocs (mkdocs-material) or zensical, its successor, installed with "
        "pip install 'rulebook-compiler[zensical]' (default: `generator` in the configuration, else mkdocs)",
    )


def build_options(args: argparse.Namespace, project: Project) -> build_values.BuildOptions:
    from rulebook import build_values

    return build_values.BuildOptions(
        output=args.output or project.site_folder,
        books=(args.book,) if args.book else None,
        files=tuple(args.files),
        data_only=args.data_only,
        pdf=project.print.build and not (args.no_pdf or args.data_only or args.drafts),
        pdf_only=args.pdf_only,
        drafts=args.drafts,
        generator=args.generator or project.generator,
        offline=args.offline or project.offline,
        strict=args.strict,
    )


def run_build(args: argparse.Namespace) -> int:
    from rulebook import recipe

    project = project_of(args)
    progress = Progress(args.quiet)
    options = build_options(args, project)
    result = recipe.build(project, options, progress=progress)
    status = report_build(result, progress)
    if result.published:
        _tell_the_engine(result)
    if args.drafts and result.published:
        print(
            f"rulebook: warning: {_shown(result.output)} is the editor's view (--drafts), with the lint's marks and "
            "the editors' pages: do not publish it (build without --drafts for readers)",
            file=sys.stderr,
        )
    return status


def _tell_the_engine(result: build_values.BuildResult) -> None:
    """Let the engine's cache know that the ``rules.json`` just published follow its schema (the build checked
    each text the engine will read): the first question after a build is as quick as the next (docs/engine.md).
    A cache the engine refuses (a pipe or a link in its place) is said in a warning: the site is published."""
    from rulebook.engine.errors import RulesError
    from rulebook.engine.schema import engine_schema, remember_valid

    try:
        schema = engine_schema()
        for book in result.books:
            if book.rule_data:
                remember_valid(book.rule_data.encode("utf-8"), schema)
    except RulesError as error:
        print(f"rulebook: warning: {error}", file=sys.stderr)
    except MemoryError:  # the site is published whole: only the engine's first question will be slower
        from rulebook.errors import OUT_OF_MEMORY

        print(
            f"rulebook: warning: the engine's cache could not note the new rules.json (out of memory: {OUT_OF_MEMORY});"
            " the site is published, and the engine checks the data at its first question",
            file=sys.stderr,
        )


def report_build(result: build_values.BuildResult, progress: Progress, *, served: bool = False) -> int:
    """Print what a build gave (warnings, refusals, the final line); its exit status.

    ``served``: the build is ``serve``'s, which says itself what it keeps serving (its output
    folder is its own temporary one, no place to name)."""
    from rulebook.report import text as text_report
    from rulebook.report.escaping import terminal_message

    if result.withheld:
        for label, errors in result.withheld:
            progress(f"The lint found {plural(errors, 'new error')} in {label} (run `rulebook lint`).")
        print(
            f"rulebook: --strict: nothing was built into {result.output}; the last good site is kept.",
            file=sys.stderr,
        )
        return 1
    if not result.published:
        for diagnostic in result.refused:
            source = result.sources.get(diagnostic.span.path)
            print(
                text_report.render_diagnostic(diagnostic, source, width=text_report.terminal_width(sys.stderr)),
                file=sys.stderr,
            )
        if not served:
            print(f"rulebook: nothing was built into {result.output}; the last good site is kept.", file=sys.stderr)
        return 2
    for book in result.books:
        for warning in book.warnings:
            print(f"rulebook: {book.generator}: {terminal_message(warning)}", file=sys.stderr)
        for warning in book.pdf_warnings:
            print(f"rulebook: typst: {terminal_message(warning)}", file=sys.stderr)
        for notice in book.lint.notices:
            print(f"rulebook: warning: {terminal_message(notice)}", file=sys.stderr)
        found = ((book.label or book.name, book.lint.new_errors),) if book.lint.new_errors else ()
        for label, errors in (*found, *book.lint.translation_errors):
            progress(f"The lint found {plural(errors, 'new error')} in {label} (run `rulebook lint`).")
    what = plural(len(result.books), "book")
    pages = f", {plural(result.pages, 'page')}" if result.pages else ""
    pages += f", {plural(result.pdfs, 'PDF')}" if result.pdfs else ""
    progress(f"Built {what}{pages}, in {result.seconds:.1f} s -> {_shown(result.output)}")
    return 0


def _shown(path: Path) -> str:
    try:
        return path.relative_to(Path.cwd()).as_posix() + "/"
    except ValueError:
        return str(path) + "/"


def run_serve(args: argparse.Namespace) -> int:
    from rulebook.serve import serve

    project = project_of(args)
    progress = Progress(args.quiet)
    quiet = Progress(quiet=True)
    return serve(
        project,
        tuple(args.files),
        port=args.port,
        host=args.host,
        progress=progress,
        report=lambda result: report_build(result, quiet, served=True) != 2,
        generator=args.generator,
    )


def _port(text: str) -> int:
    """A TCP port number, for argparse: a plain usage error otherwise."""
    if not (text.isascii() and text.isdigit()):  # int() also reads `5_0` and other scripts' digits
        raise argparse.ArgumentTypeError(f"{quoted(text)} is not a port number")
    port = read_bounded(text, 65535)  # a huge number is never read whole
    if port is None:
        raise argparse.ArgumentTypeError(f"{shorten(text, QUOTE_LIMIT)} is not a port number (0 to 65535)")
    return port
