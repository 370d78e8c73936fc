"""Whether the user's cache folder is the user's alone: the one rule the builds' state and the engine's verdicts
both keep to (:func:`rulebook.state.home_refusal`, :func:`rulebook.engine.schema.cache_folder`).

What the cache holds is believed: the secret a build's marks are keyed with, the engine's verdicts that a
``rules.json`` was checked. Another local user who owns the folder, may write into it, or put a link in its
place could have written either (a shared ``XDG_CACHE_HOME=/tmp/cache`` on a runner), as ssh refuses a key others
could have written.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path


def not_own(folder: Path) -> str | None:
    """Why ``folder`` (when anything is there) is not this user's alone, or None: a link in its place, another
    user's folder, one others may write into, or one in a folder others may write into without the sticky bit
    (they could put a folder of theirs there)."""
    try:
        status = os.stat(folder, follow_symlinks=False)
    except OSError:  # not there yet: made by this user, in a parent checked below
        status = None
    if status is not None:
        if stat.S_ISLNK(status.st_mode):
            return "is a link (to a folder another user may write into)"
        if not stat.S_ISDIR(status.st_mode):
            return None  # no folder at all: told where it is made
        if status.st_uid != os.geteuid():
            return "belongs to another user"
        if status.st_mode & 0o022:
            return "may be written by other users"
    above = open_to_others(folder)  # any folder on the way, as written and as it resolves, not the nearest alone
    if above is not None:
        return f"is in `{above}`, a folder any user may write into"
    return None


def open_to_others(path: Path) -> Path | None:
    """The first folder on the way to ``path`` that any user may write into without the sticky bit ``/tmp`` has, or
    None: another user could put a link or a folder of theirs there, on the way to what this tool writes. The way is
    walked as the system walks it, each link followed from the folder it is in: every folder an entry of the way is
    looked up in is looked at (a link another user made in such a folder led a build to replace another project's
    site, and a link of one's own leading through such a folder to a link of theirs did the same)."""
    written = path if path.is_absolute() else Path.cwd() / path  # its `..` taken as the system takes them, after links
    current = Path(written.anchor)
    pending = list(written.parts[1:])
    hops = 0
    while pending:
        part = pending.pop(0)
        if part in ("", "."):
            continue
        if part == "..":
            current = current.parent
            continue
        if open_to_all(current):
            return current
        entry = current / part
        if hops < 40 and os.path.islink(entry):  # past 40, the system refuses the way itself
            hops += 1
            target = Path(os.readlink(entry))
            if target.is_absolute():
                current = Path(target.anchor)
            pending[:0] = list(target.parts[1:] if target.is_absolute() else target.parts)
            continue
        current = entry
    return None


def open_to_all(folder: Path, *, sticky_helps: bool = True) -> bool:
    """Whether ``folder`` (not followed if a link) is a folder any user may write into, without the sticky bit when
    ``sticky_helps`` (where others cannot replace what is another's)."""
    try:
        mode = os.stat(folder, follow_symlinks=False).st_mode
    except OSError:
        return False
    return stat.S_ISDIR(mode) and bool(mode & 0o002) and not (sticky_helps and mode & stat.S_ISVTX)
