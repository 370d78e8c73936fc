"""The ``rulebook`` command: parses arguments, calls the recipe, prints the result, picks the exit status.

Exit status (every command): 0 success; 1 problems found (lint errors, an undefined
term, an illegal army list); 2 unreadable input, bad configuration or bad usage;
130 interrupted (Ctrl+C), 143 stopped (SIGTERM). No stage logic lives here: each
command module turns its options into a call of :mod:`rulebook.recipe` (or of the
engine) and renders what comes back.
"""

from __future__ import annotations

import codecs
import contextlib
import importlib
import io
import os
import signal
import sys
from collections.abc import Callable, Sequence
from types import FrameType
from typing import Any

from rulebook import __version__
from rulebook.cli import common, usage
from rulebook.cli.common import EXIT_USAGE
from rulebook.errors import UserError
from rulebook.report.escaping import VisibleStream
from rulebook.stops import held


class Stopped(BaseException):
    """The process was asked to stop (SIGTERM): unwound like Ctrl+C, so every temporary folder goes."""


def run() -> None:
    """The ``rulebook`` console script: :func:`main`, its result the exit status."""
    sys.exit(main())


def main(argv: Sequence[str] | None = None) -> int:
    from rulebook.fileio import forget_git_ignored

    forget_git_ignored()  # what Git ignores, asked afresh by each command
    _stand_in_for_closed_streams()
    stderr = sys.stderr
    sys.stderr = VisibleStream.over(stderr)  # whatever prints there: a message may quote a path, a title
    try:
        return _main(argv)
    finally:
        sys.stderr = stderr


def _local_time_zone_from_the_system() -> None:
    """Babel, which MkDocs imports, reads the local time zone once, when first imported, from the file ``TZ``
    names, taken relative to the working folder too: ``TZ=UTC`` read a project's committed ``UTC`` (a link to
    /dev/zero stopped the build with an internal error; to the standard input, a pipe in a CI, it hung), and so
    did ``TZ=Europe/Paris`` a committed ``Europe/Paris``. Read here with ``TZ`` set aside, it comes from the
    system's own files; nothing the compiler writes depends on the time zone."""
    zone = os.environ.pop("TZ", None)
    if zone is None:
        return
    try:
        with contextlib.suppress(ImportError):  # an install without MkDocs
            importlib.import_module("babel.localtime")
    finally:
        os.environ["TZ"] = zone


MAX_ARGUMENTS = 5_000
"""Arguments one command reads: argparse looks through those left for each option it takes, so its time grows with
their square (20,000 `-q`, 7 s; 40,000 `--waive`, 30 s, before a file was read); 5,000 take a fraction of a second."""


def _main(argv: Sequence[str] | None) -> int:
    arguments = sys.argv[1:] if argv is None else list(argv)
    if len(arguments) > MAX_ARGUMENTS:  # argparse's time grows with their square: 40,000 `--waive` took 30 s
        print(
            f"rulebook: error: {len(arguments):,} arguments, more than the {MAX_ARGUMENTS:,} a command reads (name "
            "a book's sources in the configuration, or run the command on a part at a time)",
            file=sys.stderr,
        )
        return EXIT_USAGE
    parser = _parser(arguments)
    command = _command(arguments)
    if command is not None and command not in COMMANDS:
        usage.unknown_command(parser, command, COMMANDS)
    args = usage.parse(parser, arguments)
    _local_time_zone_from_the_system()
    previous = _handle_here(signal.SIGTERM, _stop)
    main_thread = previous is not _ELSEWHERE
    # Ctrl+C as Python raises it, but never where the exception would be lost (see _swallows_exceptions).
    interrupting = main_thread and signal.getsignal(signal.SIGINT) is signal.default_int_handler
    if interrupting:
        signal.signal(signal.SIGINT, _interrupt)
    try:
        return int(args.run(args))
    except UserError as error:
        from rulebook.report.escaping import terminal_message  # a message may quote a source or configuration

        print(f"rulebook: error: {terminal_message(str(error))}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except Stopped:
        print("rulebook: stopped", file=sys.stderr)
        return 143
    except common.OutputClosed as error:
        print(f"rulebook: error: cannot write to standard output: {error.strerror}", file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        # The reader went away (`rulebook ... | head`): stop quietly, as other command-line tools do.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except MemoryError:  # a limit such as `ulimit -v` (a CI's, a shared host's): no bug (the forty-fourth probe)
        return _out_of_memory()
    except (ImportError, OSError) as error:
        if _memory_refused(error):  # an extension module (lxml's) not mapped under `ulimit -v`: the forty-fifth probe
            return _out_of_memory()
        if not isinstance(error, ImportError) or (error.name or "").partition(".")[0] == "rulebook":
            return _internal(error)  # a name our own code lacks is our bug, not the install's
        from rulebook.masked import masked

        print(
            f"rulebook: error: a package rulebook needs cannot be imported ({masked(str(error))}): reinstall "
            "rulebook-compiler",
            file=sys.stderr,
        )
        return EXIT_USAGE
    except RuntimeError as error:  # Python 3.11's `Path.resolve` of a path that loops (`ln -s loop loop`)
        from rulebook.fileio import link_loop, reason_of
        from rulebook.report.escaping import terminal_message

        where = link_loop(error)
        if where is None:
            return _internal(error)
        print(f"rulebook: error: cannot follow {terminal_message(where)}: {reason_of(error)}", file=sys.stderr)
        return EXIT_USAGE
    except Exception as error:
        return _internal(error)
    finally:
        if main_thread and previous is not None:  # None: a handler set outside Python, not ours to restore
            signal.signal(signal.SIGTERM, previous)
        if interrupting:
            signal.signal(signal.SIGINT, signal.default_int_handler)


def _out_of_memory() -> int:
    """Out of memory, said plainly (no bug of ours)."""
    from rulebook.errors import OUT_OF_MEMORY

    print(
        f"rulebook: error: out of memory ({OUT_OF_MEMORY}); every output is replaced whole or not at all, so none "
        "is left half-written",
        file=sys.stderr,
    )
    return EXIT_USAGE


_MEMORY_REFUSED = ("failed to map segment", "Cannot allocate memory")
"""What the system says, in an ImportError or an OSError, when it could not map or allocate memory."""


def _memory_refused(error: ImportError | OSError) -> bool:
    """Whether ``error`` says the system could not map or allocate memory (``ENOMEM``)."""
    import errno

    return getattr(error, "errno", None) == errno.ENOMEM or any(said in str(error) for said in _MEMORY_REFUSED)


def _internal(error: Exception) -> int:
    """A fault of the compiler's own, said as one (the traceback with ``RULEBOOK_DEBUG=1``)."""
    if os.environ.get("RULEBOOK_DEBUG"):
        import traceback

        traceback.print_exc()
    from rulebook.masked import masked

    print(
        f"rulebook: internal error: {type(error).__name__}: {masked(str(error))}\n"
        "This is a bug in the rulebook compiler; set RULEBOOK_DEBUG=1 to see the traceback.",
        file=sys.stderr,
    )
    return EXIT_USAGE


def _stand_in_for_closed_streams() -> None:
    """Standard streams closed before the command started (``>&-``, ``2>&-``), which Python leaves as
    ``None``: messages for a closed standard error are dropped, results for a closed standard output
    refused in plain words (see :class:`~rulebook.cli.common.ClosedOutput`)."""
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")  # noqa: SIM115 - the process's own, kept open
    if sys.stdout is None:
        sys.stdout = common.ClosedOutput()
    elif isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.encoding.lower().replace("-", "") == "utf8":
        # A file named with bytes that are not UTF-8 (`lint` given one) is printed as its bytes, as `ls` prints it;
        # under a UTF-8 locale Python would stop there (a UnicodeEncodeError), as the C locale's stream does not.
        sys.stdout.reconfigure(errors="surrogateescape")
    elif isinstance(sys.stdout, io.TextIOWrapper):
        # An encoding that cannot write every character (`PYTHONIOENCODING=ascii`, Windows' cp1252 when the output
        # is redirected to a file): a report quoting `é` or `�` stopped every command that prints one with
        # "internal error: UnicodeEncodeError". A character it cannot write is written as its escape (`\xe9`).
        codecs.register_error(_AS_BYTES_OR_ESCAPED, _as_bytes_or_escaped)
        sys.stdout.reconfigure(errors=_AS_BYTES_OR_ESCAPED)


_AS_BYTES_OR_ESCAPED = "rulebook.as-bytes-or-escaped"
"""The error handler of a standard output whose encoding is not UTF-8."""


def _as_bytes_or_escaped(error: UnicodeError) -> tuple[str | bytes, int]:
    """A byte of a file's name that is not UTF-8 (``\udcff``) written as itself, as ``ls`` writes it; any other
    character the encoding cannot write as its escape, as Python writes standard error."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    try:
        return codecs.lookup_error("surrogateescape")(error)
    except UnicodeEncodeError:
        return codecs.backslashreplace_errors(error)


_ELSEWHERE = object()
"""What :func:`_handle_here` gives off the main thread."""


def _handle_here(signum: int, handler: Callable[[int, FrameType | None], None]) -> Any:
    """Set a signal's handler and give the one it replaces; off the main thread, where Python lets no handler be
    set (``main()`` called from a thread), leave signals alone and give ``_ELSEWHERE``. Asking ``threading``
    instead would import it (1 ms) for every command."""
    try:
        return signal.signal(signum, handler)
    except ValueError:
        return _ELSEWHERE


def _raising(stop: type[BaseException]) -> Callable[[int, FrameType | None], None]:
    """A signal handler raising ``stop`` where the signal lands, unless it lands where an exception
    would be printed and lost (the command would go on): then the signal is sent again in a moment; or while the
    build starts a process (:mod:`rulebook.stops`): then it is raised once the process is known."""

    def handle(signum: int, frame: FrameType | None) -> None:
        if held(signum):  # the build is starting a process: raised again once it is known
            return
        if frame is not None and _swallows_exceptions(frame):
            import threading

            threading.Timer(0.05, os.kill, (os.getpid(), signum)).start()
            return
        raise stop()

    return handle


def _swallows_exceptions(frame: FrameType) -> bool:
    """Whether the code the signal interrupted is a finaliser or weak-reference callback, such as the
    import system's module-lock callback (a command imports some modules as it goes)."""
    code = frame.f_code
    return code.co_name == "__del__" or (code.co_name == "cb" and "importlib" in code.co_filename)


_stop = _raising(Stopped)
_interrupt = _raising(KeyboardInterrupt)


MODULES = (
    "init",
    "build",
    "deploy",
    "lint",
    "explore",
    "translate",
    "status",
    "editions",
    "convert",
    "engine",
    "docs",
)
"""The command modules under ``rulebook.cli``, in the order ``rulebook --help`` lists their commands."""
COMMANDS = {
    "init": "init",
    "new-book": "init",
    "build": "build",
    "serve": "build",
    "deploy": "deploy",
    "lint": "lint",
    "explain": "lint",
    "dtd": "lint",
    "graph": "explore",
    "query": "explore",
    "compare": "translate",
    "terms": "translate",
    "status": "status",
    "diff": "editions",
    "convert": "convert",
    "engine": "engine",
    "docs": "docs",
}
"""The module that registers each command: a command imports only its own module at start-up."""


def _parser(argv: Sequence[str] = ()) -> usage.CommandParser:
    """The parser for ``argv``: with the named command's module only, or every module when help may list them."""
    parser = usage.CommandParser(
        prog="rulebook",
        description="Compile, lint and publish rulebooks.",
        epilog="Exit status: 0 success, 1 problems found, 2 unreadable input or bad usage. Documentation: "
        "`rulebook docs` lists the guides installed with this package, `rulebook docs TOPIC` prints one "
        "(`rulebook docs readme` to start, `rulebook docs format` for the formats, XML and the Markdown dialect).",
    )
    parser.add_argument("--version", action="version", version=f"rulebook {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    for name in _modules(argv):
        importlib.import_module(f"rulebook.cli.{name}").add_commands(commands, argv)
    return parser


def _command(argv: Sequence[str]) -> str | None:
    """The command ``argv`` names: its first word that is not an option (the top level's options take no value)."""
    words = list(argv)
    words = words[: words.index("--")] if "--" in words else words
    return next((word for word in words if not word.startswith("-")), None)


def _modules(argv: Sequence[str]) -> tuple[str, ...]:
    """The command modules ``argv`` needs: the command's own, none for ``--version``, else all (help, errors)."""
    command = _command(argv)
    if command in COMMANDS:
        return (COMMANDS[command],)
    if command is None and "--version" in argv and not {"-h", "--help"} & set(argv):
        return ()
    return MODULES
