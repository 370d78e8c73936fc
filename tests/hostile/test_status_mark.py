"""``rulebook status --mark`` on a section whose title a contributor wrote with terminal controls.

The title is the source's: ``--mark`` said which sections it marked with the title's U+202E and U+2066 (which
reorder what the terminal shows) written to the terminal as they are; they are shown as pictures, as in every message.
"""

from __future__ import annotations

from pathlib import Path

from tests.test_translation_status import CONFIG, FIRST, FRENCH, LATER

from .scratch import run
from .scratch import scratch as scratch  # the fixture every case takes


def test_a_marked_title_reaches_the_terminal_with_its_controls_as_pictures(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    hostile = LATER.replace('title="Melee"', 'title="Melee&#x202e;&#x2066; {onclick=alert(1)}"')
    files = {"rules/en/1.0/book.xml": FIRST, "rules/en/book.xml": hostile, "rules/fr/book.md": FRENCH}
    for name, text in {**files, "rulebook.toml": CONFIG}.items():
        (scratch / name).parent.mkdir(parents=True, exist_ok=True)
        (scratch / name).write_text(text, encoding="utf-8")
    assert run(capsys, "status", "--mark", "melee") == (
        0,
        "",
        "Marked 1 section of the `fr` translation as translated from `main`, in status.toml: "
        "`Melee\ufffd\ufffd {onclick=alert(1)}`.\n",
    )
    assert '"Melee\u202e\u2066 {onclick=alert(1)}"' in (scratch / "rules/fr/status.toml").read_text(encoding="utf-8")


def test_an_empty_language_is_named_as_given(capsys, scratch: Path) -> None:  # type: ignore[no-untyped-def]
    """``status --language ''`` said "no translation is configured", then listed the one that is."""
    files = {"rules/en/1.0/book.xml": FIRST, "rules/en/book.xml": LATER, "rules/fr/book.md": FRENCH}
    for name, text in {**files, "rulebook.toml": CONFIG}.items():
        (scratch / name).parent.mkdir(parents=True, exist_ok=True)
        (scratch / name).write_text(text, encoding="utf-8")
    code, _, err = run(capsys, "status", "--language", "")
    assert (code, err) == (
        2,
        "rulebook: error: no translation into `` is configured (the translations: `fr` of `main`)\n",
    )
