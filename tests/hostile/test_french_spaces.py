"""French pages keep their spaces unbroken in time growing with the text, whatever runs of spaces it holds.

The spaces before ``:``, ``;``, ``!``, ``?`` and ``»`` were found from each space of a run: a source paragraph of
80,000 spaces not followed by such a sign took 33 s to lay out (issue 32's sweep of every pattern)."""

from __future__ import annotations

import time

from rulebook.site.html import spaced

BOUND = 5.0
"""Seconds a text below may take: it took 33 s before, and takes milliseconds now."""


def test_a_long_run_of_spaces_is_read_once() -> None:
    text = "a" + " " * 80_000 + "b"
    started = time.perf_counter()
    assert spaced(text, "fr") == text
    assert time.perf_counter() - started < BOUND


def test_the_spaces_french_does_not_break_are_still_found() -> None:
    assert spaced("« a  » b ; c\t: d ! e ?", "fr") == "«\u00a0a\u00a0\u00a0» b\u00a0; c\u00a0: d\u00a0! e\u00a0?"
    assert spaced("a : b", "en") == "a : b"
