"""Renderers for lint results: one module per output format, all in the same order."""

from __future__ import annotations

from collections.abc import Callable

from rulebook.report.summary import Report, exit_code

__all__ = ["FORMATS", "Renderer", "Report", "exit_code", "renderer"]


Renderer = Callable[[Report], str]


def renderer(name: str) -> Renderer:
    """The renderer for an output format name."""
    from rulebook.report import github, json_format, sarif, text

    def json_lines(report: Report) -> str:
        return json_format.render(report)

    return {
        "text": text.render,
        "json": json_lines,
        "github": github.render,
        "sarif": sarif.render,
    }[name]


FORMATS = ("text", "json", "github", "sarif")
