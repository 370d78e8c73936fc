"""Configuration faults: each a plain message naming the file (and the line where TOML says), exit status 2.

A wrong type at any level, a path no system could open, a value of absurd size, TOML that nests
too deeply for Python's parser or holds a number of more digits than Python reads: none reaches an
internal error, and no message quotes a megabyte of what it was given.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from rulebook.errors import QUOTE_LIMIT

from .scratch import configured, nothing_written_outside, refused, run, run_guarded, scratch, source  # noqa: F401 (fixtures)
from .test_report_files import BOOK


@pytest.mark.parametrize(
    ("pyproject", "said"),
    [
        ('tool = "x"\n', '`tool` must be a table, not the string "x"'),
        ("tool = [1]\n", "`tool` must be a table, not a list of numbers"),
        ("[tool]\nrulebook = 5\n", "`tool.rulebook` must be a table, not the number 5"),
        ('[tool]\nrulebook = "a"\n', '`tool.rulebook` must be a table, not the string "a"'),
        ("[tool]\nrulebook = []\n", "`tool.rulebook` must be a table, not an empty list"),
    ],
)
def test_a_pyproject_whose_tool_table_is_not_a_table(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    pyproject: str,
    said: str,
) -> None:
    (scratch / "pyproject.toml").write_text(f"# [tool.rulebook] below\n{pyproject}", encoding="utf-8")
    for argv in (("lint",), ("lint", "--config", "pyproject.toml"), ("engine", "turns")):
        outcome = run(capsys, *argv)
        assert outcome.code == 2, argv
        assert outcome.err == f"rulebook: error: {scratch / 'pyproject.toml'}: {said}\n", argv


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ('sources = ["book.xml"]\ntitle = ["A"]\n', "`title` in [top level] must be a string, not a list of strings"),
        (
            'sources = ["book.xml"]\n[[translations]]\nsource = "fr.md"\n',
            "`translations` in [top level] must be a table, not a list of tables",
        ),
        (
            'sources = ["book.xml", 5]\n',
            "`sources` in [top level] must be a list of strings, not a list of values of several kinds",
        ),
    ],
)
def test_a_list_where_the_configuration_takes_something_else_is_said_by_what_it_holds(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    lines: str,
    said: str,
) -> None:
    """Every list was "a list with something else than strings in it", a list of strings included (`title = ["A"]`,
    the message contradicting itself) and a list of tables (`[[translations]]` for `[translations.fr]`)."""
    (scratch / "rulebook.toml").write_text(lines, encoding="utf-8")
    assert run(capsys, "lint") == (2, "", f"rulebook: error: rulebook.toml: {said}\n")


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ('sources = ["book.xml\\u0000"]\n', "a path of `sources` in [top level] holds a NUL character"),
        ('sources = ["book.xml"]\nbaseline = "b\\u0000.json"\n', "`baseline` in [top level] holds a NUL character"),
        ('sources = ["book.xml"]\noutput = "site\\u0000"\n', "`output` in [top level] holds a NUL character"),
        (
            'sources = ["book.xml"]\n[translations.fr]\nsource = "fr\\u0000.md"\n',
            "`source` in [translations.fr] holds a NUL character",
        ),
        (
            'sources = ["book.xml"]\n[translations.fr]\nsource = "fr.md"\nterms = "t\\u0000"\n',
            "`terms` in [translations.fr] holds a NUL character",
        ),
        (
            'sources = ["book.xml"]\n[books.x]\nsources = ["x.md"]\nbaseline = "\\u0000"\n',
            "`baseline` in [books.x] holds a NUL character",
        ),
        (
            f'sources = ["book.xml"]\nbaseline = "{"a/" * 3000}"\n',
            "`baseline` in [top level] is longer than 4096 bytes, the longest path",
        ),
        (
            f'sources = ["{"b" * 300}.xml"]\n',
            "a path of `sources` in [top level] has a name longer than 255 bytes, the longest a file's name may be",
        ),
        # a source named twice was read twice: each of its ids "used again" where it is written once
        (
            'sources = ["book.xml", "book.xml"]\n',
            "`sources` in [top level] names `book.xml` again: a file is read once; remove one",
        ),
        (
            'sources = ["book.xml"]\n[books.x]\nsources = ["a/x.md", "a//../a/./x.md"]\n',
            "`sources` in [books.x] names `a/x.md` again, as `a//../a/./x.md`: a file is read once; remove one",
        ),
    ],
)
def test_a_path_no_system_could_open_is_refused_where_it_is_configured(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    lines: str,
    said: str,
) -> None:
    configured(scratch, BOOK, lines)
    for argv in (("lint",), ("build", "-q")):
        outcome = refused(capsys, scratch, *argv)
        assert outcome.err == f"rulebook: error: rulebook.toml: {said}\n", argv


@pytest.mark.parametrize(
    ("lines", "said"),
    [
        ("books = 5\n", "rulebook.toml: `books` in [top level] must be a table, not the number 5"),
        ("books = {x = 5}\n", "rulebook.toml: [books.x] must be a table"),
        ("lint = 5\n", "rulebook.toml: `lint` in [top level] must be a table, not the number 5"),
        ("[lint]\nseverity = 5\n", "rulebook.toml: `severity` in [lint] must be a table, not the number 5"),
        ("[lint]\nseverity = {RB101 = 5}\n", "rulebook.toml: severity of `RB101` in [lint] must be one of error,"),
        ("translations = {fr = 5}\n", "rulebook.toml: [translations.fr] must be a table"),
        ("[translations.fr]\nsource = 5\n", "rulebook.toml: `source` in [translations.fr] must be a string, not"),
        ("emphasis = 2020-01-01\n", "rulebook.toml: `emphasis` in [top level] must be true or false, not a date"),
        ("title = 1e999\n", "rulebook.toml: `title` in [top level] must be a string, not the number inf"),
        (
            f"title = {'1' * 4000}\n",
            "rulebook.toml: `title` in [top level] must be a string, not a number of more than",
        ),
        (  # it said "must be a whole number from 1 to 1,000,000, not a number"
            f"[pdf]\ntime_limit = {'1' * 21}\n",
            "rulebook.toml: `time_limit` in [pdf] must be a whole number from 1 to 1,000,000, not a number of more than 20 digits",
        ),
        (f"title = [{'1,' * 100_000}]\n", "rulebook.toml: `title` in [top level] must be a string, not a list"),
        (f"x = {'9' * 5000}\n", "{config}: a number in it has more digits than can be read\n"),
        (f"x = {'[' * 100_000}{']' * 100_000}\n", "{config}: not valid TOML: its arrays or tables nest too deeply\n"),
        (f"x = {'{a = ' * 100_000}1{'}' * 100_000}\n", "{config}: not valid TOML: its arrays or tables nest too"),
        ('sources = ["book.xml"]\ntitle = \n', "{config}:2:9: not valid TOML: invalid value\n"),
        ('title = "open', "{config}: not valid TOML: unterminated string (at the end of the file)\n"),
        (
            'sources = ["book.xml"]\nterms = ["Fighter", ""]\n',
            "rulebook.toml: `terms` in [top level] lists an empty string: remove it, or write what it names\n",
        ),
        ('sources = ["book.xml"]\nuses = [" "]\n', "rulebook.toml: `uses` in [top level] lists an empty string"),
        ('sources = ["book.xml"]\n[lint]\nignore = [""]\n', "rulebook.toml: `ignore` in [lint] lists an empty string"),
    ],
)
def test_a_wrong_type_or_an_absurd_value_at_any_level_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    lines: str,
    said: str,
) -> None:
    configured(scratch, BOOK, lines)
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert outcome.err.startswith("rulebook: error: " + said.format(config=scratch / "rulebook.toml"))


@pytest.mark.parametrize(
    "lines",
    [
        f'[books.{"x" * 100_000}]\nsources = ["book.xml"]\n',
        f'[lint]\nseverity = {{"{"x" * 100_000}" = "off"}}\n',
        f'["{"x" * 100_000}"]\n',
        f'language = "{"x" * 100_000}"\n',
        f'site_url = "{"x" * 100_000}"\n',
        f'[translations.{"x" * 100_000}]\nsource = "a"\n',
    ],
)
def test_a_huge_key_or_value_is_quoted_cut(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    lines: str,
) -> None:
    configured(scratch, BOOK, lines)
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert outcome.err.startswith("rulebook: error: rulebook.toml: ")
    assert "x" * QUOTE_LIMIT not in outcome.err and "…" in outcome.err
    assert len(outcome.err) < 700


def test_a_warning_shows_control_characters_as_pictures(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "rulebook.toml").write_text(
        'sources = ["book.xml"]\nbaseline = "\\u001b]0;PWNED\\u0007.json"\n', encoding="utf-8"
    )
    outcome = run(capsys, "lint")  # a configured path of control characters is refused, told with pictures
    assert outcome.code == 2
    assert "\x1b" not in outcome.err and "\x07" not in outcome.err
    assert "`baseline` in [top level] holds a control character" in outcome.err


@pytest.mark.parametrize(
    ("templates", "said"),
    [
        (
            {"index.md.j2": "# {{ title }}\n{% for %}\n"},
            "index.md.j2:2: the project's template cannot be read: `Expected an expression, got 'end of statement block'`",
        ),
        (
            {"index.md.j2": "{{ nosuch }}"},
            "index.md.j2:1: the project's template failed: `UndefinedError: 'nosuch' is undefined`",
        ),
        (
            {"chapter.md.j2": "\n{{ 1 / 0 }}"},
            "chapter.md.j2:2: the project's template failed: `ZeroDivisionError: division by zero`",
        ),
        (
            {"index.md.j2": '{% include "index.md.j2" %}'},
            "index.md.j2:1: the project's template failed: it includes or calls itself without end",
        ),
        (
            {"index.md.j2": '{% include "part.j2" %}', "part.j2": "\n\n{{ 'a'.no.such }}"},
            "part.j2:3: the project's template failed: `UndefinedError: 'str object' has no attribute 'no'`",
        ),
        (
            {"glossary.md.j2": '{% extends "missing.j2" %}'},
            "glossary.md.j2:1: the project's template failed: `TemplateNotFound: missing.j2`",
        ),
    ],
)
def test_a_template_of_the_project_that_fails_is_a_plain_error_naming_it(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    templates: dict[str, str],
    said: str,
) -> None:
    """A project's own template with a syntax error, an undefined name, a division by zero or an endless include
    was an internal error ("a bug in the rulebook compiler"); it is the project's, named at its file and line."""
    source(scratch, "book.xml", BOOK)
    (scratch / "site_templates").mkdir()
    for name, text in templates.items():
        (scratch / "site_templates" / name).write_text(text, encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert outcome.err.splitlines()[-1] == f"rulebook: error: {scratch / 'site_templates'}/{said}"
    assert not (scratch / "site").exists()


@pytest.mark.parametrize(
    ("mkdocs", "said"),
    [
        ("theme:\n  name: material\n  custom_dir: /etc\n", "4: `theme.custom_dir` names `/etc`, which is outside"),
        ("theme:\n  custom_dir: ../../etc\n", "3: `theme.custom_dir` names `../../etc`, which is outside"),
        ("theme:\n  custom_dir: linked/ssl\n", "3: `theme.custom_dir` names `linked/ssl`, which is a link to"),
        ("theme:\n  custom_dir: look\n", "3: `theme.custom_dir` names `look`, which holds `a/leak.txt`, a link to a"),
        ("theme:\n  custom_dir: .git\n", "3: `theme.custom_dir` names `.git`, which is inside `.git`, Git's own"),
        ("theme:\n  custom_dir: linked-git/x\n", "3: `theme.custom_dir` names `linked-git/x`, which is inside `.git`"),
        ("docs_dir: /etc\n", "2: `docs_dir` names `/etc`, which is outside"),
        ("site_dir: ../published\n", "2: `site_dir` names `../published`, which is outside"),
        ("INHERIT: /etc/os-release\n", "2: `INHERIT` names `/etc/os-release`, which is outside"),
        ("INHERIT: linked/os-release\n", "2: `INHERIT` names `linked/os-release`, which is a link to"),
        ("hooks:\n  - hooks/ok.py\n  - /tmp/hook.py\n", "2: `hooks` names `/tmp/hook.py`, which is outside"),
        ('theme:\n  custom_dir: "a\\0b"\n', "3: `theme.custom_dir` names `a␀b`, which no system can open"),
    ],
)
def test_a_path_of_mkdocs_yml_leading_out_of_the_project_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    mkdocs: str,
    said: str,
) -> None:
    """``theme.custom_dir: /etc`` made MkDocs publish ``/etc`` in the site, a link in the theme's folder the file it
    led to, and ``INHERIT`` read any file: every path setting of ``mkdocs.yml`` stays inside the project, as written
    and as it resolves, else a plain error naming the file, the line and the key, before anything is published."""
    source(scratch, "book.xml", BOOK)
    (scratch / "linked").symlink_to("/etc")
    (scratch / ".git" / "x").mkdir(parents=True)
    (scratch / "linked-git").symlink_to(".git")
    (scratch / "look" / "a").mkdir(parents=True)
    (scratch / "look" / "a" / "leak.txt").symlink_to("/etc/hostname")  # the generator published it
    (scratch / "mkdocs.yml").write_text("site_name: x\n" + mkdocs, encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert f"rulebook: error: {scratch / 'mkdocs.yml'}:{said}" in outcome.err
    assert outcome.err.splitlines()[-1].endswith("the folders and files mkdocs.yml names stay inside the project")
    assert not (scratch / "site").exists()


@pytest.mark.parametrize("linked", [False, True], ids=["itself", "through a link"])
def test_a_theme_folder_holding_no_regular_file_is_refused_not_skipped(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    linked: bool,
) -> None:
    """A named pipe or a socket in the theme's ``custom_dir`` (``overrides/partials/footer.html``) was skipped without
    a word: lint and build passed and the override was never applied (the thirty-sixth probe). Both refuse it."""
    source(scratch, "book.xml", BOOK)
    (scratch / "overrides" / "partials").mkdir(parents=True)
    (scratch / "overrides" / "main.html").write_text("{% extends 'base.html' %}\n", encoding="utf-8")
    if linked:  # a link to a pipe elsewhere in the project was skipped alike (the thirty-ninth probe)
        (scratch / "fifos").mkdir()
        os.mkfifo(scratch / "fifos" / "p.fifo")
        (scratch / "overrides" / "partials" / "footer.html").symlink_to("../../fifos/p.fifo")
    else:
        os.mkfifo(scratch / "overrides" / "partials" / "footer.html")
    (scratch / "mkdocs.yml").write_text("site_name: x\ntheme:\n  custom_dir: overrides\n", encoding="utf-8")
    said = (
        f"rulebook: error: {scratch / 'mkdocs.yml'}:3: `theme.custom_dir` names `overrides`, which holds "
        "`partials/footer.html`, neither a file nor a folder (a named pipe, a device or a socket), which the theme "
        "skipped without a word: take it out, or make it a file\n"
    )
    for command in ("lint", "build"):
        outcome = refused(capsys, scratch, command)
        assert outcome.err.endswith(said), outcome.err
    assert not (scratch / "site").exists()


@pytest.mark.parametrize(
    "extensions",
    [
        "markdown_extensions:\n  - admonition\n",
        "markdown_extensions:\n  toc:\n    permalink: true\n",
        "markdown_extensions:\n",
    ],
)
def test_a_projects_markdown_extensions_without_attr_list_still_give_headings_their_ids(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    extensions: str,
) -> None:
    """A project's ``markdown_extensions`` replaces the defaults' list: without ``attr_list`` every heading showed
    ``{ #marching }`` as text and lost its id (links to it missed). The build adds what its pages are written for."""
    source(scratch, "book.xml", BOOK)
    (scratch / "mkdocs.yml").write_text("site_name: x\n" + extensions, encoding="utf-8")
    assert run(capsys, "build", "--no-pdf").code == 0
    page = (scratch / "site" / "moving" / "index.html").read_text(encoding="utf-8")
    assert 'id="marching"' in page
    assert "{ #marching }" not in page


def test_an_inherited_settings_file_is_read_inside_the_project_and_checked_as_its_own(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``INHERIT`` of a file inside the project is read (its settings reach the site) and its paths are checked
    where it says them; a file inheriting itself is a plain error, not an endless read."""
    source(scratch, "book.xml", BOOK)
    (scratch / "look").mkdir()
    (scratch / "look" / "base.yml").write_text("site_name: x\ncopyright: Inherited words\n", encoding="utf-8")
    (scratch / "mkdocs.yml").write_text("INHERIT: look/base.yml\n", encoding="utf-8")
    assert run(capsys, "build", "--no-pdf").code == 0
    assert "Inherited words" in (scratch / "site" / "index.html").read_text(encoding="utf-8")
    (scratch / "look" / "base.yml").write_text("theme:\n  custom_dir: ../../etc\n", encoding="utf-8")
    outcome = run(capsys, "build", "--no-pdf")
    assert (outcome.code, outcome.err.splitlines()[-1]) == (
        2,
        f"rulebook: error: {scratch / 'look' / 'base.yml'}:2: `theme.custom_dir` names `../../etc`, which is outside "
        "the project: the folders and files base.yml names stay inside the project",
    )
    (scratch / "mkdocs.yml").write_text("INHERIT: mkdocs.yml\n", encoding="utf-8")
    outcome = run(capsys, "build", "--no-pdf")
    assert (outcome.code, outcome.err.splitlines()[-1]) == (
        2,
        f"rulebook: error: {scratch / 'mkdocs.yml'}: `INHERIT` makes a chain of more than 10 files (or a cycle)",
    )


def test_a_setting_deep_in_lists_is_placed_by_reading_the_settings_once(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The line of a refused setting 95 lists deep read the whole settings again for each level (150 KB: the lint
    62 s; the forty-sixth probe): once now."""
    import yaml

    composed = []
    compose = yaml.compose
    monkeypatch.setattr(yaml, "compose", lambda *args, **kwargs: composed.append(1) or compose(*args, **kwargs))
    source(scratch, "book.xml", BOOK)
    deep = '"\\x01"'
    for _ in range(95):
        deep = "[{a: " + deep + "}]"
    (scratch / "mkdocs.yml").write_text("site_name: x\nextra:\n  deep:\n  - " + deep + "\n", encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and f"{scratch / 'mkdocs.yml'}:3: `extra.deep.a.a.a" in outcome.err, outcome.err
    assert len(composed) <= 10, len(composed)  # a few readings of the settings, not one a level (196)


@pytest.mark.parametrize("command", [("lint",), ("build", "-q", "--no-pdf"), ("lint", "-o", "report.txt")])
def test_the_settings_bound_holds_for_the_files_they_inherit_together(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    command: tuple[str, ...],
) -> None:
    """The 1 MB bound on the settings was each file's: ten files of 900 KB inheriting each other were read in 73 s
    (the forty-sixth probe). It holds for them together."""
    source(scratch, "book.xml", BOOK)
    pad = "".join(f"# {n:07d} a comment to fill the file\n" for n in range(10_000))  # 400 KB
    (scratch / "mkdocs.yml").write_text(f"INHERIT: a.yml\n{pad}", encoding="utf-8")
    (scratch / "a.yml").write_text(f"INHERIT: b.yml\n{pad}", encoding="utf-8")
    (scratch / "b.yml").write_text(f"site_name: x\n{pad}", encoding="utf-8")
    outcome = run(capsys, *command)
    assert outcome.code == 2, outcome
    assert f"{scratch / 'b.yml'}: the settings and the files they inherit (`INHERIT`) hold more than 1,048,576" in (
        outcome.err
    )
    (scratch / "b.yml").write_text("site_name: x\n", encoding="utf-8")
    again = run(capsys, *command)
    assert again.code != 2 and "INHERIT" not in again.err, again  # the lint's finding of the book: exit 1


@pytest.mark.parametrize(
    ("name", "said"),
    [
        ("b" * 300 + ".json", "has a name longer than 255 bytes, the longest a file's name may be"),
        ("old/" + "b" * 256 + "/x.json", "has a name longer than 255 bytes, the longest a file's name may be"),
        ("b/" * 2100 + "x.json", "is longer than 4096 bytes, the longest path"),
    ],
)
@pytest.mark.parametrize(("option", "what"), [("--baseline", "the baseline"), ("--config", "the configuration file")])
def test_a_file_named_as_no_system_could_open_is_an_error_not_a_missing_file(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    name: str,
    said: str,
    option: str,
    what: str,
) -> None:
    """``lint --baseline`` of 300 characters said the baseline "does not exist" and showed every problem with exit
    0 (``--config`` said it did not exist): no file of that name can be, so it is a plain error, as ``build -o`` of
    such a name is."""
    source(scratch, "book.xml", BOOK)
    with nothing_written_outside(scratch):
        outcome = run(capsys, "lint", option, name)
    shown = name if len(name) <= QUOTE_LIMIT else name[:39] + "…" + name[-20:]
    assert (outcome.code, outcome.out, outcome.err) == (2, "", f"rulebook: error: {what} `{shown}` {said}\n")


@pytest.mark.parametrize(
    "table",
    [
        '[tool]\nrulebook = {sources = ["book.xml"]}\n',
        'tool.rulebook.sources = ["book.xml"]\n',
        '[ tool."rulebook" ]\nsources = ["book.xml"]\n',
        '[tool.rulebook.lint]\nignore = []\n[tool.rulebook]\nsources = ["book.xml"]\n',
    ],
)
def test_a_pyproject_writing_its_table_another_way_is_the_project(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    table: str,
) -> None:
    """Found by looking for the characters `[tool.rulebook`: any other way TOML writes the table was "no rulebook
    project here: no rulebook.toml, nor a pyproject.toml with [tool.rulebook]"."""
    source(scratch, "book.xml", BOOK)
    (scratch / "rulebook.toml").unlink()
    (scratch / "pyproject.toml").write_text(f'{table}\n[project]\nname = "rules"\n', encoding="utf-8")
    lint = run(capsys, "lint")
    assert (lint.code, lint.err) == (1, "") and lint.out.endswith("in 1 file.\n")  # the book's own findings
    (scratch / "pyproject.toml").write_text('# not [tool.rulebook] yet\n[project]\nname = "rules"\n', encoding="utf-8")
    assert run(capsys, "lint").err.startswith("rulebook: error: no rulebook project here")


@pytest.mark.parametrize(
    ("lines", "where"),
    [
        ('sources = ["book.xml"]\nlanguage = ""\n', "top level"),
        ('sources = ["book.xml"]\nlanguage = " "\n', "top level"),
        ('sources = ["book.xml"]\n[books.more]\nsources = ["book.xml"]\nlanguage = ""\n', "books.more"),
    ],
)
def test_an_empty_language_is_refused_not_english_in_silence(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    lines: str,
    where: str,
) -> None:
    """``language = ""`` was read as English, with no word (``title = ""`` warns): it is refused, as a code that
    is no language code is."""
    configured(scratch, BOOK, lines)
    outcome = run(capsys, "lint")
    assert outcome == (
        2,
        "",
        f"rulebook: error: rulebook.toml: `language` in [{where}] is empty: write the book's language code, such as "
        "`en` or `fr`\n",
    )


@pytest.mark.parametrize("value", ["1e9", "-5", "1.5", "253402300800", "99999999999999999999"])
@pytest.mark.parametrize("argv", [("build", "--no-pdf"), ("build", "--pdf-only")], ids=["site", "pdf"])
def test_a_source_date_epoch_that_is_no_date_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    value: str,
    argv: tuple[str, ...],
) -> None:
    """A CI's ``SOURCE_DATE_EPOCH`` that is not a whole number of seconds, or dates past the year 9999, stopped the
    build with an internal error (MkDocs' ``int()``, the PDF's date: ``ValueError``, ``OverflowError``)."""
    source(scratch, "book.xml", BOOK)
    monkeypatch.setenv("SOURCE_DATE_EPOCH", value)
    outcome = run(capsys, *argv)
    assert outcome.code == 2
    assert f"rulebook: error: SOURCE_DATE_EPOCH is `{value}`, not a date: " in outcome.err, outcome.err
    assert "internal error" not in outcome.err
    assert not (scratch / "site").exists()


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", ":UTC"])
def test_a_time_zone_named_like_a_committed_file_never_reads_it(
    scratch: Path,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
    zone: str,
) -> None:
    """Babel, imported by MkDocs, read the local time zone from the file ``TZ`` names, relative to the working
    folder: a CI's ``TZ=UTC`` and a committed ``UTC -> /dev/zero`` stopped the build with an internal error
    (``Invalid TZif file``); a link to the standard input hung it. In a process of its own: Babel reads the zone
    once, when first imported."""
    source(scratch, "book.xml", BOOK)
    named = scratch / zone.lstrip(":")
    named.parent.mkdir(parents=True, exist_ok=True)
    named.symlink_to("/dev/zero")
    monkeypatch.setenv("TZ", zone)
    outcome = run_guarded(scratch, "build", "--no-pdf", "-q")
    assert outcome.code == 0, outcome.err
    assert (scratch / "site" / "index.html").is_file()


@pytest.mark.parametrize(
    "written", ["x." + ".".join(["a"] * 50_000) + " = 1\n", "[" + ".".join(["a"] * 50_000) + "]\n"]
)
def test_a_key_of_thousands_of_parts_is_refused_at_once(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    written: str,
) -> None:
    """Python's TOML reader grows with the square of one key's parts: a line ``x.a.a.… = 1`` of 50,000 parts (100
    KB) took 46 s and 9.8 GB (the fifteenth probe). Past 256 parts the file is refused, named at the line."""
    configured(scratch, BOOK, 'sources = ["book.xml"]\n' + written)
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert outcome.err.endswith(
        "rulebook.toml:2: a key of more than 256 parts (`a.b.c` has three), more than any file the compiler reads "
        "needs\n"
    ), outcome.err


@pytest.mark.parametrize(
    ("fault", "said"),
    [("missing", "error[RB003]: cannot read `fr.md`"), ("not UTF-8", "error[RB003]: the file is not valid UTF-8")],
)
def test_a_translation_that_cannot_be_read_stops_the_build_and_the_last_site_is_kept(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    fault: str,
    said: str,
) -> None:
    # A translation whose source was missing was left out of the site with exit 0 and "Built 1 book" (the
    # eighteenth probe): a CI published the site without its pages, and the next deploy took them off the web.
    source(scratch, "book.xml", BOOK)
    (scratch / "fr.md").write_text("# Se déplacer\n\n## Marcher\n\nMarcher, c'est avancer.\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[translations.fr]\nsource = "fr.md"\n', encoding="utf-8"
    )
    assert run(capsys, "build", "-q", "--no-pdf").code in (0, 1)
    built = sorted(path.relative_to(scratch / "site") for path in (scratch / "site").rglob("*"))
    assert Path("fr/index.html") in built
    if fault == "missing":
        (scratch / "fr.md").unlink()
    else:
        (scratch / "fr.md").write_bytes(b"# Se d\xe9placer\n")
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert said in outcome.err
    assert "the last good site is kept" in outcome.err
    assert sorted(path.relative_to(scratch / "site") for path in (scratch / "site").rglob("*")) == built


def test_a_command_line_of_thousands_of_arguments_is_refused_before_it_is_parsed(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """argparse's time grows with the square of the options given: 40,000 `--waive` took `compare` 30 s of CPU
    before a file was read (the nineteenth probe); the engine's repeated options were bounded, the others not."""
    from rulebook.cli import MAX_ARGUMENTS

    source(scratch, "book.xml", BOOK)
    outcome = run(capsys, "lint", *["-q"] * (MAX_ARGUMENTS - 1))
    assert outcome.code == 1  # read: the book's dangling reference found
    outcome = run(capsys, "lint", *["-q"] * MAX_ARGUMENTS)
    assert outcome.code == 2
    assert outcome.err.startswith(f"rulebook: error: {MAX_ARGUMENTS + 1:,} arguments, more than the 5,000")


def test_rule_data_larger_than_the_engine_reads_stops_the_build(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A 1.3 MB book of definitions each using the next made a 68 MB rules.json, past the 64 MB the engine reads:
    the build published it with exit 0, and every engine question was refused (the nineteenth probe). Here the
    limit is made small, for a small book."""
    from rulebook.recipe import stages

    monkeypatch.setattr(stages, "MAX_RULES_BYTES", 1_000)
    source(scratch, "book.xml", BOOK)
    outcome = run(capsys, "build", "-q", "--data-only")
    assert outcome.code == 2
    assert "bytes, more than the 1,000 the engine reads" in outcome.err
    assert not (scratch / "site").exists()


@pytest.mark.parametrize(
    ("mkdocs", "said"),
    [
        ("theme:\n  icon:\n    logo: nosuch/icon\n", "3: `theme.icon.logo` names the icon `nosuch/icon`, which"),
        ("theme:\n  icon:\n    admonition:\n      note: ../../../etc/x\n", "4: `theme.icon.admonition.note` names"),
        ("extra:\n  social:\n    - icon: fontawesome/brands/nosuch\n", "2: `extra.social.icon` names the icon"),
        ("theme:\n  icon:\n    logo: !ENV [RULEBOOK_TEST_SECRET]\n", "3: `theme.icon.logo` names an icon the theme"),
    ],
)
def test_an_icon_the_theme_lacks_is_refused_naming_the_key_not_a_failed_write(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mkdocs: str,
    said: str,
) -> None:
    """An icon Material lacks stopped the build with "cannot write the site into `site`", the template's name and
    no file, line or key, and showed an ``!ENV`` value (a secret) lower-cased in the log, past its masking."""
    monkeypatch.setenv("RULEBOOK_TEST_SECRET", "https://Secret/Token")
    source(scratch, "book.xml", BOOK)
    (scratch / "mkdocs.yml").write_text(mkdocs, encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert f"rulebook: error: {scratch / 'mkdocs.yml'}:{said}" in outcome.err
    assert "secret" not in outcome.err.lower() and "cannot write" not in outcome.err
    assert not (scratch / "site").exists()


def test_an_icon_of_the_theme_or_of_its_custom_folder_is_taken(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "look" / ".icons" / "own").mkdir(parents=True)
    (scratch / "look" / ".icons" / "own" / "shield.svg").write_text(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M1 1h22v22z"/></svg>', encoding="utf-8"
    )
    (scratch / "mkdocs.yml").write_text(
        "theme:\n  custom_dir: look\n  icon:\n    logo: own/shield\n    repo: material/library\n", encoding="utf-8"
    )
    assert run(capsys, "build", "--no-pdf").code == 0
    assert "M1 1h22v22z" in (scratch / "site" / "index.html").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("mkdocs", "said"),
    [
        ("repo_url: 5\n", "Config value 'repo_url': Expected a string"),
        ("markdown_extensions:\n  - nosuchext\n", "Failed to load extension 'nosuchext'"),
        ("plugins:\n  - nosuchplugin\n", 'The "nosuchplugin" plugin is not installed'),
        ("theme:\n  features: 5\n", "the theme's template `header.html:5` failed on a setting of mkdocs.yml"),
        ("extra:\n  social:\n    - icon: 7\n", "the theme's template `social.html:15` failed on a setting"),
        ("theme:\n  palette: 5\n", "mkdocs.yml:2: `theme.palette` must be a mapping, or a list of mappings"),
        ("theme:\n  language: xx-nosuch\n", "the theme has no template `partials/languages/xx-nosuch.html`"),
        ("theme:\n  language: !ENV RULEBOOK_TEST_SECRET\n", "the theme has no template `partials/languages/***.html`"),
    ],
)
def test_a_setting_of_mkdocs_yml_the_generator_refuses_is_told_with_its_reason_never_a_secret(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mkdocs: str,
    said: str,
) -> None:
    """MkDocs said only "Aborted with a configuration error!" (the reason went to a log the build kept), a value of
    the wrong kind was an internal error in the theme's template, and a language the theme lacks quoted an `!ENV`
    value into the log (the twenty-first probe): each a plain error with its reason, the environment's values
    masked."""
    monkeypatch.setenv("RULEBOOK_TEST_SECRET", "Top-Secret-Token")
    source(scratch, "book.xml", BOOK)
    (scratch / "mkdocs.yml").write_text(mkdocs, encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert said in outcome.err
    assert "internal error" not in outcome.err and "secret" not in outcome.err.lower()


@pytest.mark.parametrize(
    ("mkdocs", "said"),
    [
        ("theme: [material]\n", "mkdocs.yml:1: `theme` must be a mapping of the theme's settings, or the theme's"),
        ("theme:\n  custom_dir: 5\n", "mkdocs.yml:2: `theme.custom_dir` names a file or folder: write its path"),
        ("extra_css: [{a: 1}]\n", "mkdocs.yml:1: `extra_css` must be a list of file names (text)"),
        ("extra:\n  social: 5\n", "the theme's template `social.html:13` failed on a setting of mkdocs.yml (TypeError"),
        ("hooks: [hooks.py]\n", "a hook of mkdocs.yml failed at `hooks.py:2` (ValueError: boom)"),
        ("INHERIT: !ENV RULEBOOK_TEST_SECRET\n", "cannot read `"),
    ],
)
def test_what_mkdocs_its_theme_or_a_hook_raises_on_the_settings_is_theirs_not_a_bug(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    mkdocs: str,
    said: str,
) -> None:
    """A value of the wrong kind that MkDocs' own code trips on, or a project's hook that raises, was "internal
    error ... a bug in the rulebook compiler"; `INHERIT: !ENV SECRET` quoted the secret (the twenty-second probe)."""
    monkeypatch.setenv("RULEBOOK_TEST_SECRET", "look/Top-Secret-Token.yml")
    source(scratch, "book.xml", BOOK)
    (scratch / "hooks.py").write_text('def on_config(config):\n    raise ValueError("boom")\n', encoding="utf-8")
    (scratch / "mkdocs.yml").write_text(mkdocs, encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert said in outcome.err
    assert "internal error" not in outcome.err and "secret" not in outcome.err.lower()


def test_yaml_aliases_of_aliases_in_mkdocs_yml_are_refused_before_they_expand(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """499 bytes of aliases of aliases took MkDocs 106 s and 11 GB (the twenty-second probe): counted, not expanded."""
    text = "site_name: x\nextra:\n  a0: &a0 [x,x,x,x,x,x,x,x,x]\n"
    for level in range(1, 9):
        text += f"  a{level}: &a{level} [" + ",".join([f"*a{level - 1}"] * 9) + "]\n"
    source(scratch, "book.xml", BOOK)
    (scratch / "mkdocs.yml").write_text(text, encoding="utf-8")
    outcome = refused(capsys, scratch, "build", "--no-pdf")
    assert "its settings come to more than 100,000 values (each YAML alias, `*name`, counted as it" in outcome.err
    (scratch / "mkdocs.yml").write_text("site_name: x\nextra:\n  a: &a [1, 2]\n  b: [*a, *a]\n", encoding="utf-8")
    assert run(capsys, "build", "--no-pdf", "-q").code == 0


@pytest.mark.parametrize(("key", "most"), [("title", 300), ("copyright", 1_000), ("edition", 300)])
def test_a_configured_line_on_every_page_is_bounded(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    key: str,
    most: int,
) -> None:
    """A 1 MB copyright line made a site of 207 MB, a 1 MB title one of 324 MB (the twenty-second probe)."""
    source(scratch, "book.xml", BOOK)
    config = (scratch / "rulebook.toml").read_text(encoding="utf-8")
    (scratch / "rulebook.toml").write_text(f'{key} = "{"x" * most}"\n' + config, encoding="utf-8")
    assert run(capsys, "lint").code in (0, 1)
    (scratch / "rulebook.toml").write_text(f'{key} = "{"x" * (most + 1)}"\n' + config, encoding="utf-8")
    for command in ("lint", "build"):
        outcome = run(capsys, command)
        assert outcome.code == 2
        assert f"`{key}` in [top level] has {most + 1:,} characters, more than the {most:,} it may have" in outcome.err


def test_a_word_of_the_site_on_every_page_is_bounded(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A `strings.toml` word of a megabyte went into every page (the twenty-second probe)."""
    source(scratch, "book.xml", BOOK)
    (scratch / "site_templates").mkdir()
    (scratch / "site_templates" / "strings.toml").write_text(f'[en]\nhome = "{"x" * 1_001}"\n', encoding="utf-8")
    outcome = run(capsys, "build", "--no-pdf")
    assert outcome.code == 2
    assert "`home` in [en] has 1,001 characters, more than the 1,000 the site's words may have" in outcome.err
    (scratch / "site_templates" / "strings.toml").write_text(f'[en]\nhome = "{"x" * 1_000}"\n', encoding="utf-8")
    assert run(capsys, "build", "--no-pdf", "-q").code == 0


def test_a_configuration_given_as_a_pipe_or_a_folder_is_told_as_such(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``--config /dev/stdin`` (or ``<(...)``) resolved through the kernel's link into ``pipe:[1180956]`` and was
    told "no such file or directory"."""
    import os

    source(scratch, "book.xml", BOOK)
    os.mkfifo(scratch / "pipe.toml")
    for given, what in (
        ("pipe.toml", "not a regular file (a device, a pipe or a socket)"),
        (".", "a folder, not a file"),
    ):
        outcome = run(capsys, "lint", "--config", given)
        assert (outcome.code, outcome.err) == (
            2,
            f"rulebook: error: cannot read the configuration `{os.path.abspath(given)}`: it is {what}\n",
        )


def test_a_plugin_that_cannot_fetch_is_told_so_not_as_a_wrong_kind_of_value(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Material's ``info`` plugin asks GitHub for the latest release: offline, its ``ConnectionError`` was told as
    "check the kinds of its values", a frame of ``requests`` as the place."""
    import requests
    from material.plugins.info import plugin as info

    real = requests.get

    def offline(*args: object, **kwargs: object) -> requests.Response:
        return real("http://127.0.0.1:9/", timeout=5)  # nothing listens there: refused at once, inside requests

    monkeypatch.setattr(info.requests, "get", offline)
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    (scratch / "mkdocs.yml").write_text("site_name: x\nplugins: [search, info]\n", encoding="utf-8")
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert outcome.err.startswith(
        "rulebook: error: MkDocs could not build the site: a plugin or extension of mkdocs.yml failed to read or "
        "fetch what it needs (ConnectionError: "
    )
    assert "kinds of its values" not in outcome.err


def test_a_disk_full_under_the_generator_is_told_as_a_write_that_failed(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The output's disk full while MkDocs copied the theme's files was told as "a plugin or extension of mkdocs.yml
    failed to read or fetch what it needs ... the build has no network": it is a write that failed, said so."""
    import errno
    import shutil

    real = shutil.copyfile

    def full(source: str, target: str, **kwargs: object) -> str:
        if str(target).endswith(".js.map"):
            raise OSError(errno.ENOSPC, "No space left on device", str(target))
        return real(source, target, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(shutil, "copyfile", full)
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2
    assert "no space left on device" in outcome.err and "network" not in outcome.err, outcome.err


def test_a_settings_tag_that_calls_code_is_refused_and_a_named_function_kept(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``custom_dir: !!python/object/apply:os.system [...]`` ran the command on `rulebook lint` (MkDocs reads its YAML
    with PyYAML's unsafe loader): refused; Material's ``emoji_index: !!python/name:...`` is kept."""
    source(scratch, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    ran = scratch / "RAN"
    (scratch / "mkdocs.yml").write_text(
        f'theme:\n  name: material\n  custom_dir: !!python/object/apply:os.system ["touch {ran}"]\n', encoding="utf-8"
    )
    run(capsys, "lint", "-o", "report.txt")  # reads the settings for the folders they name
    assert not ran.exists()
    outcome = run(capsys, "build", "-q", "--no-pdf")
    assert outcome.code == 2 and "could not determine a constructor" in outcome.err, outcome.err
    assert not ran.exists()
    (scratch / "mkdocs.yml").write_text(
        "markdown_extensions:\n  - pymdownx.emoji:\n      emoji_index: !!python/name:material.extensions.emoji.twemoji\n"
        "      emoji_generator: !!python/name:material.extensions.emoji.to_svg\n",
        encoding="utf-8",
    )
    assert run(capsys, "build", "-q", "--no-pdf").code == 0


def test_a_configuration_of_another_user_found_above_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A shared folder (`/tmp`, a multi-user workspace) holding another user's project: `rulebook lint` in a folder
    below used its configuration, whose mkdocs.yml chose what ran, as the caller (Git refuses such a repository:
    `safe.directory`). Refused, naming the file; `--config` names it deliberately."""
    import os

    shared = tmp_path / "shared"
    (shared / "mine").mkdir(parents=True)
    source(shared, "book.xml", BOOK.replace('<reference name="charge">Charge</reference>', ""))
    real = os.stat

    def theirs(path: object, *args: object, **kwargs: object) -> os.stat_result:
        found = real(path, *args, **kwargs)  # type: ignore[arg-type]
        if str(path).endswith("rulebook.toml"):
            return os.stat_result((found.st_mode, found.st_ino, found.st_dev, 1, os.geteuid() + 1, *found[5:10]))
        return found

    monkeypatch.setattr(os, "stat", theirs)
    monkeypatch.chdir(shared / "mine")
    outcome = run(capsys, "lint")
    assert (outcome.code, outcome.err) == (
        2,
        f"rulebook: error: `{shared / 'rulebook.toml'}` belongs to another user: its settings would be theirs to "
        "choose for you; work in a folder of your own, or name it with `--config` to use it\n",
    )
    assert run(capsys, "lint", "--config", str(shared / "rulebook.toml")).code == 0


def test_a_book_of_more_sources_than_a_book_may_have_is_refused_before_they_are_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """40,000 `sources` (752 KB of configuration, every one missing) held the lint 13 s and printed 3.9 MB of errors
    (the thirty-third probe): a book names at most 5,000 files, counted before each is looked at."""
    names = ", ".join(f'"rules/part{n}.xml"' for n in range(5_001))
    (scratch / "rulebook.toml").write_text(f"sources = [{names}]\n", encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and outcome.out == ""
    assert "`sources` in [top level] names 5,001 files, more than the 5,000 a book may have" in outcome.err


def test_a_source_named_again_through_a_link_is_refused_before_it_is_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A file is read once, whatever names it: 100 committed links to one source of 1 MB (`rules/bK.md -> big.md`)
    made the lint and the build read it 100 times (64 s; the thirty-fourth probe)."""
    source(scratch, "big.xml", BOOK)
    (scratch / "again.xml").symlink_to("big.xml")
    (scratch / "rulebook.toml").write_text('sources = ["big.xml", "again.xml"]\n', encoding="utf-8")
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        outcome = run(capsys, *command)
        assert outcome.code == 2, outcome
        assert "`sources` in [top level] names `again.xml`, which leads to the file `big.xml` names" in outcome.err


@pytest.mark.parametrize("value", ['!!timestamp "x"', '!!bool "x"', '!!int ""', '!!float ""'])
def test_a_front_matter_value_yaml_cannot_make_is_a_located_finding(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    value: str,
) -> None:
    """PyYAML's constructors raise AttributeError, KeyError or IndexError of a tagged value they cannot make: an
    internal error in `lint`, `build`, `convert` and `serve` (which stopped serving; the thirty-fifth probe)."""
    (scratch / "book.md").write_text(
        f'---\ntitle: "T"\nd: {value}\n---\n\n<!-- rulebook -->\n\n# Rules {{#rules}}\n\nText.\n', encoding="utf-8"
    )
    (scratch / "rulebook.toml").write_text('sources = ["book.md"]\n', encoding="utf-8")
    outcome = run(capsys, "lint", "--color", "never")
    assert outcome.code == 1 and "error[RB002]: the front matter is not YAML" in outcome.out
    assert "internal error" not in outcome.err


def test_a_file_two_books_name_through_links_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Books naming links to one source each read it (30 books, one source of 1 MB: 21 s; the thirty-fifth probe)."""
    source(scratch, "big.xml", BOOK)
    (scratch / "again.xml").symlink_to("big.xml")
    (scratch / "rulebook.toml").write_text(
        'sources = ["big.xml"]\n[books.other]\nsources = ["again.xml"]\n', encoding="utf-8"
    )
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert "`sources` of book `other` names `again.xml`, a file book `main` reads as its source" in outcome.err


@pytest.mark.parametrize(
    ("layout", "said"),
    [
        ("side by side", "the translations `de` and `fr` of book `main` are in one folder, `rules/`"),
        ("through a link", "the translations `de` and `fr` of book `main` are in one folder, `rules/`"),
        ("two books", "the translations `fr` of book `main` and `fr` of book `other` are in one folder, `rules/`"),
    ],
    ids=["side-by-side", "link", "two-books"],
)
def test_two_translations_in_one_folder_are_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    layout: str,
    said: str,
) -> None:
    """Two translations side by side shared the status file beside them (no setting names another), and the
    terminology and waivers unless named: `compare --waive` and `status --mark` were refused for both, each file
    being the other's (the forty-third probe's note). Each translation in a folder of its own is read."""
    (scratch / "rules").mkdir()
    source(scratch, "rules/big.xml", BOOK)
    source(scratch, "rules/other.xml", BOOK.replace('id="', 'id="o-'))
    for name in ("fr.md", "de.md"):
        (scratch / "rules" / name).write_text("# Règles\n\nTexte.\n", encoding="utf-8")
    if layout == "through a link":
        (scratch / "rules" / "de").symlink_to(".")
    de = "rules/de/de.md" if layout == "through a link" else "rules/de.md"
    translations = {
        "side by side": f'[translations.fr]\nsource = "rules/fr.md"\n[translations.de]\nsource = "{de}"\n',
        "through a link": f'[translations.fr]\nsource = "rules/fr.md"\n[translations.de]\nsource = "{de}"\n',
        "two books": '[translations.fr]\nsource = "rules/fr.md"\n'
        '[books.other]\nsources = ["rules/other.xml"]\n[books.other.translations.fr]\nsource = "rules/de.md"\n',
    }[layout]
    (scratch / "rulebook.toml").write_text(f'sources = ["rules/big.xml"]\n{translations}', encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2 and said in outcome.err, outcome.err
    assert "give each translation a folder of its own" in outcome.err
    (scratch / "rules" / "own").mkdir()
    (scratch / "rules" / "de.md").rename(scratch / "rules" / "own" / "de.md")
    fixed = translations.replace(f'source = "{de}"', 'source = "rules/own/de.md"').replace(
        'source = "rules/de.md"', 'source = "rules/own/de.md"'
    )
    (scratch / "rulebook.toml").write_text(f'sources = ["rules/big.xml"]\n{fixed}', encoding="utf-8")
    assert "in one folder" not in run(capsys, "lint").err


def test_a_configured_path_stepping_back_out_of_a_link_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path_factory: pytest.TempPathFactory,
) -> None:
    """`sources = ["rules/l/../book.md"]`, `rules/l` a committed link out: checked by its text (`rules/book.md`), read
    through the link (the book beside its target): a file outside the project was published (the thirty-sixth
    probe), and `.git/config` read as a source through a link into `.git`."""
    outside = tmp_path_factory.mktemp("victim")
    (outside / "d").mkdir()
    (outside / "book.xml").write_text(BOOK.replace("march", "secret"), encoding="utf-8")
    (scratch / "rules").mkdir()
    (scratch / "rules" / "l").symlink_to(outside / "d")
    source(scratch, "rules/book.xml", BOOK)
    (scratch / "rulebook.toml").write_text('sources = ["rules/l/../book.xml"]\n', encoding="utf-8")
    for command in (("lint",), ("build", "-q", "--no-pdf")):
        outcome = run(capsys, *command)
        assert outcome.code == 2 and "secret" not in outcome.out + outcome.err, outcome
        assert "whose `..` steps back out of `rules/l`, a symbolic link" in outcome.err
    assert not (scratch / "site").exists()


def test_a_source_named_through_a_loop_of_links_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A committed `loop -> loop` named as a source: "internal error: RuntimeError: Symlink loop" (the thirty-sixth
    probe), a pull request breaking CI; the same on the command line."""
    (scratch / "loop").symlink_to("loop")
    (scratch / "rulebook.toml").write_text('sources = ["loop/x.md"]\n', encoding="utf-8")
    for command in (("lint",), ("build", "-q", "--no-pdf"), ("lint", "loop/y.md"), ("init", "loop/p")):
        outcome = run(capsys, *command)
        assert outcome.code == 2 and "internal error" not in outcome.err, (command, outcome)
        assert "loop" in outcome.err
    (scratch / "rulebook.toml").write_text('sources = ["loop/x.md"]\n', encoding="utf-8")
    outcome = run(capsys, "lint")
    assert "`sources` in [top level] names `loop/x.md`, whose way goes round a loop of symbolic links" in outcome.err
