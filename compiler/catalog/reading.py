"""Reading a source: what stops a file from being read at all, or from following the format."""

from __future__ import annotations

from rulebook.diagnostics import Rule, Severity

MALFORMED_XML = Rule(
    "RB001",
    "malformed-xml",
    Severity.FATAL,
    "a source file is not well-formed XML",
    """
## What it does
Reports a source file that is not well-formed XML: a tag left open, a
mismatched end tag, an unescaped `&` or `<`, an undefined entity.

## Why is this bad?
Nothing after the first such error can be read reliably, so the compiler
stops reading the file: no lint result, no site, no data. The last good site
stays in place.

## Example
```xml
<definition name="crew">A crew is <reference name="fighter">fighters</definition>
```
Close the reference: `<reference name="fighter">fighters</reference>`.
""",
)

INVALID_DOCUMENT = Rule(
    "RB002",
    "invalid-document",
    Severity.ERROR,
    "a source does not follow the rulebook format",
    """
## What it does
Checks each XML source against the rulebook DTD (`rulebook.dtd`, shipped
with the compiler): unknown or misspelt elements and attributes, elements
in places the format does not allow, attribute values outside their list,
and entity references (which the compiler never expands). A source in the
Markdown dialect is checked the same way by its reader (`rulebook docs
format`): unknown directives, attributes and classes, a directive where the
format does not allow it, one never closed, a definition or figure without
its name, Markdown the format has no place for (emphasis, a link out of the
book, raw HTML).

## Why is this bad?
The compiler and the site only understand what the format declares. A
misspelt `<refrence>` or `::: defintion` is silently not what it was meant
to be: the term is lost from the glossary, the backlinks and the lint.

## Example
```xml
<refrence name="fighter">fighters</refrence>
```
Use `<reference name="fighter">fighters</reference>`. In Markdown:
```markdown
::: defintion fighter
A [[fighter]] is one miniature on its base.
:::
```
Use `::: definition fighter`.
""",
)

UNREADABLE_SOURCE = Rule(
    "RB003",
    "unreadable-source",
    Severity.FATAL,
    "a source file cannot be read",
    """
## What it does
Reports a source file that cannot be read: missing, a folder, not
permitted, not valid UTF-8 text (at the first invalid byte), or an XML
source whose declaration names another encoding than UTF-8.

## Why is this bad?
The book cannot be compiled without its sources. Sources are UTF-8; text
read in another encoding would reach the site and the rule data garbled.

## Example
`rulebook lint rulebook_src/en/rulbook.xml` (a typo in the path), or
```xml
<?xml version="1.0" encoding="ISO-8859-1"?>
```
Save the file as UTF-8 and declare `encoding="UTF-8"` (or no encoding). A
Markdown source has no declaration: save it as UTF-8.
""",
)

NOT_A_RULEBOOK = Rule(
    "RB004",
    "not-a-rulebook",
    Severity.FATAL,
    "a file named as a source is not a rulebook",
    """
## What it does
Refuses a Markdown or plain-text file named on the command line that neither
the configuration names as a source nor declares itself a rulebook. XML is
recognised by its `<document>` root; Markdown and text have no such mark, and
any README would otherwise read as a book whose headings are terms.

## Why is this bad?
`rulebook lint README.md` would pass, and `rulebook build notes.md` would
publish a site of someone's notes: plausible output from the wrong input.

## Example
A Markdown rulebook says what it is on a line of its own, anywhere in the file:
```markdown
<!-- rulebook -->
# Rules of the Game
```
or is named in the configuration's `sources` (or a translation's `source`).
""",
)

NESTING_TOO_DEEP = Rule(
    "RB005",
    "nesting-too-deep",
    Severity.FATAL,
    "a source nests its elements deeper than the compiler reads",
    """
## What it does
Reports the first element nested more than 100 deep, counting the
`<document>` as the first level (a Markdown book: its sections, lists and
tables, under the document).

## Why is this bad?
No rulebook needs it: a real book nests fewer than ten levels. A deeper
source is a mistake (a tag opened again and again and never closed) or an
attack on the tools that walk the book, so the compiler refuses to read it.

## Example
```xml
<definition name="a"><definition name="b"><definition name="c">...
```
Close each definition before the next one opens. In Markdown, the same with
directives opened and never closed:
```markdown
::: definition a
::: definition b
::: definition c
```
Close each with `:::` before the next one opens.
""",
)

RAGGED_TABLE = Rule(
    "RB007",
    "ragged-table",
    Severity.WARNING,
    "a table's rows have another number of cells than its headers name columns",
    """
## What it does
Reports an XML table whose `<headers>` name fewer or more columns than one of
its rows has cells, pointing at the headers and at the first row that differs;
without headers, a row with another number of cells than the first (a roll
table's result read from the cells after its band: `b — c`).

## Why is this bad?
Each cell is shown under the header in its place: with a header missing,
every cell after it stands under the wrong one ("Point limit" over the
categories), on a phone each card labels its values with the wrong names,
and a screen reader reads them out so.

## Example
```xml
<table>
  <headers><header>Point limit</header><header>Duplicate limit</header></headers>
  <row><header>Core</header><cell>at least 25%</cell><cell>max 4</cell></row>
</table>
```
The rows start with their category, a column the headers do not name: write
`<headers title="">` (an empty corner) or `<headers title="Category">`.
""",
)

CONVERTED_TEXT = Rule(
    "RB006",
    "converted-text",
    Severity.INFO,
    "the Markdown reader turned debris of a PDF conversion into text",
    """
## What it does
Reports each place where the Markdown reader turned what a PDF conversion
left behind into the text it stands for: LaTeX fragments (`$\\star$` is
`★`, `$\\mathbf{1}''$` is `1″`) and escaped punctuation (`\\*` is `*`).

## Why is this bad?
The site shows the text, but the source still holds the debris: the next
conversion or an editor may trip over it. Fix the source where reported.

## Example
```markdown
les unités doivent laisser un espace d'au moins  $\\mathbf{1}''$  entre elles
```
Write `1″` (or `1 pouce`).
""",
)
