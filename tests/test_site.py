"""The built site: structure, links, escaping, determinism and atomic builds (no browser needed)."""

from __future__ import annotations

import filecmp
import json
import re
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import lxml.etree
import lxml.html
import pytest

from rulebook.catalog import RULES

from .conftest import build, serve

# LinkChecker run as its own command would be; only, run as root, it switches to user "nobody"
# before loading its plugins, and "nobody" cannot read a virtual environment inside a private
# folder (``mktemp -d``): the anchor check then silently vanishes. The tests serve their own
# files on localhost, so they keep the caller's user.
LINKCHECKER = (
    "import sys\n"
    "from linkcheck.command import linkchecker as command\n"
    "command.drop_privileges = lambda: None\n"
    "sys.argv[0] = 'linkchecker'\n"
    "sys.exit(command.linkchecker())\n"
)


# The bundled book's chapters: the folders of their pages.
CHAPTERS = (
    "models-units-and-formations",
    "general-principles",
    "battlefield-logistics",
    "characteristics",
    "setting-up-a-game",
    "the-pre-game-sequence",
    "deployment_phase",
)


def page(site: Path, path: str) -> lxml.html.HtmlElement:
    return lxml.html.fromstring((site / path).read_bytes())


def html_pages(site: Path) -> list[Path]:
    return sorted(p for p in site.rglob("*.html"))


def test_site_has_every_page(site: Path, drafts_site: Path) -> None:
    for path in [
        "index.html",
        "404.html",
        "sitemap.xml",
        "search/search_index.json",
        "rules.json",
        "rules.schema.json",
        "glossary/index.html",
        "tables/index.html",
        "models-units-and-formations/index.html",
        "deployment_phase/index.html",
    ]:
        assert (site / path).is_file(), path
        assert (drafts_site / path).is_file(), path
    chapters = [
        p
        for p in site.glob("*/index.html")
        if p.parent.name not in {"glossary", "tables", "lint", "fr", "other-game", "turns-later"}
    ]
    assert len(chapters) == 7
    # The editor's pages, the lint's included, are in the editor's view only.
    for path in ["graph/index.html", "graph/l.svg", "translation-fr/index.html", "lint/index.html"]:
        assert (drafts_site / path).is_file() and not (site / path).exists(), path
    for book in ("turns-later", "other-game"):
        assert not (site / book / "lint").exists() and (drafts_site / book / "lint" / "index.html").is_file()
    search = (site / "search" / "search_index.json").read_text(encoding="utf-8")
    assert "dangling-reference" not in search


def test_editors_pages_are_under_their_own_heading_at_the_end_of_the_navigation(drafts_site: Path) -> None:
    home = page(drafts_site, "index.html")
    sections = [
        " ".join(label.text_content().split()) for label in home.cssselect(".md-nav--primary > ul > li > label")
    ]
    assert sections[-1] == "For editors"
    links = [" ".join(a.text_content().split()) for a in home.cssselect(".md-nav--primary > ul > li:last-child a")]
    assert links == ["Lint report", "Translation report (fr)", "Term graph"]
    report = " ".join(page(drafts_site, "lint/index.html").cssselect(".rb-editors p")[0].text_content().split())
    assert "(every finding, those a baseline lists included)" in report  # said of any project: no guess at why
    assert "not written yet" not in report


# What a reader must never meet: the lint's codes, rule names and words.
LINT_WORDS = re.compile(r"\bRB\d{3}\b|dangling|undefined term|" + "|".join(rule.name for rule in RULES), re.IGNORECASE)


def test_no_reader_page_speaks_the_lints_language(any_site: Path) -> None:
    site = any_site
    for path in html_pages(site):
        text = path.read_text(encoding="utf-8")
        found = LINT_WORDS.search(text)
        assert found is None, (path.relative_to(site), text[max(0, found.start() - 80) : found.end() + 80])


def test_every_term_link_lands_on_its_definition(any_site: Path) -> None:
    site = any_site
    ids_cache: dict[Path, set[str]] = {}
    checked = 0
    for path in html_pages(site):
        document = lxml.html.fromstring(path.read_bytes())
        url = "file://" + path.as_posix()
        for link in document.cssselect("a.rb-term"):
            target, fragment = urldefrag(urljoin(url, link.get("href")))
            file = Path(target.removeprefix("file://"))
            file = file / "index.html" if file.is_dir() else file
            if file not in ids_cache:
                ids_cache[file] = set(lxml.html.fromstring(file.read_bytes()).xpath("//@id"))
            if site / "fr" in path.parents and fragment != f"term-{link.get('data-term')}":
                # A translated section that never uses the term's French name: the link leads to the section.
                headings = lxml.html.fromstring(file.read_bytes()).xpath("//h1/@id|//h2/@id|//h3/@id|//h4/@id|//h5/@id")
                assert fragment in headings, link.get("href")
            else:
                assert fragment == f"term-{link.get('data-term')}", link.get("href")
            assert fragment in ids_cache[file], (path, link.get("href"))
            checked += 1
    assert checked > 500


def test_terms_the_book_does_not_define_are_text_for_readers(any_site: Path) -> None:
    site = any_site
    chapter = page(site, "models-units-and-formations/index.html")
    cannon = chapter.cssselect("span.rb-unpublished")[0]
    assert cannon.text == "Cannon" and cannon.get("title") is None  # the page script explains the mark
    assert not chapter.cssselect('a[data-term="cannon"]') and not chapter.cssselect(".rb-dangling")
    # 221 dangling references, 4 that name sections, 1 with an invalid name; the 9 dangling links are plain text.
    # Only a term's first use on a page is marked (and reached by the keyboard): 104 marks, not 226.
    marks = [page(site, f"{c}/index.html").cssselect("span.rb-unpublished") for c in CHAPTERS]
    assert sum(map(len, marks)) == 104
    assert all(m.get("tabindex") == "0" for each in marks for m in each)


def test_the_editors_view_shows_them_broken_with_the_lints_words(drafts_site: Path) -> None:
    chapter = page(drafts_site, "models-units-and-formations/index.html")
    cannon = chapter.cssselect("span.rb-dangling")[0]
    assert cannon.text == "Cannon"
    assert cannon.get("title") == "dangling-reference: reference to undefined term `cannon`"
    total = sum(len(page(drafts_site, f"{c}/index.html").cssselect("span.rb-dangling")) for c in CHAPTERS)
    assert total == 221 + 4 + 1 + 9
    missing = [page(drafts_site, f"{c}/index.html").cssselect(".rb-missing-files code") for c in CHAPTERS]
    assert sum(map(len, missing)) == 6  # the missing pictures, named


def test_definitions_are_marked_with_permalinks_and_sections_have_stable_anchors(any_site: Path) -> None:
    site = any_site
    chapter = page(site, "battlefield-logistics/index.html")
    definition = chapter.get_element_by_id("term-line_of_sight")
    assert "rb-definition" in definition.get("class")
    permalink = definition.cssselect("a.rb-permalink")[0]
    assert permalink.get("href") == "#term-line_of_sight" and permalink.get("aria-label")
    assert permalink.text_content() == ""  # its mark is drawn by CSS: in no text, no search snippet
    assert definition.cssselect("dfn.rb-dfn")[0].text_content() == "Line of Sight"  # the defining words
    assert "¶" not in definition.text_content()
    assert chapter.get_element_by_id("line-of-sight").tag == "h2"
    pregame = page(site, "the-pre-game-sequence/index.html")
    assert pregame.get_element_by_id("decide_on_game_size").tag == "h3"


def test_blocks_render_as_admonitions_tables_steps_and_figures(any_site: Path) -> None:
    site = any_site
    chapters = [page(site, f"{c}/index.html") for c in CHAPTERS]
    count = lambda selector: sum(len(c.cssselect(selector)) for c in chapters)  # noqa: E731
    assert count("div.admonition.note") == 13
    assert count("strong.rb-important") == 2
    assert count("ol.rb-sequence") == 5
    assert count(".rb-table > table") == 7
    assert count("figure.rb-figure figcaption") == 3
    # The seed ships no images: each figure keeps a box and its caption, never a file name.
    assert count(".rb-figure .rb-figure-missing") == 3 and count("img") == 0 and count(".rb-illustration") == 0
    assert not [c for c in chapters if re.search(r"\.(png|jpe?g)\b", c.text_content())]
    general = page(site, "general-principles/index.html")
    steps = [li.text_content() for li in general.cssselect("ol.rb-sequence")[0].cssselect("li")]
    assert steps == ["Movement Phase", "Magic Phase", "Shooting Phase", "Close Combat Phase"]
    # The terrain roll (a D6 list inside a numbered list) is numbered 1 to 6 by its rolls, not lettered.
    (terrain,) = page(site, "the-pre-game-sequence/index.html").cssselect("ol.rb-roll-list")
    assert terrain.get("start") is None and terrain.getparent().tag == "li"
    assert [li.text_content() for li in terrain.cssselect("li")] == ["Hill", "Forest", "Field", "Water", "Wall", "Ruin"]


def test_every_header_stands_over_its_column(any_site: Path) -> None:
    """The army composition's empty corner is a cell: "Point limit" heads the percentages, and a phone's card
    labels each value by its own column."""
    table = page(any_site, "setting-up-a-game/index.html").cssselect(".rb-table table")[0]
    assert [th.text_content() for th in table.cssselect("thead th")] == ["", "Point limit", "Duplicate limit"]
    core = table.cssselect("tbody tr")[0]
    cells = [(c.tag, c.get("data-label"), c.get("scope"), c.text_content()) for c in core]
    assert cells == [
        ("th", None, "row", "Core"),
        ("td", "Point limit", None, "at least 25%"),
        ("td", "Duplicate limit", None, "max 4"),
    ]


def test_glossary_has_backlinks_grouped_by_section(any_site: Path) -> None:
    site = any_site
    glossary = page(site, "glossary/index.html")
    entry = glossary.get_element_by_id("active_player")
    used_in = [li.text_content() for li in entry.cssselect(".rb-used-in li")]
    assert used_in == ["Simultaneous Effects (General Principles) ×4"]
    arc = glossary.get_element_by_id("arc")
    assert [a.text for a in arc.cssselect(".rb-uses a")] == ["Base", "Line of Sight", "Unit"]
    assert arc.cssselect("h3 a")[0].get("href") == "../models-units-and-formations/#term-arc"
    letters = [a.text for a in glossary.cssselect(".rb-letters a")]
    assert letters == sorted(letters) and letters[:2] == ["#", "A"]  # "0-X Choice" first


def test_pages_from_the_rule_data(site: Path, drafts_site: Path) -> None:
    tables = page(site, "tables/index.html")
    secondary = tables.get_element_by_id("roll-secondary_objective")
    assert [cell.text_content() for cell in secondary.cssselect("tbody tr > *")] == [
        "1–2",
        "Hold the Ground",
        "3–4",
        "Breakthrough",
        "5",
        "Capture the Flags",
        "6",
        "Secure Target",
    ]
    # The quick reference: every test and roll of the rule data, its dice and when it passes, linked.
    tests = {li.get("id"): " ".join(li.text_content().split()) for li in tables.cssselect("#tests ~ div li")}
    assert tests["test-leadership_test"] == "Leadership Test: roll 2D6; pass at or below Ld. in the rules"
    assert tests["test-characteristic_test"].startswith("Characteristic Test: roll D6; pass at or below the value")
    assert tests["test-deployment_zone"] == "Deployment Zone: roll D6; pass on 4 or more. in the rules"
    leadership = tables.get_element_by_id("test-leadership_test")
    assert [(a.text, a.get("data-term")) for a in leadership.cssselect("a.rb-term")] == [
        ("Leadership Test", "leadership_test"),
        ("Ld", "leadership"),
    ]
    assert leadership.cssselect("a.rb-in-rules")[0].get("href") == "../characteristics/#performing-a-leadership-test"
    previews = json.loads(tables.cssselect("script.rb-previews")[0].text)
    linked = {a.get("data-term") for a in tables.cssselect("article a.rb-term")}
    assert linked <= previews.keys()  # every term on the page has its card, tapped or hovered
    home = page(site, "index.html")
    assert [a.get("href") for a in home.cssselect("article a") if a.text_content() == "quick reference"] == ["tables/"]
    lint = page(drafts_site, "lint/index.html")
    # The rules' examples are escaped once: the text of their code reads as the source's.
    assert '<definition name="crew">' in lint.get_element_by_id("rb201-duplicate-definition").getparent().text_content()
    assert "&lt;" not in lint.text_content() and "&#34;" not in lint.text_content()
    assert len(lint.cssselect(".rb-lint tbody tr")) == 200  # the first 200 of 259, then a count
    assert "59 more are in rulebook lint" in lint.text_content()
    summary = {tr[0].text_content(): tr[2].text for tr in lint.cssselect(".rb-lint-summary tbody tr")}
    assert summary["RB101 dangling-reference"] == "221" and summary["RB303 missing-image"] == "6"
    sprite = lxml.etree.fromstring((drafts_site / "graph" / "l.svg").read_bytes())
    views = sprite.findall("{http://www.w3.org/2000/svg}view")
    assert "term-line_of_sight" in [v.get("id") for v in views]
    texts = [t.text for t in sprite.iter("{http://www.w3.org/2000/svg}text")]
    assert "Line of Sight" in texts and "Arc" in texts  # itself and a term that uses it
    figure = page(drafts_site, "graph/index.html").get_element_by_id("graph-line_of_sight")
    assert figure.cssselect("img")[0].get("src") == "l.svg#term-line_of_sight"
    assert "Arc" in [a.text_content() for a in figure.cssselect(".rb-graph-links a")]  # its neighbours, as links


def test_source_text_is_escaped(tmp_path: Path) -> None:
    book = tmp_path / "book.xml"
    book.write_text(
        '<document><chapter title="&lt;script&gt;alert(1)&lt;/script&gt; Title">'
        '<definition name="x">&lt;img src=x onerror=alert(2)&gt; <reference name="x">&lt;b&gt;bold&lt;/b&gt;</reference></definition>'
        "</chapter></document>",
        encoding="utf-8",
    )
    output = tmp_path / "site"
    assert build(output, book) == 0
    for path in html_pages(output):
        text = path.read_text(encoding="utf-8")
        assert "<script>alert(1)" not in text and "<img src=x" not in text and "<b>bold" not in text
    chapter = next(p for p in output.glob("*/index.html") if "script" in p.parent.name)
    assert "&lt;img src=x onerror=alert(2)&gt;" in chapter.read_text(encoding="utf-8")


def test_builds_are_byte_identical(site: Path, tmp_path: Path) -> None:
    again = tmp_path / "site"
    assert build(again) == 0
    comparison = filecmp.dircmp(site, again)

    def differences(c: filecmp.dircmp[str]) -> list[str]:
        found = c.diff_files + c.left_only + c.right_only
        for sub in c.subdirs.values():
            found += differences(sub)
        return found

    assert differences(comparison) == []
    assert all(filecmp.cmp(a, again / a.relative_to(site), shallow=False) for a in site.rglob("*") if a.is_file())


def test_a_failed_build_keeps_the_last_good_site(tmp_path: Path) -> None:
    output = tmp_path / "site"
    assert build(output) == 0
    before = (output / "index.html").read_bytes()
    broken = tmp_path / "broken.xml"
    broken.write_text("<document><chapter title='x'>", encoding="utf-8")
    assert build(output, broken) == 2
    assert (output / "index.html").read_bytes() == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".site-build-")]


def test_site_fetches_nothing_from_other_hosts(any_site: Path) -> None:
    site = any_site
    for path in html_pages(site):
        document = lxml.html.fromstring(path.read_bytes())
        for element, attribute in (("script", "src"), ("link", "href"), ("img", "src"), ("iframe", "src")):
            for node in document.iter(element):
                value = node.get(attribute) or ""
                if element == "link" and node.get("rel") in {"canonical", "alternate"}:
                    continue
                assert not value.startswith(("http:", "https:", "//")), (path, element, value)
    for css in site.rglob("*.css"):
        assert "fonts.googleapis" not in css.read_text(encoding="utf-8")


def linkcheck(url: str | list[str], tmp_path: Path, *options: str) -> subprocess.CompletedProcess[str]:
    """LinkChecker run over the site at ``url`` (or from each of several pages), with its anchors checked."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    config = tmp_path / "linkcheckerrc"
    config.write_text("[filtering]\nignore=\n  ^https?://(?!127\\.0\\.0\\.1)\n[AnchorCheck]\n", encoding="utf-8")
    return subprocess.run(
        [
            sys.executable,
            "-c",
            LINKCHECKER,
            "--config",
            str(config),
            "--no-status",
            "--recursion-level=-1",
            "--threads=4",
            *options,
            *([url] if isinstance(url, str) else url),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.mark.slow
def test_link_checker_finds_no_broken_link_or_anchor(
    site: Path, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """One run over the site built by each generator, side by side (each checker keeps a core busy for minutes)."""
    sites = {"mkdocs": site, "zensical": Path(request.getfixturevalue("zensical_site"))}
    with serve(sites["mkdocs"]) as mkdocs, serve(sites["zensical"]) as zensical, ThreadPoolExecutor(2) as pool:
        runs = {
            name: pool.submit(linkcheck, url, tmp_path / name)
            for name, url in (("mkdocs", mkdocs), ("zensical", zensical))
        }
        results = {name: run.result() for name, run in runs.items()}
    for name, result in results.items():
        assert result.returncode == 0, (name, result.stdout[-3000:])
        assert " 0 errors found" in result.stdout and " 0 warnings found" in result.stdout, name


@pytest.mark.slow
def test_link_checker_would_catch_a_broken_anchor(tmp_path: Path) -> None:
    folder = tmp_path / "tiny"
    (folder / "a").mkdir(parents=True)
    (folder / "index.html").write_text('<a href="a/#missing">x</a> <a href="b/">y</a>', encoding="utf-8")
    (folder / "a" / "index.html").write_text('<p id="present">a</p>', encoding="utf-8")
    with serve(folder) as url:
        result = linkcheck(url, tmp_path)
    assert result.returncode == 1
    assert "anchor" in result.stdout.lower() and "404" in result.stdout


def test_html_blocks_are_handed_to_mkdocs_whole_and_put_back(site: Path) -> None:
    from rulebook.site.mkdocs_adapter import hand_over_html

    page = (
        "# Title { #t }\n\n"
        '<div class="rb-body" markdown="0">\n<p>One <div class="inner">nested</div> block</p>\n</div>\n\n'
        "## Next { #n }\n\n"
        '<div class="rb-body rb-letters" markdown="0">\n<a href="#x">x</a>\n</div>\n'
    )
    markdown, blocks = hand_over_html(page)
    assert markdown == "# Title { #t }\n\n\nRBHTML00000\n\n\n## Next { #n }\n\n\nRBHTML00001\n\n"
    assert blocks["RBHTML00000"] == '<div class="rb-body">\n<p>One <div class="inner">nested</div> block</p>\n</div>'
    assert blocks["RBHTML00001"].startswith('<div class="rb-body rb-letters">')
    # In the built site no token is left, and the blocks stand between their headings.
    for path in html_pages(site):
        assert "RBHTML" not in path.read_text(encoding="utf-8"), path
    chapter = (site / "general-principles" / "index.html").read_text(encoding="utf-8")
    assert (
        chapter.index('id="the-scatter-dice"')
        < chapter.index('id="term-scatter_dice"')
        < chapter.index('id="random-direction"')
    )


@pytest.mark.parametrize("drafts", [False, True], ids=["published", "editors"])
def test_every_tables_headers_name_as_many_columns_as_its_rows_have(
    any_site: Path, drafts_site: Path, drafts: bool
) -> None:
    """On every page of every book and language: a table's header row has a cell per column, and every row as many."""
    site = drafts_site if drafts else any_site
    ragged, tables = [], 0
    for path in html_pages(site):
        for table in lxml.html.fromstring(path.read_bytes()).cssselect("table"):
            tables += 1
            rows = table.xpath("./thead/tr | ./tbody/tr | ./tr")
            widths = {sum(int(c.get("colspan", "1")) for c in row.xpath("./th | ./td")) for row in rows}
            if len(widths) > 1:
                ragged.append((str(path.relative_to(site)), table.xpath("string(./caption)"), sorted(widths)))
    assert ragged == []
    assert tables >= 15


def test_the_tables_page_shows_what_another_game_declares(tmp_path: Path) -> None:
    """Ashfall (tests/games/ashfall.xml): its tables keep their own titles and ids, its steps their titles."""
    output = tmp_path / "site"
    assert build(output, Path(__file__).parent / "games" / "ashfall.xml") == 0
    tables = page(output, "tables/index.html")
    captions = {
        t.getparent().getparent().get("id"): t.text_content() for t in tables.cssselect(".rb-roll-table caption")
    }
    assert captions["roll-objective"].startswith("Objective (D5)")
    assert captions["roll-twist"].startswith("Twist (D5)")  # not both the section's "Scenario Tables"
    assert captions["roll-injuries"].startswith("Injuries (D6)")
    assert tables.get_element_by_id("sequence-round_phases").text_content().rstrip("¶") == "A round"
    steps = tables.get_element_by_id("sequence-round_phases").getnext().cssselect("ol")[0]
    assert steps.cssselect("li")[0].text_content() == "Initiative Both players roll for initiative."
    rounds = tables.get_element_by_id("value-rounds")
    assert [cell.text_content() for cell in rounds.cssselect("th, td")] == [
        "A game lasts 5 rounds; a fighter moves up to 6 inches in each.",  # the book's words, not `rounds`
        "5",
        "Round",
    ]
    assert tables.get_element_by_id("variant-raid").text_content() == "Raid: 300 points or less"
    army = tables.text_content()
    assert "An army may fall below its point limit by at most 10 points." in army


@pytest.mark.parametrize(
    "declared",
    [
        '<definition name="round">A game lasts <value name="rounds" kind="turns" term="round">4</value> rounds.</definition>',
        'Fighters move <value name="stride" kind="distance">6</value> inches.',
        '<value name="low" kind="minimum">1</value> to <value name="high" kind="maximum">6</value>.',
        '<definition name="army">An army.</definition><mechanic name="army" categories="none"/>',
        '<sequence kind="setup"><item>Set up.</item></sequence>',
        'A game lasts <value name="rounds">5</value> rounds.',  # the issue's: no kind (a lint error), no crash
    ],
)
def test_a_partial_set_of_declarations_builds(tmp_path: Path, declared: str) -> None:
    """Whatever a book declares, and however little, the site builds and shows it (never an internal error)."""
    book = tmp_path / "book.xml"
    book.write_text(f'<document><chapter title="Play" id="play">{declared}</chapter></document>', encoding="utf-8")
    output = tmp_path / "site"
    assert build(output, book) in (0, 1)
    assert (output / "index.html").exists()
