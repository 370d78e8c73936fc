"""Waivers: findings a translator has read and accepts, by fingerprint, in ``waivers.toml``.

``rulebook compare --waive FINGERPRINT`` writes them: each becomes a ``[[waiver]]`` table with its
reason and, as a comment, what the finding said and where, so the file reads without the report.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

from rulebook.characters import toml_string
from rulebook.errors import TerminologyError, quoted
from rulebook.translate.results import Finding
from rulebook.translate.terminology import read_translation_toml


def load_waivers(path: Path, *, root: Path | None = None) -> dict[str, str]:
    """Waivers by fingerprint, with their reasons (``[[waiver]]`` tables of fingerprint and reason; ``root``:
    see :func:`~rulebook.translate.terminology.read_translation_toml`)."""
    table = read_translation_toml(path, root=root, kind="waivers file")
    waivers = {}
    entries = table.get("waiver", [])
    unknown = sorted(set(table) - {"waiver"})
    if unknown or not isinstance(entries, list):  # a misspelt `[[waivers]]` hid nothing, and nothing said so
        what = f"`{unknown[0]}` is not part of a waivers file" if unknown else "`waiver` is not tables"
        raise TerminologyError(f"{path}: {what}: it holds [[waiver]] tables, each a `fingerprint` and a `reason`")
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("fingerprint"), str):
            raise TerminologyError(f"{path}: each [[waiver]] needs a `fingerprint`")
        keys = sorted(set(entry) - {"fingerprint", "reason"})
        if keys or not isinstance(entry.get("reason", ""), str):
            what = f"`{keys[0]}` is not a key of a waiver" if keys else "a waiver's `reason` is text"
            raise TerminologyError(f"{path}: {what}: a [[waiver]] holds a `fingerprint` and a `reason`")
        if not FINGERPRINT.fullmatch(entry["fingerprint"]):  # `08B7...`, ` 08b7...`: "matches nothing any more"
            raise TerminologyError(
                f"{path}: {quoted(entry['fingerprint'])} is not a fingerprint: 16 digits and letters a to f, as "
                "`rulebook compare` shows it (`08b780706f2bffa6`)"
            )
        waivers[entry["fingerprint"]] = entry.get("reason", "")
    return waivers


FINGERPRINT = re.compile(r"[0-9a-f]{16}")
"""A finding's fingerprint as :func:`~rulebook.translate.compare.fingerprinted` writes it."""


def is_waivers_file(path: Path) -> bool:
    """Whether a file is a waivers file, one ``--waive`` may add to: ``[[waiver]]`` tables, at least one (what
    ``--waive`` writes), and nothing else. A file of comments alone, or empty, is no proof: a terminology just
    begun is one (an empty file may still be written, as any report's; never one the project reads)."""
    try:
        table = read_translation_toml(path, kind="waivers file")
        load_waivers(path)
    except (TerminologyError, OSError):
        return False
    return set(table) == {"waiver"} and bool(table["waiver"])


def waiver_entries(findings: Sequence[Finding], reason: str | None) -> str:
    """``[[waiver]]`` tables for findings, each with its reason (the given one, else what the finding says)
    and a comment naming the finding and its place."""
    parts = []
    for finding in findings:
        place = f"{finding.place.path}:{finding.place.line}:{finding.place.column}" if finding.place else "-"
        said = " ".join(f"{finding.rule.code} {finding.kind} at {place}: {finding.message}".split())
        parts.append(
            "[[waiver]]\n"
            f"# {toml_string(said)[1:-1]}\n"  # a comment holds no escape: the message's controls written escaped
            f"fingerprint = {toml_string(finding.fingerprint)}\n"
            f"reason = {toml_string(reason or 'read in both texts: ' + finding.message)}\n"
        )
    return "\n".join(parts)
