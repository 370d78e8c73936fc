"""A term's neighbourhood as a small SVG: the terms it uses on the right, its users on the left.

A picture a person can read: one term, at most a dozen neighbours a side, every
name a link. Laid out in columns by our own code, so it is deterministic and
needs no graph layout engine or script.
"""

from __future__ import annotations

from collections.abc import Callable

from markupsafe import escape

WIDTH = 640
ROW = 18
MAX_SIDE = 12


def neighbourhood_svg(
    name: str, title: str, users: list[tuple[str, str]], uses: list[tuple[str, str]], href: Callable[[str], str | None]
) -> str:
    """``users`` and ``uses`` are (term id, display name) pairs; ``href`` gives a term's link from the SVG."""
    left, right = _trim(users), _trim(uses)
    rows = max(len(left), len(right), 1)
    height = rows * ROW + 40
    middle = height / 2
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {height}" width="{WIDTH}" height="{height}" '
        f'font-family="sans-serif" font-size="12" role="img" aria-label="Terms around {escape(title)}">',
        "<style>a text{fill:#3949ab} text{fill:#222} .c{font-weight:bold} line{stroke:#9e9e9e}"
        " .muted{fill:#757575;font-style:italic}</style>",
    ]
    for side, items, x_text, x_line, anchor in ((left, left, 190, 200, "end"), (right, right, 450, 440, "start")):
        top = middle - (len(items) - 1) * ROW / 2
        for index, (term, label) in enumerate(side):
            y = top + index * ROW
            x_centre = 260 if anchor == "end" else 380
            parts.append(f'<line x1="{x_line}" y1="{y - 4:.0f}" x2="{x_centre}" y2="{middle - 4:.0f}"/>')
            parts.append(_label(term, label, x_text, y, anchor, href))
    parts.append(_label(name, title, 320, middle, "middle", href, css="c"))
    if not left:
        parts.append(f'<text x="190" y="{middle:.0f}" text-anchor="end" class="muted">no other term uses it</text>')
    if not right:
        parts.append(f'<text x="450" y="{middle:.0f}" class="muted">uses no other term</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _trim(items: list[tuple[str, str]]) -> list[tuple[str, str]]:
    if len(items) <= MAX_SIDE:
        return items
    return [*items[: MAX_SIDE - 1], ("", f"… and {len(items) - MAX_SIDE + 1} more")]


def _label(
    term: str, label: str, x: float, y: float, anchor: str, href: Callable[[str], str | None], css: str = ""
) -> str:
    cls = f' class="{css}"' if css else ""
    text = f'<text x="{x:.0f}" y="{y:.0f}" text-anchor="{anchor}"{cls}>{escape(label)}</text>'
    link = href(term) if term else None
    if link is None:
        return text.replace("<text ", '<text class="muted" ', 1) if term and not css else text
    return f'<a href="{escape(link)}" target="_top">{text}</a>'
