"""A contributor's links and odd files among the project's inputs, and a scaffold asked for odd things.

Git stores symbolic links, so a pull request can replace a source by a link to the build machine's
secrets: nothing read through a link that leaves the project may reach the site or the log.
"""

from __future__ import annotations

import html
import json
import os
from pathlib import Path

import pytest

from .scratch import configure, refused, run, scratch, source  # noqa: F401 (fixtures)
from .test_report_files import BOOK

SECRET = "GH_TOKEN=ghp_not_a_real_secret"


@pytest.mark.parametrize("command", ["lint", "build"])
def test_a_source_linked_out_of_the_project_is_not_read(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    command: str,
) -> None:
    outside = tmp_path_factory.mktemp("outside") / "environ.md"
    outside.write_text(f"<!-- rulebook -->\n# Secrets\n\n{SECRET}\n", encoding="utf-8")
    (scratch / "rules").mkdir()
    (scratch / "rules" / "book.md").symlink_to(outside)
    (scratch / "rulebook.toml").write_text('sources = ["rules/book.md"]\n', encoding="utf-8")
    outcome = refused(capsys, scratch, command, *(("--color", "never") if command == "lint" else ()))
    shown = outcome.out + outcome.err
    assert "cannot read `rules/book.md`: it is a link to a place outside the project" in shown
    assert SECRET not in shown
    assert not (scratch / "site").exists()


def test_a_source_that_is_a_device_is_not_read(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    os.mkfifo(scratch / "book.xml")  # reading it would wait forever
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    outcome = run(capsys, "lint", "--color", "never")
    assert outcome.code == 2
    assert "cannot read `book.xml`: it is not a regular file" in outcome.out


def test_an_output_inside_a_linked_folder_is_refused(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    outside = tmp_path_factory.mktemp("outside")
    (scratch / "out").symlink_to(outside)
    outcome = run(capsys, "build", "-o", "out/site")
    assert outcome.code == 2
    assert "the output `out/site` is inside `out`, a symbolic link" in outcome.err
    (scratch / "site").symlink_to(outside)
    (scratch / "rulebook.toml").write_text('output = "site"\nsources = ["book.xml"]\n', encoding="utf-8")
    outcome = run(capsys, "build")
    assert outcome.code == 2
    assert "the output `site` is a symbolic link" in outcome.err
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        ('[model]\npreferred = "figurine"\naccepted = 5\n', "`accepted` of `model` must be a list of phrases"),
        ('[model]\npreferred = "figurine"\nforbidden = [{a = 1}]\n', "`forbidden` of `model` must be a list"),
        (b"\xff\xfe", "not UTF-8 text"),
        # a misspelt key forbade nothing, and nothing said so
        ('[model]\npreferred = "figurine"\nforbiden = ["modèle"]\n', "`forbiden` is not a key of a term's entry"),
    ],
)
def test_a_bad_terminology_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    terms: str | bytes,
    said: str,
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "fr.md").write_text("# 1 Bouger\n\nMarcher, c'est bouger.\n", encoding="utf-8")
    (scratch / "terms.toml").write_bytes(terms.encode("utf-8") if isinstance(terms, str) else terms)
    outcome = run(capsys, "compare", "--language", "fr", "--terms", "terms.toml", "book.xml", "fr.md")
    assert outcome.code == 2
    assert said in outcome.err


@pytest.mark.parametrize("character", ["\u202e", "\u200f", "\u2066", "\u2028", "\x85", "\x1b"])
@pytest.mark.parametrize("command", ["init", "new-book"])
def test_a_title_holding_what_a_page_shows_as_a_picture_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    character: str,
    command: str,
) -> None:
    """A right-to-left override, mark or isolate, or a line separator, was written raw into the configuration (and
    the front matter) with exit 0, and every page showed it as ``�``; the C0 and C1 controls were refused already."""
    if command == "new-book":
        source(scratch, "book.xml", BOOK)
    kept = sorted(scratch.rglob("*"))
    argv = ["init", "game"] if command == "init" else ["new-book", "extra"]
    outcome = run(capsys, *argv, "--title", f"Rules {character}of war")
    assert outcome.code == 2
    assert outcome.err == (
        "rulebook: error: a title is one line of text, without control or bidirectional characters (a page shows each "
        "as a picture)\n"
    )
    assert sorted(scratch.rglob("*")) == kept


@pytest.mark.parametrize(
    ("title", "said"),
    [
        ("T" * 100_000, "the title has 100,000 characters, more than the 300 a title may have (it is on every page)"),
        ("   ", "the title is blank: give one with --title; nothing was made"),
    ],
    ids=["long", "blank"],
)
@pytest.mark.parametrize("command", ["init", "new-book"])
def test_a_title_the_configuration_would_refuse_is_refused_when_it_is_written(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    title: str,
    said: str,
    command: str,
) -> None:
    """`init --title` of 100,000 characters made a project (exit 0) every later command refused ("`title` ... more
    than the 300 it may have"); `new-book` wrote it into the book's front matter. A blank title was told as one
    holding control characters."""
    if command == "new-book":
        source(scratch, "book.xml", BOOK)
    kept = sorted(scratch.rglob("*"))
    argv = ["init", "game"] if command == "init" else ["new-book", "extra"]
    outcome = run(capsys, *argv, "--title", title)
    assert outcome.code == 2 and said in outcome.err, outcome.err
    assert sorted(scratch.rglob("*")) == kept


@pytest.mark.parametrize("kind", ["file", "pipe"])
def test_init_into_what_is_not_a_folder_says_so(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    kind: str,
) -> None:
    """`init FIFO` said "cannot write `FIFO/rulebook.toml`: file exists"."""
    target = scratch / "game"
    target.write_text("mine\n", encoding="utf-8") if kind == "file" else os.mkfifo(target)
    outcome = run(capsys, "init", "game")
    assert outcome.code == 2
    assert outcome.err == f"rulebook: error: `{target}` is there already, and is not a folder: nothing was made\n"


def test_a_title_cannot_write_configuration(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    outcome = run(capsys, "init", "game", "--title", 'X\noutput = "/tmp/elsewhere"\n#')
    assert outcome.code == 2
    assert "a title is one line of text" in outcome.err
    assert not (scratch / "game").exists()


def test_init_that_fails_part_of_the_way_leaves_nothing(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    (scratch / ".github").write_text("a file where the workflow's folder would go\n", encoding="utf-8")
    outcome = refused(capsys, scratch, "init", ".")
    assert "nothing was made" in outcome.err


def test_a_book_cannot_take_a_translations_folder(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    configure(scratch, '[translations.fr]\nsource = "fr.md"\n')
    outcome = run(capsys, "new-book", "fr")
    assert outcome.code == 2
    assert (
        "a book cannot be called `fr`: `fr` is a language code: a translation's site takes the folder `fr/`"
        in outcome.err
    )


def test_a_book_cannot_take_the_folder_of_a_chapter_of_the_main_book(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``new-book basics`` where the main book has a chapter ``basics``: it was added, exit 0, and every build and
    lint then stopped at that chapter (``reserved-name``), which was there first."""
    source(scratch, "book.md", "<!-- rulebook -->\n\n# Basics {#basics}\n\nText.\n")
    kept = (scratch / "rulebook.toml").read_bytes()
    outcome = refused(capsys, scratch, "new-book", "basics")
    assert outcome.err == (
        "rulebook: error: a book cannot be called `basics`: the main book has a chapter of that id (book.md:3:1), "
        "whose page is the site's `basics/`, where this book would be built; choose another name\n"
    )
    assert (scratch / "rulebook.toml").read_bytes() == kept
    assert not (scratch / "rules").exists()


@pytest.mark.parametrize("name", ["_x", "-x"])
def test_a_book_name_starting_with_a_sign_is_refused_saying_so(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    """The message said only "lower-case letters, digits, - and _", which ``_x`` is."""
    source(scratch, "book.xml", BOOK)
    outcome = run(capsys, "new-book", "--", name)
    assert outcome.code == 2
    assert "lower-case letters, digits, - and _, starting with a letter or a digit" in outcome.err


def test_new_book_says_where_the_configured_output_puts_it(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """It said `site/extra/` whatever the output (``output = "public"``)."""
    source(scratch, "book.xml", BOOK)
    configure(scratch, 'output = "public"\n')
    outcome = run(capsys, "new-book", "extra")
    assert outcome.code == 0
    assert "`rulebook build` builds it into public/extra/;" in outcome.out


def test_a_site_url_with_control_characters_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    configure(scratch, 'site_url = "https://example.org/\\u0001x/"\n')
    outcome = run(capsys, "build")
    assert outcome.code == 2
    assert "`site_url` in [top level] must be an http(s) URL" in outcome.err


def test_a_configuration_error_shows_control_characters_as_pictures(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    (scratch / "rulebook.toml").write_text('sources = "\\u001b]0;PWNED\\u0007"\n', encoding="utf-8")
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert "\x1b" not in outcome.err and "\x07" not in outcome.err
    assert "\u241b]0;PWNED\u2407" in outcome.err


@pytest.mark.parametrize("output_format", ["summary", "html", "text"])
def test_control_characters_from_a_source_never_reach_a_diff_raw(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    output_format: str,
) -> None:
    (scratch / "old.md").write_text(
        "<!-- rulebook -->\n# Turn\n\nA turn has \x1b[31m4 phases\u202e.\n", encoding="utf-8"
    )
    (scratch / "new.md").write_text("<!-- rulebook -->\n# Turn\n\nA turn has 5 phases.\n", encoding="utf-8")
    outcome = run(capsys, "diff", "old.md", "new.md", "--format", output_format)
    assert outcome.code == 0
    assert "\x1b" not in outcome.out and "\u202e" not in outcome.out
    shown = html.unescape(outcome.out) if output_format == "html" else outcome.out  # `[` is `&#91;` in HTML
    assert "\u241b[31m" in shown


@pytest.mark.parametrize(
    ("waivers", "said"),
    [
        ('[[waivers]]\nfingerprint = "365b7a848b07a703"\n', "`waivers` is not part of a waivers file"),
        ('[[waiver]]\nfingerprnt = "365b7a848b07a703"\n', "each [[waiver]] needs a `fingerprint`"),
        ('[[waiver]]\nfingerprint = "365b7a848b07a703"\nreson = "x"\n', "`reson` is not a key of a waiver"),
        ('[[waiver]]\nfingerprint = "365b7a848b07a703"\nreason = 5\n', "a waiver's `reason` is text"),
        ('waiver = "365b7a848b07a703"\n', "`waiver` is not tables"),
        # a fingerprint in capitals or with a space was said to match "nothing any more (a text changed)"
        ('[[waiver]]\nfingerprint = "365B7A848B07A703"\n', "`365B7A848B07A703` is not a fingerprint: 16 digits"),
        ('[[waiver]]\nfingerprint = " 365b7a848b07a703"\n', "` 365b7a848b07a703` is not a fingerprint: 16 digits"),
    ],
)
def test_a_misspelt_waivers_file_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    waivers: str,
    said: str,
) -> None:
    """A `[[waivers]]` table (or a waiver's misspelt key) was passed over: the file hid nothing, and nothing said so."""
    source(scratch, "book.xml", BOOK)
    (scratch / "fr.md").write_text("# 1 Bouger\n\nMarcher, c'est bouger.\n", encoding="utf-8")
    (scratch / "waivers.toml").write_text(waivers, encoding="utf-8")
    outcome = run(capsys, "compare", "--language", "fr", "--waivers", "waivers.toml", "book.xml", "fr.md")
    assert (outcome.code, outcome.out) == (2, "")
    assert outcome.err.startswith(f"rulebook: error: waivers.toml: {said}"), outcome.err


_STATUS = "# rulebook status: the sections of the `fr` translation brought up to date with a later edition.\n\n"
_MARK = '[[updated]]\nsection = "sec"\ntitle = "Sec"\nedition = "v2"\nfingerprint = "{}"\n'


@pytest.mark.parametrize(
    ("marks", "said"),
    [
        ("[[updatd]]\nsection = 'sec'\n", "`updatd` is not part of a status file"),
        (_MARK.format("a") + "fingerprnt = 'x'\n", "`fingerprnt` is not a key of [[updated]]"),
        (  # it was said to "no longer hold (the original changed again, or is gone)"
            _MARK.format("3F2A9C0D41B7E215"),
            "`3F2A9C0D41B7E215` is not a mark's fingerprint: 16 digits and letters a to f, as `rulebook status --mark`",
        ),
    ],
)
def test_a_misspelt_status_file_is_a_plain_error(scratch: Path, marks: str, said: str) -> None:  # noqa: F811
    """A misspelt `[[updatd]]` was passed over: the sections it marked were outdated again, and nothing said why."""
    from rulebook.errors import TerminologyError
    from rulebook.translate.status_file import load_marks

    (scratch / "status.toml").write_text(_STATUS + marks, encoding="utf-8")
    with pytest.raises(TerminologyError) as raised:
        load_marks(scratch / "status.toml")
    assert str(raised.value).startswith(f"{scratch / 'status.toml'}: {said}")


def test_a_status_file_holds_one_mark_a_section_and_edition(scratch: Path) -> None:  # noqa: F811
    """50,000 marks of one section were each listed as no longer holding, one line of 400 KB: read as `--mark`
    writes them, one a section and edition (the last)."""
    from rulebook.translate.status_file import load_marks

    text = _STATUS + "\n".join(_MARK.format(f"{i:016x}") for i in range(50_000))
    (scratch / "status.toml").write_text(text, encoding="utf-8")
    marks = load_marks(scratch / "status.toml")
    assert [(m.section, m.fingerprint) for m in marks] == [("sec", f"{49_999:016x}")]


def test_waivers_that_match_nothing_are_named_twenty_at_most(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:  # noqa: F811
    """50,000 waivers matching nothing were each named on one line of 900 KB; the JSON report lists them all."""
    source(scratch, "book.xml", BOOK)
    (scratch / "fr.md").write_text("# 1 Bouger\n\nMarcher, c'est bouger.\n", encoding="utf-8")
    waivers = "".join(f'[[waiver]]\nfingerprint = "{n:016x}"\nreason = "r"\n' for n in range(50_000))
    (scratch / "waivers.toml").write_text(waivers, encoding="utf-8")
    command = ("compare", "--language", "fr", "--waivers", "waivers.toml", "book.xml", "fr.md")
    said = run(capsys, *command).out.splitlines()[-1]
    named = ", ".join(f"{n:016x}" for n in range(20))
    assert said == (
        f"50000 waivers match nothing any more (a text changed, or it was fixed): {named}, and 49,980 more "
        "(`--format json` lists them all)"
    )
    listed = json.loads(run(capsys, *command, "--format", "json").out)["comparison"]["stale_waivers"]
    assert listed == [f"{n:016x}" for n in range(50_000)]
