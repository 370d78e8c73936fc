"""The site's own words a project writes: ``site_templates/strings.toml``, read as the build and the lint read it.

Kept apart from the theme (:mod:`rulebook.site.theme`, which loads the template engine) so that the lint reads the
file with the build's reader and limits at no cost to its start-up: a ``strings.toml`` that is no TOML, a table of
the wrong kind or a word of a megabyte passed the lint and stopped the build.
"""

from __future__ import annotations

from pathlib import Path

from rulebook.errors import UserError
from rulebook.inputs import present, read_toml
from rulebook.site.page_table import LONGEST_LINE

STRINGS_FILE = "strings.toml"
"""The file of the site's words, among the shipped templates and in a project's ``site_templates/``."""


def read_strings(path: Path, *, root: Path | None) -> dict[str, dict[str, str]]:
    """The words of ``path`` by language, none when it is absent; a file that cannot be read or holds anything but
    ``[language]`` tables of text, each word at most :data:`~rulebook.site.page_table.LONGEST_LINE` characters, is
    a :class:`UserError` naming it. ``root``: the project, when the file is one of its own."""
    if not present(path):
        return {}
    table = read_toml(path, root=root, kind="configuration")
    if not all(isinstance(words, dict) and all(isinstance(w, str) for w in words.values()) for words in table.values()):
        raise UserError(f"{path}: each [language] table maps words to text")
    for language, words in table.items():
        for key, text in words.items():
            if len(text) > LONGEST_LINE:
                raise UserError(
                    f"{path}: `{key}` in [{language}] has {len(text):,} characters, more than the "
                    f"{LONGEST_LINE:,} the site's words may have (they are on every page)"
                )
    return table
