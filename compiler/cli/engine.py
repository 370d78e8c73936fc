"""``rulebook engine``: the game's mechanics, computed from the compiled ``rules.json`` alone."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulebook.cli.common import Commands, UsageError, add_config_option, book_option, config_option, emit, project_of
from rulebook.engine.limits import MAX_GIVEN_VALUES, MAX_MODIFIERS, over


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    """``rulebook engine`` and its actions: only the action ``words`` name, when they name one and ask no help
    (building the parsers of all six is a tenth of a question's time; help lists them all)."""
    engine = commands.add_parser(
        "engine",
        help="the game's mechanics from the compiled rules.json: exact odds, turns, setup, chains of rolls",
        description="Compute with the compiled rule data (rules.json, checked against rules.schema.json "
        "beside it), from what the book declares. Probabilities are exact fractions; every result names the rules "
        "it used. A book that declares nothing for a question is told what to declare.",
    )
    engine.add_argument("--rules", type=Path, help="rules.json to use (default: the build output's)")
    engine.add_argument(
        "--book",
        type=book_option,
        metavar="NAME",
        help="the rule data of this book of the configuration (default: the main book's)",
    )
    add_config_option(engine)
    actions = engine.add_subparsers(title="engine commands", required=True, metavar="COMMAND")
    named = {word for word in words if word in _ACTIONS}
    wanted = named if len(named) == 1 and not {"-h", "--help"} & set(words) else _ACTIONS
    for add in dict.fromkeys(add for name, add in _ACTIONS.items() if name in wanted):  # `attack` is `chain`
        add(actions)


def _add_odds(actions: Commands) -> None:
    odds = actions.add_parser("odds", help="exact probabilities of tests, rolls and roll tables")
    kinds = odds.add_subparsers(title="what", required=True, metavar="KIND")
    test = kinds.add_parser("test", help="the chance to pass a test, such as nerve_test --value 7")
    test.add_argument("test", help="the test's term id, as the book names it")
    test.add_argument("--value", metavar="N", help="the tested value (a test whose target the book fixes needs none)")
    test.add_argument("--reroll-failed", action="store_true", help="a failed test is rerolled (once)")
    test.set_defaults(odds="test")
    roll = kinds.add_parser("roll", help="the distribution of a roll, such as 2D6, D3 or 2D3")
    roll.add_argument("notation", help="the dice: a count of dice, D and their sides, such as 2D6, D3 or 3D8")
    roll.set_defaults(odds="roll")
    table = kinds.add_parser("table", help="the chance of each result of a roll table")
    table.add_argument("table", help="the roll table's id (see rules.json or the Tables page)")
    table.set_defaults(odds="table")
    for sub in (test, roll, table):
        sub.add_argument("--json", action="store_true", help="print JSON")
        sub.set_defaults(run=_engine_command(_run_engine_odds))


def _add_modify(actions: Commands) -> None:
    modify = actions.add_parser(
        "modify",
        help="apply characteristic modifiers in the book's order, step by step",
        description="Apply modifiers to a value in the order the book declares, each bounded modifier moving the "
        "value no further than its bound and never the other way (-1 min 1 leaves a 0 at 0).",
    )
    modify.add_argument("--value", metavar="N", required=True, help="the characteristic's value before modifiers")
    modify.add_argument(
        "--mod",
        action=_AtMost,
        most=MAX_MODIFIERS,
        items="modifiers",
        default=[],
        metavar="MODIFIER",
        help="set 3, *2, /2, +1 or -1, maybe with min N / max N (repeat)",
    )
    modify.add_argument("--json", action="store_true", help="print JSON")
    modify.set_defaults(run=_engine_command(_run_engine_modify))


def _add_army(actions: Commands) -> None:
    army = actions.add_parser("army", help="check an army list (YAML or JSON) against the composition rules")
    army.add_argument("file", type=Path, help="the army list")
    army.add_argument("--json", action="store_true", help="print JSON")
    army.set_defaults(run=_engine_command(_run_engine_army))


def _add_turns(actions: Commands) -> None:
    turns = actions.add_parser("turns", help="the game's turn structure")
    turns.add_argument("--json", action="store_true", help="print JSON")
    turns.set_defaults(run=_engine_command(_run_engine_turns))


def _add_pregame(actions: Commands) -> None:
    pregame = actions.add_parser(
        "pregame",
        help="walk the steps that set up a game, rolling on the book's tables",
        description="Walk the sequence the book declares of kind setup, step by step, rolling where the rules "
        "roll (its roll tables, repeated rolls, tests against a fixed target, contests), with links to the site. "
        "The same --seed gives the same transcript; --interactive asks for each die instead.",
    )
    dice_source = pregame.add_mutually_exclusive_group()
    dice_source.add_argument("--seed", metavar="N", default="0", help="seed of the dice (default: 0)")
    dice_source.add_argument("--interactive", action="store_true", help="type in each die rolled")
    pregame.add_argument(
        "--first", choices=("A", "B"), default="A", help="the player a contest names first, who adds its bonus"
    )
    pregame.add_argument("--bonus", metavar="N", default="0", help="the value of a contest's bonus term")
    pregame.add_argument("--board", metavar="WxD", help="the board's size when not the standard one (such as 36x48)")
    pregame.add_argument("--json", action="store_true", help="print JSON")
    pregame.set_defaults(run=_engine_command(_run_engine_pregame))


def _add_chain(actions: Commands) -> None:
    chain = actions.add_parser(
        "chain",
        aliases=["attack"],
        help="a chain of rolls (to hit, to injure, saves) as the exact distribution of what gets through",
        description="Run dice through the chain of rolls the book declares (mechanics.rolls), with your numbers "
        "(--value skill=4 ...) or a profile (YAML or JSON): the exact distribution of successes, damage and targets "
        "removed, with each step's chance. Where the text reads a roll two ways, both are shown.",
    )
    chain.add_argument("--count", "--attacks", metavar="N", help="how many dice the chain starts with")
    chain.add_argument(
        "--profile", type=Path, metavar="FILE", help="the numbers, as YAML or JSON (`rulebook docs engine`)"
    )
    for option, metavar, help_text in (
        ("--value", "NAME=N", "a value the rolls are against (repeat)"),
        ("--reroll", "ROLL=WHICH", "a roll's dice rolled again once: failures, successes or 1,2 (repeat)"),
    ):
        chain.add_argument(
            option,
            action=_AtMost,
            most=MAX_GIVEN_VALUES,
            items="settings given to a chain",
            default=[],
            metavar=metavar,
            help=help_text,
        )
    chain.add_argument("--damage", metavar="N|DICE", help="what each success deals (default 1), such as 2 or D3")
    chain.add_argument("--health", metavar="N", help="points each target has: count the targets removed")
    chain.add_argument("--targets", metavar="N", help="the most targets there are")
    chain.add_argument("--json", action="store_true", help="print JSON")
    chain.set_defaults(run=_engine_command(_run_engine_chain))


_ACTIONS: dict[str, Callable[[Commands], None]] = {
    "odds": _add_odds,
    "modify": _add_modify,
    "army": _add_army,
    "turns": _add_turns,
    "pregame": _add_pregame,
    "chain": _add_chain,
    "attack": _add_chain,
}
"""Each engine action (and alias) and what registers it, in the order help lists them."""


def _engine_rules(args: argparse.Namespace) -> Any:
    from rulebook.engine.rules import load_rules

    if args.rules:
        if args.book:
            raise UsageError("--rules names the rule data to use: --book cannot choose another")
        return load_rules(args.rules)  # the engine's question needs no project: nothing else is read
    if args.book:  # a book's folder: the configuration says which books there are
        project = project_of(args)
        return load_rules(_built(project.root, project.site_folder, project.book(args.book).folder) / "rules.json")
    from rulebook.config_file import locate_config, site_folder

    # Only the configuration's `output` is read: a question does not load (nor stop at) the rest of the project.
    folder = site_folder(Path.cwd(), config_option(args)) or project_of(args).site_folder
    configuration = locate_config(Path.cwd(), config_option(args))
    root = configuration.parent if configuration is not None else Path.cwd()
    return load_rules(_built(root.resolve(), folder, "") / "rules.json")


def _built(root: Path, site: Path, book_folder: str) -> Path:
    """A book's folder of the site the project's build published, where the engine finds its rule data by default:
    every folder from the project's ``root`` to the site, the book's folder and the data's files reached without a
    link, the site holding this tool's marker; else a :class:`UsageError` (a committed ``site -> elsewhere``, or
    ``out -> elsewhere`` on the way to ``output = "out/site"``, or a folder no build made holding a copied
    ``rules.json``, was believed as the build's: the forty-first and forty-second probes)."""
    from rulebook.fileio import SITE_MARKER, holds_site_marker

    folder = site / book_folder if book_folder else site
    inside = site.relative_to(root).parents if site.is_relative_to(root) else ()
    way = [root / part for part in reversed(inside) if part != Path(".")]
    named = [*way, site, *([folder] if book_folder else []), folder / "rules.json", folder / "rules.schema.json"]
    linked = next((path for path in named if path.is_symlink()), None)
    if linked is not None or not holds_site_marker(site):
        why = f"`{linked}` is a symbolic link" if linked is not None else f"it holds no `{SITE_MARKER}`"
        raise UsageError(
            f"`{site}` is not a site this project's build published ({why}): the engine answers from the rule data "
            "of the project's own build; run `rulebook build`, or name the data with --rules"
        )
    return folder


def _run_engine_odds(args: argparse.Namespace) -> int:
    from rulebook.engine import odds
    from rulebook.engine.limits import read_number

    value = None if args.odds != "test" or args.value is None else read_number(args.value, "--value")
    rules = _engine_rules(args)
    if args.odds == "test":
        result = odds.odds_of_test(rules, args.test, value, reroll_failed=args.reroll_failed)
    elif args.odds == "roll":
        result = odds.roll_odds(rules, args.notation)
    else:
        result = odds.table_odds(rules, args.table)
    emit(args, result.as_json(), odds.render_text(result))
    return 0


def _run_engine_modify(args: argparse.Namespace) -> int:
    from rulebook.engine import modify
    from rulebook.engine.limits import read_number

    trace = modify.apply_modifiers(_engine_rules(args), read_number(args.value, "--value"), args.mod)
    emit(args, trace, modify.render_text(trace))
    return 0


def _run_engine_army(args: argparse.Namespace) -> int:
    from rulebook.engine import army

    report = army.check_army(_engine_rules(args), army.read_army(args.file))
    emit(args, report.as_json(), army.render_text(report))
    return 0 if report.legal else 1


def _run_engine_pregame(args: argparse.Namespace) -> int:
    from rulebook.engine import pregame
    from rulebook.engine.limits import read_number

    dice = pregame.Dice(ask=_ask_die) if args.interactive else pregame.Dice(seed=read_number(args.seed, "--seed"))
    options = pregame.Options(
        first=args.first,
        bonus=read_number(args.bonus, "--bonus"),
        board=pregame.board_size(args.board) if args.board is not None else None,
    )
    events = pregame.pregame(_engine_rules(args), dice, options)
    emit(args, {"events": [e.as_json() for e in events]}, pregame.render_text(events))
    return 0


def _ask_die(why: str, low: int, high: int) -> int:
    """Ask the players for a die on the terminal until they type a value it can show."""
    while True:
        print(f"Roll for {why} ({low}-{high}): ", end="", file=sys.stderr, flush=True)
        answer = sys.stdin.readline(_LONGEST_ANSWER + 1)
        if not answer:
            raise UsageError("no more rolls to read (end of input)")
        if len(answer) > _LONGEST_ANSWER:
            raise UsageError(f"a die here shows {low} to {high}, not a line of over {_LONGEST_ANSWER} characters")
        typed = answer.strip()
        if typed.isascii() and typed.isdigit() and low <= int(typed) <= high:
            return int(typed)
        print(f"  a die here shows {low} to {high}.", file=sys.stderr)


_LONGEST_ANSWER = 80
"""Characters of a line of typed rolls read at once (an endless line, such as ``< /dev/zero``, is refused)."""


class _AtMost(argparse.Action):
    """An option given once per item (``--mod +1 --mod *2``), collected up to the engine's limit and refused as
    soon as the command line passes it: argparse's own parsing grows with the square of the options given
    (20,000 modifiers took 8 s to parse before the engine saw one)."""

    def __init__(self, option_strings: Sequence[str], dest: str, *, most: int, items: str, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, **kwargs)
        self.most = most
        self.items = items

    def __call__(
        self,
        parser: argparse.ArgumentParser,
        namespace: argparse.Namespace,
        values: str | Sequence[Any] | None,
        option_string: str | None = None,
    ) -> None:
        items = [*getattr(namespace, self.dest), values]
        if len(items) > self.most:
            raise argparse.ArgumentError(
                self, str(over(f"more than {self.most:,} {self.items}", self.most, self.items))
            )
        setattr(namespace, self.dest, items)


def _run_engine_chain(args: argparse.Namespace) -> int:
    from rulebook.engine import chain, profile
    from rulebook.engine.limits import read_number

    settings = profile.read_profile(args.profile) if args.profile is not None else {}
    for key in ("count", "health", "targets"):
        if getattr(args, key) is not None:
            settings[key] = read_number(getattr(args, key), f"--{key}")
    if args.damage is not None:
        settings["damage"] = profile.damage_text(args.damage)
    settings["values"] = {**settings.get("values", {}), **profile.read_values(args.value)}
    settings["rerolls"] = {**settings.get("rerolls", {}), **profile.read_rerolls(args.reroll)}
    answer = chain.run_chain(_engine_rules(args), profile.make_profile(settings))
    emit(args, answer.as_json(), chain.render_text(answer))
    return 0


def _run_engine_turns(args: argparse.Namespace) -> int:
    from rulebook.engine import turns

    structure = turns.turn_structure(_engine_rules(args))
    emit(args, structure, turns.render_text(structure))
    return 0


def _engine_command(run: Callable[[argparse.Namespace], int]) -> Callable[[argparse.Namespace], int]:
    """The engine says what is wrong with its rule data or a question as RulesError: a usage error here."""

    @functools.wraps(run)
    def command(args: argparse.Namespace) -> int:
        from rulebook.engine.rules import RulesError

        try:
            return run(args)
        except RulesError as error:
            raise UsageError(str(error)) from error

    return command
