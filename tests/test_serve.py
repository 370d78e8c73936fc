"""``rulebook serve`` page by page: an edit rewrites the pages it changes and no other, the result is
what a full build of the edited sources gives, the translation waits for nobody, and a broken edit
keeps the last good pages."""

from __future__ import annotations

import functools
import http.client
import os
import re
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook import build_values, recipe
from rulebook.project import load_project
from rulebook.recipe.cache import StageCache
from rulebook.serve.edits import LiveAffected, touched_by
from rulebook.serve.news import News
from rulebook.serve.server import RELOAD_SCRIPT, Handler, audience, make_server, refusal

from .conftest import BUNDLED_BOOK, ROOT
from .serving import Served, edit, files_of

pytestmark = pytest.mark.slow  # each test starts `rulebook serve` and waits for its builds

UP_TO_DATE = "of Fantasy Battles: The 9th Age up to date"  # the main book's translations, editions, rule data


def full_build(project_root: Path, output: Path, *files: Path) -> dict[str, bytes]:
    """What ``recipe.build`` makes of the same sources with serve's options: every file's bytes."""
    options = build_values.BuildOptions(output=output, files=files, drafts=True, live_reload=RELOAD_SCRIPT)
    assert recipe.build(load_project(project_root), options).published
    return {path: data for path, (_, data) in files_of(output).items()}


def rewritten(before: dict[str, tuple[int, bytes]], after: dict[str, tuple[int, bytes]]) -> set[str]:
    return {path for path, (mtime, _) in after.items() if before.get(path, (None,))[0] != mtime}


def changed(before: dict[str, tuple[int, bytes]], after: dict[str, tuple[int, bytes]]) -> set[str]:
    return {path for path, (_, data) in after.items() if before.get(path, (0, None))[1] != data}


def test_an_edit_rewrites_the_pages_it_changes_and_no_other(tmp_path: Path) -> None:
    book = tmp_path / "book.xml"
    shutil.copyfile(BUNDLED_BOOK, book)
    with Served([str(book)], cwd=ROOT, temp=tmp_path / "tmp") as served:

        def rewritten_by(old: str, new: str, page: str) -> set[str]:
            """The files the edit rewrote, once everything it changed is written (the page first)."""
            before, mark = files_of(served.folder), served.mark()
            edit(book, old, new)
            served.wait_for_page(page, new)
            served.wait_for(UP_TO_DATE, after=mark)
            after = files_of(served.folder)
            assert rewritten(before, after) == changed(before, after)
            return rewritten(before, after)

        # Plain text of one chapter: that chapter's page, the search index and the rule data, nothing else.
        files = rewritten_by("An inch corresponds to 2.54 cm.", "An inch is exactly 2.54 cm.", "battlefield-logistics/")
        assert files == {"battlefield-logistics/index.html", "search/search_index.json", "rules.json"}

        # A definition: its chapter, the pages that link to the term (their previews), the glossary.
        files = rewritten_by("if you can extend a straight line", "if you can draw a straight line", "glossary/")
        pages = {path for path in files if path.endswith("index.html")}
        assert {"battlefield-logistics/index.html", "models-units-and-formations/index.html"} <= pages
        assert "glossary/index.html" in pages
        assert "characteristics/index.html" not in pages

        served_now = {path: data for path, (_, data) in files_of(served.folder).items()}
    assert served_now == full_build(ROOT, tmp_path / "built", book)
    assert not list((tmp_path / "tmp").glob("rulebook-serve-*")), "serve left its temporary folder"


def _project(tmp_path: Path) -> Path:
    """A copy of this repository's project: three books, a French translation."""
    project = tmp_path / "project"
    project.mkdir()
    for name in ("rulebook_src", "site_templates"):
        shutil.copytree(ROOT / name, project / name)
    for name in ("mkdocs.yml", "pyproject.toml"):
        shutil.copyfile(ROOT / name, project / name)
    return project


GATE = """
import os, time
import rulebook.translate.compare as compare
_compare_books = compare.compare_books
def _gated(*args, **kwargs):  # a comparison waits while the test's gate file is missing
    while not os.path.exists({gate!r}):
        time.sleep(0.05)
    return _compare_books(*args, **kwargs)
compare.compare_books = _gated
"""


def test_a_translation_edit_updates_the_french_pages_and_holds_up_no_english_page(tmp_path: Path) -> None:
    project = _project(tmp_path)
    gate = tmp_path / "gate"
    gate.touch()
    with Served([], cwd=project, temp=tmp_path / "tmp", prelude=GATE.format(gate=str(gate))) as served:
        gate.unlink()  # from now on the comparison of the translation cannot finish
        edit(project / "rulebook_src/fr/rulebook.md", "créé par la communauté", "créé par toute la communauté")
        edit(project / "rulebook_src/en/rulebook.xml", "An inch corresponds to 2.54 cm.", "An inch is exactly 2.54 cm.")
        served.wait_for_page("battlefield-logistics/", "An inch is exactly 2.54 cm.")
        assert "créé par toute la communauté" not in served.page("fr/introduction/")

        mark = served.mark()
        gate.touch()
        served.wait_for_page("fr/introduction/", "créé par toute la communauté")
        served.wait_for(UP_TO_DATE, after=mark)
        served.wait_for("(`turns-later`) up to date", after=mark)  # its "What changed" page follows main
        served_now = {path: data for path, (_, data) in files_of(served.folder).items()}
    assert served_now == full_build(project, tmp_path / "built")


def test_a_broken_edit_keeps_the_last_good_pages_and_says_why(tmp_path: Path) -> None:
    book = tmp_path / "book.xml"
    shutil.copyfile(BUNDLED_BOOK, book)
    with Served([str(book)], cwd=ROOT, temp=tmp_path / "tmp") as served:
        mark = served.mark()
        edit(book, '<chapter title="General Principles">', '<chapter title="General Principles"><oops>')
        served.wait_for("still serving the last good pages", after=mark)
        said = "".join(served.lines[mark:])
        assert "error[RB001]" in said
        assert said.count("rulebook: ") == 1 and str(tmp_path / "tmp") not in said  # one line, no temporary folder
        assert "Measuring Distances" in served.page("battlefield-logistics/")

        mark = served.mark()
        edit(book, "<oops>", "")  # back to what is served: nothing to write, but the author is told
        served.wait_for("builds again; its pages are up to date", after=mark)
        edit(book, "Measuring Distances", "Measuring Ranges")
        served.wait_for_page("battlefield-logistics/", "Measuring Ranges")


def test_an_edit_making_a_file_a_loop_of_links_keeps_the_last_good_pages(tmp_path: Path) -> None:
    """A save that leaves a source or ``mkdocs.yml`` a loop of links (``ln -s book.md book.md``) ended ``serve``
    (Python 3.11's ``Path.resolve`` raises RuntimeError there, the thirty-eighth probe), and a translation's
    terminology made one was told as ``TerminologyError: ...``: each is told plainly and the pages stay served."""
    project = _project(tmp_path)
    with Served([], cwd=project, temp=tmp_path / "tmp") as served:
        for name, again in (
            ("rulebook_src/en/rulebook.xml", "Built the site again"),  # after a failed edit, the whole site
            ("mkdocs.yml", "Built the site again"),
            ("rulebook_src/fr/terms.toml", UP_TO_DATE),
        ):
            path = project / name
            kept = path.read_bytes()
            mark = served.mark()
            path.unlink()
            path.symlink_to(path.name)
            said = served.wait_for("loop", after=mark)
            assert "Error:" not in said and "internal error" not in said, said
            assert "Measuring Distances" in served.page("battlefield-logistics/")
            mark = served.mark()
            path.unlink()
            path.write_bytes(kept)
            served.wait_for(again, after=mark)
        edit(project / "rulebook_src/en/rulebook.xml", "Measuring Distances", "Measuring Ranges")
        served.wait_for_page("battlefield-logistics/", "Measuring Ranges")


def test_an_edit_touches_its_own_book_at_once_and_what_follows_from_it_later() -> None:
    project = load_project(ROOT)

    def touched(path: str) -> LiveAffected:
        return touched_by(project, project.books, [ROOT / path])

    english = LiveAffected(books=("main",), later=("main", "turns-later"), own=("main",))
    assert touched("rulebook_src/en/rulebook.xml") == english
    assert touched("rulebook_src/fr/rulebook.md") == LiveAffected(later=("main",), translated=("main",))
    assert touched("rulebook_src/fr/terms.toml") == LiveAffected(later=("main",), translated=("main",))
    other = LiveAffected(books=("other-game",), later=("other-game",), own=("other-game",))
    assert touched("rulebook_src/other-game/rules.md") == other
    assert touched("mkdocs.yml") == LiveAffected(rebuild=True)
    assert touched("site_templates/assets/extra.css") == LiveAffected(rebuild=True)
    assert touched("README.md") == LiveAffected()


def test_a_bounded_stage_cache_drops_the_least_recently_used_results() -> None:
    cache = StageCache(limit=2)
    computed: list[str] = []
    for key in "abacab":
        cache.get("read", key, lambda key=key: computed.append(key))  # type: ignore[misc]
    assert computed == ["a", "b", "c", "b"]  # "a", used again, outlived "b"; "c" went to make room for "b"


def test_no_cache_keeps_nothing() -> None:
    from rulebook.recipe.cache import NO_CACHE

    computed: list[str] = []

    def compute() -> str:
        computed.append("a")
        return "a"

    assert [NO_CACHE.get("read", "a", compute) for _ in range(2)] == ["a", "a"]
    assert computed == ["a", "a"]  # a build without a cache runs every stage, and a later build (a test) again


def test_a_configuration_edit_is_served_with_the_new_configuration(tmp_path: Path) -> None:
    from rulebook.scaffold import init_project

    project = init_project(tmp_path / "game", "Old Title").root
    with Served([], cwd=project, temp=tmp_path / "tmp") as served:
        assert "<title>Old Title</title>" in served.page("")
        edit(project / "rulebook.toml", 'title = "Old Title"', 'title = "New Title"')
        served.wait_for_page("", "<title>New Title</title>")
        edit(project / "rulebook.toml", 'title = "New Title"', "title = 5")  # broken: the last good site stays
        served.wait_for("still serving the last good site")
        assert "<title>New Title</title>" in served.page("")


def test_serve_removes_what_a_killed_serve_left_and_nothing_else(tmp_path: Path) -> None:
    import subprocess

    from rulebook.serve.folder import FOLDER_PREFIX, OWNER

    temp = tmp_path / "tmp"
    temp.mkdir()
    ended = subprocess.Popen(["true"])
    ended.wait()  # its pid names no process now (pids are not reused this soon)
    abandoned = temp / f"{FOLDER_PREFIX}abandoned"
    (abandoned / "site").mkdir(parents=True)
    (abandoned / OWNER).write_text(f"{ended.pid}\n", encoding="utf-8")
    foreign = temp / f"{FOLDER_PREFIX}not-ours"  # no owner file: someone else's folder
    foreign.mkdir()
    # Another user's folders in a shared /tmp: an owner file that is a pipe held every preview up before it began
    # (it was read before the folder's owner was looked at), one linked to /dev/zero would be read forever.
    piped = temp / f"{FOLDER_PREFIX}piped"
    piped.mkdir()
    os.mkfifo(piped / OWNER)
    endless = temp / f"{FOLDER_PREFIX}endless"
    endless.mkdir()
    (endless / OWNER).symlink_to("/dev/zero")
    # A folder of a checkout, when the temporary folder is one (TMPDIR=.): made 0755, not by serve's mkdtemp (0700).
    committed = temp / f"{FOLDER_PREFIX}committed"
    committed.mkdir(mode=0o755)
    committed.chmod(0o755)
    (committed / OWNER).write_text(f"{ended.pid}\n", encoding="utf-8")
    abandoned.chmod(0o700)  # as mkdtemp made it
    project = tmp_path / "book.xml"
    shutil.copyfile(BUNDLED_BOOK, project)
    with Served([str(project)], cwd=ROOT, temp=temp):
        assert not abandoned.exists()
        assert foreign.exists() and piped.exists() and endless.exists() and committed.exists()


def test_with_zensical_an_edit_builds_the_site_again_with_its_cache_warm(tmp_path: Path) -> None:
    from .conftest import need_zensical

    need_zensical()
    book = tmp_path / "book.xml"
    shutil.copyfile(BUNDLED_BOOK, book)
    with Served([str(book), "--generator", "zensical"], cwd=ROOT, temp=tmp_path / "tmp") as served:
        assert (served.folder / "search.json").is_file()  # Zensical's site
        cache = served.folder.parent / "kept" / "cache" / "zensical" / "main" / "original" / ".cache"
        assert cache.is_dir()
        mark = served.mark()
        edit(book, "An inch corresponds to 2.54 cm.", "An inch is exactly 2.54 cm.")
        served.wait_for_page("battlefield-logistics/", "An inch is exactly 2.54 cm.")
        served.wait_for("Built the site again", after=mark)
        assert cache.is_dir()
    assert not list((tmp_path / "tmp").glob("rulebook-serve-*")), "serve left its temporary folder"


def test_a_sources_folder_deleted_and_made_again_is_watched_again(tmp_path: Path) -> None:
    from rulebook.scaffold import init_project

    project = init_project(tmp_path / "game", "Game").root
    sources, kept = project / "rules", tmp_path / "kept"
    with Served([], cwd=project, temp=tmp_path / "tmp") as served:
        shutil.copytree(sources, kept)
        shutil.rmtree(sources)  # as a branch switch does: the folder goes, then comes back
        shutil.copytree(kept, sources)
        edit(sources / "book.xml", 'title="Basics"', 'title="Made Again"')
        served.wait_for_page("basics/", "Made Again")

        shutil.rmtree(kept)
        shutil.copytree(sources, kept)
        edit(kept / "book.xml", 'title="Made Again"', 'title="Moved In"')
        shutil.rmtree(sources)
        kept.rename(sources)  # moved into place, as some tools restore a folder
        served.wait_for_page("basics/", "Moved In")


@pytest.fixture
def preview(tmp_path: Path) -> Iterator[int]:
    """The preview's server on a folder holding one page: its port."""
    (tmp_path / "index.html").write_text("drafts", encoding="utf-8")
    server = make_server(0)
    server.RequestHandlerClass = functools.partial(Handler, News(), tmp_path)  # type: ignore[assignment]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield server.server_address[1]
    finally:
        server.shutdown()
        server.server_close()


def test_the_preview_answers_only_requests_that_name_this_machine(preview: int) -> None:
    def status(host: str, method: str = "GET") -> int:
        connection = http.client.HTTPConnection("127.0.0.1", preview, timeout=10)
        connection.request(method, "/", headers={"Host": host})
        response = connection.getresponse()
        response.read()
        connection.close()
        return response.status

    for host in (f"127.0.0.1:{preview}", f"localhost:{preview}", "LOCALHOST", f"[::1]:{preview}"):
        assert status(host) == 200, host
        assert status(host, "HEAD") == 200, host
    for host in (f"rebound.example:{preview}", "rebound.example", f"127.0.0.1.rebound.example:{preview}"):
        assert status(host) == 403, host  # a page elsewhere, its name pointed at this machine
        assert status(host, "HEAD") == 403, host


def test_a_folder_without_a_page_is_not_found_as_on_the_published_site(preview: int, tmp_path: Path) -> None:
    """http.server listed the files of a folder without ``index.html`` (``/assets/``); a published site's host does
    not, and a preview shows what readers get."""
    (tmp_path / "assets").mkdir()
    (tmp_path / "assets" / "extra.css").write_text("p {}", encoding="utf-8")
    assert answer(preview, b"GET /assets/ HTTP/1.0\r\n\r\n")[0] == "HTTP/1.0 404 Not Found"
    assert answer(preview, b"GET /assets/extra.css HTTP/1.0\r\n\r\n")[0] == "HTTP/1.0 200 OK"
    assert answer(preview, b"GET / HTTP/1.0\r\n\r\n")[0] == "HTTP/1.0 200 OK"


def answer(port: int, request: bytes) -> list[str]:
    """The status line and headers the preview answers a request (sent as bytes) with, once it has closed."""
    with socket.create_connection(("127.0.0.1", port), timeout=60) as connection:
        connection.sendall(request)
        received = connection.makefile("rb").read()  # to the end: the server is done with the request
    head = received.split(b"\r\n\r\n", 1)[0]
    return head.decode("latin-1").split("\r\n")


LOCAL = b"Host: 127.0.0.1\r\n"


@pytest.mark.parametrize(
    ("request_bytes", "status"),
    [
        (b"GET /%00 HTTP/1.1\r\n" + LOCAL, "400 Bad path (a control character)"),
        (b"GET /index.html%00.png HTTP/1.1\r\n" + LOCAL, "400 Bad path (a control character)"),
        (b"GET /%1b[2J HTTP/1.1\r\n" + LOCAL, "400 Bad path (a control character)"),
        (b"GET /\x00 HTTP/1.1\r\n" + LOCAL, "400 Bad request target (a path such as /index.html)"),
        (b"GET /caf\xc3\xa9 HTTP/1.1\r\n" + LOCAL, "400 Bad request target (a path such as /index.html)"),
        (b"GET index.html HTTP/1.1\r\n" + LOCAL, "400 Bad request target (a path such as /index.html)"),
        (b"GET http://rebound.example/ HTTP/1.1\r\n" + LOCAL, "400 Bad request target (a path such as /index.html)"),
        (b"GET /%zz HTTP/1.1\r\n" + LOCAL, "400 Bad percent-encoding"),
        (b"GET /index.html?page=% HTTP/1.1\r\n" + LOCAL, "400 Bad percent-encoding"),
        (b"GET /%ff%fe HTTP/1.1\r\n" + LOCAL, "400 Bad percent-encoding (not UTF-8)"),
        (b"GET /%ed%a0%80 HTTP/1.1\r\n" + LOCAL, "400 Bad percent-encoding (not UTF-8)"),  # a lone surrogate
        (b"GET /" + b"a" * 5000 + b" HTTP/1.1\r\n" + LOCAL, "414 A target of 5,001 characters (at most 2,048)"),
        (b"GET /" + b"a/" * 1100 + b" HTTP/1.1\r\n" + LOCAL, "414 A target of 2,201 characters (at most 2,048)"),
        (b"G\x01T / HTTP/1.1\r\n" + LOCAL, "400 Bad request method"),
        (b"BREW / HTTP/1.1\r\n" + LOCAL, "405 This preview answers GET and HEAD only"),
        (b"POST / HTTP/1.1\r\nContent-Length: 0\r\n" + LOCAL, "405 This preview answers GET and HEAD only"),
        (b"GET / HTTP/1.x\r\n" + LOCAL, "400 Bad request version ('HTTP/1.x')"),
        (b"GET / HTTP/1.1\r\n", "400 No Host header"),
        (b"GET / HTTP/1.1\r\nHost: \r\n", "400 Bad Host header"),
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1\x00.rebound.example\r\n", "400 Bad Host header"),
        (b"GET / HTTP/1.1\r\nHost: 127.0.0.1:80:80\r\n", "400 Bad Host header"),
        (b"GET / HTTP/1.1\r\n" + LOCAL + b"Host: rebound.example\r\n", "400 More than one Host header"),
        (b"GET / HTTP/1.1\r\nHost: rebound.example\r\n", "403 This preview answers only to 127.0.0.1 and localhost"),
    ],
)
def test_a_malformed_request_gets_its_4xx_and_never_a_traceback(
    preview: int, capfd: pytest.CaptureFixture[str], request_bytes: bytes, status: str
) -> None:
    """Any web page the editor opens can send these to the preview (`GET /%00` once printed a traceback)."""
    head = answer(preview, request_bytes + b"Connection: close\r\n\r\n")
    assert head[0] == f"HTTP/1.0 {status}"
    assert ("Allow: GET, HEAD" in head) == status.startswith("405")
    assert capfd.readouterr().err == ""


def test_the_preview_still_answers_a_request_as_http_1_0_sends_it(preview: int) -> None:
    assert answer(preview, b"GET /index.html HTTP/1.0\r\n\r\n")[0] == "HTTP/1.0 200 OK"  # no Host: this machine
    assert answer(preview, b"GET /a%20b HTTP/1.1\r\n" + LOCAL + b"\r\n")[0] == "HTTP/1.0 404 File not found"


def _new_project(tmp_path: Path) -> Path:
    """A project ``rulebook init`` makes (the starter book: clean)."""
    from rulebook.cli import main

    project = tmp_path / "game"
    assert main(["init", str(project), "--title", "Game"]) == 0
    return project


def test_an_edit_prints_the_lint_findings_it_brought_and_no_other(tmp_path: Path) -> None:
    project = _new_project(tmp_path)
    book = project / "rules" / "book.xml"
    with Served([], cwd=project, temp=tmp_path / "tmp") as served:
        mark = served.mark()
        edit(
            book,
            '<reference name="nerve_test">nerve test</reference>.',
            '<reference name="nerve_tst">nerve test</reference>.',
        )
        served.wait_for("Updated", after=mark)
        said = "".join(served.lines[mark:])
        assert (
            "error[RB101]: reference to undefined term `nerve_tst`" in said and "^^^" in said
        )  # as `rulebook lint` says it
        assert "warning[RB401]: term `nerve_test` is referred to only inside its own definition" in said

        mark = served.mark()  # lines move, the same findings: nothing said again
        edit(book, "<document>", "<document>\n\n")
        served.wait_for("Updated", after=mark)
        assert "[RB" not in "".join(served.lines[mark:])

        mark = served.mark()
        edit(book, '<reference name="nerve_tst">', '<reference name="nerve_test">')
        assert "2 lint findings fixed in Game." in served.wait_for("fixed in", after=mark)


def test_host_serves_other_devices_with_a_warning(tmp_path: Path) -> None:
    project = _new_project(tmp_path)
    with Served(["--host", "0.0.0.0"], cwd=project, temp=tmp_path / "tmp") as served:
        warned = served.wait_for("the preview listens on 0.0.0.0")
        assert "anyone who can reach this machine there reads the drafts, without a password" in warned
        assert re.search(r"\(from another device: http://\S+:\d+/\)", served.wait_for("Serving on"))
        port = int(served.url.rsplit(":", 1)[1].strip("/"))
        for host, status in ((f"192.168.1.20:{port}", 200), (f"[fe80::1]:{port}", 200), ("rebound.example", 403)):
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
            connection.request("GET", "/", headers={"Host": host})
            assert connection.getresponse().status == status, host
            connection.close()


def test_who_the_preview_answers_depends_on_where_it_listens() -> None:
    for local in ("127.0.0.1", "localhost", "::1", "127.0.0.2"):
        assert not audience(local).addresses and not audience(local).allows("192.168.1.20"), local
    everyone = audience("0.0.0.0")
    assert everyone.allows("192.168.1.20") and everyone.allows("[fe80::1]") and everyone.allows("localhost")
    assert everyone.allows(socket.gethostname()) and not everyone.allows("rebound.example")
    assert refusal("GET", "/", ["10.0.0.5:8000"], "HTTP/1.1", everyone) is None
    assert refusal("GET", "/", ["10.0.0.5:8000"], "HTTP/1.1") == (
        403,
        "This preview answers only to 127.0.0.1 and localhost",
    )
