"""Every kind of page the bundled project's sites have: what the browser tests visit and the screenshots show.

``docs/screenshots/take.py`` shoots these; ``tests/test_reader_site.py`` checks them on a phone and a laptop,
in light and dark, and runs axe-core on them.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class PageKind:
    name: str
    """Names the screenshot files (``chapter-390x844-light.png``)."""
    path: str
    """The page's URL from the site's root."""
    editors: bool = False
    """A page of the editor's view (``build --drafts``), not of the published site."""
    show: str | None = None
    """What the screenshot shows: an element scrolled to the top of the screen (a CSS selector)."""
    dark: bool = False
    """Whether the screenshots include the dark theme (where its colours matter)."""


PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 900}
NARROWEST = {"width": 320, "height": 640}

PAGE_KINDS = (
    PageKind("home", ""),
    PageKind("chapter", "models-units-and-formations/", dark=True),
    PageKind("chapter-sequence", "the-pre-game-sequence/", show=".rb-sequence"),
    PageKind("chapter-table", "characteristics/", show=".rb-table", dark=True),
    PageKind("chapter-army", "setting-up-a-game/", show=".rb-table"),
    PageKind("chapter-roll-list", "the-pre-game-sequence/", show=".rb-roll-list"),
    PageKind("chapter-head-links", "the-pre-game-sequence/", show=".rb-head-links"),
    PageKind("chapter-figure", "general-principles/", show="#figure_2"),
    PageKind("glossary", "glossary/", dark=True),
    PageKind("tables", "tables/", show="#values", dark=True),
    PageKind("tables-roll", "tables/", show="#roll-tables"),
    PageKind("tables-tests", "tables/", show="#tests"),
    PageKind("not-found", "404.html"),
    PageKind("fr-home", "fr/"),
    PageKind("fr-chapter", "fr/caracteristiques/", show="#priorite-des-modificateurs", dark=True),
    PageKind("fr-outdated", "fr/principes-generaux/", dark=True),
    PageKind("fr-untranslated", "fr/deployment_phase/"),
    PageKind("fr-glossary", "fr/glossary/"),
    PageKind("fr-tables", "fr/tables/", show="#tests"),
    PageKind("fr-not-found", "fr/404.html"),
    PageKind("later-home", "turns-later/"),
    PageKind("later-chapter", "turns-later/turns/"),
    PageKind("later-tables", "turns-later/tables/"),
    PageKind("later-changes", "turns-later/changes/", dark=True),
    PageKind("other-home", "other-game/"),
    PageKind("other-chapter", "other-game/playing-the-game/", show="#injuring"),
    PageKind("other-glossary", "other-game/glossary/"),
    PageKind("other-tables", "other-game/tables/"),
    PageKind("editor-chapter", "the-pre-game-sequence/", editors=True),
    PageKind("editor-lint", "lint/", editors=True, dark=True),
    PageKind("editor-graph", "graph/", editors=True, dark=True),
    PageKind("editor-translation", "translation-fr/", editors=True),
)
