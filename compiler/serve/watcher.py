"""The operating system's notice of changes to the files ``serve`` watches (inotify, through watchdog)."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any


class Watcher:
    """The operating system's notice of changes to the watched files, passed on once the files are written.

    A file closed after writing, or moved into place, is complete; one only created, modified or
    deleted may be in the middle of a save, and is waited for a moment longer. The folders above
    the watched ones, up to the project's, are watched too: a watched folder deleted and made
    again (a branch switched, a folder restored) is watched again, and what it holds taken as edited.
    """

    COMPLETE = 0.005
    SETTLE = 0.15

    def __init__(self, paths: Iterable[Path], post: Callable[[frozenset[Path]], None], root: Path) -> None:
        from watchdog.observers import Observer

        self._files = {os.path.abspath(p) for p in paths if not p.is_dir()}
        self._folders = [os.path.abspath(p) + os.sep for p in paths if p.is_dir()]
        self._post = post
        self._pending: dict[str, float] = {}
        self._changed = threading.Condition()
        self._stopped = False
        self._observer = Observer()
        self._handler = _handler(self._event)
        self._kinds = _event_kinds()
        self._recursive = {folder.rstrip(os.sep): True for folder in self._folders}
        for file in self._files:
            self._recursive.setdefault(os.path.dirname(file), False)
        top = os.path.abspath(root)
        for folder in list(self._recursive):
            while folder != top and os.path.dirname(folder) != folder and folder.startswith(top + os.sep):
                folder = os.path.dirname(folder)
                self._recursive.setdefault(folder, False)
        self._watches: dict[str, Any] = {}
        for folder in sorted(self._recursive):
            self._watch(folder)

    def _watch(self, folder: str) -> None:
        """Watch a folder (again: a deleted folder's watch is dead, and a new one is made)."""
        dead = self._watches.pop(folder, None)
        if dead is not None:
            self._observer.unschedule(dead)
        if os.path.isdir(folder):
            recursive = self._recursive[folder]
            self._watches[folder] = self._observer.schedule(
                self._handler, folder, recursive=recursive, event_filter=self._kinds
            )

    def __enter__(self) -> Watcher:
        self._observer.start()
        threading.Thread(target=self._pass_on, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        with self._changed:
            self._stopped = True
            self._changed.notify_all()
        self._observer.stop()
        self._observer.join()

    def _event(self, path: str, complete: bool, folder: bool = False) -> None:
        if folder:  # made, or moved into place: the watched folders in it are watched again
            self._made_again(path)
            return
        if path not in self._files and not any(path.startswith(folder) for folder in self._folders):
            return
        with self._changed:
            self._pending[path] = time.monotonic() + (self.COMPLETE if complete else self.SETTLE)
            self._changed.notify_all()

    def _made_again(self, path: str) -> None:
        inside = path + os.sep
        again = sorted(f for f in self._recursive if f == path or f.startswith(inside))
        if not again:
            return
        for folder in again:  # outer first
            self._watch(folder)
        for file in self._files:
            if file.startswith(inside):
                self._event(file, False)
        for folder in self._folders:
            if folder.startswith(inside):
                self._event(folder, False)

    def _pass_on(self) -> None:
        while True:
            with self._changed:
                while not self._pending and not self._stopped:
                    self._changed.wait()
                if self._stopped:
                    return
                wait = max(self._pending.values()) - time.monotonic()
                if wait > 0:
                    self._changed.wait(wait)
                    continue
                paths = frozenset(Path(path) for path in self._pending)
                self._pending.clear()
            self._post(paths)


def _event_kinds() -> list[type[Any]]:
    from watchdog import events

    # Not the notices of files opened or closed unwritten: the build's own reading would be taken for edits.
    return [
        events.FileClosedEvent,
        events.FileMovedEvent,
        events.FileCreatedEvent,
        events.FileDeletedEvent,
        events.FileModifiedEvent,
        events.DirCreatedEvent,  # a watched folder made again
        events.DirMovedEvent,
    ]


def _handler(notify: Callable[[str, bool, bool], None]) -> Any:
    """A watchdog handler telling ``notify`` each path an event touches, whether it is complete, and
    whether it is a folder made or moved into place."""
    from watchdog.events import (
        DirCreatedEvent,
        DirMovedEvent,
        FileClosedEvent,
        FileMovedEvent,
        FileSystemEvent,
        FileSystemEventHandler,
    )

    class Handler(FileSystemEventHandler):
        def on_any_event(self, event: FileSystemEvent) -> None:
            if isinstance(event, DirCreatedEvent):
                notify(os.fsdecode(event.src_path), True, True)
            elif isinstance(event, DirMovedEvent):
                notify(os.fsdecode(event.dest_path), True, True)
            elif isinstance(event, FileMovedEvent):
                notify(os.fsdecode(event.src_path), False, False)
                notify(os.fsdecode(event.dest_path), True, False)
            else:
                notify(os.fsdecode(event.src_path), isinstance(event, FileClosedEvent), False)

    return Handler()
