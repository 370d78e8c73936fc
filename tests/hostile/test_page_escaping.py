"""Hostile text in every field a page shows, through every template, built by MkDocs: it stays text.

The project of :mod:`tests.hostile.hostile_text` puts Markdown, HTML, control characters and an attribute list
(``{tabindex=0 autofocus onfocus=...}``) into its titles, terms, captions, cells, configuration values, French
headings and the site's words. Its site is built with the editor's pages (every template is rendered: the test
knows which), and the translation, edition and status reports are made as HTML too. No page may carry a handler, a
``javascript:`` address, a heading with attributes of the text's making, or a control character.
"""

from __future__ import annotations

import contextlib
import io
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import jinja2
import lxml.html
import markdown
import pytest

from rulebook.cli import main
from rulebook.report.escaping import visible
from rulebook.site.escaping import html_text, markdown_text, theme_text
from rulebook.site.theme import PACKAGE_FOLDER
from tests.conftest import GENERATORS, need_zensical

from .hostile_text import ATTRIBUTES, CONFIGURED, CONTROLS, PAYLOAD, make_project

OUR_HANDLERS = {("form", "onsubmit", "return false")}
"""The one handler a template writes itself: the translation report's filter form is never sent."""
URL_ATTRIBUTES = ("href", "src", "action", "formaction", "xlink:href", "poster", "data")
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
"""The C0 controls (but tab and line ends), DEL, the C1 controls and the bidirectional controls."""


@dataclass(frozen=True)
class HostileBuild:
    site: Path
    """The built site (the editor's view: every page and template)."""
    templates: frozenset[str]
    """The names of the templates rendered during the build and the reports."""
    reports: dict[str, str]
    """The translation, edition and status reports as HTML (``rulebook compare``/``diff``/``status --format html``)."""


@pytest.fixture(scope="module", params=GENERATORS)
def hostile(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> HostileBuild:
    """The hostile project's site, built by each generator (MkDocs, Zensical), and its reports."""
    if request.param == "zensical":
        need_zensical()
    folder = make_project(tmp_path_factory.mktemp("hostile-text"))
    rendered: set[str] = set()
    get_template = jinja2.Environment.get_template

    def recorded(self: jinja2.Environment, name: Any, *args: Any, **kwargs: Any) -> jinja2.Template:
        rendered.add(str(name))
        return get_template(self, name, *args, **kwargs)

    reports = {}
    with pytest.MonkeyPatch.context() as patch:
        patch.chdir(folder)
        patch.setattr(jinja2.Environment, "get_template", recorded)
        assert main(["build", "--drafts", "-q", "--generator", request.param]) == 0
        for name, argv in {
            "compare": ["compare", "rules/book.xml", "rules/fr/book.md", "--format", "html"],
            "diff": ["diff", "rules/book.xml", "rules/later.txt", "--format", "html"],
            "status": ["status", "--format", "html"],
        }.items():
            with contextlib.redirect_stdout(io.StringIO()) as out:
                assert main(argv) in (0, 1)
            reports[name] = out.getvalue()
    return HostileBuild(folder / "site", frozenset(rendered), reports)


def documents(build: HostileBuild) -> Iterator[tuple[str, str]]:
    """Every HTML document: the site's pages, then the reports."""
    for page in sorted(build.site.rglob("*.html")):
        yield page.relative_to(build.site).as_posix(), page.read_text(encoding="utf-8")
    yield from build.reports.items()


def test_every_template_is_rendered_with_hostile_text(hostile: HostileBuild) -> None:
    ours = {path.name for path in PACKAGE_FOLDER.glob("*.j2")}
    assert ours - hostile.templates == set()


def test_no_page_has_a_handler_or_a_script_address_of_the_texts_making(hostile: HostileBuild) -> None:
    for name, text in documents(hostile):
        tree = lxml.html.fromstring(text)
        elements = [e for e in tree.iter() if isinstance(e.tag, str)]
        handlers = {(e.tag, a, v) for e in elements for a, v in e.attrib.items() if a.lower().startswith("on")}
        assert handlers <= OUR_HANDLERS, name
        addresses = [v for e in elements for a, v in e.attrib.items() if a.lower() in URL_ATTRIBUTES]
        assert not [v for v in addresses if re.sub(r"[\s\x00-\x1f]", "", v).lower().startswith("javascript:")], name
        assert not tree.xpath("//img[@src='x'] | //em[.='em'] | //code[.='c']"), name
        scripts = [s.text or "" for s in tree.xpath("//script") if s.get("type", "") != "application/json"]
        assert not [s for s in scripts if "alert(" in s], name


def test_headings_keep_only_the_attributes_the_templates_give(hostile: HostileBuild) -> None:
    for name, text in documents(hostile):
        for heading in lxml.html.fromstring(text).xpath("//h1 | //h2 | //h3 | //h4 | //h5 | //h6"):
            assert set(heading.attrib) <= {"id", "class"}, (name, dict(heading.attrib))
            assert heading.get("class", "rb-").startswith(("rb-", "md-")), (name, dict(heading.attrib))


def heading(site: Path, page: str) -> str:
    """The text of the page's first heading in its content (its permalink's mark left out)."""
    found = lxml.html.parse(str(site / page)).xpath("//article//h1")
    assert found, page
    return str(found[0].text_content()).removesuffix("¶")


def test_titles_show_as_the_text_they_are(hostile: HostileBuild) -> None:
    shown = visible(CONFIGURED)  # ESC as ␛, BEL as ␇, U+202E as �
    assert heading(hostile.site, "index.html") == f"Game {shown}"  # the configured title
    assert heading(hostile.site, "glossary/index.html") == f"Glossary {shown}"  # the site's words
    assert heading(hostile.site, "tables/index.html") == f"Quick reference {shown}"
    assert heading(hostile.site, "later/changes/index.html") == f"What changed {shown}"
    # Titles from the sources: an English chapter on both sites, a French heading.
    for page in ("moving/index.html", "fr/index.html", "fr/afterwards/index.html"):
        title = heading(hostile.site, page)
        assert title.endswith(ATTRIBUTES) and "*em* _u_ `c` [a](javascript:alert(1)) ![i](x)" in title, page


def test_no_control_character_reaches_a_page(hostile: HostileBuild) -> None:
    for name, text in documents(hostile):
        assert not CONTROL.findall(text), name
        # The page script's data (the site's words, the cards), which it puts on the page: JSON's escapes decoded.
        data = [s.text or "" for s in lxml.html.fromstring(text).xpath("//script[@type='application/json']")]
        assert not CONTROL.findall(json.dumps([json.loads(d) for d in data], ensure_ascii=False)), name
    for picture in hostile.site.rglob("*.svg"):  # the term graph's pictures
        assert not CONTROL.findall(picture.read_text(encoding="utf-8")), picture
    for index in hostile.site.rglob("search_index.json"):
        entries = json.loads(index.read_text(encoding="utf-8"))["docs"]
        assert not [e for e in entries if CONTROL.search(e["title"] + e["text"])], index


def test_configuration_values_in_materials_chrome_are_escaped_text(hostile: HostileBuild) -> None:
    page = lxml.html.parse(str(hostile.site / "index.html"))
    assert str(page.xpath("string(//title)")).endswith(f"Game {visible(CONFIGURED)}")  # Zensical puts "Home - " first
    description = page.xpath("//meta[@name='description']/@content")
    assert description == [f'Description {visible(CONFIGURED)} "><script>alert(4)</script>']
    licence = page.xpath("string(//div[@class='md-copyright__highlight'])").strip()
    assert licence == f"Copyright {visible(CONFIGURED)}<script>alert(5)</script>"
    french = lxml.html.parse(str(hostile.site / "fr" / "index.html"))
    licence = french.xpath("string(//div[@class='md-copyright__highlight'])").strip()
    assert licence == f"Droits {visible(CONFIGURED)}"


# -- the escaping itself, in Python-Markdown with the site's extensions ---------------------------------------

EXTENSIONS = ["attr_list", "md_in_html", "admonition", "fenced_code", "toc", "tables", "abbr", "def_list", "footnotes"]
TEXTS = [
    PAYLOAD,
    CONFIGURED,
    ATTRIBUTES,
    "Title {: #other .class onclick=alert(1) }",
    "Title { #id }",
    "a\\{b\\} \\\\ \\",
    "# not a heading ## ###",
    "1. not a list",
    "- not a list",
    "> not a quote",
    "    not code",
    "*[HTML]: not an abbreviation",
    "[^1] not a footnote",
    "a | b | c",
    '<div markdown="1">*em*</div>',
    "&lt; &amp; &#123; &unknown;",
    "line\nbreak\r\n=====",
    "tab\there",
]


@pytest.mark.parametrize("text", TEXTS)
def test_markdown_text_is_text_in_a_heading_and_in_a_paragraph(text: str) -> None:
    expected = " ".join(visible(text.replace("\t", " ").replace("\n", " ").replace("\r", " ")).split())
    for line, tag in ((f"# {markdown_text(text)}", "h1"), (str(markdown_text(text)), "p")):
        html = markdown.markdown(line, extensions=EXTENSIONS)
        tree = lxml.html.fragment_fromstring(html, create_parent="div")
        assert [child.tag for child in tree] == [tag], html
        assert set(tree[0].attrib) <= {"id"}, html
        assert tree[0].text_content() == expected, html
        assert len(tree[0]) == 0, html  # no element: emphasis, code, link, image, HTML


def test_html_text_is_text_in_an_element_and_an_attribute() -> None:
    for text in TEXTS:
        tree = lxml.html.fragment_fromstring(f'<p title="{html_text(text)}">{html_text(text)}</p>')
        assert tree.text == tree.get("title") == visible(text)
        assert len(tree) == 0
    assert not CONTROL.search(str(html_text(CONTROLS)))


def test_a_title_given_to_init_is_text_on_the_home_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["init", "game", "--title", f"My Game {ATTRIBUTES}"]) == 0
    monkeypatch.chdir(tmp_path / "game")
    assert main(["build", "-q"]) == 0
    page = lxml.html.parse(str(tmp_path / "game" / "site" / "index.html"))
    title = page.xpath("//article//h1")[0]
    assert set(title.attrib) == {"id"}
    assert title.text_content().removesuffix("¶") == f"My Game {ATTRIBUTES}"


def test_the_builds_progress_shows_a_titles_controls_as_pictures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(make_project(tmp_path))
    assert main(["build"]) == 0
    said = capsys.readouterr().err
    assert f"Book: Game {visible(CONFIGURED)}\n" in said
    assert not CONTROL.findall(said)


PLAIN_TEMPLATE = """# {{ book.title }}

{% for chapter in chapters %}## {{ chapter.title }}

{{ chapter.title }}
{% endfor %}"""
"""A project's own home page that writes titles into headings and a line of Markdown with no filter."""


def _home_page_of_own_template(folder: Path, template: str, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The home page built from the project's own ``index.md.j2``; its headings checked to be text (the game's and
    two chapters': emphasis may be read, the template's choice, but a link, a picture or attributes never), and the
    page to hold no handler, ``javascript:`` address or picture made of a title."""
    (folder / "site_templates" / "index.md.j2").write_text(template, encoding="utf-8")
    monkeypatch.chdir(folder)
    assert main(["build", "-q"]) == 0
    page = lxml.html.parse(str(folder / "site" / "index.html"))
    headings = [
        (set(h.attrib), h.text_content().removesuffix("¶")) for h in page.xpath("//article//h1 | //article//h2")
    ]
    assert [attributes for attributes, _ in headings] == [{"id"}] * 3
    for _, text in headings:
        assert text.endswith(ATTRIBUTES) and "[a](javascript:alert(1)) ![i](x)" in text, text
        assert not CONTROL.search(text)
    elements = [e for e in page.iter() if isinstance(e.tag, str)]
    assert not [(e.tag, a) for e in elements for a in e.attrib if a.lower().startswith("on")]
    assert not [v for e in elements for a, v in e.attrib.items() if a in URL_ATTRIBUTES and "javascript:" in v.lower()]
    assert not page.xpath("//article//img[@src='x']")
    return page


def test_a_projects_own_template_without_a_filter_writes_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``# {{ book.title }}`` in ``site_templates/index.md.j2`` gave the heading the configured title's attribute list
    (``autofocus onfocus=...``: Chromium ran it on load), and a line ``{{ chapter.title }}`` a source's
    ``javascript:`` link: text a template writes unfiltered is text in Markdown as in HTML."""
    _home_page_of_own_template(make_project(tmp_path), PLAIN_TEMPLATE, monkeypatch)


FILTERED_TEMPLATE = """# {{ book.title|e }}

{% for chapter in chapters %}## {{ chapter.title|escape }}

{{ chapter.title|forceescape }}

{{ chapter.title|urlize }}

{{ chapter.title|tojson }}

{{ [chapter.title] }}
{% endfor %}"""
"""A project's own home page that writes titles through jinja2's escaping filters, which make markup of text, and
inside a list (written as its text)."""


def test_a_projects_own_template_escaping_with_jinjas_filters_writes_text(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``# {{ book.title|e }}`` (and ``escape``, ``forceescape``, ``urlize``, ``tojson``) kept the title's braces and
    brackets, since the filter made markup of it: ``*a*{onclick=alert(1)}`` became an ``<em onclick>``, and the
    heading took the title's attribute list; so did ``{{ [chapter.title] }}``, a list written as its text. Written
    as unfiltered text is, the page holds no handler or link."""
    page = _home_page_of_own_template(make_project(tmp_path), FILTERED_TEMPLATE, monkeypatch)
    paragraphs = [p.text_content() for p in page.xpath("//article//p")]
    assert sum(ATTRIBUTES in text for text in paragraphs) == 6  # forceescape, urlize and the list, of two chapters


# -- the site's name and the navigation's titles, which the theme writes as they are and through `|e` -------------

THEME_WRITES = (
    "<html><head><title>{{ name }}</title></head><body>"
    '<a title="{{ name | e }}" aria-label="{{ name }}">{{ name }}</a>'
    '<a aria-label="Next: {{ name | e }}">{{ name }}</a></body></html>'
)
"""How Material's and Zensical's header, navigation and footer write a site's name and a page's title (autoescape
off): a logo's tooltip through ``|e``, its label, the footer's label and the text as they are."""


@pytest.mark.parametrize(
    "name",
    [
        *("Guns & Glory", "Rock 'n' Roll", "Fish & Chips's Rules", "L'Âge de fer & d'acier", "A - B & C"),
        *("R&D Games", "AT&T Rules", "Q&A", "B&B;", "S&P 500", "&Co"),  # an & before letters naming no reference
    ],
)
def test_a_name_with_an_ampersand_or_an_apostrophe_reads_as_written_wherever_the_theme_writes_it(name: str) -> None:
    """The theme's `|e` escaped the escaped name again: every reader's tooltip said "Guns &amp; Glory", a screen
    reader "Next: Rock &amp;#39;n&amp;#39; Roll"."""
    page = lxml.html.document_fromstring(jinja2.Template(THEME_WRITES).render(name=theme_text(name)))
    shown = [*page.xpath("//a/@title"), *page.xpath("//a/@aria-label"), *page.xpath("//a/text()")]
    assert shown == [name, name, f"Next: {name}", name, name]


@pytest.mark.parametrize(
    "name",
    [PAYLOAD, CONFIGURED, ATTRIBUTES, '"><script>alert(1)</script>', "&lt;b&gt; &#60;", "&ltb&gt &copy; &AMP &#x3C"],
)
def test_a_hostile_name_is_text_wherever_the_theme_writes_it(name: str) -> None:
    """Whatever the name, the theme's HTML holds it as text: no element, no attribute of its own."""
    page = lxml.html.document_fromstring(jinja2.Template(THEME_WRITES).render(name=theme_text(name)))
    assert [element.tag for element in page.iter()] == ["html", "head", "title", "body", "a", "a"]
    assert [sorted(a.attrib) for a in page.iter("a")] == [["aria-label", "title"], ["aria-label"]]
    assert page.xpath("string(//title)") == visible(name)  # as it is: the name exactly, controls as pictures


@pytest.mark.parametrize("generator", GENERATORS)
def test_a_titles_character_references_read_as_typed_in_the_logos_tooltip(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, generator: str
) -> None:
    """A title holding ``&amp`` as typed: :func:`theme_text` writes it ``&amp;amp`` for the places the theme writes it
    as it is, and the logo's tooltip, which the theme writes through ``|e``, showed ``&amp;amp``."""
    if generator == "zensical":
        need_zensical()
    name = "X &amp Y &copy; &#60; R&D 'n' Z"
    monkeypatch.chdir(tmp_path)
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["init", "game", "--title", name]) == 0
    monkeypatch.chdir(tmp_path / "game")
    assert main(["build", "-q", "--generator", generator]) == 0
    for page_name in ("index.html", "404.html", "basics/index.html"):
        page = lxml.html.parse(str(tmp_path / "game" / "site" / page_name)).getroot()
        logos = page.xpath("//a[contains(concat(' ', @class, ' '), ' md-logo ')]")
        assert [(logo.get("title"), logo.get("aria-label")) for logo in logos] == [(name, name)] * 2, page_name
        assert page.xpath("string(//title)").endswith(name)
