"""Property-based tests: mutated and random rulebooks never crash the lint.

Whatever the input, the result is diagnostics (or one located fatal error),
every place named is inside the file, and the output is the same twice.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulebook.diagnostics import Severity
from rulebook.report import renderer
from rulebook.report.summary import Report

from .conftest import BUNDLED_BOOK, ROOT, lint_string

SEED = BUNDLED_BOOK.read_text(encoding="utf-8")
# A slice of the seed keeps each example small and fast.
EXCERPT = SEED[: SEED.index("<!-- CHAPTER : General Principles -->")] + "</document>\n"
TAGS = [
    "document",
    "chapter",
    "section",
    "subsection",
    "definition",
    "reference",
    "link",
    "note",
    "table",
    "row",
    "cell",
    "header",
    "headers",
    "list",
    "sequence",
    "item",
    "figure",
    "image",
    "caption",
    "br",
    "important",
    "x",
]
NAMES = st.one_of(st.sampled_from(["model", "unit", "base", "", "a b", "model", "é", "x" * 50]), st.text(max_size=8))

SETTINGS = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def check_invariants(text: str) -> None:
    diagnostics = lint_string(text)
    lines = re.split(r"\r\n|\r|\n", text)  # every line end counts, as in the readers (docs/format.md)
    fatal = [d for d in diagnostics if d.severity is Severity.FATAL]
    assert len(fatal) <= 1
    if fatal:
        assert diagnostics == fatal
    for d in diagnostics:
        assert 1 <= d.span.line <= len(lines), d
        assert 1 <= d.span.column <= len(lines[d.span.line - 1]) + 1, d
        assert d.message and d.code.startswith("RB")
    for name in ("text", "json", "github", "sarif"):
        renderer(name)(Report(tuple(diagnostics), files=1))
    assert lint_string(text) == diagnostics  # deterministic


@SETTINGS
@given(st.data())
def test_mutated_seed_never_crashes(data: st.DataObject) -> None:
    text = EXCERPT
    for _ in range(data.draw(st.integers(1, 4))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 40)))
        insert = data.draw(
            st.one_of(
                st.just(""),
                st.sampled_from(
                    ["<", ">", "&", '"', "</definition>", "<br/>", "<reference name='q'>", "&amp;", "&lt;", "\x00"]
                ),
                st.text(max_size=5),
            )
        )
        text = text[:start] + insert + text[end:]
    check_invariants(text)


@st.composite
def elements(draw: st.DrawFn, depth: int = 0) -> str:
    tag = draw(st.sampled_from(TAGS))
    attributes = "".join(
        f' {attr}="{draw(NAMES).replace("&", "").replace("<", "").replace(chr(34), "")}"'
        for attr in draw(
            st.lists(st.sampled_from(["name", "to", "id", "title", "type", "source"]), max_size=2, unique=True)
        )
    )
    children = draw(st.lists(elements(depth + 1), max_size=3)) if depth < 4 else []
    text = draw(st.text(alphabet="ab Éé.\n", max_size=6))
    return f"<{tag}{attributes}>{text}{''.join(children)}</{tag}>"


@SETTINGS
@given(st.lists(elements(), max_size=4))
def test_random_rulebooks_never_crash(children: list[str]) -> None:
    check_invariants(f"<document>{''.join(children)}</document>")


# -- the Markdown dialect: what its reader accepts, both formats say the same ----------------------------------

DIALECT_BOOK = (ROOT / "tests" / "dialect" / "book.md").read_text(encoding="utf-8")
DIALECT_PIECES = [
    "[[",
    "]]",
    "|",
    "{",
    "}",
    "\n",
    "\\\n",
    "<br>",
    "#",
    "## ",
    "[",
    "](#turn)",
    "{#x}",
    "{dfn=x}",
    "{value=x}",
    "{.title}",
    "{roll=D6}",
    "{.row-headers}",
    "::: note N\n",
    "::: figure f\n",
    ":::\n",
    "![](a.png)",
    "**",
    "1. ",
    "- ",
    "---\n",
    '<!-- rulebook: mechanic name="x" max="1" -->',
    "| D6 | R |\n|---|---|\n| 1-6 | r |\n",
    "<ul><li>",
    "</li>",
    "</ul>",
]
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@SETTINGS
@given(st.data())
def test_what_the_dialect_reads_without_findings_converts_both_ways_to_the_same_model(data: st.DataObject) -> None:
    """A mutated dialect book that its reader accepts (no finding, names that are names) is one the XML format
    can say: its XML conversion is valid to the DTD and reads to the same model, and its Markdown conversion
    reads back to the same model (what the dialect's checks must catch is whatever the DTD refuses)."""
    from rulebook.convert import convert_document
    from rulebook.readers.markdown import parse_dialect
    from rulebook.xml_source import parse_xml_string

    from .model_dump import dump_document

    text = DIALECT_BOOK
    for _ in range(data.draw(st.integers(1, 4))):
        start = data.draw(st.integers(0, len(text)))
        end = data.draw(st.integers(start, min(len(text), start + 30)))
        text = text[:start] + data.draw(st.sampled_from(DIALECT_PIECES)) + text[end:]
    read = parse_dialect(text, "book.md")
    document = read.document
    assert document is not None
    names = [
        *(d.name for d in document.definitions),
        *(r.name for r in document.references),
        *(link.to for link in document.links),
        *(figure.id for figure in document.figures),
        *(value.name for value in document.values),
        *(section.id for section in document.sections if section.explicit_id),
    ]
    if read.diagnostics or not all(IDENTIFIER.fullmatch(name) for name in names):
        event("refused by the reader")
        return
    expected = dump_document(document)
    as_xml = parse_xml_string(convert_document(document, "xml"), "book.xml")
    assert [d.message for d in as_xml.diagnostics] == [] and as_xml.document is not None
    assert dump_document(as_xml.document) == expected
    as_markdown = parse_dialect(convert_document(document, "markdown"), "again.md")
    assert [d.message for d in as_markdown.diagnostics] == [] and as_markdown.document is not None
    assert dump_document(as_markdown.document) == expected
