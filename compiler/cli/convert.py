"""``rulebook convert``: a rulebook source turned into the other format (XML into the Markdown dialect, or back)."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.cli.common import Commands, add_config_option, file_name_option, print_fatal, project_of

if TYPE_CHECKING:
    from rulebook.convert import NotCarried
    from rulebook.project import BookConfig
    from rulebook.source import Span
    from rulebook.stage_values import ReadResult


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    convert = commands.add_parser(
        "convert",
        help="turn a rulebook source into the other format: XML into the Markdown dialect, or back",
        description="Read a rulebook source (XML, the Markdown dialect of `rulebook docs format`, or a format only "
        "read: plain Markdown, the text export) and write it in the other format (the dialect for those read only), or "
        "the one --to names: read back, the new file gives the same rules.json and site. "
        "What the other format cannot say stops the conversion, with its place. The source's comments and "
        "suppressions are carried where they stand; each one that cannot be is named on standard error, with its "
        "place. The output is a new file (never one that exists), or standard output with -o -.",
        epilog="Exit status: 0 converted, 2 unreadable source, a construct the other format cannot hold, an "
        "existing output or bad usage.",
    )
    convert.add_argument("source", type=Path, help="the rulebook source to convert")
    convert.add_argument("--to", choices=("markdown", "xml"), help="the format to write (default: the other one)")
    convert.add_argument(
        "--output",
        "-o",
        type=file_name_option,
        help="the file to write (default: the source's name with the format's suffix; - for stdout)",
    )
    add_config_option(convert)
    convert.set_defaults(run=run_convert)


def run_convert(args: argparse.Namespace) -> int:
    import json
    from dataclasses import replace

    from rulebook.cli.common import write_stdout
    from rulebook.convert import TARGETS, convert_document, convert_source
    from rulebook.errors import UserError
    from rulebook.fileio import write_report_file
    from rulebook.lint.suppressions import find_suppressions
    from rulebook.project import MAIN_BOOK
    from rulebook.readers.formats import format_of
    from rulebook.recipe.kept import kept_files
    from rulebook.recipe.reading import configured_format, read_book
    from rulebook.report.escaping import visible
    from rulebook.source import not_xml

    project = project_of(args)
    source: Path = args.source
    chosen = configured_format(project, source)
    read = read_book([source], project.root, source_format=chosen)
    if read.fatal or not read.book.documents:
        print_fatal(read)
        return 2
    written_in = format_of(source, chosen)
    target = args.to or ("xml" if written_in is not None and written_in.name == "markdown" else "markdown")
    document = read.book.documents[0]
    book = project.book_of(source)
    configured = book.title if book is not None and book.sources[0].resolve() == source.resolve() else None
    if document.title is None and configured is not None:  # the book's first source says the configured title
        document = replace(document, title=configured)
        if target == "xml" and (found := not_xml(configured)) is not None:  # the source cannot say where: not in it
            named = project.config_file.name if project.config_file else "the configuration"
            raise UserError(
                f"{named}: the book's `title` holds U+{ord(configured[found]):04X}, which XML forbids (control "
                "characters and non-characters): remove it from the configuration"
            )
    if document.sections:  # the source, for its comments and suppressions
        markdown_source = written_in is not None and written_in.name in ("markdown", "plain-markdown")
        source_text = document.sections[0].source
        hidden = _unsuppressed(read, book, project.root) if find_suppressions(source_text) else ()
        converted = convert_source(document, source_text, target, hidden, markdown_source=markdown_source)
        text, left = converted.text, converted.left
    else:
        text, left = convert_document(document, target), ()
    _say_left(left)
    if args.output == "-":
        write_stdout(text)
        _say_errors(read, source)
        return 0
    output = Path(args.output) if args.output else source.with_suffix(TARGETS[target])
    if output.resolve() == source.resolve():
        raise UserError(f"`{output}` is the source: name another output with -o")
    kept, folders = kept_files(project, output)
    write_report_file(
        output, text, root=project.root, protected=[*kept, source], ours=None, kind="converted source", read=folders
    )
    print(visible(f"Wrote {output} ({target})."))  # the name as typed: it may hold ESC
    _say_errors(read, source)
    if book is not None and configured is not None and read.book.documents[0].title is None:
        table = "the top level" if book.name == MAIN_BOOK else f"[books.{book.name}]"
        print(
            visible(
                f"Its title is the configuration's ({json.dumps(configured, ensure_ascii=False)}): to keep one home "
                f"for it, remove `title` from {table} when the book's source is {output}."
            )
        )
    return 0


def _unsuppressed(read: ReadResult, book: BookConfig | None, root: Path) -> list[tuple[Span, str]]:
    """The places and codes of the source's findings as if it had no suppression: those its suppressions hide tie
    each to its place in the converted file."""
    from dataclasses import replace

    from rulebook.project import MAIN_BOOK, BookConfig
    from rulebook.recipe.stages import lint_book

    unsuppressed = replace(read, sources={})  # the suppressions are read from the sources' text
    checked = lint_book(unsuppressed, book if book is not None else BookConfig(MAIN_BOOK), root=root)
    return [(finding.span, finding.code) for finding in checked.diagnostics]


def _say_errors(read: ReadResult, source: Path) -> None:
    """The errors of reading the source, on standard error, once it is converted: what an error stands on may be
    left out or read otherwise (a row's cells past its header's, text before the first chapter), never in silence."""
    import sys

    from rulebook.report.escaping import visible

    if print_fatal(read, errors=True):
        print(
            visible(
                f"rulebook: warning: `{source}` is converted as it is read, with the errors above: what they stand "
                "on may be left out or read otherwise"
            ),
            file=sys.stderr,
        )


def _say_left(left: Sequence[NotCarried]) -> None:
    """One located note on standard error for each comment or suppression the conversion could not carry."""
    import sys

    from rulebook.report.escaping import visible

    for found in left:
        written = found.mark.text
        first = written.split("\n", 1)[0]
        shown = first if len(first) <= 72 and first == written else first[:69] + "..."
        what = "a suppression" if found.mark.suppression else "a comment"
        print(visible(f"{found.mark.span}: {what} is not carried over ({found.reason}): {shown}"), file=sys.stderr)
