"""How each source format writes a construct, for help texts: a finding's help speaks its source's syntax.

An XML source is told ``<reference name="x">``, a Markdown one ``[[x]]``. The format is the finding's
file's (its suffix): a help text names the syntax of the file it points at.
"""

from __future__ import annotations

from typing import NamedTuple


class Spelling(NamedTuple):
    """One format's way of writing the constructs help texts name."""

    definition: str
    """Defining the term ``{name}``."""
    reference: str
    """Referring to the term ``{name}``."""
    link: str
    """Pointing at the section or figure ``{name}``."""
    section_id: str
    """Giving a section the id ``{name}``."""
    value: str
    """A number annotated as a value."""
    roll: str
    """The dice ``{name}`` a table or list is rolled on."""


XML = Spelling(
    '<definition name="{name}">',
    '<reference name="{name}">',
    '<link to="{name}">',
    'id="{name}"',
    "<value>",
    'roll="{name}"',
)
MARKDOWN = Spelling(
    "::: definition {name}",
    "[[{name}]]",
    "[text](#{name})",
    "{{#{name}}}",
    "[number]{value=NAME}",
    "{{roll={name}}}",
)


def spelling_of(path: str) -> Spelling:
    """The syntax of the source at ``path`` (an XML file's, else the Markdown dialect's)."""
    return XML if path.lower().endswith(".xml") else MARKDOWN
