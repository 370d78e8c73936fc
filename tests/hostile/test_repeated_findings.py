"""A finding repeated through a source is listed a thousand times at most."""

from __future__ import annotations

import json

import pytest

from .scratch import run, source
from .scratch import scratch as scratch  # the fixture every case takes


@pytest.mark.parametrize("mark", ["](", "]{x=1}", "]]"])
def test_a_finding_repeated_through_a_source_is_listed_a_thousand_times_at_most(capsys, scratch, mark) -> None:  # type: ignore[no-untyped-def]
    """2 MB of ``](`` made a million findings (one per two bytes): 2.2 GB, 32 s and 368 MB of report. The reading
    lists a message :data:`~rulebook.readers.markdown_checks.SAME_SHOWN` times, the last saying more follow."""
    from rulebook.readers.markdown_checks import SAME_SHOWN

    source(scratch, "book.md", "---\ntitle: T\n---\n\n# Play {#play}\n\nText " + (mark + " ") * (3 * SAME_SHOWN) + "\n")
    outcome = run(capsys, "lint", "--format", "json")
    findings = [json.loads(line.rstrip(",")) for line in outcome.out.splitlines()[1:-1]]
    repeated = [found for found in findings if found["code"] == "RB002"]
    assert len(repeated) == SAME_SHOWN
    assert repeated[-1]["message"].endswith("(and more like it after it in this file, not listed)")
    assert not any("not listed" in found["message"] for found in repeated[:-1])
