"""Files a book's sources refer to besides the text: images, in ``images/`` beside the sources.

Only what the sources reference is ever published, and only a regular file that lies
inside the images folder, reached without a symbolic link: a link (to the build's own
environment, a key, another project) is never followed, even when named explicitly. And only
a picture: a file whose content is not the picture its name says, or an SVG that could act, is
refused (:mod:`rulebook.pictures`).
"""

from __future__ import annotations

import contextlib
import os
import stat
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from rulebook.fileio import git_ignored, ignored_said
from rulebook.model import Book
from rulebook.pictures import Refusal, picture_refusal, published_name
from rulebook.site.page_table import is_device_name


def image_folder(book: Book, root: Path) -> Path | None:
    """The ``images`` folder beside the (first) source file, if there is one (and it is no link)."""
    folder = _images_place(book, root)
    return _usable(folder) if folder is not None else None


IMAGES_FOLDER = "images"
"""The folder beside a source its pictures are in (one name, for a book and for a translation)."""


def _usable(folder: Path) -> Path | None:
    """``folder`` if it is a folder, and no link (never followed)."""
    return folder if folder.is_dir() and not folder.is_symlink() else None


def linked_folder_refusals(book: Book, root: Path) -> dict[str, Refusal]:
    """Each image the book shows, refused, when the ``images`` folder is a symbolic link (never followed): each was
    said to be missing, with the help to add the file that was there, through the link."""
    folder = _images_place(book, root)
    if folder is None or not folder.is_symlink():
        return {}
    refusal = Refusal(
        "the `images` folder beside the sources is a symbolic link, which the build never follows",
        "make `images` a folder of the project itself, holding the pictures",
    )
    return dict.fromkeys((image.file for image in book.images), refusal)


def _images_place(book: Book, root: Path) -> Path | None:
    if not book.documents:
        return None
    source = Path(book.documents[0].path)
    return (source if source.is_absolute() else root / source).parent / IMAGES_FOLDER


@dataclass(frozen=True, slots=True)
class BookImages:
    """The images a book shows, as its images folder holds them, by the name the sources give them."""

    published: dict[str, Path] = field(default_factory=dict)
    """The files the site publishes: held safely, and pictures (:mod:`rulebook.pictures`)."""
    refused: dict[str, Refusal] = field(default_factory=dict)
    """The files held safely that are not published, and why (the `refused-image` finding)."""


def book_images(book: Book, folder: Path | None) -> BookImages:
    """The images the book shows that the folder holds safely, published or refused for what they are."""
    published, refused = {}, {}
    for name, path, named in _safe_images(book, folder):
        refusal = named or picture_refusal(path)
        if refusal is None:
            published[name] = path
        else:
            refused[name] = refusal
    return BookImages(published, refused)


def translation_images(translation: Book, own: Path | None, original: Path | None) -> BookImages:
    """The images a translation shows: those of the ``images`` folder beside it (``own``), else the original's
    (``original``: a translation shows the book's pictures unless it has its own, as a French plan has French
    words; a picture its own folder refuses is refused, whatever the original holds)."""
    mine = book_images(translation, own) if own is not None and own != original else BookImages()
    if own is not None and own != original:  # its own entry a link, a pipe: refused, not passed over for the book's
        unsafe = _unsafe_entry()  # (a committed link to `.git/config` showed the book's picture without a word)
        for name in sorted({image.file for image in translation.images} - mine.published.keys() - mine.refused.keys()):
            with contextlib.suppress(OSError, ValueError):
                if _plain_name(name) and os.path.lexists(own / name):
                    mine.refused[name] = unsafe
    theirs = book_images(translation, original)
    published = {name: path for name, path in theirs.published.items() if name not in mine.refused}
    refused = {name: why for name, why in theirs.refused.items() if name not in mine.published}
    return BookImages(published | mine.published, refused | mine.refused)


def _unsafe_entry() -> Refusal:
    """Why a picture of a translation's own ``images`` folder that is no regular file of it is not shown."""
    return Refusal(
        "it is a link, or no regular file, in the translation's `images` folder, which the build never follows",
        "make it a picture file of the folder itself, or remove it to show the book's picture",
    )


def images_beside(source: Path) -> Path | None:
    """The ``images`` folder beside a source file, if there is one (and it is no link)."""
    return _usable(source.parent / IMAGES_FOLDER)


def held_images(book: Book, folder: Path | None) -> Iterator[tuple[str, Path]]:
    """Each image the book shows that the folder holds safely (:func:`safe_file`), by a name a page can show
    (:func:`name_refusal`), in name order: what the site and the PDF may take."""
    return ((name, path) for name, path, named in _safe_images(book, folder) if named is None)


def _safe_images(book: Book, folder: Path | None) -> Iterator[tuple[str, Path, Refusal | None]]:
    """Each image the book shows that the folder holds safely, in name order, with why its name cannot be
    published (:func:`name_refusal`, or a name whose published one another's is, or differs from only by case),
    if it cannot."""
    if folder is None:
        return
    by_folded: dict[str, str] = {}
    held = [(name, path) for name in sorted({image.file for image in book.images}) if (path := safe_file(folder, name))]
    ignored = git_ignored((path for _, path in held), folder)  # one question to Git for them all
    for name, path in held:
        first = by_folded.setdefault(published_name(name).lower(), name)
        named = name_refusal(name) or (_twin(first, name) if first != name else None)
        yield name, path, named or (_ignored() if Path(os.path.abspath(path)) in ignored else None)


def _ignored() -> Refusal:
    """Why a picture Git ignores is not published (a committed ``<image source="ci-token.png">`` published the file a
    CI step wrote, a token in its text chunk)."""
    return Refusal(
        f"it is {ignored_said()}: a picture the site publishes is one a commit holds, never a file a checkout or a CI "
        "step left beside the sources",
        "commit it, or name another picture",
    )


def _twin(first: str, name: str) -> Refusal:
    if first.lower() != name.lower():
        return Refusal(
            f"the site would publish it under the name it publishes `{first}` under, `{published_name(first)}` (an SVG "
            "picture is published drawn into a PNG named after it)",
            "rename it",
        )
    return Refusal(
        f"its name differs from the picture `{first}`'s only by case: on a disk that ignores case (macOS, Windows), "
        "where the site is copied or served, one replaces the other",
        "rename one of the two",
    )


def name_refusal(name: str) -> Refusal | None:
    """Why a picture's name cannot be shown on a page as it is: a control, format or bidirectional character (a page
    shows U+202E as `�`, so its address named no file: a broken picture the lint passed, and a PDF Typst could not
    make); a hidden file or folder (``.a.png``, ``.git/a.png``), which MkDocs and Zensical leave out of the site (a
    broken picture the lint passed); or a name Windows keeps for a device (``aux.png``); None if it can."""
    if any(part.startswith(".") for part in name.split("/")):
        return Refusal(
            "it is a hidden file, or in a hidden folder (its name starts with `.`), which the site leaves out",
            "rename it without the leading `.`",
        )
    if any(is_device_name(part) for part in name.split("/")):
        return Refusal(
            "its name (before the first `.`) is one Windows keeps for a device (`con`, `nul`, `aux`, `prn`, `com1`, "
            "`lpt1`...): no file there can take it, so the site could not be copied or served there",
            "rename it",
        )
    if all(character.isprintable() or unicodedata.category(character) == "Zs" for character in name):
        return None  # a space of any width is text (macOS names a screenshot `... 10.00.00\u202fAM.png`)
    return Refusal(
        "its name holds a character a page cannot show as it is (a control, format or bidirectional character)",
        "rename it with letters, digits and signs only",
    )


def _plain_name(name: str) -> bool:
    """Whether ``name`` is a plain relative path, as written (`a.png/` is `a.png` to pathlib, and a broken picture on
    the page)."""
    return "\\" not in name and not any(part in ("", ".", "..") for part in name.split("/"))


def safe_file(folder: Path, name: str) -> Path | None:
    """``folder/name`` if ``name`` is a plain relative path to a regular file, with no link on the way."""
    if not _plain_name(name):
        return None
    path = folder
    for part in name.split("/"):
        path = path / part
        try:
            mode = os.lstat(path).st_mode
        except (OSError, ValueError):  # `h%00.png`: a NUL no path holds (an internal error)
            return None
        if stat.S_ISLNK(mode):
            return None
    return path if stat.S_ISREG(mode) else None
