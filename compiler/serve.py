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
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import queue
import re
import shutil
import sys
import tempfile
import threading
import time
import urllib.parse
from collections import Counter, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from http import HTTPStatus
from pathlib import Path
from typing import Any

from rulebook import build_values, recipe
from rulebook.data_worker import BackgroundData
from rulebook.errors import SiteBuildError, UserError
from rulebook.project import Project, load_project
from rulebook.site.generator import LiveSite
from rulebook.site.incremental import SiteChange, write_files
from rulebook.site.writer import live_generator

EVENTS_PATH = "/__rulebook_events__"
RELOAD_SCRIPT = """// Reloads the page, where it was scrolled to, as soon as `rulebook serve` has written it again.
(function () {
  var here = location.pathname.replace(/index\\.html$/, "");
  var key = "rulebook-serve-scroll:" + here;
  var saved = sessionStorage.getItem(key);
  if (saved !== null) {
    sessionStorage.removeItem(key);
    var restore = function () { window.scrollTo(0, Number(saved)); };
    restore();
    window.addEventListener("load", restore);
  }
  var events = new EventSource("EVENTS_PATH?page=" + encodeURIComponent(here));
  events.onmessage = function (message) {
    var written = JSON.parse(message.data);
    if (written.indexOf("*") !== -1 || written.indexOf(here) !== -1) {
      sessionStorage.setItem(key, String(window.scrollY));
      events.close();
      location.reload();
    }
  };
})();
""".replace("EVENTS_PATH", EVENTS_PATH)
LOCAL_HOSTS = frozenset({"127.0.0.1", "localhost", "::1"})
"""The host names a request to the preview may give (the ``Host`` header, without its port)."""
EVERY_PAGE = "*"
"""Written in place of the pages' URLs when the whole site was built again."""


def watched(project: Project, files: tuple[Path, ...]) -> list[Path]:
    """What a change to updates the site for: every source, translation, terminology and waiver list,
    the look, the configuration."""
    paths = list(files) or [s for book in project.books for s in book.sources]
    for book in project.books if not files else ():
        for translation in book.translations:
            paths += [translation.source, translation.source.with_name("waivers.toml")]
            paths += [translation.terms] if translation.terms is not None else []
    paths += [project.root / "site_templates", project.root / "mkdocs.yml"]
    return paths + ([project.config_file] if project.config_file else [])


def serve(
    project: Project,
    files: tuple[Path, ...],
    *,
    port: int = 8000,
    progress: Callable[[str], None] = lambda message: None,
    report: Callable[[build_values.BuildResult], bool] = lambda result: result.published,
    once: bool = False,
    generator: str | None = None,
) -> int:
    """Serve the project's site; update it when a watched file changes (``once``: build, then stop).

    ``generator``: what builds the site (default: the project's ``generator``).

    ``report`` prints what a full build gave, and says whether it is worth reloading the pages.
    """
    server = _server(port)
    _remove_abandoned()
    folder = Path(tempfile.mkdtemp(prefix=FOLDER_PREFIX))
    (folder / OWNER).write_text(f"{os.getpid()}\n", encoding="utf-8")
    try:
        return _serve(project, files, server, folder, progress, report, once, generator or project.generator)
    finally:
        server.server_close()
        shutil.rmtree(folder, ignore_errors=True)


FOLDER_PREFIX = "rulebook-serve-"
OWNER = ".rulebook-serve-pid"
"""The file in a serve folder naming the process that serves it."""


def _remove_abandoned() -> None:
    """Remove the folders of earlier ``serve`` processes that died without cleaning up (``kill -9``)."""
    for folder in Path(tempfile.gettempdir()).glob(FOLDER_PREFIX + "*"):
        try:
            pid = int((folder / OWNER).read_text(encoding="utf-8"))
            if folder.is_symlink() or folder.stat().st_uid != os.getuid():
                continue
        except (OSError, ValueError):
            continue  # not one of ours, or not finished being made: leave it
        if not _alive(pid):
            shutil.rmtree(folder, ignore_errors=True)


def _alive(pid: int) -> bool:
    """Whether a process has this pid (one of another user's counts: signalling it is refused, not failed)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        pass
    return True


def _server(port: int) -> http.server.ThreadingHTTPServer:
    """The server's socket, bound before anything is built: a busy port is said at once."""
    try:
        return _Server(("127.0.0.1", port), _Handler, bind_and_activate=True)
    except OSError as error:
        reason = (error.strerror or str(error)).lower()
        raise UserError(f"cannot serve on port {port}: {reason} (choose another with --port, or 0 for any)") from None


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
    news = _News()
    options = build_values.BuildOptions(
        output=folder / "site",
        files=files,
        drafts=True,
        live_reload=RELOAD_SCRIPT,
        generator=generator,
        kept=folder / "kept",  # gone with the folder
    )
    live = _Live(project, options, folder / "live", news, progress, report)
    # Watching starts before the first build: an edit made while it runs is not missed.
    with _Watcher([] if once else watched(project, files), live.changed_later, project.root):
        live.rebuild()
        server.RequestHandlerClass = functools.partial(_Handler, news, options.output)
        print(f"Serving on http://127.0.0.1:{server.server_address[1]}/ (Ctrl+C to stop)", file=sys.stderr)
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


class _Live:
    """The served site: built whole at the start (and when the look changes), then page by page.

    Runs on one thread (the main one); the watcher and the background work post to its queue.
    """

    def __init__(
        self,
        project: Project,
        options: build_values.BuildOptions,
        scratch: Path,
        news: _News,
        progress: Callable[[str], None],
        report: Callable[[build_values.BuildResult], bool],
    ) -> None:
        self.project, self.options, self.scratch = project, options, scratch
        self.news, self.progress, self.report = news, progress, report
        self.cache = recipe.StageCache(limit=2 * len(project.books) + 2)
        self.books: dict[str, build_values.LiveBook] = {}
        self.sites: dict[str, LiveSite] = {}
        self.live = live_generator(options.generator)
        """The generator if it keeps its sites loaded between edits; else every edit builds the site again."""
        self.whole = True
        """The next change builds everything (nothing was built yet, or the last full build failed)."""
        self.failing: set[str] = set()
        """The books whose last edit could not be built (their last good pages still served)."""
        self.later: dict[str, None] = {}
        """The books whose translations, editions and rule data wait to be recomputed, in order."""
        self.job: tuple[str, build_values.LiveBook, BackgroundData[build_values.LiveLater]] | None = None
        self.queue: queue.Queue[tuple[str, Any]] = queue.Queue()

    def changed_later(self, paths: frozenset[Path]) -> None:
        """Called by the watcher (on its thread)."""
        self.queue.put(("changed", paths))

    def run(self) -> None:
        while True:
            kind, item = self.queue.get()
            try:
                if kind == "changed":
                    self.changed(self._with_later_edits(item))
                else:
                    self.recomputed(*item)
            except (UserError, SiteBuildError, OSError) as error:
                print(f"rulebook: error: {error}; still serving the last good pages", file=sys.stderr)
                self.whole = True

    def _with_later_edits(self, paths: frozenset[Path]) -> frozenset[Path]:
        """These edits and every other one made meanwhile, for one step."""
        found = set(paths)
        while not self.queue.empty():
            kind, item = self.queue.get()
            if kind != "changed":
                self.queue.put((kind, item))
                break
            found |= item
        return frozenset(found)

    def rebuild(self) -> None:
        """Build the whole site with :func:`recipe.build`, and keep its MkDocs sites loaded."""
        self._stop(set(self.books))
        self.later.clear()
        if self.project.config_file is not None:  # the configuration may be what changed
            try:
                self.project = load_project(config_file=self.project.config_file)
            except UserError as error:
                print(f"rulebook: {error}; still serving the last good site.", file=sys.stderr)
                self.whole = True
                return
        result = recipe.build(self.project, self.options, progress=self.progress, cache=self.cache)
        if not self.report(result) or not result.published:
            print("rulebook: the sources cannot be built; still serving the last good site.", file=sys.stderr)
            self.whole = True
            return
        if self.live is None:  # nothing to keep loaded: every edit builds again
            self.whole = False
            self.news.publish([EVERY_PAGE])
            return
        books = recipe.live_books(self.project, self.options, self.cache)
        if isinstance(books, build_values.BuildResult):
            self.whole = True
            return
        self.books = {book.config.name: book for book in books}
        self.sites = self._open(books)
        self.whole = False
        self.news.publish([EVERY_PAGE])

    def _open(self, books: Sequence[build_values.LiveBook]) -> dict[str, LiveSite]:
        assert self.live is not None
        sites: dict[str, LiveSite] = {}
        for book in books:
            for run in book.site.runs:
                where = book.site.folder + run.folder
                sites[where] = self.live.open_live(
                    run,
                    config_file=book.look.config_file,
                    docs=self.scratch / "docs" / str(len(sites)),
                    site_dir=self.options.output / where,
                    scripts=book.look.scripts,
                )
                sites[where].warm()
        return sites

    def changed(self, paths: frozenset[Path]) -> None:
        """An edit: the edited books' pages now, what depends on them aside."""
        started = time.perf_counter()
        if self.whole or self.live is None:
            self.rebuild()
            self._said_built(started)
            return
        affected = recipe.live_affected(self.project, list(self.books.values()), paths)
        if affected.rebuild:
            self.rebuild()
            return
        self._stop(set(affected.later))
        failed, written = set(), 0
        for name in affected.books:
            edit = recipe.update_live(self.project, self.options, self.books[name], self.cache)
            if isinstance(edit, build_values.BuildResult):
                self.report(edit)
                print("rulebook: the sources cannot be built; still serving the last good pages.", file=sys.stderr)
                failed.add(name)
                self.failing.add(name)
                continue
            first = self._show(edit.first)  # the edited chapters, before the rest of the book is even planned
            if first is None:
                return
            self.books[name], change = recipe.finish_live(edit)
            rest = self._show(change)
            if rest is None:
                return
            written += first + rest
            if name in self.failing:
                self.failing.discard(name)
                if not first + rest:  # fixed back to what was served: nothing to write, but say so
                    self.progress(f"{self.books[name].config.label} builds again; its pages are up to date")
        self._said(written, started)
        self.later.update(dict.fromkeys(name for name in affected.later if name not in failed))
        self._start()

    def _show(self, change: SiteChange) -> int | None:
        """Write what changed, the pages open in a browser first; how many pages (None: all was built again)."""
        written = 0
        try:
            for run in change.runs:
                where = change.folder + run.run.folder
                site = self.sites.get(where)
                if site is None or site.run.settings != run.run.settings:
                    self.rebuild()  # a translation came or went: the sites' settings changed
                    return None
                prefix = "/" + where
                first = [url[len(prefix) :] for url in self.news.viewed() if url.startswith(prefix)]
                for url in site.render(run, first):
                    self.news.publish([prefix + url])
                    written += 1
            write_files(self.options.output / change.folder, change.files)
        except SiteBuildError as error:
            print(f"rulebook: {error}; building everything again at the next change", file=sys.stderr)
            self.whole = True
            return None
        return written

    def _said_built(self, started: float) -> None:
        if not self.whole:
            self.progress(f"Built the site again in {time.perf_counter() - started:.2f} s")

    def _said(self, written: int, started: float) -> None:
        if written:
            pages = f"{written} page" + ("s" if written > 1 else "")
            self.progress(f"Updated {pages} in {time.perf_counter() - started:.2f} s")

    # -- the background: translations, editions and rule data ---------------------------------------------

    def _start(self) -> None:
        """Recompute the next waiting book in a forked worker (one at a time: the pages keep the other core)."""
        if self.job is not None or not self.later:
            return
        name = next(iter(self.later))
        del self.later[name]
        live, books = self.books[name], tuple(self.books.values())
        work = BackgroundData(
            lambda: recipe.recompute_live(self.project, self.options, live, books, self.cache),
            what=f"recomputing the translations and rule data of `{name}`",
        )
        work.__enter__()
        self.job = (name, live, work)
        threading.Thread(target=self._wait, args=(name, live, work), daemon=True).start()

    def _wait(self, name: str, live: build_values.LiveBook, work: BackgroundData[build_values.LiveLater]) -> None:
        outcome: build_values.LiveLater | Exception
        try:
            outcome = work.files()
        except Exception as error:
            outcome = error
        finally:
            work.__exit__(None, None, None)
        self.queue.put(("recomputed", (name, live, work, outcome)))

    def recomputed(
        self,
        name: str,
        live: build_values.LiveBook,
        work: BackgroundData[build_values.LiveLater],
        outcome: build_values.LiveLater | Exception,
    ) -> None:
        if self.job is None or self.job[2] is not work:
            return  # stopped: an edit made it stale
        self.job = None
        started = time.perf_counter()
        if self.books.get(name) is not live:
            self.later[name] = None
        elif isinstance(outcome, Exception):
            print(f"rulebook: {outcome}", file=sys.stderr)
        else:
            self._tell(outcome)
            self.books[name], change = recipe.apply_live(live, outcome)
            written = self._show(change)
            if written is None:
                return
            self._said(written, started)
            book = live.config
            parts = (("translations", book.translations), ("what changed", book.changes_from))
            done = [what for what, there in parts if there]
            self.progress(f"{', '.join([*done, 'rule data']).capitalize()} of {book.label} up to date")
        self._start()

    def _tell(self, later: build_values.LiveLater) -> None:
        if later.problems:
            self.report(build_values.BuildResult(self.options.output, refused=later.problems))
        if later.invalid_data:
            print(f"rulebook: rules.json is not updated: {later.invalid_data}", file=sys.stderr)

    def _stop(self, names: set[str]) -> None:
        """Stop the background work of these books (an edit made it stale); it is started again later."""
        if self.job is not None and self.job[0] in names:
            self.later[self.job[0]] = None
            self.job[2].stop()
            self.job = None

    def close(self) -> None:
        if self.job is not None:
            self.job[2].stop()
            self.job = None


class _Watcher:
    """The operating system's notice of changes to the watched files, passed on once the files are written.

    A file closed after writing, or moved into place, is complete; one only created, modified or
    deleted may be in the middle of a save, and is waited for a moment longer. The folders above
    the watched ones, up to the project's, are watched too: a watched folder deleted and made
    again (a branch switched, a folder restored) is watched again, and what it holds taken as edited.
    """

    COMPLETE = 0.005
    SETTLE = 0.15

    def __init__(self, paths: Iterable[Path], post: Callable[[frozenset[Path]], None], root: Path) -> None:
        from watchdog.observers import Observer

        self._files = {os.path.abspath(p) for p in paths if not p.is_dir()}
        self._folders = [os.path.abspath(p) + os.sep for p in paths if p.is_dir()]
        self._post = post
        self._pending: dict[str, float] = {}
        self._changed = threading.Condition()
        self._stopped = False
        self._observer = Observer()
        self._handler = _handler(self._event)
        self._kinds = _event_kinds()
        self._recursive = {folder.rstrip(os.sep): True for folder in self._folders}
        for file in self._files:
            self._recursive.setdefault(os.path.dirname(file), False)
        top = os.path.abspath(root)
        for folder in list(self._recursive):
            while folder != top and os.path.dirname(folder) != folder and folder.startswith(top + os.sep):
                folder = os.path.dirname(folder)
                self._recursive.setdefault(folder, False)
        self._watches: dict[str, Any] = {}
        for folder in sorted(self._recursive):
            self._watch(folder)

    def _watch(self, folder: str) -> None:
        """Watch a folder (again: a deleted folder's watch is dead, and a new one is made)."""
        dead = self._watches.pop(folder, None)
        if dead is not None:
            self._observer.unschedule(dead)
        if os.path.isdir(folder):
            recursive = self._recursive[folder]
            self._watches[folder] = self._observer.schedule(
                self._handler, folder, recursive=recursive, event_filter=self._kinds
            )

    def __enter__(self) -> _Watcher:
        self._observer.start()
        threading.Thread(target=self._pass_on, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        self._observer.stop()
        self._observer.join()

    def _event(self, path: str, complete: bool, folder: bool = False) -> None:
        if folder:  # made, or moved into place: the watched folders in it are watched again
            self._made_again(path)
            return
        if path not in self._files and not any(path.startswith(folder) for folder in self._folders):
            return
        with self._changed:
            self._pending[path] = time.monotonic() + (self.COMPLETE if complete else self.SETTLE)
            self._changed.notify_all()

    def _made_again(self, path: str) -> None:
        inside = path + os.sep
        again = sorted(f for f in self._recursive if f == path or f.startswith(inside))
        if not again:
            return
        for folder in again:  # outer first
            self._watch(folder)
        for file in self._files:
            if file.startswith(inside):
                self._event(file, False)
        for folder in self._folders:
            if folder.startswith(inside):
                self._event(folder, False)

    def _pass_on(self) -> None:
        while True:
            with self._changed:
                while not self._pending and not self._stopped:
                    self._changed.wait()
                if self._stopped:
                    return
                wait = max(self._pending.values()) - time.monotonic()
                if wait > 0:
                    self._changed.wait(wait)
                    continue
                paths = frozenset(Path(path) for path in self._pending)
                self._pending.clear()
            self._post(paths)


def _event_kinds() -> list[type[Any]]:
    from watchdog import events

    # Not the notices of files opened or closed unwritten: the build's own reading would be taken for edits.
    return [
        events.FileClosedEvent,
        events.FileMovedEvent,
        events.FileCreatedEvent,
        events.FileDeletedEvent,
        events.FileModifiedEvent,
        events.DirCreatedEvent,  # a watched folder made again
        events.DirMovedEvent,
    ]


def _handler(notify: Callable[[str, bool, bool], None]) -> Any:
    """A watchdog handler telling ``notify`` each path an event touches, whether it is complete, and
    whether it is a folder made or moved into place."""
    from watchdog.events import (
        DirCreatedEvent,
        DirMovedEvent,
        FileClosedEvent,
        FileMovedEvent,
        FileSystemEvent,
        FileSystemEventHandler,
    )

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if isinstance(event, DirCreatedEvent):
                notify(os.fsdecode(event.src_path), True, True)
            elif isinstance(event, DirMovedEvent):
                notify(os.fsdecode(event.dest_path), True, True)
            elif isinstance(event, FileMovedEvent):
                notify(os.fsdecode(event.src_path), False, False)
                notify(os.fsdecode(event.dest_path), True, False)
            else:
                notify(os.fsdecode(event.src_path), isinstance(event, FileClosedEvent), False)

    return Handler()


class _News:
    """Which pages are open in a browser, and which were written again: what the reload script listens to."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._serial = 0
        self._recent: deque[tuple[int, tuple[str, ...]]] = deque(maxlen=10_000)
        self._viewers: Counter[str] = Counter()
        self.closed = False

    def publish(self, urls: Sequence[str]) -> None:
        """Tell the pages at these URLs (from the site's root, ``/chapter/``) that they were written again."""
        with self._changed:
            self._serial += 1
            self._recent.append((self._serial, tuple(urls)))
            self._changed.notify_all()

    def serial(self) -> int:
        with self._changed:
            return self._serial

    def wait(self, after: int, timeout: float) -> tuple[int, list[str]]:
        """The URLs written since ``after`` (waiting for some at most ``timeout`` seconds), and the new serial."""
        with self._changed:
            self._changed.wait_for(lambda: self._serial > after or self.closed, timeout)
            written = [url for serial, urls in self._recent if serial > after for url in urls]
            return self._serial, written

    @contextmanager
    def viewing(self, url: str) -> Iterator[None]:
        with self._changed:
            self._viewers[url] += 1
        try:
            yield
        finally:
            with self._changed:
                self._viewers[url] -= 1
                if self._viewers[url] <= 0:
                    del self._viewers[url]

    def viewed(self) -> list[str]:
        """The URLs of the pages open in a browser now."""
        with self._changed:
            return list(self._viewers)

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()


class _Server(http.server.ThreadingHTTPServer):
    """The preview's server: a request that fails is never a traceback on the editor's terminal."""

    def handle_error(self, request: Any, client_address: Any) -> None:
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):  # the browser went away (a page reloaded, a tab closed)
            return
        if os.environ.get("RULEBOOK_DEBUG"):
            super().handle_error(request, client_address)
            return
        print(
            f"rulebook: internal error answering a request: {type(error).__name__}: {error}\n"
            "This is a bug in the rulebook compiler; set RULEBOOK_DEBUG=1 to see the traceback.",
            file=sys.stderr,
        )


class _Handler(http.server.SimpleHTTPRequestHandler):
    """The site's files, never cached (a page may be written again within the second), and the events.

    Every request is checked before it is answered (:func:`refusal`): whatever a web page or a program sends,
    the answer is a page or a 4xx status, never a traceback."""

    default_request_version = "HTTP/1.0"
    """So that a request refused before its version is read still gets a status line (http.server's default,
    HTTP/0.9, answers with a bare page)."""

    def __init__(self, news: _News, folder: Path, *args: Any, **kwargs: Any) -> None:
        self.news = news
        self.refused_method = False
        super().__init__(*args, directory=str(folder), **kwargs)

    def parse_request(self) -> bool:
        """The request line and headers as http.server reads them, then the preview's own checks."""
        if not super().parse_request():
            return False
        refused = refusal(self.command, self.path, self.headers.get_all("Host") or [], self.request_version)
        if refused is None:
            return True
        self.refused_method = refused[0] == HTTPStatus.METHOD_NOT_ALLOWED
        self.send_error(*refused)
        return False

    def do_GET(self) -> None:
        if urllib.parse.urlsplit(self.path).path == EVENTS_PATH:
            self._send_events()
            return
        del self.headers["If-Modified-Since"]
        super().do_GET()

    def end_headers(self) -> None:
        self.send_header("Cache-Control", "no-store")
        if self.refused_method:
            self.send_header("Allow", "GET, HEAD")
        super().end_headers()

    def _send_events(self) -> None:
        """Server-sent events: each names the pages written again (a page reloads when it is among them)."""
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(self.path).query)
        page = query.get("page", ["/"])[0]
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream")
        self.end_headers()
        serial = self.news.serial()
        with self.news.viewing(page):
            try:
                self.wfile.write(b": listening\n\n")
                self.wfile.flush()
                while not self.news.closed:
                    serial, written = self.news.wait(serial, timeout=15)
                    self.wfile.write(f"data: {json.dumps(written)}\n\n".encode() if written else b": still here\n\n")
                    self.wfile.flush()
            except OSError:
                pass  # the page was closed or reloaded

    def log_message(self, format: str, *args: object) -> None:
        pass


MAX_TARGET = 2048
"""Characters of a request's target (path and query): the site's longest URL is a small part of it."""
_METHOD = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
"""A method, as HTTP writes one (a token)."""
_PERCENT = re.compile(r"%(?![0-9A-Fa-f]{2})")
"""A percent sign that does not start an escape."""
_HOST = re.compile(r"(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9._~!$&'()*+,;=-]+)(:[0-9]{0,5})?")
"""A ``Host`` header: a name, an IPv4 address or a bracketed IPv6 address, then maybe a port."""


def refusal(method: str, target: str, hosts: Sequence[str], version: str) -> tuple[HTTPStatus, str] | None:
    """Why the preview refuses a request (its status and a message), or None to answer it.

    ``hosts``: every ``Host`` header the request gave. A malformed request is 400, a method other than GET and
    HEAD 405, an overlong target 414; a request that names a host other than this machine (a page elsewhere
    whose name was pointed at 127.0.0.1: DNS rebinding) is 403, refused the editor's drafts."""
    if not _METHOD.fullmatch(method):
        return HTTPStatus.BAD_REQUEST, "Bad request method"
    if method not in ("GET", "HEAD"):
        return HTTPStatus.METHOD_NOT_ALLOWED, "This preview answers GET and HEAD only"
    if len(target) > MAX_TARGET:
        return (
            HTTPStatus.REQUEST_URI_TOO_LONG,
            f"A target of {len(target):,} characters (at most {MAX_TARGET:,})",
        )
    problem = _target_problem(target)
    if problem is not None:
        return HTTPStatus.BAD_REQUEST, problem
    if len(hosts) > 1:
        return HTTPStatus.BAD_REQUEST, "More than one Host header"
    if not hosts and version != "HTTP/1.0":
        return HTTPStatus.BAD_REQUEST, "No Host header"
    found = _HOST.fullmatch(hosts[0]) if hosts else None
    if hosts and found is None:
        return HTTPStatus.BAD_REQUEST, "Bad Host header"
    if found is not None and found.group(1).strip("[]").lower() not in LOCAL_HOSTS:
        return HTTPStatus.FORBIDDEN, "This preview answers only to 127.0.0.1 and localhost"
    return None


def _target_problem(target: str) -> str | None:
    """What is wrong with a request's target (None when it is a path, with a query maybe, that names a file)."""
    if not (target.startswith("/") and target.isascii() and target.isprintable()):
        return "Bad request target (a path such as /index.html)"
    if _PERCENT.search(target):
        return "Bad percent-encoding"
    try:
        path = urllib.parse.unquote_to_bytes(urllib.parse.urlsplit(target).path).decode("utf-8")
    except UnicodeDecodeError:
        return "Bad percent-encoding (not UTF-8)"
    if any(ord(c) < 0x20 or 0x7F <= ord(c) < 0xA0 for c in path):  # NUL among them: no file name holds one
        return "Bad path (a control character)"
    return None
