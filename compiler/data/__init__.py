"""The compiled rulebook as data: ``rules.json``, for the engine, other tools and the site.

:mod:`~rulebook.data.shapes` types it (the schema is the contract), :mod:`~rulebook.data.rule_data`
builds and serialises it from the builders of :mod:`~rulebook.data.terms`,
:mod:`~rulebook.data.structure` and :mod:`~rulebook.data.content`.
"""

from __future__ import annotations

from rulebook.data.content import content_json
from rulebook.data.rule_data import (
    CONTENT_HASH_PLACEHOLDER,
    FORMAT_VERSION,
    build_rule_data,
    build_site_summary,
    serialise,
)
from rulebook.data.shapes import RuleData, SiteSummary
from rulebook.data.terms import Translations, section_anchor, section_path, term_anchor

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
