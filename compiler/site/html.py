"""Book content as HTML: every reference a link to its definition, every text escaped.

Pure functions from model nodes to HTML strings. Text from the sources is always
escaped (markup in the XML never becomes markup on the page). A reference to a
defined term is a link with ``data-term`` (the page script shows the preview).
What the book cannot resolve is never a dead link: for readers, a reference to a
term the book does not define is text with a quiet mark ("defined in a chapter not
published yet") and a link to a missing section is text; the editor's view
(``drafts``) shows them as broken, with the lint's message.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Set
from dataclasses import dataclass, field

from markupsafe import escape

from rulebook.mechanics import parse_dice
from rulebook.model import (
    Content,
    Definition,
    Figure,
    Illustration,
    Image,
    Important,
    ItemList,
    LineBreak,
    Link,
    Note,
    Reference,
    Row,
    Section,
    Table,
    Value,
    plain_text,
)
from rulebook.site.escaping import html_text

BLOCKS = (Note, Table, ItemList, Figure, Illustration, Section)
STACKED_COLUMNS = 3
"""Tables this wide become a card per row on a phone (``rb-stack``): label and value, one under the other."""


@dataclass
class Linker:
    """Where things are on the site, relative to the page being rendered."""

    term_href: Callable[[str], str | None]
    """The URL of a term's definition from the current page, or None when the term is not defined."""
    id_href: Callable[[str], str | None]
    """The URL of a section or figure from the current page, or None when the id does not exist."""
    image_href: Callable[[str], str | None]
    """The URL of an image, or None when the sources lack it."""
    words: Mapping[str, str] = field(default_factory=dict)
    """The site's own words in the page's language (``strings.toml``)."""
    drafts: bool = False
    """The editor's view: what the book cannot resolve is shown broken, with the lint's words."""
    used_terms: set[str] = field(default_factory=set)
    """Terms referred to on the page (their previews go into the page)."""
    defined: set[str] = field(default_factory=set)
    """Terms whose defining words are already marked on the page (the first self-reference is)."""
    within: list[str] = field(default_factory=list)
    """The definitions being rendered, outermost first: a use of one of their terms is its own, not a link."""
    refused_images: Set[str] = frozenset()
    """The image files the images folder holds that are not published (not pictures the site may show)."""
    image_sizes: Mapping[str, tuple[int, int]] = field(default_factory=dict)
    """The size on the page, in CSS pixels, of the images published drawn (an SVG's PNG), by file."""
    unpublished_terms: set[str] = field(default_factory=set)
    """Terms not published yet that the page marked already: only a term's first use on a page is marked."""
    language: str = "en"
    """The page's language: its text is spaced as that language's typography asks (:func:`spaced`)."""

    def word(self, key: str, default: str) -> str:
        return self.words.get(key, default)


_FRENCH_SPACES = re.compile(r"(?<![ \t])[ \t]++(?=[:;!?»])|(?<=«)[ \t]+")
"""The spaces French typography does not break: before a colon, a semicolon, ``!``, ``?`` and ``»``, after ``«``. A
run is read from its first space only (read from each, 80,000 spaces took 30 s)."""


def spaced(text: str, language: str) -> str:
    """The text with the spaces its language does not break made non-breaking (French: ``lancez 2D6 ; réussi``
    never starts a line with ``;``). One character for one: offsets into the text stay true."""
    if language != "fr":
        return text
    return _FRENCH_SPACES.sub(lambda spaces: "\u00a0" * len(spaces.group()), text)


def render_content(content: Content, linker: Linker) -> str:
    """Content as HTML: runs of inline content become paragraphs, blocks stand on their own."""
    html: list[str] = []
    paragraph: list[str] = []

    def close() -> None:
        text = "".join(paragraph).strip()
        if text:
            html.append(f"<p>{text}</p>")
        paragraph.clear()

    for node in content:
        if isinstance(node, BLOCKS) or (isinstance(node, Definition) and _has_blocks(node.children)):
            close()
            if not isinstance(node, Section):
                html.append(render_block(node, linker))
        elif isinstance(node, LineBreak):
            close()
        else:
            paragraph.append(render_inline(node, linker))
    close()
    return "\n".join(html)


def _has_blocks(content: Content) -> bool:
    return any(
        isinstance(n, (*BLOCKS, LineBreak)) or (isinstance(n, Definition) and _has_blocks(n.children)) for n in content
    )


def render_inline(node: object, linker: Linker) -> str:
    if isinstance(node, str):
        return str(escape(spaced(node, linker.language)))
    if isinstance(node, Reference):
        return render_reference(node, linker)
    if isinstance(node, Link):
        href = linker.id_href(node.to)
        if href is None:
            if linker.drafts:
                return _broken(node.text, f"dangling-link: link to unknown id `{node.to}`")
            return str(escape(node.text))
        return f'<a class="rb-link" href="{escape(href)}">{escape(node.text)}</a>'
    if isinstance(node, Value):
        return f'<span class="rb-value" data-value="{escape(node.name)}">{escape(node.text)}</span>'
    if isinstance(node, Important):
        return f'<strong class="rb-important">{_inline_all(node.children, linker)}</strong>'
    if isinstance(node, Definition):
        return _inline_definition(node, linker)
    if isinstance(node, LineBreak):
        return "<br>"
    return ""


def render_reference(reference: Reference, linker: Linker) -> str:
    if reference.definition == reference.name or reference.name in linker.within:
        # A definition's own use of its term: the first is its defining words, the others plain text.
        if reference.name in linker.defined:
            return str(escape(reference.text))
        linker.defined.add(reference.name)
        return f'<dfn class="rb-dfn">{escape(reference.text)}</dfn>'
    href = linker.term_href(reference.name)
    if href is None:
        if linker.drafts:
            return _broken(reference.text, f"dangling-reference: reference to undefined term `{reference.name}`")
        if reference.name in linker.unpublished_terms:
            return str(escape(reference.text))
        linker.unpublished_terms.add(reference.name)
        return unpublished(reference.text)
    linker.used_terms.add(reference.name)
    kind = " rb-example" if reference.kind == "example" else ""
    return (
        f'<a class="rb-term{kind}" href="{escape(href)}" data-term="{escape(reference.name)}">'
        f"{escape(reference.text)}</a>"
    )


def _broken(text: str, message: str) -> str:
    return f'<span class="rb-dangling" title="{escape(message)}">{escape(text)}</span>'


def unpublished(text: str) -> str:
    """A term the book uses and does not define (yet): text with a quiet mark, which the page script explains
    in a card (on hover, on a tap, and on the keyboard's focus)."""
    return f'<span class="rb-unpublished" tabindex="0">{escape(text)}</span>'


def _inline_all(content: Content, linker: Linker) -> str:
    return "".join(render_inline(n, linker) for n in content)


def _inline_definition(definition: Definition, linker: Linker) -> str:
    """An inline definition; one that is only its words (a first use marked as the definition) is a ``dfn``."""
    attributes = _definition_attributes(definition)
    if len(definition.children) == 1 and isinstance(definition.children[0], str):
        linker.defined.add(definition.name)
        return f'<dfn class="rb-definition rb-dfn" {attributes}>{escape(definition.children[0])}</dfn>'
    linker.within.append(definition.name)
    body = _inline_all(definition.children, linker)
    linker.within.pop()
    return f'<span class="rb-definition" {attributes}>{body}{_permalink(definition, linker)}</span>'


def _definition_attributes(definition: Definition) -> str:
    return f'id="term-{escape(definition.name)}" data-term="{escape(definition.name)}"'


def _permalink(definition: Definition, linker: Linker) -> str:
    """A link to the definition, shown on hover and focus; its mark is drawn by CSS, so it is in no text."""
    label = linker.word("permalink", "Link to this definition")
    return f'<a class="rb-permalink" href="#term-{escape(definition.name)}" aria-label="{escape(label)}"></a>'


def render_block(node: object, linker: Linker) -> str:
    if isinstance(node, Definition):
        linker.within.append(node.name)
        body = render_content(node.children, linker)
        linker.within.pop()
        return f'<div class="rb-definition" {_definition_attributes(node)}>{_permalink(node, linker)}\n{body}\n</div>'

    if isinstance(node, Note):
        title = f'<p class="admonition-title">{escape(node.title)}</p>\n' if node.title else ""
        return f'<div class="admonition note">\n{title}{render_content(node.children, linker)}\n</div>'
    if isinstance(node, Table):
        return _table(node, linker)
    if isinstance(node, ItemList):
        return _item_list(node, linker)
    if isinstance(node, Figure):
        return _figure(node, linker)
    if isinstance(node, Illustration):
        shown, missing = _images(node.images, linker, "")
        if shown:
            return f'<div class="rb-illustration">{shown}</div>'
        return _missing_box(missing, linker)  # a reader keeps the place of a picture the text may speak of
    return ""


def _figure(figure: Figure, linker: Linker) -> str:
    inline = tuple(n for n in figure.caption if not isinstance(n, BLOCKS))
    title = f"<strong>{escape(figure.caption_title)}</strong> " if figure.caption_title else ""
    caption = _inline_all(inline, linker).strip()
    described = " ".join(filter(None, (figure.caption_title, plain_text(inline))))
    shown, missing = _images(figure.images, linker, described)
    # No picture to show: a box in its place, so the caption (and "see figure 2") still has a figure.
    pictures = shown or _missing_box(missing, linker)
    figcaption = f"<figcaption>{title}{caption}</figcaption>" if title or caption else ""
    return f'<figure class="rb-figure" id="{escape(figure.id)}">{pictures}{figcaption}</figure>'


def _images(images: tuple[Image, ...], linker: Linker, described: str) -> tuple[str, list[str]]:
    """The images the sources provide (described by their figure's caption), and the files missing."""
    shown, missing = [], []
    for image in images:
        href = linker.image_href(image.file)
        if href is None:
            missing.append(image.file)
        else:
            size = linker.image_sizes.get(image.file)
            sized = f' width="{size[0]}" height="{size[1]}"' if size is not None else ""
            said = html_text(image.alt or described)  # the picture's own words, else its figure's caption
            shown.append(f'<img src="{escape(href)}" alt="{said}"{sized} loading="lazy">')
    return "".join(shown), missing


def _missing_box(missing: list[str], linker: Linker) -> str:
    """The place of a picture the site does not show: the files only in the editor's view, under the lint's
    rule (`missing-image`, or `refused-image` for a file that is not a picture the site publishes)."""
    words = escape(linker.word("picture_missing", "Picture not available"))
    details = []
    for rule, files in (
        ("missing-image", [f for f in missing if f not in linker.refused_images]),
        ("refused-image", [f for f in missing if f in linker.refused_images]),
    ):
        if files and linker.drafts:
            names = ", ".join(f"<code>{escape(file)}</code>" for file in files)
            details.append(f'<span class="rb-missing-files">{rule}: {names}</span>')
    return f'<div class="rb-figure-missing"><span>{words}</span>{"".join(details)}</div>'


def _item_list(node: ItemList, linker: Linker) -> str:
    """A list, or a sequence of steps; a roll list (``roll="D6"``) is numbered by its rolls, in any list."""
    items = "\n".join(
        f"<li>{_item_title(item.title)}{render_content(item.children, linker)}</li>" for item in node.items
    )
    if node.roll:
        dice = parse_dice(node.roll)
        start = f' start="{dice.lowest}"' if dice is not None and dice.lowest != 1 else ""
        return f'<ol class="rb-list rb-roll-list"{start}>\n{items}\n</ol>'
    tag = "ol" if node.ordered else "ul"
    css = " rb-sequence" if node.ordered else ""
    return f'<{tag} class="rb-list{css}">\n{items}\n</{tag}>'


def _item_title(title: str | None) -> str:
    return f'<strong class="rb-item-title">{escape(title)}</strong> ' if title else ""


def _table(table: Table, linker: Linker) -> str:
    caption = f"<caption>{escape(table.title)}</caption>" if table.title else ""
    head = f"<thead>{_row(table.columns, linker, (), 'col')}</thead>" if table.columns else ""
    labels = tuple(plain_text(cell.children) for cell in table.columns.cells) if table.columns else ()
    body = "\n".join(_row(row, linker, labels) for row in table.rows)
    width = max((len(row.cells) for row in table.rows), default=0)
    css = (" rb-roll-table" if table.roll else "") + (" rb-stack" if width >= STACKED_COLUMNS else "")
    if "<a " in head or 'tabindex="0"' in head:
        css += " rb-head-links"  # a phone keeps these headers in sight: its terms are tapped there
    # Material styles only tables without a class: the class goes on a wrapper.
    return f'<div class="rb-table{css}"><table>{caption}{head}<tbody>{body}</tbody></table></div>'


def _row(row: Row, linker: Linker, labels: tuple[str, ...], scope: str = "row") -> str:
    """A table row; each cell carries its column's name, which a narrow screen shows beside it. Header cells
    head their column (``scope`` col, the headers row) or their row (a row's first cells)."""
    cells = []
    for index, cell in enumerate(row.cells):
        header = scope == "col" or cell.header
        tag = "th" if header else "td"
        label = labels[index] if index < len(labels) else ""
        attribute = f' data-label="{escape(label)}"' if label else ""
        if header and (scope == "col" or index == 0):
            attribute += f' scope="{scope}"'
        cells.append(f"<{tag}{attribute}>{render_content(cell.children, linker)}</{tag}>")
    return f"<tr>{' '.join(cells)}</tr>"  # a space between cells: search snippets do not run them together
