"""Terms' neighbourhoods as SVG: the terms a term uses on the right, its users on the left.

A picture a person can read: one term, at most a dozen neighbours a side. Laid out in
columns by our own code, so it is deterministic and needs no layout engine or script.
Neighbourhoods are packed into one SVG per initial letter, each behind an SVG ``<view>``
(``a.svg#term-arc``), so a book with thousands of terms writes a few dozen files, not
thousands.
"""

from __future__ import annotations

from dataclasses import dataclass

from markupsafe import escape

from rulebook.site.escaping import html_text

WIDTH = 640
ROW = 18
MAX_SIDE = 12


@dataclass(frozen=True, slots=True)
class Neighbourhood:
    term: str
    title: str
    users: list[str]
    """Display names of the terms whose definitions use this one."""
    uses: list[str]
    """Display names of the terms this one's definition uses."""

    @property
    def height(self) -> int:
        return max(len(_trim(self.users)), len(_trim(self.uses)), 1) * ROW + 40


def sprite(neighbourhoods: list[Neighbourhood]) -> str:
    """One SVG holding every neighbourhood, stacked, each addressable as ``#term-<id>``."""
    total = sum(n.height for n in neighbourhoods)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {total}" width="{WIDTH}" height="{total}" '
        'font-family="sans-serif" font-size="12">',
        "<style>text{fill:#222} .c{font-weight:bold;fill:#283593} line{stroke:#9e9e9e}"
        " .muted{fill:#757575;font-style:italic} rect{fill:#fff}</style>",
    ]
    top = 0
    for neighbourhood in neighbourhoods:
        parts.append(f'<view id="term-{escape(neighbourhood.term)}" viewBox="0 {top} {WIDTH} {neighbourhood.height}"/>')
        parts.append(f'<g transform="translate(0 {top})">{_drawing(neighbourhood)}</g>')
        top += neighbourhood.height
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _drawing(n: Neighbourhood) -> str:
    height = n.height
    middle = height / 2
    parts = [f'<rect width="{WIDTH}" height="{height}"/>']
    for names, x_text, x_line, x_centre, anchor in (
        (_trim(n.users), 190, 200, 260, "end"),
        (_trim(n.uses), 450, 440, 380, "start"),
    ):
        top = middle - (len(names) - 1) * ROW / 2
        for index, name in enumerate(names):
            y = top + index * ROW
            parts.append(f'<line x1="{x_line}" y1="{y - 4:.0f}" x2="{x_centre}" y2="{middle - 4:.0f}"/>')
            parts.append(f'<text x="{x_text}" y="{y:.0f}" text-anchor="{anchor}">{html_text(name)}</text>')
    parts.append(f'<text x="320" y="{middle:.0f}" text-anchor="middle" class="c">{html_text(n.title)}</text>')
    if not n.users:
        parts.append(f'<text x="190" y="{middle:.0f}" text-anchor="end" class="muted">no other term uses it</text>')
    if not n.uses:
        parts.append(f'<text x="450" y="{middle:.0f}" class="muted">uses no other term</text>')
    return "".join(parts)


def _trim(names: list[str]) -> list[str]:
    if len(names) <= MAX_SIDE:
        return names
    return [*names[: MAX_SIDE - 1], f"… and {len(names) - MAX_SIDE + 1} more"]
