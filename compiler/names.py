"""Names and how they compare: identifiers, slugs, and the one way of folding names and words.

Every stage that matches names (did-you-mean, the diff between editions, terms found
in sources without markup, a translation's terminology) folds them here, so two
stages never disagree on whether ``Sight Line`` and ``sight_line`` are the same.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
BOOK_NAME = re.compile(r"[a-z0-9][a-z0-9_-]{0,62}")
"""A book's name in the configuration (``[books.NAME]``), and the prefix naming its terms from another book."""
BOOK_SEPARATOR = ":"
"""Between a book's name and one of its names: ``core:fighter``."""
_FOLD_SEPARATORS = str.maketrans({" ": "_", "-": "_", "\t": "_"})
_WORD = re.compile(r"[a-z0-9]+")


def is_identifier(name: str) -> bool:
    """Whether a term name or id is an identifier (ASCII letters, digits, underscores; not a digit first)."""
    return _IDENTIFIER.fullmatch(name) is not None


def split_name(name: str) -> tuple[str | None, str]:
    """A reference's or link's target as its book and its name there: ``core:fighter`` is
    ``("core", "fighter")``; a name without a book's prefix is ``(None, name)``."""
    book, separator, local = name.partition(BOOK_SEPARATOR)
    if separator and BOOK_NAME.fullmatch(book):
        return book, local
    return None, name


def is_target_name(name: str) -> bool:
    """Whether a reference's name or a link's target is well formed: an identifier, maybe after a book's prefix."""
    return is_identifier(split_name(name)[1])


def ascii_lower(text: str) -> str:
    """Text without case or accents: "Élément" is "element"."""
    return unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()


@lru_cache(maxsize=4096)
def slugify(title: str) -> str:
    """A readable anchor from a title: ``"Hidden or Open Lists ?"`` -> ``hidden-or-open-lists``."""
    return re.sub(r"[^a-z0-9]+", "-", ascii_lower(title)).strip("-") or "section"


def singular(word: str) -> str:
    """A crude English singular of a lower-case word, enough to match ``crews`` with ``crew`` (a translation's
    words fold by its language file: :meth:`rulebook.languages.data.Language.singular`)."""
    if not word.endswith("s") or len(word) <= 3:
        return word
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 4 and word.endswith(("ches", "shes", "sses", "xes")):
        return word[:-2]
    if word.endswith(("ss", "us", "is")):
        return word
    return word[:-1]


@lru_cache(maxsize=65536)
def normalise(name: str) -> str:
    """A name without case, separators or plural: ``Sight Lines`` and ``sight_line`` are one."""
    folded = name.strip().lower().translate(_FOLD_SEPARATORS)
    if _is_folded(folded):
        return folded
    return "_".join(singular(word) for word in folded.split("_") if word)


def _is_folded(folded: str) -> bool:
    """Whether a folded name has no empty word and no word ending in ``s``: nothing left to fold (most names)."""
    if not folded or folded.startswith("_") or folded.endswith(("_", "s")):
        return False
    return "__" not in folded and "s_" not in folded


def plain_words(text: str) -> str:
    """A text's words without case or accents, one space apart (for matching titles)."""
    return " ".join(_WORD.findall(ascii_lower(text)))


NUMBER_ID = re.compile(r"s\d+(?:-\d+)*")
"""A section's id made of its printed number (``s3-2`` for 3.2; a repeated one made unique by ``-2``...), as a
PDF's conversion names its sections: the site gives readers the title's words instead."""


def number_id(number: str) -> str:
    """The id a section numbered ``number`` (``3.2``) gets when its source gives it none: ``s3-2``."""
    return "s" + number.replace(".", "-")
