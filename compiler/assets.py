"""Files a book's sources refer to besides the text: images, in ``images/`` beside the sources."""

from __future__ import annotations

from pathlib import Path

from compiler.model import Book


def image_folder(book: Book, root: Path) -> Path | None:
    """The ``images`` folder beside the (first) source file, if there is one."""
    if not book.documents:
        return None
    source = Path(book.documents[0].path)
    folder = (source if source.is_absolute() else root / source).parent / "images"
    return folder if folder.is_dir() else None


def available_images(folder: Path | None) -> set[str]:
    """Image files present, as posix paths relative to the image folder."""
    if folder is None:
        return set()
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}
