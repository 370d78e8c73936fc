"""The structure of ``rules.json`` as typed dicts: the book, terms, sections, figures, content, tables.

The engine and the site read plain JSON; the compiler builds these types and is checked
against them. The parts the annotations make (mechanics, game, characteristics, army)
are typed in :mod:`rulebook.facts.shapes`. ``compiler/schema/rules.schema.json`` is the
contract: ``tests/test_data.py`` walks :class:`RuleData` and compares every key, its
required-ness and its type with the schema, both ways.
"""

from __future__ import annotations

from typing import Literal, TypedDict

from rulebook.facts.shapes import ArmyComposition, Characteristics, DeclaredValue, DiceCount, Mechanics
from rulebook.mechanics import TableForm

# -- content: typed nodes, never HTML ---------------------------------------------------------


class TextNode(TypedDict):
    type: Literal["text"]
    text: str


class ReferenceNode(TypedDict):
    type: Literal["reference"]
    term: str
    text: str
    example: bool
    """An illustrative mention (``type="example"``)."""


class LinkNode(TypedDict):
    type: Literal["link"]
    to: str
    text: str


class ValueNode(TypedDict):
    type: Literal["value"]
    name: str
    text: str


class DefinitionNode(TypedDict):
    type: Literal["definition"]
    term: str
    children: list[Node]


class ImportantNode(TypedDict):
    type: Literal["important"]
    children: list[Node]


class BreakNode(TypedDict):
    type: Literal["break"]


class NoteNode(TypedDict):
    type: Literal["note"]
    title: str | None
    children: list[Node]


class CellData(TypedDict):
    header: bool
    children: list[Node]


class TableNode(TypedDict):
    type: Literal["table"]
    title: str | None
    columns: list[CellData] | None
    rows: list[list[CellData]]


class ItemData(TypedDict):
    title: str | None
    children: list[Node]


class ListNode(TypedDict):
    type: Literal["list"]
    ordered: bool
    items: list[ItemData]


class FigureNode(TypedDict):
    type: Literal["figure"]
    id: str


class IllustrationNode(TypedDict):
    type: Literal["illustration"]
    images: list[str]


class SectionNode(TypedDict):
    type: Literal["section"]
    id: str


Node = (
    TextNode
    | ReferenceNode
    | LinkNode
    | ValueNode
    | DefinitionNode
    | ImportantNode
    | BreakNode
    | NoteNode
    | TableNode
    | ListNode
    | FigureNode
    | IllustrationNode
    | SectionNode
)
"""One node of content."""

# -- the book and its terms ---------------------------------------------------------------------


class SourceFile(TypedDict):
    path: str
    sha256: str


class BookInfo(TypedDict):
    """What the book is: title, edition and language from the configuration, and its sources."""

    title: str
    edition: str
    language: str
    sources: list[SourceFile]


class BookData(BookInfo):
    content_hash: str
    """SHA-256 of the serialised data with this field zeroed (written by ``serialise``)."""


class TermText(TypedDict):
    text: str
    """Plain text, markup dropped, white space folded."""


class TermDefinition(TermText):
    content: list[Node]


class DefinedAt(TypedDict):
    file: str
    line: int
    column: int
    section: str
    section_path: list[str]
    anchor: str


# Optional keys live in ``total=False`` bases: ``NotRequired`` in a string annotation (this
# module's ``from __future__ import annotations``) is not seen by Python 3.11 at run time.


class _TermTranslationText(TypedDict, total=False):
    text: str
    """The text of the translated section aligned with the one that defines the term."""


class TermTranslation(_TermTranslationText):
    """A term in another language."""

    name: str
    """Its preferred name, from the terminology."""


class _TermSummaryDefinition(TypedDict, total=False):
    definition: TermText


class TermSummary(_TermSummaryDefinition):
    """What the site's pages need of a term."""

    name: str
    defined: bool


class _TermDefinitionParts(TypedDict, total=False):
    """What only a defined term has."""

    definition: TermDefinition
    defined_at: DefinedAt
    parent: str | None
    nested: list[str]


class TermData(_TermDefinitionParts):
    """A term defined or referred to."""

    id: str
    name: str
    surface_forms: list[str]
    defined: bool
    dangling: bool
    unused: bool
    uses: list[str]
    used_by_terms: list[str]
    used_in_sections: list[str]
    read_first: list[str]
    reference_count: int
    translations: dict[str, TermTranslation]


# -- structure ----------------------------------------------------------------------------------


class SectionData(TypedDict):
    id: str
    title: str
    level: int
    linkable: bool
    anchor: str
    defines: list[str]
    children: list[SectionData]


class FigureData(TypedDict):
    id: str
    title: str | None
    caption: list[Node]
    images: list[str]
    section: str
    anchor: str


class LinkTarget(TypedDict):
    kind: Literal["section", "figure"]
    title: str
    anchor: str


class BandData(TypedDict):
    min: int
    max: int
    result: str
    term: str | None


class RollTableData(TypedDict):
    id: str
    """Its own ``id``, else the enclosing definition's name, else the section's id."""
    title: str | None
    """Its own title, if the book gives one."""
    die: str
    dice: DiceCount
    section: str
    form: TableForm
    bands: list[BandData]


class StepData(TypedDict):
    number: int
    title: str | None
    """The step's own title (``<item title>``), if it has one."""
    text: str
    section: str | None
    link: str | None
    resolved: bool
    terms: list[str]


class SequenceData(TypedDict):
    id: str
    """Its own ``id``, else the enclosing definition's name, else the section's id."""
    title: str | None
    """Its own title, if the book gives one."""
    section: str
    kind: Literal["turn", "setup"] | None
    """What the book declares it is: the phases of a turn, or the steps that set up a game."""
    steps: list[StepData]


# -- the whole ----------------------------------------------------------------------------------


class RuleParts(TypedDict):
    """What the rule data and the site's summary share, made by the same builders."""

    mechanics: Mechanics
    roll_tables: list[RollTableData]
    sequences: list[SequenceData]
    values: dict[str, DeclaredValue]
    """Every number the book declares, by its own name."""
    characteristics: Characteristics
    army_composition: ArmyComposition


class BookUsed(TypedDict):
    """A book this one uses (its references resolve there after the book's own terms), in the order of lookup."""

    id: str
    """The book's name in the configuration (``main`` for the main book)."""
    title: str
    rules: str
    """Its ``rules.json``, relative to this one (``../rules.json``)."""


class OutsideName(TypedDict):
    """Where a name this book writes leads in another book: that book and the term's (or id's) name there."""

    book: str
    name: str


class RuleData(RuleParts):
    """``rules.json``."""

    format_version: Literal[1]
    book: BookData
    terms: dict[str, TermData]
    sections: list[SectionData]
    figures: list[FigureData]
    link_targets: dict[str, LinkTarget]
    reading_order: list[str]
    books_used: list[BookUsed]
    outside_terms: dict[str, OutsideName]
    outside_targets: dict[str, OutsideName]


class SiteSummary(RuleParts):
    """The part of the rule data the site's pages show."""

    book: BookInfo
    terms: dict[str, TermSummary]
