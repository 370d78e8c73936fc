"""The compiled rulebook as data: ``rules.json``, for the engine, other tools and the site.

:mod:`~compiler.data.shapes` types it (the schema is the contract), :mod:`~compiler.data.rule_data`
builds and serialises it from the builders of :mod:`~compiler.data.terms`,
:mod:`~compiler.data.structure` and :mod:`~compiler.data.content`.
"""

from __future__ import annotations

from compiler.data.content import content_json
from compiler.data.rule_data import (
    CONTENT_HASH_PLACEHOLDER,
    FORMAT_VERSION,
    build_rule_data,
    build_site_summary,
    serialise,
)
from compiler.data.shapes import RuleData, SiteSummary
from compiler.data.terms import Translations, section_anchor, section_path, term_anchor

__all__ = [
    "CONTENT_HASH_PLACEHOLDER",
    "FORMAT_VERSION",
    "RuleData",
    "SiteSummary",
    "Translations",
    "build_rule_data",
    "build_site_summary",
    "content_json",
    "section_anchor",
    "section_path",
    "serialise",
    "term_anchor",
]
