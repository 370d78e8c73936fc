"""How many characters a font file's character maps claim, read from its bytes before Typst reads it.

Typst makes a table of every character a font's ``cmap`` names: an 11 KB font claiming every code point from 0 to
0xFFFFFFFF took Typst to its memory limit, and one listing the whole of Unicode 100 times took 678 MB (the
forty-eighth probe). A font claims at most :data:`MOST_CLAIMED` characters in all, each a code point of Unicode.
"""

from __future__ import annotations

import struct

LAST_CODE_POINT = 0x10FFFF
MOST_CLAIMED = 2 * (LAST_CODE_POINT + 1)
"""The most characters a font's maps may claim together: all of Unicode, twice (a font for every character
has one map of them and perhaps a second, older one)."""
MOST_GROUPS = 200_000
"""The most ranges one map may list: a font of every CJK character lists tens of thousands."""


class TooManyClaimed(ValueError):
    """A font whose maps claim more than a font may; the message says how many, or which code point."""


def check_claims(data: bytes) -> None:
    """Raise :class:`TooManyClaimed` for a font (``.ttf``, ``.otf``, or each font of a collection) whose character
    maps claim more than :data:`MOST_CLAIMED` characters, or a code point past Unicode's last. A file these few
    rules cannot read is left to Typst, which passes over what it cannot read."""
    try:
        for start in _font_starts(data):
            claimed = sum(_claimed(data, table) for table in _maps(data, start))
            if claimed > MOST_CLAIMED:
                said = f"its character maps claim {claimed:,} characters, more than a font needs"
                raise TooManyClaimed(f"{said} (at most {MOST_CLAIMED:,})")
    except struct.error:
        return


def _font_starts(data: bytes) -> list[int]:
    if data[:4] != b"ttcf":
        return [0]
    (count,) = struct.unpack_from(">I", data, 8)
    return list(struct.unpack_from(f">{count}I", data, 12))


def _maps(data: bytes, start: int) -> list[int]:
    """Where each character map of the font at ``start`` begins, one per encoding record (several may name one)."""
    (tables,) = struct.unpack_from(">H", data, start + 4)
    for record in range(tables):
        tag, _, offset, _ = struct.unpack_from(">4sIII", data, start + 12 + 16 * record)
        if tag == b"cmap":
            (count,) = struct.unpack_from(">H", data, offset + 2)
            return [offset + struct.unpack_from(">I", data, offset + 4 + 8 * n + 4)[0] for n in range(count)]
    return []


def _claimed(data: bytes, at: int) -> int:
    """How many characters the map at ``at`` claims (formats 4, 8, 10, 12 and 13; the others claim few)."""
    (kind,) = struct.unpack_from(">H", data, at)
    if kind == 4:
        (doubled,) = struct.unpack_from(">H", data, at + 6)
        count = doubled // 2
        ends = struct.unpack_from(f">{count}H", data, at + 14)
        starts = struct.unpack_from(f">{count}H", data, at + 16 + doubled)
        return sum(end - first + 1 for first, end in zip(starts, ends, strict=True) if end >= first)
    if kind == 10:
        first, count = struct.unpack_from(">II", data, at + 12)
        _within_unicode(first + count - 1 if count else first)
        return int(count)
    if kind in (8, 12, 13):
        groups_at = at + (8204 if kind == 8 else 12)
        (groups,) = struct.unpack_from(">I", data, groups_at)
        if groups > MOST_GROUPS:
            said = f"a character map lists {groups:,} ranges, more than a font needs"
            raise TooManyClaimed(f"{said} (at most {MOST_GROUPS:,})")
        claimed = 0
        for first, end, _ in struct.iter_unpack(">III", data[groups_at + 4 : groups_at + 4 + 12 * groups]):
            _within_unicode(end)
            claimed += end - first + 1 if end >= first else 0
        return claimed
    return 0


def _within_unicode(code_point: int) -> None:
    if code_point > LAST_CODE_POINT:
        raise TooManyClaimed(f"a character map claims the code point {code_point:#x}, past Unicode's last")
