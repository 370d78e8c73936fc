"""``rulebook lint --fix`` and ``--diff``: the lint's fixes made in the sources, each file in one step.

The edits are planned from the lint's findings (:mod:`rulebook.lint.fixes`) on the text the lint
read; before a file is touched its bytes are read again and must be that text exactly (a byte
order mark apart), so the fixed file is the old one, byte for byte, but for the fixed values.
Every file is checked before any is written (never a link, never in ``.git`` or through a linked
folder, see :func:`rulebook.fileio.rewrite_file`); each is replaced in one step, keeping its
permissions.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from rulebook.errors import UserError
from rulebook.fileio import check_rewritable, rewrite_file
from rulebook.inputs import UnreadableInput, read_input
from rulebook.lint.fixes import fixed_text, plan_edits
from rulebook.source import BOM, display_path
from rulebook.stage_values import LintResult


@dataclass(frozen=True, slots=True)
class FixedSource:
    """A source as the fixes make it."""

    path: Path
    shown: str
    """Its display path."""
    before: str
    after: str
    fixes: int
    """How many findings the fixes correct in it."""
    bom: bool = False
    """Whether the file starts with a byte order mark (kept)."""

    @property
    def data(self) -> bytes:
        """The fixed file's bytes."""
        return (BOM if self.bom else b"") + self.after.encode("utf-8")


def plan_fixes(result: LintResult, paths: Sequence[Path], root: Path) -> tuple[FixedSource, ...]:
    """What the fixes of a lint's findings (those it reports: the baseline's are left) make of its sources,
    ``paths``; nothing is written. A source that changed since the lint read it is refused."""
    by_shown = {display_path(path, root): path for path in paths}
    fixed = []
    for shown, edits in sorted(plan_edits(result.new, result.sources).items()):
        path = by_shown.get(shown)
        if path is None:
            continue
        before = result.sources[shown].text
        try:
            data = read_input(path, root=root)
        except UnreadableInput as error:
            raise UserError(f"cannot fix `{shown}`: {error.reason}") from error
        bom = data.startswith(BOM)
        if data != (BOM if bom else b"") + before.encode("utf-8"):
            raise UserError(f"`{shown}` changed while it was linted: nothing was fixed (run the lint again)")
        fixed.append(FixedSource(path, shown, before, fixed_text(before, edits), len(edits), bom))
    return tuple(fixed)


def write_fixes(fixed: Sequence[FixedSource], root: Path) -> None:
    """Replace each source by its fixed text, each in one step; every place is checked before any is written."""
    for source in fixed:
        check_rewritable(source.path, root=root)
    for source in fixed:
        rewrite_file(source.path, source.data, root=root)


def unified_diff(fixed: Sequence[FixedSource]) -> str:
    """The fixes as a unified diff (``a/`` and ``b/`` paths, as ``git diff`` writes them)."""
    import difflib

    lines: list[str] = []
    for source in fixed:
        lines += difflib.unified_diff(
            source.before.splitlines(keepends=True),
            source.after.splitlines(keepends=True),
            f"a/{source.shown}",
            f"b/{source.shown}",
        )
    return "".join(line if line.endswith(("\n", "\r")) else line + "\n\\ No newline at end of file\n" for line in lines)
