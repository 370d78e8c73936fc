"""The site in a translation's language, cross-linked with the original's.

A translation converted from a PDF marks no terms. Its terminology says which words render which of
the original's terms, so every use of them links to where the translation states the rule: the
section aligned with the one that defines the term in the original, where the first use is marked as
the definition (with a permalink), and the preview shows that translated text. A term whose section
is not translated links to the original's definition. A translation written in the dialect marks its
terms itself (``[[round|Runde]]``): those marks are its links, and its own definitions (``{dfn=round}``)
are where its terms are stated. Sections of the original that the translation
lacks get a visible notice with a link to the original: a whole chapter gets a page of its own.

Both sites carry, on every chapter page, where the page and each of its sections are in the other
language (a JSON block): the language switcher reads it to land on the aligned section.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence, Set
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import escape

from rulebook.autolink import link_references
from rulebook.model import (
    Content,
    Definition,
    Document,
    ItemList,
    Node,
    Reference,
    Section,
    map_children,
    plain_text,
    unique_id,
)
from rulebook.names import NUMBER_ID, ascii_lower, slugify
from rulebook.pictures import published_name
from rulebook.site.escaping import html_text
from rulebook.site.html import Linker, render_content, spaced
from rulebook.site.lost import without_lost_sentences, without_lost_text
from rulebook.site.page_table import (
    GLOSSARY,
    HOME,
    IMAGES,
    LONGEST_PAGE_NAME,
    RESERVED_NAMES,
    SITE_ENTRIES,
    TABLES,
    is_device_name,
    translation_report,
)
from rulebook.site.pages import (
    LinkStyle,
    Page,
    SitePlan,
    SiteTranslation,
    json_script,
    link,
    nav_chapters,
    nav_title,
    page_previews,
    page_url,
    reference_page,
    relative,
    section_blocks,
    with_script,
    words_script,
)
from rulebook.site.previews import fit, preview
from rulebook.site.reference import ReferenceView
from rulebook.translate.terminology import Entry, TermMatcher

_STEP_NUMBER = re.compile(r"^\d+\s*[.)–-]?\s+")
"""The number a converted list keeps at the start of its items ("1 Phase de Mouvement")."""
MAX_ABBREVIATION = 3
"""An accepted rendering this short is a profile's abbreviation (``Cd`` for Commandement, ``CC``)."""
MIN_FORM_LENGTH = 3
"""Shorter renderings (abbreviations such as "F" or "CC") are too ambiguous to link in running text."""


@dataclass(frozen=True, slots=True)
class TranslatedSite:
    """The pages of one translation's site, and what the original's pages need to point at it."""

    language: str
    title: str
    pages: list[Page]
    nav: list[Any]
    original_alternates: dict[str, str]
    """By the original's chapter page: the script block saying where it is in this translation."""
    strings: Mapping[str, str]
    redirects: dict[str, str]
    """Pages at the addresses the chapters had before they were named by their titles (``s3/index.html``),
    by path in this translation's site: each sends its reader on, with the section asked for."""


def build_translated_site(
    original: SitePlan, translation: SiteTranslation, env: Environment, strings: Mapping[str, str]
) -> TranslatedSite:
    plan = TranslatedPlan(original, translation, strings)
    reference = plan.tables_page(env)
    plan.has_reference = reference is not None
    pages: list[Page] = [plan.index_page(env)]
    chapters = []
    for kind, section in plan.reading_order:
        page = plan.chapter_page(section, env) if kind == "translated" else plan.untranslated_page(section, env)
        chapters.append(page)
    pages += chapters
    nav: list[Any] = [
        {nav_title(strings["home"]): HOME.file},
        *nav_chapters([(p.title, p.path) for p in chapters], strings["chapters"]),
    ]
    for extra in (plan.glossary_page(env), reference):
        if extra is not None:
            pages.append(extra)
            nav.append({nav_title(extra.title): extra.path})
    return TranslatedSite(plan.language, plan.title, pages, nav, plan.original_alternates(), strings, plan.redirects())


class TranslatedPlan:
    """Where the translation puts each page, section and term, and how they pair with the original's."""

    def __init__(self, original: SitePlan, translation: SiteTranslation, strings: Mapping[str, str]) -> None:
        self.original = original
        self.translated = translation.book
        self.language = translation.language
        self.strings = strings
        self.status = translation.status
        self.pictures = translation
        """Its pictures: its own site's, and those it shows from the book's."""
        self.prefix = f"{translation.language}/"
        self.links = LinkStyle(original.links.from_markdown, self.prefix, original.links.directory_urls)
        graph = original.site.terms
        self.entries = {t: e for t, e in sorted(translation.terms.items()) if t in original.term_page}
        self.matcher = TermMatcher(self.entries)
        self.has_reference = False
        """Whether the translation's site has a quick reference (its home page links it)."""
        self.terminology = translation.terms
        """Every term the terminology names, those this book does not define (yet) too."""
        self.outside = {t: o for t, o in translation.outside.items() if t not in self.entries}
        """The terms of the books the book uses, named as their translations name them (the book's own win)."""
        forms = _forms({**{t: o.entry for t, o in self.outside.items()}, **self.entries})
        # A translation that marks its terms (the dialect's ``[[round|Runde]]``) is linked where it marks them, as its
        # original is; one that marks none (converted from a PDF) is linked through its terminology.
        documents = [d if d.references else link_references(d, forms) for d in translation.book.documents]

        # Aligned sections, both ways. A titled note stands for the section that holds it.
        self.to_translation: dict[str, str] = {}
        self.to_original: dict[str, str] = {}
        for pair in translation.pairs:
            if pair.original is None or pair.translation is None:
                continue
            there, here = pair.original.id.split("/")[0], pair.translation.id.split("/")[0]
            if pair.original.kind == "section":
                self.to_translation.setdefault(there, here)
            self.to_original.setdefault(here, there)
        documents = [_keep_links(d, self._in_context(documents)) for d in documents]

        # Where each term is stated in the translation: the section holding the text aligned with its definition,
        # else the section aligned with the one holding its definition.
        self.definitions = translation.definitions
        section_at = _section_at(documents)
        self.term_section: dict[str, str] = {}
        for term in self.entries:
            definition = graph.definition(term)
            where = self.definitions.get(term)
            stated = section_at(where.path, where.offset) if where else None
            if stated is None and definition is not None:
                stated = self._translated_ancestor(definition.section_id)
            if stated is not None:
                self.term_section[term] = stated
        # A term the translation defines itself (the dialect's definitions) is marked there already.
        self.marked: set[str] = {d.name for d in translation.book.definitions} & self.term_section.keys()
        wanted: dict[str, set[str]] = defaultdict(set)
        for term, here in self.term_section.items():
            wanted[here].add(term)
        documents = [_mark_definitions(d, wanted, self.marked) for d in documents]
        if not original.site.drafts:  # readers never meet "see chapter ??": the editor's view shows it broken
            documents = [_without_lost(d) for d in documents]

        chapters = [s for d in documents for s in d.body]
        numbered = [i for i, c in enumerate(chapters) if c.number is not None]
        self.front = chapters[: numbered[0]] if numbered else []
        self.chapters = chapters[len(self.front) :]
        fallback = self.front[0].title if self.front else str(original.site.data["book"]["title"])
        self.title = translation.title or fallback
        """The configuration's title, else the translation's own (its front matter), else the title of the front matter
        chapter a translation from a PDF starts with; else the original's (a chapter's title names no book)."""
        self.sections: dict[str, Section] = {}
        self.page_of: dict[str, str] = {}
        pages = {chapter.id for chapter in self.chapters}  # the front's are on the home page, named by their ids
        self.anchor = readable_anchors([s for c in chapters for s in _walk(c)], RESERVED_NAMES, pages)
        for chapter in self.front:
            self._place(chapter, HOME.file)
        for chapter in self.chapters:
            self._place(chapter, self.anchor[chapter.id] + ".md")
        self.references: dict[str, list[str]] = defaultdict(list)
        for document in documents:
            for reference in document.references:
                self.references[reference.name].append(reference.section_id)

        # The original's sections the translation lacks: whole chapters get a page, others a notice.
        self.untranslated_page_of: dict[str, str] = {}
        self.notices: dict[str, list[Section]] = defaultdict(list)
        # named apart from every other page and from the old addresses the redirects keep, whatever the case (on a
        # disk that ignores it one page replaced another; a redirect replaced the untranslated chapter `s1`'s page)
        taken = {name.lower() for name in self._redirected()} | RESERVED_NAMES
        taken |= {page[: -len(".md")].lower() for page in self.page_of.values()}
        for chapter in original.chapters:
            if chapter.id not in self.to_translation:
                self.untranslated_page_of[chapter.id] = f"{unique_id(chapter.id, taken, fold=True)}.md"
            for section in _walk(chapter):
                if section.id in self.to_translation or section.parent_id not in self.to_translation:
                    continue
                self.notices[self.to_translation[section.parent_id]].append(section)
        self.reading_order = self._reading_order()
        self.previews = {term: self._preview(term) for term in self.entries}
        self.previews.update({term: self._outside_preview(term) for term in self.outside})

    # Places ---------------------------------------------------------------------------------------

    def _place(self, section: Section, page: str) -> None:
        self.sections[section.id] = section
        self.page_of[section.id] = page
        for node in section.children:
            if isinstance(node, Section):
                self._place(node, page)

    def _translated_ancestor(self, section_id: str | None) -> str | None:
        """The translated section aligned with this section of the original, or with its nearest ancestor."""
        graph = self.original.site.terms
        while section_id is not None:
            if section_id in self.to_translation:
                return self.to_translation[section_id]
            section = graph.section(section_id)
            section_id = section.parent_id if section else None
        return None

    def _in_context(self, documents: list[Document]) -> Callable[[Reference], bool]:
        """Whether a use of a term is one: a one-word rendering (``unique``, ``taille``, ``Base``) is also an
        ordinary word, so it is linked only where the original's aligned section (or one inside it) uses
        the term too."""
        parents = {s.id: s.parent_id for d in documents for s in d.sections}
        # The uses the translation marks itself (``[[round|Runde]]``) are uses by what they say.
        written = {(r.source.path, r.offset) for r in self.translated.references}
        used: dict[str, set[str]] = defaultdict(set)
        graph = self.original.site.terms
        uses = [(n.section_id, n.name) for d in self.original.site.book.documents for n in d.references]
        uses += [(n.section_id, n.name) for d in self.original.site.book.documents for n in d.definitions]
        for section_id, name in uses:
            section: str | None = section_id
            while section is not None:
                used[section].add(name)
                found = graph.section(section)
                section = found.parent_id if found is not None else None

        def aligned(section_id: str | None) -> str | None:
            while section_id is not None and section_id not in self.to_original:
                section_id = parents.get(section_id)
            return self.to_original.get(section_id) if section_id is not None else None

        def keep(reference: Reference) -> bool:
            if len(reference.text.split()) > 1 or (reference.source.path, reference.offset) in written:
                return True
            there = aligned(reference.section_id)
            return there is not None and reference.name in used[there]

        return keep

    def _original_ancestor(self, section_id: str | None) -> str | None:
        while section_id is not None:
            if section_id in self.to_original:
                return self.to_original[section_id]
            section = self.sections.get(section_id)
            section_id = section.parent_id if section else None
        return None

    def _reading_order(self) -> list[tuple[str, Section]]:
        """The translated chapters in their order, each untranslated chapter after the one it follows."""
        order: list[tuple[str, Section]] = [("translated", c) for c in self.chapters]
        position = 0
        for chapter in self.original.chapters:
            here = self.to_translation.get(chapter.id)
            if here is not None:
                page = self.page_of.get(here)
                # Only translated chapters have a page of the translation (an untranslated one may come first).
                found = next(
                    (i for i, (kind, c) in enumerate(order) if kind == "translated" and self.page_of[c.id] == page),
                    None,
                )
                position = position if found is None else found + 1
            else:
                order.insert(position, ("untranslated", chapter))
                position += 1
        return order

    # A place is a page's Markdown path from the book's site root, with its #fragment (see ``pages.link``).

    def url(self, section_id: str) -> str | None:
        """Where a translated section is, from the book's site root (``fr/lancer-les-des.md#x``)."""
        page = self.page_of.get(section_id)
        if page is None:
            return None
        anchor = self.anchor[section_id]
        return self.prefix + page + ("" if page == f"{anchor}.md" else f"#{anchor}")

    def original_url(self, section_id: str) -> str | None:
        """Where a section of the original is, from the book's site root (``s3.md#s3-2``)."""
        chapter = self.original.chapter_of.get(section_id)
        if chapter is None:
            return None
        return chapter + ".md" + ("" if chapter == section_id else f"#{section_id}")

    def _from(self, page: str, url: str) -> str:
        """A link from a page of this translation's site to a place from the book's site root."""
        return link(self.links, self.prefix + page, url)

    def term_url(self, term: str) -> str | None:
        here = self.term_section.get(term)
        if here is not None:
            url = self.url(here)
            if url is not None:
                return url.split("#")[0] + (f"#term-{term}" if term in self.marked else f"#{self.anchor[here]}")
        target = self.original.term_page.get(term)
        if target is None and term in self.outside:
            return self.outside[term].page  # stated in that book's site in this language
        return f"{target}#term-{term}" if target else None

    def linker(self, page: str) -> Linker:
        def term_href(name: str) -> str | None:
            url = self.term_url(name)
            return None if url is None else self._from(page, url)

        def id_href(target: str) -> str | None:
            url = self.url(target)
            return None if url is None else self._from(page, url)

        def image_href(file: str) -> str | None:  # a name is a path, not a URL: `a#b.png` is no fragment
            path = f"{IMAGES.name}/{quote(published_name(file))}"
            if file in self.pictures.images:
                return self._from(page, self.prefix + path)
            return self._from(page, path) if file in self.pictures.shared_images else None

        drawn = {**self.original.site.drawn, **self.pictures.drawn}
        return Linker(
            term_href,
            id_href,
            image_href,
            self.strings,
            self.original.site.drafts,
            refused_images=self.pictures.refused_images,
            image_sizes={name: (drawn[name].width, drawn[name].height) for name in self._images_shown(drawn)},
            language=self.language,
        )

    def _images_shown(self, drawn: Mapping[str, Any]) -> list[str]:
        """The drawn pictures the translation shows, from its own site or the book's."""
        return [name for name in drawn if name in self.pictures.images or name in self.pictures.shared_images]

    def _preview(self, term: str) -> dict[str, Any]:
        entry = self.entries[term]
        name = self.original.site.data["terms"].get(term, {}).get("name", term)
        here = self.term_section.get(term)
        section = self.sections.get(here) if here else None
        definition = self.definitions.get(term)
        said = without_lost_text(definition.text) if definition is not None else ""
        if said:
            text, links = fit(said, self._links_in(said, term))
        elif section is not None:
            text, links = preview(section.children, term)
        else:
            text, links = self._original_text(term)
        return _card(f"{entry.preferred} ({name})", text, links, self.language)

    def _original_text(self, term: str) -> tuple[str, list[tuple[int, int, str]]]:
        """The original's card text of a term, marked as the original's (its links moved along)."""
        original = self.original.previews.get(term, {})
        label = f"({self.strings['original_text']}) "
        links = [(a + len(label), b + len(label), t) for a, b, t in original.get("links", ())]
        return label + original.get("text", ""), links

    def _links_in(self, text: str, term: str) -> list[tuple[int, int, str]]:
        """Where a translated definition renders the other terms its original uses (ordinary words left out)."""
        used = set(self.original.site.terms.terms_used_by(term)) & self.entries.keys() - {term}
        spans = sorted((start, -end, t) for t, start, end in self.matcher.spans(text, ordinary=False) if t in used)
        links, reached = [], 0
        for start, end, found in spans:
            if start >= reached:  # the longest rendering where two overlap ("rang complet", not "rang")
                links.append((start, -end, found))
                reached = -end
        return links

    def _outside_preview(self, term: str) -> dict[str, Any]:
        """A card for another book's term: its name in this language, and its original's definition (its links
        kept: the card of a term it names opens from it)."""
        title = f"{self.outside[term].entry.preferred} ({self.original.previews.get(term, {}).get('title', term)})"
        return _card(title, *self._original_text(term), self.language)

    def _previews_script(self, page: str, used: set[str]) -> str:
        style = LinkStyle(directory_urls=self.links.directory_urls)

        def href(term: str) -> str | None:
            url = self.term_url(term)
            return link(style, self.prefix + page, url) if url else None

        previews = page_previews(self.previews, used, href)
        return json_script("rb-previews", previews) + "\n" + words_script(self.strings)

    def _redirected(self) -> list[str]:
        """The numbered addresses the redirects keep (``s3``): each numbered chapter's whose page has another name."""
        return [
            chapter.id
            for chapter in self.chapters
            if self.page_of[chapter.id] != f"{chapter.id}.md" and _named_by_number(chapter)
        ]

    def redirects(self) -> dict[str, str]:
        """A page at each chapter's numbered address (``s3/``) leading to its readable one, keeping the ``#s3-2-1``."""
        found = {}
        redirected = set(self._redirected())  # an id that names no page has no address
        for chapter in self.chapters:
            page = self.page_of[chapter.id]
            if chapter.id in redirected:
                old, folders = f"{chapter.id}.md", self.links.directory_urls
                target = relative(self.prefix + old, self.prefix + page_url(page, folders), folders)
                where = f"{page_url(old)}index.html" if folders else page_url(old, folders)
                found[where] = redirect_page(target, chapter.title, self.language)
        return found

    # Language switcher ---------------------------------------------------------------------------

    def _alternate(
        self, page: str, target_page: str, sections: Mapping[str, str], from_original: bool, *, nearest: bool = False
    ) -> str:
        """Where a page is in the other language (``nearest``: it has no counterpart, the switcher leads to the
        nearest page, which says so)."""

        # The switcher's script reads these: a script block is not rewritten by any generator, so they are
        # always relative to the built page.
        def link_to(url: str) -> str:
            style = LinkStyle(directory_urls=self.links.directory_urls)
            return link(style, page if from_original else self.prefix + page, url)

        language = self.language if from_original else self.original.site.book.documents[0].language
        value: dict[str, Any] = {
            "page": link_to(target_page),
            "sections": {k: link_to(v) for k, v in sorted(sections.items())},
        }
        return json_script("rb-alternate", {language: value | ({"nearest": True} if nearest else {})})

    COUNTERPARTS = (HOME, GLOSSARY, TABLES)
    """The original's pages (other than chapters) this translation's site has too (the quick reference when the
    book has one)."""

    def original_alternates(self) -> dict[str, str]:
        """By the original's page: where the switcher leads in this translation (a chapter: its sections too)."""
        found = {}
        for entry in SITE_ENTRIES:
            if entry.ours:
                shared = entry in self.COUNTERPARTS
                target = self.prefix + (entry.file if shared else HOME.file)
                found[entry.file] = self._alternate(entry.file, target, {}, True, nearest=not shared)
        report = translation_report(self.language) + ".md"
        found[report] = self._alternate(report, self.prefix + HOME.file, {}, True, nearest=True)
        for chapter in self.original.chapters:
            page = chapter.id + ".md"
            if chapter.id in self.untranslated_page_of:
                target = self.prefix + self.untranslated_page_of[chapter.id]
                found[page] = self._alternate(page, target, {}, True)
                continue
            sections = {}
            for section in _walk(chapter):
                here = self._translated_ancestor(section.id)
                url = self.url(here) if here else None
                if url is not None:
                    sections[section.id] = url
            target = sections.get(chapter.id, self.prefix)
            found[page] = self._alternate(page, target, sections, True)
        return found

    def _translated_alternate(self, page: str, chapter: Section) -> str:
        """Where the page and each of its sections (by the heading's anchor) are in the original."""
        sections = {}
        for section in _walk(chapter):
            there = self._original_ancestor(section.id)
            url = self.original_url(there) if there else None
            if url is not None:
                sections[self.anchor[section.id]] = url
        return self._alternate(page, sections.get(self.anchor[chapter.id], ""), sections, False)

    # Pages -----------------------------------------------------------------------------------------

    def chapter_page(self, chapter: Section, env: Environment) -> Page:
        path = self.page_of[chapter.id]
        linker = self.linker(path)
        blocks: list[dict[str, Any]] = []
        section_blocks(chapter, linker, blocks, self._notices(path), self.anchor)
        markdown = env.get_template("chapter.md.j2").render(
            title=chapter.title,
            blocks=blocks,
            previews=self._previews_script(path, linker.used_terms),
            alternate=self._translated_alternate(path, chapter),
            status=self._status_banner(path, chapter, env),
        )
        return Page(path, chapter.title, markdown)

    def _status_banner(self, page: str, chapter: Section, env: Environment) -> str:
        """The notice at the page's top when its original changed since it was translated (empty otherwise)."""
        from rulebook.site.translation_status import status_banner

        if self.status is None:
            return ""
        ids = {s.id for s in _walk(chapter)}
        link = functools.partial(self._from, page)
        return status_banner(self.status, ids, anchor=self.anchor.__getitem__, link=link, env=env, strings=self.strings)

    def _notices(self, page: str) -> dict[str, str]:
        """For each translated section: the notice listing the original's subsections it lacks."""
        notices = {}
        for here, missing in self.notices.items():
            links = ", ".join(
                f'<a href="{escape(self._from(page, url))}">{escape(s.title)}</a>'
                for s in missing
                if (url := self.original_url(s.id))
            )
            notices[here] = (
                f'<div class="admonition warning rb-untranslated"><p class="admonition-title">'
                f"{escape(self.strings['untranslated_sections'])}</p><p>{links}</p></div>"
            )
        return notices

    def tables_page(self, env: Environment) -> Page | None:
        """The quick reference in this language: the terms by their translated names, linked where the translation
        states them, the places in the rules its sections, the profile's abbreviations and definitions its own."""
        path = TABLES.file
        names = self.original.site.data["terms"]
        used: set[str] = set()

        def term(name: str) -> dict[str, Any]:
            entry = self.terminology.get(name)
            label = (
                entry.preferred[:1].upper() + entry.preferred[1:] if entry else names.get(name, {}).get("name", name)
            )
            url = self.term_url(name) if name in self.entries else None  # a term this book defines, named
            if url:
                used.add(name)
            return {"term": name, "name": label, "href": self._from(path, url) if url else None}

        def section(section_id: str | None) -> dict[str, Any] | None:
            here = self._translated_ancestor(section_id) if section_id else None
            if here is not None and (url := self.url(here)):
                return {"title": self.sections[here].title, "href": self._from(path, url)}
            there = self.original.site.terms.section(section_id) if section_id else None
            url = self.original_url(section_id) if section_id else None
            return {"title": there.title, "href": self._from(path, url)} if there and url else None

        def characteristic(row: Mapping[str, Any]) -> tuple[str, str]:
            entry, definition = self.entries.get(row["term"]), self.definitions.get(row["term"])
            short = [form for form in (entry.accepted if entry else ()) if len(form) <= MAX_ABBREVIATION]
            return (short[0] if short else str(row["abbreviation"])), (
                definition.text if definition else row["definition"]
            )

        terms = self.original.site.terms
        view = ReferenceView(
            self.original.site.data, self.strings, term, section, terms.terms_used_by, characteristic, self._steps
        )
        page = reference_page(view, env, path, used, self.strings["tables"], self._previews_script)
        return with_script(page, self._alternate(path, TABLES.file, {}, False)) if page else None

    def _steps(self, sequence: Mapping[str, Any]) -> list[str]:
        """A sequence's steps as the translation writes them: the items of the list with as many steps in the section
        aligned with the sequence's (the original's text where there is none)."""
        original = [str(step["text"]) for step in sequence["steps"]]
        here = self._translated_ancestor(sequence.get("section"))
        section = self.sections.get(here) if here else None
        lists = [n for n in (section.children if section else ()) if isinstance(n, ItemList)]
        translated = next((n for n in lists if len(n.items) == len(original)), None)
        if translated is None:
            return original
        said = [_STEP_NUMBER.sub("", " ".join(plain_text(item.children).split())) for item in translated.items]
        return [step or text for step, text in zip(said, original, strict=True)]

    def untranslated_page(self, chapter: Section, env: Environment) -> Page:
        path = self.untranslated_page_of[chapter.id]
        url = self.original_url(chapter.id) or ""
        sections = [
            {"title": s.title, "href": self._from(path, self.original_url(s.id) or url)}
            for s in _walk(chapter)
            if s.id != chapter.id
        ]
        markdown = env.get_template("untranslated.md.j2").render(
            title=chapter.title,
            strings=self.strings,
            original_href=self._from(path, url),
            sections=sections,
            alternate=self._alternate(path, url, {}, False),
        )
        return Page(path, chapter.title, markdown)

    def index_page(self, env: Environment) -> Page:
        path = HOME.file
        linker = self.linker(path)
        front = [
            render_content(tuple(n for n in section.children if not isinstance(n, Section)), linker)
            for chapter in self.front
            for section in _walk(chapter)
        ]
        chapters = []
        for kind, section in self.reading_order:
            page = self.page_of[section.id] if kind == "translated" else self.untranslated_page_of[section.id]
            href = self._from(path, self.prefix + page)
            chapters.append({"title": section.title, "href": href, "translated": kind == "translated"})
        markdown = env.get_template("translated_index.md.j2").render(
            title=self.title,
            front=[html for html in front if html.strip()],
            chapters=chapters,
            strings=self.strings,
            glossary_href=self._from(path, self.prefix + GLOSSARY.file),
            tables_href=self._from(path, self.prefix + TABLES.file) if self.has_reference else None,
            report_href=self._from(path, translation_report(self.language) + ".md") if self.original.editors else None,
            pdf_href=self._from(path, pdf) if (pdf := self.original.site.pdfs.get(self.language)) else None,
            previews=self._previews_script(path, linker.used_terms),
            status=self._status_summary(path, env),
        )
        return with_script(Page(path, self.title, markdown), self._alternate(path, HOME.file, {}, False))

    def _status_summary(self, page: str, env: Environment) -> str:
        """The translation's status for the home page (empty when it is not known)."""
        from rulebook.site.translation_status import status_summary

        if self.status is None:
            return ""
        link = functools.partial(self._from, page)
        return status_summary(self.status, translated=self.url, link=link, env=env, strings=self.strings)

    def glossary_page(self, env: Environment) -> Page:
        path = GLOSSARY.file
        names = self.original.site.data["terms"]
        entries = []
        for term, entry in self.entries.items():
            url = self.term_url(term)
            original = self.original.term_page[term]
            used_in = sorted(
                {s for s in self.references.get(term, []) if s in self.sections},
                key=lambda s: self.sections[s].offset,
            )
            entries.append(
                {
                    "id": term,
                    "name": entry.preferred[:1].upper() + entry.preferred[1:],
                    "accepted": entry.accepted,
                    "original_name": names.get(term, {}).get("name", term),
                    "href": self._from(path, url) if url else None,
                    "original_href": self._from(path, f"{original}#term-{term}"),
                    "text": self.previews[term]["text"],
                    "translated": term in self.term_section,
                    "used_in": [
                        {
                            "title": spaced(self.sections[s].title, self.language),
                            "href": self._from(path, self.url(s) or ""),
                        }
                        for s in used_in
                    ],
                }
            )
        entries.sort(key=lambda e: (ascii_lower(str(e["name"])), e["id"]))
        by_letter: dict[str, list[dict[str, Any]]] = defaultdict(list)
        for item in entries:
            letter = ascii_lower(str(item["name"]))[:1].upper()
            by_letter[letter if letter.isalpha() else "#"].append(item)
        markdown = env.get_template("translated_glossary.md.j2").render(
            letters=sorted(by_letter.items()), strings=self.strings
        )
        page = Page(path, self.strings["glossary"], markdown)
        return with_script(page, self._alternate(path, GLOSSARY.file, {}, False))


def readable_anchors(
    sections: list[Section], reserved: Set[str] = frozenset(), pages: Set[str] = frozenset()
) -> dict[str, str]:
    """Each section's anchor (a chapter's: its page's name): a slug of its title, unique in the site.

    A translation converted from a PDF names its numbered sections by number (``s3-2-1``); readers get
    the title's words (``lancer-les-des``), and the number stays as an alias (see ``redirects``).
    A chapter whose own id names its page (one of ``pages``) and cannot (one of ``reserved``, the site's own pages: a
    translated chapter `Index` replaced the translation's home page; a device's name; more than
    :data:`LONGEST_PAGE_NAME` characters: "file name too long" from the build's scratch folder) gets a slug of its
    title too; any other section keeps its id, an anchor in a page (the home page shows the front's `#index`).
    """
    taken = set(reserved) | {s.id for s in sections}  # a number is kept as an alias: no slug may take it
    counters: dict[str, int] = {}  # a title repeated: not counted up from 2 each time
    return {
        s.id: unique_id(_slug(s.title), taken, counters=counters)
        if _named_by_number(s) or (s.id in pages and not _names_a_page(s.id, reserved))
        else s.id
        for s in sections
    }


def _names_a_page(name: str, reserved: Set[str]) -> bool:
    """Whether ``name`` may name a page of a translated site as it is (the checks the original's ids pass: the
    ``reserved-name`` rule)."""
    return name.lower() not in reserved and not is_device_name(name) and len(name) <= LONGEST_PAGE_NAME


def _slug(title: str) -> str:
    """A title's slug short enough to name a page's file with a number after it."""
    slug = slugify(title)[: LONGEST_PAGE_NAME - 10].strip("-") or "section"
    return f"{slug}-page" if is_device_name(slug) else slug


def _named_by_number(section: Section) -> bool:
    """Whether a section's id is its number (``s3-2``, ``s3-2-2``), as a PDF's conversion names it; a source
    that names its numbered sections by their titles (the Markdown dialect) keeps its ids."""
    return section.number is not None and NUMBER_ID.fullmatch(section.id) is not None


def redirect_page(target: str, title: str, language: str) -> str:
    """A page that sends its reader to ``target`` (a relative URL), keeping the ``#fragment`` asked for."""
    url = escape(target)
    return (
        f'<!doctype html>\n<html lang="{escape(language)}">\n<head>\n<meta charset="utf-8">\n'
        f"<title>{html_text(title)}</title>\n"
        f'<meta name="robots" content="noindex">\n<link rel="canonical" href="{url}">\n'
        f"<script>location.replace({json.dumps(target)} + location.hash)</script>\n"
        f'<meta http-equiv="refresh" content="0; url={url}">\n'
        f'</head>\n<body>\n<p><a href="{url}">{html_text(title)}</a></p>\n</body>\n</html>\n'
    )


def _card(title: str, text: str, links: Sequence[tuple[int, int, str]], language: str) -> dict[str, Any]:
    """A term's card: its text spaced as the language writes (one character for one: the links' offsets hold)."""
    return {"title": title, "text": spaced(text, language), "links": [list(span) for span in links]}


def _forms(entries: Mapping[str, Entry]) -> dict[str, str]:
    """Each translated rendering of a term, mapped to the term id; preferred terms win over variants,
    and phrases marked ``unlinked`` map to no term (the linker leaves them as text)."""
    forms: dict[str, str] = {}
    for term, entry in entries.items():
        for form in entry.accepted:
            if len(form) >= MIN_FORM_LENGTH:
                forms.setdefault(form, term)
    for term, entry in entries.items():
        if len(entry.preferred) >= MIN_FORM_LENGTH:
            forms[entry.preferred] = term
    for entry in entries.values():
        for phrase in entry.unlinked:
            forms[phrase] = ""
    return forms


def _keep_links(document: Document, keep: Callable[[Reference], bool]) -> Document:
    """The document with the references ``keep`` refuses turned back into text."""

    def content(nodes: Content) -> Content:
        return tuple(
            node.text if isinstance(node, Reference) and not keep(node) else map_children(node, content)
            for node in nodes
        )

    body = tuple(section._replace(children=content(section.children)) for section in document.body)
    references = tuple(r for r in document.references if keep(r))
    return dataclasses.replace(document, body=body, references=references)


def _mark_definitions(document: Document, wanted: Mapping[str, set[str]], marked: set[str]) -> Document:
    """The first use of each term in the section that states it becomes its marked definition."""

    def content(nodes: Content, section_id: str) -> Content:
        out: list[Node] = []
        for node in nodes:
            if isinstance(node, Section):
                out.append(section(node))
            elif isinstance(node, Reference) and node.name in wanted.get(section_id, ()) and node.name not in marked:
                marked.add(node.name)
                out.append(Definition(node.name, (node.text,), section_id, None, node.source, node.offset))
            else:  # a profile's row states its characteristic
                out.append(map_children(node, lambda part: content(part, section_id)))
        return tuple(out)

    def section(node: Section) -> Section:
        return node._replace(children=content(node.children, node.id))

    return dataclasses.replace(document, body=tuple(section(s) for s in document.body))


def _without_lost(document: Document) -> Document:
    body = tuple(s for s in without_lost_sentences(document.body) if isinstance(s, Section))
    return dataclasses.replace(document, body=body)


def _section_at(documents: list[Document]) -> Callable[[str, int], str | None]:
    """The translation's section a place of its files stands in (the last one starting before it)."""
    starts = sorted((s.source.path, s.offset, s.id) for d in documents for s in d.sections)

    def section_at(path: str, offset: int) -> str | None:
        before = [section for file, start, section in starts if file == path and start <= offset]
        return before[-1] if before else None

    return section_at


def _walk(section: Section) -> list[Section]:
    found = [section]
    for node in section.children:
        if isinstance(node, Section):
            found += _walk(node)
    return found
