"""What the files this tool writes on request look like, so that a later one may replace an earlier one.

``-o`` replaces an existing file only when it is a report, an export or a graph this tool wrote
(:func:`rulebook.fileio.check_report_file`): ``lint -o LICENSE`` or ``graph -o Makefile`` is refused.
Each format is recognised by how it starts and how it ends, both of which its writer fixes (the
first and last 64 KB are read, however large the file): a text report ends with its summary line,
a SARIF log starts with our schema and project folder, a TBX export with its root and title. Any of
them may replace any other (``lint -o report`` in text, then in JSON); a baseline is not a report
(``--write-baseline`` alone replaces one, see :func:`rulebook.lint.baseline.is_baseline`).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import NamedTuple

from rulebook.fileio import file_ends


class Signature(NamedTuple):
    """How one format of ours starts (matched at the file's start) and ends (matched at its end)."""

    start: re.Pattern[str]
    end: re.Pattern[str]


def _signature(start: str, end: str) -> Signature:
    return Signature(re.compile(start), re.compile(f"(?:{end})\\Z"))


_COUNT = r"\d+ (?:error|warning|note)s?"
_SUMMARY = (
    rf"(?:Found {_COUNT}(?:, {_COUNT})* in \d+ files?\.|All checks passed \(\d+ files?\)\.)\n"
    r"(?:(?:1 known problem is|\d+ known problems are) listed in the baseline and not shown\.\n)?"
    r"(?:(?:1 baseline entry no longer occurs|\d+ baseline entries no longer occur): "
    r"update the baseline with `rulebook lint --write-baseline FILE`\.\n)?"
)
_WORKFLOW_COMMAND = r"::(?:error|warning|notice) file=[^\n]*::[^\n]*\n"

SIGNATURES: dict[str, Signature] = {
    "lint text": _signature(rf"(?:error|warning|info)\[[A-Z]+\d+\]: |{_SUMMARY}", rf"(?:^|\n){_SUMMARY}"),
    "lint json": _signature(
        r'\{"diagnostics":\[\n|\{\n  "diagnostics": \[',
        r'"stale_baseline_entries": ?\d+,\s*"warnings": ?\d+\s*\}\s*\}\n',
    ),
    "lint github": _signature(_WORKFLOW_COMMAND, rf"(?:^|\n){_WORKFLOW_COMMAND}"),
    "lint sarif": _signature(
        r'\{\n  "\$schema": "https://json\.schemastore\.org/sarif-2\.1\.0\.json",\n  "runs": \[\n    \{\n'
        r'      "columnKind": "unicodeCodePoints",\n      "originalUriBaseIds": \{\n        "SRCROOT": \{\n'
        r'          "description": \{\n            "text": "The project folder"',
        r'\n  "version": "2\.1\.0"\n\}\n',
    ),
    "graph json": _signature(r'\{\n "edges": \[', r'\n \]\n\}\n|\n "nodes": \[\]\n\}\n'),
    "graph dot": _signature(r"digraph rulebook \{\n  rankdir=LR;\n", r"\n\}\n"),
    "graph graphml": _signature(
        r"<\?xml version='1\.0' encoding='utf-8'\?>\n<graphml xmlns=\"http://graphml\.graphdrawing\.org/xmlns\""
        r"[^>]*><key id=\"d\d+\" for=\"edge\" attr\.name=\"kind\"",
        r"</graph></graphml>\n?",
    ),
    "terms tbx": _signature(
        r"<\?xml version='1\.0' encoding='UTF-8'\?>\n"
        r'<tbx xmlns="urn:iso:std:iso:30042:ed-2" style="dct" type="TBX-Basic" xml:lang="en">\n  <tbxHeader>\n'
        r"    <fileDesc>\n      <sourceDesc>\n        <p>[^<\n]*: terminology, English-French</p>",
        r"\n</tbx>\n",
    ),
    "terms csv": _signature(r'"?term_id"?,"?en"?,"?fr"?,"?fr_accepted"?,"?fr_forbidden"?\r?\n', r"\n"),
}
"""Every format ``-o`` writes, by command and format (a test writes each and replaces it with each)."""


def written_format(head: str, tail: str) -> str | None:
    """The format of ours a file that starts with ``head`` and ends with ``tail`` is in, if any."""
    for name, signature in SIGNATURES.items():
        if signature.start.match(head) and signature.end.search(tail):
            return name
    return None


def is_report(path: Path) -> bool:
    """Whether the file at ``path`` is a report, a graph or an export this tool wrote (so ``-o`` may replace it)."""
    return written_format(*file_ends(path)) is not None
