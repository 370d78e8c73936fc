"""``rulebook serve``: build the site, serve it on localhost, rebuild and reload on every change.

The served build includes one extra script that asks the server for the build
number every second and reloads the page when it changes. The published site
never has it.
"""

from __future__ import annotations

import functools
import http.server
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path

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


def serve(build: Callable[[Path], bool], watch: list[Path], *, port: int = 8000, once: bool = False) -> int:
    """Serve the site ``build(folder)`` makes; rebuild when anything in ``watch`` changes."""
    folder = Path(tempfile.mkdtemp(prefix="rulebook-serve-")) / "site"
    state = _State()
    build(folder)
    handler = functools.partial(_Handler, state, folder)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    print(f"Serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)", file=sys.stderr)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        seen = watched_files(watch)
        while not once:
            time.sleep(1)
            now = watched_files(watch)
            if now != seen:
                seen = now
                print("Change detected: rebuilding…", file=sys.stderr)
                if build(folder):
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
