"""Data a command writes keeps a source's controls exact and inert: each written as its format's escape.

The nineteenth probe of issue 32 found the graph's JSON and GraphML exports and ``terms suggest`` writing U+202E
and a C1 control raw on the terminal, and ``compare --waive`` writing ESC raw into a waivers file, which every later
``build``, ``status`` and ``lint`` then refused as TOML (each stopped, exit 2).
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from rulebook.characters import toml_string

from .scratch import run, scratch  # noqa: F401 (fixtures)

CUT = "Cut\u202e\u009b here"
"""A heading holding a right-to-left override and a C1 control (CSI)."""
RAW = ("\x1b", "\u202e", "\u009b", "\u2066")


def _book(folder: Path) -> None:
    (folder / "book.md").write_text(
        f"---\ntitle: Book\n---\n\n# Basics {{#basics}}\n\n## {CUT} {{#cut}}\n\n[A [[fighter]] fights.]{{dfn=fighter}}\n",
        encoding="utf-8",
    )
    (folder / "rulebook.toml").write_text('sources = ["book.md"]\n', encoding="utf-8")


@pytest.mark.parametrize("graph_format", ["json", "graphml", "dot"])
def test_a_graph_export_writes_controls_escaped(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    graph_format: str,
) -> None:
    _book(scratch)
    outcome = run(capsys, "graph", "--format", graph_format, "-o", "-")
    assert outcome.code == 0
    assert not any(character in outcome.out for character in RAW)
    if graph_format == "json":
        titles = [node.get("title") for node in json.loads(outcome.out)["nodes"]]
        assert CUT in titles  # exact
    elif graph_format == "graphml":
        assert "Cut&#x202e;&#x9b; here" in outcome.out


def test_terms_suggest_writes_a_renderings_controls_escaped(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    _book(scratch)
    (scratch / "fr.md").write_text(
        "---\ntitle: Livre\n---\n\n# Bases\n\n## Couper\n\n[Un [[fighter|comba\u202e\u009bttant]] combat.]{dfn=fighter}\n",
        encoding="utf-8",
    )
    outcome = run(capsys, "terms", "suggest", "book.md", "fr.md", "--language", "fr")
    assert not any(character in outcome.out for character in RAW)
    assert 'preferred = "comba\\u202E\\u009Bttant"' in outcome.out


def test_a_toml_string_holds_every_character_exactly() -> None:
    text = 'a"b\\c\x1b\x07\x7f\u0085\u202e\u2066\u2028é\t\n'
    written = toml_string(text)
    assert not any(ord(character) < 0x20 or character in "\x7f\u0085\u202e\u2066\u2028" for character in written)
    assert tomllib.loads(f"key = {written}")["key"] == text


def test_a_waiver_of_a_finding_quoting_controls_is_a_file_the_next_build_reads(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    (scratch / "book.md").write_text(
        "---\ntitle: Book\n---\n\n# Basics {#basics}\n\n## Fi\x1bgh\x7fters {#fighters}\n\nFighters fight.\n",
        encoding="utf-8",
    )
    (scratch / "fr.md").write_text("---\ntitle: Livre\n---\n\n# Bases\n", encoding="utf-8")
    (scratch / "rulebook.toml").write_text(
        'sources = ["book.md"]\n[translations.fr]\nsource = "fr.md"\n', encoding="utf-8"
    )
    report = json.loads(run(capsys, "compare", "book.md", "fr.md", "--language", "fr", "--format", "json").out)
    fingerprints = [d["target"] for d in report["diagnostics"] if d["rule"] == "missing-section"]
    assert fingerprints
    outcome = run(capsys, "compare", "book.md", "fr.md", "--language", "fr", "--waive", fingerprints[0])
    assert outcome.code in (0, 1)
    written = (scratch / "waivers.toml").read_text(encoding="utf-8")
    assert "\x1b" not in written and "\x7f" not in written
    assert "Fi\\u001Bgh\\u007Fters" in written
    tomllib.loads(written)
    assert run(capsys, "status").code in (0, 1)


def test_a_conversion_to_xml_writes_controls_as_references_read_back_exactly(
    scratch: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    """`convert -o -` wrote a source's U+202E and C1 controls raw on the terminal (the nineteenth probe): XML writes
    them as character references, which read back as the characters themselves."""
    _book(scratch)
    outcome = run(capsys, "convert", "book.md", "--to", "xml", "-o", "-")
    assert outcome.code == 0
    assert not any(character in outcome.out for character in RAW)
    assert "Cut&#x202e;&#x9b; here" in outcome.out
    (scratch / "book.xml").write_text(outcome.out, encoding="utf-8")
    assert run(capsys, "build", "--data-only", "-q", "book.md", "-o", "from-md").code == 0
    assert run(capsys, "build", "--data-only", "-q", "book.xml", "-o", "from-xml").code == 0
    rules = [
        json.loads((scratch / name / "rules.json").read_text(encoding="utf-8")) for name in ("from-md", "from-xml")
    ]
    assert rules[0]["sections"] == rules[1]["sections"] and CUT in json.dumps(rules[1], ensure_ascii=False)
