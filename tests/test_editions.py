"""The plain-text rules export (a later edition) and `rulebook diff` between editions."""

from __future__ import annotations

import json

import pytest

from rulebook.cli import main
from rulebook.diff import diff_books
from rulebook.model import Book, ItemList, Section
from rulebook.recipe.reading import read_book
from rulebook.text_source import parse_text_export

from .conftest import BUNDLED_BOOK, ROOT, SHARED

LATER = ROOT / "rulebook_src" / "en-later" / "turns.txt"


def test_text_export_structure() -> None:
    text = "Turns\n\n(Rule)\nDescription: A game lasts 6 turns.\n\nPlayer Turn\n\nIn order:\n\n1 - Charge\n2 - Move\n\n• a note\n"
    result = parse_text_export(text, "t.txt")
    assert result.document is not None
    (rule,) = result.document.body
    assert (rule.title, rule.level) == ("Turns", 1)
    assert rule.children[0] == "A game lasts 6 turns. "
    player = next(n for n in rule.children if isinstance(n, Section))
    assert (player.title, player.level, player.span.line) == ("Player Turn", 2, 6)
    steps = next(n for n in player.children if isinstance(n, ItemList) and n.ordered)
    assert [i.children for i in steps.items] == [("Charge",), ("Move",)]
    assert steps.items[1].span.line == 11
    bullets = next(n for n in player.children if isinstance(n, ItemList) and not n.ordered)
    assert [i.children for i in bullets.items] == [("a note",)]


def test_later_edition_is_the_seed_untouched() -> None:
    seed = SHARED / "seeds" / "001_8e3ece5f2b2d047c.txt"
    if not seed.exists():
        pytest.skip("../shared is not beside the repository")
    assert LATER.read_bytes() == seed.read_bytes()


@pytest.fixture(scope="module")
def editions() -> tuple[Book, Book]:
    return read_book([BUNDLED_BOOK], ROOT).book, read_book([LATER], ROOT).book


def test_later_edition_reads_as_a_rule_with_sub_rules(editions: tuple[Book, Book]) -> None:
    later = editions[1]
    assert [(s.title, s.level) for s in later.sections] == [
        ("Turns", 1),
        ("Player Turn", 2),
        ("Active and Reactive Player", 2),
        ("Simultaneous Effects", 2),
        ("The terms Friendly and Enemy", 2),
        ("One Use Only", 2),
    ]


def test_diff_shows_how_the_player_turn_changed(editions: tuple[Book, Book]) -> None:
    diff = diff_books(*editions)
    player = next(c for c in diff.changed if c.new == "Player Turn")
    assert player.steps["old"] == ["Movement Phase", "Magic Phase", "Shooting Phase", "Close Combat Phase"]
    assert player.steps["new"] == ["Charge Phase", "Movement Phase", "Magic Phase", "Shooting Phase", "Melee Phase"]
    assert player.steps["added"] == ["Charge Phase"]
    assert player.steps["renamed"] == [{"old": "Close Combat Phase", "new": "Melee Phase"}]
    assert player.numbers == {"old": ["4"], "new": ["5"]}  # "four Phases" -> "five phases"


def test_diff_matches_by_title_and_scopes_to_what_the_new_edition_covers(editions: tuple[Book, Book]) -> None:
    diff = diff_books(*editions)
    assert [(c.old, c.new) for c in diff.changed] == [
        ("Turn", "Turns"),  # matched across the plural
        ("Player Turn", "Player Turn"),
        ("Active and Reactive Player", "Active and Reactive Player"),
        ("Simultaneous Effects", "Simultaneous Effects"),
    ]
    assert diff.added == ["The terms Friendly and Enemy", "One Use Only"]
    assert diff.removed == []  # the other chapters are not part of the later edition: not "removed"
    turns = diff.changed[0]
    assert {"change": "replace", "old": "completed.", "new": "complete."} in turns.words
    assert turns.numbers == {"old": [], "new": ["2"]}  # "each divided into two Player Turns" is new


def test_diff_between_xml_editions_finds_term_changes(tmp_path) -> None:  # type: ignore[no-untyped-def]
    text = BUNDLED_BOOK.read_text(encoding="utf-8")
    new = tmp_path / "new.xml"
    new.write_text(
        text.replace('name="footprint"', 'name="unit_footprint"', 1).replace(
            '<definition name="in_range">', '<definition name="within_range">'
        ),
        encoding="utf-8",
    )
    old_book = read_book([BUNDLED_BOOK], ROOT).book
    new_book = read_book([new], ROOT).book
    diff = diff_books(old_book, new_book)
    assert {"old": "in_range", "new": "within_range"} in diff.terms["renamed"]
    [renamed] = [d for d in diff.findings if d.code == "RB710" and d.target == "within_range"]
    assert renamed.message == "term `in_range` is now `within_range`"
    new_line = new.read_text(encoding="utf-8").splitlines()[renamed.span.line - 1]
    assert new_line[renamed.span.column - 1 :].startswith('<definition name="within_range">')
    assert renamed.counterpart is not None and renamed.counterpart.span is not None
    old_line = text.splitlines()[renamed.counterpart.span.line - 1]
    assert old_line[renamed.counterpart.span.column - 1 :].startswith('<definition name="in_range">')


def test_diff_command_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(BUNDLED_BOOK), str(LATER), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["diff"]["sections"]["added"] == ["The terms Friendly and Enemy", "One Use Only"]
    assert main(["diff", str(BUNDLED_BOOK), str(LATER), "--format", "summary"]) == 0
    assert "* step Close Combat Phase -> Melee Phase" in capsys.readouterr().out


def test_each_change_is_a_finding_placed_in_both_editions(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(BUNDLED_BOOK), str(LATER), "--format", "json"]) == 0
    findings = json.loads(capsys.readouterr().out)["diagnostics"]
    renamed = next(d for d in findings if d["code"] == "RB707")
    assert renamed["message"] == "step `Close Combat Phase` is now `Melee Phase`"
    later_lines = LATER.read_text(encoding="utf-8").splitlines()
    assert later_lines[renamed["line"] - 1][renamed["column"] - 1 :] == "Melee Phase"
    old = renamed["counterpart"]
    old_lines = BUNDLED_BOOK.read_text(encoding="utf-8").splitlines()
    assert old_lines[old["line"] - 1][old["column"] - 1 :].startswith("Close Combat Phase</link>")
    numbers = next(d for d in findings if d["code"] == "RB704" and "Player Turn" in d["message"])
    assert numbers["message"] == "in `Player Turn`, `4` became `5`"
    assert later_lines[numbers["line"] - 1].startswith("Each Player Turn is divided into five phases")
    assert {d["code"] for d in findings} >= {"RB701", "RB703", "RB704", "RB705", "RB707"}
    assert {d["message"] for d in findings if d["code"] == "RB701"} == {
        "new section `The terms Friendly and Enemy`",
        "new section `One Use Only`",
    }


def test_diff_speaks_the_lint_formats_and_explains_its_codes(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["diff", str(BUNDLED_BOOK), str(LATER), "--format", "github"]) == 0
    github = capsys.readouterr().out
    assert "::warning file=rulebook_src/en-later/turns.txt,line=14,col=5" in github
    assert "step-renamed" in github
    assert main(["diff", str(BUNDLED_BOOK), str(LATER), "--format", "sarif"]) == 0
    sarif = json.loads(capsys.readouterr().out)
    rule_ids = {rule["id"] for rule in sarif["runs"][0]["tool"]["driver"]["rules"]}
    assert {"RB701", "RB710"} <= rule_ids
    assert main(["explain", "step-renamed"]) == 0
    assert "Close Combat Phase" in capsys.readouterr().out


def test_diff_gives_each_changed_sentence_before_and_now_for_readers(editions: tuple[Book, Book]) -> None:
    diff = diff_books(*editions)
    player = next(c for c in diff.changed if c.new == "Player Turn")
    [sentence] = player.sentences
    marked = lambda parts: " ".join(p["text"] if p["change"] == "equal" else f"[{p['text']}]" for p in parts)  # noqa: E731
    assert (
        marked(sentence["old"]) == "Each Player Turn is divided into [four Phases,] performed in the following order:"
    )
    assert (
        marked(sentence["new"]) == "Each Player Turn is divided into [five phases,] performed in the following order:"
    )
    assert sentence["numbers"] == {"old": ["4"], "new": ["5"]}
    reactive = next(c for c in diff.changed if c.new == "Active and Reactive Player").sentences
    assert reactive[0]["terms"] == ["Player Turn"]  # the changed words name a term of the previous edition
    effects = next(c for c in diff.changed if c.new == "Simultaneous Effects").sentences
    moved = [s for s in effects if s["moved"]]
    assert len(moved) == 1 and marked(moved[0]["new"]).startswith("If there is a choice involved")


def test_word_changes_are_difflibs_up_to_the_limit_and_a_valid_edit_past_it() -> None:
    import difflib
    import random

    from rulebook.text_diff import WORDS_COMPARED, word_likeness, word_opcodes

    randomly = random.Random(7)
    for _ in range(300):  # short texts: exactly difflib's answer
        a = [randomly.choice("abc") for _ in range(randomly.randint(0, 12))]
        b = [randomly.choice("abc") for _ in range(randomly.randint(0, 12))]
        matcher = difflib.SequenceMatcher(a=a, b=b, autojunk=False)
        assert word_opcodes(a, b) == matcher.get_opcodes()
        assert word_likeness(a, b) == matcher.ratio()
    wall = [str(randomly.randint(1, 99)) for _ in range(60 * WORDS_COMPARED)]  # a sentence of numbers
    for changed in ([*wall[:50], "x", *wall[51:]], [*wall[:-3], "7"], ["7", *wall], wall[: len(wall) // 2]):
        for a, b in ((wall, changed), (changed, wall)):
            opcodes = word_opcodes(a, b)
            assert _applied(a, b, opcodes) == b and len(opcodes) <= 3
            assert 0.0 < word_likeness(a, b) < 1.0


def _compared_each_with_each(olds: list[str], news: list[str]) -> list[tuple[str, str, bool]]:
    """The sentence pairing as specified (each old sentence compared with every new one, each sentence
    added with every one removed): what :class:`rulebook.text_diff.SentencePairing` must give below its limit."""
    from rulebook.text_diff import MOVED, SIMILAR, word_likeness

    def likeness(a: str, b: str) -> float:
        return word_likeness(a.split(), b.split())

    pairs: list[tuple[str, str]] = []
    start = 0
    for old in olds:
        ratios = [likeness(old, new) for new in news[start:]]
        best = max(range(len(ratios)), key=lambda i: ratios[i], default=None)
        if best is None or ratios[best] < SIMILAR:
            pairs.append((old, ""))
            continue
        pairs += [("", new) for new in news[start : start + best]]
        pairs.append((old, news[start + best]))
        start += best + 1
    pairs += [("", new) for new in news[start:]]
    removed = {i: o for i, (o, n) in enumerate(pairs) if not n}
    found: list[tuple[str, str, bool]] = []
    for old, new in pairs:
        if not old:
            match = next((i for i, o in removed.items() if likeness(o, new) >= MOVED), None)
            if match is not None:
                found.append((removed.pop(match), new, True))
                continue
        found.append((old, new, False))
    kept = set(removed.values())
    return [(o, n, m) for o, n, m in found if n or o in kept]


def test_sentences_are_paired_as_compared_each_with_each_within_the_limit() -> None:
    import random

    from rulebook.text_diff import Budget, SentencePairing

    randomly = random.Random(11)
    words = ["the", "unit", "may", "move", "charge", "roll", "a", "D6", "then", "its", "turn", "and"]
    for _ in range(400):
        pool = [" ".join(randomly.choices(words, k=randomly.randint(0, 9))) for _ in range(8)]
        olds = randomly.choices(pool, k=randomly.randint(0, 7))
        news = randomly.choices(pool, k=randomly.randint(0, 7))
        pairing = SentencePairing(Budget())
        pairs = pairing.pair(olds, news)
        assert pairing.moves(pairs) == _compared_each_with_each(olds, news), (olds, news)
        assert not pairing.budget.simplified


def test_sentences_past_the_alignment_limit_are_a_valid_edit_aligned_on_those_found_once() -> None:
    import random

    from rulebook.text_diff import SENTENCES_ALIGNED, Budget, sentence_opcodes

    randomly = random.Random(5)
    sentences = [f"Sentence {i}." for i in range(3 * SENTENCES_ALIGNED)]
    edited = [s if randomly.random() < 0.9 else "Changed." for s in sentences]  # "Changed." is not found once
    shuffled = sentences[:]
    randomly.shuffle(shuffled)
    for a, b in ((sentences, edited), (edited, sentences), (sentences, shuffled), (sentences, ["Changed."] * 7000)):
        budget = Budget()
        opcodes = sentence_opcodes(a, b, budget)
        assert _applied(a, b, opcodes) == b and budget.simplified == ["aligned"]
    opcodes = sentence_opcodes(sentences, edited, Budget())
    kept = sum(i2 - i1 for tag, i1, i2, _, _ in opcodes if tag == "equal")
    assert kept == sum(1 for s in edited if s != "Changed.")  # every unchanged sentence stays where it is


def _applied(a: list[str], b: list[str], opcodes: list[tuple[str, int, int, int, int]]) -> list[str]:
    """``b`` rebuilt from ``a`` and the opcodes, which must cover both in order."""
    assert [(i1, j1) for _, i1, _, j1, _ in opcodes[1:]] == [(i2, j2) for _, _, i2, _, j2 in opcodes[:-1]]
    assert not opcodes or (opcodes[0][1], opcodes[0][3], opcodes[-1][2], opcodes[-1][4]) == (0, 0, len(a), len(b))
    out: list[str] = []
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "equal":
            assert a[i1:i2] == b[j1:j2]
        out += a[i1:i2] if tag == "equal" else b[j1:j2]
    return out


def test_renamed_terms_are_those_difflib_finds_alike_within_the_limit() -> None:
    import difflib
    import random

    from rulebook.diff import _Renames

    randomly = random.Random(3)
    for _ in range(200):
        texts = ["".join(randomly.choices("ab c", k=randomly.randint(0, 14))) for _ in range(6)]
        before = {f"o{i}": randomly.choice(texts) for i in range(randomly.randint(0, 6))}
        after = {f"n{i}": randomly.choice(texts) for i in range(randomly.randint(1, 6))}
        removed, added = sorted(before), sorted(after)
        renamed = _Renames(before, after, added).renamed(removed)
        alike = [
            {"old": o, "new": n}
            for o in removed
            for n in added
            if difflib.SequenceMatcher(a=before[o], b=after[n]).ratio() > 0.8
        ]
        assert (renamed.pairs, renamed.simplified) == (alike, False)


def test_term_names_are_found_in_changed_words_as_their_expressions_find_them() -> None:
    import random
    import re

    from rulebook.diff import _TermNames

    names = {key: key.upper() for key in ["Turn", "Player Turn", "Bu", "Class", "D6", "(A)", "Line of Sight", "A"]}
    found = _TermNames(names)
    randomly = random.Random(2)
    pieces = ["Turn", "Turns", "Player", "Bus", "Class", "Classs", "D6", "(A)", "A", "Line", "of", "Sight", "x", ","]
    for _ in range(2000):
        words = " ".join(randomly.choices(pieces, k=randomly.randint(0, 6)))
        expected = sorted({title for key, title in names.items() if re.search(rf"\b{re.escape(key)}s?\b", words)})
        assert found.named(words) == expected, words


def test_changed_sentences_are_found_in_their_sources_where_the_expression_found_them() -> None:
    import re

    from rulebook.diff import _SENTENCE_END, _own
    from rulebook.edition_findings import _Places

    def found_by_the_expression(section: Section, text: str) -> tuple[int, int, int] | None:
        words = text.split()
        for count in (5, 2, 1):
            if len(words) < count and count != 1:
                continue
            pattern = r"(?:\s|<[^>]*>|\*+)+".join(re.escape(word) for word in words[:count])
            match = re.compile(pattern).search(section.source.text, section.offset) if pattern else None
            if match is not None:
                line, column = section.source.position(match.start())
                starts = section.source.line_starts
                line_end = starts[line] if line < len(starts) else len(section.source.text)
                return line, column, min(match.end(), line_end) - match.start()
        return None

    books = [(BUNDLED_BOOK, "en"), (LATER, "en"), (ROOT / "rulebook_src" / "fr" / "rulebook.md", "fr")]
    books.append((ROOT / "rulebook_src" / "other-game" / "rules.md", "en"))
    compared = 0
    for path, language in books:
        places = _Places()
        for section in read_book([path], ROOT, language=language).book.sections:
            text, lists = _own(section)
            for sentence in [*_SENTENCE_END.split(text), *(step for steps in lists for step in steps)]:
                span = places.find(section, sentence)
                assert (span and (span.line, span.column, span.length)) == found_by_the_expression(section, sentence)
                compared += 1
    assert compared > 800
