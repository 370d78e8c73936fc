"""Compiling ``rules.json`` on the other core while the site is built.

The data is made in a forked process that shares what was read so far; the site is
built meanwhile. ``files()`` is asked for before the new site is published, so data
that fails its schema still stops the build. The worker never outlives the build: it is
stopped when the build ends on any path, and the kernel stops it if the build is killed.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import os
import threading
from collections.abc import Callable
from types import TracebackType
from typing import Any, Generic, TypeVar

from rulebook.child_process import die_with_parent
from rulebook.errors import OUT_OF_MEMORY, InvalidRuleData, UserError
from rulebook.stops import stops_held

T = TypeVar("T")


class BackgroundData(Generic[T]):
    """``make()`` run in a forked worker (where the system can fork), its result fetched by :meth:`files`.

    ``what`` names the work in the errors (``serve`` also recomputes translations this way).
    """

    def __init__(self, make: Callable[[], T], what: str = "compiling rules.json") -> None:
        self._make = make
        self._what = what
        self._process: Any = None
        self._result: T | None = None
        self._stopped = False
        """Whether :meth:`stop` stopped the worker (its result no longer wanted), not another's signal."""
        self._lock = threading.Lock()
        """Held while the worker is signalled or closed: ``serve`` stops it from its loop while the thread that
        waits for it closes it (the worker checked, then gone or closed under the other: a traceback)."""

    def __enter__(self) -> BackgroundData[T]:
        if "fork" in multiprocessing.get_all_start_methods():
            self._parent = os.getpid()
            context = multiprocessing.get_context("fork")
            self._reader, self._writer = context.Pipe(duplex=False)
            self._process = context.Process(target=self._run, daemon=True)
            try:
                with stops_held():  # a stop that came meanwhile is raised on leaving, the worker known
                    self._process.start()
                self._writer.close()  # the worker holds the other end: the reader sees it close if it dies
            except BaseException:  # stopped before the ``with`` holds the worker: it goes too
                if self._process.pid is not None:
                    self._process.kill()
                    self._process.join()
                self._writer.close()
                self._reader.close()
                self._process = None
                raise
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        with self._lock:
            process = self._process
            if process is not None:
                process.kill()  # a signal only, and nothing if it has ended
                process.join()
                process.close()
                self._reader.close()
                self._process = None

    def _run(self) -> None:
        die_with_parent(self._parent)
        self._reader.close()
        try:
            self._send(("ok", self._make()))
        except InvalidRuleData as error:
            self._send(("invalid", str(error)))
        except UserError as error:  # a fault of the sources, said in plain words (not as `TerminologyError: ...`)
            self._send(("user", str(error)))
        except MemoryError:  # a limit such as `ulimit -v`: an ordinary fault, not a bug (the forty-fourth probe)
            self._send(("memory", ""))
        except Exception as error:
            self._send(("failed", f"{type(error).__name__}: {error}"))

    def _send(self, outcome: tuple[str, Any]) -> None:
        """The worker's outcome to the build; nothing when the build is gone (killed with SIGKILL as the worker
        sent it: a BrokenPipeError's traceback was printed after the build had ended, the forty-second probe)."""
        with contextlib.suppress(OSError):
            self._writer.send(outcome)

    def stop(self) -> None:
        """Stop the worker now: its result is no longer wanted (:meth:`files` then raises). Only a signal: the
        thread waiting for the worker reaps it (two threads waiting for one process race for its exit status)."""
        with self._lock:
            if self._process is not None:
                self._stopped = True
                self._process.kill()

    def files(self) -> T:
        """What ``make()`` gave (``rules.json`` and its schema); InvalidRuleData if the data failed its schema, a
        UserError for a fault of the sources it met."""
        if self._result is not None:
            return self._result
        if self._process is None:
            self._result = self._make()
            return self._result
        try:
            status, value = self._reader.recv()
        except EOFError:
            self._process.join()
            code = self._process.exitcode
            if code is not None and code < 0 and not self._stopped:  # killed by another: the out-of-memory killer
                memory = " (SIGKILL: the system may have run out of memory)" if code == -9 else ""
                raise UserError(
                    f"{self._what} was stopped by signal {-code}{memory}; the last good site is kept"
                ) from None
            raise RuntimeError(f"{self._what} stopped (exit status {code})") from None
        if status == "invalid":
            raise InvalidRuleData(value)
        if status == "user":
            raise UserError(f"{self._what} failed: {value}")
        if status == "memory":
            raise UserError(f"{self._what} ran out of memory ({OUT_OF_MEMORY}); the last good site is kept")
        if status == "failed":
            raise RuntimeError(f"{self._what} failed: {value}")
        self._result = value
        return self._result
