"""The XML reader: the document model, exact places, and safe handling of hostile input."""

from __future__ import annotations

import time

import pytest

from rulebook.model import Definition, Figure, ItemList, LineBreak, Note, Reference, Section, Table, plain_text
from rulebook.names import slugify
from rulebook.xml_source import parse_xml_string

from .conftest import lint_string, parse

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE document SYSTEM "rulebook.dtd">
<document>
  <chapter title="Models, Units and Formations">
    <section title="Units">
        All <reference name="model">models</reference> are part of a unit. <definition name="unit">A
        <reference name="unit">unit</reference> of <definition name="rank"><reference name="rank">ranks</reference></definition>.</definition>
      <subsection title="Decide" id="decide_on_game_size">
        <table title="Profile">
          <headers><header>1-3: <reference name="classic">Classic</reference></header></headers>
          <row><header>M</header><cell><definition name="movement">Speed in <reference name="unit">inches</reference>.</definition></cell></row>
        </table>
        <sequence><item><link to="figure_1">Look</link></item><item title="Two">Second</item></sequence>
        <note title="Hint">See <reference name="unit" type="example">units</reference>.<br/>More.</note>
        <figure id="figure_1"><image source="arcs.png"/><caption title="Figure 1">A <reference name="rank">rank</reference>.</caption></figure>
      </subsection>
    </section>
  </chapter>
</document>
"""


def test_every_element_keeps_line_and_column() -> None:
    document = parse(BOOK, "en/book.xml")
    first = document.references[0]
    assert (first.span.path, first.span.line, first.span.column) == ("en/book.xml", 6, 13)
    unit = next(d for d in document.definitions if d.name == "unit")
    assert (unit.span.line, unit.span.column) == (6, 76)
    assert document.sections[2].span[1:3] == (8, 7)


def test_columns_count_characters_not_bytes() -> None:
    document = parse('<document><chapter title="Été">Déjà vu: <reference name="x">x</reference></chapter></document>')
    assert document.references[0].span.column == 41


def test_multiline_start_tags_are_placed_where_they_begin() -> None:
    document = parse('<document>\n<chapter\n  title="A">\n<reference\n name="x"\n>x</reference></chapter></document>')
    assert document.sections[0].span[1:3] == (2, 1)
    assert document.references[0].span[1:3] == (4, 1)


def test_comments_with_markup_do_not_shift_columns() -> None:
    document = parse(
        '<document><!-- <reference name="fake"> --><chapter title="A"><reference name="x">x</reference></chapter></document>'
    )
    assert [r.name for r in document.references] == ["x"]
    assert document.references[0].span.column == 62


def test_nested_definitions_and_definitions_in_table_cells() -> None:
    document = parse(BOOK)
    names = [(d.name, d.parent) for d in document.definitions]
    assert names == [("unit", None), ("rank", "unit"), ("movement", None)]
    rank_ref = next(r for r in document.references if r.name == "rank")
    assert rank_ref.definition == "rank"
    inches = next(r for r in document.references if r.text == "inches")
    assert inches.definition == "movement"


def test_reference_display_text_kind_and_context() -> None:
    document = parse(BOOK)
    example = next(r for r in document.references if r.kind == "example")
    assert (example.name, example.text, example.section_id) == ("unit", "units", "decide_on_game_size")
    assert document.references[0].section_id == "units"
    assert document.references[0].definition is None


def test_sections_have_stable_ids_and_levels() -> None:
    document = parse(BOOK)
    summary = [(s.id, s.level, s.explicit_id, s.parent_id) for s in document.sections]
    assert summary == [
        ("models-units-and-formations", 1, False, None),
        ("units", 2, False, "models-units-and-formations"),
        ("decide_on_game_size", 3, True, "units"),
    ]


def test_repeated_titles_get_readable_distinct_ids() -> None:
    xml = (
        '<document><chapter title="Warbands"><section title="Limits"/></chapter>'
        '<chapter title="Grand Armies"><section title="Limits"/></chapter></document>'
    )
    assert [s.id for s in parse(xml).sections] == ["warbands", "limits", "grand-armies", "grand-armies-limits"]


def test_slugs_are_readable() -> None:
    assert slugify("Hidden or Open Lists ?") == "hidden-or-open-lists"
    assert slugify("Règle du pouce d'écart") == "regle-du-pouce-d-ecart"
    assert slugify("???") == "section"


def test_blocks_become_model_nodes() -> None:
    document = parse(BOOK)
    subsection = document.sections[2]
    kinds = [type(n).__name__ for n in subsection.children if not isinstance(n, str)]
    assert kinds == ["Table", "ItemList", "Note", "Figure"]
    table = next(n for n in subsection.children if isinstance(n, Table))
    assert table.title == "Profile"
    assert table.columns is not None and plain_text(table.columns.cells[0].children) == "1-3: Classic"
    assert [c.header for c in table.rows[0].cells] == [True, False]
    sequence = next(n for n in subsection.children if isinstance(n, ItemList))
    assert sequence.ordered and [i.title for i in sequence.items] == [None, "Two"]
    note = next(n for n in subsection.children if isinstance(n, Note))
    assert note.title == "Hint" and any(isinstance(c, LineBreak) for c in note.children)
    figure = next(n for n in subsection.children if isinstance(n, Figure))
    assert (figure.id, figure.images[0].file, figure.caption_title) == ("figure_1", "arcs.png", "Figure 1")
    assert dict(document.ids).keys() == {"decide_on_game_size", "figure_1"}


def test_plain_text_joins_inline_markup_without_stray_spaces() -> None:
    definition = parse(BOOK).definitions[0]
    assert isinstance(definition, Definition)
    assert definition.plain_text() == "A unit of ranks."
    assert isinstance(definition.children[1], Reference)
    assert isinstance(parse(BOOK).sections[0], Section)


def test_malformed_xml_is_a_located_fatal_diagnostic() -> None:
    result = parse_xml_string('<document>\n  <chapter title="a">\n    <reference name="x">x</chapter>\n</document>')
    assert result.document is None
    (diagnostic,) = result.diagnostics
    assert (diagnostic.rule, diagnostic.severity.value) == ("malformed-xml", "fatal")
    assert diagnostic.span.line == 3 and diagnostic.span.column > 1
    assert diagnostic.message.startswith("`</chapter>` closes `<reference>`, which was opened on line 3")


def test_invalid_utf8_is_a_located_error() -> None:
    from rulebook.xml_source import parse_xml_bytes

    result = parse_xml_bytes('<document>\n<chapter title="é\xff"/></document>'.encode("latin-1"), "bad.xml")
    (diagnostic,) = result.diagnostics
    # The first bad byte is "é" in Latin-1: line 2, column 17 (a character, not a byte, count).
    assert (diagnostic.rule, diagnostic.span.line, diagnostic.span.column) == ("unreadable-source", 2, 17)


def test_external_entities_are_never_read(tmp_path) -> None:  # type: ignore[no-untyped-def]
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP SECRET", encoding="utf-8")
    xml = (
        f'<?xml version="1.0"?><!DOCTYPE document [<!ENTITY s SYSTEM "{secret.as_uri()}">]>'
        '<document><chapter title="A">&s;</chapter></document>'
    )
    result = parse_xml_string(xml)
    assert result.document is not None
    assert "TOP SECRET" not in plain_text(result.document.body)
    assert [d.rule for d in result.diagnostics] == ["invalid-document"]


def test_entity_expansion_bombs_are_refused_quickly() -> None:
    levels = ['<!ENTITY a0 "lol">'] + [f'<!ENTITY a{i} "{f"&a{i - 1};" * 10}">' for i in range(1, 10)]
    xml = f'<?xml version="1.0"?><!DOCTYPE document [{"".join(levels)}]><document><chapter title="x">&a9;</chapter></document>'
    started = time.perf_counter()
    diagnostics = lint_string(xml)
    assert time.perf_counter() - started < 5  # a guard against hanging, not a benchmark
    assert "lol" * 20 not in str(diagnostics)
    assert {d.rule for d in diagnostics} <= {"invalid-document", "malformed-xml"}


def test_the_documents_dtd_is_never_loaded(tmp_path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "evil.dtd").write_text('<!ENTITY injected "PWNED">', encoding="utf-8")
    book = tmp_path / "book.xml"
    book.write_text('<!DOCTYPE document SYSTEM "evil.dtd"><document><chapter title="a">ok</chapter></document>')
    from rulebook.xml_source import read_xml_file

    result = read_xml_file(book, "book.xml")
    assert result.document is not None and result.diagnostics == ()


# -- sources: line ends, encodings, places found in the text -------------------------------------------


def test_cr_crlf_and_lf_all_end_lines() -> None:
    from rulebook.source import SourceText

    for text in ("ab\ncd\n\nef", "ab\r\ncd\r\n\r\nef", "ab\rcd\r\ref", "ab\r\ncd\r\nef".replace("cd\r\n", "cd\r\r")):
        source = SourceText.from_text("f", text)
        assert source.lines() == ["ab", "cd", "", "ef"]
        assert [source.line_text(n) for n in range(1, 5)] == ["ab", "cd", "", "ef"]
        assert source.position(text.index("ef")) == (4, 1) and source.position(text.index("d")) == (2, 2)
    assert SourceText.from_text("f", "a\n").lines() == ["a", ""]  # a final line end opens an empty last line


def test_decoding_counts_characters_and_drops_a_bom() -> None:
    from rulebook.source import BadBytes, SourceText, decode_utf8

    assert decode_utf8(b"\xef\xbb\xbf<a/>") == "<a/>"
    for data, place in ((b"\xc3\xa9\xc3\xa9\n\xc3\xa9\xff", (2, 2)), (b"\xef\xbb\xbf\xc3\xa9\xe2\x82", (1, 2))):
        bad = decode_utf8(data)
        assert isinstance(bad, BadBytes)
        assert SourceText.from_text("f", bad.text).position(bad.offset) == place
        assert bad.text[bad.offset] == "\ufffd"


def test_start_tags_are_found_past_doctype_literals_comments_cdata_and_pis() -> None:
    from rulebook.locate import start_tag_offsets

    text = (
        '<!DOCTYPE document [<!ENTITY e "]><x>"><!-- ]> <y> --><!ATTLIST a b CDATA "<z>">]>'
        '<document><é t="a>b"><!-- <c> --><![CDATA[<d>]]><?pi <e>?></é></document>'
    )
    offsets = start_tag_offsets(text, 2)  # the fast scan over-counts, so the careful one answers
    assert [text[o : o + 3] for o in offsets] == ["<do", "<é "]


def test_entity_references_are_found_in_content_only() -> None:
    from rulebook.locate import entity_reference_offsets

    text = '<!DOCTYPE d [<!ENTITY e "&f;">]><d t="&e;">a &e; &#65; &amp; <!-- &e; --><![CDATA[&e;]]>&g;</d>'
    assert [text[o : o + 3] for o in entity_reference_offsets(text)] == ["&e;", "&g;"]


def test_the_first_start_tag_too_deep_is_found_in_the_text() -> None:
    from rulebook.locate import start_tag_deeper_than

    text = "<a><b/><c><!-- <x> --><d t='>'></d><e><f/></e></c></a>"
    assert text[start_tag_deeper_than(text, 2) or 0 :].startswith("<d")
    assert text[start_tag_deeper_than(text, 3) or 0 :].startswith("<f")
    assert start_tag_deeper_than(text, 4) is None


def test_places_in_a_cr_only_xml_file_are_its_own() -> None:
    result = parse_xml_string(
        '<document>\r<chapter title="a">\r  <reference name="x">y</reference>\r</chapter></document>'
    )
    assert result.document is not None
    (reference,) = result.document.references
    assert (reference.span.line, reference.span.column) == (3, 3)


def test_text_export_and_markdown_places_count_every_line_end() -> None:
    from rulebook.markdown_source import parse_markdown_string
    from rulebook.text_source import parse_text_export

    export = "Rule\n\nThe rule.\n\nSub rule\n\n1 - Step one\n2 - Step two\n"
    markdown = "# 1 Titre\n\nVoir ??.\n\n## 1.1 Sous\n\n- a\n"
    for reader, text in ((parse_text_export, export), (parse_markdown_string, markdown)):
        spans = []
        for end in ("\n", "\r\n", "\r"):
            document = reader(text.replace("\n", end)).document
            assert document is not None
            spans.append([(s.span.line, s.span.column) for s in document.sections])
        assert spans[0] == spans[1] == spans[2] and spans[0][-1][0] == 5


def test_markdown_nested_past_the_limit_is_refused_where_it_goes_too_deep() -> None:
    from rulebook.markdown_source import parse_markdown_string

    headings = "\n".join("# " + ".".join(["1"] * level) + " T" for level in range(1, 99))
    accepted = parse_markdown_string(headings + "\n\nText.\n")
    assert accepted.document is not None and accepted.diagnostics == ()
    refused = parse_markdown_string(headings + "\n\n- a list one level too deep\n")
    assert refused.document is None
    (diagnostic,) = refused.diagnostics
    assert (diagnostic.rule, diagnostic.message, diagnostic.span.line) == (
        "nesting-too-deep",
        "a list is nested more than 100 deep",
        100,
    )


ARMY = """<document><chapter title="Army" id="army"><section title="Categories" id="categories">
<table>
  <headers{corner}><header>Point limit</header><header>Duplicate limit</header></headers>
  <row><header>Core</header><cell>at least 25%</cell><cell>max 4</cell></row>
  <row><header>Rare</header><cell>max 25%</cell><cell>max 2</cell></row>
</table></section></chapter></document>"""


def test_the_headers_title_is_the_corner_cell_even_when_empty() -> None:
    for corner, text in ((' title=""', ""), (' title="Category"', "Category")):
        table = next(n for n in parse(ARMY.format(corner=corner)).sections[1].children if isinstance(n, Table))
        assert table.columns is not None
        assert [plain_text(c.children) for c in table.columns.cells] == [text, "Point limit", "Duplicate limit"]
        assert all(c.header for c in table.columns.cells)


def test_headers_naming_fewer_columns_than_the_rows_have_are_a_located_warning() -> None:
    found = [d for d in lint_string(ARMY.format(corner="")) if d.rule == "ragged-table"]
    assert [(d.severity.public, d.message, d.span.line, d.span.column) for d in found] == [
        ("warning", "the table's headers name 2 columns, but its row 1 has 3 cells", 3, 3)
    ]
    assert [(n.message, n.span and n.span.line) for n in found[0].notes] == [("row 1 has 3 cells", 4)]
    assert 'headers title=""' in str(found[0].help)
    assert not [d for d in lint_string(ARMY.format(corner=' title=""')) if d.rule == "ragged-table"]


@pytest.mark.parametrize("roll", ["", ' roll="D6"'])
def test_rows_of_a_table_without_headers_as_wide_as_its_first_or_a_located_warning(roll: str) -> None:
    """With no headers the first row sets the width: a roll table's row of three cells passed the lint, and its
    result was read `b — c` (`convert` alone refused it)."""
    table = (
        f'<document><chapter title="Weather" id="weather"><table{roll}>\n'
        "  <row><cell>1-3</cell><cell>Rain</cell></row>\n"
        "  <row><cell>4-6</cell><cell>Sun</cell><cell>Wind</cell></row>\n"
        "</table></chapter></document>"
    )
    found = [d for d in lint_string(table) if d.rule == "ragged-table"]
    assert [(d.message, d.span.line, [n.message for n in d.notes], d.help) for d in found] == [
        (
            "the table's first row has 2 columns, but its row 2 has 3 cells",
            2,
            ["row 2 has 3 cells"],
            "give every row as many cells: `<cell/>` for an empty one",
        )
    ]
    assert not [d for d in lint_string(table.replace("<cell>Wind</cell>", "")) if d.rule == "ragged-table"]


def test_an_annotated_ragged_table_is_reported_once_in_the_outline_too() -> None:
    annotated = ARMY.format(corner="").replace("<table>", '<table data="army_categories">')
    assert [d.rule for d in lint_string(annotated)].count("ragged-table") == 1
