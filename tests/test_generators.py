"""The same site from either generator: MkDocs (mkdocs-material) or Zensical, its successor.

The bundled project is built with each (once per session, see conftest) and compared page by page:
the same pages, every link's target after resolution (term links included), the same headings and
anchors. The few known differences are pinned here and listed in docs/site.md. The link checker runs over
both sites in tests/test_site.py.
"""

from __future__ import annotations

import filecmp
import importlib.util
import os
from pathlib import Path
from urllib.parse import urldefrag, urljoin

import lxml.html
import pytest

from rulebook import state
from rulebook.project import ConfigError, parse_project
from rulebook.site.pages import LinkStyle, link
from rulebook.site.writer import site_generator
from rulebook.site.zensical_adapter import said

from .conftest import ROOT, build, need_zensical

SKIP_LINK = "__skip"
"""Zensical's own anchor in the content (the "skip to content" target): not ours."""


def built_pages(site: Path) -> set[str]:
    return {p.relative_to(site).as_posix() for p in site.rglob("*.html")}


def page_facts(site: Path, path: str) -> tuple[list[tuple[str, str, str]], list[tuple[str, str, str]], list[str]]:
    """A page's content as a reader meets it: every link and picture (class, target file, fragment) after
    resolution, its headings (level, id, text) and its anchors."""
    document = lxml.html.fromstring((site / path).read_bytes())
    found = document.cssselect(".md-content")
    content = found[0] if found else document
    base = "http://site/" + path
    links = []
    for element in content.iter("a", "img"):
        href = element.get("href") if element.tag == "a" else element.get("src")
        if not href or href.startswith(("http:", "https:")):
            continue
        target, fragment = urldefrag(urljoin(base, href))
        links.append((element.get("class") or "", target + ("index.html" if target.endswith("/") else ""), fragment))
    headings = [(h.tag, h.get("id") or "", h.text_content().strip()) for h in content.iter("h1", "h2", "h3", "h4")]
    anchors = sorted({e.get("id") for e in content.iter() if e.get("id") and e.get("id") != SKIP_LINK})
    return links, headings, anchors


@pytest.mark.slow
@pytest.mark.parametrize("view", ["published", "drafts"])
def test_both_generators_build_the_same_pages_links_headings_and_anchors(
    view: str, request: pytest.FixtureRequest
) -> None:
    mkdocs = Path(request.getfixturevalue("site" if view == "published" else "drafts_site"))
    zensical = Path(request.getfixturevalue("zensical_site" if view == "published" else "zensical_drafts"))
    pages = built_pages(mkdocs)
    assert built_pages(zensical) == pages
    term_links = 0
    for path in sorted(pages):
        expected, found = page_facts(mkdocs, path), page_facts(zensical, path)
        assert found[0] == expected[0], path  # links, resolved
        assert found[1] == expected[1], path  # headings
        assert found[2] == expected[2], path  # anchors
        term_links += sum(1 for link_ in found[0] if "rb-term" in link_[0])
        for _, target, _ in found[0]:
            file = zensical / target.removeprefix("http://site/")
            assert file.is_file(), (path, target)  # pictures and the term graph's sprites included
    assert term_links > 800  # English, French and the other books


def test_zensical_site_has_every_page_and_the_known_differences(zensical_site: Path, site: Path) -> None:
    for path in ["index.html", "404.html", "sitemap.xml", "rules.json", "rules.schema.json", "fr/index.html"]:
        assert (zensical_site / path).is_file(), path
    # The known differences (docs/site.md): the search index's name, and no dates in the sitemap.
    assert (zensical_site / "search.json").is_file() and not (zensical_site / "search").exists()
    assert (site / "search" / "search_index.json").is_file()
    assert "<lastmod>" not in (zensical_site / "sitemap.xml").read_text(encoding="utf-8")
    head = (zensical_site / "index.html").read_text(encoding="utf-8")
    assert "assets/rulebook.css" in head and "assets/rulebook.js" in head
    assert "dangling-reference" not in (zensical_site / "search.json").read_text(encoding="utf-8")
    # The footer's credit names what built the site, in its language.
    for built, path, credit in (
        (zensical_site, "index.html", "Made with Zensical"),
        (site, "index.html", "Made with Material for MkDocs"),
        (zensical_site, "fr/index.html", "Fait avec Zensical"),
    ):
        footer = lxml.html.fromstring((built / path).read_bytes()).cssselect(".md-copyright")[0]
        assert " ".join(footer.text_content().split()).endswith(credit), (built, path)


@pytest.mark.slow
def test_zensical_builds_are_byte_identical_and_keep_their_cache_unpublished(
    zensical_site: Path, tmp_path: Path
) -> None:
    again = tmp_path / "site"
    assert build(again, generator="zensical") == 0  # a cold cache: another output, another kept folder
    kept_folder = state.kept_folder(again, state.home(ROOT))
    assert kept_folder is not None
    cache = kept_folder / "cache" / "zensical" / "main" / "original" / ".cache"
    assert cache.is_dir() and any(cache.iterdir())
    kept = {p: p.stat().st_mtime_ns for p in cache.iterdir()}
    assert build(again, generator="zensical") == 0  # warm
    assert all(p.exists() for p in kept)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["site"]  # the cache is in the user's cache folder
    assert not [p for p in again.rglob("*") if p.name in {".cache", "mkdocs.yml", "docs"}]
    comparison = filecmp.dircmp(zensical_site, again)
    assert not comparison.diff_files and not comparison.left_only and not comparison.right_only
    assert all(
        filecmp.cmp(a, again / a.relative_to(zensical_site), shallow=False)
        for a in zensical_site.rglob("*")
        if a.is_file()
    )


def test_choosing_zensical_without_it_installed_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "zensical" else real(name, *a))
    assert build(tmp_path / "site", generator="zensical") == 2
    assert "pip install 'rulebook-compiler[zensical]'" in capsys.readouterr().err
    assert not (tmp_path / "site").exists()


def test_the_generator_setting_is_checked() -> None:
    assert parse_project({"generator": "zensical"}, ROOT).generator == "zensical"
    assert parse_project({}, ROOT).generator == "mkdocs"
    with pytest.raises(ConfigError, match=r"`generator` in \[tool.rulebook\] must be one of mkdocs, zensical"):
        parse_project({"generator": "hugo"}, ROOT)
    with pytest.raises(ConfigError, match="unknown key `generator`"):
        parse_project({"books": {"b": {"sources": [], "generator": "mkdocs"}}}, ROOT)


@pytest.mark.parametrize(
    ("here", "target", "mkdocs", "zensical"),
    [
        ("glossary.md", "s3.md#term-x", "../s3/#term-x", "s3.md#term-x"),
        ("s3.md", "s3.md#term-x", "#term-x", "#term-x"),
        ("index.md", "glossary.md", "glossary/", "glossary.md"),
        ("index.md", "rules.json", "rules.json", "rules.json"),
        ("graph.md", "graph/l.svg#term-x", "l.svg#term-x", "graph/l.svg#term-x"),
        ("s3.md", "images/a.png", "../images/a.png", "images/a.png"),
        ("fr/lancer.md", "fr/glossary.md", "../glossary/", "glossary.md"),
        ("fr/lancer.md", "s3.md#term-x", "../../s3/#term-x", "../s3/#term-x"),  # another site's page
        ("fr/index.md", "translation-fr.md", "../translation-fr/", "../translation-fr/"),
    ],
)
def test_links_are_written_the_way_each_generator_resolves_them(
    here: str, target: str, mkdocs: str, zensical: str
) -> None:
    site = "fr/" if here.startswith("fr/") else ""
    for name, expected in (("mkdocs", mkdocs), ("zensical", zensical)):
        assert link(LinkStyle(site_generator(name).resolves_html_links, site), here, target) == expected, name


def test_what_zensical_says_becomes_one_warning_a_line() -> None:
    output = (
        "Build started\n"
        "\x1b[33mWarning:\x1b[0m anchor does not exist\n"
        "   \x1b[38;5;246m╭─[\x1b[0m index.md:4:84 \x1b[38;5;246m]\x1b[0m\n"
        ' 4 │ <a href="page.md#nope">x</a>\n'
        "Warning: page does not exist\n"
        "   ╭─[ fr/page.md:5:118 ]\n"
        "2 issues found\n"
    )
    assert said(output) == ("index.md:4:84: anchor does not exist", "fr/page.md:5:118: page does not exist")


@pytest.mark.slow
def test_an_extension_zensical_cannot_import_is_named_not_a_traceback_frame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """``markdown_extensions: [nosuchext]``: the whole message was a frame of Zensical's traceback, ``File
    "<frozen importlib._bootstrap>", line 1140``; an ``!ENV`` name stays masked."""
    from rulebook.cli import main

    need_zensical()
    project = tmp_path / "game"
    assert main(["init", str(project), "--title", "Tiles"]) == 0
    monkeypatch.chdir(project)
    monkeypatch.setenv("SECRET", "ghp_ZZSECRET")
    for listed, shown in (("nosuchext", "nosuchext"), ("!ENV SECRET", "***")):
        (project / "mkdocs.yml").write_text(f"markdown_extensions: [{listed}]\n", encoding="utf-8")
        capsys.readouterr()
        assert main(["build", "-q", "--no-pdf", "--generator", "zensical"]) == 2
        assert capsys.readouterr().err == (
            f"rulebook: error: Zensical could not build the site: ModuleNotFoundError: No module named '{shown}': "
            f"`mkdocs.yml` names `{shown}` (a Markdown extension, or a module one imports) and no package installed "
            "provides it\n"
        )


@pytest.mark.slow
def test_a_zensical_warning_stops_the_build_and_keeps_the_last_good_site(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from rulebook.cli import main

    need_zensical()
    project = tmp_path / "game"
    assert main(["init", str(project), "--title", "Tiles"]) == 0
    output = project / "site"
    cwd = Path.cwd()
    os.chdir(project)
    try:
        assert main(["build", "-q", "--generator", "zensical"]) == 0
        before = (output / "index.html").read_bytes()
        # A project's template that links a page the site does not have: Zensical's --strict refuses it.
        (project / "site_templates").mkdir()
        (project / "site_templates" / "index.md.j2").write_text(
            '{% extends "rulebook/index.md.j2" %}\n{% block intro %}<p><a href="nope.md">x</a></p>{% endblock %}\n',
            encoding="utf-8",
        )
        capsys.readouterr()
        assert main(["build", "-q", "--generator", "zensical"]) == 2
    finally:
        os.chdir(cwd)
    error = capsys.readouterr().err
    assert "Zensical could not build the site: index.md:" in error and "page does not exist" in error
    assert "\x1b[" not in error  # no colour codes
    assert (output / "index.html").read_bytes() == before


def test_a_site_moved_across_disks_stops_at_the_first_file_it_cannot_copy_and_says_why(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Zensical's site is moved from the cache's disk to the output's: ``shutil.copytree`` went on past a full disk
    and raised every file's error as one list, which reached the user in Python's notation (the fortieth probe)."""
    import errno
    import shutil

    from rulebook.site import zensical_adapter

    site = tmp_path / "cache" / "site"
    (site / "assets").mkdir(parents=True)
    for name in ("a.js", "b.js", "c.js"):
        (site / "assets" / name).write_text(name, encoding="utf-8")

    def across_disks(source: object, target: object) -> None:
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    copied: list[str] = []

    def full_disk(source: str, target: str) -> str:
        if copied:  # as copy2 says it: the file read first, the file written second
            raise OSError(errno.ENOSPC, "No space left on device", source, None, target)
        copied.append(target)
        return str(shutil.copyfile(source, target))

    monkeypatch.setattr(zensical_adapter.os, "rename", across_disks)
    monkeypatch.setattr(zensical_adapter.shutil, "copy2", full_disk)
    with pytest.raises(OSError, match="No space left on device") as raised:
        zensical_adapter._move(site, tmp_path / "out")
    assert raised.value.errno == errno.ENOSPC and raised.value.filename.startswith(str(tmp_path / "out"))
    assert len(copied) == 1  # stopped at the first failure
    assert site.is_dir()  # nothing of the cache deleted: the build keeps its last good site


def test_a_copy_that_fails_is_told_by_the_file_written_not_the_file_read() -> None:
    """A full disk as MkDocs copied the theme's files named the theme's file in the environment, which was read, not
    the site's, which could not be written (the forty-second probe)."""
    import errno

    from rulebook import publish
    from rulebook.fileio import OutputError

    with (
        pytest.raises(OutputError, match=r"no space left on device \(`site/assets/x\.js`\)"),
        publish._plainly(Path("site")),
    ):
        raise OSError(errno.ENOSPC, "No space left on device", "/venv/material/x.js", None, "site/assets/x.js")
