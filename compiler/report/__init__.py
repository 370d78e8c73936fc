"""Renderers for lint results: one module per output format, all in the same order."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rulebook.formats import LINT, unknown

if TYPE_CHECKING:  # the package is imported by every command for its escaping: nothing heavy at its top
    from rulebook.report.summary import Report

__all__ = ["Renderer", "renderer"]


Renderer = Callable[["Report"], str]


def renderer(name: str) -> Renderer:
    """The renderer for one of the lint's formats (:data:`rulebook.formats.LINT`)."""
    from rulebook.report import github, json_format, sarif, text

    def json_lines(report: Report) -> str:
        return json_format.render(report)

    renderers: dict[str, Renderer] = {
        "text": text.render,
        "json": json_lines,
        "github": github.render,
        "sarif": sarif.render,
    }
    if name not in LINT:
        raise unknown(name, LINT)
    return renderers[name]
