"""Hostile input to the Markdown dialect's reader: front matter built to break YAML's loader.

Each case runs ``rulebook lint`` on a one-source dialect project and asserts the exact finding: a located
``invalid-document`` error (exit 1 for the lint), never an internal error.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .scratch import run, source
from .scratch import scratch as scratch  # the fixture every case takes

BODY = """<!-- rulebook -->

# Moving {#moving}

::: definition march

To [[march]] is to move.

:::

An army may [[march]].
"""

NOT_YAML = """error[RB002]: the front matter is not YAML
 --> book.md:1:1
  |
1 | ---
  | ^^^
    = help: write `title: The Book's Title`

Found 1 error in 1 file.
"""


@pytest.mark.parametrize(
    "front_matter",
    [
        pytest.param("title: " + "[" * 100_000 + "]" * 100_000, id="100,000 nested ["),
        pytest.param("title: x\nk: " + "{a: " * 50_000 + "1" + "}" * 50_000, id="50,000 nested maps"),
        pytest.param("title: x\n" + "".join(" " * i + "a:\n" for i in range(3_000)), id="3,000 indented keys"),
        pytest.param("title: x\nk: 2001-02-30", id="a date no calendar has"),
        pytest.param("title: x\nk: 2001-13-99t21:59:43", id="a timestamp of month 13"),
        pytest.param("title: " + "9" * 100_000, id="an integer of 100,000 digits"),
        pytest.param("title: !!python/object/apply:os.system [id]", id="a Python tag"),
    ],
)
def test_front_matter_that_breaks_the_loader_is_not_yaml(capsys, scratch: Path, front_matter: str) -> None:  # type: ignore[no-untyped-def]
    source(scratch, "book.md", f"---\n{front_matter}\n---\n{BODY}")
    assert run(capsys, "lint") == (1, NOT_YAML, "")
