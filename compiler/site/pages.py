"""The site's pages as data: which page holds what, and each page's Markdown.

Pure: the book, its term graph, the rule data and the lint findings in; a list of
:class:`Page` (path, title, Markdown text) and the navigation out. Page bodies
are Markdown headings (for the table of contents and search) around raw HTML
blocks rendered by :mod:`compiler.site.html`, so any Markdown site generator
that passes HTML through (MkDocs, Zensical) builds the same site.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from jinja2 import Environment
from markupsafe import escape

from compiler.diagnostics import Diagnostic
from compiler.graph import TermGraph
from compiler.model import Book, Section
from compiler.site.html import Linker, render_content
from compiler.site.svg import Neighbourhood

if TYPE_CHECKING:
    from compiler.translate.align import Pair
    from compiler.translate.terminology import Entry

PREVIEW_LENGTH = 320
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
    """The side-by-side report's context (``compiler.translate.compare.report_context``)."""


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
    """The project's other books: title and URL from this site's root."""
    changes: dict[str, Any] | None = None
    """What changed since the previous edition (``compiler.diff``), with ``since``: its title."""


def page_url(path: str) -> str:
    """The directory URL of a page (``use_directory_urls``): ``a.md`` -> ``a/``, ``fr/index.md`` -> ``fr/``."""
    stem = path[: -len(".md")]
    if stem == "index":
        return ""
    return stem[: -len("index")] if stem.endswith("/index") else stem + "/"


def relative(from_path: str, to_url: str) -> str:
    """A link from one page to a site URL (with optional ``#fragment``), relative as MkDocs expects."""
    target, _, fragment = to_url.partition("#")
    suffix = f"#{fragment}" if fragment else ""
    here = page_url(from_path)
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


class SitePlan:
    """Where every term, section and figure lives on the site."""

    def __init__(self, site: SiteInput) -> None:
        self.site = site
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

    def _place(self, section: Section, chapter_id: str) -> None:
        self.chapter_of[section.id] = chapter_id
        for node in section.children:
            if isinstance(node, Section):
                self._place(node, chapter_id)

    def _preview(self, name: str) -> dict[str, str]:
        definition = self.site.terms.definition(name)
        text = definition.plain_text() if definition else ""
        if len(text) > PREVIEW_LENGTH:
            text = text[:PREVIEW_LENGTH].rsplit(" ", 1)[0] + " …"
        return {"title": self.site.data["terms"].get(name, {}).get("name", name), "text": text}

    def linker(self, page: str) -> Linker:
        terms = self.site.terms
        figures = {f.id: f.section_id for f in self.site.book.figures}

        def term_href(name: str) -> str | None:
            target = self.term_page.get(name)
            return None if target is None else relative(page, page_url(target) + f"#term-{name}")

        def id_href(target_id: str) -> str | None:
            if not terms.id_targets(target_id):
                return None
            section_id = figures.get(target_id, target_id)
            chapter = self.chapter_of.get(section_id)
            if chapter is None:
                return None
            fragment = "" if target_id == chapter else f"#{target_id}"
            return relative(page, page_url(chapter + ".md") + fragment)

        def image_href(file: str) -> str | None:
            return relative(page, f"images/{file}") if file in self.site.images else None

        return Linker(term_href, id_href, image_href)

    def previews_script(self, used: set[str]) -> str:
        """The previews of the terms a page uses, as a JSON script block the page script reads."""
        return json_script("rb-previews", {name: self.previews[name] for name in sorted(used) if name in self.previews})


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
    """Every page of the site and the navigation (MkDocs ``nav`` form).

    ``alternates``: by chapter page, the script block that tells the language switcher where the
    page and each of its sections are in the translations.
    """
    site = plan.site
    alternates = alternates or {}
    chapters = [chapter_page(plan, chapter, env, alternates.get(chapter.id + ".md", "")) for chapter in plan.chapters]
    pages = [
        index_page(plan, env),
        *chapters,
        glossary_page(plan, env),
        mechanics_page(plan, env),
        graph_page(plan, env),
        lint_page(plan, env),
    ]
    nav: list[Any] = [
        {"Home": "index.md"},
        {"Rules": _nav_chapters([(p.title, p.path) for p in chapters])},
        {"Glossary": "glossary.md"},
        {"Tables and sequences": "tables.md"},
        {"Term graph": "graph.md"},
        {"Lint report": "lint.md"},
    ]
    if site.changes is not None:
        pages.append(Page("changes.md", "What changed", env.get_template("changes.md.j2").render(**site.changes)))
        nav.append({"What changed": "changes.md"})
    for translation in site.translations:
        path = f"translation-{translation.language}.md"
        title = f"Translation report ({translation.language})"
        pages.append(Page(path, title, env.get_template("translation.md.j2").render(**translation.report)))
        nav.append({title: path})
    return pages, nav


def _nav_chapters(chapters: list[tuple[str, str]]) -> list[Any]:
    """Chapters for the navigation; long books are nested in groups so no page renders a huge nav.

    MkDocs themes render navigation titles as HTML, so titles from the sources are escaped here.
    """
    if len(chapters) <= CHAPTERS_PER_NAV_GROUP:
        return [{str(escape(title)): path} for title, path in chapters]
    size = CHAPTERS_PER_NAV_GROUP
    while len(chapters) > size * CHAPTERS_PER_NAV_GROUP:
        size *= CHAPTERS_PER_NAV_GROUP
    groups = []
    for start in range(0, len(chapters), size):
        part = chapters[start : start + size]
        label = f"Chapters {start + 1}–{start + len(part)}"
        groups.append({label: _nav_chapters(part)})
    return groups


# `<`, `>` and `&` are left to HTML escaping (the templates autoescape).
_MD_SPECIAL = re.compile(r"([\\`*_{}\[\]#!|])")


def md_text(text: str) -> str:
    """Text safe inside a Markdown heading."""
    return _MD_SPECIAL.sub(r"\\\1", " ".join(text.split()))


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
    section: Section, linker: Linker, blocks: list[dict[str, Any]], after: Mapping[str, str] | None = None
) -> None:
    """A section and its subsections as page blocks: headings, and the HTML between them.

    ``after``: HTML to add at the end of a section's own text, by section id (notices).
    """
    blocks.append({"heading": "#" * section.level, "title": md_text(section.title), "id": section.id, "html": ""})
    pending: list[Any] = []
    added = (after or {}).get(section.id)
    for node in section.children:
        if isinstance(node, Section):
            _flush(pending, linker, blocks)
            if added:
                blocks.append({"heading": None, "html": added})
                added = None
            section_blocks(node, linker, blocks, after)
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
    book = plan.site.data["book"]
    chapters = [{"title": c.title, "href": relative("index.md", page_url(c.id + ".md"))} for c in plan.chapters]
    counts = {
        "terms": sum(1 for t in plan.site.data["terms"].values() if t["defined"]),
        "chapters": len(plan.chapters),
        "roll_tables": len(plan.site.data["roll_tables"]),
    }
    markdown = env.get_template("index.md.j2").render(
        book=book, chapters=chapters, counts=counts, books=plan.site.books, changes=plan.site.changes is not None
    )
    return Page("index.md", book["title"], markdown)


def glossary_page(plan: SitePlan, env: Environment) -> Page:
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
            "href": relative(path, page_url(plan.term_page[name]) + f"#term-{name}"),
            "text": data_terms[name]["definition"]["text"],
            "uses": [_term_link(plan, path, n) for n in terms.terms_used_by(name)],
            "used_in": _used_in(plan, path, name),
        }
        by_letter[_letter(entry["name"])].append(entry)
        linked.update(use["term"] for use in entry["uses"] if use["href"])
    markdown = env.get_template("glossary.md.j2").render(
        letters=sorted(by_letter.items()), previews=plan.previews_script(linked)
    )
    return Page(path, "Glossary", markdown)


def _letter(name: str) -> str:
    first = name[:1].upper()
    return first if first.isalpha() else "#"


def _term_link(plan: SitePlan, page: str, name: str) -> dict[str, str | None]:
    target = plan.term_page.get(name)
    href = relative(page, page_url(target) + f"#term-{name}") if target else None
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
                "href": relative(page, page_url(chapter + ".md") + fragment),
                "count": counts[section_id],
            }
        )
    return groups


def mechanics_page(plan: SitePlan, env: Environment) -> Page:
    path = "tables.md"
    data = plan.site.data

    def section_href(section_id: str | None) -> str | None:
        if not section_id or section_id not in plan.chapter_of:
            return None
        chapter = plan.chapter_of[section_id]
        return relative(path, page_url(chapter + ".md") + ("" if chapter == section_id else f"#{section_id}"))

    markdown = env.get_template("tables.md.j2").render(
        roll_tables=data["roll_tables"],
        sequences=data["sequences"],
        game=data["game"],
        characteristics=data["characteristics"],
        army=data["army_composition"],
        term=lambda name: _term_link(plan, path, name) if name else None,
        section_href=section_href,
    )
    return Page(path, "Tables and sequences", markdown)


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
    groups = neighbourhoods(plan)
    entries: list[dict[str, Any]] = [
        {
            "name": n.title,
            "term": n.term,
            "svg": f"../graph/{file}.svg#term-{n.term}",
            "height": n.height,
            "href": relative("graph.md", page_url(plan.term_page[n.term]) + f"#term-{n.term}"),
        }
        for file in sorted(groups)
        for n in groups[file]
    ]
    entries.sort(key=lambda e: (str(e["name"]).lower(), e["term"]))
    return Page("graph.md", "Term graph", env.get_template("graph.md.j2").render(entries=entries))


def lint_page(plan: SitePlan, env: Environment, limit: int = 200) -> Page:
    rows = [
        {
            "severity": d.severity.public,
            "code": d.code,
            "rule": d.rule,
            "message": d.message,
            "place": f"{d.span.path}:{d.span.line}:{d.span.column}",
            "help": d.help or "",
        }
        for d in plan.site.diagnostics
    ]
    counts: dict[str, int] = defaultdict(int)
    by_rule: dict[tuple[str, str, str], int] = defaultdict(int)
    for row in rows:
        counts[row["severity"]] += 1
        by_rule[(row["code"], row["rule"], row["severity"])] += 1
    markdown = env.get_template("lint.md.j2").render(
        rows=rows[:limit], hidden=max(0, len(rows) - limit), counts=counts, by_rule=sorted(by_rule.items())
    )
    return Page("lint.md", "Lint report", markdown)
