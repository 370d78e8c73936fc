"""Files a book's sources refer to besides the text: images, in ``images/`` beside the sources.

Only what the sources reference is ever published, and only a regular file that lies
inside the images folder, reached without a symbolic link: a link (to the build's own
environment, a key, another project) is never followed, even when named explicitly.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path, PurePosixPath

from compiler.model import Book


def image_folder(book: Book, root: Path) -> Path | None:
    """The ``images`` folder beside the (first) source file, if there is one (and it is no link)."""
    if not book.documents:
        return None
    source = Path(book.documents[0].path)
    folder = (source if source.is_absolute() else root / source).parent / "images"
    return folder if folder.is_dir() and not folder.is_symlink() else None


def image_files(book: Book, folder: Path | None) -> dict[str, Path]:
    """The images the book shows that the folder holds safely, by the name the sources give them."""
    if folder is None:
        return {}
    found = {}
    for name in sorted({image.file for image in book.images}):
        path = safe_file(folder, name)
        if path is not None:
            found[name] = path
    return found


def safe_file(folder: Path, name: str) -> Path | None:
    """``folder/name`` if ``name`` is a plain relative path to a regular file, with no link on the way."""
    parts = PurePosixPath(name).parts
    if not parts or name.startswith("/") or "\\" in name or any(p in ("", ".", "..") for p in parts):
        return None
    path = folder
    for part in parts:
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except OSError:
            return None
        if stat.S_ISLNK(mode):
            return None
    return path if stat.S_ISREG(mode) else None
