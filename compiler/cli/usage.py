"""Usage errors as ruff gives them: the command's own usage, and a suggestion for a mistyped word.

argparse reports an option a command does not know through the top-level parser (``rulebook lint
--fromat json`` printed ``rulebook``'s usage, not ``lint``'s) and suggests nothing. Here each
command's parser records the options it declares and that it was the one chosen; :func:`parse`
then reports leftovers with the usage of the deepest command that parsed, naming the closest
option, and a command that does not exist with the closest command.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Iterable, Sequence
from typing import Any, NoReturn

_INVALID_CHOICE = re.compile(r"invalid choice: '(?P<word>[^']*)' \(choose from (?P<choices>.*)\)$")


def closest(word: str, candidates: Iterable[str]) -> str | None:
    """The candidate ``word`` was most likely meant to be (a typo, a swap of letters), if one is close enough."""
    import difflib  # only when a word is wrong: not for every command's start-up

    found = difflib.get_close_matches(word, sorted(set(candidates)), n=1, cutoff=0.6)
    return found[0] if found else None


def did_you_mean(word: str, candidates: Iterable[str]) -> str:
    """`` (did you mean `build`?)`` when a candidate is close to ``word``, else nothing."""
    found = closest(word, candidates)
    return f" (did you mean `{found}`?)" if found else ""


class CommandParser(argparse.ArgumentParser):
    """An argument parser that knows its options' names, says when it is the one a command line chose, and
    suggests the closest choice when a value is not among an option's choices."""

    def __init__(self, *args: Any, chosen: list[CommandParser] | None = None, **kwargs: Any) -> None:
        self.options: list[str] = []
        self.chosen: list[CommandParser] = [] if chosen is None else chosen
        """The parsers that parsed a command line, outermost first (shared with the subcommands' parsers)."""
        kwargs.setdefault("allow_abbrev", True)
        super().__init__(*args, **kwargs)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        self.options.extend(action.option_strings)
        return action

    def add_subparsers(self, **kwargs: Any) -> Any:
        kwargs.setdefault("parser_class", _sharing(self.chosen))
        return super().add_subparsers(**kwargs)

    def parse_known_args(  # type: ignore[override]
        self, args: Sequence[str] | None = None, namespace: argparse.Namespace | None = None
    ) -> tuple[argparse.Namespace, list[str]]:
        self.chosen.append(self)
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        invalid = _INVALID_CHOICE.search(message)
        if invalid is not None:
            message += did_you_mean(invalid["word"], re.findall(r"'([^']*)'", invalid["choices"]))
        super().error(message)


def _sharing(chosen: list[CommandParser]) -> type[CommandParser]:
    """A parser class whose instances record themselves in ``chosen`` (a subcommand's parser, made by argparse)."""

    class SubcommandParser(CommandParser):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            super().__init__(*args, chosen=chosen, **kwargs)

    return SubcommandParser


def unknown_command(parser: CommandParser, word: str, commands: Iterable[str]) -> NoReturn:
    """Refuse a command that does not exist, with the top-level usage and the closest command."""
    found = closest(word, commands)
    parser.error(f"unknown command `{word}`: " + (f"did you mean `{found}`?" if found else "see `rulebook --help`"))


def parse(parser: CommandParser, arguments: Sequence[str]) -> argparse.Namespace:
    """The parsed command line; words no parser took are refused by the command that was to take them."""
    args, extras = parser.parse_known_args(arguments)
    if extras:
        command = parser.chosen[-1] if parser.chosen else parser
        options = [extra for extra in extras if extra.startswith("-")]
        unknown = options[0] if options else extras[0]
        hint = did_you_mean(unknown.split("=", 1)[0], command.options) if options else ""
        command.error(f"unrecognized arguments: {' '.join(extras)}{hint}")
    return args
