"""``rulebook serve``: the editor's view of the site on localhost, kept up to date as the sources change.

The site is first built whole by :func:`recipe.build` into a temporary folder (removed on every
exit path); the port is taken before. Then each edit, reported by the operating system
(inotify, through watchdog), runs the recipe's incremental step: the edited book is read and
linted again, its pages planned again, and only the pages whose text changed are rendered
by the site generator, which keeps the site loaded (:class:`~rulebook.site.generator.LiveSite`), the pages open in a
browser first. What the author does not wait for (the translations, the other books' "What
changed" pages, ``rules.json``) is recomputed in a forked worker, and its pages written when
it is done. A change of the look (``mkdocs.yml``, ``site_templates/``) or the configuration
builds everything again. With a generator that keeps nothing loaded (Zensical, which runs as a
command: ``generator = "zensical"``, or ``--generator``), every edit builds the site again with
:func:`recipe.build`, its cache warm (kept in the build's work folder beside the served one), and every open
page reloads.

Every page of the served site loads one more script (the published site never has it): it
listens to the server's events and reloads its page as soon as that page is written again,
where it was scrolled to.

The parts: :mod:`~rulebook.serve.live` (the served site's state, one step per edit),
:mod:`~rulebook.serve.edits` (the one list of what an edit touches, which the watcher watches),
:mod:`~rulebook.serve.watcher` (the operating system's notices), :mod:`~rulebook.serve.news` (which pages are
open, which were written), :mod:`~rulebook.serve.server` (the HTTP side and its checks) and
:mod:`~rulebook.serve.folder` (the session's temporary folder).
"""

from __future__ import annotations

import functools
import http.server
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from rulebook import build_values, recipe
from rulebook.project import Project
from rulebook.serve.edits import watched
from rulebook.serve.folder import serve_folder
from rulebook.serve.live import LivePreview
from rulebook.serve.news import News
from rulebook.serve.server import LOCAL, RELOAD_SCRIPT, Handler, audience, make_server
from rulebook.serve.watcher import Watcher


def serve(
    project: Project,
    files: tuple[Path, ...],
    *,
    port: int = 8000,
    host: str = LOCAL,
    progress: Callable[[str], None] = lambda message: None,
    report: Callable[[build_values.BuildResult], bool] = lambda result: result.published,
    once: bool = False,
    generator: str | None = None,
) -> int:
    """Serve the project's site; update it when a watched file changes (``once``: build, then stop).

    ``generator``: what builds the site (default: the project's ``generator``). ``host``: the address it listens
    on, this machine alone by default (another one lets a phone on the network open the preview: a warning says
    that anyone who reaches it reads the drafts).

    ``report`` prints what a full build gave, and says whether it is worth reloading the pages.
    """
    server = make_server(port, host)
    try:
        with serve_folder() as folder:
            return _serve(project, files, server, folder, progress, report, once, generator or project.generator)
    finally:
        server.server_close()


def _where(server: http.server.ThreadingHTTPServer) -> str:
    """The preview's address, as a browser on this machine (and, listening beyond it, another device) opens it."""
    host, port = str(server.server_address[0]), int(server.server_address[1])
    hears = audience(host)
    if not hears.addresses:
        return f"http://{LOCAL}:{port}/"
    shown = f"[{host}]" if ":" in host else host
    if host in ("0.0.0.0", "::"):
        shown = _network_address() or "THIS-MACHINE'S-ADDRESS"
    print(
        f"rulebook: warning: the preview listens on {host}, port {port}: anyone who can reach this machine there "
        "reads the drafts, without a password. Use --host only on a network you trust (without it, the preview "
        "is this machine's alone)",
        file=sys.stderr,
    )
    return f"http://{LOCAL}:{port}/ (from another device: http://{shown}:{port}/)"


def _network_address() -> str | None:
    """This machine's address on its network, as another device reaches it (none found: None)."""
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))  # a documentation address: no packet is sent, the route is chosen
            return str(probe.getsockname()[0])
    except OSError:
        return None


def _serve(
    project: Project,
    files: tuple[Path, ...],
    server: http.server.ThreadingHTTPServer,
    folder: Path,
    progress: Callable[[str], None],
    report: Callable[[build_values.BuildResult], bool],
    once: bool,
    generator: str,
) -> int:
    news = News()
    options = build_values.BuildOptions(
        output=folder / "site",
        files=files,
        drafts=True,
        live_reload=RELOAD_SCRIPT,
        generator=generator,
        kept=folder / "kept",  # gone with the folder
    )
    options = recipe.whole_books(project, options)  # a book's own sources named: that book, as a build makes it
    live = LivePreview(project, options, folder / "live", news, progress, report)
    # Watching starts before the first build: an edit made while it runs is not missed.
    watching = [] if once else [entry.path for entry in watched(project, recipe.chosen_books(project, options))]
    with Watcher(watching, live.changed_later, project.root):
        live.rebuild()
        hears = audience(str(server.server_address[0]))
        server.RequestHandlerClass = functools.partial(Handler, news, options.output, audience=hears)
        print(f"Serving on {_where(server)} (Ctrl+C to stop)", file=sys.stderr)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        try:
            if not once:
                live.run()
        except KeyboardInterrupt:
            pass
        finally:
            news.close()
            live.close()
            server.shutdown()
    return 0
