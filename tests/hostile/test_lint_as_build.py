"""What the build refuses of a configured project before it reads a book, the lint refuses too, in the same words.

A configured ``output`` the build refuses (``output = "site_templates"``, ``".git/x"``, a source's folder), a
``site_templates/strings.toml`` that is no TOML, a ``print.typ`` or a font that is a pipe or a link to a hidden file:
``rulebook lint`` said "All checks passed" and a CI's build step then stopped (the twenty-second probe).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from .scratch import nothing_written_outside, run, run_guarded
from .test_output import project


@pytest.fixture
def game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = project(tmp_path / "game")
    (folder / "site_templates").mkdir()
    monkeypatch.chdir(folder)
    return folder


OUTPUTS = ('"site_templates"', '"images"', '".git/x"', '"."')


@pytest.mark.parametrize("output", OUTPUTS)
def test_a_configured_output_the_build_refuses_is_refused_by_the_lint(
    game: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    (game / "rulebook.toml").write_text(f'sources = ["book.xml"]\noutput = {output}\n', encoding="utf-8")
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and built.err.startswith("rulebook: error: the output")
    with nothing_written_outside(game.parent):
        linted = run(capsys, "lint")
    assert linted.code == 2
    assert linted.err == built.err.rstrip("\n") + " (`output` in rulebook.toml)\n"


def test_a_configured_output_the_build_takes_passes(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (game / "rulebook.toml").write_text('sources = ["book.xml"]\noutput = "public"\n', encoding="utf-8")
    assert run(capsys, "lint").code == 0


def _not_toml(game: Path) -> str:
    (game / "site_templates" / "strings.toml").write_text("not toml [\n", encoding="utf-8")
    return "strings.toml:1:5: not valid TOML"


def _word_of_a_megabyte(game: Path) -> str:
    (game / "site_templates" / "strings.toml").write_text(f'[en]\nhome = "{"x" * 2000}"\n', encoding="utf-8")
    return "`home` in [en] has 2,000 characters"


def _template_a_pipe(game: Path) -> str:
    os.mkfifo(game / "site_templates" / "print.typ")
    return "it is not a regular file"


def _font_a_pipe(game: Path) -> str:
    (game / "site_templates" / "fonts").mkdir()
    os.mkfifo(game / "site_templates" / "fonts" / "fifo.ttf")
    return "fifo.ttf"


def _font_linked_to_a_hidden_file(game: Path) -> str:
    (game / ".hid").mkdir()
    (game / ".hid" / "x.ttf").write_bytes(b"\0\1\0\0")
    (game / "site_templates" / "fonts").mkdir()
    (game / "site_templates" / "fonts" / "link.ttf").symlink_to("../../.hid/x.ttf")
    return "which the project keeps hidden"


def _translated(game: Path) -> Path:
    """The game with a French translation; its marks file's path (``status.toml``, beside it)."""
    (game / "fr.md").write_text("# Se déplacer\n\n## Marcher\n\nMarcher, c'est se déplacer.\n", encoding="utf-8")
    (game / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[translations.fr]\nsource = "fr.md"\n[pdf]\nbuild = false\n', encoding="utf-8"
    )
    return game / "status.toml"


def _marks_a_pipe(game: Path) -> str:
    os.mkfifo(_translated(game))  # the build hung on it, or refused it; the lint passed it (the 27th probe)
    return "it is not a regular file"


def _marks_not_toml(game: Path) -> str:
    _translated(game).write_text("[[[\n", encoding="utf-8")
    return "status.toml:1:3: not valid TOML"


LOOKS = (
    _not_toml,
    _word_of_a_megabyte,
    _template_a_pipe,
    _font_a_pipe,
    _font_linked_to_a_hidden_file,
    _marks_a_pipe,
    _marks_not_toml,
)


@pytest.mark.parametrize("make", LOOKS, ids=[make.__name__.strip("_") for make in LOOKS])
def test_a_file_of_the_look_the_build_refuses_is_refused_by_the_lint(
    game: Path, capsys: pytest.CaptureFixture[str], make: object
) -> None:
    said = make(game)  # type: ignore[operator]
    with nothing_written_outside(game.parent):
        linted = run(capsys, "lint")
    assert linted.code == 2 and said in linted.err, linted.err
    built = run(capsys, "build", "-q")
    assert built.code == 2 and said in built.err, built.err


def test_the_settings_are_read_as_yaml_when_an_escape_may_spell_a_folder_setting(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mkdocs.yml`` is read as YAML only when its text may name a folder the build reads; an escape may."""
    (game / "mkdocs.yml").write_text('theme:\n  name: material\n  "custom\\u005fdir": look\n', encoding="utf-8")
    (game / "look").mkdir()  # as MkDocs asks of a `custom_dir`
    outcome = run(capsys, "lint", "-o", "look/report.txt")
    assert outcome.code == 2
    assert "it is inside `look`, the folder `mkdocs.yml` names as `theme.custom_dir`" in outcome.err


@pytest.mark.parametrize("output", ['"../www"', '"/tmp/www"', '"site/../../www"'])
def test_a_configured_output_outside_the_project_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    """A committed ``output = "../www"`` built a site, its lock and work folder beside it, into any folder the CI's
    user may make; ``-o`` on the command line is the user's own and may name one."""
    (game / "rulebook.toml").write_text(f'sources = ["book.xml"]\noutput = {output}\n', encoding="utf-8")
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        with nothing_written_outside(game.parent):
            outcome = run(capsys, *command)
        assert outcome.code == 2
        assert f"`output` in [top level] names `{output.strip(chr(34))}`, which is outside the project" in outcome.err
    (game / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    assert run(capsys, "build", "-q", "--no-pdf", "-o", str(game.parent / "www")).code == 0


def _settings_a_pipe(game: Path) -> str:
    os.mkfifo(game / "mkdocs.yml")
    return "it is not a regular file"


def _settings_not_utf8(game: Path) -> str:
    (game / "mkdocs.yml").write_bytes(b"site_name: \xff\xfe\n")
    return "it is not UTF-8 text"


@pytest.mark.parametrize("make", [_settings_a_pipe, _settings_not_utf8], ids=["pipe", "not utf-8"])
def test_site_settings_the_build_cannot_read_are_refused_by_the_lint(
    game: Path, capsys: pytest.CaptureFixture[str], make: object
) -> None:
    said = make(game)  # type: ignore[operator]
    linted = run(capsys, "lint")
    assert linted.code == 2 and said in linted.err, linted.err
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and said in built.err, built.err


SETTINGS_THE_BUILD_REFUSES = {
    "yaml": ("site_name: x\ntheme:\n  features: [a, b\n", "expected ',' or ']'"),
    "plugin": ("site_name: x\nplugins:\n  - no-such-plugin\n", 'The "no-such-plugin" plugin is not installed'),
    "theme": ("site_name: x\ntheme:\n  name: no-such-theme\n", "Unrecognised theme name: 'no-such-theme'"),
    "extension": ("markdown_extensions:\n  - no_such_extension\n", "Failed to load extension 'no_such_extension'"),
    "kind": ("repo_url: 5\n", "Config value 'repo_url': Expected a string"),
    "digits": ("extra:\n  n: " + "9" * 5_000 + "\n", "mkdocs.yml:2: a number of 5,000 digits, more than any setting"),
    "hex-digits": (  # loaded (Python reads any number of hexadecimal digits), then failed in Python's words in MkDocs
        "extra:\n  n: 0x" + "f" * 4_000 + "\n",
        "mkdocs.yml:2: a number of 4,000 digits, more than any setting needs (at most 1,000)",
    ),
    "tagged-digits": (
        'extra:\n  m: 1\n  n: !!int "0b' + "1" * 20_000 + '"\n',
        "mkdocs.yml:3: a number of 20,000 digits",
    ),
    "module": ("extra:\n  x: !!python/module:os\n", "names a module, which is no setting's value"),
    # values the build adds the site's own to: an internal error in lint, build and `serve` (the thirty-ninth probe)
    "extra-kind": ("extra: 5\n", "mkdocs.yml:1: `extra` must be a mapping of names to values: the build adds the"),
    "polyfills-kind": ("extra:\n  polyfills: 5\n", "mkdocs.yml:2: `extra.polyfills` must be a list of scripts"),
    "palette-kind": ("theme:\n  name: material\n  palette: 5\n", "mkdocs.yml:3: `theme.palette` must be a mapping"),
    "plugins-kind": ("plugins: 5\n", "mkdocs.yml:1: `plugins` must be a list of names (each alone, or a one-key"),
    "search-options": ("plugins:\n  - search: [1]\n", "mkdocs.yml:1: `plugins` must be a list of names"),
    "toc-options": ("markdown_extensions:\n  - toc: x\n", "the options of `toc` a mapping: the build adds"),
    "named-module": ("extra:\n  x: !!python/name:os.path\n", "`!!python/name:os.path` names no function or class"),
    "callable-no-function": (  # a ctypes function pointer: callable, and the copy each build makes of the settings
        # failed ("internal error: ValueError: ctypes objects containing pointers cannot be pickled"; `serve` ended)
        "extra:\n  x: !!python/name:ctypes.memmove\n",
        "`!!python/name:ctypes.memmove` names no function or class",
    ),
    "import-exits": (  # importing it calls `sys.exit`: the build printed unittest's usage and ended, exit 1
        "extra:\n  x: !!python/name:unittest.__main__.x\n",
        "`unittest.__main__.x` cannot be imported (SystemExit",
    ),
    "tagged": ('extra:\n  n: !!timestamp "x"\n', "a tagged value (`!!...`) YAML cannot make"),
    "nested": ("extra:\n  n: " + "[" * 3_000 + "]" * 3_000 + "\n", "its values nest more than 200 deep (lists"),
    "nested-250": (  # told as "more than 100,000 values (each YAML alias ...)": 251 values, no alias
        "extra:\n  n: " + "[" * 250 + "]" * 250 + "\n",
        "its values nest more than 200 deep (lists or mappings within each other)",
    ),
    "scripts-kind": ("extra_javascript: js/x.js\n", "mkdocs.yml:1: `extra_javascript` must be a list of scripts"),
    # the full loader's tags YAML does not make: past every check, which reads lists (the forty-sixth probe)
    "tuple": (
        "theme:\n  name: material\n  static_templates: !!python/tuple [/abs/.git/config]\n",
        "mkdocs.yml:3:21: the tag `!!python/tuple` makes a value the settings do not take: write it in plain YAML",
    ),
    "set": ("extra:\n  social: !!set {a: null}\n", "mkdocs.yml:2:11: the tag `!!set` makes a value the settings"),
    "binary": ("extra:\n  x: !!binary aGVsbG8=\n", "mkdocs.yml:2:6: the tag `!!binary` makes a value the settings"),
    "python-str": ("extra:\n  x: !!python/str a\n", "mkdocs.yml:2:6: the tag `!!python/str` makes a value the"),
    "placed": ("theme:\n  features: [a, b\n", "mkdocs.yml:3:1: while parsing a flow sequence; expected ',' or ']'"),
    # MkDocs checks only that they are lists: the build stopped in Python's words (the forty-third probe's note)
    "css-entries": ("site_name: x\nextra_css: [5]\n", "mkdocs.yml:2: `extra_css` must be a list of file names (text)"),
    "templates-entries": ("extra_templates: [a.html, [1]]\n", "mkdocs.yml:1: `extra_templates` must be a list of"),
    # written raw into every page's <head> while the lint passed (the forty-fifth probe)
    "css-nul": (
        'site_name: x\nextra_css: ["a\\0.css"]\n',
        "mkdocs.yml:2: `extra_css` holds a control character (U+0000), which would be written raw into the site's",
    ),
    "nested-bidi": (
        'extra:\n  social:\n    - {link: "https://e.x/\\u202egnp"}\n',
        "mkdocs.yml:2: `extra.social.link` holds a bidirectional control (U+202E)",
    ),
    "key-c1": ('extra:\n  "a\\x85": 1\n', "mkdocs.yml:2: `extra.a\ufffd` holds a control character (U+0085)"),
    "option": (  # MkDocs quoted the Python traceback of the extension it could not load, on one line
        "markdown_extensions:\n  - admonition:\n      no_such_option: 1\n",
        "Failed to load extension 'admonition'. KeyError: 'no_such_option'\n",
    ),
}


@pytest.mark.parametrize("settings", SETTINGS_THE_BUILD_REFUSES, ids=list(SETTINGS_THE_BUILD_REFUSES))
def test_site_settings_mkdocs_refuses_are_refused_by_the_lint_of_the_project(
    game: Path, capsys: pytest.CaptureFixture[str], settings: str
) -> None:
    """A `mkdocs.yml` naming a plugin, theme or Markdown extension not installed, of the wrong kind, or no YAML passed
    the lint ("All checks passed"), and the build stopped on it: the lint of the project checks it as MkDocs loads
    it, in the build's words (a lint of files it names, an editor's, reads only them)."""
    text, said = SETTINGS_THE_BUILD_REFUSES[settings]
    (game / "mkdocs.yml").write_text(text, encoding="utf-8")
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and said in built.err, built.err
    with nothing_written_outside(game.parent):
        linted = run(capsys, "lint")
    assert linted.code == 2 and said in linted.err and "Traceback" not in linted.err, linted.err
    assert 'File "' not in linted.err + built.err
    assert run(capsys, "lint", "book.xml").code == 0
    (game / "mkdocs.yml").write_text("site_name: x\nplugins:\n  - search\n", encoding="utf-8")
    assert run(capsys, "lint").code == 0


def test_a_named_method_the_settings_cannot_copy_is_refused_at_its_place(
    game: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A module's method of an object holding a lock is a function extensions could take, and the copy each build
    makes of the settings fails on it: refused where ``mkdocs.yml`` names it, not an internal error."""
    import logging

    monkeypatch.setattr(logging, "locked_emit", logging.lastResort.emit, raising=False)  # type: ignore[union-attr]
    (game / "mkdocs.yml").write_text("site_name: x\nextra:\n  x: !!python/name:logging.locked_emit\n", encoding="utf-8")
    said = "`!!python/name:logging.locked_emit` names a value the settings cannot hold (TypeError: cannot pickle"
    for argv in (("lint",), ("build", "-q", "--no-pdf")):
        outcome = run(capsys, *argv)
        assert outcome.code == 2 and f"mkdocs.yml:3:6: {said}" in outcome.err, outcome.err


def test_settings_the_build_replaces_are_not_refused_by_the_lint(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``nav: 5`` was refused by the lint of the project ("Expected nav to be a list") and built: the build makes the
    navigation from the book's chapters, and the lint checks the settings as the build loads them."""
    (game / "mkdocs.yml").write_text("site_name: x\nnav: 5\n", encoding="utf-8")
    assert run(capsys, "lint").code == 0
    assert run(capsys, "build", "-q", "--no-pdf").code == 0


def _template_not_jinja(game: Path) -> str:
    (game / "site_templates" / "index.md.j2").write_text("# {{ title\n", encoding="utf-8")
    return "index.md.j2:1: the project's template cannot be read"


def _asset_a_pipe(game: Path) -> str:
    (game / "site_templates" / "assets").mkdir()
    os.mkfifo(game / "site_templates" / "assets" / "extra.css")
    return "it is not a regular file"


@pytest.mark.parametrize("make", [_template_not_jinja, _asset_a_pipe], ids=["template", "asset"])
def test_the_sites_own_templates_and_assets_the_build_refuses_are_refused_by_the_lint(
    game: Path, capsys: pytest.CaptureFixture[str], make: object
) -> None:
    said = make(game)  # type: ignore[operator]
    linted = run(capsys, "lint")
    assert linted.code == 2 and said in linted.err, linted.err
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and said in built.err, built.err


@pytest.mark.parametrize(
    ("template", "said"),
    [
        ('{{ "x" * 10000000000 }}\n', "SecurityError: a repetition of more"),
        ("{% for i in range(100000000) %}{{ i }}{% endfor %}\n", "Range too big"),
        ("{{ ().__class__ }}\n", "SecurityError: access to attribute"),
        ("{% if true %}" * 300 + "x" + "{% endif %}" * 300 + "\n", "the project's template nests too deeply"),
    ],
    ids=["repetition", "range", "python", "nesting"],
)
def test_the_sites_own_templates_are_bounded_as_a_pull_request_may_write_them(
    game: Path, capsys: pytest.CaptureFixture[str], template: str, said: str
) -> None:
    """A 24-byte `{{ "x" * 10000000000 }}` took 23 GB to compile (Jinja folds constants), a loop of `range(10**8)`
    ran past 120 s and 4 GB, 300 nested `{% if %}` were an internal error: the site's templates are read in Jinja's
    sandbox, `*` and `**` bounded and never folded, and a nesting too deep told plainly."""
    (game / "site_templates" / "index.md.j2").write_text(template, encoding="utf-8")
    linted = run(capsys, "lint")
    assert linted.code in (0, 2) and "internal error" not in linted.err
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and said in built.err, built.err


@pytest.mark.parametrize("template", ['{{ "x"|center(4000000000) }}\n', '{{ "%4000000000s" % "x" }}\n'])
def test_the_lint_reads_the_sites_templates_without_working_them_out(game: Path, template: str) -> None:
    """Compiling folds constants: `{{ "x"|center(1000000000) }}`, one line, took the lint 4.9 GB. The lint parses
    a template, as the build reads it, and works nothing out (held here to the guard's memory)."""
    (game / "site_templates" / "index.md.j2").write_text(template, encoding="utf-8")
    assert run_guarded(game, "lint").code == 0


@pytest.mark.parametrize("output", ['"a\\nb"', '"site\\u001b[31m"', '"x\\u202etxt"'])
def test_a_configured_path_with_a_control_character_is_refused(
    game: Path, capsys: pytest.CaptureFixture[str], output: str
) -> None:
    """`output = "a\\nb"` was a published folder's name with a line break, which a deploy handed Git as two paths
    (a file outside the project hashed into `.git/objects`)."""
    (game / "rulebook.toml").write_text(f'sources = ["book.xml"]\noutput = {output}\n', encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and "holds a control character" in outcome.err, outcome.err


@pytest.mark.parametrize(
    "template",
    ['{{ "%(a)4000000000s" % {"a": "x"} }}\n', '{{ "%*s" % (4000000000, "x") }}\n', '{{ "%.4000000000d" % 1 }}\n'],
)
def test_every_width_of_a_templates_format_is_bounded(
    game: Path, capsys: pytest.CaptureFixture[str], template: str
) -> None:
    """The first bound read a width after `%` alone: `%(a)Ns`, `%*s` and `%.Nd` took 31 s and 2.1 GB."""
    (game / "site_templates" / "index.md.j2").write_text(template, encoding="utf-8")
    built = run_guarded(game, "build", "-q", "--no-pdf")
    assert built.code == 2 and "a format wider than" in built.err, built.err


def test_a_template_past_pythons_own_nesting_is_told_plainly(game: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`{{ a.b.c... }}` of 250 attributes: Python refused the template's code ("too many nested parentheses"), an
    internal error."""
    (game / "site_templates" / "index.md.j2").write_text("{{ book" + ".x" * 250 + " }}\n", encoding="utf-8")
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and "nests too deeply" in built.err, built.err


@pytest.mark.parametrize("definition", ["<definition>moves</definition>", '<definition name="">moves</definition>'])
def test_a_definition_naming_no_term_stops_the_build_where_it_is(
    game: Path, capsys: pytest.CaptureFixture[str], definition: str
) -> None:
    """A definition naming no term stopped the build with "the site generator misses a template: ''", which placed
    nothing: it is refused as the names that stop a build are, at the definition."""
    text = (game / "book.xml").read_text(encoding="utf-8")
    (game / "book.xml").write_text(text.replace("</section>", f"{definition}</section>", 1), encoding="utf-8")
    built = run(capsys, "build", "--no-pdf")
    line = next(n for n, said in enumerate((game / "book.xml").read_text().splitlines(), 1) if definition in said)
    assert built.code == 2 and "definition has an empty `name`" in built.out + built.err
    assert f"--> book.xml:{line}:" in built.out + built.err and "template" not in built.out + built.err
    assert not (game / "site").exists()


@pytest.mark.parametrize("table", ["<table/>", "<table><row/></table>", '<table title="Odds"><headers/></table>'])
def test_a_table_of_no_cell_is_set_as_nothing(game: Path, capsys: pytest.CaptureFixture[str], table: str) -> None:
    """`<table/>` (the lint's RB002) stopped the build with Typst's "number must be positive", placing nothing: a
    table of no cell is no table in print, its title kept, as on the site."""
    text = (game / "book.xml").read_text(encoding="utf-8")
    (game / "book.xml").write_text(text.replace("</section>", f"{table}</section>", 1), encoding="utf-8")
    built = run(capsys, "build", "-q")
    assert built.code == 0, built.out + built.err
    assert list((game / "site").glob("*.pdf"))


def test_jinjas_placeholder_text_is_no_global_of_the_sites_templates(
    game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`{{ lipsum(3000, html=False, min=2000, max=2001) }}`, 48 bytes of a project's template, made a home page of
    44 MB in 14 s: no bound held it, and nothing of ours uses it."""
    (game / "site_templates" / "index.md.j2").write_text(
        "# Home\n\n{{ lipsum(3000, html=False, min=2000, max=2001) }}\n", encoding="utf-8"
    )
    built = run(capsys, "build", "-q", "--no-pdf")
    assert built.code == 2 and "lipsum" in built.err and "Traceback" not in built.err, built.err
    assert not (game / "site").exists()
