"""Hostile input to the readers: encodings, line ends, places past libxml2's line limit, deep nesting.

Each case runs the command line as a user would and asserts the exact outcome: refused with exit
status 2 and a located message, or read correctly with exact places; never an internal error, and
nothing written outside the output (a snapshot of the scratch and project folders before and after).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from rulebook.model import MAX_DEPTH

from .scratch import (
    MARKDOWN_FORMATS,
    REFUSED,
    configure,
    converted,
    markdown_book,
    nothing_written_outside,
    run,
    source,
)
from .scratch import scratch as scratch  # the fixture every case takes

ROOT = Path(__file__).resolve().parents[2]
SEED = (ROOT / "rulebook_src" / "en" / "rulebook.xml").read_text(encoding="utf-8")

BOOK = """<?xml version="1.0" encoding="UTF-8"?>
<document>
  <chapter title="Général" id="general">
    <definition name="unit">Une unité de <reference name="model">figurines</reference>.</definition>
    <definition name="model">Une figurine, élément d'une <reference name="unti">unité</reference>.</definition>
  </chapter>
</document>
"""


def lint_json(capsys: pytest.CaptureFixture[str], *files: str) -> list[dict[str, object]]:
    """The diagnostics of ``rulebook lint --format json`` (of the configured source, or ``files``)."""
    diagnostics: list[dict[str, object]] = json.loads(run(capsys, "lint", "--format", "json", *files).out)[
        "diagnostics"
    ]
    return diagnostics


def places(diagnostics: list[dict[str, object]]) -> list[tuple[object, ...]]:
    return [(d["rule"], d["line"], d["column"], d["target"]) for d in diagnostics]


def refused_everywhere(capsys: pytest.CaptureFixture[str], folder: Path, report: str) -> None:
    """``lint`` prints ``report`` and exits 2; ``build`` and ``build --data-only`` print it and write nothing."""
    with nothing_written_outside(folder):
        assert run(capsys, "lint") == (2, report + "\nFound 1 error in 1 file.\n", "")
        for data_only in ([], ["--data-only"]):
            assert run(capsys, "build", "-q", *data_only, "-o", "out") == (2, "", report + "\n" + REFUSED)


# -- encodings ------------------------------------------------------------------------------------


def test_an_xml_declaration_naming_another_encoding_is_refused_at_its_value(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", BOOK.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"'))
    refused_everywhere(
        capsys,
        scratch,
        """error[RB003]: the XML declaration names the encoding `ISO-8859-1`; sources are read as UTF-8
 --> book.xml:1:31
  |
1 | <?xml version="1.0" encoding="ISO-8859-1"?>
  |                               ^^^^^^^^^^
    = help: save the file as UTF-8 and declare `encoding="UTF-8"`, or no encoding
""",
    )


def test_a_file_really_in_latin_1_is_refused_at_its_declaration_too(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", BOOK.replace('encoding="UTF-8"', "encoding='latin1'").encode("latin-1"))
    (diagnostic,) = lint_json(capsys)
    assert (diagnostic["rule"], diagnostic["line"], diagnostic["column"], diagnostic["target"]) == (
        "unreadable-source",
        1,
        31,
        "latin1",
    )


@pytest.mark.parametrize(
    "variant",
    [
        BOOK,
        BOOK.replace('encoding="UTF-8"', "encoding='utf-8'"),
        BOOK.replace('encoding="UTF-8"', 'encoding="UTF8"'),
        BOOK.replace(' encoding="UTF-8"', ""),
        "\ufeff" + BOOK,
        "\ufeff" + BOOK.split("\n", 1)[1],
    ],
    ids=["UTF-8", "utf-8", "UTF8", "none", "BOM", "BOM-no-declaration"],
)
def test_utf8_with_or_without_a_declaration_or_bom_is_read_exactly(capsys, scratch, variant) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", variant)
    shift = 0 if variant.startswith(("<?xml", "\ufeff<?xml")) else -1
    assert places(lint_json(capsys)) == [
        ("unused-definition", 4 + shift, 5, "unit"),
        ("dangling-reference", 5 + shift, 58, "unti"),
    ]
    with nothing_written_outside(scratch, "out"):
        assert run(capsys, "build", "-q", "--data-only", "-o", "out").code == 0
    sections = json.loads((scratch / "out" / "rules.json").read_text(encoding="utf-8"))["sections"]
    assert sections[0]["title"] == "Général"


@pytest.mark.parametrize(
    ("name", "data", "line", "column", "shown", "byte"),
    [
        # The first bad byte stands on line 5, column 1, after lines of accented letters (two bytes each).
        (
            "book.xml",
            "<document>\n<chapter title='é'>\néééé ààà\nçççç\n".encode() + b"\xff</chapter></document>\n",
            5,
            1,
            "�</chapter></document>",
            "0xff",
        ),
        (
            "book.xml",
            "<document>\n<chapter title='é'>\néééé ààà\nçç".encode() + b"\xff</chapter></document>\n",
            4,
            3,
            "çç�</chapter></document>",
            "0xff",
        ),
        ("book.md", "# 1 Règles\n\nÉléments ééé\n\nàà ".encode() + b"\xfe \xc3\xa7\n", 5, 4, "àà � ç", "0xfe"),
        ("book.txt", "Règles\n\nÉléments ééé\r\nàà\r".encode() + b"\xe9t\xe9\n", 5, 1, "�t�", "0xe9"),
    ],
    ids=["xml-line-start", "xml-after-accents", "markdown", "text-export"],
)
def test_invalid_utf8_is_refused_at_the_character_of_the_first_bad_byte(  # type: ignore[no-untyped-def]
    capsys, scratch, name, data, line, column, shown, byte
) -> None:
    source(scratch, name, data)
    refused_everywhere(
        capsys,
        scratch,
        f"""error[RB003]: the file is not valid UTF-8 text: byte `{byte}` here is not part of a character
 --> {name}:{line}:{column}
  |
{line} | {shown}
  | {" " * (column - 1)}^
    = help: save the file as UTF-8
""",
    )


# -- line ends --------------------------------------------------------------------------------------

LINES = [
    '<?xml version="1.0"?>',
    "<!DOCTYPE document [",
    '  <!ENTITY nine "The 9th Age">',
    "]>",
    "<document>",
    '  <chapter title="Intro" id="intro">',
    '    <definition name="game">&nine; is a game of <reference name="gmae">games</reference>.</definition>',
    '    <refrence name="game">a misspelt element</refrence>',
    "  </chapter>",
    "</document>",
]
PLACES = [
    ("unused-definition", 7, 5, "game"),
    ("invalid-document", 7, 29, "nine"),
    ("dangling-reference", 7, 49, "gmae"),
    ("invalid-document", 8, 5, "refrence"),
]


def mixed(lines: list[str]) -> str:
    return "".join(line + ("\r\n", "\r", "\n")[number % 3] for number, line in enumerate(lines))


@pytest.mark.parametrize(
    "text",
    ["\n".join(LINES), "\r\n".join(LINES), "\r".join(LINES), mixed(LINES)],
    ids=["LF", "CRLF", "CR", "mixed"],
)
def test_cr_crlf_and_lf_all_end_lines(capsys, scratch, text) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", text)
    assert places(lint_json(capsys)) == PLACES
    shown = run(capsys, "lint").out
    assert "\r" not in shown and "  |     <refrence" not in shown and "8 |     <refrence" in shown


@pytest.mark.parametrize("end", ["\r\n", "\r"], ids=["CRLF", "CR"])
def test_a_malformed_file_is_placed_on_its_own_lines(capsys, scratch, end) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", end.join(["<document>", '<chapter title="a">', "x", "<bad></chapter>", "</document>"]))
    (diagnostic,) = lint_json(capsys)
    assert (diagnostic["rule"], diagnostic["line"], diagnostic["column"]) == ("malformed-xml", 4, 16)
    assert diagnostic["message"] == "`</chapter>` closes `<bad>`, which was opened on line 4"


NOTHING_NAMED = {"markdown": "[[ ]]", "plain-markdown": "??"}
"""How each Markdown format writes a reference or link that names nothing (plain Markdown: a lost cross-reference)."""


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
@pytest.mark.parametrize("end", ["\r\n", "\r"], ids=["CRLF", "CR"])
def test_markdown_places_count_every_line_end(capsys, scratch, end, markdown) -> None:  # type: ignore[no-untyped-def]
    lines = ["# 1 Règles", "", "Voir ?? ici,", "et là ??.", "", "## 1.1 Détails", "", "- un ??", "- deux"]
    markdown_book(scratch, end.join(lines).replace("??", NOTHING_NAMED[markdown]), markdown)
    assert places(lint_json(capsys)) == [("empty-name", 3, 6, ""), ("empty-name", 4, 7, ""), ("empty-name", 8, 6, "")]


def test_the_site_is_the_same_whatever_the_line_ends_or_a_bom(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    excerpt = SEED[: SEED.index("<!-- CHAPTER : General Principles -->")] + "</document>\n"
    sites = {}
    for name, data in {
        "LF": excerpt.encode(),
        "CRLF": excerpt.replace("\n", "\r\n").encode(),
        "CR": excerpt.replace("\n", "\r").encode(),
        "BOM": b"\xef\xbb\xbf" + excerpt.encode(),
    }.items():
        source(scratch, "book.xml", data)
        output = scratch / name
        assert run(capsys, "build", "-q", "-o", name).code == 0
        sites[name] = {p.relative_to(output).as_posix(): _page(p) for p in sorted(output.rglob("*")) if p.is_file()}
    assert len(sites["LF"]) > 10
    assert sites["CRLF"] == sites["LF"] and sites["CR"] == sites["LF"] and sites["BOM"] == sites["LF"]


def _page(path: Path) -> bytes:
    """A built file; in the rule data, the source's hash is left out (the text differs by its line ends)."""
    if path.name != "rules.json":
        return path.read_bytes()
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["book"]["content_hash"], data["book"]["sources"]
    return json.dumps(data, sort_keys=True).encode()


# -- places past line 65,535 (where libxml2's line numbers go wrong) ----------------------------------

PAD = 70_000


def test_dtd_errors_past_line_65535_are_placed_at_their_start_tags(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    # Shapes whose libxml2 line is off past 65,535: borrowed from a child or the next node, or 65,535 itself.
    shapes = [
        '<note title="a" zork="1"><br/></note>',  # libxml2: 65,535
        '<note title="b" zork="2">',  # libxml2: the line of the text after it
        "text</note>",
        '<note\n  title="c" zork="3">x</note>',  # a start tag over two lines
        '<note title="d"><br/></note><note title="e" zork="4"><br/></note>',  # the second of two on a line
        '<note title="f">',
        '  <chapter title="g">x</chapter></note>',  # not allowed in a note, on another line than the note
        '<refrence name="h">x</refrence> &nine; <reference name="nowhere">x</reference>',
    ]
    text = (
        '<!DOCTYPE document [<!ENTITY nine "9">]>\n<document><chapter title="Intro" id="intro">'
        + "\n" * PAD
        + "\n".join(shapes)
        + "\n</chapter></document>\n"
    )
    source(scratch, "book.xml", text)
    first = PAD + 2
    assert [(d["line"] - first + 1, d["column"], d["message"]) for d in lint_json(capsys)] == [
        (1, 1, "unknown attribute `zork` on `<note>`"),
        (2, 1, "unknown attribute `zork` on `<note>`"),
        (4, 1, "unknown attribute `zork` on `<note>`"),
        (6, 29, "unknown attribute `zork` on `<note>`"),
        (8, 3, "`<chapter>` is not allowed inside `<note>`"),
        (9, 1, "unknown element `<refrence>`"),
        (9, 33, "entity reference `&nine;` is not expanded"),
        (9, 40, "reference to undefined term `nowhere`"),
    ]


def test_dtd_errors_in_a_book_past_line_65535_are_all_placed_exactly(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    # The bundled book, moved past line 65,535, with an unknown attribute on every seventh element.
    body_start = SEED.index("<document>") + len("<document>")
    text = SEED[:body_start] + "\n" * PAD + SEED[body_start:]
    tags = [m for m in re.finditer(r"<([a-z]+)[\s/>]", text) if m.group(1) != "document"][::7]
    expected = set()
    for match in reversed(tags):
        end = match.start() + 1 + len(match.group(1))
        text = text[:end] + ' zork="1"' + text[end:]
    for match in re.finditer(r'<([a-z]+) zork="1"', text):
        line = text.count("\n", 0, match.start()) + 1
        expected.add((line, match.start() - text.rfind("\n", 0, match.start()), match.group(1)))
    source(scratch, "book.xml", text)
    unknown = re.compile(r"unknown attribute `zork` on `<(?P<tag>[a-z]+)>`")
    found = {(d["line"], d["column"], m["tag"]) for d in lint_json(capsys) if (m := unknown.match(d["message"]))}
    assert len(expected) > 100
    assert found == expected


def test_a_malformed_file_past_line_65535_is_placed_inside_it(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", "<document>" + "\n" * PAD + '<chapter title="é">éé &amp; x & y</chapter>')
    (diagnostic,) = lint_json(capsys)
    assert (diagnostic["rule"], diagnostic["line"], diagnostic["column"]) == (
        "malformed-xml",
        PAD + 1,
        31,
    )  # under the `&`
    assert diagnostic["message"] == "a bare `&`: in XML, `&` starts an entity such as `&amp;`"
    source(scratch, "book.xml", '<document>\n<chapter title="a">\nx\n')
    (diagnostic,) = lint_json(capsys)
    assert (diagnostic["line"], diagnostic["column"]) == (4, 1)  # the end of the file, not past it


# -- nesting ---------------------------------------------------------------------------------------

NESTED = {
    "definition": ['<definition name="d">x'],
    "note": ['<note title="n">x'],
    "important": ["<important>x"],
    "section": ['<section title="s">x'],
    "list": ["<list>", "<item>x"],
    "table": ["<table>", "<row>", "<cell>x"],
}


def nested(kind: str, depth: int) -> str:
    """A book whose ``kind`` elements nest down to ``depth`` (the document is 1), each start tag on its own line
    (so the element at depth d starts line d)."""
    opening = NESTED[kind]
    lines = ["<document>", '<chapter title="a" id="a">']
    while len(lines) < depth:
        lines.append(opening[(len(lines) - 2) % len(opening)])
    closing = [f"</{_tag(line)}>" for line in reversed(lines)]
    return "\n".join(lines) + "\n" + "".join(closing) + "\n"


def _tag(start_tag: str) -> str:
    return start_tag[1:].replace(">", " ").split()[0]


@pytest.mark.parametrize("kind", list(NESTED))
def test_nesting_deeper_than_the_limit_is_refused_before_anything_recurses(capsys, scratch, kind) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", nested(kind, MAX_DEPTH + 1))
    element = NESTED[kind][(MAX_DEPTH - 2) % len(NESTED[kind])]
    tag = _tag(element)
    refused_everywhere(
        capsys,
        scratch,
        f"""error[RB005]: `<{tag}>` is nested more than 100 deep
   --> book.xml:101:1
    |
101 | {element}
    | {"^" * (len(tag) + 1)}
    = help: nest at most 100 levels deep, counting the document as the first
""",
    )


def test_nesting_past_libxml2s_own_limit_gets_the_same_refusal(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.xml", nested("definition", 300))
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert outcome.out.startswith("error[RB005]: `<definition>` is nested more than 100 deep\n   --> book.xml:101:1\n")


DEEP_MARKDOWN = {
    # Plain Markdown nests sections by their printed numbers: the 100th heading is the section too deep.
    "plain-markdown": (
        "\n".join("# " + ".".join(["1"] * level) + " Titre" for level in range(1, 121)),
        "error[RB005]: a section is nested more than 100 deep\n   --> book.md:100:1\n",
    ),
    # The dialect's headings stop at three levels; its directives nest: in a chapter, the 99th definition is.
    "markdown": (
        "# 1 Titre\n\n" + "".join(f"::: definition d{i}\n" for i in range(120)) + "Texte.\n" + ":::\n" * 120,
        "error[RB005]: `::: definition` is nested more than 100 deep\n   --> book.md:101:1\n",
    ),
}


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_markdown_sections_nested_deeper_than_the_limit_are_refused(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    text, refusal = DEEP_MARKDOWN[markdown]
    markdown_book(scratch, text, markdown)
    with nothing_written_outside(scratch):
        for command in (["lint"], ["build", "-q", "-o", "out"]):
            outcome = run(capsys, *command)
            assert outcome.code == 2
            shown = outcome.out or outcome.err
            assert shown.startswith(refusal)


@pytest.mark.parametrize(
    ("nested", "refusal"),
    [
        ("".join("  " * i + "- a\n" for i in range(60)), "a list is nested more than 100 deep\n  --> book.md:52:99\n"),
        (">" * 500 + " a\n", "a quote is nested more than 100 deep\n --> book.md:3:1\n"),
        ("*a " * 300 + "x" + " a*" * 300 + "\n", "emphasis is nested more than 100 deep\n --> book.md:3:1\n"),
    ],
    ids=["lists", "quotes", "emphasis"],
)
def test_the_dialect_refuses_what_it_would_stop_reading(capsys, scratch, nested, refusal) -> None:  # type: ignore[no-untyped-def]
    # markdown-it reads nothing nested past its limit and says nothing: the dialect refuses it first, where it stands.
    source(scratch, "book.md", "# 1 Titre\n\n" + nested)
    with nothing_written_outside(scratch):
        for command in (["lint"], ["build", "-q", "-o", "out"]):
            outcome = run(capsys, *command)
            assert outcome.code == 2 and (outcome.out or outcome.err).startswith("error[RB005]: " + refusal)


def test_nesting_down_to_the_limit_is_read_linted_and_built(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    chains = [nested(kind, MAX_DEPTH).split("\n", 2)[2].rsplit("</chapter>", 1)[0] for kind in NESTED]
    source(
        scratch, "book.xml", '<document>\n<chapter title="a" id="a">\n' + "\n".join(chains) + "</chapter></document>\n"
    )
    assert run(capsys, "lint").code == 1  # sections in sections do not follow the DTD
    for data_only in ([], ["--data-only"]):
        output = f"out{len(data_only)}"
        assert run(capsys, "build", "-q", *data_only, "-o", output).code == 0
        assert (scratch / output / "rules.json").is_file()
    # Markdown nests only by numbered headings, whose levels past 3 the rule data refuses: lint it.
    source(
        scratch, "book.md", "\n".join("# " + ".".join(["1"] * level) + " Titre" for level in range(1, 98)) + "\n\n- a\n"
    )
    configure(scratch, 'format = "plain-markdown"\n')
    assert run(capsys, "lint").code == 0
    # The dialect nests by directives: a chapter's 98 nested definitions reach the limit, and are read and built.
    definitions = "".join(f"::: definition d{i}\n" for i in range(98)) + "Texte [[d0]].\n" + ":::\n" * 98
    source(scratch, "book.md", "# 1 Titre\n\n" + definitions)
    assert run(capsys, "lint").code == 0
    assert run(capsys, "build", "-q", "-o", "site").code == 0
    assert (scratch / "site" / "rules.json").is_file()


# -- XML attacks (kept refused) ------------------------------------------------------------------------


def test_no_entity_is_expanded_and_no_dtd_or_file_is_loaded(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    (scratch / "secret.txt").write_text("TOP SECRET", encoding="utf-8")
    (scratch / "evil.dtd").write_text('<!ENTITY injected "PWNED">', encoding="utf-8")
    source(
        scratch,
        "book.xml",
        '<?xml version="1.0"?>\n<!DOCTYPE document SYSTEM "evil.dtd" [<!ENTITY s SYSTEM "secret.txt">]>\n'
        '<document><chapter title="A" id="a">\n&s; and &injected;</chapter></document>\n',
    )
    assert places(lint_json(capsys)) == [
        ("invalid-document", 4, 1, "s"),
        ("invalid-document", 4, 9, "injected"),
    ]
    with nothing_written_outside(scratch, "out"):
        assert run(capsys, "build", "-q", "--data-only", "-o", "out").code == 0
    written = b"".join(path.read_bytes() for path in (scratch / "out").rglob("*") if path.is_file())
    assert b"TOP SECRET" not in written and b"PWNED" not in written


def test_what_the_doctype_declares_for_attributes_is_reported_where_it_is_declared(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    # libxml2 expands an entity inside an attribute value and gives every element of a name the default an
    # <!ATTLIST> declares: the title read "BaVERYsics" and every section was numbered "6.6.6", All checks passed.
    source(
        scratch,
        "book.xml",
        '<?xml version="1.0"?>\n<!-- <!DOCTYPE x [<!ENTITY c "z">]> -->\n<!DOCTYPE document [\n'
        '  <!-- <!ENTITY c "z"> --> <!ELEMENT unused ANY>\n'
        '  <!ATTLIST section number CDATA "6.6.6">\n'
        '  <!ENTITY w "VERY"> <!ENTITY % p "<!ATTLIST chapter number CDATA \'1\'>"> %p;\n]>\n'
        '<document><chapter title="Ba&w;sics" id="a">\n<section title="S" id="s">Text.</section></chapter></document>\n',
    )
    assert places(lint_json(capsys)) == [
        ("invalid-document", 5, 3, "section"),
        ("invalid-document", 6, 22, "p"),
        ("invalid-document", 8, 29, "w"),
    ]
    assert "entity reference `&w;` in an attribute value is not part of the rulebook format" in run(capsys, "lint").out
    source(scratch, "book.xml", '<?xml version="1.0"?>\n<!DOCTYPE document [ <!ELEMENT unused ANY> ]>\n<document/>\n')
    assert places(lint_json(capsys)) == []
    many = "".join(f'<!ATTLIST e{n} a CDATA "v">\n' for n in range(25))
    source(scratch, "book.xml", f'<?xml version="1.0"?>\n<!DOCTYPE document [\n{many}]>\n<document/>\n')
    found = lint_json(capsys)
    assert [(d["line"], d["target"]) for d in found] == [(n + 3, f"e{n}") for n in range(20)] + [(23, None)]
    assert found[-1]["message"] == (
        "the DOCTYPE declares 5 more attribute lists or parameter entities: not part of the rulebook format"
    )


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_markdown_book_with_a_bom_declares_itself_on_its_first_line(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    markdown_book(scratch, "# 1 Livre\n", markdown)  # a file named on the command line is read in the book's format
    text = f"<!-- rulebook -->\n# 1 Titre\n\nVoir {NOTHING_NAMED[markdown]}.\n"
    (scratch / "notes.md").write_bytes(b"\xef\xbb\xbf" + text.encode())
    assert places(lint_json(capsys, "notes.md")) == [("empty-name", 4, 6, "")]


def test_the_text_exports_steps_bullets_and_text_keep_their_order(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Text between two steps, and bullets among steps, were moved: the text before the steps, every list at the
    block's end, with "Wrote"; a step's bullets and lines are now its own, the steps one sequence."""
    (scratch / "turns.txt").write_text(
        "Turns\n\n(Rule)\nDescription: Intro.\n1 - First step\nwhich goes on here.\n2 - Second step\n"
        "• a bullet\n3 - Third step\n\nNext\n\nMore text.\n",
        encoding="utf-8",
    )
    written = " ".join(converted(capsys, scratch, "turns.txt", "turns.xml").split())
    assert (
        '<chapter title="Turns"> Intro. <sequence> <item>First step which goes on here.</item> <item>Second step'
        " <list> <item>a bullet</item> </list> </item> <item>Third step</item> </sequence>"
    ) in written, written


def test_a_text_exports_steps_keep_their_numbers(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A page numbers a list from 1: a block of steps ``4 - Fourth`` ... was shown as "1. Fourth" and a step ``1``
    after others went on as "3.", in silence. A restart is a list of its own; a number the page cannot show is
    reported once, where the numbers part (a number of a hundred digits is no number Python reads: still reported)."""
    configure(scratch, 'sources = ["turns.txt"]\n')
    (scratch / "turns.txt").write_text(
        "Turns\n\n(Rule)\nDescription: Intro.\n1 - One\n2 - Two\n1 - Again\n\nLater\n\n4 - Four\n5 - Five\n"
        f"{'9' * 100} - Big\n",
        encoding="utf-8",
    )
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    assert re.findall(
        r"line=(\d+),col=(\d+),title=RB002 invalid-document::(step `\d+(?:\.\.\.)?` is shown as \d)", lint.out
    ) == [
        ("11", "1", "step `4` is shown as 1"),
        ("13", "1", "step `99999999999999999999...` is shown as 3"),
    ], lint.out
    written = " ".join(converted(capsys, scratch, "turns.txt", "turns.xml").split())
    assert "<item>Two</item> </sequence> <sequence> <item>Again</item> </sequence>" in written, written


@pytest.mark.parametrize(
    ("first", "column", "what"),
    [
        ("(Rule)\nDescription: Intro.", 1, "`(Rule)`"),
        ("1 - First step", 1, "a step"),
        ("  • a bullet", 3, "a bullet"),
    ],
)
def test_a_text_export_with_no_title_first_is_told_in_its_own_terms(  # type: ignore[no-untyped-def]
    capsys, scratch, first: str, column: int, what: str
) -> None:
    """An export starting with ``(Rule)``, a step or a bullet was RB301 "a heading has no title", its help the
    Markdown dialect's ("write its title after the `#`s"): the export has no ``#``. The reader says it, once."""
    configure(scratch, 'sources = ["turns.txt"]\n')
    (scratch / "turns.txt").write_text(f"{first}\n\nNext\n\nMore text.\n", encoding="utf-8")
    lint = run(capsys, "lint", "--color", "never")
    assert lint.code == 1
    assert lint.out.startswith(
        f"error[RB002]: the rule has no title: the export starts with {what}\n --> turns.txt:1:{column}\n"
    ), lint.out
    assert (
        "= help: write the rule's title alone on the first line (a short line with no final stop), then a " in lint.out
    )
    assert "#" not in lint.out and lint.out.endswith("Found 1 error in 1 file.\n"), lint.out


def test_description_after_a_step_or_a_bullet_starts_its_text_under_its_title(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """``Description:`` after a step's line was kept as words ("Rally Description: each fighter..."), where it starts
    a rule's text: it starts the step's, the step's own line its title, as the export writes a rule."""
    (scratch / "turns.txt").write_text(
        "Turns\n\n(Rule)\nDescription: Intro.\n1 - Rally\nDescription: each fighter rallies.\nthen moves.\n"
        "2 - Move\nwords\nDescription: late.\n• Charge\nDescription: run.\n",
        encoding="utf-8",
    )
    written = " ".join(converted(capsys, scratch, "turns.txt", "turns.xml").split())
    assert (
        '<sequence> <item title="Rally">each fighter rallies. then moves.</item> <item>Move words late. <list> '
        '<item title="Charge">run.</item> </list> </item> </sequence>'
    ) in written, written
    assert "Description" not in written


@pytest.mark.parametrize(
    ("element", "said"),
    [
        ('<x:foo xmlns:x="urn:x"/>', "error[RB002]: unknown element `<foo>`\n --> book.xml:4:1\n"),
        (
            '<section title="T" id="t" xmlns="urn:o">T</section>',
            "unknown attribute `xmlns` on `<section>`\n --> book.xml:4:27\n",
        ),
    ],
)
def test_a_finding_on_an_element_in_a_namespace_stands_at_the_element(capsys, scratch, element: str, said: str) -> None:  # type: ignore[no-untyped-def]
    """libxml2 names an element without its namespace, lxml with it: the finding on `<x:foo>` stood at the
    document's first line, the one on a `<section xmlns=...>` at the book's first section."""
    text = (
        '<document>\n<chapter title="A" id="a">\n<section title="S" id="s">Text.</section>\n'
        f"{element}\n</chapter>\n</document>\n"
    )
    source(scratch, "book.xml", text)
    outcome = run(capsys, "lint", "--color", "never")
    assert said in outcome.out, outcome.out


@pytest.mark.parametrize("markdown", MARKDOWN_FORMATS)
def test_a_comment_that_no_arrow_closes_is_reported_in_either_markdown(capsys, scratch, markdown) -> None:  # type: ignore[no-untyped-def]
    """A comment on a line of its own whose ``-->`` is missing hides all after it (markdown-it reads the rest as one
    HTML block): the book's later sections were left out with no finding."""
    text = "<!-- rulebook -->\n\n# Rules\n\n## Hit\n\nRoll a hit.\n\n<!-- to check\n\n## Extra\n\nAn extra rule.\n"
    markdown_book(scratch, text, markdown)
    lint = run(capsys, "lint", "--color", "never", "--format", "github")
    assert lint.code == 1
    said = "`<!--` opens a comment that no `-->` closes: all that follows it is hidden"
    assert f"line=9,col=1,title=RB002 invalid-document::{said}" in lint.out, lint.out


def test_an_element_of_thousands_of_attributes_is_refused_before_they_are_read(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """lxml finds each attribute's value by its name among the element's others: one `<section>` of 80,000
    attributes (870 KB) held the lint 30 s, and the build, `convert` and `graph` as long (the nineteenth probe)."""
    attributes = " ".join(f'x{i}="v"' for i in range(80_000))
    source(
        scratch,
        "book.xml",
        f'<document><chapter id="c" title="C"><section {attributes}>A.</section></chapter></document>',
    )
    outcome = run(capsys, "lint")
    assert outcome.code == 2
    assert outcome.out.startswith(
        "error[RB003]: `<section>` has 80,000 attributes, more than the 100 an element may have"
    )
    assert " --> book.xml:1:37" in outcome.out
