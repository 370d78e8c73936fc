"""What to translate again: a translation made from one edition of the original, against the latest edition.

A small book in two editions and a French translation of the first, in which sections were changed, added, removed
and renamed between the editions, pins each status; the seeds (the French of the XML edition, against the later
edition of the Turns chapter) pin that the statuses are the edition diff's and the comparison's, joined.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rulebook.cli import main
from rulebook.diff import diff_books
from rulebook.project import load_project
from rulebook.recipe import commands
from rulebook.recipe.reading import read_book
from rulebook.translate.status import CURRENT, MISSING, ORPHANED, OUTDATED, TranslationStatus

from .conftest import BUNDLED_BOOK, ROOT

FIRST = """<?xml version="1.0" encoding="UTF-8"?>
<document>
<chapter title="Movement" id="movement">
<section title="Moving" id="moving">A unit moves up to 6 inches in the Movement Phase. It may turn once before it
moves.</section>
<section title="Marching" id="marching">A unit that marches moves twice as far, but may not shoot in the same
turn.</section>
<section title="Wheeling" id="wheeling">To wheel, a unit turns around one of its front corners, up to 90
degrees.</section>
</chapter>
<chapter title="Combat" id="combat">
<section title="Attacking" id="attacking">Each model in base contact makes 1 attack; a hit wounds on a roll of 4 or
more.</section>
<section title="Close Combat" id="close_combat">Units in base contact fight in the order of their Initiative, the
highest first. Models with the same Initiative strike at the same time.</section>
<section title="Fleeing" id="fleeing">A unit that loses a combat flees 2D6 inches away from the enemy.</section>
</chapter>
<chapter title="Magic" id="magic">
<section title="Casting" id="casting">A wizard casts a spell by rolling 2D6 and adding 1 per level.</section>
</chapter>
</document>
"""
LATER = (
    FIRST.replace("up to 6 inches", "up to 8 inches")  # changed
    .replace(
        "degrees.</section>\n</chapter>",
        'degrees.</section>\n<section title="Pivoting" id="pivoting">A unit may pivot on the spot instead of '
        "moving, up to 180 degrees.</section>\n</chapter>",
    )  # added
    .replace('title="Close Combat" id="close_combat"', 'title="Melee" id="melee"')  # renamed
    .replace(
        '<section title="Fleeing" id="fleeing">A unit that loses a combat flees 2D6 inches away from the enemy.'
        "</section>\n",
        "",
    )  # removed
)
FRENCH = """# 1 Mouvement

## 1.1 Se déplacer

Une unité se déplace de 6 pouces au plus pendant la Phase de Mouvement. Elle peut tourner une fois avant de se
déplacer.

## 1.2 Marche forcée

Une unité qui marche se déplace deux fois plus loin, mais ne peut pas tirer ce même tour.

## 1.3 Roue

Pour faire une roue, une unité tourne autour d'un de ses coins avant, jusqu'à 90 degrés.

# 2 Combat

## 2.1 Attaquer

Chaque figurine au contact socle à socle porte 1 attaque ; une touche blesse sur un jet de 4 ou plus.

## 2.2 Corps à corps

Les unités au contact combattent dans l'ordre de leur Initiative, la plus haute d'abord. Les figurines de même
Initiative frappent en même temps.

## 2.3 Fuite

Une unité qui perd un combat fuit de 2D6 pouces à l'opposé de l'ennemi.

# 3 Magie

## 3.1 Lancer un sort

Un sorcier lance un sort en jetant 2D6 et en ajoutant 1 par niveau.
"""
CONFIG = """title = "Skirmish"
edition = "2.0"
sources = ["rules/en/book.xml"]
changes_from = "first"

[translations.fr]
source = "rules/fr/book.md"
from_edition = "first"

[books.first]
title = "Skirmish"
edition = "1.0"
sources = ["rules/en/1.0/book.xml"]
"""
EXPECTED = {
    "Movement": (CURRENT, "Mouvement"),
    "Moving": (OUTDATED, "Se déplacer"),
    "Marching": (CURRENT, "Marche forcée"),
    "Wheeling": (CURRENT, "Roue"),
    "Pivoting": (MISSING, None),
    "Combat": (CURRENT, "Combat"),
    "Attacking": (CURRENT, "Attaquer"),
    "Melee": (OUTDATED, "Corps à corps"),
    "Magic": (CURRENT, "Magie"),
    "Casting": (CURRENT, "Lancer un sort"),
    "Fleeing": (ORPHANED, "Fuite"),
}
"""Each section of the latest edition (and the one gone) with its status and its translated section."""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The book in two editions (the main book is the latest, `first` the one the French was made from); the
    working folder."""
    files = {
        "rules/en/1.0/book.xml": FIRST,
        "rules/en/book.xml": LATER,
        "rules/fr/book.md": FRENCH,
        "rulebook.toml": CONFIG,
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def status_of(folder: Path) -> TranslationStatus:
    [(_, status)] = commands.status(load_project(folder))  # type: ignore[misc]
    return status


def states(status: TranslationStatus) -> dict[str, tuple[str, str | None]]:
    return {s.title: (s.state, s.translation.title if s.translation else None) for s in status.sections}


def run(capsys: pytest.CaptureFixture[str], *arguments: str) -> tuple[int, str, str]:
    code = main(["status", *arguments])
    out, err = capsys.readouterr()
    return code, out, err


def test_each_status_is_found_where_sections_were_changed_added_removed_and_renamed(project: Path) -> None:
    status = status_of(project)
    assert states(status) == EXPECTED
    assert [s.title for s in status.sections] == [*EXPECTED]  # the latest edition's order, then the orphaned
    assert (status.made_from, status.latest, status.labels) == ("first", "main", ("`first` (1.0)", "`main` (2.0)"))
    assert (status.total, status.count(OUTDATED), round(status.share(OUTDATED), 2)) == (10, 2, 0.2)
    pivoting = next(s for s in status.sections if s.title == "Pivoting")
    assert pivoting.new and pivoting.earlier is None


def test_an_outdated_section_carries_the_edition_diffs_findings_for_it(project: Path) -> None:
    status = status_of(project)
    moving = next(s for s in status.sections if s.title == "Moving")
    assert [(d.code, d.message) for d in moving.changes] == [
        ("RB704", "in `Moving`, `6` became `8`"),
        ("RB703", 'reworded: "6" became "8"'),
    ]
    assert all(d.span.path == "rules/en/book.xml" for d in moving.changes)
    melee = next(s for s in status.sections if s.title == "Melee")
    assert [(d.code, d.message) for d in melee.changes] == [("RB711", "section `Close Combat` is now `Melee`")]
    assert melee.earlier is not None and melee.earlier.title == "Close Combat"
    # The same places, the same findings: those of `rulebook diff` between both editions.
    diff = diff_books(*(read_book([project / p]).book for p in ("rules/en/1.0/book.xml", "rules/en/book.xml")))
    outdated = {d for s in status.of(OUTDATED) for d in s.changes}
    assert outdated <= set(diff.findings)


def test_the_findings_are_placed_in_the_translation_with_the_original_as_counterpart(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys, "--format", "json")
    assert code == 0
    document = json.loads(out)
    [summary] = document["status"]
    assert summary["counts"] == {"current": 7, "outdated": 2, "missing": 1, "orphaned": 1}
    assert summary["shares"] == {"current": 0.7, "outdated": 0.2, "missing": 0.1}
    assert [(s["state"], s["title"]) for s in summary["not_current"]] == [
        ("outdated", "Moving"),
        ("missing", "Pivoting"),
        ("outdated", "Melee"),
        ("orphaned", "Fleeing"),
    ]
    findings = document["diagnostics"]
    [moving] = [d for d in findings if d["code"] == "RB651" and d["target"] == "moving"]
    assert moving["message"] == "`Se déplacer` was translated from `first` (1.0): `Moving` changed since (2 changes)"
    assert (moving["file"], moving["line"]) == ("rules/fr/book.md", 3)
    assert (moving["counterpart"]["file"], moving["counterpart"]["line"]) == ("rules/en/book.xml", 4)
    [orphaned] = [d for d in findings if d["code"] == "RB653"]
    assert orphaned["message"] == "`Fuite` translates `Fleeing`, which `main` (2.0) no longer has"
    assert orphaned["counterpart"]["file"] == "rules/en/1.0/book.xml"
    [new] = [d for d in findings if d["code"] == "RB652"]
    assert new["message"] == "`Pivoting` is new since `first` (1.0): the translation has no section for it"
    assert [d["code"] for d in findings] == ["RB651", "RB704", "RB703", "RB652", "RB651", "RB711", "RB653"]


def test_the_text_says_the_counts_and_shares_then_what_to_translate_again(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out, _ = run(capsys)
    assert code == 0
    assert out.startswith(
        "`fr` translation, made from `first` (1.0); the latest edition is `main` (2.0).\n"
        "  10 sections: 7 current (70%), 2 outdated (20%), 1 missing (10%); 1 orphaned.\n"
        "  To translate again: `Moving` (`Se déplacer`), `Melee` (`Corps à corps`).\n"
        "  New, to translate: `Pivoting`.\n"
        "  Gone from the original: `Fleeing` (`Fuite`).\n\n"
        "warning[RB651]: `Se déplacer` was translated from `first` (1.0): `Moving` changed since (2 changes)\n"
        " --> rules/fr/book.md:3:1\n"
    )
    assert "Found 6 warnings, 1 note in 3 files." in out
    for output_format, looks in (("github", "::warning file=rules/fr/book.md,line=3"), ("sarif", '"RB651"')):
        code, out, _ = run(capsys, "--format", output_format)
        assert code == 0 and looks in out


@pytest.mark.parametrize(("limit", "status"), [("20", 0), ("100", 0), ("19.9", 1), ("0", 1), ("10%", 1)])
def test_the_ci_option_fails_when_more_than_the_share_allowed_is_outdated(
    project: Path, capsys: pytest.CaptureFixture[str], limit: str, status: int
) -> None:
    code, out, err = run(capsys, "--max-outdated", limit, "--format", "json")
    assert code == status
    assert json.loads(out)["status"][0]["counts"]["outdated"] == 2
    if status:
        assert f"has 20% of its sections outdated (2 of 10), more than the {float(limit.rstrip('%')):g}% allowed" in err
    else:
        assert err == ""


@pytest.mark.parametrize("limit", ["-1", "101", "some", "nan", "1e1", "5_0", "١٠", "100.0000001"])
def test_a_share_that_is_no_percentage_is_refused(
    project: Path, capsys: pytest.CaptureFixture[str], limit: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["status", "--max-outdated", limit])
    assert stopped.value.code == 2
    assert f"{limit!r} is no share from 0 to 100 (a percentage)" in capsys.readouterr().err


def sources(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def test_marking_a_section_records_it_in_the_status_file_and_never_touches_the_sources(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    before = sources(project)
    code, out, err = run(capsys, "--mark", "Moving", "--mark", "melee")
    assert (code, out) == (0, "")
    assert err == (
        "Marked 2 sections of the `fr` translation as translated from `main`, in status.toml: `Moving`, `Melee`.\n"
    )
    after = sources(project)
    assert {name: data for name, data in after.items() if name != "rules/fr/status.toml"} == before
    record = after["rules/fr/status.toml"].decode("utf-8")
    assert record.startswith("# rulebook status: the sections of the `fr` translation brought up to date")
    assert 'section = "moving"\ntitle = "Moving"\nedition = "main"\nfingerprint = "' in record
    status = status_of(project)
    assert states(status) == EXPECTED | {"Moving": (CURRENT, "Se déplacer"), "Melee": (CURRENT, "Corps à corps")}
    assert [s.title for s in status.sections if s.marked] == ["Moving", "Melee"]
    # Marked again: the same file, byte for byte (one entry per section, in a stable order).
    assert run(capsys, "--mark", "Moving")[0] == 0
    assert (project / "rules/fr/status.toml").read_text(encoding="utf-8") == record


def test_a_mark_holds_until_the_original_section_changes_again(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "--mark", "Moving")[0] == 0
    later = project / "rules/en/book.xml"
    later.write_text(LATER.replace("up to 8 inches", "up to 10 inches"), encoding="utf-8")
    status = status_of(project)
    moving = next(s for s in status.sections if s.title == "Moving")
    assert (moving.state, moving.marked) == (OUTDATED, False)
    assert [m.title for m in status.stale_marks] == ["Moving"]
    _, out, _ = run(capsys)
    assert "Marks that no longer hold (the original changed again, or is gone): `Moving`." in out
    assert run(capsys, "--mark", "Moving")[0] == 0  # marked again: the stale mark is replaced
    assert status_of(project).stale_marks == ()


def test_marking_all_brings_every_outdated_and_new_section_up_to_date(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = run(capsys, "--mark-all")
    assert code == 0 and "Marked 3 sections" in err and "`Moving`, `Pivoting`, `Melee`" in err
    status = status_of(project)
    assert (status.count(OUTDATED), status.count(MISSING), status.count(ORPHANED)) == (0, 0, 1)
    assert run(capsys, "--max-outdated", "0")[0] == 0
    code, _, err = run(capsys, "--mark-all")
    assert (code, err) == (0, "Nothing to mark in the `fr` translation: it is current.\n")


@pytest.mark.parametrize(
    ("section", "message"),
    [
        ("Fleeing", "`Fleeing` is gone from `main`: remove its translated section `Fuite` (there is nothing to mark)"),
        ("Movng", "no section of `main` is called `Movng` (did you mean `Moving`?)"),
    ],
)
def test_a_section_that_cannot_be_marked_is_refused_in_plain_words(
    project: Path, capsys: pytest.CaptureFixture[str], section: str, message: str
) -> None:
    code, out, err = run(capsys, "--mark", section)
    assert (code, out) == (2, "")
    assert err == f"rulebook: error: {message}\n"
    assert not (project / "rules/fr/status.toml").exists()


def test_a_section_never_translated_is_found_by_the_alignment_not_marked(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "rules/fr/book.md").write_text(FRENCH.split("# 3 Magie")[0], encoding="utf-8")
    assert states(status_of(project))["Casting"] == (MISSING, None)
    code, _, err = run(capsys, "--mark", "Casting")
    assert code == 2
    assert "`Casting` was never translated: once the translation has it, the comparison finds it" in err


def test_a_status_file_this_tool_did_not_write_is_never_replaced(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    notes = project / "rules/fr/status.toml"
    notes.write_text("# the translators' own notes\n", encoding="utf-8")
    code, _, err = run(capsys, "--mark", "Moving")
    assert code == 2
    assert "`rules/fr/status.toml` exists and is not a status file this tool wrote" in err
    assert notes.read_text(encoding="utf-8") == "# the translators' own notes\n"


def test_without_a_later_edition_every_translated_section_is_current(project: Path) -> None:
    (project / "rulebook.toml").write_text(CONFIG.replace('from_edition = "first"\n', ""), encoding="utf-8")
    status = status_of(project)
    assert (status.made_from, status.latest, status.diff) == ("main", "main", None)
    assert states(status) == {
        title: (CURRENT, french) if french else (MISSING, None)
        for title, (_, french) in EXPECTED.items()
        if title != "Fleeing"
    } | {"Melee": (CURRENT, "Corps à corps")}


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (
            CONFIG.replace('from_edition = "first"', 'from_edition = "zero"'),
            "rulebook.toml: `from_edition` of the `fr` translation of book `main` must name a book "
            "(the books are: first, main), not `zero`",
        ),
        (
            CONFIG + '\n[books.errata]\nsources = ["rules/en/errata.xml"]\nchanges_from = "main"\n'
            '\n[books.second]\nsources = ["rules/en/second.xml"]\nchanges_from = "main"\n',
            "rulebook.toml: books `errata` and `second` both follow `main` (`changes_from`): the translations of "
            "`main` are compared with one latest edition; let one follow the other",
        ),
    ],
)
def test_the_editions_are_checked_with_the_configuration(
    project: Path, capsys: pytest.CaptureFixture[str], config: str, message: str
) -> None:
    (project / "rulebook.toml").write_text(config, encoding="utf-8")
    code, _, err = run(capsys)
    assert code == 2
    assert err == f"rulebook: error: {message}\n"


def test_no_translation_configured_is_a_usage_error(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--language", "de") == (
        2,
        "",
        "rulebook: error: no translation into `de` is configured (the translations: `fr` of `main`)\n",
    )
    (project / "rulebook.toml").write_text('sources = ["rules/en/book.xml"]\n', encoding="utf-8")
    assert run(capsys)[2] == "rulebook: error: no translation is configured: configure one in the project\n"


# -- the seeds ----------------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def seeds() -> TranslationStatus:
    return status_of(ROOT)


def test_seed_sections_are_outdated_exactly_where_the_edition_diff_found_changes(seeds: TranslationStatus) -> None:
    later = read_book([ROOT / "rulebook_src" / "en-later" / "turns.txt"], ROOT).book
    diff = diff_books(read_book([BUNDLED_BOOK], ROOT).book, later)
    changed = [c.new for c in diff.changed if c.changed]
    assert (
        [s.title for s in seeds.of(OUTDATED)]
        == changed
        == [
            "Turns",
            "Player Turn",
            "Active and Reactive Player",
            "Simultaneous Effects",
        ]
    )
    assert [s.translation.title for s in seeds.of(OUTDATED) if s.translation] == [
        "Jeu au tour par tour",
        "Tour de joueur",
        "Joueurs actif et réactif",
        "Effets simultanés",
    ]
    new = [s.title for s in seeds.of(MISSING) if s.new]
    assert new == diff.added == ["The terms Friendly and Enemy", "One Use Only"]
    # Elsewhere (the chapters the later edition does not cover): current, or never translated (the Deployment Phase).
    elsewhere = [s for s in seeds.sections if s.title not in changed and not s.new]
    assert {s.state for s in elsewhere if s.translation is not None} == {CURRENT}
    assert [s.title for s in elsewhere if s.translation is None] == [
        "Deployment Phase",
        "Deployment Phase Sequence",
        "Determine Who Deploys First",
        "Deploy Units",
        "Deploy Remaining Units",
        "Other Rules And Abilities",
        "Roll For First Turn",
    ]
    assert (seeds.count(CURRENT), seeds.count(OUTDATED), seeds.count(MISSING), seeds.count(ORPHANED)) == (49, 4, 9, 0)
    changes = {d for s in seeds.of(OUTDATED) for d in s.changes}
    assert changes == {d for d in diff.findings if d.code not in ("RB701", "RB702")}


def test_seed_status_page_shows_the_changed_sentences_next_to_the_old_translation(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import lxml.html

    monkeypatch.chdir(ROOT)
    assert main(["status", "--format", "html"]) == 0
    page = lxml.html.fromstring(capsys.readouterr().out)
    player = next(s for s in page.find_class("rb-outdated") if s.findtext("h3").startswith("Player Turn"))
    [row] = player.xpath(".//tbody/tr")
    before, now, french = (cell.text_content() for cell in row.findall("td"))
    assert row.findall("td")[0].xpath(".//del/text()") == ["four Phases,"]
    assert row.findall("td")[1].xpath(".//ins/text()") == ["five phases,"]
    assert before.startswith("Each Player Turn is divided into four Phases") and "Numbers 4 → 5" in now
    assert french.strip() == "Chaque Tour de Joueur se divise en quatre Phases jouées dans l'ordre suivant :"
    assert "Added: Charge Phase." in player.text_content()
    # Two sentences alike but for a word: each changed sentence beside its own translation only.
    players = next(s for s in page.find_class("rb-outdated") if s.findtext("h3").startswith("Active and Reactive"))
    assert [[p.text_content() for p in row.findall("td")[2].findall("p")] for row in players.xpath(".//tbody/tr")] == [
        ["Le Joueur Actif est le joueur qui est en train de jouer son tour."],
        ["Le Joueur Réactif est le joueur qui n'est pas en train de jouer son tour."],
    ]


# -- the translated site ------------------------------------------------------------------------------------------


def test_the_translated_site_says_which_pages_were_translated_from_an_earlier_edition(project: Path) -> None:
    import lxml.html

    assert main(["build", "-q", "--output", "out"]) == 0
    site = project / "out"

    def page(path: str) -> lxml.html.HtmlElement:
        return lxml.html.fromstring((site / path).read_text(encoding="utf-8"))

    movement = page("fr/mouvement/index.html")
    [banner] = movement.find_class("rb-outdated")
    assert banner.find_class("admonition-title")[0].text_content() == (
        "Des parties de cette page ont été traduites d'une édition antérieure\u00a0; le texte anglais a changé depuis."
    )
    item, new = banner.xpath(".//li")
    assert " ".join(item.text_content().split()) == "Se déplacer — voir la page anglaise (Moving)"
    # A section new in the original, where it would be: after the translated section before it.
    assert " ".join(new.text_content().split()) == "Pivoting — nouveau dans l'édition anglaise, pas encore traduit"
    assert new.xpath(".//a/@href") == ["../../movement/#pivoting"]
    here, there = (a.get("href") for a in item.xpath(".//a"))
    assert (
        movement.get_element_by_id(here.lstrip("#")).text_content().startswith("1.1 Se déplacer")
    )  # its number, as the source heads it
    assert there == "../../movement/#moving"  # the English page as it reads now
    english = lxml.html.fromstring((site / "movement/index.html").read_text(encoding="utf-8"))
    assert english.get_element_by_id("moving").text_content().startswith("Moving")
    assert "up to 8 inches" in english.text_content()
    # The page holds the banner before its first section, after its title.
    body = movement.find_class("md-content")[0].text_content()
    assert body.index("Mouvement") < body.index("d'une édition antérieure") < body.index("Une unité se déplace")

    combat = page("fr/combat/index.html")
    [banner] = combat.find_class("rb-outdated")
    assert [" ".join(li.text_content().split()) for li in banner.xpath(".//li")] == [
        "Corps à corps — voir la page anglaise (Melee)",
        "Fuite — l'édition anglaise n'a plus cette section (Fleeing)",
    ]
    assert banner.xpath(".//p/a/@href")[-1] == "../../changes/"  # the latest edition's "What changed"
    assert not page("fr/magie/index.html").find_class("rb-outdated")
    assert not page("movement/index.html").find_class("rb-outdated")  # the original's pages say nothing

    [status] = page("fr/index.html").find_class("rb-translation-status")
    text = " ".join(status.text_content().split())
    assert text.startswith(
        "État de la traduction Traduit de l'édition anglaise « 1.0 » ; la dernière édition anglaise est « 2.0 ». "
        "7 sections sur 10 à jour (70 %), 2 à retraduire, 1 sans traduction."
    )
    assert status.xpath(".//li/a/@href") == [
        "mouvement/#se-deplacer",
        "combat/#corps-a-corps",
        "combat/#fuite",
        "../movement/#pivoting",  # new in the original: its English page
    ]
    assert "Nouveau dans l'édition anglaise, pas encore traduit : Pivoting" in text


def test_a_section_marked_up_to_date_loses_its_banner(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert run(capsys, "--mark", "Moving")[0] == 0
    assert main(["build", "-q", "--output", "out"]) == 0
    page = (project / "out" / "fr" / "mouvement" / "index.html").read_text(encoding="utf-8")
    assert "voir la page anglaise" not in page and "Pivoting" in page  # the new section: still not translated
    assert run(capsys, "--mark", "Pivoting")[0] == 0
    assert main(["build", "-q", "--output", "out"]) == 0
    page = (project / "out" / "fr" / "mouvement" / "index.html").read_text(encoding="utf-8")
    assert "rb-outdated" not in page


def test_serve_recomputes_the_status_when_an_edition_or_the_status_file_changes(project: Path) -> None:
    from rulebook.serve.edits import touched_by

    (project / "rulebook.toml").write_text(CONFIG.replace('changes_from = "first"\n', ""), encoding="utf-8")
    loaded = load_project(project)  # the main book follows no book: only its translation's status reads `first`
    first = touched_by(loaded, loaded.books, [project / "rules/en/1.0/book.xml"])
    assert (first.books, first.later) == (("first",), ("first", "main"))  # main's translation was made from it
    marks = touched_by(loaded, loaded.books, [project / "rules/fr/status.toml"])
    assert (marks.books, marks.later) == ((), ("main",))


def test_the_status_file_keeps_any_title_as_written(tmp_path: Path) -> None:
    import tomllib

    from rulebook.errors import TerminologyError
    from rulebook.translate.status import Mark
    from rulebook.translate.status_file import is_status_file, load_marks, render_marks

    marks = (
        Mark("b", 'A "quoted" \\ title\x7f\x1b[31m', "later", "0123456789abcdef"),
        Mark("a", "Plain", "later", "fedcba9876543210"),
    )
    path = tmp_path / "status.toml"
    path.write_text(render_marks(marks, "fr"), encoding="utf-8")
    tomllib.loads(path.read_text(encoding="utf-8"))  # valid TOML, DEL and ESC escaped
    assert load_marks(path) == (marks[1], marks[0])  # one per section, sorted
    assert is_status_file(path)
    path.write_text('[[updated]]\nsection = "a"\n', encoding="utf-8")
    assert not is_status_file(path)
    with pytest.raises(TerminologyError, match=r"each \[\[updated\]\] needs a `section`, `title`, `edition`, `finger"):
        load_marks(path)


def test_a_status_file_that_cannot_be_read_stops_the_status_in_plain_words(
    project: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (project / "rules/fr/status.toml").write_text("[[updated]\n", encoding="utf-8")
    code, out, err = run(capsys)
    assert (code, out) == (2, "")
    assert err.startswith("rulebook: error: ") and "status.toml:1:" in err and "not valid TOML" in err
    assert "Traceback" not in err


def test_the_sites_words_are_filled_in_as_text_never_as_a_format_string(project: Path) -> None:
    """A project's words for the status hold other braces: they stay as written (``str.format`` failed on them, and
    reads attributes: ``{latest.__class__}``)."""
    import lxml.html

    (project / "site_templates").mkdir()
    (project / "site_templates" / "strings.toml").write_text(
        '[fr]\nstatus_counts = "{current}/{total} {latest.__class__} {0} {unknown} {{current}}"\n'
        'status_editions = "{made_from} → {latest}"\n',
        encoding="utf-8",
    )
    assert main(["build", "-q", "--output", "out"]) == 0
    home = lxml.html.fromstring((project / "out" / "fr" / "index.html").read_text(encoding="utf-8"))
    [status] = home.find_class("rb-translation-status")
    assert status.findtext("p") == "1.0 → 2.0 7/10 {latest.__class__} {0} {unknown} {7}"


def test_a_summary_line_names_twenty_marks_at_most(project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """50,000 marks of sections the original does not have were each named, one line of 490 KB; the JSON report
    lists them all."""
    assert run(capsys, "--mark", "Moving")[0] == 0
    status_file = project / "rules/fr/status.toml"
    header = status_file.read_text(encoding="utf-8").split("[[updated]]")[0]
    marks = "".join(
        f'[[updated]]\nsection = "s{n}"\ntitle = "S{n}"\nedition = "main"\nfingerprint = "{n:016x}"\n'
        for n in range(50_000)
    )
    status_file.write_text(header + marks, encoding="utf-8")
    _, out, _ = run(capsys)
    named = ", ".join(f"`S{n}`" for n in range(20))
    assert f"  Marks that no longer hold (the original changed again, or is gone): {named}, and 49,980 more " in out
    assert len(json.loads(run(capsys, "--format", "json")[1])["status"][0]["stale_marks"]) == 50_000
