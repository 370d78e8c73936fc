"""A finding repeated through a source is listed a thousand times at most."""

from __future__ import annotations

import json

import pytest

from .scratch import run, source
from .scratch import scratch as scratch  # the fixture every case takes


@pytest.mark.parametrize("mark", ["](", "]{x=1}", "]]"])
def test_a_finding_repeated_through_a_source_is_listed_a_thousand_times_at_most(capsys, scratch, mark) -> None:  # type: ignore[no-untyped-def]
    """2 MB of ``](`` made a million findings (one per two bytes): 2.2 GB, 32 s and 368 MB of report. The reading
    lists a message :data:`~rulebook.diagnostics.SAME_SHOWN` times, then one finding saying how many more follow
    (a count in its words: a baseline made of it never hides one more)."""
    from rulebook.diagnostics import SAME_SHOWN

    source(scratch, "book.md", "---\ntitle: T\n---\n\n# Play {#play}\n\nText " + (mark + " ") * (3 * SAME_SHOWN) + "\n")
    outcome = run(capsys, "lint", "--format", "json")
    findings = [json.loads(line.rstrip(",")) for line in outcome.out.splitlines()[1:-1]]
    repeated = [found for found in findings if found["code"] == "RB002"]
    assert len(repeated) == SAME_SHOWN + 1
    assert repeated[-1]["message"].endswith("(2,000 more like it from here in this file, not listed one by one)")
    assert not any("not listed" in found["message"] for found in repeated[:-1])


def test_a_finding_repeated_in_an_xml_source_is_listed_a_thousand_times_at_most(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Any reader, any rule: one message in one file is listed :data:`~rulebook.diagnostics.SAME_SHOWN` times at most
    (SARIF held 7.5 KB a finding: 3.8 GB for half a million)."""
    from rulebook.diagnostics import SAME_SHOWN

    references = '<reference name="nosuch">x</reference> ' * (2 * SAME_SHOWN)
    source(
        scratch,
        "book.xml",
        f'<?xml version="1.0"?>\n<document><chapter id="c" title="C"><p>{references}</p></chapter></document>\n',
    )
    outcome = run(capsys, "lint", "--format", "sarif")
    results = json.loads(outcome.out)["runs"][0]["results"]
    dangling = [result for result in results if result["ruleId"] == "RB101"]
    assert len(dangling) == SAME_SHOWN
    assert "(and 1,000 more like it after it in this file, not listed)" in dangling[-1]["message"]["text"]


def test_findings_of_one_rule_in_a_file_are_listed_a_bounded_number_of_times(capsys, scratch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """200,000 references to as many undefined terms (2.3 MB): each message its own, no repeat capped: 14 s, and
    2.5 GB for SARIF. One rule's findings in one file are listed :data:`~rulebook.diagnostics.RULE_SHOWN` times at
    most, whatever their messages (a smaller bound here, the same code)."""
    from rulebook import diagnostics

    monkeypatch.setattr(diagnostics, "RULE_SHOWN", 300)
    references = " ".join(f"[[u{number}]]" for number in range(1_000))
    source(scratch, "book.md", f"---\ntitle: T\n---\n\n# Play {{#play}}\n\nText {references}\n")
    outcome = run(capsys, "lint", "--format", "json")
    findings = [json.loads(line.rstrip(",")) for line in outcome.out.splitlines()[1:-1]]
    dangling = [found for found in findings if found["code"] == "RB101"]
    assert len(dangling) == 300
    assert dangling[-1]["message"].endswith("(and 700 more findings of this rule after it, not listed)")


def test_a_baseline_written_past_the_bound_never_hides_a_new_finding(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A baseline written over 1,500 `[[nope]]` held what the report listed (1,000): 5,000 more in a new section
    passed, "All checks passed", exit 0, and the build too. The baseline takes what was found; the bound is the
    report's."""
    text = "---\ntitle: T\n---\n\n# Play {#play}\n\n[Play.]{dfn=play} " + "[[nope]] " * 1_500 + "\n"
    source(scratch, "book.md", text)
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 0
    (scratch / "book.md").write_text(text + "\n## More {#more}\n\n" + "[[nope]] " * 5_000 + "\n", encoding="utf-8")
    outcome = run(capsys, "lint", "--baseline", "baseline.json", "--format", "json")
    assert outcome.code == 1
    assert json.loads(outcome.out)["summary"]["errors"] >= 1


def test_a_baseline_written_past_the_readings_bound_never_hides_more_of_the_same(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """The dialect's reading lists 1,000 of a message and counts the rest in one finding; a baseline keys findings
    by rule, target and section, never by message, so one written over 1,500 `](` hid 50,000 more. The count is the
    counting finding's target too."""
    text = "---\ntitle: T\n---\n\n# Play {#play}\n\n[Play.]{dfn=play} " + "x ]( " * 1_500 + "\n"
    source(scratch, "book.md", text)
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 0
    (scratch / "book.md").write_text(text.replace("x ]( " * 1_500, "x ]( " * 5_000), encoding="utf-8")
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 1


def test_a_baseline_never_hides_more_control_characters_nor_a_file_that_could_not_be_read(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """The reading names 100 control characters and said "more after it" with no count: a baseline of 100 hid
    80,000 more. And a baseline took a fatal finding (a file not UTF-8): the lint passed, the build stopped, and
    nothing after the fault was ever read."""
    text = "---\ntitle: T\n---\n\n# Play {#play}\n\n[Play.]{dfn=play} " + "x\x07 " * 150 + "\n"
    source(scratch, "book.md", text)
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 0
    (scratch / "book.md").write_text(text.replace("x\x07 " * 150, "x\x07 " * 5_000), encoding="utf-8")
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 1
    (scratch / "book.md").write_bytes(b"---\ntitle: T\n---\n\n# Play {#play}\n\n\xff\n")
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 2
    assert "unreadable-source" not in (scratch / "baseline.json").read_text(encoding="utf-8")
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 2


def test_what_stops_the_build_is_never_hidden_from_the_lint(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """A duplicate id stops the build whatever the lint's configuration says; a baseline, an `ignore` or a severity
    of `off` hid it from the lint, which passed what the build refused."""
    chapter = '<chapter id="c" title="C"><p>x</p></chapter>'
    source(scratch, "book.xml", f'<?xml version="1.0"?>\n<document>{chapter}{chapter}</document>\n')
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 1
    (scratch / "rulebook.toml").write_text(
        'sources = ["book.xml"]\n[lint]\nseverity = { duplicate-id = "off" }\n', encoding="utf-8"
    )
    assert run(capsys, "lint").code == 1
    assert run(capsys, "build", "-q", "--no-pdf").code == 2


def test_the_findings_of_every_rule_together_are_bounded(capsys, scratch, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    """Six rules of 50,000 findings each: 300,000 listed, 2.7 GB of SARIF. A book's report lists
    :data:`~rulebook.diagnostics.ALL_SHOWN` findings at most (a smaller bound here, the same code)."""
    from rulebook import diagnostics

    monkeypatch.setattr(diagnostics, "ALL_SHOWN", 500)
    references = " ".join(f"[[u{number}]] ](" for number in range(1_000))
    source(scratch, "book.md", f"---\ntitle: T\n---\n\n# Play {{#play}}\n\nText {references}\n")
    outcome = run(capsys, "lint", "--format", "json")
    findings = json.loads(outcome.out)["diagnostics"]
    assert len(findings) == 500 and "more findings after it, not listed)" in findings[-1]["message"]


def test_a_baseline_never_takes_a_finding_that_says_the_rest_was_not_checked(capsys, scratch) -> None:  # type: ignore[no-untyped-def]
    """Past 1,000 elements the format does not know, one finding says so and the rest of the file's structure is
    not checked: a baseline of it hid every structural error after it."""
    unknown = "<zz/>" * 1_500
    source(
        scratch,
        "book.xml",
        f'<?xml version="1.0"?>\n<document><chapter id="c" title="C"><p>{unknown}</p></chapter></document>\n',
    )
    assert run(capsys, "lint", "--write-baseline", "baseline.json").code == 0
    assert "not checked" not in (scratch / "baseline.json").read_text(encoding="utf-8")
    assert run(capsys, "lint", "--baseline", "baseline.json").code == 1
