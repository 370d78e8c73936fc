"""Memory: the collector kept off while large acyclic values are built, and freed memory given back to the system.

libxml2 allocates a parsed tree with the C library's ``malloc``; once the tree is freed, glibc keeps the
pages for later ``malloc`` calls, but Python's own objects live in separate arenas and never reuse them.
After a big document is read, the lint's findings would then pile up on top of a tree that no longer
exists: ``malloc_trim`` hands those pages back, so the peak is the reading's, not the sum.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

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


@contextmanager
def gc_frozen() -> Iterator[None]:
    """Keep the cyclic garbage collector off while large acyclic structures are built.

    The model is made of tuples that never form cycles; with the collector on, building a
    big book triggers full collections over an ever larger heap (measured: about 2x the
    time on the 100x book).
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.freeze()  # what was built stays: later collections need not walk it again
            gc.enable()
