"""What a process the build starts does first, so that it never outlives the build.

A worker (:mod:`rulebook.data_worker`) or Typst's own process (:mod:`rulebook.pdf.typst_child`) calls
:func:`die_with_parent` before its work: the build stops it on every path, and the kernel stops it if the build
is killed (SIGKILL included), so no orphan keeps the machine busy. The build starts each within
:func:`rulebook.stops.stops_held`, so that a stop never comes between the process's start and the build knowing it.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys

_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """Ask Linux to kill this process when the build process ``parent`` dies, however it dies (SIGKILL included).

    SIGTERM ends it at once, and Ctrl+C (which a terminal sends to every process of its group) is the build's to
    handle: the build then stops this process itself.
    """
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    if sys.platform.startswith("linux"):
        with contextlib.suppress(AttributeError, OSError):
            ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the build died before the request above: nobody will ask for the result
        os._exit(1)
