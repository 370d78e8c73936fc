"""The print edition's stage of a build (:mod:`rulebook.recipe`): each book's and translation's PDF, beside its site.

    book_print(project, book, read, lint, translations, ...) -> BookPrint    what each PDF holds, where it goes
    print_book(project, prints, scratch)                     -> Printing     typeset, for Typst to compile
    Printing.start()                                                         Typst compiling aside, in a thread
    Printing.finish(folder)                                  -> PrintedBook  the PDFs, once the site is built

A book's PDF is ``<title>.pdf`` in its folder of the site, a translation's ``<language>/<title>-<language>.pdf``
(:func:`pdf_paths`: the site links to them). Typst compiles in a thread while MkDocs builds the pages (Typst
does its work outside Python's lock), and the PDFs are written once the site's folder is made. The date in
a PDF is ``SOURCE_DATE_EPOCH`` when set, else none: the same sources give the same bytes.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from rulebook.project import BookConfig, Project

if TYPE_CHECKING:
    from rulebook.build_values import TranslationResult
    from rulebook.pdf.edition import Edition
    from rulebook.pdf.typst_run import Limits, PdfResult
    from rulebook.site.theme import Theme
    from rulebook.stage_values import LintResult, ReadResult

FONT_FOLDER = "fonts"
"""The project's fonts, in its ``site_templates/`` folder."""
FONT_SUFFIXES = (".ttf", ".otf", ".ttc", ".otc")
MAX_FONT_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class BookPrint:
    """What a book's PDFs are made from."""

    editions: tuple[tuple[str, Edition], ...]
    """Each PDF's path in the book's folder (:func:`pdf_paths`) and what it holds."""
    pictures: Mapping[str, bytes] = field(default_factory=dict)
    """The pictures the editions show, by the name the sources give them."""
    warnings: tuple[str, ...] = ()
    """Why a picture the site shows is not in the PDFs (Typst cannot read it)."""


@dataclass(frozen=True, slots=True)
class PrintedBook:
    """The PDFs of one book."""

    files: tuple[str, ...] = ()
    """Each PDF's path in the book's folder of the site (``name.pdf``, ``fr/name-fr.pdf``)."""
    warnings: tuple[str, ...] = ()
    """What Typst warned about."""


def pdf_paths(book: BookConfig) -> dict[str | None, str]:
    """Where each PDF of a book goes in its folder of the site, by language (None: the book's own)."""
    from rulebook.pdf.edition import pdf_name

    paths: dict[str | None, str] = {None: pdf_name(book.display_title)}
    for translation in book.translations:
        paths[translation.language] = f"{translation.language}/{pdf_name(book.display_title, translation.language)}"
    return paths


def book_print(
    project: Project,
    book: BookConfig,
    read: ReadResult,
    lint: LintResult,
    translations: Sequence[TranslationResult],
    theme: Theme,
    site_input: Callable[[], object],
    scratch: Path,
) -> BookPrint:
    """What each PDF of a book holds, with its path in the book's folder (:func:`pdf_paths`).

    ``site_input``: the book's :class:`~rulebook.site.pages.SiteInput`, asked for only when the book has
    translations (a translation's edition is made from the site's plan of it). ``scratch``: room for Typst to
    read the pictures.
    """
    from rulebook.assets import held_images, image_folder
    from rulebook.inputs import source_date
    from rulebook.pdf.edition import book_edition
    from rulebook.pdf.typst_run import readable_pictures
    from rulebook.site.pages import SiteInput

    assert lint.terms is not None and not read.book.outline, "a PDF is made from the whole model"
    paths = pdf_paths(book)
    date = source_date()
    found = printable_pictures(held_images(read.book, image_folder(read.book, project.root)))
    site = site_input() if translations else None
    assert site is None or isinstance(site, SiteInput)
    for translation in site.translations if site is not None else ():  # their own pictures, apart from the book's
        own = printable_pictures(translation.images.items())
        found |= {translated_picture(translation.language, name): content for name, content in own.items()}
    pictures, refused = readable_pictures(found, scratch / "pictures", limits(project)) if found else ({}, ())
    images = {name: f"images/{name}" for name in pictures}
    language = read.book.documents[0].language if read.book.documents else book.language
    original = book_edition(
        read.book,
        lint.terms,
        title=book.display_title,
        words=theme.strings(language),
        look=project.print,
        edition=book.edition or "",
        copyright=book.copyright or "",
        description=book.description or "",
        images=images,
        date=date,
    )
    editions: list[tuple[str, Edition]] = [(paths[None], original)]
    if translations:
        editions += _translated(project, theme, site, paths, date, images)
    return BookPrint(tuple(editions), pictures, refused)


def _translated(
    project: Project,
    theme: Theme,
    site: object,
    paths: dict[str | None, str],
    date: int | None,
    images: Mapping[str, str],
) -> list[tuple[str, Edition]]:
    from rulebook.pdf.translated import translated_edition
    from rulebook.site.pages import SiteInput, SitePlan
    from rulebook.site.translated import TranslatedPlan

    assert isinstance(site, SiteInput)
    language = site.book.documents[0].language if site.book.documents else "en"
    original = SitePlan(site, theme.strings(language))
    found = []
    for translation in site.translations:
        words = theme.strings(translation.language, translation.native_name)
        plan = TranslatedPlan(original, translation, words)
        own = {name: translated_picture(translation.language, name) for name in translation.images}
        shown = {name: images[key] for name, key in own.items() if key in images}
        shown |= {name: images[name] for name in translation.shared_images if name in images}
        edition = translated_edition(
            plan, words=words, look=project.print, copyright=words.get("copyright", ""), date=date, images=shown
        )
        found.append((paths[translation.language], edition))
    return found


def translated_picture(language: str, name: str) -> str:
    """The name a translation's own picture takes among the book's in its PDF's files: in a hidden folder, which no
    picture's name can be in (:func:`~rulebook.assets.name_refusal`)."""
    return f".{language}/{name}"


def printable_pictures(held: Iterable[tuple[str, Path]]) -> dict[str, bytes]:
    """The pictures among ``held`` (files by the name the sources give them) a PDF can hold, as the site publishes
    them (checked as they are read)."""
    from rulebook.pictures import published_picture

    found = {}
    for name, source in held:
        if Path(name).suffix.lower() not in PRINTABLE:
            continue
        content = published_picture(source)
        if isinstance(content, bytes):
            found[name] = content
    return found


PRINTABLE = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp")
"""The kinds of picture Typst reads (an AVIF picture is on the site, and its place in a PDF says it is missing)."""


def project_fonts(project: Project) -> dict[str, bytes]:
    """The font files of the project's ``site_templates/fonts/`` folder, each read as every input is: the folder
    committed as a link out of the project, or a font in it that is such a link, a pipe or a device, is refused in
    plain words (:func:`~rulebook.inputs.input_folder`), never passed over."""
    from rulebook.inputs import input_folder, present, read_input
    from rulebook.project import OVERRIDES

    folder = project.root / OVERRIDES / FONT_FOLDER
    if not present(folder):
        return {}
    return {
        path.name: _font_checked(path, read_input(path, root=project.root, limit=MAX_FONT_BYTES, kind="font"))
        for path in input_folder(folder, root=project.root, kind="fonts")
        if path.suffix.lower() in FONT_SUFFIXES
    }


MOST_COLLECTED_FONTS = 256
"""The most fonts one font collection (``.ttc``) may hold: a family ships a few dozen at most."""


def _font_checked(path: Path, data: bytes) -> bytes:
    """``data``, unless it is a font collection whose header counts more fonts than :data:`MOST_COLLECTED_FONTS`,
    or than its bytes can place (Typst tries each it counts: 12 bytes saying 4,294,967,295 fonts held it past a
    minute; a million entries naming one font of 10 KB took 965 MB; the forty-seventh probe), or a font whose
    character maps claim more than a font may (:mod:`rulebook.font_claims`: Typst tabled each, to its memory limit,
    again for each SVG picture drawn; the forty-eighth)."""
    from rulebook.font_claims import TooManyClaimed, check_claims
    from rulebook.inputs import UnreadableInput

    if data[:4] == b"ttcf":
        count = int.from_bytes(data[8:12], "big") if len(data) >= 12 else 0
        if count > MOST_COLLECTED_FONTS or 12 + 4 * count > len(data):
            raise UnreadableInput(
                path,
                f"it is a font collection whose header counts {count:,} fonts, more than its {len(data):,} bytes "
                f"hold or than a collection needs (at most {MOST_COLLECTED_FONTS})",
            )
    try:
        check_claims(data)
    except TooManyClaimed as error:
        raise UnreadableInput(path, str(error)) from None
    return data


def check_font(project: Project, fonts: dict[str, bytes]) -> None:
    """Refuse a ``font`` of ``[pdf]`` that neither Typst nor the project's fonts (``fonts``) hold: Typst set the PDF
    in another with a warning, and the lint passed it."""
    font = project.print.font
    if font is None:
        return
    import tempfile

    from rulebook.config_file import ConfigError
    from rulebook.errors import quoted
    from rulebook.pdf.typst_run import font_families

    with tempfile.TemporaryDirectory(prefix="rulebook-fonts-") as room:
        families = font_families(Path(room) / "fonts", fonts)
    if font.casefold() not in {family.casefold() for family in families}:
        named = project.config_file.name if project.config_file else "rulebook.toml"
        where = "tool.rulebook.pdf" if named == "pyproject.toml" else "pdf"
        raise ConfigError(
            f"{named}: `font` in [{where}] names "
            f"{quoted(font)}, which neither Typst nor site_templates/fonts/ holds, so the PDF would be set in another "
            f"(the fonts: {', '.join(families)})"
        )


def own_template(project: Project) -> str | None:
    """The project's ``site_templates/print.typ`` as messages name it, if it has one (else None: the shipped one)."""
    from rulebook.fileio import shown_path
    from rulebook.inputs import present
    from rulebook.pdf.typst_run import TEMPLATE
    from rulebook.project import OVERRIDES

    own = project.root / OVERRIDES / TEMPLATE.name
    return shown_path(own, Path.cwd()) if present(own) else None


def template_text(project: Project) -> str:
    """The template: the project's ``site_templates/print.typ``, else the shipped one."""
    from rulebook.inputs import MAX_DATA_BYTES, present, read_input_text
    from rulebook.pdf.typst_run import TEMPLATE
    from rulebook.project import OVERRIDES

    own = project.root / OVERRIDES / TEMPLATE.name
    if present(own):
        return read_input_text(own, root=project.root, limit=MAX_DATA_BYTES, kind="template")
    return TEMPLATE.read_text(encoding="utf-8")


def limits(project: Project) -> Limits:
    """How much Typst may take: the shipped limits, an edition's raised by the configuration's ``[pdf]`` table."""
    from dataclasses import replace

    from rulebook.pdf.typst_run import LIMITS, MB

    settings = project.print
    return replace(
        LIMITS,
        seconds=settings.time_limit if settings.time_limit is not None else LIMITS.seconds,
        memory=settings.memory_limit * MB if settings.memory_limit is not None else LIMITS.memory,
        picture_seconds=LIMITS.picture_seconds if settings.picture_time_limit is None else settings.picture_time_limit,
        picture_memory=LIMITS.picture_memory
        if settings.picture_memory_limit is None
        else settings.picture_memory_limit * MB,
    )


class Printing:
    """A book's PDFs being made: typeset at once, compiled by Typst in a thread once started (see :func:`print_book`).

    ``stopping``: the event each job watches; :meth:`stop` sets it, and Typst's process is killed.
    """

    def __init__(
        self,
        jobs: list[tuple[str, Callable[[], PdfResult]]],
        warnings: tuple[str, ...] = (),
        stopping: threading.Event | None = None,
    ) -> None:
        self._jobs = jobs
        self.warnings = warnings
        """What the build says before Typst's own warnings (the pictures it cannot read)."""
        self._stopping = stopping or threading.Event()
        self._results: dict[str, PdfResult] = {}
        self._error: BaseException | None = None
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="rulebook-pdf", daemon=True)

    def start(self) -> None:
        """Start Typst's thread. Call it where a stop (an exception, Ctrl+C, SIGTERM) reaches :meth:`stop`: a
        thread started where nothing stops it runs Typst on after the build."""
        try:
            self._thread.start()
        except BaseException:  # stopped while the thread starts: it finds the stop set and starts no Typst
            self.stop()
            raise

    def _run(self) -> None:
        try:
            for path, job in self._jobs:
                self._results[path] = job()
        except BaseException as error:  # handed to the build's thread by finish()
            self._error = error
        finally:
            self._done.set()

    def wait(self) -> dict[str, PdfResult]:
        """Each PDF by its path in the book's folder, once Typst is done (its error, if it failed)."""
        try:  # an event, not the thread's join: Python 3.11 takes a join a signal interrupted for the thread's end
            self._done.wait()
        except BaseException:  # Ctrl+C or SIGTERM while waiting: Typst's process goes before the build unwinds
            self.stop()
            raise
        if self._error is not None:
            raise self._error
        return self._results

    def run(self) -> dict[str, PdfResult]:
        """:meth:`start`, then :meth:`wait`: the PDFs, with nothing else to do meanwhile."""
        try:
            self.start()
            return self.wait()
        except BaseException:  # stopped between the two: Typst goes too
            self.stop()
            raise

    def stop(self) -> None:
        """Stop Typst now (the build stops on another path): its process is killed before this returns."""
        self._stopping.set()
        if self._thread.ident is not None:  # else the thread, not yet running, sees the stop before any Typst
            self._done.wait()

    def finish(self, folder: Path) -> PrintedBook:
        """Wait for the PDFs, and write them into the book's ``folder`` of the new release."""
        from rulebook.pdf.typst_run import write_pdf

        results = self.wait()
        for path, result in results.items():
            write_pdf(folder / path, result.data)
        return printed(results, self.warnings)


def printed(results: Mapping[str, PdfResult], warnings: tuple[str, ...] = ()) -> PrintedBook:
    """What the build says of a book's PDFs: their paths, and what Typst warned about in each."""
    said = [f"{path}: {warning}" for path, result in results.items() for warning in result.warnings]
    return PrintedBook(tuple(results), (*warnings, *said))


def print_book(project: Project, prints: BookPrint, scratch: Path) -> Printing:
    """Each edition typeset now, for Typst to compile in a thread once started (``scratch``: the build's room)."""
    from functools import partial

    from rulebook.pdf.typeset import typeset
    from rulebook.pdf.typst_run import compile_pdf, require

    require()
    template = template_text(project)
    template_file = own_template(project)
    fonts = project_fonts(project)
    stopping = threading.Event()
    jobs: list[tuple[str, Callable[[], PdfResult]]] = [
        (
            path,
            partial(
                compile_pdf,
                typeset(edition),
                scratch / f"pdf-{index}",
                template=template,
                template_file=template_file,
                pictures=prints.pictures,
                fonts=fonts,
                date=edition.date,
                label=f"`{path}`",
                limits=limits(project),
                stop=stopping,
            ),
        )
        for index, (path, edition) in enumerate(prints.editions)
    ]
    return Printing(jobs, prints.warnings, stopping)
