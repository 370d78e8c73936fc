"""Hostile and careless inputs to the build's outputs: nothing written, deleted or published outside what it owns.

Each case builds a small project in a scratch folder, snapshots the folder, runs the
command and asserts the exact outcome: refused with exit status 2 and a plain message
(and the scratch tree unchanged), or built with the payload inert.
"""

from __future__ import annotations

import hashlib
import json
import os
import urllib.parse
from pathlib import Path

import lxml.html
import pytest

from rulebook.cli import main
from rulebook.site.page_table import SITE_ENTRIES, SITE_ENTRY
from tests.conftest import need_zensical

from .pictures import PNG

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="{chapter}" title="Moving">
<section id="{section}" title="Marching"><definition name="{term}">To march is to <reference name="{term}">move</reference>.</definition></section>
</chapter>
</document>
"""


def project(
    folder: Path, *, chapter: str = "moving", section: str = "marching", term: str = "march", **config: str
) -> Path:
    """A one-book project: book.xml and a rulebook.toml with ``config`` (TOML values as written)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "book.xml").write_text(BOOK.format(chapter=chapter, section=section, term=term), encoding="utf-8")
    lines = ['sources = ["book.xml"]', *(f"{key} = {value}" for key, value in config.items())]
    (folder / "rulebook.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    """Every file, folder and link under ``folder``, with a digest of its content."""
    found = {}
    for path in sorted(folder.rglob("*")):
        key = path.relative_to(folder).as_posix()
        if path.is_symlink():
            found[key] = "link:" + os.readlink(path)
        elif path.is_file():
            found[key] = hashlib.sha256(path.read_bytes()).hexdigest()
        else:
            found[key] = "folder"
    return found


@pytest.fixture
def scratch(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(*argv: str) -> int:
    return main([*argv])


# -- the output folder is owned ---------------------------------------------------------------------


def test_a_folder_of_notes_is_never_replaced(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch)
    notes = scratch / "notes"
    notes.mkdir()
    (notes / "ideas.txt").write_text("keep me", encoding="utf-8")
    before = snapshot(scratch)
    assert run("build", "-q", "-o", "notes") == 2
    err = capsys.readouterr().err
    assert "the output `notes` is not empty and is not a site this tool built" in err
    assert snapshot(scratch) == before


@pytest.mark.parametrize("git", ["repository", "worktree link"])
@pytest.mark.parametrize("only", [[], ["--data-only"]])
def test_a_site_holding_a_git_repository_is_never_replaced(
    scratch: Path, capsys: pytest.CaptureFixture[str], git: str, only: list[str]
) -> None:
    """A site this tool built in which the user made a repository (``git init`` in ``site/``, as MkDocs, which keeps
    dot-files there, lets one deploy) or a worktree (its ``.git`` a file): the next build deleted it with exit 0."""
    project(scratch)
    assert run("build", "-q") == 0
    if git == "repository":
        (scratch / "site" / ".git" / "objects").mkdir(parents=True)
        (scratch / "site" / ".git" / "HEAD").write_text("ref: refs/heads/gh-pages\n", encoding="utf-8")
    else:
        (scratch / "site" / ".git").write_text("gitdir: /elsewhere/.git/worktrees/site\n", encoding="utf-8")
    capsys.readouterr()
    before = snapshot(scratch)
    assert run("build", "-q", *only) == 2
    assert capsys.readouterr().err == (
        "rulebook: error: the output `site` holds `.git`, a Git repository (or a worktree's link to one) this tool "
        "did not make: a build replaces the whole folder and would delete it; build into another folder (`rulebook "
        "deploy` commits a site to a branch without a checkout)\n"
    )
    assert snapshot(scratch) == before


@pytest.mark.parametrize(
    ("output", "message"),
    [
        ('"."', "the output `.` holds the whole project"),
        ('".."', "`output` in [top level] names `..`, which is outside the project"),
        ('"src"', "the output `src` holds `src/book.xml`, which the build reads"),
        ('".git/site"', "the output `.git/site` is inside `.git`, Git's own folder"),
        ('".GIT/hooks/x"', "the output `.GIT/hooks/x` is inside `.git`, Git's own folder"),
        (
            '"src/site"',
            "the output `src/site` is inside `src`, beside `src/book.xml`, which the build reads: choose a folder of "
            "its own, such as `site`",
        ),
    ],
)
def test_the_project_and_its_sources_are_never_an_output(
    scratch: Path, output: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (scratch / "src").mkdir()
    project(scratch / "src")
    (scratch / "src" / "rulebook.toml").unlink()
    (scratch / "rulebook.toml").write_text(f'sources = ["src/book.xml"]\noutput = {output}\n', encoding="utf-8")
    before = snapshot(scratch)
    assert run("build", "-q") == 2
    assert message in capsys.readouterr().err
    assert snapshot(scratch) == before


@pytest.mark.parametrize("output", ["site/sub", "site/a/b"])
def test_no_site_is_built_inside_a_site(scratch: Path, output: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``-o site/sub`` built a site (its lock and work folder too) inside the published one, which the next build
    of ``site`` deleted without a word."""
    project(scratch)
    assert run("build", "-q") == 0
    before = snapshot(scratch)
    assert run("build", "-q", "-o", output) == 2
    assert capsys.readouterr().err == (
        f"rulebook: error: the output `{output}` is inside `site`, a site this tool built: building that site again "
        "would delete it; choose a folder outside it\n"
    )
    assert snapshot(scratch) == before


@pytest.mark.parametrize(
    "output", [".site.lock", ".site.rulebook", ".x.rulebook/inner", "out/.www.lock", "site/.rulebook-site"]
)
def test_no_site_is_built_where_a_build_keeps_its_state(
    scratch: Path, output: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o .site.rulebook`` built a site where the build of ``site`` keeps its work folder, and every build of
    ``site`` was then refused until it was deleted (a report there is refused so already)."""
    project(scratch)
    before = snapshot(scratch)
    assert run("build", "-q", "-o", output) == 2
    entry = next(part for part in Path(output).parts if part.startswith("."))
    assert capsys.readouterr().err == (
        f"rulebook: error: the output `{output}` is named as a build keeps its own lock, work folder or site marker "
        f"(`{entry}`), and the next build would take what it found there for its own: choose a folder such as "
        "`site`\n"
    )
    assert snapshot(scratch) == before
    assert run("build", "-q") == 0


def test_the_output_may_not_be_a_link(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch)
    (scratch / "elsewhere").mkdir()
    (scratch / "site").symlink_to(scratch / "elsewhere")
    assert run("build", "-q") == 2
    assert "the output `site` is a symbolic link" in capsys.readouterr().err
    assert list((scratch / "elsewhere").iterdir()) == []


def test_an_output_stepping_back_out_of_a_link_is_refused_not_guessed(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o mine/l/../site`` with ``l`` a link: the shell means the folder holding the link's target, the build
    went where the text leads (``mine/site``), as no report writer does (the thirty-sixth probe). Neither is guessed."""
    project(scratch / "book")
    (scratch / "elsewhere" / "deep").mkdir(parents=True)
    (scratch / "book" / "mine").mkdir()
    (scratch / "book" / "mine" / "l").symlink_to(scratch / "elsewhere" / "deep")
    os.chdir(scratch / "book")
    before = snapshot(scratch)
    assert run("build", "-q", "--no-pdf", "-o", "mine/l/../site") == 2
    assert capsys.readouterr().err == (
        "rulebook: error: the output `mine/l/../site`: `mine/l` is a symbolic link and `..` after it leads out of the "
        "folder it leads to, not back to where the link is (as the shell would go, this tool would not); name the "
        "place without `..` after a link\n"
    )
    assert snapshot(scratch) == before
    assert run("build", "-q", "--no-pdf", "-o", "mine/../site") == 0  # `..` after a folder: as written


@pytest.mark.parametrize(("length", "kept"), [(246, ".rulebook"), (250, ".lock")])
def test_an_output_named_too_long_for_the_builds_own_files_is_refused_before_anything(
    scratch: Path, capsys: pytest.CaptureFixture[str], length: int, kept: str
) -> None:
    """An output name of 246 bytes fits, its work folder's (``.NAME.rulebook``) does not: the build said the work
    folder "could not be deleted ... delete it, then build again", a folder that cannot exist (the thirty-ninth
    probe)."""
    project(scratch)
    before = snapshot(scratch)
    assert run("build", "-q", "--no-pdf", "-o", "s" * length) == 2
    said = capsys.readouterr().err
    assert said.startswith(
        f"rulebook: error: the output `{'s' * length}` has a name too long for the files a build keeps beside it: `.sss"
    ), said
    assert said.endswith(
        f"{kept}` has a name longer than 255 bytes, the longest a file's name may be; choose a shorter name\n"
    ), said
    assert snapshot(scratch) == before
    assert run("build", "-q", "--no-pdf", "-o", "s" * 244) == 0


def test_an_output_other_users_may_write_into_is_refused(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A build into a folder any user may write into (no sticky bit) was accepted: another user could put a link or
    a folder of theirs where the build swaps the site in, or add pages to it. /tmp's sticky bit is enough."""
    project(scratch / "book")
    shared = scratch / "shared"
    shared.mkdir(mode=0o777)
    shared.chmod(0o777)
    os.chdir(scratch / "book")
    assert run("build", "-q", "--no-pdf", "-o", str(shared / "site")) == 2
    said = capsys.readouterr().err
    assert f"is in `{shared}`, a folder any user may write into (without the sticky bit" in said, said
    assert list(shared.iterdir()) == []
    shared.chmod(0o1777)
    assert run("build", "-q", "--no-pdf", "-o", str(shared / "site")) == 0
    (shared / "site").chmod(0o777)
    assert run("build", "-q", "--no-pdf", "-o", str(shared / "site")) == 2
    assert "may be written by any user" in capsys.readouterr().err
    (shared / "site").chmod(0o755)
    assert run("build", "-q", "--no-pdf", "-o", str(shared / "site")) == 0
    shared.chmod(0o777)  # two folders down: another user renamed `a` away and put an `a/site` of theirs there
    (shared / "a").mkdir()
    assert run("build", "-q", "--no-pdf", "-o", str(shared / "a" / "site")) == 2
    assert f"is in `{shared}`, a folder any user may write into" in capsys.readouterr().err
    assert not (shared / "a" / "site").exists()
    (scratch / "elsewhere").mkdir()
    (shared / "l").symlink_to(scratch / "elsewhere")  # a link of another user's there: the path as written counts
    for argv in (("build", "-q", "--no-pdf"), ("build", "-q", "--data-only"), ("lint",)):
        target = ("-o", str(shared / "l" / ("site" if argv[0] == "build" else "report.txt")))
        assert run(*argv, *target) == 2
        assert f"is in `{shared}`, a folder any user may write into" in capsys.readouterr().err
    assert list((scratch / "elsewhere").iterdir()) == []
    (scratch / "mine").mkdir()  # a link of one's own, through a folder open to all, to a link of another's there
    (scratch / "mine" / "l1").symlink_to(shared / "l")
    assert run("build", "-q", "--no-pdf", "-o", str(scratch / "mine" / "l1" / "site")) == 2
    assert f"is in `{shared}`, a folder any user may write into" in capsys.readouterr().err
    assert list((scratch / "elsewhere").iterdir()) == []


def test_an_empty_folder_and_an_earlier_site_are_replaced(scratch: Path) -> None:
    project(scratch)
    (scratch / "site").mkdir()
    assert run("build", "-q") == 0
    assert (scratch / "site" / ".rulebook-site").is_file()
    (scratch / "site" / "stale.html").write_text("old", encoding="utf-8")
    assert run("build", "-q") == 0
    assert not (scratch / "site" / "stale.html").exists()
    assert (scratch / "site" / "moving" / "index.html").is_file()


def test_nothing_is_left_beside_the_output(scratch: Path) -> None:
    project(scratch)
    assert run("build", "-q") == 0
    assert sorted(p.name for p in scratch.iterdir()) == ["book.xml", "rulebook.toml", "site"]


@pytest.mark.parametrize("output", ["book.xml/site", "/proc/site"])
def test_an_impossible_output_is_a_plain_error(scratch: Path, output: str, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch)
    assert run("build", "-q", "-o", output) == 2
    err = capsys.readouterr().err
    assert f"cannot write the site into `{Path(output).absolute()}`" in err
    assert "internal error" not in err


LONG = "x" * 256


@pytest.mark.parametrize(
    ("output", "problem"),
    [
        (LONG, "has a name longer than 255 bytes, the longest a file's name may be"),
        (f"out/{LONG}/site", "has a name longer than 255 bytes, the longest a file's name may be"),
        ("x/" * 2100, "is longer than 4096 bytes, the longest path"),
    ],
)
def test_an_output_no_system_could_name_is_a_plain_error(
    scratch: Path, output: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``-o`` of 256 characters was an internal error (``OSError: File name too long``, from a look for a link):
    checked as the configuration's ``output`` is, before anything is looked at or written."""
    project(scratch)
    before = snapshot(scratch)
    assert run("build", "-q", "-o", output) == 2
    assert snapshot(scratch) == before
    err = capsys.readouterr().err  # the name shown in full, a line of a message cut past 1,600 characters
    assert err.startswith(f"rulebook: error: the output `{output[:30]}") and err.endswith(f"` {problem}\n"), err


def test_a_file_as_output_is_a_plain_error(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch)
    (scratch / "site").write_text("a file", encoding="utf-8")
    assert run("build", "-q") == 2
    assert "the output `site` exists and is not a folder" in capsys.readouterr().err


# -- names that would become paths, anchors or attributes -------------------------------------------


@pytest.mark.parametrize(
    ("chapter", "section", "term", "shown"),
    [
        ("../../escaped", "marching", "march", "id `../../escaped` is not a valid identifier"),
        ("/tmp/escaped", "marching", "march", "id `/tmp/escaped` is not a valid identifier"),
        ("moving", "a onmouseover=alert(1)", "march", "id `a onmouseover=alert(1)` is not a valid identifier"),
        ("moving", "marching", "line-of-sight", "term name `line-of-sight` is not a valid identifier"),
    ],
)
def test_unsafe_names_stop_the_build_with_a_located_error(
    scratch: Path, chapter: str, section: str, term: str, shown: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project(scratch, chapter=chapter, section=section, term=term)
    before = snapshot(scratch)
    assert run("build", "-q") == 2
    err = capsys.readouterr().err
    assert f"error[RB302]: {shown}" in err
    assert "--> book.xml:" in err
    assert "internal error" not in err
    assert snapshot(scratch) == before
    assert not Path("/tmp/escaped.md").exists()


def test_unsafe_names_stop_the_build_even_when_the_rule_is_off(scratch: Path) -> None:
    project(scratch, section="a b")
    (scratch / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[lint]\nignore = ["invalid-name"]\n', encoding="utf-8"
    )
    assert run("build", "-q") == 2


# Every name of the site's page table that is an identifier (``404`` is not: invalid-name refuses it), and a case.
@pytest.mark.parametrize("chapter", [*(e.name for e in SITE_ENTRIES if e.name[0].isalpha()), "Tables"])
def test_a_chapter_named_like_a_page_of_the_site_is_refused(
    scratch: Path, chapter: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project(scratch, chapter=chapter)
    assert run("build", "-q") == 2
    err = capsys.readouterr().err
    assert f"error[RB304]: chapter id `{chapter}` is the name of one of the site's own pages or folders" in err


def test_a_chapter_named_like_another_book_is_refused(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch, chapter="extra")
    (scratch / "other.xml").write_text(BOOK.format(chapter="x", section="y", term="z"), encoding="utf-8")
    with (scratch / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('[books.extra]\nsources = ["other.xml"]\n')
    assert run("build", "-q") == 2
    assert "chapter id `extra` is the name of one of the site's own pages or folders" in capsys.readouterr().err


@pytest.mark.parametrize("name", [e.name for e in SITE_ENTRIES])
def test_a_book_named_like_a_folder_of_the_site_is_a_configuration_error(
    scratch: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project(scratch)
    with (scratch / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write(f'[books.{name}]\nsources = ["book.xml"]\n')
    assert run("build", "-q") == 2
    err = capsys.readouterr().err
    reason = f"`{name}/` is the site's own folder for {SITE_ENTRY[name].what}"  # the words: tests/test_family.py
    assert f"[books.{name}]: a book cannot be called `{name}`: {reason}" in err


TWO_CHAPTERS = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving"><section id="marching" title="Marching">Text.</section></chapter>
<chapter id="{chapter}" title="Other"><section id="other" title="Other">Text.</section></chapter>
</document>
"""


# A page is a file and a folder named after its chapter's id: each id here built on Linux, lint said "All checks
# passed", and the site could not be built, checked out or served on another system (or here: the long one).
@pytest.mark.parametrize(
    ("chapter", "why"),
    [
        (
            "Moving",
            "differs from the chapter `moving`'s only by case: on a disk that ignores case (macOS, Windows) "
            "one page would replace the other",
        ),
        ("CON", "is a name Windows keeps for a device: no file or folder there can take it"),
        ("lpt1", "is a name Windows keeps for a device: no file or folder there can take it"),
        ("a" * 201, "is longer than 200 characters: too long for the name of its page's file"),
    ],
    ids=["case", "device", "device-digit", "long"],
)
def test_a_chapter_id_no_file_system_can_take_as_a_page_is_refused(
    scratch: Path, chapter: str, why: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project(scratch)
    (scratch / "book.xml").write_text(TWO_CHAPTERS.format(chapter=chapter), encoding="utf-8")
    before = snapshot(scratch)
    assert run("lint") == 1
    shown = chapter if len(chapter) < 100 else f"{'a' * 39}…{'a' * 20}"  # a long name is shortened in the middle
    assert f"error[RB304]: chapter id `{shown}` {why}" in capsys.readouterr().out
    assert run("build", "-q") == 2
    err = capsys.readouterr().err
    assert f"{why}\n --> book.xml:4:" in err or f"{why}\n  --> book.xml:4:" in err
    assert "internal error" not in err and "Traceback" not in err
    assert snapshot(scratch) == before


def test_a_book_named_like_a_windows_device_is_a_configuration_error(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    project(scratch)
    with (scratch / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write('[books.nul]\nsources = ["book.xml"]\n')
    assert run("build", "-q") == 2
    err = capsys.readouterr().err
    assert "[books.nul]: a book cannot be called `nul`: `nul` is a name Windows keeps for a device" in err


@pytest.mark.parametrize("language", ["con", "nul"])
def test_a_translation_into_a_language_named_like_a_windows_device_is_a_configuration_error(
    scratch: Path, capsys: pytest.CaptureFixture[str], language: str
) -> None:
    # `con` is Cofan's code: its site was built into `site/con/` with exit 0 (the eighteenth probe), which a
    # published branch cannot hold on Windows; the lint said nothing either.
    project(scratch)
    (scratch / "tr.md").write_text("# Basics\n", encoding="utf-8")
    (scratch / "words.toml").write_text("", encoding="utf-8")
    with (scratch / "rulebook.toml").open("a", encoding="utf-8") as config:
        config.write(f'[translations.{language}]\nsource = "tr.md"\nlanguage_file = "words.toml"\n')
    before = snapshot(scratch)
    for command in ("build", "lint"):
        assert run(command, "-q") == 2
        err = capsys.readouterr().err
        assert f"[translations.{language}]: a translation's site takes the folder `{language}/`, a name Windows " in err
    assert snapshot(scratch) == before


def test_configuration_text_reaches_the_pages_inert(scratch: Path) -> None:
    payload = "<img src=x onerror=alert(1)>"
    project(scratch, title=f'"{payload}"', copyright='"<script>alert(2)</script>"')
    assert run("build", "-q") == 0
    for page in (scratch / "site").rglob("*.html"):
        tree = lxml.html.parse(str(page))
        assert not tree.xpath("//img[@onerror]"), page
        assert all("alert" not in (s.text or "") for s in tree.xpath("//script")), page
        assert not [e for e in tree.iter() if any(a.startswith("on") for a in e.attrib)], page


# -- images: only what the sources show, never through a link ---------------------------------------


FIGURE_BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter id="moving" title="Moving">
<figure id="fig_one"><image source="{image}"/><caption title="Figure 1">A picture.</caption></figure>
</chapter>
</document>
"""


@pytest.mark.parametrize("image", ["secret.png", "../outside.png", "/etc/hostname", "sub/../secret.png"])
def test_images_are_never_reached_through_links_or_outside_the_folder(scratch: Path, image: str) -> None:
    (scratch / "book.xml").write_text(FIGURE_BOOK.format(image=image), encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    images = scratch / "images"
    images.mkdir()
    (images / "secret.png").symlink_to("/proc/self/environ")
    (scratch / "outside.png").write_bytes(b"\x89PNG\r\n\x1a\n outside")
    assert run("build", "-q") == 0
    published = {p.name for p in (scratch / "site").rglob("*") if p.is_file()}
    assert "secret.png" not in published and "outside.png" not in published and "hostname" not in published


def test_only_referenced_regular_images_are_published(scratch: Path) -> None:
    (scratch / "book.xml").write_text(FIGURE_BOOK.format(image="shown.png"), encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    images = scratch / "images"
    images.mkdir()
    (images / "shown.png").write_bytes(b"\x89PNG\r\n\x1a\n shown")
    (images / "unused.png").write_bytes(b"\x89PNG\r\n\x1a\n unused")
    assert run("build", "-q") == 0
    site_images = scratch / "site" / "images"
    assert sorted(p.name for p in site_images.iterdir()) == ["shown.png"]


@pytest.mark.parametrize("image", ["shown.png/", "./shown.png", "sub//shown.png", ""])
def test_an_image_named_other_than_as_its_file_is_a_missing_one_never_a_broken_picture(
    scratch: Path, image: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """``<image source="shown.png/"/>``: pathlib read the name as ``shown.png``, so the file was published and the
    lint said nothing, while the page showed ``images/shown.png/``, which no server has: a broken picture in silence.
    A name is taken as written: one that is not a plain path of the images folder is a missing image (RB303)."""
    (scratch / "book.xml").write_text(FIGURE_BOOK.format(image=image), encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    (scratch / "images" / "sub").mkdir(parents=True)
    (scratch / "images" / "shown.png").write_bytes(b"\x89PNG\r\n\x1a\n shown")
    (scratch / "images" / "sub" / "shown.png").write_bytes(b"\x89PNG\r\n\x1a\n shown")
    assert run("lint", "--format", "json") == 0  # a warning
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [("RB303", f"image `{image}` is not in the images folder")]
    assert run("build", "-q") == 0
    assert not (scratch / "site" / "images").exists()
    page = lxml.html.parse(str(scratch / "site" / "moving" / "index.html"))
    assert not page.xpath("//figure//img") and page.xpath("//figure/div[@class='rb-figure-missing']")


@pytest.mark.parametrize("name", ["a\u202egnp.png", "b\u200f.png", "c\x85.png"])
def test_an_image_whose_name_a_page_cannot_show_is_refused(
    scratch: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A picture named with a bidirectional or C1 control passed the lint, was published, and shown at an address
    where the control was its picture (`images/a�gnp.png`): a broken picture; and Typst, given that address, stopped
    the build ("file not found"). Refused where the lint looks (RB305), left out of the site and the PDF."""
    reference = "".join(c if c.isprintable() else f"&#x{ord(c):X};" for c in name)
    (scratch / "book.xml").write_text(FIGURE_BOOK.format(image=reference), encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    (scratch / "images").mkdir()
    (scratch / "images" / name).write_bytes(b"\x89PNG\r\n\x1a\n shown")
    assert run("lint", "--format", "json") == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["message"].partition(": ")[2]) for d in found] == [
        (
            "RB305",
            "its name holds a character a page cannot show as it is (a control, format or bidirectional character)",
        )
    ]
    assert run("build", "-q") == 0  # the PDF made too
    assert not (scratch / "site" / "images").exists()
    page = lxml.html.parse(str(scratch / "site" / "moving" / "index.html"))
    assert not page.xpath("//figure//img") and page.xpath("//figure/div[@class='rb-figure-missing']")


@pytest.mark.parametrize("name", ["Screenshot 10.00.00\u202fAM.png", "k\u00a0m.png"])
def test_an_image_named_with_a_space_of_another_width_is_published(
    scratch: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """macOS names every screenshot with a narrow no-break space before `AM`: it was refused as "a control, format
    or bidirectional character". A space of any width is text: published, its address written with it encoded."""
    (scratch / "book.xml").write_text(FIGURE_BOOK.format(image=name), encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    (scratch / "images").mkdir()
    (scratch / "images" / name).write_bytes(PNG)
    assert run("lint") == 0
    assert run("build", "-q", "--no-pdf") == 0
    assert (scratch / "site" / "images" / name).read_bytes() == PNG
    page = lxml.html.parse(str(scratch / "site" / "moving" / "index.html"))
    assert page.xpath("//figure//img/@src") == [f"../images/{urllib.parse.quote(name)}"]


@pytest.mark.parametrize("name", [".hidden.png", ".git/shown.png", "sub/.cache/shown.png"])
def test_an_image_the_site_would_leave_out_as_hidden_is_refused(
    scratch: Path, name: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """A picture whose name or folder starts with `.` passed the lint and was shown on the page, but MkDocs and
    Zensical leave hidden files out of the site: a broken picture in silence. Refused where the lint looks (RB305),
    left out of the site and the PDF, its place shown."""
    (scratch / "book.xml").write_text(FIGURE_BOOK.format(image=name), encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    (scratch / "images" / name).parent.mkdir(parents=True)
    (scratch / "images" / name).write_bytes(b"\x89PNG\r\n\x1a\n shown")
    assert run("lint", "--format", "json") == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [
        (
            "RB305",
            f"image `{name}` is not published: it is a hidden file, or in a hidden folder (its name starts with `.`), "
            "which the site leaves out",
        )
    ]
    assert run("build", "-q") == 0
    assert not (scratch / "site" / "images").exists()
    page = lxml.html.parse(str(scratch / "site" / "moving" / "index.html"))
    assert not page.xpath("//figure//img") and page.xpath("//figure/div[@class='rb-figure-missing']")


@pytest.mark.parametrize(
    ("names", "refused", "said"),
    [
        (
            ["Map.png", "map.png"],
            "map.png",
            "its name differs from the picture `Map.png`'s only by case: on a disk that ignores case (macOS, Windows), "
            "where the site is copied or served, one replaces the other",
        ),
        (
            ["aux.png"],
            "aux.png",
            "its name (before the first `.`) is one Windows keeps for a device (`con`, `nul`, `aux`, `prn`, `com1`, "
            "`lpt1`...): no file there can take it, so the site could not be copied or served there",
        ),
        (
            ["NUL/map.png"],
            "NUL/map.png",
            "its name (before the first `.`) is one Windows keeps for a device (`con`, `nul`, `aux`, `prn`, `com1`, "
            "`lpt1`...): no file there can take it, so the site could not be copied or served there",
        ),
    ],
)
def test_a_picture_name_not_every_disk_takes_is_refused(
    scratch: Path, capsys: pytest.CaptureFixture[str], names: list[str], refused: str, said: str
) -> None:
    """Two pictures whose names differ only by case were both published with "All checks passed": on macOS or
    Windows one replaced the other; a name Windows keeps for a device could not be copied there. Refused (RB305),
    the first of two twins published."""
    figures = "".join(
        f'<figure id="f{index}"><image source="{name}"/><caption>{index}</caption></figure>'
        for index, name in enumerate(names)
    )
    (scratch / "book.xml").write_text(
        f'<document><chapter id="moving" title="Moving">{figures}</chapter></document>', encoding="utf-8"
    )
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    for name in names:
        (scratch / "images" / name).parent.mkdir(parents=True, exist_ok=True)
        (scratch / "images" / name).write_bytes(b"\x89PNG\r\n\x1a\n " + name.encode())
    assert run("lint", "--format", "json") == 1
    found = json.loads(capsys.readouterr().out)["diagnostics"]
    assert [(d["code"], d["message"]) for d in found] == [("RB305", f"image `{refused}` is not published: {said}")]
    assert run("build", "-q") == 0
    published = (
        sorted(str(p.relative_to(scratch / "site" / "images")) for p in (scratch / "site" / "images").rglob("*.png"))
        if (scratch / "site" / "images").exists()
        else []
    )
    assert published == [name for name in names if name != refused]


URL_SIGNS = ["a#b.png", "c?d.png", "e%41.png", "f%.png", "g b.png", "h&i.png", "\u00e9.png", "k:l.png"]
"""Names a file may have that mean something else in an address: a fragment, a query, an escape, a space."""


@pytest.mark.parametrize("generator", ["mkdocs", "zensical"])
def test_a_picture_is_shown_at_its_files_address_whatever_its_name(scratch: Path, generator: str) -> None:
    """``a#b.png`` was shown as ``images/a#b.png``: the browser asked for ``images/a`` (the rest a fragment), and
    ``c?d.png``, ``e%41.png`` likewise named other files; broken pictures the lint passed. Each address, read as a
    browser reads it, now names the file published."""
    if generator == "zensical":
        need_zensical()
    book = FIGURE_BOOK.replace(
        '<figure id="fig_one"><image source="{image}"/><caption title="Figure 1">A picture.</caption></figure>',
        "".join(
            f'<figure id="f{index}"><image source="{name.replace("&", "&amp;")}"/></figure>'
            for index, name in enumerate(URL_SIGNS)
        ),
    )
    (scratch / "book.xml").write_text(book, encoding="utf-8")
    (scratch / "rulebook.toml").write_text('sources = ["book.xml"]\n', encoding="utf-8")
    (scratch / "images").mkdir()
    for name in URL_SIGNS:
        (scratch / "images" / name).write_bytes(b"\x89PNG\r\n\x1a\n shown")
    assert run("build", "-q", "--generator", generator) == 0
    page = lxml.html.parse(str(scratch / "site" / "moving" / "index.html"))
    addresses = [urllib.parse.urljoin("/moving/", str(src)) for src in page.xpath("//figure/img/@src")]
    assert len(addresses) == len(URL_SIGNS)
    named = sorted(urllib.parse.unquote(urllib.parse.urlsplit(a).path).removeprefix("/images/") for a in addresses)
    assert named == sorted(URL_SIGNS)
    assert sorted(p.name for p in (scratch / "site" / "images").iterdir()) == sorted(URL_SIGNS)


# -- configuration and baselines: plain messages ----------------------------------------------------


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        ('[lint]\nseverity = "error"', '`severity` in [lint] must be a table, not the string "error"'),
        ("[lint]\nignore = [5]", "`ignore` in [lint] must be a list of strings, not a list of numbers"),
        ("title = 3", "`title` in [top level] must be a string, not the number 3"),
        ("emphasis = 1", "`emphasis` in [top level] must be true or false, not the number 1"),
        ('site_url = "javascript:alert(1)"', "`site_url` in [top level] must be an http(s) URL"),
        ('site_url = "https://example.org/\u202egpj.exe"', "`site_url` in [top level] must be an http(s) URL"),
        ('site_url = "https://example.org/a\u200bb"', "`site_url` in [top level] must be an http(s) URL"),
        ('language = "en fr"', "`language` in [top level] must be a language code"),
        ("books = 3", "`books` in [top level] must be a table, not the number 3"),
        ('[books."My Book"]\nsources = []', "a book's name is lower-case letters, digits, - and _"),
        ("title = ", "not valid TOML"),
    ],
)
def test_bad_configuration_names_the_key_and_the_expected_type(
    scratch: Path, toml: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    (scratch / "book.xml").write_text(BOOK.format(chapter="c", section="s", term="t"), encoding="utf-8")
    (scratch / "rulebook.toml").write_text(f'sources = ["book.xml"]\n{toml}\n', encoding="utf-8")
    assert run("lint") == 2
    err = capsys.readouterr().err
    assert message in err
    assert "internal error" not in err


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"\xff\xfe\x00binary", "is not a rulebook lint baseline: it is not UTF-8 text"),
        (b'{"version": 9, "entries": []}', "has version 9; this rulebook reads versions 1 and 2"),
        (
            b'{"version": 2, "entries": [{"source": "b", "rule": "dangling-reference", "target": "t", "section": "s", "count": -1}]}',
            "entry 1: `count` must be a whole number from 1 to 999,999,999, not -1",
        ),
        (b"[]", "is not a rulebook lint baseline: it has no `entries` list"),
    ],
)
def test_a_bad_baseline_is_a_plain_error(
    scratch: Path, content: bytes, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    project(scratch, baseline='"baseline.json"')
    (scratch / "baseline.json").write_bytes(content)
    assert run("lint") == 2
    assert message in capsys.readouterr().err


def test_a_baseline_saved_with_a_bom_is_read_as_its_sources_are(
    scratch: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A baseline an editor saved with a UTF-8 BOM (Notepad does) was refused quoting Python's codec ("Unexpected
    UTF-8 BOM (decode using utf-8-sig)"): it is read past, as a source's BOM is, and the baseline hides its findings."""
    project(scratch)
    book = scratch / "book.xml"  # a reference to no term: an error a baseline may take (a bad name stops the build)
    book.write_text(book.read_text(encoding="utf-8").replace('<reference name="march">', '<reference name="nope">'))
    assert run("lint", "--write-baseline", "baseline.json") == 0
    assert run("lint") == 1
    (scratch / "baseline.json").write_bytes(b"\xef\xbb\xbf" + (scratch / "baseline.json").read_bytes())
    capsys.readouterr()
    assert run("lint", "--baseline", "baseline.json") == 0
    captured = capsys.readouterr()
    assert "utf-8-sig" not in captured.err and "error" not in captured.out + captured.err, captured


def test_a_baseline_that_is_a_folder_is_a_plain_error(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch, baseline='"baseline"')
    (scratch / "baseline").mkdir()
    assert run("lint") == 2
    assert "the baseline `" in capsys.readouterr().err


def test_a_missing_configured_baseline_is_a_warning(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    project(scratch, term="march", baseline='"nowhere.json"')
    assert run("lint") == 0
    assert "warning: the baseline `" in capsys.readouterr().err


def test_serve_on_a_busy_port_says_so_before_building(scratch: Path, capsys: pytest.CaptureFixture[str]) -> None:
    import socket

    project(scratch)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert run("serve", "--port", str(port)) == 2
    err = capsys.readouterr().err
    assert f"cannot serve on port {port}" in err
    assert "Reading the sources" not in err
