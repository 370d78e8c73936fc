"""Property-based tests: mutated and random rulebooks never crash the lint.

Whatever the input, the result is diagnostics (or one located fatal error),
every place named is inside the file, and the output is the same twice.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulebook.diagnostics import Severity
from rulebook.report import Report, renderer

from .conftest import BUNDLED_BOOK, lint_string

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
