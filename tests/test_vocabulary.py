"""No word of the bundled game in the package: its names are the book's, declared in its sources.

The bundled book's words are read from its source with the compiler's own reader: every term id (defined or
referred to), value name, table and sequence id, mechanic name and name a mechanic lists. The package (the
compiler, the engine, the schema, the DTD, the shipped templates and starter files) must use none of them as an
identifier or in a string, plural or not, but for the generic words of :data:`ALLOWED`, each with its reason.
"""

from __future__ import annotations

import io
import re
import tokenize
from collections.abc import Iterator
from pathlib import Path

import pytest

from rulebook.recipe.reading import read_book

from .conftest import BUNDLED_BOOK, ROOT

PACKAGE = ROOT / "compiler"
GENERATED = {PACKAGE / "engine" / "rules_validator.py"}
"""Generated from the schema, which is read here itself."""
TEXT_SUFFIXES = {".py", ".json", ".dtd", ".j2", ".toml", ".html", ".yml", ".yaml", ".xml", ".txt", ".css", ".js"}

ALLOWED: dict[str, str] = {
    "reroll": "any dice game rolls dice again (a chain's reroll, `--reroll`, the reroll rule's kind)",
    "table": "the format's own element (<table>): the book's tables, roll tables, data tables",
    "file": "a file on disk; the bundled game's file (a unit's column) is a homonym",
    "field": "a dataclass's or a form's field; the bundled game's field (a terrain piece) is a homonym",
    "base": "a base class, a base die; the bundled game's base (under a model) is a homonym",
    "model": "the document model (rulebook.model); the bundled game's model (a miniature) is a homonym",
    "template": "a Jinja template; the bundled game's template (a blast marker) is a homonym",
    "height": "a picture's height (SVG); the bundled game's height (of a model) is a homonym",
    "character": "a character of text; the bundled game's character (a hero) is a homonym",
    "rank": "a sort rank; the bundled game's rank (a row of models) is a homonym",
    "core": "a processor's core; the bundled game's core (an army category) is a homonym",
    "building": "building a site; the bundled game's building (a terrain piece) is a homonym",
    "special": "plain English (a special character); the bundled game's special (an army category) is a homonym",
    "arc": "an SVG arc; the bundled game's arc (a model's front) is a homonym",
    "wall": "plain English in the translation checks' examples of word order; a homonym of the terrain piece",
    "board": "any board game has a board (`pregame --board`, a repeated roll's `board` size)",
    "category": "every points-based game sorts its army list into categories, and the lint sorts its rules",
    "characteristics": "every wargame's profile lists characteristics: the issue's own generic name for it",
    "D3": "dice notation any dice game uses (a derived die's example)",
    "attacks": "every wargame's chain of rolls starts from attacks (`engine chain --attacks`, the docs' mathhammer)",
    "movement": "plain English in the translation checks (movement of text between versions)",
    "spell": "a lint rule's word list (spelling); the bundled game's spell is a homonym",
    "equipment": "plain English",
}
"""Words of the bundled book that any game, or the compiler itself, uses in another sense."""

ALLOWED_IN: dict[str, tuple[str, str]] = {
    "unit": ("compiler/translate/", "an aligned unit of text (a section, a titled note or item) of two languages"),
    "general": ("compiler/translate/report.py", "the findings of a pair placed on no row: plain English"),
}
"""Words allowed in one part of the package only, where they are homonyms: (path prefix, reason)."""


def bundled_words() -> set[str]:
    """Every name the bundled book's source declares or uses."""
    book = read_book([BUNDLED_BOOK], ROOT).book
    words = {d.name for d in book.definitions} | {r.name for r in book.references}
    words |= {v.name for v in book.values} | {m.name for m in book.mechanics}
    words |= {a.node.id for a in book.annotated if a.node.id}
    for mechanic in book.mechanics:
        for key, value in mechanic.attributes:
            if key in (
                "from",
                "marks",
                "prices",
                "count-together",
                "bonus",
                "table",
                "not-counted",
                "categories",
                "limits",
                "below-limit",
                "least-entries",
                "most-points",
                "least-points",
            ):
                words |= set(value.split())
    return {word for word in words if word}


def package_files() -> Iterator[Path]:
    for path in sorted(PACKAGE.rglob("*")):
        if (
            path.is_file()
            and path.suffix in TEXT_SUFFIXES
            and path not in GENERATED
            and "__pycache__" not in path.parts
        ):
            yield path


def _forms(word: str) -> set[str]:
    return {word.lower(), word.lower() + "s", word.lower() + "es"}


def _in_text(text: str, forms: dict[str, str]) -> Iterator[str]:
    for token in re.findall(r"\w+", text):
        if token.lower() in forms:
            yield forms[token.lower()]


def words_used(path: Path, forms: dict[str, str]) -> Iterator[tuple[int, str]]:
    """(line, bundled word) for each identifier or string of a Python file, or each word of another file."""
    text = path.read_text(encoding="utf-8")
    if path.suffix != ".py":
        for number, line in enumerate(text.splitlines(), 1):
            for word in _in_text(line, forms):
                yield number, word
        return
    for token in tokenize.generate_tokens(io.StringIO(text).readline):
        if token.type == tokenize.NAME and token.string.lower() in forms:
            yield token.start[0], forms[token.string.lower()]
        elif token.type in (tokenize.STRING, getattr(tokenize, "FSTRING_MIDDLE", -1)):
            for word in _in_text(token.string, forms):
                yield token.start[0], word


@pytest.fixture(scope="module")
def words() -> set[str]:
    return bundled_words()


def test_the_bundled_books_words_are_read_from_its_source(words: set[str]) -> None:
    assert {"unit", "leadership_test", "game_turns", "warband", "army_categories", "hero", "war_machine"} <= words
    assert len(words) > 150


def test_the_package_uses_no_word_of_the_bundled_game(words: set[str]) -> None:
    forms = {form: word for word in words - set(ALLOWED) for form in _forms(word)}
    found = []
    for path in package_files():
        place = path.relative_to(ROOT).as_posix()
        for line, word in words_used(path, forms):
            if not (word in ALLOWED_IN and place.startswith(ALLOWED_IN[word][0])):
                found.append(f"{place}:{line}: {word}")
    assert found == []


def test_every_allowed_word_is_a_word_of_the_bundled_book(words: set[str]) -> None:
    """The allow-list names only words the book has (a word it lost needs no reason)."""
    assert set(ALLOWED) | set(ALLOWED_IN) <= words
