"""The site's pages as data: which page holds what, and each page's Markdown.

Pure: the book, its term graph, the rule data and the lint findings in; a list of
:class:`Page` (path, title, Markdown text) and the navigation out. Page bodies
are Markdown headings (for the table of contents and search) around raw HTML
blocks rendered by :mod:`rulebook.site.html`. MkDocs passes that HTML through and Zensical
rewrites its links: each link is written by :func:`link`, the way the chosen generator resolves it,
so either builds the same site from the same plan.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup, escape

from rulebook.characters import UNPRINTABLE_ABOVE_ASCII
from rulebook.diagnostics import Diagnostic
from rulebook.graph import TermGraph
from rulebook.model import Book, Section
from rulebook.pictures import DrawnPicture, published_name
from rulebook.report.escaping import visible_in_text
from rulebook.site.across import BookLinks
from rulebook.site.escaping import theme_text
from rulebook.site.html import Linker, render_content, spaced
from rulebook.site.lost import without_lost_sentences
from rulebook.site.page_table import CHANGES, GLOSSARY, GRAPH, HOME, IMAGES, LINT, TABLES, translation_report
from rulebook.site.previews import definition_preview
from rulebook.site.reference import ReferenceView, reference_context
from rulebook.site.svg import Neighbourhood
from rulebook.site.value_words import profile_words, value_sentences

if TYPE_CHECKING:
    from rulebook.site.translation_status import SiteStatus
    from rulebook.translate.align import Pair
    from rulebook.translate.definitions import TranslatedDefinition
    from rulebook.translate.terminology import Entry

CHAPTERS_PER_NAV_GROUP = 25


@dataclass(frozen=True, slots=True)
class Page:
    path: str
    """Markdown file path inside the docs folder (``chapter-id.md``)."""
    title: str
    markdown: str


@dataclass(frozen=True, slots=True)
class SiteTranslation:
    """A translation of the book, aligned with it: its own site goes under ``<language>/``."""

    language: str
    book: Book
    pairs: list[Pair]
    terms: dict[str, Entry]
    """The terminology: the translated names of the original's terms."""
    report: dict[str, Any]
    """The side-by-side report's context (``rulebook.translate.compare.report_context``)."""
    definitions: Mapping[str, TranslatedDefinition] = field(default_factory=dict)
    """By term: the translation's text of the original's definition, and where it stands."""
    status: SiteStatus | None = None
    """Which translated sections were made from an earlier edition of an original that changed since."""
    outside: Mapping[str, OutsideTranslation] = field(default_factory=dict)
    """The terms the book takes from the books it uses, by name as it writes them, in this language: the
    translations of those books name them, and their sites in this language state them."""
    title: str | None = None
    """The translation's title (:func:`rulebook.recipe.reading.translation_title`); None: it gives none."""
    images: Mapping[str, Path] = field(default_factory=dict)
    """The pictures its own site publishes (in its ``images/``), by the name its text gives them: those of the
    folder beside it, and the original's folder's the book's site does not publish."""
    shared_images: frozenset[str] = frozenset()
    """The pictures it shows from the book's site (the original's, the same files)."""
    drawn: Mapping[str, DrawnPicture] = field(default_factory=dict)
    """The SVG pictures among :attr:`images`, drawn into the PNGs it publishes instead."""
    refused_images: frozenset[str] = frozenset()
    """The pictures its text shows that are not published (not pictures a site may show, or not drawn)."""
    native_name: str | None = None
    """Its language's own name (the project's language file's, else the shipped one's): the language switcher's label
    where the site's words have none in that language."""


@dataclass(frozen=True, slots=True)
class OutsideTranslation:
    """A term of a book the book uses, as that book's translation into the same language names it."""

    entry: Entry
    """Its renderings in that book's terminology."""
    page: str
    """Its entry in that book's glossary in this language, from this book's site root (``../fr/glossary.md#x``)."""


@dataclass
class SiteInput:
    """Everything the pages are made from."""

    book: Book
    terms: TermGraph
    data: Mapping[str, Any]
    diagnostics: tuple[Diagnostic, ...]
    images: set[str] = field(default_factory=set)
    """Image files the sources provide (copied to ``images/``)."""
    translations: list[SiteTranslation] = field(default_factory=list)
    books: list[dict[str, str]] = field(default_factory=list)
    """The project's other books: title and URL (``href``) from this site's root (``../other-game/``)."""
    changes: dict[str, Any] | None = None
    """What changed since the previous edition (``rulebook.diff``), with ``since``: its title."""
    drafts: bool = False
    """The editor's view (``rulebook serve``, ``build --drafts``): what the book cannot resolve is shown
    broken with the lint's words, missing pictures are named, and the editor's pages are in the navigation."""
    editor_pages: bool = False
    """Whether a published build keeps the editor's pages (lint report, translation reports, term graph),
    under "For editors" at the end of the navigation and out of search; by default it leaves them out."""
    generator: str = "mkdocs"
    """The name of the site generator that builds the pages (``mkdocs`` or ``zensical``, a key of
    :data:`rulebook.site.writer.GENERATORS`); how their links are written is its adapter's (:class:`LinkStyle`)."""
    offline: bool = False
    """Built for reading from disk (MkDocs' ``use_directory_urls: false``, Material's ``offline`` plugin): a page
    ``a.md`` is ``a.html``, and every link names a file (``../other-game/index.html``), never a folder."""
    refused_images: set[str] = field(default_factory=set)
    """Image files the images folder holds that are not published: not pictures the site may show, or SVG pictures
    that could not be drawn."""
    drawn: Mapping[str, DrawnPicture] = field(default_factory=dict)
    """The SVG pictures among :attr:`images`, drawn into the PNGs the site publishes instead
    (:mod:`rulebook.recipe.site_pictures`)."""
    picture_warnings: tuple[str, ...] = ()
    """Why each SVG picture that could not be drawn is not on the site."""
    across: BookLinks = field(default_factory=BookLinks)
    """What the pages link to in the other books of the book's family, and what links here from them."""
    pdfs: dict[str | None, str] = field(default_factory=dict)
    """The book's PDFs (the print edition) by language (None: the book's own), from the book's site root."""


def page_url(path: str, directory_urls: bool = True) -> str:
    """The URL of a page: with ``use_directory_urls`` (the default) its folder, ``a.md`` -> ``a/``,
    ``fr/index.md`` -> ``fr/``; without (offline), its file, ``a.md`` -> ``a.html``."""
    stem = path[: -len(".md")]
    if not directory_urls:
        return stem + ".html"
    if stem == "index":
        return ""
    return stem[: -len("index")] if stem.endswith("/index") else stem + "/"


def relative(from_path: str, to_url: str, directory_urls: bool = True) -> str:
    """A link from one page to a site URL (with optional ``#fragment``), relative as MkDocs expects: from
    the page's folder (``a/``), or offline from the folder its file is in."""
    here = page_url(from_path, directory_urls)
    return _relative_to(here if directory_urls else _folder(here), to_url)


def _folder(url: str) -> str:
    """The folder a file URL is in (``fr/a.html`` -> ``fr/``, ``a.html`` -> ``""``)."""
    return url[: url.rfind("/") + 1]


def file_url(url: str) -> str:
    """A URL that names a file: a folder's (``""``, ``../other-game/``) is its ``index.html``."""
    target, hash_, fragment = url.partition("#")
    if target == "" or target.endswith("/"):
        target += "index.html"
    return target + hash_ + fragment


def _relative_to(here: str, to_url: str) -> str:
    """A link from a folder URL (``fr/s3/``, ``""`` for the root) to a site URL (with optional ``#fragment``)."""
    target, _, fragment = to_url.partition("#")
    suffix = f"#{fragment}" if fragment else ""
    if target == here:
        return ("" if fragment else "./") + suffix
    # Leave out the folders both URLs share: fr/s3/ -> fr/s2/ is ../s2/.
    shared = 0
    while True:
        cut = here.find("/", shared) + 1
        if cut == 0 or not target.startswith(here[:cut]):
            break
        shared = cut
    return ("../" * here[shared:].count("/") + target[shared:] or "./") + suffix


@dataclass(frozen=True, slots=True)
class LinkStyle:
    """How the site generator resolves the links of the HTML our templates write (its adapter says which:
    :attr:`rulebook.site.generator.SiteGenerator.resolves_html_links`).

    A generator that passes raw HTML through (MkDocs): a link is relative to the built page (``s3/`` ->
    ``../s4/#x``). One that rewrites every relative link in it as if it were relative to the page's Markdown file
    (Zensical): a page is then named by its file (``s4.md#x``), so that the generator resolves it and checks its
    anchor, and anything else (a picture, ``rules.json``, another site's page) by its path from the file's folder.
    """

    from_markdown: bool = False
    """Links are resolved from the page's Markdown file, as the generator resolves Markdown links."""
    site: str = ""
    """The folder of the site being made, from the book's root (``""``, or ``fr/`` for a translation): the
    pages under it are the generator's own; any other page is another site's."""
    directory_urls: bool = True
    """MkDocs' ``use_directory_urls``: false for a site read from disk (offline), where a page is its file
    (``a.md`` is ``a.html``) and a link to a folder names its ``index.html``."""
    others: tuple[str, ...] = ()
    """The other books' sites, from the book's root (``../``, ``elves/``): their pages are not the generator's own."""


def link(style: LinkStyle, here: str, target: str) -> str:
    """The one function that writes a link of our HTML: from page ``here`` to ``target``, both from the book's
    site root. ``target`` is a page's Markdown path (``s3.md``, ``fr/glossary.md``) or a file's or folder's path
    (``images/a.png``, ``rules.json``), with an optional ``#fragment``. Script blocks (JSON) are not rewritten by
    either generator: links in them are made with the MkDocs style, relative to the built page."""
    path, hash_, fragment = target.partition("#")
    suffix = hash_ + fragment
    page = path.endswith(".md")
    url = page_url(path, style.directory_urls) if page else path
    if not style.from_markdown:
        if not style.directory_urls:
            return relative(here, file_url(url + suffix), directory_urls=False)
        return relative(here, url + suffix)
    folder = here.rpartition("/")[0]
    base = f"{folder}/" if folder else ""
    if not style.directory_urls and not page:
        url = file_url(url)
    if page and path.startswith(style.site) and not path.startswith(("../", *style.others)):
        if path == here:
            return suffix or path.rpartition("/")[2]
        return _relative_to(base, path + suffix)
    return _relative_to(base, url + suffix)


class SitePlan:
    """Where every term, section and figure lives on the site, and the site's words."""

    def __init__(
        self, site: SiteInput, words: Mapping[str, str] | None = None, *, links_from_markdown: bool = False
    ) -> None:
        """``links_from_markdown``: the generator resolves our HTML's links from the page's Markdown file
        (:attr:`rulebook.site.generator.SiteGenerator.resolves_html_links`)."""
        self.site = site
        self.words: Mapping[str, str] = words or {}
        chapters = tuple(s for d in site.book.documents for s in d.body)
        # Readers never meet "see chapter ??": the editor's view shows the lost link broken.
        shown = chapters if site.drafts else without_lost_sentences(chapters)
        self.chapters = [s for s in shown if isinstance(s, Section)]
        self.chapter_of: dict[str, str] = {}
        for chapter in self.chapters:
            self._place(chapter, chapter.id)
        self.term_page = {
            name: self.chapter_of[d[0].section_id] + ".md"
            for name, d in site.terms.all_definitions().items()
            if d[0].section_id in self.chapter_of
        }
        self.previews = {name: self._preview(name) for name in self.term_page}
        for name, term in site.across.terms.items():  # as the term's own book shows it
            self.previews[name] = definition_preview(term.definition, term.section, term.name, self.words)
        self.links = LinkStyle(links_from_markdown, directory_urls=not site.offline, others=site.across.folders)

    def term_place(self, name: str) -> str | None:
        """Where a term the book names is defined, from the site's root: on its page here, or in another book."""
        page = self.term_page.get(name)
        if page is not None:
            return f"{page}#term-{name}"
        outside = self.site.across.terms.get(name)
        return outside.page if outside is not None else None

    def link(self, here: str, target: str) -> str:
        """A link from page ``here`` to a page or file of this site (see :func:`link`)."""
        return link(self.links, here, target)

    @property
    def editors(self) -> bool:
        """Whether the site has the editor's pages."""
        return self.site.drafts or self.site.editor_pages

    def _place(self, section: Section, chapter_id: str) -> None:
        self.chapter_of[section.id] = chapter_id
        for node in section.children:
            if isinstance(node, Section):
                self._place(node, chapter_id)

    def _preview(self, name: str) -> dict[str, Any]:
        title = self.site.data["terms"].get(name, {}).get("name", name)
        definition = self.site.terms.definition(name)
        if definition is None:
            return {"title": title, "text": ""}
        return definition_preview(definition, self.site.terms.section(definition.section_id), title, self.words)

    def linker(self, page: str) -> Linker:
        terms = self.site.terms
        figures = {f.id: f.section_id for f in self.site.book.figures}

        def term_href(name: str) -> str | None:
            target = self.term_place(name)
            return None if target is None else self.link(page, target)

        def id_href(target_id: str) -> str | None:
            if not terms.id_targets(target_id):
                outside = self.site.across.targets.get(target_id)
                return None if outside is None else self.link(page, outside)
            section_id = figures.get(target_id, target_id)
            chapter = self.chapter_of.get(section_id)
            if chapter is None:
                return None
            fragment = "" if target_id == chapter else f"#{target_id}"
            return self.link(page, chapter + ".md" + fragment)

        def image_href(file: str) -> str | None:  # a name is a path, not a URL: `a#b.png` is no fragment
            return self.link(page, f"{IMAGES.name}/{quote(published_name(file))}") if file in self.site.images else None

        language = self.site.book.documents[0].language if self.site.book.documents else "en"
        return Linker(
            term_href,
            id_href,
            image_href,
            self.words,
            self.site.drafts,
            refused_images=self.site.refused_images,
            image_sizes={name: (drawn.width, drawn.height) for name, drawn in self.site.drawn.items()},
            language=language,
        )

    def script_link(self, here: str, target: str) -> str:
        """A link for the page script's data (a JSON block, which no generator rewrites): from the built page."""
        return link(LinkStyle(directory_urls=self.links.directory_urls), here, target)

    def previews_script(self, page: str, used: Iterable[str]) -> str:
        """The cards of the terms a page uses (and of those their cards link) and the card's words, as JSON blocks
        the page script reads."""

        def href(name: str) -> str | None:
            target = self.term_place(name)  # here, or in the book that defines it
            return self.script_link(page, target) if target else None

        previews = page_previews(self.previews, used, href)
        return json_script("rb-previews", previews) + "\n" + words_script(self.words)


CARD_DEPTH = 2
"""How deep a page's cards open one another: the terms a card links carry their cards, and theirs too."""


PAGE_CARDS_BYTES = 64 * 1024
"""The most card data a page carries (the bundled book's most, its glossary's, 14 KB): each page carried every card
two links deep, 1 + K + K² of them (one `See [[a]].` on each of 1,999 pages carried 1,641 cards: a site of 1.4 GB,
4 GB of memory)."""


def page_previews(
    previews: Mapping[str, dict[str, Any]], used: Iterable[str], href: Callable[[str], str | None]
) -> dict[str, dict[str, Any]]:
    """The cards a page carries: those of the terms it uses and of the terms their cards link (to
    :data:`CARD_DEPTH`), each with its link from the page (``href``) and only the links that lead somewhere; the
    nearest first, while they come to :data:`PAGE_CARDS_BYTES` (a card's link to a term whose card is not carried
    is its text)."""
    wanted = set(used) & previews.keys()
    order = sorted(wanted)
    frontier = set(wanted)
    for _ in range(CARD_DEPTH):
        frontier = {term for name in frontier for _, _, term in previews[name].get("links", ())} - wanted
        frontier &= previews.keys()
        wanted |= frontier
        order += sorted(frontier)
    found, size = {}, 0
    for name in order:
        links = [span for span in previews[name].get("links", ()) if span[2] in previews and href(span[2])]
        url = href(name)
        card = {**previews[name], "links": links, **({"href": url} if url else {})}
        size += len(json.dumps(card, ensure_ascii=False))
        if size > PAGE_CARDS_BYTES:
            break
        found[name] = card
    return dict(sorted(found.items()))


def words_script(words: Mapping[str, str]) -> str:
    """The words the page script shows (on the preview cards), in the page's language."""
    return json_script("rb-words", {key: words[key] for key in SCRIPT_WORDS if key in words})


SCRIPT_WORDS = ("go_to_rule", "close", "unpublished", "copy_link", "link_copied", "nearest_page")
"""The site's words (``strings.toml``) that the page script uses."""


def json_script(css_class: str, value: object) -> str:
    """Data for the page script, as a JSON script block: its texts with control characters as pictures, as the page
    shows them (the script puts them on the page: a card's ESC and U+202E reached it raw, as JSON escapes)."""
    # Escaped as jinja's tojson does: no "<", ">" or "&" from the sources reaches the HTML, even in JSON.
    text = (
        json.dumps(_shown(value), ensure_ascii=False, sort_keys=True)
        .replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
    )
    # JSON leaves DEL, the C1 and the bidirectional controls as they are: written escaped, none reaches a page.
    text = _INVISIBLE.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
    return f'<script type="application/json" class="{css_class}">{text}</script>'


def _shown(value: object) -> object:
    """``value`` with each text in it (at any depth of lists and mappings) as :func:`visible_in_text` shows it: one
    character for one, so the offsets of a card's links still hold."""
    if isinstance(value, str):
        return visible_in_text(value)
    if isinstance(value, Mapping):
        return {_shown(key): _shown(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_shown(item) for item in value]
    return value


def build_pages(
    plan: SitePlan, env: Environment, alternates: Mapping[str, str] | None = None
) -> tuple[list[Page], list[Any]]:
    """Every page of the site and the navigation (MkDocs ``nav`` form); a page only when it has content.

    ``alternates``: by page, the script block that tells the language switcher where the page (and each
    of a chapter's sections) is in the translations.
    """
    words = plan.words
    alternates = alternates or {}
    chapters = [chapter_page(plan, chapter, env, alternates.get(chapter.id + ".md", "")) for chapter in plan.chapters]
    reference = mechanics_page(plan, env)
    pages = [index_page(plan, env, reference is not None), *chapters]
    # The chapters at the navigation's top level, beside the glossary and the quick reference: a phone's drawer opens
    # on the level of the page shown, and a "Rules" group would hide the others behind a back arrow.
    nav: list[Any] = [
        {nav_title(words.get("home", "Home")): HOME.file},
        *nav_chapters([(p.title, p.path) for p in chapters], words.get("chapters", "Chapters")),
    ]
    readers = [glossary_page(plan, env), reference, changes_page(plan, env)]
    for page in readers:
        if page is not None:
            pages.append(page)
            nav.append({nav_title(page.title): page.path})
    if plan.editors:
        editors = editor_pages(plan, env)
        pages += editors
        for_editors = [{nav_title(p.title): p.path} for p in editors]
        nav.append({nav_title(words.get("for_editors", "For editors")): for_editors})
    chapter_pages = {p.path for p in chapters}
    pages = [p if p.path in chapter_pages else with_script(p, alternates.get(p.path, "")) for p in pages]
    return pages, nav


def with_script(page: Page, script: str) -> Page:
    """A page with a script block (data for the page script) at its end."""
    return Page(page.path, page.title, f"{page.markdown.rstrip()}\n\n{script}\n") if script else page


def editor_pages(plan: SitePlan, env: Environment) -> list[Page]:
    """The pages for the book's editors and translators: lint report, translation reports, term graph."""
    pages = [lint_page(plan, env)]
    for translation in plan.site.translations:
        path = translation_report(translation.language) + ".md"
        title = f"Translation report ({translation.language})"
        pages.append(Page(path, title, env.get_template("translation.md.j2").render(**translation.report)))
    if plan.term_page:
        pages.append(graph_page(plan, env))
    return pages


def changes_page(plan: SitePlan, env: Environment) -> Page | None:
    """What changed since the previous edition, rule by rule, each linked in both editions."""
    changes = plan.site.changes
    if changes is None:
        return None
    path = CHANGES.file
    since = next((b["href"] for b in plan.site.books if b.get("name") == changes.get("since_book")), None)

    def now(place: Mapping[str, str]) -> str | None:
        if place.get("chapter") not in plan.chapter_of:
            return None
        fragment = "" if place["chapter"] == place["id"] else f"#{place['id']}"
        return plan.link(path, f"{place['chapter']}.md{fragment}")

    def was(place: Mapping[str, str]) -> str | None:
        if since is None or not place.get("chapter"):
            return None
        fragment = "" if place["chapter"] == place["id"] else f"#{place['id']}"
        return plan.link(path, since + page_url(f"{place['chapter']}.md", plan.links.directory_urls) + fragment)

    sections = changes["sections"]
    names = plan.site.data["terms"]
    title = plan.words.get("changes", "What changed")
    markdown = env.get_template("changes.md.j2").render(
        title=title,
        since_href=plan.link(path, since) if since else None,
        changed=[{**c, "href": now(c["new_place"]), "was_href": was(c["old_place"])} for c in sections["changed"]],
        added=[{**rule, "href": now(rule)} for rule in sections.get("added_places", ())],
        removed=[{**rule, "href": was(rule)} for rule in sections.get("removed_places", ())],
        terms={
            **changes["terms"],
            "added": [
                {"name": names.get(t, {}).get("name", t), "href": (_term_link(plan, path, t) or {}).get("href")}
                for t in changes["terms"].get("added", ())
            ],
            "removed": [{"name": t} for t in changes["terms"].get("removed", ())],
        },
        **{k: v for k, v in changes.items() if k not in ("terms", "sections")},
        sections=sections,
    )
    return Page(path, title, markdown)


def nav_title(title: str) -> str:
    """A title in the navigation: Material writes it into every page, unescaped and through ``|e``."""
    return theme_text(title)


def nav_chapters(chapters: list[tuple[str, str]], label: str) -> list[Any]:
    """Chapters for the navigation; a long book's are one group at the top level, nested in groups of at most
    :data:`CHAPTERS_PER_NAV_GROUP`, so each page renders O(log n) entries of its navigation (a translation's too:
    its flat list made each of 1,000 pages render 1,000 entries, 45 s; 5,000 chapters, 541 s). ``label``: the site's
    word for chapters, in its language (``Chapters 1-25``, with an en dash).

    Material renders each top-level group as a section, with every entry in it (``navigation.sections``), and
    prunes only the groups below those (``navigation.prune``): top-level groups of groups put every group's label
    on every page (4,000 chapters: 7 groups of 25 groups, 531 entries a page, a site of 443 MB). One top-level
    group holds at most 25 entries, and each group open on the way to a page 25 more.

    MkDocs themes render navigation titles as HTML, so titles from the sources are escaped here.
    """
    if len(chapters) <= CHAPTERS_PER_NAV_GROUP:
        return [{nav_title(title): path} for title, path in chapters]
    return [{nav_title(f"{label} 1–{len(chapters)}"): _nav_groups(chapters, label)}]


def _nav_groups(chapters: list[tuple[str, str]], label: str) -> list[Any]:
    """At most :data:`CHAPTERS_PER_NAV_GROUP` entries: the chapters, or groups of them, each nested the same way."""
    if len(chapters) <= CHAPTERS_PER_NAV_GROUP:
        return [{nav_title(title): path} for title, path in chapters]
    size = CHAPTERS_PER_NAV_GROUP
    while len(chapters) > size * CHAPTERS_PER_NAV_GROUP:
        size *= CHAPTERS_PER_NAV_GROUP
    groups = []
    for start in range(0, len(chapters), size):
        part = chapters[start : start + size]
        groups.append({nav_title(f"{label} {start + 1}–{start + len(part)}"): _nav_groups(part, label)})
    return groups


def chapter_page(plan: SitePlan, chapter: Section, env: Environment, alternate: str = "") -> Page:
    path = chapter.id + ".md"
    linker = plan.linker(path)
    blocks: list[dict[str, Any]] = []
    section_blocks(chapter, linker, blocks, clarifications(plan, path, chapter))
    markdown = env.get_template("chapter.md.j2").render(
        title=chapter.title,
        blocks=blocks,
        previews=plan.previews_script(path, linker.used_terms),
        alternate=alternate,
    )
    return Page(path, chapter.title, markdown)


def section_blocks(
    section: Section,
    linker: Linker,
    blocks: list[dict[str, Any]],
    after: Mapping[str, str] | None = None,
    anchors: Mapping[str, str] | None = None,
) -> None:
    """A section and its subsections as page blocks: headings, and the HTML between them.

    ``after``: HTML to add at the end of a section's own text, by section id (notices). ``anchors``:
    the heading's anchor by section id, when it is not the id (which then stays as an alias anchor).
    """
    anchor = (anchors or {}).get(section.id, section.id)
    alias = section.id if anchor != section.id else None
    heading = {
        "heading": "#" * section.level,
        "title": spaced(section.numbered_title, linker.language),
        "id": anchor,
        "alias": alias,
    }
    blocks.append(heading)
    pending: list[Any] = []
    added = (after or {}).get(section.id)
    for node in section.children:
        if isinstance(node, Section):
            _flush(pending, linker, blocks)
            if added:
                blocks.append({"heading": None, "html": added})
                added = None
            section_blocks(node, linker, blocks, after, anchors)
        else:
            pending.append(node)
    _flush(pending, linker, blocks)
    if added:
        blocks.append({"heading": None, "html": added})


def clarifications(plan: SitePlan, page: str, chapter: Section) -> dict[str, str]:
    """By section of a chapter: the FAQ entries that clarify it ("Clarified in"), as HTML after its text."""
    clarified = plan.site.across.clarified
    if not clarified:
        return {}
    found = {}
    words = escape(plan.words.get("clarified_in", "Clarified in:"))
    for section in _sections(chapter):
        entries = clarified.get(section.id)
        if entries:
            items = "".join(
                f'<li><a href="{escape(plan.link(page, e.page))}">{escape(e.book)}, {escape(e.label)}</a></li>'
                for e in entries
            )
            found[section.id] = f'<aside class="rb-clarified"><strong>{words}</strong>\n<ul>{items}</ul></aside>'
    return found


def _sections(section: Section) -> list[Section]:
    return [section, *(s for node in section.children if isinstance(node, Section) for s in _sections(node))]


def _flush(pending: list[Any], linker: Linker, blocks: list[dict[str, Any]]) -> None:
    html = render_content(tuple(pending), linker)
    pending.clear()
    if html.strip():
        blocks.append({"heading": None, "html": html})


def index_page(plan: SitePlan, env: Environment, reference: bool = False) -> Page:
    """The book's home page (``reference``: whether the site has a quick reference to link)."""
    path = HOME.file
    book = plan.site.data["book"]
    chapters = [{"title": c.title, "href": plan.link(path, c.id + ".md")} for c in plan.chapters]
    counts = {
        "terms": sum(1 for t in plan.site.data["terms"].values() if t["defined"]),
        "chapters": len(plan.chapters),
        "roll_tables": len(plan.site.data["roll_tables"]),
    }
    links = {
        "glossary": plan.link(path, GLOSSARY.file) if plan.term_page else None,
        "tables": plan.link(path, TABLES.file) if reference else None,
        "changes": plan.link(path, CHANGES.file) if plan.site.changes is not None else None,
        "data": plan.link(path, "rules.json"),
        "schema": plan.link(path, "rules.schema.json"),
        "pdf": plan.link(path, plan.site.pdfs[None]) if None in plan.site.pdfs else None,
    }
    books = [{**other, "href": plan.link(path, other["href"])} for other in plan.site.books]
    markdown = env.get_template("index.md.j2").render(
        book=book_facts(book), chapters=chapters, counts=counts, books=books, links=links, words=plan.words
    )
    return with_script(Page(path, book["title"], markdown), words_script(plan.words))  # its notes' words


def book_facts(book: Mapping[str, Any]) -> dict[str, str]:
    """What the pages say about the book: only the values its configuration gives (no "Edition: unknown")."""
    facts = {key: str(book.get(key) or "").strip() for key in ("title", "edition", "copyright")}
    if facts["edition"].lower() == "unknown":  # the configuration's default for "not given"
        facts["edition"] = ""
    return facts


def glossary_page(plan: SitePlan, env: Environment) -> Page | None:
    if not plan.term_page:
        return None
    path = GLOSSARY.file
    terms = plan.site.terms
    data_terms = plan.site.data["terms"]
    by_letter: dict[str, list[dict[str, Any]]] = defaultdict(list)
    linked: set[str] = set()  # the terms the "Uses" lines link to: their previews go on the page
    for name in sorted(plan.term_page, key=lambda n: (data_terms[n]["name"].lower(), n)):
        definition = terms.definition(name)
        if definition is None:
            continue
        entry = {
            "id": name,
            "name": data_terms[name]["name"],
            "href": plan.link(path, f"{plan.term_page[name]}#term-{name}"),
            "text": data_terms[name]["definition"]["text"] or plan.previews[name]["text"],
            "uses": [_term_link(plan, path, n) for n in terms.terms_used_by(name)],
            "used_in": _used_in(plan, path, name) + _used_elsewhere(plan, path, name),
        }
        by_letter[_letter(entry["name"])].append(entry)
        linked.update(use["term"] for use in entry["uses"] if use["href"])
    outside = _outside_terms(plan, path)
    linked.update(term["term"] for book in outside for term in book["terms"])
    title = plan.words.get("glossary", "Glossary")
    markdown = env.get_template("glossary.md.j2").render(
        title=title,
        other=plan.words.get("glossary_other", "Other"),
        letters=sorted(by_letter.items()),
        previews=plan.previews_script(path, linked),
        drafts=plan.site.drafts,
        outside=outside,
        outside_title=plan.words.get("from_other_books", "Terms from other books"),
    )
    return Page(path, title, markdown)


def _outside_terms(plan: SitePlan, page: str) -> list[dict[str, Any]]:
    """The terms of other books this book uses, by book (by title), each book's by name, for the glossary."""
    books: dict[str, list[dict[str, Any]]] = defaultdict(list)
    seen: set[str] = set()
    for name, term in sorted(plan.site.across.terms.items(), key=lambda item: (item[1].name.lower(), item[0])):
        if term.page in seen:  # ``fighter`` and ``main:fighter``: one term
            continue
        seen.add(term.page)
        href = plan.link(page, term.page)
        books[term.book].append({"term": name, "name": term.name, "href": href, "text": term.text})
    return [{"title": book, "terms": terms} for book, terms in sorted(books.items())]


def _used_elsewhere(plan: SitePlan, page: str, name: str) -> list[dict[str, Any]]:
    """The other books' sections that use a term of this book ("Army Book: Sea Raiders, Ship Captain")."""
    return [
        {"title": f"{e.book}, {e.label}", "chapter": e.chapter, "href": plan.link(page, e.page), "count": e.count}
        for e in plan.site.across.used_in.get(name, ())
    ]


def _letter(name: str) -> str:
    first = name[:1].upper()
    return first if first.isalpha() else "#"


def _term_link(plan: SitePlan, page: str, name: str) -> dict[str, str | None]:
    target = plan.term_place(name)
    href = plan.link(page, target) if target else None
    outside = plan.site.across.terms.get(name)
    shown = outside.name if outside is not None else plan.site.data["terms"].get(name, {}).get("name", name)
    return {"name": shown, "term": name, "href": href}


def _used_in(plan: SitePlan, page: str, name: str) -> list[dict[str, Any]]:
    """Backlinks grouped by section: the section, where it is, and how often it uses the term."""
    counts: dict[str, int] = defaultdict(int)
    for reference in plan.site.terms.references_to(name):
        if reference.definition != name:
            counts[reference.section_id] += 1
    groups = []
    sections = [(s, plan.site.terms.section(s)) for s in counts]
    located = sorted(((i, s) for i, s in sections if s is not None), key=lambda p: (p[1].source.path, p[1].offset))
    for section_id, section in located:
        chapter = plan.chapter_of.get(section_id)
        chapter_section = plan.site.terms.section(chapter) if chapter else None
        if chapter is None or chapter_section is None:
            continue
        fragment = "" if chapter == section_id else f"#{section_id}"
        groups.append(
            {
                "title": section.title,
                "chapter": chapter_section.title,
                "href": plan.link(page, chapter + ".md" + fragment),
                "count": counts[section_id],
            }
        )
    return groups


def mechanics_page(plan: SitePlan, env: Environment) -> Page | None:
    """The quick reference: every test and roll, roll tables, sequences, characteristics and army composition, each
    part only when the book has it (:mod:`rulebook.site.reference`)."""
    path = TABLES.file
    terms = plan.site.terms
    used: set[str] = set()

    def term(name: str) -> dict[str, Any]:
        used.add(name)
        return {**_term_link(plan, path, name), "term": name}

    def section(section_id: str | None) -> dict[str, Any] | None:
        found = terms.section(section_id) if section_id else None
        if found is None or section_id not in plan.chapter_of:
            return None
        chapter = plan.chapter_of[found.id]
        href = plan.link(path, chapter + ".md" + ("" if chapter == found.id else f"#{found.id}"))
        return {"title": found.title, "href": href}

    def characteristic(row: Mapping[str, Any]) -> tuple[str, str]:
        return str(row["abbreviation"]), str(row["definition"])

    def steps(sequence: Mapping[str, Any]) -> list[str]:
        return [str(step["text"]) for step in sequence["steps"]]

    said = value_sentences(plan.site.book).get  # the book's words for each number it declares, and its profile
    view = ReferenceView(
        plan.site.data,
        plan.words,
        term,
        section,
        terms.terms_used_by,
        characteristic,
        steps,
        said,
        profile_words(plan.site.book),
    )
    return reference_page(view, env, path, used, plan.words.get("tables", "Quick reference"), plan.previews_script)


def reference_page(
    view: ReferenceView,
    env: Environment,
    path: str,
    used: set[str],
    title: str,
    previews: Callable[[str, set[str]], str],
) -> Page | None:
    """The quick reference page of a site (the original's or a translation's), with the cards of its terms."""
    context = reference_context(view)
    if context is None:
        return None

    def word(key: str, default: str) -> str:
        return view.words.get(key, default)

    markdown = env.get_template("tables.md.j2").render(title=title, w=word, **context)
    markdown += "\n\n" + previews(path, used) + "\n"  # after the page: its terms are known
    return Page(path, title, markdown)


def neighbourhoods(plan: SitePlan) -> dict[str, list[Neighbourhood]]:
    """Every defined term's neighbourhood, grouped by the sprite file (initial letter) that holds it."""
    names = plan.site.data["terms"]
    terms = plan.site.terms
    groups: dict[str, list[Neighbourhood]] = defaultdict(list)
    for name in sorted(plan.term_page, key=lambda n: (names[n]["name"].lower(), n)):
        users = [names[t]["name"] for t in terms.terms_using(name) if t in names]
        uses = [names.get(t, {}).get("name", t) for t in terms.terms_used_by(name)]
        groups[sprite_name(names[name]["name"])].append(Neighbourhood(name, names[name]["name"], users, uses))
    return dict(groups)


def sprite_name(title: str) -> str:
    letter = title[:1].lower()
    return letter if "a" <= letter <= "z" else "other"


def graph_page(plan: SitePlan, env: Environment) -> Page:
    """Each term's neighbourhood: a picture, and the same neighbours as links (readable on any screen)."""
    path = GRAPH.file
    groups = neighbourhoods(plan)
    terms = plan.site.terms
    entries: list[dict[str, Any]] = [
        {
            "name": n.title,
            "term": n.term,
            "svg": plan.link(path, f"{GRAPH.name}/{file}.svg#term-{n.term}"),
            "height": n.height,
            "href": plan.link(path, f"{plan.term_page[n.term]}#term-{n.term}"),
            "users": [_term_link(plan, path, t) for t in terms.terms_using(n.term)],
            "uses": [_term_link(plan, path, t) for t in terms.terms_used_by(n.term)],
        }
        for file in sorted(groups)
        for n in groups[file]
    ]
    entries.sort(key=lambda e: (str(e["name"]).lower(), e["term"]))
    by_letter: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for entry in entries:
        by_letter[_letter(str(entry["name"]))].append(entry)
    markdown = env.get_template("graph.md.j2").render(letters=sorted(by_letter.items()))
    return Page(path, "Term graph", markdown)


def lint_page(plan: SitePlan, env: Environment, limit: int = 200) -> Page:
    """The editor's lint report: the book's findings, then the lint's rules, each documented."""
    from rulebook.catalog import markdown

    rows = [
        {
            "severity": d.severity.public,
            "code": d.code,
            "rule": d.rule,
            "message": code_spans(d.message),
            "place": f"{d.span.path}:{d.span.line}:{d.span.column}",
            "help": code_spans(d.help or ""),
        }
        for d in plan.site.diagnostics
    ]
    counts: dict[str, int] = defaultdict(int)
    by_rule: dict[tuple[str, str, str], int] = defaultdict(int)
    for row in rows:
        counts[str(row["severity"])] += 1
        by_rule[(str(row["code"]), str(row["rule"]), str(row["severity"]))] += 1
    text = env.get_template("lint.md.j2").render(
        rows=rows[:limit],
        hidden=max(0, len(rows) - limit),
        counts=counts,
        by_rule=sorted(by_rule.items()),
        rules=markdown(),
    )
    return Page(LINT.file, "Lint report", text)


_INVISIBLE = re.compile(f"{UNPRINTABLE_ABOVE_ASCII.pattern}|[\u2028\u2029]")
"""Characters a JSON block keeps as they are and no page may carry raw (see :func:`json_script`)."""

_BACKTICKS = re.compile(r"`([^`]+)`")


def code_spans(text: str) -> Markup:
    """A diagnostic's message as HTML: its names in backticks shown as code, everything escaped."""
    parts = _BACKTICKS.split(text)
    code = Markup("<code>%s</code>")
    return Markup("").join(escape(part) if i % 2 == 0 else code % part for i, part in enumerate(parts))
