"""The documentation reaches whoever installed the package: ``rulebook docs``, and every pointer at a guide.

A message that says "see docs/lint.md" leaves a wheel user looking for a file they do not have; the
messages say ``rulebook docs lint`` instead, and the guides ship in the package. Here the package's own
files (code, starter files, templates) are held to that in the source tree; tests/test_wheel.py holds
the built wheel to it.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulebook import guides
from rulebook.cli import main

from .conftest import ROOT

NAMED_GUIDE = re.compile(
    r"rulebook docs (?P<topic>[a-z][a-z0-9_-]*)|\bdocs/(?P<file>[a-z][a-z0-9_-]*)\.md(?:#(?P<anchor>[a-z0-9-]+))?"
)
"""How a text points at a guide: ``rulebook docs lint``, or ``docs/site.md#publishing``."""
TEXT_FILES = (".py", ".j2", ".toml", ".yml", ".yaml", ".xml", ".txt", ".js", ".html", ".dtd", ".md")


def named_guides(text: str) -> set[tuple[str, str | None]]:
    """Every guide a text points at, with the heading's anchor where it names one."""
    return {(found["topic"] or found["file"], found["anchor"]) for found in NAMED_GUIDE.finditer(text)}


def anchors(markdown: str) -> set[str]:
    """The anchors of a guide's headings, as MkDocs and GitHub make them."""
    headings = re.findall(r"^#+ (.+)$", markdown, re.MULTILINE)
    return {re.sub(r"\s+", "-", re.sub(r"[^\w\s-]", "", heading.lower()).strip()) for heading in headings}


def package_texts() -> dict[str, str]:
    """Every text file of the package, by path (the guides themselves apart: they link each other by file)."""
    package = ROOT / "compiler"
    return {
        path.relative_to(package).as_posix(): path.read_text(encoding="utf-8")
        for path in sorted(package.rglob("*"))
        if path.suffix in TEXT_FILES and path.is_file() and "__pycache__" not in path.parts
    }


def test_every_pointer_at_a_guide_names_one_the_package_has() -> None:
    topics = guides.topics()
    pointed = {(path, *named) for path, text in package_texts().items() for named in named_guides(text)}
    assert len(pointed) > 10
    for path, topic, anchor in pointed:
        assert topic in topics, f"{path} points at `{topic}`, which is no guide of the package"
        if anchor:
            assert anchor in anchors(guides.guide_text(topic)), f"{path}: no heading `#{anchor}` in {topic}"


def test_the_messages_a_user_meets_point_at_rulebook_docs() -> None:
    """What the terminal, a starter file or a page shows names a command the user has, never a path of this
    repository (docstrings and comments, read by the compiler's developers, may)."""
    texts = package_texts()
    assert "`rulebook docs lint`" in texts["cli/lint.py"]
    assert "see Limits in `rulebook docs engine`" in texts["engine/limits.py"]
    assert "`rulebook docs format`" in texts["starter/book.xml"]
    shown = {path: user_strings(text) if path.endswith(".py") else [text] for path, text in texts.items()}
    for path, strings in shown.items():
        for string in strings:
            assert not re.search(r"\bdocs/[a-z]+\.md", string), f"{path}: {string!r} names a path of the repository"


def user_strings(source: str) -> list[str]:
    """The string constants of a module that are not documentation (a string standing as a statement: a
    docstring, an attribute's docstring): its messages, help and output."""
    tree = ast.parse(source)
    documentation = {id(node.value) for node in ast.walk(tree) if isinstance(node, ast.Expr)}
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in documentation
    ]


def test_docs_lists_the_guides_and_prints_one(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs"]) == 0
    listed = capsys.readouterr().out
    for topic in ("readme", "format", "lint", "site", "security", "engine"):
        assert re.search(rf"^  {topic} +\S", listed, re.MULTILINE), topic
    assert f"Their files: {guides.guides_folder()}" in listed
    assert main(["docs", "lint"]) == 0
    assert capsys.readouterr().out == (ROOT / "docs" / "lint.md").read_text(encoding="utf-8")
    assert main(["docs", "docs/format.md", "--path"]) == 0
    assert (
        Path(capsys.readouterr().out.strip())
        .read_text(encoding="utf-8")
        .startswith("# The rulebook formats: XML and the Markdown dialect")
    )
    assert main(["docs", "readme"]) == 0
    assert capsys.readouterr().out.startswith("# rulebook: a compiler")


def test_an_unknown_guide_is_a_usage_error_with_the_closest(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["docs", "lnit"]) == 2
    assert capsys.readouterr().err == "rulebook: error: no guide is called `lnit`: did you mean `lint`?\n"
    assert main(["docs", "../../etc/passwd"]) == 2  # a topic is a name, never a path
    assert "`rulebook docs` lists them" in capsys.readouterr().err


def test_top_level_help_gives_the_address_of_the_documentation(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "`rulebook docs` lists the guides installed with this package" in " ".join(capsys.readouterr().out.split())
