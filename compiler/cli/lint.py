"""``rulebook lint``, ``explain`` and ``dtd``: the editors' checks and the rules' documentation."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook import formats
from rulebook.cli.common import (
    Commands,
    UsageError,
    add_config_option,
    book_option,
    file_option,
    output_option,
    output_text,
    plural,
    project_of,
    write_file,
    write_stdout,
)

if TYPE_CHECKING:
    from rulebook.project import BookConfig, Project
    from rulebook.recipe.commands import LintTarget
    from rulebook.recipe.family import FamilyMemo
    from rulebook.report.summary import Report
    from rulebook.stage_values import LintResult, ReadResult


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    lint = commands.add_parser(
        "lint",
        help="check the rulebook for broken references, links, duplicates and format errors",
        description="Check rulebook sources. Without FILE, lints every configured book (or the one --book "
        "names), each with its own baseline (see `rulebook init` and `rulebook docs lint`).",
        epilog="Exit status: 0 no errors, 1 errors (or warnings with --strict), 2 unreadable input or bad usage.",
    )
    lint.add_argument(
        "files", nargs="*", default=[], type=Path, metavar="FILE", help="sources to check (default: configured)"
    )
    lint.add_argument("--format", choices=formats.LINT, default="text", help="output format (default: text)")
    lint.add_argument(
        "--output", "-o", type=output_option, help="write the report to this file instead of stdout (- for stdout)"
    )
    lint.add_argument("--pretty", action="store_true", help="indent the JSON report (default: one line per diagnostic)")
    lint.add_argument("--strict", action="store_true", help="fail on warnings as well as errors")
    lint.add_argument("--baseline", type=Path, help="hide the known problems listed in this baseline file")
    lint.add_argument("--no-baseline", action="store_true", help="ignore the configured baseline")
    lint.add_argument(
        "--write-baseline", type=file_option, metavar="FILE", help="record every current problem in FILE and exit 0"
    )
    lint.add_argument(
        "--fix",
        action="store_true",
        help="fix what is not in doubt in place (a reference or link whose did-you-mean has one candidate, or "
        "differs only in case), then report what is left",
    )
    lint.add_argument("--diff", action="store_true", help="show the fixes --fix would make as a diff; write nothing")
    lint.add_argument(
        "--statistics", action="store_true", help="count the findings of each rule instead of listing them"
    )
    lint.add_argument("--color", choices=("auto", "always", "never"), default="auto", help="colour text output")
    lint.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    lint.add_argument(
        "--book", type=book_option, metavar="NAME", help="lint this book of the configuration (default: every book)"
    )
    add_config_option(lint)
    lint.set_defaults(run=run_lint)

    explain = commands.add_parser("explain", help="show the documentation of a lint rule")
    explain.add_argument("rule", nargs="?", help="rule code (RB101) or name (dangling-reference)")
    explain.add_argument("--all", action="store_true", help="list every rule")
    explain.add_argument(
        "--markdown", action="store_true", help="every rule's documentation, as in `rulebook docs lint`"
    )
    explain.set_defaults(run=run_explain)

    dtd = commands.add_parser("dtd", help="print the rulebook DTD the compiler validates against")
    dtd.set_defaults(run=run_dtd)


def run_lint(args: argparse.Namespace) -> int:
    from rulebook import memory
    from rulebook.recipe import commands
    from rulebook.recipe.family import FamilyMemo
    from rulebook.report.summary import exit_code, joined_report

    project = project_of(args)
    targets = commands.lint_targets(
        project, tuple(args.files), book=args.book, baseline=args.baseline, no_baseline=args.no_baseline
    )
    _check_options(args, targets)
    _check_project(project)
    if args.write_baseline:
        return _write_baseline(args, project, targets[0])
    if not args.quiet and sys.stderr.isatty():
        count = sum(len(target.files or target.book.sources) for target in targets)
        print(f"Checking {plural(count, 'file')}…", file=sys.stderr)
    earlier: dict[str, ReadResult] = {}  # each book read once, whether linted or read for another's family
    memo = FamilyMemo()  # and its family made once for all its books
    chapters: dict[int, int] = {}  # by target (its id): the chapters read, each a page of the site
    linted = [_lint(project, target, earlier, memo, chapters) for target in targets]
    _check_site_pages(targets, chapters)
    if args.fix or args.diff:
        fixed = _fix(args, project, linted)
        if args.diff:
            return 1 if fixed else 0
        if fixed:
            again = FamilyMemo()
            linted = [_lint(project, target, {}, again) for target in targets]  # what is left, read again
    reports = [_report(project, result) for _, result in linted]
    report = reports[0] if len(reports) == 1 else joined_report(reports)
    with memory.gc_frozen():  # tens of thousands of records, none in a cycle: no collection while they are made
        output_text(args, _render(args, report))
    if project.config_file is not None and not any(t.files for t in targets if t.translation is None):  # the project
        from rulebook.recipe import check_site_settings

        check_site_settings(project)  # after the report (written where `-o` says, if it may be): then refused
    return exit_code(report, strict=args.strict)


def _check_project(project: Project) -> None:
    """What the build refuses of a configured project before it reads a book, refused here in the same words: the
    output (``output = "site_templates"`` passed the lint), the site's words, the PDF template and the fonts."""
    if project.config_file is None:
        return
    from rulebook.fileio import OutputError
    from rulebook.recipe import check_look, checked_output

    try:
        checked_output(project, project.site_folder)
    except OutputError as error:
        said = f"`output` in {project.config_file.name}" if project.output else "the build's default output"
        raise OutputError(f"{error} ({said})") from None
    check_look(project)


def _check_site_pages(targets: list[LintTarget], chapters: dict[int, int]) -> None:
    """The site's pages of chapters, bounded across the books linted and their translations as the build bounds
    them (ten books each within its own bound made a site of 20,000 pages; a translation's 5,000 chapters 5,000
    pages of its site)."""
    from rulebook.errors import SiteBuildError
    from rulebook.recipe.stages import book_pages, site_pages_refusal

    if any(t.files for t in targets if t.translation is None) or any(id(t) not in chapters for t in targets):
        return  # files of a book, or a book that cannot be read: said as such
    pages = {
        target.book.name: book_pages(
            chapters[id(target)],
            [chapters[id(other)] for other in targets if other.translation is not None and other.book == target.book],
        )
        for target in targets
        if target.translation is None
    }
    refusal = site_pages_refusal(pages)
    if refusal is not None:
        raise SiteBuildError(refusal)


def _check_options(args: argparse.Namespace, targets: list[LintTarget]) -> None:
    """Refuse options that do not go together, before anything is read."""
    books = [target for target in targets if target.translation is None]  # a baseline is a book's only
    if args.write_baseline and len(books) > 1:
        names = ", ".join(target.book.name for target in books)
        raise UsageError(f"each book has its own baseline: name one with --book ({names})")
    if args.write_baseline and (args.fix or args.diff):
        raise UsageError("--write-baseline records the problems as they are: fix them in another run")
    if args.diff and args.output:
        raise UsageError("--diff writes the fixes to standard output, not to --output")
    if args.statistics and args.format not in ("text", "json"):
        raise UsageError(f"--statistics counts in text or json, not {args.format}")


def _lint(
    project: Project,
    target: LintTarget,
    earlier: dict[str, ReadResult],
    memo: FamilyMemo | None = None,
    chapters: dict[int, int] | None = None,
) -> tuple[LintTarget, LintResult]:
    """One target's lint, its notices printed (``earlier``, ``memo``: the books read already and the family made
    of them, see ``commands.lint``; ``chapters``: where the chapters read are counted, by the target's id)."""
    from rulebook.recipe import commands
    from rulebook.report.escaping import terminal_message

    read, result = commands.lint(project, target, earlier, memo)
    if chapters is not None and not read.fatal:
        chapters[id(target)] = sum(1 for _ in read.book.chapters)
    for notice in result.notices:
        print(f"rulebook: warning: {terminal_message(notice)}", file=sys.stderr)
    return target, result


def _report(project: Project, result: LintResult) -> Report:
    """A lint's report, with the findings ``--fix`` would fix."""
    from rulebook.recipe import commands
    from rulebook.report.summary import Report, fix_key

    fixable = frozenset(fix_key(d) for d in commands.fixable(result))
    return Report(
        result.new,
        result.sources,
        result.files,
        result.baselined,
        result.stale_baseline,
        project.rules_docs,
        fixable=fixable,
    )


def _fix(args: argparse.Namespace, project: Project, linted: list[tuple[LintTarget, LintResult]]) -> int:
    """Show (``--diff``) or make (``--fix``) the fixes of what the lint reported; how many findings they fix."""
    from rulebook.recipe import commands

    fixed = [source for target, result in linted for source in commands.fixes(project, target, result)]
    count = sum(source.fixes for source in fixed)
    where = f"{plural(count, 'problem')} in {plural(len(fixed), 'file')}"
    if args.diff:
        from rulebook.source_fixes import unified_diff

        write_stdout(unified_diff(fixed))
        said = f"Would fix {where} (`rulebook lint --fix` makes the fixes)." if fixed else "Nothing to fix."
        print(said, file=sys.stderr)
        return count
    commands.make_fixes(project, fixed)
    if not args.quiet:
        print(f"Fixed {where}." if fixed else "Nothing to fix.", file=sys.stderr)
    return count


def _write_baseline(args: argparse.Namespace, project: Project, target: LintTarget) -> int:
    from rulebook.lint import baseline as baselines
    from rulebook.recipe import commands

    read, result = commands.lint(project, commands.unbaselined(target))
    write_file(args, args.write_baseline, baselines.serialise(result.diagnostics), baseline_of=target.book.name)
    print(f"Wrote {plural(len(result.diagnostics), 'problem')} to {args.write_baseline}.", file=sys.stderr)
    hint = _baseline_hint(project, target.book, args.write_baseline)
    if hint:
        print(hint, file=sys.stderr)
    return 2 if read.fatal else 0


def _baseline_hint(project: Project, book: BookConfig, written: Path) -> str | None:
    """How to have the lint use a baseline just written, unless the configuration names it already."""
    if book.baseline is not None and book.baseline.resolve() == written.resolve():
        return None
    if project.config_file is None:
        return f"Use it with `rulebook lint --baseline {written}`."
    from rulebook.config_file import CONFIG_FILE
    from rulebook.errors import NOT_UTF8

    try:
        relative = written.resolve().relative_to(project.root.resolve()).as_posix()
    except ValueError:
        relative = written.resolve().as_posix()
    prefix = "" if project.config_file.name == CONFIG_FILE else "tool.rulebook"
    table = ".".join(part for part in (prefix, "" if book.name == project.main.name else f"books.{book.name}") if part)
    where = f"the [{table}] table of" if table else "the top (before any [table]) of"
    if NOT_UTF8.search(relative):
        return f"Its name is not UTF-8 text, which {project.config_file.name} cannot hold: use it with `--baseline`."
    import json

    key = f"baseline = {json.dumps(relative, ensure_ascii=False)}"  # a TOML basic string: JSON's escapes
    return f"To have `rulebook lint` and `rulebook build` use it, add `{key}` to {where} {project.config_file.name}."


def _render(args: argparse.Namespace, report: Report) -> str:
    from rulebook.report import json_format, renderer

    if args.statistics:
        from rulebook.report import statistics

        return statistics.render_json(report) if args.format == "json" else statistics.render_text(report)

    if args.format == "text":
        from rulebook.report import text as text_report

        color = args.output is None and text_report.use_color(args.color)
        width = text_report.terminal_width() if args.output is None else text_report.MAX_WIDTH
        return text_report.render(report, color=color, width=width)
    if args.format == "json":
        return json_format.render(report, pretty=args.pretty)
    return renderer(args.format)(report)


def run_explain(args: argparse.Namespace) -> int:
    from rulebook.catalog import RULES, default_severity, find_rule

    if args.markdown:
        from rulebook.catalog import markdown

        write_stdout(markdown())
        return 0
    if args.all or not args.rule:
        width = max(len(r.name) for r in RULES)
        for rule in RULES:
            print(f"{rule.code}  {rule.name:<{width}}  {rule.severity.public:<7}  {rule.summary}")
        return 0
    found = find_rule(args.rule)
    if found is None:
        raise UsageError(f"no lint rule is called `{args.rule}` (see `rulebook explain --all`)")
    print(found.documentation, end="")
    print(f"\n{default_severity(found)}")
    return 0


def run_dtd(args: argparse.Namespace) -> int:
    from rulebook.dtd import dtd_text

    write_stdout(dtd_text())
    return 0
