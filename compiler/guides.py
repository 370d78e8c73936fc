"""The documentation, as installed with the package: ``rulebook docs TOPIC`` reads it from here.

The repository's ``docs/*.md`` ship in the wheel as ``rulebook/docs/`` (``pyproject.toml`` maps the
folder), so a rules team that installed a wheel reads the same guides the messages point at
(``rulebook docs lint``). In a source checkout (an editable install) the package has no such
folder: the repository's own ``docs/`` is read. The README is the package's description, read
from its metadata.
"""

from __future__ import annotations

import re
from importlib import metadata, resources
from importlib.resources.abc import Traversable
from pathlib import Path

README = "readme"
"""The topic that is the README (the package's description)."""
DISTRIBUTION = "rulebook-compiler"
_TOPIC = re.compile(r"^(?:docs/)?(?P<name>[a-z][a-z0-9_-]*)(?:\.md)?$", re.IGNORECASE)


class UnknownGuide(LookupError):
    """A topic no installed guide has."""


def guides_folder() -> Traversable:
    """Where the installed guides are: the package's ``docs/``, else (a source checkout) the repository's."""
    shipped = resources.files("rulebook") / "docs"
    if shipped.is_dir():
        return shipped
    return Path(__file__).resolve().parent.parent / "docs"


def topics() -> dict[str, str]:
    """Every guide's topic and title (its first heading), the README first."""
    found = {README: "rulebook: what it does, how to start, every command"}
    for guide in sorted(guides_folder().iterdir(), key=lambda g: g.name):
        if guide.name.endswith(".md") and guide.is_file():
            first = guide.read_text(encoding="utf-8").split("\n", 1)[0]
            found[guide.name.removesuffix(".md")] = first.lstrip("# ").strip()
    return found


def topic_of(word: str) -> str:
    """The topic ``word`` names (``lint``, ``lint.md``, ``docs/lint.md``, any case), or :class:`UnknownGuide`."""
    named = _TOPIC.match(word.strip())
    name = named["name"].lower() if named else ""
    if name in topics():
        return name
    raise UnknownGuide(word)


def guide(topic: str) -> Traversable | None:
    """The file of a guide (None for the README, which is the package's metadata)."""
    return None if topic == README else guides_folder() / f"{topic}.md"


def guide_text(topic: str) -> str:
    """A guide's Markdown."""
    found = guide(topic)
    if found is not None:
        return found.read_text(encoding="utf-8")
    description = metadata.metadata(DISTRIBUTION)
    return str(description.get_payload() or description["Description"] or "")  # type: ignore[attr-defined]
