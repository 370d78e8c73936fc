"""Which pages are open in a browser, and which were written again: the news the reload script listens to."""

from __future__ import annotations

import threading
from collections import Counter, deque
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

EVERY_PAGE = "*"
"""Written in place of the pages' URLs when the whole site was built again."""


class News:
    """Which pages are open in a browser, and which were written again: what the reload script listens to."""

    def __init__(self) -> None:
        self._changed = threading.Condition()
        self._serial = 0
        self._recent: deque[tuple[int, tuple[str, ...]]] = deque(maxlen=10_000)
        self._viewers: Counter[str] = Counter()
        self.closed = False

    def publish(self, urls: Sequence[str]) -> None:
        """Tell the pages at these URLs (from the site's root, ``/chapter/``) that they were written again."""
        with self._changed:
            self._serial += 1
            self._recent.append((self._serial, tuple(urls)))
            self._changed.notify_all()

    def serial(self) -> int:
        with self._changed:
            return self._serial

    def wait(self, after: int, timeout: float) -> tuple[int, list[str]]:
        """The URLs written since ``after`` (waiting for some at most ``timeout`` seconds), and the new serial."""
        with self._changed:
            self._changed.wait_for(lambda: self._serial > after or self.closed, timeout)
            written = [url for serial, urls in self._recent if serial > after for url in urls]
            return self._serial, written

    @contextmanager
    def viewing(self, url: str) -> Iterator[None]:
        with self._changed:
            self._viewers[url] += 1
        try:
            yield
        finally:
            with self._changed:
                self._viewers[url] -= 1
                if self._viewers[url] <= 0:
                    del self._viewers[url]

    def viewed(self) -> list[str]:
        """The URLs of the pages open in a browser now."""
        with self._changed:
            return list(self._viewers)

    def close(self) -> None:
        with self._changed:
            self.closed = True
            self._changed.notify_all()
