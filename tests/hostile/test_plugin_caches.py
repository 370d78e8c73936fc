"""A plugin's cache folder is the build's, never the working tree's.

Material's ``privacy`` plugin takes a file it finds at ``cache_dir/assets_fetch_dir/HOST/PATH`` as an external asset
it downloaded, and publishes it: a committed ``mkdocs.yml`` with ``cache_dir: /proc`` and
``extra_css: [https://self/environ]`` published the build's environment (a CI's tokens) at ``site/self/environ``,
linked from every page; ``cache_dir`` the project's own folder published ``.git/config``. And by default it kept its
cache in ``.cache/plugin/privacy`` of the folder the build ran in, where a pull request can commit one.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .scratch import nothing_written_outside, run
from .test_output import project

SETTINGS = """site_name: x
theme:
  name: material
  font: false
extra_css:
  - https://self/environ
  - https://pkg.example/look.css
plugins:
  - search
  - privacy:{options}
"""


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = project(tmp_path / "game")
    monkeypatch.chdir(folder)
    monkeypatch.setenv("CI_SECRET_TOKEN", "ghs_topsecret")
    return folder


@pytest.mark.parametrize("cache", ["/proc", ".", "cache"])
def test_a_plugin_cache_written_in_the_settings_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], cache: str
) -> None:
    (game / "mkdocs.yml").write_text(
        SETTINGS.format(options=f"\n      cache_dir: {cache}\n      assets_fetch_dir: ."), encoding="utf-8"
    )
    with nothing_written_outside(game.parent):
        outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert f"{game / 'mkdocs.yml'}:8: `plugins` gives `privacy` a `cache_dir`: the build keeps each plugin's cache" in (
        outcome.err
    )
    assert not (game / "site").exists()


def test_a_cache_committed_where_the_plugin_kept_it_is_never_published(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The plugin's cache is a folder of the build's scratch folder: what a commit put at its default place (a
    script for a stylesheet the site names) is neither read nor published, and nothing is written there."""
    committed = game / ".cache" / "plugin" / "privacy" / "assets" / "external" / "pkg.example" / "look.css"
    committed.parent.mkdir(parents=True)
    committed.write_text("body{background:url(javascript:alert(1))}", encoding="utf-8")
    (game / "mkdocs.yml").write_text(SETTINGS.format(options=" {}"), encoding="utf-8")
    with nothing_written_outside(game, output="site"):
        outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 0, outcome.err
    published = [path for path in (game / "site").rglob("*") if path.is_file()]
    assert not [path for path in published if "javascript:alert" in path.read_text(errors="replace")]
    assert not [path for path in published if "ghs_topsecret" in path.read_text(errors="replace")]


SNIPPETS = "site_name: x\nmarkdown_extensions:\n  - pymdownx.snippets: {options}\n"


@pytest.mark.parametrize(
    ("options", "said"),
    [
        ('{auto_append: [".git/config"]}', "names `./.git/config`, which the project keeps hidden"),
        ('{auto_append: [".env"]}', "names `./.env`, which the project keeps hidden"),
        ('{base_path: ["/"], auto_append: ["proc/self/environ"]}', "names `/`, which is outside the project"),
        ('{base_path: [".."], auto_append: ["x"]}', "names `..`, which is outside the project"),
        ('{base_path: ["/"], restrict_base_path: false}', "may not turn `restrict_base_path` off"),
    ],
)
def test_a_snippet_file_the_project_does_not_publish_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], options: str, said: str
) -> None:
    """``auto_append: [".git/config"]`` put the CI's token on every page, ``base_path: ["/"]`` with
    ``auto_append: ["/proc/self/environ"]`` the build's environment."""
    (game / ".env").write_text("TOKEN=ghs_topsecret\n", encoding="utf-8")
    (game / "mkdocs.yml").write_text(SNIPPETS.format(options=options), encoding="utf-8")
    with nothing_written_outside(game.parent):
        outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert f"{game / 'mkdocs.yml'}:2: `pymdownx.snippets` {said}" in outcome.err
    assert not (game / "site").exists()


def test_a_snippet_of_the_project_is_appended(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / "notice.md").write_text("Printed with care.\n", encoding="utf-8")
    (game / "mkdocs.yml").write_text(SNIPPETS.format(options='{auto_append: ["notice.md"]}'), encoding="utf-8")
    assert run(capsys, "build", "-q", "--no-pdf").code == 0
    assert "Printed with care." in (game / "site" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("settings", "key", "named"),
    [
        (
            "plugins: [search, {tags: {export_file: ../../.git/config}}]",
            "plugins.tags.export_file",
            "../../.git/config",
        ),
        ("plugins: [search, {tags: {export_file: /tmp/x.json}}]", "plugins.tags.export_file", "/tmp/x.json"),
        ("plugins: {blog: {post_url_format: '../../{slug}'}}", "plugins.blog.post_url_format", "../../{slug}"),
        ("theme: {name: material, static_templates: [/etc/x.html]}", "theme.static_templates.0", "/etc/x.html"),
        (
            "theme: {name: material, static_templates: ['a\\..\\..\\x']}",
            "theme.static_templates.0",
            "a\\..\\..\\x",
        ),
        ("extra_templates: [~/x.html]", "extra_templates.0", "~/x.html"),
    ],
)
def test_a_place_the_generator_writes_outside_the_site_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], settings: str, key: str, named: str
) -> None:
    """``tags: {export_file: ../../.git/config}`` replaced Git's configuration with the tags' JSON;
    ``theme.static_templates: [/abs/.git/config]`` wrote a ``core.fsmonitor`` command there, which ``deploy``'s own
    ``git status`` ran. A plugin's or the theme's path is relative to the site's folders, with no ``..``."""
    (game / "mkdocs.yml").write_text(f"site_name: x\n{settings}\n", encoding="utf-8")
    with nothing_written_outside(game.parent):
        outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert f"`{key}` names `{named}`, a place outside the site" in outcome.err, outcome.err
    assert not (game / "site").exists()


def test_relative_places_and_addresses_are_the_plugins_own(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / "mkdocs.yml").write_text(
        "site_name: x\ntheme: {name: material, logo: 'https://example.org/a.png'}\n"
        "plugins: [search, {tags: {export_file: tags.json}}]\n",
        encoding="utf-8",
    )
    assert run(capsys, "build", "-q", "--no-pdf").code == 0


@pytest.mark.parametrize(
    ("options", "target", "said"),
    [
        ("{base_path: [snips], auto_append: [abbr.md]}", "snips/abbr.md", "it is inside `snips`, a folder"),
        ("{auto_append: [includes/abbreviations.md]}", "includes/abbreviations.md", "it is a file"),
    ],
)
def test_no_report_is_written_where_snippets_are_read(
    game: Path, capsys: pytest.CaptureFixture[str], options: str, target: str, said: str
) -> None:
    """``lint -o snips/abbr.md`` (the abbreviations appended to every page) made the report part of every page, a
    source's quoted line raw HTML in it."""
    (game / "mkdocs.yml").write_text(SNIPPETS.format(options=options), encoding="utf-8")
    (game / target).parent.mkdir(parents=True, exist_ok=True)
    outcome = run(capsys, "lint", "-o", target)
    assert outcome.code == 2
    assert f"cannot write `{target}`: {said}" in outcome.err, outcome.err
    assert not (game / target).exists()
