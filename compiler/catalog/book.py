"""The book's names and places: references, links, ids, duplicates, unused and mutual terms, images."""

from __future__ import annotations

from rulebook.diagnostics import Rule, Severity

DANGLING_REFERENCE = Rule(
    "RB101",
    "dangling-reference",
    Severity.ERROR,
    "a reference names a term that is not defined",
    """
## What it does
Reports every reference (`<reference name="x">`, `[[x]]` in Markdown) for
which no definition (`<definition name="x">`, `::: definition x`) exists,
one diagnostic per occurrence, with the closest defined names as
suggestions (typos, case, spaces vs underscores, singular vs plural). In a
book that uses others, a name defined in one of them is found there, and
the suggestions come from all of them, each naming its book.

## Why is this bad?
On the site the term cannot link to its definition and shows as broken
text; in the data the term has no meaning. A typo in a name silently
detaches a rule from the term it depends on.

## Example
```xml
<reference name="sight_lnie">Sight Line</reference>
```
```markdown
[[sight_lnie|Sight Line]]
```
Use `sight_line`. On a partial book, references to chapters not yet
written can be recorded once with `rulebook lint --write-baseline`.
""",
)

DANGLING_LINK = Rule(
    "RB102",
    "dangling-link",
    Severity.ERROR,
    "a link points at an id that does not exist",
    """
## What it does
Reports every link (`<link to="id">`, `[text](#id)` in Markdown) whose id
names no section or figure.

## Why is this bad?
The link is dead on the site and in every export. Often the target
section exists but lacks its id, or the id is misspelt.

## Example
```xml
<item><link to="determine_deployment_zone">Determine Deployment Zones.</link></item>
...
<subsection title="Deployment Zones">
```
Give the subsection `id="determine_deployment_zone"`. In Markdown:
```markdown
1. [Determine Deployment Zones.](#determine_deployment_zone)
...
### Deployment Zones
```
Give the heading its id: `### Deployment Zones {#determine_deployment_zone}`.
""",
)

REFERENCE_TO_SECTION = Rule(
    "RB103",
    "reference-to-section",
    Severity.ERROR,
    "a reference names a section or figure id instead of a term",
    """
## What it does
Reports a reference (`<reference name="x">`, `[[x]]` in Markdown) where `x`
is not a term but the id of a section or figure.

## Why is this bad?
References are for game terms: they get a definition preview and a
glossary entry. A section is pointed at with a link (`<link to>`,
`[text](#id)`); written as a reference it is a dangling term on the site
and in the data.

## Example
```xml
<reference name="swap_rosters">swap their rosters</reference>
```
Use `<link to="swap_rosters">swap their rosters</link>`. In Markdown:
```markdown
[[swap_rosters|swap their rosters]]
```
Use `[swap their rosters](#swap_rosters)`.
""",
)

DUPLICATE_DEFINITION = Rule(
    "RB201",
    "duplicate-definition",
    Severity.ERROR,
    "a term is defined more than once",
    """
## What it does
Reports a term defined more than once (every definition after the first).

## Why is this bad?
References resolve to one definition only; the other is unreachable and
the two texts drift apart at the next errata.

## Example
```xml
<definition name="crew">...</definition>
...
<definition name="crew">...</definition>
```
```markdown
::: definition crew
...
:::
...
[...]{dfn=crew}
```
Keep one definition; rename the other if it is a different term.
""",
)

DUPLICATE_ID = Rule(
    "RB202",
    "duplicate-id",
    Severity.ERROR,
    "an id names more than one section or figure",
    """
## What it does
Reports an id given to more than one section or figure (every one after
the first).

## Why is this bad?
Links and site anchors must name one place. With two, a link silently
lands on the first one.

## Example
```xml
<subsection title="Place Crews" id="place">...</subsection>
<subsection title="Place Reserves" id="place">...</subsection>
```
```markdown
### Place Crews {#place}
...
### Place Reserves {#place}
```
""",
)

SHADOWED_TERM = Rule(
    "RB203",
    "shadowed-term",
    Severity.WARNING,
    "a term is defined in more than one book a reference can reach",
    """
## What it does
In a book that uses others (`uses` in the configuration), reports a term
the book defines that a book it uses defines too (at the book's
definition, with the other one as a note), and a term two books it uses
both define, where the book refers to it without naming the book (once,
at the first such reference).

## Why is this bad?
A reference resolves in the book first, then in the books it uses, in
order: the other definition is silently hidden. An army book that
redefines the core's `fighter` changes what every `fighter` means in it,
and readers see two texts for one term.

## Example
```xml
<!-- in the army book, which uses the core rules -->
<definition name="fighter">...</definition>
```
```markdown
<!-- in the army book, which uses the core rules -->
::: definition fighter
...
:::
```
Rename the army book's term (`veteran_fighter`), or remove it and refer
to the core's. To mean one book's term, write its name:
`<reference name="core:fighter">`, `[[core:fighter]]`.
""",
)

EMPTY_NAME = Rule(
    "RB301",
    "empty-name",
    Severity.ERROR,
    "a name, link target or id is empty",
    """
## What it does
Reports a definition or reference with an empty or missing `name`, a link
with an empty or missing `to`, and an empty `id`; in Markdown, a definition,
reference or link that names nothing. Also a reference or link that shows no words
(`<reference name="nerve"/>`, `[[nerve|]]`, `<link to="moving"/>`, `[](#moving)`),
and a heading without a title (`<section title="">`, `##` alone).

## Why is this bad?
An empty name cannot be linked, looked up or defined; a reference or link
without words is an empty link on the page, which a reader can neither see
nor follow; a heading without a title is a blank line on the page and in the
menu. A definition naming no term has no entry to be: it stops the build,
whatever the lint's settings say.

## Example
```xml
<reference name="">Nerve</reference> and <reference name="nerve"/>
```
```markdown
[[|Nerve]], [[nerve|]] and [the rules](#)
```
""",
)

INVALID_NAME = Rule(
    "RB302",
    "invalid-name",
    Severity.ERROR,
    "a name or id is not a valid identifier",
    """
## What it does
Reports a term name, id or link target that is not an identifier: it must
start with a letter or underscore and contain only ASCII letters, digits
and underscores (no spaces, hyphens or accents).

## Why is this bad?
Names become anchors, file names and JSON keys. A name with a space is
almost always a typo for an underscore, and it never matches a definition.

## Example
```xml
<reference name="inspiring presence">Inspiring Presence</reference>
```
```markdown
[[inspiring presence|Inspiring Presence]] ... ## Set-up {#set-up}
```
Use `inspiring_presence` (or `[[Inspiring Presence]]`, whose words make the
name), and `set_up`.
""",
)

RESERVED_NAME = Rule(
    "RB304",
    "reserved-name",
    Severity.ERROR,
    "a chapter id takes the name of one of the site's own pages",
    """
## What it does
Reports a chapter whose id is the name of a page or folder the site makes
itself (`index`, `glossary`, `tables`, `assets`, `search`, ...), of another
book of the project, or of a translation's folder (`fr`); and a chapter id
that no file system everywhere takes as a page's name: one that differs
from another chapter's only by case (`Moving` and `moving`), a name Windows
keeps for a device (`con`, `nul`, `aux`, `prn`, `com1`, `lpt1`, in any
case), or one longer than 200 characters.

## Why is this bad?
Each chapter becomes a page named after its id. A chapter called `index`
would replace the home page, one called `assets` the site's styles and
scripts: content would be lost without a word. On a disk that ignores case
(macOS, Windows) `Moving` replaces `moving`; Windows cannot make a folder
`con`, so the site can be neither built nor checked out there; a very long
id is past the length of a file's name. The build refuses such a book.

## Example
```xml
<chapter id="glossary" title="Glossary of Terms">
```
```markdown
# Glossary of Terms {#glossary}
```
Use another id, such as `glossary_of_terms`.
""",
)

MISSING_IMAGE = Rule(
    "RB303",
    "missing-image",
    Severity.WARNING,
    "an image file the book shows is missing",
    """
## What it does
Reports a figure or illustration image whose file is not in the `images/`
folder beside the sources.

## Why is this bad?
The site shows a placeholder ("Image not available") instead of the
picture, and readers lose what the figure explains. The build never
publishes a broken image.

## Example
```xml
<figure id="figure_1"><image source="centre_footprint_and_arcs.png"/>...</figure>
```
```markdown
::: figure figure_1 Figure 1
![](centre_footprint_and_arcs.png)
:::
```
with no `rulebook_src/en/images/centre_footprint_and_arcs.png`.
""",
)

REFUSED_IMAGE = Rule(
    "RB305",
    "refused-image",
    Severity.ERROR,
    "an image file is not a picture the site may publish",
    """
## What it does
Reports a figure or illustration image whose file is in the `images/`
folder but is not published: its name does not end in a picture type the
site publishes (`.png`, `.jpg`, `.jpeg`, `.gif`, `.webp`, `.avif`, `.svg`),
its content is not the type its name says (an HTML page named `.png`), or
it is an SVG that could act: a script, an event attribute (`onload`),
`<foreignObject>`, an animation, or a reference out of the picture (a link,
another file, `@import` or `url(...)` in its style); or it says it has more
than 64,000,000 pixels (8,000 x 8,000), which a reader's browser, or the
PDF, would need gigabytes to decode, or is a JPEG of more than 100 scans,
each of which a browser decodes the whole picture again for, or an
animation (APNG, GIF, WebP, AVIF sequence) of more than 160,000,000 pixels
over all its frames (its canvas times its frames); or is an SVG
that costs a reader's browser minutes to draw: more than 1,000,000 drawn
elements (counting each point of a path or line, every four stops of a
gradient where it paints, and what `<use>`, patterns and markers repeat),
filters of
more than 25 steps (each weighed by the area its region covers), paint
covering more than 2,000 times its own area, lines and edges
crossing more than 30,000,000 rows of pixels,
a `<style>` of more selectors than its elements allow or using `:has()`,
a dash pattern of more than 64 numbers, or dashed
strokes drawing more than 2,000,000 dashes, or raster pictures carried
inside decoding to more than 256,000,000 pixels together;
or its name holds a control, format or bidirectional character, which no
page can show as it is (a space of any width is text: a macOS screenshot's
narrow no-break space is published).

## Why is this bad?
A browser that opens such a file from the site runs it in the site's
origin, with the site's rights: a picture from a pull request could run
script for every reader, or hold every reader's browser for minutes. The site shows a placeholder instead ("Picture not
available"), and never publishes the file.

## Example
```xml
<figure id="figure_1"><image source="deployment.svg"/>...</figure>
```
```markdown
::: figure figure_1 Deployment
![](deployment.svg)
:::
```
where `deployment.svg` holds `<svg onload="...">`. Export the picture
again without scripts or links (or as a PNG).
""",
)

TOO_LARGE = Rule(
    "RB306",
    "too-large",
    Severity.ERROR,
    "a book holds more chapters, a chapter more sections, or a title more characters, than the site takes",
    """
## What it does
Reports a book of more than 2,000 chapters (each a page of the site), a
chapter holding more than 2,000 sections and subsections (one page of the
site, each a heading), and a title longer than 300 characters: a
book's, chapter's, section's, figure's, or a declared table's, list's or
step's. Also a book whose terms, each listing the terms to read before it
(`read_first` in `rules.json`, up to 100 besides its own uses), come to
more than 16,000,000 bytes of rule data: thousands of definitions each
using the one before.

## Why is this bad?
The site generator's search index looks each heading of a page up in the
page's whole table of contents, so its work grows with the square of a
page's headings: 40,000 sections in one chapter took a minute to build.
Each chapter is a page, with the theme's 50 KB of markup: 20,000 chapters of
a line each, 270 KB of source, made a site of 1.1 GB in 83 s.
A chapter's title is written into the navigation of many pages, and a
book's into every page: one title of a megabyte made a site of 455 MB. The
build refuses such a book. Real rulebooks hold a few hundred sections a
chapter, and titles of a line. The engine reads a `rules.json` of at most
64,000,000 bytes: 30,000 chained definitions, 3.66 MB of source, made 72 MB,
42 MB of it these lists.

## Example
```xml
<chapter id="rules" title="Rules"> ... 5,000 sections ... </chapter>
```
```markdown
# Rules {#rules}   ... then 5,000 `##` and `###` headings
```
Split the chapter into several chapters; shorten the title (the text
belongs in the section's first paragraph).
""",
)

UNUSED_DEFINITION = Rule(
    "RB401",
    "unused-definition",
    Severity.WARNING,
    "a term is defined but never referred to",
    """
## What it does
Reports a defined term that nothing refers to (references inside its own
definition do not count: a definition that names its term, `A [[crew]] is
...` inside `::: definition crew`, does not use it). A term that only the books using its book refer
to (a core term used in the army books) is used.

## Why is this bad?
Usually a sign of a renamed term whose references still use the old name,
or of text that was meant to link to it and does not. Unused terms still
get a glossary entry, with no backlinks.

## Example
```xml
<definition name="within_reach">...</definition>
```
```markdown
::: definition within_reach
A fighter is [[within_reach|within reach]] of ...
:::
```
with no `<reference name="within_reach">` (`[[within_reach]]`) anywhere but
in its own definition.
""",
)

MUTUAL_DEFINITION = Rule(
    "RB402",
    "mutual-definition",
    Severity.INFO,
    "two terms are defined through each other",
    """
## What it does
Reports two terms whose definitions refer to each other (reported once,
at the first of the two). A term referring to itself is not reported. Two
books' terms are never defined through each other: a book refers only into
the books it uses, and `uses` makes no cycle.

## Why is this bad?
Often fine (a fighter belongs to a crew; a crew is made of fighters),
but a reader who follows the links goes round in a circle, and a reading
order has to break the cycle. Shown as information for the rules team.

## Example
```xml
<definition name="fighter">... <reference name="crew">crew</reference> ...</definition>
<definition name="crew">... <reference name="fighter">fighters</reference> ...</definition>
```
```markdown
[... belongs to a [[crew]].]{dfn=fighter}
[... is made of [[fighter|fighters]].]{dfn=crew}
```
""",
)

UNUSED_SUPPRESSION = Rule(
    "RB403",
    "unused-suppression",
    Severity.WARNING,
    "an inline suppression suppresses nothing",
    """
## What it does
Reports a suppression written in a source that hides no finding: a
`<?rulebook ignore CODES?>` processing instruction or a
`<!-- rulebook: ignore CODES -->` comment (XML or Markdown) whose codes
have no finding on the lines it covers, or that names no rule at all.

A suppression names the codes (`RB101`) or rule names
(`dangling-reference`) it hides, separated by spaces or commas. It covers
the line it is written on and, when it stands alone on its line, the next
line too. A finding that stops reading a file cannot be suppressed.

## Why is this bad?
A suppression outlives the problem it hid: once the reference is fixed or
the text moved, it would silently hide the next problem of that kind
there. Remove it (or fix the code it names).

## Example
```xml
<reference name="model">models</reference> <?rulebook ignore RB101?>
```
```markdown
[[model|models]] <!-- rulebook: ignore RB101 -->
```
where `model` is defined: nothing is left to suppress.
""",
)
