"""``rulebook deploy``: build the site, then commit it to a ``gh-pages`` branch and push it (``mkdocs gh-deploy``)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from rulebook.cli.common import Commands, Progress, add_config_option, plural, project_of


def add_commands(commands: Commands, words: Sequence[str] = ()) -> None:
    deploy = commands.add_parser(
        "deploy",
        help="build the site and publish it on a branch of its own (gh-pages), as mkdocs gh-deploy does",
        description="Build every book as `rulebook build` does, then commit the site to a branch of its own "
        "(gh-pages) and push it, for GitHub Pages from a branch or any host that serves one. The commit is made "
        "with Git's plumbing: the working tree, the index and the branch checked out are never touched. Teams "
        "on GitHub can use the workflow `rulebook init` writes instead (`rulebook docs site`).",
        epilog="Exit status: 0 deployed (or nothing changed), 1 --strict and lint errors (nothing deployed), "
        "2 the build or Git failed (nothing deployed).",
    )
    deploy.add_argument("--branch", default="gh-pages", help="the branch the site is committed to (default: gh-pages)")
    deploy.add_argument("--remote", default="origin", help="the remote the branch is pushed to (default: origin)")
    deploy.add_argument("--no-push", action="store_true", help="commit to the branch here, push nothing")
    deploy.add_argument("--message", "-m", help="the commit's message (default: the sources' commit it was built from)")
    deploy.add_argument("--strict", action="store_true", help="deploy nothing when the lint finds errors")
    deploy.add_argument("--quiet", "-q", action="store_true", help="no progress messages")
    add_config_option(deploy)
    deploy.set_defaults(run=run_deploy)


def run_deploy(args: argparse.Namespace) -> int:
    from rulebook import build_values, recipe
    from rulebook.cli.build import report_build
    from rulebook.deploy import check_deployable, deploy_site

    project = project_of(args)
    check_deployable(project.root, args.branch, None if args.no_push else args.remote)
    progress = Progress(args.quiet)
    options = build_values.BuildOptions(
        output=project.site_folder, generator=project.generator, offline=project.offline, strict=args.strict
    )
    result = recipe.build(project, options, progress=progress)
    status = report_build(result, progress)
    if status != 0:
        print("rulebook: nothing was deployed.", file=sys.stderr)
        return status
    remote = None if args.no_push else args.remote
    deployed = deploy_site(result.output, project.root, branch=args.branch, remote=remote, message=args.message)
    commit = deployed.commit[:12]
    if not deployed.changed:
        progress(f"The branch `{deployed.branch}` holds this site already ({commit}): nothing to commit.")
    else:
        progress(f"Committed the site ({plural(deployed.files, 'file')}) to `{deployed.branch}` as {commit}.")
    if deployed.pushed_to:
        progress(f"Pushed `{deployed.branch}` to {deployed.pushed_to}.")
    return 0
