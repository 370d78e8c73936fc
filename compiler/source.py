"""Source locations: where in which file a thing was written."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import NamedTuple


class Span(NamedTuple):
    """A place in a source file."""

    path: str
    """Repo-relative (or as given) posix path of the file."""
    line: int
    """1-based line number."""
    column: int
    """1-based column, counted in characters (not bytes)."""
    length: int = 0
    """How many characters the span covers on its line (0: a point)."""

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}"


@dataclass(frozen=True, slots=True, eq=False)
class SourceText:
    """The text of one source file, with fast line lookups."""

    path: str
    """Display path (posix)."""
    text: str
    """The whole decoded text."""
    line_starts: tuple[int, ...] = field(repr=False, default=())
    """Offset of the first character of each line."""

    @classmethod
    def from_text(cls, path: str, text: str) -> SourceText:
        lengths = map(len, text.split("\n"))
        starts = accumulate(lengths, lambda total, length: total + length + 1, initial=0)
        return cls(path, text, tuple(starts)[:-1])

    def line_text(self, line: int) -> str:
        """The text of a 1-based line, without its line break."""
        if not 1 <= line <= len(self.line_starts):
            return ""
        start = self.line_starts[line - 1]
        end = self.text.find("\n", start)
        return self.text[start : end if end != -1 else len(self.text)].rstrip("\r")

    def position(self, offset: int) -> tuple[int, int]:
        """The 1-based (line, column) of a character offset."""
        index = bisect_right(self.line_starts, offset) - 1
        return index + 1, offset - self.line_starts[index] + 1

    def span(self, offset: int, length: int = 0) -> Span:
        line, column = self.position(offset)
        return Span(self.path, line, column, length)


def display_path(path: Path, root: Path | None = None) -> str:
    """A stable posix path for messages: relative to ``root`` (default: cwd) when inside it."""
    base = (root or Path.cwd()).resolve()
    resolved = path.resolve()
    try:
        return resolved.relative_to(base).as_posix()
    except ValueError:
        return path.as_posix()


def read_text(path: Path) -> tuple[str | None, str | None]:
    """A file's UTF-8 text, or None and the reason it cannot be read (in plain words)."""
    try:
        return path.read_text(encoding="utf-8"), None
    except UnicodeDecodeError:
        return None, "it is not valid UTF-8 text"
    except OSError as error:
        return None, (error.strerror or str(error)).lower()
