"""The quick reference's sentences: the site's words with their slots filled by text and terms."""

from __future__ import annotations

from rulebook.site.reference import sentence

TERM = {"term": "leadership", "name": "Ld", "href": "#term-leadership"}


def test_a_sentence_fills_its_slots_with_text_and_terms() -> None:
    words = {"ref_pass_at_most": "réussi à {target} ou moins"}
    assert sentence(words, "ref_pass_at_most", "pass at or below {target}", target=TERM) == [
        {"text": "réussi à "},
        TERM,
        {"text": " ou moins"},
    ]
    assert sentence({}, "ref_roll", "roll {dice}", dice="2D6") == [{"text": "roll "}, {"text": "2D6"}]


def test_a_brace_that_names_no_slot_stays_text() -> None:
    words = {"ref_roll": "roll {dice} {not a slot} {other}"}
    assert sentence(words, "ref_roll", "", dice="D6") == [
        {"text": "roll "},
        {"text": "D6"},
        {"text": " {not a slot} {other}"},
    ]
