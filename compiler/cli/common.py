"""What every command shares: loading the project, printing progress and results, writing files.

The command modules import what their commands need only when a command runs: building the
parser must stay cheap, so that `rulebook engine ...` and `rulebook --version` start fast.
"""

from __future__ import annotations

import argparse
import errno
import io
import os
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeAlias

from rulebook.characters import json_text
from rulebook.errors import UserError
from rulebook.report.escaping import visible_in_text

if TYPE_CHECKING:
    from rulebook.project import Project
    from rulebook.stage_values import ReadResult

EXIT_USAGE = 2
Commands: TypeAlias = "argparse._SubParsersAction[argparse.ArgumentParser]"
"""Where a command module's ``add_commands(commands, words)`` registers its commands; ``words`` are the command
line's, for a module that registers only what they name (the engine's actions)."""


class UsageError(UserError):
    """Bad usage: reported in plain words with exit status 2."""


def book_option(text: str) -> str:
    """A ``--book NAME`` as written: an empty name names no book (it read as no option, every book)."""
    if not text.strip():
        raise argparse.ArgumentTypeError("a book's name cannot be empty: name one of the configuration's books")
    return text


STANDARD_OUTPUT = "-"
"""The name that means standard output to ``-o``, as to every Unix tool (``convert -o -``)."""


def file_option(text: str) -> Path:
    """A file a command writes on request (``--write-baseline``), as written: one ending in a separator names a
    folder (``-o x/`` wrote a file called ``x``), and ``-`` names none (a file called ``-`` was written)."""
    if text == STANDARD_OUTPUT:
        raise argparse.ArgumentTypeError("`-` names no file: name the file to write")
    return Path(file_name_option(text))


def output_option(text: str) -> Path | None:
    """The ``-o`` of a command that prints its result otherwise (``lint``, ``graph``, ``terms export``): a file as
    :func:`file_option` takes it, or None for ``-``, standard output (``lint -o -`` wrote a file called ``-`` in
    the project, with nothing printed, where ``convert -o -`` printed)."""
    return None if text == STANDARD_OUTPUT else Path(file_name_option(text))


def file_name_option(text: str) -> str:
    """:func:`file_option` kept as written (``-`` for standard output)."""
    if not text:  # `-o ''` (an unset variable in a script): the project's folder, "cannot write `.`"
        raise argparse.ArgumentTypeError("an empty name: name the file to write")
    if text.endswith(("/", os.sep)):
        raise argparse.ArgumentTypeError(f"`{text}` names a folder: name the file to write")
    return text


def add_config_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--config",
        type=Path,
        metavar="FILE",
        help="the project's configuration (default: rulebook.toml, else pyproject.toml with [tool.rulebook], "
        "in this folder or the nearest parent)",
    )


def project_of(args: argparse.Namespace) -> Project:
    """The project the command works in (``--config``, else found from the working folder), loaded once per
    command however many of its steps ask."""
    from rulebook.project import load_project

    loaded: Project | None = getattr(args, "loaded_project", None)
    if loaded is not None:
        return loaded
    project = args.loaded_project = load_project(config_file=config_option(args))
    return project


def config_option(args: argparse.Namespace) -> Path | None:
    """The configuration file ``--config`` names, if any; one that does not exist is a usage error (one that is
    there but no regular file, a folder or a pipe, is refused in plain words when it is read)."""
    from rulebook.errors import quoted
    from rulebook.fileio import path_problem
    from rulebook.inputs import present

    config: Path | None = getattr(args, "config", None)
    if config is None:
        return None
    problem = path_problem(str(config))  # a name no system could open: not "does not exist"
    if problem is not None:
        raise UsageError(f"the configuration file {quoted(str(config))} {problem}")
    if not present(config):
        raise UsageError(f"the configuration file `{config}` does not exist")
    return config


class Progress:
    """Stage lines on stderr (also when it is not a terminal, so a CI log shows them); silent under ``--quiet``."""

    def __init__(self, quiet: bool = False) -> None:
        self.quiet = quiet
        self.started = time.perf_counter()

    def __call__(self, message: str) -> None:
        if not self.quiet:
            from rulebook.report.escaping import visible  # a book's title is the configuration's: it may hold ESC

            print(visible(message), file=sys.stderr, flush=True)

    @property
    def seconds(self) -> float:
        return time.perf_counter() - self.started


def plural(count: int, word: str, many: str | None = None) -> str:
    """``1 book``, ``3 books``."""
    return f"{count} {word if count == 1 else many or word + 's'}"


def write_file(args: argparse.Namespace, path: Path, text: str, *, baseline_of: str | None = None) -> None:
    """Write a report, an export or (``baseline_of``: the book linted) a baseline atomically, where
    :func:`~rulebook.fileio.check_report_file` allows it: a new file, or one of the same kind this tool
    wrote; a device or a pipe (``-o /dev/null``) is written into, never replaced; never a file the project reads
    (:meth:`~rulebook.project.Project.inputs`: but for a baseline, the book's own), nor into a folder the build
    reads files from (:func:`~rulebook.recipe.kept.read_folders`)."""
    from rulebook.fileio import write_report_file
    from rulebook.project import Input
    from rulebook.recipe.kept import kept_files

    project = project_of(args)
    named = [Path(name) for name in getattr(args, "files", None) or []]
    if baseline_of is not None:  # a baseline replaces only a baseline, the book's configured one included
        from rulebook.lint.baseline import is_baseline

        kept, read = kept_files(project, path, writing=Input(path, "baseline", baseline_of))
        write_report_file(
            path, text, root=project.root, protected=[*kept, *named], ours=is_baseline, kind="baseline", read=read
        )
    else:
        from rulebook.report.written import is_report

        kept, read = kept_files(project, path)
        write_report_file(path, text, root=project.root, protected=[*kept, *named], ours=is_report, read=read)


def emit(args: argparse.Namespace, data: Any, text: str) -> None:
    """Print a result as JSON (``--json`` or ``--format json``) or as text, the rule data's control characters
    shown as pictures (a title holding ESC set the terminal's title and colours: ``engine turns``)."""
    if getattr(args, "json", False) or getattr(args, "format", "text") == "json":
        write_stdout(json_text(data, indent=2, sort_keys=True) + "\n")
    else:
        write_stdout(visible_in_text(text))


def output_text(args: argparse.Namespace, text: str) -> None:
    """Write to ``--output`` if given, else to stdout."""
    if getattr(args, "output", None):
        write_file(args, args.output, text)
    else:
        write_stdout(text)


class OutputClosed(OSError):
    """Writing to standard output that was closed before the command started."""

    def __init__(self) -> None:
        super().__init__(errno.EBADF, "it was closed before the command started")


class ClosedOutput(io.TextIOBase):
    """Standard output when it was closed before the command started (``>&-``): what a command
    writes there is refused in plain words (exit status 2), not lost and not a traceback."""

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        raise OutputClosed()


def write_stdout(text: str) -> None:
    """Write a command's result to standard output, flushed: an output that cannot take it (a full
    disk, a closed descriptor) is a plain error with exit status 2, never a report lost in silence."""
    try:
        sys.stdout.write(text)
        sys.stdout.flush()
    except BrokenPipeError:
        raise  # the reader went away: the command stops quietly (see rulebook.cli.main)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise UserError(f"cannot write to standard output: {reason} (write the report with --output FILE)") from error


def print_fatal(read: ReadResult, *, errors: bool = False) -> bool:
    """Print why the sources cannot be read, if they cannot (``errors``: or were read with errors); True when so."""
    from rulebook.diagnostics import Severity
    from rulebook.report import text as text_report

    worst = (Severity.FATAL, Severity.ERROR) if errors else (Severity.FATAL,)
    fatal = [d for d in read.diagnostics if d.severity in worst]
    for diagnostic in fatal:
        source = read.sources.get(diagnostic.span.path)
        print(
            text_report.render_diagnostic(diagnostic, source, width=text_report.terminal_width(sys.stderr)),
            file=sys.stderr,
        )
    return bool(fatal)
