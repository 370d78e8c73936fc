"""The shortcuts the lint takes to make diagnostics and spans give what the plain way gives."""

from __future__ import annotations

import dataclasses

from rulebook.diagnostics import Diagnostic, Note, Rule, Severity
from rulebook.lint.base import places, spans
from rulebook.model import Reference
from rulebook.source import SourceText, Span

RULE = Rule("RB999", "test-rule", Severity.WARNING, "A rule for tests.")


def _reference(source: SourceText, offset: int, section_id: str = "s") -> Reference:
    return Reference("name", "text", None, section_id, None, source, offset)


def test_rule_diagnostic_equals_the_dataclass_made_plainly() -> None:
    span = Span("f.xml", 2, 3, 4)
    note = Note("here", span)
    made = RULE.diagnostic(
        "m", span, target="t", suggestions=("a",), help="h", notes=(note,), section_id="s", counterpart=note
    )
    plain = Diagnostic("RB999", "test-rule", Severity.WARNING, "m", span, "t", ("a",), "h", (note,), "s", note)
    assert made == plain
    assert hash(made) == hash(plain)
    assert dataclasses.astuple(made) == dataclasses.astuple(plain)
    assert dataclasses.replace(made, severity=Severity.ERROR).severity is Severity.ERROR


def test_every_field_is_set_by_the_shortcut() -> None:
    """A field added to Diagnostic must be added to the shortcut that builds it too."""
    made = RULE.diagnostic("m", Span("f", 1, 1))
    assert [f.name for f in dataclasses.fields(Diagnostic)] == list(Diagnostic.__slots__)
    for field in dataclasses.fields(Diagnostic):
        getattr(made, field.name)  # an unset slot raises AttributeError


def test_diagnostics_at_many_places_differ_only_in_place() -> None:
    at = [(Span("f", 1, 1), "a"), (Span("f", 2, 5), None)]
    made = RULE.diagnostics("m", at, target="t", help="h")
    assert made == [RULE.diagnostic("m", span, target="t", help="h", section_id=section) for span, section in at]


def test_spans_of_many_nodes_equal_each_node_span() -> None:
    one = SourceText.from_text("one.xml", "ab\ncd\r\nef\rgh\n\nlast")
    two = SourceText.from_text("two.xml", "x\ny\nz")
    offsets = [0, 13, 3, 1, 8, 15, 4, 12, 7]
    nodes = [_reference(one, offset) for offset in offsets]
    assert spans(nodes) == [node.span for node in nodes]
    mixed = [_reference(two, 4), *nodes[:3], _reference(two, 0, "t"), *nodes[3:], _reference(two, 2)]
    assert spans(mixed) == [node.span for node in mixed]
    assert places(mixed) == [(node.span, node.section_id) for node in mixed]
    assert spans([]) == []
