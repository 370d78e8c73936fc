"""``rulebook serve``: build the site with the recipe ``build`` uses, serve it on localhost, rebuild and
reload on every change.

The served build is the editor's view, with one extra script that asks the server for
the build number every second and reloads the page when it changes. The published site
never has it. The port is taken before the first build, and the temporary folder is
removed on every exit path.
"""

from __future__ import annotations

import functools
import http.server
import shutil
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

from compiler import recipe
from compiler.errors import UserError
from compiler.project import Project

RELOAD_PATH = "/__rulebook_build__"
RELOAD_SCRIPT = """// Reloads the page when `rulebook serve` has rebuilt the site.
(function () {
  var seen = null;
  setInterval(function () {
    fetch("RELOAD_PATH", {cache: "no-store"}).then(function (r) { return r.text(); }).then(function (build) {
      if (seen !== null && build !== seen) { location.reload(); }
      seen = build;
    }).catch(function () {});
  }, 1000);
})();
""".replace("RELOAD_PATH", RELOAD_PATH)


class _State:
    def __init__(self) -> None:
        self.build = 0


def watched_files(roots: Iterable[Path]) -> dict[Path, float]:
    """Modification times of every file under the given files and folders."""
    times: dict[Path, float] = {}
    for root in roots:
        files = [root] if root.is_file() else [p for p in root.rglob("*") if p.is_file()] if root.is_dir() else []
        for path in files:
            times[path] = path.stat().st_mtime
    return times


def watched(project: Project, files: tuple[Path, ...]) -> list[Path]:
    """What a change to rebuilds for: every source, translation and terminology, the look, the configuration."""
    paths = list(files) or [s for book in project.books for s in book.sources]
    paths += [p for book in project.books for t in book.translations for p in (t.source, t.terms) if p is not None]
    paths += [project.root / "site_templates", project.root / "mkdocs.yml"]
    return paths + ([project.config_file] if project.config_file else [])


def serve(
    project: Project,
    files: tuple[Path, ...],
    *,
    port: int = 8000,
    progress: Callable[[str], None] = lambda message: None,
    report: Callable[[recipe.BuildResult], bool] = lambda result: result.published,
    once: bool = False,
) -> int:
    """Serve the project's site; rebuild when a watched file changes.

    ``report`` prints what a build gave, and says whether it is worth reloading the pages.
    """
    server = _server(port)
    folder = Path(tempfile.mkdtemp(prefix="rulebook-serve-"))
    try:
        return _serve(project, files, server, folder / "site", progress, report, once)
    finally:
        server.server_close()
        shutil.rmtree(folder, ignore_errors=True)


def _server(port: int) -> http.server.ThreadingHTTPServer:
    """The server's socket, bound before anything is built: a busy port is said at once."""
    try:
        return http.server.ThreadingHTTPServer(("127.0.0.1", port), _Handler, bind_and_activate=True)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise UserError(f"cannot serve on port {port}: {reason} (choose another with --port, or 0 for any)") from None


def _serve(
    project: Project,
    files: tuple[Path, ...],
    server: http.server.ThreadingHTTPServer,
    output: Path,
    progress: Callable[[str], None],
    report: Callable[[recipe.BuildResult], bool],
    once: bool,
) -> int:
    cache = recipe.StageCache()
    options = recipe.BuildOptions(output=output, files=files, drafts=True, live_reload=RELOAD_SCRIPT)
    state = _State()

    def rebuild() -> bool:
        result = recipe.build(project, options, progress=progress, cache=cache)
        if not result.published:
            print("rulebook: the sources cannot be built; still serving the last good site.", file=sys.stderr)
        return report(result)

    rebuild()
    server.RequestHandlerClass = functools.partial(_Handler, state, output)
    print(f"Serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)", file=sys.stderr)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    watch = watched(project, files)
    try:
        seen = watched_files(watch)
        while not once:
            time.sleep(1)
            now = watched_files(watch)
            if now != seen:
                seen = now
                print("Change detected: rebuilding…", file=sys.stderr)
                if rebuild():
                    print("Site rebuilt.", file=sys.stderr)
                    state.build += 1
    except KeyboardInterrupt:
        pass
    finally:
        server.shutdown()
    return 0


class _Handler(http.server.SimpleHTTPRequestHandler):
    def __init__(self, state: _State, folder: Path, *args: object, **kwargs: object) -> None:
        self.state = state
        super().__init__(*args, directory=str(folder), **kwargs)  # type: ignore[arg-type]

    def do_GET(self) -> None:
        if self.path == RELOAD_PATH:
            body = str(self.state.build).encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
            return
        super().do_GET()

    def log_message(self, format: str, *args: object) -> None:
        pass
