"""The stages between the reading and the outputs: the lint and its gate, the translations, the editions,
the rule data. Each takes values and returns a frozen value; :mod:`rulebook.recipe` chains them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rulebook.assets import book_images, image_folder
from rulebook.catalog.book import DUPLICATE_ID, INVALID_NAME, RESERVED_NAME
from rulebook.diagnostics import Diagnostic, Severity
from rulebook.graph import TermGraph
from rulebook.inputs import present
from rulebook.lint import apply_settings, run_book_rules
from rulebook.lint.base import LintInput
from rulebook.lint.suppressions import apply_suppressions
from rulebook.memory import gc_frozen
from rulebook.project import MAIN_BOOK, RESERVED_FOLDERS, BookConfig, Project, Translation
from rulebook.recipe.cache import NO_CACHE, StageCache, digest
from rulebook.recipe.reading import read_book, read_configured
from rulebook.stage_values import LintResult, ReadResult

if TYPE_CHECKING:
    from rulebook.build_values import TranslationResult
    from rulebook.diff import BookDiff
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
) -> LintResult:
    """Every diagnostic for a book: reading problems, then the book rules (unless reading failed).

    ``baseline``: known problems to leave out of ``new``; ``partial``: only some of the book's
    sources were read (entries of the others are not stale). ``reserved``: names a chapter may
    not take (the site's own pages, the project's books and translations).
    """
    found = list(read.diagnostics)
    terms = facts = None
    with gc_frozen():
        if not read.fatal:
            images = book_images(read.book, image_folder(read.book, root))
            terms = TermGraph(read.book)
            checked = LintInput(read.book, terms, set(images.published), reserved, refused_images=images.refused)
            found.extend(run_book_rules(checked))
            facts = checked.rule_facts
        diagnostics = tuple(apply_settings(apply_suppressions(found, read.sources), book.severities))
    files = len(set(read.sources) | {d.span.path for d in read.diagnostics}) or len(read.book.documents)
    unsafe = unsafe_names(read, found)
    result = LintResult(diagnostics, read.sources, files, terms, diagnostics, unsafe=unsafe, facts=facts)
    return apply_baseline(result, baseline, root=root, partial=partial)


def apply_baseline(result: LintResult, path: Path | None, *, root: Path, partial: bool = False) -> LintResult:
    """The findings the baseline at ``path`` does not list; a configured baseline that is missing is a notice
    (one in the project, ``root``, is read only inside it)."""
    if path is None:
        return result
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
    attribute), an id given twice, or a chapter that would take the place of another page.

    A reference or link that names something invalid is only a lint error: it resolves to
    nothing and shows as plain text.
    """
    invalid = {d.target for d in findings if d.code == INVALID_NAME.code}  # its target: the name as written
    places = {d.span for d in read.book.definitions if d.name in invalid}
    places |= {span for name, span in read.book.ids if name in invalid}
    return tuple(
        d
        for d in findings
        if d.code in (DUPLICATE_ID.code, RESERVED_NAME.code) or (d.code == INVALID_NAME.code and d.span in places)
    )


def reserved_names(project: Project, book: BookConfig) -> frozenset[str]:
    """Names a chapter of ``book`` may not take: the site's own pages and folders, books and translations."""
    taken = set(RESERVED_FOLDERS)
    if book.name == MAIN_BOOK:
        taken |= {other.name for other in project.books[1:]}
    taken |= {t.language for t in book.translations}
    taken |= {f"translation-{t.language}" for t in book.translations}
    return frozenset(taken)


# -- translations and editions ----------------------------------------------------------------------------


def compare_translations(
    read: ReadResult, book: BookConfig, root: Path, cache: StageCache = NO_CACHE
) -> tuple[TranslationResult, ...]:
    """Every configured translation compared with the book. One that cannot be read is left out
    (``rulebook compare`` says why, and the original's outputs are still good)."""
    from rulebook.build_values import TranslationResult
    from rulebook.translate.compare import compare_books

    results = []
    for translation in book.translations:
        key = digest(*[s.text for s in read.sources.values()], repr(translation), *translation.files)

        def compare(translation: Translation = translation) -> TranslationResult | None:
            translated = read_book(
                [translation.source], root, language=translation.language, source_format=translation.format
            )
            if translated.fatal:
                return None
            terms = translation_terms(translation, root)
            comparison = compare_books(
                read.book,
                translated.book,
                translation_language=translation.language,
                terms=terms,
                waivers=translation_waivers(translation, root),
            )
            return TranslationResult(translation.language, comparison, terms, translated.book)

        result = cache.get("translation", key, compare)
        if result is not None:
            results.append(result)
    return tuple(results)


def translation_terms(translation: Translation, root: Path | None) -> dict[str, Entry]:
    """The terminology a translation is checked with (by :class:`~rulebook.project.Translation`'s rule: the
    file named, else ``terms.toml`` beside it if there is one; none: empty)."""
    from rulebook.translate.terminology import load_terminology

    path = translation.terms_file
    return load_terminology(path, root=root) if translation.terms or present(path) else {}


def translation_waivers(translation: Translation, root: Path | None) -> dict[str, str]:
    """The findings accepted in a translation, by fingerprint (by the same rule as :func:`translation_terms`)."""
    from rulebook.translate.compare import load_waivers

    path = translation.waivers_file
    return load_waivers(path, root=root) if translation.waivers or present(path) else {}


def changes_since(
    project: Project, book: BookConfig, read: ReadResult, earlier: dict[str, ReadResult], cache: StageCache = NO_CACHE
) -> tuple[dict[str, Any] | None, tuple[Diagnostic, ...]]:
    """What changed since the edition this book follows (``changes_from``), for its site; or why it cannot be said."""
    from rulebook.diff import diff_books

    if book.changes_from is None:
        return None, ()
    previous = project.book(book.changes_from)
    old = earlier.get(previous.name) or read_configured(project, previous, cache=cache)
    if old.fatal:
        return None, tuple(d for d in old.diagnostics if d.severity is Severity.FATAL)
    diff: BookDiff = diff_books(old.book, read.book)
    return {"since": previous.display_title, "since_edition": previous.edition, **diff.as_json()}, ()


# -- rule data -----------------------------------------------------------------------------------------------


def rule_files(
    read: ReadResult, lint: LintResult, book: BookConfig, translations: Sequence[TranslationResult]
) -> dict[str, str]:
    """``rules.json`` and its schema, made and checked in memory (raises InvalidRuleData when the data fails).

    The text is checked as the engine will read it (so the command line may tell the engine's cache so).
    """
    import json

    from rulebook.data import build_rule_data, serialise
    from rulebook.rules_schema import check_rule_data, rules_schema_text

    assert lint.terms is not None and not read.book.outline, "rule data is made from the whole model"
    data = build_rule_data(
        read.book,
        lint.terms,
        title=book.display_title,
        edition=book.edition or "unknown",
        translations=translated_terms(read, translations),
        facts=lint.facts,
    )
    text = serialise(data)
    check_rule_data(json.loads(text))
    return {"rules.json": text, "rules.schema.json": rules_schema_text()}


def translated_terms(
    read: ReadResult, translations: Sequence[TranslationResult]
) -> dict[str, dict[str, dict[str, str]]]:
    """Each translation's names and texts, per term id and language (``terms[id].translations``)."""
    from rulebook.translate.names import term_translations

    found: dict[str, dict[str, dict[str, str]]] = {}
    for translation in translations:
        for term, names in term_translations(read.book, translation.comparison.pairs, translation.terms).items():
            found.setdefault(term, {})[translation.language] = names
    return found
