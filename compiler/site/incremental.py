"""The site of ``rulebook serve``, kept up to date page by page.

A full build (:mod:`rulebook.site.writer`) plans each site of a book (:class:`~rulebook.site.generator.SiteRun`)
and builds it whole. ``serve`` plans the same runs again after an edit, compares them with the
last ones (:func:`changes_between`) and hands only the pages whose Markdown changed to a
:class:`~rulebook.site.generator.LiveSite`: a site its generator keeps loaded (MkDocs does,
:class:`~rulebook.site.mkdocs_adapter.MkDocsLiveSite`), which renders them again into the served folder.

Files beside the pages are written atomically, so the server never sends half a file.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.fileio import write_changed
from rulebook.site.generator import RunChange, SiteRun
from rulebook.site.pages import Page, SiteInput, SitePlan, chapter_page
from rulebook.site.theme import Theme
from rulebook.site.translated import TranslatedSite
from rulebook.site.writer import book_runs, graph_files, original_alternates, site_plan, translated_sites

if TYPE_CHECKING:
    from jinja2 import Environment


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
    """A book's site as planned: its runs (one site each), and the files written beside them as they are."""

    folder: str
    """The book's folder in the site: ``""`` for the main book, ``"name/"`` for another."""
    runs: tuple[SiteRun, ...]
    translated: tuple[TranslatedSite, ...] = ()
    """Each translation's site (the original's pages say where they are in it)."""
    files: Mapping[str, str] = field(default_factory=dict)
    """Files by their path in the book's folder (the term-graph pictures, ``rules.json``)."""


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


def _shape(run: SiteRun) -> tuple[object, ...]:
    """What every page of a site depends on: the navigation (titles and order), the pages, the configuration."""
    return run.nav, [(page.path, page.title) for page in run.pages], run.settings


def write_files(folder: Path, files: Mapping[str, str]) -> None:
    """Files beside the pages (pictures, rule data), each replaced in one step."""
    for name, text in sorted(files.items()):
        write_changed(folder / name, text.encode("utf-8"))
