"""The served site's state: built whole at the start (and when the look changes), then page by page."""

from __future__ import annotations

import queue
import sys
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from rulebook import build_values, recipe
from rulebook.data_worker import BackgroundData
from rulebook.errors import SiteBuildError, UserError
from rulebook.fileio import forget_git_ignored, link_loop
from rulebook.project import Project, load_project
from rulebook.recipe.cache import StageCache
from rulebook.recipe.live import (
    apply_live,
    finish_live,
    kin_untouched,
    live_books,
    live_pages_refusal,
    recompute_live,
    update_live,
)
from rulebook.report.escaping import terminal_message
from rulebook.serve.edits import touched_by
from rulebook.serve.findings import LintNews
from rulebook.serve.news import EVERY_PAGE, News
from rulebook.site.generator import LiveSite
from rulebook.site.incremental import SiteChange, write_files
from rulebook.site.writer import live_generator


class LivePreview:
    """The served site: built whole at the start (and when the look changes), then page by page.

    Runs on one thread (the main one); the watcher and the background work post to its queue.
    """

    def __init__(
        self,
        project: Project,
        options: build_values.BuildOptions,
        scratch: Path,
        news: News,
        progress: Callable[[str], None],
        report: Callable[[build_values.BuildResult], bool],
    ) -> None:
        self.project, self.options, self.scratch = project, options, scratch
        self.news, self.progress, self.report = news, progress, report
        self.cache = StageCache(limit=2 * len(project.books) + 2)
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
        self.lint_news = LintNews(progress)
        """What the lint found at each book's last build: an edit's new findings are printed."""

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
                print(
                    f"rulebook: error: {terminal_message(str(error))}; still serving the last good pages",
                    file=sys.stderr,
                )
                self.whole = True
            except RuntimeError as error:  # an edit made a file a loop of links (`ln -s book.md book.md`): it ended
                where = link_loop(error)
                if where is None:
                    raise
                print(
                    f"rulebook: error: cannot follow {terminal_message(where)}: a loop of symbolic links; still "
                    "serving the last good pages",
                    file=sys.stderr,
                )
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
        forget_git_ignored()
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
        for built in result.books:
            self.lint_news.built(built.name, built.label or built.name, built.lint)
        if self.live is None:  # nothing to keep loaded: every edit builds again
            self.whole = False
            self.news.publish([EVERY_PAGE])
            return
        books = live_books(self.project, self.options, self.cache)
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
        forget_git_ignored()  # a file may have been added to Git, or to `.gitignore`
        started = time.perf_counter()
        if self.whole or self.live is None:
            self.rebuild()
            self._said_built(started)
            return
        affected = touched_by(self.project, [book.config for book in self.books.values()], paths)
        if affected.rebuild:
            self.rebuild()
            return
        self._stop(set(affected.later))
        failed, written = set(), 0
        untouched = set()
        for name in affected.books:
            edited = [self.books[own] for own in affected.own]
            if name not in affected.own and kin_untouched(self.project, self.books[name], edited):
                untouched.add(name)
                continue  # a book of the family that shows nothing the edit changed: its pages and data stay
            edit = update_live(self.project, self.options, self.books[name], self.cache)
            stopped = (
                edit if isinstance(edit, build_values.BuildResult) else live_pages_refusal(self.books, name, edit.read)
            )  # the site's bound on pages a `build` holds, held as an edit adds chapters
            if stopped is not None or isinstance(edit, build_values.BuildResult):
                if isinstance(stopped, str):
                    print(f"rulebook: error: {stopped}", file=sys.stderr)
                elif stopped is not None:
                    self.report(stopped)
                print("rulebook: the sources cannot be built; still serving the last good pages.", file=sys.stderr)
                failed.add(name)
                self.failing.add(name)
                continue
            self.lint_news.built(name, self.books[name].config.label or name, edit.lint)
            first = self._show(edit.first)  # the edited chapters, before the rest of the book is even planned
            if first is None:
                return
            self.books[name], change = finish_live(edit)
            rest = self._show(change)
            if rest is None:
                return
            written += first + rest
            if name in self.failing:
                self.failing.discard(name)
                if not first + rest:  # fixed back to what was served: nothing to write, but say so
                    self.progress(f"{self.books[name].config.label} builds again; its pages are up to date")
        self._said(written, started)
        stale = [name for name in affected.later if name not in failed | (untouched - set(affected.translated))]
        self.later.update(dict.fromkeys(stale))
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
            lambda: recompute_live(self.project, self.options, live, books, self.cache),
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
            self.books[name], change = apply_live(live, outcome)
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
