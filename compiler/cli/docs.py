"""``rulebook docs``: the guides installed with the package, listed, printed or found on disk."""

from __future__ import annotations

import argparse
from collections.abc import Sequence

from rulebook.cli.common import Commands, UsageError, write_stdout


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    docs = commands.add_parser(
        "docs",
        help="read the documentation installed with the package: the format, the lint, the site, ...",
        description="Without TOPIC, list the guides installed with this package; with one, print it (Markdown). "
        "Messages point at them by topic: `rulebook docs lint`.",
    )
    docs.add_argument("topic", nargs="?", metavar="TOPIC", help="a guide: lint, format, site, ... (or readme)")
    docs.add_argument("--path", action="store_true", help="print where the guide's file is installed instead")
    docs.set_defaults(run=run_docs)


def run_docs(args: argparse.Namespace) -> int:
    from rulebook import guides

    if args.topic is None:
        return _list(path=args.path)
    try:
        topic = guides.topic_of(args.topic)
    except guides.UnknownGuide:
        from rulebook.cli.usage import closest

        found = closest(args.topic.lower(), guides.topics())
        hint = f"did you mean `{found}`?" if found else "`rulebook docs` lists them"
        raise UsageError(f"no guide is called `{args.topic}`: {hint}") from None
    if args.path:
        where = guides.guide(topic)
        write_stdout(f"{where}\n" if where is not None else "(the package's description: `pip show -v`)\n")
        return 0
    write_stdout(guides.guide_text(topic))
    return 0


def _list(*, path: bool) -> int:
    from rulebook.guides import guides_folder, topics

    if path:
        write_stdout(f"{guides_folder()}\n")
        return 0
    found = topics()
    width = max(map(len, found))
    lines = [f"  {topic:<{width}}  {title}" for topic, title in found.items()]
    write_stdout(
        "The guides installed with this package (`rulebook docs TOPIC` prints one, Markdown):\n"
        + "\n".join(lines)
        + f"\nTheir files: {guides_folder()}\n"
    )
    return 0
