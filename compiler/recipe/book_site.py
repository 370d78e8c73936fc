"""A book's site: everything its pages are made from, and the settings readers see (the site stage).

:func:`write_book_site` builds the pages with the site generator (:mod:`rulebook.site.writer`) into the
new release; ``serve`` plans them with the same :func:`site_input` and :func:`site_look`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.assets import book_images, image_folder
from rulebook.project import MAIN_BOOK, BookConfig, Project
from rulebook.recipe.reading import read_book, translation_title
from rulebook.stage_values import LintResult, ReadResult

if TYPE_CHECKING:
    from jinja2 import Environment

    from rulebook import publish
    from rulebook.build_values import BuildOptions, TranslationResult
    from rulebook.family import Family
    from rulebook.model import Book
    from rulebook.pictures import DrawnPicture
    from rulebook.site.incremental import SiteLook
    from rulebook.site.pages import OutsideTranslation, SiteInput
    from rulebook.site.theme import Theme
    from rulebook.site.translation_status import SiteStatus
    from rulebook.site.writer import SiteResult
    from rulebook.translate.terminology import Entry


def write_book_site(
    project: Project,
    book: BookConfig,
    options: BuildOptions,
    release: publish.Release,
    read: ReadResult,
    lint: LintResult,
    translations: Sequence[TranslationResult],
    changes: dict[str, Any] | None,
    rule_files_ready: Callable[[], dict[str, str]],
) -> SiteResult:
    """One book's pages, built by the site generator into its folder of the new release, with its rule data."""
    from rulebook.site.theme import Theme
    from rulebook.site.writer import build_site, site_generator

    site = site_input(
        project,
        book,
        read,
        lint,
        translations,
        changes,
        drafts=options.drafts,
        generator=options.generator,
        offline=options.offline,
        pdf=options.pdf,
    )
    extra, scripts = _live_reload(options)
    folder = release.folder / book.folder if book.folder else release.folder
    return build_site(
        site,
        theme=Theme.for_project(project.root),
        mkdocs_file=project.root / "mkdocs.yml",
        folder=folder,
        scratch=release.scratch / (book.name if book.folder else MAIN_BOOK),
        extra_files=extra,
        image_folder=image_folder(read.book, project.root),
        extra_javascript=scripts,
        late_files=rule_files_ready,
        book_folder=book.folder,
        site_name=_site_name(book),
        settings=site_settings(project, book),
        cache=release.cache_folder(options.generator, book.name) if site_generator(options.generator).cached else None,
    )


def site_input(
    project: Project,
    book: BookConfig,
    read: ReadResult,
    lint: LintResult,
    translations: Sequence[TranslationResult],
    changes: dict[str, Any] | None,
    *,
    drafts: bool,
    generator: str = "mkdocs",
    offline: bool = False,
    pdf: bool = False,
    draw: bool = True,
) -> SiteInput:
    """Everything a book's pages are made from (``drafts``: the editor's view; ``generator``: what builds them;
    ``offline``: pages as files, to be read from disk; ``pdf``: the book's PDFs are made, and linked to; ``draw``:
    its SVG pictures are drawn into the PNGs the site publishes, which a PDF's plan of its pages needs not)."""
    from rulebook.data import build_site_summary
    from rulebook.data.outside import outside_of
    from rulebook.recipe.book_pdf import pdf_paths
    from rulebook.recipe.site_pictures import SitePictures, draw_site_pictures
    from rulebook.site.across import book_links
    from rulebook.site.pages import SiteInput, SiteTranslation
    from rulebook.translate.compare import report_context
    from rulebook.translate.definitions import translated_definitions

    configured = {translation.language: translation for translation in book.translations}
    terms, family = lint.terms, lint.family
    assert terms is not None and family is not None and not read.book.outline, "pages are made from the whole model"
    folder = image_folder(read.book, project.root)
    images = book_images(read.book, folder)
    pictures = draw_site_pictures(project, images.published) if draw else SitePictures()
    published = {name: path for name, path in images.published.items() if name not in pictures.refused}
    shown = {t.language: _translation_pictures(project, t.book, folder, published, draw) for t in translations}
    summary = build_site_summary(
        read.book,
        terms,
        title=book.display_title,
        edition=book.edition or "unknown",
        facts=lint.facts,
        outside=outside_of(family, book.name),
    )
    return SiteInput(
        read.book,
        terms,
        summary,
        lint.diagnostics,
        set(images.published) - set(pictures.refused),
        [
            SiteTranslation(
                t.language,
                t.book,
                t.comparison.pairs,
                t.terms,
                report_context(t.comparison, translation_language=t.language),
                translated_definitions(read.book, t.comparison, t.terms, t.words or t.language, t.book),
                status=_site_status(project, book, t),
                outside=outside_translations(project, book, family, t.language),
                title=translation_title(configured[t.language], t.book),
                images=shown[t.language].images,
                shared_images=shown[t.language].shared,
                drawn=shown[t.language].drawn,
                refused_images=shown[t.language].refused,
                native_name=t.words.native_name if t.words is not None else None,
            )
            for t in translations
        ],
        refused_images=set(images.refused) | set(pictures.refused),
        drawn=pictures.drawn,
        picture_warnings=tuple(
            dict.fromkeys([*pictures.refused.values(), *(said for found in shown.values() for said in found.warnings)])
        ),
        books=_other_books(project, book),
        across=book_links(family, book.name, {other.name: other.folder for other in project.books}),
        changes=changes,
        drafts=drafts,
        generator=generator,
        offline=offline,
        pdfs=pdf_paths(book) if pdf else {},
    )


@dataclass(frozen=True, slots=True)
class _TranslationPictures:
    """A translation's pictures as its site shows them (:class:`~rulebook.site.pages.SiteTranslation`'s fields)."""

    images: dict[str, Path]
    shared: frozenset[str]
    drawn: dict[str, DrawnPicture]
    refused: frozenset[str]
    warnings: tuple[str, ...]
    """Why each SVG picture of its own could not be drawn."""


def _translation_pictures(
    project: Project, translated: Book, original: Path | None, published: Mapping[str, Path], draw: bool
) -> _TranslationPictures:
    """The pictures a translation's site shows (:func:`~rulebook.assets.translation_images`): those the book's site
    publishes from the same file are shown from there, the others published on its own site (its SVG pictures
    drawn as the book's are)."""
    from rulebook.assets import image_folder, translation_images
    from rulebook.recipe.site_pictures import SitePictures, draw_site_pictures

    found = translation_images(translated, image_folder(translated, project.root), original)
    shared = frozenset(name for name, path in found.published.items() if published.get(name) == path)
    own = {name: path for name, path in found.published.items() if name not in shared}
    pictures = draw_site_pictures(project, own) if draw and own else SitePictures()
    return _TranslationPictures(
        {name: path for name, path in own.items() if name not in pictures.refused},
        shared,
        pictures.drawn,
        frozenset(found.refused) | frozenset(pictures.refused),
        tuple(pictures.refused.values()),
    )


def _site_status(project: Project, book: BookConfig, translation: TranslationResult) -> SiteStatus | None:
    """A translation's status as its site shows it, with the places of the latest edition's pages."""
    from rulebook.site.translation_status import site_status

    if translation.status is None:
        return None
    latest = project.book(translation.status.latest)
    root = "" if latest.name == book.name else ("../" if book.folder else "") + latest.folder
    return site_status(translation.status, latest_root=root, changes_page=latest.changes_from is not None)


def outside_translations(
    project: Project, book: BookConfig, family: Family, language: str
) -> dict[str, OutsideTranslation]:
    """The terms ``book`` takes from the books it uses, as those books' translations into ``language`` name them,
    each with its entry in that book's glossary in ``language`` (a book without such a translation gives none)."""
    from rulebook.recipe.stages import translation_terms
    from rulebook.site.pages import OutsideTranslation

    found = {}
    terminologies: dict[str, dict[str, Entry]] = {}
    up = "../" if book.folder else ""
    for name, lookup in family.outside_terms(book.name).items():
        other = project.book(str(lookup.book))
        translation = next((t for t in other.translations if t.language == language), None)
        if translation is None:
            continue
        if other.name not in terminologies:  # its terms file over the terms its text marks, as its own site has them
            read = read_book([translation.source], project.root, language=language, source_format=translation.format)
            marked = None if read.fatal else read.book
            terminologies[other.name] = translation_terms(translation, project.root, marked)
        entry = terminologies[other.name].get(lookup.name)
        if entry is not None:
            page = f"{up}{other.folder}{language}/glossary.md#{lookup.name}"
            found[name] = OutsideTranslation(entry, page)
    return found


def _live_reload(options: BuildOptions) -> tuple[dict[str, str], tuple[str, ...]]:
    """The live-reload script as a file of the site, and the scripts every page loads (``serve``)."""
    if options.live_reload is None:
        return {}, ()
    return {LIVE_RELOAD_FILE: options.live_reload}, (LIVE_RELOAD_FILE,)


LIVE_RELOAD_FILE = "assets/live-reload.js"


def _site_name(book: BookConfig) -> str | None:
    return None if book.name == MAIN_BOOK else book.display_title


def site_settings(project: Project, book: BookConfig) -> dict[str, Any]:
    """What readers see of a book, from the project's configuration, as MkDocs settings.

    Material writes the site's name, description and copyright line into its pages without escaping them:
    they are escaped here, control characters shown as pictures. A value the configuration leaves out is
    left out.
    """
    from rulebook.site.escaping import theme_text
    from rulebook.site.theme import theme_language

    theme, extra = theme_language(book.language)
    settings: dict[str, Any] = {"site_name": theme_text(book.display_title), "theme": theme}
    if extra:
        settings["extra"] = extra
    if book.copyright:
        settings["copyright"] = _escaped(book.copyright)
    if book.description:
        settings["site_description"] = _escaped(book.description)
    site_url = book.site_url or (project.main.site_url + book.folder if project.main.site_url else None)
    if site_url:
        settings["site_url"] = site_url
    return settings


def _escaped(text: str) -> str:
    from rulebook.site.escaping import html_text

    return str(html_text(text))


def _other_books(project: Project, book: BookConfig) -> list[dict[str, str]]:
    """The project's other books, with their URLs from this book's site root."""
    up = "../" if book.folder else ""
    return [
        {"name": other.name, "title": other.display_title, "href": up + other.folder or "./"}
        for other in project.books
        if other.name != book.name
    ]


def site_look(project: Project, book: BookConfig, options: BuildOptions, theme: Theme, env: Environment) -> SiteLook:
    """How a book's pages look on ``serve``'s site: the theme, its templates loaded, the MkDocs settings."""
    from rulebook.site.incremental import SiteLook
    from rulebook.site.writer import mkdocs_settings

    mkdocs_file = project.root / "mkdocs.yml"
    own = site_settings(project, book)
    settings = mkdocs_settings(mkdocs_file, own)
    scripts = _live_reload(options)[1]
    return SiteLook(
        theme, env, mkdocs_file, settings, book.folder, _site_name(book), scripts, options.drafts, own.get("copyright")
    )
