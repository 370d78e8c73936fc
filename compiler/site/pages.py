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
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jinja2 import Environment
from markupsafe import Markup, escape

from rulebook.diagnostics import Diagnostic
from rulebook.facts.values import VALUE_KINDS
from rulebook.graph import TermGraph
from rulebook.model import Book, Section
from rulebook.site.escaping import html_text
from rulebook.site.html import Linker, render_content
from rulebook.site.previews import definition_preview
from rulebook.site.svg import Neighbourhood

if TYPE_CHECKING:
    from rulebook.translate.align import Pair
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
    """The site generator the pages are made for (``mkdocs`` or ``zensical``): only how links are written differs."""
    offline: bool = False
    """Built for reading from disk (MkDocs' ``use_directory_urls: false``, Material's ``offline`` plugin): a page
    ``a.md`` is ``a.html``, and every link names a file (``../other-game/index.html``), never a folder."""
    refused_images: set[str] = field(default_factory=set)
    """Image files the images folder holds that are not published: not pictures the site may show."""
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
    """How the site generator resolves the links of the HTML our templates write.

    MkDocs passes raw HTML through: a link is relative to the built page (``s3/`` -> ``../s4/#x``).
    Zensical rewrites every relative link in it as if it were relative to the page's Markdown file:
    a page is then named by its file (``s4.md#x``), so that Zensical resolves it and checks its anchor,
    and anything else (a picture, ``rules.json``, another site's page) by its path from the file's folder.
    """

    generator: str = "mkdocs"
    site: str = ""
    """The folder of the site being made, from the book's root (``""``, or ``fr/`` for a translation): the
    pages under it are the generator's own; any other page is another site's."""
    directory_urls: bool = True
    """MkDocs' ``use_directory_urls``: false for a site read from disk (offline), where a page is its file
    (``a.md`` is ``a.html``) and a link to a folder names its ``index.html``."""


def link(style: LinkStyle, here: str, target: str) -> str:
    """The one function that writes a link of our HTML: from page ``here`` to ``target``, both from the book's
    site root. ``target`` is a page's Markdown path (``s3.md``, ``fr/glossary.md``) or a file's or folder's path
    (``images/a.png``, ``rules.json``), with an optional ``#fragment``. Script blocks (JSON) are not rewritten by
    either generator: links in them are made with the MkDocs style, relative to the built page."""
    path, hash_, fragment = target.partition("#")
    suffix = hash_ + fragment
    page = path.endswith(".md")
    url = page_url(path, style.directory_urls) if page else path
    if style.generator == "mkdocs":
        if not style.directory_urls:
            return relative(here, file_url(url + suffix), directory_urls=False)
        return relative(here, url + suffix)
    folder = here.rpartition("/")[0]
    base = f"{folder}/" if folder else ""
    if not style.directory_urls and not page:
        url = file_url(url)
    if page and path.startswith(style.site):
        if path == here:
            return suffix or path.rpartition("/")[2]
        return _relative_to(base, path + suffix)
    return _relative_to(base, url + suffix)


class SitePlan:
    """Where every term, section and figure lives on the site, and the site's words."""

    def __init__(self, site: SiteInput, words: Mapping[str, str] | None = None) -> None:
        self.site = site
        self.words: Mapping[str, str] = words or {}
        self.chapters = [s for d in site.book.documents for s in d.body]
        self.chapter_of: dict[str, str] = {}
        for chapter in self.chapters:
            self._place(chapter, chapter.id)
        self.term_page = {
            name: self.chapter_of[d[0].section_id] + ".md"
            for name, d in site.terms.all_definitions().items()
            if d[0].section_id in self.chapter_of
        }
        self.previews = {name: self._preview(name) for name in self.term_page}
        self.links = LinkStyle(site.generator, directory_urls=not site.offline)

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
            target = self.term_page.get(name)
            return None if target is None else self.link(page, f"{target}#term-{name}")

        def id_href(target_id: str) -> str | None:
            if not terms.id_targets(target_id):
                return None
            section_id = figures.get(target_id, target_id)
            chapter = self.chapter_of.get(section_id)
            if chapter is None:
                return None
            fragment = "" if target_id == chapter else f"#{target_id}"
            return self.link(page, chapter + ".md" + fragment)

        def image_href(file: str) -> str | None:
            return self.link(page, f"images/{file}") if file in self.site.images else None

        return Linker(
            term_href, id_href, image_href, self.words, self.site.drafts, refused_images=self.site.refused_images
        )

    def previews_script(self, used: set[str]) -> str:
        """The previews of the terms a page uses and the card's words, as JSON blocks the page script reads."""
        previews = {name: self.previews[name] for name in sorted(used) if name in self.previews}
        return json_script("rb-previews", previews) + "\n" + words_script(self.words)


def words_script(words: Mapping[str, str]) -> str:
    """The words the page script shows (on the preview cards), in the page's language."""
    return json_script("rb-words", {key: words[key] for key in SCRIPT_WORDS if key in words})


SCRIPT_WORDS = ("go_to_rule", "close", "unpublished")
"""The site's words (``strings.toml``) that the page script uses."""


def json_script(css_class: str, value: object) -> str:
    """Data for the page script, as a JSON script block."""
    # Escaped as jinja's tojson does: no "<", ">" or "&" from the sources reaches the HTML, even in JSON.
    text = (
        json.dumps(value, ensure_ascii=False, sort_keys=True)
        .replace("&", "\\u0026")
        .replace("<", "\\u003c")
        .replace(">", "\\u003e")
    )
    return f'<script type="application/json" class="{css_class}">{text}</script>'


def build_pages(
    plan: SitePlan, env: Environment, alternates: Mapping[str, str] | None = None
) -> tuple[list[Page], list[Any]]:
    """Every page of the site and the navigation (MkDocs ``nav`` form); a page only when it has content.

    ``alternates``: by chapter page, the script block that tells the language switcher where the
    page and each of its sections are in the translations.
    """
    words = plan.words
    alternates = alternates or {}
    chapters = [chapter_page(plan, chapter, env, alternates.get(chapter.id + ".md", "")) for chapter in plan.chapters]
    pages = [index_page(plan, env), *chapters]
    nav: list[Any] = [
        {nav_title(words.get("home", "Home")): "index.md"},
        {nav_title(words.get("rules", "Rules")): _nav_chapters([(p.title, p.path) for p in chapters])},
    ]
    readers = [glossary_page(plan, env), mechanics_page(plan, env), changes_page(plan, env)]
    for page in readers:
        if page is not None:
            pages.append(page)
            nav.append({nav_title(page.title): page.path})
    if plan.editors:
        editors = editor_pages(plan, env)
        pages += editors
        for_editors = [{nav_title(p.title): p.path} for p in editors]
        nav.append({nav_title(words.get("for_editors", "For editors")): for_editors})
    else:
        pages.append(lint_page(plan, env, report=False))  # the lint's help links lead here: in no menu, no search
    return pages, nav


def editor_pages(plan: SitePlan, env: Environment) -> list[Page]:
    """The pages for the book's editors and translators: lint report, translation reports, term graph."""
    pages = [lint_page(plan, env)]
    for translation in plan.site.translations:
        path = f"translation-{translation.language}.md"
        title = f"Translation report ({translation.language})"
        pages.append(Page(path, title, env.get_template("translation.md.j2").render(**translation.report)))
    if plan.term_page:
        pages.append(graph_page(plan, env))
    return pages


def changes_page(plan: SitePlan, env: Environment) -> Page | None:
    changes = plan.site.changes
    if changes is None:
        return None
    title = plan.words.get("changes", "What changed")
    return Page("changes.md", title, env.get_template("changes.md.j2").render(title=title, **changes))


def nav_title(title: str) -> str:
    """A title in the navigation: Material writes it into every page unescaped."""
    return str(html_text(title))


def _nav_chapters(chapters: list[tuple[str, str]]) -> list[Any]:
    """Chapters for the navigation; long books are nested in groups so no page renders a huge nav.

    MkDocs themes render navigation titles as HTML, so titles from the sources are escaped here.
    """
    if len(chapters) <= CHAPTERS_PER_NAV_GROUP:
        return [{nav_title(title): path} for title, path in chapters]
    size = CHAPTERS_PER_NAV_GROUP
    while len(chapters) > size * CHAPTERS_PER_NAV_GROUP:
        size *= CHAPTERS_PER_NAV_GROUP
    groups = []
    for start in range(0, len(chapters), size):
        part = chapters[start : start + size]
        label = f"Chapters {start + 1}–{start + len(part)}"
        groups.append({label: _nav_chapters(part)})
    return groups


def chapter_page(plan: SitePlan, chapter: Section, env: Environment, alternate: str = "") -> Page:
    path = chapter.id + ".md"
    linker = plan.linker(path)
    blocks: list[dict[str, Any]] = []
    section_blocks(chapter, linker, blocks)
    markdown = env.get_template("chapter.md.j2").render(
        title=chapter.title,
        blocks=blocks,
        previews=plan.previews_script(linker.used_terms),
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
    heading = {"heading": "#" * section.level, "title": section.title, "id": anchor, "alias": alias}
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


def _flush(pending: list[Any], linker: Linker, blocks: list[dict[str, Any]]) -> None:
    html = render_content(tuple(pending), linker)
    pending.clear()
    if html.strip():
        blocks.append({"heading": None, "html": html})


def index_page(plan: SitePlan, env: Environment) -> Page:
    path = "index.md"
    book = plan.site.data["book"]
    chapters = [{"title": c.title, "href": plan.link(path, c.id + ".md")} for c in plan.chapters]
    counts = {
        "terms": sum(1 for t in plan.site.data["terms"].values() if t["defined"]),
        "chapters": len(plan.chapters),
        "roll_tables": len(plan.site.data["roll_tables"]),
    }
    links = {
        "glossary": plan.link(path, "glossary.md") if plan.term_page else None,
        "changes": plan.link(path, "changes.md") if plan.site.changes is not None else None,
        "data": plan.link(path, "rules.json"),
        "schema": plan.link(path, "rules.schema.json"),
        "pdf": plan.link(path, plan.site.pdfs[None]) if None in plan.site.pdfs else None,
    }
    books = [{**other, "href": plan.link(path, other["href"])} for other in plan.site.books]
    markdown = env.get_template("index.md.j2").render(
        book=book_facts(book), chapters=chapters, counts=counts, books=books, links=links, words=plan.words
    )
    return Page(path, book["title"], markdown)


def book_facts(book: Mapping[str, Any]) -> dict[str, str]:
    """What the pages say about the book: only the values its configuration gives (no "Edition: unknown")."""
    facts = {key: str(book.get(key) or "").strip() for key in ("title", "edition", "copyright")}
    if facts["edition"].lower() == "unknown":  # the configuration's default for "not given"
        facts["edition"] = ""
    return facts


def glossary_page(plan: SitePlan, env: Environment) -> Page | None:
    if not plan.term_page:
        return None
    path = "glossary.md"
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
            "text": data_terms[name]["definition"]["text"],
            "uses": [_term_link(plan, path, n) for n in terms.terms_used_by(name)],
            "used_in": _used_in(plan, path, name),
        }
        by_letter[_letter(entry["name"])].append(entry)
        linked.update(use["term"] for use in entry["uses"] if use["href"])
    title = plan.words.get("glossary", "Glossary")
    markdown = env.get_template("glossary.md.j2").render(
        title=title, letters=sorted(by_letter.items()), previews=plan.previews_script(linked), drafts=plan.site.drafts
    )
    return Page(path, title, markdown)


def _letter(name: str) -> str:
    first = name[:1].upper()
    return first if first.isalpha() else "#"


def _term_link(plan: SitePlan, page: str, name: str) -> dict[str, str | None]:
    target = plan.term_page.get(name)
    href = plan.link(page, f"{target}#term-{name}") if target else None
    return {"name": plan.site.data["terms"].get(name, {}).get("name", name), "term": name, "href": href}


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
    """Roll tables, sequences, declared values, characteristics and army composition: the parts the book
    declares, each shown whatever else it declares or not."""
    path = "tables.md"
    data = plan.site.data
    terms = plan.site.terms

    def section_href(section_id: str | None) -> str | None:
        if not section_id or section_id not in plan.chapter_of:
            return None
        chapter = plan.chapter_of[section_id]
        return plan.link(path, chapter + ".md" + ("" if chapter == section_id else f"#{section_id}"))

    def section_title(section_id: str | None) -> str | None:
        section = terms.section(section_id) if section_id else None
        return section.title if section is not None else None

    army = data["army_composition"]
    variants = [v for v in army["variants"] if v["duplicate_limits"] or v["max_points"] or v["min_points"]]
    declared = army["categories"] or variants or army["points_below_limit"] is not None or army["least_entries"]
    parts = {
        "roll_tables": data["roll_tables"],
        "sequences": data["sequences"],
        "values": sorted(data["values"].items()),
        "characteristics": data["characteristics"] if data["characteristics"]["profile"] else None,
        "army": {**army, "variants": variants} if declared else None,
    }
    if not any(parts.values()):
        return None
    title = plan.words.get("tables", "Tables and sequences")
    markdown = env.get_template("tables.md.j2").render(
        title=title,
        **parts,
        term=lambda name: _term_link(plan, path, name) if name else None,
        section_href=section_href,
        section_title=section_title,
        value_kinds=VALUE_KINDS,
        drafts=plan.site.drafts,
    )
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
    path = "graph.md"
    groups = neighbourhoods(plan)
    terms = plan.site.terms
    entries: list[dict[str, Any]] = [
        {
            "name": n.title,
            "term": n.term,
            "svg": plan.link(path, f"graph/{file}.svg#term-{n.term}"),
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


def lint_page(plan: SitePlan, env: Environment, limit: int = 200, *, report: bool = True) -> Page:
    """The lint's rules, each documented (where the help links of diagnostics lead), and in the editor's
    view the report of the book's findings above them."""
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
        report=report,
        rows=rows[:limit],
        hidden=max(0, len(rows) - limit),
        counts=counts,
        by_rule=sorted(by_rule.items()),
        rules=markdown(),
    )
    return Page("lint.md", "Lint report" if report else "Lint rules", text)


_BACKTICKS = re.compile(r"`([^`]+)`")


def code_spans(text: str) -> Markup:
    """A diagnostic's message as HTML: its names in backticks shown as code, everything escaped."""
    parts = _BACKTICKS.split(text)
    code = Markup("<code>%s</code>")
    return Markup("").join(escape(part) if i % 2 == 0 else code % part for i, part in enumerate(parts))
