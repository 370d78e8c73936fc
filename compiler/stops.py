"""Stops (Ctrl+C, SIGTERM) held back while the build starts a process, so that none is left running.

Python raises a stop in the main thread wherever it comes: one coming after a process began but before the call
starting it returned (``Popen``, a fork) left the process with no one to stop it, running on after a build that
unwound in a process living on (a test, an editor's plugin). The command line's handlers (:mod:`rulebook.cli`) ask
:func:`held` first: within :func:`stops_held` the stop is kept, and raised again on leaving, the process known.
Blocking the signals in the thread would not do: the kernel gives a signal to another thread, and Python runs the
handler in the main thread all the same.
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator

_holding = 0
"""How many :func:`stops_held` the main thread is in."""
_kept: list[int] = []
"""The signals that came meanwhile."""


def held(signum: int) -> bool:
    """Whether signal ``signum`` comes while the main thread starts a process: it is then kept for later (the
    handler returns), and raised again when the process is known."""
    if _holding:
        _kept.append(signum)
        return True
    return False


@contextlib.contextmanager
def stops_held() -> Iterator[None]:
    """The main thread's stops kept while it starts a process (elsewhere, nothing to keep: Python raises stops in
    the main thread only); one that came is raised on leaving."""
    import threading

    if threading.current_thread() is not threading.main_thread():
        yield
        return
    global _holding
    _holding += 1
    try:
        yield
    finally:
        _holding -= 1
        if not _holding and _kept:
            signum = _kept[0]
            _kept.clear()
            signal.raise_signal(signum)  # its handler runs here, the stop raised where the process is known
