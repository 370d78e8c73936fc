"""``rulebook init`` and ``new-book``: start a project, add a book to it."""

from __future__ import annotations

import argparse
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

from rulebook.cli.common import Commands, add_config_option, project_of


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    init = commands.add_parser(
        "init",
        help="start a rulebook project: a small book, its configuration, a CI workflow that publishes, pre-commit",
        description="Make a working rulebook project in DIR (default: this folder): a sample book in the XML "
        "format (rules/book.xml; in the Markdown dialect with --format markdown: rules/book.md, titled in its front "
        "matter), rulebook.toml with comments, a .gitignore for the built site, a pre-commit "
        "configuration, and a GitHub Actions workflow that lints, builds and publishes on GitHub Pages, with "
        "this compiler's wheel in tools/ for it to install. Refuses a folder that is configured already.",
    )
    init.add_argument(
        "folder", nargs="?", type=Path, default=Path("."), metavar="DIR", help="where (default: this folder)"
    )
    init.add_argument("--title", help="the book's title (default: from the folder's name)")
    init.add_argument(
        "--format",
        choices=("xml", "markdown"),
        default="xml",
        help="the book's source format: xml (rules/book.xml, with its DTD; the default) or markdown (rules/book.md, "
        "the Markdown dialect: `rulebook docs format`)",
    )
    init.set_defaults(run=run_init)

    new_book = commands.add_parser(
        "new-book",
        help="add a book to the project: its table in the configuration and a source to start from",
        description="Add [books.NAME] to the project's configuration with a small source in rules/NAME/; "
        "`rulebook build` then builds it into site/NAME/.",
    )
    new_book.add_argument(
        "name", help="the book's name: lower-case letters, digits, - and _, starting with a letter or a digit"
    )
    new_book.add_argument("--title", help="the book's title (default: from its name)")
    new_book.add_argument(
        "--uses",
        action="append",
        default=[],
        metavar="BOOK",
        help="a book it builds on, such as main: its terms and sections resolve there too (repeat for more)",
    )
    new_book.add_argument(
        "--format",
        choices=("xml", "markdown"),
        default=None,
        help="the book's source format: xml (rules/NAME/book.xml) or markdown (rules/NAME/book.md, its title in its "
        "front matter); default: the main book's",
    )
    add_config_option(new_book)
    new_book.set_defaults(run=run_new_book)


def run_init(args: argparse.Namespace) -> int:
    from rulebook.report.escaping import visible
    from rulebook.scaffold import init_project

    made = init_project(args.folder, args.title, args.format)
    print(visible(f"Made a rulebook project in {made.root}:"))  # the folder's name as typed: it may hold ESC
    for name in made.files:
        print(f"  {name}")
    for name in made.kept:
        print(f"  {name} (yours, kept as it is: see the package's starter for what rulebook would put there)")
    inside = "" if made.root == Path.cwd().resolve() else f"cd {shlex.quote(str(args.folder))} && "
    book = "rules/book.md" if args.format == "markdown" else "rules/book.xml"
    print(visible(f"Next: `{inside}rulebook lint`, then `rulebook serve` to see the site while you edit {book},"))
    print("and `rulebook build` to publish it into site/.")
    if ".github/workflows/rulebook.yml" in made.files:
        print(
            "On GitHub: commit everything, tools/ included (the workflow installs the compiler from the wheel there),\n"
            'and once, before the first push, set the repository\'s Settings > Pages > Source to "GitHub Actions":\n'
            "every push lints and builds, a push to the default branch publishes the site (`rulebook docs site`)."
        )
    sys.stdout.flush()
    from rulebook.scaffold import git_warnings

    for warning in git_warnings(made):
        print(f"rulebook: warning: {warning}", file=sys.stderr)
    if made.enclosing is not None:
        print(
            f"rulebook: warning: `{_shown(made.root)}` is inside the project that `{_shown(made.enclosing)}` "
            "configures: the new project is a separate one, and commands run in it no longer see the outer one (to "
            "add a book to that project instead, remove this folder and run `rulebook new-book NAME` there)",
            file=sys.stderr,
        )
    return 0


def _shown(path: Path) -> str:
    """A path relative to the working folder when it is inside it."""
    try:
        return path.relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return str(path)


def run_new_book(args: argparse.Namespace) -> int:
    from rulebook.scaffold import add_book

    made = add_book(project_of(args), args.name, args.title, args.uses, args.format)
    also = "".join(f" and {name}" for name in made.files[2:])  # the DTD its DOCTYPE names, when it was missing
    print(f"Added the book `{args.name}`: {made.files[0]}{also} (and its table in {made.files[1]}).")
    from rulebook.report.escaping import visible

    site = _shown(project_of(args).site_folder)  # the configured output: it may hold ESC
    print(
        visible(f"`rulebook build` builds it into {site}/{args.name}/; `rulebook lint --book {args.name}` checks it.")
    )
    if args.uses:
        print(
            f"Its references resolve in it, then in {', '.join(f'`{b}`' for b in args.uses)} (`main:term` names one)."
        )
    else:
        print('To refer to another book\'s terms, add `uses = ["main"]` to its table (`rulebook docs format`).')
    return 0
