"""The status file beside a translation: the sections a translator brought up to date with a later edition.

``rulebook status --mark`` writes it (``status.toml`` beside the translation); nothing else does, and the sources
are never touched. Each entry names a section of the latest edition of the original and a fingerprint of its
text as it was marked (:func:`rulebook.translate.status.fingerprint`): the mark holds while the original reads
so, and the section is out of date again when it changes.

```toml
# rulebook status: the sections of the `fr` translation brought up to date with a later edition.
# Written by `rulebook status --mark`; a mark holds while the original section reads as it did.

[[updated]]
section = "player-turn"
title = "Player Turn"
edition = "turns-later"
fingerprint = "3f2a9c0d41b7e215"
```
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from rulebook.errors import TerminologyError, quoted
from rulebook.inputs import present
from rulebook.translate.status import Mark
from rulebook.translate.terminology import read_translation_toml
from rulebook.translate.waivers import FINGERPRINT

HEADER = "# rulebook status: the sections of the `{language}` translation brought up to date with a later edition.\n"
_HEADER = re.compile(r"# rulebook status: the sections of the `[a-zA-Z0-9-]+` translation brought up to date")
_KEYS = ("section", "title", "edition", "fingerprint")


def load_marks(path: Path, *, root: Path | None = None) -> tuple[Mark, ...]:
    """The marks of a status file (none when there is no file), or a plain-words error naming it."""
    if not present(path):
        return ()
    table = read_translation_toml(path, root=root, kind="status file")
    entries = table.get("updated", [])
    unknown = sorted(set(table) - {"updated"})
    if unknown or not isinstance(entries, list):  # a misspelt `[[updatd]]` marked nothing, and nothing said so
        what = f"`{unknown[0]}` is not part of a status file" if unknown else "`updated` must be [[updated]] tables"
        raise TerminologyError(f"{path}: {what} (`rulebook status --mark` writes [[updated]] tables)")
    marks: dict[tuple[str, str], Mark] = {}
    for entry in entries:
        if not isinstance(entry, dict) or not all(isinstance(entry.get(key), str) for key in _KEYS):
            raise TerminologyError(f"{path}: each [[updated]] needs a {', '.join(f'`{k}`' for k in _KEYS)}, as text")
        if extra := sorted(set(entry) - set(_KEYS)):
            raise TerminologyError(f"{path}: `{extra[0]}` is not a key of [[updated]] (it holds {', '.join(_KEYS)})")
        if not FINGERPRINT.fullmatch(entry["fingerprint"]):  # `3F2A...`: "no longer holds (the original changed)"
            raise TerminologyError(
                f"{path}: {quoted(entry['fingerprint'])} is not a mark's fingerprint: 16 digits and letters a to f, as "
                "`rulebook status --mark` writes it (`3f2a9c0d41b7e215`)"
            )
        mark = Mark(*(entry[key] for key in _KEYS))
        marks[mark.edition, mark.section] = mark  # one a section and edition, as `--mark` writes them
    return tuple(marks.values())


def render_marks(marks: Iterable[Mark], language: str) -> str:
    """A status file holding ``marks``, one per section and edition, in a stable order."""
    lines = [
        HEADER.format(language=language),
        "# Written by `rulebook status --mark`; a mark holds while the original section reads as it did.\n",
    ]
    unique = {(m.edition, m.section): m for m in marks}
    for _, mark in sorted(unique.items()):
        lines.append("\n[[updated]]\n")
        lines += [f"{key} = {_toml_string(getattr(mark, key))}\n" for key in _KEYS]
    return "".join(lines)


def is_status_file(path: Path) -> bool:
    """Whether the file at ``path`` is a status file this tool wrote (so ``--mark`` may replace it)."""
    from rulebook.fileio import file_ends

    return _HEADER.match(file_ends(path)[0]) is not None


def _toml_string(value: str) -> str:
    """A TOML basic string: JSON's escapes are TOML's, but for DEL, which TOML wants escaped too."""
    return json.dumps(value, ensure_ascii=False).replace("\x7f", "\\u007f")
