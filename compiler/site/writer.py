"""Write the site: each site of a book planned, its pages and assets written into a project, built by the chosen
site generator.

The generator is chosen by name from :data:`GENERATORS`, the one table of them: each is an adapter
(:mod:`rulebook.site.generator`), the only module that talks to its generator. The writer writes into the folders
the build gives it: the projects into a scratch folder (or, for a generator that keeps a cache, the build's cache
folder), the built site into the new release (:mod:`rulebook.publish` puts that release in place).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.assets import held_images
from rulebook.errors import SiteBuildError, UserError
from rulebook.inputs import present
from rulebook.pictures import DrawnPicture, is_drawn, published_name, published_picture
from rulebook.site.escaping import html_text, theme_text
from rulebook.site.generator import LiveGenerator, SiteGenerator, SiteRun
from rulebook.site.mkdocs_adapter import MkDocs, named_settings, read_settings
from rulebook.site.page_table import GRAPH, IMAGES
from rulebook.site.pages import Page, SiteInput, SitePlan, build_pages, neighbourhoods
from rulebook.site.setting_paths import listed
from rulebook.site.svg import sprite
from rulebook.site.theme import LANGUAGE_NAME, Theme, chrome_options
from rulebook.site.translated import TranslatedSite, build_translated_site
from rulebook.site.zensical_adapter import Zensical

if TYPE_CHECKING:
    from jinja2 import Environment

GENERATORS: Mapping[str, SiteGenerator] = {"mkdocs": MkDocs(), "zensical": Zensical()}
"""The site generators, by the name a project chooses (``generator``, ``--generator``): one adapter each."""


def site_generator(name: str) -> SiteGenerator:
    """The generator of that name (one of :data:`rulebook.project.GENERATORS`, checked where it was read)."""
    return GENERATORS[name]


def live_generator(name: str) -> LiveGenerator | None:
    """The generator of that name if it can keep a site loaded between edits (``serve``), else ``None``."""
    generator = GENERATORS[name]
    return generator if isinstance(generator, LiveGenerator) else None


@dataclass(frozen=True, slots=True)
class SiteResult:
    pages: int
    warnings: tuple[str, ...]
    """What the site generator warned about (broken links and anchors would show here)."""
    picture_warnings: tuple[str, ...] = ()
    """Why each SVG picture Typst could not draw is not on the site."""


def build_site(
    site: SiteInput,
    *,
    theme: Theme,
    mkdocs_file: Path,
    folder: Path,
    scratch: Path,
    extra_files: dict[str, str],
    image_folder: Path | None = None,
    extra_javascript: tuple[str, ...] = (),
    late_files: Callable[[], dict[str, str]] | None = None,
    book_folder: str = "",
    site_name: str | None = None,
    settings: dict[str, Any] | None = None,
    cache: Path | None = None,
) -> SiteResult:
    """Build a book's whole site into ``folder`` with the generator ``site.generator`` names, using ``scratch`` for
    its projects.

    ``extra_javascript`` names scripts among ``extra_files`` to add to every page (live reload).
    ``late_files`` gives files to add to the finished site, asked for only once the generator is done (they
    may still be in the making, and may refuse the build).
    ``book_folder`` (``name/``) and ``site_name`` (as text): for a book of the project other than the main one.
    ``settings``: MkDocs settings from the project's configuration (name, URL, copyright line), under
    the project's own ``mkdocs.yml``.
    ``cache``: for a generator that keeps a cache (Zensical), the folder its projects and cache are kept in
    from one build to the next.
    """
    env = theme.environment()
    plan = site_plan(site, theme)
    if site.offline:
        extra_files = {**extra_files, SEARCH_SHIM: OFFLINE_SHIM.read_text(encoding="utf-8")}
    translated = translated_sites(plan, env, theme)
    runs = book_runs(
        plan,
        env,
        theme,
        translated,
        mkdocs_settings(mkdocs_file, settings),
        book_folder=book_folder,
        site_name=site_name,
        licence=(settings or {}).get("copyright"),
    )
    generator = site_generator(site.generator)
    projects = cache if generator.cached and cache is not None else scratch
    warnings: tuple[str, ...] = ()
    own = {f"{t.language}/": (t.images, t.drawn) for t in site.translations}
    original = (dict(held_images(site.book, image_folder)) if image_folder else {}), site.drawn
    for run in runs:
        pictures, drawn = own.get(run.folder, ({}, {})) if run.folder else original
        site_dir = folder / run.folder
        project = projects / (run.folder.rstrip("/") or "original")
        _write_docs(generator.prepare(project), run.pages, theme, extra_files, pictures, drawn)
        warnings += generator.build(project, run, site_dir, config_file=mkdocs_file, scripts=extra_javascript)
        for name, text in run.redirects.items():
            _write(site_dir / name, text)
    # Written straight into the built site: the generator would only copy them once more.
    for name, text in graph_files(plan).items():
        _write(folder / name, text)
    for name, text in (late_files() if late_files is not None else {}).items():
        _write(folder / name, text)
    return SiteResult(sum(len(run.pages) for run in runs), warnings, site.picture_warnings)


def site_plan(site: SiteInput, theme: Theme) -> SitePlan:
    """Where everything is on a book's site, with the site's words in the book's language."""
    language = site.book.documents[0].language if site.book.documents else "en"
    links_from_markdown = site_generator(site.generator).resolves_html_links
    return SitePlan(site, theme.strings(language), links_from_markdown=links_from_markdown)


def translated_sites(plan: SitePlan, env: Environment, theme: Theme) -> tuple[TranslatedSite, ...]:
    """The site of each translation the book has."""
    return tuple(
        build_translated_site(plan, t, env, theme.strings(t.language, t.native_name)) for t in plan.site.translations
    )


def book_runs(
    plan: SitePlan,
    env: Environment,
    theme: Theme,
    translated: Sequence[TranslatedSite],
    settings: dict[str, Any],
    *,
    book_folder: str = "",
    site_name: str | None = None,
    licence: str | None = None,
) -> tuple[SiteRun, ...]:
    """A book's sites: the original's, then each translation's under ``<language>/``.

    ``translated`` says where the original's pages are in each translation (the language switcher);
    ``settings``: the project's MkDocs configuration (:func:`mkdocs_settings`); ``licence``: the book's
    own copyright line (a book of the project other than the main one shows no other).
    """
    languages = _languages(plan.site, translated, plan.words)
    if plan.site.offline:
        settings = offline_settings(settings)
    pages, nav = build_pages(plan, env, original_alternates(translated))
    options = _mkdocs_options(settings, None, languages, site_name, plan.words)
    if site_name is not None:
        options["copyright"] = licence or ""
    original = SiteRun("", tuple(pages), nav, settings | options)
    return (original, *(translation_run(t, languages, settings) for t in translated))


def original_alternates(translated: Sequence[TranslatedSite]) -> dict[str, str]:
    """By the original's chapter page: the script blocks saying where it is in each translation."""
    alternates: dict[str, str] = {}
    for translation in translated:
        for page, block in translation.original_alternates.items():
            alternates[page] = alternates.get(page, "") + block
    return alternates


def translation_run(translation: TranslatedSite, languages: list[dict[str, str]], settings: dict[str, Any]) -> SiteRun:
    """A translation's site, under ``<language>/`` in the book's folder."""
    options = _mkdocs_options(settings, translation, languages, translation.title, translation.strings)
    return SiteRun(
        f"{translation.language}/", tuple(translation.pages), translation.nav, settings | options, translation.redirects
    )


def _languages(
    site: SiteInput, translated: Sequence[TranslatedSite], strings: Mapping[str, str]
) -> list[dict[str, str]]:
    """The language switcher's entries (Material's ``extra.alternate``), links from the site root."""
    if not translated:
        return []
    original = site.book.documents[0].language if site.book.documents else "en"
    home = "index.html" if site.offline else "./"  # offline, a link names a file: a folder would open its listing
    entries = [{"name": str(html_text(strings[LANGUAGE_NAME])), "link": home, "lang": original}]
    for translation in translated:
        name = str(html_text(translation.strings[LANGUAGE_NAME]))
        link = f"{translation.language}/{'index.html' if site.offline else ''}"
        entries.append({"name": name, "link": link, "lang": translation.language})
    return entries


OFFLINE_SHIM = Path(__file__).with_name("offline") / "iframe-worker-shim.js"
"""The Web Worker shim Material's search needs from ``file://`` (iframe-worker, MIT), shipped with the package."""
SEARCH_SHIM = "assets/iframe-worker-shim.js"
"""Where an offline site has it: Material's ``offline`` plugin would otherwise load it from unpkg.com."""


def offline_settings(settings: dict[str, Any]) -> dict[str, Any]:
    """The MkDocs settings of a site read from disk, over the project's: every page is a file (``a.html``,
    ``use_directory_urls: false``), and Material's ``offline`` plugin lets search run from ``file://``, with
    the Web Worker shim it needs from the site itself rather than from another host."""
    plugins = listed(settings.get("plugins"))
    if not any(p == "offline" or (isinstance(p, dict) and "offline" in p) for p in plugins):
        plugins.append("offline")
    extra = dict(settings.get("extra") or {})
    extra["polyfills"] = [*(extra.get("polyfills") or []), SEARCH_SHIM]
    return settings | {"use_directory_urls": False, "plugins": plugins, "extra": extra}


DEFAULT_SETTINGS = Path(__file__).with_name("mkdocs.defaults.yml")
"""The MkDocs configuration every site starts from; a project's ``mkdocs.yml`` is merged over it."""


def mkdocs_settings(
    project_file: Path | None, overrides: dict[str, Any] | None = None, *, inherited: list[Path] | None = None
) -> dict[str, Any]:
    """The MkDocs configuration of a project: the defaults, then ``overrides`` (what the project's
    rulebook configuration says: name, URL, copyright), then the project's ``mkdocs.yml`` if it has one.
    ``inherited``: given, the files ``mkdocs.yml`` inherits (``INHERIT``, in turn) are added to it."""
    settings = merge_settings(read_settings(DEFAULT_SETTINGS), overrides or {})
    if project_file is not None and present(project_file):
        settings = merge_settings(settings, read_settings(project_file, root=project_file.parent, read=inherited))
    return with_needed_extensions(settings)


def settings_naming_folders(project_file: Path, inherited: list[Path] | None = None) -> dict[str, Any]:
    """The project's MkDocs settings for the folders they name (:func:`rulebook.recipe.kept.read_folders`): as the build
    loads them, else, while they cannot be loaded, as plain YAML (:func:`~rulebook.site.mkdocs_adapter.named_settings`);
    a :class:`~rulebook.errors.UserError` when they are no YAML at all. ``inherited``: given, the files
    ``mkdocs.yml`` inherits are added to it."""
    try:
        return mkdocs_settings(project_file, inherited=inherited)
    except (UserError, OSError):  # the build says what is wrong with them; the folders they name are kept still
        if inherited is not None:
            inherited.clear()  # read again, plainly
        return named_settings(project_file, project_file.parent, read=inherited)


NEEDED_EXTENSIONS = ("attr_list",)
"""The Markdown extensions the generated pages are written for, whatever ``markdown_extensions`` a project's
``mkdocs.yml`` lists (a list replaces the defaults'): each heading carries its id as an attribute list
(``## Title { #id }``), which the site showed as it is written, and links to the heading missed."""


def with_needed_extensions(settings: dict[str, Any]) -> dict[str, Any]:
    """``settings`` with :data:`NEEDED_EXTENSIONS` added to the Markdown extensions they list, in either form MkDocs
    takes (a list of names and one-key mappings, or a mapping); anything else is left for MkDocs to refuse."""
    listed = settings.get("markdown_extensions")
    if listed is None:
        listed = []
    if isinstance(listed, dict):
        missing = [name for name in NEEDED_EXTENSIONS if name not in listed]
        return settings | {"markdown_extensions": {**listed, **dict.fromkeys(missing)}} if missing else settings
    if not isinstance(listed, list):
        return settings
    named = [[item] if isinstance(item, str) else item for item in listed if isinstance(item, (str, dict))]
    names = {name for item in named for name in item}
    missing = [name for name in NEEDED_EXTENSIONS if name not in names]
    return settings | {"markdown_extensions": [*listed, *missing]} if missing else settings


def merge_settings(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` merged into ``base``: mappings key by key, any other value replaced."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_settings(merged[key], value)
        else:
            merged[key] = value
    return merged


def _mkdocs_options(
    raw: dict[str, Any],
    translation: TranslatedSite | None,
    languages: list[dict[str, str]],
    site_name: str | None,
    words: Mapping[str, str],
) -> dict[str, Any]:
    """MkDocs settings for one build, over the project's settings: the site's words in Material's chrome
    (:func:`chrome_options`), the site's name and URL when it is not the main book's site, the language
    switcher, and for a translation its language and search language."""
    options = chrome_options(raw, words, translation.language if translation is not None else None)
    if site_name is not None:  # Material writes it unescaped
        options["site_name"] = theme_text(site_name)
    if translation is not None and raw.get("site_url"):  # the book's URL (its configuration's), then the language
        options["site_url"] = str(raw["site_url"]).rstrip("/") + "/" + translation.language + "/"
    if languages:
        back = "../" if translation else ""  # the switcher's links are from the book's root; a translation is below it
        extra = options["extra"]
        extra["alternate"] = [{**entry, "link": back + entry["link"]} for entry in languages]
        options["extra"] = extra
    if translation is not None:
        plugins = []
        for plugin in listed(raw.get("plugins")):
            if plugin == "search" or (isinstance(plugin, dict) and "search" in plugin):
                settings = dict(plugin["search"] or {}) if isinstance(plugin, dict) else {}
                plugin = {"search": {**settings, "lang": translation.language}}
            plugins.append(plugin)
        options["plugins"] = plugins
    return options


def _write_docs(
    docs: Path,
    pages: Sequence[Page],
    theme: Theme,
    extra: dict[str, str],
    pictures: Mapping[str, Path],
    drawn: Mapping[str, DrawnPicture],
) -> None:
    """A site's pages and files, into the folder its generator builds from (``pictures``: the files of the pictures
    it publishes, by name; ``drawn``: the SVG pictures among them, drawn)."""
    for page in pages:
        _write(_inside(docs, page.path), page.markdown)
    for name, asset in theme.assets().items():
        (docs / "assets" / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / "assets" / name).write_bytes(asset)
    for name, text in extra.items():
        _write(docs / name, text)
    for name, source in pictures.items():
        made = drawn.get(name)  # an SVG is published drawn, never as it is
        content = made.png if made is not None else None if is_drawn(name) else published_picture(source)
        if isinstance(content, bytes):  # checked as it is read: what is written is what was checked
            (docs / IMAGES.name / published_name(name)).parent.mkdir(parents=True, exist_ok=True)
            (docs / IMAGES.name / published_name(name)).write_bytes(content)


def graph_files(plan: SitePlan) -> dict[str, str]:
    """The term-neighbourhood pictures (an editor's page): one SVG per initial letter."""
    if not plan.editors:
        return {}
    groups = neighbourhoods(plan)
    return {f"{GRAPH.name}/{file}.svg": sprite(items) for file, items in sorted(groups.items())}


def _inside(folder: Path, name: str) -> Path:
    """``folder/name``, refused unless it stays inside ``folder`` (page paths come from checked names)."""
    path = folder / name
    if not os.path.abspath(path).startswith(os.path.abspath(folder) + os.sep):
        raise SiteBuildError(f"the page `{name}` would be written outside the site")
    return path


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
