"""The settings the build adds a site's own to (a translation's language, an offline site's search), in either form
MkDocs takes them: a list, or a mapping of names to options (a mapping was iterated as a list of its names, and the
plugins' and extensions' options were dropped from a translation's site)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from rulebook.site.theme import chrome_options
from rulebook.site.writer import _mkdocs_options, offline_settings

WORDS = {"to_light": "Passer au clair", "to_dark": "Passer au sombre", "heading_permalink": "Lien permanent"}


def test_a_palette_of_one_scheme_stays_one_scheme_named_in_the_sites_words() -> None:
    raw = {"theme": {"name": "material", "palette": {"scheme": "slate", "toggle": {"icon": "x", "name": "Light"}}}}
    palette = chrome_options(raw, WORDS, "fr")["theme"]["palette"]
    assert palette == {"scheme": "slate", "toggle": {"icon": "x", "name": "Passer au clair"}}


def test_extensions_as_a_mapping_keep_their_options_and_take_the_permalinks_title() -> None:
    raw: dict[str, Any] = {"markdown_extensions": {"toc": {"permalink": True}, "admonition": None}}
    extensions = chrome_options(raw, WORDS, "fr")["markdown_extensions"]
    assert extensions == [{"toc": {"permalink": True, "permalink_title": "Lien permanent"}}, "admonition"]


def test_plugins_as_a_mapping_keep_their_options_and_search_takes_the_language() -> None:
    raw: dict[str, Any] = {"plugins": {"search": {"separator": "[ -]"}, "tags": {"tags_file": "t.md"}}}
    options = _mkdocs_options(raw, SimpleNamespace(language="fr"), [], None, WORDS)  # type: ignore[arg-type]
    assert options["plugins"] == [{"search": {"separator": "[ -]", "lang": "fr"}}, {"tags": {"tags_file": "t.md"}}]
    offline = offline_settings(raw)
    assert offline["plugins"] == [{"search": {"separator": "[ -]"}}, {"tags": {"tags_file": "t.md"}}, "offline"]
