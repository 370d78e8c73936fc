"""Read the plain-text rules export (a title, "(Rule)", "Description:", then sub-rules).

The export has no markup: a block of one short line with no final stop is a heading (the
first is the rule, the rest its sub-rules), ``(Rule)`` marks a rule, ``Description:`` starts
its text, lines such as ``1 - Rally Phase`` are ordered steps and ``•`` lines a list (``Description:`` on the line
after a step's or a bullet's starts its text, the line its title: what the export writes for a rule). It
gives the same document model as the other readers, every node with its line and column.
"""

from __future__ import annotations

import functools
import itertools
import re
from pathlib import Path

from rulebook.catalog.reading import INVALID_DOCUMENT
from rulebook.diagnostics import Diagnostic
from rulebook.model import Content, Document, Item, ItemList, Node, Section, unique_id
from rulebook.names import slugify
from rulebook.readers import SourceResult, read_text_source
from rulebook.source import SourceText

_STEP = re.compile(r"^\s*(?P<number>\d+)\s*[-–.)]\s+(?P<text>\S.*)$")
_BULLET = re.compile(r"^\s*[•·*-]\s+(?P<text>\S.*)$")
_MARKER = "(Rule)"
_DESCRIPTION = "Description:"


def read_text_file(path: Path, display: str, *, language: str = "en", root: Path | None = None) -> SourceResult:
    return read_text_source(path, display, functools.partial(parse_text_export, language=language), root=root)


def parse_text_export(text: str, path: str = "<string>", *, language: str = "en") -> SourceResult:
    source = SourceText.from_text(path, text)
    blocks = _blocks(source)
    sections: list[tuple[str, int, int, list[Node]]] = []  # title, level, offset, content
    findings: list[Diagnostic] = []
    untitled = False
    for lines in blocks:
        first_line, first = lines[0]
        if len(lines) == 1 and _is_heading(first):
            level = 1 if not sections else 2
            sections.append((first.strip(), level, _offset(source, first_line), []))
            continue
        if not sections:  # no title before the rule's text: its section is headed by nothing the file writes
            sections.append(("", 1, 0, []))
            findings.append(_untitled(source, first_line, first))
            untitled = True
        sections[-1][3].extend(_content(lines, source, findings))
    built = _build(sections, source, titled=not untitled)
    document = Document(path, language, tuple(built[:1] or ()), tuple(_flatten(built)), (), (), (), (), (), (), (), ())
    return SourceResult(document, tuple(findings), source)


def _blocks(source: SourceText) -> list[list[tuple[int, str]]]:
    """Runs of non-blank lines, with their 0-based line numbers."""
    blocks: list[list[tuple[int, str]]] = []
    current: list[tuple[int, str]] = []
    for number, line in enumerate(source.lines()):
        if line.strip():
            current.append((number, line))
        elif current:
            blocks.append(current)
            current = []
    if current:
        blocks.append(current)
    return blocks


def _is_heading(line: str) -> bool:
    stripped = line.strip()
    return (
        len(stripped) <= 80
        and not stripped.endswith((".", ":", ";", ","))
        and stripped != _MARKER
        and not stripped.startswith(_DESCRIPTION)
        and _STEP.match(stripped) is None
        and _BULLET.match(stripped) is None
    )


def _content(lines: list[tuple[int, str]], source: SourceText, findings: list[Diagnostic]) -> list[Node]:
    """A block's text, steps and bullets, in the order written: a run of steps is one ordered list, a bullet after a
    step is in a list inside that step, and a line of text after a step or a bullet goes on with its item (the text
    between steps, and bullets among them, were moved after the text before the steps, the lists at the block's end,
    in silence). A step numbered 1 after others starts a list of its own; a step whose number is not the one a page
    shows (a list is numbered from 1) is reported: ``4 - Shooting`` was shown as "1. Shooting", in silence."""
    nodes: list[Node] = []
    titles: dict[int, str] = {}  # by the item's offset: an item whose first line `Description:` follows
    steps: list[tuple[int, list[Node]]] = []
    bullets: list[tuple[int, list[Node]]] = []

    def end_bullets() -> None:
        if bullets:
            (steps[-1][1] if steps else nodes).append(_list(False, bullets, source, titles))
            bullets.clear()

    def end_steps() -> None:
        end_bullets()
        if steps:
            nodes.append(_list(True, steps, source, titles))
            steps.clear()

    previous = ""  # the number the last step was written with
    for number, line in lines:
        stripped = line.strip()
        if stripped == _MARKER:
            continue
        step = _STEP.match(stripped)
        bullet = _BULLET.match(stripped)
        if step:
            written = step.group("number")
            if steps and written == "1":
                end_steps()
            end_bullets()
            follows = _next_number(previous) if steps else "1"
            steps.append((_offset(source, number), [step.group("text")]))
            if written.lstrip("0") != follows:  # once where the numbers part from the page's: not at each step
                findings.append(_renumbered(source, number, line, written, len(steps)))
            previous = written.lstrip("0")
        elif bullet:
            bullets.append((_offset(source, number), [bullet.group("text")]))
        elif bullets or steps:
            offset, content = (bullets or steps)[-1]
            described = stripped.removeprefix(_DESCRIPTION).strip()
            if described != stripped and len(content) == 1 and offset not in titles:
                titles[offset] = str(content[0]).strip()  # `1 - Rally` then `Description: ...`: a titled step
                content[0] = described
            else:
                content.append(" " + described)
        else:
            nodes.append(stripped.removeprefix(_DESCRIPTION).strip() + " ")
    end_steps()
    return nodes


def _untitled(source: SourceText, number: int, line: str) -> Diagnostic:
    """The finding of an export whose first block is no title (``(Rule)``, a step, a bullet, a sentence): the rule
    has none. It was RB301's "a heading has no title", with the help of the Markdown dialect's ``#``s."""
    stripped = line.strip()
    what = (
        "`(Rule)`"
        if stripped == _MARKER
        else "a step"
        if _STEP.match(stripped)
        else "a bullet"
        if _BULLET.match(stripped)
        else "`Description:`"
        if stripped.startswith(_DESCRIPTION)
        else "text"
    )
    return INVALID_DOCUMENT.diagnostic(
        f"the rule has no title: the export starts with {what}",
        source.span(_offset(source, number), len(stripped) if what == "`(Rule)`" else 0),
        help="write the rule's title alone on the first line (a short line with no final stop), then a blank line",
    )


def _next_number(written: str) -> str:
    """The number after a step's written number (its digits as written: ``٣``, or a hundred digits, are no
    number Python reads in one step: no step follows them)."""
    return str(int(written) + 1) if written.isascii() and len(written) < 10 else ""


def _renumbered(source: SourceText, number: int, line: str, written: str, shown: int) -> Diagnostic:
    """The finding of a step whose written number is not the one its list shows."""
    shown_as = f"`{written[:20]}{'...' if len(written) > 20 else ''}`"
    return INVALID_DOCUMENT.diagnostic(
        f"step {shown_as} is shown as {shown}: a list's steps are numbered from 1 on a page",
        source.span(source.line_starts[number] + line.index(written), len(written)),
        help="number the block's steps from 1 in order; a list goes on after its text within one block",
    )


def _list(ordered: bool, items: list[tuple[int, list[Node]]], source: SourceText, titles: dict[int, str]) -> ItemList:
    """A list of the items read, each item's lines of text joined, titled by its first line when ``Description:``
    followed it (``titles``, by the item's offset)."""
    made = []
    for offset, content in items:
        joined: list[Node] = []
        for is_text, run in itertools.groupby(content, key=lambda node: isinstance(node, str)):
            nodes = list(run)
            joined += ["".join(nodes)] if is_text else nodes  # type: ignore[arg-type]  # a run of text, joined once
        made.append(Item(titles.get(offset), tuple(joined), source, offset))
    return ItemList(ordered, tuple(made), None, source, made[0].offset)


def _offset(source: SourceText, line: int) -> int:
    text = source.line_text(line + 1)
    return source.line_starts[line] + (len(text) - len(text.lstrip()))


def _build(sections: list[tuple[str, int, int, list[Node]]], source: SourceText, *, titled: bool) -> list[Section]:
    """The first heading is the rule (a chapter); the others are its sub-rules. Without ``titled``, the rule's text
    came first: its chapter has no heading (reported by the reader, in the export's terms)."""
    if not sections:
        return []
    root_title, _, root_offset, root_content = sections[0]
    root_id = slugify(root_title)
    children: list[Section] = []
    taken, counters = {root_id}, dict[str, int]()  # a title repeated 20,000 times: 48 s without the counters
    for title, _, offset, content in sections[1:]:
        section_id = unique_id(slugify(title), taken, counters=counters)
        children.append(Section(section_id, False, title, 2, tuple(content), root_id, None, source, offset))
    body: Content = tuple(root_content) + tuple(children)
    return [Section(root_id, False, root_title, 1, body, None, None, source, root_offset, headed=titled)]


def _flatten(body: list[Section]) -> list[Section]:
    found: list[Section] = []
    for section in body:
        found.append(section)
        found += _flatten([n for n in section.children if isinstance(n, Section)])
    return found
