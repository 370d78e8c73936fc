"""The stages between the reading and the outputs: the lint and its gate, the translations, the editions,
the rule data. Each takes values and returns a frozen value; :mod:`rulebook.recipe` chains them."""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.assets import book_images, image_folder, linked_folder_refusals, translation_images
from rulebook.catalog.book import DUPLICATE_ID, EMPTY_NAME, INVALID_NAME, RESERVED_NAME, TOO_LARGE
from rulebook.diagnostics import Diagnostic, Severity, at_most_same
from rulebook.engine.limits import MAX_RULES_BYTES
from rulebook.errors import InvalidRuleData, UserError, quoted
from rulebook.family import Family, FamilyBook
from rulebook.fileio import path_problem
from rulebook.graph import TermGraph
from rulebook.inputs import present
from rulebook.lint import apply_settings, run_book_rules
from rulebook.lint.base import LintInput
from rulebook.lint.suppressions import apply_suppressions
from rulebook.memory import gc_frozen
from rulebook.project import MAIN_BOOK, BookConfig, Project, Translation
from rulebook.recipe.cache import NO_CACHE, StageCache, digest
from rulebook.recipe.reading import own_names, read_book, read_configured
from rulebook.site.page_table import MOST_SITE_PAGES, RESERVED_NAMES, translation_report
from rulebook.stage_values import LintResult, ReadResult

if TYPE_CHECKING:
    from rulebook.build_values import TranslationResult
    from rulebook.diff import BookDiff
    from rulebook.languages.data import Language
    from rulebook.model import Book
    from rulebook.translate.results import Comparison
    from rulebook.translate.status import TranslationStatus
    from rulebook.translate.terminology import Entry


# -- checking -----------------------------------------------------------------------------------------


def lint_book(
    read: ReadResult,
    book: BookConfig,
    *,
    root: Path,
    baseline: Path | None = None,
    partial: bool = False,
    reserved: frozenset[str] = frozenset(),
    family: Family | None = None,
    original_images: Path | None = None,
) -> LintResult:
    """Every diagnostic for a book: reading problems, then the book rules (unless reading failed).

    ``baseline``: known problems to leave out of ``new``; ``partial``: only some of the book's
    sources were read (entries of the others are not stale). ``reserved``: names a chapter may
    not take (the site's own pages, the project's books and translations). ``family``: the other books
    its names resolve in and that use its terms (:mod:`rulebook.recipe.family`; None: the book alone).
    ``original_images``: for a translation, its original's pictures folder, whose pictures it shows where its own
    folder has none (:func:`~rulebook.assets.translation_images`).
    """
    found = list(read.diagnostics)
    terms = facts = kin = None
    with gc_frozen():
        if not read.fatal:
            folder = image_folder(read.book, root)
            images = (
                book_images(read.book, folder)
                if original_images is None
                else translation_images(read.book, folder, original_images)
            )
            member = family.books.get(book.name) if family is not None else None
            if family is not None and member is not None and member.terms.book is read.book:
                own, terms, kin = member, member.terms, family  # the family was made with this reading
            else:
                terms = TermGraph(read.book)
                own = FamilyBook(book.name, book.display_title, terms, faq=book.faq)
                kin = family.including(own) if family is not None else Family([own])
            published = set(images.published)
            checked = LintInput(
                read.book,
                terms,
                published,
                reserved,
                # a translation's pictures its own folder (a link) cannot give are the book's, as the build shows them
                refused_images=images.refused
                | {n: why for n, why in linked_folder_refusals(read.book, root).items() if n not in published},
                family=kin,
                name=own.name,
            )
            found.extend(run_book_rules(checked))
            facts = checked.rule_facts
        diagnostics = tuple(apply_settings(apply_suppressions(found, read.sources), book.severities))
    files = len(set(read.sources) | {d.span.path for d in read.diagnostics}) or len(read.book.documents)
    unsafe = unsafe_names(read, found)
    result = LintResult(diagnostics, read.sources, files, terms, diagnostics, unsafe=unsafe, facts=facts, family=kin)
    result = apply_baseline(result, baseline, root=root, partial=partial)
    # what stops the build is never hidden from the lint, by a baseline, a suppression or a severity: the lint
    # passed a duplicate id the build then stopped on
    listed = {(d.code, d.span, d.target) for d in result.new}
    stopping = [replace(d, severity=Severity.ERROR) for d in unsafe if (d.code, d.span, d.target) not in listed]
    # what a report lists, bounded once the baseline has taken what it knows: bounded before, a baseline written
    # past the bound hid every later finding past it ("All checks passed" over 5,000 new errors)
    result = _replace(result, new=tuple(at_most_same(sorted((*result.new, *stopping), key=lambda d: d.sort_key))))
    title = title_notice(book, read)
    return result if title is None else _replace(result, notices=(*result.notices, title))


def title_notice(book: BookConfig, read: ReadResult) -> str | None:
    """What to say when the configuration's title and the one the book's source gives (front matter, a single
    ``#`` heading, ``<document title>``) differ: the configuration's is the one readers see, never silently."""
    given = next(((d.path, d.title) for d in read.book.documents if d.title), None)
    if book.title is None or given is None or given[1] == book.title:
        return None
    table = "" if book.name == MAIN_BOOK else f" of [books.{book.name}]"
    return (
        f"the configuration's title{table} {json.dumps(book.title, ensure_ascii=False)} replaces the title "
        f"{json.dumps(given[1], ensure_ascii=False)} that `{given[0]}` gives: the site and the PDF say "
        f"{json.dumps(book.title, ensure_ascii=False)}; give the title in one place (remove one of the two)"
    )


def apply_baseline(result: LintResult, path: Path | None, *, root: Path, partial: bool = False) -> LintResult:
    """The findings the baseline at ``path`` does not list; a configured baseline that is missing is a notice
    (one in the project, ``root``, is read only inside it)."""
    if path is None:
        return result
    problem = path_problem(os.fsdecode(path))  # `--baseline` of 300 characters: not "does not exist"
    if problem is not None:
        raise UserError(f"the baseline {quoted(os.fsdecode(path))} {problem}")
    if not present(path):
        notice = f"the baseline `{path}` does not exist: every problem is shown (write it with --write-baseline)"
        return _replace(result, notices=(notice,))
    from rulebook.lint import baseline as baselines

    known = baselines.load(path, root=root)
    applied = baselines.apply(result.diagnostics, known)
    return _replace(result, new=applied.new, baselined=applied.known, stale_baseline=0 if partial else applied.stale)


def _replace(result: LintResult, **changes: Any) -> LintResult:
    from dataclasses import replace

    return replace(result, **changes)


def unsafe_names(read: ReadResult, findings: Sequence[Diagnostic]) -> tuple[Diagnostic, ...]:
    """The findings that stop a build before any output, whatever the lint's configuration says:
    an id or a defined name that is not an identifier (it would become a page, an anchor or an
    attribute), an id given twice, a chapter that would take the place of another page, or a chapter or title
    past what a page of the site takes (``too-large``: the site's work and size stay linear in the book).

    A reference or link that names something invalid is only a lint error: it resolves to
    nothing and shows as plain text.
    """
    invalid = {d.target for d in findings if d.code == INVALID_NAME.code}  # its target: the name as written
    places = {d.span for d in read.book.definitions if d.name in invalid}
    places |= {span for name, span in read.book.ids if name in invalid}
    # a definition naming no term has no page or anchor to be (the build stopped on "a template: ''")
    nameless = {d.span for d in read.book.definitions if not d.name}
    return tuple(
        d
        for d in findings
        if d.code in (DUPLICATE_ID.code, RESERVED_NAME.code, TOO_LARGE.code)
        or (d.code == INVALID_NAME.code and d.span in places)
        or (d.code == EMPTY_NAME.code and d.span in nameless)
    )


def book_pages(chapters: int, translated: Sequence[int]) -> int:
    """The pages of chapters of one book's site, from its ``chapters`` and each translation's: in each translation's
    site, the more of the two (each chapter its page there, translated or not)."""
    return chapters + sum(max(chapters, count) for count in translated)


def site_pages_refusal(pages: Mapping[str, int]) -> str | None:
    """Why a site whose books have ``pages`` of chapters (:func:`book_pages`, by book) would have too many, or
    None: at most :data:`MOST_SITE_PAGES` in all (each book's own bound, ``too-large``, bounds neither a family of
    books nor a translation's chapters)."""
    counted = sorted(((count, name) for name, count in pages.items()), key=lambda counted: (-counted[0], counted[1]))
    total = sum(pages for pages, _ in counted)
    if total <= MOST_SITE_PAGES:
        return None
    largest = ", ".join(f"`{name}` {pages:,}" for pages, name in counted[:3])
    return (
        f"the site would have {total:,} pages of chapters, more than the {MOST_SITE_PAGES:,} a site may have (each "
        f"chapter is a page, in its book's language and in each translation's; the most: {largest}): make sections "
        "of chapters, or publish the books as sites of their own (`--book`)"
    )


def reserved_names(project: Project, book: BookConfig) -> frozenset[str]:
    """Names a chapter of ``book`` may not take: the site's own pages and folders, books and translations."""
    taken = set(RESERVED_NAMES)
    if book.name == MAIN_BOOK:
        taken |= {other.name for other in project.books[1:]}
    taken |= {t.language for t in book.translations}
    taken |= {translation_report(t.language) for t in book.translations}
    return frozenset(taken)


# -- translations and editions ----------------------------------------------------------------------------


def compare_translations(
    read: ReadResult, book: BookConfig, root: Path, cache: StageCache = NO_CACHE
) -> tuple[TranslationResult, ...]:
    """Every configured translation compared with the book. One that cannot be read is left out (a build stops at
    it: :func:`unreadable_translations`; ``rulebook compare`` says why)."""
    from rulebook.build_values import TranslationResult
    from rulebook.translate.compare import compare_books

    results = []
    for translation in book.translations:
        key = digest(*[s.text for s in read.sources.values()], repr(translation), *translation.files, *book_words(book))

        def compare(translation: Translation = translation) -> TranslationResult | None:
            translated = own_names(
                read_book([translation.source], root, language=translation.language, source_format=translation.format),
                book.name,
                read,
            )
            if translated.fatal:
                return None
            terms = translation_terms(translation, root, translated.book)
            original, words = translation_languages(book, translation, root)
            comparison = compare_books(
                read.book,
                translated.book,
                original_language=original,
                translation_language=words,
                terms=terms,
                waivers=translation_waivers(translation, root),
            )
            return TranslationResult(translation.language, comparison, terms, translated.book, words=words)

        result = cache.get("translation", key, compare)
        if result is not None:
            results.append(result)
    return tuple(results)


def unreadable_translations(
    book: BookConfig, root: Path, compared: Sequence[TranslationResult]
) -> tuple[Diagnostic, ...]:
    """Why each configured translation of ``book`` that :func:`compare_translations` left out cannot be read: a build
    stops at it, the last site kept (one whose source was missing was built without it with exit 0, and the next
    deploy took its pages off the web)."""
    done = {result.language for result in compared}
    refused: list[Diagnostic] = []
    for translation in book.translations:
        if translation.language not in done:
            read = read_book(
                [translation.source], root, language=translation.language, source_format=translation.format
            )
            refused += (d for d in read.diagnostics if d.severity is Severity.FATAL)
    return tuple(refused)


def translation_languages(book: BookConfig, translation: Translation, root: Path | None) -> tuple[Language, Language]:
    """The original's language (its book's) and the translation's: each the shipped one, with the project's language
    file over it where the configuration names one (:mod:`rulebook.languages`)."""
    from rulebook.languages.data import load_language

    return (
        load_language(book.language, book.language_file, root=root),
        load_language(translation.language, translation.language_file, root=root),
    )


def book_words(book: BookConfig) -> tuple[str | Path, ...]:
    """What of a book's configuration its translations' comparison reads: its language and language file."""
    return (book.language, *((book.language_file,) if book.language_file else ()))


def translation_terms(translation: Translation, root: Path | None, translated: Book | None) -> dict[str, Entry]:
    """The terminology a translation is checked with: the renderings its text marks (``translated``, the
    translation read; :func:`~rulebook.translate.terminology.marked_terms`), each term's entry of its terms file
    over them (by :class:`~rulebook.project.Translation`'s rule: the file named, else ``terms.toml`` beside it if
    there is one). None for ``translated``: the file's entries only."""
    from rulebook.translate.terminology import load_terminology, with_marked

    path = translation.terms_file
    entries = load_terminology(path, root=root) if translation.terms or present(path) else {}
    return entries if translated is None else with_marked(entries, translated)


def translation_waivers(translation: Translation, root: Path | None) -> dict[str, str]:
    """The findings accepted in a translation, by fingerprint (by the same rule as :func:`translation_terms`)."""
    from rulebook.translate.compare import load_waivers

    path = translation.waivers_file
    return load_waivers(path, root=root) if translation.waivers or present(path) else {}


def changes_since(
    project: Project, book: BookConfig, read: ReadResult, earlier: dict[str, ReadResult], cache: StageCache = NO_CACHE
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]]:
    """What changed since the edition this book follows (``changes_from``), for its site; or why it cannot be said."""
    if book.changes_from is None:
        return None, ()
    previous = project.book(book.changes_from)
    diff = edition_diff(project, previous, book, {**earlier, book.name: read}, cache)
    if isinstance(diff, ReadResult):
        return None, tuple(d for d in diff.diagnostics if d.severity is Severity.FATAL)
    since = {"since": previous.display_title, "since_edition": previous.edition, "since_book": previous.name}
    return {**since, **diff.as_json()}, ()


def edition_diff(
    project: Project, old: BookConfig, new: BookConfig, reads: dict[str, ReadResult], cache: StageCache = NO_CACHE
) -> BookDiff | ReadResult:
    """The edition diff from one book to another (``reads``: the books read already, by name); or the reading of
    one that cannot be read. Made once per content of both."""
    from rulebook.diff import diff_books

    before, after = (reads.get(b.name) or read_configured(project, b, cache=cache) for b in (old, new))
    for read in (before, after):
        if read.fatal:
            return read
    key = digest(*[s.text for s in before.sources.values()], "\0", *[s.text for s in after.sources.values()])
    return cache.get("edition-diff", key, lambda: diff_books(before.book, after.book))


def translation_statuses(
    project: Project,
    book: BookConfig,
    read: ReadResult,
    translations: Sequence[TranslationResult],
    earlier: dict[str, ReadResult],
    cache: StageCache = NO_CACHE,
) -> tuple[TranslationResult, ...]:
    """Each translation of the book with its status against the latest edition (:mod:`rulebook.translate.status`):
    the comparison with the edition it was made from (this stage's :func:`compare_translations`, the same when that
    edition is the book) joined with the edition diff from that edition to the latest (:func:`edition_diff`). A
    translation whose editions cannot be read keeps no status (their own builds say why)."""
    configured = {t.language: t for t in book.translations}
    reads = {**earlier, book.name: read}
    found = []
    for result in translations:
        status = translation_status(project, book, configured[result.language], result.comparison, reads, cache)
        found.append(replace(result, status=None if isinstance(status, ReadResult) else status))
    return tuple(found)


def translation_status(
    project: Project,
    book: BookConfig,
    translation: Translation,
    comparison: Comparison | None,
    reads: dict[str, ReadResult],
    cache: StageCache = NO_CACHE,
) -> TranslationStatus | ReadResult:
    """One translation's status against the latest edition of ``book``; ``comparison``: the translation compared
    with ``book`` (None: not compared yet). Or the reading of an edition or the translation that cannot be read."""
    from rulebook.translate.status import translation_status as join
    from rulebook.translate.status_file import load_marks

    made_from = project.book(translation.from_edition) if translation.from_edition else book
    latest = project.latest_edition(book)
    earlier = reads.get(made_from.name) or read_configured(project, made_from, cache=cache)
    if earlier.fatal:
        return earlier
    if comparison is None or made_from.name != book.name:
        compared = compare_translations(earlier, replace(made_from, translations=(translation,)), project.root, cache)
        if not compared:
            return read_book([translation.source], project.root, language=translation.language)
        comparison = compared[0].comparison
    diff, now = None, earlier
    if latest.name != made_from.name:
        now = reads.get(latest.name) or read_configured(project, latest, cache=cache)
        found = edition_diff(project, made_from, latest, {**reads, made_from.name: earlier, latest.name: now}, cache)
        if isinstance(found, ReadResult):
            return found
        diff = found
    return join(
        comparison,
        earlier.book,
        now.book,
        diff,
        language=translation.language,
        editions=(made_from.name, latest.name),
        edition_names=(made_from.edition, latest.edition),
        marks=load_marks(translation.status_file, root=project.root),
    )


# -- rule data -----------------------------------------------------------------------------------------------


def rule_files(
    read: ReadResult, lint: LintResult, book: BookConfig, translations: Sequence[TranslationResult]
) -> dict[str, str]:
    """``rules.json`` and its schema, made and checked in memory (raises InvalidRuleData when the data fails, or is
    larger than the engine reads).

    The text is checked as the engine will read it (so the command line may tell the engine's cache so).
    """
    import json

    from rulebook.data import build_rule_data, serialise
    from rulebook.data.outside import outside_of
    from rulebook.rules_schema import check_rule_data, rules_schema_text

    assert lint.terms is not None and not read.book.outline, "rule data is made from the whole model"
    data = build_rule_data(
        read.book,
        lint.terms,
        title=book.display_title,
        edition=book.edition or "unknown",
        translations=translated_terms(read, translations),
        facts=lint.facts,
        outside=outside_of(lint.family, book.name) if lint.family is not None else None,
    )
    text = serialise(data)
    size = len(text.encode("utf-8"))
    if size > MAX_RULES_BYTES:  # a 1.3 MB book of chained definitions made 68 MB, and every question was refused
        raise InvalidRuleData(
            f"the rule data of {quoted(book.display_title)} would be {size:,} bytes, more than the "
            f"{MAX_RULES_BYTES:,} the engine reads (each term carries its definition and the terms read before it): "
            "split the book into books that use one another (`uses`), or define fewer terms in each other's terms"
        )
    check_rule_data(json.loads(text))
    return {"rules.json": text, "rules.schema.json": rules_schema_text()}


def translated_terms(
    read: ReadResult, translations: Sequence[TranslationResult]
) -> dict[str, dict[str, dict[str, str]]]:
    """Each translation's names and texts, per term id and language (``terms[id].translations``)."""
    from rulebook.translate.names import term_translations

    found: dict[str, dict[str, dict[str, str]]] = {}
    for translation in translations:
        language = translation.words or translation.language
        for term, names in term_translations(
            read.book, translation.comparison, translation.terms, language, translation.book
        ).items():
            found.setdefault(term, {})[translation.language] = names
    return found
