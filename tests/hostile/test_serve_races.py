"""`rulebook serve` while sources change under it: an edit racing the background worker is never a traceback.

``serve`` recomputes a book's translations and rule data in a forked worker, waited for by a thread; an edit that
comes meanwhile stops the worker from the serve loop. Files changing fast (a checkout, an editor saving in steps)
made the two meet: the loop found the worker, then the thread closed it ("AttributeError: 'NoneType' object has no
attribute 'kill'", "process object is closed"), or both waited for its exit and the thread's close found it
"still running" (a traceback printed by ``serve``, seen after 15 rounds of replacing a source).
"""

from __future__ import annotations

import threading
import time

from rulebook.data_worker import BackgroundData

ROUNDS = 60


def _race_once(faults: list[str]) -> None:
    """One worker, waited for and closed by a thread as ``serve`` does, stopped by this thread until it is gone."""
    work = BackgroundData(lambda: time.sleep(0.005) or 1)
    work.__enter__()

    def wait() -> None:
        try:
            try:
                work.files()
            except RuntimeError:  # stopped: what serve's thread hands back as the outcome
                pass
            finally:
                work.__exit__(None, None, None)
        except Exception as error:  # what serve printed as "Exception in thread"
            faults.append(f"waiting thread: {error!r}")

    waiting = threading.Thread(target=wait)
    waiting.start()
    while waiting.is_alive():
        try:
            work.stop()
        except Exception as error:  # raised in serve's own loop
            faults.append(f"serve's loop: {error!r}")
            break
    waiting.join()


def test_stopping_the_worker_while_its_thread_closes_it_is_never_an_error() -> None:
    faults: list[str] = []
    for _ in range(ROUNDS):
        _race_once(faults)
    assert faults == []
