"""Book content as HTML: every reference a link to its definition, every text escaped.

Pure functions from model nodes to HTML strings. Text from the sources is always
escaped (markup in the XML never becomes markup on the page). A reference to a
defined term is a link with ``data-term`` (the page script shows the preview);
a dangling reference is visibly broken text carrying the lint message, never a
dead link.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from markupsafe import escape

from compiler.model import (
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
)

BLOCKS = (Note, Table, ItemList, Figure, Illustration, Section)


@dataclass
class Linker:
    """Where things are on the site, relative to the page being rendered."""

    term_href: Callable[[str], str | None]
    """The URL of a term's definition from the current page, or None when the term is not defined."""
    id_href: Callable[[str], str | None]
    """The URL of a section or figure from the current page, or None when the id does not exist."""
    image_href: Callable[[str], str | None]
    """The URL of an image, or None when the sources lack it."""
    used_terms: set[str] = field(default_factory=set)
    """Terms referred to on the page (their previews go into the page)."""


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
        return str(escape(node))
    if isinstance(node, Reference):
        return render_reference(node, linker)
    if isinstance(node, Link):
        href = linker.id_href(node.to)
        if href is None:
            return _broken(node.text, f"dangling-link: link to unknown id `{node.to}`")
        return f'<a class="rb-link" href="{escape(href)}">{escape(node.text)}</a>'
    if isinstance(node, Value):
        return f'<span class="rb-value" data-value="{escape(node.name)}">{escape(node.text)}</span>'
    if isinstance(node, Important):
        return f'<strong class="rb-important">{_inline_all(node.children, linker)}</strong>'
    if isinstance(node, Definition):
        return _definition_open(node) + _inline_all(node.children, linker) + "</span>"
    if isinstance(node, LineBreak):
        return "<br>"
    return ""


def render_reference(reference: Reference, linker: Linker) -> str:
    href = linker.term_href(reference.name)
    if href is None:
        return _broken(reference.text, f"dangling-reference: reference to undefined term `{reference.name}`")
    linker.used_terms.add(reference.name)
    kind = " rb-example" if reference.kind == "example" else ""
    return (
        f'<a class="rb-term{kind}" href="{escape(href)}" data-term="{escape(reference.name)}">'
        f"{escape(reference.text)}</a>"
    )


def _broken(text: str, message: str) -> str:
    return f'<span class="rb-dangling" title="{escape(message)}">{escape(text)}</span>'


def _inline_all(content: Content, linker: Linker) -> str:
    return "".join(render_inline(n, linker) for n in content)


def _definition_open(definition: Definition) -> str:
    anchor = f"term-{definition.name}"
    return (
        f'<span class="rb-definition" id="{escape(anchor)}" data-term="{escape(definition.name)}">'
        f'<a class="rb-permalink" href="#{escape(anchor)}" title="Permanent link to this definition">¶</a>'
    )


def render_block(node: object, linker: Linker) -> str:
    if isinstance(node, Definition):
        anchor = f"term-{node.name}"
        return (
            f'<div class="rb-definition" id="{escape(anchor)}" data-term="{escape(node.name)}">'
            f'<a class="rb-permalink" href="#{escape(anchor)}" title="Permanent link to this definition">¶</a>\n'
            f"{render_content(node.children, linker)}\n</div>"
        )
    if isinstance(node, Note):
        title = f'<p class="admonition-title">{escape(node.title)}</p>\n' if node.title else ""
        return f'<div class="admonition note">\n{title}{render_content(node.children, linker)}\n</div>'
    if isinstance(node, Table):
        return _table(node, linker)
    if isinstance(node, ItemList):
        tag = "ol" if node.ordered else "ul"
        css = " rb-sequence" if node.ordered else ""
        items = "\n".join(
            f"<li>{_item_title(item.title)}{render_content(item.children, linker)}</li>" for item in node.items
        )
        return f'<{tag} class="rb-list{css}">\n{items}\n</{tag}>'
    if isinstance(node, Figure):
        images = "".join(_image(image, linker) for image in node.images)
        title = f"<strong>{escape(node.caption_title)}</strong> " if node.caption_title else ""
        caption = _inline_all(tuple(n for n in node.caption if not isinstance(n, BLOCKS)), linker).strip()
        figure_id = escape(node.id)
        return f'<figure class="rb-figure" id="{figure_id}">{images}<figcaption>{title}{caption}</figcaption></figure>'
    if isinstance(node, Illustration):
        return f'<div class="rb-illustration">{"".join(_image(image, linker) for image in node.images)}</div>'
    return ""


def _item_title(title: str | None) -> str:
    return f'<strong class="rb-item-title">{escape(title)}</strong> ' if title else ""


def _table(table: Table, linker: Linker) -> str:
    caption = f"<caption>{escape(table.title)}</caption>" if table.title else ""
    head = f"<thead>{_row(table.columns, linker, 'th')}</thead>" if table.columns else ""
    body = "".join(_row(row, linker) for row in table.rows)
    css = " rb-roll-table" if table.roll else ""
    # Material styles only tables without a class: the class goes on a wrapper.
    return f'<div class="rb-table{css}"><table>{caption}{head}<tbody>{body}</tbody></table></div>'


def _row(row: Row, linker: Linker, force: str | None = None) -> str:
    cells = []
    for cell in row.cells:
        tag = force or ("th" if cell.header else "td")
        cells.append(f"<{tag}>{render_content(cell.children, linker)}</{tag}>")
    return f"<tr>{''.join(cells)}</tr>"


def _image(image: Image, linker: Linker) -> str:
    href = linker.image_href(image.file)
    if href is None:
        return (
            f'<span class="rb-missing-image" role="img" aria-label="Image not available: {escape(image.file)}">'
            f"Image not available: {escape(image.file)}</span>"
        )
    return f'<img src="{escape(href)}" alt="{escape(image.file)}" loading="lazy">'
