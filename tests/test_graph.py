"""The term graph's queries: sorted, and true to the book."""

from __future__ import annotations

from .conftest import terms_of

BOOK = """<document><chapter title="Terms">
  <section title="Models">
    <definition name="model">On a <reference name="base">base</reference>, a <reference name="model">model</reference>.</definition>
    <definition name="base">Under a <reference name="model">model</reference>; see <reference name="unit">unit</reference>.</definition>
  </section>
  <section title="Units" id="units">
    <definition name="unit">Some <reference name="model">models</reference> in <reference name="rank">ranks</reference>.</definition>
    Later: <reference name="base">bases</reference>, <link to="units">units</link>.
  </section>
</chapter></document>"""


def test_term_queries_are_sorted_and_exclude_self_references() -> None:
    terms = terms_of(BOOK)
    assert terms.defined_terms() == ["base", "model", "unit"]
    assert terms.terms_used_by("model") == ["base"]
    assert terms.terms_used_by("unit") == ["model", "rank"]
    assert terms.terms_using("model") == ["base", "unit"]
    assert terms.sections_using("base") == ["models", "units"]
    assert [r.text for r in terms.references_to("base")] == ["base", "bases"]


def test_mutual_definitions_are_pairs_of_defined_terms() -> None:
    assert terms_of(BOOK).mutual_definitions() == [("base", "model")]


def test_networkx_view_has_typed_edges() -> None:
    graph = terms_of(BOOK).graph
    assert graph.has_edge(("term", "unit"), ("term", "rank"), key="uses")
    assert graph.has_edge(("section", "units"), ("term", "unit"), key="defines")
    assert graph.has_edge(("section", "terms"), ("section", "units"), key="contains")
    assert graph.has_edge(("section", "units"), ("section", "units"), key="links")
    assert graph.nodes[("term", "rank")]["defined"] is False


def test_term_dependencies_keep_only_defined_terms() -> None:
    dependencies = terms_of(BOOK).term_dependencies()
    assert sorted(dependencies.edges) == [("base", "model"), ("base", "unit"), ("model", "base"), ("unit", "model")]
