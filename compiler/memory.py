"""Giving freed memory back to the operating system.

libxml2 allocates a parsed tree with the C library's ``malloc``; once the tree is freed, glibc keeps the
pages for later ``malloc`` calls, but Python's own objects live in separate arenas and never reuse them.
After a big document is read, the lint's findings would then pile up on top of a tree that no longer
exists: ``malloc_trim`` hands those pages back, so the peak is the reading's, not the sum.
"""

from __future__ import annotations

BIG = 1 << 20
"""Sources smaller than this (in characters) leave too little behind to be worth a call."""


def release_freed_memory() -> bool:
    """Return the C heap's free pages to the system (glibc only); whether it could be done."""
    import ctypes  # imported only for big sources: it costs a few milliseconds
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        trim = ctypes.CDLL(name).malloc_trim if name else None
    except (OSError, AttributeError):
        return False
    if trim is None:
        return False
    trim(0)
    return True
