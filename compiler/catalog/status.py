"""A translation against the latest edition of its original: which translated sections are out of date.

Reported by ``rulebook status`` (:mod:`rulebook.translate.status`), which joins the comparison of the
translation with the edition it was made from and the edition diff from that edition to the latest one.
A section's status is placed in the translation where there is one, with the original's place as its
counterpart; the diff's own findings (``RB7xx``) follow, to say what changed.
"""

from __future__ import annotations

from rulebook.diagnostics import Rule, Severity

OUTDATED_TRANSLATION = Rule(
    "RB651",
    "outdated-translation",
    Severity.WARNING,
    "the original of a translated section changed since the edition it was translated from",
    """
## What it does
Pairs each section of the latest edition of the original with the section
of the edition the translation was made from (the edition diff's match, by
title or as renamed), and that one with its translated section (the
comparison's alignment). A translated section whose original changed in
between (its text, numbers, steps or title) is out of date; the diff's
findings for that section follow it, saying which sentences and numbers
changed.

## Why is this bad?
Readers of the translation play by rules the original no longer has.

## Example
The French *Tour* was translated when a Round had three steps; the later
English edition gives it four, starting with a new Scouting step.

Once the translated section says what the original now says, `rulebook
status --mark "Round"` records it as up to date.
""",
)

UNTRANSLATED_SECTION = Rule(
    "RB652",
    "section-without-translation",
    Severity.WARNING,
    "a section of the latest edition of the original has no translated section",
    """
## What it does
Reports each section of the latest edition of the original that the
translation lacks: a section new since the edition the translation was
made from, or one the translation never had.

## Why is this bad?
A reader of the translation misses the rule, and nothing on the translated
site says so but the notice of an untranslated section.

## Example
*One Use Only*, new in the later English edition of the *Turns* rules.

A new section, once translated, is marked: `rulebook status --mark "One
Use Only"`; one the translation never had is found by the alignment once it
is translated.
""",
)

ORPHANED_TRANSLATION = Rule(
    "RB653",
    "orphaned-translation",
    Severity.WARNING,
    "a translated section whose original is gone from the latest edition",
    """
## What it does
Reports each translated section whose original, in the edition the
translation was made from, is not in the latest edition: the edition diff
finds it removed (a section renamed with its text alike is matched, not
removed).

## Why is this bad?
Readers of the translation read a rule that no longer exists.

## Example
*Fuite*, the translation of a *Fleeing* section the new edition dropped.
""",
)
