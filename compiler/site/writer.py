"""Write the site: pages and assets into a fresh MkDocs project, built with mkdocs-material.

The only module of the site that touches the disk. It writes into the folders the
build gives it: the MkDocs project into a scratch folder, the built site into the
new release (:mod:`rulebook.publish` puts that release in place).
"""

from __future__ import annotations

import copy
import functools
import io
import logging
import os
import re
import shutil
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.assets import held_images
from rulebook.errors import SiteBuildError
from rulebook.inputs import MAX_DATA_BYTES, present, read_input_text
from rulebook.pictures import published_picture
from rulebook.site.escaping import html_text
from rulebook.site.pages import Page, SiteInput, SitePlan, build_pages, neighbourhoods
from rulebook.site.svg import sprite
from rulebook.site.theme import Theme, chrome_options
from rulebook.site.translated import TranslatedSite, build_translated_site

if TYPE_CHECKING:
    from jinja2 import Environment
    from mkdocs.config.defaults import MkDocsConfig
    from mkdocs.plugins import BasePlugin


@dataclass(frozen=True, slots=True)
class SiteResult:
    pages: int
    warnings: tuple[str, ...]
    """What MkDocs warned about (broken links and anchors would show here)."""


@dataclass(frozen=True, slots=True)
class MkDocsRun:
    """One MkDocs site of a book: the original's, or a translation's under ``<language>/``."""

    folder: str
    """Where the site goes in the book's folder: ``""`` for the original, ``"fr/"`` for a translation."""
    pages: tuple[Page, ...]
    nav: list[Any]
    """The navigation, in MkDocs ``nav`` form."""
    settings: dict[str, Any]
    """The run's whole MkDocs configuration: the defaults, the project's, and this site's own options."""
    redirects: Mapping[str, str] = field(default_factory=dict)
    """Pages written after MkDocs into the site's folder: a translation's redirects from its former addresses."""


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
    """Build a book's whole site into ``folder``, using ``scratch`` for the MkDocs projects.

    ``extra_javascript`` names scripts among ``extra_files`` to add to every page (live reload).
    ``late_files`` gives files to add to the finished site, asked for only once MkDocs is done (they
    may still be in the making, and may refuse the build).
    ``book_folder`` (``name/``) and ``site_name`` (as text): for a book of the project other than the main one.
    ``settings``: MkDocs settings from the project's configuration (name, URL, copyright line), under
    the project's own ``mkdocs.yml``.
    ``cache``: for a site built with Zensical (``site.generator``), the folder its projects and cache are kept in
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
    warnings: tuple[str, ...] = ()
    for run in runs:
        images = None if run.folder else image_folder
        site_dir, nav, scripts = folder / run.folder, run.nav, extra_javascript
        if site.generator == "zensical":
            from rulebook.site import zensical

            project = (cache or scratch / "zensical") / (run.folder.rstrip("/") or "original")
            _write_docs(zensical.prepare(project), run.pages, site, theme, extra_files, images, hand_over=False)
            config = zensical.configuration(run.settings, mkdocs_file, nav, scripts)
            warnings += zensical.build(project, config, site_dir)
        else:
            docs = scratch / (f"docs-{run.folder.rstrip('/')}" if run.folder else "docs")
            blocks = _write_docs(docs, run.pages, site, theme, extra_files, images)
            warnings += _run_mkdocs(
                functools.partial(load_mkdocs_config, run.settings, mkdocs_file, docs, site_dir, nav, scripts, blocks)
            )
        for name, text in run.redirects.items():
            _write(site_dir / name, text)
    # Written straight into the built site: MkDocs would only copy them once more.
    for name, text in graph_files(plan).items():
        _write(folder / name, text)
    for name, text in (late_files() if late_files is not None else {}).items():
        _write(folder / name, text)
    return SiteResult(sum(len(run.pages) for run in runs), warnings)


def site_plan(site: SiteInput, theme: Theme) -> SitePlan:
    """Where everything is on a book's site, with the site's words in the book's language."""
    language = site.book.documents[0].language if site.book.documents else "en"
    return SitePlan(site, theme.strings(language))


def translated_sites(plan: SitePlan, env: Environment, theme: Theme) -> tuple[TranslatedSite, ...]:
    """The site of each translation the book has."""
    return tuple(build_translated_site(plan, t, env, theme.strings(t.language)) for t in plan.site.translations)


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
) -> tuple[MkDocsRun, ...]:
    """A book's MkDocs sites: the original's, then each translation's under ``<language>/``.

    ``translated`` says where the original's pages are in each translation (the language switcher);
    ``settings``: the project's MkDocs configuration (:func:`mkdocs_settings`); ``licence``: the book's
    own copyright line (a book of the project other than the main one shows no other).
    """
    languages = _languages(plan.site, translated, theme.strings("en"))
    if plan.site.offline:
        settings = offline_settings(settings)
    pages, nav = build_pages(plan, env, original_alternates(translated))
    options = _mkdocs_options(settings, None, languages, site_name, plan.words)
    if site_name is not None:
        options["copyright"] = licence or ""
    original = MkDocsRun("", tuple(pages), nav, settings | options)
    return (original, *(translation_run(t, languages, settings) for t in translated))


def original_alternates(translated: Sequence[TranslatedSite]) -> dict[str, str]:
    """By the original's chapter page: the script blocks saying where it is in each translation."""
    alternates: dict[str, str] = {}
    for translation in translated:
        for page, block in translation.original_alternates.items():
            alternates[page] = alternates.get(page, "") + block
    return alternates


def translation_run(
    translation: TranslatedSite, languages: list[dict[str, str]], settings: dict[str, Any]
) -> MkDocsRun:
    """A translation's site, under ``<language>/`` in the book's folder."""
    options = _mkdocs_options(settings, translation, languages, translation.title, translation.strings)
    return MkDocsRun(
        f"{translation.language}/", tuple(translation.pages), translation.nav, settings | options, translation.redirects
    )


def _languages(site: SiteInput, translated: Sequence[TranslatedSite], strings: dict[str, str]) -> list[dict[str, str]]:
    """The language switcher's entries (Material's ``extra.alternate``), links from the site root."""
    if not translated:
        return []
    original = site.book.documents[0].language if site.book.documents else "en"
    home = "index.html" if site.offline else "./"  # offline, a link names a file: a folder would open its listing
    entries = [{"name": str(html_text(strings["language_name"])), "link": home, "lang": original}]
    for translation in translated:
        name = str(html_text(translation.strings["language_name"]))
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
    plugins = list(settings.get("plugins") or [])
    if not any(p == "offline" or (isinstance(p, dict) and "offline" in p) for p in plugins):
        plugins.append("offline")
    extra = dict(settings.get("extra") or {})
    extra["polyfills"] = [*(extra.get("polyfills") or []), SEARCH_SHIM]
    return settings | {"use_directory_urls": False, "plugins": plugins, "extra": extra}


DEFAULT_SETTINGS = Path(__file__).with_name("mkdocs.defaults.yml")
"""The MkDocs configuration every site starts from; a project's ``mkdocs.yml`` is merged over it."""


def mkdocs_settings(project_file: Path | None, overrides: dict[str, Any] | None = None) -> dict[str, Any]:
    """The MkDocs configuration of a project: the defaults, then ``overrides`` (what the project's
    rulebook configuration says: name, URL, copyright), then the project's ``mkdocs.yml`` if it has one."""
    settings = merge_settings(_load_yaml(DEFAULT_SETTINGS), overrides or {})
    if project_file is not None and present(project_file):
        settings = merge_settings(settings, _load_yaml(project_file, root=project_file.parent))
    return settings


def merge_settings(base: dict[str, Any], over: dict[str, Any]) -> dict[str, Any]:
    """``over`` merged into ``base``: mappings key by key, any other value replaced."""
    merged = dict(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(merged.get(key), dict):
            merged[key] = merge_settings(merged[key], value)
        else:
            merged[key] = value
    return merged


def _load_yaml(path: Path, *, root: Path | None = None) -> dict[str, Any]:
    """MkDocs settings from a YAML file, read through :func:`~rulebook.inputs.read_input` (``root``: the project,
    for its own ``mkdocs.yml``)."""
    import io

    import yaml
    from mkdocs.exceptions import ConfigurationError
    from mkdocs.utils.yaml import yaml_load

    stream = io.StringIO(read_input_text(path, root=root, limit=MAX_DATA_BYTES, kind="configuration"))
    stream.name = str(path)  # MkDocs finds an INHERIT'ed file beside it
    try:
        loaded = yaml_load(stream)
    except (OSError, UnicodeDecodeError, ValueError, RecursionError, yaml.YAMLError, ConfigurationError) as error:
        raise SiteBuildError(f"cannot read {path}: {error}") from error
    if loaded is None:
        return {}
    if not isinstance(loaded, dict):
        raise SiteBuildError(f"{path} must hold a mapping of MkDocs settings")
    return loaded


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
        options["site_name"] = str(html_text(site_name))
    if translation is not None and raw.get("site_url"):  # the book's URL (its configuration's), then the language
        options["site_url"] = str(raw["site_url"]).rstrip("/") + "/" + translation.language + "/"
    if languages:
        back = "../" if translation else ""  # the switcher's links are from the book's root; a translation is below it
        extra = options["extra"]
        extra["alternate"] = [{**entry, "link": back + entry["link"]} for entry in languages]
        options["extra"] = extra
    if translation is not None:
        plugins = []
        for plugin in raw.get("plugins") or []:
            if plugin == "search" or (isinstance(plugin, dict) and "search" in plugin):
                settings = dict(plugin["search"] or {}) if isinstance(plugin, dict) else {}
                plugin = {"search": {**settings, "lang": translation.language}}
            plugins.append(plugin)
        options["plugins"] = plugins
    return options


def _write_docs(
    docs: Path,
    pages: Sequence[Page],
    site: SiteInput,
    theme: Theme,
    extra: dict[str, str],
    images: Path | None,
    *,
    hand_over: bool = True,
) -> dict[str, dict[str, str]]:
    """The project's pages and files; the HTML blocks taken out of each page (see :func:`hand_over_html`), unless
    ``hand_over`` is false (a generator other than MkDocs is given the pages as made)."""
    blocks: dict[str, dict[str, str]] = {}
    for page in pages:
        markdown, blocks[page.path] = hand_over_html(page.markdown) if hand_over else (page.markdown, {})
        _write(_inside(docs, page.path), markdown)
    for name, asset in theme.assets().items():
        (docs / "assets" / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(asset, docs / "assets" / name)
    for name, text in extra.items():
        _write(docs / name, text)
    if images is not None:
        for name, source in held_images(site.book, images):
            content = published_picture(source)  # checked as it is read: what is written is what was checked
            if isinstance(content, bytes):
                (docs / "images" / name).parent.mkdir(parents=True, exist_ok=True)
                (docs / "images" / name).write_bytes(content)
    return blocks


_HTML_BLOCK = re.compile(r'^<div class="rb-body[^"]*" markdown="0">\n', re.MULTILINE)
_DIV = re.compile(r"<div\b|</div>")


def hand_over_html(markdown: str) -> tuple[str, dict[str, str]]:
    """The page's raw HTML blocks (``<div class="rb-body" markdown="0">``), each replaced by a token.

    Our pages are Markdown headings around HTML we render ourselves. Python-Markdown would parse
    every tag of that HTML again (half of MkDocs' time on a long book); the blocks are handed to
    MkDocs' output instead, where each token's paragraph is replaced by its block (the page's
    text is the same, and its search entry is made from it). The pages the templates make stay
    whole Markdown pages (HTML inline); only the files given to this MkDocs run hold tokens, so a
    builder that cannot be handed the blocks (Material's successor) is given the pages as made.
    """
    blocks: dict[str, str] = {}
    parts: list[str] = []
    position = 0
    for start in _HTML_BLOCK.finditer(markdown):
        if start.start() < position:
            continue  # inside a block already taken
        depth, end = 0, None
        for tag in _DIV.finditer(markdown, start.start()):
            depth += 1 if tag.group() == "<div" else -1
            if depth == 0:
                end = tag.end()
                break
        if end is None:
            break
        token = f"RBHTML{len(blocks):05d}"
        blocks[token] = markdown[start.start() : end].replace(' markdown="0"', "", 1)
        parts += [markdown[position : start.start()], f"\n{token}\n"]
        position = end
    parts.append(markdown[position:])
    return "".join(parts), blocks


def graph_files(plan: SitePlan) -> dict[str, str]:
    """The term-neighbourhood pictures (an editor's page): one SVG per initial letter."""
    if not plan.editors:
        return {}
    groups = neighbourhoods(plan)
    return {f"graph/{file}.svg": sprite(items) for file, items in sorted(groups.items())}


def _inside(folder: Path, name: str) -> Path:
    """``folder/name``, refused unless it stays inside ``folder`` (page paths come from checked names)."""
    path = folder / name
    if not os.path.abspath(path).startswith(os.path.abspath(folder) + os.sep):
        raise SiteBuildError(f"the page `{name}` would be written outside the site")
    return path


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")


class _Collect(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.messages: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.messages.append(record.getMessage())


@contextmanager
def mkdocs_logging() -> Iterator[_Collect]:
    logger = logging.getLogger("mkdocs")
    handler = _Collect()
    previous = (logger.level, logger.propagate)
    logger.addHandler(handler)
    logger.setLevel(logging.WARNING)
    logger.propagate = False
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(previous[0])
        logger.propagate = previous[1]


@contextmanager
def build_date() -> Iterator[None]:
    """MkDocs dates the sitemap with SOURCE_DATE_EPOCH when set: fix it, so builds are byte-identical."""
    previous = os.environ.get("SOURCE_DATE_EPOCH")
    os.environ["SOURCE_DATE_EPOCH"] = previous or "0"
    try:
        yield
    finally:
        if previous is None:
            del os.environ["SOURCE_DATE_EPOCH"]


def _run_mkdocs(load: Callable[[], MkDocsConfig]) -> tuple[str, ...]:
    """Build one MkDocs site from the configuration ``load`` gives; what MkDocs warned about."""
    from mkdocs.commands.build import build
    from mkdocs.exceptions import MkDocsException

    with mkdocs_logging() as collected, build_date():
        try:
            build(load())
        except MkDocsException as error:
            raise SiteBuildError(f"MkDocs could not build the site: {error}") from error
    return tuple(collected.messages)


def load_mkdocs_config(
    settings: dict[str, Any],
    config_file: Path,
    docs: Path,
    site_dir: Path,
    nav: list[object],
    scripts: tuple[str, ...],
    blocks: dict[str, dict[str, str]],
) -> MkDocsConfig:
    """One MkDocs site's loaded configuration, with the live-reload ``scripts`` and the HTML ``blocks`` handed over
    (relative paths in ``settings`` resolve from ``config_file``'s folder)."""
    from mkdocs.config import load_config

    # MkDocs' validation changes the settings it is given in place: each build gets its own copy.
    config = load_config(
        io.StringIO("{}"),
        config_file_path=str(config_file),
        **copy.deepcopy({**settings, "docs_dir": str(docs), "site_dir": str(site_dir), "nav": nav}),
    )
    config.extra_javascript.extend(scripts)
    config.plugins["rulebook/html-blocks"] = _html_blocks(blocks)
    return config


def _html_blocks(blocks: dict[str, dict[str, str]]) -> BasePlugin[Any]:
    """Puts each page's HTML blocks back in place of their tokens, once Python-Markdown is done.

    Material's search indexes a page from its content, parsing every tag: it is given each block
    as text in paragraphs (what a search needs), and the page written out gets the whole block.
    Added to the loaded configuration by the build, never named in ``mkdocs.yml``: it is how the
    build hands MkDocs the HTML it rendered, not a plugin of the site.
    """
    from mkdocs.plugins import BasePlugin

    class HtmlBlocks(BasePlugin):  # type: ignore[type-arg,no-untyped-call]
        def on_page_content(self, html: str, page: Any, **kwargs: Any) -> str:
            found = blocks.get(page.file.src_uri, {})
            if not found:
                return html
            return _TOKEN.sub(lambda match: _searchable(match.group(1), found.get(match.group(1), "")), html)

        def on_post_page(self, output: str, page: Any, **kwargs: Any) -> str:
            found = blocks.get(page.file.src_uri, {})
            if not found:
                return output
            return _SEARCHABLE.sub(lambda match: found.get(match.group(1), match.group()), output)

    return HtmlBlocks()


_TOKEN = re.compile(r"<p>(RBHTML\d{5})</p>")
_SEARCHABLE = re.compile(r"<!--(RBHTML\d{5})-->.*?<!--/RBHTML\d{5}-->", re.DOTALL)
_INLINE_TAGS = re.compile(r"</?(?:a|span|strong|em|br|img)\b[^>]*>")


def _searchable(token: str, block: str) -> str:
    """A block as search needs it: its text, in its paragraphs and cells, without links or spans."""
    return f"<!--{token}-->{_INLINE_TAGS.sub('', block)}<!--/{token}-->"
