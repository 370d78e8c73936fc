"""The site of ``rulebook serve``, kept up to date page by page.

A full build (:mod:`rulebook.site.writer`) plans each MkDocs site of a book (:class:`MkDocsRun`)
and builds it whole. ``serve`` plans the same runs again after an edit, compares them with the
last ones (:func:`changes_between`) and hands only the pages whose Markdown changed to a
:class:`LiveSite`: a MkDocs site kept loaded (configuration, theme, navigation, search index),
which renders a page with MkDocs' own page pipeline (``_populate_page``, ``_build_page``) into
the served folder. The navigation of a site is built again only when its pages or their titles
change; then every page of that site is rendered again.

Pages are written atomically, so the server never sends half a page.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Collection, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.errors import SiteBuildError
from rulebook.fileio import write_atomic
from rulebook.site.pages import Page, SiteInput, SitePlan, chapter_page
from rulebook.site.theme import Theme
from rulebook.site.translated import TranslatedSite
from rulebook.site.writer import (
    MkDocsRun,
    book_runs,
    build_date,
    graph_files,
    hand_over_html,
    load_mkdocs_config,
    mkdocs_logging,
    original_alternates,
    site_plan,
    translated_sites,
)

if TYPE_CHECKING:
    from jinja2 import Environment
    from mkdocs.structure.files import File


@dataclass(frozen=True, slots=True)
class SiteLook:
    """What a book's pages are made with, loaded once for the whole ``serve``."""

    theme: Theme
    env: Environment
    """The theme's templates, loaded (and compiled as they are first used) once."""
    config_file: Path
    """The project's ``mkdocs.yml`` (relative paths in ``settings`` resolve from its folder)."""
    settings: dict[str, Any]
    """The project's MkDocs configuration for this book (``writer.mkdocs_settings``)."""
    folder: str
    """The book's folder in the site: ``""`` for the main book, ``"name/"`` for another."""
    site_name: str | None
    scripts: tuple[str, ...] = ()
    """Scripts every page loads (live reload)."""
    drafts: bool = False
    """The editor's view (what ``serve`` shows): lint marks and the editors' pages."""
    licence: str | None = None
    """The book's own copyright line (``writer.book_runs``)."""


@dataclass(frozen=True, slots=True)
class BookSite:
    """A book's site as planned: its MkDocs runs, and the files written beside them as they are."""

    folder: str
    """The book's folder in the site: ``""`` for the main book, ``"name/"`` for another."""
    runs: tuple[MkDocsRun, ...]
    translated: tuple[TranslatedSite, ...] = ()
    """Each translation's site (the original's pages say where they are in it)."""
    files: Mapping[str, str] = field(default_factory=dict)
    """Files by their path in the book's folder (the term-graph pictures, ``rules.json``)."""


@dataclass(frozen=True, slots=True)
class RunChange:
    """What to render again in one MkDocs site."""

    run: MkDocsRun
    """The site as it is now."""
    pages: tuple[Page, ...]
    """The pages whose Markdown changed (every page when ``whole``)."""
    whole: bool = False
    """The navigation, the set of pages or the configuration changed: the whole site is rendered again."""


@dataclass(frozen=True, slots=True)
class SiteChange:
    """What an edit changed in a book's site."""

    folder: str
    runs: tuple[RunChange, ...] = ()
    files: Mapping[str, str] = field(default_factory=dict)
    """The files beside the pages that changed, by path in the book's folder."""

    def __bool__(self) -> bool:
        return bool(self.runs or self.files)


def plan_book_site(
    site: SiteInput,
    look: SiteLook,
    *,
    translated: Sequence[TranslatedSite] | None = None,
    files: Mapping[str, str] | None = None,
    plan: SitePlan | None = None,
) -> BookSite:
    """A book's site planned as the full build plans it.

    ``translated``: the translations' sites as they were (``None``: made again from ``site``);
    ``files``: files to write beside the pages besides the term-graph pictures (``rules.json``);
    ``plan``: the site's plan (``writer.site_plan``), if it was made already.
    """
    plan = plan or site_plan(site, look.theme)
    if translated is None:
        translated = translated_sites(plan, look.env, look.theme)
    runs = book_runs(
        plan,
        look.env,
        look.theme,
        translated,
        look.settings,
        book_folder=look.folder,
        site_name=look.site_name,
        licence=look.licence,
    )
    return BookSite(look.folder, runs, tuple(translated), {**graph_files(plan), **(files or {})})


def chapter_pages(
    plan: SitePlan, look: SiteLook, translated: Sequence[TranslatedSite], chapters: Collection[str]
) -> tuple[Page, ...]:
    """The original's pages of these chapters alone, as :func:`plan_book_site` makes them (an edit's first pages)."""
    alternates = original_alternates(translated)
    return tuple(
        chapter_page(plan, chapter, look.env, alternates.get(chapter.id + ".md", ""))
        for chapter in plan.chapters
        if chapter.id in chapters
    )


def with_pages(site: BookSite, pages: Sequence[Page]) -> tuple[BookSite, SiteChange]:
    """``site`` with these pages of its original's site in place of its own (those it has), and that change."""
    original = site.runs[0]
    known = {page.path: page.markdown for page in original.pages}
    new = {page.path: page for page in pages if known.get(page.path, page.markdown) != page.markdown}
    if not new:
        return site, SiteChange(site.folder)
    run = replace(original, pages=tuple(new.get(page.path, page) for page in original.pages))
    shown = replace(site, runs=(run, *site.runs[1:]))
    return shown, SiteChange(site.folder, (RunChange(run, tuple(new.values())),))


def changes_between(old: BookSite, new: BookSite) -> SiteChange:
    """The pages and files of ``new`` that differ from ``old``'s."""
    runs = []
    before = {run.folder: run for run in old.runs}
    for run in new.runs:
        previous = before.get(run.folder)
        if previous is None or _shape(previous) != _shape(run):
            runs.append(RunChange(run, run.pages, whole=True))
            continue
        markdown = {page.path: page.markdown for page in previous.pages}
        changed = tuple(page for page in run.pages if markdown[page.path] != page.markdown)
        if changed:
            runs.append(RunChange(run, changed))
    files = {name: text for name, text in new.files.items() if old.files.get(name) != text}
    return SiteChange(new.folder, tuple(runs), files)


def _shape(run: MkDocsRun) -> tuple[object, ...]:
    """What every page of a site depends on: the navigation (titles and order), the pages, the configuration."""
    return run.nav, [(page.path, page.title) for page in run.pages], run.settings


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    """Files beside the pages (pictures, rule data), each replaced in one step."""
    for name, text in sorted(files.items()):
        _write_new(folder / name, text.encode("utf-8"))


def _write_new(path: Path, data: bytes) -> None:
    """Write ``data`` over ``path`` in one step, unless the file holds it already (its time then stays)."""
    try:
        if path.read_bytes() == data:
            return
    except OSError:
        pass
    write_atomic(path, data)


class LiveSite:
    """One MkDocs site kept loaded between edits: its pages rendered again one by one.

    Opened over a site a full build has just written into ``site_dir`` (from the same ``run``):
    nothing is rendered until :meth:`render` is asked to, and the search index starts from the
    one the build wrote. The pages are kept in memory (MkDocs' generated files); ``docs`` is
    an empty folder MkDocs insists on.
    """

    def __init__(
        self, run: MkDocsRun, *, config_file: Path, docs: Path, site_dir: Path, scripts: tuple[str, ...] = ()
    ) -> None:
        docs.mkdir(parents=True, exist_ok=True)
        self.site_dir = site_dir
        self._blocks: dict[str, dict[str, str]] = {}
        with mkdocs_logging(), _mkdocs_errors():  # what MkDocs says of the settings, the build said already
            _own_plugins()
            config = load_mkdocs_config(run.settings, config_file, docs, site_dir, run.nav, scripts, self._blocks)
            self._config = config.plugins.on_config(config)
            self._config.plugins.on_pre_build(config=self._config)
            self._env = self._config.theme.get_env()
        self._search = next((p for p in self._config.plugins.values() if hasattr(p, "search_index")), None)
        self._entries = _search_entries(site_dir / "search" / "search_index.json")
        self._run = run
        self._files: dict[str, File] = {}
        self._navigate(run)

    @property
    def run(self) -> MkDocsRun:
        return self._run

    def warm(self) -> None:
        """Render one page to nowhere: the theme's templates are compiled before the first edit."""
        if self._run.pages:
            file = self._files[self._run.pages[0].path]
            self._render(file, keep=False)

    def render(self, change: RunChange, first: Sequence[str] = ()) -> Iterator[str]:
        """Render the changed pages again (every page when the site's shape changed), the pages at the
        URLs in ``first`` before the others; yields each page's URL once it is written.

        A change of the site's MkDocs configuration needs a new :class:`LiveSite`.
        """
        if change.run.settings != self._run.settings:
            raise SiteBuildError("the site's MkDocs configuration changed: it must be built again")
        if change.whole:
            removed = self._navigate(change.run)
        else:
            removed = []
            self._run = change.run
            for page in change.pages:
                self._files[page.path].content_string = self._markdown(page)
        order = {url: index for index, url in enumerate(first)}
        files = [self._files[page.path] for page in change.pages]
        files.sort(key=lambda file: order.get(_url(file), len(order)))
        for file in files:
            if self._render(file):
                yield _url(file)
        for url in removed:
            self._remove(url)
        if change.whole:
            self._render_theme_pages()
            urls = [_url(file) for file in self._documents]
            self._entries = {url: self._entries[url] for url in urls if url in self._entries}
        self._write_search_index()

    def _navigate(self, run: MkDocsRun) -> list[str]:
        """The navigation built again from ``run``; the URLs of the pages it no longer has."""
        from mkdocs.structure.files import File, Files, _file_sort_key
        from mkdocs.structure.nav import get_navigation

        config = self._config
        before = {_url(file) for file in self._files.values()}
        pages = sorted(run.pages, key=lambda page: _file_sort_key(page.path))  # as MkDocs lists a docs folder
        with build_date(), _mkdocs_errors():
            config.nav = run.nav
            files = Files([File.generated(config, page.path, content=self._markdown(page)) for page in pages])
            files = config.plugins.on_files(files, config=config)
            nav = get_navigation(files, config)
            self._nav = config.plugins.on_nav(nav, config=config, files=files)
            self._env = config.plugins.on_env(self._env, config=config, files=files)
        self._run = run
        self._files = {file.src_uri: file for file in files.documentation_pages()}
        self._documents = files.documentation_pages()
        self._all = files
        return sorted(before - {_url(file) for file in self._files.values()})

    def _markdown(self, page: Page) -> str:
        markdown, self._blocks[page.path] = hand_over_html(page.markdown)
        return markdown

    def _render(self, file: File, *, keep: bool = True) -> bool:
        """Render a page; whether it was written (a page that comes out the same is left as it was)."""
        from mkdocs.commands.build import _build_page, _populate_page

        assert file.page is not None
        target = file.abs_dest_path
        written = f"{target}.rulebook-new"
        file.abs_dest_path = written  # MkDocs writes where this says: the page is moved into place whole
        if self._search is not None:
            self._search.search_index.entries = []
        try:
            with mkdocs_logging(), build_date(), _mkdocs_errors():
                _populate_page(file.page, self._config, self._all)
                _build_page(file.page, self._config, self._documents, self._nav, self._env)
        finally:
            file.abs_dest_path = target
        if keep and self._search is not None:
            self._entries[_url(file)] = self._search.search_index.entries
        if keep and os.path.exists(written) and not _same(written, target):
            os.replace(written, target)
            return True
        with contextlib.suppress(FileNotFoundError):
            os.remove(written)
        return False

    def _render_theme_pages(self) -> None:
        """The theme's own pages that show the navigation or list the pages (``404.html``, the sitemap)."""
        from mkdocs.commands.build import _build_theme_template

        with mkdocs_logging(), build_date(), _mkdocs_errors():
            for template in self._config.theme.static_templates:
                _build_theme_template(template, self._env, self._all, self._config, self._nav)

    def _remove(self, url: str) -> None:
        page = self.site_dir / url / "index.html" if url.endswith("/") else self.site_dir / url
        with contextlib.suppress(FileNotFoundError):
            page.unlink()
        with contextlib.suppress(OSError):
            page.parent.rmdir()  # only when empty: a folder may hold another site (a translation's)
        self._entries.pop(url, None)

    def _write_search_index(self) -> None:
        if self._search is None:
            return
        index = self._search.search_index
        index.entries = [entry for entries in self._entries.values() for entry in entries]
        _write_new(self.site_dir / "search" / "search_index.json", index.generate_search_index(None).encode("utf-8"))


def _same(one: str, other: str) -> bool:
    try:
        return Path(one).read_bytes() == Path(other).read_bytes()
    except OSError:
        return False


def _url(file: File) -> str:
    """A page's URL from its site's root, as MkDocs gives it to the page (``""`` for the home page)."""
    assert file.page is not None
    return file.page.url


def _own_plugins() -> None:
    """The next site loaded gets plugins of its own.

    MkDocs makes one instance of a plugin with start-up hooks (Material's search) for every site it
    loads, reconfigured by each: a site kept loaded needs its own (its search language and index).
    """
    from mkdocs.config.config_options import Plugins
    from mkdocs.config.defaults import MkDocsConfig

    option = dict(MkDocsConfig._schema)["plugins"]
    assert isinstance(option, Plugins)
    option.plugin_cache.clear()


def _search_entries(path: Path) -> dict[str, list[dict[str, Any]]]:
    """The search index a build wrote, its entries grouped by page URL (in their order)."""
    try:
        docs = json.loads(path.read_text(encoding="utf-8"))["docs"]
    except (OSError, ValueError, KeyError):
        return {}
    entries: dict[str, list[dict[str, Any]]] = {}
    for entry in docs:
        entries.setdefault(entry["location"].partition("#")[0], []).append(entry)
    return entries


@contextlib.contextmanager
def _mkdocs_errors() -> Iterator[None]:
    from mkdocs.exceptions import MkDocsException

    try:
        yield
    except MkDocsException as error:
        raise SiteBuildError(f"MkDocs could not build the page: {error}") from error
