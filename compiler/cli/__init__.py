"""The ``rulebook`` command: parses arguments, calls the recipe, prints the result, picks the exit status.

Exit status (every command): 0 success; 1 problems found (lint errors, an undefined
term, an illegal army list); 2 unreadable input, bad configuration or bad usage;
130 interrupted (Ctrl+C), 143 stopped (SIGTERM). No stage logic lives here: each
command module turns its options into a call of :mod:`compiler.recipe` (or of the
engine) and renders what comes back.
"""

from __future__ import annotations

import argparse
import os
import signal
import sys
import traceback
from collections.abc import Sequence
from types import FrameType

from compiler import __version__
from compiler.cli import build, editions, engine, explore, init, lint, translate
from compiler.cli.common import EXIT_USAGE
from compiler.errors import UserError


class Stopped(BaseException):
    """The process was asked to stop (SIGTERM): unwound like Ctrl+C, so every temporary folder goes."""


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    previous = signal.signal(signal.SIGTERM, _stop) if _main_thread() else None
    try:
        return int(args.run(args))
    except UserError as error:
        from compiler.report.escaping import visible  # a message may quote a source or configuration

        shown = "\n".join(visible(line) for line in str(error).split("\n"))
        print(f"rulebook: error: {shown}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("rulebook: interrupted", file=sys.stderr)
        return 130
    except Stopped:
        print("rulebook: stopped", file=sys.stderr)
        return 143
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
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _main_thread() -> bool:
    import threading

    return threading.current_thread() is threading.main_thread()


def _stop(signum: int, frame: FrameType | None) -> None:
    raise Stopped()


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="rulebook",
        description="Compile, lint and publish rulebooks.",
        epilog="Exit status: 0 success, 1 problems found, 2 unreadable input or bad usage.",
    )
    parser.add_argument("--version", action="version", version=f"rulebook {__version__}")
    commands = parser.add_subparsers(title="commands", required=True, metavar="COMMAND")
    init.add_commands(commands)
    build.add_commands(commands)
    lint.add_commands(commands)
    explore.add_commands(commands)
    translate.add_commands(commands)
    editions.add_commands(commands)
    engine.add_commands(commands)
    return parser
