"""How each source format writes a construct, for help texts: a finding's help speaks its source's syntax.

An XML source is told ``<reference name="x">``, a Markdown one ``[[x]]``. The format is the finding's
file's (its suffix): a help text names the syntax of the file it points at.
"""

from __future__ import annotations

import re
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


_READ_AS_WRITTEN = re.compile(r"(?:[a-z0-9][a-z0-9_]*:)?[a-z0-9](?:[a-z0-9_]*[a-z0-9])?")
"""A name ``[[name]]`` refers to as written: the dialect reads a reference's text as a name in lower case, with
``_`` for its spaces and none at its ends (``[[Sprint]]`` is ``sprint``)."""


def reference_to(path: str, name: str) -> str:
    """How the source at ``path`` refers to the term ``name``; in the dialect, a name its bare reference does not
    read as (``Sprint``, ``_x``) takes a bar, ``[[Sprint|Sprint]]``, as ``lint --fix`` writes it: the help said
    `[[Sprint]]`, which refers to ``sprint``."""
    spelling = spelling_of(path)
    if spelling is MARKDOWN and _READ_AS_WRITTEN.fullmatch(name) is None:
        return f"[[{name}|{name}]]"
    return spelling.reference.format(name=name)
