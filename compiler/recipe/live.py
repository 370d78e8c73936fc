"""The recipe's incremental step for ``serve``: an edit recomputes what depends on it.

Which books an edit touches is :mod:`rulebook.serve.edits`'s to say; for each, ``serve`` runs::

    live_books(project, options, cache)     -> LiveBook per book  the stages again, from the cache a build filled
    update_live(project, options, book, ..) -> LiveEdit           read and lint again; the edited chapters' pages,
                                                                  with the translations and editions the book had
    finish_live(edit)                       -> LiveBook, change   the book's other pages: all this is what the
                                                                  author waits for
    kin_untouched(project, book, edited)    -> bool               a book of the edited books' family that shows
                                                                  nothing the edit changed: left as it is
    recompute_live(project, options, ..)    -> LiveLater          translations, editions and rule data again, and
                                                                  the book planned with them (run aside)
    apply_live(book, later)                 -> LiveBook, change
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rulebook.model import Book
from rulebook.project import Project
from rulebook.recipe import book_stages, checked_book, chosen_books, compared_book, quiet
from rulebook.recipe.book_site import site_input, site_look
from rulebook.recipe.cache import StageCache
from rulebook.recipe.stages import book_pages, rule_files, site_pages_refusal
from rulebook.stage_values import ReadResult

if TYPE_CHECKING:
    from rulebook.build_values import BuildOptions, BuildResult, LiveBook, LiveEdit, LiveLater
    from rulebook.site.incremental import SiteChange


def live_books(project: Project, options: BuildOptions, cache: StageCache) -> tuple[LiveBook, ...] | BuildResult:
    """Every book as :func:`build` made it with the same ``cache`` (its stages' results are found there)."""
    from rulebook.build_values import BuildResult, LiveBook
    from rulebook.site.incremental import plan_book_site
    from rulebook.site.theme import Theme

    theme = Theme.for_project(project.root)
    env = theme.environment()
    books: list[LiveBook] = []
    earlier: dict[str, ReadResult] = {}
    for book in chosen_books(project, options):
        stages = book_stages(project, book, options, earlier, quiet, cache)
        if isinstance(stages, BuildResult):
            return stages
        read, lint, translations, changes = stages.read, stages.lint, stages.translations, stages.changes
        look = site_look(project, book, options, theme, env)
        site = plan_book_site(site_input(project, book, read, lint, translations, changes, drafts=look.drafts), look)
        books.append(LiveBook(book, read, lint, translations, changes, site, look))
    return tuple(books)


def live_pages_refusal(books: Mapping[str, LiveBook], name: str, read: ReadResult) -> str | None:
    """Why the site would have too many pages of chapters with book ``name`` read as an edit left it (``read``), the
    other books as served, or None (:func:`~rulebook.recipe.stages.site_pages_refusal`, the bound a build holds)."""
    pages = {
        other: book_pages(
            len(list((read if other == name else live.read).book.chapters)),
            [len(list(translation.book.chapters)) for translation in live.translations],
        )
        for other, live in books.items()
    }
    return site_pages_refusal(pages)


def update_live(project: Project, options: BuildOptions, live: LiveBook, cache: StageCache) -> LiveEdit | BuildResult:
    """A book after an edit of its own sources: read and linted again, and the pages of the chapters whose
    text changed made again (with the translations and editions the book had: :func:`recompute_live` brings
    those up to date). A book that cannot be built gives the reason, and the last good one stays."""
    from rulebook.build_values import BuildResult, LiveEdit
    from rulebook.site.incremental import SiteChange, chapter_pages, with_pages
    from rulebook.site.writer import site_plan

    checked = checked_book(project, live.config, options, {}, quiet, cache)
    if isinstance(checked, BuildResult):
        return checked
    read, lint = checked
    if read is live.read and lint is live.lint:
        return LiveEdit(live, read, lint, None, SiteChange(live.site.folder), live.site)
    site = site_input(project, live.config, read, lint, live.translations, live.changes, drafts=live.look.drafts)
    plan = site_plan(site, live.look.theme)
    before = _chapter_texts(live.read.book)
    edited = {i for i, text in _chapter_texts(read.book).items() if before.get(i) != text}
    shown, first = with_pages(live.site, chapter_pages(plan, live.look, live.site.translated, edited))
    return LiveEdit(live, read, lint, plan, first, shown)


def finish_live(edit: LiveEdit) -> tuple[LiveBook, SiteChange]:
    """The whole book after an edit (:func:`update_live`), and what changed besides the edit's first pages."""
    from rulebook.site.incremental import SiteChange, changes_between, plan_book_site

    live = edit.live
    if edit.plan is None:
        return live, SiteChange(live.site.folder)
    site = plan_book_site(edit.plan.site, live.look, translated=live.site.translated, plan=edit.plan)
    return _replace_live(live, read=edit.read, lint=edit.lint, site=site), changes_between(edit.shown, site)


def kin_untouched(project: Project, live: LiveBook, edited: Sequence[LiveBook]) -> bool:
    """Whether book ``live``, of the family of the ``edited`` books (as they are now), shows nothing the edit
    changed: the edited books define the terms and ids they defined when it was last made (so its lint, its
    lookups and its rule data are the same), and its pages show the same of them
    (:func:`~rulebook.site.across.shown_links`: the cards and places of the terms it takes from them, their
    sections that use its terms). Its pages need not be planned again, nor its rule data made."""
    from rulebook.site.across import book_links, shown_links

    family = live.lint.family
    if family is None:
        return False
    now = family
    for book in edited:
        name = book.config.name
        if name not in family.books or book.lint.family is None or name not in book.lint.family.books:
            return False
        old, new = family.book(name), book.lint.family.book(name)
        if old.terms.defined_terms() != new.terms.defined_terms() or old.terms.all_ids() != new.terms.all_ids():
            return False
        now = now.including(new)
    folders = {other.name: other.folder for other in project.books}
    name = live.config.name
    return shown_links(book_links(family, name, folders)) == shown_links(book_links(now, name, folders))


def _chapter_texts(book: Book) -> dict[str, str]:
    """Each chapter's source text (up to the next chapter), by id: an edit's chapters are those it changed."""
    texts = {}
    for document in book.documents:
        for chapter, following in zip(document.body, (*document.body[1:], None), strict=True):
            end = following.offset if following is not None else len(chapter.source.text)
            texts[chapter.id] = chapter.source.text[chapter.offset : end]
    return texts


def recompute_live(
    project: Project, options: BuildOptions, live: LiveBook, books: Sequence[LiveBook], cache: StageCache
) -> LiveLater:
    """A book's translations compared again, its edition diffed again, its rule data made again, and the whole
    book planned with them: what an edit makes stale but the author does not wait for."""
    from rulebook.build_values import LiveLater
    from rulebook.errors import InvalidRuleData
    from rulebook.site.incremental import plan_book_site

    book = live.config
    earlier = {other.config.name: other.read for other in books}
    translations, found, problems = compared_book(project, book, live.read, earlier, cache, editions=not options.files)
    changes = live.changes if problems else found
    files: dict[str, str] = {}
    invalid = None
    try:
        files = rule_files(live.read, live.lint, book, translations)
    except InvalidRuleData as error:
        invalid = str(error)
    site = plan_book_site(
        site_input(project, book, live.read, live.lint, translations, changes, drafts=live.look.drafts),
        live.look,
        files=files,
    )
    return LiveLater(translations, changes, site, problems, invalid)


def apply_live(live: LiveBook, later: LiveLater) -> tuple[LiveBook, SiteChange]:
    """The book with what :func:`recompute_live` gave, and the pages and files that changed."""
    from rulebook.site.incremental import changes_between

    updated = _replace_live(live, translations=later.translations, changes=later.changes, site=later.site)
    return updated, changes_between(live.site, later.site)


def _replace_live(live: LiveBook, **changes: Any) -> LiveBook:
    from dataclasses import replace

    return replace(live, **changes)
