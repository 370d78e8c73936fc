"""Shared fixtures: paths, the golden-file switch, and helpers that lint a string."""

from __future__ import annotations

import contextlib
import functools
import http.server
import importlib.util
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from rulebook.cli import main
from rulebook.diagnostics import Diagnostic
from rulebook.graph import TermGraph
from rulebook.model import Book, Document
from rulebook.project import BookConfig
from rulebook.recipe.stages import lint_book
from rulebook.stage_values import ReadResult
from rulebook.xml_source import parse_xml_string

ROOT = Path(__file__).resolve().parent.parent
CASES = ROOT / "tests" / "cases"
BUNDLED_BOOK = ROOT / "rulebook_src" / "en" / "rulebook.xml"
SHARED = ROOT.parent / "shared"
CHROMIUM = Path("/usr/bin/chromium")
"""Debian's Chromium, which the browser tests drive with Playwright (.ci/run installs it)."""
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.fixture(autouse=True, scope="session")
def private_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The engine remembers checked rule data in the user's cache folder: the tests keep their own."""
    folder = tmp_path_factory.mktemp("cache")
    previous = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(folder)
    yield folder
    if previous is None:
        del os.environ["XDG_CACHE_HOME"]
    else:
        os.environ["XDG_CACHE_HOME"] = previous


os.environ.setdefault("RULEBOOK_READ_UNCOMMITTED", "1")
"""The tests' projects are files no commit holds, and CI runs them with ``CI`` set: read as a developer's are (the
tests of the CI rule set ``CI`` and take this away)."""

QUICK = "not slow and not browser"
"""The marker expression of a local run (``addopts`` in pyproject.toml): ``--all``, and CI, run every test."""


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--update-golden", action="store_true", help="rewrite golden files from current output")
    parser.addoption("--all", action="store_true", help="run every test, the slow and browser ones too (as CI does)")


def pytest_configure(config: pytest.Config) -> None:
    """``--all`` or ``CI`` set: the quick run's marker expression is dropped (one given on the command line stays)."""
    if (config.getoption("--all") or os.environ.get("CI")) and config.option.markexpr == QUICK:
        config.option.markexpr = ""


@pytest.hookimpl(tryfirst=True)  # before the marker expression chooses
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """A test that starts Chromium is a browser test, whether or not its file says so."""
    for item in items:
        if "chromium" in getattr(item, "fixturenames", ()) and item.get_closest_marker("browser") is None:
            item.add_marker(pytest.mark.browser)


def pytest_terminal_summary(terminalreporter: Any, config: pytest.Config) -> None:
    marked = ("slow", "browser")
    left = terminalreporter.stats.get("deselected", [])
    deselected = sum(1 for item in left if any(item.get_closest_marker(name) for name in marked))
    if deselected and config.option.markexpr == QUICK:
        terminalreporter.write_line(
            f"the quick run: {deselected} slow or browser tests not run (`pytest --all` runs them)"
        )


@pytest.fixture
def update_golden(request: pytest.FixtureRequest) -> bool:
    return bool(request.config.getoption("--update-golden"))


def check_golden(path: Path, output: str, update: bool) -> None:
    """``output`` equal to the golden file ``path``, which only ``pytest --update-golden`` writes.

    A missing golden file fails: a golden file is what a person has read and found right, never what the code
    happened to print the first time.
    """
    shown = path.relative_to(ROOT).as_posix() if path.is_relative_to(ROOT) else str(path)
    if update:
        path.write_text(output, encoding="utf-8")
        return
    if not path.is_file():
        pytest.fail(
            f"the golden file {shown} is missing: write it with `pytest --update-golden`, then read it "
            "(a person checks every line before it is committed)"
        )
    assert output == path.read_text(encoding="utf-8"), f"run `pytest --update-golden` and read the diff of {shown}"


def check_generated_part(path: Path, begins: str, ends: str, expected: str, update: bool) -> None:
    """The part of a document between the line holding ``begins`` and ``ends`` is ``expected`` (a table the
    code generates); ``pytest --update-golden`` writes it there."""
    shown = path.relative_to(ROOT).as_posix()
    text = path.read_text(encoding="utf-8")
    if begins not in text or ends not in text:
        pytest.fail(f"{shown} has lost the marks of its generated part: `{begins}` ... `{ends}`")
    start = text.index("\n", text.index(begins)) + 1
    end = text.index(ends, start)
    if update:
        path.write_text(text[:start] + expected + text[end:], encoding="utf-8")
        return
    assert text[start:end] == expected, f"run `pytest --update-golden` and read the diff of {shown}"


def parse(xml: str, path: str = "book.xml") -> Document:
    result = parse_xml_string(xml, path)
    assert result.document is not None, result.diagnostics
    return result.document


def lint_string(xml: str, path: str = "book.xml") -> list[Diagnostic]:
    """Every diagnostic for a one-file book given as text (the same from the whole model and the outline)."""
    found = [_lint_parsed(xml, path, outline) for outline in (False, True)]
    assert found[0] == found[1], "the outline's lint differs from the whole model's"
    return found[0]


def _lint_parsed(xml: str, path: str, outline: bool) -> list[Diagnostic]:
    result = parse_xml_string(xml, path, outline=outline)
    documents = (result.document,) if result.document else ()
    sources = {path: result.source} if result.source else {}
    read = ReadResult(Book(documents), result.diagnostics, sources)
    return list(lint_book(read, BookConfig("main"), root=ROOT).diagnostics)


def terms_of(xml: str) -> TermGraph:
    return TermGraph(Book((parse(xml),)))


def rules_of(diagnostics: list[Diagnostic]) -> list[tuple[str, str | None]]:
    return [(d.rule, d.target) for d in diagnostics]


def build(output: Path, *files: Path, drafts: bool = False, generator: str | None = None, offline: bool = False) -> int:
    """``rulebook build`` from the project folder (where mkdocs.yml and site_templates are)."""
    cwd = Path.cwd()
    os.chdir(ROOT)
    options = [*(["--drafts"] if drafts else []), *(["--generator", generator] if generator else [])]
    options += ["--offline"] if offline else []
    try:
        return main(["build", "-q", "--output", str(output), *options, *map(str, files)])
    finally:
        os.chdir(cwd)


GENERATORS = ("mkdocs", "zensical")
"""The site generators every site test runs with (``generator`` in the configuration)."""


def need_zensical() -> None:
    """Skip a test where Zensical is not installed (the ``zensical`` extra), but fail in CI, which installs it."""
    if importlib.util.find_spec("zensical") is None:
        if os.environ.get("CI"):
            pytest.fail("zensical is not installed: .ci/run installs the `zensical` extra")
        pytest.skip("zensical is not installed (pip install -e '.[zensical]')")


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled book's site as published (for readers), built once per test session."""
    output = tmp_path_factory.mktemp("built") / "site"
    assert build(output) == 0
    return output


@pytest.fixture(scope="session")
def offline_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled book's site built to be read from disk (``--offline``), built once per test session."""
    output = tmp_path_factory.mktemp("offline") / "site"
    assert build(output, offline=True) == 0
    return output


@pytest.fixture(scope="session")
def zensical_offline_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled book's site built with Zensical to be read from disk, built once per test session."""
    need_zensical()
    output = tmp_path_factory.mktemp("zensical-offline") / "site"
    assert build(output, generator="zensical", offline=True) == 0
    return output


@pytest.fixture(params=GENERATORS)
def any_offline_site(request: pytest.FixtureRequest) -> Path:
    """The offline site built with each generator."""
    return Path(request.getfixturevalue("offline_site" if request.param == "mkdocs" else "zensical_offline_site"))


@pytest.fixture(scope="session")
def zensical_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled book's site as published, built with Zensical, once per test session."""
    need_zensical()
    output = tmp_path_factory.mktemp("zensical") / "site"
    assert build(output, generator="zensical") == 0
    return output


@pytest.fixture(scope="session")
def zensical_drafts(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The editor's view built with Zensical, once per test session."""
    need_zensical()
    output = tmp_path_factory.mktemp("zensical-drafts") / "site"
    assert build(output, drafts=True, generator="zensical") == 0
    return output


@pytest.fixture(params=GENERATORS)
def any_site(request: pytest.FixtureRequest) -> Path:
    """The published site, built with each generator in turn (each built once per session)."""
    return Path(request.getfixturevalue("site" if request.param == "mkdocs" else "zensical_site"))


@pytest.fixture(scope="session")
def drafts_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The bundled book's site in the editor's view (``build --drafts``), built once per test session."""
    output = tmp_path_factory.mktemp("drafts") / "site"
    assert build(output, drafts=True) == 0
    return output


@contextlib.contextmanager
def serve(folder: Path) -> Iterator[str]:
    """Serve a folder on localhost; yields its base URL."""
    handler = functools.partial(_QuietHandler, directory=str(folder))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="session")
def chromium() -> Iterator[Any]:
    """Debian's Chromium, started once for all browser tests (skipped where it is not installed)."""
    if not CHROMIUM.exists():
        pytest.skip("Debian chromium is not installed (.ci/run installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        instance = playwright.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield instance
        instance.close()
