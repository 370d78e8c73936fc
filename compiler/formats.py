"""Every command's output formats, in one table: the command line offers them (``--format``), the renderers
render them and refuse any other, and ``tests/test_formats.py`` runs each one.

Imports nothing: the command line builds its parser from this table at every start.
"""

from __future__ import annotations

LINT = ("text", "json", "github", "sarif")
"""``rulebook lint``: text for people, JSON for scripts, GitHub workflow commands, SARIF for code scanning."""
COMPARE = (*LINT, "html")
"""``rulebook compare``: the lint's formats over both texts, or the side-by-side HTML report."""
STATUS = (*LINT, "html")
"""``rulebook status``: each translation's status, then the lint's formats over the translations and both editions;
or the side-by-side page of what to translate again."""
DIFF = ("text", "summary", "json", "github", "sarif", "html")
"""``rulebook diff``: the lint's formats over both editions, a one-line-per-change summary, or the HTML page."""
GRAPH = ("json", "dot", "graphml")
"""``rulebook graph``: node-link JSON, Graphviz, GraphML (Gephi)."""
QUERY = ("text", "json")
"""``rulebook query``."""
TERMS_EXPORT = ("tbx", "csv")
"""``rulebook terms export``: TBX (ISO 30042) or CSV, for translation tools."""

BY_COMMAND = {
    "lint": LINT,
    "compare": COMPARE,
    "status": STATUS,
    "diff": DIFF,
    "graph": GRAPH,
    "query": QUERY,
    "terms export": TERMS_EXPORT,
}
"""The formats of each command that has ``--format``, by its words on the command line."""


def unknown(output_format: str, known: tuple[str, ...]) -> ValueError:
    """The error a renderer raises when asked for a format it does not write (a bug: the parser offers only these)."""
    return ValueError(f"unknown output format {output_format!r} (the formats: {', '.join(known)})")
