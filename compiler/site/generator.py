"""What the site asks of a site generator: the interface its adapters implement.

The pages are ours (:mod:`rulebook.site.pages`); a generator (MkDocs with mkdocs-material, or Zensical) turns
a folder of them into a site. Each generator has one adapter module, the only one that talks to it
(:mod:`rulebook.site.mkdocs_adapter`, :mod:`rulebook.site.zensical_adapter`), and the writer picks one by name from
its table (:data:`rulebook.site.writer.GENERATORS`). The rest of the site speaks to this interface alone.

A site is described in MkDocs' configuration (``mkdocs.yml``) whichever generator builds it: Zensical reads
the same file.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from rulebook.errors import UserError

if TYPE_CHECKING:
    from rulebook.site.pages import Page


@dataclass(frozen=True, slots=True)
class SiteRun:
    """One site of a book, as planned for a generator: the original's, or a translation's under ``<language>/``."""

    folder: str
    """Where the site goes in the book's folder: ``""`` for the original, ``"fr/"`` for a translation."""
    pages: tuple[Page, ...]
    nav: list[Any]
    """The navigation, in MkDocs ``nav`` form."""
    settings: dict[str, Any]
    """The run's whole configuration, in MkDocs' form: the defaults, the project's, and this site's own options."""
    redirects: Mapping[str, str] = field(default_factory=dict)
    """Pages written after the generator into the site's folder: a translation's redirects from its former
    addresses."""


@dataclass(frozen=True, slots=True)
class RunChange:
    """What to render again in one site kept loaded (:class:`LiveSite`)."""

    run: SiteRun
    """The site as it is now."""
    pages: tuple[Page, ...]
    """The pages whose Markdown changed (every page when ``whole``)."""
    whole: bool = False
    """The navigation, the set of pages or the configuration changed: the whole site is rendered again."""


class SiteGenerator(Protocol):
    """A site generator, as the writer uses it: built once per site of a book.

    For each site, the writer asks for the project's docs folder (:meth:`prepare`), writes the run's pages
    (Markdown as :mod:`rulebook.site.pages` makes them) and files (the theme's assets, the pictures, extra files)
    into it, then asks the generator to build that project (:meth:`build`).
    """

    @property
    def title(self) -> str:
        """Its name as messages show it (``MkDocs``)."""
        ...

    @property
    def resolves_html_links(self) -> bool:
        """Whether it resolves the relative links of the raw HTML in a page as it resolves Markdown links, from the
        page's Markdown file (a page named by its file, ``s4.md#x``, its anchor checked): Zensical does. Otherwise it
        passes that HTML untouched, and a link is relative to the built page (``../s4/#x``): MkDocs does. How the
        pages write their links (:class:`rulebook.site.pages.LinkStyle`) follows it."""
        ...

    @property
    def cached(self) -> bool:
        """Whether its project folders are kept from one build to the next (its own cache is in them: in the user's
        cache folder, never published), rather than made in the build's scratch folder."""
        ...

    def require(self) -> None:
        """Refuse, in plain words (:class:`GeneratorMissing`), to build where the generator is not installed."""
        ...

    def check_settings(self, settings: dict[str, Any], *, config_file: Path) -> None:
        """Check the site's ``settings`` (the project's ``mkdocs.yml`` over the defaults, as a build gives them) as
        the generator checks them before it builds (the theme, the plugins, the Markdown extensions installed), for
        the lint: a setting it refuses raises :class:`~rulebook.errors.SiteBuildError` in the build's words."""
        ...

    def prepare(self, project: Path) -> Path:
        """The folder of one site's project made ready for a new build (a former build's pages and site taken
        out, the generator's cache kept); the folder the pages and files go into (``project/docs``)."""
        ...

    def build(
        self, project: Path, run: SiteRun, site_dir: Path, *, config_file: Path, scripts: tuple[str, ...]
    ) -> tuple[str, ...]:
        """Build the site of ``run`` from the pages and files in the project's docs into ``site_dir``; what the
        generator warned about. ``config_file``: the project's ``mkdocs.yml`` (relative paths in the settings
        resolve from its folder); ``scripts``: files among the docs every page loads (live reload). A site that
        cannot be built raises :class:`~rulebook.errors.SiteBuildError`."""
        ...


@runtime_checkable
class LiveGenerator(SiteGenerator, Protocol):
    """A generator that can keep a site loaded between edits and render it again page by page (``serve``)."""

    def open_live(
        self, run: SiteRun, *, config_file: Path, docs: Path, site_dir: Path, scripts: tuple[str, ...]
    ) -> LiveSite:
        """The site of ``run``, kept loaded over what a full build has just written into ``site_dir`` (from the same
        ``run``); ``docs``: a folder of its own, which the generator may need."""
        ...


class LiveSite(Protocol):
    """One site kept loaded between edits (:meth:`LiveGenerator.open_live`)."""

    @property
    def run(self) -> SiteRun:
        """The site as last rendered."""
        ...

    def warm(self) -> None:
        """Get ready to render (templates compiled) before the first edit."""
        ...

    def render(self, change: RunChange, first: Sequence[str] = ()) -> Iterator[str]:
        """Render the changed pages again (every page when the site's shape changed), the pages at the URLs in
        ``first`` before the others; yields each page's URL once it is written. A change of the site's settings
        raises :class:`~rulebook.errors.SiteBuildError`: the site must be built again."""
        ...


class GeneratorMissing(UserError):
    """The chosen site generator is not installed; the message says how to install it."""
