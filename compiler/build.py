"""``rulebook build``: compile the book into its outputs: the website, rules.json and its schema.

The outputs are made in memory, checked, then written atomically: a build that
fails (unreadable sources, data that fails its own schema) leaves the last
good outputs in place.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, cast

from compiler.assets import available_images, image_folder
from compiler.config import MAIN_BOOK, Config
from compiler.data import build_rule_data, build_site_summary, serialise
from compiler.diagnostics import Diagnostic
from compiler.errors import InvalidRuleData
from compiler.fileio import write_atomic
from compiler.graph import TermGraph
from compiler.model import Book
from compiler.pipeline import ReadResult, read_book
from compiler.site.pages import SiteInput, SiteTranslation
from compiler.site.writer import SiteResult, build_site

if TYPE_CHECKING:
    from compiler.translate.compare import Comparison
    from compiler.translate.terminology import Entry


@dataclass(frozen=True, slots=True)
class BuildOutput:
    """Files to write, by path relative to the output folder."""

    files: dict[str, str]
    data: dict[str, Any]
    terms: TermGraph


def rules_schema_text() -> str:
    return resources.files("compiler").joinpath("schema/rules.schema.json").read_text(encoding="utf-8")


@dataclass(frozen=True, slots=True)
class TranslationResult:
    """A configured translation, read, aligned and compared once for the whole build."""

    language: str
    comparison: Comparison
    terms: dict[str, Entry]
    book: Book


def compare_translations(read: ReadResult, config: Config) -> list[TranslationResult]:
    """Every configured translation compared with the book (one that cannot be read is left out:
    ``rulebook compare`` says why, and the English outputs are still good)."""
    from compiler.translate.compare import compare_books, load_waivers
    from compiler.translate.terminology import load_terminology

    results = []
    for language, translation in sorted(config.translations.items()):
        translated = read_book([translation.source], config.root, language=language)
        if any(d.severity.value == "fatal" for d in translated.diagnostics):
            continue
        terms = load_terminology(translation.terms) if translation.terms and translation.terms.is_file() else {}
        waivers_file = translation.source.with_name("waivers.toml")
        waivers = load_waivers(waivers_file) if waivers_file.is_file() else {}
        comparison = compare_books(
            read.book, translated.book, translation_language=language, terms=terms, waivers=waivers
        )
        results.append(TranslationResult(language, comparison, terms, translated.book))
    return results


def add_translations(data: dict[str, Any], read: ReadResult, translations: list[TranslationResult]) -> None:
    """Each translation's names and texts, under ``terms[id].translations[language]``."""
    from compiler.translate.names import term_translations

    for translation in translations:
        for term, names in term_translations(read.book, translation.comparison.pairs, translation.terms).items():
            if term in data["terms"]:
                data["terms"][term]["translations"][translation.language] = names


def compile_outputs(
    read: ReadResult,
    config: Config,
    translations: list[TranslationResult] | None = None,
    terms: TermGraph | None = None,
) -> BuildOutput:
    """The rule data files, made and checked in memory (``terms``: the lint's graph, if it made one)."""
    if terms is None:
        terms = TermGraph(read.book)
    if translations is None:
        translations = compare_translations(read, config)
    files = _rule_files(read, terms, config, translations)
    return BuildOutput(files, json.loads(files["rules.json"]), terms)


class BackgroundData:
    """Builds, serialises and checks ``rules.json`` in a forked process, on the other core.

    The site is built meanwhile from a summary; ``files()`` is asked before the new site
    replaces the old one, so data that fails its schema still stops the build.
    """

    def __init__(
        self, read: ReadResult, terms: TermGraph, config: Config, translations: list[TranslationResult]
    ) -> None:
        import multiprocessing

        self._make = functools.partial(_rule_files, read, terms, config, translations)
        self._process = None
        if "fork" in multiprocessing.get_all_start_methods():
            context = multiprocessing.get_context("fork")
            self._queue = context.SimpleQueue()
            self._process = context.Process(target=self._run, daemon=True)
            self._process.start()

    def _run(self) -> None:
        try:
            self._queue.put(("ok", self._make()))
        except InvalidRuleData as error:
            self._queue.put(("invalid", str(error)))
        except Exception as error:
            self._queue.put(("failed", f"{type(error).__name__}: {error}"))

    def files(self) -> dict[str, str]:
        """``rules.json`` and its schema; raises InvalidRuleData if the data failed its schema."""
        if self._process is None:
            return self._make()
        status, value = self._queue.get()
        self._process.join()
        if status == "invalid":
            raise InvalidRuleData(value)
        if status == "failed":
            raise RuntimeError(f"compiling rules.json failed: {value}")
        return dict(value)


def _rule_files(
    read: ReadResult, terms: TermGraph, config: Config, translations: list[TranslationResult]
) -> dict[str, str]:
    data = build_rule_data(read.book, terms, title=config.title, edition=config.edition)
    add_translations(data, read, translations)
    text = serialise(data)
    check_rule_data(data)
    return {"rules.json": text, "rules.schema.json": rules_schema_text()}


def build_book_site(
    read: ReadResult,
    diagnostics: tuple[Diagnostic, ...],
    terms: TermGraph,
    config: Config,
    folder: Path,
    *,
    rule_files: Callable[[], dict[str, str]],
    translations: Sequence[TranslationResult] = (),
    live_reload: str | None = None,
    books: Sequence[dict[str, str]] = (),
    changes: dict[str, Any] | None = None,
    drafts: bool = False,
) -> SiteResult:
    """The website, with ``rule_files()`` (``rules.json`` and its schema) added before it goes live.

    ``books``: the project's other books (title, URL from this site's root), for the home page;
    ``changes``: what changed since the previous edition, for a "What changed" page; ``drafts``: the
    editor's view (``SiteInput.drafts``). The main
    book's site keeps the other books' folders inside it when it replaces the old site.
    """
    images = image_folder(read.book, config.root)
    summary = build_site_summary(read.book, terms, title=config.title, edition=config.edition)
    from compiler.translate.compare import report_context

    site_translations = [
        SiteTranslation(
            t.language,
            t.book,
            t.comparison.pairs,
            t.terms,
            report_context(t.comparison, translation_language=t.language),
        )
        for t in translations
    ]
    site = SiteInput(
        read.book,
        terms,
        summary,
        diagnostics,
        available_images(images),
        site_translations,
        books=list(books),
        changes=changes,
        drafts=drafts,
    )
    files: dict[str, str] = {}
    scripts: tuple[str, ...] = ()
    if live_reload is not None:
        files["assets/live-reload.js"] = live_reload
        scripts = ("assets/live-reload.js",)
    return build_site(
        site,
        project=config.root,
        output=folder,
        extra_files=files,
        image_folder=images,
        extra_javascript=scripts,
        late_files=rule_files,
        keep=tuple(config.books),
        book_folder="" if config.name == MAIN_BOOK else f"{config.name}/",
        site_name=None if config.name == MAIN_BOOK else config.title,
    )


@functools.cache
def _rule_data_validator() -> Callable[[Any], Any]:
    """The schema compiled to Python by fastjsonschema (the build's check; 3-4x faster than jsonschema).

    fastjsonschema reads draft-07; every keyword the schema uses means the same in draft 2020-12,
    and the tests validate the same data with jsonschema's 2020-12 validator.
    """
    import fastjsonschema

    schema = json.loads(rules_schema_text())
    schema["$schema"] = "http://json-schema.org/draft-07/schema#"
    return cast("Callable[[Any], Any]", fastjsonschema.compile(schema))


def check_rule_data(data: Any) -> None:
    """Refuse data that fails its own schema, saying where."""
    import fastjsonschema

    try:
        _rule_data_validator()(data)
    except fastjsonschema.JsonSchemaValueException as error:
        where = "$" + (error.name or "data")[len("data") :]
        raise InvalidRuleData(f"rules.json fails its schema at {where}: {error.message}") from error


def write_outputs(output: BuildOutput, folder: Path) -> list[Path]:
    written = []
    for name, text in sorted(output.files.items()):
        path = folder / name
        write_atomic(path, text)
        written.append(path)
    return written
